package spec

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/statespace"
)

// Modules of guarded commands become a statespace.Model: every name
// resolved (a variable, a formula expanded, a constant folded), every draw
// checked; statespace explores it when the program is prepared.

// draws are the distributions a variable may be drawn from, and their
// parameters.
var draws = map[string]struct {
	kind   statespace.NoiseKind
	params []string
}{
	"geometric":  {statespace.Geometric, []string{"alpha", "centre", "lo", "hi"}},
	"geometric1": {statespace.Geometric1, []string{"alpha", "centre", "lo", "hi"}},
	"uniform":    {statespace.Uniform, []string{"lo", "hi"}},
	"bernoulli":  {statespace.Bernoulli, []string{"p"}},
}

// MaxExpandedNodes bounds the expression nodes of a file's modules, with
// every formula written out where it is used (formulas that use formulas
// twice grow exponentially).
const MaxExpandedNodes = 1_000_000

// MaxExpandedDepth bounds how deeply a module's expressions nest with
// every formula written out where it is used, and how many constants a
// constant's value goes through: a chain of formulas (or constants), each
// using the previous one, nests as deep as it is long, whatever the
// nesting of each, and no expression walked recursively may exhaust the
// stack.
const MaxExpandedDepth = 10_000

// modules checks the module blocks, formulas and labels of a file.
func (c *checker) modules(mods []*ModuleStmt, inputs *InputsStmt) *statespace.Model {
	m := &statespace.Model{Semantics: statespace.DP, Pos: c.position(mods[0].Start)}
	var names []string
	var mdpAt *ModuleStmt // the first mdp module
	for _, mod := range mods {
		names = append(names, mod.Name.Name)
		if mod.MDP && mdpAt == nil {
			mdpAt = mod
		}
	}
	m.MDP = mdpAt != nil
	mdpOK := true
	for _, mod := range mods {
		if m.MDP && !mod.MDP {
			c.errorf(mod.Start, "module %s is a Markov chain's, and mdp module %s (line %d) makes the model an MDP: write mdp module %s", mod.Name.Name, mdpAt.Name.Name, c.position(mdpAt.Start).Line, mod.Name.Name)
			mdpOK = false
		}
	}
	m.Name = "module " + strings.Join(names, ", ")
	if len(mods) > 1 {
		m.Name = "modules " + strings.Join(names, ", ")
	}
	c.vars, c.inputVars, c.intVars, c.arrays = map[string]int{}, map[string]bool{}, map[string]bool{}, map[string]*array{}
	owner := map[string]int{}
	ok := mdpOK
	seen := map[string]int{}
	for mi, mod := range mods {
		m.Modules = append(m.Modules, mod.Name.Name)
		if isKeyword(mod.Name.Name) {
			c.errKeyword(mod.Name.Off, mod.Name.Name, "a module")
			ok = false
		} else if prev, dup := seen[mod.Name.Name]; dup {
			c.errorf(mod.Name.Off, "module %s is already declared at line %d", mod.Name.Name, c.position(mods[prev].Start).Line)
			ok = false
		}
		seen[mod.Name.Name] = mi
		for _, d := range mod.Vars {
			name := d.Name.Name
			switch {
			case isKeyword(name):
				c.errKeyword(d.Name.Off, name, "a variable")
				ok = false
				continue
			case c.consts[name] != nil || c.formulas[name] != nil:
				c.errorf(d.Name.Off, "%s is already a constant or a formula", name)
				ok = false
				continue
			case c.param != nil && name == c.param.name:
				c.errorf(d.Name.Off, "%s is the parameter (line %d); a variable needs its own name", name, c.position(c.param.stmt.Start).Line)
				ok = false
				continue
			}
			if prev, dup := c.vars[name]; dup {
				c.errorf(d.Name.Off, "variable %s is already declared at line %d", name, m.Vars[prev].Pos.Line)
				ok = false
				continue
			}
			if prev := c.arrays[name]; prev != nil && d.First == nil {
				c.errorf(d.Name.Off, "%s is already declared as the array %s at line %d", name, prev.indices(), c.position(prev.decl.Start).Line)
				ok = false
				continue
			}
			var arr *array
			if d.First != nil {
				var good bool
				if arr, good = c.declareArray(d); !good {
					ok = false
					continue
				}
			}
			v := statespace.Var{Name: name, Pos: c.position(d.Name.Off), Input: d.Input, Module: mi, Bool: d.Lo == nil && !d.Int, Hi: 1, Unbounded: d.Int}
			if d.Int {
				v.Hi = 0
				if d.Input {
					c.errorf(d.Name.Off, "an input variable takes every value of its range: declare input %s : [lo..hi]", name)
					ok = false
				}
			}
			if d.Lo != nil {
				lo, ok1 := c.integer(d.Lo, "the lower end of a range", -(1 << 62), 1<<62)
				hi, ok2 := c.integer(d.Hi, "the upper end of a range", -(1 << 62), 1<<62)
				if !ok1 || !ok2 {
					ok = false
					continue
				}
				v.Lo, v.Hi = lo, hi
			}
			if d.Init != nil {
				if d.Input {
					c.errorf(d.Init.Pos(), "an input variable takes every value of its range: it has no init")
					ok = false
				}
				t := &translator{c: c, role: "an initial value"}
				v.Init = t.moduleExpr(d.Init, v.Bool)
				ok = ok && !t.failed
			}
			elems := []string{name}
			if arr != nil {
				elems = elems[:0]
				for k := arr.first; k <= arr.last; k++ {
					elems = append(elems, elementName(name, k))
				}
			}
			for _, name := range elems {
				v.Name = name
				c.vars[name] = len(m.Vars)
				c.inputVars[name] = d.Input
				c.intVars[name] = d.Int
				owner[name] = mi
				m.Vars = append(m.Vars, v)
			}
		}
	}
	for mi, mod := range mods {
		for ci, cd := range mod.Commands {
			pieces, good := c.split(cd, mi, owner)
			ok = ok && good
			for _, piece := range pieces {
				cmd, good := c.command(piece, mi, owner, mod.MDP)
				ok = ok && good
				if !good {
					break // the other pieces, written alike, have the same errors
				}
				cmd.Number = ci + 1
				m.Commands = append(m.Commands, cmd)
			}
		}
	}
	labelAt := map[string]int{}
	for _, st := range c.f.Stmts {
		if lb, is := st.(*LabelStmt); is {
			if prev, dup := labelAt[lb.Name.Text]; dup {
				c.errorf(lb.Name.Off, "label %s is already defined at line %d", lb.Name.Text, c.position(prev).Line)
				ok = false
				continue
			}
			labelAt[lb.Name.Text] = lb.Start
			t := &translator{c: c, role: "a label"}
			cond := t.moduleExpr(lb.Value, true)
			ok = ok && !t.failed
			m.Labels = append(m.Labels, statespace.Label{Name: lb.Name.Text, Cond: cond, Pos: c.position(lb.Start)})
		}
	}
	if inputs != nil && inputs.Where != nil {
		t := &translator{c: c, role: "an inputs condition"}
		m.InputsWhere = t.moduleExpr(inputs.Where, true)
		ok = ok && !t.failed
	}
	if !ok {
		return nil
	}
	return m
}

// command checks a command of module mi.
func (c *checker) command(cd *CommandDecl, mi int, owner map[string]int, isMDP bool) (statespace.Command, bool) {
	cmd := statespace.Command{Module: mi, Pos: c.position(cd.Start), Text: clip(c.src[cd.Start:cd.End])}
	ok := true
	switch {
	case cd.Action != nil && isMDP:
		cmd.Action = cd.Action.Name
	case cd.Action != nil:
		c.errorf(cd.Action.Off, "an action ([%s]) names a choice of an MDP; the commands of a .dp module form a Markov chain: write [], or declare an MDP: mdp module", cd.Action.Name)
		ok = false
	case isMDP:
		c.errorf(cd.Start, "a command of an mdp module names its action, the choice it is: write [a] guard -> …")
		ok = false
	}
	t := &translator{c: c, role: "a guard"}
	cmd.Guard = t.moduleExpr(cd.Guard, true)
	for _, ud := range cd.Updates {
		u := statespace.Update{Pos: c.position(ud.Start)}
		if ud.Prob != nil {
			t.paramOK = true
			u.Prob = t.moduleExpr(ud.Prob, false)
			t.paramOK = false
		}
		seen := map[string]bool{}
		for _, ad := range ud.Assigns {
			name := ad.Var.Name
			if ad.Index != nil {
				_, elems, index, good := c.element(&Expr{Off: int32(ad.Var.Off), End: ad.Index.End + 1, Op: EIndex, Args: []*Expr{{Off: int32(ad.Var.Off), End: int32(ad.Var.Off + len(name)), Op: EName, Text: name}, ad.Index}})
				if !good || index != nil {
					ok = false // a computed index is split off (split)
					continue
				}
				name = elems[0].Text
			} else if arr := c.arrays[name]; arr != nil {
				c.errorf(ad.Var.Off, "%s is an array, %s: an update assigns one element, (%s[i]' = …)", name, arr.indices(), name)
				ok = false
				continue
			}
			vi, declared := c.vars[name]
			switch {
			case !declared:
				c.errorf(ad.Var.Off, "unknown variable %s%s", name, c.knownVars())
				ok = false
				continue
			case owner[name] != mi:
				c.errorf(ad.Var.Off, "%s belongs to another module: a command updates only its own module's variables", name)
				ok = false
				continue
			case seen[name]:
				c.errorf(ad.Var.Off, "%s is assigned twice in this update", name)
				ok = false
				continue
			}
			seen[name] = true
			a := statespace.Assign{Var: vi, Pos: c.position(ad.Start)}
			if ad.Value != nil {
				t.role = "an assignment"
				a.Value = t.moduleExpr(ad.Value, false)
			} else {
				a.Noise = c.draw(ad.Draw, t, name, c.intVars[name])
				ok = ok && a.Noise != nil
			}
			u.Assigns = append(u.Assigns, a)
		}
		cmd.Updates = append(cmd.Updates, u)
	}
	if cd.Updates == nil { // "-> true": nothing changes
		cmd.Updates = []statespace.Update{{Pos: cmd.Pos}}
	}
	return cmd, ok && !t.failed
}

// draw checks "geometric(alpha, centre, lo, hi)" and the other
// distributions.
//
// A draw into an unbounded variable (v : int) is untruncated:
// geometric(alpha, centre) or geometric1(alpha, centre).
func (c *checker) draw(call *Expr, t *translator, name string, unbounded bool) *statespace.Noise {
	d, known := draws[call.Text]
	if !known {
		hint := didYouMean(call.Text, []string{"geometric", "geometric1", "uniform", "bernoulli"})
		switch strings.ToLower(call.Text) {
		case "laplace", "lap", "dlaplace", "discrete_laplace", "twosided_geometric":
			hint = " (the discrete Laplace distribution is the two-sided geometric: geometric(alpha, centre, lo, hi), Pr[Z = z] ∝ alpha^|z|)"
		case "gaussian", "normal", "exponential", "gamma":
			hint = " (dpcheck draws from distributions with exact rational probabilities over finitely many values)"
		}
		c.errorf(call.Pos(), "unknown distribution %s%s (geometric(alpha, centre, lo, hi), geometric1(alpha, centre, lo, hi), uniform(lo, hi) or bernoulli(p))", call.Text, hint)
		return nil
	}
	named := false
	for _, a := range call.Args {
		named = named || a.Op == EArg
		if bad := misnamedArg(a, c.moduleName); bad != "" {
			c.errorf(a.Pos(), "%s has no argument %s%s (arguments: %s; NAME = … is a named argument only for these, a comparison otherwise)", call.Text, bad, didYouMean(bad, d.params), strings.Join(d.params, ", "))
			return nil
		}
	}
	if unbounded {
		if d.kind != statespace.Geometric && d.kind != statespace.Geometric1 {
			c.errorf(call.Pos(), "%s is an unbounded integer: it is drawn from geometric(alpha, centre) or geometric1(alpha, centre), untruncated", name)
			return nil
		}
		if len(call.Args) > 2 {
			c.errorf(call.Args[2].Pos(), "%s is an unbounded integer: its draw is untruncated, %s(alpha, centre), without lo and hi", name, call.Text)
			return nil
		}
		d.params = d.params[:2]
	}
	// geometric(alpha, centre) into a bounded variable, its arguments
	// named or not, misses the bounds.
	unclamped := !unbounded && len(call.Args) == 2 && (d.kind == statespace.Geometric || d.kind == statespace.Geometric1)
	for _, a := range call.Args {
		unclamped = unclamped && (a.Op != EArg || a.Text == "alpha" || a.Text == "centre")
	}
	if (!named || unclamped) && len(call.Args) != len(d.params) {
		hint := ""
		if unclamped {
			hint = fmt.Sprintf(" (only an unbounded integer, declared %s : int, is drawn without lo and hi)", name)
		}
		c.errorf(call.Pos(), "%s takes %d arguments, %s(%s); found %d%s", call.Text, len(d.params), call.Text, strings.Join(d.params, ", "), len(call.Args), hint)
		return nil
	}
	args, ok := c.propArgs(call, call.Pos(), call.Text, d.params, len(d.params))
	if !ok {
		return nil
	}
	n := &statespace.Noise{Kind: d.kind, Pos: c.position(call.Pos())}
	for i, p := range d.params {
		t.paramOK, t.role = i == 0 && (p == "alpha" || p == "p"), "the "+p+" of a draw"
		n.Args = append(n.Args, t.moduleExpr(args[p], false))
	}
	t.paramOK = false
	return n
}

// neighbourReadsInputs checks that a neighbour predicate over modules
// reads only input variables: every input has each other variable at its
// initial value, so comparing one would relate every pair of inputs or
// none. A label it names must read an input variable (its formulas
// expanded); a label that reads none holds at every input or at none.
// Each name is reported once, where it first appears.
func (c *checker) neighbourReadsInputs(pred *Expr, labels []*LabelStmt) {
	byName := map[string]*LabelStmt{}
	for _, lb := range labels {
		byName[lb.Name.Text] = lb
	}
	reported := map[string]bool{}
	var walk func(e *Expr)
	walk = func(e *Expr) {
		if e == nil {
			return
		}
		if e.Op == EName && !reported[e.Text] {
			_, isVar := c.vars[e.Text]
			input := c.inputVars[e.Text]
			if arr := c.arrays[e.Text]; arr != nil {
				isVar, input = true, arr.input
			}
			switch lb := byName[e.Text]; {
			case isVar && !input:
				reported[e.Text] = true
				c.errorf(e.Pos(), "%s is not an input variable: every input has it at its initial value, so comparing it cannot tell two inputs apart; a neighbour predicate compares input variables%s", e.Text, c.inputVarList())
			case !isVar && lb != nil && !c.readsInput(lb.Value, map[string]bool{}):
				reported[e.Text] = true
				c.errorf(e.Pos(), "label %q reads no input variable, so it holds at every input or at none; a neighbour predicate compares input variables%s", e.Text, c.inputVarList())
			}
		}
		for _, a := range e.Args {
			walk(a)
		}
	}
	walk(pred)
}

// readsInput reports whether e reads an input variable, formulas expanded
// (seen guards against cycles, reported elsewhere).
func (c *checker) readsInput(e *Expr, seen map[string]bool) bool {
	if e == nil {
		return false
	}
	if e.Op == EName {
		if c.inputVars[e.Text] || c.arrays[e.Text] != nil && c.arrays[e.Text].input {
			return true
		}
		if f := c.formulas[e.Text]; f != nil && !seen[e.Text] {
			seen[e.Text] = true
			if c.readsInput(f.Value, seen) {
				return true
			}
		}
	}
	for _, a := range e.Args {
		if c.readsInput(a, seen) {
			return true
		}
	}
	return false
}

// inputVarList names the input variables for a message: " (input
// variables: a, b)", or that there are none.
func (c *checker) inputVarList() string {
	var names []string
	for n, in := range c.inputVars {
		if in && !strings.Contains(n, "[") {
			names = append(names, n)
		}
	}
	for _, a := range c.arrays {
		if a.input {
			names = append(names, a.indices())
		}
	}
	if len(names) == 0 {
		return " (the modules declare no input variable: write input x : [lo..hi];)"
	}
	slices.Sort(names)
	return " (input variables: " + expr.JoinLimited(names, 8) + ")"
}

// moduleName reports whether name is known in a module's expression: a
// variable, a formula, a constant or the parameter.
func (c *checker) moduleName(name string) bool {
	return hasKey(c.vars, name) || c.arrays[name] != nil || c.formulas[name] != nil || c.constOrParam(name)
}

// knownVars lists the modules' variables for a message.
func (c *checker) knownVars() string {
	if len(c.vars) == 0 {
		return ""
	}
	return " (variables: " + expr.JoinLimited(c.arrayNames(slices.Sorted(maps.Keys(c.vars))), 8) + ")"
}

// clip shortens a command's text for messages.
func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 80 {
		return string(r[:80]) + "…"
	}
	return s
}

// moduleExpr translates an expression over the modules' variables: a name
// is a variable, a formula (expanded) or a constant (folded).
func (t *translator) moduleExpr(e *Expr, asCond bool) *expr.Expr {
	c := t.c
	if e.Op == EQuant {
		u, ok := c.unfold(e)
		if !ok {
			return t.failure()
		}
		return t.moduleExpr(u, asCond)
	}
	if c.expanded++; c.expanded > MaxExpandedNodes {
		if c.expanded == MaxExpandedNodes+1 {
			c.errorf(e.Pos(), "the modules' formulas, folds and array indices expand to more than %s nodes, each written out where used: simplify them", exact.Thousands(MaxExpandedNodes))
		}
		return t.failure()
	}
	if c.depth >= MaxExpandedDepth {
		if !c.depthExceeded {
			c.depthExceeded = true
			c.errorf(e.Pos(), "the expression nests more than %s levels deep here, every formula written out where it is used; the limit is %s levels: simplify it", exact.Thousands(MaxExpandedDepth), exact.Thousands(MaxExpandedDepth))
		}
		return t.failure()
	}
	c.depth++
	defer func() { c.depth-- }()
	n := t.node(0, e)
	switch e.Op {
	case ENum:
		v, ok := constEval{c}.expr(e)
		if !ok {
			t.failed = true
			return n
		}
		n.Op, n.Value = expr.Num, v.num
	case EName:
		return t.moduleName(e)
	case EParen:
		return t.moduleExpr(e.Args[0], asCond)
	case ENot:
		n.Op, n.Args = expr.Not, []*expr.Expr{t.moduleExpr(e.Args[0], true)}
	case EAnd, EOr:
		return t.junction(n, e, func(a *Expr) *expr.Expr { return t.moduleExpr(a, true) })
	case EImplies:
		n.Op, n.Args = expr.Implies, []*expr.Expr{t.moduleExpr(e.Args[0], true), t.moduleExpr(e.Args[1], true)}
	case EIte:
		n.Op, n.Args = expr.Ite, []*expr.Expr{t.moduleExpr(e.Args[0], true), t.moduleExpr(e.Args[1], asCond), t.moduleExpr(e.Args[2], asCond)}
	case ECmp:
		n.Op, n.CmpOp = expr.Cmp, e.Text
		n.Args = []*expr.Expr{t.moduleExpr(e.Args[0], false), t.moduleExpr(e.Args[1], false)}
	case ESum, EProd:
		return t.arith(n, e, func(a *Expr) *expr.Expr { return t.moduleExpr(a, false) })
	case ENeg:
		n.Op, n.Args = expr.Neg, []*expr.Expr{t.moduleExpr(e.Args[0], false)}
	case EAbs:
		n.Op, n.Args = expr.Abs, []*expr.Expr{t.moduleExpr(e.Args[0], false)}
	case EPow:
		n.Op, n.Args = expr.Pow, []*expr.Expr{t.moduleExpr(e.Args[0], false), t.moduleExpr(e.Args[1], false)}
	case ECall:
		return t.moduleCall(e)
	case EIndex:
		if e.Primed {
			return t.fail(e, "%s (a primed element) is written only in an update: (%s = …)", exprText(e), exprText(e))
		}
		return t.indexed(e, asCond, func(x *Expr) *expr.Expr { return t.moduleExpr(x, false) }, func(x *Expr) *expr.Expr { return t.moduleExpr(x, asCond) })
	default:
		return t.fail(e, "%s cannot appear in a module", describeOp(e))
	}
	return n
}

func describeOp(e *Expr) string {
	switch e.Op {
	case ETemporal, EUntil:
		return "a temporal operator"
	case EProb:
		return "P…[…]"
	case EDP:
		return "D{…}[…]"
	case EStr:
		return "a quoted name"
	case EUnknown:
		return "?"
	}
	return "this"
}

// function is a function of expressions over the state: its operation
// and number of arguments (-1: two or more).
type function struct {
	op    expr.Op
	arity int
}

var moduleFuncs = map[string]function{
	"min": {expr.Min, -1}, "max": {expr.Max, -1}, "floor": {expr.Floor, 1}, "ceil": {expr.Ceil, 1},
	"mod": {expr.Mod, 2}, "pow": {expr.Pow, 2}, "abs": {expr.Abs, 1},
}

func (t *translator) moduleCall(e *Expr) *expr.Expr {
	if fm := t.c.formulas[e.Text]; fm != nil {
		return t.formulaCall(e, fm, func(x *Expr) *expr.Expr { return t.moduleExpr(x, false) })
	}
	f, ok := moduleFuncs[e.Text]
	if !ok {
		if t.c.isDistance(e) {
			return t.fail(e, "%s compares two states: it is written in a neighbour predicate, as in neighbours %s(a) <= 1", e.Text, e.Text)
		}
		if e.Text == "ln" || e.Text == "log" {
			return t.fail(e, "%s is not a rational function: a module's numbers are exact rationals", e.Text)
		}
		return t.fail(e, "unknown function %s (min, max, floor, ceil, mod, pow, abs)", e.Text)
	}
	return t.call(e, f, func(a *Expr) *expr.Expr { return t.moduleExpr(a, false) })
}

// moduleName resolves a name in a module's expression.
func (t *translator) moduleName(e *Expr) *expr.Expr {
	c := t.c
	name := e.Text
	if e.Primed {
		return t.fail(e, "%s' (a primed name) is written only in an update: (%s' = …)", name, name)
	}
	switch {
	case name == "true" || name == "false":
		n := t.node(expr.Bool, e)
		n.Truth = name == "true"
		return n
	case c.vars != nil && hasKey(c.vars, name):
		n := t.node(expr.Var, e)
		n.Name = name
		return n
	case c.arrays[name] != nil:
		return t.fail(e, "%s is an array, %s: read an element, %s[i]", name, c.arrays[name].indices(), name)
	case c.param != nil && name == c.param.name:
		return t.moduleParam(e)
	case c.formulas[name] != nil:
		return t.formulaRef(e)
	case c.consts[name] != nil:
		v, ok := c.constant(e.Pos(), name)
		if !ok {
			t.failed = true
			return t.node(expr.Bool, e)
		}
		switch v.k {
		case kNum:
			n := t.node(expr.Num, e)
			n.Value = v.num
			return n
		case kBool:
			n := t.node(expr.Bool, e)
			n.Truth = v.b
			return n
		}
		return t.fail(e, "constant %s is %s: a module computes with numbers and conditions", name, v.k)
	}
	return t.fail(e, "unknown name %s%s", name, c.knownVars())
}

func hasKey(m map[string]int, k string) bool {
	_, ok := m[k]
	return ok
}

// formulaRef expands a formula where it is used, detecting cycles.
func (t *translator) formulaRef(e *Expr) *expr.Expr {
	c := t.c
	f := c.formulas[e.Text]
	if c.cyclic[e.Text] {
		return t.failure() // refused where it is defined
	}
	if len(f.Params) > 0 {
		params := make([]string, len(f.Params))
		for i, p := range f.Params {
			params[i] = p.Name
		}
		return t.fail(e, "formula %s takes %s: write %s(%s)", e.Text, countWord(len(params), "argument"), e.Text, strings.Join(params, ", "))
	}
	if c.expanding[e.Text] {
		return t.fail(e, "formula %s is defined in terms of itself", e.Text)
	}
	c.expanding[e.Text] = true
	defer delete(c.expanding, e.Text)
	return t.moduleExpr(f.Value, false)
}
