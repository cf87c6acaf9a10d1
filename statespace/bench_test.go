package statespace_test

import (
	"context"
	"fmt"
	"os"
	"strings"
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

// independentDraws is k unbounded integers drawn at once and compared one
// by one with 1, counting the comparisons that hold.
func independentDraws(k int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "module m\n  input a : [0..1];\n")
	for i := 1; i <= k; i++ {
		fmt.Fprintf(&b, "  n%d : int;\n", i)
	}
	fmt.Fprintf(&b, "  drawn : bool init false;\n  j : [1..%d] init 1;\n  c : [0..%d] init 0;\n  [] !drawn -> ", k+1, k)
	for i := 1; i <= k; i++ {
		fmt.Fprintf(&b, "(n%d' ~ geometric(1/2, a)) & ", i)
	}
	b.WriteString("(drawn' = true);\n")
	for i := 1; i <= k; i++ {
		fmt.Fprintf(&b, "  [] drawn & j = %d & n%d >= 1 -> (c' = c + 1) & (j' = j + 1);\n", i, i)
		fmt.Fprintf(&b, "  [] drawn & j = %d & n%d < 1 -> (j' = j + 1);\n", i, i)
	}
	b.WriteString("endmodule\noutputs var c\nneighbours a != a'\nquery eps(delta = 0)\n")
	return b.String()
}

// BenchmarkIndependentDraws: k untruncated draws at once, each compared
// once and then summed out (it is never read again); the weight holds 2^k
// pieces right after the draws.
func BenchmarkIndependentDraws(b *testing.B) {
	for _, k := range []int{8, 10, 12} {
		b.Run(fmt.Sprint("k", k), func(b *testing.B) { benchExplore(b, independentDraws(k)) })
	}
}
