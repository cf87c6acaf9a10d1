package chain

import "math/big"

// Accumulator sums rationals exactly.
//
// It keeps the running sum as an unreduced fraction and, when the
// denominators divide one another (as they do for every geometric-style
// mechanism, where they are c·r^k), adds a term with one division and one
// multiplication instead of the greatest common divisor that big.Rat.Add
// computes at every step; when they differ by a power of two, with one
// shift. The sum is reduced to lowest terms only when it is read, and not
// at all when it has a single term.
//
// The zero value is an empty sum, ready to use. An Accumulator is not safe
// for concurrent use.
type Accumulator struct {
	num, den big.Int
	q, r, t  big.Int
	started  bool
	terms    int
	first    *big.Rat // the only term, while terms == 1
	// odd and zd are den's odd part and its trailing zero bits, valid
	// while oddOK (den changes rarely: the shift fast path reads them at
	// every term).
	odd   big.Int
	zd    uint
	oddOK bool
	// pn and pd hold the product of AddProduct.
	pn, pd big.Int
}

// Reset empties the sum.
func (a *Accumulator) Reset() { a.started, a.terms, a.first, a.oddOK = false, 0, nil, false }

// Add adds x to the sum. x is only read.
func (a *Accumulator) Add(x *big.Rat) {
	p := x.Num()
	if p.Sign() == 0 {
		return
	}
	a.add(p, x.Denom(), x)
}

// AddProduct adds x·y to the sum without reducing the product to lowest
// terms (the sum is reduced once, when it is read). x and y are only read.
func (a *Accumulator) AddProduct(x, y *big.Rat) {
	if x.Sign() == 0 || y.Sign() == 0 {
		return
	}
	a.pn.Mul(x.Num(), y.Num())
	a.pd.Mul(x.Denom(), y.Denom())
	a.add(&a.pn, &a.pd, nil)
}

// add adds p/d (p ≠ 0, d > 0); x is p/d in lowest terms, or nil when p/d
// may not be.
func (a *Accumulator) add(p, d *big.Int, x *big.Rat) {
	a.terms++
	if !a.started {
		a.num.Set(p)
		a.den.Set(d)
		a.started, a.oddOK = true, false
		a.first = x
		return
	}
	a.first = nil
	if a.den.Cmp(d) == 0 {
		a.num.Add(&a.num, p)
		return
	}
	// Fast path: the denominators differ by a power of two (equal odd
	// parts), as for every geometric mechanism with α = 1/2^k. Then the
	// scaling is a shift.
	if !a.oddOK {
		a.zd = a.den.TrailingZeroBits()
		a.odd.Rsh(&a.den, a.zd)
		a.oddOK = true
	}
	zd, zq := a.zd, d.TrailingZeroBits()
	// Equal odd parts have equal lengths: compare the lengths first.
	if a.den.BitLen()-int(zd) == d.BitLen()-int(zq) {
		a.r.Rsh(d, zq)
		if a.odd.Cmp(&a.r) == 0 {
			if zd >= zq {
				a.t.Lsh(p, zd-zq)
				a.num.Add(&a.num, &a.t)
			} else {
				a.num.Lsh(&a.num, zq-zd)
				a.num.Add(&a.num, p)
				a.den.Set(d)
				a.zd = zq
			}
			return
		}
	}
	a.oddOK = false // den may change below
	if a.den.Cmp(d) > 0 {
		a.q.QuoRem(&a.den, d, &a.r)
		if a.r.Sign() == 0 { // d divides den
			a.t.Mul(p, &a.q)
			a.num.Add(&a.num, &a.t)
			return
		}
	} else {
		a.q.QuoRem(d, &a.den, &a.r)
		if a.r.Sign() == 0 { // den divides d
			a.num.Mul(&a.num, &a.q)
			a.num.Add(&a.num, p)
			a.den.Set(d)
			return
		}
	}
	// General case: scale both to lcm(den, d).
	g := a.r.GCD(nil, nil, &a.den, d)
	a.q.Quo(d, g)           // d/g
	a.t.Quo(&a.den, g)      // den/g
	a.num.Mul(&a.num, &a.q) // num·d/g
	a.t.Mul(p, &a.t)        // p·den/g
	a.num.Add(&a.num, &a.t)
	a.den.Mul(&a.den, &a.q) // lcm
}

// Rat sets z to the sum, in lowest terms, and returns z. A nil z allocates.
func (a *Accumulator) Rat(z *big.Rat) *big.Rat {
	if z == nil {
		z = new(big.Rat)
	}
	switch {
	case !a.started:
		return z.SetInt64(0)
	case a.terms == 1 && a.first != nil:
		return z.Set(a.first) // already in lowest terms: no gcd
	}
	return z.SetFrac(&a.num, &a.den)
}

// Cmp compares the sum with x and returns -1, 0 or +1. It does not reduce the
// running fraction.
func (a *Accumulator) Cmp(x *big.Rat) int {
	if !a.started {
		return -x.Sign()
	}
	// num/den ? p/q  <=>  num·q ? p·den  (den, q > 0); q and r are
	// scratch space between additions.
	a.q.Mul(&a.num, x.Denom())
	a.r.Mul(x.Num(), &a.den)
	return a.q.Cmp(&a.r)
}

// Sum returns the exact sum of xs as a new big.Rat.
func Sum(xs []*big.Rat) *big.Rat {
	var a Accumulator
	for _, x := range xs {
		a.Add(x)
	}
	return a.Rat(nil)
}
