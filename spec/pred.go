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
	vars   map[string]bool
	labels map[string]bool
	// reads maps every variable the compiled expressions read to where it
	// is first read.
	reads map[string]int
}

func newPredCompiler(c *checker, ch *chain.Chain, primes bool) *predCompiler {
	pc := &predCompiler{c: c, ch: ch, primes: primes, vars: map[string]bool{}, labels: map[string]bool{}, reads: map[string]int{}}
	for _, v := range ch.Vars() {
		pc.vars[v] = true
	}
	for _, l := range ch.LabelNames() {
		pc.labels[l] = true
	}
	return pc
}

func (pc *predCompiler) boolExpr(e *Expr) (boolFn, bool) {
	switch e.Op {
	case EOr, EAnd:
		fs := make([]boolFn, len(e.Args))
		for i, a := range e.Args {
			f, ok := pc.boolExpr(a)
			if !ok {
				return nil, false
			}
			fs[i] = f
		}
		if e.Op == EOr {
			return func(s, t int) (bool, error) {
				for _, f := range fs {
					if v, err := f(s, t); err != nil || v {
						return v, err
					}
				}
				return false, nil
			}, true
		}
		return func(s, t int) (bool, error) {
			for _, f := range fs {
				if v, err := f(s, t); err != nil || !v {
					return v, err
				}
			}
			return true, nil
		}, true
	case EUntil:
		pc.c.errorf(int(e.OpOff), "a temporal formula (U) cannot appear in a predicate")
		return nil, false
	case ENot:
		f, ok := pc.boolExpr(e.Args[0])
		if !ok {
			return nil, false
		}
		return func(s, t int) (bool, error) { v, err := f(s, t); return !v, err }, true
	case ETemporal:
		pc.c.errorf(e.Pos(), "a temporal formula (%s) cannot appear in a predicate", e.Text)
		return nil, false
	case ECmp:
		return pc.cmp(e)
	case EParen:
		return pc.boolExpr(e.Args[0])
	case EName:
		return pc.label(e)
	}
	pc.c.errorf(e.Pos(), "expected a condition (a comparison or a label), found a number")
	return nil, false
}

func (pc *predCompiler) cmp(e *Expr) (boolFn, bool) {
	l, ok1 := pc.num(e.Args[0])
	r, ok2 := pc.num(e.Args[1])
	if !ok1 || !ok2 {
		return nil, false
	}
	op := e.Text
	return func(s, t int) (bool, error) {
		a, err := l(s, t)
		if err == nil {
			var b qv
			if b, err = r(s, t); err == nil {
				return verify.CmpHolds(op, qcmp(a, b)), nil
			}
		}
		if pe, ok := err.(*predErr); ok && pe.missing {
			return false, nil // a comparison with a variable the state lacks is false there
		}
		return false, err
	}, true
}

func (pc *predCompiler) label(v *Expr) (boolFn, bool) {
	name := v.Text
	switch {
	case name == "true" || name == "false":
		b := name == "true"
		return func(int, int) (bool, error) { return b, nil }, true
	case pc.labels[name]:
		if v.Primed && !pc.primes {
			pc.c.errorf(v.Pos(), "%s' (a primed name) only makes sense in a neighbour predicate", name)
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
		pc.c.errorf(v.Pos(), "%s is a variable, not a condition: compare it (%s = …)", name, name)
		return nil, false
	}
	if _, ok := pc.c.lookupConst(name); ok {
		if v.Primed {
			pc.c.errorf(v.Pos(), "%s is a constant and cannot be primed", name)
			return nil, false
		}
		val, ok := pc.c.constant(v.Pos(), name)
		if !ok {
			return nil, false
		}
		if val.k != kBool {
			pc.c.errorf(v.Pos(), "constant %s is %s, not a condition", name, val.k)
			return nil, false
		}
		b := val.b
		return func(int, int) (bool, error) { return b, nil }, true
	}
	pc.c.errorf(v.Pos(), "unknown label %s%s", name, pc.knownLabels())
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

// num compiles a numeric expression over the states' variables.
func (pc *predCompiler) num(e *Expr) (numFn, bool) {
	switch e.Op {
	case ESum, EProd:
		acc, ok := pc.num(e.Args[0])
		if !ok {
			return nil, false
		}
		for _, a := range e.Args[1:] {
			r, ok := pc.num(a)
			if !ok {
				return nil, false
			}
			l := acc
			switch {
			case e.Op == ESum && !a.Minus:
				acc = func(s, t int) (qv, error) { return bin(l, r, s, t, qadd) }
			case e.Op == ESum:
				acc = func(s, t int) (qv, error) { return bin(l, r, s, t, qsub) }
			case !a.Minus:
				acc = func(s, t int) (qv, error) { return bin(l, r, s, t, qmul) }
			default:
				div := qdiv(pc.c.position(opBefore(a)))
				acc = func(s, t int) (qv, error) { return binErr(l, r, s, t, div) }
			}
		}
		return acc, true
	case ENeg:
		f, ok := pc.num(e.Args[0])
		if !ok {
			return nil, false
		}
		return func(s, t int) (qv, error) {
			v, err := f(s, t)
			return qsub(qv{}, v), err
		}, true
	case EParen:
		if in := e.Args[0]; in.Op != EOr && in.Op != EAnd && in.Op != ECmp && in.Op != ENot && in.Op != EUntil && in.Op != ETemporal {
			return pc.num(in)
		}
		pc.c.errorf(e.Pos(), "expected a number, found a condition")
		return nil, false
	case EAbs:
		f, ok := pc.num(e.Args[0])
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
	case EName:
		return pc.variable(e)
	case EPow, ENum, ECall:
		// Only constant powers and calls: evaluate them as constants.
		v, ok := constEval{pc.c}.expr(e)
		if !ok {
			return nil, false
		}
		if v.k != kNum {
			pc.c.errorf(e.Pos(), "expected a number, found %s", v.k)
			return nil, false
		}
		q := qv{r: v.num}
		if v.num.IsInt() && v.num.Num().IsInt64() {
			q = qv{i: v.num.Num().Int64()}
		}
		return func(int, int) (qv, error) { return q, nil }, true
	}
	pc.c.errorf(e.Pos(), "expected a number")
	return nil, false
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

func (pc *predCompiler) variable(v *Expr) (numFn, bool) {
	name := v.Text
	if pc.vars[name] {
		if _, seen := pc.reads[name]; !seen {
			pc.reads[name] = v.Pos()
		}
		if v.Primed && !pc.primes {
			pc.c.errorf(v.Pos(), "%s' (a primed name) only makes sense in a neighbour predicate", name)
			return nil, false
		}
		ch, primed, p := pc.ch, v.Primed, pc.c.position(v.Pos())
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
		val, ok := pc.c.constant(v.Pos(), name)
		if !ok {
			return nil, false
		}
		if val.k != kNum {
			pc.c.errorf(v.Pos(), "constant %s is %s, not a number", name, val.k)
			return nil, false
		}
		q := qv{r: val.num}
		return func(int, int) (qv, error) { return q, nil }, true
	}
	if pc.labels[name] {
		pc.c.errorf(v.Pos(), "%s is a label, not a number", name)
		return nil, false
	}
	pc.c.errorf(v.Pos(), "unknown variable %s%s", name, pc.knownVars())
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
