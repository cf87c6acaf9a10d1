package builder_test

import (
	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/internal/reference"
	"github.com/dpcheck/dpcheck/mdp"
	"github.com/dpcheck/dpcheck/verify"
)

// psi is ψ_k = X bot & … & X^k bot & X^(k+1) top.
func psi(k int) *verify.Formula {
	var fs []*verify.Formula
	for i := 1; i <= k; i++ {
		fs = append(fs, verify.Next(i, verify.Label("bot")))
	}
	fs = append(fs, verify.Next(k+1, verify.Label("top")))
	if len(fs) == 1 {
		return fs[0]
	}
	return verify.And(fs...)
}

// TestInteractiveSurveyEngine: mdp on the catalog's interactive survey
// gives the hand-computed values: ε = ln 4 with one question (H), ln 16
// with two (HH); δ at ε = 0 is 3/5 for both.
func TestInteractiveSurveyEngine(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		q   int
		eps string
		seq string
	}{{1, "4", "H"}, {2, "16", "H H"}} {
		m, err := builder.InteractiveSurvey(tt.q)
		if err != nil {
			t.Fatal(err)
		}
		res, err := mdp.TightEpsilon(ctx, m.MDP, m.Neighbours, verify.FinalState(), new(big.Rat), mdp.Options{})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := exact.Ln(r(tt.eps))
		if c, err := res.Eps.Cmp(want); err != nil || c != 0 || !res.Exact || strings.Join(res.Sequence, " ") != tt.seq {
			t.Errorf("questions = %d: ε %v (exact %v) under %v, want ln %s under %s", tt.q, res.Eps, res.Exact, res.Sequence, tt.eps, tt.seq)
		}
		d, err := mdp.TightDelta(ctx, m.MDP, m.Neighbours, verify.FinalState(), exact.Eps{}, mdp.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if x, ok := d.Delta.Rat(); !ok || x.Cmp(r("3/5")) != 0 || !d.Exact {
			t.Errorf("questions = %d: δ at ε = 0 %v (exact %v), want 3/5", tt.q, d.Delta, d.Exact)
		}
	}
}

// TestAboveThresholdMDPEngine: mdp's exact tight δ of D{ε,δ}[ψ_k] on the
// catalog's above threshold MDP is internal/reference's brute force, for
// t = 3 and answers 5 vs 4, k = 0..3, at ε = 0 and ε = 1.
func TestAboveThresholdMDPEngine(t *testing.T) {
	ctx := context.Background()
	m, err := builder.AboveThresholdMDP(r("1/4"), r("1/2"), 5, builder.AtLeast)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := m.Chain.Lookup("role0_t3_r5")
	u, _ := m.Chain.Lookup("role1_t3_r4")
	ref, _ := reference.ThresholdMDP(r("1/4"), r("1/2"), 5, false)
	refPair := [][2]int{{ref.Lookup("(0,3,5)"), ref.Lookup("(1,3,4)")}}
	one, err := exact.Rational(r("1"))
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k <= 3; k++ {
		for _, e := range []int{0, 1} {
			eps := exact.Eps{}
			if e == 1 {
				eps = one
			}
			got, err := mdp.TightDeltaD(ctx, m.MDP, [][2]int{{s, u}}, psi(k), eps, mdp.Options{})
			if err != nil {
				t.Fatal(err)
			}
			want := ref.TightDeltaD(refPair, reference.Psi(k), reference.EPow(e))
			// The engine's δ is A + B·e^ε; the reference's A + B·e^e.
			a, b := got.Delta.A, got.Delta.B
			if b == nil {
				b = new(big.Rat)
			}
			if c, ok := eps.C(); ok && e == 1 {
				t.Fatalf("e^1 is rational: %v", c)
			}
			if a.Cmp(want.Delta.A) != 0 || b.Cmp(want.Delta.B) != 0 || !got.Exact {
				t.Errorf("k = %d, ε = %d: δ %v (exact %v, %s), reference %s", k, e, got.Delta, got.Exact, got.Reason, want.Delta)
			}
		}
	}
}
