package spec_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"os"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/spec"
	"github.com/google/go-cmp/cmp"
)

// withFiles returns options that read the given files (by path) and
// nothing else.
func withFiles(files map[string]string, limits model.Limits) spec.Options {
	return spec.Options{Limits: limits, ReadFile: func(path string) (string, error) {
		if src, ok := files[path]; ok {
			return src, nil
		}
		return "", fmt.Errorf("open %s: %w", path, fs.ErrNotExist)
	}}
}

// TestExplicitFiles: the files PRISM exports for randomized_response.prism
// (models/prism) give its chain: states s0..s5 with the .sta's values
// (booleans as 0 and 1) and the .lab's labels, the exact probabilities of
// the .tra, and the states labelled "init" as inputs, every two of them
// neighbours.
func TestExplicitFiles(t *testing.T) {
	files := map[string]string{}
	for _, ext := range []string{".tra", ".lab", ".sta"} {
		data, err := os.ReadFile("../models/prism/randomized_response" + ext)
		if err != nil {
			t.Fatal(err)
		}
		files["m"+ext] = string(data)
	}
	src := "model explicit(\"m.tra\", \"m.lab\", \"m.sta\")\ncheck dp(eps = ln(3))\n"
	p, err := withFiles(files, model.Limits{}).Load(context.Background(), "m.dp", src)
	if err != nil {
		t.Fatal(err)
	}
	mech, err := p.Model.Build(context.Background(), model.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	got := describeLoad(&property.Program{Model: &property.ChainModel{Chain: mech.Chain}}, nil)
	want := loaded{
		States: []string{
			"s0 (truth=0, answer=0) [init] true",
			"s1 (truth=0, answer=1) [deadlock yes] false",
			"s2 (truth=0, answer=2) [deadlock] false",
			"s3 (truth=1, answer=0) [init] true",
			"s4 (truth=1, answer=1) [deadlock yes] false",
			"s5 (truth=1, answer=2) [deadlock] false",
		},
		Rows: []string{"s0 -> s1: 1/4 s2: 3/4", "s1 -> s1: 1", "s2 -> s2: 1", "s3 -> s4: 3/4 s5: 1/4", "s4 -> s4: 1", "s5 -> s5: 1"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("chain (-want +got):\n%s", diff)
	}
	pairs, err := model.AllPairs(mech.Chain.Inputs(), 1<<20)
	if err != nil || !mech.AllPairs || mech.Neighbours != nil {
		t.Errorf("every two inputs should be neighbours, made when needed: AllPairs %v, Neighbours %v, %v", mech.AllPairs, mech.Neighbours, err)
	}
	if diff := cmp.Diff([][2]int{{0, 3}}, pairs); diff != "" {
		t.Errorf("neighbours (-want +got):\n%s", diff)
	}
	info := p.Model.Info()
	if info.Kind != "prism" || info.Call != `explicit("m.tra", "m.lab", "m.sta")` || !strings.HasPrefix(mech.Note, "6 states with 8 transitions") {
		t.Errorf("model %+v, note %q", info, mech.Note)
	}
}

// TestExplicitNumbers: decimals, PRISM's doubles and fractions are the
// rationals they denote; without a .lab file state 0 is the one input.
func TestExplicitNumbers(t *testing.T) {
	files := map[string]string{"m.tra": "3 5\n0 1 1.0E-1\n0 2 0.9\n1 0 1/3\n1 2 0.6666666666666667\n2 2 1 loop\n"}
	src := "model explicit(\"m.tra\")\ncheck dp(eps = 1)\n"
	_, err := withFiles(files, model.Limits{}).Load(context.Background(), "m.dp", src)
	// 1/3 + 6666666666666667/10^16 = 1 + 1/(3·10^16)
	want := []string{"m.tra:4:1: the probabilities of state 1 sum to 30000000000000001/30000000000000000, not 1 (1/30000000000000000 too much; PRISM writes rounded decimals unless it exports with -exact) []"}
	if diff := cmp.Diff(want, errorLines(err)); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
	files["m.tra"] = "3 5\n0 1 1.0E-1\n0 2 0.9\n1 0 1/3\n1 2 2/3\n2 2 1 loop\n"
	p, err := withFiles(files, model.Limits{}).Load(context.Background(), "m.dp", src)
	if err != nil {
		t.Fatal(err)
	}
	mech, _ := p.Model.Build(context.Background(), model.Limits{})
	c := mech.Chain
	got := []*big.Rat{c.Prob(0, 1), c.Prob(0, 2), c.Prob(1, 0), c.Prob(1, 2), c.Prob(2, 2)}
	wantP := []*big.Rat{big.NewRat(1, 10), big.NewRat(9, 10), big.NewRat(1, 3), big.NewRat(2, 3), big.NewRat(1, 1)}
	if diff := cmp.Diff(wantP, got, ratCmp); diff != "" {
		t.Errorf("probabilities (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{0}, c.Inputs()); diff != "" {
		t.Errorf("inputs (-want +got):\n%s", diff)
	}
}

// errorLines writes a load's errors as "file:line:col: message [limit]".
func errorLines(err error) []string {
	if err == nil {
		return nil
	}
	var list source.ErrorList
	if !errors.As(err, &list) {
		return []string{"not a list: " + err.Error()}
	}
	var out []string
	for _, e := range list {
		out = append(out, fmt.Sprintf("%s: %s [%s]", e.Pos, e.Msg, e.Limit))
	}
	return out
}

// TestExplicitErrors: every error of the files is reported at once, in its
// file, at its line and column.
func TestExplicitErrors(t *testing.T) {
	const tra = "2 3\n0 0 1/2\n0 1 1/2\n1 1 1\n"
	const lab = "0=\"init\" 1=\"done\"\n0: 0\n1: 0 1\n"
	const sta = "(x,b)\n0:(0,false)\n1:(-3,true)\n"
	const call = "model explicit(\"m.tra\", \"m.lab\", \"m.sta\")\ncheck dp(eps = 1)\n"
	cases := []struct {
		name          string
		dp            string
		tra, lab, sta string
		limits        model.Limits
		want          []string
	}{
		{name: "no file", dp: "model explicit()\ncheck dp(eps = 1)\n",
			want: []string{`m.dp:1:7: explicit takes PRISM's explicit files, in quotes: explicit("m.tra", "m.lab"), and "m.sta" for the states' values []`}},
		{name: "not strings", dp: "model explicit(mtra, x = \"m.lab\")\ncheck dp(eps = 1)\n",
			want: []string{`m.dp:1:16: explicit takes PRISM's explicit files, in quotes: explicit("m.tra", "m.lab"), and "m.sta" for the states' values []`, `m.dp:1:22: explicit takes PRISM's explicit files, in quotes: explicit("m.tra", "m.lab"), and "m.sta" for the states' values []`}},
		{name: "other files", dp: "model explicit(\"m.lab\", \"n.lab\", \"m.pm\")\ncheck dp(eps = 1)\n",
			want: []string{`m.dp:1:25: two .lab files: "m.lab" and "n.lab" []`, `m.dp:1:34: "m.pm" is not one of PRISM's explicit files: give a .tra file, a .lab file and a .sta file []`}},
		{name: "no transitions", dp: "model explicit(\"m.lab\")\ncheck dp(eps = 1)\n", lab: lab,
			want: []string{`m.dp:1:7: explicit needs the .tra file of transitions: explicit takes PRISM's explicit files, in quotes: explicit("m.tra", "m.lab"), and "m.sta" for the states' values []`}},
		{name: "unreadable", dp: call, lab: lab, sta: sta,
			want: []string{`m.dp:1:16: cannot read the PRISM explicit file "m.tra": no such file []`}},
		{name: "inputs", dp: call + "inputs s0\n", tra: tra, lab: lab, sta: sta,
			want: []string{`m.dp:3:1: the inputs of PRISM's explicit files are the states labelled "init"; inputs is only for chain blocks []`}},
		{name: "empty", dp: call, tra: "", lab: lab, sta: sta,
			want: []string{"m.tra:1:1: the .tra file is empty: its first line gives the number of states and of transitions []"}},
		{name: "header", dp: call, tra: "2\n0 0 1\n", lab: lab, sta: sta,
			want: []string{"m.tra:1:1: the first line of a .tra file gives the number of states and of transitions: N M (found 1 field) []"}},
		{name: "states limit", dp: call, tra: tra, lab: lab, sta: sta, limits: model.Limits{MaxStates: 1},
			want: []string{"m.tra:1:1: the model has 2 states; the limit is 1 states [states]"}},
		{name: "transitions limit", dp: call, tra: tra, lab: lab, sta: sta, limits: model.Limits{MaxTransitions: 4},
			want: []string{"m.tra:1:1: the model would have about 5 transitions; the limit is 4 transitions [transitions]"}},
		{name: "bits limit", dp: call, tra: tra, lab: lab, sta: sta, limits: model.Limits{MaxBits: 4},
			want: []string{"m.tra:3:5: the numbers of this file need more than 4 bits in all; the limit is 4 bits [bits]"}},
		{name: "transitions", dp: call, lab: lab, sta: sta,
			tra: "2 4\n0 2 1/2\nx 0 1/2\n0 0 0.5 act\n0 1 3/2\n1 1 1/0\n1 1 one\n1 0\n",
			want: []string{
				`m.tra:2:3: "2" is not a state: the states are 0 to 1 []`,
				`m.tra:3:1: "x" is not a state: the states are 0 to 1 []`,
				"m.tra:5:5: probability 3/2 is greater than 1 []",
				"m.tra:6:1: the first line says the file has 4 transitions; this is one more []",
				"m.tra:6:5: division by zero []",
				`m.tra:7:5: "one" is not a probability: write a decimal (0.25, 1.0E-4) or a fraction (1/4) []`,
				"m.tra:8:1: a transition is SOURCE TARGET PROBABILITY (and an action): found 2 fields []",
			}},
		{name: "sums", dp: call, lab: lab, sta: sta,
			tra: "2 4\n1 1 1/2\n0 0 1/2\n0 1 3/4\n1 1 1/2\n",
			want: []string{
				"m.tra:3:1: the probabilities of state 0 sum to 5/4, not 1 (1/4 too much; PRISM writes rounded decimals unless it exports with -exact) []",
				"m.tra:5:1: the transition from 1 to 1 is listed twice (also at line 2) []",
			}},
		{name: "fewer transitions", dp: call, lab: lab, sta: sta, tra: "2 3\n0 1 1\n",
			want: []string{"m.tra:1:1: the first line says the file has 3 transitions; it has 1 []"}},
		{name: "labels", dp: call, tra: tra, sta: sta,
			lab: "0=\"done\" x=\"y\" 0=\"again\" 444444444=\"far\"\n0: 0 4\n7: 0\nzero\n",
			want: []string{
				`m.lab:1:1: the labels file has no "init" label: PRISM marks the initial states with it []`,
				`m.lab:1:10: "x=\"y\"" is not a label: the first line of a .lab file lists them as 0="init" 1="deadlock" …, each name an identifier []`,
				"m.lab:1:16: label 0 is declared twice []",
				"m.lab:1:26: label 444444444: the labels are numbered from 0, one for each on this line (0 to 3) []",
				`m.lab:2:6: "4" is not a label of the first line []`,
				`m.lab:3:1: "7" is not a state: the states are 0 to 1 []`,
				"m.lab:4:1: a line of a .lab file is STATE: LABEL LABEL … []",
			}},
		{name: "no initial state", dp: call, tra: tra, sta: sta, lab: "0=\"init\"\n",
			want: []string{`m.lab:1:1: no state is labelled "init": the model has no initial state []`}},
		{name: "states", dp: call, tra: tra, lab: lab,
			sta: "(x,b)\n0:(0,maybe)\n0:(1,true)\n5:(1,true)\n1:(2)\n",
			want: []string{
				`m.sta:2:1: "maybe" is not a value: write an integer, true or false []`,
				"m.sta:3:1: state 0 is given twice (also at line 2) []",
				`m.sta:4:1: "5" is not a state: the states are 0 to 1 []`,
				"m.sta:5:1: state 1 has 1 values for 2 variables []",
			}},
		{name: "missing state", dp: call, tra: tra, lab: lab, sta: "(x)\n1:(2)\n",
			want: []string{"m.sta:1:1: the file gives the values of 1 of the 2 states (not of state 0) []"}},
		{name: "variables", dp: call, tra: tra, lab: lab, sta: "(x,2y)\n",
			want: []string{`m.sta:1:1: "2y" is not a variable name []`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{}
			for name, src := range map[string]string{"m.tra": tc.tra, "m.lab": tc.lab, "m.sta": tc.sta} {
				if src != "" || tc.name == "empty" && name == "m.tra" {
					files[name] = src
				}
			}
			_, err := withFiles(files, tc.limits).Load(context.Background(), "m.dp", tc.dp)
			if diff := cmp.Diff(tc.want, errorLines(err)); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

// TestExplicitStops: a context that ends while a long .tra file is read
// ends the load with the context's error.
func TestExplicitStops(t *testing.T) {
	var b strings.Builder
	b.WriteString("5000 5000\n")
	for i := range 5000 {
		fmt.Fprintf(&b, "%d %d 1\n", i, (i+1)%5000)
	}
	files := map[string]string{"m.tra": b.String()}
	ctx := &countdown{Context: context.Background(), n: 2}
	if _, err := withFiles(files, model.Limits{}).Load(ctx, "m.dp", "model explicit(\"m.tra\")\ncheck dp(eps = 1)\n"); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
}

// FuzzExplicit: no .tra, .lab and .sta files make the reader panic; every
// error is positioned inside the file it names; files that load give a
// chain of as many states as the .tra says.
//
//	go test ./spec -run '^$' -fuzz FuzzExplicit -fuzztime 60s
func FuzzExplicit(f *testing.F) {
	f.Add("2 3\n0 0 1/2\n0 1 1/2\n1 1 1\n", "0=\"init\" 1=\"done\"\n0: 0\n1: 0 1\n", "(x,b)\n0:(0,false)\n1:(-3,true)\n")
	f.Add("3 5\n0 1 1.0E-1\n0 2 0.9\n1 0 1/3\n1 2 0.6666666666666667\n2 2 1 loop\n", "", "")
	f.Add("2 6\n0 2 1/2\nx 0 1/2\n0 0 0.5 act\n0 1 3/2\n1 1 1/0\n1 1 one\n1 0\n", "0=\"done\" x=\"y\"\n0: 0 4\n", "(x,2y)\n")
	limits := model.Limits{MaxStates: 1000, MaxTransitions: 10_000, MaxBits: 1 << 16}
	f.Fuzz(func(t *testing.T, tra, lab, sta string) {
		files := map[string]string{"m.tra": tra, "m.lab": lab, "m.sta": sta}
		p, err := withFiles(files, limits).Load(context.Background(), "m.dp", "model explicit(\"m.tra\", \"m.lab\", \"m.sta\")\ncheck dp(eps = 1)\n")
		if err != nil {
			list, ok := err.(source.ErrorList)
			if !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			for _, e := range list {
				src, known := files[e.Pos.Filename]
				if e.Pos.Filename == "m.dp" {
					continue
				}
				if lines := strings.Count(src, "\n") + 1; !known || e.Pos.Line < 1 || e.Pos.Line > lines || e.Pos.Column < 1 {
					t.Fatalf("error %q at %s is outside its file", e.Msg, e.Pos)
				}
			}
			_ = list.PrettyIn(func(name string) (string, bool) { src, ok := files[name]; return src, ok })
			return
		}
		mech, err := p.Model.Build(context.Background(), limits)
		if err != nil {
			t.Fatal(err)
		}
		var n int
		fmt.Sscan(tra, &n)
		if mech.Chain.NumStates() != n {
			t.Fatalf("%d states, the .tra says %d", mech.Chain.NumStates(), n)
		}
	})
}
