package dptest_test

import (
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/dptest"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/google/go-cmp/cmp"
)

// A sampler whose only bug is a floating-point shortcut: binary randomized
// response at ε = ln 2 tells the truth with e^ε/(1 + e^ε) = 2/3, written as
//
//	if rand.Float64() < 2.0/3 {
//		return x
//	}
//	return !x
//
// rand.Float64 is a uniform multiple of 2^−53 in [0, 1) (IntN(2^53)/2^53),
// and 2.0/3 is 2/3 rounded to the nearest multiple of 2^−53 (a float64 in
// [1/2, 1) has 53 binary digits after the point), so the truth comes with
// probability exactly that rounded 2/3, not 2/3. With a k-bit fraction
// (k = 24 for float32, 53 for float64), 2^k·2/3 has the fraction 2/3 for
// k even, 1/3 for k odd: rounding to the nearest goes up for k even, to
// p_k = (2^(k+1) + 1)/(3·2^k), and down for k odd, to (2^(k+1) − 1)/(3·2^k).
// Rounded up, the ratio of the truth to a lie, (2^(k+1) + 1)/(2^k − 1), is
// above e^ε = 2: ln(2)-DP fails, by exactly δ = p_k − 2·(1 − p_k) =
// 3·p_k − 2 = 2^−k. Rounded down it is ln(2)-DP, and still not the
// mechanism it claims to be: 1/(3·2^k) from it in total variation.
//
// float32 (k = 24, even) is not ln(2)-DP, by δ = 2^−24; float64 (k = 53,
// odd) is. The direct model draws the k-bit fraction as IntN(2^k), which is
// explored at k = 10, 11 and 12; the lazy one compares it with the
// threshold bit by bit from the top, the same distribution (checked at
// those k) in k + 1 runs, and is explored at k = 24 and 53.

// roundBits rounds p to the nearest multiple of 2^−k, ties to even: what
// storing p in a float with a k-bit significand does to a p in [1/2, 1).
func roundBits(p *big.Rat, k int) *big.Rat {
	unit := new(big.Int).Lsh(big.NewInt(1), uint(k))
	scaled := new(big.Rat).Mul(p, new(big.Rat).SetInt(unit))
	q, r := new(big.Int).QuoRem(scaled.Num(), scaled.Denom(), new(big.Int))
	switch c := new(big.Int).Lsh(r, 1).Cmp(scaled.Denom()); {
	case c > 0, c == 0 && q.Bit(0) == 1:
		q.Add(q, big.NewInt(1))
	}
	return new(big.Rat).SetFrac(q, unit)
}

// twoThirds is the truth probability of randomized response at ε = ln 2.
var twoThirds = big.NewRat(2, 3)

// rrFloat is the randomized response above at a k-bit precision: the
// uniform fraction IntN(2^k)/2^k against the float 2/3, rounded to k bits.
func rrFloat(src intSource, x bool, k int) bool {
	u := big.NewRat(int64(src.IntN(1<<k)), 1<<k) // rand.Float64()
	if u.Cmp(roundBits(twoThirds, k)) < 0 {      // < 2.0/3
		return x
	}
	return !x
}

// rrFloatLazy is rrFloat with u < t decided bit by bit from the top: the
// first bit where the uniform fraction and the threshold differ decides.
func rrFloatLazy(src bitSource, x bool, k int) bool {
	t := new(big.Rat).Mul(roundBits(twoThirds, k), new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(k)))).Num() // 2^k·t
	for i := k - 1; i >= 0; i-- {
		if u, ti := src.Bit(), t.Bit(i) == 1; u != ti {
			if ti { // u has 0 where t has 1: u < t
				return x
			}
			return !x
		}
	}
	return !x // u = t
}

// rrMechanism is randomized response on {false, true} by sample.
func rrMechanism(sample func(x bool, r *dptest.Rand) bool) dptest.Mechanism[bool, bool] {
	return dptest.Mechanism[bool, bool]{
		Inputs: []bool{false, true},
		Run:    sample,
	}
}

// rrExact is what rrFloat should be: the truth with 2/3.
var rrExact = dptest.Mechanism[bool, bool]{
	Inputs: []bool{false, true},
	Dist: func(x bool) map[bool]*big.Rat {
		return map[bool]*big.Rat{x: twoThirds, !x: big.NewRat(1, 3)}
	},
}

// TestRoundBitsIsFloatRounding: roundBits at 24 and 53 bits is what Go's
// float32 and float64 do, on the division 2.0/3 itself and on other
// values in [1/2, 1), halfway cases included (ties to even).
func TestRoundBitsIsFloatRounding(t *testing.T) {
	two32, two64 := float32(2), float64(2)
	if got, want := roundBits(twoThirds, 24), new(big.Rat).SetFloat64(float64(two32/3)); got.Cmp(want) != 0 {
		t.Errorf("float32 2/3: roundBits %s, float32 %s", got.RatString(), want.RatString())
	}
	if got, want := roundBits(twoThirds, 53), new(big.Rat).SetFloat64(two64/3); got.Cmp(want) != 0 {
		t.Errorf("float64 2/3: roundBits %s, float64 %s", got.RatString(), want.RatString())
	}
	// By hand: 2^24·2/3 = 11184810 + 2/3 rounds up, 2^53·2/3 =
	// 6004799503160661 + 1/3 down.
	if got := roundBits(twoThirds, 24); got.Cmp(big.NewRat(11184811, 1<<24)) != 0 {
		t.Errorf("roundBits(2/3, 24) = %s", got.RatString())
	}
	if got := roundBits(twoThirds, 53); got.Cmp(big.NewRat(6004799503160661, 1<<53)) != 0 {
		t.Errorf("roundBits(2/3, 53) = %s", got.RatString())
	}
	for _, p := range []*big.Rat{
		big.NewRat(5, 7), big.NewRat(7, 10), big.NewRat(3, 5), big.NewRat(999, 1000),
		new(big.Rat).Add(big.NewRat(1, 2), pow2(25)),                                     // halfway at 24 bits: down to 1/2 (even)
		new(big.Rat).Add(big.NewRat(1, 2), new(big.Rat).Mul(big.NewRat(3, 1), pow2(25))), // halfway: up to 1/2 + 2^−23 (even)
		new(big.Rat).Add(big.NewRat(1, 2), new(big.Rat).Mul(big.NewRat(3, 1), pow2(54))), // halfway at 53 bits
		new(big.Rat).Sub(big.NewRat(1, 1), new(big.Rat).Mul(big.NewRat(1, 3), pow2(24))), // just below 1
	} {
		f32, _ := p.Float32()
		f64, _ := p.Float64()
		if got, want := roundBits(p, 24), new(big.Rat).SetFloat64(float64(f32)); got.Cmp(want) != 0 {
			t.Errorf("%s at 24 bits: roundBits %s, float32 %s", p.RatString(), got.RatString(), want.RatString())
		}
		if got, want := roundBits(p, 53), new(big.Rat).SetFloat64(f64); got.Cmp(want) != 0 {
			t.Errorf("%s at 53 bits: roundBits %s, float64 %s", p.RatString(), got.RatString(), want.RatString())
		}
	}
}

// TestFloatShortcutCaught: at every precision the sampler is 1/(3·2^k)
// from randomized response in total variation; rounded up (k even) it is
// not ln(2)-DP, by exactly δ = 2^−k, with tight ε ln((2^(k+1) + 1)/(2^k −
// 1)); rounded down (k odd) it is, with tight ε ln((2^(k+1) − 1)/(2^k +
// 1)). float32 (k = 24) is caught by δ = 2^−24.
func TestFloatShortcutCaught(t *testing.T) {
	for _, k := range []int{10, 11, 12, 24, 53} {
		lazy := rrMechanism(func(x bool, r *dptest.Rand) bool { return rrFloatLazy(r, x, k) })
		if k <= 12 {
			direct := rrMechanism(func(x bool, r *dptest.Rand) bool { return rrFloat(r, x, k) })
			if r := dptest.AssertSameDist(t, lazy, direct); r != nil && r.Verdict != dptest.Holds {
				t.Errorf("k = %d: lazy vs direct: %s", k, r)
			}
		}
		tv := new(big.Rat).Mul(big.NewRat(1, 3), pow2(k))
		rec := record(t, func(tb testing.TB) {
			if r := dptest.AssertSameDist(tb, lazy, rrExact); r != nil && (r.TVLow.Cmp(tv) != 0 || r.TVHigh.Cmp(tv) != 0) {
				t.Errorf("k = %d: %s, want the distance 1/(3·2^%d)", k, r, k)
			}
		})
		if len(rec.errors) != 1 {
			t.Errorf("k = %d: the float shortcut is not caught: %q", k, rec.errors)
		}
		up, lo := new(big.Int).Lsh(big.NewInt(1), uint(k+1)), new(big.Int).Lsh(big.NewInt(1), uint(k))
		if k%2 == 0 {
			up.Add(up, big.NewInt(1))
			lo.Sub(lo, big.NewInt(1))
			r := dptest.AssertNotDP(t, lazy, exact.LnInt(2), nil)
			if r != nil {
				wantRat(t, "excess", r.Counterexample.Excess, pow2(k))
			}
		} else {
			up.Sub(up, big.NewInt(1))
			lo.Add(lo, big.NewInt(1))
			dptest.AssertDP(t, lazy, exact.LnInt(2), nil)
		}
		// By hand: p_k = (2^(k+1) ± 1)/(3·2^k), so 1 − p_k = (2^k ∓ 1)/(3·2^k).
		pk := new(big.Rat).SetFrac(up, new(big.Int).Lsh(big.NewInt(3), uint(k)))
		if got := roundBits(twoThirds, k); got.Cmp(pk) != 0 {
			t.Errorf("k = %d: roundBits(2/3) = %s, by hand %s", k, got.RatString(), pk.RatString())
		}
		dptest.AssertTightEpsilon(t, lazy, nil, exact.LnOf(new(big.Rat).SetFrac(up, lo)))
	}
}

// TestFloat32Message: what the failing test of the float32 sampler
// prints. In decimals both probabilities are 0.666667 and the ratio is
// ≈ 2; the exact numbers show the excess of 2^−24.
func TestFloat32Message(t *testing.T) {
	lazy := rrMechanism(func(x bool, r *dptest.Rand) bool { return rrFloatLazy(r, x, 24) })
	rec := record(t, func(tb testing.TB) {
		dptest.AssertDP(tb, lazy, exact.LnInt(2), nil)
		dptest.AssertSameDist(tb, lazy, rrExact)
	})
	want := []string{`dptest.AssertDP: violated: ε = ln(2) ≈ 0.693147, δ = 0; 2 ordered pairs × 2 outputs
counterexample: false vs true
  worst event     E* = {false}
  Pr[E* | false]  11184811/16777216 ≈ 0.666667
  Pr[E* | true]   5592405/16777216 ≈ 0.333333
  bound           e^ε·Pr[E* | true] + δ = 5592405/8388608 ≈ 0.666667
  excess          1/16777216 ≈ 5.96046e-08
  worst output    false: 11184811/16777216 ≈ 0.666667 vs 5592405/16777216 ≈ 0.333333 (ratio 11184811/5592405 ≈ 2)
  least ε         ln(11184811/5592405) ≈ 0.693147 would hold at this δ
explored: every run (50 runs)`,
		`dptest.AssertSameDist: different: the total-variation distance at input false is 1/50331648 ≈ 1.98682e-08
they differ most at output false: 11184811/16777216 ≈ 0.666667 vs 2/3 ≈ 0.666667`}
	if diff := cmp.Diff(want, rec.errors); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
