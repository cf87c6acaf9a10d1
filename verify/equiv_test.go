package verify_test

import (
	"context"
	"errors"
	"math/big"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/verify"
)

// vstate is a state of a test chain: its name, valuation, whether it is an
// input, and its transitions (target name → probability).
type vstate struct {
	name  string
	vals  chain.Valuation
	input bool
	to    map[string]string
}

func valued(t *testing.T, states ...vstate) *chain.Chain {
	t.Helper()
	b := chain.NewBuilder()
	for _, s := range states {
		id := b.AddState(s.name, s.vals)
		if s.input {
			b.MarkInput(id)
		}
	}
	for _, s := range states {
		from, _ := b.Lookup(s.name)
		for to, p := range s.to {
			b.AddTransitionTo(from, to, r(p))
		}
	}
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func val(kv ...any) chain.Valuation {
	var v chain.Valuation
	for i := 0; i < len(kv); i += 2 {
		v = append(v, chain.Var{Name: kv[i].(string), Value: int64(kv[i+1].(int))})
	}
	return v
}

// A module keeps its input variable and a counter in every state; a
// builder has in=k inputs and out=l outputs. They are compared on in
// An array's elements a[1], a[2] of one chain match the variables a1 and
// a_2 of the other (PRISM has no arrays), in either order of the chains;
// a variable written both ways (b[1] against b1 and b_1) pairs with the
// first, b1, and b_1 is ignored; and the report names each pair.
func TestEquivalentMatchesArrayElements(t *testing.T) {
	arrays := valued(t,
		vstate{"x0", val("a[1]", 0, "a[2]", 1, "b[1]", 0), true, map[string]string{"y0": "1/4", "y1": "3/4"}},
		vstate{"x1", val("a[1]", 1, "a[2]", 1, "b[1]", 0), true, map[string]string{"y1": "1"}},
		vstate{"y0", val("a[1]", 0, "a[2]", 1, "b[1]", 0), false, nil},
		vstate{"y1", val("a[1]", 0, "a[2]", 1, "b[1]", 1), false, nil},
	)
	scalars := valued(t,
		vstate{"s0", val("a1", 0, "a_2", 1, "b1", 0, "b_1", 5), true, map[string]string{"t0": "1/4", "t1": "3/4"}},
		vstate{"s1", val("a1", 1, "a_2", 1, "b1", 0, "b_1", 5), true, map[string]string{"t1": "1"}},
		vstate{"t0", val("a1", 0, "a_2", 1, "b1", 0, "b_1", 5), false, nil},
		vstate{"t1", val("a1", 0, "a_2", 1, "b1", 1, "b_1", 5), false, nil},
	)
	ctx := context.Background()
	got, err := verify.Equivalent(ctx, arrays, scalars)
	if err != nil {
		t.Fatal(err)
	}
	pairs := []string{"a[1] = a1", "a[2] = a_2", "b[1] = b1"}
	want := &verify.EquivalenceResult{Equal: true, Compared: verify.Compared{Inputs: 2, Outputs: 2,
		InputVars: pairs, OutputVars: pairs, InputIgnored: []string{"b_1"}, OutputIgnored: []string{"b_1"}}}
	if d := cmp.Diff(want, got, ratComparer); d != "" {
		t.Errorf("arrays vs scalars (-want +got):\n%s", d)
	}
	got, err = verify.Equivalent(ctx, scalars, arrays)
	if err != nil {
		t.Fatal(err)
	}
	pairs = []string{"a1 = a[1]", "a_2 = a[2]", "b1 = b[1]"}
	want.Compared.InputVars, want.Compared.OutputVars = pairs, pairs
	if d := cmp.Diff(want, got, ratComparer); d != "" {
		t.Errorf("scalars vs arrays (-want +got):\n%s", d)
	}
}

// (inputs) and out (outputs), and the report names what was ignored.
func TestEquivalentMatchesCommonVariables(t *testing.T) {
	module := valued(t,
		vstate{"m0", val("in", 0, "out", -1, "c", 0), true, map[string]string{"m0a": "1/3", "m0b": "1/3", "m0c": "1/3"}},
		vstate{"m1", val("in", 1, "out", -1, "c", 0), true, map[string]string{"m1a": "1/3", "m1b": "2/3"}},
		// out=0 twice from in=0 (different counters): one output, 2/3.
		vstate{"m0a", val("in", 0, "out", 0, "c", 1), false, nil},
		vstate{"m0b", val("in", 0, "out", 0, "c", 2), false, nil},
		vstate{"m0c", val("in", 0, "out", 1, "c", 1), false, nil},
		vstate{"m1a", val("in", 1, "out", 0, "c", 1), false, nil},
		vstate{"m1b", val("in", 1, "out", 1, "c", 1), false, nil},
	)
	build := func(p0 string) *chain.Chain {
		return valued(t,
			vstate{"s0", val("in", 0), true, map[string]string{"t0": p0, "t1": "1/3"}},
			vstate{"s1", val("in", 1), true, map[string]string{"t0": "1/3", "t1": "2/3"}},
			vstate{"t0", val("out", 0), false, nil},
			vstate{"t1", val("out", 1), false, nil},
		)
	}
	ctx := context.Background()
	got, err := verify.Equivalent(ctx, module, build("2/3"))
	if err != nil {
		t.Fatal(err)
	}
	want := &verify.EquivalenceResult{Equal: true, Compared: verify.Compared{Inputs: 2, Outputs: 2,
		InputVars: []string{"in"}, OutputVars: []string{"out"},
		InputIgnored: []string{"out", "c"}, OutputIgnored: []string{"in", "c"}}}
	if d := cmp.Diff(want, got, ratComparer); d != "" {
		t.Errorf("module vs builder (-want +got):\n%s", d)
	}
	// Only the probabilities matter: the same chain with Pr(out=0 | in=0)
	// changed differs there (the remaining mass goes nowhere: ⊥∞ is 0 vs 0).
	other := valued(t,
		vstate{"s0", val("in", 0), true, map[string]string{"t0": "1/2", "t1": "1/2"}},
		vstate{"s1", val("in", 1), true, map[string]string{"t0": "1/3", "t1": "2/3"}},
		vstate{"t0", val("out", 0), false, nil},
		vstate{"t1", val("out", 1), false, nil},
	)
	got, err = verify.Equivalent(ctx, module, other)
	if err != nil {
		t.Fatal(err)
	}
	wantDiff := &verify.Difference{Input: "in=0", Output: "out=0", PrA: r("2/3"), PrB: r("1/2")}
	if d := cmp.Diff(wantDiff, got.Counterexample, ratComparer); got.Equal || d != "" {
		t.Errorf("changed probability: equal=%v, difference (-want +got):\n%s", got.Equal, d)
	}
}

func TestEquivalentMatchErrors(t *testing.T) {
	ab := valued(t,
		vstate{"a", val("x", 0, "y", 0), true, map[string]string{"o": "1"}},
		vstate{"b", val("x", 0, "y", 1), true, map[string]string{"o": "1"}},
		vstate{"o", val("x", 0, "y", 2), false, nil},
	)
	onlyX := valued(t,
		vstate{"c", val("x", 0), true, map[string]string{"p": "1"}},
		vstate{"p", val("x", 1), false, nil},
	)
	onlyZ := valued(t,
		vstate{"c", val("z", 0), true, map[string]string{"p": "1"}},
		vstate{"p", val("z", 1), false, nil},
	)
	zOut := valued(t,
		vstate{"c", val("x", 0), true, map[string]string{"p": "1"}},
		vstate{"p", val("z", 1), false, nil},
	)
	for _, tc := range []struct {
		name string
		a, b *chain.Chain
		want string
	}{
		{"inputs collide", onlyX, ab, "inputs a and b of the second model both match x=0: match on more variables by naming them alike in both models"},
		{"no common input variable", onlyX, onlyZ, "their inputs share no variable (the variables are x, z)"},
		{"no common output variable", onlyX, zOut, "their outputs share no variable (the variables are x, z)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := verify.Equivalent(context.Background(), tc.a, tc.b)
			var me *verify.MatchError
			if !errors.As(err, &me) || !errors.Is(err, verify.ErrModel) {
				t.Fatalf("error %v, want a *MatchError wrapping ErrModel", err)
			}
			if me.Reason() != tc.want {
				t.Errorf("reason %q, want %q", me.Reason(), tc.want)
			}
		})
	}
}

var ratComparer = cmp.Comparer(func(a, b *big.Rat) bool { return a.Cmp(b) == 0 })

// TestTightEpsNearTies: two pairs whose largest ratios differ by 10^-33,
// below what the float filter separates. The first pair's ratio 3/2 is the
// candidate; the second pair's is larger, so the exact maximum comes from
// it, and the witness names it.
func TestTightEpsNearTies(t *testing.T) {
	// 10^-33: the float approximations of both ratios are equal.
	e := r("1/1000000000000000000000000000000000")
	hi := new(big.Rat).Add(r("3/5"), e)
	lo := new(big.Rat).Sub(r("2/5"), e)
	c := valued(t,
		vstate{"s1", val("i", 1), true, map[string]string{"x": "3/5", "y": "2/5"}},
		vstate{"s2", val("i", 2), true, map[string]string{"x": "2/5", "y": "3/5"}},
		vstate{"s3", val("i", 3), true, map[string]string{"x": hi.RatString(), "y": lo.RatString()}},
		vstate{"s4", val("i", 4), true, map[string]string{"x": lo.RatString(), "y": hi.RatString()}},
		vstate{"x", val("o", 0), false, nil},
		vstate{"y", val("o", 1), false, nil},
	)
	a, err := verify.Analyze(context.Background(), &verify.Model{Chain: c, Neighbours: [][2]int{{0, 1}, {2, 3}}, Output: verify.FinalState()})
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.TightEpsilon(context.Background(), new(big.Rat))
	if err != nil {
		t.Fatal(err)
	}
	want := new(big.Rat).Quo(hi, lo)
	if !res.Eps.Equal(exact.LnOf(want)) {
		t.Errorf("tight ε = %s, want ln(%s)", res.Eps, want.RatString())
	}
	if w := res.Witness; w == nil || w.From.Name != "s3" || w.To.Name != "s4" || w.PrFrom.Cmp(hi) != 0 {
		t.Errorf("witness %+v, want s3 vs s4 on x", w)
	}
}
