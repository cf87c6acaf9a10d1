package dptest_test

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/dptest"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/report"
)

// Report-noisy-max with geometric noise, as production code: three counts,
// each with fresh two-sided 1/2-geometric noise clamped to [−3, 5], and the
// index (1, 2 or 3) of the largest noisy count, ties to the smallest. It is
// models/noisy_max.dp written in Go, from the model's doc comment, and the
// two are compared exactly.

// intSource is the randomness the samplers ask for: math/rand/v2's
// *rand.Rand has it, and so does *dptest.Rand.
type intSource interface{ IntN(n int) int }

// geometricHalf returns clamp(c + Z, lo, hi) with Pr[Z = z] = 1/3·2^−|z|,
// the two-sided geometric noise at α = 1/2: Z = 0 with probability
// (1−α)/(1+α) = 1/3, Z > 0 and Z < 0 with α/(1+α) = 1/3 each; then |Z| =
// g ≥ 1 with probability 2^−g, one fair coin per step. Once c + Z reaches lo or hi
// the output is decided, and no more coins are drawn: every run ends.
func geometricHalf(src intSource, c, lo, hi int) int {
	sign := src.IntN(3) - 1 // −1, 0, +1
	v := c + sign
	if sign != 0 {
		for v > lo && v < hi && src.IntN(2) == 0 {
			v += sign
		}
	}
	return max(lo, min(v, hi))
}

// noisyMax reports the index (from 1) of the largest noisy count, the first
// on ties.
func noisyMax(src intSource, counts [3]int) int {
	best, bestV := 0, 0
	for i, c := range counts {
		if v := geometricHalf(src, c, -3, 5); i == 0 || v > bestV {
			best, bestV = i, v
		}
	}
	return best + 1
}

// counts and index print as models/noisy_max.dp names its inputs (its
// input variables a1, a2, a3) and outputs (the variable best), so that
// SameDist matches them.
type (
	counts [3]int
	index  int
)

func (c counts) String() string { return fmt.Sprintf("a1=%d, a2=%d, a3=%d", c[0], c[1], c[2]) }
func (i index) String() string  { return fmt.Sprintf("best=%d", int(i)) }

// noisyMaxMechanism is noisyMax on every input of the model, {0..2}³, with
// its neighbours: every count moves by at most 1.
func noisyMaxMechanism(run func(intSource, [3]int) int) dptest.Mechanism[counts, index] {
	var ins []counts
	for a := range 27 {
		ins = append(ins, counts{a / 9, a / 3 % 3, a % 3})
	}
	return dptest.Mechanism[counts, index]{
		Inputs: ins,
		Neighbours: func(a, b counts) bool {
			for i := range a {
				if a[i]-b[i] > 1 || b[i]-a[i] > 1 {
					return false
				}
			}
			return true
		},
		Run: func(x counts, r *dptest.Rand) index { return index(run(r, x)) },
	}
}

// The mechanism as a Go sampler: noisyMax on every input.
var goNoisyMax = noisyMaxMechanism(noisyMax)

// clampedHalf is the closed form of geometricHalf: Pr(v | c) = 1/3·2^−|v−c|
// inside (lo, hi), and the tails fold onto the ends, Pr(lo | c) =
// Σ_{k ≥ c−lo} 1/3·2^−k = 2/3·2^−(c−lo), and Pr(hi | c) = 2/3·2^−(hi−c).
func clampedHalf(v, c, lo, hi int) *big.Rat {
	switch v {
	case lo:
		return big.NewRat(2, 3<<(c-lo))
	case hi:
		return big.NewRat(2, 3<<(hi-c))
	}
	return big.NewRat(1, 3<<max(v-c, c-v))
}

// noisyMaxClosedForm is the third encoding: report-noisy-max as an exact
// distribution, a sum over the 9³ noisy counts of the closed form's
// products; ties to the first index, or with tiesLast to the last.
func noisyMaxClosedForm(tiesLast bool) dptest.Mechanism[counts, index] {
	m := goNoisyMax
	m.Run = nil
	m.Dist = func(x counts) map[index]*big.Rat {
		d := map[index]*big.Rat{1: new(big.Rat), 2: new(big.Rat), 3: new(big.Rat)}
		for v1 := -3; v1 <= 5; v1++ {
			for v2 := -3; v2 <= 5; v2++ {
				for v3 := -3; v3 <= 5; v3++ {
					best, bestV := 0, 0
					for i, v := range []int{v1, v2, v3} {
						if i == 0 || v > bestV || tiesLast && v == bestV {
							best, bestV = i, v
						}
					}
					p := new(big.Rat).Mul(clampedHalf(v1, x[0], -3, 5), clampedHalf(v2, x[1], -3, 5))
					d[index(best+1)].Add(d[index(best+1)], p.Mul(p, clampedHalf(v3, x[2], -3, 5)))
				}
			}
		}
		return d
	}
	return m
}

// TestNoisyMaxEqualsModel: the Go sampler has exactly the distribution of
// models/noisy_max.dp's chain on each of the 27 inputs, and of the closed
// form; the model's own closed form agrees with the chain too.
func TestNoisyMaxEqualsModel(t *testing.T) {
	model := dptest.File("../models/noisy_max.dp")
	for name, c := range map[string]struct{ got, want dptest.Model }{
		"sampler vs model":       {goNoisyMax, model},
		"sampler vs closed form": {goNoisyMax, noisyMaxClosedForm(false)},
		"closed form vs model":   {noisyMaxClosedForm(false), model},
	} {
		if r := dptest.AssertSameDist(t, c.got, c.want); r != nil && (r.Verdict != dptest.Holds || r.Inputs != 27) {
			t.Errorf("%s: %s", name, r)
		}
	}
}

// TestNoisyMaxDP: the Go sampler is ln(4)-DP, as the model is, with the
// model's tight ε = ln(6844/1853) at δ = 0 and tight δ = 20191/55296 at
// ε = 0 (its query statements' expectations), here computed from the
// sampler's explored distributions.
func TestNoisyMaxDP(t *testing.T) {
	r := dptest.AssertDP(t, goNoisyMax, exact.LnInt(4), nil)
	// Every run explored (9 per count: no noise, 5 − c upwards, c + 3
	// downwards; 9³ per input) and 7³ − 27 = 316 ordered pairs: per
	// count, 7 ordered pairs of values at most 1 apart, less the 27 inputs
	// paired with themselves.
	if r != nil && (r.OrderedPairs != 316 || r.Exploration.Unexplored.Sign() != 0 || r.Exploration.Runs != 27*729) {
		t.Errorf("%s", r)
	}
	dptest.AssertTightEpsilon(t, goNoisyMax, nil, exact.LnFrac(6844, 1853))
	d, err := dptest.TightDelta(context.Background(), goNoisyMax, exact.Eps{})
	if err != nil {
		t.Fatal(err)
	}
	wantRat(t, "tight δ at ε = 0", d.High, big.NewRat(20191, 55296))
}

// noisyMaxTiesLast is a mutant: ties go to the last index, not the model's
// first.
func noisyMaxTiesLast(src intSource, counts [3]int) int {
	best, bestV := 0, 0
	for i, c := range counts {
		if v := geometricHalf(src, c, -3, 5); i == 0 || v >= bestV {
			best, bestV = i, v
		}
	}
	return best + 1
}

// TestNoisyMaxTieBreakCaught: breaking ties the other way is caught
// against the model, at the input and output where the closed forms
// differ most, with their exact total-variation distance.
func TestNoisyMaxTieBreakCaught(t *testing.T) {
	rec := record(t, func(tb testing.TB) {
		dptest.AssertSameDist(tb, noisyMaxMechanism(noisyMaxTiesLast), dptest.File("../models/noisy_max.dp"))
	})
	// The closed forms: the input with the largest distance (the first on
	// ties) and there the output whose masses differ most.
	first, last := noisyMaxClosedForm(false), noisyMaxClosedForm(true)
	var worst counts
	var tv *big.Rat
	for _, x := range first.Inputs {
		p, q := last.Dist(x), first.Dist(x)
		d := new(big.Rat)
		for o := range p {
			if e := new(big.Rat).Sub(p[o], q[o]); e.Sign() > 0 {
				d.Add(d, e)
			}
		}
		if tv == nil || d.Cmp(tv) > 0 {
			worst, tv = x, d
		}
	}
	p, q := last.Dist(worst), first.Dist(worst)
	out, gap := index(0), new(big.Rat)
	for o := index(1); o <= 3; o++ {
		if d := new(big.Rat).Sub(p[o], q[o]); d.Abs(d).Cmp(gap) > 0 {
			out, gap = o, d
		}
	}
	want := fmt.Sprintf("dptest.AssertSameDist: different: the total-variation distance at input %v is %s\nthey differ most at output %v: %s vs %s",
		worst, report.RatText(tv), out, report.RatText(p[out]), report.RatText(q[out]))
	// The message, pinned: the closed forms must give it too.
	const golden = `dptest.AssertSameDist: different: the total-variation distance at input a1=1, a2=2, a3=2 is 101/512 ≈ 0.197266
they differ most at output best=3: 28277/55296 ≈ 0.511375 vs 17369/55296 ≈ 0.31411`
	if want != golden {
		t.Errorf("the closed forms give\n%s\nnot the golden\n%s", want, golden)
	}
	if len(rec.errors) != 1 || rec.errors[0] != want {
		t.Errorf("reported %q, want %q", rec.errors, want)
	}
}

// BenchmarkNoisyMax is TestNoisyMaxDP's check: the Go sampler explored on
// its 27 inputs (19 683 runs) and checked ln(4)-DP over its 316 ordered
// pairs (target < 50 ms); and, as model, TestNoisyMaxEqualsModel's
// comparison with models/noisy_max.dp, the model loaded and built each
// time.
//
//	go test ./dptest -run '^$' -bench NoisyMax -benchmem -cpu 1
func BenchmarkNoisyMax(b *testing.B) {
	ctx := context.Background()
	b.Run("dp", func(b *testing.B) {
		for b.Loop() {
			r, err := dptest.CheckDP(ctx, goNoisyMax, exact.LnInt(4), nil)
			if err != nil || r.Verdict != dptest.Holds {
				b.Fatal(err, r)
			}
		}
	})
	b.Run("model", func(b *testing.B) {
		for b.Loop() {
			r, err := dptest.SameDist(ctx, goNoisyMax, dptest.File("../models/noisy_max.dp"))
			if err != nil || r.Verdict != dptest.Holds {
				b.Fatal(err, r)
			}
		}
	})
}
