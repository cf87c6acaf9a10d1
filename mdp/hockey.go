package mdp

import (
	"context"
	"math/big"
	"sort"

	"github.com/dpcheck/dpcheck/exact"
)

// cval compares values against c = e^ε exactly, with a fast path when c
// is rational.
type cval struct {
	e exact.Eps
	c *big.Rat // nil when c is irrational
}

func newCval(e exact.Eps) *cval {
	cv := &cval{e: e}
	if c, ok := e.C(); ok {
		cv.c = c
	}
	return cv
}

// ratC returns the comparator for the rational c ≥ 1.
func ratC(c *big.Rat) *cval { return &cval{e: exact.LnOf(c), c: c} }

// above reports whether a > c·b (a, b ≥ 0).
func (cv *cval) above(a, b *big.Rat) (bool, error) {
	if a.Sign() <= 0 {
		return false, nil
	}
	if b.Sign() == 0 {
		return true, nil
	}
	if cv.c != nil {
		t := new(big.Rat).Mul(cv.c, b)
		return a.Cmp(t) > 0, nil
	}
	if cv.e.IsInf() {
		return false, nil
	}
	s, err := cv.e.CmpC(new(big.Rat).Quo(a, b))
	return s > 0, err
}

// real returns A − c·B.
func (cv *cval) real(a, b *big.Rat) exact.Real {
	return exact.Affine(a, new(big.Rat).Neg(b), cv.e)
}

var ratZero = new(big.Rat)

func get[K comparable](m map[K]*big.Rat, k K) *big.Rat {
	if x, ok := m[k]; ok {
		return x
	}
	return ratZero
}

// hockey adds to (A, B) the a and b of the keys where a > c·b, so that
// A − c·B grows by Σ max(0, a − c·b). It looks at ctx (when not nil) every
// ctxEntries keys.
func hockey[K comparable](ctx context.Context, cv *cval, ma, mb map[K]*big.Rat, A, B *big.Rat) error {
	n := 0
	for k, a := range ma {
		if n++; n%ctxEntries == 0 && ctx != nil {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		b := get(mb, k)
		ok, err := cv.above(a, b)
		if err != nil {
			return err
		}
		if ok {
			A.Add(A, a)
			B.Add(B, b)
		}
	}
	return nil
}

// term is a pair (a, b) of masses of one outcome.
type term struct{ a, b *big.Rat }

// solveC returns the least c ≥ 1 with Σ max(0, a − c·b) − c·L ≤ δ over
// the terms, exactly; inf when no finite c will do (the terms with b = 0
// alone exceed δ and L = 0).
func solveC(terms []term, L, delta *big.Rat) (c *big.Rat, inf bool) {
	return solveCBase(terms, ratZero, L, delta)
}

// solveCBase returns the least c ≥ 1 with A0 − c·B0 + Σ max(0, a − c·b) ≤
// δ over the terms (B0 ≥ 0), exactly; inf when no finite c will do.
func solveCBase(terms []term, A0, B0, delta *big.Rat) (c *big.Rat, inf bool) {
	ainf := new(big.Rat).Set(A0) // A0 and the terms with b = 0
	type rt struct {
		r    *big.Rat
		a, b *big.Rat
	}
	var rs []rt
	for _, t := range terms {
		if t.a.Sign() <= 0 {
			continue
		}
		if t.b.Sign() == 0 {
			ainf.Add(ainf, t.a)
			continue
		}
		r := new(big.Rat).Quo(t.a, t.b)
		if r.Cmp(ratOne) > 0 {
			rs = append(rs, rt{r, t.a, t.b})
		}
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].r.Cmp(rs[j].r) > 0 })
	sa, sb := new(big.Rat).Set(ainf), new(big.Rat).Set(B0)
	t := new(big.Rat)
	for j := 0; j <= len(rs); j++ {
		low := ratOne
		if j < len(rs) {
			low = rs[j].r
		}
		// f on (low, r_j]: sa − c·sb
		fl := new(big.Rat).Sub(sa, t.Mul(low, sb))
		if fl.Cmp(delta) > 0 {
			if sb.Sign() == 0 {
				return nil, true
			}
			c := new(big.Rat).Sub(sa, delta)
			return c.Quo(c, sb), false
		}
		if j < len(rs) {
			sa.Add(sa, rs[j].a)
			sb.Add(sb, rs[j].b)
		}
	}
	return big.NewRat(1, 1), false
}
