package spec

import (
	"math/big"
	"strings"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/verify"
)

// MaxSteps bounds the steps of X^k, bounded operators and traces(k).
const MaxSteps = 100000

// formulaCompiler turns expressions into dpCTL formulas over a chain.
type formulaCompiler struct {
	c  *checker
	ch *chain.Chain
	pc *predCompiler
	// at maps the formulas compiled to the expressions they come from.
	at map[*verify.Formula]*Expr
}

func newFormulaCompiler(c *checker, ch *chain.Chain) *formulaCompiler {
	pc := newPredCompiler(c, ch, false)
	return &formulaCompiler{c: c, ch: ch, pc: pc, at: map[*verify.Formula]*Expr{}}
}

// formula compiles e; temporal operators are allowed only when path is set
// (inside P…[…] and D{…}[…]).
func (fc *formulaCompiler) formula(e *Expr, path bool) (*verify.Formula, bool) {
	f, ok := fc.compile(e, path)
	if ok {
		fc.at[f] = e
		for _, a := range f.Args { // the parts G and F add
			if _, known := fc.at[a]; !known {
				fc.at[a] = e
			}
		}
	}
	return f, ok
}

// pathFormula compiles the path formula of P, D or a query, and refuses
// what the checker cannot compute exactly, at its position.
func (fc *formulaCompiler) pathFormula(e *Expr) (*verify.Formula, bool) {
	f, ok := fc.formula(e, true)
	if !ok {
		return nil, false
	}
	if bad, why := verify.Unsupported(f); bad != nil {
		at := e
		if x, known := fc.at[bad]; known {
			at = x
		}
		fc.c.errorf(at.Pos(), "%s: %s", exprText(at), why)
		return nil, false
	}
	return f, true
}

func (fc *formulaCompiler) compile(e *Expr, path bool) (*verify.Formula, bool) {
	switch e.Op {
	case EOr, EAnd:
		fs := make([]*verify.Formula, len(e.Args))
		for i, a := range e.Args {
			f, ok := fc.formula(a, path)
			if !ok {
				return nil, false
			}
			fs[i] = f
		}
		if e.Op == EOr {
			return verify.Or(fs...), true
		}
		return verify.And(fs...), true
	case EUntil:
		l, ok := fc.formula(e.Args[0], path)
		if !ok {
			return nil, false
		}
		if !path {
			fc.c.errorf(int(e.OpOff), "U is a path operator: use it inside P…[…] or D{…}[…]")
			return nil, false
		}
		r, ok := fc.formula(e.Args[1], path)
		if !ok {
			return nil, false
		}
		bound, ok := fc.bound(e.Args[2])
		if !ok {
			return nil, false
		}
		return verify.Until(l, r, bound), true
	case ENot:
		f, ok := fc.formula(e.Args[0], path)
		if !ok {
			return nil, false
		}
		return verify.Not(f), true
	case ETemporal:
		return fc.temporal(e, path)
	case ECmp:
		pred, ok := fc.pc.cmp(e)
		if !ok {
			return nil, false
		}
		text := strings.Join(strings.Fields(fc.c.src[e.Off:e.End]), " ")
		return verify.Atom(text, func(s int) (bool, error) { return pred(s, s) }), true
	case EParen:
		return fc.formula(e.Args[0], path)
	case EProb:
		return fc.prob(e)
	case EDP:
		return fc.dp(e)
	case EName, EStr:
		return fc.label(e)
	case ESum, EProd, ENeg, EPow:
		fc.c.errorf(e.Pos(), "expected a condition (a label, a comparison, P…[…] or D{…}[…]), found a number")
		return nil, false
	}
	fc.c.errorf(e.Pos(), "expected a condition (a label, a comparison, P…[…] or D{…}[…])")
	return nil, false
}

// bound evaluates an optional step bound; -1 when absent.
func (fc *formulaCompiler) bound(b *Expr) (int, bool) {
	if b == nil {
		return -1, true
	}
	k, ok := fc.c.integer(b, "a step bound", 0, MaxSteps)
	return int(k), ok
}

func (fc *formulaCompiler) temporal(t *Expr, path bool) (*verify.Formula, bool) {
	if !path {
		fc.c.errorf(t.Pos(), "%s is a path operator: use it inside P…[…] or D{…}[…]", t.Text)
		return nil, false
	}
	arg, ok := fc.formula(t.Args[0], path)
	if !ok {
		return nil, false
	}
	pow, bnd := t.Args[1], t.Args[2]
	if t.Text == "X" {
		if bnd != nil {
			fc.c.errorf(bnd.Pos(), "X takes a power (X^k), not a bound")
			return nil, false
		}
		k := int64(1)
		if pow != nil {
			if k, ok = fc.c.integer(pow, "the power of X", 1, MaxSteps); !ok {
				return nil, false
			}
		}
		return verify.Next(int(k), arg), true
	}
	if pow != nil {
		fc.c.errorf(pow.Pos(), "%s takes a bound (%s<=k), not a power", t.Text, t.Text)
		return nil, false
	}
	b, ok := fc.bound(bnd)
	if !ok {
		return nil, false
	}
	if t.Text == "F" {
		return verify.Eventually(arg, b), true
	}
	return verify.Globally(arg, b), true
}

func (fc *formulaCompiler) label(e *Expr) (*verify.Formula, bool) {
	name := e.Text
	isName := e.Op == EName
	switch {
	case e.Primed:
		fc.c.errorf(e.Pos(), "%s' (a primed name) only makes sense in a neighbour predicate", name)
		return nil, false
	case isName && name == "true":
		return verify.True(), true
	case isName && name == "false":
		return verify.False(), true
	case fc.pc.labels[name]:
		return verify.Label(name), true
	case isName && fc.pc.vars[name]:
		fc.c.errorf(e.Pos(), "%s is a variable, not a condition: compare it (%s = …)", name, name)
		return nil, false
	}
	fc.c.errorf(e.Pos(), "unknown label %s%s", displayName(name), fc.pc.knownLabels())
	return nil, false
}

func (fc *formulaCompiler) prob(p *Expr) (*verify.Formula, bool) {
	bound := p.Args[0]
	if bound.Op == EUnknown {
		fc.c.errorf(p.Pos(), "P=?[…] is a query of its own: write query P=?[…]")
		return nil, false
	}
	if p.Text == "=" {
		fc.c.errorf(p.Pos(), "P=p[…] compares probabilities exactly; use P>=p[…], P<=p[…], or query P=?[…]")
		return nil, false
	}
	b, ok := fc.c.num(bound, "a probability bound")
	if !ok {
		return nil, false
	}
	if b.Sign() < 0 || b.Cmp(big.NewRat(1, 1)) > 0 {
		fc.c.errorf(bound.Pos(), "the probability bound %s is outside [0, 1]", b.RatString())
		return nil, false
	}
	path, ok := fc.pathFormula(p.Args[1])
	if !ok {
		return nil, false
	}
	return verify.Prob(p.Text, b, path), true
}

func isUnknown(e *Expr) bool { return e.Op == EUnknown }

func (fc *formulaCompiler) dp(d *Expr) (*verify.Formula, bool) {
	if isUnknown(d.Args[0]) || isUnknown(d.Args[1]) {
		fc.c.errorf(d.Pos(), "D{?,…} and D{…,?} are queries of their own: write query D{?, δ}[…] or query D{ε, ?}[…]")
		return nil, false
	}
	eps, ok1 := fc.c.eps(d.Args[0], false)
	delta, ok2 := fc.c.delta(d.Args[1])
	path, ok3 := fc.pathFormula(d.Args[2])
	if !ok1 || !ok2 || !ok3 {
		return nil, false
	}
	return verify.DP(eps, delta, path), true
}
