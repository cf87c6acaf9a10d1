// Package expr holds conditions and numeric expressions over the states of
// a chain, independent of the syntax they were written in: neighbour
// predicates over two states (the second one's names primed), input
// predicates, and the atoms of dpCTL formulas. A front end builds them with
// constants already folded; Compile resolves their names against a chain —
// reporting unknown names at their positions — and returns a function that
// evaluates them exactly, in int64 while values stay small and in exact
// rationals beyond.
//
// A comparison that reads a variable a state does not have is false at that
// state, as a label the state does not carry is (docs/semantics.md).
package expr

import (
	"math/big"

	"github.com/dpcheck/dpcheck/source"
)

// Op is the kind of an expression node.
type Op uint8

// The expression nodes.
const (
	Num     Op = iota + 1 // the number Value
	Bool                  // the truth value Truth
	Var                   // the variable Name of the state (of the second one when Primed)
	Label                 // the state carries the label Name (the second one when Primed)
	Neg                   // -Args[0]
	Abs                   // |Args[0]|
	Sum                   // Args[0] ± Args[1] ± …: Args[i] is subtracted when Inv[i]
	Prod                  // Args[0] */ Args[1] …: Args[i] divides when Inv[i]
	Cmp                   // Args[0] CmpOp Args[1]
	Not                   // !Args[0]
	And                   // Args[0] & Args[1] & …
	Or                    // Args[0] | Args[1] | …
	Implies               // Args[0] => Args[1]
	Iff                   // Args[0] <=> Args[1]
	Ite                   // Args[0] ? Args[1] : Args[2]
	Min                   // min(Args…)
	Max                   // max(Args…)
	Floor                 // floor(Args[0])
	Ceil                  // ceil(Args[0])
	Mod                   // mod(Args[0], Args[1]), for integers, the divisor positive
	Pow                   // pow(Args[0], Args[1]), the exponent an integer
	// Index is an element of an array read at an index computed in the
	// state: Args[0] is the index, Args[1] a Num, the index of the first
	// element, and Args[2:] the elements; Text names the read (a[i]). An
	// index outside the array is an evaluation error.
	Index
)

// Expr is an expression node. Build nodes with the constructors; an Expr
// is not changed once built.
type Expr struct {
	Op  Op
	Pos source.Position
	// Text is the expression as written (canonical form), for messages and
	// the atoms of formulas.
	Text   string
	Value  *big.Rat
	Truth  bool
	Name   string
	Primed bool
	CmpOp  string // = == != < <= > >=
	Args   []*Expr
	Inv    []bool
	// Fallback, on a Var or Label, is the value of a constant of the same
	// name, used when the chain has no such variable or label; FallbackErr,
	// when set instead, says why the constant cannot stand there.
	Fallback    *Expr
	FallbackErr string
	// IntPow, on a Pow, says both its arguments are integers and so must
	// be its value (PRISM's typing): a negative exponent is an error.
	IntPow bool
}

// IsCondition reports whether e is a condition (true or false) rather than
// a number.
func (e *Expr) IsCondition() bool {
	switch e.Op {
	case Bool, Label, Cmp, Not, And, Or, Implies, Iff:
		return true
	case Ite:
		return e.Args[1].IsCondition()
	case Index:
		return e.Args[2].IsCondition()
	}
	return false
}
