package verify_test

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/model"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/verify"
)

// The mechanisms of the seed documents, each against a value computed
// independently (closed forms, or brute-force sums).

func lnRat(t *testing.T, x *big.Rat) exact.Eps {
	t.Helper()
	e, err := exact.Ln(x)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestRandomizedResponseSymbolic: the tight ε of two-coin randomized
// response is ln of the larger of the "yes" ratio (θ1 + (1-θ1)θ2)/((1-θ1)θ2)
// and the "no" ratio (θ1 + (1-θ1)(1-θ2))/((1-θ1)(1-θ2)); ∞ when a
// denominator is 0 and its numerator is not.
func TestRandomizedResponseSymbolic(t *testing.T) {
	for _, tc := range []struct{ t1, t2 string }{
		{"1/2", "1/2"}, {"3/5", "1/2"}, {"1/3", "1/4"}, {"1/2", "3/4"}, {"1/2", "9/10"}, {"7/8", "1/3"},
		{"1/2", "0"}, {"1/2", "1"}, {"0", "1/3"}, {"1", "1/2"}, {"0", "0"},
	} {
		t1, t2 := r(tc.t1), r(tc.t2)
		lie := new(big.Rat).Sub(big.NewRat(1, 1), t1)
		ratio := func(q *big.Rat) *big.Rat { // (θ1 + (1-θ1)q) / ((1-θ1)q), nil for ∞
			den := new(big.Rat).Mul(lie, q)
			num := new(big.Rat).Add(t1, den)
			if den.Sign() == 0 {
				if num.Sign() == 0 {
					return big.NewRat(1, 1)
				}
				return nil
			}
			return num.Quo(num, den)
		}
		yes, no := ratio(t2), ratio(new(big.Rat).Sub(big.NewRat(1, 1), t2))
		var want exact.Eps
		switch {
		case yes == nil || no == nil:
			want = exact.Inf()
		case yes.Cmp(no) >= 0:
			want = lnRat(t, yes)
		default:
			want = lnRat(t, no)
		}
		a := analyze(t, mustMech(t)(builder.Survey(t1, t2)), verify.FinalState())
		if got := tightEps(t, a, "0").Eps; !got.Equal(want) {
			t.Errorf("survey(θ1=%s, θ2=%s): tight ε = %s, want %s", tc.t1, tc.t2, got, want)
		}
	}
}

func TestRandomizedResponseK(t *testing.T) {
	for _, tc := range []struct {
		t1   string
		k    int
		want string
	}{{"1/2", 2, "3"}, {"1/2", 4, "5"}, {"1/3", 3, "5/2"}, {"9/10", 10, "91"}} {
		a := analyze(t, mustMech(t)(builder.RandomizedResponseK(r(tc.t1), tc.k)), verify.FinalState())
		if got := tightEps(t, a, "0").Eps; !got.Equal(ln(tc.want)) {
			t.Errorf("k=%d, θ1=%s: tight ε = %s, want ln(%s)", tc.k, tc.t1, got, tc.want)
		}
	}
}

// TestComposition: k-fold randomized response costs exactly k times one
// run; for δ > 0 the exact δ is below the composition theorem's kδ.
func TestComposition(t *testing.T) {
	for _, t2 := range []string{"1/2", "3/4"} {
		single := tightEps(t, analyze(t, mustMech(t)(builder.Survey(r("1/2"), r(t2))), verify.FinalState()), "0").Eps
		c, _ := single.C()
		for k := 1; k <= 3; k++ {
			m := mustMech(t)(builder.Compose(k, mustMech(t)(builder.Survey(r("1/2"), r(t2)))))
			got := tightEps(t, analyze(t, m, verify.FinalState()), "0").Eps
			want, _ := exact.MulLn(big.NewRat(int64(k), 1), c)
			if !got.Equal(want) {
				t.Errorf("θ2=%s, k=%d: tight ε = %s, want %s", t2, k, got, want)
			}
		}
	}
	double := analyze(t, mustMech(t)(builder.Compose(2, mustMech(t)(builder.Survey(r("1/2"), r("1/2"))))), verify.FinalState())
	if got := tightDelta(t, double, exact.Eps{}); got.Cmp(r("1/2")) != 0 {
		t.Errorf("double survey: δ at ε = 0 is %s, want 1/2 (the composition theorem gives 1)", got.RatString())
	}
	yy := double.Prob(0, "Y,Y")
	if yy.Cmp(r("9/16")) != 0 {
		t.Errorf("Pr(Y,Y | +) = %s, want 9/16", yy.RatString())
	}
}

// TestYarrowEquivalent: the sampler equals the truncated geometric
// mechanism exactly with the seed's bit budget, and differs with less.
func TestYarrowEquivalent(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		alpha        string
		lo, hi, bits int
		equal        bool
	}{
		{"1/2", 0, 5, 0, true}, {"1/4", 0, 5, 0, true}, {"2/3", 0, 8, 0, true}, {"99/100", 0, 1, 0, true},
		{"1/3", 0, 6, 6, true}, {"1/2", 0, 5, 4, false}, {"1/2", 0, 5, 1, false}, {"1/3", 0, 6, 9, true},
	} {
		y := mustMech(t)(builder.YarrowGeometric(r(tc.alpha), tc.lo, tc.hi, tc.bits))
		g := mustMech(t)(builder.TruncatedGeometric(r(tc.alpha), tc.hi))
		res, err := verify.Equivalent(ctx, y.Chain, g.Chain)
		if err != nil {
			t.Fatal(err)
		}
		if res.Equal != tc.equal {
			t.Errorf("α=%s over {%d..%d}, %d bits: equal = %v, want %v (difference %+v)", tc.alpha, tc.lo, tc.hi, tc.bits, res.Equal, tc.equal, res.Counterexample)
		}
	}
	// With 4 bits over {0..5}, output 5 is impossible from 0: ε = ∞.
	a := analyze(t, mustMech(t)(builder.YarrowGeometric(r("1/2"), 0, 5, 4)), verify.FinalState())
	if e := tightEps(t, a, "0").Eps; !e.IsInf() {
		t.Errorf("4-bit sampler: tight ε = %s, want ∞", e)
	}
	// count_min ≠ 0: inputs and outputs are shifted; the sampler is still
	// exactly (-ln α)-DP.
	s := analyze(t, mustMech(t)(builder.YarrowGeometric(r("1/3"), 3, 7, 0)), verify.FinalState())
	if e := tightEps(t, s, "0").Eps; !e.Equal(ln("3")) {
		t.Errorf("sampler over {3..7}: tight ε = %s, want ln(3)", e)
	}
}

func TestDecisions(t *testing.T) {
	for _, alpha := range []string{"1/2", "9/10", "99/100"} {
		inv := new(big.Rat).Inv(r(alpha))
		eps := lnRat(t, inv)
		lap := analyze(t, mustMech(t)(builder.LaplaceDecision(r(alpha), 10, 0, 20)), verify.FinalState())
		if got := tightEps(t, lap, "0").Eps; !got.Equal(eps) {
			t.Errorf("Laplace decision α=%s: tight ε = %s, want %s", alpha, got, eps)
		}
		cut := analyze(t, mustMech(t)(builder.CutoffDecision(r(alpha), 10, 0, 15)), verify.FinalState())
		want := new(big.Rat).Sub(big.NewRat(1, 1), r(alpha))
		if got := tightDelta(t, cut, eps); got.Cmp(want) != 0 {
			t.Errorf("cutoff decision α=%s: tight δ = %s, want 1 - α = %s", alpha, got.RatString(), want.RatString())
		}
		for _, delta := range []string{"0", "1/100", "1/10"} {
			g := analyze(t, mustMech(t)(builder.GeneralizedDecision(r(alpha), r(delta), 10, 0, 20)), verify.FinalState())
			if got := tightDelta(t, g, eps); got.Cmp(r(delta)) != 0 {
				t.Errorf("generalized decision α=%s, δ=%s: tight δ at ε is %s", alpha, delta, got.RatString())
			}
		}
	}
}

// binomialTail is Pr[S >= b] for S the sum of m rows, each +1 with
// probability p and -1 otherwise.
func binomialTail(m int, p *big.Rat, b int) *big.Rat {
	q := new(big.Rat).Sub(big.NewRat(1, 1), p)
	sum := new(big.Rat)
	for j := 0; j <= m; j++ {
		if 2*j-m < b {
			continue
		}
		c := new(big.Rat).SetInt(new(big.Int).Binomial(int64(m), int64(j)))
		for range j {
			c.Mul(c, p)
		}
		for range m - j {
			c.Mul(c, q)
		}
		sum.Add(sum, c)
	}
	return sum
}

// TestStreamingTheorem1: Composition Theorem for streaming CW-privacy's Theorem 1 with the Chernoff bound h
// replaced by the exact tail it bounds, for every β: the claimed
// (ε(β), δ(β)) holds, and the exact δ at ε(β) is at most δ(β). The exact
// values are kept in testdata/streaming_theorem1.txt (-update rewrites it).
func TestStreamingTheorem1(t *testing.T) {
	var table strings.Builder
	fmt.Fprintf(&table, "# rows p β: ε(β), claimed δ(β) (exact tails), exact least δ at ε(β)\n")
	for _, tc := range []struct {
		rows int
		p    string
	}{{6, "1/2"}, {10, "1/2"}, {10, "3/5"}, {9, "1/4"}} {
		p := r(tc.p)
		q := new(big.Rat).Sub(big.NewRat(1, 1), p)
		odds := new(big.Rat).Quo(p, q)
		if odds.Cmp(big.NewRat(1, 1)) < 0 {
			odds.Inv(odds)
		}
		a := analyze(t, mustMech(t)(builder.StreamingSum(tc.rows, p)), verify.FinalState())
		for beta := 1; beta <= tc.rows; beta++ {
			ratio := big.NewRat(int64(tc.rows+1+beta), int64(tc.rows+1-beta))
			ratio.Mul(ratio, odds)
			eps := lnRat(t, ratio)
			claimed := new(big.Rat).Add(binomialTail(tc.rows-1, p, beta-1), binomialTail(tc.rows-1, q, beta-1))
			if claimed.Cmp(big.NewRat(1, 1)) > 0 {
				claimed.SetInt64(1)
			}
			name := fmt.Sprintf("rows=%d p=%s β=%d", tc.rows, tc.p, beta)
			if !dp(t, a, eps, claimed.RatString()).Holds {
				t.Errorf("%s: Theorem 1's (ε, δ) = (%s, %s) fails", name, eps, claimed.RatString())
			}
			exact := tightDelta(t, a, eps)
			if exact.Cmp(claimed) > 0 {
				t.Errorf("%s: exact δ %s above the claimed %s", name, exact.RatString(), claimed.RatString())
			}
			fmt.Fprintf(&table, "%d %s %d: %s, %s, %s\n", tc.rows, tc.p, beta, eps, claimed.RatString(), exact.RatString())
		}
	}
	golden(t, "testdata/streaming_theorem1.txt", table.String())
}

// TestComposeNamesWithCommas is the review's case: outputs named "a",
// "b,c", "a,b" and "c" must give 4^3 = 64 distinct composed outputs, and
// the exact δ at c = 3/2 is 37/128 (from the product distribution).
func TestComposeNamesWithCommas(t *testing.T) {
	b := chain.NewBuilder()
	p := b.AddState("p", nil)
	n := b.AddState("n", nil)
	var outs []int
	for _, name := range []string{"a", "b,c", "a,b", "c"} {
		outs = append(outs, b.AddState(name, nil))
	}
	pp := []string{"1/4", "1/4", "1/4", "1/4"}
	np := []string{"1/2", "1/8", "1/8", "1/4"}
	for i, o := range outs {
		b.AddTransition(p, o, r(pp[i]))
		b.AddTransition(n, o, r(np[i]))
	}
	b.MarkInput(p)
	b.MarkInput(n)
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	m := mustMech(t)(builder.Compose(3, &model.Mechanism{Chain: c, Neighbours: [][2]int{{p, n}}}))
	a := analyze(t, m, verify.FinalState())
	if got := a.NumOutputs(); got != 64 {
		t.Errorf("%d composed outputs, want 64", got)
	}
	// Brute force over the product distribution.
	want := bruteDelta(t, productRows(pp, np, 3), ln("3/2"))
	if got := tightDelta(t, a, ln("3/2")); got.Cmp(r("37/128")) != 0 {
		t.Errorf("δ at c = 3/2: %s, want 37/128 (brute force %s)", got.RatString(), want)
	}
	if dp(t, a, ln("3/2"), "9/32").Holds {
		t.Error("dp(ln(3/2), 9/32) holds")
	}
}

// productRows is the distribution of k independent draws, for brute force.
func productRows(p, n []string, k int) [][]*big.Rat {
	rows := [][]*big.Rat{{big.NewRat(1, 1)}, {big.NewRat(1, 1)}}
	for range k {
		for i, base := range [][]string{p, n} {
			var next []*big.Rat
			for _, x := range rows[i] {
				for _, q := range base {
					next = append(next, new(big.Rat).Mul(x, r(q)))
				}
			}
			rows[i] = next
		}
	}
	return rows
}
