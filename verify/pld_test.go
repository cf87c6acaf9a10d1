package verify_test

import (
	"context"
	"errors"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/verify"
	"github.com/google/go-cmp/cmp"
)

// atoms returns a PLD's finite loss values in decreasing order.
func atoms(p *verify.PLD) []verify.LossAtom {
	out := make([]verify.LossAtom, p.Len())
	for i := range out {
		out[i] = p.Atom(i)
	}
	return out
}

func pairPLD(t *testing.T, a *verify.Analysis, from, to string) *verify.PLD {
	t.Helper()
	c := a.Chain()
	s, ok1 := c.Lookup(from)
	u, ok2 := c.Lookup(to)
	if !ok1 || !ok2 {
		t.Fatalf("no states %s, %s", from, to)
	}
	p, err := a.PairPLD(context.Background(), s, u)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPairPLD(t *testing.T) {
	ctx := context.Background()
	geo := analyze(t, mustMech(t)(builder.TruncatedGeometric(r("1/2"), 5)), verify.FinalState())
	p := pairPLD(t, geo, "s0", "s1")
	want := []verify.LossAtom{{Ratio: r("2"), PrFrom: r("2/3"), PrTo: r("1/3")}, {Ratio: r("1/2"), PrFrom: r("1/3"), PrTo: r("2/3")}}
	if diff := cmp.Diff(want, atoms(p), ratCmp); diff != "" {
		t.Errorf("one run of s0 vs s1 (-want +got):\n%s", diff)
	}
	if p.Runs() != 1 || p.Infinite().Sign() != 0 {
		t.Errorf("runs %d, infinite loss %s", p.Runs(), p.Infinite())
	}
	// Three runs: the number j of runs with loss ln 2 is binomial.
	p3, err := p.Compose(ctx, 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	want = []verify.LossAtom{
		{Ratio: r("8"), PrFrom: r("8/27"), PrTo: r("1/27")},
		{Ratio: r("2"), PrFrom: r("12/27"), PrTo: r("6/27")},
		{Ratio: r("1/2"), PrFrom: r("6/27"), PrTo: r("12/27")},
		{Ratio: r("1/8"), PrFrom: r("1/27"), PrTo: r("8/27")},
	}
	if diff := cmp.Diff(want, atoms(p3), ratCmp); diff != "" {
		t.Errorf("three runs (-want +got):\n%s", diff)
	}
	// δ(ε) and the tight ε of the pair over three runs.
	d, err := p3.Delta(ln("2"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(exact.RatReal(r("8/27").Sub(r("8/27"), r("2/27"))), d, realCmp); diff != "" {
		t.Errorf("δ at ln 2 = %s, want 2/9", d)
	}
	half := rational(r("1/2"))
	d, err = p3.Delta(half) // c = e^(1/2) ≈ 1.65: the atoms 8 and 2 are above it
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(exact.Affine(r("20/27"), r("-7/27"), half), d, realCmp); diff != "" {
		t.Errorf("δ at 1/2 = %s, want 20/27 - 7/27·e^(1/2)", d)
	}
	for _, c := range []struct {
		delta string
		want  exact.Eps
	}{{"0", ln("8")}, {"2/9", ln("2")}, {"1/27", ln("7")}, {"20/27", exact.Eps{}}} {
		got, err := p3.TightEpsilon(r(c.delta))
		if err != nil {
			t.Fatal(err)
		}
		if !got.Equal(c.want) {
			t.Errorf("tight ε at δ = %s: %s, want %s", c.delta, got, c.want)
		}
	}
	prof, err := p3.Profile(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wantPts := []verify.ProfilePoint{
		{C: r("1"), Eps: exact.Eps{}, Delta: r("13/27")},
		{C: r("2"), Eps: ln("2"), Delta: r("2/9")},
		{C: r("8"), Eps: ln("8"), Delta: r("0")},
	}
	if diff := cmp.Diff(wantPts, prof.Points, ratCmp, epsCmp); diff != "" {
		t.Errorf("profile (-want +got):\n%s", diff)
	}

	// A degenerate coin: "yes" is impossible from -, so its loss is
	// infinite; over k runs the infinite loss has mass 1 - (1/2)^k.
	deg := analyze(t, mustMech(t)(builder.Survey(r("1/2"), r("0"))), verify.FinalState())
	q := pairPLD(t, deg, "+", "-")
	q4, err := q.Compose(ctx, 4, 0)
	if err != nil {
		t.Fatal(err)
	}
	if q4.Infinite().Cmp(r("15/16")) != 0 {
		t.Errorf("infinite loss over 4 runs: %s, want 15/16", q4.Infinite())
	}
	if e, _ := q4.TightEpsilon(r("0")); !e.IsInf() {
		t.Errorf("tight ε at δ = 0: %s, want ∞", e)
	}
}

// TestPLDLimit checks the refusal of too many loss values, with the count.
func TestPLDLimit(t *testing.T) {
	ctx := context.Background()
	geo := analyze(t, mustMech(t)(builder.TruncatedGeometric(r("1/2"), 5)), verify.FinalState())
	p := pairPLD(t, geo, "s0", "s1")
	for _, c := range []struct {
		k, max int
		want   verify.LossLimitError
		msg    string
	}{
		{1000, 500, verify.LossLimitError{Runs: 1000, AtRuns: 512, Count: 513, Max: 500},
			"the privacy-loss distribution of 1000 runs for s0 vs s1 has more than 500 distinct loss values (513 already for 512 runs); the limit is 500"},
		{10, 10, verify.LossLimitError{Runs: 10, AtRuns: 10, Count: 11, Max: 10},
			"the privacy-loss distribution of 10 runs for s0 vs s1 has 11 distinct loss values; the limit is 10"},
	} {
		_, err := p.Compose(ctx, c.k, c.max)
		var le *verify.LossLimitError
		if !errors.As(err, &le) || !errors.Is(err, verify.ErrLossValues) {
			t.Fatalf("Compose(%d, %d) = %v, want a LossLimitError", c.k, c.max, err)
		}
		got := *le
		got.From, got.To = verify.StateInfo{}, verify.StateInfo{}
		if !cmp.Equal(got, c.want) || le.From.Name != "s0" || le.To.Name != "s1" || le.Error() != c.msg {
			t.Errorf("Compose(%d, %d):\n got %+v %q\nwant %+v %q", c.k, c.max, got, le.Error(), c.want, c.msg)
		}
	}
	if q, err := p.Compose(ctx, 10, 11); err != nil || q.Len() != 11 {
		t.Errorf("Compose(10, 11): %v", err)
	}
}

// binomialDelta is δ(c) of k runs of randomized response with
// Pr(Y|+) = p and Pr(Y|-) = q, from the binomial closed form: j answers Y
// have loss j·ln(p/q) + (k-j)·ln((1-p)/(1-q)), probability
// C(k,j)·p^j·(1-p)^(k-j) under + and C(k,j)·q^j·(1-q)^(k-j) under -, and
// δ(c) = Σ over the j with ratio above c of the difference. ratioAbove
// decides ratio > c.
func binomialDelta(p, q *big.Rat, k int, ratioAbove func(*big.Rat) bool) (A, B *big.Rat) {
	A, B = new(big.Rat), new(big.Rat)
	one := big.NewRat(1, 1)
	np, nq := new(big.Rat).Sub(one, p), new(big.Rat).Sub(one, q)
	for j := 0; j <= k; j++ {
		binom := new(big.Rat).SetInt(new(big.Int).Binomial(int64(k), int64(j)))
		a := new(big.Rat).Mul(binom, new(big.Rat).Mul(exact.Pow(p, int64(j)), exact.Pow(np, int64(k-j))))
		b := new(big.Rat).Mul(binom, new(big.Rat).Mul(exact.Pow(q, int64(j)), exact.Pow(nq, int64(k-j))))
		if ratioAbove(new(big.Rat).Quo(a, b)) {
			A.Add(A, a)
			B.Add(B, b)
		}
	}
	return A, B
}

// TestCompositionRandomizedResponseClosedForm compares the composition of
// k surveys with the binomial closed form, at rational and irrational c.
func TestCompositionRandomizedResponseClosedForm(t *testing.T) {
	ctx := context.Background()
	for _, sv := range []struct{ theta1, theta2, p, q string }{
		{"1/2", "1/2", "3/4", "1/4"},
		{"3/5", "3/4", "9/10", "3/10"},
	} {
		a := analyze(t, mustMech(t)(builder.Survey(r(sv.theta1), r(sv.theta2))), verify.FinalState())
		for _, k := range []int{1, 10, 37, 100} {
			c, err := verify.NewComposition(ctx, a, k, verify.CompositionOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range []exact.Eps{{}, ln("2"), ln("3"), ln("9"), ln("243"), rational(r("1/2")), rational(r("13/3")), mulLn("1/2", "7")} {
				res, err := c.TightDelta(ctx, e)
				if err != nil {
					t.Fatal(err)
				}
				above := func(x *big.Rat) bool {
					s, err := e.CmpC(x)
					if err != nil {
						t.Fatal(err)
					}
					return s > 0
				}
				// + vs - and - vs +: the larger divergence.
				A, B := binomialDelta(r(sv.p), r(sv.q), k, above)
				want := exact.Affine(A, new(big.Rat).Neg(B), e)
				A, B = binomialDelta(r(sv.q), r(sv.p), k, above)
				if rev := exact.Affine(A, new(big.Rat).Neg(B), e); mustCmp(t, rev, want) > 0 {
					want = rev
				}
				if diff := cmp.Diff(want, res.Delta, realCmp); diff != "" {
					t.Errorf("θ = %s, %s, k = %d: δ at ε = %s is %s, closed form %s", sv.theta1, sv.theta2, k, e, res.Delta, want)
				}
			}
		}
	}
}

// TestCompositionGeometricClosedForm: k runs of the truncated α-geometric
// mechanism are exactly k·ln(1/α)-DP, and not for any smaller ε.
func TestCompositionGeometricClosedForm(t *testing.T) {
	ctx := context.Background()
	for _, alpha := range []string{"1/2", "1/4", "2/3"} {
		a := analyze(t, mustMech(t)(builder.TruncatedGeometric(r(alpha), 5)), verify.FinalState())
		inv := new(big.Rat).Inv(r(alpha))
		for _, k := range []int{1, 7, 100, 1000} {
			c, err := verify.NewComposition(ctx, a, k, verify.CompositionOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want, err := exact.MulLn(big.NewRat(int64(k), 1), inv)
			if err != nil {
				t.Fatal(err)
			}
			got := compTightEps(t, c, "0")
			if !got.Eps.Equal(want) {
				t.Errorf("α = %s, k = %d: tight ε %s, want %s", alpha, k, got.Eps, want)
			}
			if got.LossValues != 0 {
				t.Errorf("α = %s, k = %d: δ = 0 convolved %d loss values; one run is enough", alpha, k, got.LossValues)
			}
			holds, err := c.DP(ctx, want, new(big.Rat))
			if err != nil {
				t.Fatal(err)
			}
			less, err := exact.LnPlus(big.NewRat(int64(k), 1), inv, r("-1/1000"))
			if err != nil {
				t.Fatal(err)
			}
			fails, err := c.DP(ctx, less, new(big.Rat))
			if err != nil {
				t.Fatal(err)
			}
			if !holds.Holds || fails.Holds || !fails.Counterexample.LeastEps.Equal(want) {
				t.Errorf("α = %s, k = %d: dp(%s, 0) %v, dp(%s, 0) %v", alpha, k, want, holds.Holds, less, fails.Holds)
			}
			if k == 1000 && fails.Counterexample.Loss == nil {
				t.Errorf("α = %s, k = %d: the counterexample's event is not described by loss", alpha, k)
			}
		}
	}
}

// TestCompositionRefusesRunsThatNeverEnd: a run that may never end has no
// output after which the next could start.
func TestCompositionRefusesRunsThatNeverEnd(t *testing.T) {
	b := chain.NewBuilder()
	x := b.AddState("x", nil)
	y := b.AddState("y", nil)
	o := b.AddState("o", nil)
	l1 := b.AddState("l1", nil)
	l2 := b.AddState("l2", nil)
	b.AddTransition(x, o, r("1/2"))
	b.AddTransition(x, l1, r("1/2"))
	b.AddTransition(l1, l2, r("1"))
	b.AddTransition(l2, l1, r("1"))
	b.AddTransition(y, o, r("1"))
	b.MarkInput(x)
	b.MarkInput(y)
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	a, err := verify.Analyze(context.Background(), &verify.Model{Chain: c, Neighbours: [][2]int{{x, y}}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = verify.NewComposition(context.Background(), a, 3, verify.CompositionOptions{})
	want := "invalid model: from x the run never ends with probability 1/2; runs that may not end cannot be composed"
	if !errors.Is(err, verify.ErrModel) || err.Error() != want {
		t.Errorf("NewComposition: %v, want %q", err, want)
	}
}

func mustCmp(t *testing.T, x, y exact.Real) int {
	t.Helper()
	c, err := x.Cmp(y)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCompositionStops: every computation of a composition stops with
// its context's error.
func TestCompositionStops(t *testing.T) {
	geo := analyze(t, mustMech(t)(builder.TruncatedGeometric(r("1/2"), 5)), verify.FinalState())
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := verify.NewComposition(cancelled, geo, 1000, verify.CompositionOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("NewComposition: %v, want context.Canceled", err)
	}
	c, err := verify.NewComposition(context.Background(), geo, 1000, verify.CompositionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.TightDelta(cancelled, ln("2")); !errors.Is(err, context.Canceled) {
		t.Errorf("TightDelta: %v, want context.Canceled", err)
	}
	if _, err := c.Profile(cancelled); !errors.Is(err, context.Canceled) {
		t.Errorf("Profile: %v, want context.Canceled", err)
	}
	// A cancelled computation is not remembered: the next one completes.
	d, err := c.TightDelta(context.Background(), ln("2"))
	if err != nil || d.LossValues != 1001 {
		t.Errorf("TightDelta after a cancelled one: %v, %d loss values", err, d.LossValues)
	}
	if _, err := pairPLD(t, geo, "s0", "s1").Compose(cancelled, 1000, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("Compose: %v, want context.Canceled", err)
	}
}
