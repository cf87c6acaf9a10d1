package builder_test

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
)

// BenchmarkTruncatedGeometric builds the truncated geometric mechanism, whose
// rows are written once over a number field: the rationals' instance must
// stay as fast as rows written for *big.Rat alone.
func BenchmarkTruncatedGeometric(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(big.NewInt(int64(n)).String(), func(b *testing.B) {
			for b.Loop() {
				if _, err := builder.TruncatedGeometric(big.NewRat(1, 2), n); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTruncatedGeometricAboveThreshold builds above threshold, whose
// two geometric tables and answer odds are the generic rows' too.
func BenchmarkTruncatedGeometricAboveThreshold(b *testing.B) {
	for b.Loop() {
		if _, err := builder.AboveThreshold(big.NewRat(1, 4), big.NewRat(1, 2), 30, 5, builder.AtLeast); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTruncatedGeometricYarrow builds yarrow's sampler.
func BenchmarkTruncatedGeometricYarrow(b *testing.B) {
	for b.Loop() {
		if _, err := builder.YarrowGeometric(big.NewRat(1, 2), 0, 200, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUntruncatedAboveThreshold builds above threshold with
// untruncated noise: for each of the 2n+1 differences d − t, k steps of
// closed-form sums over the noisy threshold and answer.
func BenchmarkUntruncatedAboveThreshold(b *testing.B) {
	for _, c := range []struct{ n, k int }{{5, 4}, {10, 10}, {5, 40}} {
		b.Run(fmt.Sprintf("n%d_k%d", c.n, c.k), func(b *testing.B) {
			for b.Loop() {
				if _, err := builder.AboveThresholdUntruncated(big.NewRat(1, 4), big.NewRat(1, 2), c.n, c.k, builder.AtLeast); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
