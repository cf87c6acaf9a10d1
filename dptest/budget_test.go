package dptest_test

import (
	"context"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/dptest"
	"github.com/dpcheck/dpcheck/exact"
)

// rr5 is randomized response on {0..4} with the lie drawn by rejection:
// the truth with 1/2, else three bits, drawn again until they are below 5.
// Its tight ε is ln 6: the truth has 1/2 + 1/10 = 3/5, a lie 1/10.
func rr5(x int, r *dptest.Rand) int {
	if r.Bit() {
		return x
	}
	for {
		v := 0
		for range 3 {
			v = 2 * v
			if r.Bit() {
				v++
			}
		}
		if v < 5 {
			return v
		}
	}
}

// TestBudgetMonotone: a larger budget never gives a worse bound. Explored
// depth first to the Runs cap, Depth 40 and the defaults spent all their
// runs in one subtree (unexplored 0.63); explored by iterative deepening
// on the probability of a run, each keeps the deepest pass that completed.
// The defaults then prove ln(6)-DP with δ = 10^−3.
func TestBudgetMonotone(t *testing.T) {
	var prevU *big.Rat
	var prevD exact.Real
	for _, depth := range []int{16, 25, 40, 0} {
		m := dptest.Mechanism[int, int]{Inputs: []int{0, 1, 2, 3, 4}, Run: rr5, Budget: dptest.Budget{Depth: depth}}
		r, err := dptest.CheckDP(context.Background(), m, exact.LnInt(6), big.NewRat(1, 1000))
		if err != nil {
			t.Fatal(err)
		}
		u := r.Exploration.Unexplored
		t.Logf("Depth %d: %s, unexplored %s, d = %s", depth, r.Verdict, u.FloatString(8), r.DeltaBound)
		if prevU != nil {
			c, err := r.DeltaBound.Cmp(prevD)
			if err != nil {
				t.Fatal(err)
			}
			if u.Cmp(prevU) > 0 || c > 0 {
				t.Errorf("Depth %d: unexplored %s, d = %s: more than with less depth (%s, %s)", depth, u.FloatString(8), r.DeltaBound, prevU.FloatString(8), prevD)
			}
		}
		prevU, prevD = u, r.DeltaBound
	}
	m := dptest.Mechanism[int, int]{Inputs: []int{0, 1, 2, 3, 4}, Run: rr5}
	dptest.AssertDP(t, m, exact.LnInt(6), big.NewRat(1, 1000))
}
