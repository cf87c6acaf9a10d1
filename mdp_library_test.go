package dpcheck_test

import (
	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/mdp"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/verify"
)

// surveyMechanism is the one-question interactive survey as a
// model.Mechanism: from + the answer is yes with probability 3/4 (L)
// or 4/5 (H), from − with 1/4 or 1/5.
func surveyMechanism(t *testing.T) *model.Mechanism {
	t.Helper()
	b := chain.NewBuilder()
	pos, neg := b.AddState("+", nil), b.AddState("-", nil)
	yes, no := b.AddState("yes", nil, "out_Y"), b.AddState("no", nil, "out_N")
	b.MarkInput(pos)
	b.MarkInput(neg)
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	ans := func(a int64, y, n *big.Rat) mdp.Choice {
		return mdp.Choice{Action: int(a), To: []int{yes, no}, P: []*big.Rat{y, n}}
	}
	ch := make([][]mdp.Choice, c.NumStates())
	ch[pos] = []mdp.Choice{ans(0, big.NewRat(3, 4), big.NewRat(1, 4)), ans(1, big.NewRat(4, 5), big.NewRat(1, 5))}
	ch[neg] = []mdp.Choice{ans(0, big.NewRat(1, 4), big.NewRat(3, 4)), ans(1, big.NewRat(1, 5), big.NewRat(4, 5))}
	m, err := mdp.New(c, []string{"L", "H"}, ch)
	if err != nil {
		t.Fatal(err)
	}
	return &model.Mechanism{Chain: c, Neighbours: [][2]int{{pos, neg}}, Note: "interactive survey", MDP: m}
}

// mechModel is a property.Model of a built mechanism.
type mechModel struct{ m *model.Mechanism }

func (mm mechModel) Info() property.ModelInfo {
	return property.ModelInfo{Kind: "builder", Name: "survey_mdp", Call: "survey_mdp()"}
}
func (mm mechModel) Build(context.Context, model.Limits) (*model.Mechanism, error) {
	return mm.m, nil
}

// TestLibraryRefusesMDP: Analyze and Formulas refuse an MDP, whose chain
// is only its frame.
func TestLibraryRefusesMDP(t *testing.T) {
	m := surveyMechanism(t)
	if _, err := dpcheck.Analyze(context.Background(), m); err == nil || !strings.Contains(err.Error(), "the mechanism is an MDP") {
		t.Errorf("Analyze of an MDP: %v, want a refusal", err)
	}
	if _, err := dpcheck.Formulas(m); err == nil || !strings.Contains(err.Error(), "the mechanism is an MDP") {
		t.Errorf("Formulas of an MDP: %v, want a refusal", err)
	}
}

// TestRunMDP: Run sizes an MDP by its states, choices, transitions and
// actions, and the survey's tight ε over final outputs is ln 4 with the
// sequence [H].
func TestRunMDP(t *testing.T) {
	m := surveyMechanism(t)
	st := &property.EpsQuery{Header: property.Header{Pos: source.Position{Line: 2, Column: 1}, Text: "query eps(delta = 0)"}, Delta: new(big.Rat)}
	p, err := property.Prepare(context.Background(), &property.Program{File: source.NewFile("s.dp", ""), Model: mechModel{m},
		Statements: []property.Statement{st}}, model.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := dpcheck.Config{Lump: true}.Run(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	// Two outputs without a choice: each stays, one choice and one
	// transition (PRISM's count of a deadlock's self-loop).
	want := dpcheck.Size{States: 4, Transitions: 10, Inputs: 2, Pairs: 1, MDP: true, Choices: 6, Actions: 2}
	if r.Size != want {
		t.Errorf("size %+v, want %+v", r.Size, want)
	}
	o, ok := r.Statements[0].(*property.MDPEpsOutcome)
	if !ok || o.Err() != nil {
		t.Fatalf("outcome %#v, want an MDPEpsOutcome", r.Statements[0])
	}
	if got := o.Result; !got.Exact || got.Eps.String() != "2·ln(2)" || len(got.Sequence) != 1 || got.Sequence[0] != "H" {
		t.Errorf("tight ε %+v, want 2·ln(2) exactly with [H]", got)
	}
	if len(r.Lumped) != 0 {
		t.Errorf("lumped %v: lumping must be skipped on an MDP", r.Lumped)
	}
	if _, err := r.Analysis(context.Background(), verify.FinalState()); err == nil {
		t.Errorf("Result.Analysis of an MDP: no error")
	}
}
