package verify_test

import (
	"context"
	"fmt"
	"github.com/dpcheck/dpcheck/exact"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/verify"
	"github.com/google/go-cmp/cmp"
)

// The reference values every build must reproduce (the README's table
// "What the reference models give").

func TestSurveyReference(t *testing.T) {
	a := analyze(t, mustMech(t)(builder.Survey(r("1/2"), r("1/2"))), verify.FinalState())
	pos, _ := a.Chain().Lookup("+")
	neg, _ := a.Chain().Lookup("-")
	got := []*big.Rat{a.Prob(pos, "Y"), a.Prob(pos, "N"), a.Prob(neg, "Y"), a.Prob(neg, "N")}
	if diff := cmp.Diff([]*big.Rat{r("3/4"), r("1/4"), r("1/4"), r("3/4")}, got, ratCmp); diff != "" {
		t.Errorf("Pr(Y|+), Pr(N|+), Pr(Y|-), Pr(N|-) (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(ln("3"), tightEps(t, a, "0").Eps, epsCmp); diff != "" {
		t.Errorf("tight ε: %s", diff)
	}
	if diff := cmp.Diff(r("1/2"), tightDelta(t, a, exact.Eps{}), ratCmp); diff != "" {
		t.Errorf("δ at ε=0: %s", diff)
	}
	if diff := cmp.Diff(r("1/4"), tightDelta(t, a, ln("2")), ratCmp); diff != "" {
		t.Errorf("δ at c=2: %s", diff)
	}
	if !dp(t, a, ln("3"), "0").Holds {
		t.Error("survey is not (ln 3, 0)-DP")
	}
	if res := dp(t, a, ln("2"), "0"); res.Holds {
		t.Error("survey is (ln 2, 0)-DP")
	}
}

func TestHighAccuracySurvey(t *testing.T) {
	a := analyze(t, mustMech(t)(builder.Survey(r("3/5"), r("1/2"))), verify.FinalState())
	pos, _ := a.Chain().Lookup("+")
	if diff := cmp.Diff(r("4/5"), a.Prob(pos, "Y"), ratCmp); diff != "" {
		t.Errorf("Pr(Y|+): %s", diff)
	}
	if diff := cmp.Diff(ln("4"), tightEps(t, a, "0").Eps, epsCmp); diff != "" {
		t.Errorf("tight ε: %s", diff)
	}
}

func TestDoubleSurvey(t *testing.T) {
	m := doubleSurvey(t)
	a := analyze(t, m, verify.FinalState())
	pos, _ := a.Chain().Lookup("+")
	neg, _ := a.Chain().Lookup("-")
	if diff := cmp.Diff([]*big.Rat{r("9/16"), r("1/16")}, []*big.Rat{a.Prob(pos, "YY"), a.Prob(neg, "YY")}, ratCmp); diff != "" {
		t.Errorf("Pr(YY|+), Pr(YY|-) (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(ln("9"), tightEps(t, a, "0").Eps, epsCmp); diff != "" {
		t.Errorf("tight ε: %s", diff)
	}
	// Exact δ at ε = 0 is 1/2; the composition theorem only gives 1/2+1/2 = 1.
	if diff := cmp.Diff(r("1/2"), tightDelta(t, a, exact.Eps{}), ratCmp); diff != "" {
		t.Errorf("δ at ε=0: %s", diff)
	}
	if !dp(t, a, exact.Eps{}, "1/2").Holds {
		t.Error("double survey is not (0, 1/2)-DP")
	}
	// First answer hidden: observing only a2 costs ln 3, no more.
	hidden := analyze(t, m, verify.FinalVar("a2"))
	if diff := cmp.Diff(ln("3"), tightEps(t, hidden, "0").Eps, epsCmp); diff != "" {
		t.Errorf("tight ε with the first answer hidden: %s", diff)
	}
}

// geometricTable is the paper's Figure 3 (truncated 1/2-geometric over {0..5}).
var geometricTable = [6][6]string{
	{"2/3", "1/6", "1/12", "1/24", "1/48", "1/48"},
	{"1/3", "1/3", "1/6", "1/12", "1/24", "1/24"},
	{"1/6", "1/6", "1/3", "1/6", "1/12", "1/12"},
	{"1/12", "1/12", "1/6", "1/3", "1/6", "1/6"},
	{"1/24", "1/24", "1/12", "1/6", "1/3", "1/3"},
	{"1/48", "1/48", "1/24", "1/12", "1/6", "2/3"},
}

func TestGeometricHalfReference(t *testing.T) {
	a := analyze(t, mustMech(t)(builder.TruncatedGeometric(r("1/2"), 5)), verify.FinalState())
	c := a.Chain()
	for k := range 6 {
		s, _ := c.Lookup(fmt.Sprintf("s%d", k))
		var got, want []*big.Rat
		for l := range 6 {
			got = append(got, a.Prob(s, fmt.Sprintf("t%d", l)))
			want = append(want, r(geometricTable[k][l]))
		}
		if diff := cmp.Diff(want, got, ratCmp); diff != "" {
			t.Errorf("row %d (-want +got):\n%s", k, diff)
		}
	}
	res := tightEps(t, a, "0")
	if diff := cmp.Diff(ln("2"), res.Eps, epsCmp); diff != "" {
		t.Errorf("tight ε: %s", diff)
	}
	for _, tc := range []struct{ c, delta string }{
		{"1", "1/3"}, {"5/4", "1/4"}, {"3/2", "1/6"}, {"7/4", "1/12"}, {"2", "0"},
	} {
		if diff := cmp.Diff(r(tc.delta), tightDelta(t, a, ln(tc.c)), ratCmp); diff != "" {
			t.Errorf("δ at c=%s: %s", tc.c, diff)
		}
	}
	if !dp(t, a, ln("2"), "0").Holds {
		t.Error("1/2-geometric is not (ln 2, 0)-DP")
	}
}

func TestGeometricQuarterReference(t *testing.T) {
	a := analyze(t, mustMech(t)(builder.TruncatedGeometric(r("1/4"), 5)), verify.FinalState())
	s0, _ := a.Chain().Lookup("s0")
	_, got, _ := a.Distribution(s0)
	want := []*big.Rat{r("4/5"), r("3/20"), r("3/80"), r("3/320"), r("3/1280"), r("1/1280")}
	if diff := cmp.Diff(want, got, ratCmp); diff != "" {
		t.Errorf("row 0 (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(ln("4"), tightEps(t, a, "0").Eps, epsCmp); diff != "" {
		t.Errorf("tight ε: %s", diff)
	}
}

func TestGeometricSensitivity(t *testing.T) {
	// Sensitivity 2: neighbours two apart cost 2·ln(1/α).
	a := analyze(t, mustMech(t)(builder.TruncatedGeometricSensitivity(r("1/3"), 6, 2)), verify.FinalState())
	if diff := cmp.Diff(ln("9"), tightEps(t, a, "0").Eps, epsCmp); diff != "" {
		t.Errorf("tight ε: %s", diff)
	}
}

func TestAboveThresholdProbabilities(t *testing.T) {
	a := analyze(t, mustMech(t)(builder.AboveThreshold(r("1/4"), r("1/2"), 5, 3, builder.AtLeast)), verify.FinalState())
	c := a.Chain()
	d5, _ := c.Lookup("d5_t3")
	d4, _ := c.Lookup("d4_t3")
	want5 := []*big.Rat{r("3461/3840"), r("15581/184320"), r("99629/8847360")}
	want4 := []*big.Rat{r("1541/1920"), r("1297/9216"), r("7393/221184")}
	var got5, got4 []*big.Rat
	for k := 1; k <= 3; k++ {
		got5 = append(got5, a.Prob(d5, fmt.Sprintf("halt_%d", k)))
		got4 = append(got4, a.Prob(d4, fmt.Sprintf("halt_%d", k)))
	}
	if diff := cmp.Diff(want5, got5, ratCmp); diff != "" {
		t.Errorf("Pr(⊥^k ⊤) for query 5 (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want4, got4, ratCmp); diff != "" {
		t.Errorf("Pr(⊥^k ⊤) for query 4 (-want +got):\n%s", diff)
	}
}

func TestAboveThresholdTightEps(t *testing.T) {
	ln16 := ln("16")
	for K := 1; K <= 5; K++ {
		a := analyze(t, mustMech(t)(builder.AboveThreshold(r("1/4"), r("1/2"), 5, K, builder.AtLeast)), verify.FinalState())
		res := tightEps(t, a, "0")
		want, err := exact.MulLn(big.NewRat(int64(K), 1), r("2"))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, res.Eps, epsCmp); diff != "" {
			t.Errorf("K=%d: tight ε (-want +got):\n%s", K, diff)
		}
		got := dp(t, a, ln16, "0")
		if got.Holds != (K <= 4) {
			t.Errorf("K=%d: dp(ln 16, 0) holds = %v, want %v", K, got.Holds, K <= 4)
		}
		if K == 5 {
			cx := got.Counterexample
			if cx == nil {
				t.Fatal("K=5: no counterexample")
			}
			d1, _ := cx.From.Valuation.Get("d")
			d2, _ := cx.To.Valuation.Get("d")
			t1, _ := cx.From.Valuation.Get("t")
			t2, _ := cx.To.Valuation.Get("t")
			if d1 != 4 || d2 != 5 || t1 != t2 || cx.WorstOutput != "never" {
				t.Errorf("K=5: counterexample %s vs %s, worst output %s; want d=4 vs d=5 with equal t, output never", cx.From, cx.To, cx.WorstOutput)
			}
			if diff := cmp.Diff([]string{"never"}, cx.Event); diff != "" {
				t.Errorf("K=5: worst event (-want +got):\n%s", diff)
			}
			// The likeliest run realising "never": five queries all below the
			// noisy threshold T = 5 (from d4_t5: Pr[T=5] = 4/5, then
			// Pr[answer < 5 | d=4] = 2/3 per query).
			var names []string
			for _, v := range cx.Path {
				names = append(names, v.Name)
			}
			wantPath := []string{"d4_t5", "d4_T5_q1", "d4_T5_q2", "d4_T5_q3", "d4_T5_q4", "d4_T5_q5", "never"}
			if diff := cmp.Diff(wantPath, names); diff != "" {
				t.Errorf("K=5: likeliest run (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(r("128/1215"), cx.PathPr, ratCmp); diff != "" { // 4/5·(2/3)^5
				t.Errorf("K=5: probability of the likeliest run: %s", diff)
			}
			w := tightEps(t, a, "0").Witness
			if w.From.Name != "d4_t0" || w.To.Name != "d5_t0" || len(w.Event) != 1 || w.Event[0] != "never" {
				t.Errorf("K=5: tight-ε witness %s vs %s on %v; want d4_t0 vs d5_t0 on never", w.From, w.To, w.Event)
			}
			if diff := cmp.Diff(want, cx.LeastEps, epsCmp); diff != "" {
				t.Errorf("K=5: least ε: %s", diff)
			}
		}
	}
}

// TestAboveThresholdSingleOutputNotEnough is the case of docs/semantics.md §2.6: for δ > 0
// the largest single-output δ (5359/491520) is smaller than the true δ over
// all events (2611/92160), so checking single outputs would accept a
// mechanism that is not (ln 2, 5359/491520)-DP.
func TestAboveThresholdSingleOutputNotEnough(t *testing.T) {
	m := mustMech(t)(builder.AboveThreshold(r("1/4"), r("1/2"), 5, 6, builder.AtLeast))
	d4, _ := m.Chain.Lookup("d4_t3")
	d5, _ := m.Chain.Lookup("d5_t3")
	m.Neighbours = [][2]int{{d4, d5}}
	a := analyze(t, m, verify.FinalState())
	if diff := cmp.Diff(r("2611/92160"), tightDelta(t, a, ln("2")), ratCmp); diff != "" {
		t.Errorf("δ at c=2: %s", diff)
	}
	outs, p4, _ := a.Distribution(d4)
	best := new(big.Rat)
	for i, o := range outs {
		x := new(big.Rat).Sub(p4[i], new(big.Rat).Mul(r("2"), a.Prob(d5, o)))
		if x.Cmp(best) > 0 {
			best = x
		}
	}
	if diff := cmp.Diff(r("5359/491520"), best, ratCmp); diff != "" {
		t.Errorf("largest single-output δ: %s", diff)
	}
	res := dp(t, a, ln("2"), "5359/491520")
	if res.Holds {
		t.Fatal("dp(ln 2, 5359/491520) holds; it must not")
	}
	cx := res.Counterexample
	if got, want := len(cx.Event), 2; got < want {
		t.Errorf("worst event %v has %d outputs; a single output cannot witness this", cx.Event, got)
	}
	if diff := cmp.Diff(r("2611/92160"), new(big.Rat).Add(cx.Excess.A, r("5359/491520")), ratCmp); diff != "" {
		t.Errorf("excess + δ: %s", diff)
	}
	if !dp(t, a, ln("2"), "2611/92160").Holds {
		t.Error("dp(ln 2, 2611/92160) fails")
	}
}

func TestAboveThresholdVariantsDiffer(t *testing.T) {
	ge := analyze(t, mustMech(t)(builder.AboveThreshold(r("1/4"), r("1/2"), 5, 2, builder.AtLeast)), verify.FinalState())
	gt := analyze(t, mustMech(t)(builder.AboveThreshold(r("1/4"), r("1/2"), 5, 2, builder.Above)), verify.FinalState())
	if diff := cmp.Diff(ln("4"), tightEps(t, ge, "0").Eps, epsCmp); diff != "" {
		t.Errorf(">= variant: %s", diff)
	}
	if diff := cmp.Diff(ln("943/292"), tightEps(t, gt, "0").Eps, epsCmp); diff != "" {
		t.Errorf("> variant: %s", diff)
	}
}

func TestGeometricProfile(t *testing.T) {
	a := analyze(t, mustMech(t)(builder.TruncatedGeometric(r("1/2"), 5)), verify.FinalState())
	p, err := a.Profile(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	type pt struct{ C, Delta *big.Rat }
	var got []pt
	for _, x := range p.Points {
		got = append(got, pt{x.C, x.Delta})
	}
	want := []pt{{r("1"), r("1/3")}, {r("2"), r("0")}}
	if diff := cmp.Diff(want, got, ratCmp); diff != "" {
		t.Errorf("profile (-want +got):\n%s", diff)
	}
	for _, c := range []string{"5/4", "3/2", "7/4"} {
		d := tightDelta(t, a, ln(c))
		if got := p.DeltaAt(r(c)); got.Cmp(d) != 0 {
			t.Errorf("profile at c=%s is %s, TightDelta gives %s", c, got.RatString(), d.RatString())
		}
	}
}
