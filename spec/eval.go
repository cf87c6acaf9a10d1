package spec

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/dpcheck/dpcheck/verify"
)

// Resource limits on what an expression may ask dpcheck to compute.
const (
	// MaxLiteralLength bounds the characters of a number literal.
	MaxLiteralLength = 1000
	// MaxDecimalExponent bounds |e| in a literal like 1e-3.
	MaxDecimalExponent = 1000
	// MaxPowerBits bounds the size of x^k: about bits(x)·|k| bits, and of
	// every other number an expression computes (a*a*…).
	MaxPowerBits = 1 << 20
)

// shortRat writes x, or only its size when it is long (for messages).
func shortRat(x *big.Rat) string {
	s := x.RatString()
	if len(s) <= 40 {
		return s
	}
	return fmt.Sprintf("(a number of %d digits)", len(s))
}

// sized returns x as a value, or reports that it is larger than
// MaxPowerBits allows.
func (ev constEval) sized(p int, x *big.Rat) (value, bool) {
	if bits := ratBits(x); bits > MaxPowerBits {
		ev.c.errorf(p, "this result would have about %d bits; the limit is %d", bits, MaxPowerBits)
		return value{}, false
	}
	return numVal(x), true
}

// sizedEps checks the parts of an ε value like sized.
func (ev constEval) sizedEps(p int, v value) (value, bool) {
	for _, x := range []*big.Rat{v.lk, v.lr, v.lq} {
		if bits := ratBits(x); bits > MaxPowerBits {
			ev.c.errorf(p, "this ε would need a number of about %d bits; the limit is %d", bits, MaxPowerBits)
			return value{}, false
		}
	}
	return v, true
}

// ratBits is the size of x in bits (0 for nil).
func ratBits(x *big.Rat) int {
	if x == nil {
		return 0
	}
	return x.Num().BitLen() + x.Denom().BitLen()
}

type kind int

const (
	kNum kind = iota
	kEps
	kBool
	kString
	kUnknown // "?"
)

func (k kind) String() string {
	switch k {
	case kEps:
		return "an ε with ln"
	case kBool:
		return "a condition"
	case kString:
		return "a string"
	case kUnknown:
		return "?"
	}
	return "a number"
}

// value is the result of a constant expression. An ε with a logarithm is
// k·ln(r) + q (lk, lr, lq; lq may be nil), or +∞ (inf).
type value struct {
	k          kind
	num        *big.Rat
	lk, lr, lq *big.Rat
	inf        bool
	b          bool
	s          string
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

func numVal(x *big.Rat) value { return value{k: kNum, num: x} }

// parseNumber reads a decimal literal exactly: 0.75 is 3/4, 1e-3 is 1/1000.
func parseNumber(text string) (*big.Rat, error) {
	if len(text) > MaxLiteralLength {
		return nil, fmt.Errorf("number literal has %d characters; the limit is %d", len(text), MaxLiteralLength)
	}
	if i := strings.IndexAny(text, "eE"); i >= 0 {
		var e int64
		if _, err := fmt.Sscan(strings.TrimPrefix(text[i+1:], "+"), &e); err != nil || e > MaxDecimalExponent || e < -MaxDecimalExponent {
			return nil, fmt.Errorf("the exponent of %s is outside ±%d", text, MaxDecimalExponent)
		}
	}
	if len(text) <= 18 && isDigits(text) { // the common case, without SetString's cost
		n, _ := strconv.ParseInt(text, 10, 64)
		return new(big.Rat).SetInt64(n), nil
	}
	x, ok := new(big.Rat).SetString(text)
	if !ok {
		return nil, fmt.Errorf("malformed number %s", text)
	}
	return x, nil
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// power returns x^k for an integer k within MaxPowerBits.
func power(x *big.Rat, k *big.Rat) (*big.Rat, error) {
	if !k.IsInt() {
		return nil, fmt.Errorf("the exponent %s is not an integer", k.RatString())
	}
	if !k.Num().IsInt64() || abs64(k.Num().Int64()) > MaxPowerBits {
		return nil, fmt.Errorf("the exponent %s is too large", k.RatString())
	}
	e := k.Num().Int64()
	bits := int64(max(x.Num().BitLen(), x.Denom().BitLen()))
	if bits*abs64(e) > MaxPowerBits {
		return nil, fmt.Errorf("%s^%d would have about %d bits; the limit is %d", shortRat(x), e, bits*abs64(e), MaxPowerBits)
	}
	if x.Sign() == 0 && e < 0 {
		return nil, fmt.Errorf("division by zero: 0^%d", e)
	}
	neg := e < 0
	if neg {
		e = -e
	}
	num := new(big.Int).Exp(x.Num(), big.NewInt(e), nil)
	den := new(big.Int).Exp(x.Denom(), big.NewInt(e), nil)
	if neg {
		num, den = den, num
	}
	if den.Sign() < 0 {
		num.Neg(num)
		den.Neg(den)
	}
	return new(big.Rat).SetFrac(num, den), nil
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// constEval evaluates expressions that do not depend on a state: builder
// arguments, probabilities, constants, ε and δ.
type constEval struct {
	c *checker
}

func (ev constEval) expr(e *Expr) (value, bool) {
	switch e.Op {
	case EOr, EAnd:
		and := e.Op == EAnd
		res := and
		for _, a := range e.Args {
			v, ok := ev.expr(a)
			if !ok {
				return value{}, false
			}
			if v.k != kBool {
				ev.c.errorf(e.Pos(), "expected a condition on both sides of %s, found %s", map[bool]string{true: "&", false: "|"}[and], v.k)
				return value{}, false
			}
			if and {
				res = res && v.b
			} else {
				res = res || v.b
			}
		}
		return value{k: kBool, b: res}, true
	case EUntil:
		ev.c.errorf(int(e.OpOff), "a temporal formula (U) cannot appear here")
		return value{}, false
	case ETemporal:
		ev.c.errorf(e.Pos(), "a temporal formula (%s) cannot appear here", e.Text)
		return value{}, false
	case ENot:
		v, ok := ev.expr(e.Args[0])
		if !ok {
			return v, false
		}
		if v.k != kBool {
			ev.c.errorf(e.Pos(), "! needs a condition, found %s", v.k)
			return value{}, false
		}
		return value{k: kBool, b: !v.b}, true
	case ECmp:
		l, ok := ev.expr(e.Args[0])
		if !ok {
			return value{}, false
		}
		r, ok := ev.expr(e.Args[1])
		if !ok {
			return value{}, false
		}
		if l.k != kNum || r.k != kNum {
			ev.c.errorf(e.Pos(), "%s compares numbers, found %s and %s", e.Text, l.k, r.k)
			return value{}, false
		}
		return value{k: kBool, b: verify.CmpHolds(e.Text, l.num.Cmp(r.num))}, true
	case ESum:
		acc, ok := ev.expr(e.Args[0])
		for _, a := range e.Args[1:] {
			if !ok {
				return value{}, false
			}
			var r value
			if r, ok = ev.expr(a); !ok {
				return value{}, false
			}
			if a.Minus {
				if r, ok = ev.neg(opBefore(a), r); !ok {
					return value{}, false
				}
			}
			acc, ok = ev.add(opBefore(a), acc, r)
		}
		return acc, ok
	case EProd:
		acc, ok := ev.expr(e.Args[0])
		for _, a := range e.Args[1:] {
			if !ok {
				return value{}, false
			}
			var r value
			if r, ok = ev.expr(a); !ok {
				return value{}, false
			}
			if a.Minus {
				acc, ok = ev.div(opBefore(a), acc, r)
			} else {
				acc, ok = ev.mul(opBefore(a), acc, r)
			}
		}
		return acc, ok
	case ENeg:
		v, ok := ev.expr(e.Args[0])
		if !ok {
			return v, false
		}
		return ev.neg(e.Pos(), v)
	case EPow:
		base, ok := ev.expr(e.Args[0])
		if !ok {
			return value{}, false
		}
		exp, ok := ev.expr(e.Args[1])
		if !ok {
			return value{}, false
		}
		if base.k != kNum || exp.k != kNum {
			ev.c.errorf(e.Pos(), "^ needs numbers, found %s and %s", base.k, exp.k)
			return value{}, false
		}
		x, err := power(base.num, exp.num)
		if err != nil {
			ev.c.errorf(e.Pos(), "%v", err)
			return value{}, false
		}
		return numVal(x), true
	case ENum:
		x, err := parseNumber(e.Text)
		if err != nil {
			ev.c.errorf(e.Pos(), "%v", err)
			return value{}, false
		}
		return numVal(x), true
	case EParen:
		return ev.expr(e.Args[0])
	case EAbs:
		v, ok := ev.expr(e.Args[0])
		if !ok {
			return v, false
		}
		if v.k != kNum {
			ev.c.errorf(e.Pos(), "|…| needs a number, found %s", v.k)
			return value{}, false
		}
		return numVal(new(big.Rat).Abs(v.num)), true
	case ECall:
		return ev.call(e)
	case EUnknown:
		return value{k: kUnknown}, true
	case EName:
		if e.Primed {
			ev.c.errorf(e.Pos(), "%s' (a primed name) only makes sense in a neighbour predicate", e.Text)
			return value{}, false
		}
		switch e.Text {
		case "inf":
			return value{k: kEps, inf: true}, true
		case "true", "false":
			return value{k: kBool, b: e.Text == "true"}, true
		}
		return ev.c.constant(e.Pos(), e.Text)
	case EProb:
		ev.c.errorf(e.Pos(), "a probability operator P cannot appear here")
	case EDP:
		ev.c.errorf(e.Pos(), "a D{ε,δ} operator cannot appear here")
	case EStr:
		return value{k: kString, s: e.Text}, true
	case EArg:
		ev.c.errorf(e.Pos(), "a named argument (%s = …) cannot appear here", e.Text)
	}
	return value{}, false
}

// opBefore returns the offset of the operator written before an operand
// of a sum or product (errors about the operation point at it).
func opBefore(a *Expr) int { return int(a.OpOff) }

func (ev constEval) neg(p int, v value) (value, bool) {
	switch v.k {
	case kNum:
		return numVal(new(big.Rat).Neg(v.num)), true
	case kEps:
		if v.inf {
			ev.c.errorf(p, "-inf is not a valid ε")
			return value{}, false
		}
		return value{k: kEps, lk: new(big.Rat).Neg(v.lk), lr: v.lr, lq: mulOpt(v.lq, big.NewRat(-1, 1))}, true
	}
	ev.c.errorf(p, "cannot negate %s", v.k)
	return value{}, false
}
func (ev constEval) add(p int, a, b value) (value, bool) {
	switch {
	case a.k == kNum && b.k == kNum:
		return ev.sized(p, new(big.Rat).Add(a.num, b.num))
	case a.k == kNum && b.k == kEps:
		a, b = b, a
		fallthrough
	case a.k == kEps && b.k == kNum:
		// k·ln(r) + q: the rational part of ε.
		if a.inf {
			return a, true
		}
		return ev.sizedEps(p, value{k: kEps, lk: a.lk, lr: a.lr, lq: addOpt(a.lq, b.num)})
	case a.k == kEps && b.k == kEps:
		if a.inf || b.inf {
			return value{k: kEps, inf: true}, true
		}
		q := addOpt(a.lq, b.lq)
		if a.lr.Cmp(b.lr) == 0 {
			return ev.sizedEps(p, value{k: kEps, lk: new(big.Rat).Add(a.lk, b.lk), lr: a.lr, lq: q})
		}
		if a.lk.IsInt() && b.lk.IsInt() {
			// k1·ln(r1) + k2·ln(r2) = ln(r1^k1 · r2^k2)
			x, err1 := power(a.lr, a.lk)
			y, err2 := power(b.lr, b.lk)
			if err1 == nil && err2 == nil {
				return ev.sizedEps(p, value{k: kEps, lk: big.NewRat(1, 1), lr: x.Mul(x, y), lq: q})
			}
		}
		ev.c.errorf(p, "cannot add these logarithms exactly (use integer coefficients or equal arguments)")
		return value{}, false
	}
	ev.c.errorf(p, "+ and - need numbers, found %s and %s", a.k, b.k)
	return value{}, false
}

func (ev constEval) mul(p int, a, b value) (value, bool) {
	switch {
	case a.k == kNum && b.k == kNum:
		return ev.sized(p, new(big.Rat).Mul(a.num, b.num))
	case a.k == kEps && b.k == kNum:
		a, b = b, a
		fallthrough
	case a.k == kNum && b.k == kEps:
		if b.inf {
			if a.num.Sign() <= 0 {
				ev.c.errorf(p, "%s*inf is not a valid ε", a.num.RatString())
				return value{}, false
			}
			return b, true
		}
		return ev.sizedEps(p, value{k: kEps, lk: new(big.Rat).Mul(a.num, b.lk), lr: b.lr, lq: mulOpt(b.lq, a.num)})
	}
	ev.c.errorf(p, "* needs numbers (or a number and ln), found %s and %s", a.k, b.k)
	return value{}, false
}

func (ev constEval) div(p int, a, b value) (value, bool) {
	if b.k != kNum || (a.k != kNum && a.k != kEps) {
		ev.c.errorf(p, "/ needs a number or ln on the left and a number on the right, found %s and %s", a.k, b.k)
		return value{}, false
	}
	if b.num.Sign() == 0 {
		ev.c.errorf(p, "division by zero")
		return value{}, false
	}
	if a.k == kNum {
		return ev.sized(p, new(big.Rat).Quo(a.num, b.num))
	}
	if a.inf {
		return a, true
	}
	inv := new(big.Rat).Inv(b.num)
	return ev.sizedEps(p, value{k: kEps, lk: new(big.Rat).Mul(a.lk, inv), lr: a.lr, lq: mulOpt(a.lq, inv)})
}

func (ev constEval) call(c *Expr) (value, bool) {
	switch c.Text {
	case "ln", "abs":
		if len(c.Args) != 1 || c.Args[0].Op == EArg {
			ev.c.errorf(c.Pos(), "%s takes one argument", c.Text)
			return value{}, false
		}
		v, ok := ev.expr(c.Args[0])
		if !ok {
			return v, false
		}
		if v.k != kNum {
			ev.c.errorf(c.Args[0].Pos(), "%s needs a number, found %s", c.Text, v.k)
			return value{}, false
		}
		if c.Text == "abs" {
			return numVal(new(big.Rat).Abs(v.num)), true
		}
		if v.num.Sign() <= 0 {
			ev.c.errorf(c.Args[0].Pos(), "ln needs a positive argument, found %s", v.num.RatString())
			return value{}, false
		}
		return value{k: kEps, lk: big.NewRat(1, 1), lr: v.num}, true
	}
	ev.c.errorf(c.Pos(), "unknown function %s", c.Text)
	return value{}, false
}

// num evaluates e as a number.
func (c *checker) num(e *Expr, what string) (*big.Rat, bool) {
	v, ok := constEval{c}.expr(e)
	if !ok {
		return nil, false
	}
	if v.k != kNum {
		c.errorf(e.Pos(), "%s must be a number, found %s", what, v.k)
		return nil, false
	}
	return v.num, true
}

// integer evaluates e as an integer in [lo, hi].
func (c *checker) integer(e *Expr, what string, lo, hi int64) (int64, bool) {
	x, ok := c.num(e, what)
	if !ok {
		return 0, false
	}
	if !x.IsInt() {
		c.errorf(e.Pos(), "%s must be an integer, found %s", what, x.RatString())
		return 0, false
	}
	if !x.Num().IsInt64() || x.Num().Int64() < lo || x.Num().Int64() > hi {
		c.errorf(e.Pos(), "%s must be between %d and %d, found %s", what, lo, hi, x.RatString())
		return 0, false
	}
	return x.Num().Int64(), true
}

// eps evaluates e as a privacy parameter ε ≥ 0: k*ln(r), a rational, or inf
// when allowInf.
func (c *checker) eps(e *Expr, allowInf bool) (verify.Eps, bool) {
	v, ok := constEval{c}.expr(e)
	if !ok {
		return verify.Eps{}, false
	}
	var (
		res verify.Eps
		err error
	)
	switch {
	case v.k == kNum:
		res, err = verify.Rational(v.num)
	case v.k == kEps && v.inf:
		if !allowInf {
			c.errorf(e.Pos(), "ε must be finite")
			return verify.Eps{}, false
		}
		return verify.Inf(), true
	case v.k == kEps:
		res, err = verify.LnPlus(v.lk, v.lr, v.lq)
	default:
		c.errorf(e.Pos(), "ε must be a number or k*ln(r), found %s", v.k)
		return verify.Eps{}, false
	}
	if err != nil {
		c.errorf(e.Pos(), "%s", strings.TrimPrefix(err.Error(), verify.ErrEps.Error()+": "))
		return verify.Eps{}, false
	}
	if res.Sign() < 0 {
		c.errorf(e.Pos(), "ε = %s is negative", res)
		return verify.Eps{}, false
	}
	return res, true
}

// delta evaluates e as δ in [0, 1].
func (c *checker) delta(e *Expr) (*big.Rat, bool) {
	x, ok := c.num(e, "δ")
	if !ok {
		return nil, false
	}
	if x.Sign() < 0 || x.Cmp(big.NewRat(1, 1)) > 0 {
		c.errorf(e.Pos(), "δ = %s is outside [0, 1]", x.RatString())
		return nil, false
	}
	return x, true
}
