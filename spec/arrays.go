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
	input       bool
	decl        *VarDecl
}

// elementName is the name of element k of the array name: name[k].
func elementName(name string, k int64) string { return name + "[" + strconv.FormatInt(k, 10) + "]" }

// indices says the array's indices for messages: a[1..3].
func (a *array) indices() string { return fmt.Sprintf("%s[%d..%d]", a.name, a.first, a.last) }

// declareArray checks the indices of the array d declares and returns its
// length, 0 after an error.
func (c *checker) declareArray(d *VarDecl) (*array, bool) {
	name := d.Name.Name
	if prev := c.arrays[name]; prev != nil {
		c.errorf(d.Name.Off, "array %s is already declared at line %d", name, c.position(prev.decl.Start).Line)
		return nil, false
	}
	for _, end := range []*Expr{d.First, d.Last} {
		if v := c.varIn(end); v != "" {
			c.errorf(end.Pos(), "the indices of an array are constant, and %s is a variable: write them with numbers and constants", v)
			return nil, false
		}
	}
	first, ok1 := c.integer(d.First, "the first index of an array", -(1 << 62), 1<<62)
	last, ok2 := c.integer(d.Last, "the last index of an array", -(1 << 62), 1<<62)
	switch {
	case !ok1 || !ok2:
		return nil, false
	case last < first:
		c.errorf(d.First.Pos(), "the array %s[%d..%d] has no element: its last index must be at least its first", name, first, last)
		return nil, false
	case last-first >= MaxArrayLength:
		c.errorf(d.First.Pos(), "the array %s[%d..%d] has %s elements; the limit is %s", name, first, last, exact.Thousands(last-first+1), exact.Thousands(MaxArrayLength))
		return nil, false
	}
	a := &array{name: name, first: first, last: last, input: d.Input, decl: d}
	c.arrays[name] = a
	return a, true
}

// arrayOf returns the array e (the first operand of a[i]) names, or nil
// after reporting why there is none.
func (c *checker) arrayOf(e *Expr) *array {
	a := e.unparen()
	if a.Op == EName {
		if arr := c.arrays[a.Text]; arr != nil {
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
// reads no variable and not the parameter.
func (c *checker) constIndex(i *Expr) bool {
	return c.varIn(i) == "" && !c.mentionsParam(i)
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

// indexed translates the read a[i], its index by num and its elements by
// elem.
func (t *translator) indexed(e *Expr, num, elem func(*Expr) *expr.Expr) *expr.Expr {
	arr, elems, index, ok := t.c.element(e)
	if !ok {
		return t.failure()
	}
	if index == nil {
		return elem(elems[0])
	}
	n := t.node(expr.Index, e, num(index), &expr.Expr{Op: expr.Num, Pos: t.c.position(e.Pos()), Text: strconv.FormatInt(arr.first, 10), Value: big.NewRat(arr.first, 1)})
	for _, x := range elems {
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

// split returns the commands cd stands for: itself when it assigns no
// element at a computed index; otherwise one per value of the indices,
// and one per index that stops the run where the index is outside its
// array (see above). ok is false after an error.
func (c *checker) split(cd *CommandDecl) ([]*CommandDecl, bool) {
	var targets []target
	for _, u := range cd.Updates {
		seen := map[string]*Expr{} // the index each array is assigned at in u
		for _, a := range u.Assigns {
			arr := c.arrays[a.Var.Name]
			if a.Index == nil || arr == nil {
				continue // command reports an assignment to an unknown array
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
		piece := *cd
		conj := []*Expr{paren(cd.Guard)}
		for i, t := range targets {
			conj = append(conj, at(ECmp, "=", paren(t.index), num(values[i])))
		}
		piece.Guard = at(EAnd, "", conj...)
		piece.Updates = make([]*UpdateDecl, len(cd.Updates))
		for ui, u := range cd.Updates {
			cu := *u
			cu.Assigns = slices.Clone(u.Assigns)
			for ai, a := range cu.Assigns {
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
		// Where the index is outside the array, the guard reads the element
		// there, and the run stops with the read's error.
		read := &Expr{Off: t.index.Off, End: t.index.End, Op: EIndex, Args: []*Expr{{Off: t.index.Off, End: t.index.Off, Op: EName, Text: t.arr.name}, t.index}}
		inside := at(EAnd, "", at(ECmp, ">=", paren(t.index), num(t.arr.first)), at(ECmp, "<=", paren(t.index), num(t.arr.last)))
		piece := *cd
		piece.Guard = at(EAnd, "", paren(cd.Guard), at(ENot, "", paren(inside)), at(ECmp, "=", read, read))
		piece.Updates = nil
		out = append(out, &piece)
	}
	return out, true
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
