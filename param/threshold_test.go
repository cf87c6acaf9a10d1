package param

import (
	"math/big"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/poly"
	"github.com/dpcheck/dpcheck/verify"
)

// TestAboveThresholdQInstances checks that the parametric above threshold
// is builder.AboveThreshold at every rational α_q tried: the same states,
// valuations, labels, inputs, rows and neighbours.
func TestAboveThresholdQInstances(t *testing.T) {
	for _, cmp := range []builder.Comparison{builder.AtLeast, builder.Above} {
		for _, nk := range [][2]int{{1, 1}, {2, 2}, {3, 2}, {2, 3}} {
			n, k := nk[0], nk[1]
			at := r(1, 4)
			pc, err := AboveThresholdQ(ctx, poly.Limits{}, at, n, k, cmp)
			if err != nil {
				t.Fatal(err)
			}
			if pc.Param != "alpha_q" {
				t.Fatalf("parameter %q", pc.Param)
			}
			want := (n+1)*(n+1)*(1+k) + k + 1 // inputs, shared query states, outputs
			if cmp == builder.AtLeast {
				want -= (n + 1) * (k - 1) // no query after one at T = 0
			}
			if pc.Frame.NumStates() != want {
				t.Fatalf("n = %d, k = %d: %d states, want %d", n, k, pc.Frame.NumStates(), want)
			}
			for _, a := range []*big.Rat{r(1, 2), r(1, 3), r(2, 7), r(9, 10)} {
				ch, err := pc.Instantiate(a)
				if err != nil {
					t.Fatal(err)
				}
				m, err := builder.AboveThreshold(at, a, n, k, cmp)
				if err != nil {
					t.Fatal(err)
				}
				sameChain(t, ch, m.Chain)
				samePairs(t, pc.Neighbours, m.Neighbours)
			}
		}
	}
}

// TestAboveThresholdQRows checks two rows by hand: n = 1, k = 1, cmp ">=".
// From d1_T1_q1 the noisy answer of d = 1 is 1 with 1/(1+α): halt_1
// with 1/(1+α), never with α/(1+α). From d0_T0_q1 every answer is
// ≥ 0: halt_1 with 1 and no transition to never.
func TestAboveThresholdQRows(t *testing.T) {
	pc, err := AboveThresholdQ(ctx, poly.Limits{}, r(1, 4), 1, 1, builder.AtLeast)
	if err != nil {
		t.Fatal(err)
	}
	row := func(name string) []Trans {
		s, ok := pc.Frame.Lookup(name)
		if !ok {
			t.Fatalf("no state %s", name)
		}
		return pc.Rows[s]
	}
	halt, _ := pc.Frame.Lookup("halt_1")
	never, _ := pc.Frame.Lookup("never")
	r1 := row("d1_T1_q1")
	if len(r1) != 2 || r1[0].To != halt || !r1[0].P.Equal(rf(t, []int64{1}, []int64{1, 1})) ||
		r1[1].To != never || !r1[1].P.Equal(rf(t, []int64{0, 1}, []int64{1, 1})) {
		t.Fatalf("d1_T1_q1: %v", r1)
	}
	r0 := row("d0_T0_q1")
	if len(r0) != 1 || r0[0].To != halt || !r0[0].P.Equal(konst(t, 1)) {
		t.Fatalf("d0_T0_q1: %v", r0)
	}
	// Threshold noise from d0_t0: T = 0 with 1/(1+1/4) = 4/5, T = 1 with 1/5.
	in := row("d0_t0")
	if len(in) != 2 || !in[0].P.Equal(rf(t, []int64{4}, []int64{5})) || !in[1].P.Equal(rf(t, []int64{1}, []int64{5})) {
		t.Fatalf("d0_t0: %v", in)
	}
}

func TestAboveThresholdQRefuses(t *testing.T) {
	for _, c := range []struct {
		at   *big.Rat
		n, k int
	}{{r(0, 1), 2, 1}, {r(1, 1), 2, 1}, {nil, 2, 1}, {r(1, 4), 0, 1}, {r(1, 4), 2, 0}, {r(1, 4), 100, 10}} {
		_, err := AboveThresholdQ(ctx, poly.Limits{}, c.at, c.n, c.k, builder.AtLeast)
		if err == nil {
			t.Errorf("alpha_t %v, n %d, k %d: no error", c.at, c.n, c.k)
		} else if c.n == 100 && !strings.Contains(err.Error(), "more than 100000 states") {
			t.Errorf("n 100, k 10: %v, want the states limit", err)
		}
	}
}

// TestAboveThresholdQRegion is models/above_threshold_param.dp's claims:
// alpha_t = 1/4, n = 3, k = 2, ">=". The tight ε is ln(1/α²) on all of
// (0, 1), so dp(ln 16) holds exactly on [1/4, 1); and builder's chain,
// checked by verify at rational α_q inside and outside, agrees.
func TestAboveThresholdQRegion(t *testing.T) {
	pc, err := AboveThresholdQ(ctx, poly.Limits{}, r(1, 4), 3, 2, builder.AtLeast)
	if err != nil {
		t.Fatal(err)
	}
	a := mustAnalyze(t, pc)
	eps, err := a.TightEpsilon(ctx)
	if err != nil {
		t.Fatal(err)
	}
	invSq := rf(t, []int64{1}, []int64{0, 0, 1})
	if ps := eps.R.Pieces; len(ps) != 1 || ps[0].Inf || !ps[0].F.Equal(invSq) {
		t.Fatalf("tight ε %s, want ln(1/α²) on (0, 1)", eps)
	}
	res, err := a.DP(ctx, konst(t, 16), poly.RatFunc{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Holds || res.Region.Format("alpha") != "[1/4, 1)" || res.Witness.Rat().Cmp(r(1, 5)) != 0 ||
		res.Instance == nil || res.Instance.Holds {
		t.Fatalf("dp(ln 16): holds %v on %s, witness %s", res.Holds, res.Region.Format("alpha"), res.Witness)
	}
	// The same claim everywhere at ε = −2·ln α.
	res, err = a.DP(ctx, invSq, poly.RatFunc{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Holds {
		t.Fatalf("dp(−2 ln α) holds only on %s", res.Region.Format("alpha"))
	}
	ln16, err := exact.Ln(r(16, 1))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		a    *big.Rat
		want bool
	}{{r(1, 4), true}, {r(1, 3), true}, {r(9, 10), true}, {r(1, 5), false}, {r(249, 1000), false}, {r(1, 10), false}} {
		m, err := builder.AboveThreshold(r(1, 4), c.a, 3, 2, builder.AtLeast)
		if err != nil {
			t.Fatal(err)
		}
		an, err := verify.Analyze(ctx, &verify.Model{Chain: m.Chain, Neighbours: m.Neighbours, Output: verify.FinalState()})
		if err != nil {
			t.Fatal(err)
		}
		got, err := an.DP(ctx, ln16, new(big.Rat))
		if err != nil {
			t.Fatal(err)
		}
		if got.Holds != c.want {
			t.Errorf("alpha_q = %s: builder's chain holds %v, want %v (region [1/4, 1))", c.a.RatString(), got.Holds, c.want)
		}
	}
}
