package lump_test

import (
	"context"
	"os"
	"testing"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/lump"
)

// BenchmarkLump lumps the chains of models of models/ for their output
// spaces: the step-by-step sparse vector (18 738 states → 366), the noisy
// max (39 393 → 33), and the Laplace decision over 8001 counts, where no
// two states merge (what lumping costs when it does not help).
func BenchmarkLump(b *testing.B) {
	for _, name := range []string{"sparse_vector", "noisy_max", "laplace_decision"} {
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			path := "../models/" + name + ".dp"
			src, err := os.ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			p, err := dpcheck.Config{}.Load(ctx, path, string(src))
			if err != nil {
				b.Fatal(err)
			}
			c, out := p.Chain, p.Output
			r := lump.Respect{Final: out.Final(), Key: func(s int) string { return out.StateKey(c, s) }}
			var l *lump.Lumping
			for b.Loop() {
				if l, err = lump.Lump(ctx, c, r); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(l.After.States), "states")
			b.ReportMetric(float64(l.After.Transitions), "transitions")
		})
	}
}
