package verify_test

import (
	"context"
	"fmt"
	"github.com/dpcheck/dpcheck/exact"
	"math/big"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/verify"
)

func ExampleAnalysis_TightEpsilon() {
	ctx := context.Background()
	m, _ := builder.TruncatedGeometric(big.NewRat(1, 2), 5)
	a, _ := verify.Analyze(ctx, &verify.Model{Chain: m.Chain, Neighbours: m.Neighbours})
	res, _ := a.TightEpsilon(ctx, new(big.Rat)) // δ = 0
	w := res.Witness
	fmt.Printf("tight ε = %s, attained by %s vs %s on %v: %s vs %s\n",
		res.Eps, w.From, w.To, w.Event, w.PrFrom.RatString(), w.PrTo.RatString())
	// Output:
	// tight ε = ln(2), attained by s0 (in=0) vs s1 (in=1) on [t0]: 2/3 vs 1/3
}

func ExampleAnalysis_DP() {
	ctx := context.Background()
	m, _ := builder.Survey(big.NewRat(1, 2), big.NewRat(1, 2))
	a, _ := verify.Analyze(ctx, &verify.Model{Chain: m.Chain, Neighbours: m.Neighbours})
	eps, _ := exact.Ln(big.NewRat(2, 1))
	res, _ := a.DP(ctx, eps, big.NewRat(1, 10))
	cx := res.Counterexample
	fmt.Println("holds:", res.Holds)
	fmt.Printf("Pr[%v | %s] = %s > %s = 2·%s + 1/10 (excess %s); least ε at this δ: %s\n",
		cx.Event, cx.From.Name, cx.PrFrom.RatString(), cx.Bound, cx.PrTo.RatString(), cx.Excess, cx.LeastEps)
	// Output:
	// holds: false
	// Pr[[Y] | +] = 3/4 > 3/5 = 2·1/4 + 1/10 (excess 3/20); least ε at this δ: ln(13/5)
}

func ExampleAnalysis_TightDelta() {
	ctx := context.Background()
	m, _ := builder.Survey(big.NewRat(1, 2), big.NewRat(1, 2))
	a, _ := verify.Analyze(ctx, &verify.Model{Chain: m.Chain, Neighbours: m.Neighbours})
	eps, _ := exact.Rational(big.NewRat(1, 2)) // ε = 1/2: c = e^(1/2) is irrational
	res, _ := a.TightDelta(ctx, eps)
	fmt.Printf("δ = %s ≈ %.6f\n", res.Delta, res.Delta.Float())
	// Output:
	// δ = 3/4 - 1/4·e^(1/2) ≈ 0.337820
}
