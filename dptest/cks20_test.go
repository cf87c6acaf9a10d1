package dptest_test

import (
	"context"
	"math"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/dptest"
)

// The discrete Laplace sampler of Canonne, Kamath and Steinke, "The
// Discrete Gaussian for Differential Privacy" (Algorithms 1 and 2), with
// Bernoulli(γ/k) as one exact choice; reuse marks Bernoulli(exp(−γ)) as a
// sub-sampler (Reuse).

// bernExp is Bernoulli(exp(−num/den)) from Bernoulli trials of rationals.
func bernExp(r *dptest.Rand, num, den int64, reuse bool) bool {
	if reuse {
		return dptest.Reuse(r, [2]int64{num, den}, func(r *dptest.Rand) bool { return bernExp(r, num, den, false) })
	}
	for num > den { // exp(−γ) = exp(−1)^⌊γ⌋ · exp(−(γ − ⌊γ⌋))
		if !bernExp(r, 1, 1, false) {
			return false
		}
		num -= den
	}
	k := int64(1)
	for r.Bernoulli(big.NewRat(num, den*k)) {
		k++
	}
	return k%2 == 1
}

// discreteLaplace returns x with probability ∝ exp(−|x|/t).
func discreteLaplace(r *dptest.Rand, t int64, reuse bool) int64 {
	for {
		u := int64(r.IntN(int(t)))
		if !bernExp(r, u, t, reuse) {
			continue
		}
		v := int64(0)
		for bernExp(r, 1, 1, reuse) {
			v++
		}
		x := u + t*v
		y := r.Bit()
		if y && x == 0 {
			continue
		}
		if y {
			return -x
		}
		return x
	}
}

// The same sampler down to single bits, with sub-samplers reused at two
// levels: Bernoulli(γ/k) from bits, and Bernoulli(exp(−γ)) from those.

// bernKey and expKey name the reused Bernoulli(num/den) and
// Bernoulli(exp(−num/den)).
type (
	bernKey struct{ num, den int64 }
	expKey  struct{ num, den int64 }
)

// bernBits is Bernoulli(num/den) from bits: true when a uniform number,
// drawn bit by bit, is below num/den.
func bernBits(r *dptest.Rand, num, den int64) bool {
	for num != 0 {
		num *= 2
		bit := num >= den // the next binary digit of num/den
		if bit {
			num -= den
		}
		if r.Bit() != bit {
			return bit
		}
	}
	return false
}

// bernExpBits is bernExp with each Bernoulli(γ/k) from bits, reused.
func bernExpBits(r *dptest.Rand, num, den int64) bool {
	for num > den {
		if !dptest.Reuse(r, expKey{1, 1}, func(r *dptest.Rand) bool { return bernExpBits(r, 1, 1) }) {
			return false
		}
		num -= den
	}
	k := int64(1)
	for dptest.Reuse(r, bernKey{num, den * k}, func(r *dptest.Rand) bool { return bernBits(r, num, den*k) }) {
		k++
	}
	return k%2 == 1
}

// discreteLaplaceBits is discreteLaplace from bits, with bernExpBits
// reused.
func discreteLaplaceBits(r *dptest.Rand, t int64) int64 {
	bexp := func(num, den int64) bool {
		return dptest.Reuse(r, expKey{num, den}, func(r *dptest.Rand) bool { return bernExpBits(r, num, den) })
	}
	for {
		u := int64(r.IntN(int(t)))
		if !bexp(u, t) {
			continue
		}
		v := int64(0)
		for bexp(1, 1) {
			v++
		}
		x := u + t*v
		y := r.Bit()
		if y && x == 0 {
			continue
		}
		if y {
			return -x
		}
		return x
	}
}

// expBounds brackets exp(−1) by two partial sums of its alternating series.
func expBounds() (lo, hi *big.Rat) {
	lo, hi = new(big.Rat), new(big.Rat)
	term := big.NewRat(1, 1)
	for k := int64(1); k <= 40; k++ {
		lo.Set(hi)
		if k%2 == 1 {
			hi.Add(hi, term)
		} else {
			hi.Sub(hi, term)
		}
		term.Quo(term, big.NewRat(k, 1))
	}
	if lo.Cmp(hi) > 0 {
		lo, hi = hi, lo
	}
	return lo, hi
}

// dlapBounds brackets Pr(x) = (1−q)/(1+q) · q^|x|, q = exp(−1), the
// discrete Laplace of scale 1.
func dlapBounds(x int64) (lo, hi *big.Rat) {
	qlo, qhi := expBounds()
	f := func(q, qq *big.Rat) *big.Rat { // (1−q)/(1+q) · qq^|x|
		p := new(big.Rat).Quo(new(big.Rat).Sub(big.NewRat(1, 1), q), new(big.Rat).Add(big.NewRat(1, 1), q))
		for range max(x, -x) {
			p.Mul(p, qq)
		}
		return p
	}
	return f(qhi, qlo), f(qlo, qhi)
}

// TestCKS20DiscreteLaplace: the three forms bracket the closed form within
// the exact unexplored mass, the reused form explores at least as much of
// every output as the plain one (the same MinProb), and the reused forms
// reach an unexplored mass below 10^−6, even from bits.
func TestCKS20DiscreteLaplace(t *testing.T) {
	ctx := context.Background()
	b := dptest.Budget{MinProb: big.NewRat(1, 1e9), Runs: 1 << 40}
	plain, err := dptest.Explore(ctx, func(r *dptest.Rand) int64 { return discreteLaplace(r, 1, false) }, dptest.Budget{MinProb: big.NewRat(1, 1e6), Runs: 1 << 40})
	if err != nil {
		t.Fatal(err)
	}
	reused, err := dptest.Explore(ctx, func(r *dptest.Rand) int64 { return discreteLaplace(r, 1, true) }, b)
	if err != nil {
		t.Fatal(err)
	}
	bits, err := dptest.Explore(ctx, func(r *dptest.Rand) int64 { return discreteLaplaceBits(r, 1) }, b)
	if err != nil {
		t.Fatal(err)
	}
	for name, d := range map[string]*dptest.Dist[int64]{"plain": plain, "reused": reused, "bits": bits} {
		sum := new(big.Rat).Set(d.Unexplored)
		for x, p := range d.P {
			sum.Add(sum, p)
			lo, hi := dlapBounds(x)
			if p.Cmp(hi) > 0 || new(big.Rat).Add(p, d.Unexplored).Cmp(lo) < 0 {
				t.Errorf("%s: Pr(%d) = %s, not within [%s, %s] − unexplored %s", name, x, p.FloatString(12), lo.FloatString(12), hi.FloatString(12), d.Unexplored.FloatString(12))
			}
		}
		if sum.Cmp(big.NewRat(1, 1)) != 0 {
			t.Errorf("%s: masses sum to %s", name, sum.RatString())
		}
	}
	for name, d := range map[string]*dptest.Dist[int64]{"reused": reused, "bits": bits} {
		if d.Unexplored.Cmp(big.NewRat(1, 1e6)) > 0 {
			t.Errorf("%s: unexplored %s > 10^-6", name, d.Unexplored.FloatString(9))
		}
	}
	// The same MinProb: the reused form explores all the plain one does.
	same, err := dptest.Explore(ctx, func(r *dptest.Rand) int64 { return discreteLaplace(r, 1, true) }, dptest.Budget{MinProb: big.NewRat(1, 1e6), Runs: 1 << 40})
	if err != nil {
		t.Fatal(err)
	}
	for x, p := range plain.P {
		if q := same.P[x]; q == nil || q.Cmp(p) < 0 {
			t.Errorf("Pr(%d): reused %v < plain %s", x, q, p.RatString())
		}
	}
	if same.Unexplored.Cmp(plain.Unexplored) >= 0 {
		t.Errorf("unexplored: reused %s, plain %s", same.Unexplored.FloatString(9), plain.Unexplored.FloatString(9))
	}
	t.Logf("MinProb 1e-6: plain %d runs, unexplored %s; reused %d runs + %d sub-runs, unexplored %s", plain.Runs+plain.Cut, plain.Unexplored.FloatString(9), same.Runs+same.Cut, same.SubRuns, same.Unexplored.FloatString(12))
	t.Logf("MinProb 1e-9: reused %d runs + %d sub-runs, unexplored %s", reused.Runs+reused.Cut, reused.SubRuns, reused.Unexplored.FloatString(12))
	t.Logf("MinProb 1e-9: bits %d runs + %d sub-runs, unexplored %s", bits.Runs+bits.Cut, bits.SubRuns, bits.Unexplored.FloatString(12))
}

// BenchmarkCKS20 explores the discrete Laplace sampler of scale 1 on one
// input: with Bernoulli(exp(−γ)) reused (reuse), and from bits with
// Bernoulli(γ/k) and Bernoulli(exp(−γ)) reused (bits-reuse), to an
// unexplored mass ≤ 10^−6; with only Bernoulli(γ/k) as exact choices
// (plain), to MinProb 10^−10 (an unexplored mass of 1.7·10^−5: 10^−6 takes
// MinProb 3·10^−13 and 5.9 million runs).
//
//	go test ./dptest -run '^$' -bench CKS20 -benchmem -cpu 1
func BenchmarkCKS20(b *testing.B) {
	for _, c := range []struct {
		name    string
		sampler func(*dptest.Rand) int64
		minProb *big.Rat
		want    float64 // the most unexplored mass
	}{
		{"reuse", func(r *dptest.Rand) int64 { return discreteLaplace(r, 1, true) }, big.NewRat(1, 1e9), 1e-6},
		{"bits-reuse", func(r *dptest.Rand) int64 { return discreteLaplaceBits(r, 1) }, big.NewRat(1, 1e9), 1e-6},
		{"plain", func(r *dptest.Rand) int64 { return discreteLaplace(r, 1, false) }, big.NewRat(1, 1e10), 2e-5},
	} {
		b.Run(c.name, func(b *testing.B) {
			var d *dptest.Dist[int64]
			for b.Loop() {
				var err error
				d, err = dptest.Explore(context.Background(), c.sampler, dptest.Budget{MinProb: c.minProb, Runs: 1 << 40})
				if err != nil {
					b.Fatal(err)
				}
			}
			u, _ := d.Unexplored.Float64()
			if u > c.want {
				b.Fatalf("unexplored %g", u)
			}
			b.ReportMetric(-math.Log10(u), "-log10(unexplored)")
			b.ReportMetric(float64(d.Runs+d.Cut+d.SubRuns), "runs/op")
			b.ReportMetric(float64(b.N)*float64(d.Runs+d.Cut+d.SubRuns)/b.Elapsed().Seconds(), "runs/s")
		})
	}
}
