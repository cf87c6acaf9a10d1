package verify_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/verify"
	"github.com/google/go-cmp/cmp"
)

// realCmp compares exact reals by value: two rationals, or A + B·e^ε with
// equal parts.
var realCmp = cmp.Comparer(func(x, y exact.Real) bool {
	d := x.Sub(y)
	s, err := d.Sign()
	return err == nil && s == 0
})

// compositionCase is a mechanism small enough that the product chain of
// a few runs can be built and analysed.
type compositionCase struct {
	name string
	m    *model.Mechanism
	maxK int
}

func compositionCases(t *testing.T) []compositionCase {
	mm := mustMech(t)
	return []compositionCase{
		{"survey", mm(builder.Survey(r("1/2"), r("1/2"))), 4},
		{"survey θ1=3/5 θ2=3/4", mm(builder.Survey(r("3/5"), r("3/4"))), 4},
		{"survey degenerate θ2=0", mm(builder.Survey(r("1/2"), r("0"))), 4},
		{"truncated_geometric 1/2 n=3", mm(builder.TruncatedGeometric(r("1/2"), 3)), 4},
		{"truncated_geometric 1/4 n=2 Δ=2", mm(builder.TruncatedGeometricSensitivity(r("1/4"), 2, 2)), 4},
		{"above_threshold >= n=3 K=2", mm(builder.AboveThreshold(r("1/4"), r("1/2"), 3, 2, builder.AtLeast)), 3},
		{"above_threshold > n=3 K=2", mm(builder.AboveThreshold(r("1/4"), r("1/2"), 3, 2, builder.Above)), 2},
		{"above_threshold_loop > n=3", mm(builder.AboveThresholdLoop(r("1/4"), r("1/2"), 3, builder.Above)), 2},
		{"randomized_response 2/3 k=3", mm(builder.RandomizedResponseK(r("2/3"), 3)), 4},
		{"yarrow_geometric 1/2 {0..3}", mm(builder.YarrowGeometric(r("1/2"), 0, 3, 0)), 3},
		{"yarrow_geometric 1/2 {0..3} 2 bits", mm(builder.YarrowGeometric(r("1/2"), 0, 3, 2)), 3},
		{"laplace_decision 1/2 k=2 {0..4}", mm(builder.LaplaceDecision(r("1/2"), 2, 0, 4)), 4},
		{"cutoff_decision 1/2 m=2 {0..4}", mm(builder.CutoffDecision(r("1/2"), 2, 0, 4)), 4},
		{"generalized_decision 1/2 δ=1/10 m=2 {0..4}", mm(builder.GeneralizedDecision(r("1/2"), r("1/10"), 2, 0, 4)), 4},
		{"streaming_sum rows=3 p=1/2", mm(builder.StreamingSum(3, r("1/2"))), 4},
		{"streaming_sum rows=4 p=1/4", mm(builder.StreamingSum(4, r("1/4"))), 3},
	}
}

// TestCompositionEqualsProduct checks that privacy-loss distributions give
// exactly what the product chain of k runs gives, on every builder: the
// tight ε at δ = 0 and δ > 0, δ at rational and irrational c, dp verdicts
// with their counterexamples, and the profile.
func TestCompositionEqualsProduct(t *testing.T) {
	ctx := context.Background()
	epsilons := []exact.Eps{{}, ln("3/2"), ln("2"), ln("3"), ln("9"), rational(r("1/2")), rational(r("7/5")), mulLn("1/2", "5")}
	deltas := []string{"0", "1/100", "1/10", "1/4", "1/2"}
	for _, cc := range compositionCases(t) {
		one := analyze(t, cc.m, verify.FinalState())
		for k := 1; k <= cc.maxK; k++ {
			t.Run(fmt.Sprintf("%s/k=%d", cc.name, k), func(t *testing.T) {
				prod := analyze(t, mustMech(t)(builder.Compose(k, cc.m)), verify.FinalState())
				comp, err := verify.NewComposition(ctx, one, k, verify.CompositionOptions{})
				if err != nil {
					t.Fatal(err)
				}
				for _, d := range deltas {
					want, got := tightEps(t, prod, d), compTightEps(t, comp, d)
					if !want.Eps.Equal(got.Eps) {
						t.Errorf("tight ε at δ = %s: composition %s, product %s", d, got.Eps, want.Eps)
					}
					if (want.Witness == nil) != (got.Witness == nil) {
						t.Errorf("tight ε at δ = %s: witness %v, product's %v", d, got.Witness, want.Witness)
					} else if got.Witness != nil && d != "0" {
						if diff := cmp.Diff([]any{want.Witness.From.Name, want.Witness.To.Name, want.Witness.PrFrom, want.Witness.PrTo},
							[]any{got.Witness.From.Name, got.Witness.To.Name, got.Witness.PrFrom, got.Witness.PrTo}, ratCmp); diff != "" {
							t.Errorf("tight ε at δ = %s: witness differs (-product +composition):\n%s", d, diff)
						}
					}
				}
				for _, e := range epsilons {
					want, err := prod.TightDelta(ctx, e)
					if err != nil {
						t.Fatal(err)
					}
					got, err := comp.TightDelta(ctx, e)
					if err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(want.Delta, got.Delta, realCmp); diff != "" {
						t.Errorf("δ at ε = %s: composition %s, product %s", e, got.Delta, want.Delta)
					}
					if diff := cmp.Diff([]any{want.Witness.From.Name, want.Witness.To.Name, want.Witness.PrFrom, want.Witness.PrTo},
						[]any{got.Witness.From.Name, got.Witness.To.Name, got.Witness.PrFrom, got.Witness.PrTo}, ratCmp); diff != "" {
						t.Errorf("δ at ε = %s: witness differs (-product +composition):\n%s", e, diff)
					}
					for _, d := range deltas {
						w, err := prod.DP(ctx, e, r(d))
						if err != nil {
							t.Fatal(err)
						}
						g, err := comp.DP(ctx, e, r(d))
						if err != nil {
							t.Fatal(err)
						}
						if w.Holds != g.Holds {
							t.Errorf("dp(%s, %s): composition %v, product %v", e, d, g.Holds, w.Holds)
							continue
						}
						if w.Holds {
							continue
						}
						wc, gc := w.Counterexample, g.Counterexample
						if diff := cmp.Diff(
							[]any{wc.From.Name, wc.To.Name, wc.PrFrom, wc.PrTo, wc.Bound, wc.Excess, wc.LeastEps},
							[]any{gc.From.Name, gc.To.Name, gc.PrFrom, gc.PrTo, gc.Bound, gc.Excess, gc.LeastEps},
							ratCmp, realCmp, epsCmp); diff != "" {
							t.Errorf("dp(%s, %s): counterexample differs (-product +composition):\n%s", e, d, diff)
						}
					}
				}
				want, err := prod.Profile(ctx)
				if err != nil {
					t.Fatal(err)
				}
				got, err := comp.Profile(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want.Points, got.Points, ratCmp, epsCmp); diff != "" {
					t.Errorf("profile differs (-product +composition):\n%s", diff)
				}
			})
		}
	}
}

func compTightEps(t testing.TB, c *verify.Composition, delta string) *verify.EpsResult {
	t.Helper()
	res, err := c.TightEpsilon(context.Background(), r(delta))
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// mulLn returns ε = k·ln(x).
func mulLn(k, x string) exact.Eps {
	e, err := exact.MulLn(r(k), r(x))
	if err != nil {
		panic(err)
	}
	return e
}
