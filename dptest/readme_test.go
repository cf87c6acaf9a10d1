package dptest_test

import (
	"context"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/dptest"
	"github.com/dpcheck/dpcheck/exact"
)

// The README's first dptest test: 3-ary randomized response as a sampler,
// ln(3)-DP. ExampleAssertDP is the same sampler with the binary formula's
// 3/4 for the truth, and its output is the failure the README shows.
func TestRandomizedResponse(t *testing.T) {
	dptest.AssertDP(t, dptest.Mechanism[int, int]{
		Inputs: []int{0, 1, 2},
		Run: func(x int, r *dptest.Rand) int {
			if v := r.IntN(5); v >= 3 {
				return (x + v - 2) % 3 // a lie: each other answer with 1/5
			}
			return x // the truth with 3/5
		},
	}, exact.LnInt(3), nil) // ε = ln(3), δ = 0
}

// TestReadmeVerdicts: what the README says of its two samplers, checked
// without the assertions — the right formula holds with the exact
// distribution (every run explored), the binary formula is violated with
// least ε ln(6), from (3/4)/(1/8).
func TestReadmeVerdicts(t *testing.T) {
	rr := func(n, lie int) dptest.Mechanism[int, int] { // the truth unless IntN(n) ≥ lie
		return dptest.Mechanism[int, int]{
			Inputs: []int{0, 1, 2},
			Run: func(x int, r *dptest.Rand) int {
				if v := r.IntN(n); v >= lie {
					return (x + v - lie + 1) % 3
				}
				return x
			},
		}
	}
	ctx := context.Background()
	right, err := dptest.CheckDP(ctx, rr(5, 3), exact.LnInt(3), nil)
	if err != nil || right.Verdict != dptest.Holds || right.Bounded {
		t.Fatalf("IntN(5): %v, %v; want an exact holds", right, err)
	}
	wrong, err := dptest.CheckDP(ctx, rr(8, 6), exact.LnInt(3), nil)
	if err != nil || wrong.Verdict != dptest.Violated {
		t.Fatalf("IntN(8): %v, %v; want violated", wrong, err)
	}
	cx := wrong.Counterexample
	if !cx.LeastEps.Equal(exact.LnInt(6)) || cx.PrFrom.Cmp(big.NewRat(3, 4)) != 0 || cx.PrTo.Cmp(big.NewRat(1, 8)) != 0 {
		t.Errorf("counterexample: least ε %v, %s vs %s; want ln(6), 3/4 vs 1/8", cx.LeastEps, cx.PrFrom.RatString(), cx.PrTo.RatString())
	}
}
