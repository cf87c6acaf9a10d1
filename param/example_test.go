package param_test

import (
	"context"
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/builder"

	"github.com/dpcheck/dpcheck/param"
	"github.com/dpcheck/dpcheck/poly"
)

// The truncated geometric mechanism over {0..5} for every α in (0, 1): it
// is (−ln α)-DP everywhere, and (ln 3)-DP exactly for α ≥ 1/3.
func Example() {
	ctx := context.Background()
	var lim poly.Limits
	geometric, _ := builder.Lookup("truncated_geometric")
	args := builder.NewArgs()
	args.SetRat("alpha", big.NewRat(1, 2)) // any value: alpha is the parameter
	args.SetInt("n", 5)
	if err := geometric.WithDefaults(args); err != nil {
		panic(err)
	}
	pc, err := param.FromBuilder(ctx, lim, geometric, args, "alpha", "alpha", poly.Open(new(big.Rat), big.NewRat(1, 1)))
	if err != nil {
		panic(err)
	}
	a, err := param.Analyze(ctx, pc)
	if err != nil {
		panic(err)
	}
	inv, _ := lim.RatFunc(ctx, poly.FromInts(1), poly.X()) // e^ε = 1/α
	res, _ := a.DP(ctx, inv, poly.RatFunc{})
	fmt.Println("dp(-ln alpha, 0) for every alpha:", res.Holds)
	res, _ = a.DP(ctx, poly.FromPoly(poly.FromInts(3)), poly.RatFunc{})
	dec, _ := res.Region.Decimal(ctx, 3)
	fmt.Println("dp(ln 3, 0) holds on", res.Region.Format("alpha"), "=", dec)
	ce := res.Instance.Counterexample
	fmt.Printf("violated at alpha = %s: %s → %s, output %s: %s vs %s\n", res.Witness.Rat().RatString(),
		ce.From.Name, ce.To.Name, ce.WorstOutput, ce.WorstFrom.RatString(), ce.WorstTo.RatString())
	eps, _ := a.TightEpsilon(ctx)
	fmt.Println("tight epsilon:", eps)
	// Output:
	// dp(-ln alpha, 0) for every alpha: true
	// dp(ln 3, 0) holds on [1/3, 1) = [0.333, 1.000)
	// violated at alpha = 1/4: s0 → s1, output t0: 4/5 vs 1/5
	// tight epsilon: ln(1/alpha) for alpha in (0, 1)
}
