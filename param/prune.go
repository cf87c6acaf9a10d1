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
			if free, err := poly.RootFree(ctx, crossNum(cands[f], g), in.Lo, in.Hi); err != nil {
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
	return p.DivX(trailing(p))
}
