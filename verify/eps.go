package verify

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
	"sync"
)

// Eps is a privacy parameter ε, kept symbolically so that every comparison
// against c = e^ε is exact (DESIGN.md §3):
//
//   - k·ln(r) with rational k and r > 0: c = r^k. For integer k, c is
//     rational; for k = p/q, a comparison x ≤ c is decided as x^q ≤ r^p.
//   - a plain rational q: c = e^q is transcendental for q ≠ 0
//     (Lindemann–Weierstrass), so x ≤ e^q is never a tie and is decided by
//     certified rational bounds on e^q, refined until they separate.
//   - +∞.
//
// The zero value is ε = 0 (c = 1). Eps values are immutable and safe for
// concurrent use; they cache the bounds they compute.
type Eps struct{ d *epsData }

type epsKind int

const (
	epsLog epsKind = iota // ε = k·ln(r)
	epsRat                // ε = q, q ≠ 0
	epsInf                // ε = +∞
)

type epsData struct {
	kind epsKind
	k, r *big.Rat // epsLog
	q    *big.Rat // epsRat
	c    *big.Rat // epsLog with integer k: c = r^k exactly

	mu     sync.Mutex
	lo, hi *big.Rat // epsRat: certified bounds on e^q
	prec   uint
}

// ErrEps reports a malformed ε.
var ErrEps = errors.New("invalid epsilon")

// Limits on the exponents dpcheck expands exactly: k·ln(r) needs r^k, and a
// fractional k = p/q needs x^q and r^p.
const (
	MaxExponent   = 1 << 16
	MaxRootDegree = 64
)

// Ln returns ε = ln(r). r must be positive.
func Ln(r *big.Rat) (Eps, error) { return MulLn(big.NewRat(1, 1), r) }

// MulLn returns ε = k·ln(r). r must be positive.
func MulLn(k, r *big.Rat) (Eps, error) {
	if r.Sign() <= 0 {
		return Eps{}, fmt.Errorf("%w: ln(%s) needs a positive argument", ErrEps, r.RatString())
	}
	if k.Sign() == 0 || r.Cmp(big.NewRat(1, 1)) == 0 {
		return Eps{}, nil
	}
	if !k.IsInt() {
		if k.Denom().Cmp(big.NewInt(MaxRootDegree)) > 0 || k.Num().CmpAbs(big.NewInt(MaxExponent)) > 0 {
			return Eps{}, fmt.Errorf("%w: the coefficient %s of ln must have a numerator of at most %d and a denominator of at most %d",
				ErrEps, k.RatString(), MaxExponent, MaxRootDegree)
		}
		return Eps{&epsData{kind: epsLog, k: new(big.Rat).Set(k), r: new(big.Rat).Set(r)}}, nil
	}
	if k.Num().CmpAbs(big.NewInt(MaxExponent)) > 0 {
		return Eps{}, fmt.Errorf("%w: the coefficient %s of ln is above %d", ErrEps, k.RatString(), MaxExponent)
	}
	c := ratPow(r, k.Num().Int64())
	return Eps{&epsData{kind: epsLog, k: big.NewRat(1, 1), r: c, c: c}}, nil
}

// lnOf returns ε = ln(c) for a ratio c >= 1 computed by the verifier.
func lnOf(c *big.Rat) Eps {
	if c.Cmp(big.NewRat(1, 1)) == 0 {
		return Eps{}
	}
	c = new(big.Rat).Set(c)
	return Eps{&epsData{kind: epsLog, k: big.NewRat(1, 1), r: c, c: c}}
}

// Rational returns ε = q.
func Rational(q *big.Rat) Eps {
	if q.Sign() == 0 {
		return Eps{}
	}
	return Eps{&epsData{kind: epsRat, q: new(big.Rat).Set(q)}}
}

// Inf returns ε = +∞.
func Inf() Eps { return Eps{&epsData{kind: epsInf}} }

// IsInf reports whether ε = +∞.
func (e Eps) IsInf() bool { return e.d != nil && e.d.kind == epsInf }

// IsZero reports whether ε = 0.
func (e Eps) IsZero() bool { return e.d == nil }

// Sign returns -1, 0 or +1 as ε is negative, zero or positive.
func (e Eps) Sign() int {
	if e.d == nil {
		return 0
	}
	switch e.d.kind {
	case epsInf:
		return 1
	case epsRat:
		return e.d.q.Sign()
	}
	// k·ln(r): sign(k)·sign(r-1)
	return e.d.k.Sign() * e.d.r.Cmp(big.NewRat(1, 1))
}

// C returns c = e^ε exactly when it is rational. The result is read-only.
func (e Eps) C() (*big.Rat, bool) {
	if e.d == nil {
		return big.NewRat(1, 1), true
	}
	if e.d.kind == epsLog && e.d.c != nil {
		return e.d.c, true
	}
	return nil, false
}

// CmpC compares x with c = e^ε and returns the sign of x - c. It never
// uses floating point; for a rational ε ≠ 0 it refines certified bounds on
// e^ε until they separate from x, and returns an error only if x is so
// close to e^ε that the bounds would need more than maxExpPrec bits.
func (e Eps) CmpC(x *big.Rat) (int, error) {
	if c, ok := e.C(); ok {
		return x.Cmp(c), nil
	}
	if x.Sign() <= 0 {
		return -1, nil // c > 0
	}
	switch e.d.kind {
	case epsInf:
		return -1, nil
	case epsLog:
		// c = r^(p/q), q > 1:  x ? c  <=>  x^q ? r^p
		p, q := e.d.k.Num().Int64(), e.d.k.Denom().Int64()
		return ratPow(x, q).Cmp(ratPow(e.d.r, p)), nil
	}
	return e.d.cmpExp(x)
}

const maxExpPrec = 1 << 22

func (d *epsData) cmpExp(x *big.Rat) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.lo == nil {
		d.prec = 64
		d.lo, d.hi = expBounds(d.q, d.prec)
	}
	for {
		if x.Cmp(d.lo) < 0 {
			return -1, nil
		}
		if x.Cmp(d.hi) > 0 {
			return 1, nil
		}
		if d.prec >= maxExpPrec {
			return 0, fmt.Errorf("cannot separate %s from e^%s with %d bits of precision", x.RatString(), d.q.RatString(), d.prec)
		}
		d.prec *= 2
		d.lo, d.hi = expBounds(d.q, d.prec)
	}
}

// Bounds returns certified rational bounds lo <= c <= hi on c = e^ε (equal
// when c is rational). For ε = +∞ it returns nil, nil.
func (e Eps) Bounds() (lo, hi *big.Rat) {
	if c, ok := e.C(); ok {
		return c, c
	}
	switch e.d.kind {
	case epsInf:
		return nil, nil
	case epsLog:
		// r^(p/q): bound via rational q-th roots of r^p by bisection on
		// binary fractions.
		return rootBounds(ratPow(e.d.r, e.d.k.Num().Int64()), e.d.k.Denom().Int64(), 80)
	}
	e.d.mu.Lock()
	defer e.d.mu.Unlock()
	if e.d.lo == nil {
		e.d.prec = 64
		e.d.lo, e.d.hi = expBounds(e.d.q, e.d.prec)
	}
	return e.d.lo, e.d.hi
}

// Cmp compares two values of ε exactly and returns -1, 0 or +1.
func (e Eps) Cmp(f Eps) (int, error) {
	switch {
	case e.IsInf() && f.IsInf():
		return 0, nil
	case e.IsInf():
		return 1, nil
	case f.IsInf():
		return -1, nil
	}
	if c, ok := e.C(); ok {
		s, err := f.CmpC(c)
		return s, err
	}
	if c, ok := f.C(); ok {
		s, err := e.CmpC(c)
		return -s, err
	}
	ek, fk := e.d.kind, f.d.kind
	switch {
	case ek == epsRat && fk == epsRat:
		return e.d.q.Cmp(f.d.q), nil
	case ek == epsLog && fk == epsLog:
		// r1^(p1/q1) ? r2^(p2/q2)  <=>  r1^(p1·q2) ? r2^(p2·q1)
		p1, q1 := e.d.k.Num().Int64(), e.d.k.Denom().Int64()
		p2, q2 := f.d.k.Num().Int64(), f.d.k.Denom().Int64()
		if abs64(p1*q2) > MaxExponent*4 || abs64(p2*q1) > MaxExponent*4 {
			return 0, fmt.Errorf("%w: exponents too large to compare %s and %s exactly", ErrEps, e, f)
		}
		return ratPow(e.d.r, p1*q2).Cmp(ratPow(f.d.r, p2*q1)), nil
	}
	// One algebraic (r^(p/q), q > 1) and one transcendental (e^q): never
	// equal. Compare by certified bounds, refining both.
	for prec := uint(64); prec <= maxExpPrec; prec *= 2 {
		el, eh := e.boundsAt(prec)
		fl, fh := f.boundsAt(prec)
		if eh.Cmp(fl) < 0 {
			return -1, nil
		}
		if el.Cmp(fh) > 0 {
			return 1, nil
		}
	}
	return 0, fmt.Errorf("cannot separate %s from %s", e, f)
}

func (e Eps) boundsAt(prec uint) (lo, hi *big.Rat) {
	switch e.d.kind {
	case epsRat:
		return expBounds(e.d.q, prec)
	default:
		return rootBounds(ratPow(e.d.r, e.d.k.Num().Int64()), e.d.k.Denom().Int64(), prec)
	}
}

// Float returns ε as a float64, for display only.
func (e Eps) Float() float64 {
	if e.d == nil {
		return 0
	}
	switch e.d.kind {
	case epsInf:
		return posInf()
	case epsRat:
		f, _ := e.d.q.Float64()
		return f
	}
	k, _ := e.d.k.Float64()
	return k * lnRat(e.d.r)
}

// String formats ε exactly: "0", "ln(3)", "3/2·ln(2)", "1/10", "∞".
func (e Eps) String() string {
	if e.d == nil {
		return "0"
	}
	switch e.d.kind {
	case epsInf:
		return "∞"
	case epsRat:
		return e.d.q.RatString()
	}
	if e.d.k.Cmp(big.NewRat(1, 1)) == 0 {
		if k, b, ok := perfectPower(e.d.r); ok && len(e.d.r.RatString()) > 24 {
			return fmt.Sprintf("%d·ln(%s)", k, b.RatString())
		}
		return "ln(" + e.d.r.RatString() + ")"
	}
	return e.d.k.RatString() + "·ln(" + e.d.r.RatString() + ")"
}

// Alternate returns a second exact form of ε worth showing beside String,
// or "": for ln(16) it returns "4·ln(2)".
func (e Eps) Alternate() string {
	if e.d == nil || e.d.kind != epsLog || e.d.k.Cmp(big.NewRat(1, 1)) != 0 {
		return ""
	}
	k, b, ok := perfectPower(e.d.r)
	if !ok {
		return ""
	}
	alt := fmt.Sprintf("%d·ln(%s)", k, b.RatString())
	if alt == e.String() {
		return "ln(" + e.d.r.RatString() + ")"
	}
	return alt
}

// Equal reports whether e and f are the same real number.
func (e Eps) Equal(f Eps) bool {
	c, err := e.Cmp(f)
	return err == nil && c == 0
}

// ratPow returns x^n for an integer n (negative allowed when x ≠ 0).
func ratPow(x *big.Rat, n int64) *big.Rat {
	neg := n < 0
	if neg {
		n = -n
	}
	e := big.NewInt(n)
	num := new(big.Int).Exp(x.Num(), e, nil)
	den := new(big.Int).Exp(x.Denom(), e, nil)
	if neg {
		num, den = den, num
	}
	if den.Sign() < 0 {
		num.Neg(num)
		den.Neg(den)
	}
	return new(big.Rat).SetFrac(num, den)
}

// rootBounds returns rationals lo <= y^(1/q) <= hi with hi-lo <= 2^-prec·hi,
// by bisection on the exact test z^q <= y. y > 0, q >= 1.
func rootBounds(y *big.Rat, q int64, prec uint) (lo, hi *big.Rat) {
	if q == 1 {
		return y, y
	}
	one := big.NewRat(1, 1)
	lo, hi = big.NewRat(0, 1), new(big.Rat).Set(y)
	if y.Cmp(one) < 0 {
		hi = one
	}
	half := big.NewRat(1, 2)
	mid := new(big.Rat)
	for range prec + uint(y.Num().BitLen()+y.Denom().BitLen()) {
		mid.Add(lo, hi)
		mid.Mul(mid, half)
		if ratPow(mid, q).Cmp(y) <= 0 {
			lo = new(big.Rat).Set(mid)
		} else {
			hi = new(big.Rat).Set(mid)
		}
	}
	return lo, hi
}

// perfectPower writes r = b^k with the largest k >= 2, if r is a perfect
// power. It is used for display only.
func perfectPower(r *big.Rat) (int, *big.Rat, bool) {
	num, den := new(big.Int).Set(r.Num()), new(big.Int).Set(r.Denom())
	if num.BitLen() > 1<<14 || den.BitLen() > 1<<14 || num.Sign() <= 0 {
		return 0, nil, false
	}
	k := 1
	bits := max(num.BitLen(), den.BitLen())
	for p := 2; p <= bits; p++ {
		if !isPrime(p) {
			continue
		}
		for {
			a, ok1 := iroot(num, p)
			b, ok2 := iroot(den, p)
			if !ok1 || !ok2 || (a.Cmp(num) == 0 && b.Cmp(den) == 0) {
				break
			}
			num, den, k = a, b, k*p
		}
	}
	if k == 1 {
		return 0, nil, false
	}
	return k, new(big.Rat).SetFrac(num, den), true
}

func isPrime(p int) bool {
	for d := 2; d*d <= p; d++ {
		if p%d == 0 {
			return false
		}
	}
	return p >= 2
}

// iroot returns the integer p-th root of x >= 0 and whether it is exact.
func iroot(x *big.Int, p int) (*big.Int, bool) {
	if x.Sign() == 0 || x.Cmp(big.NewInt(1)) == 0 {
		return new(big.Int).Set(x), true
	}
	// Newton's method from above.
	y := new(big.Int).Lsh(big.NewInt(1), uint(x.BitLen()/p+1))
	pb := big.NewInt(int64(p))
	pm1 := big.NewInt(int64(p - 1))
	for {
		// z = ((p-1)·y + x / y^(p-1)) / p
		t := new(big.Int).Exp(y, pm1, nil)
		t.Quo(x, t)
		z := new(big.Int).Mul(y, pm1)
		z.Add(z, t)
		z.Quo(z, pb)
		if z.Cmp(y) >= 0 {
			break
		}
		y = z
	}
	return y, new(big.Int).Exp(y, pb, nil).Cmp(x) == 0
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// ParseEpsLiteral is a small helper for tests and examples: it reads "0",
// "ln(3)", "2*ln(3)", "3/2*ln(2)", "1/10", "inf".
func ParseEpsLiteral(s string) (Eps, error) {
	s = strings.ReplaceAll(strings.TrimSpace(s), " ", "")
	if s == "inf" || s == "∞" {
		return Inf(), nil
	}
	k := big.NewRat(1, 1)
	if i := strings.Index(s, "ln("); i >= 0 && strings.HasSuffix(s, ")") {
		if i > 0 {
			ks := strings.TrimSuffix(strings.TrimSuffix(s[:i], "*"), "·")
			if _, ok := k.SetString(ks); !ok {
				return Eps{}, fmt.Errorf("%w: bad coefficient %q", ErrEps, ks)
			}
		}
		r, ok := new(big.Rat).SetString(s[i+3 : len(s)-1])
		if !ok {
			return Eps{}, fmt.Errorf("%w: bad argument of ln in %q", ErrEps, s)
		}
		return MulLn(k, r)
	}
	q, ok := new(big.Rat).SetString(s)
	if !ok {
		return Eps{}, fmt.Errorf("%w: %q", ErrEps, s)
	}
	return Rational(q), nil
}
