package statespace_test

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/spec"
	"github.com/dpcheck/dpcheck/statespace"
)

var ratCmp = cmp.Comparer(func(a, b *big.Rat) bool { return a.Cmp(b) == 0 })

func r(s string) *big.Rat {
	x, ok := new(big.Rat).SetString(s)
	if !ok {
		panic("bad rational " + s)
	}
	return x
}

// modules reads the modules of a .dp text (with a placeholder property).
func modules(t *testing.T, modules string) *statespace.Model {
	t.Helper()
	src := modules + "\nneighbours true\nquery eps(delta = 0)\n"
	p, err := spec.Load(context.Background(), "m.dp", src)
	if err != nil {
		t.Fatalf("%s:\n%v", src, err)
	}
	m, ok := p.Model.(*statespace.Model)
	if !ok {
		t.Fatalf("the model is a %T", p.Model)
	}
	return m
}

func build(t *testing.T, m *statespace.Model, l model.Limits) *chain.Chain {
	t.Helper()
	mech, err := m.Build(context.Background(), l)
	if err != nil {
		t.Fatal(err)
	}
	return mech.Chain
}

// finals returns, for the input whose valuation is in, the probability of
// each absorbing state it reaches (in one step or more, the chain being
// acyclic apart from its absorbing self-loops), keyed by valuation.
func finals(t *testing.T, c *chain.Chain, in string) map[string]*big.Rat {
	t.Helper()
	for _, s := range c.Inputs() {
		if c.Valuation(s).String() != in {
			continue
		}
		out := map[string]*big.Rat{}
		var walk func(s int, p *big.Rat, depth int)
		walk = func(s int, p *big.Rat, depth int) {
			if depth > 100 {
				t.Fatalf("run from %s longer than 100 steps", in)
			}
			if c.IsAbsorbing(s) {
				k := c.Valuation(s).String()
				if old, ok := out[k]; ok {
					p = new(big.Rat).Add(old, p)
				}
				out[k] = p
				return
			}
			to, ps := c.Row(s)
			for i, u := range to {
				walk(int(u), new(big.Rat).Mul(p, ps[i]), depth+1)
			}
		}
		walk(s, big.NewRat(1, 1), 0)
		return out
	}
	t.Fatalf("no input %s", in)
	return nil
}

// wantFinals checks the probabilities of the absorbing states reached
// from the input whose valuation is in, the rationals written as strings.
func wantFinals(t *testing.T, c *chain.Chain, in string, want map[string]string) {
	t.Helper()
	w := map[string]*big.Rat{}
	for k, v := range want {
		w[k] = r(v)
	}
	if d := cmp.Diff(w, finals(t, c, in), ratCmp); d != "" {
		t.Errorf("from %s (-want +got):\n%s", in, d)
	}
}

func TestNoiseDistributions(t *testing.T) {
	for _, tc := range []struct {
		name, draw string
		want       map[string]string
	}{
		// (1-α)/(1+α)·α^|z| = 1/3·(1/2)^|z|, the tails folded onto 0 and 2.
		{"geometric", "geometric(1/2, 1, 0, 2)", map[string]string{"x=0": "1/3", "x=1": "1/3", "x=2": "1/3"}},
		{"geometric off-centre", "geometric(1/2, 0, 0, 2)", map[string]string{"x=0": "2/3", "x=1": "1/6", "x=2": "1/6"}},
		// (1-α)·α^z for z >= 0, the tail folded onto 2.
		{"geometric1", "geometric1(1/3, 0, 0, 2)", map[string]string{"x=0": "2/3", "x=1": "2/9", "x=2": "1/9"}},
		{"uniform", "uniform(1, 3)", map[string]string{"x=1": "1/3", "x=2": "1/3", "x=3": "1/3"}},
		{"bernoulli", "bernoulli(1/4)", map[string]string{"x=0": "3/4", "x=1": "1/4"}},
		{"point", "uniform(2, 2)", map[string]string{"x=2": "1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := modules(t, "module m\n  x : [-1..3] init -1;\n  [] x = -1 -> (x' ~ "+tc.draw+");\nendmodule")
			wantFinals(t, build(t, m, model.Limits{}), "x=-1", tc.want)
		})
	}
}

// Two draws in one update are independent; assignments read the old
// state; probabilities may read variables; a variable not assigned keeps
// its value.
func TestUpdatesExact(t *testing.T) {
	m := modules(t, `module m
  input d : [0..1];
  x : [-1..1] init -1;
  y : [-1..1] init -1;
  z : [0..2] init 0;
  [] x = -1 -> (d + 1)/3 : (x' ~ bernoulli(1/2)) & (y' ~ bernoulli(1/3)) & (z' = d + 1)
             + (2 - d)/3 : (x' = 0) & (y' = 0);
endmodule`)
	c := build(t, m, model.Limits{})
	got := finals(t, c, "d=1, x=-1, y=-1, z=0")
	want := map[string]*big.Rat{
		// 2/3 · (1/2 · 2/3), 2/3 · (1/2 · 1/3), … and 1/3 to (0, 0, 0).
		"d=1, x=0, y=0, z=2": r("2/9"), "d=1, x=0, y=1, z=2": r("1/9"),
		"d=1, x=1, y=0, z=2": r("2/9"), "d=1, x=1, y=1, z=2": r("1/9"),
		"d=1, x=0, y=0, z=0": r("1/3"),
	}
	if d := cmp.Diff(want, got, ratCmp); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if n := c.NumStates(); n != 2+5+5 {
		t.Errorf("%d states, want 12 (2 inputs, 5 outcomes each)", n)
	}
}

// errs builds m and returns its errors as "line:col: message".
func errs(t *testing.T, m *statespace.Model, l model.Limits) []string {
	t.Helper()
	_, err := m.Build(context.Background(), l)
	var list source.ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("Build: %v, want a source.ErrorList", err)
	}
	var out []string
	for _, e := range list {
		out = append(out, e.Pos.String()[len("m.dp:"):]+": "+e.Msg)
	}
	return out
}

func TestModelErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"overlapping guards", `module m
  x : [0..3] init 0;
  [] x < 2 -> (x' = x + 1);
  [] x >= 1 -> (x' = 3);
endmodule`, []string{"4:3: this command and the one at line 3 are both enabled at (x=1): a mechanism must not choose between commands (make the guards exclusive)"}},
		{"out of range", `module m
  input d : [0..2];
  x : [0..3] init 0;
  [] x = 0 -> (x' = d + 2);
endmodule`, []string{"4:15: x' = 4 is outside the range [0..3] of x (command at line 4, at (d=2, x=0))"}},
		{"row sum", `module m
  input d : [0..1];
  x : [0..1] init 0;
  [] x = 0 -> 1/2 : (x' = 1) + d/3 : (x' = 1);
endmodule`, []string{"4:3: the probabilities of the updates sum to 1/2, not 1 (command at line 4, at (d=0, x=0))"}},
		{"probability above 1", `module m
  x : [0..1] init 0;
  [] x = 0 -> 3/2 : (x' = 1) + -1/2 : (x' = 0);
endmodule`, []string{"3:15: the probability 3/2 is outside [0, 1] (command at line 3, at (x=0))"}},
		{"division by zero", `module m
  input d : [0..1];
  x : [0..1] init 0;
  [] x = 0 -> 1/(1 - d) : (x' = 1);
endmodule`, []string{"4:16: division by zero (command at line 4, at (d=1, x=0))"}},
		{"noise range", `module m
  x : [0..5] init 0;
  [] x = 0 -> (x' ~ geometric(1/2, 3, 0, 9));
endmodule`, []string{"3:21: the draw can give x' = 9, outside the range [0..5] of x (command at line 3, at (x=0))"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, errs(t, modules(t, tc.src), model.Limits{})); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestLimits(t *testing.T) {
	m := modules(t, `module m
  input d : [0..99];
  x : [0..99] init 0;
  [] x < 99 -> 1/2 : (x' = x + 1) + 1/2 : (x' = 99);
endmodule`)
	got := errs(t, m, model.Limits{MaxStates: 1000})
	want := []string{"1:1: the model has more than 1,000 reachable states; the limit is 1,000 states"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("states (-want +got):\n%s", d)
	}
	_, err := m.Build(context.Background(), model.Limits{MaxStates: 1000})
	var list source.ErrorList
	if errors.As(err, &list); list[0].Limit != string(model.LimitStates) {
		t.Errorf("limit %q, want %q", list[0].Limit, model.LimitStates)
	}
	got = errs(t, m, model.Limits{MaxTransitions: 500})
	if len(got) != 1 || !strings.Contains(got[0], "more than 500 transitions") {
		t.Errorf("transitions: %v", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Build(ctx, model.Limits{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
}

// A state where no command is enabled is absorbing, and the inputs are
// every valuation of the input variables that inputs where keeps.
func TestAbsorbingAndInputs(t *testing.T) {
	src := `module m
  input a : [0..2];
  input b : [0..1];
  x : [0..1] init 0;
  [] x = 0 & a > 0 -> (x' = 1);
endmodule
inputs where a != b`
	m := modules(t, src)
	c := build(t, m, model.Limits{})
	var ins []string
	for _, s := range c.Inputs() {
		ins = append(ins, c.Valuation(s).String())
	}
	want := []string{"a=0, b=1, x=0", "a=1, b=0, x=0", "a=2, b=0, x=0", "a=2, b=1, x=0"}
	if d := cmp.Diff(want, ins); d != "" {
		t.Errorf("inputs (-want +got):\n%s", d)
	}
	if got := finals(t, c, "a=0, b=1, x=0"); len(got) != 1 || got["a=0, b=1, x=0"] == nil {
		t.Errorf("a=0 has no enabled command, so it is final: %v", got)
	}
}
