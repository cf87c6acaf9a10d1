package exact

import "math/big"

// Arithmetic on ε, for front ends that evaluate ε written as an expression
// (2*ln(3), ln(2) + ln(3), ln(3)/2 - 1/10). Every result is an ε dpcheck
// handles exactly, within the limits of LnPlus; what cannot be kept exact
// is an *EpsError.

// parts returns ε = k·ln(r) + q with nil for absent parts (not for ∞).
func (e Eps) parts() (k, r, q *big.Rat) {
	if e.d == nil {
		return nil, nil, nil
	}
	return e.d.k, e.d.r, e.d.q
}

func addOpt(a, b *big.Rat) *big.Rat {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return new(big.Rat).Add(a, b)
}

func mulOpt(a, b *big.Rat) *big.Rat {
	if a == nil {
		return nil
	}
	return new(big.Rat).Mul(a, b)
}

// Neg returns -ε; -∞ is not an ε.
func (e Eps) Neg() (Eps, error) { return e.MulRat(big.NewRat(-1, 1)) }

// MulRat returns x·ε; x·∞ is ∞ for x > 0 and not an ε otherwise.
func (e Eps) MulRat(x *big.Rat) (Eps, error) {
	if e.IsInf() {
		if x.Sign() <= 0 {
			return Eps{}, epsErrorf("%s·∞ is not a valid ε", x.RatString())
		}
		return e, nil
	}
	k, r, q := e.parts()
	return LnPlus(mulOpt(k, x), r, mulOpt(q, x))
}

// AddRat returns ε + x.
func (e Eps) AddRat(x *big.Rat) (Eps, error) {
	if e.IsInf() {
		return e, nil
	}
	k, r, q := e.parts()
	return LnPlus(k, r, addOpt(q, x))
}

// Add returns ε + f. Two logarithms add exactly when they have the same
// argument, or integer coefficients: k1·ln(r1) + k2·ln(r2) = ln(r1^k1·r2^k2).
func (e Eps) Add(f Eps) (Eps, error) {
	if e.IsInf() || f.IsInf() {
		return Inf(), nil
	}
	k1, r1, q1 := e.parts()
	k2, r2, q2 := f.parts()
	q := addOpt(q1, q2)
	switch {
	case k1 == nil:
		return LnPlus(k2, r2, q)
	case k2 == nil:
		return LnPlus(k1, r1, q)
	case r1.Cmp(r2) == 0:
		return LnPlus(new(big.Rat).Add(k1, k2), r1, q)
	case k1.IsInt() && k2.IsInt():
		// Both are normalised to k = 1 (an integer coefficient is expanded).
		return LnPlus(big.NewRat(1, 1), new(big.Rat).Mul(Pow(r1, k1.Num().Int64()), Pow(r2, k2.Num().Int64())), q)
	}
	return Eps{}, epsErrorf("cannot add these logarithms exactly (use integer coefficients or equal arguments)")
}
