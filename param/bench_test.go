package param

import (
	"fmt"
	"testing"

	"github.com/dpcheck/dpcheck/poly"
)

// The truncated geometric mechanism over {0..n}: building (validation of
// (n+1)² probabilities of degree ≤ n+1), distributions, dp(−ln α, 0) and
// dp(ln 3, 0) for every α in (0, 1), and the tight ε.
func BenchmarkGeometric(b *testing.B) {
	for _, n := range []int{20, 50, 100, 200, 500} {
		b.Run(fmt.Sprintf("n=%d/build", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := TruncatedGeometric(ctx, poly.Limits{}, n); err != nil {
					b.Fatal(err)
				}
			}
		})
		pc, err := TruncatedGeometric(ctx, poly.Limits{}, n)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("n=%d/distributions", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := Analyze(ctx, pc); err != nil {
					b.Fatal(err)
				}
			}
		})
		a, err := Analyze(ctx, pc)
		if err != nil {
			b.Fatal(err)
		}
		inv, err := poly.Limits{}.RatFunc(ctx, poly.FromInts(1), poly.X())
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("n=%d/dp-ln(1|α)", n), func(b *testing.B) {
			for b.Loop() {
				if res, err := a.DP(ctx, inv, poly.RatFunc{}); err != nil || !res.Holds {
					b.Fatal(err)
				}
			}
		})
		three := poly.FromPoly(poly.FromInts(3))
		b.Run(fmt.Sprintf("n=%d/dp-ln3", n), func(b *testing.B) {
			for b.Loop() {
				if res, err := a.DP(ctx, three, poly.RatFunc{}); err != nil || res.Holds {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("n=%d/tight-eps", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := a.TightEpsilon(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Gambler's ruin on {0..n} (cyclic): state elimination over rational
// functions, then dp(ln 4, 0) for every α.
func BenchmarkRuin(b *testing.B) {
	for _, n := range []int{10, 30, 60} {
		pc := ruin(b, n)
		b.Run(fmt.Sprintf("n=%d/distributions", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := Analyze(ctx, pc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
