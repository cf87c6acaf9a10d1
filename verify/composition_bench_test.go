package verify_test

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/verify"
)

// BenchmarkComposition is the composition targets: 1000 runs of the
// truncated 1/2-geometric mechanism over {0..5}, exact δ at ε = 10, 20 and
// 50 (target: under 2 s), and 100 runs of the survey, the exact privacy
// profile (target: under 1 s). Each iteration starts from the built
// mechanism: distributions, loss distributions, their powers, the answer.
//
//	go test ./verify -run '^$' -bench Composition -benchmem -benchtime 3x
func BenchmarkComposition(b *testing.B) {
	ctx := context.Background()
	geo, err := builder.TruncatedGeometric(big.NewRat(1, 2), 5)
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range []int64{10, 20, 50} {
		b.Run(fmt.Sprintf("geometric-k=1000-delta-eps=%d", e), func(b *testing.B) {
			eps := rational(big.NewRat(e, 1))
			for b.Loop() {
				c := composition(b, geo, 1000)
				res, err := c.TightDelta(ctx, eps)
				if err != nil {
					b.Fatal(err)
				}
				if s, err := res.Delta.Sign(); err != nil || s <= 0 {
					b.Fatalf("δ = %s", res.Delta)
				}
			}
		})
	}
	b.Run("geometric-k=1000-delta-eps=10,20,50", func(b *testing.B) {
		for b.Loop() {
			c := composition(b, geo, 1000)
			for _, e := range []int64{10, 20, 50} {
				if _, err := c.TightDelta(ctx, rational(big.NewRat(e, 1))); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	// For scale: six runs through their product chain (6^6 outputs, built
	// and analysed) against privacy-loss distributions.
	b.Run("geometric-k=6-delta-eps=1-product-chain", func(b *testing.B) {
		for b.Loop() {
			m, err := builder.Compose(6, geo)
			if err != nil {
				b.Fatal(err)
			}
			a, err := verify.Analyze(ctx, &verify.Model{Chain: m.Chain, Neighbours: m.Neighbours})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := a.TightDelta(ctx, rational(big.NewRat(1, 1))); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("geometric-k=6-delta-eps=1", func(b *testing.B) {
		for b.Loop() {
			if _, err := composition(b, geo, 6).TightDelta(ctx, rational(big.NewRat(1, 1))); err != nil {
				b.Fatal(err)
			}
		}
	})
	// Many loss values: one run of above-threshold (K = 4) has five
	// unrelated loss values per pair, 16 runs have 4845.
	at, err := builder.AboveThreshold(big.NewRat(1, 4), big.NewRat(1, 2), 5, 4, builder.AtLeast)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("above-threshold-K=4-k=16-delta-eps=ln2", func(b *testing.B) {
		for b.Loop() {
			res, err := composition(b, at, 16).TightDelta(ctx, ln("2"))
			if err != nil {
				b.Fatal(err)
			}
			if res.LossValues != 4845 {
				b.Fatalf("%d loss values", res.LossValues)
			}
		}
	})
	survey, err := builder.Survey(big.NewRat(1, 2), big.NewRat(1, 2))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("survey-k=100-profile", func(b *testing.B) {
		for b.Loop() {
			p, err := composition(b, survey, 100).Profile(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if len(p.Points) != 51 {
				b.Fatalf("%d breakpoints", len(p.Points))
			}
		}
	})
}

func composition(b *testing.B, m *model.Mechanism, k int) *verify.Composition {
	ctx := context.Background()
	a, err := verify.Analyze(ctx, &verify.Model{Chain: m.Chain, Neighbours: m.Neighbours})
	if err != nil {
		b.Fatal(err)
	}
	c, err := verify.NewComposition(ctx, a, k, verify.CompositionOptions{})
	if err != nil {
		b.Fatal(err)
	}
	return c
}
