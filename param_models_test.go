package dpcheck_test

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/property"
	"github.com/google/go-cmp/cmp"
)

// check runs a file and returns its outcomes, failing on errors.
func checkParamFile(t *testing.T, path string) []property.Outcome {
	t.Helper()
	res, err := dpcheck.CheckFile(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range res.Statements {
		if o.Err() != nil || !o.Pass() {
			t.Fatalf("%s: %s: %s (%v)", path, o.Statement().Head().Text, o.Value(), o.Err())
		}
	}
	return res.Statements
}

// TestGeometricParam: the outcomes of models/geometric_param.dp, exactly
// (hand-computed: Pr[t0 | s0] = 1/(1+α) and Pr[t0 | s1] = α/(1+α), so the
// ratio is 1/α everywhere; ln 3 suffices iff α ≥ 1/3; at α = 1/4 the
// counterexample is t0 with 4/5 vs 1/5).
func TestGeometricParam(t *testing.T) {
	out := checkParamFile(t, "models/geometric_param.dp")
	if len(out) != 4 {
		t.Fatalf("%d outcomes, want 4", len(out))
	}
	if o := out[0].(*property.ParamDPOutcome); !o.Result.Holds {
		t.Errorf("dp(-ln alpha) does not hold: %s", o.Region)
	}
	o := out[1].(*property.ParamDPOutcome)
	if o.Result.Holds || o.Region != "[1/3, 1)" || o.RegionDecimal != "[0.3333, 1.0000)" {
		t.Errorf("dp(ln 3): holds %v on %s = %s, want violated, [1/3, 1)", o.Result.Holds, o.Region, o.RegionDecimal)
	}
	if w := o.Result.Witness.Rat(); w == nil || w.Cmp(big.NewRat(1, 4)) != 0 {
		t.Errorf("witness %v, want 1/4", o.Result.Witness)
	}
	cx := o.Result.Instance.Counterexample
	if cx.From.Name != "s0" || cx.To.Name != "s1" || cx.WorstOutput != "t0" ||
		cx.WorstFrom.Cmp(big.NewRat(4, 5)) != 0 || cx.WorstTo.Cmp(big.NewRat(1, 5)) != 0 {
		t.Errorf("counterexample %s → %s on %s: %s vs %s, want s0 → s1 on t0: 4/5 vs 1/5",
			cx.From.Name, cx.To.Name, cx.WorstOutput, cx.WorstFrom.RatString(), cx.WorstTo.RatString())
	}
	if diff := cmp.Diff([]string{"ln(1/alpha) for alpha in (0, 1)"}, out[2].(*property.ParamEpsOutcome).Pieces); diff != "" {
		t.Errorf("tight ε (-want +got):\n%s", diff)
	}
	// δ at ε = ln 2: Pr[t0 | s0] − 2·Pr[t0 | s1] = (1 − 2α)/(1 + α) for α ≤ 1/2.
	want := []string{"(1 − 2·alpha)/(alpha + 1) for alpha in (0, 1/2] ((0.0000, 0.5000])", "0 for alpha in (1/2, 1) ((0.5000, 1.0000))"}
	if diff := cmp.Diff(want, out[3].(*property.ParamDeltaOutcome).Pieces); diff != "" {
		t.Errorf("tight δ (-want +got):\n%s", diff)
	}
}

// TestParamModelsAgreeWithBuilders: the tight ε and δ for every parameter
// value of the parametric models equal the non-parametric builders' at
// rational points.
func TestParamModelsAgreeWithBuilders(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		file, call string
		points     []*big.Rat
		eps        int // the index of query eps(delta = 0), -1: none
		delta      int // the index of query delta(eps = …)
		deltaEps   string
	}{
		{"models/geometric_param.dp", "truncated_geometric(alpha = %s, n = 5)", []*big.Rat{big.NewRat(1, 4), big.NewRat(1, 2), big.NewRat(2, 3)}, 2, 3, "ln(2)"},
		{"models/geometric_param_20.dp", "truncated_geometric(alpha = %s, n = 20)", []*big.Rat{big.NewRat(1, 3), big.NewRat(3, 4)}, 2, 3, "ln(2)"},
		{"models/survey_param.dp", "survey(theta1 = %s, theta2 = 1/2)", []*big.Rat{big.NewRat(1, 5), big.NewRat(1, 2), big.NewRat(4, 5)}, 2, 3, "ln(2)"},
		{"models/survey_theta2_param.dp", "survey(theta1 = 1/2, theta2 = %s)", []*big.Rat{big.NewRat(1, 5), big.NewRat(1, 2), big.NewRat(4, 5)}, 0, -1, ""},
		{"models/cutoff_param.dp", "cutoff_decision(alpha = %s, m = 3, hi = 5)", []*big.Rat{big.NewRat(1, 3), big.NewRat(9, 10)}, -1, 2, "-ln(alpha)"},
		{"models/above_threshold_param.dp", `above_threshold(alpha_t = 1/4, alpha_q = %s, n = 3, k = 2, cmp = ">=")`, []*big.Rat{big.NewRat(1, 5), big.NewRat(1, 4), big.NewRat(2, 7)}, 2, -1, ""},
	}
	for _, c := range cases {
		out := checkParamFile(t, c.file)
		for _, a := range c.points {
			src := fmt.Sprintf("model %s\nquery eps(delta = 0)\n", fmt.Sprintf(c.call, a.RatString()))
			deltaEps := ""
			if c.delta >= 0 {
				deltaEps = c.deltaEps
				if deltaEps == "-ln(alpha)" {
					deltaEps = "ln(" + new(big.Rat).Inv(a).RatString() + ")"
				}
				src += "query delta(eps = " + deltaEps + ")\n"
			}
			res, err := dpcheck.CheckSource(ctx, "point.dp", src)
			if err != nil {
				t.Fatal(err)
			}
			if c.eps >= 0 {
				r := out[c.eps].(*property.ParamEpsOutcome).Result
				got, err := r.Eps(a)
				if err != nil {
					t.Fatal(err)
				}
				want := res.Statements[0].(*property.EpsOutcome).Result.Eps
				if n, err := got.Cmp(want); err != nil || n != 0 {
					t.Errorf("%s at %s: tight ε %s, builder's %s", c.file, a.RatString(), got, want)
				}
			}
			if c.delta >= 0 {
				r := out[c.delta].(*property.ParamDeltaOutcome).Result
				p, ok := r.Delta.At(a)
				if !ok {
					t.Fatalf("%s: %s outside the pieces", c.file, a.RatString())
				}
				got, err := p.F.Eval(a)
				if err != nil {
					t.Fatal(err)
				}
				want := res.Statements[1].(*property.DeltaOutcome).Result.Delta
				if s, err := want.Sub(exact.RatReal(got)).Sign(); err != nil || s != 0 {
					t.Errorf("%s at %s: tight δ at ε = %s is %s, builder's %s", c.file, a.RatString(), deltaEps, got.RatString(), want)
				}
			}
		}
	}
}

// TestParamIntervalOutsideTheBuilders: an interval where a probability is
// not positive is refused when the model is built, at the model, with an
// exact value where it fails (α = 1: (α − α²)/(1 + α) = 0).
func TestParamIntervalOutsideTheBuilders(t *testing.T) {
	src := "param alpha in (0, 2)\nmodel truncated_geometric(alpha = alpha, n = 2)\ncheck dp(eps = ln(2)) for alpha\n"
	_, err := dpcheck.CheckSource(context.Background(), "wide.dp", src)
	want := "wide.dp:2:7: truncated_geometric(alpha = alpha, n = 2) for every alpha in (0, 2): invalid parametric model: state s0: the probability (alpha − alpha^2)/(alpha + 1) of going to t1 is not positive at alpha = 1 (nor everywhere in (0, 2))"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

// TestParamOutputsVar: with outputs var out the outputs are the values of
// out (param.AnalyzeVar); on the geometric mechanism they are its final
// states, so the tight ε is ln(1/α) again.
func TestParamOutputsVar(t *testing.T) {
	src := "param alpha in [1/4, 3/4]\nmodel truncated_geometric(alpha = alpha, n = 3)\noutputs var out\nquery eps(delta = 0) for alpha\ncheck dp(eps = ln(2)) for alpha expect violated\n"
	res, err := dpcheck.CheckSource(context.Background(), "var.dp", src)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Statements[0].(*property.ParamEpsOutcome).Pieces; !cmp.Equal(got, []string{"ln(1/alpha) for alpha in [1/4, 3/4] ([0.2500, 0.7500])"}) {
		t.Errorf("tight ε %q", got)
	}
	if o := res.Statements[1].(*property.ParamDPOutcome); o.Region != "[1/2, 3/4]" || !o.Pass() {
		t.Errorf("dp(ln 2) holds on %s (pass %v), want [1/2, 3/4]", o.Region, o.Pass())
	}
}

// TestParamQueryExpectations: a query's expectation is met by one equal
// piece over the whole interval (δ = 0 on [1/2, 1) for the geometric
// mechanism at ε = ln 2; ε = ln(1/α) written as −ln(α)), and not by a
// value with two pieces.
func TestParamQueryExpectations(t *testing.T) {
	src := "param alpha in [1/2, 1)\nmodel truncated_geometric(alpha = alpha, n = 4)\n" +
		"query delta(eps = ln(2)) for alpha expect 0\n" +
		"query eps(delta = 0) for alpha expect -ln(alpha)\n" +
		"query eps(delta = 0) for alpha expect 2*ln(1/alpha)\n" +
		"query delta(eps = ln(3/2)) for alpha expect 0\n"
	res, err := dpcheck.CheckSource(context.Background(), "expect.dp", src)
	if err != nil {
		t.Fatal(err)
	}
	want := []bool{true, true, false, false}
	for i, o := range res.Statements {
		if o.Pass() != want[i] {
			t.Errorf("%s: pass %v, want %v (value %s)", o.Statement().Head().Text, o.Pass(), want[i], o.Value())
		}
	}
	if got := res.Statements[3].Value(); got != "(1 − 3/2·alpha)/(alpha + 1) for alpha in [1/2, 2/3] ([0.5000, 0.6667]); 0 for alpha in (2/3, 1) ((0.6667, 1.0000))" {
		t.Errorf("δ at ln(3/2): %s", got)
	}
}
