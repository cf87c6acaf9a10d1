package spec

import (
	"errors"
	"fmt"
	"sort"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
)

// Every error the checker reports goes through these methods, one per kind
// of error where the same wording appears in several places, so that the
// wording stays uniform and tests can match it.

func (c *checker) errorf(off int, format string, args ...any) {
	c.errs = append(c.errs, &source.Error{Pos: c.position(off), Msg: fmt.Sprintf(format, args...)})
}

// limitf reports that the file exceeds the resource limit named limit.
func (c *checker) limitf(off int, limit builder.LimitKind, format string, args ...any) {
	c.errorf(off, format, args...)
	c.errs[len(c.errs)-1].Limit = string(limit)
}

// epsError reports why an ε cannot be kept exact.
func (c *checker) epsError(off int, err error) {
	var ee *exact.EpsError
	if errors.As(err, &ee) {
		c.errorf(off, "%s", ee.Reason)
		return
	}
	c.errorf(off, "%v", err)
}

func (c *checker) errUnknownState(n Name) {
	c.errorf(n.Off, "unknown state %s%s", n.Text, c.suggestState(n.Text))
}

func (c *checker) errNotInput(n Name, inputs []string) {
	c.errorf(n.Off, "%s is not an input (inputs: %s)", expr.DisplayName(n.Text), expr.JoinLimited(inputs, 8))
}

func (c *checker) errListedTwice(n Name) {
	c.errorf(n.Off, "%s is listed twice", expr.DisplayName(n.Text))
}

func (c *checker) errKeyword(off int, name, what string) {
	c.errorf(off, "%s is a keyword and cannot name %s", name, what)
}

func (c *checker) errDuplicateStatement(off int, what string, first int) {
	c.errorf(off, "duplicate %s statement (the first is at line %d)", what, c.position(first).Line)
}

func (c *checker) errPrimed(e *Expr) {
	c.errorf(e.Pos(), "%s' (a primed name) only makes sense in a neighbour predicate", e.Text)
}

func (c *checker) errTemporalHere(off int, op string) {
	c.errorf(off, "a temporal formula (%s) cannot appear here", op)
}

func (c *checker) errMissingArg(off int, call, param string) {
	c.errorf(off, "%s needs %s (%s(%s = …))", call, param, call, param)
}

func (c *checker) errPathOperator(off int, op string) {
	c.errorf(off, "%s is a path operator: use it inside P…[…] or D{…}[…]", op)
}

func (c *checker) errYesNo(off int, name string) {
	c.errorf(off, "%s(…) is a yes/no property: write check %s(…)", name, name)
}

// suggestState returns " (did you mean X?)" for a close declared state.
func (c *checker) suggestState(name string) string {
	if c.stateNames == nil && c.block != nil {
		c.stateNames = []string{}
		for s, name := range c.block.names {
			if c.declared[s] >= 0 {
				c.stateNames = append(c.stateNames, name)
			}
		}
		sort.Strings(c.stateNames)
	}
	return property.Suggest(name, c.stateNames)
}
