package statespace_test

import (
	"context"
	"os"
	"testing"

	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/spec"
	"github.com/dpcheck/dpcheck/statespace"
)

// geometricModule is the truncated 1/2-geometric mechanism over {0..n} as
// a module: (n+1)² transitions from the inputs (the input is cleared, so
// the n+1 outputs are shared).
const geometricModule = `const n = 1000
module geometric
  input in : [0..n];
  out : [-1..n] init -1;
  [] out = -1 -> (out' ~ geometric(1/2, in, 0, n)) & (in' = 0);
endmodule
outputs var out
neighbours |in - in'| <= 1
query eps(delta = 0)
`

func benchExplore(b *testing.B, src string) {
	p, err := spec.Load(context.Background(), "bench.dp", src)
	if err != nil {
		b.Fatal(err)
	}
	m := p.Model.(*statespace.Model)
	b.ReportAllocs()
	var states, trans int
	for b.Loop() {
		mech, err := m.Build(context.Background(), model.Limits{})
		if err != nil {
			b.Fatal(err)
		}
		states, trans = mech.Chain.NumStates(), mech.Chain.NumTransitions()
	}
	sec := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(states), "states")
	b.ReportMetric(float64(trans), "transitions")
	b.ReportMetric(float64(states)/sec, "states/s")
	b.ReportMetric(float64(trans)/sec, "transitions/s")
}

// BenchmarkExploreGeometric1000: 1001 inputs, each drawing one of 1001
// outputs: about 10^6 transitions (target: under 1 s and 1 GB).
func BenchmarkExploreGeometric1000(b *testing.B) { benchExplore(b, geometricModule) }

// BenchmarkExploreSparseVector: models/sparse_vector.dp, step by step
// (about 2·10^4 states; target: under 0.2 s).
func BenchmarkExploreSparseVector(b *testing.B) {
	src, err := os.ReadFile("../models/sparse_vector.dp")
	if err != nil {
		b.Fatal(err)
	}
	benchExplore(b, string(src))
}
