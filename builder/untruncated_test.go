package builder_test

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/internal/reference"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/verify"
)

// outputDist is input s's distribution over the chain's outputs, keyed by
// key(output name).
func outputDist(m *model.Mechanism, s int, key func(string) string) map[string]*big.Rat {
	c := m.Chain
	to, p := c.Row(s)
	out := map[string]*big.Rat{}
	for i, t := range to {
		out[key(c.Name(t))] = p[i]
	}
	return out
}

// TestGeometricUntruncated: every row of the untruncated geometric
// mechanism equals the independent closed form (internal/reference's
// GeometricExact, the outputs outside 0..n merged into its two tails), and
// its tight ε is sensitivity·ln(1/α).
func TestGeometricUntruncated(t *testing.T) {
	for _, tt := range []struct {
		alpha     *big.Rat
		n, sens   int
		tightEps  exact.Eps
		deltaAt0  *big.Rat // δ(0) for sensitivity 1
		wantPairs int
	}{
		{big.NewRat(1, 2), 4, 1, exact.LnFrac(2, 1), big.NewRat(1, 3), 4},
		{big.NewRat(2, 3), 6, 2, exact.LnFrac(9, 4), nil, 11},
		{big.NewRat(999, 1000), 3, 1, exact.LnFrac(1000, 999), big.NewRat(1, 1999), 3},
	} {
		name := fmt.Sprintf("alpha=%s,n=%d,sens=%d", tt.alpha.RatString(), tt.n, tt.sens)
		m, err := builder.UntruncatedGeometric(tt.alpha, tt.n, tt.sens)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		key := func(s string) string {
			switch s {
			case "out≤-1":
				return reference.BelowKey
			case fmt.Sprintf("out≥%d", tt.n+1):
				return reference.AboveKey
			}
			return s[1:] // t<l>
		}
		for k, s := range m.Chain.Inputs() {
			want := map[string]*big.Rat(reference.GeometricExact(tt.alpha, k, 0, tt.n))
			if diff := cmp.Diff(want, outputDist(m, s, key), ratCmp); diff != "" {
				t.Errorf("%s: input %d (-reference +builder):\n%s", name, k, diff)
			}
		}
		if len(m.Neighbours) != tt.wantPairs {
			t.Errorf("%s: %d neighbour pairs, want %d", name, len(m.Neighbours), tt.wantPairs)
		}
		ctx := context.Background()
		a, err := verify.Analyze(ctx, &verify.Model{Chain: m.Chain, Neighbours: m.Neighbours})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		eps, err := a.TightEpsilon(ctx, new(big.Rat))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !eps.Eps.Equal(tt.tightEps) {
			t.Errorf("%s: tight ε %s, want %s", name, eps.Eps, tt.tightEps)
		}
		if tt.deltaAt0 != nil {
			// δ(0) is the total variation (1−α)/(1+α) between k+Z and k+1+Z.
			d, err := a.TightDelta(ctx, exact.LnOf(big.NewRat(1, 1)))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if r, ok := d.Delta.Rat(); !ok || r.Cmp(tt.deltaAt0) != 0 {
				t.Errorf("%s: δ(0) = %s, want %s", name, d.Delta, tt.deltaAt0.RatString())
			}
		}
	}
}

// TestAboveThresholdUntruncated: every input's halting distribution equals
// the closed form of internal/reference (sparse vector with one ⊤, every
// query answering d, summed by its own factorisation over the noisy
// threshold, no geosum), for both comparisons: a noisy answer > the noisy
// threshold is the answer d − 1 compared with ≥.
func TestAboveThresholdUntruncated(t *testing.T) {
	for _, tt := range []struct {
		alphaT, alphaQ *big.Rat
		n, k           int
		cmp            builder.Comparison
	}{
		{big.NewRat(1, 4), big.NewRat(1, 2), 3, 3, builder.AtLeast},
		{big.NewRat(1, 4), big.NewRat(1, 2), 2, 5, builder.Above},
		{big.NewRat(2, 3), big.NewRat(1, 8), 4, 2, builder.AtLeast},
		{big.NewRat(99, 100), big.NewRat(3, 7), 2, 4, builder.Above},
	} {
		name := fmt.Sprintf("%s,%s,n=%d,k=%d,%s", tt.alphaT.RatString(), tt.alphaQ.RatString(), tt.n, tt.k, tt.cmp)
		m, err := builder.AboveThresholdUntruncated(tt.alphaT, tt.alphaQ, tt.n, tt.k, tt.cmp)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		key := func(s string) string {
			if s == "never" {
				return "0"
			}
			return s[len("halt_"):]
		}
		c := m.Chain
		for _, s := range c.Inputs() {
			d, _ := c.Valuation(s).Get("d")
			th, _ := c.Valuation(s).Get("t")
			alg := reference.Lyu1()
			alg.AlphaT, alg.AlphaQ, alg.T = tt.alphaT, tt.alphaQ, int(th)
			answers := make([]int, tt.k)
			for i := range answers {
				answers[i] = int(d)
				if tt.cmp == builder.Above {
					answers[i]--
				}
			}
			want := map[string]*big.Rat(alg.Exact(answers, 0, 0))
			if diff := cmp.Diff(want, outputDist(m, s, key), ratCmp); diff != "" {
				t.Errorf("%s: %s (-reference +builder):\n%s", name, c.Name(s), diff)
			}
		}
	}
	if got := strconv.Itoa(builder.MaxUntruncatedThresholdQueries); got != "100" {
		t.Errorf("MaxUntruncatedThresholdQueries = %s", got)
	}
}

// TestUntruncatedRefusals: arguments outside the builders' ranges are
// refused with the parameter named, and a sum past the bits a weight may
// take stops with geosum's limit.
func TestUntruncatedRefusals(t *testing.T) {
	half := big.NewRat(1, 2)
	for _, tt := range []struct {
		build func() (*model.Mechanism, error)
		want  string
	}{
		{func() (*model.Mechanism, error) { return builder.UntruncatedGeometric(big.NewRat(1, 1), 3, 1) }, "untruncated_geometric: parameter alpha must be in (0, 1), got 1"},
		{func() (*model.Mechanism, error) { return builder.UntruncatedGeometric(half, 3, 4) }, "untruncated_geometric: parameter sensitivity must be between 1 and 3, got 4"},
		{func() (*model.Mechanism, error) { return builder.UntruncatedGeometric(half, builder.MaxRange+1, 1) }, "untruncated_geometric: parameter n must be between 1 and 5000, got 5001"},
		{func() (*model.Mechanism, error) {
			return builder.AboveThresholdUntruncated(half, half, 3, 101, builder.AtLeast)
		}, "above_threshold_untruncated: parameter k must be between 1 and 100, got 101"},
		{func() (*model.Mechanism, error) {
			return builder.AboveThresholdUntruncated(half, big.NewRat(0, 1), 3, 2, builder.AtLeast)
		}, "above_threshold_untruncated: parameter alpha_q must be in (0, 1), got 0"},
	} {
		_, err := tt.build()
		if err == nil || err.Error() != tt.want {
			t.Errorf("got %v, want %q", err, tt.want)
		}
	}
}

// TestUntruncatedThresholdCancel: the sums stop when the context ends.
func TestUntruncatedThresholdCancel(t *testing.T) {
	d, _ := builder.Lookup("above_threshold_untruncated")
	a := builder.NewArgs()
	a.SetInt("k", 60)
	a.SetInt("n", 40)
	if err := d.WithDefaults(a); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := d.Build(ctx, a); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}
