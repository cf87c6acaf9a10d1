package dptest_test

import (
	"context"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/dptest"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/verify"
)

// ratOf parses an exact rational ("3/4").
func ratOf(s string) *big.Rat {
	x, ok := new(big.Rat).SetString(s)
	if !ok {
		panic(s)
	}
	return x
}

// wantReal fails unless got equals want exactly.
func wantReal(t testing.TB, what string, got exact.Real, want exact.Real) {
	t.Helper()
	if c, err := got.Cmp(want); err != nil || c != 0 {
		t.Errorf("%s = %s, want %s", what, got, want)
	}
}

func wantRat(t testing.TB, what string, got exact.Real, want *big.Rat) {
	t.Helper()
	wantReal(t, what, got, exact.RatReal(want))
}

func wantEps(t testing.TB, what string, got, want exact.Eps) {
	t.Helper()
	if c, err := got.Cmp(want); err != nil || c != 0 {
		t.Errorf("%s = %s, want %s", what, got, want)
	}
}

// rrDist is k-ary randomized response as an exact distribution: the true
// value with probability p, each other value with probability o.
func rrDist(k int, p, o *big.Rat) dptest.Mechanism[int, int] {
	ins := make([]int, k)
	for i := range ins {
		ins[i] = i
	}
	return dptest.Mechanism[int, int]{Inputs: ins, Dist: func(x int) map[int]*big.Rat {
		m := map[int]*big.Rat{}
		for v := range k {
			m[v] = o
			if v == x {
				m[v] = p
			}
		}
		return m
	}}
}

// rrFormula is 3-ary randomized response at ε = ln(c), with the right
// formula e^ε/(e^ε + k − 1) for the true value, or with the binary one,
// e^ε/(e^ε + 1), the rest split between the two other values.
func rrFormula(c int64, binary bool) dptest.Mechanism[int, int] {
	if binary {
		return rrDist(3, big.NewRat(c, c+1), big.NewRat(1, 2*(c+1)))
	}
	return rrDist(3, big.NewRat(c, c+2), big.NewRat(1, c+2))
}

// TestRandomizedResponse3: with the right formula, 3-ary randomized
// response at ε = ln(c) is exactly ln(c)-DP (the ratio p/o is c); with the
// binary formula the ratio is (c/(c+1)) / (1/(2(c+1))) = 2c, so it is
// ln(2c)-DP, not ln(c)-DP: at ε = ln(3), caught with the least ε ln(6).
func TestRandomizedResponse3(t *testing.T) { randomizedResponse3(t) }

// BenchmarkRandomizedResponse3 runs all of TestRandomizedResponse3 (for c
// = 2..6: both formulas checked, the counterexample, the tight ε of each;
// the builder's encoding at δ = 1/10), whose target is 50 ms:
//
//	go test ./dptest -run '^$' -bench RandomizedResponse3 -benchmem -cpu 1
func BenchmarkRandomizedResponse3(b *testing.B) {
	for b.Loop() {
		randomizedResponse3(b)
	}
}

func randomizedResponse3(t testing.TB) {
	ctx := context.Background()
	for c := int64(2); c <= 6; c++ {
		right, binary := rrFormula(c, false), rrFormula(c, true)
		r, err := dptest.CheckDP(ctx, right, exact.LnInt(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != dptest.Holds || r.Bounded {
			t.Errorf("c = %d: %s", c, r)
		}
		wantRat(t, "the least δ", r.DeltaBound, new(big.Rat))
		r, err = dptest.CheckDP(ctx, binary, exact.LnInt(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != dptest.Violated || r.Counterexample == nil {
			t.Fatalf("c = %d, binary formula: %s", c, r)
		}
		cx := r.Counterexample
		wantEps(t, "least ε", cx.LeastEps, exact.LnInt(2*c))
		// The worst event of 0 vs 1 is {0}: c/(c+1) against 1/(2(c+1)).
		if cx.From.Name != "0" || cx.To.Name != "1" || len(cx.Event) != 1 || cx.Event[0] != "0" ||
			cx.PrFrom.Cmp(big.NewRat(c, c+1)) != 0 || cx.PrTo.Cmp(big.NewRat(1, 2*(c+1))) != 0 {
			t.Errorf("c = %d: counterexample %s", c, cx)
		}
		for _, m := range []struct {
			m    dptest.Mechanism[int, int]
			want exact.Eps
		}{{right, exact.LnInt(c)}, {binary, exact.LnInt(2 * c)}} {
			e, err := dptest.TightEpsilon(ctx, m.m, nil)
			if err != nil {
				t.Fatal(err)
			}
			wantEps(t, "tight ε (low)", e.Low, m.want)
			wantEps(t, "tight ε (high)", e.High, m.want)
		}
	}
	// An independent encoding: the builder's k-ary randomized response,
	// truthful with probability θ, else uniform: θ + (1 − θ)/3 = 3/5 at
	// θ = 2/5.
	b, err := builder.RandomizedResponseK(big.NewRat(2, 5), 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []dptest.Model{dptest.Builder(b), rrFormula(3, false)} {
		e, err := dptest.TightEpsilon(ctx, m, big.NewRat(1, 10))
		if err != nil {
			t.Fatal(err)
		}
		// δ = 1/10: the pair's profile is 3/5 − c/5 down to c = 3, so
		// c* = (3/5 − 1/10)·5 = 5/2.
		wantEps(t, "tight ε at δ = 1/10", e.High, exact.LnFrac(5, 2))
	}
}

// rrSampler is rrFormula(c, false) as a sampler: one IntN(c + 2) choice.
func rrSampler(c int) dptest.Mechanism[int, int] {
	return dptest.Mechanism[int, int]{Inputs: []int{0, 1, 2}, Run: func(x int, r *dptest.Rand) int {
		v := r.IntN(c + 2)
		if v < c {
			return x
		}
		return (x + 1 + v - c) % 3
	}}
}

// TestSamplerWithoutUnexploredMass: a sampler with finitely many runs is
// decided exactly, like its distribution function.
func TestSamplerWithoutUnexploredMass(t *testing.T) {
	ctx := context.Background()
	r, err := dptest.CheckDP(ctx, rrSampler(3), exact.LnInt(3), nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != dptest.Holds || r.Bounded || r.Exploration == nil || r.Exploration.Runs != 15 || r.Exploration.Unexplored.Sign() != 0 {
		t.Errorf("%s", r)
	}
	d, err := dptest.SameDist(ctx, rrSampler(3), rrFormula(3, false))
	if err != nil {
		t.Fatal(err)
	}
	if d.Verdict != dptest.Holds || d.TVHigh.Sign() != 0 {
		t.Errorf("%s", d)
	}
}

// tailSampler returns x with probability 2^-10 (after ten heads) and −1
// otherwise: a sampler whose privacy hangs on runs of more than ten
// choices. Exactly, Pr(x | x) = 2^-10 and Pr(x | y) = 0 for y ≠ x, so it
// is not (ε, δ)-DP for any δ < 2^-10.
func tailSampler() dptest.Mechanism[int, int] {
	return dptest.Mechanism[int, int]{Inputs: []int{0, 1}, Run: func(x int, r *dptest.Rand) int {
		n := 0
		for r.Bit() {
			n++
		}
		if n >= 10 {
			return x
		}
		return -1
	}}
}

// TestUnexploredMassGivesUnknown: explored to 5 choices a run, tailSampler's two
// inputs have the same explored distribution (−1 with 31/32), so the
// explored runs alone would say "holds" at any ε and δ; the unexplored
// 1/32 of each input is exactly where the difference lies. The verdict
// must be unknown, with d = 0 + 1/32 and a lower bound of 0.
func TestUnexploredMassGivesUnknown(t *testing.T) {
	m := tailSampler()
	m.Budget = dptest.Budget{Depth: 5}
	r, err := dptest.CheckDP(context.Background(), m, exact.LnInt(2), pow2(12))
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != dptest.Unknown {
		t.Fatalf("verdict %s, want unknown:\n%s", r.Verdict, r)
	}
	wantRat(t, "d", r.DeltaBound, pow2(5))
	wantRat(t, "lower bound", r.DeltaLow, new(big.Rat))
	if e := r.Exploration; e.Unexplored.Cmp(pow2(5)) != 0 || e.Runs != 10 || e.Cut != 2 {
		t.Errorf("exploration %+v", e)
	}
	// Ten choices more and the explored runs reach the outputs x, 2^-11
	// each, but each input's unexplored 2^-11 could still cover the
	// other's: unknown, with d = 2^-11 + 2^-11.
	m.Budget.Depth = 11
	if r, err = dptest.CheckDP(context.Background(), m, exact.LnInt(2), pow2(12)); err != nil {
		t.Fatal(err)
	}
	if r.Verdict != dptest.Unknown {
		t.Fatalf("depth 11: verdict %s, want unknown:\n%s", r.Verdict, r)
	}
	wantRat(t, "d at depth 11", r.DeltaBound, pow2(10))
}

// TestExploredRunsProveViolation: explored to 20 choices, the runs with
// 10 to 19 heads give Pr(0 | 0) ≥ 2^-10 − 2^-20, while input 1's explored
// runs never give 0 and its unexplored mass is 2^-20: whatever that mass
// does, H(0‖1) ≥ 1023/2^20 − 2·2^-20 > δ = 2^-12 at ε = ln(2).
func TestExploredRunsProveViolation(t *testing.T) {
	ctx := context.Background()
	m := tailSampler()
	m.Budget = dptest.Budget{Depth: 20}
	r, err := dptest.CheckDP(ctx, m, exact.LnInt(2), pow2(12))
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != dptest.Violated || !r.Bounded {
		t.Fatalf("verdict %s, want violated:\n%s", r.Verdict, r)
	}
	cx := r.Counterexample
	A := new(big.Rat).Sub(pow2(10), pow2(20)) // explored Pr(0 | 0)
	B := pow2(20)                             // 0 explored + all of 1's unexplored mass
	if cx.From.Name != "0" || cx.To.Name != "1" || len(cx.Event) != 1 || cx.Event[0] != "0" || cx.PrFrom.Cmp(A) != 0 || cx.PrTo.Cmp(B) != 0 {
		t.Errorf("counterexample:\n%s", cx)
	}
	wantRat(t, "bound", cx.Bound, new(big.Rat).Add(pow2(12), new(big.Rat).Mul(big.NewRat(2, 1), B)))
	wantRat(t, "excess", cx.Excess, ratOf("765/1048576")) // 1023/2^20 − 2/2^20 − 256/2^20
	// d = H(L_0‖L_1) + u_0 = (2^-10 − 2^-20) + 2^-20, the exact δ.
	wantRat(t, "d", r.DeltaBound, pow2(10))
	wantRat(t, "lower bound", r.DeltaLow, ratOf("1021/1048576"))
	// The least ε: no finite one is proved (an input's unexplored mass
	// may fall where the other has none); at least ln(c) where
	// 1023/2^20 − c·2^-20 = 2^-12, c = 767.
	if !cx.LeastEps.IsInf() {
		t.Errorf("least ε (upper) = %s, want +∞", cx.LeastEps)
	}
	wantEps(t, "least ε (lower)", r.LeastEpsLow, exact.LnInt(767))
	e, err := dptest.TightEpsilon(ctx, m, pow2(12))
	if err != nil {
		t.Fatal(err)
	}
	wantEps(t, "tight ε (low)", e.Low, exact.LnInt(767))
	if !e.High.IsInf() || e.Exact() {
		t.Errorf("tight ε: %s", e)
	}
}

// coinRR is binary randomized response with a coin of 1/3 drawn by
// rejection (two bits, 11 rejected): it tells the truth with probability
// 2/3, so it is exactly ln(2)-DP, and its tight δ at ε = 0 is 1/3. Each
// round of two choices leaves 1/4 of the runs unexplored.
func coinRR(depth int) dptest.Mechanism[int, int] {
	return dptest.Mechanism[int, int]{
		Inputs: []int{0, 1},
		Run: func(x int, r *dptest.Rand) int {
			for {
				a, b := r.Bit(), r.Bit()
				if a && b {
					continue
				}
				if a || b {
					return x // 2/3
				}
				return 1 - x
			}
		},
		Budget: dptest.Budget{Depth: depth},
	}
}

// TestDeltaFallsAsBudgetGrows: after k rounds the unexplored mass is
// u = 4^-k and L_x = (1 − u)·(2/3, 1/3). At ε = ln(2) the explored part
// shows no excess, so d = u: 1/4, 1/16, 1/64 — and δ = 1/32 is proved at
// the third budget only. At ε = 0 the explored part already shows the
// excess (1 − u)/3, so d = 1/3 + 2u/3, more than u, and the lower bound is
// 1/3 − 4u/3: both close in on the true 1/3.
func TestDeltaFallsAsBudgetGrows(t *testing.T) {
	ctx := context.Background()
	for k, want := range []dptest.Verdict{dptest.Unknown, dptest.Unknown, dptest.Holds} {
		rounds := int64(k + 1)
		u := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), uint(2*rounds)))
		m := coinRR(2 * int(rounds))
		r, err := dptest.CheckDP(ctx, m, exact.LnInt(2), big.NewRat(1, 32))
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != want {
			t.Errorf("%d rounds: %s, want %s", rounds, r.Verdict, want)
		}
		wantRat(t, "d at ε = ln(2)", r.DeltaBound, u)
		d, err := dptest.TightDelta(ctx, m, exact.Eps{})
		if err != nil {
			t.Fatal(err)
		}
		third := big.NewRat(1, 3)
		hi := new(big.Rat).Add(third, new(big.Rat).Mul(big.NewRat(2, 3), u))
		lo := new(big.Rat).Sub(third, new(big.Rat).Mul(big.NewRat(4, 3), u))
		wantRat(t, "d at ε = 0", d.High, hi)
		wantRat(t, "lower bound at ε = 0", d.Low, lo)
		if d.Exact() {
			t.Errorf("%d rounds: the tight δ at ε = 0 is not known: %s", rounds, d)
		}
	}
}

// TestBoundedIrrationalEps: the bounds at an irrational c = e^(1/2) are
// exact reals. coinRR after three rounds (u = 1/64): for c < 2,
// H(L_x‖L_y) = (2/3 − c/3)(1 − u), so d = 43/64 − (21/64)·c and the lower
// bound is 42/64 − (21/64)·c − c/64 = 21/32 − (11/32)·c.
func TestBoundedIrrationalEps(t *testing.T) {
	half := exact.Must(exact.Rational(big.NewRat(1, 2)))
	d, err := dptest.TightDelta(context.Background(), coinRR(6), half)
	if err != nil {
		t.Fatal(err)
	}
	wantReal(t, "d", d.High, exact.Affine(ratOf("43/64"), ratOf("-21/64"), half))
	wantReal(t, "lower bound", d.Low, exact.Affine(ratOf("21/32"), ratOf("-11/32"), half))
}

// TestTightEpsilonBounds: coinRR after three rounds at δ = 1/32. The
// upper bound is the least c with (2 − c)(63/64)/3 + 1/64 ≤ 1/32, c =
// 41/21; the lower bound the least c with (2 − c)(63/64)/3 − c/64 ≤ 1/32,
// c = 20/11; the true tight ε, ln(61/32), lies between.
func TestTightEpsilonBounds(t *testing.T) {
	e, err := dptest.TightEpsilon(context.Background(), coinRR(6), big.NewRat(1, 32))
	if err != nil {
		t.Fatal(err)
	}
	wantEps(t, "low", e.Low, exact.LnFrac(20, 11))
	wantEps(t, "high", e.High, exact.LnFrac(41, 21))
	// The true value, from the exact distribution (2/3, 1/3).
	exactRR := rrDist(2, big.NewRat(2, 3), big.NewRat(1, 3))
	truth, err := dptest.TightEpsilon(context.Background(), exactRR, big.NewRat(1, 32))
	if err != nil {
		t.Fatal(err)
	}
	wantEps(t, "true tight ε", truth.High, exact.LnFrac(61, 32))
}

// TestVerdictsAgreeWithHandBuiltChain: the bounds of a sampler are
// verify's values on the chain the design describes, built by hand:
// input x moves to its explored outputs and to a state "unexplored by x"
// of its own.
func TestVerdictsAgreeWithHandBuiltChain(t *testing.T) {
	ctx := context.Background()
	m := tailSampler()
	m.Budget = dptest.Budget{Depth: 14} // outputs x with 2^-11..2^-14, unexplored 2^-14
	b := newChain(t, map[string]map[string]*big.Rat{
		"x0": {"minus": new(big.Rat).Sub(big.NewRat(1, 1), pow2(10)), "zero": ratOf("15/16384"), "u0": pow2(14)},
		"x1": {"minus": new(big.Rat).Sub(big.NewRat(1, 1), pow2(10)), "one": ratOf("15/16384"), "u1": pow2(14)},
	})
	a, err := verify.Analyze(ctx, &verify.Model{Chain: b, Neighbours: [][2]int{{0, 1}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, eps := range []exact.Eps{{}, exact.LnInt(2), exact.Must(exact.Rational(big.NewRat(1, 3)))} {
		want, err := a.TightDelta(ctx, eps)
		if err != nil {
			t.Fatal(err)
		}
		got, err := dptest.TightDelta(ctx, m, eps)
		if err != nil {
			t.Fatal(err)
		}
		wantReal(t, "d", got.High, want.Delta)
	}
}

// newChain builds a chain whose inputs x0, x1, … (states 0, 1, …) move
// to absorbing states with the given probabilities.
func newChain(t *testing.T, rows map[string]map[string]*big.Rat) *chain.Chain {
	t.Helper()
	b := chain.NewBuilder()
	var ins []string
	for name := range rows {
		ins = append(ins, name)
	}
	slices.Sort(ins)
	for _, name := range ins {
		b.MarkInput(b.AddState(name, nil))
	}
	for _, name := range ins {
		from, _ := b.Lookup(name)
		outs := slices.Sorted(maps.Keys(rows[name]))
		for _, o := range outs {
			to, ok := b.Lookup(o)
			if !ok {
				to = b.AddState(o, nil)
			}
			b.AddTransition(from, to, rows[name][o])
		}
	}
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// swapped gives "a" and "b" with 1/2 each on both inputs, but not the
// same way: one Bit gives its first output at once, a rejection loop (two
// bits a round, accepted with 1/2) its second. Truly δ = 0 at ε = 0; after
// k rounds each input's unexplored mass is 2^-(k+1), all of it on its
// second output, so input 0 has "a" complete where input 1 still misses
// 2^-(k+1) of it: H(L_0‖L_1) = 2^-(k+1), and d = H + u_0 = 2^-k, twice the
// unexplored mass — halving with every round.
func swapped(rounds int) dptest.Mechanism[int, string] {
	return dptest.Mechanism[int, string]{
		Inputs: []int{0, 1},
		Run: func(x int, r *dptest.Rand) string {
			first, second := "a", "b"
			if x == 1 {
				first, second = "b", "a"
			}
			if r.Bit() {
				return first
			}
			for {
				if r.Bit() != r.Bit() {
					return second
				}
			}
		},
		Budget: dptest.Budget{Depth: 1 + 2*rounds},
	}
}

// TestDMoreThanUnexploredMass: d counts the excess that the edge of the
// explored runs shows, not only the unexplored mass.
func TestDMoreThanUnexploredMass(t *testing.T) {
	for k := 1; k <= 3; k++ {
		d, err := dptest.TightDelta(context.Background(), swapped(k), exact.Eps{})
		if err != nil {
			t.Fatal(err)
		}
		if d.Exploration.Unexplored.Cmp(pow2(k+1)) != 0 {
			t.Errorf("%d rounds: unexplored %s, want 2^-%d", k, d.Exploration.Unexplored, k+1)
		}
		wantRat(t, fmt.Sprintf("d after %d rounds", k), d.High, pow2(k))
		// The lower bound: H(L_0‖L_1) − u_1 = 0.
		wantRat(t, "lower bound", d.Low, new(big.Rat))
	}
}
