package dptest_test

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/dptest"
)

// Yarrow's sampler for the truncated geometric mechanism (the Harvard
// Privacy Tools notes Geometric Mechanism, Algorithm 2), as yarrow's
// sample_simple_geometric_mechanism runs it: no noise with probability
// (1−α)/(1+α); else a fair sign, and the index of the first 1 among at most
// bits Bernoulli(1−α) trials (bits if none is 1); the noisy count clamped
// to [min, max]. Each Bernoulli trial is yarrow's sample_bit_prob: fair
// coins until the first heads, then that digit of p's binary expansion.
// It is compared exactly with the builder yarrow_geometric, an independent
// encoding of the same algorithm as a chain, step by step.

// bernoulliSource is what yarrowGeometric draws from: Bernoulli trials of
// rational probabilities. *dptest.Rand has it, as one exact choice each.
type bernoulliSource interface{ Bernoulli(p *big.Rat) bool }

// bitSource is a source of fair bits: *dptest.Rand has it.
type bitSource interface{ Bit() bool }

// yarrowBits is a bernoulliSource made of fair bits, as yarrow's
// sample_bit_prob: a fair coin per binary digit of p, until the first
// heads, at digit i, and Bernoulli(p) is that digit: true with probability
// Σ_i 2^−i·p_i = p. Once the digits left are all 0 (p dyadic) the result is
// false whatever the coins say, and it stops there (yarrow flips on, to
// run in constant time; the distribution is the same).
type yarrowBits struct{ src bitSource }

func (y yarrowBits) Bernoulli(p *big.Rat) bool {
	num, den := new(big.Int).Set(p.Num()), p.Denom() // num/den: the digits left
	for num.Sign() != 0 {
		num.Lsh(num, 1)
		digit := num.Cmp(den) >= 0
		if digit {
			num.Sub(num, den)
		}
		if y.src.Bit() { // heads
			return digit
		}
	}
	return false
}

// yarrowGeometric releases count with yarrow's geometric noise of
// parameter alpha, clamped to [lo, hi], with at most bits trials.
func yarrowGeometric(src bernoulliSource, count, lo, hi, bits int, alpha *big.Rat) int {
	one := big.NewRat(1, 1)
	hit := new(big.Rat).Sub(one, alpha)
	if src.Bernoulli(new(big.Rat).Quo(hit, new(big.Rat).Add(one, alpha))) {
		return max(lo, min(count, hi))
	}
	sign := -1
	if src.Bernoulli(big.NewRat(1, 2)) {
		sign = 1
	}
	g := bits
	for n := 1; n <= bits; n++ {
		if src.Bernoulli(hit) {
			g = n
			break
		}
	}
	return max(lo, min(count+sign*g, hi))
}

// yarrowIn and yarrowOut print as the builder names its inputs (in=v)
// and outputs (final states t<l>).
type (
	yarrowIn  int
	yarrowOut int
)

func (v yarrowIn) String() string  { return fmt.Sprintf("in=%d", int(v)) }
func (o yarrowOut) String() string { return fmt.Sprintf("t%d", int(o)) }

// yarrowMechanism runs sample on every count of [lo, hi], bit by bit when
// bitLevel, else with each Bernoulli trial one exact choice.
func yarrowMechanism(lo, hi int, bitLevel bool, sample func(src bernoulliSource, count int) int) dptest.Mechanism[yarrowIn, yarrowOut] {
	var ins []yarrowIn
	for v := lo; v <= hi; v++ {
		ins = append(ins, yarrowIn(v))
	}
	return dptest.Mechanism[yarrowIn, yarrowOut]{
		Inputs:     ins,
		Neighbours: dptest.Within[yarrowIn](1),
		Run: func(x yarrowIn, r *dptest.Rand) yarrowOut {
			var src bernoulliSource = r
			if bitLevel {
				src = yarrowBits{r}
			}
			return yarrowOut(sample(src, int(x)))
		},
	}
}

// TestYarrowGeometricEqualsBuilder: with exact Bernoulli trials the Go
// sampler has exactly the builder's distribution, for the notes' budget
// and a smaller one that caps the noise.
func TestYarrowGeometricEqualsBuilder(t *testing.T) {
	for _, c := range []struct {
		alpha        *big.Rat
		lo, hi, bits int
		wantBits     int // the budget the builder takes for bits
	}{
		{big.NewRat(1, 2), 0, 5, 0, 5},
		{big.NewRat(2, 3), -2, 3, 3, 3},
		{big.NewRat(1, 3), 0, 8, 2, 2},
	} {
		b, err := builder.YarrowGeometric(c.alpha, c.lo, c.hi, c.bits)
		if err != nil {
			t.Fatal(err)
		}
		m := yarrowMechanism(c.lo, c.hi, false, func(src bernoulliSource, v int) int {
			return yarrowGeometric(src, v, c.lo, c.hi, c.wantBits, c.alpha)
		})
		if r := dptest.AssertSameDist(t, m, dptest.Builder(b)); r != nil && (r.Verdict != dptest.Holds || r.Inputs != c.hi-c.lo+1) {
			t.Errorf("α = %s, [%d, %d], %d bits: %s", c.alpha.RatString(), c.lo, c.hi, c.bits, r)
		}
	}
}

// TestYarrowBits: Bernoulli(p) from fair bits, as yarrow draws it, is
// exact for a dyadic p and within the unexplored mass otherwise: at depth
// 20, 1/3 = 0.010101…₂ and 5/7 = 0.101101…₂ leave 2^−20 (twenty tails)
// unexplored, and no explored mass exceeds the exact one.
func TestYarrowBits(t *testing.T) {
	for _, c := range []struct {
		p       *big.Rat
		verdict dptest.Verdict
		u       *big.Rat
	}{
		{big.NewRat(3, 8), dptest.Holds, new(big.Rat)},
		{big.NewRat(1, 2), dptest.Holds, new(big.Rat)},
		{big.NewRat(1, 3), dptest.Unknown, pow2(20)},
		{big.NewRat(5, 7), dptest.Unknown, pow2(20)},
	} {
		got := dptest.Sampler(func(r *dptest.Rand) bool { return yarrowBits{r}.Bernoulli(c.p) }, dptest.Budget{Depth: 20})
		want := dptest.Exact(map[bool]*big.Rat{true: c.p, false: new(big.Rat).Sub(big.NewRat(1, 1), c.p)})
		r := dptest.AssertSameDist(t, got, want)
		if r != nil && (r.Verdict != c.verdict || r.TVLow.Sign() != 0 || r.TVHigh.Cmp(c.u) != 0 || r.UnexploredGot.Cmp(c.u) != 0) {
			t.Errorf("Bernoulli(%s): %s", c.p.RatString(), r)
		}
	}
}

// TestYarrowGeometricBitLevel: yarrow's sampler down to fair bits, at
// α = 1/2 on [0, 5] with the notes' 5 trials, equals the builder within its
// unexplored mass: the first trial, Bernoulli(1/3), never ends surely. The
// depth cuts the runs of more than D flips, whose mass is, by hand: the
// first trial takes i flips with probability 2^−i and says "no noise" for
// i even; for i odd come 1 flip of sign and T one-flip Bernoulli(1/2)
// trials, Pr(T > k) = 2^−k for k < 5 and 0 after, so
//
//	u(D) = 2^−D + Σ_{i odd ≤ D} 2^−i·Pr(T > D − i − 1),
//
// the same on every input — for D even and at least 6, the terms i = D−1,
// D−3, D−5 give 2·2^−D each: u(D) = 7·2^−D. No explored output has more
// than the builder gives it, so the total-variation distance is between 0
// and u(D).
func TestYarrowGeometricBitLevel(t *testing.T) {
	const lo, hi, bits = 0, 5, 5
	alpha := big.NewRat(1, 2)
	b, err := builder.YarrowGeometric(alpha, lo, hi, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, depth := range []int{8, 16, 24} {
		u := pow2(depth)
		for i := 1; i <= depth; i += 2 {
			switch k := depth - i - 1; {
			case k <= 0:
				u.Add(u, pow2(i))
			case k < bits:
				u.Add(u, pow2(i+k))
			}
		}
		if u.Cmp(new(big.Rat).Mul(big.NewRat(7, 1), pow2(depth))) != 0 {
			t.Errorf("u(%d) = %s, not 7·2^−%[1]d", depth, u.RatString())
		}
		m := yarrowMechanism(lo, hi, true, func(src bernoulliSource, v int) int {
			return yarrowGeometric(src, v, lo, hi, bits, alpha)
		})
		m.Budget = dptest.Budget{Depth: depth}
		r := dptest.AssertSameDist(t, m, dptest.Builder(b))
		if r != nil && (r.Verdict != dptest.Unknown || r.TVLow.Sign() != 0 || r.TVHigh.Cmp(u) != 0 || r.UnexploredGot.Cmp(u) != 0) {
			t.Errorf("depth %d: u(D) = %s: %s", depth, u.RatString(), r)
		}
	}
}

// TestYarrowGeometricMutant: the mutant that keeps the noise at 0 with the
// one-sided geometric's 1 − α instead of (1−α)/(1+α) is caught. At
// α = 1/2 it draws no noise with 1/2 instead of 1/3, each sign with 1/4
// instead of 1/3; at an inside count v no noisy output is v, so the excess
// is all at v: a total-variation distance of 1/2 − 1/3 = 1/6, first at
// in=1 (at in=0 and in=5 the clamp gives v from the noise too, and the
// distance is 1/12).
func TestYarrowGeometricMutant(t *testing.T) {
	alpha := big.NewRat(1, 2)
	b, err := builder.YarrowGeometric(alpha, 0, 5, 0)
	if err != nil {
		t.Fatal(err)
	}
	mutant := yarrowMechanism(0, 5, false, func(src bernoulliSource, v int) int {
		if src.Bernoulli(big.NewRat(1, 2)) { // 1 − α
			return v
		}
		sign := -1
		if src.Bernoulli(big.NewRat(1, 2)) {
			sign = 1
		}
		g := 5
		for n := 1; n <= 5; n++ {
			if src.Bernoulli(big.NewRat(1, 2)) {
				g = n
				break
			}
		}
		return max(0, min(v+sign*g, 5))
	})
	rec := record(t, func(tb testing.TB) { dptest.AssertSameDist(tb, mutant, dptest.Builder(b)) })
	want := "dptest.AssertSameDist: different: the total-variation distance at input in=1 is 1/6 ≈ 0.166667\nthey differ most at output t1: 1/2 ≈ 0.5 vs 1/3 ≈ 0.333333"
	if len(rec.errors) != 1 || rec.errors[0] != want {
		t.Errorf("reported %q, want %q", rec.errors, want)
	}
}
