package verify_test

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/verify"
)

// BenchmarkGeometric is the scale target: build the truncated
// 1/2-geometric mechanism over {0..n} ((n+1)² transitions), compute every
// output distribution, the tight ε with its witness, and a violated
// dp(ln(3/2), 0) with its full counterexample (worst pair, E*, exact
// probabilities and the least ε).
//
//	go test ./verify -run '^$' -bench Geometric -benchmem -benchtime 1x
func BenchmarkGeometric(b *testing.B) {
	for _, n := range []int{100, 200, 500, 1000, 2000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				geometricFull(b, n)
			}
		})
	}
}

func geometricFull(b *testing.B, n int) {
	ctx := context.Background()
	m, err := builder.TruncatedGeometric(big.NewRat(1, 2), n)
	if err != nil {
		b.Fatal(err)
	}
	a, err := verify.Analyze(ctx, &verify.Model{Chain: m.Chain, Neighbours: m.Neighbours})
	if err != nil {
		b.Fatal(err)
	}
	res, err := a.TightEpsilon(ctx, new(big.Rat))
	if err != nil {
		b.Fatal(err)
	}
	if !res.Eps.Equal(ln("2")) {
		b.Fatalf("tight ε = %s", res.Eps)
	}
	v, err := a.DP(ctx, ln("3/2"), new(big.Rat))
	if err != nil {
		b.Fatal(err)
	}
	if v.Holds || v.Counterexample == nil {
		b.Fatal("dp(ln(3/2), 0) holds")
	}
}

// BenchmarkGeometricStages splits n = 1000 into its stages.
func BenchmarkGeometricStages(b *testing.B) {
	ctx := context.Background()
	const n = 1000
	b.Run("build", func(b *testing.B) {
		for b.Loop() {
			if _, err := builder.TruncatedGeometric(big.NewRat(1, 2), n); err != nil {
				b.Fatal(err)
			}
		}
	})
	m, _ := builder.TruncatedGeometric(big.NewRat(1, 2), n)
	b.Run("analyze", func(b *testing.B) {
		for b.Loop() {
			if _, err := verify.Analyze(ctx, &verify.Model{Chain: m.Chain, Neighbours: m.Neighbours}); err != nil {
				b.Fatal(err)
			}
		}
	})
	a, _ := verify.Analyze(ctx, &verify.Model{Chain: m.Chain, Neighbours: m.Neighbours})
	b.Run("tight-eps", func(b *testing.B) {
		for b.Loop() {
			if _, err := a.TightEpsilon(ctx, new(big.Rat)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("dp-violated", func(b *testing.B) {
		for b.Loop() {
			if _, err := a.DP(ctx, ln("3/2"), new(big.Rat)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("tight-delta", func(b *testing.B) {
		for b.Loop() {
			if _, err := a.TightDelta(ctx, ln("3/2")); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("tight-eps-delta>0", func(b *testing.B) {
		for b.Loop() {
			if _, err := a.TightEpsilon(ctx, big.NewRat(1, 10)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkAboveThreshold: build, analyse and find the tight ε of the
// online model (n = 5, ≥) with at most K queries.
func BenchmarkAboveThreshold(b *testing.B) {
	ctx := context.Background()
	for _, k := range []int{4, 8, 16} {
		b.Run(fmt.Sprintf("K=%d", k), func(b *testing.B) {
			for b.Loop() {
				m, err := builder.AboveThreshold(big.NewRat(1, 4), big.NewRat(1, 2), 5, k, builder.AtLeast)
				if err != nil {
					b.Fatal(err)
				}
				a, err := verify.Analyze(ctx, &verify.Model{Chain: m.Chain, Neighbours: m.Neighbours})
				if err != nil {
					b.Fatal(err)
				}
				res, err := a.TightEpsilon(ctx, new(big.Rat))
				if err != nil {
					b.Fatal(err)
				}
				want, _ := verify.MulLn(big.NewRat(int64(k), 1), big.NewRat(2, 1))
				if !res.Eps.Equal(want) {
					b.Fatalf("K=%d: tight ε = %s", k, res.Eps)
				}
			}
		})
	}
}
