package dptest_test

import (
	"context"
	"testing"

	"github.com/dpcheck/dpcheck/dptest"
)

// BenchmarkExploreBits explores a sampler of 16 bits (65 536 runs per
// exploration); the figure of merit is runs explored per second.
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
	for b.Loop() {
		d, err := dptest.Explore(context.Background(), sampler, dptest.Budget{})
		if err != nil || d.Runs != 1<<16 {
			b.Fatal(err, d.Runs)
		}
	}
	b.ReportMetric(float64(b.N)*(1<<16)/b.Elapsed().Seconds(), "runs/s")
}
