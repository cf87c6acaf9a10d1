package spec

import (
	"math/big"

	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/verify"
)

// MaxSteps bounds the steps of X^k, bounded operators and traces(k).
const MaxSteps = 100000

// formula translates a dpCTL formula; temporal operators are allowed only
// when path is set (inside P…[…] and D{…}[…]). It returns nil after
// reporting an error. Labels and atoms are resolved when the program is
// prepared.
func (c *checker) formula(e *Expr, path bool) *property.Formula {
	if e.Op == EQuant {
		u, ok := c.unfold(e)
		if !ok {
			return nil
		}
		return c.formula(u, path)
	}
	if f := c.formulas[e.Text]; e.Op == ECall && f != nil {
		if c.cyclic[f.Name.Name] || !c.writeOut(e, 1) {
			return nil
		}
		body, ok := c.instantiate(f, e)
		if !ok {
			return nil
		}
		return c.formula(body, path)
	}
	f := &property.Formula{Pos: c.position(e.Pos()), Text: exprText(e)}
	switch e.Op {
	case EOr, EAnd:
		f.Op = verify.OpAnd
		if e.Op == EOr {
			f.Op = verify.OpOr
		}
		for _, a := range e.Args {
			g := c.formula(a, path)
			if g == nil {
				return nil
			}
			f.Args = append(f.Args, g)
		}
		return f
	case EUntil:
		l := c.formula(e.Args[0], path)
		if l == nil {
			return nil
		}
		if !path {
			c.errPathOperator(int(e.OpOff), "U")
			return nil
		}
		r := c.formula(e.Args[1], path)
		bound, ok := c.bound(e.Args[2])
		if r == nil || !ok {
			return nil
		}
		f.Op, f.K, f.Args = verify.OpUntil, bound, []*property.Formula{l, r}
		return f
	case ENot:
		g := c.formula(e.Args[0], path)
		if g == nil {
			return nil
		}
		f.Op, f.Args = verify.OpNot, []*property.Formula{g}
		return f
	case EImplies: // a => b is !a | b
		l, r := c.formula(e.Args[0], path), c.formula(e.Args[1], path)
		if l == nil || r == nil {
			return nil
		}
		not := &property.Formula{Op: verify.OpNot, Pos: l.Pos, Text: "!(" + l.Text + ")", Args: []*property.Formula{l}}
		f.Op, f.Args = verify.OpOr, []*property.Formula{not, r}
		return f
	case ETemporal:
		return c.temporal(e, path)
	case ECmp:
		atom := c.condition(e, false)
		if atom == nil {
			return nil
		}
		f.Op, f.Atom = verify.OpAtom, atom
		return f
	case EParen:
		return c.formula(e.Args[0], path)
	case EProb:
		return c.prob(e)
	case EDP:
		return c.dpOp(e)
	case EName, EStr:
		return c.label(e)
	case ESum, EProd, ENeg, EPow:
		c.errorf(e.Pos(), "expected a condition (a label, a comparison, P…[…] or D{…}[…]), found a number")
		return nil
	}
	c.errorf(e.Pos(), "expected a condition (a label, a comparison, P…[…] or D{…}[…])")
	return nil
}

// pathFormula translates the path formula of P, D or a query, and refuses
// what the checker cannot compute exactly, at its position.
func (c *checker) pathFormula(e *Expr) *property.Formula {
	return property.CheckedPath(c.formula(e, true), &c.errs)
}

// bound evaluates an optional step bound; -1 when absent.
func (c *checker) bound(b *Expr) (int, bool) {
	if b == nil {
		return -1, true
	}
	k, ok := c.integer(b, "a step bound", 0, MaxSteps)
	return int(k), ok
}

func (c *checker) temporal(t *Expr, path bool) *property.Formula {
	if !path {
		c.errPathOperator(t.Pos(), t.Text)
		return nil
	}
	arg := c.formula(t.Args[0], path)
	if arg == nil {
		return nil
	}
	pos, text := c.position(t.Pos()), exprText(t)
	pow, bnd := t.Args[1], t.Args[2]
	if t.Text == "X" {
		if bnd != nil {
			c.errorf(bnd.Pos(), "X takes a power (X^k), not a bound")
			return nil
		}
		k := int64(1)
		if pow != nil {
			var ok bool
			if k, ok = c.integer(pow, "the power of X", 1, MaxSteps); !ok {
				return nil
			}
		}
		return &property.Formula{Op: verify.OpNext, Pos: pos, Text: text, K: int(k), Args: []*property.Formula{arg}}
	}
	if pow != nil {
		c.errorf(pow.Pos(), "%s takes a bound (%s<=k), not a power", t.Text, t.Text)
		return nil
	}
	b, ok := c.bound(bnd)
	if !ok {
		return nil
	}
	if t.Text == "F" {
		return property.Eventually(arg, 0, b, pos, text)
	}
	return property.Globally(arg, 0, b, pos, text)
}

func (c *checker) label(e *Expr) *property.Formula {
	f := &property.Formula{Op: verify.OpLabel, Pos: c.position(e.Pos()), Text: exprText(e), Label: e.Text}
	switch {
	case e.Primed:
		c.errPrimed(e)
		return nil
	case e.Op == EName && e.Text == "true":
		f.Op = verify.OpTrue
	case e.Op == EName && e.Text == "false":
		f.Op = verify.OpFalse
	}
	return f
}

func (c *checker) prob(p *Expr) *property.Formula {
	bound := p.Args[0]
	if bound.Op == EUnknown {
		c.errorf(p.Pos(), "P%s?[…] is a query of its own: write query P%s?[…]", p.Text, p.Text)
		return nil
	}
	if p.Text == "=" {
		c.errorf(p.Pos(), "P=p[…] compares probabilities exactly; use P>=p[…], P<=p[…], or query P=?[…]")
		return nil
	}
	b, ok := c.num(bound, "a probability bound")
	if !ok {
		return nil
	}
	if b.Sign() < 0 || b.Cmp(big.NewRat(1, 1)) > 0 {
		c.errorf(bound.Pos(), "the probability bound %s is outside [0, 1]", b.RatString())
		return nil
	}
	path := c.pathFormula(p.Args[1])
	if path == nil {
		return nil
	}
	return &property.Formula{Op: verify.OpProb, Pos: c.position(p.Pos()), Text: exprText(p), Cmp: p.Text, Bound: b, Args: []*property.Formula{path}}
}

func isUnknown(e *Expr) bool { return e.Op == EUnknown }

func (c *checker) dpOp(d *Expr) *property.Formula {
	if isUnknown(d.Args[0]) || isUnknown(d.Args[1]) {
		c.errorf(d.Pos(), "D{?,…} and D{…,?} are queries of their own: write query D{?, δ}[…] or query D{ε, ?}[…]")
		return nil
	}
	eps, ok1 := c.eps(d.Args[0], false)
	delta, ok2 := c.delta(d.Args[1])
	path := c.pathFormula(d.Args[2])
	if !ok1 || !ok2 || path == nil {
		return nil
	}
	return &property.Formula{Op: verify.OpDP, Pos: c.position(d.Pos()), Text: exprText(d), Eps: eps, Delta: delta, Args: []*property.Formula{path}}
}
