package lump_test

import (
	"context"
	"fmt"
	"math/big"
	"os"
	"testing"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/lump"
	"github.com/dpcheck/dpcheck/verify"
)

// BenchmarkLump lumps chains for their output spaces: models of models/ —
// the step-by-step sparse vector (18 738 states → 366), the noisy max
// (39 393 → 33), the Laplace decision over 8001 counts — the truncated
// 1/2-geometric mechanism at n = 1000 (a million transitions), and a fair
// random walk on 10 000 states observed through the labels of its two
// ends. In the last three no two states merge: in the Laplace decision and
// the geometric mechanism every state is alone from the start, while the
// random walk's 9 998 inner states start in one block and are split to
// singletons — what lumping costs when it does not help.
func BenchmarkLump(b *testing.B) {
	for _, name := range []string{"sparse_vector", "noisy_max", "laplace_decision", "geometric_n1000", "random_walk_10000"} {
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			var c *chain.Chain
			var out verify.Output
			switch name {
			case "geometric_n1000":
				m, err := builder.TruncatedGeometric(big.NewRat(1, 2), 1000)
				if err != nil {
					b.Fatal(err)
				}
				c, out = m.Chain, verify.FinalState()
			case "random_walk_10000":
				c, out = walk(b, 10000), verify.Traces(1, "lose", "win")
			default:
				path := "../models/" + name + ".dp"
				src, err := os.ReadFile(path)
				if err != nil {
					b.Fatal(err)
				}
				p, err := dpcheck.Config{}.Load(ctx, path, string(src))
				if err != nil {
					b.Fatal(err)
				}
				c, out = p.Chain, p.Output
			}
			r := lump.Respect{Final: out.Final(), Key: func(s int) string { return out.StateKey(c, s) }}
			var l *lump.Lumping
			var err error
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

// walk is a fair gambler's ruin on {0..n-1}, absorbed at the ends
// (labelled lose and win); the inputs are 1 and 2.
func walk(b *testing.B, n int) *chain.Chain {
	bld := chain.NewBuilder()
	for i := range n {
		var labels []string
		switch i {
		case 0:
			labels = []string{"lose"}
		case n - 1:
			labels = []string{"win"}
		}
		bld.AddState(fmt.Sprintf("s%d", i), chain.Valuation{{Name: "x", Value: int64(i)}}, labels...)
	}
	half := big.NewRat(1, 2)
	for i := 1; i < n-1; i++ {
		bld.AddTransition(i, i+1, half)
		bld.AddTransition(i, i-1, half)
	}
	bld.MarkInput(1)
	bld.MarkInput(2)
	c, err := bld.Build()
	if err != nil {
		b.Fatal(err)
	}
	return c
}
