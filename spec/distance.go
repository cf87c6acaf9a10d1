package spec

import (
	"slices"

	"github.com/dpcheck/dpcheck/expr"
)

// The distances between the two states of a neighbour predicate, over
// input variables and arrays of them: the usual neighbouring relations in
// one call each.
//
//	l1(a, …)       Σ |x - x'| over every element x of the arguments
//	linf(a, …)     max |x - x'|
//	hamming(a, …)  the number of elements x with x != x'
//
// Each is written out where it is used (l1(a) is sum(j in 1..K: |a[j] -
// a[j]'|) for an array a[1..K]); an argument is an array or a variable.

// distances are the distance functions, by name.
var distances = []string{"l1", "linf", "hamming"}

// isDistance reports whether the call e is one of the distances (and not
// a formula of the same name).
func (c *checker) isDistance(e *Expr) bool {
	return e.Op == ECall && c.formulas[e.Text] == nil && slices.Contains(distances, e.Text)
}

// distance translates the distance call e in a neighbour predicate.
func (t *translator) distance(e *Expr) *expr.Expr {
	c := t.c
	if !t.primes {
		return t.fail(e, "%s compares two states: it is written in a neighbour predicate, as in neighbours %s(a) <= 1", e.Text, e.Text)
	}
	if len(e.Args) == 0 {
		return t.fail(e, "%s needs the input variables or arrays it compares: %s(a, …)", e.Text, e.Text)
	}
	var elems []*Expr // the elements compared, unprimed
	for _, a := range e.Args {
		x := a.unparen()
		switch {
		case a.Op == EArg:
			return t.fail(a, "%s takes no named arguments", e.Text)
		case x.Op != EName || x.Primed:
			return t.fail(a, "%s compares input variables and arrays, and %s is neither: write their names, %s(a, b)", e.Text, exprText(a), e.Text)
		case c.arrays[x.Text] != nil:
			arr := c.arrays[x.Text]
			for k := arr.first; k <= arr.last; k++ {
				elems = append(elems, &Expr{Off: x.Off, End: x.End, Op: EName, Text: elementName(arr.name, k)})
			}
		case c.formulas[x.Text] != nil || c.consts[x.Text] != nil:
			return t.fail(a, "%s compares input variables and arrays, and %s is a %s", e.Text, x.Text, map[bool]string{true: "formula", false: "constant"}[c.formulas[x.Text] != nil])
		default:
			elems = append(elems, x) // a variable, resolved when the program is prepared
		}
	}
	if !c.writeOut(e, int64(len(elems))) {
		return t.failure()
	}
	at := func(op ExprOp, text string, args ...*Expr) *Expr {
		return &Expr{Off: e.Off, End: e.End, Op: op, Text: text, Args: args}
	}
	terms := make([]*Expr, len(elems))
	for i, x := range elems {
		primed := *x
		primed.Primed = true
		if e.Text == "hamming" {
			terms[i] = at(EParen, "", at(EIte, "", at(ECmp, "!=", x, &primed), at(ENum, "1"), at(ENum, "0")))
			continue
		}
		neg := primed
		neg.Minus = true
		terms[i] = at(EAbs, "", at(ESum, "", x, &neg))
	}
	var out *Expr
	switch {
	case len(terms) == 1:
		out = terms[0]
	case e.Text == "linf":
		out = at(ECall, "max", terms...)
	default:
		out = at(ESum, "", terms...)
	}
	return t.num(out)
}
