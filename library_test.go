package dpcheck_test

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/rand"
	"reflect"
	"testing"
	"testing/quick"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/model"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/verify"
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

// TestAnalyzeChain: the front door for a chain chooses what is observed,
// and nil pairs relate every two inputs.
func TestAnalyzeChain(t *testing.T) {
	ctx := context.Background()
	b := chain.NewBuilder()
	pos := b.AddState("pos", nil)
	neg := b.AddState("neg", nil)
	mid := b.AddState("mid", nil)
	y1 := b.AddState("y1", nil, "out_Y")
	y2 := b.AddState("y2", nil, "out_Y")
	no := b.AddState("no", nil, "out_N")
	for _, row := range []struct {
		from int
		p    [3]*big.Rat
	}{
		{pos, [3]*big.Rat{big.NewRat(1, 2), big.NewRat(1, 4), big.NewRat(1, 4)}},
		{neg, [3]*big.Rat{big.NewRat(1, 8), big.NewRat(3, 8), big.NewRat(1, 2)}},
		{mid, [3]*big.Rat{big.NewRat(1, 4), big.NewRat(1, 4), big.NewRat(1, 2)}},
	} {
		for i, to := range []int{y1, y2, no} {
			b.AddTransition(row.from, to, row.p[i])
		}
		b.MarkInput(row.from)
	}
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		pairs [][2]int
		out   verify.Output
		n     int
		eps   exact.Eps
	}{
		// final states: y1 is 4 times as likely from pos as from neg
		{[][2]int{{pos, neg}}, verify.FinalState(), 1, exact.LnInt(4)},
		// the labels: out_Y 3/4 vs 1/2, out_N 1/4 vs 1/2
		{[][2]int{{pos, neg}}, verify.FinalLabels("out_Y"), 1, exact.LnInt(2)},
		// every two inputs: pos vs mid on y1 (2), neg vs mid on y2 (3/2) are
		// below pos vs neg
		{nil, verify.FinalState(), 3, exact.LnInt(4)},
	} {
		a, err := dpcheck.AnalyzeChain(ctx, c, tc.pairs, tc.out)
		if err != nil {
			t.Fatal(err)
		}
		res, err := a.TightEpsilon(ctx, new(big.Rat))
		if err != nil {
			t.Fatal(err)
		}
		if a.NumPairs() != tc.n || !res.Eps.Equal(tc.eps) {
			t.Errorf("pairs %v, output %s: %d pairs, ε = %s; want %d, %s", tc.pairs, tc.out, a.NumPairs(), res.Eps, tc.n, tc.eps)
		}
	}
	if _, err := dpcheck.AnalyzeChain(ctx, nil, nil, verify.FinalState()); !errors.Is(err, verify.ErrModel) {
		t.Errorf("no chain: %v", err)
	}
}

// TestAnalyzeAllPairs: a mechanism whose inputs are all neighbours
// (a model of guarded commands) is analysed over every two inputs.
func TestAnalyzeAllPairs(t *testing.T) {
	ctx := context.Background()
	p, err := dpcheck.Config{}.Load(ctx, "m.dp", `module m
  input x : [0..2];
  y : [0..1] init 0;
  done : bool init false;
  [] !done -> 1/2 : (y' = 0) & (done' = true) + 1/2 : (y' = 1) & (done' = true);
endmodule
outputs var y
neighbours |x - x'| <= 2
check dp(eps = 0)
`)
	if err != nil {
		t.Fatal(err)
	}
	a, err := dpcheck.Analyze(ctx, &model.Mechanism{Chain: p.Chain, AllPairs: true})
	if err != nil {
		t.Fatal(err)
	}
	if a.NumPairs() != 3 {
		t.Errorf("%d pairs, want 3", a.NumPairs())
	}
}

func ExampleAnalyzeChain() {
	ctx := context.Background()
	b := chain.NewBuilder()
	pos := b.AddState("pos", nil)
	neg := b.AddState("neg", nil)
	yes := b.AddState("yes", nil)
	no := b.AddState("no", nil)
	b.AddTransition(pos, yes, big.NewRat(3, 4))
	b.AddTransition(pos, no, big.NewRat(1, 4))
	b.AddTransition(neg, yes, big.NewRat(1, 4))
	b.AddTransition(neg, no, big.NewRat(3, 4))
	b.MarkInput(pos)
	b.MarkInput(neg)
	c, _ := b.Build()
	a, _ := dpcheck.AnalyzeChain(ctx, c, [][2]int{{pos, neg}}, verify.FinalState())
	res, _ := a.TightEpsilon(ctx, new(big.Rat))
	fmt.Println(res)
	// Output:
	// ε = ln(3) ≈ 1.09861 at δ = 0
	// attained by pos vs neg on {yes}: 3/4 ≈ 0.75 vs 1/4 ≈ 0.25
}

// ExampleAnalyzeChain_mechanism observes a builder's mechanism by one
// variable of its final states.
func ExampleAnalyzeChain_mechanism() {
	ctx := context.Background()
	m, _ := builder.TruncatedGeometric(big.NewRat(1, 2), 5)
	a, _ := dpcheck.AnalyzeChain(ctx, m.Chain, m.Neighbours, verify.FinalVar("out"))
	res, _ := a.TightEpsilon(ctx, new(big.Rat))
	fmt.Println(res)
	// Output:
	// ε = ln(2) ≈ 0.693147 at δ = 0
	// attained by s0 (in=0) vs s1 (in=1) on {out=0}: 2/3 ≈ 0.666667 vs 1/3 ≈ 0.333333
}
