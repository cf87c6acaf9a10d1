package verify

// A certified floating-point filter.
//
// Most comparisons the verifier makes are far from a tie, and deciding them
// with big rationals is wasteful. This file computes float64 approximations
// whose error is bounded by a proof, and decides a comparison from them only
// when the bound shows the exact answer cannot differ. Everything else falls
// back to exact rational arithmetic. So no verdict depends on floating point.
//
// Error model. Let u = 2^-53. IEEE 754 multiplication and division of
// float64 are correctly rounded (relative error ≤ u; Go may fuse operations,
// which only removes roundings). An approx value is m·2^e with a float64
// mantissa m in [1/2, 1) and an int64 exponent, so it never overflows or
// underflows.
//
//   - approxInt keeps the top 64 bits of an integer (relative truncation
//     error < 2^-63) and rounds them to float64 (≤ u): error < 1.01u.
//   - approxRat divides two such values: error ≤ 3.1u.
//   - a ratio of two approxRat values: error ≤ 7.3u; a product c̃·x̃ with
//     c̃ from approxRat: ≤ 7.3u.
//
// We decide "r < c" from approximations only when r̃ < c̃·(1 - tol) and
// "r > c" only when r̃ > c̃·(1 + tol), with tol = 2^-44 ≈ 2^9·u, far above
// the ≈ 16u the chain of roundings can cause.
//
// The hockey-stick sum H = Σ_o max(0, μs(o) - c·μt(o)) is approximated term
// by term as s̃·(1 - ρ̃) where ρ̃ ≈ c·μt(o)/μs(o); each term's absolute error
// (including the terms whose sign the filter got wrong, which are then
// within 16u·μs(o) of 0) is at most 16u·μs(o) + 2^-1074, and summing m
// non-negative float64 terms adds at most m·u·H̃. As Σ_o μs(o) ≤ 1,
//
//	|H̃ - H| ≤ (16 + m·H̃)·u + m·2^-1074 + O(u²),
//
// and hErr returns twice that bound.

import (
	"math"
	"math/big"
)

const (
	u   = 1.0 / (1 << 53)
	tol = 1.0 / (1 << 44)
)

// approx is the positive real m·2^e, m in [1/2, 1), or zero when m == 0.
type approx struct {
	m float64
	e int64
}

// approxInt approximates |x|. scratch is overwritten.
func approxInt(x *big.Int, scratch *big.Int) approx {
	n := x.BitLen()
	if n == 0 {
		return approx{}
	}
	if n <= 64 {
		scratch.Abs(x)
		return norm(float64(scratch.Uint64()), 0)
	}
	scratch.Abs(x)
	scratch.Rsh(scratch, uint(n-64))
	return norm(float64(scratch.Uint64()), int64(n-64))
}

func norm(f float64, e int64) approx {
	if f == 0 {
		return approx{}
	}
	m, x := math.Frexp(f)
	return approx{m, e + int64(x)}
}

// approxRat approximates |x|.
func approxRat(x *big.Rat, scratch *big.Int) approx {
	return approxInt(x.Num(), scratch).div(approxInt(x.Denom(), scratch))
}

func (a approx) isZero() bool { return a.m == 0 }

func (a approx) mul(b approx) approx {
	if a.m == 0 || b.m == 0 {
		return approx{}
	}
	return norm(a.m*b.m, a.e+b.e)
}

// div returns a/b; b must not be zero.
func (a approx) div(b approx) approx {
	if a.m == 0 {
		return approx{}
	}
	return norm(a.m/b.m, a.e-b.e)
}

// scale returns a·f for a float64 f > 0 close to 1.
func (a approx) scale(f float64) approx { return norm(a.m*f, a.e) }

// cmp compares the represented values exactly (the representations, not the
// reals they approximate).
func (a approx) cmp(b approx) int {
	switch {
	case a.m == 0 && b.m == 0:
		return 0
	case a.m == 0:
		return -1
	case b.m == 0:
		return 1
	case a.e != b.e:
		if a.e < b.e {
			return -1
		}
		return 1
	case a.m < b.m:
		return -1
	case a.m > b.m:
		return 1
	}
	return 0
}

// float returns the value as a float64; it may underflow to a subnormal or
// zero (absolute error ≤ 2^-1074) and must only be used for values ≤ 1.
func (a approx) float() float64 {
	if a.m == 0 {
		return 0
	}
	if a.e < -1100 {
		return 0
	}
	return math.Ldexp(a.m, int(a.e))
}

// cmpFilter compares the real approximated by r with the real approximated
// by c: -1 or +1 when the approximations prove the order, 0 when only exact
// arithmetic can tell.
func cmpFilter(r, c approx) int {
	if r.cmp(c.scale(1-tol)) < 0 {
		return -1
	}
	if r.cmp(c.scale(1+tol)) > 0 {
		return 1
	}
	return 0
}

// hTerm approximates max(0, s - c·t) for s, c·t given as approx values;
// see the file comment for its error.
func hTerm(s, ct approx) float64 {
	if s.cmp(ct) <= 0 {
		return 0
	}
	if ct.m == 0 {
		return s.float()
	}
	rho := ct.div(s) // in (0, 1)
	return s.float() * (1 - rho.float())
}

// hErr is a certified bound on |H̃ - H| for a hockey-stick sum of m terms
// approximated as H̃ (twice the bound derived in the file comment).
func hErr(h float64, m int) float64 {
	return 2 * ((16+float64(m)*h)*u + float64(m)*0x1p-1074)
}
