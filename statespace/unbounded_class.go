package statespace

import (
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/source"
)

// The class of programs with unbounded variables dpcheck decides
// (docs/language.md, "Which programs with unbounded variables are
// decided"): an unbounded variable is drawn from untruncated geometric
// noise around a bounded centre, set to a bounded value or to another
// unbounded variable (negated or not) plus a bounded value, compared in
// guards — at most two unbounded variables per comparison, each with
// coefficient ±1 — and observed at the end of a run. Everything else that
// reads an unbounded variable is refused where it is written.

// ulin is Σ S·x_U + Rest: unbounded variables with unit coefficients
// plus a bounded remainder (nil: 0).
type ulin struct {
	terms []uterm
	rest  expr.ValNum
}

type uterm struct{ u, s int }

// ucond is a guard over bounded and unbounded variables.
type ucond struct {
	kind ucondKind
	b    expr.ValCond // kind uBounded
	lin  ulin         // kind uAtom: lin op 0
	op   string       // < <= > >= = !=
	kids []*ucond     // uAnd, uOr, uNot (one)
	pos  source.Position
}

type ucondKind int

const (
	uBounded ucondKind = iota
	uAtom
	uAnd
	uOr
	uNot
)

// classifier compiles the expressions of a model with unbounded
// variables, refusing those outside the class.
type classifier struct {
	m    *Model
	slot []int // Vars index → unbounded index, or −1
	errs source.ErrorList
}

func (k *classifier) errorf(at source.Position, format string, args ...any) {
	k.errs = append(k.errs, &source.Error{Pos: at, Msg: fmt.Sprintf(format, args...)})
}

// reads returns the first unbounded variable e reads, or nil.
func (k *classifier) reads(e *expr.Expr) *expr.Expr {
	if e == nil {
		return nil
	}
	if e.Op == expr.Var && !e.Primed {
		for i, v := range k.m.Vars {
			if v.Name == e.Name && k.slot[i] >= 0 {
				return e
			}
		}
	}
	for _, a := range e.Args {
		if r := k.reads(a); r != nil {
			return r
		}
	}
	return nil
}

// bounded refuses e if it reads an unbounded variable, saying what e is.
func (k *classifier) bounded(e *expr.Expr, what string) bool {
	if r := k.reads(e); r != nil {
		k.errorf(r.Pos, "%s reads the unbounded variable %s: only guards, and the values and the centres of the draws of unbounded variables, may read one", what, r.Name)
		return false
	}
	return true
}

func (k *classifier) unboundedVar(e *expr.Expr) (int, bool) {
	if e.Op != expr.Var || e.Primed {
		return 0, false
	}
	for i, v := range k.m.Vars {
		if v.Name == e.Name && k.slot[i] >= 0 {
			return k.slot[i], true
		}
	}
	return 0, false
}

// linear splits e into unbounded terms with signs and bounded parts.
func (k *classifier) linear(e *expr.Expr, sign int, terms *[]uterm, rest *[]*expr.Expr, inv *[]bool) bool {
	if u, ok := k.unboundedVar(e); ok {
		*terms = append(*terms, uterm{u, sign})
		return true
	}
	if k.reads(e) == nil {
		*rest = append(*rest, e)
		*inv = append(*inv, sign < 0)
		return true
	}
	switch e.Op {
	case expr.Neg:
		return k.linear(e.Args[0], -sign, terms, rest, inv)
	case expr.Sum:
		for i, a := range e.Args {
			s := sign
			if e.Inv[i] {
				s = -s
			}
			if !k.linear(a, s, terms, rest, inv) {
				return false
			}
		}
		return true
	}
	r := k.reads(e)
	k.errorf(e.Pos, "%s combines the unbounded variable %s %s: unbounded variables may only be added, subtracted and compared", e.Text, r.Name, opName(e.Op))
	return false
}

func opName(op expr.Op) string {
	switch op {
	case expr.Prod:
		return "in a product or quotient"
	case expr.Abs:
		return "in an absolute value"
	case expr.Min, expr.Max:
		return "in a min or max"
	case expr.Ite:
		return "in a conditional value"
	case expr.Mod:
		return "in a mod"
	case expr.Pow:
		return "in a power"
	case expr.Floor, expr.Ceil:
		return "in a rounding"
	case expr.Index:
		return "in an array read at a computed index"
	}
	return "in an expression"
}

// lin compiles e as an ulin with at most max unbounded variables, each
// with coefficient ±1.
func (k *classifier) lin(e *expr.Expr, max int) (ulin, bool) {
	var terms []uterm
	var rest []*expr.Expr
	var inv []bool
	if !k.linear(e, 1, &terms, &rest, &inv) {
		return ulin{}, false
	}
	return k.finish(e, terms, rest, inv, max)
}

func (k *classifier) finish(e *expr.Expr, terms []uterm, rest []*expr.Expr, inv []bool, max int) (ulin, bool) {
	coef := map[int]int{}
	var order []int
	for _, t := range terms {
		if _, ok := coef[t.u]; !ok {
			order = append(order, t.u)
		}
		coef[t.u] += t.s
	}
	var out ulin
	for _, u := range order {
		switch c := coef[u]; {
		case c == 0:
		case c == 1 || c == -1:
			out.terms = append(out.terms, uterm{u, c})
		default:
			k.errorf(e.Pos, "%s has the unbounded variable %s with coefficient %d: dpcheck decides sums and differences of unbounded variables with coefficients ±1", e.Text, k.name(u), c)
			return out, false
		}
	}
	if len(out.terms) > max {
		what := "comparisons of at most 2"
		if max == 1 {
			what = "a value or draw centre of one, negated or not, plus a bounded value"
		}
		k.errorf(e.Pos, "%s relates %d unbounded variables: dpcheck decides %s", e.Text, len(out.terms), what)
		return out, false
	}
	if len(rest) > 0 {
		// A Sum adds its first argument whatever its Inv: start from 0.
		zero := &expr.Expr{Op: expr.Num, Pos: e.Pos, Text: "0", Value: new(big.Rat)}
		sum := &expr.Expr{Op: expr.Sum, Pos: e.Pos, Text: e.Text, Args: append([]*expr.Expr{zero}, rest...), Inv: append([]bool{false}, inv...)}
		f, errs := expr.CompileNumber(sum, slots{k.m})
		if errs != nil {
			k.errs = append(k.errs, errs...)
			return out, false
		}
		out.rest = f
	}
	return out, true
}

func (k *classifier) name(u int) string {
	for i, s := range k.slot {
		if s == u {
			return k.m.Vars[i].Name
		}
	}
	return "?"
}

// cond compiles a guard.
func (k *classifier) cond(e *expr.Expr) *ucond {
	if k.reads(e) == nil {
		f, errs := expr.CompileCondition(e, slots{k.m})
		k.errs = append(k.errs, errs...)
		return &ucond{kind: uBounded, b: f, pos: e.Pos}
	}
	switch e.Op {
	case expr.Cmp:
		var terms []uterm
		var rest []*expr.Expr
		var inv []bool
		if !k.linear(e.Args[0], 1, &terms, &rest, &inv) || !k.linear(e.Args[1], -1, &terms, &rest, &inv) {
			return nil
		}
		l, ok := k.finish(e, terms, rest, inv, 2)
		if !ok {
			return nil
		}
		return &ucond{kind: uAtom, lin: l, op: e.CmpOp, pos: e.Pos}
	case expr.And, expr.Or:
		c := &ucond{kind: uAnd, pos: e.Pos}
		if e.Op == expr.Or {
			c.kind = uOr
		}
		for _, a := range e.Args {
			kid := k.cond(a)
			if kid == nil {
				return nil
			}
			c.kids = append(c.kids, kid)
		}
		return c
	case expr.Not:
		kid := k.cond(e.Args[0])
		if kid == nil {
			return nil
		}
		return &ucond{kind: uNot, kids: []*ucond{kid}, pos: e.Pos}
	case expr.Implies:
		a, b := k.cond(e.Args[0]), k.cond(e.Args[1])
		if a == nil || b == nil {
			return nil
		}
		return &ucond{kind: uOr, kids: []*ucond{{kind: uNot, kids: []*ucond{a}}, b}, pos: e.Pos}
	}
	r := k.reads(e)
	k.errorf(e.Pos, "%s reads the unbounded variable %s %s: a guard compares unbounded variables with <, <=, >, >=, = or != and combines comparisons with &, | , ! and =>", e.Text, r.Name, opName(e.Op))
	return nil
}
