package property_test

import (
	"context"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/poly"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
	"github.com/google/go-cmp/cmp"
)

// geometric is truncated_geometric(alpha = alpha, n = 2) as a builder
// call.
func geometric(t *testing.T, alpha *big.Rat) *property.BuilderModel {
	t.Helper()
	def, ok := builder.Lookup("truncated_geometric")
	if !ok {
		t.Fatal("no truncated_geometric")
	}
	a := builder.NewArgs()
	a.SetRat("alpha", alpha)
	a.SetInt("n", 2)
	if err := def.WithDefaults(a); err != nil {
		t.Fatal(err)
	}
	return &property.BuilderModel{Def: def, Args: a, Call: "truncated_geometric(alpha = " + alpha.RatString() + ", n = 2)", Pos: at(1),
		ArgPos: map[string]source.Position{"alpha": at(1)}}
}

// geometricParam is truncated_geometric(alpha = alpha, n = 2) for every
// alpha in (0, 1).
func geometricParam(t *testing.T) *property.ParamModel {
	bm := geometric(t, r(1, 2))
	bm.Call = "truncated_geometric(alpha = alpha, n = 2)"
	return &property.ParamModel{Builder: bm, Param: "alpha", Arg: "alpha", Interval: poly.Open(r(0, 1), r(1, 1)), IntervalText: "(0, 1)", Pos: at(1)}
}

func constFn(x *big.Rat) poly.RatFunc { return poly.FromPoly(poly.Const(x)) }

// inverse is 1/alpha.
func inverse(t *testing.T) poly.RatFunc {
	t.Helper()
	f, err := poly.Limits{}.RatDiv(context.Background(), constFn(r(1, 1)), poly.FromPoly(poly.X()))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestParamStatements: the truncated geometric mechanism is ln(1/alpha)-DP
// for every alpha in (0, 1), exactly: ε = ln 2 holds where 1/alpha ≤ 2,
// that is on [1/2, 1); at e^ε = 1/alpha the least δ is 0.
func TestParamStatements(t *testing.T) {
	eps0 := property.NewParamEpsQuery(head(2, "query eps(delta = 0) for alpha", property.ExpectValue, "ln(1/alpha)"), "alpha", constFn(r(0, 1)), "0")
	eps0.SetExpected(inverse(t))
	epsHalf := property.NewParamEpsQuery(head(3, "query eps(delta = 1/2) for alpha", property.ExpectNone, ""), "alpha", constFn(r(1, 2)), "1/2")
	dp := property.NewParamDPCheck(head(4, "check dp(eps = ln(2)) for alpha", property.ExpectViolated, "violated"), "alpha", constFn(r(2, 1)), constFn(r(0, 1)), "ln(2)", "0")
	dpAll := property.NewParamDPCheck(head(5, "check dp(eps = ln(1/alpha)) for alpha", property.ExpectHolds, "holds"), "alpha", inverse(t), constFn(r(0, 1)), "ln(1/alpha)", "0")
	delta := property.NewParamDeltaQuery(head(6, "query delta(eps = ln(1/alpha)) for alpha", property.ExpectValue, "0"), "alpha", inverse(t), "ln(1/alpha)")
	delta.SetExpected(constFn(r(0, 1)))
	pm := geometricParam(t)
	equiv := &property.ParamEquivalenceCheck{Header: head(7, "check equivalent(M, M) for alpha", property.ExpectHolds, "holds"), Param: "alpha",
		Interval: pm.Interval, IntervalText: "(0, 1)", Models: [2]property.Model{pm, geometricParam(t)}, CallPos: at(7), CallText: "equivalent(M, M)"}
	differ := &property.ParamEquivalenceCheck{Header: head(8, "check equivalent(M, N) for alpha", property.ExpectViolated, "violated"), Param: "alpha",
		Interval: pm.Interval, IntervalText: "(0, 1)", Models: [2]property.Model{pm, geometric(t, r(1, 2))}, CallPos: at(8), CallText: "equivalent(M, N)"}
	p := &property.Program{Model: pm, Statements: []property.Statement{eps0, epsHalf, dp, dpAll, delta, equiv, differ}}
	pp, err := property.Prepare(context.Background(), p, model.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !pp.IsParam() {
		t.Fatal("not parametric")
	}
	e := property.NewEnv(pp)
	out := evaluateIn(e, p)
	want := []summary{
		{Kind: "query eps", Value: "ln(1/alpha) for alpha in (0, 1)", Pass: true},
		// at δ = 1/2: the pair (0, 1) differs by (1 − α)/(1 + α) at
		// ε = 0, at most 1/2 from α = 1/3 on; below, (1 − e^ε·α)/(1 + α)
		// = 1/2 at e^ε = (1 − α)/(2α)
		{Kind: "query eps", Value: "ln((1/2 − 1/2·alpha)/alpha) for alpha in (0, 1/3] ((0.0000, 0.3333]); 0 for alpha in (1/3, 1) ((0.3333, 1.0000))", Pass: true},
		{Kind: "check dp", Value: "violated", Pass: true},
		{Kind: "check dp", Value: "holds", Pass: true},
		{Kind: "query delta", Value: "0 for alpha in (0, 1)", Pass: true},
		{Kind: "check equivalent", Value: "holds", Pass: true},
		{Kind: "check equivalent", Value: "violated", Pass: true},
	}
	if diff := cmp.Diff(want, summarize(out)); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	if o := out[2].(*property.ParamDPOutcome); o.Region != "[1/2, 1)" || o.RegionDecimal != "[0.5000, 1.0000)" {
		t.Errorf("region %q (%q)", o.Region, o.RegionDecimal)
	}
	d := out[6].(*property.ParamEquivalenceOutcome).Result.Counterexample
	// Pr(out = 0 | in = 0) is 1/(1 + α) against 2/3: equal at α = 1/2
	// only, so the simplest other value, 1/3, tells them apart (3/4).
	if d == nil {
		t.Fatal("no counterexample")
	}
	got := []any{d.Input, d.Output, d.Witness, d.WitnessA, d.WitnessB}
	if diff := cmp.Diff([]any{"in=0", "out=0", r(1, 3), r(3, 4), r(2, 3)}, got, ratCmp); diff != "" {
		t.Errorf("counterexample (-want +got):\n%s", diff)
	}
	descr := descriptions(p)
	wantDescr := []string{
		"least ε with standard (ε,0)-DP for every alpha in (0, 1), piecewise; outputs: final state",
		"least ε with standard (ε,δ)-DP for every alpha in (0, 1), piecewise; outputs: final state",
		"standard (ε,δ)-DP over all events for every alpha in (0, 1); outputs: final state",
		"standard (ε,δ)-DP over all events for every alpha in (0, 1); outputs: final state",
		"least δ with standard (ε,δ)-DP for every alpha in (0, 1), piecewise; outputs: final state",
		"equal output distributions (final states) for every input and every alpha in (0, 1)",
		"equal output distributions (final states) for every input and every alpha in (0, 1)",
	}
	if diff := cmp.Diff(wantDescr, descr); diff != "" {
		t.Errorf("descriptions (-want +got):\n%s", diff)
	}
	if got := differ.Constant(); got != [2]bool{false, true} {
		t.Errorf("Constant = %v", got)
	}
	if got := differ.Infos()[1].Note; got == "" {
		t.Errorf("no note for the model without the parameter")
	}
	if eps0.Out() != "final state" || eps0.Interval() != "(0, 1)" {
		t.Errorf("Out %q, Interval %q", eps0.Out(), eps0.Interval())
	}
	if f, ok := eps0.Expected(); !ok || !f.Equal(inverse(t)) {
		t.Errorf("Expected %v, %v", f, ok)
	}
	if _, ok := epsHalf.Expected(); ok {
		t.Error("an expectation where there is none")
	}
	if got := pm.Info().Note; got != "for every alpha in (0, 1)" {
		t.Errorf("Note %q", got)
	}
	if _, err := pm.Build(context.Background(), model.Limits{}); err != property.ErrParamBuild {
		t.Errorf("Build: %v", err)
	}
}
