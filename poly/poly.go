package poly

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"math/big"
	"strings"
)

// Poly is a univariate polynomial in the parameter with rational
// coefficients. It is an immutable value: no method modifies its receiver or
// its arguments, and no method returns a coefficient the caller could use to
// modify it. The representation is canonical, so two polynomials are equal
// exactly when Equal says so. The zero value is the zero polynomial.
//
// A polynomial is stored as α^lo times the coefficients from α^lo up to the
// degree, both ends nonzero: the powers α^k that the probabilities of
// mechanisms are made of (α^|i−j|·(1 − α)) take two coefficients, not
// k + 2. Coefficient values may be shared between polynomials (they are
// never modified once a polynomial holds them).
type Poly struct {
	lo int        // the multiplicity of the root 0; 0 for the zero polynomial
	c  []*big.Rat // c[i] is the coefficient of α^(lo+i); c[0] and c[len-1] != 0
}

// New returns the polynomial coeffs[0] + coeffs[1]·α + coeffs[2]·α^2 + …
// (the coefficients are copied; nil counts as 0).
func New(coeffs ...*big.Rat) Poly {
	c := make([]*big.Rat, len(coeffs))
	for i, x := range coeffs {
		c[i] = new(big.Rat)
		if x != nil {
			c[i].Set(x)
		}
	}
	return mk(0, c)
}

// FromInts returns the polynomial coeffs[0] + coeffs[1]·α + … with integer
// coefficients.
func FromInts(coeffs ...int64) Poly {
	c := make([]*big.Rat, len(coeffs))
	for i, x := range coeffs {
		c[i] = big.NewRat(x, 1)
	}
	return mk(0, c)
}

// Const returns the constant polynomial r.
func Const(r *big.Rat) Poly { return New(r) }

// X returns the polynomial α.
func X() Poly { return FromInts(0, 1) }

// mk returns α^lo·(c[0] + c[1]·α + …) with the zeros at both ends of c
// trimmed; it takes ownership of c (nil entries count as 0).
func mk(lo int, c []*big.Rat) Poly {
	n := len(c)
	for n > 0 && (c[n-1] == nil || c[n-1].Sign() == 0) {
		n--
	}
	k := 0
	for k < n && (c[k] == nil || c[k].Sign() == 0) {
		k++
	}
	if k == n {
		return Poly{}
	}
	c = c[k:n]
	var zero *big.Rat
	for i, x := range c {
		if x == nil {
			if zero == nil {
				zero = new(big.Rat)
			}
			c[i] = zero
		}
	}
	return Poly{lo: lo + k, c: c}
}

// at returns the coefficient of α^i, shared (nil for 0): for reading only.
func (p Poly) at(i int) *big.Rat {
	if i < p.lo || i >= p.lo+len(p.c) || p.c[i-p.lo].Sign() == 0 {
		return nil
	}
	return p.c[i-p.lo]
}

// Degree returns the degree of p, and −1 for the zero polynomial.
func (p Poly) Degree() int {
	if len(p.c) == 0 {
		return -1
	}
	return p.lo + len(p.c) - 1
}

// LowDegree returns the least i with a nonzero coefficient of α^i (the
// multiplicity of the root 0), and −1 for the zero polynomial.
func (p Poly) LowDegree() int {
	if len(p.c) == 0 {
		return -1
	}
	return p.lo
}

// DivX returns p/α^k; k must lie between 0 and LowDegree (it panics
// otherwise: the quotient would not be a polynomial).
func (p Poly) DivX(k int) Poly {
	if p.IsZero() && k == 0 {
		return p
	}
	if k < 0 || k > p.lo || p.IsZero() {
		panic(fmt.Sprintf("poly: DivX(%d) of a polynomial whose lowest power is %d", k, p.LowDegree()))
	}
	return Poly{lo: p.lo - k, c: p.c}
}

// IsZero reports whether p is the zero polynomial.
func (p Poly) IsZero() bool { return len(p.c) == 0 }

// Coeff returns a copy of the coefficient of α^i (0 beyond the degree).
func (p Poly) Coeff(i int) *big.Rat {
	if x := p.at(i); x != nil {
		return new(big.Rat).Set(x)
	}
	return new(big.Rat)
}

// Lead returns a copy of the leading coefficient (0 for the zero polynomial).
func (p Poly) Lead() *big.Rat { return p.Coeff(p.Degree()) }

// Equal reports whether p and q are the same polynomial.
func (p Poly) Equal(q Poly) bool {
	if p.lo != q.lo || len(p.c) != len(q.c) {
		return false
	}
	for i := range p.c {
		if p.c[i] != q.c[i] && p.c[i].Cmp(q.c[i]) != 0 {
			return false
		}
	}
	return true
}

// Hash writes p's canonical form to h: equal polynomials write the same
// bytes.
func (p Poly) Hash(h *maphash.Hash) {
	b := make([]byte, 0, 64)
	b = binary.AppendUvarint(b, uint64(p.lo))
	for _, x := range p.c {
		b = append(b, byte(x.Sign()+1))
		for _, n := range []*big.Int{x.Num(), x.Denom()} {
			ws := n.Bits()
			b = binary.AppendUvarint(b, uint64(len(ws)))
			for _, w := range ws {
				b = binary.LittleEndian.AppendUint64(b, uint64(w))
			}
		}
		if len(b) > 4096 {
			h.Write(b)
			b = b[:0]
		}
	}
	b = append(b, ';')
	h.Write(b)
}

// Add returns p + q.
func (p Poly) Add(q Poly) Poly { return combine(p, q, false) }

// Sub returns p − q.
func (p Poly) Sub(q Poly) Poly { return combine(p, q, true) }

// combine returns p + q, or p − q when neg; a coefficient only one side
// has is shared, not copied (negated when it comes from q and neg).
func combine(p, q Poly, neg bool) Poly {
	if q.IsZero() {
		return p
	}
	if p.IsZero() && !neg {
		return q
	}
	if p.IsZero() {
		return q.Neg()
	}
	lo := min(p.lo, q.lo)
	c := make([]*big.Rat, max(p.Degree(), q.Degree())+1-lo)
	for i := range c {
		x, y := p.at(lo+i), q.at(lo+i)
		switch {
		case x != nil && y != nil && neg:
			c[i] = new(big.Rat).Sub(x, y)
		case x != nil && y != nil:
			c[i] = new(big.Rat).Add(x, y)
		case x != nil:
			c[i] = x
		case y != nil && neg:
			c[i] = new(big.Rat).Neg(y)
		default:
			c[i] = y
		}
	}
	return mk(lo, c)
}

// Sum returns the sum of ps, adding each coefficient into one accumulator
// (for many sparse polynomials, far less work than adding them in turn).
func Sum(ps ...Poly) Poly {
	lo, hi := -1, -1
	for _, p := range ps {
		if p.IsZero() {
			continue
		}
		if lo < 0 || p.lo < lo {
			lo = p.lo
		}
		hi = max(hi, p.Degree())
	}
	if lo < 0 {
		return Poly{}
	}
	c := make([]*big.Rat, hi+1-lo)
	own := make([]bool, len(c))
	for _, p := range ps {
		for j, x := range p.c {
			if x.Sign() == 0 {
				continue
			}
			i := p.lo + j - lo
			switch {
			case c[i] == nil:
				c[i] = x
			case own[i]:
				c[i].Add(c[i], x)
			default:
				c[i], own[i] = new(big.Rat).Add(c[i], x), true
			}
		}
	}
	return mk(lo, c)
}

// Neg returns −p.
func (p Poly) Neg() Poly {
	c := make([]*big.Rat, len(p.c))
	for i, x := range p.c {
		if x.Sign() != 0 {
			c[i] = new(big.Rat).Neg(x)
		}
	}
	return mk(p.lo, c)
}

// Scale returns r·p.
func (p Poly) Scale(r *big.Rat) Poly {
	if r.Sign() == 0 {
		return Poly{}
	}
	if r.IsInt() && r.Num().IsInt64() && r.Num().Int64() == 1 {
		return p
	}
	c := make([]*big.Rat, len(p.c))
	for i, x := range p.c {
		if x.Sign() != 0 {
			c[i] = new(big.Rat).Mul(x, r)
		}
	}
	return mk(p.lo, c)
}

// Mul returns p·q.
func (p Poly) Mul(q Poly) Poly {
	if p.IsZero() || q.IsZero() {
		return Poly{}
	}
	if len(q.c) > len(p.c) {
		p, q = q, p // the shorter one inside
	}
	if len(q.c) == 1 { // a monomial: a scaled shift
		s := p.Scale(q.c[0])
		return Poly{lo: s.lo + q.lo, c: s.c}
	}
	c := make([]*big.Rat, len(p.c)+len(q.c)-1)
	t := new(big.Rat)
	for i, x := range p.c {
		if x.Sign() == 0 {
			continue
		}
		for j, y := range q.c {
			if y.Sign() == 0 {
				continue
			}
			if c[i+j] == nil {
				c[i+j] = new(big.Rat).Mul(x, y)
			} else {
				c[i+j].Add(c[i+j], t.Mul(x, y))
			}
		}
	}
	return mk(p.lo+q.lo, c)
}

// dense returns the coefficients of α^0 … α^deg, fresh copies (for the
// algorithms that modify them).
func (p Poly) dense() []*big.Rat {
	c := make([]*big.Rat, p.Degree()+1)
	for i := range c {
		c[i] = p.Coeff(i)
	}
	return c
}

// ErrDivisionByZero is returned when dividing by the zero polynomial or
// evaluating a rational function at a pole.
var ErrDivisionByZero = errors.New("poly: division by zero")

// DivMod returns the quotient and remainder of p by d over the rationals:
// p = q·d + r with deg r < deg d. It fails only when d is zero.
func (p Poly) DivMod(d Poly) (q, r Poly, err error) {
	if d.IsZero() {
		return Poly{}, Poly{}, fmt.Errorf("%w: DivMod by the zero polynomial", ErrDivisionByZero)
	}
	dd := d.Degree()
	if p.Degree() < dd {
		return Poly{}, p, nil
	}
	if len(d.c) == 1 { // a monomial c·α^k: every term of p below α^k is the remainder
		inv := new(big.Rat).Inv(d.c[0])
		var hi, low []*big.Rat
		for i, x := range p.c {
			if p.lo+i >= dd {
				hi = append(hi, x)
			} else {
				low = append(low, x)
			}
		}
		qlo := max(p.lo-dd, 0)
		return mk(qlo, hi).Scale(inv), mk(p.lo, low), nil
	}
	if p.lo > 0 && d.lo <= p.lo {
		// p = α^m·P, d = α^k·D with m ≥ k and D(0) ≠ 0: when D divides P,
		// p/d = α^(m−k)·P/D, found on the short stripped parts.
		if q, r, _ := p.DivX(p.lo).DivMod(d.DivX(d.lo)); r.IsZero() {
			return Poly{lo: q.lo + p.lo - d.lo, c: q.c}, Poly{}, nil
		}
	}
	rem := p.dense()
	dc := d.dense()
	quo := make([]*big.Rat, len(rem)-dd)
	inv := new(big.Rat).Inv(dc[dd])
	t := new(big.Rat)
	for k := len(rem) - 1; k >= dd; k-- {
		if rem[k].Sign() == 0 {
			continue
		}
		f := new(big.Rat).Mul(rem[k], inv)
		quo[k-dd] = f
		for j := 0; j <= dd; j++ {
			if dc[j].Sign() != 0 {
				rem[k-dd+j].Sub(rem[k-dd+j], t.Mul(f, dc[j]))
			}
		}
	}
	return mk(0, quo), mk(0, rem[:dd]), nil
}

// Deriv returns the derivative of p.
func (p Poly) Deriv() Poly {
	if p.Degree() <= 0 {
		return Poly{}
	}
	start := max(p.lo, 1)
	c := make([]*big.Rat, p.Degree()+1-start)
	for i := range c {
		if x := p.at(start + i); x != nil {
			c[i] = new(big.Rat).Mul(x, big.NewRat(int64(start+i), 1))
		}
	}
	return mk(start-1, c)
}

// Eval returns p(r), exactly. The coefficients are brought to a common
// denominator L and the homogenized Horner scheme runs over the integers,
// Σ L·c_i n^i d^(m−i) for r = n/d, so that the only division is the last.
func (p Poly) Eval(r *big.Rat) *big.Rat {
	if p.IsZero() {
		return new(big.Rat)
	}
	if r.Sign() == 0 {
		if p.lo > 0 {
			return new(big.Rat)
		}
		return new(big.Rat).Set(p.c[0])
	}
	l := big.NewInt(1)
	g := new(big.Int)
	for _, x := range p.c {
		if x.Sign() != 0 && !x.IsInt() {
			g.GCD(nil, nil, l, x.Denom())
			l.Mul(l, g.Quo(x.Denom(), g))
		}
	}
	n, d := r.Num(), r.Denom()
	one := d.IsInt64() && d.Int64() == 1
	acc := new(big.Int)
	dp := big.NewInt(1) // d^(m−i)
	t := new(big.Int)
	for i := len(p.c) - 1; i >= 0; i-- {
		if i < len(p.c)-1 {
			acc.Mul(acc, n)
			if !one {
				dp.Mul(dp, d)
			}
		}
		if x := p.c[i]; x.Sign() != 0 {
			t.Quo(l, x.Denom()) // L·c_i = c_i's numerator · (L / c_i's denominator)
			t.Mul(t, x.Num())
			acc.Add(acc, t.Mul(t, dp))
		}
	}
	if p.lo > 0 { // times r^lo = n^lo / d^lo
		k := big.NewInt(int64(p.lo))
		acc.Mul(acc, t.Exp(n, k, nil))
		if !one {
			dp.Mul(dp, t.Exp(d, k, nil))
		}
	}
	return new(big.Rat).SetFrac(acc, dp.Mul(dp, l))
}

// Compose returns p(q), the polynomial p with q substituted for α.
func (p Poly) Compose(q Poly) Poly {
	var acc Poly
	for i := p.Degree(); i >= 0; i-- {
		acc = acc.Mul(q)
		if x := p.at(i); x != nil {
			acc = acc.Add(Const(x))
		}
	}
	return acc
}

// Content returns the positive rational c such that p = c·q with q having
// coprime integer coefficients and the same signs as p (the content over Z);
// 0 for the zero polynomial.
func (p Poly) Content() *big.Rat {
	if p.IsZero() {
		return new(big.Rat)
	}
	num := new(big.Int)
	den := big.NewInt(1)
	for _, x := range p.c {
		num.GCD(nil, nil, num, new(big.Int).Abs(x.Num()))
		g := new(big.Int).GCD(nil, nil, den, x.Denom())
		den.Mul(den, x.Denom())
		den.Quo(den, g)
	}
	return new(big.Rat).SetFrac(num, den)
}

// Primitive returns p divided by its content: the polynomial with coprime
// integer coefficients that is a positive rational multiple of p (so it has
// the same roots and the same sign everywhere).
func (p Poly) Primitive() Poly {
	if p.IsZero() {
		return p
	}
	return p.Scale(new(big.Rat).Inv(p.Content()))
}

// Monic returns p divided by its leading coefficient (zero stays zero).
func (p Poly) Monic() Poly {
	if p.IsZero() {
		return p
	}
	return p.Scale(new(big.Rat).Inv(p.c[len(p.c)-1]))
}

// Bits returns the largest bit size of a coefficient of p, counting the
// numerator's and the denominator's bits.
func (p Poly) Bits() int {
	b := 0
	for _, x := range p.c {
		b = max(b, x.Num().BitLen()+x.Denom().BitLen())
	}
	return b
}

// String formats p in α, as Format("α") does.
func (p Poly) String() string { return p.Format("α") }

// Format writes p with the variable named v, highest degree first, for
// example "3/4·α^2 − α + 1"; the zero polynomial is "0".
func (p Poly) Format(v string) string { return p.format(v, false) }

// format writes p highest degree first, or lowest first when ascending
// ("1 − α" rather than "−α + 1").
func (p Poly) format(v string, ascending bool) string {
	if p.IsZero() {
		return "0"
	}
	var b strings.Builder
	first := true
	for k := 0; k <= p.Degree(); k++ {
		i := p.Degree() - k
		if ascending {
			i = k
		}
		x := p.at(i)
		if x == nil {
			continue
		}
		a := new(big.Rat).Abs(x)
		switch {
		case first && x.Sign() < 0:
			b.WriteString("−")
		case !first && x.Sign() < 0:
			b.WriteString(" − ")
		case !first:
			b.WriteString(" + ")
		}
		first = false
		one := a.Cmp(big.NewRat(1, 1)) == 0
		if i == 0 || !one {
			b.WriteString(a.RatString())
			if i > 0 {
				b.WriteString("·")
			}
		}
		if i >= 1 {
			b.WriteString(v)
		}
		if i >= 2 {
			fmt.Fprintf(&b, "^%d", i)
		}
	}
	return b.String()
}

// Limits bounds the work of the operations that can run long (GCD, square-free
// parts, Sturm sequences, root isolation, rational-function arithmetic,
// regions). A zero field means its default.
type Limits struct {
	// MaxDegree is the largest degree of a polynomial an operation accepts
	// or builds (default DefaultMaxDegree).
	MaxDegree int
	// MaxBits is the largest bit size of a coefficient (numerator bits plus
	// denominator bits) of a polynomial an operation accepts or builds,
	// intermediate remainders included (default DefaultMaxBits).
	MaxBits int
}

// The defaults of Limits.
const (
	DefaultMaxDegree = 1000
	DefaultMaxBits   = 1 << 16
)

func (l Limits) maxDegree() int {
	if l.MaxDegree <= 0 {
		return DefaultMaxDegree
	}
	return l.MaxDegree
}

func (l Limits) maxBits() int {
	if l.MaxBits <= 0 {
		return DefaultMaxBits
	}
	return l.MaxBits
}

// ErrLimit is wrapped by every *LimitError.
var ErrLimit = errors.New("poly: limit exceeded")

// LimitError reports a polynomial beyond Limits: Quantity is "degree" or
// "coefficient bits", Got the size met, Max the limit, Op the operation.
type LimitError struct {
	Op       string
	Quantity string
	Got, Max int
}

// Error names the size met and the limit, in words a person reading a
// report can act on (Op names the operation, and the limit is
// Limits.MaxDegree or Limits.MaxBits, to a program).
func (e *LimitError) Error() string {
	if e.Quantity == "degree" {
		return fmt.Sprintf("the exact arithmetic in the parameter reaches a polynomial of degree %d, beyond the limit of degree %d", e.Got, e.Max)
	}
	return fmt.Sprintf("the exact arithmetic in the parameter reaches a coefficient of %d bits (numerator and denominator), beyond the limit of %d bits", e.Got, e.Max)
}

// Unwrap returns ErrLimit.
func (e *LimitError) Unwrap() error { return ErrLimit }

// Check returns a *LimitError when p exceeds the limits, naming op.
func (l Limits) Check(op string, p Poly) error {
	if d := p.Degree(); d > l.maxDegree() {
		return &LimitError{Op: op, Quantity: "degree", Got: d, Max: l.maxDegree()}
	}
	if b := p.Bits(); b > l.maxBits() {
		return &LimitError{Op: op, Quantity: "coefficient bits", Got: b, Max: l.maxBits()}
	}
	return nil
}

func (l Limits) checkZ(op string, a zpoly) error {
	if d := len(a) - 1; d > l.maxDegree() {
		return &LimitError{Op: op, Quantity: "degree", Got: d, Max: l.maxDegree()}
	}
	b := 0
	for _, x := range a {
		b = max(b, x.BitLen()+1)
	}
	if b > l.maxBits() {
		return &LimitError{Op: op, Quantity: "coefficient bits", Got: b, Max: l.maxBits()}
	}
	return nil
}

func cancelled(ctx context.Context, op string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("poly: %s: %w", op, err)
	}
	return nil
}

// GCD returns the monic greatest common divisor of p and q (zero when both
// are zero). It runs the primitive polynomial remainder sequence over the
// integers: both arguments are made primitive integer polynomials, and every
// pseudo-remainder is divided by its content, so coefficients stay as small
// as the factors allow (Euclid's algorithm over Q lets them explode).
func (l Limits) GCD(ctx context.Context, p, q Poly) (Poly, error) {
	const op = "GCD"
	for _, x := range []Poly{p, q} {
		if err := l.Check(op, x); err != nil {
			return Poly{}, err
		}
	}
	switch {
	case p.IsZero():
		return q.Monic(), nil
	case q.IsZero():
		return p.Monic(), nil
	}
	// gcd(α^a·P, α^b·Q) = α^min(a,b)·gcd(P, Q), as α divides neither P nor Q.
	k := min(p.lo, q.lo)
	g, err := l.gcdZ(ctx, op, toZ(p.DivX(p.lo)), toZ(q.DivX(q.lo)))
	if err != nil {
		return Poly{}, err
	}
	m := fromZ(g).Monic()
	return Poly{lo: m.lo + k, c: m.c}, nil
}

// SquareFree returns the square-free part of p: p divided by gcd(p, p′),
// made primitive (integer coefficients, positive multiple of p/gcd). Its
// roots are the distinct roots of p, each simple. Zero stays zero.
func (l Limits) SquareFree(ctx context.Context, p Poly) (Poly, error) {
	if err := l.Check("SquareFree", p); err != nil {
		return Poly{}, err
	}
	s, err := l.squareFreeZ(ctx, "SquareFree", toZ(p))
	if err != nil {
		return Poly{}, err
	}
	return fromZ(s), nil
}

// ---------------------------------------------------------------------------
// Integer polynomials: the working representation of the long algorithms.

// zpoly is a polynomial with integer coefficients, a[i] of α^i, canonical
// (no trailing zeros; nil is zero).
type zpoly []*big.Int

func trimZ(a zpoly) zpoly {
	n := len(a)
	for n > 0 && a[n-1].Sign() == 0 {
		n--
	}
	if n == 0 {
		return nil
	}
	return a[:n]
}

// toZ returns the primitive integer polynomial that is a positive multiple
// of p.
func toZ(p Poly) zpoly {
	if p.IsZero() {
		return nil
	}
	c := p.Content()
	a := make(zpoly, p.Degree()+1)
	for i := range p.lo {
		a[i] = new(big.Int)
	}
	t := new(big.Rat)
	for i, x := range p.c {
		t.Quo(x, c)
		a[p.lo+i] = new(big.Int).Set(t.Num()) // t is an integer
	}
	return a
}

func fromZ(a zpoly) Poly {
	c := make([]*big.Rat, len(a))
	for i, x := range a {
		c[i] = new(big.Rat).SetInt(x)
	}
	return mk(0, c)
}

// primZ divides a by the gcd of its coefficients (a positive number), in
// place, and returns it.
func primZ(a zpoly) zpoly {
	a = trimZ(a)
	if len(a) == 0 {
		return nil
	}
	g := new(big.Int)
	for _, x := range a {
		g.GCD(nil, nil, g, new(big.Int).Abs(x))
		if g.IsInt64() && g.Int64() == 1 {
			return a
		}
	}
	for _, x := range a {
		x.Quo(x, g)
	}
	return a
}

func cloneZ(a zpoly) zpoly {
	c := make(zpoly, len(a))
	for i, x := range a {
		c[i] = new(big.Int).Set(x)
	}
	return c
}

func derivZ(a zpoly) zpoly {
	if len(a) <= 1 {
		return nil
	}
	d := make(zpoly, len(a)-1)
	for i := range d {
		d[i] = new(big.Int).Mul(a[i+1], big.NewInt(int64(i+1)))
	}
	return trimZ(d)
}

// premZ returns r with lc(b)^k·a = q·b + r, deg r < deg b, and k, the number
// of multiplications by lc(b) made (k ≤ deg a − deg b + 1). a and b are not
// modified.
func premZ(a, b zpoly) (zpoly, int) {
	r := make(zpoly, len(a))
	for i, x := range a {
		r[i] = new(big.Int).Set(x)
	}
	db := len(b) - 1
	lc := b[db]
	unit := lc.IsInt64() && lc.Int64() == 1 // lc·r = r: no products (a monic divisor)
	k := 0
	t := new(big.Int)
	for len(r)-1 >= db {
		dr := len(r) - 1
		f := new(big.Int).Set(r[dr])
		// r = lc·r − f·α^(dr−db)·b
		if !unit {
			for i := range r {
				r[i].Mul(r[i], lc)
			}
		}
		k++
		for j := 0; j <= db; j++ {
			r[dr-db+j].Sub(r[dr-db+j], t.Mul(f, b[j]))
		}
		r = trimZ(r)
	}
	return r, k
}

func (l Limits) gcdZ(ctx context.Context, op string, a, b zpoly) (zpoly, error) {
	if len(a) < len(b) {
		a, b = b, a
	}
	if len(b) == 0 {
		if len(a) == 0 {
			return nil, nil
		}
		return primZ(cloneZ(a)), nil
	}
	for len(b) > 0 {
		if err := cancelled(ctx, op); err != nil {
			return nil, err
		}
		if len(b) == 1 {
			return zpoly{big.NewInt(1)}, nil
		}
		r, _ := premZ(a, b)
		if err := l.checkZ(op, r); err != nil {
			return nil, err
		}
		a, b = b, primZ(r)
	}
	a = primZ(cloneZ(a)) // a may be an argument, and not primitive
	if a[len(a)-1].Sign() < 0 {
		for _, x := range a {
			x.Neg(x)
		}
	}
	return a, nil
}

// exactQuoZ returns a/b when b divides a over Q, as a primitive integer
// polynomial with the sign of a/b.
func exactQuoZ(a, b zpoly) zpoly {
	q, _, _ := fromZ(a).DivMod(fromZ(b))
	return toZ(q)
}

func (l Limits) squareFreeZ(ctx context.Context, op string, a zpoly) (zpoly, error) {
	if len(a) <= 1 {
		return a, nil
	}
	g, err := l.gcdZ(ctx, op, a, derivZ(a))
	if err != nil {
		return nil, err
	}
	if len(g) == 1 {
		return a, nil
	}
	return exactQuoZ(a, g), nil
}

// signAtZ returns the sign of a at r, exactly, without rational arithmetic:
// it evaluates the homogenized form Σ a_i n^i d^(deg−i), which has the sign
// of a(n/d) because d > 0.
func signAtZ(a zpoly, r *big.Rat) int {
	if len(a) == 0 {
		return 0
	}
	n, d := r.Num(), r.Denom()
	acc := new(big.Int).Set(a[len(a)-1])
	dp := big.NewInt(1)
	t := new(big.Int)
	for i := len(a) - 2; i >= 0; i-- {
		acc.Mul(acc, n)
		dp.Mul(dp, d)
		acc.Add(acc, t.Mul(a[i], dp))
	}
	return acc.Sign()
}
