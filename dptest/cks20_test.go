package dptest_test

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"testing"

	"github.com/dpcheck/dpcheck/dptest"
	"github.com/dpcheck/dpcheck/exact"
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
		if x, ok := dlapRound(r, t, func(num, den int64) bool { return bernExp(r, num, den, reuse) }); ok {
			return x
		}
	}
}

// dlapRound is one round of the discrete Laplace's rejection loop
// (Algorithm 2), with Bernoulli(exp(−num/den)) drawn by bexp: the x it
// accepts, or ok false for a rejection.
func dlapRound(r *dptest.Rand, t int64, bexp func(num, den int64) bool) (x int64, ok bool) {
	u := int64(r.IntN(int(t)))
	if !bexp(u, t) {
		return 0, false
	}
	v := int64(0)
	for bexp(1, 1) {
		v++
	}
	x = u + t*v
	y := r.Bit()
	if y && x == 0 {
		return 0, false
	}
	if y {
		return -x, true
	}
	return x, true
}

// discreteLaplaceRounds is discreteLaplace with each round of its
// rejection loop reused (with Bernoulli(exp(−γ)) reused within it): a
// round is one exact choice over its outcomes — an accepted x, or a
// rejection — so the runs that reject r times before accepting are one
// path per accepted x, not one per way of rejecting each time.
func discreteLaplaceRounds(r *dptest.Rand, t int64) int64 {
	type round struct {
		ok bool
		x  int64
	}
	one := func(r *dptest.Rand) round {
		x, ok := dlapRound(r, t, func(num, den int64) bool { return bernExp(r, num, den, true) })
		return round{ok, x}
	}
	for {
		if o := dptest.Reuse(r, "round", one); o.ok {
			return o.x
		}
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

// bernExpBits is bernExp with each Bernoulli(γ/k) from bits, reused
// (unless plain: then every bit is a choice of the run).
func bernExpBits(r *dptest.Rand, num, den int64, plain bool) bool {
	bexp1 := func() bool {
		if plain {
			return bernExpBits(r, 1, 1, true)
		}
		return dptest.Reuse(r, expKey{1, 1}, func(r *dptest.Rand) bool { return bernExpBits(r, 1, 1, false) })
	}
	bern := func(num, den int64) bool {
		if plain {
			return bernBits(r, num, den)
		}
		return dptest.Reuse(r, bernKey{num, den}, func(r *dptest.Rand) bool { return bernBits(r, num, den) })
	}
	for num > den {
		if !bexp1() {
			return false
		}
		num -= den
	}
	k := int64(1)
	for bern(num, den*k) {
		k++
	}
	return k%2 == 1
}

// discreteLaplaceBits is discreteLaplace from bits, with bernExpBits
// reused.
func discreteLaplaceBits(r *dptest.Rand, t int64) int64 {
	return discreteLaplaceFromBits(r, t, false)
}

// discreteLaplaceFromBits is discreteLaplace from bits: with plain, every
// bit is a choice of the run (no Reuse at all), else as
// discreteLaplaceBits.
func discreteLaplaceFromBits(r *dptest.Rand, t int64, plain bool) int64 {
	bexp := func(num, den int64) bool {
		if plain {
			return bernExpBits(r, num, den, true)
		}
		return dptest.Reuse(r, expKey{num, den}, func(r *dptest.Rand) bool { return bernExpBits(r, num, den, false) })
	}
	for {
		if x, ok := dlapRound(r, t, bexp); ok {
			return x
		}
	}
}

// expNegBounds brackets exp(−q), 0 < q ≤ 1, by two consecutive partial
// sums of its alternating series (40 terms: within q^40/40! < 10^−47).
func expNegBounds(q *big.Rat) (lo, hi *big.Rat) {
	lo, hi = new(big.Rat), new(big.Rat)
	term := big.NewRat(1, 1)
	for k := int64(1); k <= 40; k++ {
		lo.Set(hi)
		if k%2 == 1 {
			hi.Add(hi, term)
		} else {
			hi.Sub(hi, term)
		}
		term.Mul(term, q)
		term.Quo(term, big.NewRat(k, 1))
	}
	if lo.Cmp(hi) > 0 {
		lo, hi = hi, lo
	}
	return lo, hi
}

// expBounds brackets exp(1/t): the inverses of expNegBounds(1/t).
func expBounds(t int64) (lo, hi *big.Rat) {
	qlo, qhi := expNegBounds(big.NewRat(1, t))
	return new(big.Rat).Inv(qhi), new(big.Rat).Inv(qlo)
}

// dlapBounds brackets Pr(x) = (1−q)/(1+q) · q^|x|, q = exp(−1/t), the
// discrete Laplace of scale t.
func dlapBounds(x, t int64) (lo, hi *big.Rat) {
	qlo, qhi := expNegBounds(big.NewRat(1, t))
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
			lo, hi := dlapBounds(x, 1)
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

// cks20Noise is the CKS20 discrete Laplace sampler of scale t in one of
// its forms: "rational" (Bernoulli(γ/k) as one exact choice, Bernoulli(exp(−γ))
// reused), "bits" (from single bits, Bernoulli(γ/k) and Bernoulli(exp(−γ))
// reused), the same without Reuse, "rational-plain" and "bits-plain", and
// "rational-rounds" (rational with each rejection round reused too).
func cks20Noise(form string, t int64) func(*dptest.Rand) int64 {
	switch form {
	case "rational":
		return func(r *dptest.Rand) int64 { return discreteLaplace(r, t, true) }
	case "rational-plain":
		return func(r *dptest.Rand) int64 { return discreteLaplace(r, t, false) }
	case "bits":
		return func(r *dptest.Rand) int64 { return discreteLaplaceFromBits(r, t, false) }
	case "rational-rounds":
		return func(r *dptest.Rand) int64 { return discreteLaplaceRounds(r, t) }
	case "bits-plain":
		return func(r *dptest.Rand) int64 { return discreteLaplaceFromBits(r, t, true) }
	}
	panic("no form " + form)
}

// cks20Mech is x + noise on the inputs {0, 1, 2, 3}, neighbours at
// distance 1, explored to minProb.
func cks20Mech(noise func(*dptest.Rand) int64, minProb *big.Rat) dptest.Mechanism[int64, int64] {
	return dptest.Mechanism[int64, int64]{
		Inputs:     []int64{0, 1, 2, 3},
		Neighbours: dptest.Within[int64](1),
		Run:        func(x int64, r *dptest.Rand) int64 { return x + noise(r) },
		Budget:     dptest.Budget{MinProb: minProb, Runs: 1 << 40},
	}
}

// tenTo is 10^−k.
func tenTo(k int) *big.Rat {
	return new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil))
}

// shiftExcess is Σ_k max(0, N(k) − c·N(k+s)): the hockey-stick divergence
// H(L_x‖L_y) at e^ε = c of x + N against y + N, y = x − s, for the
// explored noise N.
func shiftExcess(n map[int64]*big.Rat, c *big.Rat, s int64) *big.Rat {
	h := new(big.Rat)
	for k, p := range n {
		v := new(big.Rat).Set(p)
		if q := n[k+s]; q != nil {
			v.Sub(v, new(big.Rat).Mul(c, q))
		}
		if v.Sign() > 0 {
			h.Add(h, v)
		}
	}
	return h
}

// realFloat is x as a float64, from its correctly rounded decimal (Float
// loses the digits of A + B·e^ε where the two terms cancel).
func realFloat(x exact.Real) float64 {
	f, err := strconv.ParseFloat(exact.JSONDecimal().Real(x), 64)
	if err != nil {
		panic(err)
	}
	return f
}

// maxRat is the larger of x and y.
func maxRat(x, y *big.Rat) *big.Rat {
	if x.Cmp(y) >= 0 {
		return x
	}
	return y
}

// affine is a + b·x.
func affine(a, b, x *big.Rat) *big.Rat {
	return new(big.Rat).Add(a, new(big.Rat).Mul(b, x))
}

// TestCKS20DP: x + DLap(t) on the inputs {0..3}, neighbours at distance 1,
// is exactly (1/t)-DP (the ratio of neighbouring outputs is at most
// e^(1/t)), in both forms of the sampler and with its rejection rounds
// reused, over three budgets. (At t = 2 a round rejects in two ways, each
// its own path, so without reusing the rounds the unexplored mass falls
// only as about MinProb^0.6: 4.6·10^−6 at MinProb 10^−10 in 69 000 runs,
// against 8.8·10^−9 in 900 runs with them.)
//
// The explored noise N (Explore, the same budget) brackets the closed form
// within its unexplored mass u, and every input explores its shift of N,
// so d at ε = 1/t is u + max(H+, H−), Hs = Σ_k max(0, N(k) − c·N(k+s)),
// computed here from N with c bracketed by rationals: CheckDP's d is
// pinned within 10^−40. It is at most (1 + c)·u (each term of H is at most
// c·(P(k+s) − N(k+s)), as P(k) ≤ c·P(k+s) for the true P), and AssertDP
// proves ε = 1/t with δ = (1 + c)·u rounded up. At δ = 0 the verdict is
// unknown, not holds: the true δ is 0, but the unexplored mass could fall
// anywhere. d falls as the budget grows.
//
// Below 1/t it is not DP: at ε' = 9/(10t) the true least δ is
// δ* = (1 − e^(−1/(10t)))/(1 + e^(−1/t)) (the outputs at or left of
// the input, whose ratio is e^(1/t) > e^ε'). AssertNotDP at ε', δ = 0
// proves the violation from the explored runs alone once u < δ*/(1 + c')
// (their lower bound H(L_x‖L_y) − c'·u ≥ δ* − (1 + c')·u > 0; at t = 2
// and MinProb 10^−3, u = 0.076 is too much, and the verdict is unknown),
// with a least ε between ε' and 1/t; the bounds of the tight δ at ε' contain δ* and d(ε') ≤ δ* + (1 +
// c')·u, so AssertDP proves ε' with that δ.
func TestCKS20DP(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		scale   int64
		budgets []int // MinProb 10^−k
	}{{1, []int{4, 6, 8}}, {2, []int{4, 5, 6}}} {
		for _, form := range []string{"rational", "bits", "rational-rounds"} {
			t.Run(fmt.Sprintf("t=%d/%s", c.scale, form), func(t *testing.T) {
				cks20DP(t, ctx, c.scale, form, c.budgets)
			})
		}
	}
}

func cks20DP(t *testing.T, ctx context.Context, scale int64, form string, budgets []int) {
	one := big.NewRat(1, 1)
	eps := exact.Must(exact.Rational(big.NewRat(1, scale)))
	clo, chi := expBounds(scale) // c = e^(1/t)
	eps9 := exact.Must(exact.Rational(big.NewRat(9, 10*scale)))
	q9lo, _ := expNegBounds(big.NewRat(9, 10*scale))
	c9hi := new(big.Rat).Inv(q9lo)                    // c' = e^ε', from above
	rlo, rhi := expNegBounds(big.NewRat(1, 10*scale)) // c'·q = e^(−1/(10t))
	qlo, qhi := expNegBounds(big.NewRat(1, scale))
	starLo := new(big.Rat).Quo(new(big.Rat).Sub(one, rhi), new(big.Rat).Add(one, qhi))
	starHi := new(big.Rat).Quo(new(big.Rat).Sub(one, rlo), new(big.Rat).Add(one, qlo))
	var prev exact.Real
	for i, k := range budgets {
		noise := cks20Noise(form, scale)
		m := cks20Mech(noise, tenTo(k))
		n, err := dptest.Explore(ctx, noise, m.Budget)
		if err != nil {
			t.Fatal(err)
		}
		u := n.Unexplored
		for x, p := range n.P {
			lo, hi := dlapBounds(x, scale)
			if p.Cmp(hi) > 0 || new(big.Rat).Add(p, u).Cmp(lo) < 0 {
				t.Errorf("MinProb 1e-%d: Pr(%d) = %s, not within [%s, %s] − unexplored %s", k, x, p.FloatString(12), lo.FloatString(12), hi.FloatString(12), u.FloatString(12))
			}
		}

		r, err := dptest.CheckDP(ctx, m, eps, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != dptest.Unknown {
			t.Errorf("MinProb 1e-%d, δ = 0: %s, want unknown", k, r)
		}
		if got := r.Exploration.Unexplored; got.Cmp(u) != 0 {
			t.Errorf("MinProb 1e-%d: the mechanism's unexplored mass %s, the noise's %s", k, got.FloatString(20), u.FloatString(20))
		}
		d := r.DeltaBound
		dlo := new(big.Rat).Add(u, maxRat(shiftExcess(n.P, chi, 1), shiftExcess(n.P, chi, -1)))
		dhi := new(big.Rat).Add(u, maxRat(shiftExcess(n.P, clo, 1), shiftExcess(n.P, clo, -1)))
		if c1, err1 := d.Cmp(exact.RatReal(dlo)); err1 != nil || c1 < 0 {
			t.Errorf("MinProb 1e-%d: d = %s below %s", k, exact.TextDecimal().Real(d), dlo.FloatString(50))
		}
		if c2, err2 := d.Cmp(exact.RatReal(dhi)); err2 != nil || c2 > 0 {
			t.Errorf("MinProb 1e-%d: d = %s above %s", k, exact.TextDecimal().Real(d), dhi.FloatString(50))
		}
		if w := new(big.Rat).Sub(dhi, dlo); w.Cmp(tenTo(40)) > 0 {
			t.Errorf("MinProb 1e-%d: d bracketed only within %s", k, w.FloatString(45))
		}
		bound := affine(u, chi, u) // (1 + c)·u, rounded up
		dptest.AssertDP(t, m, eps, bound)
		uf, _ := u.Float64()
		t.Logf("MinProb 1e-%d: ε = 1/%d with δ ≤ d = %s, %.3g × the unexplored mass %s", k, scale,
			exact.TextDecimal().Real(d), realFloat(d)/uf, exact.TextDecimal().Rat(u))
		if i > 0 {
			if c, err := d.Cmp(prev); err != nil || c >= 0 {
				t.Errorf("MinProb 1e-%d: d = %s did not fall from %s", k, exact.TextDecimal().Real(d), exact.TextDecimal().Real(prev))
			}
		}
		prev = d

		rn := dptest.AssertNotDP(t, m, eps9, nil)
		if rn != nil && rn.Verdict == dptest.Violated {
			if c, err := rn.LeastEpsLow.Cmp(eps9); err != nil || c <= 0 {
				t.Errorf("MinProb 1e-%d: least ε at least %s, not above %s", k, rn.LeastEpsLow, eps9)
			}
			if c, err := rn.LeastEpsLow.Cmp(eps); err != nil || c > 0 {
				t.Errorf("MinProb 1e-%d: least ε at least %s, above the true 1/%d", k, rn.LeastEpsLow, scale)
			}
		}
		dr, err := dptest.TightDelta(ctx, m, eps9)
		if err != nil {
			t.Fatal(err)
		}
		if c, err := dr.Low.Cmp(exact.RatReal(starHi)); err != nil || c > 0 {
			t.Errorf("MinProb 1e-%d, ε' = %s: δ at least %s, above the true %s", k, eps9, dr.Low, starHi.FloatString(12))
		}
		if c, err := dr.High.Cmp(exact.RatReal(starLo)); err != nil || c < 0 {
			t.Errorf("MinProb 1e-%d, ε' = %s: δ at most %s, below the true %s", k, eps9, dr.High, starLo.FloatString(12))
		}
		dptest.AssertDP(t, m, eps9, affine(starHi, new(big.Rat).Add(one, c9hi), u))
	}
}

// BenchmarkCKS20 explores the discrete Laplace sampler of scale 1 on one
// input: with Bernoulli(exp(−γ)) reused (reuse), and from bits with
// Bernoulli(γ/k) and Bernoulli(exp(−γ)) reused (bits-reuse), to an
// unexplored mass ≤ 10^−6; with only Bernoulli(γ/k) as exact choices
// (plain), to MinProb 10^−10 (an unexplored mass of 1.7·10^−5: 10^−6 takes
// MinProb 3·10^−13 and 5.9 million runs).
//
//	go test ./dptest -run '^$' -bench 'CKS20$' -benchmem -cpu 1
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

// BenchmarkCKS20Delta is the full check of x + DLap(1) on the inputs
// {0, 1, 2, 3}, neighbours at distance 1 (cks20Mech): CheckDP at ε = 1,
// δ = 0 — the exploration of the four inputs (one after another at -cpu 1)
// and the bounds of every ordered pair; a check at any other δ costs the
// same. Each form is run at MinProb 10^−k for growing k, and reports what
// the op proved: d in "1-DP with δ ≤ d" (as −log10(d)), the unexplored
// mass of an input (as −log10(unexplored)), and the runs of the four
// inputs, completed or cut (runs/op, without the runs of the reused
// sub-samplers). The time per op at each budget gives the d reached in a
// given time; the forms without Reuse (rational-plain, bits-plain) are run
// at a few small budgets, to extrapolate from. All of it takes minutes;
// one form at a time (rational, bits, rational-plain, bits-plain):
//
//	go test ./dptest -run '^$' -bench 'CKS20Delta/^rational$' -benchmem -cpu 1
//
// The target, an unexplored mass ≤ 10^−6 in < 5 s, is MinProb=1e-8.
func BenchmarkCKS20Delta(b *testing.B) {
	eps := exact.Must(exact.Rational(big.NewRat(1, 1)))
	_, chi := expBounds(1)
	for _, c := range []struct {
		form string
		ks   []int // MinProb 10^−k
	}{
		{"rational", []int{6, 8, 10, 15, 20, 30, 37, 40, 50, 60, 66}},
		{"bits", []int{6, 8, 10, 15, 19, 20, 25, 27}},
		{"rational-plain", []int{4, 6, 8, 10}},
		{"bits-plain", []int{3, 4, 5, 6, 7}},
	} {
		for _, k := range c.ks {
			b.Run(fmt.Sprintf("%s/MinProb=1e-%d", c.form, k), func(b *testing.B) {
				m := cks20Mech(cks20Noise(c.form, 1), tenTo(k))
				var r *dptest.Result
				for b.Loop() {
					var err error
					if r, err = dptest.CheckDP(context.Background(), m, eps, nil); err != nil {
						b.Fatal(err)
					}
				}
				// What is proved: d ≤ (1 + e)·u (TestCKS20DP).
				u := r.Exploration.Unexplored
				if c, err := r.DeltaBound.Cmp(exact.RatReal(affine(u, chi, u))); err != nil || c > 0 {
					b.Fatalf("d = %s > (1 + e)·%s", r.DeltaBound, u.FloatString(30))
				}
				uf, _ := u.Float64()
				b.ReportMetric(-math.Log10(realFloat(r.DeltaBound)), "-log10(d)")
				b.ReportMetric(-math.Log10(uf), "-log10(unexplored)")
				b.ReportMetric(float64(r.Exploration.Runs+r.Exploration.Cut), "runs/op")
			})
		}
	}
}
