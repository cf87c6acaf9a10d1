package param

import (
	"fmt"
	"testing"

	"github.com/dpcheck/dpcheck/poly"
)

// Yarrow's sampler against the truncated geometric mechanism over {0..n}
// for every α: building the sampler (validation), and Equivalent (the
// distributions of every input of both chains, then the comparison).
func BenchmarkEquivalentYarrow(b *testing.B) {
	for _, n := range []int{20, 50, 100} {
		b.Run(fmt.Sprintf("n=%d/build", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := YarrowGeometric(ctx, poly.Limits{}, 0, n, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
		y, err := YarrowGeometric(ctx, poly.Limits{}, 0, n, 0)
		if err != nil {
			b.Fatal(err)
		}
		g, err := TruncatedGeometric(ctx, poly.Limits{}, n)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("n=%d/equivalent", n), func(b *testing.B) {
			for b.Loop() {
				r, err := Equivalent(ctx, y, g)
				if err != nil || !r.Equal {
					b.Fatal(err, r)
				}
			}
		})
	}
}
