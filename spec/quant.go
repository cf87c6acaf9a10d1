package spec

import (
	"strconv"

	"github.com/dpcheck/dpcheck/exact"
)

// Quantifiers and folds over a constant range, written out where they are
// used: forall j in 1..K: φ is φ[j:=1] & … & φ[j:=K], exists the
// disjunction, sum(j in 1..K: e) the sum, count(j in 1..K: φ) the number
// of the φ[j:=i] that hold, max and min the greatest and least of the
// e[j:=i]. The range's ends are constant integers; the bound name hides a
// variable or constant of the same name in the body.

// MaxFold bounds the values a quantifier or fold ranges over.
const MaxFold = 10_000

// MaxWrittenOut bounds what a file's quantifiers, folds and formulas with
// parameters write out in all: the terms of every fold and every call,
// nested ones counted each time they are written.
const MaxWrittenOut = 1_000_000

// writeOut counts n more terms written out at e, and says whether the
// file stays within MaxWrittenOut and its context goes on.
func (c *checker) writeOut(e *Expr, n int64) bool {
	if c.ctx.Err() != nil {
		return false
	}
	if c.written += n; c.written > MaxWrittenOut {
		if !c.writtenExceeded {
			c.writtenExceeded = true
			c.errorf(e.Pos(), "the quantifiers, folds, formulas and computed indices of this file write out more than %s terms; the limit is %s: simplify them", exact.Thousands(MaxWrittenOut), exact.Thousands(MaxWrittenOut))
		}
		return false
	}
	return true
}

// unfold writes out the quantifier or fold e; ok is false after an error.
func (c *checker) unfold(e *Expr) (*Expr, bool) {
	for _, end := range e.Args[1:3] {
		if v := c.varIn(end); v != "" {
			c.errorf(end.Pos(), "the range of %s must be constant, and %s is a variable: write the ends with numbers and constants", e.Text, v)
			return nil, false
		}
	}
	lo, ok1 := c.integer(e.Args[1], "the start of a range", -(1 << 62), 1<<62)
	hi, ok2 := c.integer(e.Args[2], "the end of a range", -(1 << 62), 1<<62)
	if !ok1 || !ok2 {
		return nil, false
	}
	n := hi - lo + 1
	if hi >= lo && n > MaxFold {
		c.errorf(e.Pos(), "%s ranges over %s values; the limit is %s", e.Text, exact.Thousands(n), exact.Thousands(MaxFold))
		return nil, false
	}
	if !c.writeOut(e, max(n, 1)) {
		return nil, false
	}
	name, body := e.Args[0].Text, e.Args[3]
	var terms []*Expr
	for i := lo; i <= hi; i++ {
		num := &Expr{Off: e.Args[0].Off, End: e.Args[0].End, Op: ENum, Text: strconv.FormatInt(i, 10)}
		if i < 0 { // a literal is not negative: -k
			num = &Expr{Off: num.Off, End: num.End, Op: ENeg, Args: []*Expr{{Off: num.Off, End: num.End, Op: ENum, Text: strconv.FormatInt(-i, 10)}}}
		}
		terms = append(terms, substitute(body, map[string]*Expr{name: num}))
	}
	at := func(op ExprOp, text string, args ...*Expr) *Expr {
		return &Expr{Off: e.Off, End: e.End, Op: op, Text: text, Args: args}
	}
	switch e.Text {
	case "forall", "exists":
		if len(terms) == 0 {
			return at(EName, map[string]string{"forall": "true", "exists": "false"}[e.Text]), true
		}
		if len(terms) == 1 {
			return at(EParen, "", terms[0]), true
		}
		op := EAnd
		if e.Text == "exists" {
			op = EOr
		}
		return at(EParen, "", at(op, "", parens(terms)...)), true
	case "sum", "count":
		if len(terms) == 0 {
			return at(ENum, "0"), true
		}
		if e.Text == "count" {
			for i, t := range terms {
				terms[i] = at(EParen, "", at(EIte, "", at(EParen, "", t), at(ENum, "1"), at(ENum, "0")))
			}
		}
		return at(EParen, "", at(ESum, "", parens(terms)...)), true
	}
	// max, min
	if len(terms) == 0 {
		c.errorf(e.Pos(), "%s over an empty range has no value", e.Text)
		return nil, false
	}
	if len(terms) == 1 {
		return at(EParen, "", terms[0]), true
	}
	return at(ECall, e.Text, terms...), true
}

// parens puts each expression in parentheses, so that the operator joining
// them binds as the body was written.
func parens(es []*Expr) []*Expr {
	out := make([]*Expr, len(es))
	for i, x := range es {
		out[i] = &Expr{Off: x.Off, End: x.End, Op: EParen, Args: []*Expr{x}}
	}
	return out
}

// varIn returns a variable of the modules that e names, or "".
func (c *checker) varIn(e *Expr) string {
	if e.Op == EName && c.vars != nil && (hasKey(c.vars, e.Text) || c.arrays[e.Text] != nil) {
		return e.Text
	}
	for _, a := range e.Args {
		if a != nil {
			if v := c.varIn(a); v != "" {
				return v
			}
		}
	}
	return ""
}
