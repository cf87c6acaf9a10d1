package prism_test

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/prism"
	"github.com/dpcheck/dpcheck/property"
	"github.com/google/go-cmp/cmp"
)

// Conformance: every model of the external models (third-party files read
// in place, see externalModels) loads as PRISM reads it, with the state
// and transition counts and the exact probabilities of each folder's
// EXPECTED.md; what dpcheck refuses is refused precisely. Properties the
// folders do not provide are written by the tests.

// external returns the path of an external model, skipping the test when
// the folder is absent.
func external(t *testing.T, rel string) string {
	t.Helper()
	path, _ := readExternal(t, rel)
	return path
}

// checkExternal checks an external model against properties written here
// (or an external properties file when props names one).
func checkExternal(t *testing.T, model, props string, consts map[string]prism.Value) (*dpcheck.Result, error) {
	t.Helper()
	path := external(t, model)
	pp := filepath.Join(t.TempDir(), "p.pctl")
	if strings.HasSuffix(props, ".pctl") {
		pp = external(t, props)
	} else if err := os.WriteFile(pp, []byte(props), 0o644); err != nil {
		t.Fatal(err)
	}
	return dpcheck.Config{}.CheckPRISM(context.Background(), path, pp, consts)
}

func mustExternal(t *testing.T, model, props string, consts map[string]prism.Value) *dpcheck.Result {
	t.Helper()
	res, err := checkExternal(t, model, props, consts)
	if err != nil {
		t.Fatalf("%s: %v", model, err)
	}
	return res
}

// size checks the states and transitions of a result.
func size(t *testing.T, res *dpcheck.Result, states, transitions, inputs int) {
	t.Helper()
	if s := res.Size; s.States != states || s.Transitions != transitions || s.Inputs != inputs {
		t.Errorf("%d states, %d transitions, %d inputs; want %d, %d, %d", s.States, s.Transitions, s.Inputs, states, transitions, inputs)
	}
}

func rat(s string) *big.Rat {
	x, ok := new(big.Rat).SetString(s)
	if !ok {
		panic(s)
	}
	return x
}

// TestConformanceYN: the dpCTL plug-in's survey, with its own properties
// file: three initial states, P(F s=2) = 3/4, 1/4, 1/2, and D{3,0}[…] (ε
// = 3, not ln 3) holds; the two deadlock states get a self-loop.
func TestConformanceYN(t *testing.T) {
	res := mustExternal(t, "dpctl_epmc/yn.prism", "dpctl_epmc/yn.pctl", nil)
	size(t, res, 5, 8, 3)
	if res.Size.Pairs != 3 || res.Model.Neighbours != prism.Neighbours {
		t.Errorf("%d pairs, neighbours %q; want every two of the 3 initial states", res.Size.Pairs, res.Model.Neighbours)
	}
	if !strings.Contains(res.Model.Note, "2 deadlock states got a self-loop (as PRISM does)") {
		t.Errorf("note %q does not count the 2 deadlock states", res.Model.Note)
	}
	got := probs(t, res)
	want := []map[string]*big.Rat{
		{"s=0": rat("3/4"), "s=1": rat("1/4"), "s=4": rat("1/2")},
		{"holds": new(big.Rat)},
	}
	if d := cmp.Diff(want, got, ratCmp); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestConformanceYNAsDP: the same model named by a .dp file: tight ε ln 3
// (s=0 vs s=1) and δ = 1/2 at ε = 0 over the final states.
func TestConformanceYNAsDP(t *testing.T) {
	model, err := filepath.Abs(external(t, "dpctl_epmc/yn.prism"))
	if err != nil {
		t.Fatal(err)
	}
	src := fmt.Sprintf("model prism(%q)\nquery eps(delta = 0) expect ln(3)\nquery delta(eps = 0) expect 1/2\ncheck D{3, 0}[F s = 2]\n", model)
	// The model is named by its absolute path: below the root given.
	res, err := dpcheck.Config{Root: filepath.Dir(model)}.CheckSource(context.Background(), "yn.dp", src)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range res.Statements {
		if !o.Pass() {
			t.Errorf("%s: %s", o.Statement().Head().Text, o.Value())
		}
	}
	if len(res.Statements) != 3 {
		t.Errorf("%d statements, want 3", len(res.Statements))
	}
}

// TestConformanceAboveThreshold: the plug-in's above-threshold model, two
// modules synchronising on [a]: 223 states, 883 transitions, six initial
// states, and the exact P(X^k (d=-1)) of EXPECTED.md for k = 1..4; every d
// halts with probability 1, and its own properties file checks.
func TestConformanceAboveThreshold(t *testing.T) {
	props := "P=? [ X (d=-1) ]\nP=? [ X X (d=-1) ]\nP=? [ X X X (d=-1) ]\nP=? [ X X X X (d=-1) ]\nP=? [ F d=-1 ]\n"
	res := mustExternal(t, "dpctl_epmc/Abovethreshold.prism", props, nil)
	size(t, res, 223, 883, 6)
	table := map[int][]string{
		0: {"0", "13/240", "1163/11520", "15941/110592"},
		1: {"0", "101/960", "137/720", "18217/69120"},
		2: {"0", "389/1920", "793/2304", "31301/69120"},
		3: {"0", "289/768", "26573/46080", "77497/110592"},
		4: {"0", "4901/7680", "154829/184320", "4060061/4423680"},
		5: {"0", "12581/15360", "707789/737280", "35025821/35389440"},
	}
	want := make([]map[string]*big.Rat, 5)
	for k := range want {
		want[k] = map[string]*big.Rat{}
		for d, row := range table {
			p := "1"
			if k < 4 {
				p = row[k]
			}
			want[k][fmt.Sprintf("t=4, d=%d", d)] = rat(p)
		}
	}
	if d := cmp.Diff(want, probs(t, res), ratCmp); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	own := mustExternal(t, "dpctl_epmc/Abovethreshold.prism", "dpctl_epmc/Abovethreshold.pctl", nil)
	if len(own.Statements) != 10 || own.Statements[0].Value() != "holds" {
		t.Errorf("%d statements, the first %s; want 10, D{1,0}[…] holding", len(own.Statements), own.Statements[0].Value())
	}
}

// TestConformanceColorRefused: the subsampling model uses log, which has
// no exact value: refused, naming log, at each use (the constants that
// depend on them are not reported again).
func TestConformanceColorRefused(t *testing.T) {
	_, err := checkExternal(t, "dpctl_epmc/color.prism", "dpctl_epmc/color.pctl", nil)
	path := external(t, "dpctl_epmc/color.prism")
	msg := ": log is not supported: a logarithm is irrational for almost every argument, and dpcheck computes with exact rationals only (write the value as a rational constant)"
	want := []string{path + ":6:24" + msg, path + ":7:18" + msg, path + ":12:21" + msg}
	if d := cmp.Diff(want, errorsOf(t, err)); d != "" {
		t.Errorf("errors (-want +got):\n%s", d)
	}
}

// TestConformanceDice: Knuth and Yao's die, a cyclic chain solved
// exactly: 13 states, 20 transitions, each face exactly 1/6 (also through
// the undefined constant x of its properties), and its R property refused
// on its own.
func TestConformanceDice(t *testing.T) {
	var props strings.Builder
	props.WriteString("const int x;\n")
	for k := 1; k <= 6; k++ {
		fmt.Fprintf(&props, "P=? [ F s=7 & d=%d ]\n", k)
	}
	props.WriteString("P=? [ F s=7 & d=x ]\nP>0.1 [ F s=7 & d=x ]\n")
	res := mustExternal(t, "prism_dice/dice.pm", props.String(), map[string]prism.Value{"x": {Num: big.NewRat(3, 1)}})
	size(t, res, 13, 20, 1)
	var want []map[string]*big.Rat
	for range 7 {
		want = append(want, map[string]*big.Rat{"s=0, d=0": rat("1/6")})
	}
	want = append(want, map[string]*big.Rat{"holds": new(big.Rat)})
	if d := cmp.Diff(want, probs(t, res), ratCmp); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	// Every property is checked, its R property too.
	all, err := checkExternal(t, "prism_dice/dice.pm", "prism_dice/dice.pctl", map[string]prism.Value{"x": {Num: big.NewRat(1, 1)}})
	if err != nil {
		t.Fatal(err)
	}
	var sts []property.Statement
	for _, o := range all.Statements {
		if o.Err() == nil && !o.Pass() {
			t.Errorf("line %d fails", o.Statement().Head().Pos.Line)
		}
		sts = append(sts, o.Statement())
	}
	if d := cmp.Diff([]string(nil), refusedOf(sts)); d != "" || len(sts) < 2 {
		t.Errorf("dice.pctl, %d statements (-want +got):\n%s", len(sts), d)
	}
	// Knuth and Yao's dice takes 11/3 coin flips on average: the expected
	// number of steps of their fair-die algorithm.
	for _, o := range all.Statements {
		if o, ok := o.(*property.RewardOutcome); ok {
			if len(o.Values) != 1 || o.Values[0].Value == nil || o.Values[0].Value.Cmp(big.NewRat(11, 3)) != 0 {
				t.Errorf("R=? [ F s=7 ]: %v, want 11/3", o.Values)
			}
			return
		}
	}
	t.Error("dice.pctl has no R=? [ F s=7 ] outcome")
}

// TestConformanceTwoDice: the sum of two dice, (6 − |k − 7|)/36 for
// k = 2..12.
func TestConformanceTwoDice(t *testing.T) {
	var props strings.Builder
	var want []map[string]*big.Rat
	for k := 2; k <= 12; k++ {
		fmt.Fprintf(&props, "P=? [ F s=34 & d=%d ]\n", k)
		want = append(want, map[string]*big.Rat{"s=0, d=0": big.NewRat(int64(6-max(k-7, 7-k)), 36)})
	}
	res := mustExternal(t, "prism_dice/two_dice_knuth.pm", props.String(), nil)
	if d := cmp.Diff(want, probs(t, res), ratCmp); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestConformanceCrowds: Storm's crowds-5-5: 8 607 states and 15 113
// transitions, as Storm's builder test counts them (decimal constants .2,
// .167, bool variables, labels).
func TestConformanceCrowds(t *testing.T) {
	res := mustExternal(t, "storm_crowds/crowds-5-5.pm", "P>=0 [ F \"observeIGreater1\" ]\n", nil)
	size(t, res, 8607, 15113, 1)
	if res.Statements[0].Value() != "holds" {
		t.Errorf("P>=0 […] is %s", res.Statements[0].Value())
	}
}

// TestConformanceStoppingTrap: value iteration's trap: P(F s=3) from s=1
// is exactly 1/2 + γ³ (γ = 10⁻³, and 10⁻¹⁵ where floating point fails),
// so P<=0.5 […] is false at s=1 and the file's own P=? is exactly 0.
func TestConformanceStoppingTrap(t *testing.T) {
	for _, c := range []struct {
		model string
		gamma *big.Rat
	}{
		{"vi_stopping_trap/wimmer_fail.pm", big.NewRat(1, 1000)},
		{"vi_stopping_trap/wimmer_fail_15gamma.pm", new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(10), big.NewInt(15), nil))},
	} {
		res := mustExternal(t, c.model, "P=? [ F s=3 ]\nP<=0.5 [ s=1 | s=2 | s=5 | s=6 U s=3 ]\n", nil)
		size(t, res, 6, 10, 1)
		g3 := new(big.Rat).Mul(c.gamma, new(big.Rat).Mul(c.gamma, c.gamma))
		want := []map[string]*big.Rat{{"s=1": new(big.Rat).Add(big.NewRat(1, 2), g3)}, {"violated": new(big.Rat)}}
		if d := cmp.Diff(want, probs(t, res), ratCmp); d != "" {
			t.Errorf("%s (-want +got):\n%s", c.model, d)
		}
		own := mustExternal(t, c.model, "vi_stopping_trap/wimmer_fail.pctl", nil)
		if d := cmp.Diff([]map[string]*big.Rat{{"s=1": new(big.Rat)}}, probs(t, own), ratCmp); d != "" {
			t.Errorf("%s with wimmer_fail.pctl (-want +got):\n%s", c.model, d)
		}
	}
}

// dieFaces are the solution functions of the parametric die's EXPECTED.md
// at p: P(one) = P(two) = p²/(p+1), P(three) = p(1−p)/(p+1), P(four) =
// p²(1−p)/(p²−p+1), P(five) = p(1−p)²/(p²−p+1), P(six) = (1−p)³/(p²−p+1).
func dieFaces(p *big.Rat) []*big.Rat {
	div := func(a, b *big.Rat) *big.Rat { return new(big.Rat).Quo(a, b) }
	mul := func(a, b *big.Rat) *big.Rat { return new(big.Rat).Mul(a, b) }
	one := big.NewRat(1, 1)
	q := new(big.Rat).Sub(one, p)
	p2 := mul(p, p)
	d1 := new(big.Rat).Add(p, one)
	d2 := new(big.Rat).Add(new(big.Rat).Sub(p2, p), one)
	return []*big.Rat{div(p2, d1), div(p2, d1), div(mul(p, q), d1), div(mul(p2, q), d2), div(mul(p, mul(q, q)), d2), div(mul(q, mul(q, q)), d2)}
}

// TestConformanceParametricDieForEveryP: the die read with its undefined
// constant p as a .dp file's parameter gives, for each face, one rational
// function of p on (0, 1): the form printed here, which equals
// EXPECTED.md's function at seven points — and two rational functions with
// numerators and denominators of degree at most 3 that agree at seven
// points are equal (their cross difference has degree at most 6).
func TestConformanceParametricDieForEveryP(t *testing.T) {
	_, src := readExternal(t, "storm_parametric_die/parametric_die.pm")
	dir := t.TempDir()
	dp := "param p in (0, 1)\nmodel prism(\"die.pm\")\n"
	for k := 1; k <= 6; k++ {
		dp += fmt.Sprintf("query expected((d = %d) ? 1 : 0) for p\n", k)
	}
	for name, text := range map[string]string{"die.pm": src, "die.dp": dp} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := dpcheck.CheckFile(context.Background(), filepath.Join(dir, "die.dp"))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Statements) != 6 {
		t.Fatalf("%d statements", len(res.Statements))
	}
	forms := []string{"p^2/(p + 1)", "p^2/(p + 1)", "(p − p^2)/(p + 1)", "(p^2 − p^3)/(p^2 − p + 1)",
		"(p^3 − 2·p^2 + p)/(p^2 − p + 1)", "(1 − 3·p + 3·p^2 − p^3)/(p^2 − p + 1)"}
	for k, o := range res.Statements {
		po, ok := o.(*property.ParamExpectedOutcome)
		if !ok || len(po.Values) != 1 {
			t.Fatalf("face %d: %T %+v", k+1, o, o)
		}
		f := po.Values[0].F
		if f.Format("p") != forms[k] {
			t.Errorf("face %d: %s, want %s", k+1, f.Format("p"), forms[k])
		}
		for _, x := range []*big.Rat{big.NewRat(1, 7), big.NewRat(1, 5), big.NewRat(1, 3), big.NewRat(1, 2), big.NewRat(5, 8), big.NewRat(3, 4), big.NewRat(9, 10)} {
			got, err := f.Eval(x)
			if err != nil || got.Cmp(dieFaces(x)[k]) != 0 {
				t.Errorf("face %d at p = %s: %s = %v (%v), want %s", k+1, x.RatString(), f.Format("p"), got, err, dieFaces(x)[k].RatString())
			}
		}
	}
}

// TestConformanceParametricDie: Storm's die with the coin parameter p
// given as an exact rational: the solution functions of EXPECTED.md at
// p = 1/3, and 1/6 each at p = 1/2; 13 states, 20 transitions.
func TestConformanceParametricDie(t *testing.T) {
	props := "P=? [ F \"one\" ]\nP=? [ F \"two\" ]\nP=? [ F \"three\" ]\nP=? [ F \"four\" ]\nP=? [ F \"five\" ]\nP=? [ F \"six\" ]\n"
	funcs := dieFaces
	for _, p := range []string{"1/3", "1/2"} {
		consts, err := prism.ParseConsts("p=" + p)
		if err != nil {
			t.Fatal(err)
		}
		res := mustExternal(t, "storm_parametric_die/parametric_die.pm", props, consts)
		size(t, res, 13, 20, 1)
		var want []map[string]*big.Rat
		for _, x := range funcs(rat(p)) {
			want = append(want, map[string]*big.Rat{"s=0, d=0": x})
		}
		if d := cmp.Diff(want, probs(t, res), ratCmp); d != "" {
			t.Errorf("p = %s (-want +got):\n%s", p, d)
		}
		if p == "1/2" {
			for i, x := range funcs(rat(p)) {
				if x.Cmp(big.NewRat(1, 6)) != 0 {
					t.Errorf("face %d at p = 1/2: %s, want 1/6", i+1, x.RatString())
				}
			}
		}
	}
	_, err := checkExternal(t, "storm_parametric_die/parametric_die.pm", props, nil)
	want := []string{external(t, "storm_parametric_die/parametric_die.pm") + ":4:14: the double constant p has no value: give it a value (p = …) when loading the model"}
	if d := cmp.Diff(want, errorsOf(t, err)); d != "" {
		t.Errorf("without p (-want +got):\n%s", d)
	}
}

// TestConformanceParametricDieProperties: the die read as PRISM's -param
// reads it (Config.PRISMParam, p over (0, 1)) with a properties file: each
// face's P=? [F …] is the rational function EXPECTED.md gives (checked at
// seven points, enough for degrees of at most 3), P=? [G !(d=2)] is one
// minus face two's, P=? [!(d=3) U d=5] face five's; P>=1/6 [F d=6] fails,
// at the simplest p where it does; and a bounded F is refused on its own
// line.
func TestConformanceParametricDieProperties(t *testing.T) {
	props := "P=? [ F d=1 ]\nP=? [ F \"two\" ]\nP=? [ F d=3 ]\nP=? [ F d=4 ]\nP=? [ F d=5 ]\nP=? [ F d=6 ]\n" +
		"P=? [ G !(d=2) ]\nP=? [ !(d=3) U d=5 ]\nP>=1/6 [ F d=6 ]\nP=? [ F<=3 d=1 ]\n"
	path := external(t, "storm_parametric_die/parametric_die.pm")
	pp := filepath.Join(t.TempDir(), "p.pctl")
	if err := os.WriteFile(pp, []byte(props), 0o644); err != nil {
		t.Fatal(err)
	}
	par, err := prism.ParseParam("p=(0,1)")
	if err != nil {
		t.Fatal(err)
	}
	res, err := dpcheck.Config{PRISMParam: par}.CheckPRISM(context.Background(), path, pp, nil)
	if err != nil {
		t.Fatal(err)
	}
	size(t, res, 13, 20, 1)
	if len(res.Statements) != 10 {
		t.Fatalf("%d statements", len(res.Statements))
	}
	one := big.NewRat(1, 1)
	want := func(k int, x *big.Rat) *big.Rat {
		f := dieFaces(x)
		switch k {
		case 6:
			return new(big.Rat).Sub(one, f[1])
		case 7, 8:
			return f[4+k-7]
		}
		return f[k]
	}
	for k, o := range res.Statements[:9] {
		po, ok := o.(*property.ParamExpectedOutcome)
		if !ok || len(po.Values) != 1 || po.Values[0].State.String() != "s0 (s=0, d=0)" {
			t.Fatalf("line %d: %T %+v", k+1, o, o)
		}
		f := po.Values[0].F
		for _, x := range []*big.Rat{big.NewRat(1, 7), big.NewRat(1, 5), big.NewRat(1, 3), big.NewRat(1, 2), big.NewRat(5, 8), big.NewRat(3, 4), big.NewRat(9, 10)} {
			if got, err := f.Eval(x); err != nil || got.Cmp(want(k, x)) != 0 {
				t.Errorf("line %d at p = %s: %s = %v (%v), want %s", k+1, x.RatString(), f.Format("p"), got, err, want(k, x).RatString())
			}
		}
	}
	check := res.Statements[8].(*property.ParamExpectedOutcome)
	if check.Value() != "violated" || check.At != "2/3" || check.ValueAt.Cmp(big.NewRat(1, 21)) != 0 {
		t.Errorf("P>=1/6 [F d=6]: %s at %s (%v)", check.Value(), check.At, check.ValueAt)
	}
	var refusal *property.RefusalError
	if err := res.Statements[9].Err(); !errors.As(err, &refusal) || !strings.Contains(err.Error(), "without time bounds") {
		t.Errorf("P=? [F<=3 d=1]: %v", err)
	}
}
