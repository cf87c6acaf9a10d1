package param

import (
	"context"
	"math/big"

	"github.com/dpcheck/dpcheck/poly"
)

// The upper envelope of many candidate functions (hundreds or thousands:
// report-noisy-max over three queries has 643 ratios at δ = 0) is found in
// two steps. First prune drops every candidate that one of a few
// "champions" — the largest candidates at rational sample points — exceeds
// on the whole open interval: exact values at the samples say which
// champion may dominate, and Descartes' rule of signs on the numerator of
// their difference (after a Möbius map of the interval onto (0, ∞)) proves
// that the difference has no root there, without a Sturm sequence. Then
// the sweep isolates roots only against the largest candidate, and skips
// the isolation the same way when a difference has no root in the
// interval.

// pruneSamples is the number of rational sample points prune compares the
// candidates at.
const pruneSamples = 16

// descartesDepth bounds the bisections rootFree tries before it gives up.
const descartesDepth = 4

// prune returns the candidates that no other exceeds on the whole open
// interval, in their order (the first always kept). A dropped candidate g
// is below some kept f at every point of the open interval, and at most f
// at its closed ends (by continuity), so the upper envelope is the same.
func (a *Analysis) prune(ctx context.Context, cands []poly.RatFunc) ([]poly.RatFunc, error) {
	if len(cands) <= 2 {
		return cands, nil
	}
	in := a.c.Interval
	pts := interior(in.Lo, in.Hi, pruneSamples)
	vals := make([][]*big.Rat, len(cands)) // vals[i][k] = cands[i](pts[k])
	for i, f := range cands {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		vals[i] = make([]*big.Rat, len(pts))
		for k, q := range pts {
			v, err := f.Eval(q)
			if err != nil {
				return nil, err
			}
			vals[i][k] = v
		}
	}
	champ := map[int]bool{0: true}
	champs := []int{0}
	for k := range pts {
		best := 0
		for i := range cands {
			if vals[i][k].Cmp(vals[best][k]) > 0 {
				best = i
			}
		}
		if !champ[best] {
			champ[best] = true
			champs = append(champs, best)
		}
	}
	kept := make([]poly.RatFunc, 0, len(cands))
	for i, g := range cands {
		if i%16 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		dominated := false
		for _, f := range champs {
			if champ[i] || !above(vals[f], vals[i]) {
				continue
			}
			if free, err := rootFree(ctx, crossNum(cands[f], g), in.Lo, in.Hi); err != nil {
				return nil, err
			} else if free {
				dominated = true
				break
			}
		}
		if !dominated {
			kept = append(kept, g)
		}
	}
	return kept, nil
}

// above reports whether f ≥ g at every sample and f > g at one.
func above(f, g []*big.Rat) bool {
	strict := false
	for k := range f {
		switch f[k].Cmp(g[k]) {
		case -1:
			return false
		case 1:
			strict = true
		}
	}
	return strict
}

// interior returns n rational points evenly spaced strictly inside (lo, hi).
func interior(lo, hi *big.Rat, n int) []*big.Rat {
	w := new(big.Rat).Sub(hi, lo)
	pts := make([]*big.Rat, n)
	for k := range pts {
		q := new(big.Rat).Mul(w, big.NewRat(int64(k+1), int64(n+1)))
		pts[k] = q.Add(q, lo)
	}
	return pts
}

// crossNum returns the numerator f.Num·g.Den − g.Num·f.Den of f − g, with
// its factor α^k taken out: on an interval where neither denominator
// vanishes it has the roots of f − g there, and f − g has its sign up to
// the constant sign of the denominators. No GCD is computed.
func crossNum(f, g poly.RatFunc) poly.Poly {
	p := f.Num().Mul(g.Den()).Sub(g.Num().Mul(f.Den()))
	if p.IsZero() {
		return p
	}
	return shift(p, trailing(p))
}

// rootFree reports whether the polynomial p has no real root in the open
// interval (lo, hi), lo < hi: true is proved (by Descartes' rule of signs on
// (lo, hi) and at most descartesDepth bisections), false means that p is
// zero, has a root there, or that the rule could not exclude one.
func rootFree(ctx context.Context, p poly.Poly, lo, hi *big.Rat) (bool, error) {
	if p.IsZero() {
		return false, nil
	}
	if p.Degree() == 0 {
		return true, nil
	}
	return rootFreeIn(ctx, integerCoeffs(p), lo, hi, descartesDepth)
}

func rootFreeIn(ctx context.Context, p []*big.Int, lo, hi *big.Rat, depth int) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	switch descartes(p, lo, hi) {
	case 0:
		return true, nil
	case 1:
		return false, nil // exactly one root
	}
	if depth == 0 {
		return false, nil
	}
	m := new(big.Rat).Add(lo, hi)
	m.Quo(m, big.NewRat(2, 1))
	if evalInt(p, m).Sign() == 0 {
		return false, nil
	}
	if free, err := rootFreeIn(ctx, p, lo, m, depth-1); err != nil || !free {
		return false, err
	}
	return rootFreeIn(ctx, p, m, hi, depth-1)
}

// integerCoeffs returns p's coefficients times the least common multiple of
// their denominators: a positive multiple of p with integer coefficients.
func integerCoeffs(p poly.Poly) []*big.Int {
	l := big.NewInt(1)
	for i := 0; i <= p.Degree(); i++ {
		d := p.Coeff(i).Denom()
		g := new(big.Int).GCD(nil, nil, l, d)
		l.Mul(l, new(big.Int).Quo(d, g))
	}
	out := make([]*big.Int, p.Degree()+1)
	for i := range out {
		c := p.Coeff(i)
		x := new(big.Int).Quo(l, c.Denom())
		out[i] = x.Mul(x, c.Num())
	}
	return out
}

// evalInt returns the sign-faithful value of the integer polynomial p at r.
func evalInt(p []*big.Int, r *big.Rat) *big.Rat {
	v := new(big.Rat)
	for i := len(p) - 1; i >= 0; i-- {
		v.Mul(v, r)
		v.Add(v, new(big.Rat).SetInt(p[i]))
	}
	return v
}

// descartes returns the number of sign variations of the coefficients of
// (1 + t)^d·p((lo + hi·t)/(1 + t)), d the degree of p: an upper bound on
// the roots of p in (lo, hi), of the same parity, exact when 0 or 1.
//
// With lo = a/D and hi − lo = w/D (D a common denominator), D^d·p(lo +
// (hi − lo)·y) is an integer polynomial Q(y) (Horner in a + w·y);
// (0, 1) ∋ y = 1/(1 + t) maps t ∈ (0, ∞) onto it, and (1 + t)^d·Q(1/(1 + t))
// is the reversed Q shifted by 1.
func descartes(p []*big.Int, lo, hi *big.Rat) int {
	d := len(p) - 1
	den := new(big.Int).Mul(lo.Denom(), hi.Denom())
	den.Quo(den, new(big.Int).GCD(nil, nil, lo.Denom(), hi.Denom()))
	a := new(big.Int).Mul(lo.Num(), new(big.Int).Quo(den, lo.Denom()))
	b := new(big.Int).Mul(hi.Num(), new(big.Int).Quo(den, hi.Denom()))
	w := new(big.Int).Sub(b, a)
	// Q = Σ p_k·D^(d−k)·(a + w·y)^k by Horner: Q ← Q·(a + w·y) + p_k·D^(d−k).
	q := make([]*big.Int, 1, d+1)
	q[0] = new(big.Int).Set(p[d])
	pow := big.NewInt(1)
	for k := d - 1; k >= 0; k-- {
		pow.Mul(pow, den)
		next := make([]*big.Int, len(q)+1)
		for i := range next {
			next[i] = new(big.Int)
		}
		t := new(big.Int)
		for i, c := range q {
			next[i].Add(next[i], t.Mul(c, a))
			next[i+1].Add(next[i+1], t.Mul(c, w))
		}
		next[0].Add(next[0], t.Mul(p[k], pow))
		q = next
	}
	// Reverse, then shift by 1: r(t) = Σ q_(d−i)·(t + 1)^i.
	r := make([]*big.Int, len(q))
	for i := range q {
		r[i] = q[len(q)-1-i]
	}
	for i := 0; i < len(r); i++ {
		for j := len(r) - 2; j >= i; j-- {
			r[j].Add(r[j], r[j+1])
		}
	}
	v, last := 0, 0
	for _, c := range r {
		s := c.Sign()
		if s == 0 {
			continue
		}
		if last != 0 && s != last {
			v++
		}
		last = s
	}
	return v
}
