package exact

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"sync"
)

// Eps is a privacy parameter ε, kept symbolically so that every comparison
// against c = e^ε is exact (docs/semantics.md §3). A finite ε is k·ln(r) + q with
// rationals k, q and r > 0; either part may be absent:
//
//   - k·ln(r): c = r^k, rational for integer k; for k = p/m a comparison
//     x ≤ c is decided as x^m ≤ r^p.
//   - a plain rational q ≠ 0: c = e^q is transcendental
//     (Lindemann–Weierstrass), so x ≤ e^q is never a tie and is decided by
//     certified rational bounds on e^q, refined until they separate.
//   - both, as in ln(2) - 1/1000: c = r^k·e^q, decided the same way.
//
// and +∞. Internally every comparison uses c^m = R·e^z with an integer
// m ≥ 1 and rationals R > 0 and z, so x ≤ c ⟺ x^m/R ≤ e^z.
//
// The zero value is ε = 0 (c = 1). Eps values are immutable and safe for
// concurrent use; they cache the bounds they compute.
type Eps struct{ d *epsData }

type epsData struct {
	inf  bool
	k, r *big.Rat // log part k·ln(r); k == nil when absent
	q    *big.Rat // rational part; nil when absent
	sign int

	// c^m = rr·e^z
	m  int64
	rr *big.Rat
	z  *big.Rat

	mu     sync.Mutex
	lo, hi *big.Rat // certified bounds on e^z
	prec   uint

	boundsOnce sync.Once
	bLo, bHi   *big.Rat // Bounds() of c

	strOnce sync.Once
	str     string // String()
}

// rootForm returns k·ln(r) for a fractional k in its canonical form: r
// written as b^j with the largest j (b is then no perfect power) and the
// coefficient k·j; an integer coefficient is folded into the argument
// (k = 1), so that c = e^ε is recognised rational whenever it is (ln(4)/2
// is ln(2)); otherwise b > 1. r^k is rational exactly when k·j is an
// integer, since b^(p/m) is irrational for a b that is no perfect power.
func rootForm(k, r *big.Rat) (*big.Rat, *big.Rat) {
	k, r = new(big.Rat).Set(k), new(big.Rat).Set(r)
	if j, b, ok := perfectPower(r); ok {
		k.Mul(k, big.NewRat(int64(j), 1))
		r = b
	}
	if k.IsInt() {
		return big.NewRat(1, 1), Pow(r, k.Num().Int64())
	}
	if r.Cmp(ratOne) < 0 {
		k.Neg(k)
		r.Inv(r)
	}
	return k, r
}

// ErrEps reports a malformed ε, or one dpcheck cannot handle exactly;
// every such error is an *EpsError wrapping it.
var ErrEps = errors.New("invalid epsilon")

// EpsError says what is wrong with an ε value (Reason, without the
// "invalid epsilon: " of its Error).
type EpsError struct{ Reason string }

func (e *EpsError) Error() string { return ErrEps.Error() + ": " + e.Reason }

func (e *EpsError) Unwrap() error { return ErrEps }

func epsErrorf(format string, args ...any) error {
	return &EpsError{Reason: fmt.Sprintf(format, args...)}
}

// Limits on the ε values dpcheck handles exactly: k·ln(r) needs r^k, a
// fractional k = p/q needs x^q and r^p, and a rational part q needs
// certified bounds on e^q, whose size grows with |q|.
const (
	MaxExponent   = 1 << 16
	MaxRootDegree = 64
	MaxRational   = 1 << 16
)

// maxExpArg bounds |z| in the comparisons x^m/R ? e^z that are decided by
// refining bounds on e^z; beyond it only a magnitude test is tried (see
// cmpExp). maxPowBits bounds the size of the exact powers a comparison may
// build.
const (
	maxExpArg  = 1 << 22
	maxPowBits = 1 << 24
)

// Ln returns ε = ln(r). r must be positive.
func Ln(r *big.Rat) (Eps, error) { return LnPlus(big.NewRat(1, 1), r, nil) }

// MulLn returns ε = k·ln(r). r must be positive.
func MulLn(k, r *big.Rat) (Eps, error) { return LnPlus(k, r, nil) }

// Rational returns ε = q. |q| must be at most MaxRational.
func Rational(q *big.Rat) (Eps, error) { return LnPlus(nil, nil, q) }

// LnPlus returns ε = k·ln(r) + q; k (with r) or q may be nil for an absent
// part. r must be positive.
func LnPlus(k, r, q *big.Rat) (Eps, error) {
	d := &epsData{m: 1, rr: big.NewRat(1, 1), z: new(big.Rat)}
	if k != nil && k.Sign() != 0 {
		if r == nil || r.Sign() <= 0 {
			rs := "nil"
			if r != nil {
				rs = r.RatString()
			}
			return Eps{}, epsErrorf("ln(%s) needs a positive argument", rs)
		}
		if r.Cmp(ratOne) != 0 {
			if k.Num().CmpAbs(big.NewInt(MaxExponent)) > 0 {
				if k.IsInt() {
					return Eps{}, epsErrorf("the coefficient %s of ln is above %d", k.RatString(), MaxExponent)
				}
				return Eps{}, epsErrorf("the coefficient %s of ln must have a numerator of at most %d and a denominator of at most %d", k.RatString(), MaxExponent, MaxRootDegree)
			}
			if !k.IsInt() && k.Denom().Cmp(big.NewInt(MaxRootDegree)) > 0 {
				return Eps{}, epsErrorf("the coefficient %s of ln must have a numerator of at most %d and a denominator of at most %d", k.RatString(), MaxExponent, MaxRootDegree)
			}
			if int64(Bits(r))*abs64(k.Num().Int64()) > maxPowBits {
				return Eps{}, epsErrorf("%s·ln(%s) is too large to expand exactly", k.RatString(), r.RatString())
			}
			if k.IsInt() {
				d.k, d.r = big.NewRat(1, 1), Pow(r, k.Num().Int64())
			} else {
				d.k, d.r = rootForm(k, r)
			}
			d.m = d.k.Denom().Int64()
			d.rr = Pow(d.r, d.k.Num().Int64())
		}
	} else if k == nil && r != nil && r.Sign() <= 0 {
		return Eps{}, epsErrorf("ln(%s) needs a positive argument", r.RatString())
	}
	if q != nil && q.Sign() != 0 {
		if q.Num().CmpAbs(new(big.Int).Mul(q.Denom(), big.NewInt(MaxRational))) > 0 {
			return Eps{}, epsErrorf("the rational part %s is above %d in absolute value", q.RatString(), MaxRational)
		}
		d.q = new(big.Rat).Set(q)
		d.z.Mul(d.q, big.NewRat(d.m, 1))
	}
	if d.k == nil && d.q == nil {
		return Eps{}, nil
	}
	// sign(ε) = sign(c - 1) = -sign(1 - c).
	s, err := d.cmpC(ratOne)
	if err != nil {
		return Eps{}, epsErrorf("cannot decide the sign of %s", Eps{d})
	}
	d.sign = -s
	return Eps{d}, nil
}

// LnOf returns ε = ln(c) for a ratio c >= 1 computed by the verifier.
func LnOf(c *big.Rat) Eps {
	if c.Cmp(ratOne) == 0 {
		return Eps{}
	}
	c = new(big.Rat).Set(c)
	return Eps{&epsData{k: big.NewRat(1, 1), r: c, m: 1, rr: c, z: new(big.Rat), sign: 1}}
}

// Inf returns ε = +∞.
func Inf() Eps { return Eps{&epsData{inf: true, sign: 1}} }

// IsInf reports whether ε = +∞.
func (e Eps) IsInf() bool { return e.d != nil && e.d.inf }

// IsZero reports whether ε = 0.
func (e Eps) IsZero() bool { return e.d == nil }

// Sign returns -1, 0 or +1 as ε is negative, zero or positive.
func (e Eps) Sign() int {
	if e.d == nil {
		return 0
	}
	return e.d.sign
}

// C returns c = e^ε exactly when it is rational. The result is read-only.
func (e Eps) C() (*big.Rat, bool) {
	if e.d == nil {
		return ratOne, true
	}
	if !e.d.inf && e.d.m == 1 && e.d.z.Sign() == 0 {
		return e.d.rr, true
	}
	return nil, false
}

// CmpC compares x with c = e^ε and returns the sign of x - c. It never
// uses floating point; when e^z is involved it refines certified bounds
// until they separate from x. It returns an error when x is so close to c
// that the bounds would need more precision than the comparison allows:
// min(2^22, 8·(bits of x and z) + 2|z| + 1024) bits; and when |z| > 2^22
// and the bit lengths alone cannot decide (see cmpExp).
func (e Eps) CmpC(x *big.Rat) (int, error) {
	if e.d == nil {
		return x.Cmp(ratOne), nil
	}
	if e.d.inf {
		return -1, nil
	}
	return e.d.cmpC(x)
}

func (d *epsData) cmpC(x *big.Rat) (int, error) {
	if x.Sign() <= 0 {
		return -1, nil // c > 0
	}
	// x ? c  <=>  x^m/R ? e^z
	y := x
	if d.m != 1 {
		y = Pow(x, d.m)
	}
	y = new(big.Rat).Quo(y, d.rr)
	if d.z.Sign() == 0 {
		return y.Cmp(ratOne), nil
	}
	return d.cmpExp(y)
}

// maxExpPrec is the most bits of precision cmpExp ever uses for e^z.
const maxExpPrec = 1 << 22

// log2e brackets log2(e) = 1.44269504...: log2eLo < log2(e) < log2eHi.
var log2eLo, log2eHi = big.NewRat(14426, 10000), big.NewRat(14427, 10000)

// cmpMagnitude decides sign(y - e^z) from the bit lengths of y alone when
// they are far enough from z·log2(e): with a = bits(num) - bits(den),
// 2^(a-1) < y < 2^(a+1). ok is false when the test is inconclusive.
func cmpMagnitude(y, z *big.Rat) (sign int, ok bool) {
	a := big.NewRat(int64(y.Num().BitLen()-y.Denom().BitLen()), 1)
	l, u := new(big.Rat).Mul(z, log2eLo), new(big.Rat).Mul(z, log2eHi)
	if z.Sign() < 0 {
		l, u = u, l
	}
	// l < log2(e^z) < u
	if new(big.Rat).Add(a, ratOne).Cmp(l) <= 0 {
		return -1, true // y < 2^(a+1) <= 2^l < e^z
	}
	if new(big.Rat).Sub(a, ratOne).Cmp(u) >= 0 {
		return 1, true // y > 2^(a-1) >= 2^u > e^z
	}
	return 0, false
}

// Bits is the size of x in bits.
func Bits(x *big.Rat) int { return x.Num().BitLen() + x.Denom().BitLen() }

// cmpExp returns sign(y - e^z). It refines certified bounds on e^z until
// they separate from y. y ≠ e^z always (e^z is transcendental for rational
// z ≠ 0), so the refinement ends; the precision it may use grows with the
// sizes of y and z, up to maxExpPrec bits, and beyond that cmpExp reports
// an error rather than guess.
func (d *epsData) cmpExp(y *big.Rat) (int, error) {
	if d.z.Num().CmpAbs(new(big.Int).Mul(d.z.Denom(), big.NewInt(32))) > 0 {
		if s, ok := cmpMagnitude(y, d.z); ok {
			return s, nil
		}
		if d.z.Num().CmpAbs(new(big.Int).Mul(d.z.Denom(), big.NewInt(maxExpArg))) > 0 {
			return 0, epsErrorf("e^%s is too large to compare with %s exactly", d.z.RatString(), y.RatString())
		}
	}
	zmag := new(big.Int).Quo(new(big.Int).Abs(d.z.Num()), d.z.Denom()).Int64() // < maxExpArg
	limit := uint(min(maxExpPrec, 8*(Bits(y)+Bits(d.z))+2*int(zmag)+1024))
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.lo == nil {
		d.prec = 64
		d.lo, d.hi = expBounds(d.z, d.prec)
	}
	for {
		if y.Cmp(d.lo) < 0 {
			return -1, nil
		}
		if y.Cmp(d.hi) > 0 {
			return 1, nil
		}
		if d.prec >= limit {
			return 0, epsErrorf("cannot separate %s from e^%s with %d bits of precision", y.RatString(), d.z.RatString(), d.prec)
		}
		d.prec = min(2*d.prec, limit)
		d.lo, d.hi = expBounds(d.z, d.prec)
	}
}

// Bounds returns certified rational bounds lo <= c <= hi on c = e^ε (equal
// when c is rational). For ε = +∞ it returns nil, nil.
func (e Eps) Bounds() (lo, hi *big.Rat) {
	if c, ok := e.C(); ok {
		return c, c
	}
	if e.d.inf {
		return nil, nil
	}
	d := e.d
	d.boundsOnce.Do(func() { d.bLo, d.bHi = e.boundsAt(80) })
	return d.bLo, d.bHi
}

// boundsAt bounds c with a relative gap of about 2^-prec: c = (R·e^z)^(1/m).
func (e Eps) boundsAt(prec uint) (lo, hi *big.Rat) {
	d := e.d
	elo, ehi := big.NewRat(1, 1), big.NewRat(1, 1)
	if d.z.Sign() != 0 {
		elo, ehi = expBounds(d.z, prec)
	}
	lo = new(big.Rat).Mul(d.rr, elo)
	hi = new(big.Rat).Mul(d.rr, ehi)
	if d.m == 1 {
		return lo, hi
	}
	l, _ := rootBounds(lo, d.m, prec)
	_, h := rootBounds(hi, d.m, prec)
	return l, h
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
	case e.d == nil && f.d == nil:
		return 0, nil
	case e.d == nil:
		return -f.d.sign, nil
	case f.d == nil:
		return e.d.sign, nil
	}
	// c_e ? c_f  <=>  c_e^L ? c_f^L with L = lcm(m_e, m_f)
	//            <=>  R_e^(L/m_e) / R_f^(L/m_f) ? e^(z_f·L/m_f - z_e·L/m_e)
	me, mf := e.d.m, f.d.m
	l := me / gcd64(me, mf) * mf
	if l > MaxRootDegree*MaxRootDegree ||
		int64(Bits(e.d.rr))*(l/me)+int64(Bits(f.d.rr))*(l/mf) > maxPowBits {
		return 0, epsErrorf("cannot compare %s and %s exactly (roots of degree %d of numbers too large)", e, f, l)
	}
	y := new(big.Rat).Quo(Pow(e.d.rr, l/me), Pow(f.d.rr, l/mf))
	z := new(big.Rat).Sub(new(big.Rat).Mul(f.d.z, big.NewRat(l/mf, 1)), new(big.Rat).Mul(e.d.z, big.NewRat(l/me, 1)))
	if z.Sign() == 0 {
		return y.Cmp(ratOne), nil
	}
	tmp := &epsData{z: z}
	return tmp.cmpExp(y)
}

// gcd64 is Euclid's algorithm on words.
func gcd64[T int64 | uint64](a, b T) T {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// Float returns ε as a float64 approximation, for plots and for
// heuristics that only order work (never for a verdict or a printed
// value); Decimal prints it correctly rounded.
func (e Eps) Float() float64 {
	if e.d == nil {
		return 0
	}
	if e.d.inf {
		return math.Inf(1)
	}
	var f float64
	if e.d.k != nil {
		k, _ := e.d.k.Float64()
		f = k * LnFloat(e.d.r)
	}
	if e.d.q != nil {
		q, _ := e.d.q.Float64()
		f += q
	}
	return f
}

// String formats ε exactly, in one canonical form that the .dp language
// reads back (it accepts · for * and ∞ for inf): "0", "ln(3)", "4·ln(2)"
// (never ln(16): a perfect power is written with its smallest base),
// "3/2·ln(2)", "1/10", "ln(2) - 1/1000", "∞". The form depends on the value
// only, not on its length.
func (e Eps) String() string {
	if e.d == nil {
		return "0"
	}
	if e.d.inf {
		return "∞"
	}
	e.d.strOnce.Do(func() { e.d.str = e.d.format() })
	return e.d.str
}

func (d *epsData) format() string {
	var log string
	if d.k != nil {
		if d.k.Cmp(ratOne) == 0 {
			log = "ln(" + d.r.RatString() + ")"
			if k, b, ok := perfectPower(d.r); ok {
				log = fmt.Sprintf("%d·ln(%s)", k, b.RatString())
			}
		} else {
			log = d.k.RatString() + "·ln(" + d.r.RatString() + ")"
		}
	}
	switch {
	case d.q == nil:
		return log
	case log == "":
		return d.q.RatString()
	case d.q.Sign() < 0:
		return log + " - " + new(big.Rat).Neg(d.q).RatString()
	}
	return log + " + " + d.q.RatString()
}

// Alternate returns a second exact form of ε, or "": for ε = 4·ln(2) it
// returns "ln(16)", the logarithm of e^ε when that is rational and String
// writes it otherwise.
func (e Eps) Alternate() string {
	if e.d == nil || e.d.inf || e.d.q != nil || e.d.k == nil || e.d.k.Cmp(ratOne) != 0 {
		return ""
	}
	if _, _, ok := perfectPower(e.d.r); !ok {
		return ""
	}
	return "ln(" + e.d.r.RatString() + ")"
}

// Equal reports whether e and f are the same real number. It returns false
// when that cannot be decided within the precision limits (see Cmp).
func (e Eps) Equal(f Eps) bool {
	c, err := e.Cmp(f)
	return err == nil && c == 0
}

// Pow returns x^n for an integer n (negative allowed when x ≠ 0).
func Pow(x *big.Rat, n int64) *big.Rat {
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
// by bisection on the exact test x^q <= y. y > 0, q >= 1. The bisection
// starts from powers of two read off the bit lengths of y, so it needs only
// prec+4 steps whatever the size of y, on dyadic midpoints.
func rootBounds(y *big.Rat, q int64, prec uint) (lo, hi *big.Rat) {
	if q == 1 {
		return y, y
	}
	// 2^(a-1) < y < 2^(a+1), so 2^floor((a-1)/q) < y^(1/q) < 2^ceil((a+1)/q):
	// hi/lo <= 2^(2/q+2) <= 16.
	a := int64(y.Num().BitLen() - y.Denom().BitLen())
	lo, hi = pow2(floorDiv(a-1, q)), pow2(-floorDiv(-(a+1), q))
	half := big.NewRat(1, 2)
	for range prec + 4 {
		mid := new(big.Rat).Add(lo, hi)
		mid.Mul(mid, half)
		if Pow(mid, q).Cmp(y) <= 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo, hi
}

// pow2 returns 2^n as a rational.
func pow2(n int64) *big.Rat {
	p := new(big.Int).Lsh(big.NewInt(1), uint(abs64(n)))
	if n < 0 {
		return new(big.Rat).SetFrac(big.NewInt(1), p)
	}
	return new(big.Rat).SetInt(p)
}

// floorDiv returns floor(a/b) for b > 0.
func floorDiv(a, b int64) int64 {
	d := a / b
	if a%b != 0 && a < 0 {
		d--
	}
	return d
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
		for powerResidue(num, p) && powerResidue(den, p) {
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

// powerResidue is a quick necessary test for x >= 1 being a perfect p-th
// power (p prime): for a few primes q ≡ 1 (mod p), x mod q must be 0 or a
// p-th power residue, x^((q-1)/p) ≡ 1 (mod q). A number that is not a
// p-th power fails each test with probability about 1 - 1/p, so that the
// exact root (iroot) is computed for almost no p.
func powerResidue(x *big.Int, p int) bool {
	var m big.Int
	tested := 0
	for k := 1; tested < 4 && k <= 1000; k++ {
		q := 2*k*p + 1
		if !isPrime(q) {
			continue
		}
		tested++
		r := m.Mod(x, big.NewInt(int64(q))).Int64()
		if r != 0 && powMod(r, int64((q-1)/p), int64(q)) != 1 {
			return false
		}
	}
	return true
}

// powMod returns b^e mod m for 0 <= b < m < 2^31.
func powMod(b, e, m int64) int64 {
	r := int64(1)
	for ; e > 0; e >>= 1 {
		if e&1 == 1 {
			r = r * b % m
		}
		b = b * b % m
	}
	return r
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
