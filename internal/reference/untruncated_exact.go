package reference

// Exact untruncated probabilities, a third way. Conditioned on one noisy
// value t (the threshold, or the maximum), every output probability of the
// mechanisms of untruncated.go is Σ_t Π_k f_k(t) over a range of integers,
// each factor f_k a point probability or a CDF of a two-sided geometric law.
// Far from every centre each factor is a finite sum of geometric sequences in
// t (for t ≥ c+1: Pr[c+Z = t] = C·α^(t−c), Pr[c+Z < t] = 1 − α^(t−c)/(1+α),
// Pr[c+Z ≥ t] = α^(t−c)/(1+α); mirrored for t ≤ c−1), so is their product,
// and its tail sums are geometric series: Σ_{t≥M} β^t = β^M/(1−β).

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// geoSeq is a finite sum Σ_β coef_β·β^x over bases β > 0, keyed by β.
type geoSeq map[string]geoTerm

type geoTerm struct{ base, coef *big.Rat }

func (g geoSeq) addTerm(base, coef *big.Rat) {
	k := base.RatString()
	if t, ok := g[k]; ok {
		t.coef.Add(t.coef, coef)
		return
	}
	g[k] = geoTerm{new(big.Rat).Set(base), new(big.Rat).Set(coef)}
}

func (g geoSeq) mul(h geoSeq) geoSeq {
	out := geoSeq{}
	for _, a := range g {
		for _, b := range h {
			out.addTerm(new(big.Rat).Mul(a.base, b.base), new(big.Rat).Mul(a.coef, b.coef))
		}
	}
	return out
}

// sumFrom is Σ_{x ≥ m} of the sequence (m ≥ 0); every base with a nonzero
// coefficient must be below 1.
func (g geoSeq) sumFrom(m int) *big.Rat {
	s := new(big.Rat)
	for _, t := range g {
		if t.coef.Sign() == 0 {
			continue
		}
		if t.base.Cmp(rat(1, 1)) >= 0 {
			panic(fmt.Sprintf("reference: divergent tail, base %s", t.base.RatString()))
		}
		x := new(big.Rat).Mul(t.coef, pow(t.base, m))
		s.Add(s, x.Quo(x, new(big.Rat).Sub(rat(1, 1), t.base)))
	}
	return s
}

// factor is one f_k(t): its exact value, and its sequences for t ≥ upFrom
// (in x = t) and for t ≤ downTo (in x = −t).
type factor struct {
	at             func(t int) *big.Rat
	up, down       geoSeq
	upFrom, downTo int
}

func seq(terms ...*big.Rat) geoSeq { // base, coef, base, coef, ...
	g := geoSeq{}
	for i := 0; i < len(terms); i += 2 {
		g.addTerm(terms[i], terms[i+1])
	}
	return g
}

// powInt is α^k for any integer k.
func powInt(alpha *big.Rat, k int) *big.Rat {
	if k >= 0 {
		return pow(alpha, k)
	}
	return new(big.Rat).Inv(pow(alpha, -k))
}

// pointF is t ↦ Pr[c + Z = t].
func pointF(alpha *big.Rat, c int) factor {
	m := new(big.Rat).Sub(rat(1, 1), alpha)
	m.Quo(m, new(big.Rat).Add(rat(1, 1), alpha))
	return factor{
		at:     func(t int) *big.Rat { return twoSidedPoint(alpha, t-c) },
		up:     seq(alpha, new(big.Rat).Mul(m, powInt(alpha, -c))), // m·α^(t−c)
		upFrom: c,
		down:   seq(alpha, new(big.Rat).Mul(m, powInt(alpha, c))), // m·α^(c+x), x = −t
		downTo: c,
	}
}

// belowF is t ↦ Pr[c + Z < t] = Pr[Z ≤ t−c−1].
func belowF(alpha *big.Rat, c int) factor {
	inv := new(big.Rat).Inv(new(big.Rat).Add(rat(1, 1), alpha))
	return factor{
		at: func(t int) *big.Rat {
			p := twoSidedTail(alpha, t-c) // Pr[Z ≥ t−c]
			return p.Sub(rat(1, 1), p)
		},
		// t ≥ c+1: 1 − α^(t−c)/(1+α)
		up:     seq(rat(1, 1), rat(1, 1), alpha, new(big.Rat).Neg(new(big.Rat).Mul(inv, powInt(alpha, -c)))),
		upFrom: c + 1,
		// t ≤ c: Pr[Z ≥ c−t+1] = α^(c+1+x)/(1+α), x = −t
		down:   seq(alpha, new(big.Rat).Mul(inv, powInt(alpha, c+1))),
		downTo: c,
	}
}

// atLeastF is t ↦ Pr[c + Z ≥ t] = 1 − Pr[c + Z < t].
func atLeastF(alpha *big.Rat, c int) factor {
	b := belowF(alpha, c)
	neg := func(g geoSeq, one bool) geoSeq {
		out := geoSeq{}
		if one {
			out.addTerm(rat(1, 1), rat(1, 1))
		}
		for _, t := range g {
			out.addTerm(t.base, new(big.Rat).Neg(t.coef))
		}
		return out
	}
	return factor{
		at:     func(t int) *big.Rat { return new(big.Rat).Sub(rat(1, 1), b.at(t)) },
		up:     neg(b.up, true),
		upFrom: b.upFrom,
		down:   neg(b.down, true),
		downTo: b.downTo,
	}
}

// stepF is t ↦ [a < t] (below) or [a ≥ t] (!below): a query without noise.
func stepF(a int, below bool) factor {
	one, zero := seq(rat(1, 1), rat(1, 1)), geoSeq{}
	f := factor{upFrom: a + 1, downTo: a}
	if below {
		f.at = func(t int) *big.Rat { return boolRat(a < t) }
		f.up, f.down = one, zero
	} else {
		f.at = func(t int) *big.Rat { return boolRat(a >= t) }
		f.up, f.down = zero, one
	}
	return f
}

func boolRat(b bool) *big.Rat {
	if b {
		return rat(1, 1)
	}
	return new(big.Rat)
}

// shift is t ↦ f(t + d).
func (f factor) shift(d int) factor {
	scale := func(g geoSeq, sign int) geoSeq { // β^(x±d) = β^(±d)·β^x
		out := geoSeq{}
		for _, t := range g {
			out.addTerm(t.base, new(big.Rat).Mul(t.coef, powInt(t.base, sign*d)))
		}
		return out
	}
	at := f.at
	return factor{
		at:     func(t int) *big.Rat { return at(t + d) },
		up:     scale(f.up, 1),
		upFrom: f.upFrom - d,
		down:   scale(f.down, -1),
		downTo: f.downTo - d,
	}
}

// sumProduct is Σ_{t=lo}^{hi} Π_k f_k(t); lo = nil is −∞, hi = nil is +∞.
func sumProduct(fs []factor, lo, hi *int) *big.Rat {
	first, last := 0, 0 // the finite middle range
	upFrom, downTo := 0, 0
	for i, f := range fs {
		if i == 0 || f.upFrom > upFrom {
			upFrom = f.upFrom
		}
		if i == 0 || f.downTo < downTo {
			downTo = f.downTo
		}
	}
	// Start the tails at |t| ≥ 1 so that the exponents are non-negative.
	upFrom, downTo = max(upFrom, 1), min(downTo, -1)
	s := new(big.Rat)
	if lo == nil {
		first = downTo + 1
		g := seq(rat(1, 1), rat(1, 1))
		for _, f := range fs {
			g = g.mul(f.down)
		}
		if hi != nil && *hi < first { // the whole range is in the lower tail
			return g.sumFrom(-*hi)
		}
		s.Add(s, g.sumFrom(-downTo))
	} else {
		first = *lo
	}
	if hi == nil {
		last = max(upFrom-1, first-1)
		g := seq(rat(1, 1), rat(1, 1))
		for _, f := range fs {
			g = g.mul(f.up)
		}
		s.Add(s, g.sumFrom(last+1))
	} else {
		last = *hi
	}
	for t := first; t <= last; t++ {
		p := rat(1, 1)
		for _, f := range fs {
			p.Mul(p, f.at(t))
			if p.Sign() == 0 {
				break
			}
		}
		s.Add(s, p)
	}
	return s
}

// Exact is the exact untruncated distribution on the answers, each
// probability a sum over the noisy threshold in closed form. Outputs that
// carry a value (Lyu3's noisy answer, GapSVT's gap) are infinitely many:
// only those with the value in [vLo, vHi] are returned (the others are
// ignored for the algorithms with finitely many outputs).
func (s SVTAlg) Exact(answers []int, vLo, vHi int) Dist {
	thr := pointF(s.AlphaT, s.T)
	below := func(a int) factor {
		if s.AlphaQ == nil {
			return stepF(a, true)
		}
		return belowF(s.AlphaQ, a)
	}
	above := func(a int) factor {
		if s.AlphaQ == nil {
			return stepF(a, false)
		}
		return atLeastF(s.AlphaQ, a)
	}
	out := Dist{}
	if s.kind == svtAll {
		bits := make([]string, len(answers))
		fs := make([]factor, len(answers)+1)
		fs[0] = thr
		var walk func(i int)
		walk = func(i int) {
			if i == len(answers) {
				out.add(strings.Join(bits, ","), sumProduct(fs, nil, nil))
				return
			}
			bits[i], fs[i+1] = "1", above(answers[i])
			walk(i + 1)
			bits[i], fs[i+1] = "0", below(answers[i])
			walk(i + 1)
		}
		walk(0)
		return out
	}
	prefix := []factor{thr} // the threshold and queries 1..i−1 below it
	for i, a := range answers {
		switch s.kind {
		case svtTop:
			out.add(strconv.Itoa(i+1), sumProduct(append(prefix[:len(prefix):len(prefix)], above(a)), nil, nil))
		case svtValue:
			// V_i = v ≥ t: Pr[V_i = v] times the sum over t ≤ v.
			for v := vLo; v <= vHi; v++ {
				p := sumProduct(prefix, nil, &v)
				out.add(fmt.Sprintf("%d,%d", i+1, v), p.Mul(p, twoSidedPoint(s.AlphaQ, v-a)))
			}
		case svtGap:
			// V_i = t + g: the factor t ↦ Pr[a + Z = t + g].
			for g := max(vLo, 0); g <= vHi; g++ {
				f := pointF(s.AlphaQ, a).shift(g)
				out.add(fmt.Sprintf("%d,%d", i+1, g), sumProduct(append(prefix[:len(prefix):len(prefix)], f), nil, nil))
			}
		}
		prefix = append(prefix, below(a))
	}
	out.add("0", sumProduct(prefix, nil, nil))
	return out
}

// NoisyMaxExact is the exact untruncated report-noisy-max on the answers:
// index i wins with maximum v when X_i = v, X_j < v (j < i) and X_j ≤ v
// (j > i). Without value, Pr[i] sums this over all v in closed form; with
// value, only the outputs "i,v" with v in [vLo, vHi] are returned.
func NoisyMaxExact(alpha *big.Rat, answers []int, value bool, vLo, vHi int) Dist {
	out := Dist{}
	for i, a := range answers {
		fs := []factor{pointF(alpha, a)}
		for j, b := range answers {
			switch {
			case j < i:
				fs = append(fs, belowF(alpha, b))
			case j > i:
				fs = append(fs, belowF(alpha, b-1)) // Pr[X_j ≤ v] = Pr[(b−1) + Z < v]
			}
		}
		if !value {
			out.add(strconv.Itoa(i+1), sumProduct(fs, nil, nil))
			continue
		}
		for v := vLo; v <= vHi; v++ {
			out.add(fmt.Sprintf("%d,%d", i+1, v), sumProduct(fs, &v, &v))
		}
	}
	return out
}
