package spec

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/expr"
)

// Arrays of variables: input a[1..K] : [0..2]; declares the variables
// a[1], …, a[K], each with the declared range and initial value. An
// element is read as a[i], i any integer expression over the state, and
// assigned as (a[i]' = …) or (a[i]' ~ …).
//
// An index that is constant names its element here, checked against the
// array's indices. An index computed in the state reads through
// expr.Index, which reports an index outside the array when it is
// evaluated, naming the state and the command. A command that assigns at
// a computed index is split by the index's value: one command per value,
// its guard conjoined with index = value, and one whose guard holds where
// the index is outside the array and reads the element there, so that the
// run stops with the same error. The pieces' guards are disjoint, so each
// state has the commands it had.

// MaxArrayLength bounds the elements of an array.
const MaxArrayLength = 10_000

// array is an array of variables of the modules.
type array struct {
	name        string
	first, last int64
	input, bool bool
	decl        *VarDecl
	// bad marks an array whose declaration has errors: its uses report
	// nothing more.
	bad bool
}

// elementName is the name of element k of the array name: name[k].
func elementName(name string, k int64) string { return name + "[" + strconv.FormatInt(k, 10) + "]" }

// indices says the array's indices for messages: a[1..3].
func (a *array) indices() string { return fmt.Sprintf("%s[%d..%d]", a.name, a.first, a.last) }

// declareArray checks the indices of the array d declares and returns
// it; ok is false after an error (the array is then kept, marked bad, so
// that its uses report nothing more).
func (c *checker) declareArray(d *VarDecl) (a *array, ok bool) {
	name := d.Name.Name
	if prev := c.arrays[name]; prev != nil {
		c.errorf(d.Name.Off, "array %s is already declared at line %d", name, c.position(prev.decl.Start).Line)
		return nil, false
	}
	a = &array{name: name, input: d.Input, bool: d.Lo == nil && !d.Int, decl: d, bad: true}
	c.arrays[name] = a
	for _, end := range []*Expr{d.First, d.Last} {
		if v := c.varIn(end); v != "" {
			c.errorf(end.Pos(), "the indices of an array are constant, and %s is a variable: write them with numbers and constants", v)
			return a, false
		}
	}
	first, ok1 := c.integer(d.First, "the first index of an array", -(1 << 62), 1<<62)
	last, ok2 := c.integer(d.Last, "the last index of an array", -(1 << 62), 1<<62)
	switch {
	case !ok1 || !ok2:
		return a, false
	case last < first:
		c.errorf(d.First.Pos(), "the array %s[%d..%d] has no element: its last index must be at least its first", name, first, last)
		return a, false
	case uint64(last)-uint64(first) >= MaxArrayLength: // uint64: the difference of ±2^62 fits
		n := new(big.Int).Add(new(big.Int).Sub(big.NewInt(last), big.NewInt(first)), big.NewInt(1))
		count := n.String()
		if n.IsInt64() {
			count = exact.Thousands(n.Int64())
		}
		c.errorf(d.First.Pos(), "the array %s[%d..%d] has %s elements; the limit is %s", name, first, last, count, exact.Thousands(MaxArrayLength))
		return a, false
	}
	a.first, a.last, a.bad = first, last, false
	return a, true
}

// arrayOf returns the array e (the first operand of a[i]) names, or nil
// after reporting why there is none.
func (c *checker) arrayOf(e *Expr) *array {
	a := e.unparen()
	if a.Op == EName {
		if arr := c.arrays[a.Text]; arr != nil {
			if arr.bad {
				return nil // its declaration's error said why
			}
			return arr
		}
		if c.vars != nil && hasKey(c.vars, a.Text) {
			c.errorf(a.Pos(), "%s is a variable, not an array: an array is declared %s[1..K] : …, and its elements read %s[i]", a.Text, a.Text, a.Text)
			return nil
		}
		c.errorf(a.Pos(), "unknown array %s%s", a.Text, c.knownArrays())
		return nil
	}
	c.errorf(a.Pos(), "%s is not an array: only an array's name is indexed, as in a[i]", exprText(a))
	return nil
}

// knownArrays lists the arrays for a message.
func (c *checker) knownArrays() string {
	if len(c.arrays) == 0 {
		return " (the modules declare no array: declare one as a[1..K] : [lo..hi];)"
	}
	var names []string
	for _, a := range c.arrays {
		names = append(names, a.indices())
	}
	slices.Sort(names)
	return " (arrays: " + expr.JoinLimited(names, 8) + ")"
}

// constIndex reports whether the index i of an array is constant: it
// reads no variable, formula or parameter (a formula or the parameter is
// evaluated where the index is, as a computed one).
func (c *checker) constIndex(i *Expr) bool {
	return c.varIn(i) == "" && !c.mentionsParam(i) && !c.mentionsFormula(i)
}

// mentionsFormula reports whether e names or calls a formula.
func (c *checker) mentionsFormula(e *Expr) bool {
	if (e.Op == EName || e.Op == ECall) && c.formulas[e.Text] != nil {
		return true
	}
	for _, a := range e.Args {
		if a != nil && c.mentionsFormula(a) {
			return true
		}
	}
	return false
}

// element resolves the read a[i]: for a constant index, the element as a
// name (elems holds it alone, index is nil); otherwise every element, in
// order, and the index. ok is false after an error.
func (c *checker) element(e *Expr) (arr *array, elems []*Expr, index *Expr, ok bool) {
	if arr = c.arrayOf(e.Args[0]); arr == nil {
		return nil, nil, nil, false
	}
	primed := e.Primed || e.Args[0].unparen().Primed // a[i]', or a'[i] from formula f(x) = x[i] called f(a')
	name := func(k int64) *Expr {
		return &Expr{Off: e.Off, End: e.End, Op: EName, Text: elementName(arr.name, k), Primed: primed}
	}
	if i := e.Args[1]; c.constIndex(i) {
		k, ok := c.integer(i, "the index of "+arr.name, -(1 << 62), 1<<62)
		if !ok {
			return nil, nil, nil, false
		}
		if k < arr.first || k > arr.last {
			c.errorf(i.Pos(), "the index of %s is %d, outside the array's indices %d..%d", exprText(e), k, arr.first, arr.last)
			return nil, nil, nil, false
		}
		return arr, []*Expr{name(k)}, nil, true
	}
	for k := arr.first; k <= arr.last; k++ {
		elems = append(elems, name(k))
	}
	return arr, elems, e.Args[1], true
}

// boundsOnly is the Text of a read a[i] that only checks its index (the
// piece of a split command that stops the run): its elements are zeros.
// Another Text is the read as written, before a split command's piece
// fixed its index.
const boundsOnly = "bounds"

// shown is the read e as written, for messages.
func shown(e *Expr) string {
	if e.Text != "" && e.Text != boundsOnly {
		return e.Text
	}
	return exprText(e)
}

// indexed translates the read a[i], its index by num and its elements by
// elem; asCond says a condition is expected.
func (t *translator) indexed(e *Expr, asCond bool, num, elem func(*Expr) *expr.Expr) *expr.Expr {
	if (e.Primed || e.Args[0].unparen().Primed) && !t.primes {
		return t.fail(e, "%s' (a primed element) only makes sense in a neighbour predicate", strings.TrimSuffix(shown(e), "'"))
	}
	arr, elems, index, ok := t.c.element(e)
	if !ok {
		return t.failure()
	}
	if asCond && !arr.bool && e.Text != boundsOnly {
		return t.fail(e, "%s is a number, not a condition: compare it (%s = …)", shown(e), shown(e))
	}
	if index == nil {
		return elem(elems[0])
	}
	pos := t.c.position(e.Pos())
	n := t.node(expr.Index, e, num(index), &expr.Expr{Op: expr.Num, Pos: pos, Text: strconv.FormatInt(arr.first, 10), Value: big.NewRat(arr.first, 1)})
	n.Text = exprText(&Expr{Op: EIndex, Args: e.Args})
	for _, x := range elems {
		if e.Text == boundsOnly {
			n.Args = append(n.Args, &expr.Expr{Op: expr.Num, Pos: pos, Text: "0", Value: new(big.Rat)})
			continue
		}
		n.Args = append(n.Args, elem(x))
	}
	return n
}

// target is an assignment's computed index: the array and the index.
type target struct {
	arr   *array
	index *Expr
	text  string
}

// split returns the commands cd, a command of module mi, stands for: itself when it assigns no
// element at a computed index; otherwise one per value of the indices,
// and one per index that stops the run where the index is outside its
// array (see above). ok is false after an error.
func (c *checker) split(cd *CommandDecl, mi int, owner map[string]int) ([]*CommandDecl, bool) {
	var targets []target
	for _, u := range cd.Updates {
		seen := map[string]*Expr{} // the index each array is assigned at in u
		for _, a := range u.Assigns {
			arr := c.arrays[a.Var.Name]
			if a.Index == nil || arr == nil || arr.bad {
				continue // command reports an assignment to an unknown array
			}
			if owner[elementName(arr.name, arr.first)] != mi {
				c.errorf(a.Var.Off, "the array %s belongs to another module: a command updates only its own module's variables", arr.name)
				return nil, false
			}
			if c.mentionsParam(a.Index) {
				c.errorf(a.Index.Pos(), "the index of %s[%s] must not depend on the parameter %s: the chain's graph must be the same for every %s", arr.name, exprText(a.Index), c.param.name, c.param.name)
				return nil, false
			}
			computed := !c.constIndex(a.Index)
			if prev := seen[arr.name]; prev != nil && (computed || !c.constIndex(prev)) {
				c.errorf(a.Var.Off, "%s is assigned at two indices in one update, %s and %s, one of them computed: they might be equal; assign one element of an array per update, or index with constants", arr.name, exprText(prev), exprText(a.Index))
				return nil, false
			}
			seen[arr.name] = a.Index
			text := exprText(a.Index)
			if computed && !slices.ContainsFunc(targets, func(t target) bool { return t.arr == arr && t.text == text }) {
				targets = append(targets, target{arr, a.Index, text})
			}
		}
	}
	if len(targets) == 0 {
		return []*CommandDecl{cd}, true
	}
	n := int64(1)
	for _, t := range targets {
		if n *= t.arr.last - t.arr.first + 1; n > MaxFold {
			c.errorf(cd.Start, "this command assigns at computed indices with more than %s combinations of their values; the limit is %s", exact.Thousands(MaxFold), exact.Thousands(MaxFold))
			return nil, false
		}
	}
	if !c.writeOut(cd.Guard, n+int64(len(targets))) {
		return nil, false
	}
	at := func(op ExprOp, text string, args ...*Expr) *Expr {
		return &Expr{Off: cd.Guard.Off, End: cd.Guard.End, Op: op, Text: text, Args: args}
	}
	num := func(k int64) *Expr {
		if k < 0 {
			return at(ENeg, "", at(ENum, strconv.FormatInt(-k, 10)))
		}
		return at(ENum, strconv.FormatInt(k, 10))
	}
	paren := func(e *Expr) *Expr { return &Expr{Off: e.Off, End: e.End, Op: EParen, Args: []*Expr{e}} }
	var out []*CommandDecl
	values := make([]int64, len(targets))
	for i, t := range targets {
		values[i] = t.arr.first
	}
	for {
		// In the piece where the indices have these values, a read at the
		// same index (written alike) is the element there.
		fix := func(e *Expr) *Expr {
			for i, t := range targets {
				e = c.atIndex(e, t.text, values[i], num(values[i]))
			}
			return e
		}
		piece := *cd
		conj := []*Expr{paren(fix(cd.Guard))}
		for i, t := range targets {
			conj = append(conj, at(ECmp, "=", paren(t.index), num(values[i])))
		}
		piece.Guard = at(EAnd, "", conj...)
		piece.Updates = make([]*UpdateDecl, len(cd.Updates))
		for ui, u := range cd.Updates {
			cu := *u
			if cu.Prob != nil {
				cu.Prob = fix(cu.Prob)
			}
			cu.Assigns = slices.Clone(u.Assigns)
			for ai, a := range cu.Assigns {
				if a.Value != nil {
					cu.Assigns[ai].Value = fix(a.Value)
				}
				if a.Draw != nil {
					cu.Assigns[ai].Draw = fix(a.Draw)
				}
				if a.Index == nil {
					continue
				}
				for i, t := range targets {
					if t.arr.name == a.Var.Name && t.text == exprText(a.Index) {
						cu.Assigns[ai].Index = num(values[i])
					}
				}
			}
			piece.Updates[ui] = &cu
		}
		out = append(out, &piece)
		i := 0
		for ; i < len(targets); i++ {
			if values[i]++; values[i] <= targets[i].arr.last {
				break
			}
			values[i] = targets[i].arr.first
		}
		if i == len(targets) {
			break
		}
	}
	for _, t := range targets {
		// Where the index is not one of the array's, the guard checks it as
		// a read would, and the run stops with that error.
		read := &Expr{Off: t.index.Off, End: t.index.End, Op: EIndex, Text: boundsOnly, Args: []*Expr{{Off: t.index.Off, End: t.index.Off, Op: EName, Text: t.arr.name}, t.index}}
		inside := at(EAnd, "", at(ECmp, "=", at(ECall, "floor", paren(t.index)), paren(t.index)),
			at(ECmp, ">=", paren(t.index), num(t.arr.first)), at(ECmp, "<=", paren(t.index), num(t.arr.last)))
		piece := *cd
		piece.Guard = at(EAnd, "", paren(cd.Guard), at(ENot, "", paren(inside)), at(ECmp, "=", read, num(0)))
		piece.Updates = nil
		out = append(out, &piece)
	}
	return out, true
}

// atIndex returns e with its reads at the index written text — of arrays
// that have the index k — read at k instead (the node value), outside
// quantifiers and folds, whose bound names could change what text means.
func (c *checker) atIndex(e *Expr, text string, k int64, value *Expr) *Expr {
	if e == nil || e.Op == EQuant {
		return e
	}
	if e.Op == EIndex && exprText(e.Args[1]) == text {
		if a := e.Args[0].unparen(); a.Op == EName {
			if arr := c.arrays[a.Text]; arr != nil && !arr.bad && arr.first <= k && k <= arr.last {
				cp := *e
				cp.Args = []*Expr{e.Args[0], value}
				cp.Text = shown(e) // messages show the read as written
				return &cp
			}
		}
	}
	return mapArgs(e, func(a *Expr) *Expr { return c.atIndex(a, text, k, value) })
}

// arrayNames lists the variables for a message, an array as a[1..K].
func (c *checker) arrayNames(names []string) []string {
	var out []string
	for _, n := range names {
		if !strings.Contains(n, "[") {
			out = append(out, n)
		}
	}
	for _, a := range c.arrays {
		out = append(out, a.indices())
	}
	slices.Sort(out)
	return out
}
