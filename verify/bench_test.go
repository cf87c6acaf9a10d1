package verify_test

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/model"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/chain"
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

// BenchmarkGeometricLarge is the n = 5000 target: 2.5·10^7 transitions,
// beyond the default limits a file would have (the builder called
// directly has none).
//
//	go test ./verify -run '^$' -bench GeometricLarge -benchmem -benchtime 1x
func BenchmarkGeometricLarge(b *testing.B) {
	for b.Loop() {
		geometricFull(b, 5000)
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
				want, _ := exact.MulLn(big.NewRat(int64(k), 1), big.NewRat(2, 1))
				if !res.Eps.Equal(want) {
					b.Fatalf("K=%d: tight ε = %s", k, res.Eps)
				}
			}
		})
	}
}

// randomWalk is a walk on {0..n} absorbed at both ends, up with p.
func randomWalk(b *testing.B, n int, p *big.Rat) (*model.Mechanism, int) {
	cb := chain.NewBuilder()
	st := make([]int, n+1)
	for i := range st {
		labels := []string{}
		if i == n {
			labels = append(labels, "win")
		}
		st[i] = cb.AddState(fmt.Sprintf("s%d", i), chain.Valuation{{Name: "x", Value: int64(i)}}, labels...)
	}
	q := new(big.Rat).Sub(big.NewRat(1, 1), p)
	for i := 1; i < n; i++ {
		cb.AddTransition(st[i], st[i+1], p)
		cb.AddTransition(st[i], st[i-1], q)
	}
	cb.MarkInput(st[1])
	cb.MarkInput(st[2])
	c, err := cb.Build()
	if err != nil {
		b.Fatal(err)
	}
	return &model.Mechanism{Chain: c, Neighbours: [][2]int{{st[1], st[2]}}}, st[n/2]
}

// BenchmarkUntilRandomWalk: Pr(F win) for every state of a random walk on
// 10^4 states, one strongly connected component solved by exact
// elimination. Fair walk: Pr_i = i/n. Biased walk (up 1/3): Pr_i =
// (2^i - 1)/(2^n - 1), rationals of 10^4 bits.
//
//	go test ./verify -run '^$' -bench UntilRandomWalk -benchmem
func BenchmarkUntilRandomWalk(b *testing.B) {
	const n = 10000
	for _, tc := range []struct {
		name string
		p    *big.Rat
		want func(i int) *big.Rat
	}{
		{"fair", big.NewRat(1, 2), func(i int) *big.Rat { return big.NewRat(int64(i), n) }},
		{"biased", big.NewRat(1, 3), func(i int) *big.Rat {
			num := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(i)), big.NewInt(1))
			den := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), n), big.NewInt(1))
			return new(big.Rat).SetFrac(num, den)
		}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			m, mid := randomWalk(b, n, tc.p)
			for b.Loop() {
				c, err := verify.NewChecker(m.Chain, m.Neighbours)
				if err != nil {
					b.Fatal(err)
				}
				pr, err := c.Prob(context.Background(), verify.Eventually(verify.Label("win"), -1))
				if err != nil {
					b.Fatal(err)
				}
				if pr[mid].Cmp(tc.want(n/2)) != 0 {
					b.Fatalf("Pr(F win) from the middle = %s", pr[mid].FloatString(6))
				}
			}
		})
	}
}

// BenchmarkProfileLaplaceDecision: the privacy profile of
// models/laplace_decision.dp (α = 999/1000, k = 4000, counts 0..8000):
// 16000 ordered pairs whose probabilities are rationals of 40 000 bits.
//
//	go test ./verify -run '^$' -bench ProfileLaplace -benchmem -benchtime 1x
func BenchmarkProfileLaplaceDecision(b *testing.B) {
	ctx := context.Background()
	m, err := builder.LaplaceDecision(big.NewRat(999, 1000), 4000, 0, 8000)
	if err != nil {
		b.Fatal(err)
	}
	a, err := verify.Analyze(ctx, &verify.Model{Chain: m.Chain, Neighbours: m.Neighbours})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		p, err := a.Profile(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if len(p.Points) != 2 || p.Points[0].Delta.Cmp(big.NewRat(1, 2000)) != 0 || p.Points[1].Delta.Sign() != 0 ||
			p.Points[1].C.Cmp(big.NewRat(1000, 999)) != 0 {
			b.Fatalf("profile %v", p.Points)
		}
	}
}

// BenchmarkAboveThresholdSizes: the sizes of docs/performance.md's
// above-threshold table, built as the catalog's above_threshold builds them (query states shared by the inputs
// of one database), analysed, and the tight ε at δ = 0 found (query
// eps(delta = 0)). n = 1000 is refused by the builder: its (n+1)³ threshold
// draws are 10⁹ transitions.
func BenchmarkAboveThresholdSizes(b *testing.B) {
	ctx := context.Background()
	for _, tc := range []struct{ n, k int }{{100, 8}, {1000, 4}, {5, 256}} {
		b.Run(fmt.Sprintf("n=%d,k=%d", tc.n, tc.k), func(b *testing.B) {
			for b.Loop() {
				m, err := builder.AboveThreshold(big.NewRat(1, 4), big.NewRat(1, 2), tc.n, tc.k, builder.AtLeast)
				if err != nil {
					b.Skip(err)
				}
				a, err := verify.Analyze(ctx, &verify.Model{Chain: m.Chain, Neighbours: m.Neighbours})
				if err != nil {
					b.Fatal(err)
				}
				res, err := a.TightEpsilon(ctx, new(big.Rat))
				if err != nil {
					b.Fatal(err)
				}
				want, _ := exact.MulLn(big.NewRat(int64(tc.k), 1), big.NewRat(2, 1))
				if !res.Eps.Equal(want) {
					b.Fatalf("tight ε = %s, want %s", res.Eps, want)
				}
			}
		})
	}
}

// BenchmarkLTLRandomWalk: LTL formulas on the fair random walk of 10^4
// states, each with a closed form: F (win & X win) through the automaton's
// product (co-safe), G F win through the split chain and the product
// (win is absorbing, so both are Pr(F win) = i/n), and E[G F win] over
// the transition graph (every state but 0, which is absorbed without
// winning).
//
//	go test ./verify -run '^$' -bench LTLRandomWalk -benchmem
func BenchmarkLTLRandomWalk(b *testing.B) {
	const n = 10000
	m, mid := randomWalk(b, n, big.NewRat(1, 2))
	win := verify.Label("win")
	half := big.NewRat(1, 2)
	for _, tc := range []struct {
		name string
		f    *verify.Formula
	}{
		{"cosafe", verify.Eventually(verify.And(win, verify.Next(1, win)), -1)},
		{"GF", verify.Globally(verify.Eventually(win, -1), -1)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				c, err := verify.NewChecker(m.Chain, m.Neighbours)
				if err != nil {
					b.Fatal(err)
				}
				pr, err := c.Prob(context.Background(), tc.f)
				if err != nil {
					b.Fatal(err)
				}
				if pr[mid].Cmp(half) != 0 {
					b.Fatalf("Pr(%s) from the middle = %s, want 1/2", tc.f, pr[mid].RatString())
				}
			}
		})
	}
	b.Run("E[GF]", func(b *testing.B) {
		zero, _ := m.Chain.Lookup("s0")
		for b.Loop() {
			c, err := verify.NewChecker(m.Chain, m.Neighbours)
			if err != nil {
				b.Fatal(err)
			}
			sat, err := c.Sat(context.Background(), verify.Exists(verify.Globally(verify.Eventually(win, -1), -1)))
			if err != nil {
				b.Fatal(err)
			}
			if sat[zero] || !sat[mid] {
				b.Fatalf("E[G F win]: %t at 0, %t in the middle; want false, true", sat[zero], sat[mid])
			}
		}
	})
}
