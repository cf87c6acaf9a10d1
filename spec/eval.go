package spec

import (
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/syntax"
)

// Resource limits on what an expression may ask dpcheck to compute.
const (
	// MaxLiteralLength bounds the characters of a number literal.
	MaxLiteralLength = 1000
	// MaxDecimalExponent bounds |e| in a literal like 1e-3.
	MaxDecimalExponent = 1000
	// MaxPowerBits bounds the size in bits (numerator and denominator) of
	// x^k, estimated before it is computed (exact.PowBits), and of every
	// other number an expression computes (a*a*…).
	MaxPowerBits = 1 << 20
)

// powBase writes the base of a power for a message: in parentheses
// unless it is a natural number.
func powBase(x *big.Rat) string {
	if x.IsInt() && x.Sign() >= 0 {
		return exact.Short(x)
	}
	return "(" + exact.Short(x) + ")"
}

// sized returns x as a value, or reports that it is larger than
// MaxPowerBits allows.
func (ev constEval) sized(p int, x *big.Rat) (value, bool) {
	if bits := exact.Bits(x); bits > MaxPowerBits {
		return ev.fail(p, "this result would have %s bits; the limit is %s", exact.Thousands(int64(bits)), exact.Thousands(MaxPowerBits))
	}
	return numVal(x), true
}

type kind int

const (
	kNum kind = iota
	kEps
	kBool
	kString
	kUnknown // "?"
	kReal    // A + B·e^ε, irrational: an expected δ as dpcheck prints it
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
	case kReal:
		return "a number with e^(…)"
	}
	return "a number"
}

// value is the result of a constant expression: a number, an ε with a
// logarithm (or +∞), a condition or a string.
type value struct {
	k    kind
	num  *big.Rat
	eps  exact.Eps
	real exact.Real
	b    bool
	s    string
}

// realVal is the value a + b·e^ε: a number when it is rational.
func realVal(a, b *big.Rat, e exact.Eps) value {
	r := exact.Affine(a, b, e)
	if x, ok := r.Rat(); ok {
		return numVal(x)
	}
	return value{k: kReal, real: r}
}

// asReal returns a number or a kReal value as a + b·e^ε.
func (v value) asReal() exact.Real {
	if v.k == kReal {
		return v.real
	}
	return exact.RatReal(v.num)
}

func numVal(x *big.Rat) value { return value{k: kNum, num: x} }

// parseNumber reads a decimal literal exactly: 0.75 is 3/4, 1e-3 is 1/1000.
func parseNumber(text string) (*big.Rat, error) {
	return syntax.ParseNumber(text, MaxLiteralLength, MaxDecimalExponent)
}

// power returns x^k for an integer k within MaxPowerBits.
func power(x *big.Rat, k *big.Rat) (*big.Rat, error) {
	if !k.IsInt() {
		return nil, fmt.Errorf("the exponent %s is not an integer", k.RatString())
	}
	if !k.Num().IsInt64() || k.Num().CmpAbs(big.NewInt(MaxPowerBits)) > 0 {
		return nil, fmt.Errorf("the exponent %s is too large", k.RatString())
	}
	e := k.Num().Int64()
	if x.Sign() == 0 && e < 0 {
		return nil, fmt.Errorf("division by zero: 0^%d", e)
	}
	// PowBits is at most 2 bits above the power's size: one that may be
	// within the limit is computed, and its size is then exact.
	if bits := exact.PowBits(x, e); bits > MaxPowerBits+2 {
		return nil, fmt.Errorf("%s^%d would have about %s bits; the limit is %s", powBase(x), e, exact.Thousands(bits), exact.Thousands(MaxPowerBits))
	}
	y := exact.Pow(x, e)
	if bits := exact.Bits(y); bits > MaxPowerBits {
		return nil, fmt.Errorf("%s^%d would have %s bits; the limit is %s", powBase(x), e, exact.Thousands(int64(bits)), exact.Thousands(MaxPowerBits))
	}
	return y, nil
}

// constEval evaluates expressions that do not depend on a state: builder
// arguments, probabilities, constants, ε and δ.
type constEval struct {
	c *checker
}

func (ev constEval) expr(e *Expr) (value, bool) {
	if e.Op == EQuant {
		u, ok := ev.c.unfold(e)
		if !ok {
			return value{}, false
		}
		return ev.expr(u)
	}
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
				return ev.fail(e.Pos(), "expected a condition on both sides of %s, found %s", map[bool]string{true: "&", false: "|"}[and], v.k)
			}
			if and {
				res = res && v.b
			} else {
				res = res || v.b
			}
		}
		return value{k: kBool, b: res}, true
	case EUntil:
		ev.c.errTemporalHere(int(e.OpOff), "U")
		return value{}, false
	case ETemporal:
		ev.c.errTemporalHere(e.Pos(), e.Text)
		return value{}, false
	case ENot:
		v, ok := ev.expr(e.Args[0])
		if !ok {
			return v, false
		}
		if v.k != kBool {
			return ev.fail(e.Pos(), "! needs a condition, found %s", v.k)
		}
		return value{k: kBool, b: !v.b}, true
	case ECmp:
		l, r, ok := ev.operands(e)
		if !ok {
			return value{}, false
		}
		if l.k != kNum || r.k != kNum {
			return ev.fail(e.Pos(), "%s compares numbers, found %s and %s", e.Text, l.k, r.k)
		}
		return value{k: kBool, b: exact.CmpHolds(e.Text, l.num.Cmp(r.num))}, true
	case ESum, EProd:
		acc, ok := ev.expr(e.Args[0])
		for _, a := range e.Args[1:] {
			if !ok {
				return value{}, false
			}
			var r value
			if r, ok = ev.expr(a); !ok {
				return value{}, false
			}
			switch {
			case e.Op == EProd && a.Minus:
				acc, ok = ev.div(e.Pos(), opBefore(a), acc, r)
			case e.Op == EProd:
				acc, ok = ev.mul(e.Pos(), opBefore(a), acc, r)
			case a.Minus:
				if r, ok = ev.neg(opBefore(a), r); !ok {
					return value{}, false
				}
				fallthrough
			default:
				acc, ok = ev.add(e.Pos(), opBefore(a), acc, r)
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
		if b := e.Args[0].unparen(); b.Op == EName && b.Text == "e" && !b.Primed && ev.c.consts["e"] == nil {
			return ev.exp(e)
		}
		base, exp, ok := ev.operands(e)
		if !ok {
			return value{}, false
		}
		if base.k != kNum || exp.k != kNum {
			return ev.fail(e.Pos(), "^ needs numbers, found %s and %s", base.k, exp.k)
		}
		x, err := power(base.num, exp.num)
		if err != nil {
			return ev.fail(e.Pos(), "%v", err)
		}
		return numVal(x), true
	case ENum:
		x, err := parseNumber(e.Text)
		if err != nil {
			return ev.fail(e.Pos(), "%v", err)
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
			return ev.fail(e.Pos(), "|…| needs a number, found %s", v.k)
		}
		return numVal(new(big.Rat).Abs(v.num)), true
	case ECall:
		return ev.call(e)
	case EUnknown:
		return value{k: kUnknown}, true
	case EName:
		if e.Primed {
			ev.c.errPrimed(e)
			return value{}, false
		}
		switch e.Text {
		case "inf":
			return value{k: kEps, eps: exact.Inf()}, true
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
	case EIndex:
		ev.c.errorf(e.Pos(), "%s reads an array of variables: it cannot appear in a constant", exprText(e))
	case EIte:
		cond, ok := ev.expr(e.Args[0])
		if !ok {
			return value{}, false
		}
		if cond.k != kBool {
			return ev.fail(e.Args[0].Pos(), "the condition of ? : must be a condition, found %s", cond.k)
		}
		if cond.b {
			return ev.expr(e.Args[1])
		}
		return ev.expr(e.Args[2])
	case EImplies:
		l, r, ok := ev.operands(e)
		if !ok {
			return value{}, false
		}
		if l.k != kBool || r.k != kBool {
			return ev.fail(e.Pos(), "=> needs conditions on both sides, found %s and %s", l.k, r.k)
		}
		return value{k: kBool, b: !l.b || r.b}, true
	default:
		ev.c.errorf(e.Pos(), "this expression cannot be evaluated here")
	}
	return value{}, false
}

// opBefore returns the offset of the operator written before an operand
// of a sum or product (errors about the operation point at it).
func opBefore(a *Expr) int { return int(a.OpOff) }

// epsResult returns an ε computed by exact's arithmetic, or reports at p
// why it cannot be kept exact.
func (ev constEval) epsResult(p int, e exact.Eps, err error) (value, bool) {
	if err != nil {
		ev.c.epsError(p, err)
		return value{}, false
	}
	return value{k: kEps, eps: e}, true
}

// exp evaluates e^(X), Euler's number to the power of an ε X (a number or
// k*ln(r)), where no constant is named e: the form in which dpcheck prints
// a tight δ at an ε whose e^ε is irrational (1/2 - 1/4·e^(1/10)).
func (ev constEval) exp(e *Expr) (value, bool) {
	x, ok := ev.expr(e.Args[1])
	if !ok {
		return value{}, false
	}
	var eps exact.Eps
	var err error
	switch {
	case x.k == kNum:
		eps, err = exact.Rational(x.num)
	case x.k == kEps && !x.eps.IsInf():
		eps = x.eps
	default:
		return ev.fail(e.Pos(), "e^(…) needs a finite ε (a number or k*ln(r)), found %s", x.k)
	}
	if err != nil {
		ev.c.epsError(e.Pos(), err)
		return value{}, false
	}
	return realVal(new(big.Rat), big.NewRat(1, 1), eps), true
}

func (ev constEval) neg(p int, v value) (value, bool) {
	switch v.k {
	case kReal:
		return realVal(new(big.Rat).Neg(v.real.A), new(big.Rat).Neg(v.real.B), v.real.E), true
	case kNum:
		return numVal(new(big.Rat).Neg(v.num)), true
	case kEps:
		if v.eps.IsInf() {
			return ev.fail(p, "-inf is not a valid ε")
		}
		e, err := v.eps.Neg()
		return ev.epsResult(p, e, err)
	}
	return ev.fail(p, "cannot negate %s", v.k)
}

// add adds two values; start is where the sum begins (where errors about ε
// point) and op where its operator is.
func (ev constEval) add(start, op int, a, b value) (value, bool) {
	switch {
	case a.k == kNum && b.k == kNum:
		return ev.sized(op, new(big.Rat).Add(a.num, b.num))
	case a.k == kNum && b.k == kEps:
		a, b = b, a
		fallthrough
	case a.k == kEps && b.k == kNum:
		e, err := a.eps.AddRat(b.num)
		return ev.epsResult(start, e, err)
	case a.k == kEps && b.k == kEps:
		e, err := a.eps.Add(b.eps)
		return ev.epsResult(start, e, err)
	case (a.k == kReal || a.k == kNum) && (b.k == kReal || b.k == kNum):
		x, y := a.asReal(), b.asReal()
		if a.k == kReal && b.k == kReal && !x.E.Equal(y.E) {
			return ev.fail(op, "cannot add multiples of e^(%s) and e^(%s) exactly", x.E, y.E)
		}
		e := x.E
		if a.k != kReal {
			e = y.E
		}
		return realVal(new(big.Rat).Add(x.A, y.A), new(big.Rat).Add(x.B, y.B), e), true
	}
	return ev.fail(op, "+ and - need numbers, found %s and %s", a.k, b.k)
}

func (ev constEval) mul(start, op int, a, b value) (value, bool) {
	switch {
	case a.k == kNum && b.k == kNum:
		return ev.sized(op, new(big.Rat).Mul(a.num, b.num))
	case a.k == kEps && b.k == kNum:
		a, b = b, a
		fallthrough
	case a.k == kNum && b.k == kEps:
		if b.eps.IsInf() && a.num.Sign() <= 0 {
			return ev.fail(op, "%s*inf is not a valid ε", a.num.RatString())
		}
		e, err := b.eps.MulRat(a.num)
		return ev.epsResult(start, e, err)
	case a.k == kReal && b.k == kNum:
		a, b = b, a
		fallthrough
	case a.k == kNum && b.k == kReal:
		return realVal(new(big.Rat).Mul(a.num, b.real.A), new(big.Rat).Mul(a.num, b.real.B), b.real.E), true
	}
	return ev.fail(op, "* needs numbers (or a number and ln), found %s and %s", a.k, b.k)
}

func (ev constEval) div(start, op int, a, b value) (value, bool) {
	if a.k == kReal && b.k == kNum && b.num.Sign() != 0 {
		inv := new(big.Rat).Inv(b.num)
		return realVal(new(big.Rat).Mul(a.real.A, inv), new(big.Rat).Mul(a.real.B, inv), a.real.E), true
	}
	if b.k != kNum || (a.k != kNum && a.k != kEps) {
		return ev.fail(op, "/ needs a number or ln on the left and a number on the right, found %s and %s", a.k, b.k)
	}
	if b.num.Sign() == 0 {
		return ev.fail(op, "division by zero")
	}
	if a.k == kNum {
		return ev.sized(op, new(big.Rat).Quo(a.num, b.num))
	}
	e, err := a.eps.MulRat(new(big.Rat).Inv(b.num))
	return ev.epsResult(start, e, err)
}

func (ev constEval) call(c *Expr) (value, bool) {
	switch c.Text {
	case "ln", "abs":
		if len(c.Args) != 1 || c.Args[0].Op == EArg {
			return ev.fail(c.Pos(), "%s takes one argument", c.Text)
		}
		v, ok := ev.expr(c.Args[0])
		if !ok {
			return v, false
		}
		if v.k != kNum {
			return ev.fail(c.Args[0].Pos(), "%s needs a number, found %s", c.Text, v.k)
		}
		if c.Text == "abs" {
			return numVal(new(big.Rat).Abs(v.num)), true
		}
		if v.num.Sign() <= 0 {
			return ev.fail(c.Args[0].Pos(), "ln needs a positive argument, found %s", v.num.RatString())
		}
		e, err := exact.Ln(v.num)
		return ev.epsResult(c.Pos(), e, err)
	case "max", "min": // of numbers (a fold's terms, written out)
		if len(c.Args) == 0 {
			return ev.fail(c.Pos(), "%s takes at least one argument", c.Text)
		}
		var best *big.Rat
		for _, a := range c.Args {
			if a.Op == EArg {
				return ev.fail(a.Pos(), "%s takes numbers, not named arguments", c.Text)
			}
			v, ok := ev.expr(a)
			if !ok {
				return v, false
			}
			if v.k != kNum {
				return ev.fail(a.Pos(), "%s needs numbers, found %s", c.Text, v.k)
			}
			if d := v.num.Cmp(orZero(best)); best == nil || (c.Text == "max") == (d > 0) && d != 0 {
				best = v.num
			}
		}
		return numVal(best), true
	}
	if ev.c.isDistance(c) {
		return ev.fail(c.Pos(), "%s compares two states: it is written in a neighbour predicate, as in neighbours %s(a) <= 1", c.Text, c.Text)
	}
	return ev.fail(c.Pos(), "unknown function %s", c.Text)
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
func (c *checker) eps(e *Expr, allowInf bool) (exact.Eps, bool) {
	v, ok := constEval{c}.expr(e)
	if !ok {
		return exact.Eps{}, false
	}
	res := v.eps
	switch {
	case v.k == kNum:
		var err error
		if res, err = exact.Rational(v.num); err != nil {
			c.epsError(e.Pos(), err)
			return exact.Eps{}, false
		}
	case v.k == kEps && v.eps.IsInf():
		if !allowInf {
			c.errorf(e.Pos(), "ε must be finite")
			return exact.Eps{}, false
		}
		return res, true
	case v.k != kEps:
		c.errorf(e.Pos(), "ε must be a number or k*ln(r), found %s", v.k)
		return exact.Eps{}, false
	}
	if res.Sign() < 0 {
		c.errorf(e.Pos(), "ε = %s is negative", res)
		return exact.Eps{}, false
	}
	return res, true
}

// expectedDelta evaluates e as the δ a query at ε expects: a rational in
// [0, 1], or an irrational A + B·e^(ε) written with the query's own ε, as
// dpcheck prints a tight δ (real is then set).
func (c *checker) expectedDelta(e *Expr, eps exact.Eps) (rat *big.Rat, real *exact.Real, ok bool) {
	v, ok := constEval{c}.expr(e)
	if !ok {
		return nil, nil, false
	}
	switch v.k {
	case kNum:
		if v.num.Sign() < 0 || v.num.Cmp(big.NewRat(1, 1)) > 0 {
			c.errorf(e.Pos(), "δ = %s is outside [0, 1]", v.num.RatString())
			return nil, nil, false
		}
		return v.num, nil, true
	case kReal:
		if !v.real.E.Equal(eps) {
			c.errorf(e.Pos(), "an expected δ may use e^(…) only of the query's ε = %s, found e^(%s)", eps, v.real.E)
			return nil, nil, false
		}
		lo, err1 := v.real.Sign()
		hi, err2 := v.real.Sub(exact.RatReal(big.NewRat(1, 1))).Sign()
		if err1 != nil || err2 != nil || lo < 0 || hi > 0 {
			c.errorf(e.Pos(), "δ = %s is outside [0, 1]", v.real)
			return nil, nil, false
		}
		return nil, &v.real, true
	}
	c.errorf(e.Pos(), "δ must be a number, found %s", v.k)
	return nil, nil, false
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

// operands evaluates the two operands of e.
func (ev constEval) operands(e *Expr) (l, r value, ok bool) {
	if l, ok = ev.expr(e.Args[0]); ok {
		r, ok = ev.expr(e.Args[1])
	}
	return l, r, ok
}

// fail reports an error at off and returns no value.
func (ev constEval) fail(off int, format string, args ...any) (value, bool) {
	ev.c.errorf(off, format, args...)
	return value{}, false
}

// orZero is x, or 0 for nil.
func orZero(x *big.Rat) *big.Rat {
	if x == nil {
		return new(big.Rat)
	}
	return x
}
