package param

import (
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/poly"
)

// TestTightEpsilonAtIsolatedFinitePoint: the tight ε at δ is +∞ on both
// sides of a point where it is finite — each pair's Pr_s(Z) − δ is 0 there
// while one of them is positive on either side (two pairs trading places,
// or one touching 0). The pieces used to merge the two infinite parts and
// give +∞ at that point too, where verify gives ε = 0 (e^ε = 1).
func TestTightEpsilonAtIsolatedFinitePoint(t *testing.T) {
	quarter := rf(t, []int64{1}, []int64{4})
	unit := poly.Open(r(0, 1), r(1, 1))
	cases := []struct {
		name   string
		ps, pt []poly.RatFunc
		x      *big.Rat // the finite point when rational
		want   string
		region string // where dp(0, 1/4) holds: that point
	}{{
		// Pr_s(o2) = (1 − α)/2 > 1/4 below 1/2, Pr_t(o3) = α/2 > 1/4
		// above: at 1/2 both are 1/4 = δ and s, t give o0 3/4.
		name:   "two pairs trade at 1/2",
		ps:     []poly.RatFunc{rf(t, []int64{1, 1}, []int64{2}), {}, rf(t, []int64{1, -1}, []int64{2}), {}},
		pt:     []poly.RatFunc{rf(t, []int64{2, -1}, []int64{2}), {}, {}, rf(t, []int64{0, 1}, []int64{2})},
		x:      r(1, 2),
		want:   "∞ for α in (0, 1/2); ln(1) for α in [1/2, 1/2]; ∞ for α in (1/2, 1)",
		region: "{1/2}",
	}, {
		// Pr_s(o2) = 1/4 + (α − 1/2)² touches δ = 1/4 at 1/2.
		name:   "one pair touches at 1/2",
		ps:     []poly.RatFunc{rf(t, []int64{1, 2, -2}, []int64{2}), rf(t, []int64{1, -2, 2}, []int64{2})},
		pt:     []poly.RatFunc{rf(t, []int64{1}, []int64{1}), {}},
		x:      r(1, 2),
		want:   "∞ for α in (0, 1/2); ln(1) for α in [1/2, 1/2]; ∞ for α in (1/2, 1)",
		region: "{1/2}",
	}, {
		// As the first with α² for α: the finite point is √2/2.
		name:   "two pairs trade at √2/2",
		ps:     []poly.RatFunc{rf(t, []int64{1, 0, 1}, []int64{2}), {}, rf(t, []int64{1, 0, -1}, []int64{2}), {}},
		pt:     []poly.RatFunc{rf(t, []int64{2, 0, -1}, []int64{2}), {}, {}, rf(t, []int64{0, 0, 1}, []int64{2})},
		want:   "∞ for α in (0, √2/2); ln(1) for α in [√2/2, √2/2]; ∞ for α in (√2/2, 1)",
		region: "{√2/2}",
	}}
	for _, c := range cases {
		for len(c.ps) < len(c.pt) {
			c.ps = append(c.ps, poly.RatFunc{})
		}
		a := mustAnalyze(t, twoInputs(t, unit, c.ps, c.pt))
		res, err := a.TightEpsilonAt(ctx, quarter)
		if err != nil {
			t.Fatal(err)
		}
		if got := res.String(); got != c.want {
			t.Errorf("%s: got %s, want %s", c.name, got, c.want)
		}
		dp, err := a.DP(ctx, rf(t, []int64{1}, []int64{1}), quarter)
		if err != nil {
			t.Fatal(err)
		}
		if got := dp.Region.String(); dp.Holds || got != c.region {
			t.Errorf("%s: dp(0, 1/4) holds on %s, want %s", c.name, got, c.region)
		}
		if c.x == nil {
			continue
		}
		e, err := res.Eps(c.x)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := e.C(); !ok || got.Cmp(r(1, 1)) != 0 {
			t.Errorf("%s: e^ε at %s is %s, want 1", c.name, c.x.RatString(), e)
		}
		an, err := a.Instance(ctx, c.x)
		if err != nil {
			t.Fatal(err)
		}
		te, err := an.TightEpsilon(ctx, r(1, 4))
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := te.Eps.C(); !ok || got.Cmp(r(1, 1)) != 0 {
			t.Errorf("%s: verify's e^ε at %s is %s, want 1", c.name, c.x.RatString(), te.Eps)
		}
	}
}
