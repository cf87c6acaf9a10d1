package verify_test

import (
	"context"
	"errors"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/model"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/verify"
	"github.com/google/go-cmp/cmp"
)

// gamblersRuin: states 0..4, 0 and 4 absorbing, up with 1/3 and down with
// 2/3. By hand, Pr_i(reach 4) = (2^i - 1)/15.
func gamblersRuin(t *testing.T) *model.Mechanism {
	b := chain.NewBuilder()
	st := make([]int, 5)
	for i := range st {
		st[i] = b.AddState(string(rune('0'+i)), chain.Valuation{{Name: "x", Value: int64(i)}})
	}
	for i := 1; i <= 3; i++ {
		b.AddTransition(st[i], st[i+1], r("1/3"))
		b.AddTransition(st[i], st[i-1], r("2/3"))
		b.MarkInput(st[i])
	}
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return &model.Mechanism{Chain: c, Neighbours: [][2]int{{st[1], st[2]}, {st[2], st[3]}}}
}

func TestCyclicAbsorption(t *testing.T) {
	a := analyze(t, gamblersRuin(t), verify.FinalState())
	c := a.Chain()
	var got, want []*big.Rat
	for i, w := range []string{"1/15", "3/15", "7/15"} {
		s, _ := c.Lookup(string(rune('1' + i)))
		got = append(got, a.Prob(s, "4"))
		want = append(want, r(w))
		got = append(got, a.Prob(s, "0"))
		want = append(want, new(big.Rat).Sub(big.NewRat(1, 1), r(w)))
	}
	if diff := cmp.Diff(want, got, ratCmp); diff != "" {
		t.Errorf("absorption probabilities (-want +got):\n%s", diff)
	}
	// Ratios: 3 (2 vs 1 on "4") is the largest.
	if diff := cmp.Diff(ln("3"), tightEps(t, a, "0").Eps, epsCmp); diff != "" {
		t.Errorf("tight ε: %s", diff)
	}
}

func TestSelfLoopAndNeverAbsorbed(t *testing.T) {
	// i0: 1/2 to a self-looping state that exits to o1 w.p. 1/3 and to o2
	// w.p. 1/3 (so each exit has probability 1/2 overall), 1/2 into a closed
	// cycle c1 <-> c2: never absorbed.
	// i1: straight to o1.
	b := chain.NewBuilder()
	i0 := b.AddState("i0", nil)
	i1 := b.AddState("i1", nil)
	l := b.AddState("l", nil)
	c1 := b.AddState("c1", nil)
	c2 := b.AddState("c2", nil)
	o1 := b.AddState("o1", nil)
	o2 := b.AddState("o2", nil)
	b.AddTransition(i0, l, r("1/2"))
	b.AddTransition(i0, c1, r("1/2"))
	b.AddTransition(l, l, r("1/3"))
	b.AddTransition(l, o1, r("1/3"))
	b.AddTransition(l, o2, r("1/3"))
	b.AddTransition(c1, c2, r("1"))
	b.AddTransition(c2, c1, r("1"))
	b.AddTransition(i1, o1, r("1"))
	b.MarkInput(i0)
	b.MarkInput(i1)
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	a, err := verify.Analyze(context.Background(), &verify.Model{Chain: c, Neighbours: [][2]int{{i0, i1}}})
	if err != nil {
		t.Fatal(err)
	}
	outs, p, _ := a.Distribution(i0)
	if diff := cmp.Diff([]string{"o1", "o2", verify.Never}, outs); diff != "" {
		t.Errorf("outputs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]*big.Rat{r("1/4"), r("1/4"), r("1/2")}, p, ratCmp); diff != "" {
		t.Errorf("probabilities (-want +got):\n%s", diff)
	}
	res := tightEps(t, a, "0")
	if !res.Eps.IsInf() {
		t.Errorf("tight ε = %s, want ∞ (i0 reaches o2 and ⊥∞, i1 never)", res.Eps)
	}
	if got := res.Witness.Event; len(got) != 1 || got[0] != "o2" {
		t.Errorf("witness event %v, want [o2]", got)
	}
	// δ at ε = 0 is the total variation distance: 3/4.
	if diff := cmp.Diff(r("3/4"), tightDelta(t, a, exact.Eps{}), ratCmp); diff != "" {
		t.Errorf("δ at ε=0: %s", diff)
	}
	// δ(∞) = 3/4 too: the mass i1 never produces cannot be covered by any c.
	if got := tightEps(t, a, "3/4").Eps; !got.IsZero() {
		t.Errorf("tight ε at δ=3/4 = %s, want 0", got)
	}
}

func TestOutputsByVarAndLabels(t *testing.T) {
	m := mustMech(t)(builder.Survey(r("1/2"), r("1/2")))
	byVar := analyze(t, m, verify.FinalVar("y"))
	outs, _, _ := byVar.Distribution(0)
	if diff := cmp.Diff([]string{"y=0", "y=1"}, outs); diff != "" {
		t.Errorf("outputs by var (-want +got):\n%s", diff)
	}
	byLabel := analyze(t, m, verify.FinalLabels("out_Y"))
	outs, p, _ := byLabel.Distribution(0)
	if diff := cmp.Diff([]string{"{}", "{out_Y}"}, outs); diff != "" {
		t.Errorf("outputs by label (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]*big.Rat{r("1/4"), r("3/4")}, p, ratCmp); diff != "" {
		t.Errorf("probabilities by label (-want +got):\n%s", diff)
	}
}

func TestModelErrors(t *testing.T) {
	m := mustMech(t)(builder.Survey(r("1/2"), r("1/2")))
	ctx := context.Background()
	for _, tc := range []struct {
		pairs [][2]int
		msg   string
	}{
		{[][2]int{{0, 2}}, "invalid model: neighbour pair names Y (y=1), which is not an input"},
		{[][2]int{{0, 9}}, "invalid model: neighbour pair names state #9, which does not exist"},
		{[][2]int{{0, 0}}, "invalid model: the neighbour relation relates no two distinct inputs"},
		{nil, "invalid model: the neighbour relation relates no two distinct inputs"},
	} {
		_, err := verify.Analyze(ctx, &verify.Model{Chain: m.Chain, Neighbours: tc.pairs})
		if err == nil || err.Error() != tc.msg || !errors.Is(err, verify.ErrModel) {
			t.Errorf("pairs %v: error %v, want %q", tc.pairs, err, tc.msg)
		}
	}
	a := analyze(t, m, verify.FinalState())
	neg, _ := exact.Ln(r("1/2"))
	for _, tc := range []struct {
		eps   exact.Eps
		delta string
		msg   string
	}{
		{neg, "0", "invalid property parameter: ε = ln(1/2) is negative"},
		{exact.Inf(), "0", "invalid property parameter: ε must be finite"},
		{ln("2"), "3/2", "invalid property parameter: δ = 3/2 is outside [0, 1]"},
		{ln("2"), "-1/2", "invalid property parameter: δ = -1/2 is outside [0, 1]"},
	} {
		_, err := a.DP(ctx, tc.eps, r(tc.delta))
		if err == nil || err.Error() != tc.msg || !errors.Is(err, verify.ErrParam) {
			t.Errorf("DP(%s, %s) error %v, want %q", tc.eps, tc.delta, err, tc.msg)
		}
	}
}

func TestCancelled(t *testing.T) {
	m := mustMech(t)(builder.TruncatedGeometric(r("1/2"), 50))
	a := analyze(t, m, verify.FinalState())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := a.TightEpsilon(ctx, new(big.Rat)); !errors.Is(err, context.Canceled) {
		t.Errorf("TightEpsilon on a cancelled context: %v", err)
	}
	if _, err := verify.Analyze(ctx, &verify.Model{Chain: m.Chain, Neighbours: m.Neighbours}); !errors.Is(err, context.Canceled) {
		t.Errorf("Analyze on a cancelled context: %v", err)
	}
}

func TestCounterexampleFields(t *testing.T) {
	a := analyze(t, mustMech(t)(builder.TruncatedGeometric(r("1/2"), 5)), verify.FinalState())
	res := dp(t, a, ln("3/2"), "0")
	if res.Holds {
		t.Fatal("holds")
	}
	cx := res.Counterexample
	type summary struct {
		From, To       string
		Event          []string
		PrFrom, PrTo   *big.Rat
		Bound, Excess  string
		LeastEps       string
		Worst          string
		WFrom, WTo     *big.Rat
		Pairs, Outputs int
	}
	got := summary{cx.From.String(), cx.To.String(), cx.Event, cx.PrFrom, cx.PrTo, cx.Bound.String(), cx.Excess.String(),
		cx.LeastEps.String(), cx.WorstOutput, cx.WorstFrom, cx.WorstTo, res.OrderedPairs, res.Outputs}
	// The worst pair is s0 vs s1 (its H is 1/6, the largest; s5 vs s4 ties and
	// comes later): E* = {t0}, 2/3 > 3/2·1/3 = 1/2.
	want := summary{"s0 (in=0)", "s1 (in=1)", []string{"t0"}, r("2/3"), r("1/3"), "1/2", "1/6", "ln(2)", "t0", r("2/3"), r("1/3"), 10, 6}
	if diff := cmp.Diff(want, got, ratCmp); diff != "" {
		t.Errorf("counterexample (-want +got):\n%s", diff)
	}
}

func TestTranscendentalDelta(t *testing.T) {
	// Survey at ε = 1/2: δ = 3/4 - 1/4·e^(1/2) exactly.
	a := analyze(t, mustMech(t)(builder.Survey(r("1/2"), r("1/2"))), verify.FinalState())
	res, err := a.TightDelta(context.Background(), rational(r("1/2")))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res.Delta.String(), "3/4 - 1/4·e^(1/2)"; got != want {
		t.Errorf("δ = %s, want %s", got, want)
	}
	if f := res.Delta.Float(); f < 0.3378 || f > 0.3379 { // 0.75 - 0.25·1.6487 = 0.33782
		t.Errorf("δ ≈ %v", f)
	}
}

// TestOutputNamesDoNotMerge is the review's case: an absorbing state named
// "x=1" (without the variable) must not merge with the output x = 1 of
// another state, and a state named ⊥∞ must not merge with never-absorbed
// mass.
func TestOutputNamesDoNotMerge(t *testing.T) {
	b := chain.NewBuilder()
	in0 := b.AddState("in0", nil)
	in1 := b.AddState("in1", nil)
	fake := b.AddState("x=1", nil)
	real := b.AddState("y", chain.Valuation{{Name: "x", Value: 1}})
	b.AddTransition(in0, fake, r("1"))
	b.AddTransition(in1, real, r("1"))
	b.MarkInput(in0)
	b.MarkInput(in1)
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	a, err := verify.Analyze(context.Background(), &verify.Model{Chain: c, Neighbours: [][2]int{{in0, in1}}, Output: verify.FinalVar("x")})
	if err != nil {
		t.Fatal(err)
	}
	if got := a.NumOutputs(); got != 2 {
		t.Errorf("%d outputs, want 2", got)
	}
	if dp(t, a, exact.Eps{}, "0").Holds {
		t.Error("dp(0, 0) holds for two fully distinguishable runs")
	}
	outs, _, _ := a.Distribution(in0)
	if diff := cmp.Diff([]string{"x=1 (state)"}, outs); diff != "" {
		t.Errorf("outputs of in0 (-want +got):\n%s", diff)
	}

	// A state named ⊥∞ beside a closed cycle.
	b = chain.NewBuilder()
	i0 := b.AddState("i0", nil)
	i1 := b.AddState("i1", nil)
	named := b.AddState(verify.Never, nil)
	c1 := b.AddState("c1", nil)
	c2 := b.AddState("c2", nil)
	b.AddTransition(i0, named, r("1"))
	b.AddTransition(i1, c1, r("1"))
	b.AddTransition(c1, c2, r("1"))
	b.AddTransition(c2, c1, r("1"))
	b.MarkInput(i0)
	b.MarkInput(i1)
	c, err = b.Build()
	if err != nil {
		t.Fatal(err)
	}
	a, err = verify.Analyze(context.Background(), &verify.Model{Chain: c, Neighbours: [][2]int{{i0, i1}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := a.Prob(i1, verify.Never); got.Cmp(r("1")) != 0 {
		t.Errorf("Pr(⊥∞ | i1) = %s, want 1", got.RatString())
	}
	if got := a.Prob(i0, verify.Never+" (state)"); got.Cmp(r("1")) != 0 {
		t.Errorf("Pr(the state named ⊥∞ | i0) = %s, want 1", got.RatString())
	}
	if dp(t, a, exact.Eps{}, "0").Holds {
		t.Error("dp(0, 0) holds")
	}
}
