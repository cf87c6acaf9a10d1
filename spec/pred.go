package spec

import (
	"fmt"
	"github.com/dpcheck/dpcheck/expr"
)

// Conditions over states — neighbour predicates, inputs where, the atoms of
// formulas — become expr expressions: constants are folded here, and the
// names left (variables and labels) are resolved against the model's chain
// by property.Prepare.

// condition translates a condition; primes allows primed names. It returns
// nil after reporting an error.
func (c *checker) condition(e *Expr, primes bool) *expr.Expr {
	t := &translator{c: c, primes: primes}
	out := t.cond(e)
	if t.failed {
		return nil
	}
	return out
}

// number translates a number expression over a state's variables (that
// of expected(f)), or returns nil after reporting its errors.
func (c *checker) number(e *Expr) *expr.Expr {
	t := &translator{c: c}
	out := t.num(e)
	if t.failed {
		return nil
	}
	return out
}

type translator struct {
	c      *checker
	primes bool
	failed bool
	// paramOK allows the file's parameter (in a module's update
	// probability or a draw's first argument); role names the expression
	// in the error where it is not allowed ("a guard").
	paramOK bool
	role    string
}

// fail reports an error at e and fails the translation.
func (t *translator) fail(e *Expr, format string, args ...any) *expr.Expr {
	t.c.errorf(e.Pos(), format, args...)
	return t.failure()
}

// failure fails the translation, its error reported, and returns a
// placeholder for the expression.
func (t *translator) failure() *expr.Expr {
	t.failed = true
	return &expr.Expr{Op: expr.Bool}
}

func (t *translator) node(op expr.Op, e *Expr, args ...*expr.Expr) *expr.Expr {
	return &expr.Expr{Op: op, Pos: t.c.position(e.Pos()), Text: exprText(e), Args: args}
}

// unfolded translates the quantifier or fold e, written out, by tr.
func (t *translator) unfolded(e *Expr, tr func(*Expr) *expr.Expr) *expr.Expr {
	u, ok := t.c.unfold(e)
	if !ok {
		return t.failure()
	}
	return tr(u)
}

// calledFormula is the formula e calls, or nil.
func (t *translator) calledFormula(e *Expr) *FormulaStmt {
	if e.Op != ECall {
		return nil
	}
	return t.c.formulas[e.Text]
}

func (t *translator) cond(e *Expr) *expr.Expr {
	if f := t.calledFormula(e); f != nil {
		return t.formulaCall(e, f, t.cond)
	}
	if e.Op == EQuant {
		return t.unfolded(e, t.cond)
	}
	switch e.Op {
	case EOr, EAnd:
		return t.junction(t.node(0, e), e, t.cond)
	case EUntil:
		t.c.errorf(int(e.OpOff), "a temporal formula (U) cannot appear in a predicate")
		return t.failure()
	case ETemporal:
		return t.fail(e, "a temporal formula (%s) cannot appear in a predicate", e.Text)
	case ENot:
		return t.node(expr.Not, e, t.cond(e.Args[0]))
	case ECmp:
		n := t.node(expr.Cmp, e, t.num(e.Args[0]), t.num(e.Args[1]))
		n.CmpOp = e.Text
		return n
	case EParen:
		return t.cond(e.Args[0])
	case EName:
		return t.name(e, true)
	case EIndex:
		// The chain's states hold numbers: a boolean element is 0 or 1
		// here, as a boolean variable is.
		return t.fail(e, "%s is a variable, not a condition: compare it (%s = …)", shown(e), shown(e))
	case EImplies:
		return t.node(expr.Implies, e, t.cond(e.Args[0]), t.cond(e.Args[1]))
	case EIte:
		return t.node(expr.Ite, e, t.cond(e.Args[0]), t.cond(e.Args[1]), t.cond(e.Args[2]))
	}
	return t.fail(e, "expected a condition (a comparison or a label), found a number")
}

// name translates a name: true or false, or a label (as a condition) or a
// variable (as a number) of the chain — or, when the chain has none of that
// name, a constant (folded here, used by property.Prepare as a fallback).
func (t *translator) name(e *Expr, asCond bool) *expr.Expr {
	if e.Text == "true" || e.Text == "false" {
		if !asCond {
			return t.fail(e, "expected a number, found a condition")
		}
		n := t.node(expr.Bool, e)
		n.Truth = e.Text == "true"
		return n
	}
	if e.Primed && !t.primes {
		t.c.errPrimed(e)
		return t.failure()
	}
	if t.c.formulas[e.Text] != nil && t.c.vars != nil {
		return t.formulaRef(e) // a module's formula, expanded
	}
	if arr := t.c.arrays[e.Text]; arr != nil {
		return t.fail(e, "%s is an array, %s: compare its elements (%s[j]), or its two inputs' with a distance, l1(%s), linf(%s) or hamming(%s)", e.Text, arr.indices(), e.Text, e.Text, e.Text, e.Text)
	}
	op := expr.Var
	if asCond {
		op = expr.Label
	}
	n := t.node(op, e)
	n.Name, n.Primed = e.Text, e.Primed
	if t.c.consts[e.Text] == nil {
		return n
	}
	v, ok := t.c.constant(e.Pos(), e.Text)
	switch {
	case !ok:
		t.failed = true
	case e.Primed:
		n.FallbackErr = e.Text + " is a constant and cannot be primed"
	case asCond && v.k != kBool:
		n.FallbackErr = "constant " + e.Text + " is " + v.k.String() + ", not a condition"
	case !asCond && v.k != kNum:
		n.FallbackErr = "constant " + e.Text + " is " + v.k.String() + ", not a number"
	case asCond:
		n.Fallback = t.node(expr.Bool, e)
		n.Fallback.Truth = v.b
	default:
		n.Fallback = t.node(expr.Num, e)
		n.Fallback.Value = v.num
	}
	return n
}

func (t *translator) num(e *Expr) *expr.Expr {
	if f := t.calledFormula(e); f != nil {
		return t.formulaCall(e, f, t.num)
	}
	if e.Op == EQuant {
		return t.unfolded(e, t.num)
	}
	switch e.Op {
	case ESum, EProd:
		return t.arith(t.node(0, e), e, t.num)
	case ENeg:
		return t.node(expr.Neg, e, t.num(e.Args[0]))
	case EParen:
		if in := e.Args[0]; !isConditionAST(in) {
			return t.num(in)
		}
		return t.fail(e, "expected a number, found a condition")
	case EAbs:
		return t.node(expr.Abs, e, t.num(e.Args[0]))
	case EName:
		return t.name(e, false)
	case EIndex:
		return t.indexed(e, false, t.num, func(x *Expr) *expr.Expr { return t.name(x, false) })
	case EIte:
		return t.node(expr.Ite, e, t.cond(e.Args[0]), t.num(e.Args[1]), t.num(e.Args[2]))
	case EPow:
		return t.node(expr.Pow, e, t.num(e.Args[0]), t.num(e.Args[1]))
	case ECall:
		if f, ok := moduleFuncs[e.Text]; ok {
			return t.call(e, f, t.num)
		}
		if t.c.isDistance(e) {
			return t.distance(e)
		}
		fallthrough
	case ENum:
		// Other calls (ln) only as constants.
		v, ok := constEval{t.c}.expr(e)
		if !ok {
			return t.failure()
		}
		if v.k != kNum {
			return t.fail(e, "expected a number, found %s", v.k)
		}
		n := t.node(expr.Num, e)
		n.Value = v.num
		return n
	}
	return t.fail(e, "expected a number")
}

// junction makes n the conjunction or disjunction e, its operands
// translated with arg.
func (t *translator) junction(n *expr.Expr, e *Expr, arg func(*Expr) *expr.Expr) *expr.Expr {
	n.Op = expr.And
	if e.Op == EOr {
		n.Op = expr.Or
	}
	for _, a := range e.Args {
		n.Args = append(n.Args, arg(a))
	}
	return n
}

// arith makes n the sum or product e, its operands translated with arg.
func (t *translator) arith(n *expr.Expr, e *Expr, arg func(*Expr) *expr.Expr) *expr.Expr {
	n.Op = expr.Sum
	if e.Op == EProd {
		n.Op = expr.Prod
	}
	for _, a := range e.Args {
		x := arg(a)
		if e.Op == EProd && a.Minus {
			x.Pos = t.c.position(opBefore(a)) // a division by zero points at the /
		}
		n.Args = append(n.Args, x)
		n.Inv = append(n.Inv, a.Minus)
	}
	return n
}

func isConditionAST(e *Expr) bool {
	switch e.Op {
	case EOr, EAnd, ECmp, ENot, EUntil, ETemporal, EImplies:
		return true
	case EIte:
		return isConditionAST(e.Args[1])
	}
	return false
}

// call translates min, max, floor, ceil, mod, pow or abs, its arguments
// with arg.
func (t *translator) call(e *Expr, f function, arg func(*Expr) *expr.Expr) *expr.Expr {
	if f.arity > 0 && len(e.Args) != f.arity || f.arity < 0 && len(e.Args) < 2 {
		want := fmt.Sprint(f.arity)
		if f.arity < 0 {
			want = "two or more"
		}
		return t.fail(e, "%s takes %s arguments", e.Text, want)
	}
	n := t.node(f.op, e)
	for _, a := range e.Args {
		if a.Op == EArg {
			return t.fail(a, "%s takes no named arguments", e.Text)
		}
		n.Args = append(n.Args, arg(a))
	}
	return n
}
