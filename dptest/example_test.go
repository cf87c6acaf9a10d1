package dptest_test

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/dptest"
	"github.com/dpcheck/dpcheck/exact"
)

// printTB is a testing.TB that prints what an assertion reports, for the
// examples.
type printTB struct{ testing.TB }

func (printTB) Helper()                           {}
func (printTB) Context() context.Context          { return context.Background() }
func (printTB) Errorf(format string, args ...any) { fmt.Printf(format+"\n", args...) }
func (printTB) Fatalf(format string, args ...any) { fmt.Printf(format+"\n", args...) }
func (printTB) Logf(format string, args ...any)   { fmt.Printf(format+"\n", args...) }
func (printTB) Error(args ...any)                 { fmt.Println(args...) }
func (printTB) Log(args ...any)                   { fmt.Println(args...) }

// A 3-ary randomized response as an exact distribution: the truth with
// e^ε/(e^ε + 2), each other answer with 1/(e^ε + 2), at ε = ln(3).
func ExampleMechanism_dist() {
	m := dptest.Mechanism[string, string]{
		Inputs: []string{"red", "green", "blue"},
		Dist: func(x string) map[string]*big.Rat {
			d := map[string]*big.Rat{"red": big.NewRat(1, 5), "green": big.NewRat(1, 5), "blue": big.NewRat(1, 5)}
			d[x] = big.NewRat(3, 5)
			return d
		},
	}
	r, _ := dptest.CheckDP(context.Background(), m, exact.LnInt(3), nil)
	fmt.Println(r)
	// Output:
	// holds: ε = ln(3) ≈ 1.09861, δ = 0; 6 ordered pairs × 3 outputs
	// the least δ at this ε is 0
}

// Binary randomized response with a coin of 1/3 made by rejection
// sampling: two bits, "both 1" rejected. Its runs never end surely, so
// they are explored to a budget, and the verdict counts the unexplored
// mass against each input.
func ExampleMechanism_sampler() {
	m := dptest.Mechanism[bool, bool]{
		Inputs: []bool{false, true},
		Run: func(x bool, r *dptest.Rand) bool {
			for {
				a, b := r.Bit(), r.Bit()
				switch {
				case a && b:
					continue // rejected: draw again
				case a || b:
					return x // the truth, with 2/3
				}
				return !x
			}
		},
		Budget: dptest.Budget{Depth: 6}, // three rounds
	}
	r, _ := dptest.CheckDP(context.Background(), m, exact.LnInt(2), big.NewRat(1, 32))
	fmt.Println(r)
	// Output:
	// holds: ε = ln(2) ≈ 0.693147, δ = 1/32 ≈ 0.03125; 2 ordered pairs × 2 outputs, whatever the unexplored mass does
	// proved: ε-DP with δ ≤ 1/64 ≈ 0.015625 at this ε (d counts each input's unexplored mass against it and the excess that the explored runs already show, so it is in general more than the unexplored mass; it never rises as Budget.Runs grows or Budget.MinProb falls)
	// explored: 18 runs, 2 cut by the budget; the largest unexplored mass of an input is 1/64 ≈ 0.015625 (input false)
}

// The bug of 3-ary randomized response with the binary formula: the truth
// with e^ε/(e^ε + 1) = 3/4 leaves 1/8 to each other answer, a ratio of 6.
// A failing assertion prints the counterexample.
func ExampleAssertDP() {
	var t testing.TB = printTB{} // in a test, the *testing.T
	dptest.AssertDP(t, dptest.Mechanism[int, int]{
		Inputs: []int{0, 1, 2},
		Run: func(x int, r *dptest.Rand) int {
			if v := r.IntN(8); v >= 6 {
				return (x + v - 5) % 3 // a lie: each other answer with 1/8
			}
			return x // the truth with 3/4
		},
	}, exact.LnInt(3), nil) // ε = ln(3), δ = 0
	// Output:
	// dptest.AssertDP: violated: ε = ln(3) ≈ 1.09861, δ = 0; 6 ordered pairs × 3 outputs
	// counterexample: 0 vs 1
	//   worst event   E* = {0}
	//   Pr[E* | 0]    3/4 ≈ 0.75
	//   Pr[E* | 1]    1/8 ≈ 0.125
	//   bound         e^ε·Pr[E* | 1] + δ = 3/8 ≈ 0.375
	//   excess        3/8 ≈ 0.375
	//   worst output  0: 3/4 ≈ 0.75 vs 1/8 ≈ 0.125 (ratio 6)
	//   least ε       ln(6) ≈ 1.79176 would hold at this δ
	// explored: every run (24 runs)
}

// Sampler correctness: three random bits mod 6 is no fair die.
func ExampleAssertSameDist() {
	var t testing.TB = printTB{}
	mod6 := func(r *dptest.Rand) int {
		v := 0
		for range 3 {
			v <<= 1
			if r.Bit() {
				v |= 1
			}
		}
		return v % 6
	}
	uniform := map[int]*big.Rat{}
	for v := range 6 {
		uniform[v] = big.NewRat(1, 6)
	}
	dptest.AssertSameDist(t, dptest.Sampler(mod6, dptest.Budget{}), dptest.Exact(uniform))
	// Output:
	// dptest.AssertSameDist: different: the total-variation distance is 1/6 ≈ 0.166667
	// they differ most at output 0: 1/4 ≈ 0.25 vs 1/6 ≈ 0.166667
}
