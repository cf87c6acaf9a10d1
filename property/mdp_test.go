package property_test

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/mdp"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/verify"
	"github.com/google/go-cmp/cmp"
)

// mdpModel is a model whose mechanism is a hand-built MDP.
type mdpModel struct {
	m     *mdp.MDP
	pairs [][2]int
}

func (mm *mdpModel) Info() property.ModelInfo {
	return property.ModelInfo{Kind: "builder", Name: "interactive_survey", Call: "interactive_survey()"}
}

func (mm *mdpModel) Build(ctx context.Context, _ property.Limits) (*builder.Mechanism, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return &builder.Mechanism{Chain: mm.m.Frame, Neighbours: mm.pairs, Note: "a one-question interactive survey", MDP: mm.m}, nil
}

func r(a, b int64) *big.Rat { return big.NewRat(a, b) }

// surveyMDP is the one-question interactive survey: the analyst asks L
// (truthful with probability 3/4) or H (4/5); from + the answer is yes
// with that probability, from − no. States: + (x = 1), − (x = 0), yes
// [out_Y], no [out_N].
func surveyMDP(t *testing.T) *mdpModel {
	t.Helper()
	b := chain.NewBuilder()
	pos := b.AddState("+", chain.Valuation{{Name: "x", Value: 1}})
	neg := b.AddState("-", chain.Valuation{{Name: "x", Value: 0}})
	yes := b.AddState("yes", nil, "out_Y")
	no := b.AddState("no", nil, "out_N")
	b.MarkInput(pos)
	b.MarkInput(neg)
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	ans := func(a int, py *big.Rat) mdp.Choice {
		return mdp.Choice{Action: a, To: []int{yes, no}, P: []*big.Rat{py, new(big.Rat).Sub(r(1, 1), py)}}
	}
	choices := make([][]mdp.Choice, c.NumStates())
	choices[pos] = []mdp.Choice{ans(0, r(3, 4)), ans(1, r(4, 5))}
	choices[neg] = []mdp.Choice{ans(0, r(1, 4)), ans(1, r(1, 5))}
	m, err := mdp.New(c, []string{"L", "H"}, choices)
	if err != nil {
		t.Fatal(err)
	}
	return &mdpModel{m: m, pairs: [][2]int{{pos, neg}}}
}

// at is a position on line n.
func at(n int) source.Position { return source.Position{Filename: "s.dp", Line: n, Column: 1} }

func label(l string, n int) *property.Formula {
	return &property.Formula{Op: verify.OpLabel, Label: l, Pos: at(n), Text: l}
}

func next(f *property.Formula, n int) *property.Formula {
	return &property.Formula{Op: verify.OpNext, K: 1, Args: []*property.Formula{f}, Pos: at(n), Text: "X " + f.Text}
}

func dOf(eps exact.Eps, delta *big.Rat, path *property.Formula, n int) *property.Formula {
	return &property.Formula{Op: verify.OpDP, Eps: eps, Delta: delta, Args: []*property.Formula{path}, Pos: at(n),
		Text: "D{" + eps.String() + ", " + delta.RatString() + "}[" + path.Text + "]"}
}

func pOf(cmp string, bound *big.Rat, path *property.Formula, n int) *property.Formula {
	return &property.Formula{Op: verify.OpProb, Cmp: cmp, Bound: bound, Args: []*property.Formula{path}, Pos: at(n),
		Text: "P" + cmp + bound.RatString() + "[" + path.Text + "]"}
}

func head(n int, text string, kind property.ExpectKind, expect string) property.Header {
	return property.Header{Pos: at(n), Text: text, Expect: property.Expectation{Kind: kind, Text: expect, Pos: at(n)}}
}

func ln(t *testing.T, x *big.Rat) exact.Eps {
	t.Helper()
	e, err := exact.Ln(x)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// prepareErrs prepares p and returns its errors as "line: message".
func prepareErrs(t *testing.T, p *property.Program) []string {
	t.Helper()
	_, err := property.Prepare(context.Background(), p, property.Limits{})
	var list source.ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("Prepare: %v, want positioned errors", err)
	}
	var got []string
	for _, e := range list {
		got = append(got, e.Pos.String()+": "+e.Msg)
	}
	return got
}

// TestMDPRefusals: what is not defined on MDPs is refused when the file
// is prepared, at the statement, saying why.
func TestMDPRefusals(t *testing.T) {
	m := surveyMDP(t)
	yes := label("out_Y", 4)
	nested := dOf(ln(t, r(4, 1)), r(0, 1), next(pOf(">=", r(1, 2), next(label("out_Y", 4), 4), 4), 4), 4)
	p := &property.Program{Model: m, Statements: []property.Statement{
		&property.ProfileQuery{Header: head(2, "query profile", property.ExpectNone, "")},
		&property.EquivalenceCheck{Header: head(3, "check equivalent(model, model)", property.ExpectHolds, "holds"),
			Models: [2]property.Model{m, m}, CallPos: at(3), CallText: "equivalent(model, model)"},
		&property.FormulaCheck{Header: head(4, "check D{…}[X P>=1/2[X out_Y]]", property.ExpectHolds, "holds"), Formula: nested},
		&property.DEpsQuery{Header: head(5, "query D{?, 0}[X out_Y]", property.ExpectUnknown, "unknown"), Path: next(yes, 5), Delta: r(0, 1)},
		&property.ProbQuery{Header: head(6, "query P=?[X D{ln(4), 0}[X out_Y]]", property.ExpectNone, ""),
			Path: next(dOf(ln(t, r(4, 1)), r(0, 1), next(label("out_Y", 6), 6), 6), 6)},
	}}
	got := prepareErrs(t, p)
	want := []string{
		"s.dp:2:1: query profile is not defined on MDPs yet: the privacy profile over query schedulers is not computed; ask query delta(eps = …) at each ε you need",
		"s.dp:3:1: check equivalent is not defined on MDPs yet: interactive_survey() is an MDP, whose distributions depend on the scheduler",
		"s.dp:4:1: P>=1/2[X out_Y]: P and D inside a path formula are not defined on MDPs yet: on an MDP the state formulas of a path formula must be propositional (labels, comparisons, true, false, !, &, |)",
		"s.dp:5:1: expect unknown is for checks on MDPs: a query whose value is not decided exactly gives an interval",
		"s.dp:6:1: D{ln(4), 0}[X out_Y]: P and D inside a path formula are not defined on MDPs yet: on an MDP the state formulas of a path formula must be propositional (labels, comparisons, true, false, !, &, |)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

// TestMDPCompositionRefused: compose(k, M) of an MDP is refused at the
// call.
func TestMDPCompositionRefused(t *testing.T) {
	m := surveyMDP(t)
	mech, err := m.Build(context.Background(), property.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	def := &builder.Def{Name: "compose", Composition: func(*builder.Args) builder.Composition {
		return builder.Composition{Runs: 2, Of: mech}
	}}
	p := &property.Program{Model: &property.BuilderModel{Def: def, Call: "compose(k = 2, model = interactive_survey())", Pos: at(1)},
		Statements: []property.Statement{&property.EpsQuery{Header: head(2, "query eps(delta = 0)", property.ExpectNone, ""), Delta: r(0, 1)}}}
	got := prepareErrs(t, p)
	want := []string{"s.dp:1:1: compose is not defined on MDPs yet: compose(k = 2, model = interactive_survey()) runs an MDP, and runs of an MDP would need a scheduler across them"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

// TestMDPOnlyOnMDPs: Pmin=? and expect unknown are refused on a Markov
// chain.
func TestMDPOnlyOnMDPs(t *testing.T) {
	b := chain.NewBuilder()
	a := b.AddState("a", nil)
	c := b.AddState("c", nil)
	y := b.AddState("y", nil, "out_Y")
	b.AddTransition(a, y, r(1, 1))
	b.AddTransition(c, y, r(1, 1))
	b.MarkInput(a)
	b.MarkInput(c)
	ch, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	p := &property.Program{Model: &property.ChainModel{Chain: ch},
		Neighbours: &property.Neighbours{Pairs: []property.Pair{{A: property.Ref{Name: "a"}, B: property.Ref{Name: "c"}}}},
		Statements: []property.Statement{
			&property.ProbQuery{Header: head(2, "query Pmin=?[X out_Y]", property.ExpectNone, ""), Path: next(label("out_Y", 2), 2), Extreme: "min"},
			&property.DPCheck{Header: head(3, "check dp(eps = 0)", property.ExpectUnknown, "unknown"), Delta: r(0, 1)},
		}}
	got := prepareErrs(t, p)
	want := []string{
		"s.dp:2:1: Pmin=? is for MDPs: the model is a Markov chain, where Pr(ψ) is one number; ask P=?",
		"s.dp:3:1: expect unknown is for checks on MDPs: on a Markov chain every check is decided exactly",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

// TestMDPPrepare: the MDP is kept; inputs, inputs where, neighbours and
// labels resolve against its frame; the frame is never analysed as a
// chain, and lumping is skipped.
func TestMDPPrepare(t *testing.T) {
	m := surveyMDP(t)
	where := &expr.Expr{Op: expr.Cmp, CmpOp: ">=", Pos: at(1), Text: "x >= 0",
		Args: []*expr.Expr{{Op: expr.Var, Name: "x", Text: "x"}, {Op: expr.Num, Value: r(0, 1), Text: "0"}}}
	p := &property.Program{Model: m, Inputs: &property.Inputs{Pos: at(1), Where: where},
		Neighbours: &property.Neighbours{Pairs: []property.Pair{{A: property.Ref{Name: "-"}, B: property.Ref{Name: "+"}}}},
		Observe:    []property.Ref{{Name: "out_Y"}},
		Statements: []property.Statement{&property.EpsQuery{Header: head(2, "query eps(delta = 0)", property.ExpectNone, ""), Delta: r(0, 1)}}}
	pp, err := property.Prepare(context.Background(), p, property.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !pp.IsMDP() || pp.MDP.Frame != pp.Chain {
		t.Fatalf("Prepared.MDP = %v, its frame %p, want the MDP over the prepared frame %p", pp.MDP, pp.MDP.Frame, pp.Chain)
	}
	if diff := cmp.Diff([]int{0, 1}, pp.Chain.Inputs()); diff != "" {
		t.Errorf("inputs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([][2]int{{1, 0}}, pp.Neighbours); diff != "" {
		t.Errorf("neighbours (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(m.m.Choices, pp.MDP.Choices, cmp.Comparer(func(x, y *big.Rat) bool { return x.Cmp(y) == 0 })); diff != "" {
		t.Errorf("choices (-want +got):\n%s", diff)
	}
	e := property.NewEnvWith(pp, property.Options{Lump: true})
	if _, err := e.Analysis(context.Background(), pp.Output); err == nil || !strings.Contains(err.Error(), "the model is an MDP") {
		t.Errorf("Env.Analysis on an MDP: %v, want a refusal", err)
	}
	if _, err := e.Checker(); err == nil {
		t.Errorf("Env.Checker on an MDP: no error")
	}
	p.Statements[0].Evaluate(context.Background(), e)
	if l := e.Lumpings(); len(l) != 0 {
		t.Errorf("lumpings on an MDP: %v, want none", l)
	}
}
