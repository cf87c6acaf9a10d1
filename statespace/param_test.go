package statespace_test

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/param"
	"github.com/dpcheck/dpcheck/poly"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/spec"
	"github.com/dpcheck/dpcheck/statespace"
)

var ratFuncCmp = cmp.Comparer(func(f, g poly.RatFunc) bool { return f.Equal(g) })

// paramModules are modules whose probabilities are functions of alpha:
// update probabilities (products, powers, a condition on the state,
// division), every draw whose first argument may be alpha (two-sided
// and one-sided geometric, the latter with its centre below, at and above
// its lower end, bernoulli), draws of constant distributions, a product of
// draws in one update, and branches of different updates reaching one
// state.
var paramModules = []struct{ name, modules string }{
	{"draws", `module m
  input x : [0..2];
  y : [0..3] init 0;
  z : [0..4] init 0;
  b : bool init false;
  [] y = 0 -> alpha : (y' = 1) & (z' ~ geometric(alpha, x, 0, 4)) & (b' ~ bernoulli(alpha))
           + (1 - alpha)*alpha : (y' = 2) & (z' ~ geometric1(alpha, x - 1, 1, 3))
           + (1 - alpha)^2 : (y' = 3) & (z' ~ uniform(0, 1)) & (b' ~ bernoulli(1/4));
endmodule`},
	{"expressions", `module m
  input x : [0..1];
  y : [0..2] init 0;
  [] y = 0 -> (x = 0 ? alpha/2 : alpha^2/(1 + alpha)) : (y' = 1)
           + (x = 0 ? alpha/2 : alpha^-1*alpha/(1 + alpha)) : (y' = 1)
           + (x = 0 ? 1 - alpha : 1 - alpha^2/(1 + alpha) - 1/(1 + alpha)) : (y' = 2);
endmodule`},
	{"two steps", `module m
  input x : [0..1];
  s : [0..2] init 0;
  z : [0..3] init 0;
  [] s = 0 -> (s' = 1) & (z' ~ geometric(alpha*alpha, 2*x, 0, 3));
  [] s = 1 -> alpha : (s' = 2) + 1 - alpha : (s' = 2) & (z' = 0);
endmodule`},
}

// buildParam loads modules with the parameter alpha in (0, 1) and
// explores them for every alpha (spec's modules call BuildParam at the
// interval's simplest point, 1/2).
func buildParam(t *testing.T, modules string) (*param.Chain, error) {
	t.Helper()
	src := "param alpha in (0, 1)\n" + modules + "\nneighbours true\ncheck dp(eps = ln(2)) for alpha\n"
	p, err := spec.Load(context.Background(), "m.dp", src)
	if err != nil {
		t.Fatalf("%s:\n%v", src, err)
	}
	ps, ok := p.Model.(property.ParamSource)
	if !ok {
		t.Fatalf("the model is a %T", p.Model)
	}
	return ps.BuildParam(context.Background(), poly.Limits{})
}

// TestParamAgreesWithBuild: the probabilities BuildParam computes as
// functions of alpha are, at every alpha tried, exactly those Build
// computes with alpha a number: the algebra of the rationals and that of
// the functions agree.
func TestParamAgreesWithBuild(t *testing.T) {
	for _, tc := range paramModules {
		t.Run(tc.name, func(t *testing.T) {
			pc, err := buildParam(t, tc.modules)
			if err != nil {
				t.Fatal(err)
			}
			for _, alpha := range []string{"1/3", "1/2", "4/5", "999/1000"} {
				num := build(t, modules(t, "const alpha = "+alpha+"\n"+tc.modules), model.Limits{})
				at, err := pc.Instantiate(r(alpha))
				if err != nil {
					t.Fatal(err)
				}
				if num.NumStates() != at.NumStates() {
					t.Fatalf("alpha = %s: %d states, the parametric chain %d", alpha, num.NumStates(), at.NumStates())
				}
				for _, s := range num.Inputs() {
					in := num.Valuation(s).String()
					if d := cmp.Diff(finals(t, num, in), finals(t, at, in), ratCmp); d != "" {
						t.Errorf("alpha = %s, from %s (-Build +BuildParam):\n%s", alpha, in, d)
					}
				}
			}
		})
	}
}

// TestParamRows: the rows of a two-draw update, exactly, for every alpha.
func TestParamRows(t *testing.T) {
	pc, err := buildParam(t, `module m
  input x : [0..1];
  z : [-1..2] init -1;
  [] z = -1 -> alpha : (z' ~ geometric(alpha, x, 0, 2)) + 1 - alpha : (z' ~ geometric1(alpha, x, 0, 1));
endmodule`)
	if err != nil {
		t.Fatal(err)
	}
	f := poly.Field{Ctx: context.Background()}
	a, one := f.X(), f.Const(big.NewRat(1, 1))
	must := func(g poly.RatFunc, err error) poly.RatFunc {
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	oneMinus := must(f.Sub(one, a))
	onePlus := must(f.Add(one, a))
	mul := func(fs ...poly.RatFunc) poly.RatFunc {
		p := one
		for _, g := range fs {
			p = must(f.Mul(p, g))
		}
		return p
	}
	inv := must(f.Quo(one, onePlus))
	a2 := mul(a, a)
	// From x = 0, with α the two-sided draw: 0 with P(Z ≤ 0) = 1 − α/(1+α),
	// 1 with (1−α)/(1+α)·α, 2 with α²/(1+α); with 1 − α the one-sided
	// one: 0 with 1 − α, 1 with α.
	want0 := []poly.RatFunc{
		must(f.Add(mul(a, must(f.Sub(one, mul(a, inv)))), mul(oneMinus, oneMinus))), // z = 0
		must(f.Add(mul(a, oneMinus, inv, a), mul(oneMinus, a))),                     // z = 1
		mul(a, a2, inv), // z = 2
	}
	var got0 []poly.RatFunc
	for _, tr := range pc.Rows[0] {
		got0 = append(got0, tr.P)
	}
	if d := cmp.Diff(want0, got0, ratFuncCmp); d != "" {
		t.Errorf("the row from x = 0 (-want +got):\n%s", d)
	}
	sum := poly.RatFunc{}
	for _, tr := range pc.Rows[1] {
		sum = must(f.Add(sum, tr.P))
	}
	if !sum.Equal(one) {
		t.Errorf("the row from x = 1 sums to %s", sum)
	}
}

// paramModel is a module loaded without a parameter whose first command's
// updates then get the probabilities alpha and 1 − alpha (the parameter
// a Var node no variable has, its value at = 1/2 the fallback).
func paramModel(t *testing.T) *statespace.Model {
	m := modules(t, `module m
  input x : [0..1];
  y : [0..2] init 0;
  [] y = 0 -> 1/2 : (y' = 1) + 1/2 : (y' = 2);
endmodule`)
	alpha := &expr.Expr{Op: expr.Var, Name: "alpha", Text: "alpha", Fallback: &expr.Expr{Op: expr.Num, Value: big.NewRat(1, 2)}}
	one := &expr.Expr{Op: expr.Num, Value: big.NewRat(1, 1), Text: "1"}
	us := m.Commands[0].Updates
	us[0].Prob = alpha
	us[1].Prob = &expr.Expr{Op: expr.Sum, Args: []*expr.Expr{one, alpha}, Inv: []bool{false, true}, Text: "1 - alpha"}
	return m
}

// TestBuildParam: BuildParam's rows (targets ascending), neighbours (every
// two inputs) and note.
func TestBuildParam(t *testing.T) {
	f := poly.Field{Ctx: context.Background()}
	oneMinus, err := f.Sub(f.Const(big.NewRat(1, 1)), f.X())
	if err != nil {
		t.Fatal(err)
	}
	p := statespace.Param{Name: "alpha", Interval: poly.Open(big.NewRat(0, 1), big.NewRat(1, 1)), At: big.NewRat(1, 2)}
	pc, err := paramModel(t).BuildParam(context.Background(), model.Limits{}, p)
	if err != nil {
		t.Fatal(err)
	}
	got := struct {
		Rows       [][]statespace.ParamTrans
		Neighbours [][2]int
		Note       string
	}{pc.Rows, pc.Neighbours, pc.Note}
	want := got
	want.Rows = [][]statespace.ParamTrans{
		{{To: 2, P: f.X()}, {To: 3, P: oneMinus}},
		{{To: 4, P: f.X()}, {To: 5, P: oneMinus}},
		nil, nil, nil, nil,
	}
	want.Neighbours = [][2]int{{0, 1}}
	want.Note = "6 states explored from 2 inputs"
	if d := cmp.Diff(want, got, ratFuncCmp); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	var vals []string
	for s := range pc.Frame.NumStates() {
		vals = append(vals, pc.Frame.Valuation(s).String())
	}
	wantVals := []string{"x=0, y=0", "x=1, y=0", "x=0, y=1", "x=0, y=2", "x=1, y=1", "x=1, y=2"}
	if d := cmp.Diff(wantVals, vals); d != "" {
		t.Errorf("states (-want +got):\n%s", d)
	}
}

// TestBuildParamRefuses: the parameter in a label, MDPs and a point
// outside the interval.
func TestBuildParamRefuses(t *testing.T) {
	in := poly.Open(big.NewRat(0, 1), big.NewRat(1, 1))
	for _, tc := range []struct {
		name   string
		change func(*statespace.Model)
		at     *big.Rat
		want   string
	}{
		{"label", func(m *statespace.Model) {
			at := source.Position{Filename: "m.dp", Line: 3, Column: 2}
			m.Labels = append(m.Labels, statespace.Label{Name: "big", Pos: at, Cond: &expr.Expr{Op: expr.Cmp, CmpOp: ">", Pos: at,
				Args: []*expr.Expr{{Op: expr.Var, Name: "alpha", Pos: at, Fallback: &expr.Expr{Op: expr.Num, Value: big.NewRat(1, 2), Pos: at}}, {Op: expr.Num, Value: big.NewRat(1, 2), Pos: at}}}})
		}, big.NewRat(1, 2), "3:2: a label must not depend on the parameter alpha: the chain's graph must be the same for every alpha (it may appear in an update's probability)"},
		{"mdp", func(m *statespace.Model) { m.MDP = true }, big.NewRat(1, 2), "1:1: an MDP with the parameter alpha is not supported: for every alpha the model is a Markov chain"},
		{"outside", func(*statespace.Model) {}, big.NewRat(1, 1), "statespace: the point at which the parametric model is explored is not in its interval"},
		{"no point", func(*statespace.Model) {}, nil, "statespace: the point at which the parametric model is explored is not in its interval"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := paramModel(t)
			tc.change(m)
			_, err := m.BuildParam(context.Background(), model.Limits{}, statespace.Param{Name: "alpha", Interval: in, At: tc.at})
			if got := errText(err); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// errText writes a positioned error as "line:col: message", another as
// its text.
func errText(err error) string {
	var list source.ErrorList
	if !errors.As(err, &list) {
		return err.Error()
	}
	var out []string
	for _, e := range list {
		out = append(out, strings.TrimPrefix(e.Pos.String(), "m.dp:")+": "+e.Msg)
	}
	return strings.Join(out, "\n")
}

// TestParamErrors: what BuildParam refuses, at the update, draw or
// expression, naming the command and state (line 5 is the command; the
// parameter is explored at alpha = 1/2).
func TestParamErrors(t *testing.T) {
	mod := func(cmd string) string {
		return "module m\n  input x : [0..1];\n  y : [0..2] init 0;\n  " + cmd + "\nendmodule"
	}
	const at = " (command at line 5, at (x=0, y=0))"
	for _, tc := range []struct{ name, cmd, want string }{
		{"probability above 1 at the point", "[] y = 0 -> 3*alpha : (y' = 1) + 1/2 : (y' = 2);",
			"5:15: the probability 3/2 is outside [0, 1] at alpha = 1/2" + at},
		{"exponent with the parameter", "[] y = 0 -> alpha^(2*alpha) : (y' = 1) + 1 - alpha^(2*alpha) : (y' = 2);",
			"5:22: the exponent must not depend on the parameter alpha: a probability is a rational function of alpha" + at},
		{"exponent too large", "[] y = 0 -> alpha^1001 : (y' = 1) + 1 - alpha^1001 : (y' = 2);",
			"5:21: the exponent of a power of the parameter alpha must be an integer in [-1000, 1000], found 1001" + at},
		{"power beyond the degree limit", "[] y = 0 -> (alpha^2)^600 : (y' = 1) + 1 - (alpha^2)^600 : (y' = 2);",
			"5:15: for every alpha: the exact arithmetic in the parameter reaches a polynomial of degree 1024, beyond the limit of degree 1000" + at},
		{"condition with the parameter", "[] y = 0 -> (alpha > 1/2 ? alpha : 1/2) : (y' = 1) + 1/2 : (y' = 2);",
			"5:16: a condition must not depend on the parameter alpha: the chain's graph must be the same for every alpha" + at},
		{"not a rational function", "[] y = 0 -> max(alpha, 1/2) : (y' = 1) + 1/2 : (y' = 2);",
			"5:15: max(alpha, 1/2) is not a rational function of the parameter alpha (numbers, alpha, + - * / and ^ with an integer exponent)" + at},
		{"the algebra's limit", "[] y = 0 -> (alpha^64)^64 : (y' = 1) + 1 - (alpha^64)^64 : (y' = 2);",
			"5:15: for every alpha: the exact arithmetic in the parameter reaches a polynomial of degree 1024, beyond the limit of degree 1000" + at},
		{"bernoulli's p not below 1", "[] y = 0 -> (y' ~ bernoulli(3*alpha/2));",
			"5:21: the p 3/2·alpha of the draw is not below 1 at alpha = 2/3: it must be for every alpha in (0, 1) (the chain's graph must be the same for every alpha)" + at},
		{"geometric's alpha with a pole", "[] y = 0 -> (y' ~ geometric(1/(3*alpha - 1)^2/8, x, 0, 2));",
			"5:21: the α (1/72)/(alpha^2 − 2/3·alpha + 1/9) of the draw has a pole at alpha = 1/3: it must be positive for every alpha in (0, 1) (the chain's graph must be the same for every alpha)" + at},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := buildParam(t, mod(tc.cmd))
			if got := errText(err); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestParamConstantDraws: a bernoulli draw whose p is identically 0 or 1
// as a function of alpha, and draws whose first argument does not mention
// alpha, are constants.
func TestParamConstantDraws(t *testing.T) {
	pc, err := buildParam(t, `module m
  input x : [0..1];
  y : [0..1] init 0;
  z : [0..3] init 0;
  s : [0..1] init 0;
  [] s = 0 -> alpha : (s' = 1) & (y' ~ bernoulli(alpha - alpha + x)) & (z' ~ geometric(1/2, 1, 0, 3))
           + 1 - alpha : (s' = 1);
endmodule`)
	if err != nil {
		t.Fatal(err)
	}
	at, err := pc.Instantiate(big.NewRat(1, 3))
	if err != nil {
		t.Fatal(err)
	}
	// At alpha = 1/3, from x = 1 (y drawn with p = 1): 1/3 · P(z), z = 1
	// plus the 1/2-geometric noise on [0, 3], 1/3·(1/3, 1/3, 1/6, 1/6); 2/3
	// to the state unchanged but s.
	wantFinals(t, at, "x=1, y=0, z=0, s=0", map[string]string{
		"x=1, y=1, z=0, s=1": "1/9", "x=1, y=1, z=1, s=1": "1/9",
		"x=1, y=1, z=2, s=1": "1/18", "x=1, y=1, z=3, s=1": "1/18",
		"x=1, y=0, z=0, s=1": "2/3",
	})
}
