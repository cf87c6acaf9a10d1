package spec

import (
	"errors"
	"fmt"
	"sort"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/model"
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
func (c *checker) limitf(off int, limit model.LimitKind, format string, args ...any) {
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

// errNamedFile reports why the file a model names at off (written name)
// cannot be read: it lies outside the files a model may read, it is not a
// regular file, or reading it failed. The path is quoted as written, the
// file system's reason without the path it resolved to.
func (c *checker) errNamedFile(off int, what, name string, err error) {
	var ce *source.ConfineError
	if errors.As(err, &ce) {
		switch ce.Reason {
		case source.Outside, source.ThroughLink:
			how := "is outside"
			if ce.Reason == source.ThroughLink {
				how = "leads through a symbolic link outside"
			}
			c.errorf(off, "%s %s %s: a model may only read files below it", source.Quote(name), how, c.rootName())
			c.errs[len(c.errs)-1].Limit = LimitRoot
			return
		case source.NotRegular:
			kind := "a device, pipe or socket"
			if ce.Dir {
				kind = "a directory"
			}
			c.errorf(off, "%s is %s: %s must be a regular file", source.Quote(name), kind, what)
			return
		}
	}
	c.errorf(off, "cannot read %s %s: %s", what, source.Quote(name), source.Reason(err))
	var lk limitKind
	if errors.As(err, &lk) {
		c.errs[len(c.errs)-1].Limit = lk.LimitKind()
	}
}
