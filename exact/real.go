package exact

import (
	"fmt"
	"math"
	"math/big"
)

// Real is an exact real number A + B·e^ε. Results that involve c = e^ε, such
// as the tight δ at a rational ε (δ = A - B·e^ε), stay exact this way. When
// c is rational the value is folded into A and B is zero.
type Real struct {
	A, B *big.Rat // read-only
	E    Eps
}

// RatReal returns the rational x as a Real.
func RatReal(x *big.Rat) Real { return Real{A: x, B: new(big.Rat)} }

// Affine returns a + b·e^ε, folded to a rational when c is rational.
func Affine(a, b *big.Rat, e Eps) Real {
	if c, ok := e.C(); ok || b.Sign() == 0 {
		if ok {
			a = new(big.Rat).Add(a, new(big.Rat).Mul(b, c))
		}
		return Real{A: a, B: new(big.Rat)}
	}
	return Real{A: a, B: b, E: e}
}

// Rat returns the value as a rational when it is one.
func (r Real) Rat() (*big.Rat, bool) {
	if r.B == nil || r.B.Sign() == 0 {
		return r.A, true
	}
	return nil, false
}

// Sign returns the sign of the value, exactly.
func (r Real) Sign() (int, error) {
	if x, ok := r.Rat(); ok {
		return x.Sign(), nil
	}
	// A + B·c ? 0  <=>  c ? -A/B, flipped when B < 0.
	x := new(big.Rat).Quo(r.A, r.B)
	x.Neg(x)
	s, err := r.E.CmpC(x) // sign(x - c)
	if err != nil {
		return 0, err
	}
	if r.B.Sign() > 0 {
		return -s, nil
	}
	return s, nil
}

// Sub returns r - s; both must use the same ε (or be rational).
func (r Real) Sub(s Real) Real {
	e := r.E
	if s.B != nil && s.B.Sign() != 0 {
		e = s.E
	}
	return Affine(new(big.Rat).Sub(r.A, s.A), new(big.Rat).Sub(orZero(r.B), orZero(s.B)), e)
}

// Cmp compares r and s, which must use the same ε (or be rational).
func (r Real) Cmp(s Real) (int, error) { return r.Sub(s).Sign() }

func orZero(x *big.Rat) *big.Rat {
	if x == nil {
		return new(big.Rat)
	}
	return x
}

// String formats the value exactly, in a form the .dp language reads back
// as an expected δ: "1/4", "1/2 - 1/4·e^(1/10)", "3/4 - 1/4·e^(1/2·ln(3))".
func (r Real) String() string {
	if x, ok := r.Rat(); ok {
		return x.RatString()
	}
	c := "e^(" + r.E.String() + ")"
	b := new(big.Rat).Abs(r.B)
	term := c
	if !isOne(b) {
		term = b.RatString() + "·" + c
	}
	switch {
	case r.A.Sign() == 0 && r.B.Sign() < 0:
		return "-" + term
	case r.A.Sign() == 0:
		return term
	case r.B.Sign() < 0:
		return r.A.RatString() + " - " + term
	}
	return r.A.RatString() + " + " + term
}

// Float returns a float64 approximation, for plots and for heuristics
// that only order work (never for a verdict or a printed value); Decimal
// prints the value correctly rounded.
func (r Real) Float() float64 {
	if x, ok := r.Rat(); ok {
		return RatFloat(x)
	}
	return RatFloat(r.A) + RatFloat(r.B)*math.Exp(r.E.Float()) // display only
}

// GoString helps test failure messages.
func (r Real) GoString() string { return fmt.Sprintf("Real(%s)", r) }
