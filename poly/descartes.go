package poly

import (
	"context"
	"math/big"
)

// descartesDepth bounds the bisections RootFree tries before it gives up.
const descartesDepth = 4

// RootFree reports whether the polynomial p has no real root in the open
// interval (lo, hi), lo < hi: true is proved (by Descartes' rule of signs on
// (lo, hi) and at most a few bisections), without a Sturm sequence; false
// means that p is zero, has a root there, or that the rule could not
// exclude one.
func RootFree(ctx context.Context, p Poly, lo, hi *big.Rat) (bool, error) {
	if p.IsZero() {
		return false, nil
	}
	if p.Degree() == 0 {
		return true, nil
	}
	return rootFreeZ(ctx, toZ(p), lo, hi, descartesDepth)
}

func rootFreeZ(ctx context.Context, p zpoly, lo, hi *big.Rat, depth int) (bool, error) {
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
	m := mid(lo, hi)
	if signAtZ(p, m) == 0 {
		return false, nil
	}
	if free, err := rootFreeZ(ctx, p, lo, m, depth-1); err != nil || !free {
		return false, err
	}
	return rootFreeZ(ctx, p, m, hi, depth-1)
}

// descartes returns the number of sign variations of the coefficients of
// (1 + t)^d·p((lo + hi·t)/(1 + t)), d the degree of p: an upper bound on
// the roots of p in (lo, hi), of the same parity, exact when 0 or 1.
//
// With lo = a/D and hi − lo = w/D (D a common denominator), D^d·p(lo +
// (hi − lo)·y) is an integer polynomial Q(y) (Horner in a + w·y);
// (0, 1) ∋ y = 1/(1 + t) maps t ∈ (0, ∞) onto it, and (1 + t)^d·Q(1/(1 + t))
// is the reversed Q shifted by 1.
func descartes(p zpoly, lo, hi *big.Rat) int {
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
	return signChanges(len(r), func(i int) int { return r[i].Sign() })
}

// signChanges returns the number of sign changes of the sequence sign(0),
// …, sign(n − 1), zeros ignored.
func signChanges(n int, sign func(i int) int) int {
	v, last := 0, 0
	for i := range n {
		s := sign(i)
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
