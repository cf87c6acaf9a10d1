package mdp

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/verify"
)

// randomDAGMDP is an MDP whose choices lead to higher states only; the
// last two states have no choice.
func randomDAGMDP(t *testing.T, rng *rand.Rand, n int) *MDP {
	x := newMDPBuilder("x", "y")
	for s := range n {
		var ls []string
		for _, l := range []string{"a", "b"} {
			if rng.IntN(2) == 0 {
				ls = append(ls, l)
			}
		}
		x.state(fmt.Sprint(s), ls)
	}
	for s := range n - 2 {
		for _, a := range []string{"x", "y"} {
			if a == "y" && rng.IntN(3) == 0 {
				continue
			}
			next := rng.Perm(n - s - 1)
			k := min(1+rng.IntN(2), len(next))
			var tp []any
			for i := range k {
				tp = append(tp, s+1+next[i], fmt.Sprintf("%d/%d", i+1, k*(k+1)/2))
			}
			x.choose(s, a, tp...)
		}
	}
	return x.build(t)
}

// wordHolds decides f on the path w (its last state forever) by checking
// it on a chain that is that path alone.
func wordHolds(t *testing.T, m *MDP, f *verify.Formula, w []int) bool {
	t.Helper()
	b := chain.NewBuilder()
	for i, s := range w {
		b.AddState(fmt.Sprint(i), nil, m.Frame.Labels(s)...)
		if i > 0 {
			b.AddTransition(i-1, i, big.NewRat(1, 1))
		}
	}
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	ch, err := verify.NewChecker(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	v, err := ch.Prob(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	return v[0].Sign() > 0
}

// historyValue is the extreme probability of f from the history w, over
// every scheduler (which may see the whole history).
func historyValue(t *testing.T, m *MDP, f *verify.Formula, w []int, max bool) *big.Rat {
	s := w[len(w)-1]
	if len(m.Choices[s]) == 0 {
		if wordHolds(t, m, f, w) {
			return big.NewRat(1, 1)
		}
		return new(big.Rat)
	}
	var best *big.Rat
	for _, c := range m.Choices[s] {
		v := new(big.Rat)
		for i, to := range c.To {
			x := historyValue(t, m, f, append(w[:len(w):len(w)], to), max)
			v.Add(v, x.Mul(x, c.P[i]))
		}
		if best == nil || (v.Cmp(best) > 0) == max && v.Cmp(best) != 0 {
			best = v
		}
	}
	return best
}

// TestLTLAgainstHistories: Pmin and Pmax of LTL formulas through the
// product equal the extremes over every history-dependent scheduler of
// random acyclic MDPs (LTL's optimal schedulers need memory).
func TestLTLAgainstHistories(t *testing.T) {
	a, b := verify.Label("a"), verify.Label("b")
	F := func(f *verify.Formula) *verify.Formula { return verify.Eventually(f, -1) }
	G := func(f *verify.Formula) *verify.Formula { return verify.Globally(f, -1) }
	X := func(f *verify.Formula) *verify.Formula { return verify.Next(1, f) }
	forms := []*verify.Formula{
		F(verify.And(a, X(F(b)))),
		verify.Until(a, verify.And(b, X(a)), -1),
		G(verify.Or(a, X(b))),
		verify.And(verify.Globally(a, 1), F(b)),
		verify.Not(F(verify.And(a, verify.Next(2, b)))),
		verify.And(F(a), F(b)),
		F(verify.And(a, X(verify.Until(b, a, -1)))),
		G(verify.Or(verify.Not(b), X(G(verify.Not(a))))),
	}
	rng := rand.New(rand.NewPCG(25, 2))
	ctx := context.Background()
	for range 15 {
		m := randomDAGMDP(t, rng, 7)
		for _, f := range forms {
			for _, max := range []bool{false, true} {
				got, err := m.Prob(ctx, f, max)
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				for s := range m.NumStates() {
					if want := historyValue(t, m, f, []int{s}, max); got[s].Cmp(want) != 0 {
						t.Fatalf("P(max %t)_%d(%s) = %s, want %s over every history", max, s, f, got[s].RatString(), want.RatString())
					}
				}
			}
		}
	}
}
