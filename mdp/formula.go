package mdp

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dpcheck/dpcheck/verify"
)

// Residual formulas: what remains to be checked of a path formula after
// some steps. A residual is interned (equal residuals share an id); ids 0
// and 1 are false and true.

type rop uint8

const (
	rFalse rop = iota
	rTrue
	rLeaf // a propositional state formula
	rNot
	rAnd
	rOr
	rNext  // X^k
	rUntil // U<=k, or U when k < 0
)

type rform struct {
	op   rop
	leaf int // rLeaf: index into forms.sat
	k    int
	args []int
}

const (
	idFalse = 0
	idTrue  = 1
)

// forms interns residuals and decides them at states.
type forms struct {
	m      *MDP
	list   []rform
	byKey  map[string]int
	sat    [][]bool
	leafOf map[string]int
	dmemo  map[[2]int]int
}

func newForms(m *MDP) *forms {
	f := &forms{m: m, byKey: map[string]int{}, leafOf: map[string]int{}, dmemo: map[[2]int]int{}}
	f.intern(rform{op: rFalse})
	f.intern(rform{op: rTrue})
	return f
}

func (f *forms) intern(r rform) int {
	var b strings.Builder
	b.WriteString(strconv.Itoa(int(r.op)))
	b.WriteByte(':')
	b.WriteString(strconv.Itoa(r.leaf))
	b.WriteByte(':')
	b.WriteString(strconv.Itoa(r.k))
	for _, a := range r.args {
		b.WriteByte(',')
		b.WriteString(strconv.Itoa(a))
	}
	k := b.String()
	if id, ok := f.byKey[k]; ok {
		return id
	}
	id := len(f.list)
	f.list = append(f.list, r)
	f.byKey[k] = id
	return id
}

func (f *forms) not(a int) int {
	switch {
	case a == idFalse:
		return idTrue
	case a == idTrue:
		return idFalse
	case f.list[a].op == rNot:
		return f.list[a].args[0]
	}
	return f.intern(rform{op: rNot, args: []int{a}})
}

// junction builds the conjunction (and) or disjunction of args, flattened,
// sorted, without duplicates and simplified.
func (f *forms) junction(and bool, args []int) int {
	unit, zero, op := idTrue, idFalse, rAnd
	if !and {
		unit, zero, op = idFalse, idTrue, rOr
	}
	var out []int
	for _, a := range args {
		switch {
		case a == zero:
			return zero
		case a == unit:
		case f.list[a].op == op:
			out = append(out, f.list[a].args...)
		default:
			out = append(out, a)
		}
	}
	slices.Sort(out)
	out = slices.Compact(out)
	switch len(out) {
	case 0:
		return unit
	case 1:
		return out[0]
	}
	return f.intern(rform{op: op, args: out})
}

func (f *forms) next(k, a int) int {
	if k == 0 || a == idFalse || a == idTrue {
		return a
	}
	return f.intern(rform{op: rNext, k: k, args: []int{a}})
}

func (f *forms) until(k, l, r int) int {
	if r <= idTrue || k == 0 || l == idFalse {
		return r
	}
	return f.intern(rform{op: rUntil, k: k, args: []int{l, r}})
}

// isPropositional reports whether g is built from true, false, labels,
// atoms, !, & and |: a state formula without P or D.
func isPropositional(g *verify.Formula) bool {
	return g.IsState() && !g.Uses(verify.OpProb) && !g.Uses(verify.OpDP)
}

// errUnsupported says what in g is not supported on MDPs.
func errUnsupported(g *verify.Formula, what string) error {
	return fmt.Errorf("mdp: %s in %s is not supported on MDPs: %s", opName(g.Op), g.Text(verify.MaxFormulaText), what)
}

func opName(op verify.Op) string {
	switch op {
	case verify.OpProb:
		return "P…[…]"
	case verify.OpDP:
		return "D{…}[…]"
	case verify.OpNext:
		return "X"
	case verify.OpUntil:
		return "U"
	}
	return "the operator"
}

// leaf interns the propositional state formula g.
func (f *forms) leaf(ctx context.Context, g *verify.Formula) (int, error) {
	switch g.Op {
	case verify.OpTrue:
		return idTrue, nil
	case verify.OpFalse:
		return idFalse, nil
	}
	key := g.String()
	if id, ok := f.leafOf[key]; ok {
		return id, nil
	}
	sat, err := f.m.Sat(ctx, g)
	if err != nil {
		return 0, err
	}
	f.sat = append(f.sat, sat)
	id := f.intern(rform{op: rLeaf, leaf: len(f.sat) - 1})
	f.leafOf[key] = id
	return id, nil
}

// convert turns a path (or state) formula into a residual. State
// formulas must be propositional; X, U, !, & and | nest freely.
func (f *forms) convert(ctx context.Context, g *verify.Formula) (int, error) {
	switch g.Op {
	case verify.OpProb, verify.OpDP:
		return 0, errUnsupported(g, "state formulas inside a path formula must be propositional (labels, atoms, !, &, |)")
	case verify.OpNext:
		a, err := f.convert(ctx, g.Args[0])
		if err != nil {
			return 0, err
		}
		return f.next(g.K, a), nil
	case verify.OpUntil:
		l, err := f.convert(ctx, g.Args[0])
		if err != nil {
			return 0, err
		}
		r, err := f.convert(ctx, g.Args[1])
		if err != nil {
			return 0, err
		}
		if g.Lo == 0 {
			return f.until(g.K, l, r), nil
		}
		// l U[lo,k] r = l & X (l & X (… l U[0,k−lo] r)).
		k := g.K
		if k >= 0 {
			k -= g.Lo
		}
		res := f.until(k, l, r)
		for range g.Lo {
			res = f.junction(true, []int{l, f.next(1, res)})
		}
		return res, nil
	case verify.OpNot:
		if isPropositional(g) {
			return f.leaf(ctx, g)
		}
		a, err := f.convert(ctx, g.Args[0])
		if err != nil {
			return 0, err
		}
		return f.not(a), nil
	case verify.OpAnd, verify.OpOr:
		if isPropositional(g) {
			return f.leaf(ctx, g)
		}
		args := make([]int, len(g.Args))
		for i, a := range g.Args {
			id, err := f.convert(ctx, a)
			if err != nil {
				return 0, err
			}
			args[i] = id
		}
		return f.junction(g.Op == verify.OpAnd, args), nil
	}
	return f.leaf(ctx, g)
}

// decide evaluates residual id at state s, the current state of a path:
// idTrue or idFalse when decided there, otherwise the residual to check
// from the next state on.
func (f *forms) decide(id, s int) int {
	if id <= idTrue {
		return id
	}
	mk := [2]int{id, s}
	if v, ok := f.dmemo[mk]; ok {
		return v
	}
	r := f.list[id]
	var v int
	switch r.op {
	case rLeaf:
		v = idFalse
		if f.sat[r.leaf][s] {
			v = idTrue
		}
	case rNot:
		v = f.not(f.decide(r.args[0], s))
	case rAnd, rOr:
		args := make([]int, len(r.args))
		for i, a := range r.args {
			args[i] = f.decide(a, s)
		}
		v = f.junction(r.op == rAnd, args)
	case rNext:
		v = f.next(r.k-1, r.args[0])
	case rUntil:
		dr := f.decide(r.args[1], s)
		if dr == idTrue || r.k == 0 {
			v = dr
			break
		}
		rest := id
		if r.k > 0 {
			rest = f.until(r.k-1, r.args[0], r.args[1])
		}
		v = f.junction(false, []int{dr, f.junction(true, []int{f.decide(r.args[0], s), rest})})
	}
	f.dmemo[mk] = v
	return v
}

// constant evaluates residual id on the path that stays at s forever.
func (f *forms) constant(id, s int) bool {
	r := f.list[id]
	switch r.op {
	case rTrue:
		return true
	case rLeaf:
		return f.sat[r.leaf][s]
	case rNot:
		return !f.constant(r.args[0], s)
	case rAnd:
		for _, a := range r.args {
			if !f.constant(a, s) {
				return false
			}
		}
		return true
	case rOr:
		for _, a := range r.args {
			if f.constant(a, s) {
				return true
			}
		}
		return false
	case rNext:
		return f.constant(r.args[0], s)
	case rUntil:
		return f.constant(r.args[1], s)
	}
	return false
}

// horizon returns the number of steps after which residual id is decided
// on every path, or -1 when it contains an unbounded U.
func (f *forms) horizon(id int) int {
	r := f.list[id]
	h := 0
	for _, a := range r.args {
		ha := f.horizon(a)
		if ha < 0 {
			return -1
		}
		h = max(h, ha)
	}
	switch r.op {
	case rNext:
		h += r.k
	case rUntil:
		if r.k < 0 {
			return -1
		}
		h += r.k
	}
	return h
}

// leaves returns the propositional leaves of residual id.
func (f *forms) leaves(id int, out map[int]bool) {
	r := f.list[id]
	if r.op == rLeaf {
		out[r.leaf] = true
	}
	for _, a := range r.args {
		f.leaves(a, out)
	}
}
