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
}

func newFormulaCompiler(c *checker, ch *chain.Chain) *formulaCompiler {
	pc := newPredCompiler(c, ch, false)
	pc.missingFalse = true
	return &formulaCompiler{c: c, ch: ch, pc: pc}
}

// formula compiles e; temporal operators are allowed only when path is set
// (inside P…[…] and D{…}[…]).
func (fc *formulaCompiler) formula(e *Expr, path bool) (*verify.Formula, bool) {
	var fs []*verify.Formula
	for _, t := range e.Terms {
		f, ok := fc.and(t, path)
		if !ok {
			return nil, false
		}
		fs = append(fs, f)
	}
	if len(fs) == 1 {
		return fs[0], true
	}
	return verify.Or(fs...), true
}

func (fc *formulaCompiler) and(e *AndExpr, path bool) (*verify.Formula, bool) {
	var fs []*verify.Formula
	for _, t := range e.Terms {
		f, ok := fc.until(t, path)
		if !ok {
			return nil, false
		}
		fs = append(fs, f)
	}
	if len(fs) == 1 {
		return fs[0], true
	}
	return verify.And(fs...), true
}

func (fc *formulaCompiler) until(e *UntilExpr, path bool) (*verify.Formula, bool) {
	l, ok := fc.not(e.Left, path)
	if !ok || e.Until == nil {
		return l, ok
	}
	if !path {
		fc.c.errorf(e.Until.Pos, "U is a path operator: use it inside P…[…] or D{…}[…]")
		return nil, false
	}
	r, ok := fc.not(e.Until.Right, path)
	if !ok {
		return nil, false
	}
	bound, ok := fc.bound(e.Until.Bound)
	if !ok {
		return nil, false
	}
	return verify.Until(l, r, bound), true
}

// bound evaluates an optional step bound; -1 when absent.
func (fc *formulaCompiler) bound(s *Sum) (int, bool) {
	if s == nil {
		return -1, true
	}
	k, ok := fc.c.integer(sumExpr(s), "a step bound", 0, MaxSteps)
	return int(k), ok
}

func sumExpr(s *Sum) *Expr {
	return &Expr{Pos: s.Pos, Terms: []*AndExpr{{Pos: s.Pos, Terms: []*UntilExpr{{Pos: s.Pos, Left: &NotExpr{Pos: s.Pos, Cmp: &CmpExpr{Pos: s.Pos, Left: s}}}}}}}
}

func unaryExpr(u *Unary) *Expr {
	return sumExpr(&Sum{Pos: u.Pos, Left: &Term{Pos: u.Pos, Left: u}})
}

func (fc *formulaCompiler) not(e *NotExpr, path bool) (*verify.Formula, bool) {
	switch {
	case e.Not != nil:
		f, ok := fc.not(e.Not, path)
		if !ok {
			return nil, false
		}
		return verify.Not(f), true
	case e.Temp != nil:
		t := e.Temp
		if !path {
			fc.c.errorf(t.Pos, "%s is a path operator: use it inside P…[…] or D{…}[…]", t.Op)
			return nil, false
		}
		arg, ok := fc.not(t.Operand, path)
		if !ok {
			return nil, false
		}
		switch t.Op {
		case "X":
			if t.Bound != nil {
				fc.c.errorf(t.Bound.Pos, "X takes a power (X^k), not a bound")
				return nil, false
			}
			k := int64(1)
			if t.Power != nil {
				if k, ok = fc.c.integer(unaryExpr(t.Power), "the power of X", 1, MaxSteps); !ok {
					return nil, false
				}
			}
			return verify.Next(int(k), arg), true
		default:
			if t.Power != nil {
				fc.c.errorf(t.Power.Pos, "%s takes a bound (%s<=k), not a power", t.Op, t.Op)
				return nil, false
			}
			b, ok := fc.bound(t.Bound)
			if !ok {
				return nil, false
			}
			if t.Op == "F" {
				return verify.Eventually(arg, b), true
			}
			return verify.Globally(arg, b), true
		}
	}
	return fc.cmp(e.Cmp, path)
}

func (fc *formulaCompiler) cmp(e *CmpExpr, path bool) (*verify.Formula, bool) {
	if e.Op != "" {
		pred, ok := fc.pc.notExpr(&NotExpr{Pos: e.Pos, Cmp: e})
		if !ok {
			return nil, false
		}
		text := strings.Join(strings.Fields(fc.c.src[e.Pos.Offset:e.EndPos.Offset]), " ")
		return verify.Atom(text, func(s int) (bool, error) { return pred(s, s) }), true
	}
	s := e.Left
	if len(s.Rest) != 0 || len(s.Left.Rest) != 0 || s.Left.Left.Power == nil || s.Left.Left.Power.Exp != nil {
		fc.c.errorf(e.Pos, "expected a condition (a label, a comparison, P…[…] or D{…}[…]), found a number")
		return nil, false
	}
	p := s.Left.Left.Power.Base
	switch {
	case p.Paren != nil:
		return fc.formula(p.Paren, path)
	case p.Prob != nil:
		return fc.prob(p.Prob)
	case p.DP != nil:
		return fc.dp(p.DP)
	case p.Var != nil:
		return fc.label(p.Var.Name, p)
	case p.Number == "" && p.Abs == nil && p.Call == nil && !p.Unknown:
		return fc.label(p.String, p)
	}
	fc.c.errorf(p.Pos, "expected a condition (a label, a comparison, P…[…] or D{…}[…])")
	return nil, false
}

func (fc *formulaCompiler) label(name string, p *Primary) (*verify.Formula, bool) {
	switch {
	case p.Var != nil && p.Var.Primed:
		fc.c.errorf(p.Pos, "%s' (a primed name) only makes sense in a neighbour predicate", name)
		return nil, false
	case p.Var != nil && name == "true":
		return verify.True(), true
	case p.Var != nil && name == "false":
		return verify.False(), true
	case fc.pc.labels[name]:
		return verify.Label(name), true
	case p.Var != nil && fc.pc.vars[name]:
		fc.c.errorf(p.Pos, "%s is a variable, not a condition: compare it (%s = …)", name, name)
		return nil, false
	}
	fc.c.errorf(p.Pos, "unknown label %s%s", displayName(name), fc.pc.knownLabels())
	return nil, false
}

func (fc *formulaCompiler) prob(p *ProbOp) (*verify.Formula, bool) {
	if p.Query {
		fc.c.errorf(p.Pos, "P=?[…] is a query of its own: write query P=?[…]")
		return nil, false
	}
	if p.Op == "=" {
		fc.c.errorf(p.Pos, "P=p[…] compares probabilities exactly; use P>=p[…], P<=p[…], or query P=?[…]")
		return nil, false
	}
	b, ok := fc.c.num(sumExpr(p.Bound), "a probability bound")
	if !ok {
		return nil, false
	}
	if b.Sign() < 0 || b.Cmp(big.NewRat(1, 1)) > 0 {
		fc.c.errorf(p.Bound.Pos, "the probability bound %s is outside [0, 1]", b.RatString())
		return nil, false
	}
	path, ok := fc.formula(p.Path, true)
	if !ok {
		return nil, false
	}
	return verify.Prob(p.Op, b, path), true
}

func isUnknown(e *Expr) bool {
	if len(e.Terms) != 1 || len(e.Terms[0].Terms) != 1 {
		return false
	}
	ut := e.Terms[0].Terms[0]
	if ut.Until != nil || ut.Left.Cmp == nil || ut.Left.Cmp.Op != "" {
		return false
	}
	s := ut.Left.Cmp.Left
	return len(s.Rest) == 0 && len(s.Left.Rest) == 0 && s.Left.Left.Power != nil && s.Left.Left.Power.Exp == nil && s.Left.Left.Power.Base.Unknown
}

func (fc *formulaCompiler) dp(d *DPOp) (*verify.Formula, bool) {
	if isUnknown(d.Eps) || isUnknown(d.Delta) {
		fc.c.errorf(d.Pos, "D{?,…} and D{…,?} are queries of their own: write query D{?, δ}[…] or query D{ε, ?}[…]")
		return nil, false
	}
	eps, ok1 := fc.c.eps(d.Eps, false)
	delta, ok2 := fc.c.delta(d.Delta)
	path, ok3 := fc.formula(d.Path, true)
	if !ok1 || !ok2 || !ok3 {
		return nil, false
	}
	return verify.DP(eps, delta, path), true
}
