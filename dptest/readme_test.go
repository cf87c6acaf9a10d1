package dptest_test

import (
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
