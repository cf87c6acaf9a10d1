package expr

import (
	"fmt"
	"math/big"
	"slices"
	"sort"

	"github.com/dpcheck/dpcheck/chain"
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
	f := compileCond[states](k, e)
	if len(k.errs) > 0 {
		return nil, k.errs
	}
	out := &Compiled{Eval: func(s, t int) (bool, error) { return f(states{s, t}) }}
	for name, p := range k.reads {
		out.Reads = append(out.Reads, Read{name, p})
	}
	sort.Slice(out.Reads, func(i, j int) bool { return out.Reads[i].Pos.Offset < out.Reads[j].Pos.Offset })
	return out, nil
}

// CompileValue resolves the names of the number expression e against c
// and returns it ready to evaluate, exactly, at a state s, a variable s
// lacks read at the state t instead (the input of a run that ends at s);
// a variable both lack is an *EvalError naming s.
func CompileValue(e *Expr, c *chain.Chain) (func(s, t int) (*big.Rat, error), source.ErrorList) {
	k := &compiler{c: c, fallback: true, vars: map[string]bool{}, labels: map[string]bool{}, reads: map[string]source.Position{}, unknown: map[string]bool{}}
	for _, v := range c.Vars() {
		k.vars[v] = true
	}
	for _, l := range c.LabelNames() {
		k.labels[l] = true
	}
	f := compileNum[states](k, e)
	if len(k.errs) > 0 {
		return nil, k.errs
	}
	return func(s, t int) (*big.Rat, error) {
		q, err := f(states{s, t})
		if err != nil {
			return nil, err
		}
		return q.rat(), nil
	}, nil
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

type compiler struct {
	c      *chain.Chain
	primes bool
	// fallback reads a variable the state s lacks at t (CompileValue).
	fallback bool
	vars     map[string]bool
	labels   map[string]bool
	reads    map[string]source.Position
	errs     source.ErrorList
	// unknown are the names already reported unknown (once each).
	unknown map[string]bool
}

func (k *compiler) errorf(p source.Position, format string, args ...any) {
	k.errs = append(k.errs, &source.Error{Pos: p, Msg: fmt.Sprintf(format, args...)})
}

// states is what Compile's expressions read: the state s and, for a
// neighbour predicate, the second state t (t = s otherwise).
type states struct{ s, t int }

// condLeaf compiles a label, or reports a number where a condition is
// expected.
func (k *compiler) condLeaf(e *Expr) func(states) (bool, error) {
	switch e.Op {
	case Label:
		return k.label(e)
	case Cmp:
		return nil
	}
	k.errorf(e.Pos, "expected a condition (a comparison or a label), found a number")
	return never[states]
}

// numLeaf compiles a variable, or reports a condition where a number is
// expected.
func (k *compiler) numLeaf(e *Expr) func(states) (qv, error) {
	if e.Op == Var {
		return k.variable(e)
	}
	k.errorf(e.Pos, "expected a number, found a condition")
	return zero[states]
}

func (k *compiler) primed(e *Expr) bool {
	if e.Primed && !k.primes {
		k.errorf(e.Pos, "%s' (a primed name) only makes sense in a neighbour predicate", e.Name)
		return false
	}
	return true
}

func (k *compiler) label(e *Expr) func(states) (bool, error) {
	name := e.Name
	switch {
	case k.labels[name]:
		if !k.primed(e) {
			return never[states]
		}
		c, primed := k.c, e.Primed
		return func(x states) (bool, error) {
			if primed {
				return c.HasLabel(x.t, name), nil
			}
			return c.HasLabel(x.s, name), nil
		}
	case k.vars[name]:
		k.errorf(e.Pos, "%s is a variable, not a condition: compare it (%s = …)", name, name)
	case e.Fallback != nil:
		return compileCond[states](k, e.Fallback)
	case e.FallbackErr != "":
		k.errorf(e.Pos, "%s", e.FallbackErr)
	case !k.unknown[name]:
		k.unknown[name] = true
		k.errorf(e.Pos, "unknown label %s%s", DisplayName(name), KnownLabels(k.c))
	}
	return never[states]
}

func (k *compiler) variable(e *Expr) func(states) (qv, error) {
	name := e.Name
	switch {
	case k.vars[name]:
		if _, seen := k.reads[name]; !seen {
			k.reads[name] = e.Pos
		}
		if !k.primed(e) {
			break
		}
		c, primed, fallback, pos := k.c, e.Primed, k.fallback, e.Pos
		return func(x states) (qv, error) {
			s := x.s
			if primed {
				s = x.t
			}
			v, ok := c.Value(s, name)
			if !ok && fallback {
				if v, ok = c.Value(x.t, name); !ok {
					return qv{}, &EvalError{Pos: pos, Msg: fmt.Sprintf("the state %s has no variable %s, and neither has the input %s", c.Name(s), name, c.Name(x.t))}
				}
			}
			if !ok {
				return qv{}, missing{}
			}
			return qv{i: v}, nil
		}
	case e.Fallback != nil:
		return compileNum[states](k, e.Fallback)
	case e.FallbackErr != "":
		k.errorf(e.Pos, "%s", e.FallbackErr)
	case k.labels[name]:
		k.errorf(e.Pos, "%s is a label, not a number", name)
	case !k.unknown[name]:
		k.unknown[name] = true
		k.errorf(e.Pos, "unknown variable %s%s", name, KnownVars(k.c))
	}
	return zero[states]
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
