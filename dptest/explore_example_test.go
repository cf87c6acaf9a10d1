package dptest_test

import (
	"context"
	"fmt"

	"github.com/dpcheck/dpcheck/dptest"
)

// rollDie is production code: a fair die from rejection sampling of three
// random bits, written against the smallest interface it needs.
func rollDie(bits interface{ Bit() bool }) int {
	for {
		v := 0
		for range 3 {
			v *= 2
			if bits.Bit() {
				v++
			}
		}
		if 1 <= v && v <= 6 {
			return v
		}
	}
}

// Explore runs the die on every sequence of bits, up to 30 bits (10
// rounds of rejection): each face has exactly (1 − 4^−10)/6, and the runs
// cut after 10 rounds have the rest.
func ExampleExplore() {
	d, err := dptest.Explore(context.Background(), func(r *dptest.Rand) int { return rollDie(r) }, dptest.Budget{Depth: 30})
	if err != nil {
		panic(err)
	}
	for v := 1; v <= 6; v++ {
		fmt.Printf("Pr(%d) = %s\n", v, d.P[v].RatString())
	}
	fmt.Printf("unexplored %s (%d runs completed, %d cut)\n", d.Unexplored.RatString(), d.Runs, d.Cut)
	// Output:
	// Pr(1) = 349525/2097152
	// Pr(2) = 349525/2097152
	// Pr(3) = 349525/2097152
	// Pr(4) = 349525/2097152
	// Pr(5) = 349525/2097152
	// Pr(6) = 349525/2097152
	// unexplored 1/1048576 (6138 runs completed, 1024 cut)
}

// Reuse explores the die once (6138 runs completed within 10 rounds, 1024
// cut), then makes each of the three rolls one exact choice among its
// faces and its unexplored mass: 216 runs complete, where the inline
// sampler has 6138³ ≈ 2.3·10^11 runs of at most 10 rounds per roll.
func ExampleReuse() {
	sum := func(r *dptest.Rand) int {
		s := 0
		for range 3 {
			s += dptest.Reuse(r, "die", func(r *dptest.Rand) int { return rollDie(r) })
		}
		return s
	}
	d, err := dptest.Explore(context.Background(), sum, dptest.Budget{Depth: 30})
	if err != nil {
		panic(err)
	}
	for _, s := range []int{3, 10} {
		fmt.Printf("Pr(%d) = %s\n", s, d.P[s].FloatString(9))
	}
	fmt.Printf("unexplored %s\n", d.Unexplored.FloatString(9))
	fmt.Printf("%d runs completed, %d cut, %d runs of the die\n", d.Runs, d.Cut, d.SubRuns)
	// Output:
	// Pr(3) = 0.004629616
	// Pr(10) = 0.124999642
	// unexplored 0.000002861
	// 216 runs completed, 43 cut, 7162 runs of the die
}
