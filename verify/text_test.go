package verify_test

import (
	"context"
	"errors"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/verify"
)

// TestResultStrings: the String methods of the results say the verdict
// and the values exactly, with decimals (the survey: Pr(Y|+) = 3/4,
// Pr(Y|−) = 1/4).
func TestResultStrings(t *testing.T) {
	ctx := context.Background()
	m, err := builder.Survey(big.NewRat(1, 2), big.NewRat(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	a, err := verify.Analyze(ctx, &verify.Model{Chain: m.Chain, Neighbours: m.Neighbours})
	if err != nil {
		t.Fatal(err)
	}
	ln2, ln3 := exact.LnInt(2), exact.LnInt(3)
	holds, err := a.DP(ctx, ln3, new(big.Rat))
	if err != nil {
		t.Fatal(err)
	}
	violated, err := a.DP(ctx, ln2, big.NewRat(1, 10))
	if err != nil {
		t.Fatal(err)
	}
	pure, err := a.DP(ctx, exact.Must(exact.Rational(big.NewRat(1, 2))), new(big.Rat))
	if err != nil {
		t.Fatal(err)
	}
	eps, err := a.TightEpsilon(ctx, new(big.Rat))
	if err != nil {
		t.Fatal(err)
	}
	delta, err := a.TightDelta(ctx, exact.Must(exact.Rational(big.NewRat(1, 2))))
	if err != nil {
		t.Fatal(err)
	}
	zero, err := a.TightDelta(ctx, ln3)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		got  string
		want string
	}{
		{"holds", holds.String(), "dp(ε = ln(3) ≈ 1.09861, δ = 0) holds: 2 ordered pairs × 2 outputs"},
		{"violated", violated.String(), `dp(ε = ln(2) ≈ 0.693147, δ = 1/10 ≈ 0.1) is violated: 2 ordered pairs × 2 outputs
+ (x=1) vs - (x=0) on E* = {Y}
Pr[E* | +] = 3/4 ≈ 0.75, Pr[E* | -] = 1/4 ≈ 0.25
bound e^ε·Pr[E* | -] + δ = 3/5 ≈ 0.6, excess 3/20 ≈ 0.15
least ε that holds at this δ: ln(13/5) ≈ 0.955511`},
		{"pure", pure.String(), `dp(ε = 1/2 ≈ 0.5, δ = 0) is violated: 2 ordered pairs × 2 outputs
+ (x=1) vs - (x=0) on E* = {Y}
Pr[E* | +] = 3/4 ≈ 0.75, Pr[E* | -] = 1/4 ≈ 0.25
bound e^ε·Pr[E* | -] + δ = 1/4·e^(1/2) ≈ 0.41218, excess 3/4 - 1/4·e^(1/2) ≈ 0.33782
least ε that holds at this δ: ln(3) ≈ 1.09861`},
		{"eps", eps.String(), `ε = ln(3) ≈ 1.09861 at δ = 0
attained by + (x=1) vs - (x=0) on {Y}: 3/4 ≈ 0.75 vs 1/4 ≈ 0.25`},
		{"delta", delta.String(), `δ = 3/4 - 1/4·e^(1/2) ≈ 0.33782 at ε = 1/2 ≈ 0.5
attained by + (x=1) vs - (x=0) on {Y}: 3/4 ≈ 0.75 vs 1/4 ≈ 0.25`},
		{"zero", zero.String(), "δ = 0 at ε = ln(3) ≈ 1.09861"},
	} {
		if c.got != c.want {
			t.Errorf("%s:\n%s\nwant\n%s", c.name, c.got, c.want)
		}
	}
}

// TestPairDelta: the tight δ of one ordered pair is that pair's
// hockey-stick divergence (truncated 1/2-geometric, n = 2: rows 2/3, 1/6,
// 1/6 | 1/3, 1/3, 1/3 | 1/6, 1/6, 2/3), and the largest over the ordered
// pairs is TightDelta's.
func TestPairDelta(t *testing.T) {
	ctx := context.Background()
	m, err := builder.TruncatedGeometric(big.NewRat(1, 2), 2)
	if err != nil {
		t.Fatal(err)
	}
	a, err := verify.Analyze(ctx, &verify.Model{Chain: m.Chain, Neighbours: m.Neighbours})
	if err != nil {
		t.Fatal(err)
	}
	in := m.Chain.Inputs()
	// At ε = 0 (c = 1): H(s0‖s1) = (2/3 − 1/3) = 1/3, H(s1‖s0) = 1/3 − 1/6
	// twice = 1/3; H(s0‖s2) is not a pair.
	for _, c := range []struct {
		from, to int
		eps      exact.Eps
		want     *big.Rat
	}{
		{in[0], in[1], exact.Eps{}, big.NewRat(1, 3)},
		{in[1], in[0], exact.Eps{}, big.NewRat(1, 3)},
		{in[0], in[1], exact.LnFrac(3, 2), big.NewRat(1, 6)}, // 2/3 − (3/2)·1/3
		{in[1], in[0], exact.LnFrac(3, 2), big.NewRat(1, 6)}, // 2·(1/3 − (3/2)·1/6)
		{in[0], in[1], exact.LnInt(2), new(big.Rat)},
	} {
		d, err := a.PairDelta(ctx, c.from, c.to, c.eps)
		if err != nil {
			t.Fatal(err)
		}
		if x, ok := d.Delta.Rat(); !ok || x.Cmp(c.want) != 0 {
			t.Errorf("PairDelta(%d, %d, %s) = %s, want %s", c.from, c.to, c.eps, d.Delta, c.want.RatString())
		}
	}
	// An irrational c: the pair's δ is exact, and the largest over the
	// pairs equals TightDelta.
	half := exact.Must(exact.Rational(big.NewRat(1, 2)))
	tight, err := a.TightDelta(ctx, half)
	if err != nil {
		t.Fatal(err)
	}
	best := exact.RatReal(new(big.Rat))
	for _, p := range m.Neighbours {
		for _, o := range [][2]int{p, {p[1], p[0]}} {
			d, err := a.PairDelta(ctx, o[0], o[1], half)
			if err != nil {
				t.Fatal(err)
			}
			if c, _ := d.Delta.Cmp(best); c > 0 {
				best = d.Delta
			}
		}
	}
	if c, err := best.Cmp(tight.Delta); err != nil || c != 0 {
		t.Errorf("largest PairDelta %s, TightDelta %s", best, tight.Delta)
	}
	if _, err := a.PairDelta(ctx, 12345, in[0], half); !errors.Is(err, verify.ErrModel) {
		t.Errorf("PairDelta of a non-input: %v", err)
	}
}
