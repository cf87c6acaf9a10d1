package spec

import (
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/verify"
)

// Program is a checked .dp file: the chain, its neighbour relation, what
// an observer sees, and the statements to run in order.
type Program struct {
	Filename string
	Source   string
	Model    ModelInfo
	Chain    *chain.Chain
	// Neighbours are unordered pairs of input states (both directions are
	// checked).
	Neighbours [][2]int
	Output     verify.Output
	Statements []*Statement
}

// ModelInfo says where the chain came from.
type ModelInfo struct {
	// Kind is "builder" or "chain".
	Kind string
	// Name is the builder's name ("truncated_geometric"); Call is the call
	// as written ("truncated_geometric(alpha = 1/2, n = 5)").
	Name, Call string
	// Note describes the built mechanism in one line.
	Note string
}

// Kind is the kind of a statement.
type Kind int

// The statement kinds.
const (
	// CheckDP is "check dp(eps = …, delta = …)".
	CheckDP Kind = iota + 1
	// QueryEps is "query eps(delta = …)": the tight ε.
	QueryEps
	// QueryDelta is "query delta(eps = …)": the tight δ.
	QueryDelta
	// QueryProfile is "query profile": the privacy profile.
	QueryProfile
	// CheckFormula is "check φ" for a dpCTL state formula: it holds when φ
	// holds at every input.
	CheckFormula
	// QueryProb is "query P=?[ψ]": Pr_s(ψ) for every input.
	QueryProb
	// QueryDEps is "query D{?, δ}[ψ]": the least ε for D at every input.
	QueryDEps
	// QueryDDelta is "query D{ε, ?}[ψ]": the least δ for D at every input.
	QueryDDelta
	// CheckEquivalent is "check equivalent(M1, M2)": equal output
	// distributions for every input.
	CheckEquivalent
)

func (k Kind) String() string {
	switch k {
	case CheckDP:
		return "check dp"
	case QueryEps:
		return "query eps"
	case QueryDelta:
		return "query delta"
	case QueryProfile:
		return "query profile"
	case CheckFormula:
		return "check formula"
	case QueryProb:
		return "query P"
	case QueryDEps:
		return "query D eps"
	case QueryDDelta:
		return "query D delta"
	case CheckEquivalent:
		return "check equivalent"
	}
	return "unknown"
}

// ExpectKind says what a statement expects.
type ExpectKind int

// The expectations.
const (
	// ExpectNone: a query without "expect" (it always passes).
	ExpectNone ExpectKind = iota
	// ExpectHolds is the default for checks.
	ExpectHolds
	// ExpectViolated: "expect violated".
	ExpectViolated
	// ExpectValue: "expect VALUE" on a query.
	ExpectValue
)

// Expectation is what a statement's outcome must be for it to pass.
type Expectation struct {
	Kind ExpectKind
	// Eps is the expected ε of a QueryEps; Value the expected δ of a
	// QueryDelta.
	Eps   verify.Eps
	Value *big.Rat
	// Probs are the expected probabilities of named inputs, for a query
	// P=?[…] (Value, when set instead, is expected of every input).
	Probs []ExpectedProb
	// Text is the expectation in canonical form ("holds", "ln(2)", "1/3",
	// "a: 1/3, b: 2/3").
	Text string
}

// ProbOf returns the probability a query P=?[…] expects of input s, or nil
// when it expects none.
func (e Expectation) ProbOf(s int) *big.Rat {
	if e.Kind != ExpectValue {
		return nil
	}
	for _, p := range e.Probs {
		if p.State == s {
			return p.Value
		}
	}
	if e.Probs == nil {
		return e.Value
	}
	return nil
}

// ExpectedProb is the expected probability of one input.
type ExpectedProb struct {
	State int
	Name  string
	Value *big.Rat
}

// Statement is one checked property or query.
type Statement struct {
	Pos Position
	// Text is the statement's source text.
	Text string
	Kind Kind
	// Eps is the ε of CheckDP, QueryDelta and QueryDDelta; Delta the δ of
	// CheckDP, QueryEps and QueryDEps.
	Eps   verify.Eps
	Delta *big.Rat
	// Formula is the state formula of CheckFormula; Path the path formula of
	// QueryProb, QueryDEps and QueryDDelta.
	Formula, Path *verify.Formula
	// Output, when set, replaces the program's output space for this
	// statement ("over traces(k)").
	Output *verify.Output
	// Models are the two models of CheckEquivalent.
	Models [2]ModelRef
	Expect Expectation
}

// ModelRef is a model named inside a statement.
type ModelRef struct {
	Info  ModelInfo
	Chain *chain.Chain
}

// OutputFor returns the output space a statement is checked over.
func (p *Program) OutputFor(st *Statement) verify.Output {
	if st.Output != nil {
		return *st.Output
	}
	return p.Output
}
