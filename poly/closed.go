package poly

import (
	"context"
	"fmt"
	"math/big"
	"strings"
)

// Printing irrational algebraic numbers readably. A defining polynomial
// as the algebra produces it often has rational roots besides the number
// ((1 + α)(1 − 3α²) for 1/√3): they are divided out first, then a
// quadratic is printed with a square root ("√3/3", "(1 + √5)/2") and a
// binomial a·α^k + b with a k-th root ("(1/16)^(1/3)"). Anything else
// keeps the form "the root of P in (lo, hi)". The work is bounded, so
// printing needs no context: only polynomials of degree at most
// maxClosedDegree with coefficients of at most maxClosedBits bits are
// reduced, and square factors are pulled out of a discriminant by trial
// division up to maxSquareFactor.
const (
	maxClosedDegree = 24
	maxClosedBits   = 2048
	maxSquareFactor = 1000
)

// reduced returns x's defining polynomial with its rational roots divided
// out (x itself is irrational, so it stays a root), primitive, with a
// positive leading coefficient; p itself when it is too large to try.
func (x Algebraic) reduced() zpoly {
	p := fromZ(x.p)
	if p.Degree() > maxClosedDegree || p.Bits() > maxClosedBits {
		return x.p
	}
	// Every real root lies in [−B, B], B = 1 + max |a_i / a_n| (Cauchy).
	b := new(big.Rat)
	lead := new(big.Rat).Abs(p.Lead())
	for i := 0; i < p.Degree(); i++ {
		c := new(big.Rat).Abs(p.Coeff(i))
		if c.Quo(c, lead); c.Cmp(b) > 0 {
			b = c
		}
	}
	b.Add(b, big.NewRat(1, 1))
	roots, err := x.lim.Roots(context.Background(), p, Closed(new(big.Rat).Neg(b), b))
	if err != nil {
		return x.p
	}
	for _, r := range roots {
		if !r.IsRational() {
			continue
		}
		q, rem, err := p.DivMod(New(new(big.Rat).Neg(r.Rat()), big.NewRat(1, 1)))
		if err != nil || !rem.IsZero() {
			return x.p // not reached: r is a root of p
		}
		p = q
	}
	z := toZ(p.Primitive())
	if z[len(z)-1].Sign() < 0 {
		for _, c := range z {
			c.Neg(c)
		}
	}
	return z
}

// closedForm returns x with a square or k-th root when its reduced
// defining polynomial is a quadratic or a binomial, and "" otherwise.
func (x Algebraic) closedForm(p zpoly) string {
	switch {
	case len(p) == 3:
		return x.quadratic(p)
	case len(p) > 3:
		for _, c := range p[1 : len(p)-1] {
			if c.Sign() != 0 {
				return ""
			}
		}
		return x.kthRoot(p)
	}
	return ""
}

// quadratic writes the root x of a·α² + b·α + c as (−b ± s·√d)/(2a),
// with b² − 4ac = s²·d, reduced.
func (x Algebraic) quadratic(p zpoly) string {
	c, b, a := p[0], p[1], p[2]
	disc := new(big.Int).Mul(b, b)
	disc.Sub(disc, new(big.Int).Mul(big.NewInt(4), new(big.Int).Mul(a, c)))
	if disc.Sign() <= 0 {
		return ""
	}
	s, d := squarePart(disc)
	if d.Cmp(big.NewInt(1)) == 0 {
		return "" // a rational root: not reached for an irrational x
	}
	twoA := new(big.Int).Lsh(a, 1)
	// x lies above the vertex −b/(2a) exactly when it is the root with
	// +√ over a positive 2a (a > 0 here: p's lead is made positive).
	vertex := new(big.Rat).SetFrac(new(big.Int).Neg(b), twoA)
	sigma := x.CmpRat(vertex)
	P := new(big.Int).Neg(b)
	Q := new(big.Int).Mul(big.NewInt(int64(sigma)), s)
	R := twoA
	g := new(big.Int).GCD(nil, nil, new(big.Int).Abs(Q), R)
	if P.Sign() != 0 {
		g.GCD(nil, nil, g, new(big.Int).Abs(P))
	}
	P.Quo(P, g)
	Q.Quo(Q, g)
	R = new(big.Int).Quo(R, g)
	root := "√" + d.String()
	var num string
	switch {
	case Q.Cmp(big.NewInt(1)) == 0:
		num = root
	case Q.Cmp(big.NewInt(-1)) == 0:
		num = "−" + root
	case Q.Sign() < 0:
		num = "−" + new(big.Int).Neg(Q).String() + root
	default:
		num = Q.String() + root
	}
	if P.Sign() != 0 {
		neg := strings.HasPrefix(num, "−")
		num = strings.TrimPrefix(num, "−")
		op := " + "
		if neg {
			op = " − "
		}
		lead := P.String()
		if P.Sign() < 0 {
			lead = "−" + new(big.Int).Neg(P).String()
		}
		num = lead + op + num
		if R.Cmp(big.NewInt(1)) != 0 {
			num = "(" + num + ")"
		}
	}
	if R.Cmp(big.NewInt(1)) == 0 {
		return num
	}
	return num + "/" + R.String()
}

// squarePart splits n > 0 as s²·d, pulling out the squares of the numbers
// up to maxSquareFactor and a whole square: d may keep a large square
// factor, which is correct (s²·d = n) if not fully reduced.
func squarePart(n *big.Int) (s, d *big.Int) {
	s, d = big.NewInt(1), new(big.Int).Set(n)
	if r := new(big.Int).Sqrt(d); new(big.Int).Mul(r, r).Cmp(d) == 0 {
		return r, big.NewInt(1)
	}
	k2, q, m := new(big.Int), new(big.Int), new(big.Int)
	for k := int64(2); k <= maxSquareFactor; k++ {
		k2.SetInt64(k * k)
		if k2.Cmp(d) > 0 {
			break
		}
		for {
			q.QuoRem(d, k2, m)
			if m.Sign() != 0 {
				break
			}
			d.Set(q)
			s.Mul(s, big.NewInt(k))
		}
	}
	return s, d
}

// kthRoot writes the root x of a·α^k + b as ±(−b/a)^(1/k).
func (x Algebraic) kthRoot(p zpoly) string {
	k := len(p) - 1
	c := new(big.Rat).SetFrac(new(big.Int).Neg(p[0]), p[k])
	sign := ""
	if x.CmpRat(new(big.Rat)) < 0 {
		sign = "−"
	}
	if c.Sign() < 0 {
		c.Neg(c)
	}
	base := c.RatString()
	if !c.IsInt() {
		base = "(" + base + ")"
	}
	return fmt.Sprintf("%s%s^(1/%d)", sign, base, k)
}
