package verify_test

import (
	"context"
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/verify"
)

func ExampleNewComposition() {
	ctx := context.Background()
	m, _ := builder.Survey(big.NewRat(1, 2), big.NewRat(1, 2))
	a, _ := verify.Analyze(ctx, &verify.Model{Chain: m.Chain, Neighbours: m.Neighbours})
	c, _ := verify.NewComposition(ctx, a, 10, verify.CompositionOptions{}) // ten surveys
	ln9, _ := exact.Ln(big.NewRat(9, 1))
	d, _ := c.TightDelta(ctx, ln9)
	w := d.Witness
	fmt.Printf("δ = %s at ε = %s, attained by %s vs %s on the outputs with %s (%d of %d loss values)\n",
		d.Delta, d.Eps, w.From.Name, w.To.Name, w.Loss, w.Loss.Values, d.LossValues)
	// Output:
	// δ = 12195/16384 at ε = 2·ln(3), attained by + vs - on the outputs with privacy loss > 2·ln(3) (4 of 11 loss values)
}

func ExamplePLD_Compose() {
	ctx := context.Background()
	m, _ := builder.TruncatedGeometric(big.NewRat(1, 2), 5)
	a, _ := verify.Analyze(ctx, &verify.Model{Chain: m.Chain, Neighbours: m.Neighbours})
	one, _ := a.PairPLD(ctx, 0, 1) // s0 vs s1: loss ln 2 with probability 2/3, -ln 2 with 1/3
	three, _ := one.Compose(ctx, 3, 0)
	for i := range three.Len() {
		x := three.Atom(i)
		fmt.Printf("loss ln(%s): %s vs %s\n", x.Ratio.RatString(), x.PrFrom.RatString(), x.PrTo.RatString())
	}
	// Output:
	// loss ln(8): 8/27 vs 1/27
	// loss ln(2): 4/9 vs 2/9
	// loss ln(1/2): 2/9 vs 4/9
	// loss ln(1/8): 1/27 vs 8/27
}
