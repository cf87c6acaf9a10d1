package property

import (
	"errors"
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/verify"
)

// Formula is a dpCTL formula as written: its operators are verify's, and
// its labels and atoms are resolved against a chain by Prepare.
type Formula struct {
	Op  verify.Op
	Pos source.Position
	// Text is the formula as written (canonical form).
	Text string
	// Label is the label of an OpLabel.
	Label string
	// Atom is the condition of an OpAtom (a comparison of variables).
	Atom *expr.Expr
	Args []*Formula
	// K is the power of X^K, or the bound of U (-1: unbounded); Lo is U's
	// lower time bound (verify.Formula.Lo).
	K, Lo int
	// Cmp and Bound are P's comparison and bound; Eps and Delta D's.
	Cmp   string
	Bound *big.Rat
	Eps   exact.Eps
	Delta *big.Rat
}

// Globally returns G[lo,k] f (no upper bound when k < 0; G f, G<=k f when
// lo = 0), written at p as text: !(true U[lo,k] !f), as the checker
// computes it.
func Globally(f *Formula, lo, k int, p source.Position, text string) *Formula {
	notF := &Formula{Op: verify.OpNot, Pos: p, Text: text, Args: []*Formula{f}}
	return &Formula{Op: verify.OpNot, Pos: p, Text: text, Args: []*Formula{Eventually(notF, lo, k, p, text)}}
}

// Eventually returns F[lo,k] f (no upper bound when k < 0; F f, F<=k f when
// lo = 0), written at p as text: true U[lo,k] f.
func Eventually(f *Formula, lo, k int, p source.Position, text string) *Formula {
	t := &Formula{Op: verify.OpTrue, Pos: p, Text: "true"}
	return &Formula{Op: verify.OpUntil, Pos: p, Text: text, K: k, Lo: lo, Args: []*Formula{t, f}}
}

// shape returns f as a verify.Formula with its names unresolved (atoms
// that are never evaluated), and records which part each node comes from.
func (f *Formula) shape(from map[*verify.Formula]*Formula) *verify.Formula {
	args := make([]*verify.Formula, len(f.Args))
	for i, a := range f.Args {
		args[i] = a.shape(from)
	}
	g := build(f, args)
	from[g] = f
	return g
}

// CheckPath reports, at its position, the part of the path formula f that
// dpcheck cannot model check exactly (verify.Unsupported), or nil. A front
// end calls it for every path formula, so that such a formula is an error
// in the file rather than a failure while checking.
func CheckPath(f *Formula) *source.Error {
	from := map[*verify.Formula]*Formula{}
	bad, why := verify.Unsupported(f.shape(from))
	if bad == nil {
		return nil
	}
	at := f
	if g, ok := from[bad]; ok {
		at = g
	}
	return errorAt(at.Pos, "%s: %s", at.Text, why)
}

// CheckedPath is the path formula f when CheckPath finds nothing in it;
// otherwise it adds CheckPath's error to errs and returns nil. A nil f
// (a formula the front end refused) stays nil.
func CheckedPath(f *Formula, errs *source.ErrorList) *Formula {
	if f == nil {
		return nil
	}
	if err := CheckPath(f); err != nil {
		*errs = append(*errs, err)
		return nil
	}
	return f
}

// resolve returns f with its labels and atoms resolved against c.
func (f *Formula) resolve(c *chain.Chain, errs *source.ErrorList) *verify.Formula {
	return f.resolveAt(c, nil, errs)
}

// resolveAt returns f with its labels and atoms resolved against c, for a
// checker whose state q stands for the state at[q] of c (nil: for c's own
// checker).
func (f *Formula) resolveAt(c *chain.Chain, at []int, errs *source.ErrorList) *verify.Formula {
	args := make([]*verify.Formula, len(f.Args))
	for i, a := range f.Args {
		args[i] = a.resolveAt(c, at, errs)
	}
	switch f.Op {
	case verify.OpLabel:
		switch {
		case contains(c.LabelNames(), f.Label):
			return verify.Label(f.Label)
		case contains(c.Vars(), f.Label):
			*errs = append(*errs, errNotACondition(f.Pos, f.Label))
		default:
			*errs = append(*errs, errUnknownLabel(f.Pos, f.Label, c))
		}
		return verify.False()
	case verify.OpAtom:
		cond, cerrs := expr.Compile(f.Atom, c, false)
		if cerrs != nil {
			*errs = append(*errs, cerrs...)
			return verify.False()
		}
		eval := func(s int) (bool, error) {
			b, err := cond.Eval(s, s)
			var ee *expr.EvalError
			if errors.As(err, &ee) {
				err = &expr.EvalError{Pos: ee.Pos, Msg: ee.Msg + " (at " + c.Describe(s) + ")"}
			}
			return b, err
		}
		if at != nil {
			return verify.Atom(f.Text, func(q int) (bool, error) { return eval(at[q]) })
		}
		return verify.Atom(f.Text, eval)
	}
	return build(f, args)
}

// build makes the verify.Formula of f's operator over args.
func build(f *Formula, args []*verify.Formula) *verify.Formula {
	switch f.Op {
	case verify.OpTrue:
		return verify.True()
	case verify.OpFalse:
		return verify.False()
	case verify.OpLabel:
		return verify.Label(f.Label)
	case verify.OpAtom:
		return verify.Atom(f.Text, nil)
	case verify.OpNot:
		return verify.Not(args[0])
	case verify.OpAnd:
		return verify.And(args...)
	case verify.OpOr:
		return verify.Or(args...)
	case verify.OpNext:
		return verify.Next(f.K, args[0])
	case verify.OpUntil:
		return verify.UntilFrom(args[0], args[1], f.Lo, f.K)
	case verify.OpProb:
		return verify.Prob(f.Cmp, f.Bound, args[0])
	case verify.OpSteady:
		return verify.Steady(args[0])
	case verify.OpExists:
		return verify.Exists(args[0])
	case verify.OpForall:
		return verify.Forall(args[0])
	}
	return verify.DP(f.Eps, f.Delta, args[0])
}
