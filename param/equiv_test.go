package param

import (
	"context"
	"errors"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/poly"
)

func mustYarrow(t *testing.T, lo, hi, bits int) *Chain {
	t.Helper()
	pc, err := YarrowGeometric(ctx, poly.Limits{}, lo, hi, bits)
	if err != nil {
		t.Fatal(err)
	}
	return pc
}

func mustGeometric(t *testing.T, n int) *Chain {
	t.Helper()
	pc, err := TruncatedGeometric(ctx, poly.Limits{}, n)
	if err != nil {
		t.Fatal(err)
	}
	return pc
}

func mustEquivalent(t *testing.T, a, b *Chain) *EquivalenceResult {
	t.Helper()
	res, err := Equivalent(ctx, a, b)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestEquivalentYarrow: with the notes' budget the sampler is the
// truncated geometric mechanism for every α, inputs and outputs matched on
// in and out.
func TestEquivalentYarrow(t *testing.T) {
	for _, n := range []int{1, 5, 8} {
		res := mustEquivalent(t, mustYarrow(t, 0, n, 0), mustGeometric(t, n))
		if !res.Equal || res.Inputs != n+1 || res.Outputs != n+1 || res.Counterexample != nil {
			t.Errorf("n = %d: equal %v, %d inputs, %d outputs, %+v; want equal, %d and %d", n, res.Equal, res.Inputs, res.Outputs, res.Counterexample, n+1, n+1)
		}
		if len(res.InputVars) != 1 || res.InputVars[0] != "in" || len(res.OutputVars) != 1 || res.OutputVars[0] != "out" {
			t.Errorf("n = %d: matched on %v and %v, want [in] and [out]", n, res.InputVars, res.OutputVars)
		}
	}
}

// TestEquivalentBudget: with 4 bits over {0..5}, from in=0 the plus sign's
// fourth bit ends the draw, so Pr[out=4] is α·α³/(1+α) = α⁴/(1+α) for
// yarrow and (1−α)·α⁴/(1+α) for the geometric mechanism (outputs 0..3
// agree); they differ wherever α⁵/(1+α) ≠ 0, everywhere in (0, 1), so the
// witness is 1/2: 1/24 against 1/48. verify.Equivalent at 1/2 agrees.
func TestEquivalentBudget(t *testing.T) {
	res := mustEquivalent(t, mustYarrow(t, 0, 5, 4), mustGeometric(t, 5))
	d := res.Counterexample
	if res.Equal || d == nil {
		t.Fatalf("equal %v, counterexample %+v; want a difference", res.Equal, d)
	}
	wantA := rf(t, []int64{0, 0, 0, 0, 1}, []int64{1, 1})
	wantB := rf(t, []int64{0, 0, 0, 0, 1, -1}, []int64{1, 1})
	if d.Input != "in=0" || d.Output != "out=4" || !d.PrA.Equal(wantA) || !d.PrB.Equal(wantB) {
		t.Errorf("difference %s %s: %s vs %s, want in=0 out=4: %s vs %s", d.Input, d.Output, d.PrA, d.PrB, wantA, wantB)
	}
	if d.Witness.Cmp(r(1, 2)) != 0 || d.WitnessA.Cmp(r(1, 24)) != 0 || d.WitnessB.Cmp(r(1, 48)) != 0 {
		t.Errorf("witness %s: %s vs %s, want 1/2: 1/24 vs 1/48", d.Witness, d.WitnessA, d.WitnessB)
	}
	ya, err := builder.YarrowGeometric(r(1, 2), 0, 5, 4)
	if err != nil {
		t.Fatal(err)
	}
	if d.Instance == nil || d.Instance.Equal || d.Instance.Counterexample == nil {
		t.Fatalf("instance %+v, want a counterexample", d.Instance)
	}
	ic := d.Instance.Counterexample
	if ic.Input != "in=0" || ic.Output != "out=4" || ic.PrA.Cmp(r(1, 24)) != 0 || ic.PrB.Cmp(r(1, 48)) != 0 {
		t.Errorf("instance counterexample %+v, want in=0 out=4 1/24 vs 1/48", ic)
	}
	// The builder's chain at 1/2 gives yarrow's 1/24 too: s0 reaches t4
	// through k0_plus and its four bits.
	s0, _ := ya.Chain.Lookup("s0")
	bit := []string{"k0_plus", "k0_plus_bit1", "k0_plus_bit2", "k0_plus_bit3", "k0_plus_bit4", "t4"}
	p := new(big.Rat).Set(ya.Chain.Prob(s0, mustLookup(t, ya.Chain.Lookup, bit[0])))
	for i := 0; i+1 < len(bit); i++ {
		p.Mul(p, ya.Chain.Prob(mustLookup(t, ya.Chain.Lookup, bit[i]), mustLookup(t, ya.Chain.Lookup, bit[i+1])))
	}
	if p.Cmp(r(1, 24)) != 0 {
		t.Errorf("builder: Pr[s0 → t4 through the plus bits] = %s, want 1/24", p)
	}
}

func mustLookup(t *testing.T, f func(string) (int, bool), name string) int {
	t.Helper()
	s, ok := f(name)
	if !ok {
		t.Fatalf("no state %s", name)
	}
	return s
}

// TestEquivalentOneBit: over {0..2} with one bit, Pr[out=1 | in=0] is
// α/(1+α) for yarrow (TestYarrowDistribution) and α(1−α)/(1+α) for the
// geometric mechanism.
func TestEquivalentOneBit(t *testing.T) {
	res := mustEquivalent(t, mustYarrow(t, 0, 2, 1), mustGeometric(t, 2))
	d := res.Counterexample
	if res.Equal || d == nil || d.Input != "in=0" || d.Output != "out=1" ||
		!d.PrA.Equal(rf(t, []int64{0, 1}, []int64{1, 1})) || !d.PrB.Equal(rf(t, []int64{0, 1, -1}, []int64{1, 1})) ||
		d.Witness.Cmp(r(1, 2)) != 0 || d.WitnessA.Cmp(r(1, 3)) != 0 || d.WitnessB.Cmp(r(1, 6)) != 0 {
		t.Errorf("got %+v, want in=0 out=1: alpha/(1+alpha) vs alpha(1-alpha)/(1+alpha), 1/3 vs 1/6 at 1/2", d)
	}
}

// TestEquivalentConstant: the geometric mechanism at α = 1/2 (a constant
// chain) equals the parametric one only at 1/2, so the witness is the next
// simplest rational, 1/3; at in=0 out=0 the probabilities are 1/(1+α) and
// 2/3 (1/(1+1/3) = 3/4). Two constant chains equal at one α are equal.
func TestEquivalentConstant(t *testing.T) {
	in := poly.Open(r(0, 1), r(1, 1))
	g, err := builder.TruncatedGeometric(r(1, 2), 3)
	if err != nil {
		t.Fatal(err)
	}
	cg, err := Constant(ctx, poly.Limits{}, g.Chain, "alpha", in)
	if err != nil {
		t.Fatal(err)
	}
	res := mustEquivalent(t, mustGeometric(t, 3), cg)
	d := res.Counterexample
	if res.Equal || d == nil || d.Input != "in=0" || d.Output != "out=0" ||
		!d.PrA.Equal(rf(t, []int64{1}, []int64{1, 1})) || !d.PrB.Equal(rf(t, []int64{2}, []int64{3})) ||
		d.Witness.Cmp(r(1, 3)) != 0 || d.WitnessA.Cmp(r(3, 4)) != 0 || d.WitnessB.Cmp(r(2, 3)) != 0 {
		t.Errorf("got %+v, want in=0 out=0: 1/(1+alpha) vs 2/3, 3/4 vs 2/3 at 1/3", d)
	}
	y, err := builder.YarrowGeometric(r(1, 2), 0, 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	cy, err := Constant(ctx, poly.Limits{}, y.Chain, "alpha", in)
	if err != nil {
		t.Fatal(err)
	}
	if res := mustEquivalent(t, cy, cg); !res.Equal || res.Inputs != 4 || res.Outputs != 4 {
		t.Errorf("yarrow and geometric at 1/2: %+v, want equal over 4 inputs and 4 outputs", res)
	}
	// Different intervals, and unmatched inputs, are errors.
	half, err := Constant(ctx, poly.Limits{}, y.Chain, "alpha", poly.Open(r(0, 1), r(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Equivalent(ctx, cy, half); err == nil {
		t.Error("different intervals: no error")
	}
	if _, err := Equivalent(ctx, mustGeometric(t, 3), mustGeometric(t, 4)); err == nil {
		t.Error("inputs 0..3 against 0..4: no error")
	}
}

// TestEquivalentByName: states without valuations are matched by name, as
// verify.Equivalent matches them; a coin with 1/2 against one with α
// differs at a, x: 1/2 vs α, everywhere but 1/2, so at 1/3.
func TestEquivalentByName(t *testing.T) {
	b := chain.NewBuilder()
	a := b.AddState("a", nil)
	b.MarkInput(a)
	x, y := b.AddState("x", nil), b.AddState("y", nil)
	b.AddTransition(a, x, r(1, 2))
	b.AddTransition(a, y, r(1, 2))
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	in := poly.Open(r(0, 1), r(1, 1))
	fixed, err := Constant(ctx, poly.Limits{}, c, "p", in)
	if err != nil {
		t.Fatal(err)
	}
	rows := [][]Trans{{{To: 1, P: poly.FromPoly(poly.X())}, {To: 2, P: poly.FromPoly(poly.FromInts(1, -1))}}, nil, nil}
	coin, err := New(ctx, poly.Limits{}, c, "p", in, rows, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := mustEquivalent(t, fixed, coin)
	d := res.Counterexample
	if res.Equal || res.InputVars != nil || res.OutputVars != nil || res.Inputs != 1 || res.Outputs != 2 || d == nil ||
		d.Input != "a" || d.Output != "x" || d.Witness.Cmp(r(1, 3)) != 0 || d.WitnessA.Cmp(r(1, 2)) != 0 || d.WitnessB.Cmp(r(1, 3)) != 0 {
		t.Errorf("got %+v (difference %+v), want by names, a x: 1/2 vs 1/3 at 1/3", res, d)
	}
	if res := mustEquivalent(t, coin, coin); !res.Equal {
		t.Errorf("a chain against itself: %+v", res)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Equivalent(cancelled, mustYarrow(t, 0, 5, 0), mustGeometric(t, 5)); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
}
