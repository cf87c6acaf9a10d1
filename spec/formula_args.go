package spec

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/dpcheck/dpcheck/expr"
)

// Formulas with parameters: formula noisy(q) = q + d is written out where
// it is called, noisy(a1) standing for a1 + d. A call gives one argument
// per parameter, in order or by name (noisy(q = a1)); a parameter hides a
// variable, constant or formula of the same name in the body. Formulas
// may call one another but not themselves, directly or not: that is
// refused where the formula is defined, as it could never be written out.

// instantiate returns the body of f with its parameters replaced by the
// arguments of call (the body's other nodes shared, never modified); ok
// is false after an error at the call.
func (c *checker) instantiate(f *FormulaStmt, call *Expr) (*Expr, bool) {
	params := make([]string, len(f.Params))
	for i, p := range f.Params {
		params[i] = p.Name
	}
	if len(params) == 0 {
		c.errorf(call.Pos(), "formula %s takes no arguments: write %s", f.Name.Name, f.Name.Name)
		return nil, false
	}
	if len(call.Args) != len(params) {
		c.errorf(call.Pos(), "formula %s takes %s (%s), given %d", f.Name.Name, countWord(len(params), "argument"), strings.Join(params, ", "), len(call.Args))
		return nil, false
	}
	args := map[string]*Expr{}
	named := false
	for i, a := range call.Args {
		name := params[i]
		if a.Op != EArg && named {
			c.errorf(a.Pos(), "formula %s: an argument without a name follows a named one; name it too, or give them in order", f.Name.Name)
			return nil, false
		}
		if a.Op == EArg {
			named = true
			if !slices.Contains(params, a.Text) {
				c.errorf(a.Pos(), "formula %s has no parameter %s (its parameters: %s); a comparison as an argument is written in parentheses, (%s = …)", f.Name.Name, a.Text, strings.Join(params, ", "), a.Text)
				return nil, false
			}
			name, a = a.Text, a.Args[0]
		}
		if args[name] != nil {
			c.errorf(a.Pos(), "formula %s: the parameter %s is given twice", f.Name.Name, name)
			return nil, false
		}
		args[name] = a
	}
	return substitute(f.Value, args), true
}

// substitute returns e with the unprimed names of args replaced by their
// expressions; subtrees without them are shared.
func substitute(e *Expr, args map[string]*Expr) *Expr {
	if e.Op == EName && !e.Primed {
		a, ok := args[e.Text]
		if !ok {
			return e
		}
		if a.Minus != e.Minus { // an operand subtracted or dividing stays so
			cp := *a
			cp.Minus = e.Minus
			return &cp
		}
		return a
	}
	if e.Op == EQuant && args[e.Args[0].Text] != nil {
		// The quantifier binds the name again: inside, it is its own.
		inner := maps.Clone(args)
		delete(inner, e.Args[0].Text)
		lo, hi, body := substitute(e.Args[1], args), substitute(e.Args[2], args), substitute(e.Args[3], inner)
		if lo == e.Args[1] && hi == e.Args[2] && body == e.Args[3] {
			return e
		}
		cp := *e
		cp.Args = []*Expr{e.Args[0], lo, hi, body}
		return &cp
	}
	return mapArgs(e, func(a *Expr) *Expr { return substitute(a, args) })
}

// mapArgs returns e with each operand a replaced by f(a): e itself when
// none changes, else a copy (the operands f leaves alone shared).
func mapArgs(e *Expr, f func(*Expr) *Expr) *Expr {
	var out []*Expr
	for i, a := range e.Args {
		if a == nil {
			continue
		}
		if s := f(a); s != a {
			if out == nil {
				out = slices.Clone(e.Args)
			}
			out[i] = s
		}
	}
	if out == nil {
		return e
	}
	cp := *e
	cp.Args = out
	return &cp
}

// formulaCall translates a call of the formula f, written out with its
// arguments, by tr.
func (t *translator) formulaCall(e *Expr, f *FormulaStmt, tr func(*Expr) *expr.Expr) *expr.Expr {
	if t.c.cyclic[f.Name.Name] || !t.c.writeOut(e, 1) {
		return t.failure() // refused where it is defined, or past the limit
	}
	body, ok := t.c.instantiate(f, e)
	if !ok {
		return t.failure()
	}
	return tr(body)
}

// checkFormulaCycles refuses, at its definition, a formula that calls or
// names itself, directly or through other formulas.
func (c *checker) checkFormulaCycles(order []*FormulaStmt) {
	state := map[string]int{} // 1: on the path, 2: done
	var path []string
	var visit func(f *FormulaStmt) bool
	visit = func(f *FormulaStmt) bool {
		name := f.Name.Name
		switch state[name] {
		case 1:
			i := slices.Index(path, name)
			for _, n := range path[i:] {
				c.cyclic[n] = true
			}
			c.errorf(f.Name.Off, "formula %s is defined in terms of itself (%s)", name, strings.Join(append(slices.Clone(path[i:]), name), " → "))
			return false
		case 2:
			return true
		}
		state[name] = 1
		path = append(path, name)
		ok := true
		for _, g := range c.formulaUses(f) {
			if ok = visit(g); !ok {
				break
			}
		}
		path = path[:len(path)-1]
		state[name] = 2
		return ok
	}
	for _, f := range order {
		if state[f.Name.Name] == 0 && !visit(f) {
			return
		}
	}
}

// formulaUses lists the formulas f's body names or calls (its parameters
// excepted), in order, each once.
func (c *checker) formulaUses(f *FormulaStmt) []*FormulaStmt {
	var out []*FormulaStmt
	var walk func(e *Expr)
	walk = func(e *Expr) {
		if e == nil {
			return
		}
		if (e.Op == EName || e.Op == ECall) && !slices.ContainsFunc(f.Params, func(p Word) bool { return p.Name == e.Text }) {
			if g := c.formulas[e.Text]; g != nil && !slices.Contains(out, g) {
				out = append(out, g)
			}
		}
		for _, a := range e.Args {
			walk(a)
		}
	}
	walk(f.Value)
	return out
}

// countWord is n and the word, in the plural unless n is 1.
func countWord(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
