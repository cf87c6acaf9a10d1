package dpcheck_test

import (
	"context"
	"fmt"
	"github.com/dpcheck/dpcheck/exact"
	"math/big"
	"math/rand"
	"reflect"
	"testing"
	"testing/quick"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/builder"
)

// geometricCase is a random truncated α-geometric mechanism: α = a/b with
// 1 <= a < b <= 40, over {0..n} with 1 <= n <= 25.
type geometricCase struct {
	A, B int64
	N    int
}

func (geometricCase) Generate(r *rand.Rand, _ int) reflect.Value {
	b := 2 + r.Int63n(39)
	return reflect.ValueOf(geometricCase{A: 1 + r.Int63n(b-1), B: b, N: 1 + r.Intn(25)})
}

// TestGeometricIsExactlyLnInverseAlphaDP is a property test in the style
// the README shows: for random rational α and n, the truncated α-geometric
// mechanism is (-ln α)-DP and not (-ln α - 1/1000)-DP.
func TestGeometricIsExactlyLnInverseAlphaDP(t *testing.T) {
	ctx := context.Background()
	property := func(g geometricCase) bool {
		alpha := big.NewRat(g.A, g.B)
		m, err := builder.TruncatedGeometric(alpha, g.N)
		if err != nil {
			t.Log(err)
			return false
		}
		a, err := dpcheck.Analyze(ctx, m)
		if err != nil {
			t.Log(err)
			return false
		}
		eps, _ := exact.Ln(new(big.Rat).Inv(alpha))                                              // -ln α
		less, _ := exact.LnPlus(big.NewRat(1, 1), new(big.Rat).Inv(alpha), big.NewRat(-1, 1000)) // -ln α - 1/1000
		holds, err1 := a.DP(ctx, eps, new(big.Rat))
		fails, err2 := a.DP(ctx, less, new(big.Rat))
		if err1 != nil || err2 != nil {
			t.Log(err1, err2)
			return false
		}
		return holds.Holds && !fails.Holds && fails.Counterexample.LeastEps.Equal(eps)
	}
	if err := quick.Check(property, &quick.Config{MaxCount: 60, Rand: rand.New(rand.NewSource(1))}); err != nil {
		t.Error(err)
	}
}

func ExampleAnalyze() {
	ctx := context.Background()
	m, _ := builder.TruncatedGeometric(big.NewRat(1, 3), 10)
	a, _ := dpcheck.Analyze(ctx, m)
	eps, _ := exact.Ln(big.NewRat(3, 1))
	res, _ := a.DP(ctx, eps, new(big.Rat))
	fmt.Println("ln(3)-DP:", res.Holds, "over", res.OrderedPairs, "ordered pairs")
	less, _ := exact.LnPlus(big.NewRat(1, 1), big.NewRat(3, 1), big.NewRat(-1, 1000))
	res, _ = a.DP(ctx, less, new(big.Rat))
	cx := res.Counterexample
	fmt.Printf("(%s)-DP: %v; %s vs %s on %v\n", less, res.Holds, cx.From.Name, cx.To.Name, cx.Event)
	// Output:
	// ln(3)-DP: true over 20 ordered pairs
	// (ln(3) - 1/1000)-DP: false; s0 vs s1 on [t0]
}
