package prism_test

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/prism"
	"github.com/dpcheck/dpcheck/property"
)

// TestParamPropertiesAgainstInstances checks P=? [ψ] for every value of p
// (Config.PRISMParam) on random cyclic DTMCs against the ordinary checker
// on the same file with p given a value (--const p=…), at three values:
// two independent computations, state elimination over rational functions
// and exact linear systems over the rationals.
func TestParamPropertiesAgainstInstances(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 11))
	props := "P=? [ F s=N ]\nP=? [ s<K U s=N ]\nP=? [ G !(s=1) ]\nP=? [ F \"low\" ]\nP=? [ !\"low\" U s=N ]\n" +
		"D{?, 0} [ F s=N ]\nD{?, 1/10} [ s<K U s=N ]\nP=? [ F \"deadlock\" ]\nP=? [ !\"deadlock\" U s=1 ]\n"
	par, err := prism.ParseParam("p=(0,1)")
	if err != nil {
		t.Fatal(err)
	}
	for range 40 {
		n := 3 + rng.IntN(6)
		var b strings.Builder
		fmt.Fprintf(&b, "dtmc\nconst double p;\nconst int N = %d;\nconst int K = %d;\nlabel \"low\" = s<2 & s>0;\nmodule m\n  s : [0..N];\n", n, 1+rng.IntN(max(n/2, 1)))
		for s := range n { // s = N has no command: a deadlock, absorbing
			a, c := rng.IntN(n+1), rng.IntN(n+1)
			switch rng.IntN(4) {
			case 0:
				fmt.Fprintf(&b, "  [] s=%d -> (s'=%d);\n", s, a)
			case 1:
				fmt.Fprintf(&b, "  [] s=%d -> 1/3 : (s'=%d) + 2/3 : (s'=%d);\n", s, a, c)
			case 2:
				fmt.Fprintf(&b, "  [] s=%d -> p*p : (s'=%d) + 1-p*p : (s'=%d);\n", s, a, c)
			default:
				fmt.Fprintf(&b, "  [] s=%d -> p : (s'=%d) + 1-p : (s'=%d);\n", s, a, c)
			}
		}
		b.WriteString("endmodule\ninit s<2 endinit\n") // two inputs, neighbours
		model := b.String()
		cfg := files(map[string]string{"m.pm": model, "p.pctl": props})
		cfg.PRISMParam = par
		res, err := cfg.CheckPRISM(context.Background(), "m.pm", "p.pctl", nil)
		if err != nil {
			t.Fatalf("%s: %v", model, err)
		}
		for _, x := range []string{"1/3", "1/2", "4/5"} {
			consts, err := prism.ParseConsts("p=" + x)
			if err != nil {
				t.Fatal(err)
			}
			inst := mustCheck(t, model, props, consts)
			want := probs(t, inst)
			var got []map[string]*big.Rat
			for k, o := range res.Statements {
				if o.Err() != nil {
					t.Fatalf("%s\n%s: %v", model, o.Statement().Head().Text, o.Err())
				}
				if eo, ok := o.(*property.ParamEpsOutcome); ok {
					eps, err := eo.Result.Eps(rat(x))
					if err != nil {
						t.Fatal(err)
					}
					// want holds the instance's D{?, δ} as text; ε itself is compared.
					if w := epsOf(t, inst, k); !w.Equal(eps) {
						t.Fatalf("%s\np = %s, %s: ε = %s for every p, %s at p", model, x, o.Statement().Head().Text, eps, w)
					}
					got = append(got, want[k])
					continue
				}
				po, ok := o.(*property.ParamExpectedOutcome)
				if !ok {
					t.Fatalf("%s\n%s: %T", model, o.Statement().Head().Text, o)
				}
				m := map[string]*big.Rat{}
				for _, v := range po.Values {
					if m[v.State.Valuation.String()], err = v.F.Eval(rat(x)); err != nil {
						t.Fatal(err)
					}
				}
				got = append(got, m)
			}
			if d := cmp.Diff(want, got, ratCmp); d != "" {
				t.Fatalf("%s\np = %s (-instance +for every p):\n%s", model, x, d)
			}
		}
	}
}

// epsOf returns the least ε of the D{?, δ} query of statement k.
func epsOf(t *testing.T, r *dpcheck.Result, k int) exact.Eps {
	t.Helper()
	o, ok := r.Statements[k].(*property.DBoundOutcome)
	if !ok || o.Result == nil {
		t.Fatalf("statement %d: %T %v", k, r.Statements[k], r.Statements[k].Err())
	}
	return o.Result.Eps
}

// TestParseParam: PRISM's NAME=LO:HI is the closed interval; NAME=(LO,HI)
// takes open or closed ends; ends are exact and may be negative; the rest
// is an error naming what is wrong.
func TestParseParam(t *testing.T) {
	for _, c := range []struct{ def, want string }{
		{"p=0:1", "p in [0, 1]"},
		{" p = (0, 1) ", "p in (0, 1)"},
		{"q=[1/4,0.75)", "q in [1/4, 3/4)"},
		{"a=(-1/2:1/2]", "a in (-1/2, 1/2]"},
		{"p=1:0", `p: the interval [1, 0] is empty or a point: its low end must be below its high end`},
		{"p=1/3:1/3", `p: the interval [1/3, 1/3] is empty or a point: its low end must be below its high end`},
		{"p=(0,1", `p: "(0,1" is not an interval LO:HI or (LO,HI)`},
		{"p", `"p" is not a parameter NAME=LO:HI or NAME=(LO,HI) (such as p=0:1 or p=(0,1))`},
		{"2p=0:1", `"2p=0:1" is not a parameter NAME=LO:HI or NAME=(LO,HI) (such as p=0:1 or p=(0,1))`},
		{"p=x:1", "p: "},
	} {
		p, err := prism.ParseParam(c.def)
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = p.Name + " in " + p.Interval.String()
		}
		if got != c.want && !(strings.HasSuffix(c.want, ": ") && strings.HasPrefix(got, c.want)) {
			t.Errorf("ParseParam(%q) = %s, want %s", c.def, got, c.want)
		}
	}
}

// TestParamConditionRefused: a condition of a property that reads the
// parameter is refused on its own line for every value (it would change
// the chain's graph); the file's other properties are computed.
func TestParamConditionRefused(t *testing.T) {
	const model = "dtmc\nconst double p;\nmodule m\n  s : [0..2] init 0;\n  [] s=0 -> p : (s'=1) + 1-p : (s'=2);\nendmodule\n"
	par, err := prism.ParseParam("p=(0,1)")
	if err != nil {
		t.Fatal(err)
	}
	cfg := files(map[string]string{"m.pm": model, "p.pctl": "P=? [ F s=1 ]\nP=? [ F s=p ]\nP>0 [ F s>p*2 ]\n"})
	cfg.PRISMParam = par
	res, err := cfg.CheckPRISM(context.Background(), "m.pm", "p.pctl", nil)
	if err != nil {
		t.Fatal(err)
	}
	var sts []property.Statement
	for _, o := range res.Statements {
		sts = append(sts, o.Statement())
	}
	msg := ": a condition that reads the parameter p is not supported for every value (it would change the chain's graph); to check this property at one value of p, give it a value (p = …) when loading the model"
	if d := cmp.Diff([]string{"p.pctl:2:9" + msg, "p.pctl:3:9" + msg}, refusedOf(sts)); d != "" {
		t.Errorf("refused (-want +got):\n%s", d)
	}
	if o := res.Statements[0]; o.Err() != nil || !o.Pass() {
		t.Errorf("P=? [ F s=1 ]: %v", o.Err())
	}
}
