package poly

import (
	"context"
	"fmt"
	"math/big"
)

// Algebraic is an exact real algebraic number: either a rational number, held
// as such, or an irrational real root of a square-free primitive integer
// polynomial (its defining polynomial) together with an isolating open
// interval (lo, hi) with rational ends that holds that root and no other,
// lo and hi not roots. Roots recognizes rational roots, so an Algebraic built
// by this package is irrational exactly when IsRational is false. Values are
// immutable: Refine returns a new value. The zero value is the rational 0.
// Operations on an irrational Algebraic that need GCDs or Sturm sequences
// use the Limits of the call that created it.
type Algebraic struct {
	q      *big.Rat // the value when rational
	p      zpoly    // defining polynomial when irrational
	lo, hi *big.Rat
	sLo    int // sign of p at lo (p(hi) has the opposite sign)
	lim    Limits
}

// Rational returns the rational number r as an Algebraic.
func Rational(r *big.Rat) Algebraic { return ratAlg(r, Limits{}) }

func ratAlg(r *big.Rat, l Limits) Algebraic {
	return Algebraic{q: new(big.Rat).Set(r), lim: l}
}

// newIsolated returns the root of the square-free p isolated in (a, b),
// rational when it is one.
func (l Limits) newIsolated(ctx context.Context, p zpoly, a, b *big.Rat) (Algebraic, error) {
	if len(p) == 2 {
		r := new(big.Rat).SetFrac(new(big.Int).Neg(p[0]), p[1])
		return ratAlg(r, l), nil
	}
	x := Algebraic{p: p, lo: a, hi: b, sLo: signAtZ(p, a), lim: l}
	// A rational root k/m in lowest terms has m dividing the leading
	// coefficient L; narrow the interval below width 1/L, then at most one
	// point of (1/L)·Z lies in it.
	L := new(big.Int).Abs(p[len(p)-1])
	w := new(big.Rat)
	Lr := new(big.Rat).SetInt(L)
	for {
		if err := cancelled(ctx, "Roots"); err != nil {
			return Algebraic{}, err
		}
		w.Sub(x.hi, x.lo)
		w.Mul(w, Lr)
		if w.Cmp(big.NewRat(1, 1)) < 0 {
			break
		}
		m := mid(x.lo, x.hi)
		if signAtZ(p, m) == 0 {
			return ratAlg(m, l), nil
		}
		x = x.halve(m)
	}
	k := new(big.Rat).Mul(x.lo, Lr)
	kk := new(big.Int).Quo(k.Num(), k.Denom()) // truncation toward zero
	if k.Sign() < 0 && !k.IsInt() {
		kk.Sub(kk, big.NewInt(1)) // floor
	}
	kk.Add(kk, big.NewInt(1))
	cand := new(big.Rat).SetFrac(kk, L)
	if cand.Cmp(x.hi) < 0 && signAtZ(p, cand) == 0 {
		return ratAlg(cand, l), nil
	}
	return x, nil
}

func mid(a, b *big.Rat) *big.Rat {
	m := new(big.Rat).Add(a, b)
	return m.Quo(m, big.NewRat(2, 1))
}

// halve returns x with its interval cut at m (not a root) to the half
// holding the root.
func (x Algebraic) halve(m *big.Rat) Algebraic {
	y := x
	if signAtZ(x.p, m) == x.sLo {
		y.lo = m
	} else {
		y.hi = m
	}
	return y
}

func (x Algebraic) refine1() Algebraic {
	if x.IsRational() {
		return x
	}
	return x.halve(mid(x.lo, x.hi))
}

// IsRational reports whether x is a rational number.
func (x Algebraic) IsRational() bool { return x.p == nil }

// Rat returns a copy of x's value when x is rational, and nil otherwise.
func (x Algebraic) Rat() *big.Rat {
	if !x.IsRational() {
		return nil
	}
	if x.q == nil {
		return new(big.Rat)
	}
	return new(big.Rat).Set(x.q)
}

// Bounds returns copies of the ends of x's isolating interval (lo, hi), or
// x, x when x is rational.
func (x Algebraic) Bounds() (lo, hi *big.Rat) {
	if x.IsRational() {
		return x.Rat(), x.Rat()
	}
	return new(big.Rat).Set(x.lo), new(big.Rat).Set(x.hi)
}

// Defining returns x's defining polynomial: square-free, primitive, with
// integer coefficients; for a rational k/m in lowest terms it is m·α − k.
func (x Algebraic) Defining() Poly {
	if x.IsRational() {
		r := x.Rat()
		return New(new(big.Rat).Neg(new(big.Rat).SetInt(r.Num())), new(big.Rat).SetInt(r.Denom()))
	}
	return fromZ(x.p)
}

// Refine returns x with an isolating interval no wider than width (> 0),
// by bisection; a rational x is returned as it is.
func (x Algebraic) Refine(ctx context.Context, width *big.Rat) (Algebraic, error) {
	if width.Sign() <= 0 {
		return x, fmt.Errorf("poly: Refine: width %s is not positive", width.RatString())
	}
	w := new(big.Rat)
	for !x.IsRational() && w.Sub(x.hi, x.lo).Cmp(width) > 0 {
		if err := cancelled(ctx, "Refine"); err != nil {
			return x, err
		}
		x = x.refine1()
	}
	return x, nil
}

// CmpRat compares x with the rational r: −1, 0 or +1 as x <, =, > r.
func (x Algebraic) CmpRat(r *big.Rat) int {
	if x.IsRational() {
		return x.Rat().Cmp(r)
	}
	if r.Cmp(x.lo) <= 0 {
		return 1
	}
	if r.Cmp(x.hi) >= 0 {
		return -1
	}
	s := signAtZ(x.p, r)
	switch s {
	case 0:
		return 0 // not reached for irrational x
	case x.sLo:
		return 1 // the root lies in (r, hi)
	}
	return -1
}

// Cmp compares x and y exactly: −1, 0 or +1 as x <, =, > y. Two irrational
// numbers whose intervals overlap are equal exactly when the GCD of their
// defining polynomials has a root in the overlap (both then have it as their
// only root there); otherwise both intervals are bisected until disjoint.
func (x Algebraic) Cmp(ctx context.Context, y Algebraic) (int, error) {
	if x.IsRational() {
		return -y.CmpRat(x.Rat()), nil
	}
	if y.IsRational() {
		return x.CmpRat(y.Rat()), nil
	}
	checked := false
	for {
		if x.hi.Cmp(y.lo) <= 0 {
			return -1, nil
		}
		if y.hi.Cmp(x.lo) <= 0 {
			return 1, nil
		}
		if !checked {
			checked = true
			g, err := x.lim.gcdZ(ctx, "Cmp", x.p, y.p)
			if err != nil {
				return 0, err
			}
			if len(g) >= 2 {
				lo, hi := x.lo, x.hi
				if y.lo.Cmp(lo) > 0 {
					lo = y.lo
				}
				if y.hi.Cmp(hi) < 0 {
					hi = y.hi
				}
				// lo and hi are ends of isolating intervals, so not roots of
				// g; g has at most one root in (lo, hi), a simple one.
				if signAtZ(g, lo)*signAtZ(g, hi) < 0 {
					return 0, nil
				}
			}
		}
		if err := cancelled(ctx, "Cmp"); err != nil {
			return 0, err
		}
		x, y = x.refine1(), y.refine1()
	}
}

// SignOf returns the sign of the polynomial q at x, exactly: q(x) = 0 when
// the GCD of q and x's defining polynomial changes sign on x's isolating
// interval; otherwise the interval is bisected until q has no root in its
// closure, and q's sign at an end is its sign at x.
func (x Algebraic) SignOf(ctx context.Context, q Poly) (int, error) {
	if x.IsRational() {
		return q.Eval(x.Rat()).Sign(), nil
	}
	if q.IsZero() {
		return 0, nil
	}
	const op = "SignOf"
	if err := x.lim.Check(op, q); err != nil {
		return 0, err
	}
	qz := toZ(q)
	g, err := x.lim.gcdZ(ctx, op, x.p, qz)
	if err != nil {
		return 0, err
	}
	if len(g) >= 2 && signAtZ(g, x.lo)*signAtZ(g, x.hi) < 0 {
		return 0, nil
	}
	s, err := x.lim.sturmSF(ctx, op, qz)
	if err != nil {
		return 0, err
	}
	for s.count(Closed(x.lo, x.hi)) > 0 {
		if err := cancelled(ctx, op); err != nil {
			return 0, err
		}
		x = x.refine1()
	}
	return signAtZ(qz, x.lo), nil
}

// Decimal returns x rounded to digits digits after the decimal point
// (halves away from zero; a negative digits counts as 0), correctly: an irrational x's interval is bisected
// until both of its ends round to the same string.
func (x Algebraic) Decimal(ctx context.Context, digits int) (string, error) {
	digits = max(digits, 0)
	if x.IsRational() {
		return x.Rat().FloatString(digits), nil
	}
	for {
		a, b := x.lo.FloatString(digits), x.hi.FloatString(digits)
		if a == b {
			return a, nil
		}
		if err := cancelled(ctx, "Decimal"); err != nil {
			return "", err
		}
		x = x.refine1()
	}
}

// String formats x exactly in α, as Format("α") does.
func (x Algebraic) String() string { return x.Format("α") }

// Format formats x exactly with the variable named v: the rational, as
// "1/3"; an irrational root of a quadratic or of a·α^k + b (once the
// defining polynomial's rational roots are divided out) with a root sign,
// as "√2", "(1 + √5)/2" or "(1/16)^(1/3)"; or "the root of α^3 − α − 1
// in (1, 3/2)".
func (x Algebraic) Format(v string) string {
	if x.IsRational() {
		return x.Rat().RatString()
	}
	p := x.reduced()
	if s := x.closedForm(p); s != "" {
		return s
	}
	return fmt.Sprintf("the root of %s in (%s, %s)", fromZ(p).Format(v), x.lo.RatString(), x.hi.RatString())
}
