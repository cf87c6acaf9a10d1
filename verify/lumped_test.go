package verify_test

import (
	"context"
	"errors"
	"testing"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/verify"
	"github.com/google/go-cmp/cmp"
)

// twoPaths: inputs a and b reach outputs o1, o1b (x=1) and o2 (x=2) through
// m2 or m1, which behave alike, or are never absorbed (o3 loops with o4).
func twoPaths(t *testing.T) *chain.Chain {
	t.Helper()
	b := chain.NewBuilder()
	a := b.AddState("a", chain.Valuation{{Name: "d", Value: 0}})
	bb := b.AddState("b", chain.Valuation{{Name: "d", Value: 1}})
	m1 := b.AddState("m1", nil, "L")
	m2 := b.AddState("m2", nil, "L")
	o1 := b.AddState("o1", chain.Valuation{{Name: "x", Value: 1}}, "out")
	o1b := b.AddState("o1b", chain.Valuation{{Name: "x", Value: 1}})
	o2 := b.AddState("o2", chain.Valuation{{Name: "x", Value: 2}}, "out")
	o3 := b.AddState("o3", nil)
	o4 := b.AddState("o4", nil)
	b.AddTransition(a, m2, r("1/2"))
	b.AddTransition(a, o3, r("1/2"))
	b.AddTransition(bb, m1, r("1/4"))
	b.AddTransition(bb, o3, r("3/4"))
	b.AddTransition(m1, o1, r("1/3"))
	b.AddTransition(m1, o2, r("2/3"))
	b.AddTransition(m2, o1b, r("1/3"))
	b.AddTransition(m2, o2, r("2/3"))
	b.AddTransition(o3, o4, r("1"))
	b.AddTransition(o4, o3, r("1"))
	b.MarkInput(a)
	b.MarkInput(bb)
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestStateKey(t *testing.T) {
	c := twoPaths(t)
	o1, _ := c.Lookup("o1")
	o1b, _ := c.Lookup("o1b")
	o2, _ := c.Lookup("o2")
	m1, _ := c.Lookup("m1")
	for _, tc := range []struct {
		out       verify.Output
		final     bool
		same, not [2]int // states the output space cannot and can tell apart
	}{
		{verify.FinalState(), true, [2]int{o1, o1}, [2]int{o1, o1b}},
		{verify.FinalVar("x"), true, [2]int{o1, o1b}, [2]int{o1, o2}},
		{verify.FinalVars("x", "d"), true, [2]int{o1b, o1b}, [2]int{o1, o1b}}, // o1 lacks d: itself
		{verify.FinalLabels("out"), true, [2]int{o1, o2}, [2]int{o1, o1b}},
		{verify.Traces(3, "L"), false, [2]int{o1, o2}, [2]int{m1, o1}},
	} {
		key := func(s int) string { return tc.out.StateKey(c, s) }
		if tc.out.Final() != tc.final {
			t.Errorf("%s: Final() = %v", tc.out, !tc.final)
		}
		if key(tc.same[0]) != key(tc.same[1]) {
			t.Errorf("%s tells %s and %s apart", tc.out, c.Name(tc.same[0]), c.Name(tc.same[1]))
		}
		if key(tc.not[0]) == key(tc.not[1]) {
			t.Errorf("%s does not tell %s and %s apart", tc.out, c.Name(tc.not[0]), c.Name(tc.not[1]))
		}
	}
}

// quotient merges m1 with m2 and o1 with o1b by hand: a lumping of
// twoPaths for FinalVar("x").
func quotient(t *testing.T) (*chain.Chain, []int) {
	t.Helper()
	b := chain.NewBuilder()
	a := b.AddState("a", chain.Valuation{{Name: "d", Value: 0}})
	bb := b.AddState("b", chain.Valuation{{Name: "d", Value: 1}})
	m := b.AddState("m1", nil, "L")
	o1 := b.AddState("o1", chain.Valuation{{Name: "x", Value: 1}})
	o2 := b.AddState("o2", chain.Valuation{{Name: "x", Value: 2}}, "out")
	o3 := b.AddState("o3", nil)
	o4 := b.AddState("o4", nil)
	b.AddTransition(a, m, r("1/2"))
	b.AddTransition(a, o3, r("1/2"))
	b.AddTransition(bb, m, r("1/4"))
	b.AddTransition(bb, o3, r("3/4"))
	b.AddTransition(m, o1, r("1/3"))
	b.AddTransition(m, o2, r("2/3"))
	b.AddTransition(o3, o4, r("1"))
	b.AddTransition(o4, o3, r("1"))
	b.MarkInput(a)
	b.MarkInput(bb)
	q, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return q, []int{0, 1, 2, 2, 3, 3, 4, 5, 6}
}

// TestLift: the quotient's analysis, lifted, answers as the chain's own:
// the same distributions, results naming the chain's states, and the
// likeliest run of a counterexample searched in the chain.
func TestLift(t *testing.T) {
	ctx := context.Background()
	c := twoPaths(t)
	q, block := quotient(t)
	out := verify.FinalVar("x")
	pairs := [][2]int{{0, 1}}
	plain, err := verify.Analyze(ctx, &verify.Model{Chain: c, Neighbours: pairs, Output: out})
	if err != nil {
		t.Fatal(err)
	}
	qa, err := verify.Analyze(ctx, &verify.Model{Chain: q, Neighbours: pairs, Output: out})
	if err != nil {
		t.Fatal(err)
	}
	lifted, err := qa.Lift(c, block)
	if err != nil {
		t.Fatal(err)
	}
	if lifted.Chain() != c {
		t.Errorf("the lifted analysis is of another chain")
	}
	for _, s := range []int{0, 1} {
		po, pp, _ := plain.Distribution(s)
		lo, lp, ok := lifted.Distribution(s)
		if !ok || !cmp.Equal(po, lo) || !cmp.Equal(pp, lp, ratCmp) {
			t.Errorf("distribution of %s: %v %v, lifted %v %v", c.Name(s), po, pp, lo, lp)
		}
	}
	want, err := plain.DP(ctx, exact.Eps{}, r("0"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := lifted.DP(ctx, exact.Eps{}, r("0"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got, ratCmp, epsCmp, cmp.Comparer(func(x, y exact.Real) bool { return x.String() == y.String() })); diff != "" {
		t.Errorf("DP (-chain +lifted):\n%s", diff)
	}
	var path []string
	for _, s := range got.Counterexample.Path {
		path = append(path, s.Name)
	}
	// E* = {x=1, x=2} from a: a → m2 → o2, where the quotient has m1.
	if diff := cmp.Diff([]string{"a", "m2", "o2"}, path); diff != "" {
		t.Errorf("likeliest run (-want +got):\n%s", diff)
	}
}

func TestLiftRefusesMergedInputs(t *testing.T) {
	c := twoPaths(t)
	q, block := quotient(t)
	a, err := verify.Analyze(context.Background(), &verify.Model{Chain: q, Neighbours: [][2]int{{0, 1}}, Output: verify.FinalVar("x")})
	if err != nil {
		t.Fatal(err)
	}
	block[1] = 0 // b in a's block
	if _, err := a.Lift(c, block); !errors.Is(err, verify.ErrModel) {
		t.Errorf("Lift with two inputs in one block: %v, want ErrModel", err)
	}
	if _, err := a.Lift(c, block[:3]); !errors.Is(err, verify.ErrModel) {
		t.Errorf("Lift with a short block map: %v, want ErrModel", err)
	}
}
