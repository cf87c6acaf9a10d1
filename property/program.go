// Package property is the checked program of dpcheck, independent of the
// syntax it was written in: which model to build, which of its states are
// inputs, which inputs are neighbours, what an observer sees, and the
// statements to evaluate — one type per kind of statement (DPCheck,
// EpsQuery, DeltaQuery, ProfileQuery, FormulaCheck, ProbQuery, DEpsQuery,
// DDeltaQuery, EquivalenceCheck, and for every value of a parameter
// ParamDPCheck, ParamEpsQuery, ParamDeltaQuery, ParamEquivalenceCheck), all implementing
// Statement.
//
// A front end (the .dp language in package spec) turns text into a Program,
// reporting errors at their positions. Prepare builds the model under a
// context, within limits, and resolves every name against it (labels,
// variables, state names), reporting what does not resolve at its position
// too. An Env then evaluates each statement against the prepared model and
// returns its Outcome: the exact verdict or value, with the counterexample
// or witness, and whether it met the statement's expectation.
//
// What each statement means is in docs/semantics.md.
package property

import (
	"context"
	"math/big"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/verify"
)

// Program is a checked program.
type Program struct {
	File *source.File
	// Model is the model to check; nil in a file of equivalence checks
	// only.
	Model Model
	// Inputs, when set, chooses the model's inputs; otherwise the model's
	// own are used.
	Inputs *Inputs
	// Neighbours, when set, relates the inputs; otherwise the model's own
	// relation is used.
	Neighbours *Neighbours
	// Output is what an observer sees of a run, unless a statement says
	// otherwise.
	Output OutputSpec
	// Observe are the labels a trace shows (for statements over traces).
	Observe    []Ref
	Statements []Statement
}

// Ref is a name written in the program, at its position.
type Ref struct {
	Name string
	Pos  source.Position
}

// ModelInfo says where a chain comes from.
type ModelInfo struct {
	// Kind is "builder" or "chain".
	Kind string
	// Name is the builder's name ("truncated_geometric"); Call is the call
	// as written, canonically ("truncated_geometric(alpha = 1/2, n = 5)").
	Name, Call string
	// Note describes the built mechanism in one line (known once built).
	Note string
	// Neighbours, when set, says which inputs the model relates by
	// convention (a PRISM model: every two initial states); Prepare clears
	// it when the program states its own neighbours.
	Neighbours string
}

// Model is a model to build.
type Model interface {
	// Info describes the model before it is built.
	Info() ModelInfo
	// Build builds the model within the limits; it stops with ctx's error
	// when ctx ends. Errors about the model are positioned (source.ErrorList).
	Build(ctx context.Context, l model.Limits) (*model.Mechanism, error)
}

// BuilderModel is a call of a builder of the catalog, its arguments checked.
type BuilderModel struct {
	Def  *builder.Def
	Args *builder.Args
	Call string
	Pos  source.Position
	// ArgPos says where each argument was written, for errors about it.
	ArgPos map[string]source.Position
}

// Info describes the call.
func (m *BuilderModel) Info() ModelInfo {
	return ModelInfo{Kind: "builder", Name: m.Def.Name, Call: m.Call}
}

// IsMDP reports whether the builder makes a Markov decision process.
func (m *BuilderModel) IsMDP() bool { return m.Def.MDP }

// Build checks the model's size against the limits, then builds it.
func (m *BuilderModel) Build(ctx context.Context, l model.Limits) (*model.Mechanism, error) {
	if err := m.Def.CheckSize(m.Args, l); err != nil {
		return nil, m.fail(err)
	}
	mech, err := m.Def.Build(ctx, m.Args)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, m.fail(err)
	}
	return mech, nil
}

// fail positions a builder's error: at the argument it is about, or at the
// call.
func (m *BuilderModel) fail(err error) error {
	switch e := err.(type) {
	case *model.LimitError:
		return source.ErrorList{errLimit(m.Pos, e, m.Call)}
	case *builder.ParamError:
		at, given := m.ArgPos[e.Param]
		if !given {
			at = m.Pos
		}
		return source.ErrorList{{Pos: at, Msg: e.Error()}}
	}
	return source.ErrorList{{Pos: m.Pos, Msg: m.Def.Name + ": " + err.Error()}}
}

// ChainModel is an explicit chain, already built from the program's text.
type ChainModel struct {
	Chain *chain.Chain
}

// Info describes an explicit chain.
func (m *ChainModel) Info() ModelInfo { return ModelInfo{Kind: "chain", Note: "explicit chain"} }

// Build returns the chain, within the limits.
func (m *ChainModel) Build(ctx context.Context, l model.Limits) (*model.Mechanism, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return &model.Mechanism{Chain: m.Chain, Note: "explicit chain"}, nil
}

// Inputs chooses the input states: by name, or those satisfying a
// condition.
type Inputs struct {
	Pos   source.Position
	Names []Ref
	Where *expr.Expr
}

// Neighbours relates inputs: explicit pairs of names, or a predicate over
// two states (the second one's names primed). The relation is symmetric.
type Neighbours struct {
	Pos   source.Position
	Pairs []Pair
	Pred  *expr.Expr
}

// Pair is "A ~ B".
type Pair struct {
	A, B Ref
	Pos  source.Position
}

// OutputSpec is what an observer sees of a run: the final state (the zero
// value), the values of some of its variables, some of its labels, or the
// trace of the observed labels over the first Steps steps.
type OutputSpec struct {
	Vars   []Ref
	Labels []Ref
	// Steps > 0 means traces of the program's observed labels.
	Steps int
	Pos   source.Position
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
	// ExpectUnknown: "expect unknown", a check on an MDP that can be
	// neither proved nor refuted (no violation found, the sufficient
	// condition fails).
	ExpectUnknown
)

// Header is what every statement has.
type Header struct {
	Pos source.Position
	// Text is the statement in canonical form, on one line.
	Text   string
	Expect Expectation
}

// Head returns the header itself: every statement embeds one, and so
// has its Head.
func (h *Header) Head() *Header { return h }

// Expectation is what a statement's outcome must be for it to pass.
type Expectation struct {
	Kind ExpectKind
	// Text is the expectation in canonical form ("holds", "ln(2)", "1/3",
	// "a: 1/3, b: 2/3").
	Text string
	Pos  source.Position
}

// verifyOutput turns a resolved output spec into the verifier's.
func verifyOutput(o OutputSpec, observed []string) verify.Output {
	switch {
	case o.Steps > 0:
		return verify.Traces(o.Steps, observed...)
	case o.Vars != nil:
		return verify.FinalVars(names(o.Vars)...)
	case o.Labels != nil:
		return verify.FinalLabels(names(o.Labels)...)
	}
	return verify.FinalState()
}

// names are the names of refs.
func names(refs []Ref) []string {
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = r.Name
	}
	return out
}

var one = big.NewRat(1, 1)
