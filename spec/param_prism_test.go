package spec_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/property"
	"github.com/google/go-cmp/cmp"
)

// choicePRISM is a PRISM DTMC whose input x = 1 enables two commands,
// mixed uniformly as PRISM does, and whose outputs are deadlocks: from x =
// 1, Pr[y = 1] = (p + 1/2)/2; from x = 0, 1/2. For p in [1/2, 1) the
// largest ratio is Pr[y = 2 | x = 0] / Pr[y = 2 | x = 1] = 2/(3 - 2p).
const choicePRISM = `dtmc
const double p;
module m
  x : [0..1];
  y : [0..2];
  [] y=0 & x=1 -> p : (y'=1) + 1-p : (y'=2);
  [] y=0 -> 1/2 : (y'=1) + 1/2 : (y'=2);
endmodule
init y=0 endinit
`

// TestParamPRISM: a PRISM model's undefined double constant named by the
// file's param statement is the parameter: ε for every p in [1/2, 1)
// is the closed form worked out above, and agrees with the same model
// built with p = 3/4 given.
func TestParamPRISM(t *testing.T) {
	rr, err := os.ReadFile("../models/prism/randomized_response.prism")
	if err != nil {
		t.Fatal(err)
	}
	squares := "dtmc\nconst double p;\nconst double c0 = p;\n"
	for k := 1; k <= 40; k++ {
		squares += fmt.Sprintf("const double c%d = c%d*c%d;\n", k, k-1, k-1)
	}
	squares += "module m\n  s : [0..2];\n  [] s=0 -> c40 : (s'=1) + 1 - c40 : (s'=2);\nendmodule\n"
	files := map[string]string{"m.prism": choicePRISM, "rr.prism": string(rr),
		"guard.prism":   strings.Replace(choicePRISM, "[] y=0 ->", "[] y=0 & p > 0 ->", 1),
		"range.prism":   strings.Replace(choicePRISM, "y : [0..2];", "y : [0..ceil(p) + 1];", 1),
		"int.prism":     strings.Replace(choicePRISM, "const double p;", "const double p;\nconst int N = ceil(p);", 1),
		"defined.prism": strings.Replace(choicePRISM, "const double p;", "const double p = 1/2;", 1),
		"squares.prism": squares}
	cfg := dpcheck.Config{ReadFile: func(path string) (string, error) {
		if src, ok := files[path]; ok {
			return src, nil
		}
		return "", fmt.Errorf("open %s: %w", path, fs.ErrNotExist)
	}}
	for name, src := range map[string]string{
		"parameter": "param p in [1/2, 1)\nmodel prism(\"m.prism\")\noutputs var y\nquery eps(delta = 0) for p expect ln(2/(3 - 2*p))\ncheck dp(eps = ln(8/5)) for p expect violated\n",
		"p = 3/4":   "model prism(\"m.prism\", p = 3/4)\noutputs var y\nquery eps(delta = 0) expect ln(4/3)\n",
		// Randomized response written as a module, for every p, is the
		// PRISM model; with the answers swapped it differs.
		"equivalent": "param p in (0, 1)\nmodule survey\n  input truth : bool;\n  answer : [0..2] init 0;\n" +
			"  [] answer = 0 & truth -> (1+p)/2 : (answer' = 1) + (1-p)/2 : (answer' = 2);\n" +
			"  [] answer = 0 & !truth -> (1-p)/2 : (answer' = 1) + (1+p)/2 : (answer' = 2);\nendmodule\nneighbours truth != truth'\n" +
			"check equivalent(model, prism(\"rr.prism\")) for p\n" +
			"check equivalent(prism(\"rr.prism\"), prism(\"rr.prism\", p = 1/2)) for p expect violated\n",
	} {
		r, err := cfg.CheckSource(context.Background(), "t.dp", src)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, o := range r.Statements {
			if !o.Pass() {
				t.Errorf("%s: %s: %s", name, o.Statement().Head().Text, o.Value())
			}
		}
	}
	for _, tc := range []struct{ src, want string }{
		{"param q in (0, 1)\nmodel prism(\"m.prism\")\nquery eps(delta = 0) for q\n", "2:7: the PRISM model has no undefined constant q to be the parameter (its undefined constants: p): declare it const double q; in the model"},
		{"param p in (0, 1)\nmodel prism(\"m.prism\", p = 1/2)\nquery eps(delta = 0) for p\n", "2:24: p is the parameter (param p in …): it takes every value of its interval, and no value here"},
		{"param p in (0, 1)\nmodel prism(\"guard.prism\")\nquery eps(delta = 0) for p\n", "guard.prism:7:6: a guard must not depend on the parameter p: the chain's graph must be the same for every p (it may appear in an update's probability)"},
		{"param p in (0, 1)\nmodel prism(\"range.prism\")\nquery eps(delta = 0) for p\n", "range.prism:5:11: the high bound of y must be constant, and it depends on the parameter p: the chain's graph must be the same for every value"},
		{"param p in (0, 1)\nmodel prism(\"int.prism\")\nquery eps(delta = 0) for p\n", "int.prism:3:15: N is a constant of type int, and its value depends on the parameter p: only a double constant may (a probability)"},
		{"param p in (0, 1)\nmodel prism(\"defined.prism\")\nquery eps(delta = 0) for p\n", "2:7: the PRISM model defines p (defined.prism line 2): leave it undefined, const double p;, to make it the parameter"},
		// Constants squared 40 times expand to 2^40 nodes: refused at the
		// limit on what expressions expand to, at once.
		{"param p in (0, 1)\nmodel prism(\"squares.prism\")\nquery eps(delta = 0) for p\n", "squares.prism:5:22: the expressions expand to more than 1,000,000 nodes here, every formula written out where it is used and every named property where it is referred to; the limit is 1,000,000 nodes: simplify them"},
	} {
		want := tc.want
		if !strings.Contains(want, ".prism:") {
			want = "t.dp:" + want
		}
		_, err := cfg.Load(context.Background(), "t.dp", tc.src)
		if err == nil || err.Error() != want {
			t.Errorf("%q:\n got %v\nwant %s", tc.src, err, want)
		}
	}
}

// TestParamExpectedEveryInput: an expected value for every parameter
// value is given for every input, also one in no neighbouring pair (d = 2
// here): from d, the output is d + 1 with probability alpha and d
// otherwise, so E[out] = d + alpha.
func TestParamExpectedEveryInput(t *testing.T) {
	src := "param alpha in (0, 1)\nmodule m\n  input d : [0..2];\n  out : [0..3] init 0;\n  done : bool init false;\n  [] !done -> alpha : (out' = d + 1) & (done' = true) + 1 - alpha : (out' = d) & (done' = true);\nendmodule\nneighbours d + d' = 1\nquery expected(out) for alpha\n"
	r, err := dpcheck.CheckSource(context.Background(), "e.dp", src)
	if err != nil {
		t.Fatal(err)
	}
	o, ok := r.Statements[0].(*property.ParamExpectedOutcome)
	if !ok {
		t.Fatalf("%T", r.Statements[0])
	}
	var got []string
	for _, v := range o.Values {
		got = append(got, v.State.Name+": "+v.F.Format("alpha"))
	}
	want := []string{"s0: alpha", "s1: alpha + 1", "s2: alpha + 2"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}
