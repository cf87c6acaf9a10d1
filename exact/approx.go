package exact

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
// which only removes roundings). An Approx value is m·2^e with a float64
// mantissa m in [1/2, 1) and an int64 exponent, so it never overflows or
// underflows.
//
//   - ApproxInt keeps the top 64 bits of an integer (relative truncation
//     error < 2^-63) and rounds them to float64 (≤ u): error < 1.01u.
//   - ApproxRat divides two such values: error ≤ 3.1u.
//   - a ratio of two ApproxRat values: error ≤ 7.3u; a product c̃·x̃ with
//     c̃ from ApproxRat: ≤ 7.3u.
//
// We decide "r < c" from approximations only when r̃ < c̃·(1 - tol) and
// "r > c" only when r̃ > c̃·(1 + tol), with Tol = 2^-44 ≈ 2^9·u, far above
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
	u = 1.0 / (1 << 53)
	// Tol is the relative tolerance of CmpFilter: an order is decided from
	// approximations only when they differ by more than this factor.
	Tol = 1.0 / (1 << 44)
)

// Approx is the positive real m·2^e, m in [1/2, 1), or zero when m == 0.
type Approx struct {
	m float64
	e int64
}

// ApproxInt approximates |x|. scratch is overwritten.
func ApproxInt(x *big.Int, scratch *big.Int) Approx {
	n := x.BitLen()
	if n == 0 {
		return Approx{}
	}
	if n <= 64 {
		scratch.Abs(x)
		return NewApprox(float64(scratch.Uint64()), 0)
	}
	scratch.Abs(x)
	scratch.Rsh(scratch, uint(n-64))
	return NewApprox(float64(scratch.Uint64()), int64(n-64))
}

// NewApprox returns f·2^e as an Approx.
func NewApprox(f float64, e int64) Approx {
	if f == 0 {
		return Approx{}
	}
	m, x := math.Frexp(f)
	return Approx{m, e + int64(x)}
}

// ApproxRat approximates |x|.
func ApproxRat(x *big.Rat, scratch *big.Int) Approx {
	return ApproxInt(x.Num(), scratch).Div(ApproxInt(x.Denom(), scratch))
}

// IsZero reports whether a is zero.
func (a Approx) IsZero() bool { return a.m == 0 }

// Mul returns a·b (with the error bound of Approx's doc).
func (a Approx) Mul(b Approx) Approx {
	if a.m == 0 || b.m == 0 {
		return Approx{}
	}
	return NewApprox(a.m*b.m, a.e+b.e)
}

// Div returns a/b; b must not be zero.
func (a Approx) Div(b Approx) Approx {
	if a.m == 0 {
		return Approx{}
	}
	return NewApprox(a.m/b.m, a.e-b.e)
}

// Scale returns a·f for a float64 f > 0 close to 1.
func (a Approx) Scale(f float64) Approx { return NewApprox(a.m*f, a.e) }

// Cmp compares the represented values exactly (the representations, not the
// reals they approximate).
func (a Approx) Cmp(b Approx) int {
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

// Float returns the value as a float64; it may underflow to a subnormal or
// zero (absolute error ≤ 2^-1074) and must only be used for values ≤ 1.
func (a Approx) Float() float64 {
	if a.m == 0 {
		return 0
	}
	if a.e < -1100 {
		return 0
	}
	return math.Ldexp(a.m, int(a.e))
}

// CmpFilter compares the real approximated by r with the real approximated
// by c: -1 or +1 when the approximations prove the order, 0 when only exact
// arithmetic can tell.
func CmpFilter(r, c Approx) int {
	if r.Cmp(c.Scale(1-Tol)) < 0 {
		return -1
	}
	if r.Cmp(c.Scale(1+Tol)) > 0 {
		return 1
	}
	return 0
}

// Exp returns the binary exponent e of a = m·2^e (m in [1/2, 1)).
func (a Approx) Exp() int64 { return a.e }

// approxLn returns ln(r) for a rational r > 0 and a bound on its absolute
// error, from float64 arithmetic alone: a filter for the decimals of ε,
// which lnBounds computes exactly when it cannot decide them.
//
// Error. r = a/b is m·2^e with m = ã/b̃ the ratio of ApproxInt's mantissas
// (in (1/4, 4), relative error ≤ 3.1u: see the package's error model), so
// |ln m̃ − ln m| ≤ 3.2u. With x = m̃·2^j in [1/√2, √2) (scaling by 2 is
// exact), ln x = 2·atanh(t) with t = (x − 1)/(x + 1), |t| ≤ 0.172: x − 1 is
// exact (Sterbenz), x + 1 and the division round once each, so t has
// relative error ≤ 2.1u, and atanh(t̃) is within 2.2u·|atanh(t)| of
// atanh(t). The series Σ t^(2i+1)/(2i+1) is summed while its terms exceed
// 2^-60·|t| (at most 13 terms, as they fall by a factor t² ≤ 1/33): the
// i-th term is within (2i+2)u of its value, which adds up to 2.2u·|t|,
// and each addition rounds once, within u of a partial sum no larger than
// |atanh(t)|: 13u·|atanh(t)|; the remainder after the last term is
// ≤ 1.03·2^-60·|t|. ln 2 as a float64 is within u/2 of it, and
// (e + j)·ln 2 (|e + j| < 2^53, exact as a float64) rounds once; the final
// addition once more. With L = 2·atanh(t), the absolute error of the
// result is therefore below
//
//	24u·(|L| + |e + j|·ln 2 + 1) + 2^-58·|t|,
//
// and approxLn returns four times that.
func approxLn(r *big.Rat) (v, err float64) {
	var scratch big.Int
	m := ApproxInt(r.Num(), &scratch).Div(ApproxInt(r.Denom(), &scratch))
	x, e := m.m, m.e // m̃ = x·2^e, x in [1/2, 1)
	if x < math.Sqrt2/2 {
		x, e = 2*x, e-1
	}
	t := (x - 1) / (x + 1)
	t2 := t * t
	sum, p := 0.0, t
	for i := 0; math.Abs(p) > math.Abs(t)/(1<<60); i++ {
		sum += p / float64(2*i+1)
		p *= t2
	}
	at := 2 * sum
	ef := float64(e)
	v = at + ef*math.Ln2
	err = 4 * (24*u*(math.Abs(at)+math.Abs(ef)*math.Ln2+1) + math.Abs(t)/(1<<58))
	return v, err
}

// approxBounds returns rationals lo ≤ ε ≤ hi for a finite ε = k·ln(r) + q
// from float64 arithmetic (approxLn), for displaying ε: k and q, like r,
// are approximated within 3.1u, and every further operation rounds once.
// ok is false when a part is too large for a float64.
func (e Eps) approxBounds() (lo, hi *big.Rat, ok bool) {
	d := e.d
	var scratch big.Int
	signed := func(x *big.Rat) (float64, bool) {
		a := ApproxRat(x, &scratch)
		if a.e > 1000 || a.e < -1000 {
			return 0, false
		}
		f := math.Ldexp(a.m, int(a.e))
		if x.Sign() < 0 {
			f = -f
		}
		return f, true
	}
	k, okK := signed(d.k)
	if !okK {
		return nil, nil, false
	}
	l, lerr := approxLn(d.r)
	v := k * l
	// k·l: k within 3.1u, l within lerr, one rounding.
	err := math.Abs(k)*lerr*1.01 + 5*u*math.Abs(v)
	if d.q != nil {
		q, okQ := signed(d.q)
		if !okQ {
			return nil, nil, false
		}
		v += q
		err += 5*u*math.Abs(q) + 2*u*math.Abs(v)
	}
	err = 2*err + 4*u*math.Abs(v) // the subtraction and addition below round
	if math.IsInf(v, 0) || math.IsNaN(v) || math.IsInf(err, 0) {
		return nil, nil, false
	}
	lo, hi = new(big.Rat), new(big.Rat)
	lo.SetFloat64(v - err)
	hi.SetFloat64(v + err)
	return lo, hi, true
}
