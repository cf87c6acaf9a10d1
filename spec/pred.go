package spec

import (
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/verify"
)

// A compiled predicate over one state (s) or an ordered pair of states (s,
// and t for primed names). Integers are computed in int64 while they are
// small, falling back to exact rationals, so that a neighbour predicate over
// millions of pairs of inputs stays cheap.

// qv is a rational: the integer i when r is nil, else r.
type qv struct {
	i int64
	r *big.Rat
}

const smallLimit = 1 << 31

func (a qv) small() bool { return a.r == nil && a.i > -smallLimit && a.i < smallLimit }

func (a qv) rat() *big.Rat {
	if a.r != nil {
		return a.r
	}
	return big.NewRat(a.i, 1)
}

func qadd(a, b qv) qv {
	if a.small() && b.small() {
		return qv{i: a.i + b.i}
	}
	return qv{r: new(big.Rat).Add(a.rat(), b.rat())}
}

func qsub(a, b qv) qv {
	if a.small() && b.small() {
		return qv{i: a.i - b.i}
	}
	return qv{r: new(big.Rat).Sub(a.rat(), b.rat())}
}

func qmul(a, b qv) qv {
	if a.small() && b.small() {
		return qv{i: a.i * b.i}
	}
	return qv{r: new(big.Rat).Mul(a.rat(), b.rat())}
}

func qcmp(a, b qv) int {
	if a.r == nil && b.r == nil {
		switch {
		case a.i < b.i:
			return -1
		case a.i > b.i:
			return 1
		}
		return 0
	}
	return a.rat().Cmp(b.rat())
}

// predErr is an error found while evaluating a predicate on states.
// missing is set when a state lacks a variable the predicate reads.
type predErr struct {
	pos     Position
	msg     string
	missing bool
}

func (e *predErr) Error() string { return e.msg }

type numFn func(s, t int) (qv, error)
type boolFn func(s, t int) (bool, error)

// predCompiler compiles expressions over the variables and labels of c.
type predCompiler struct {
	c      *checker
	ch     *chain.Chain
	primes bool // primed names allowed (neighbour predicates)
	// missingFalse makes a comparison false at a state that lacks one of
	// its variables (formula atoms); otherwise that is an error.
	missingFalse bool
	vars         map[string]bool
	labels       map[string]bool
}

func newPredCompiler(c *checker, ch *chain.Chain, primes bool) *predCompiler {
	pc := &predCompiler{c: c, ch: ch, primes: primes, vars: map[string]bool{}, labels: map[string]bool{}}
	for _, v := range ch.Vars() {
		pc.vars[v] = true
	}
	for _, l := range ch.LabelNames() {
		pc.labels[l] = true
	}
	return pc
}

func (pc *predCompiler) boolExpr(e *Expr) (boolFn, bool) {
	fs := make([]boolFn, len(e.Terms))
	for i, t := range e.Terms {
		f, ok := pc.andExpr(t)
		if !ok {
			return nil, false
		}
		fs[i] = f
	}
	if len(fs) == 1 {
		return fs[0], true
	}
	return func(s, t int) (bool, error) {
		for _, f := range fs {
			if v, err := f(s, t); err != nil || v {
				return v, err
			}
		}
		return false, nil
	}, true
}

func (pc *predCompiler) andExpr(e *AndExpr) (boolFn, bool) {
	fs := make([]boolFn, len(e.Terms))
	for i, t := range e.Terms {
		if t.Until != nil {
			pc.c.errorf(t.Until.Pos, "a temporal formula (U) cannot appear in a predicate")
			return nil, false
		}
		f, ok := pc.notExpr(t.Left)
		if !ok {
			return nil, false
		}
		fs[i] = f
	}
	if len(fs) == 1 {
		return fs[0], true
	}
	return func(s, t int) (bool, error) {
		for _, f := range fs {
			if v, err := f(s, t); err != nil || !v {
				return v, err
			}
		}
		return true, nil
	}, true
}

func (pc *predCompiler) notExpr(e *NotExpr) (boolFn, bool) {
	switch {
	case e.Not != nil:
		f, ok := pc.notExpr(e.Not)
		if !ok {
			return nil, false
		}
		return func(s, t int) (bool, error) { v, err := f(s, t); return !v, err }, true
	case e.Temp != nil:
		pc.c.errorf(e.Temp.Pos, "a temporal formula (%s) cannot appear in a predicate", e.Temp.Op)
		return nil, false
	}
	ce := e.Cmp
	if ce.Op == "" {
		return pc.boolAtom(ce.Left)
	}
	l, ok1 := pc.sum(ce.Left)
	r, ok2 := pc.sum(ce.Right)
	if !ok1 || !ok2 {
		return nil, false
	}
	op, missingFalse := ce.Op, pc.missingFalse
	return func(s, t int) (bool, error) {
		a, err := l(s, t)
		if err == nil {
			var b qv
			if b, err = r(s, t); err == nil {
				return verify.CmpHolds(op, qcmp(a, b)), nil
			}
		}
		if pe, ok := err.(*predErr); ok && pe.missing && missingFalse {
			return false, nil
		}
		return false, err
	}, true
}

// boolAtom is a sum used as a condition: a label, true/false, a boolean
// constant or a parenthesised condition.
func (pc *predCompiler) boolAtom(e *Sum) (boolFn, bool) {
	if len(e.Rest) == 0 && len(e.Left.Rest) == 0 && e.Left.Left.Power != nil && e.Left.Left.Power.Exp == nil {
		p := e.Left.Left.Power.Base
		switch {
		case p.Paren != nil:
			return pc.boolExpr(p.Paren)
		case p.Var != nil:
			return pc.label(p.Var)
		}
	}
	pc.c.errorf(e.Pos, "expected a condition (a comparison or a label), found a number")
	return nil, false
}

func (pc *predCompiler) label(v *VarRef) (boolFn, bool) {
	name := v.Name
	switch {
	case name == "true" || name == "false":
		b := name == "true"
		return func(int, int) (bool, error) { return b, nil }, true
	case pc.labels[name]:
		if v.Primed && !pc.primes {
			pc.c.errorf(v.Pos, "%s' (a primed name) only makes sense in a neighbour predicate", name)
			return nil, false
		}
		ch, primed := pc.ch, v.Primed
		return func(s, t int) (bool, error) {
			if primed {
				s = t
			}
			return ch.HasLabel(s, name), nil
		}, true
	case pc.vars[name]:
		pc.c.errorf(v.Pos, "%s is a variable, not a condition: compare it (%s = …)", name, name)
		return nil, false
	}
	if cv, ok := pc.c.lookupConst(name); ok {
		if v.Primed {
			pc.c.errorf(v.Pos, "%s is a constant and cannot be primed", name)
			return nil, false
		}
		val, ok := pc.c.constant(v)
		if !ok {
			return nil, false
		}
		if val.k != kBool {
			pc.c.errorf(v.Pos, "constant %s is %s, not a condition", name, val.k)
			return nil, false
		}
		_ = cv
		b := val.b
		return func(int, int) (bool, error) { return b, nil }, true
	}
	pc.c.errorf(v.Pos, "unknown label %s%s", name, pc.knownLabels())
	return nil, false
}

func (pc *predCompiler) knownLabels() string {
	if len(pc.ch.LabelNames()) == 0 {
		return " (the chain has no labels)"
	}
	return fmt.Sprintf(" (labels: %s)", joinLimited(pc.ch.LabelNames(), 8))
}

func (pc *predCompiler) knownVars() string {
	if len(pc.ch.Vars()) == 0 {
		return " (the chain has no variables)"
	}
	return fmt.Sprintf(" (variables: %s)", joinLimited(pc.ch.Vars(), 8))
}

func (pc *predCompiler) sum(e *Sum) (numFn, bool) {
	acc, ok := pc.term(e.Left)
	if !ok {
		return nil, false
	}
	for _, op := range e.Rest {
		r, ok := pc.term(op.Term)
		if !ok {
			return nil, false
		}
		l := acc
		if op.Op == "+" {
			acc = func(s, t int) (qv, error) { return bin(l, r, s, t, qadd) }
		} else {
			acc = func(s, t int) (qv, error) { return bin(l, r, s, t, qsub) }
		}
	}
	return acc, true
}

func bin(l, r numFn, s, t int, op func(a, b qv) qv) (qv, error) {
	return binErr(l, r, s, t, func(a, b qv) (qv, error) { return op(a, b), nil })
}

func binErr(l, r numFn, s, t int, op func(a, b qv) (qv, error)) (qv, error) {
	a, err := l(s, t)
	if err != nil {
		return qv{}, err
	}
	b, err := r(s, t)
	if err != nil {
		return qv{}, err
	}
	return op(a, b)
}

// qdiv divides, reporting division by zero at p.
func qdiv(p Position) func(a, b qv) (qv, error) {
	return func(a, b qv) (qv, error) {
		if b.r == nil && b.i == 0 || b.r != nil && b.r.Sign() == 0 {
			return qv{}, &predErr{pos: p, msg: "division by zero"}
		}
		if a.r == nil && b.r == nil && a.i%b.i == 0 {
			return qv{i: a.i / b.i}, nil
		}
		return qv{r: new(big.Rat).Quo(a.rat(), b.rat())}, nil
	}
}

func (pc *predCompiler) term(e *Term) (numFn, bool) {
	acc, ok := pc.unary(e.Left)
	if !ok {
		return nil, false
	}
	for _, op := range e.Rest {
		r, ok := pc.unary(op.Right)
		if !ok {
			return nil, false
		}
		l := acc
		if op.Op == "*" {
			acc = func(s, t int) (qv, error) { return bin(l, r, s, t, qmul) }
		} else {
			div := qdiv(pos(op.Pos))
			acc = func(s, t int) (qv, error) { return binErr(l, r, s, t, div) }
		}
	}
	return acc, true
}

func (pc *predCompiler) unary(e *Unary) (numFn, bool) {
	if e.Neg != nil {
		f, ok := pc.unary(e.Neg)
		if !ok {
			return nil, false
		}
		return func(s, t int) (qv, error) {
			v, err := f(s, t)
			return qsub(qv{}, v), err
		}, true
	}
	if e.Power.Exp != nil {
		// Only constant powers: evaluate the whole power as a constant.
		v, ok := constEval{pc.c}.unary(e)
		if !ok {
			return nil, false
		}
		if v.k != kNum {
			pc.c.errorf(e.Pos, "expected a number, found %s", v.k)
			return nil, false
		}
		q := qv{r: v.num}
		return func(int, int) (qv, error) { return q, nil }, true
	}
	return pc.primary(e.Power.Base)
}

func (pc *predCompiler) primary(p *Primary) (numFn, bool) {
	switch {
	case p.Paren != nil:
		if len(p.Paren.Terms) == 1 && len(p.Paren.Terms[0].Terms) == 1 {
			ut := p.Paren.Terms[0].Terms[0]
			if ut.Until == nil && ut.Left.Cmp != nil && ut.Left.Cmp.Op == "" {
				return pc.sum(ut.Left.Cmp.Left)
			}
		}
		pc.c.errorf(p.Pos, "expected a number, found a condition")
		return nil, false
	case p.Abs != nil:
		f, ok := pc.sum(p.Abs)
		if !ok {
			return nil, false
		}
		return func(s, t int) (qv, error) {
			v, err := f(s, t)
			if err != nil {
				return v, err
			}
			if qcmp(v, qv{}) < 0 {
				return qsub(qv{}, v), nil
			}
			return v, nil
		}, true
	case p.Var != nil:
		return pc.variable(p.Var)
	case p.Number != "" || p.Call != nil:
		v, ok := constEval{pc.c}.primary(p)
		if !ok {
			return nil, false
		}
		if v.k != kNum {
			pc.c.errorf(p.Pos, "expected a number, found %s", v.k)
			return nil, false
		}
		q := qv{r: v.num}
		if v.num.IsInt() && v.num.Num().IsInt64() {
			q = qv{i: v.num.Num().Int64()}
		}
		return func(int, int) (qv, error) { return q, nil }, true
	}
	pc.c.errorf(p.Pos, "expected a number")
	return nil, false
}

func (pc *predCompiler) variable(v *VarRef) (numFn, bool) {
	name := v.Name
	if pc.vars[name] {
		if v.Primed && !pc.primes {
			pc.c.errorf(v.Pos, "%s' (a primed name) only makes sense in a neighbour predicate", name)
			return nil, false
		}
		ch, primed, p := pc.ch, v.Primed, pos(v.Pos)
		return func(s, t int) (qv, error) {
			if primed {
				s = t
			}
			x, ok := ch.Value(s, name)
			if !ok {
				return qv{}, &predErr{p, fmt.Sprintf("state %s has no variable %s", displayName(ch.Name(s)), name), true}
			}
			return qv{i: x}, nil
		}, true
	}
	if _, ok := pc.c.lookupConst(name); ok && !v.Primed {
		val, ok := pc.c.constant(v)
		if !ok {
			return nil, false
		}
		if val.k != kNum {
			pc.c.errorf(v.Pos, "constant %s is %s, not a number", name, val.k)
			return nil, false
		}
		q := qv{r: val.num}
		return func(int, int) (qv, error) { return q, nil }, true
	}
	if pc.labels[name] {
		pc.c.errorf(v.Pos, "%s is a label, not a number", name)
		return nil, false
	}
	pc.c.errorf(v.Pos, "unknown variable %s%s", name, pc.knownVars())
	return nil, false
}

func joinLimited(xs []string, n int) string {
	if len(xs) <= n {
		return join(xs)
	}
	return join(xs[:n]) + fmt.Sprintf(", … (%d in all)", len(xs))
}

func join(xs []string) string {
	out := ""
	for i, x := range xs {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out
}

// displayName quotes a state name that is not an identifier ("-").
func displayName(name string) string {
	for i, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return fmt.Sprintf("%q", name)
		}
	}
	return name
}
