package property_test

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/mdp"
	"github.com/dpcheck/dpcheck/model"
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

func (mm *mdpModel) Build(ctx context.Context, _ model.Limits) (*model.Mechanism, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return &model.Mechanism{Chain: mm.m.Frame, Neighbours: mm.pairs, Note: "a one-question interactive survey", MDP: mm.m}, nil
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
	c := mustBuild(t, b, pos, neg)
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

// mustBuild builds the chain of b with inputs ins.
func mustBuild(t *testing.T, b *chain.Builder, ins ...int) *chain.Chain {
	t.Helper()
	for _, s := range ins {
		b.MarkInput(s)
	}
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return c
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
	_, err := property.Prepare(context.Background(), p, model.Limits{})
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
		"s.dp:6:1: D{2·ln(2), 0}[X out_Y]: P and D inside a path formula are not defined on MDPs yet: on an MDP the state formulas of a path formula must be propositional (labels, comparisons, true, false, !, &, |)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

// TestMDPCompositionRefused: compose(k, M) of an MDP is refused at the
// call.
func TestMDPCompositionRefused(t *testing.T) {
	m := surveyMDP(t)
	mech, err := m.Build(context.Background(), model.Limits{})
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
	ch := mustBuild(t, b, a, c)
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
	pp, err := property.Prepare(context.Background(), p, model.Limits{})
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

// surveyProgram is the statements of TestMDPSurvey over the survey MDP.
func surveyProgram(t *testing.T) *property.Program {
	m := surveyMDP(t)
	x := func(l string, n int) *property.Formula { return next(label(l, n), n) }
	f := func(l string, n int) *property.Formula {
		return property.Eventually(label(l, n), 0, -1, at(n), "F "+l)
	}
	l3, l4 := ln(t, r(3, 1)), ln(t, r(4, 1))
	return &property.Program{Model: m, Statements: []property.Statement{
		&property.DPCheck{Header: head(1, "check dp(eps = ln(4))", property.ExpectHolds, "holds"), Eps: l4, Delta: r(0, 1)},
		&property.DPCheck{Header: head(2, "check dp(eps = ln(3))", property.ExpectViolated, "violated"), Eps: l3, Delta: r(0, 1)},
		&property.EpsQuery{Header: head(3, "query eps(delta = 0)", property.ExpectValue, "ln(4)"), Delta: r(0, 1), Expected: l4},
		&property.DeltaQuery{Header: head(4, "query delta(eps = ln(3))", property.ExpectValue, "1/5"), Eps: l3, Expected: r(1, 5)},
		&property.FormulaCheck{Header: head(5, "check D{ln(3), 0}[X out_Y]", property.ExpectViolated, "violated"), Formula: dOf(l3, r(0, 1), x("out_Y", 5), 5)},
		&property.FormulaCheck{Header: head(6, "check D{ln(4), 0}[F out_Y] & P>=1/5[X out_Y]", property.ExpectHolds, "holds"),
			Formula: &property.Formula{Op: verify.OpAnd, Pos: at(6), Text: "D{ln(4), 0}[F out_Y] & P>=1/5[X out_Y]",
				Args: []*property.Formula{dOf(l4, r(0, 1), f("out_Y", 6), 6), pOf(">=", r(1, 5), x("out_Y", 6), 6)}}},
		&property.ProbQuery{Header: head(7, "query P=?[X out_Y]", property.ExpectNone, ""), Path: x("out_Y", 7)},
		&property.ProbQuery{Header: head(8, "query Pmax=?[X out_Y]", property.ExpectNone, ""), Path: x("out_Y", 8), Extreme: "max"},
		&property.ProbQuery{Header: head(9, "query P=?[F (out_Y | out_N)]", property.ExpectValue, "1"), ExpectAll: r(1, 1),
			Path: property.Eventually(&property.Formula{Op: verify.OpOr, Pos: at(9), Text: "out_Y | out_N",
				Args: []*property.Formula{label("out_Y", 9), label("out_N", 9)}}, 0, -1, at(9), "F (out_Y | out_N)")},
		&property.DEpsQuery{Header: head(10, "query D{?, 0}[X out_Y]", property.ExpectValue, "ln(4)"), Path: x("out_Y", 10), Delta: r(0, 1), Expected: l4},
		&property.DDeltaQuery{Header: head(11, "query D{ln(3), ?}[X out_Y]", property.ExpectValue, "1/5"), Path: x("out_Y", 11), Eps: l3, Expected: r(1, 5)},
		&property.FormulaCheck{Header: head(12, "check P<=3/4[X out_Y]", property.ExpectViolated, "violated"), Formula: pOf("<=", r(3, 4), x("out_Y", 12), 12)},
	}}
}

// loopMDP has inputs s and t and actions A, B: from s, A answers yes and
// B no at once; from t, A moves to m, which answers yes with probability
// 1/2 at every step whatever is asked, and B answers no. Pr_s(F yes) =
// Pr_t(F yes) under every query scheduler (A first: 1; B first: 0), but
// t reaches yes only in the limit, and the best scheduler for s (A) is
// not the worst for t (B): Proposition 2 fails at ε = 0 and no bounded
// horizon decides the question. u and v reach yes with probability 1
// under every scheduler, at different speeds.
func loopMDP(t *testing.T) *mdpModel {
	t.Helper()
	b := chain.NewBuilder()
	s := b.AddState("s", nil)
	tt := b.AddState("t", nil)
	m := b.AddState("m", nil)
	u := b.AddState("u", nil)
	v := b.AddState("v", nil)
	yes := b.AddState("yes", nil, "yes")
	no := b.AddState("no", nil, "no")
	c := mustBuild(t, b, s, tt, u, v)
	to := func(a int, states []int, ps ...*big.Rat) mdp.Choice { return mdp.Choice{Action: a, To: states, P: ps} }
	ch := make([][]mdp.Choice, c.NumStates())
	ch[s] = []mdp.Choice{to(0, []int{yes}, r(1, 1)), to(1, []int{no}, r(1, 1))}
	ch[tt] = []mdp.Choice{to(0, []int{m}, r(1, 1)), to(1, []int{no}, r(1, 1))}
	ch[m] = []mdp.Choice{to(0, []int{yes, m}, r(1, 2), r(1, 2)), to(1, []int{yes, m}, r(1, 2), r(1, 2))}
	ch[u] = []mdp.Choice{to(0, []int{yes, u}, r(1, 2), r(1, 2)), to(1, []int{yes, u}, r(1, 3), r(2, 3))}
	ch[v] = []mdp.Choice{to(0, []int{yes, v}, r(1, 4), r(3, 4)), to(1, []int{yes, v}, r(1, 5), r(4, 5))}
	mm, err := mdp.New(c, []string{"A", "B"}, ch)
	if err != nil {
		t.Fatal(err)
	}
	return &mdpModel{m: mm, pairs: [][2]int{{s, tt}, {u, v}}}
}

// evaluate prepares p and evaluates its statements.
func evaluate(t *testing.T, p *property.Program, o property.Options) []property.Outcome {
	t.Helper()
	pp, err := property.Prepare(context.Background(), p, model.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	e := property.NewEnvWith(pp, o)
	var out []property.Outcome
	for _, st := range p.Statements {
		out = append(out, st.Evaluate(context.Background(), e))
	}
	return out
}

// ratCmp and epsCmp compare exact values exactly.
var (
	ratCmp  = cmp.Comparer(func(x, y *big.Rat) bool { return x == nil && y == nil || x != nil && y != nil && x.Cmp(y) == 0 })
	epsCmp  = cmp.Comparer(func(x, y exact.Eps) bool { return x.Equal(y) })
	realCmp = cmp.Comparer(func(x, y exact.Real) bool {
		s, err := x.Sub(y).Sign()
		return err == nil && s == 0
	})
)

// TestMDPSurvey: the one-question interactive survey, end to end, every
// value computed by hand. From + the answer is yes with probability 3/4
// (L) or 4/5 (H); from − with 1/4 or 1/5. H is the worst query: ε = ln 4
// (4/5 vs 1/5); at ε = ln 3 the gap is 4/5 − 3·1/5 = 1/5.
func TestMDPSurvey(t *testing.T) {
	out := evaluate(t, surveyProgram(t), property.Options{})
	const every = "every sequence of 1 action explored"
	const reactive = every + " (the reachable part is reactive and acyclic)"
	type row struct {
		Pass  bool
		Value string
		Err   string
	}
	var got []row
	for _, o := range out {
		rw := row{Pass: o.Pass(), Value: o.Value()}
		if o.Err() != nil {
			rw.Err = o.Err().Error()
		}
		got = append(got, rw)
	}
	want := []row{
		{true, "holds", ""}, {true, "violated", ""}, {true, "2·ln(2)", ""}, {true, "1/5", ""},
		{true, "violated", ""}, {true, "holds", ""},
		{false, "error", "Pr(ψ) depends on the scheduler: from + (x=1) it is between Pmin = 3/4 and Pmax = 4/5; ask Pmin=?[…] or Pmax=?[…]"},
		{true, "", ""}, {true, "", ""}, {true, "2·ln(2)", ""}, {true, "1/5", ""}, {true, "violated", ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("outcomes (-want +got):\n%s", diff)
	}
	opts := cmp.Options{ratCmp, epsCmp, realCmp}
	zero := exact.RatReal(r(0, 1))
	fifth := exact.RatReal(r(1, 5))
	// Weighed: the start distributions (one entry each) weighed for the
	// two directions (4) and stepped by L and H (4); after a step each
	// has two outputs, weighed for the two directions' upper bounds (δ
	// mode only: 16) and their gaps (16): 40, or 24 for the tight ε.
	wantResults := []any{
		&mdp.Result{Verdict: mdp.Holds, Exact: true, Reason: reactive, Horizon: 1, From: 0, To: 1, Sequence: []string{"L"}, Delta: zero, Explored: 2, Weighed: 40},
		&mdp.Result{Verdict: mdp.Violated, Exact: true, Reason: reactive, Horizon: 1, From: 0, To: 1, Sequence: []string{"H"}, Event: []string{"yes"}, Delta: fifth, Explored: 2, Weighed: 40},
		&mdp.EpsResult{Exact: true, Reason: reactive, Horizon: 1, From: 0, To: 1, Sequence: []string{"H"}, Eps: ln(t, r(4, 1)), Explored: 2, Weighed: 24},
		&mdp.Result{Verdict: mdp.Holds, Exact: true, Reason: reactive, Horizon: 1, From: 0, To: 1, Sequence: []string{"H"}, Event: []string{"yes"}, Delta: fifth, Explored: 2, Weighed: 40},
	}
	for i, w := range wantResults {
		var g any
		switch o := out[i].(type) {
		case *property.MDPCheckOutcome:
			g = o.Result
		case *property.MDPEpsOutcome:
			g = o.Result
		case *property.MDPDeltaOutcome:
			g = o.Result
		}
		if diff := cmp.Diff(w, g, opts); diff != "" {
			t.Errorf("%s (-want +got):\n%s", out[i].Statement().Head().Text, diff)
		}
	}
	plus := verify.StateInfo{ID: 0, Name: "+", Valuation: chain.Valuation{{Name: "x", Value: 1}}}
	minus := verify.StateInfo{ID: 1, Name: "-", Valuation: chain.Valuation{{Name: "x", Value: 0}}}
	d := out[4].(*property.MDPFormulaOutcome)
	wantD := &mdp.Result{Verdict: mdp.Violated, Exact: true, Reason: every, Horizon: 1, From: 0, To: 1, Sequence: []string{"H"},
		ProbFrom: r(4, 5), ProbTo: r(1, 5), Delta: fifth, Upper: &fifth, Explored: 2, Weighed: 24} // one entry, Pr(ψ), after a step
	if diff := cmp.Diff(&property.MDPFormulaOutcome{Verdict: mdp.Violated, Inputs: 2, State: &plus,
		Atoms: []property.MDPAtom{{Formula: "D{ln(3), 0}[X out_Y]", State: &plus, Verdict: mdp.Violated, Result: wantD}}},
		d, opts, cmpopts()); diff != "" {
		t.Errorf("check D{ln(3), 0}[X out_Y] (-want +got):\n%s", diff)
	}
	both := out[5].(*property.MDPFormulaOutcome)
	if diff := cmp.Diff(&property.MDPFormulaOutcome{Verdict: mdp.Holds, Inputs: 2,
		Atoms: []property.MDPAtom{
			{Formula: "D{2·ln(2), 0}[F out_Y]", Verdict: mdp.Holds, Result: &mdp.Result{Verdict: mdp.Holds, Exact: true, Reason: reactive,
				Horizon: 1, From: 0, To: 1, Sequence: []string{"H"}, ProbFrom: r(4, 5), ProbTo: r(1, 5), Delta: zero, Explored: 2, Weighed: 24}},
			{Formula: "P>=1/5[X out_Y]", Verdict: mdp.Holds, Extreme: "min", Pr: r(1, 5), WorstState: &minus},
		}}, both, opts, cmpopts()); diff != "" {
		t.Errorf("check D & P (-want +got):\n%s", diff)
	}
	probs := func(o property.Outcome) []property.MDPInputProb { return o.(*property.MDPProbOutcome).Probs }
	if diff := cmp.Diff([]property.MDPInputProb{{State: plus, Pr: r(4, 5), Max: r(4, 5)}, {State: minus, Pr: r(1, 4), Max: r(1, 4)}}, probs(out[7]), opts); diff != "" {
		t.Errorf("Pmax=?[X out_Y] (-want +got):\n%s", diff)
	}
	one := r(1, 1)
	if diff := cmp.Diff([]property.MDPInputProb{{State: plus, Pr: one, Min: one, Max: one}, {State: minus, Pr: one, Min: one, Max: one}}, probs(out[8]), opts); diff != "" {
		t.Errorf("P=?[F (out_Y | out_N)] (-want +got):\n%s", diff)
	}
	if r := out[9].(*property.MDPEpsOutcome).Result; !r.Exact || !r.Eps.Equal(ln(t, r4())) || !cmp.Equal(r.Sequence, []string{"H"}) {
		t.Errorf("D{?, 0}[X out_Y]: %+v, want ln(4) exactly with [H]", r)
	}
	if res := out[10].(*property.MDPDeltaOutcome).Result; !res.Exact || !cmp.Equal(res.Delta, fifth, realCmp) || !cmp.Equal(res.ProbFrom, big.NewRat(4, 5), ratCmp) {
		t.Errorf("D{ln(3), ?}[X out_Y]: %+v, want 1/5 exactly, 4/5 vs 1/5", res)
	}
	if a := out[11].(*property.MDPFormulaOutcome).Atoms; len(a) != 1 || a[0].Extreme != "max" || a[0].Pr.Cmp(r(4, 5)) != 0 || a[0].State.Name != "+" {
		t.Errorf("P<=3/4[X out_Y] atoms %+v, want Pmax = 4/5 at +", a)
	}
}

func r4() *big.Rat { return big.NewRat(4, 1) }

// cmpopts compares outcomes on their exported fields.
func cmpopts() cmp.Option {
	return cmp.FilterPath(func(p cmp.Path) bool {
		sf, ok := p.Last().(cmp.StructField)
		return ok && (sf.Name() == "base" || sf.Name() == "OnFrame")
	}, cmp.Ignore())
}

// TestMDPUnknownAndSufficient: on loopMDP, D{0,0}[F yes] at s and t can
// be neither proved (Proposition 2: max Pr_s − min Pr_t = 1 − 0) nor
// refuted (every sequence gives both the same probability): unknown, δ in
// [0, 1], and only "expect unknown" passes; at u and v it holds by
// Proposition 2 (both reach yes with probability 1 under every
// scheduler).
func TestMDPUnknownAndSufficient(t *testing.T) {
	m := loopMDP(t)
	fy := func(n int) *property.Formula { return property.Eventually(label("yes", n), 0, -1, at(n), "F yes") }
	d := func(n int) *property.Formula { return dOf(exact.Eps{}, r(0, 1), fy(n), n) }
	uOnly := &mdpModel{m: m.m, pairs: m.pairs[1:]}
	unknown := &property.Program{Model: m, Statements: []property.Statement{
		&property.FormulaCheck{Header: head(1, "check D{0, 0}[F yes] expect unknown", property.ExpectUnknown, "unknown"), Formula: d(1)},
		&property.FormulaCheck{Header: head(2, "check D{0, 0}[F yes]", property.ExpectHolds, "holds"), Formula: d(2)},
		&property.DDeltaQuery{Header: head(3, "query D{0, ?}[F yes] expect 0", property.ExpectValue, "0"), Path: fy(3), Expected: r(0, 1)},
	}}
	opts := property.Options{MDP: mdp.Options{MaxHorizon: 4}}
	out := evaluate(t, unknown, opts)
	var got []string
	for _, o := range out {
		got = append(got, fmt.Sprintf("%s %v", o.Value(), o.Pass()))
	}
	if diff := cmp.Diff([]string{"unknown true", "unknown false", "[0, 1] false"}, got); diff != "" {
		t.Fatalf("outcomes (-want +got):\n%s", diff)
	}
	f := out[0].(*property.MDPFormulaOutcome)
	if f.Verdict != mdp.Unknown || f.State == nil || f.State.Name != "s" || len(f.Atoms) != 1 {
		t.Fatalf("check D at s: %+v, want unknown at s", f)
	}
	res := f.Atoms[0].Result
	if res.Verdict != mdp.Unknown || res.Horizon != 4 || res.Upper == nil || !cmp.Equal(*res.Upper, exact.RatReal(r(1, 1)), realCmp) ||
		!cmp.Equal(res.Delta, exact.RatReal(r(0, 1)), realCmp) {
		t.Errorf("D at s: %+v, want unknown with δ in [0, 1] at horizon 4", res)
	}
	out = evaluate(t, &property.Program{Model: uOnly, Statements: []property.Statement{
		&property.FormulaCheck{Header: head(1, "check D{0, 0}[F yes]", property.ExpectHolds, "holds"), Formula: d(1)},
	}}, opts)
	if f := out[0].(*property.MDPFormulaOutcome); f.Verdict != mdp.HoldsSufficient || !f.Pass() || f.State != nil ||
		len(f.Atoms) != 1 || f.Atoms[0].Result.Verdict != mdp.HoldsSufficient {
		t.Errorf("check D at u, v: %+v, want holds by the sufficient condition", f)
	}
}
