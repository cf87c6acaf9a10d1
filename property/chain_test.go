package property_test

import (
	"context"
	"errors"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/verify"
	"github.com/google/go-cmp/cmp"
)

// rrChain is randomized response with a detour: input a (x = 0) goes to
// u1 or u2 (1/2 each), each of which answers no (out = 0) with 3/4 and
// yes (out = 1) with 1/4; input b (x = 1) answers no with 1/4 and yes with
// 3/4. Both inputs end in no with 3/4 against 1/4: ε = ln 3 at δ = 0,
// δ = 1/2 at ε = 0, δ = 3/4 − 2·1/4 = 1/4 at ε = ln 2. u1 and u2 are one
// block of every lumping.
func rrChain(t *testing.T, yesFromA *big.Rat) *chain.Chain {
	t.Helper()
	b := chain.NewBuilder()
	a := b.AddState("a", chain.Valuation{{Name: "x", Value: 0}})
	bb := b.AddState("b", chain.Valuation{{Name: "x", Value: 1}})
	u1 := b.AddState("u1", nil)
	u2 := b.AddState("u2", nil)
	no := b.AddState("no", chain.Valuation{{Name: "out", Value: 0}}, "no")
	yes := b.AddState("yes", chain.Valuation{{Name: "out", Value: 1}}, "yes")
	noFromA := new(big.Rat).Sub(r(1, 1), yesFromA)
	b.AddTransition(a, u1, r(1, 2))
	b.AddTransition(a, u2, r(1, 2))
	for _, u := range []int{u1, u2} {
		b.AddTransition(u, no, noFromA)
		b.AddTransition(u, yes, yesFromA)
	}
	b.AddTransition(bb, no, r(1, 4))
	b.AddTransition(bb, yes, r(3, 4))
	c := mustBuild(t, b, a, bb)
	return c
}

func pairAB(n int) *property.Neighbours {
	return &property.Neighbours{Pos: at(n), Pairs: []property.Pair{{A: property.Ref{Name: "a", Pos: at(n)}, B: property.Ref{Name: "b", Pos: at(n)}, Pos: at(n)}}}
}

func eventually(f *property.Formula, n int) *property.Formula {
	return property.Eventually(f, 0, -1, at(n), "F "+f.Text)
}

func varExpr(name string, primed bool) *expr.Expr {
	return &expr.Expr{Op: expr.Var, Name: name, Primed: primed, Text: name, Pos: at(1)}
}

func cmpExpr(op string, a, b *expr.Expr, n int) *expr.Expr {
	return &expr.Expr{Op: expr.Cmp, CmpOp: op, Args: []*expr.Expr{a, b}, Text: a.Text + " " + op + " " + b.Text, Pos: at(n)}
}

func numExpr(v int64) *expr.Expr {
	return &expr.Expr{Op: expr.Num, Value: big.NewRat(v, 1), Text: big.NewRat(v, 1).RatString(), Pos: at(1)}
}

// over sets the output space of a query eps.
func over(s *property.EpsQuery, o *property.OutputSpec) *property.EpsQuery {
	s.Over = o
	return s
}

// evaluateIn evaluates p's statements in e.
func evaluateIn(e *property.Env, p *property.Program) []property.Outcome {
	var out []property.Outcome
	for _, st := range p.Statements {
		out = append(out, st.Evaluate(context.Background(), e))
	}
	return out
}

// descriptions are what p's statements say they check.
func descriptions(p *property.Program) []string {
	var out []string
	for _, st := range p.Statements {
		out = append(out, st.Describe())
	}
	return out
}

// summary is what a test compares of an outcome.
type summary struct {
	Kind, Value string
	Pass        bool
	Err         string
}

func summarize(out []property.Outcome) []summary {
	var s []summary
	for _, o := range out {
		x := summary{Kind: o.Statement().Kind(), Value: o.Value(), Pass: o.Pass()}
		if o.Err() != nil {
			x.Err = o.Err().Error()
		}
		s = append(s, x)
	}
	return s
}

// rrProgram asks every kind of statement of rrChain, each with the value
// computed by hand as its expectation.
func rrProgram(t *testing.T) *property.Program {
	yes := label("yes", 10)
	return &property.Program{Model: &property.ChainModel{Chain: rrChain(t, r(1, 4))}, Neighbours: pairAB(1),
		Statements: []property.Statement{
			&property.DPCheck{Header: head(2, "check dp(eps = ln(3))", property.ExpectHolds, "holds"), Eps: ln(t, r(3, 1)), Delta: r(0, 1)},
			&property.DPCheck{Header: head(3, "check dp(eps = ln(2), delta = 1/5)", property.ExpectViolated, "violated"), Eps: ln(t, r(2, 1)), Delta: r(1, 5)},
			&property.EpsQuery{Header: head(4, "query eps(delta = 0)", property.ExpectValue, "ln(3)"), Delta: r(0, 1), Expected: ln(t, r(3, 1))},
			&property.DeltaQuery{Header: head(5, "query delta(eps = ln(2))", property.ExpectValue, "1/4"), Eps: ln(t, r(2, 1)), Expected: r(1, 4)},
			&property.DeltaQuery{Header: head(6, "query delta(eps = 0)", property.ExpectValue, "1/3"), Eps: exact.Eps{}, Expected: r(1, 3)},
			&property.ProfileQuery{Header: head(7, "query profile", property.ExpectNone, "")},
			&property.FormulaCheck{Header: head(8, "check P>=1/4[F yes]", property.ExpectHolds, "holds"), Formula: pOf(">=", r(1, 4), eventually(yes, 8), 8)},
			&property.FormulaCheck{Header: head(9, "check P>=1/2[F yes]", property.ExpectViolated, "violated"), Formula: pOf(">=", r(1, 2), eventually(yes, 9), 9)},
			&property.ProbQuery{Header: head(10, "query P=?[F yes]", property.ExpectValue, "a: 1/4, b: 3/4"), Path: eventually(yes, 10),
				ExpectInputs: []property.ExpectedProb{{Input: property.Ref{Name: "a", Pos: at(10)}, Value: r(1, 4)}, {Input: property.Ref{Name: "b", Pos: at(10)}, Value: r(3, 4)}}},
			&property.ProbQuery{Header: head(11, "query P=?[F yes]", property.ExpectValue, "1/4"), Path: eventually(yes, 11), ExpectAll: r(1, 4)},
			&property.DEpsQuery{Header: head(12, "query D{?, 0}[F yes]", property.ExpectValue, "ln(3)"), Path: eventually(yes, 12), Delta: r(0, 1), Expected: ln(t, r(3, 1))},
			&property.DDeltaQuery{Header: head(13, "query D{0, ?}[F yes]", property.ExpectValue, "1/2"), Path: eventually(yes, 13), Eps: exact.Eps{}, Expected: r(1, 2)},
			&property.FormulaCheck{Header: head(14, "check D{ln(2), 0}[F yes]", property.ExpectHolds, "holds"), Formula: dOf(ln(t, r(2, 1)), r(0, 1), eventually(yes, 14), 14)},
		}}
}

// TestChainStatements: every kind of statement on a Markov chain, with and
// without lumping, against the values computed by hand (rrChain).
func TestChainStatements(t *testing.T) {
	want := []summary{
		{Kind: "check dp", Value: "holds", Pass: true},
		{Kind: "check dp", Value: "violated", Pass: true},
		{Kind: "query eps", Value: "ln(3)", Pass: true},
		{Kind: "query delta", Value: "1/4", Pass: true},
		{Kind: "query delta", Value: "1/2"}, // expected 1/3
		{Kind: "query profile", Pass: true},
		{Kind: "check formula", Value: "holds", Pass: true},
		{Kind: "check formula", Value: "violated", Pass: true},
		{Kind: "query P", Pass: true},
		{Kind: "query P"}, // b's is 3/4
		{Kind: "query D eps", Value: "ln(3)", Pass: true},
		{Kind: "query D delta", Value: "1/2", Pass: true},
		{Kind: "check formula", Value: "violated"}, // 1/4 vs 2·3/4 holds, 3/4 vs 2·1/4 does not
	}
	for _, lump := range []bool{false, true} {
		p := rrProgram(t)
		pp, err := property.Prepare(context.Background(), p, model.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		e := property.NewEnvWith(pp, property.Options{Lump: lump})
		out := evaluateIn(e, p)
		if diff := cmp.Diff(want, summarize(out)); diff != "" {
			t.Errorf("lump %v: outcomes (-want +got):\n%s", lump, diff)
		}
		probs := out[8].(*property.ProbOutcome).Probs
		gotProbs := map[string]*big.Rat{}
		for _, p := range probs {
			gotProbs[p.State.Name] = p.Pr
		}
		if diff := cmp.Diff(map[string]*big.Rat{"a": r(1, 4), "b": r(3, 4)}, gotProbs, ratCmp); diff != "" {
			t.Errorf("lump %v: Pr(F yes) (-want +got):\n%s", lump, diff)
		}
		bound := out[10].(*property.DBoundOutcome)
		if !bound.IsEps() || bound.Result.From == nil || bound.Result.From.Name != "b" || bound.Result.To.Name != "a" {
			t.Errorf("lump %v: D eps attained from %v to %v, want b to a", lump, bound.Result.From, bound.Result.To)
		}
		if out[11].(*property.DBoundOutcome).IsEps() {
			t.Errorf("lump %v: a D delta outcome says it is an ε", lump)
		}
		if x := out[7].(*property.FormulaOutcome).Result.Counterexample; x == nil || x.State.Name != "a" {
			t.Errorf("lump %v: P>=1/2[F yes] violated at %v, want a", lump, x)
		}
		var lumpedFor [][]string
		for _, l := range e.Lumpings() {
			lumpedFor = append(lumpedFor, l.For)
			if l.After.States >= l.Before.States {
				t.Errorf("lumping for %v: %d states of %d", l.For, l.After.States, l.Before.States)
			}
		}
		var wantFor [][]string
		if lump {
			wantFor = [][]string{{"final state"}, {property.ForFormulas}}
		}
		if diff := cmp.Diff(wantFor, lumpedFor); diff != "" {
			t.Errorf("lump %v: lumpings (-want +got):\n%s", lump, diff)
		}
		if _, ok := e.Analyzed(verify.FinalState()); !ok {
			t.Errorf("lump %v: the final-state analysis is not recorded", lump)
		}
		if _, ok := e.Composed(); ok {
			t.Errorf("lump %v: a composition where there is none", lump)
		}
	}
}

// TestChainDescribe: what each statement says it checks, once prepared.
func TestChainDescribe(t *testing.T) {
	p := rrProgram(t)
	if _, err := property.Prepare(context.Background(), p, model.Limits{}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, i := range []int{0, 2, 5, 6, 8, 10, 11, 12} {
		got = append(got, p.Statements[i].Describe())
	}
	want := []string{
		"standard (ε,δ)-DP over all events; outputs: final state",
		"standard (ε,δ)-DP over all events; outputs: final state",
		"standard (ε,δ)-DP over all events; outputs: final state",
		"dpCTL state formula at every input",
		"Pr(ψ) from every input",
		"the paper's D{ε,δ}[ψ]: the single event ψ, both directions, every neighbouring pair (weaker than dp for δ > 0)",
		"the paper's D{ε,δ}[ψ]: the single event ψ, both directions, every neighbouring pair (weaker than dp for δ > 0)",
		"dpCTL state formula at every input; D{ε,δ}[ψ] is the paper's single-event property (weaker than dp for δ > 0)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("descriptions (-want +got):\n%s", diff)
	}
	if got := p.Statements[0].(*property.DPCheck).Output().String(); got != "final state" {
		t.Errorf("output %q", got)
	}
	if p.Statements[8].(*property.ProbQuery).Resolved() == nil || p.Statements[10].(*property.DEpsQuery).Resolved() == nil ||
		p.Statements[6].(*property.FormulaCheck).Resolved() == nil {
		t.Error("a formula not resolved")
	}
}

// TestChainOutputs: a dp statement over another output space (the final
// value of out, the final label) is checked there.
func TestChainOutputs(t *testing.T) {
	p := &property.Program{Model: &property.ChainModel{Chain: rrChain(t, r(1, 4))}, Neighbours: pairAB(1),
		Output: property.OutputSpec{Vars: []property.Ref{{Name: "out", Pos: at(1)}}, Pos: at(1)},
		Statements: []property.Statement{
			&property.EpsQuery{Header: head(2, "query eps(delta = 0)", property.ExpectValue, "ln(3)"), Delta: r(0, 1), Expected: ln(t, r(3, 1))},
			over(&property.EpsQuery{Header: head(3, "query eps(delta = 0) over labels", property.ExpectValue, "ln(3)"), Delta: r(0, 1), Expected: ln(t, r(3, 1))},
				&property.OutputSpec{Labels: []property.Ref{{Name: "yes", Pos: at(3)}}, Pos: at(3)}),
			over(&property.EpsQuery{Header: head(4, "query eps(delta = 0) over traces", property.ExpectNone, ""), Delta: r(0, 1)},
				&property.OutputSpec{Steps: 1, Pos: at(4)}),
		}}
	out := evaluate(t, p, property.Options{Lump: true})
	want := []summary{
		{Kind: "query eps", Value: "ln(3)", Pass: true},
		{Kind: "query eps", Value: "ln(3)", Pass: true},
		{Kind: "query eps", Value: "0", Pass: true}, // no label observed: every trace is the same
	}
	if diff := cmp.Diff(want, summarize(out)); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	descr := descriptions(p)
	wantDescr := []string{
		"standard (ε,δ)-DP over all events; outputs: final value of out",
		"standard (ε,δ)-DP over all events; outputs: final labels {yes}",
		"standard (ε,δ)-DP over all events; outputs: traces of {} over 1 step",
	}
	if diff := cmp.Diff(wantDescr, descr); diff != "" {
		t.Errorf("descriptions (-want +got):\n%s", diff)
	}
}

// TestChainNeighbourPredicate: neighbours and inputs by predicates, and
// the model's own relation kept by inputs where.
func TestChainNeighbourPredicate(t *testing.T) {
	c := rrChain(t, r(1, 4))
	differ := cmpExpr("!=", varExpr("x", false), varExpr("x", true), 1)
	p := &property.Program{Model: &property.ChainModel{Chain: c},
		Inputs:     &property.Inputs{Pos: at(1), Where: cmpExpr(">=", varExpr("x", false), numExpr(0), 1)},
		Neighbours: &property.Neighbours{Pos: at(1), Pred: differ},
		Statements: []property.Statement{
			&property.EpsQuery{Header: head(2, "query eps(delta = 0)", property.ExpectValue, "ln(3)"), Delta: r(0, 1), Expected: ln(t, r(3, 1))},
		}}
	pp, err := property.Prepare(context.Background(), p, model.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][2]int{{0, 1}}, pp.Neighbours); diff != "" {
		t.Errorf("neighbours (-want +got):\n%s", diff)
	}
	if pp.IsMDP() || pp.IsParam() || pp.NumPairs() != 1 {
		t.Errorf("IsMDP %v, IsParam %v, NumPairs %d", pp.IsMDP(), pp.IsParam(), pp.NumPairs())
	}
	if got := summarize([]property.Outcome{p.Statements[0].Evaluate(context.Background(), property.NewEnv(pp))}); !got[0].Pass {
		t.Errorf("outcome %+v", got[0])
	}
	if got := property.InputNames(pp.Chain); got != "a, b" {
		t.Errorf("InputNames = %q", got)
	}
}

// TestChainPrepareErrors: names that do not resolve, and relations that
// relate nothing, are reported at their positions.
func TestChainPrepareErrors(t *testing.T) {
	c := rrChain(t, r(1, 4))
	cm := &property.ChainModel{Chain: c}
	eps := func(n int) property.Statement {
		return &property.EpsQuery{Header: head(n, "query eps(delta = 0)", property.ExpectNone, ""), Delta: r(0, 1)}
	}
	ref := func(name string, n int) property.Ref { return property.Ref{Name: name, Pos: at(n)} }
	for _, tc := range []struct {
		name string
		p    *property.Program
		want []string
	}{
		{"pairs", &property.Program{Model: cm, Neighbours: &property.Neighbours{Pos: at(1), Pairs: []property.Pair{
			{A: ref("aa", 1), B: ref("b", 1), Pos: at(1)},
			{A: ref("a", 2), B: ref("a", 2), Pos: at(2)},
			{A: ref("a", 3), B: ref("no", 3), Pos: at(3)},
		}}, Statements: []property.Statement{eps(4)}}, []string{
			"s.dp:1:1: unknown state aa (did you mean a?)",
			"s.dp:2:1: a ~ a relates a state to itself",
			"s.dp:3:1: no is not an input (inputs: a, b)",
		}},
		{"no neighbours", &property.Program{Model: cm, Statements: []property.Statement{eps(2)}}, []string{
			"s.dp:2:1: this statement compares neighbouring inputs, and no two of the model's 2 inputs are neighbours",
		}},
		{"outputs", &property.Program{Model: cm, Neighbours: pairAB(1),
			Output:  property.OutputSpec{Vars: []property.Ref{ref("outt", 2)}, Pos: at(2)},
			Observe: []property.Ref{ref("maybe", 3)},
			Statements: []property.Statement{
				over(&property.EpsQuery{Header: head(4, "query eps(delta = 0)", property.ExpectNone, ""), Delta: r(0, 1)},
					&property.OutputSpec{Labels: []property.Ref{ref("yess", 4)}, Pos: at(4)}),
				&property.FormulaCheck{Header: head(5, "check x", property.ExpectHolds, "holds"), Formula: label("x", 5)},
				&property.ProbQuery{Header: head(6, "query P=?[F yes]", property.ExpectNone, ""), Path: eventually(label("yes", 6), 6),
					ExpectInputs: []property.ExpectedProb{{Input: ref("a", 6), Value: r(1, 4)}, {Input: ref("a", 7), Value: r(1, 4)}}},
			}}, []string{
			"s.dp:2:1: unknown variable outt (variables: out, x)",
			"s.dp:3:1: unknown label maybe (labels: no, yes)",
			"s.dp:4:1: unknown label yess (labels: no, yes)",
			"s.dp:5:1: x is a variable, not a condition: compare it (x = …)",
			"s.dp:7:1: a is listed twice",
		}},
		{"inputs where", &property.Program{Model: cm, Neighbours: pairAB(1),
			Inputs:     &property.Inputs{Pos: at(2), Where: cmpExpr("=", varExpr("x", false), numExpr(5), 2)},
			Statements: []property.Statement{eps(3)}}, []string{
			"s.dp:2:1: no state satisfies this inputs predicate",
		}},
		{"predicate", &property.Program{Model: cm,
			Neighbours: &property.Neighbours{Pos: at(2), Pred: cmpExpr("=", varExpr("x", false), varExpr("x", true), 2)},
			Statements: []property.Statement{eps(3)}}, []string{
			"s.dp:2:1: this neighbour predicate relates no two distinct inputs",
		}},
		{"predicate var", &property.Program{Model: cm,
			Neighbours: &property.Neighbours{Pos: at(2), Pred: cmpExpr("!=", varExpr("out", false), varExpr("out", true), 2)},
			Statements: []property.Statement{eps(3)}}, []string{
			"s.dp:1:1: input a has no variable out; a neighbour predicate may only compare variables every input has",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, prepareErrs(t, tc.p)); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

// TestEquivalence: rrChain equals itself, and differs from the chain
// whose a answers yes with 1/3 at a's output yes (out = 1): 1/4 against
// 1/3.
func TestEquivalence(t *testing.T) {
	same := &property.ChainModel{Chain: rrChain(t, r(1, 4))}
	other := &property.ChainModel{Chain: rrChain(t, r(1, 3))}
	check := func(n int, b property.Model, kind property.ExpectKind) *property.EquivalenceCheck {
		return &property.EquivalenceCheck{Header: head(n, "check equivalent(M, N)", kind, ""), Models: [2]property.Model{same, b},
			CallPos: at(n), CallText: "equivalent(M, N)"}
	}
	p := &property.Program{Statements: []property.Statement{check(1, same, property.ExpectHolds), check(2, other, property.ExpectViolated)}}
	out := evaluate(t, p, property.Options{})
	want := []summary{{Kind: "check equivalent", Value: "holds", Pass: true}, {Kind: "check equivalent", Value: "violated", Pass: true}}
	if diff := cmp.Diff(want, summarize(out)); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	got := out[1].(*property.EquivalenceOutcome).Result.Counterexample
	wantDiff := &verify.Difference{Input: "x=0", Output: "out=0", PrA: r(3, 4), PrB: r(2, 3)}
	if diff := cmp.Diff(wantDiff, got, ratCmp); diff != "" {
		t.Errorf("counterexample (-want +got):\n%s", diff)
	}
	if s := p.Statements[0]; s.Describe() != "equal output distributions (final states) for every input" ||
		p.Statements[0].(*property.EquivalenceCheck).Infos()[0].Note != "explicit chain" {
		t.Errorf("Describe %q, Infos %+v", s.Describe(), p.Statements[0].(*property.EquivalenceCheck).Infos())
	}

	// a model whose inputs do not correspond
	b := chain.NewBuilder()
	in := b.AddState("in", chain.Valuation{{Name: "y", Value: 0}})
	o := b.AddState("o", chain.Valuation{{Name: "out", Value: 0}})
	b.AddTransition(in, o, r(1, 1))
	lone := mustBuild(t, b, in)
	p = &property.Program{Statements: []property.Statement{check(3, &property.ChainModel{Chain: lone}, property.ExpectHolds)}}
	wantErrs := []string{"s.dp:3:1: equivalent(M, N) cannot be compared: their inputs share no variable (the variables are x, y)"}
	if diff := cmp.Diff(wantErrs, prepareErrs(t, p)); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

// TestStoppedAndWrapped: an outcome cut off, and an error wrapped.
func TestStoppedAndWrapped(t *testing.T) {
	st := &property.EpsQuery{Header: head(1, "query eps(delta = 0)", property.ExpectNone, "")}
	o := property.Stopped(st, context.Canceled)
	property.WrapErr(o, func(err error) error { return errors.New("stopped: " + err.Error()) })
	if o.Pass() || o.Value() != "error" || o.Err().Error() != "stopped: context canceled" || o.Statement() != st {
		t.Errorf("Pass %v, Value %q, Err %v", o.Pass(), o.Value(), o.Err())
	}

	// cancelled before evaluating
	p := rrProgram(t)
	pp, err := property.Prepare(context.Background(), p, model.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	e := property.NewEnv(pp)
	for _, st := range p.Statements {
		o := st.Evaluate(ctx, e)
		if o.Err() == nil || o.Pass() {
			t.Errorf("%s: cancelled, Err %v, Pass %v, Value %q", st.Head().Text, o.Err(), o.Pass(), o.Value())
		}
	}
	if _, err := property.Prepare(ctx, p, model.Limits{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Prepare cancelled: %v", err)
	}
}

// TestSuggest: the names at most two edits away, the closest first.
func TestSuggest(t *testing.T) {
	names := []string{"module", "model", "modal", "x"}
	if diff := cmp.Diff([]string{"modal", "model"}, property.Suggestions("modl", names)); diff != "" {
		t.Errorf("Suggestions (-want +got):\n%s", diff)
	}
	if got := property.Suggest("modul", names); got != " (did you mean modal?)" {
		t.Errorf("Suggest = %q", got)
	}
	if got := property.Suggest("completely_else", names); got != "" {
		t.Errorf("Suggest = %q", got)
	}
}

// TestCheckPath: a path formula dpcheck cannot check exactly is refused
// at the part that is unsupported.
func TestCheckPath(t *testing.T) {
	yes := label("yes", 1)
	if err := property.CheckPath(eventually(yes, 1)); err != nil {
		t.Errorf("F yes: %v", err)
	}
	g := property.Globally(yes, 0, -1, at(2), "G yes")
	if err := property.CheckPath(g); err != nil && err.Pos != at(2) {
		t.Errorf("G yes: %v", err)
	}
	var list source.ErrorList
	_ = list
}

// composeRR is compose(k = k, model = rrChain) with a ~ b.
func composeRR(t *testing.T, k int) *property.BuilderModel {
	t.Helper()
	def, ok := builder.Lookup("compose")
	if !ok {
		t.Fatal("no compose")
	}
	a := builder.NewArgs()
	a.SetInt("k", k)
	a.SetModel("model", &model.Mechanism{Chain: rrChain(t, r(1, 4)), Neighbours: [][2]int{{0, 1}}, Note: "randomized response"})
	return &property.BuilderModel{Def: def, Args: a, Call: "compose(k, rr)", Pos: at(1), ArgPos: map[string]source.Position{"k": at(1)}}
}

// TestComposition: two runs of rrChain. Each run answers no with 3/4
// from a and 1/4 from b, so the runs' outputs are (no, no) with 9/16
// against 1/16: ε = ln 9; at ε = 0, δ is the total variation,
// (9 − 1)/16 = 1/2. Computed by privacy-loss distributions without the
// product chain, and the same with it when the inputs statement reads the
// product's states.
func TestComposition(t *testing.T) {
	stmts := func() []property.Statement {
		return []property.Statement{
			&property.EpsQuery{Header: head(2, "query eps(delta = 0)", property.ExpectValue, "ln(9)"), Delta: r(0, 1), Expected: ln(t, r(9, 1))},
			&property.DeltaQuery{Header: head(3, "query delta(eps = 0)", property.ExpectValue, "1/2"), Expected: r(1, 2)},
			&property.DPCheck{Header: head(4, "check dp(eps = ln(9))", property.ExpectHolds, "holds"), Eps: ln(t, r(9, 1)), Delta: r(0, 1)},
		}
	}
	want := []summary{
		{Kind: "query eps", Value: "2·ln(3)", Pass: true},
		{Kind: "query delta", Value: "1/2", Pass: true},
		{Kind: "check dp", Value: "holds", Pass: true},
	}
	for _, product := range []bool{false, true} {
		p := &property.Program{Model: composeRR(t, 2), Statements: stmts()}
		if product {
			p.Inputs = &property.Inputs{Pos: at(1), Names: []property.Ref{{Name: "a"}, {Name: "b"}}}
			p.Neighbours = pairAB(1)
		}
		pp, err := property.Prepare(context.Background(), p, model.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if c := pp.Composition; c == nil || c.Runs != 2 || c.Product != product || (pp.Chain != nil) != product {
			t.Fatalf("product %v: composition %+v, chain %v", product, c, pp.Chain != nil)
		}
		if got := pp.Model.Note; got != "2 independent runs of: randomized response" {
			t.Errorf("note %q", got)
		}
		e := property.NewEnv(pp)
		out := evaluateIn(e, p)
		if diff := cmp.Diff(want, summarize(out)); diff != "" {
			t.Errorf("product %v: outcomes (-want +got):\n%s", product, diff)
		}
		if _, ok := e.Composed(); !ok {
			t.Errorf("product %v: no privacy-loss analysis", product)
		}
		if got := p.Statements[0].Describe(); got != "standard (ε,δ)-DP over all events; outputs: final state of each of 2 runs" {
			t.Errorf("Describe %q", got)
		}
	}

	// a product over the limits, needed by the inputs statement
	p := &property.Program{Model: composeRR(t, 60), Inputs: &property.Inputs{Pos: at(1)}, Statements: stmts()}
	got := prepareErrs(t, p)
	want2 := []string{"s.dp:1:1: compose(k, rr) would have about 8.07e+18 states; the limit is 10,000,000 states; the inputs statement (line 1) needs the chain of the runs (dp, eps, delta and profile over their final outputs do not)"}
	if diff := cmp.Diff(want2, got); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
	p = &property.Program{Model: composeRR(t, 2), Inputs: &property.Inputs{Pos: at(1), Where: cmpExpr("=", varExpr("x", false), numExpr(0), 1)}, Statements: stmts()}
	got = prepareErrs(t, p)
	want2 = []string{"s.dp:1:1: inputs where … is not available for compose(…): its inputs are those of the composed model"}
	if diff := cmp.Diff(want2, got); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

// prismModel is an explicit chain presented as a PRISM model.
type prismModel struct{ c *chain.Chain }

func (m *prismModel) Info() property.ModelInfo {
	return property.ModelInfo{Kind: "prism", Name: "m.prism", Neighbours: "every two initial states"}
}

func (m *prismModel) Build(ctx context.Context, _ model.Limits) (*model.Mechanism, error) {
	return &model.Mechanism{Chain: m.c, AllPairs: true, Note: "a PRISM model"}, nil
}

// TestBuilderModel: a builder's refusals are positioned at the argument
// or the call; inputs where keeps a builder's inputs and the pairs of two
// kept ones; a neighbour predicate over a PRISM model compares only
// variables that differ between its inputs.
func TestBuilderModel(t *testing.T) {
	eps := func(n int) []property.Statement {
		return []property.Statement{&property.EpsQuery{Header: head(n, "query eps(delta = 0)", property.ExpectValue, "ln(2)"), Delta: r(0, 1), Expected: ln(t, r(2, 1))}}
	}
	bad := geometric(t, r(2, 1))
	huge := geometric(t, r(1, 2))
	huge.Args.SetInt("n", 5000)
	huge.Call = "truncated_geometric(alpha = 1/2, n = 5000)"
	for _, tc := range []struct {
		name string
		p    *property.Program
		want []string
	}{
		{"argument", &property.Program{Model: bad, Statements: eps(2)}, []string{"s.dp:1:1: truncated_geometric: parameter alpha must be in (0, 1), got 2"}},
		{"limit", &property.Program{Model: huge, Statements: eps(2)}, []string{"s.dp:1:1: truncated_geometric(alpha = 1/2, n = 5000) would have about 25,015,002 transitions; the limit is 10,000,000 transitions"}},
		{"one input kept", &property.Program{Model: geometric(t, r(1, 2)), Statements: eps(2),
			Inputs: &property.Inputs{Pos: at(1), Where: cmpExpr("=", varExpr("in", false), numExpr(0), 1)}}, []string{"s.dp:1:1: no two of the 1 inputs this predicate keeps are neighbours in the model"}},
		{"no input kept", &property.Program{Model: geometric(t, r(1, 2)), Statements: eps(2),
			Inputs: &property.Inputs{Pos: at(1), Where: cmpExpr("=", varExpr("in", false), numExpr(7), 1)}}, []string{"s.dp:1:1: no input of the model satisfies this inputs predicate (it has 3 inputs)"}},
		{"prism constant", &property.Program{Model: &prismModel{rrChainConst(t)}, Statements: eps(2),
			Neighbours: &property.Neighbours{Pos: at(1), Pred: cmpExpr("!=", varExpr("c", false), varExpr("c", true), 1)}}, []string{"s.dp:1:1: this neighbour predicate relates no two distinct inputs"}},
		{"prism constant read", &property.Program{Model: &prismModel{rrChainConst(t)}, Statements: eps(2),
			Neighbours: &property.Neighbours{Pos: at(1), Pred: &expr.Expr{Op: expr.Or, Pos: at(1), Args: []*expr.Expr{
				cmpExpr("!=", varExpr("c", false), varExpr("c", true), 1), cmpExpr("!=", varExpr("x", false), varExpr("x", true), 1)}}}},
			[]string{"s.dp:1:1: c is not an input variable: it is 0 at every initial state of the model (its inputs), so comparing it cannot tell two inputs apart; a neighbour predicate compares the variables whose initial values differ (x)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, prepareErrs(t, tc.p)); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}

	// inputs 0 and 1 kept, with their pair: still ln(1/alpha) = ln 2
	p := &property.Program{Model: geometric(t, r(1, 2)), Statements: eps(2),
		Inputs: &property.Inputs{Pos: at(1), Where: cmpExpr("<=", varExpr("in", false), numExpr(1), 1)}}
	pp, err := property.Prepare(context.Background(), p, model.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]summary{{Kind: "query eps", Value: "ln(2)", Pass: true}}, summarize(evaluateIn(property.NewEnv(pp), p))); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	if got := property.InputNames(pp.Chain); got != "s0, s1" {
		t.Errorf("inputs %q", got)
	}

	// every two inputs of a PRISM model are neighbours, made when needed
	p = &property.Program{Model: &prismModel{rrChainConst(t)}, Statements: eps(2)}
	pp, err = property.Prepare(context.Background(), p, model.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !pp.AllPairs || pp.NumPairs() != 1 || pp.Model.Neighbours != "every two initial states" {
		t.Errorf("AllPairs %v, NumPairs %d, Neighbours %q", pp.AllPairs, pp.NumPairs(), pp.Model.Neighbours)
	}
	out := summarize(evaluateIn(property.NewEnvWith(pp, property.Options{Lump: true}), p))
	if diff := cmp.Diff([]summary{{Kind: "query eps", Value: "ln(3)"}}, out); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
}

// rrChainConst is rrChain with a variable c = 0 at both inputs.
func rrChainConst(t *testing.T) *chain.Chain {
	t.Helper()
	b := chain.NewBuilder()
	a := b.AddState("a", chain.Valuation{{Name: "c", Value: 0}, {Name: "x", Value: 0}})
	bb := b.AddState("b", chain.Valuation{{Name: "c", Value: 0}, {Name: "x", Value: 1}})
	no := b.AddState("no", chain.Valuation{{Name: "c", Value: 1}, {Name: "x", Value: 0}}, "no")
	yes := b.AddState("yes", chain.Valuation{{Name: "c", Value: 1}, {Name: "x", Value: 1}}, "yes")
	b.AddTransition(a, no, r(3, 4))
	b.AddTransition(a, yes, r(1, 4))
	b.AddTransition(bb, no, r(1, 4))
	b.AddTransition(bb, yes, r(3, 4))
	c := mustBuild(t, b, a, bb)
	return c
}
