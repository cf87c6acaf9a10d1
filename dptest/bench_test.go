package dptest_test

import (
	"context"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/dptest"
)

// benchmarkExplore explores sampler b.N times, checks each Dist, and
// reports the runs run (completed or cut, the sub-samplers' included) per
// second.
func benchmarkExplore[Out comparable](b *testing.B, sampler func(*dptest.Rand) Out, budget dptest.Budget, check func(*dptest.Dist[Out]) bool) {
	b.Helper()
	runs := int64(0)
	for b.Loop() {
		d, err := dptest.Explore(context.Background(), sampler, budget)
		if err != nil || !check(d) {
			b.Fatal(err, d)
		}
		runs += d.Runs + d.Cut + d.SubRuns
	}
	b.ReportMetric(float64(runs)/b.Elapsed().Seconds(), "runs/s")
}

// The figures of merit are runs explored per second, on one core (all of
// them: go test ./dptest -run '^$' -bench Explore -benchmem -cpu 1).

// BenchmarkExploreBits explores a sampler of 16 bits (65 536 runs); the
// target is a million runs a second on one core:
//
//	go test ./dptest -run '^$' -bench ExploreBits -benchmem -cpu 1
func BenchmarkExploreBits(b *testing.B) {
	sampler := func(r *dptest.Rand) int {
		v := 0
		for range 16 {
			if r.Bit() {
				v++
			}
		}
		return v
	}
	benchmarkExplore(b, sampler, dptest.Budget{}, func(d *dptest.Dist[int]) bool { return d.Runs == 1<<16 })
}

// BenchmarkExploreIntN explores four dice (1296 runs):
//
//	go test ./dptest -run '^$' -bench ExploreIntN -benchmem -cpu 1
func BenchmarkExploreIntN(b *testing.B) {
	sampler := func(r *dptest.Rand) int { return r.IntN(6) + r.IntN(6) + r.IntN(6) + r.IntN(6) }
	benchmarkExplore(b, sampler, dptest.Budget{}, func(d *dptest.Dist[int]) bool { return d.Runs == 1296 })
}

// BenchmarkExploreRejection explores a die from rejection sampling of
// three bits, cut at 2^−36 (12 rounds, 24 570 runs completed):
//
//	go test ./dptest -run '^$' -bench ExploreRejection -benchmem -cpu 1
func BenchmarkExploreRejection(b *testing.B) {
	benchmarkExplore(b, die, dptest.Budget{MinProb: pow2(36)}, func(d *dptest.Dist[int]) bool {
		return d.Unexplored.Cmp(pow2(24)) == 0
	})
}

// BenchmarkExploreBernoulli explores 12 Bernoulli(1/3) choices (4096
// runs), with an exact rational p per choice:
//
//	go test ./dptest -run '^$' -bench ExploreBernoulli -benchmem -cpu 1
func BenchmarkExploreBernoulli(b *testing.B) {
	third := big.NewRat(1, 3)
	sampler := func(r *dptest.Rand) int {
		v := 0
		for range 12 {
			if r.Bernoulli(third) {
				v++
			}
		}
		return v
	}
	benchmarkExplore(b, sampler, dptest.Budget{}, func(d *dptest.Dist[int]) bool { return d.Runs == 1<<12 })
}

// BenchmarkExploreReuse explores the sum of 8 reused pairs of coins
// (3^8 = 6561 runs of 8 reused choices):
//
//	go test ./dptest -run '^$' -bench ExploreReuse -benchmem -cpu 1
func BenchmarkExploreReuse(b *testing.B) {
	pair := func(r *dptest.Rand) int { return r.IntN(2) + r.IntN(2) }
	sampler := func(r *dptest.Rand) int {
		v := 0
		for range 8 {
			v += dptest.Reuse(r, "pair", pair)
		}
		return v
	}
	benchmarkExplore(b, sampler, dptest.Budget{}, func(d *dptest.Dist[int]) bool { return d.Runs == 6561 })
}
