package poly

import (
	"context"
	"fmt"
	"math/big"
	"strings"
)

// RatFunc is a rational function P/Q of the parameter with rational
// coefficients, kept in canonical form: gcd(P, Q) = 1 and Q monic (leading
// coefficient 1); zero is 0/1. So two rational functions are equal as
// functions exactly when their canonical forms are equal, and Equal compares
// those. Values are immutable. The zero value is the zero function 0/1.
type RatFunc struct {
	num, den Poly
}

// FromPoly returns the rational function p/1.
func FromPoly(p Poly) RatFunc { return RatFunc{num: p, den: FromInts(1)} }

// Num returns the numerator P of the canonical form.
func (f RatFunc) Num() Poly { return f.num }

// Den returns the denominator Q of the canonical form (monic).
func (f RatFunc) Den() Poly {
	if f.den.IsZero() { // 1, held as the zero value
		return FromInts(1)
	}
	return f.den
}

// RatFunc returns num/den in canonical form: the monic GCD divided out of
// both, then both divided by den's leading coefficient. den must not be zero.
func (l Limits) RatFunc(ctx context.Context, num, den Poly) (RatFunc, error) {
	if den.IsZero() {
		return RatFunc{}, fmt.Errorf("%w: a rational function with denominator 0", ErrDivisionByZero)
	}
	if num.IsZero() {
		return FromPoly(Poly{}), nil
	}
	for _, x := range []Poly{num, den} {
		if err := l.Check("RatFunc", x); err != nil {
			return RatFunc{}, err
		}
	}
	// The common power of α first; then, when what is left of one side is
	// a constant multiple of the other's (c·α^k, or the same polynomial
	// times powers of α), the quotient is read off without a GCD.
	k := min(num.lo, den.lo)
	num, den = num.DivX(k), den.DivX(k)
	if len(den.c) == 1 {
		inv := new(big.Rat).Inv(den.c[0])
		return RatFunc{num: num.Scale(inv), den: Poly{lo: den.lo, c: []*big.Rat{big.NewRat(1, 1)}}}, nil
	}
	if lambda, ok := proportional(num.c, den.c); ok {
		one := []*big.Rat{big.NewRat(1, 1)}
		return RatFunc{num: Poly{lo: num.lo, c: []*big.Rat{lambda}}, den: Poly{lo: den.lo, c: one}}, nil
	}
	g, err := l.GCD(ctx, num, den)
	if err != nil {
		return RatFunc{}, err
	}
	if g.Degree() > 0 {
		num, _, _ = num.DivMod(g)
		den, _, _ = den.DivMod(g)
	}
	inv := new(big.Rat).Inv(den.c[len(den.c)-1])
	return RatFunc{num: num.Scale(inv), den: den.Scale(inv)}, nil
}

// RatAdd returns f + g.
func (l Limits) RatAdd(ctx context.Context, f, g RatFunc) (RatFunc, error) {
	if f.Den().Equal(g.Den()) { // the sum of the numerators over the one denominator
		return l.RatFunc(ctx, f.Num().Add(g.Num()), f.Den())
	}
	return l.RatFunc(ctx, f.Num().Mul(g.Den()).Add(g.Num().Mul(f.Den())), f.Den().Mul(g.Den()))
}

// RatSub returns f − g.
func (l Limits) RatSub(ctx context.Context, f, g RatFunc) (RatFunc, error) {
	if f.Den().Equal(g.Den()) {
		return l.RatFunc(ctx, f.Num().Sub(g.Num()), f.Den())
	}
	return l.RatFunc(ctx, f.Num().Mul(g.Den()).Sub(g.Num().Mul(f.Den())), f.Den().Mul(g.Den()))
}

// RatMul returns f·g.
func (l Limits) RatMul(ctx context.Context, f, g RatFunc) (RatFunc, error) {
	return l.RatFunc(ctx, f.Num().Mul(g.Num()), f.Den().Mul(g.Den()))
}

// RatDiv returns f/g; g must not be zero.
func (l Limits) RatDiv(ctx context.Context, f, g RatFunc) (RatFunc, error) {
	if g.Num().IsZero() {
		return RatFunc{}, fmt.Errorf("%w: RatDiv by the zero function", ErrDivisionByZero)
	}
	return l.RatFunc(ctx, f.Num().Mul(g.Den()), f.Den().Mul(g.Num()))
}

// Eval returns f(r) exactly; it fails, wrapping ErrDivisionByZero, when the
// denominator vanishes at r (a pole of f: the form is reduced).
func (f RatFunc) Eval(r *big.Rat) (*big.Rat, error) {
	d := f.Den().Eval(r)
	if d.Sign() == 0 {
		return nil, fmt.Errorf("%w: the denominator %s vanishes at α = %s", ErrDivisionByZero, f.Den(), r.RatString())
	}
	return d.Quo(f.num.Eval(r), d), nil
}

// Equal reports whether f and g are the same rational function.
func (f RatFunc) Equal(g RatFunc) bool {
	return f.num.Equal(g.num) && (f.den.IsZero() && g.den.IsZero() || f.Den().Equal(g.Den()))
}

// IsConst reports whether f is a constant function.
func (f RatFunc) IsConst() bool { return f.Num().Degree() <= 0 && f.Den().Degree() == 0 }

// String formats f in α, as Format("α") does.
func (f RatFunc) String() string { return f.Format("α") }

// Format formats f with the variable named v: "(α + 1)/(α^2 − 2)",
// "α^4/(α + 1)", "1/α^2", "(α + 1)/(1 − α)", or just the numerator when
// the denominator is 1 (the quotient's signs moved so that its numerator
// leads with a positive coefficient when the denominator is a sum). A side is bracketed only when it would otherwise not read (and parse,
// with ^ above · and /) as one factor: a sum, or a denominator with a
// coefficient.
func (f RatFunc) Format(v string) string {
	if f.Den().Degree() == 0 {
		return side(f.Num(), v) // 1/2 − 1/2·p, not −1/2·p + 1/2
	}
	n, d := f.Num(), f.Den()
	if minuses(n.Neg())+minuses(d.Neg()) < minuses(n)+minuses(d) {
		n, d = n.Neg(), d.Neg() // (α + 1)/(1 − α), not (−1 − α)/(α − 1)
	}
	num, den := side(n, v), side(d, v)
	if n.terms() > 1 || strings.Contains(num, "/") { // (3/4)/(1 − α), not 3/4/(1 − α)
		num = "(" + num + ")"
	}
	if d.terms() > 1 || d.Lead().Cmp(big.NewRat(1, 1)) != 0 {
		den = "(" + den + ")"
	}
	return num + "/" + den
}

// minuses is 1 when side(p) starts with a minus sign, else 0.
func minuses(p Poly) int {
	first := p.Lead()
	if first.Sign() < 0 && p.terms() > 1 {
		for i := 0; ; i++ {
			if c := p.Coeff(i); c.Sign() != 0 {
				first = c
				break
			}
		}
	}
	if first.Sign() < 0 {
		return 1
	}
	return 0
}

// side writes one side of a quotient, a sum with a negative leading
// coefficient lowest degree first: "9/10 − 1/10·α".
func side(p Poly, v string) string {
	return p.format(v, p.Lead().Sign() < 0 && p.terms() > 1)
}

// terms counts p's nonzero coefficients.
func (p Poly) terms() int {
	n := 0
	for _, c := range p.c {
		if c.Sign() != 0 {
			n++
		}
	}
	return n
}

// proportional returns λ with a = λ·b coefficient by coefficient, and
// whether there is one (a and b nonzero).
func proportional(a, b []*big.Rat) (*big.Rat, bool) {
	if len(a) != len(b) {
		return nil, false
	}
	lambda := new(big.Rat).Quo(a[0], b[0])
	t := new(big.Rat)
	for i := 1; i < len(a); i++ {
		if t.Mul(lambda, b[i]).Cmp(a[i]) != 0 {
			return nil, false
		}
	}
	return lambda, true
}
