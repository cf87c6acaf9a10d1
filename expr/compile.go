package expr

import (
	"fmt"
	"math/big"
	"slices"
	"sort"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/source"
)

// Pred decides a condition at a state s, with t the second state of a
// neighbour predicate (t = s otherwise).
type Pred func(s, t int) (bool, error)

// Compiled is a condition compiled against a chain.
type Compiled struct {
	Eval Pred
	// Reads lists the variables the condition reads, each with where it is
	// first read, in the order of the source.
	Reads []Read
}

// Read is a variable a condition reads.
type Read struct {
	Name string
	Pos  source.Position
}

// Compile resolves the names of the condition e against c and returns it
// ready to evaluate; primes allows primed names (neighbour predicates).
// Every unknown or misused name is reported, at its position.
func Compile(e *Expr, c *chain.Chain, primes bool) (*Compiled, source.ErrorList) {
	k := &compiler{c: c, primes: primes, vars: map[string]bool{}, labels: map[string]bool{}, reads: map[string]source.Position{}, unknown: map[string]bool{}}
	for _, v := range c.Vars() {
		k.vars[v] = true
	}
	for _, l := range c.LabelNames() {
		k.labels[l] = true
	}
	f := k.cond(e)
	if len(k.errs) > 0 {
		return nil, k.errs
	}
	out := &Compiled{Eval: f}
	for name, p := range k.reads {
		out.Reads = append(out.Reads, Read{name, p})
	}
	sort.Slice(out.Reads, func(i, j int) bool { return out.Reads[i].Pos.Offset < out.Reads[j].Pos.Offset })
	return out, nil
}

// EvalError is an error found while evaluating a condition at a state, such
// as a division by zero.
type EvalError struct {
	Pos source.Position
	Msg string
}

func (e *EvalError) Error() string { return e.Pos.String() + ": " + e.Msg }

// missing is the error of reading a variable a state lacks: the comparison
// that reads it is false there.
type missing struct{}

func (missing) Error() string { return "missing variable" }

type numFn func(s, t int) (qv, error)

type compiler struct {
	c      *chain.Chain
	primes bool
	vars   map[string]bool
	labels map[string]bool
	reads  map[string]source.Position
	errs   source.ErrorList
	// unknown are the names already reported unknown (once each).
	unknown map[string]bool
}

func (k *compiler) errorf(p source.Position, format string, args ...any) {
	k.errs = append(k.errs, &source.Error{Pos: p, Msg: fmt.Sprintf(format, args...)})
}

// never is the function of a condition that has errors.
func never(int, int) (bool, error) { return false, nil }

func (k *compiler) cond(e *Expr) Pred {
	switch e.Op {
	case Bool:
		b := e.Truth
		return func(int, int) (bool, error) { return b, nil }
	case Label:
		return k.label(e)
	case Not:
		f := k.cond(e.Args[0])
		return func(s, t int) (bool, error) { v, err := f(s, t); return !v, err }
	case And, Or:
		fs := make([]Pred, len(e.Args))
		for i, a := range e.Args {
			fs[i] = k.cond(a)
		}
		stop := e.Op == Or // the value that decides the whole
		return func(s, t int) (bool, error) {
			for _, f := range fs {
				if v, err := f(s, t); err != nil || v == stop {
					return v, err
				}
			}
			return !stop, nil
		}
	case Cmp:
		l, r := k.num(e.Args[0]), k.num(e.Args[1])
		op := e.CmpOp
		return func(s, t int) (bool, error) {
			a, err := l(s, t)
			if err == nil {
				var b qv
				if b, err = r(s, t); err == nil {
					return exact.CmpHolds(op, qcmp(a, b)), nil
				}
			}
			if _, ok := err.(missing); ok {
				return false, nil // a variable the state lacks: false there
			}
			return false, err
		}
	case Implies, Iff:
		l, r := k.cond(e.Args[0]), k.cond(e.Args[1])
		iff := e.Op == Iff
		return func(s, t int) (bool, error) {
			a, err := l(s, t)
			if err != nil {
				return false, err
			}
			b, err := r(s, t)
			if iff {
				return a == b, err
			}
			return !a || b, err
		}
	case Ite:
		c, a, b := k.cond(e.Args[0]), k.cond(e.Args[1]), k.cond(e.Args[2])
		return func(s, t int) (bool, error) {
			x, err := c(s, t)
			if err != nil {
				return false, err
			}
			if x {
				return a(s, t)
			}
			return b(s, t)
		}
	}
	k.errorf(e.Pos, "expected a condition (a comparison or a label), found a number")
	return never
}

func (k *compiler) primed(e *Expr) bool {
	if e.Primed && !k.primes {
		k.errorf(e.Pos, "%s' (a primed name) only makes sense in a neighbour predicate", e.Name)
		return false
	}
	return true
}

func (k *compiler) label(e *Expr) Pred {
	name := e.Name
	switch {
	case k.labels[name]:
		if !k.primed(e) {
			return never
		}
		c, primed := k.c, e.Primed
		return func(s, t int) (bool, error) {
			if primed {
				s = t
			}
			return c.HasLabel(s, name), nil
		}
	case k.vars[name]:
		k.errorf(e.Pos, "%s is a variable, not a condition: compare it (%s = …)", name, name)
	case e.Fallback != nil:
		return k.cond(e.Fallback)
	case e.FallbackErr != "":
		k.errorf(e.Pos, "%s", e.FallbackErr)
	case !k.unknown[name]:
		k.unknown[name] = true
		k.errorf(e.Pos, "unknown label %s%s", DisplayName(name), KnownLabels(k.c))
	}
	return never
}

func (k *compiler) num(e *Expr) numFn {
	switch e.Op {
	case Num:
		q := qv{r: e.Value}
		if e.Value.IsInt() && e.Value.Num().IsInt64() {
			q = qv{i: e.Value.Num().Int64()}
		}
		return func(int, int) (qv, error) { return q, nil }
	case Var:
		return k.variable(e)
	case Neg:
		f := k.num(e.Args[0])
		return func(s, t int) (qv, error) {
			v, err := f(s, t)
			return qsub(qv{}, v), err
		}
	case Abs:
		f := k.num(e.Args[0])
		return func(s, t int) (qv, error) {
			v, err := f(s, t)
			if err == nil && qcmp(v, qv{}) < 0 {
				v = qsub(qv{}, v)
			}
			return v, err
		}
	case Sum, Prod:
		acc := k.num(e.Args[0])
		for i, a := range e.Args[1:] {
			r, l := k.num(a), acc
			var op func(a, b qv) (qv, error)
			switch inv := e.Inv[i+1]; {
			case e.Op == Sum && !inv:
				op = func(a, b qv) (qv, error) { return qadd(a, b), nil }
			case e.Op == Sum:
				op = func(a, b qv) (qv, error) { return qsub(a, b), nil }
			case !inv:
				op = func(a, b qv) (qv, error) { return qmul(a, b), nil }
			default:
				op = qdiv(a.Pos)
			}
			acc = func(s, t int) (qv, error) {
				x, err := l(s, t)
				if err != nil {
					return qv{}, err
				}
				y, err := r(s, t)
				if err != nil {
					return qv{}, err
				}
				return op(x, y)
			}
		}
		return acc
	case Min, Max:
		fs := make([]numFn, len(e.Args))
		for i, a := range e.Args {
			fs[i] = k.num(a)
		}
		want := 1
		if e.Op == Min {
			want = -1
		}
		return func(s, t int) (qv, error) {
			best, err := fs[0](s, t)
			for _, f := range fs[1:] {
				if err != nil {
					return best, err
				}
				var x qv
				if x, err = f(s, t); qcmp(x, best) == want {
					best = x
				}
			}
			return best, err
		}
	case Floor, Ceil:
		f, ceil := k.num(e.Args[0]), e.Op == Ceil
		return func(s, t int) (qv, error) {
			x, err := f(s, t)
			if err != nil {
				return x, err
			}
			return qround(x, ceil), nil
		}
	case Mod, Pow:
		a, b := k.num(e.Args[0]), k.num(e.Args[1])
		op := binaryOp(e)
		return func(s, t int) (qv, error) {
			x, err := a(s, t)
			if err != nil {
				return x, err
			}
			y, err := b(s, t)
			if err != nil {
				return y, err
			}
			return op(x, y)
		}
	case Ite:
		c, a, b := k.cond(e.Args[0]), k.num(e.Args[1]), k.num(e.Args[2])
		return func(s, t int) (qv, error) {
			x, err := c(s, t)
			if err != nil {
				return qv{}, err
			}
			if x {
				return a(s, t)
			}
			return b(s, t)
		}
	}
	k.errorf(e.Pos, "expected a number, found a condition")
	return func(int, int) (qv, error) { return qv{}, nil }
}

func (k *compiler) variable(e *Expr) numFn {
	name := e.Name
	switch {
	case k.vars[name]:
		if _, seen := k.reads[name]; !seen {
			k.reads[name] = e.Pos
		}
		if !k.primed(e) {
			break
		}
		c, primed := k.c, e.Primed
		return func(s, t int) (qv, error) {
			if primed {
				s = t
			}
			x, ok := c.Value(s, name)
			if !ok {
				return qv{}, missing{}
			}
			return qv{i: x}, nil
		}
	case e.Fallback != nil:
		return k.num(e.Fallback)
	case e.FallbackErr != "":
		k.errorf(e.Pos, "%s", e.FallbackErr)
	case k.labels[name]:
		k.errorf(e.Pos, "%s is a label, not a number", name)
	case !k.unknown[name]:
		k.unknown[name] = true
		k.errorf(e.Pos, "unknown variable %s%s", name, KnownVars(k.c))
	}
	return func(int, int) (qv, error) { return qv{}, nil }
}

// qdiv divides, reporting division by zero at p.
func qdiv(p source.Position) func(a, b qv) (qv, error) {
	return func(a, b qv) (qv, error) {
		if b.r == nil && b.i == 0 || b.r != nil && b.r.Sign() == 0 {
			return qv{}, &EvalError{Pos: p, Msg: "division by zero"}
		}
		if a.small() && b.small() && a.i%b.i == 0 {
			return qv{i: a.i / b.i}, nil
		}
		return qv{r: new(big.Rat).Quo(a.rat(), b.rat())}, nil
	}
}

// KnownLabels lists c's labels for a message: " (labels: a, b)".
func KnownLabels(c *chain.Chain) string {
	if len(c.LabelNames()) == 0 {
		return " (the chain has no labels)"
	}
	return fmt.Sprintf(" (labels: %s)", JoinLimited(c.LabelNames(), 8))
}

// KnownVars lists c's variables for a message: " (variables: x, y)".
func KnownVars(c *chain.Chain) string {
	if len(c.Vars()) == 0 {
		return " (the chain has no variables)"
	}
	return fmt.Sprintf(" (variables: %s)", JoinLimited(c.Vars(), 8))
}

// JoinLimited joins the first n names and says how many there are in all.
func JoinLimited(xs []string, n int) string {
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

// DisplayName quotes a state or label name that is not an identifier ("-").
func DisplayName(name string) string {
	for i, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return fmt.Sprintf("%q", name)
		}
	}
	if name == "" || slices.Contains([]string{"true", "false"}, name) {
		return fmt.Sprintf("%q", name)
	}
	return name
}
