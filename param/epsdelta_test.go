package param

import (
	"math/big"
	"math/rand"
	"strconv"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/poly"
)

// TestTightEpsilonAtInstances: at random rational α the tight ε at δ(α)
// for every α is verify's tight ε of the chain instantiated there, exactly
// (e^ε compared as rationals, +∞ as +∞), on chains with and without
// outputs one input never reaches, for constant δ and δ depending on α.
func TestTightEpsilonAtInstances(t *testing.T) {
	must := func(pc *Chain, err error) *Analysis {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return mustAnalyze(t, pc)
	}
	models := map[string]*Analysis{
		"geometric 5":       geometric(t, 5),
		"survey theta2":     must(SurveyTheta2(ctx, poly.Limits{}, r(1, 3))),
		"cutoff 3 of 0..5":  must(CutoffDecision(ctx, poly.Limits{}, 3, 0, 5)),
		"above threshold q": must(AboveThresholdQ(ctx, poly.Limits{}, r(1, 4), 2, 2, builder.AtLeast)),
	}
	deltas := map[string]poly.RatFunc{
		"0":         {},
		"1/10":      rf(t, []int64{1}, []int64{10}),
		"1/4":       rf(t, []int64{1}, []int64{4}),
		"1 - alpha": rf(t, []int64{1, -1}, []int64{1}),
		"alpha/2":   rf(t, []int64{0, 1}, []int64{2}),
	}
	rng := rand.New(rand.NewSource(7))
	for name, a := range models {
		for dname, d := range deltas {
			res, err := a.TightEpsilonAt(ctx, d)
			if err != nil {
				t.Fatalf("%s at δ = %s: %v", name, dname, err)
			}
			if d.Num().IsZero() {
				want, err := a.TightEpsilon(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if res.String() != want.String() {
					t.Errorf("%s at δ = 0: %s, TightEpsilon %s", name, res, want)
				}
			}
			infs := 0
			for range 12 {
				den := int64(2 + rng.Intn(40))
				x := r(1+rng.Int63n(den-1), den)
				an, err := a.Instance(ctx, x)
				if err != nil {
					t.Fatal(err)
				}
				dv, err := d.Eval(x)
				if err != nil {
					t.Fatal(err)
				}
				te, err := an.TightEpsilon(ctx, dv)
				if err != nil {
					t.Fatal(err)
				}
				pe, err := res.Eps(x)
				if err != nil {
					t.Fatal(err)
				}
				if te.Eps.IsInf() || pe.IsInf() {
					if te.Eps.IsInf() != pe.IsInf() {
						t.Fatalf("%s at δ = %s, α = %s: %s, verify %s (pieces %s)", name, dname, x.RatString(), pe, te.Eps, res)
					}
					infs++
					continue
				}
				c1, ok1 := te.Eps.C()
				c2, ok2 := pe.C()
				if !ok1 || !ok2 || c1.Cmp(c2) != 0 {
					t.Fatalf("%s at δ = %s, α = %s: %s, verify %s (pieces %s)", name, dname, x.RatString(), pe, te.Eps, res)
				}
			}
			if name == "cutoff 3 of 0..5" && dname == "0" && infs != 12 {
				t.Errorf("cutoff at δ = 0: %d of 12 points infinite, want all", infs)
			}
		}
	}
}

// TestTightEpsilonAtByHand: randomized response with θ1 = θ, θ2 = 1/2 has
// Pr(Y|+) = (1+θ)/2 and Pr(Y|−) = (1−θ)/2; at δ = 1/4 the event {Y} gives
// e^ε = (θ + 1/2)/(1 − θ), at least 1 from θ = 1/4 on, and the event of
// both answers (1 − 1/4)/1 < 1.
func TestTightEpsilonAtByHand(t *testing.T) {
	pc, err := SurveyTheta1(ctx, poly.Limits{}, r(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	res, err := mustAnalyze(t, pc).TightEpsilonAt(ctx, rf(t, []int64{1}, []int64{4}))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res.String(), "ln(1) for theta1 in (0, 1/4]; ln((theta1 + 1/2)/(1 − theta1)) for theta1 in (1/4, 1)"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	for _, c := range []struct {
		x, c *big.Rat
	}{{r(1, 8), r(1, 1)}, {r(1, 4), r(1, 1)}, {r(1, 2), r(2, 1)}, {r(3, 4), r(5, 1)}} {
		e, err := res.Eps(c.x)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := e.C(); !ok || got.Cmp(c.c) != 0 {
			t.Errorf("at θ = %s: e^ε = %v, want %s", c.x.RatString(), got, c.c.RatString())
		}
	}
}

// BenchmarkTightEpsilonAt: the tight ε at δ = 1/10 for every α of the
// geometric mechanism over {0..n}.
func BenchmarkTightEpsilonAt(b *testing.B) {
	for _, n := range []int{5, 20, 50} {
		b.Run("n="+strconv.Itoa(n), func(b *testing.B) {
			pc, err := TruncatedGeometric(ctx, poly.Limits{}, n)
			if err != nil {
				b.Fatal(err)
			}
			a, err := Analyze(ctx, pc)
			if err != nil {
				b.Fatal(err)
			}
			d, err := poly.Limits{}.RatFunc(ctx, poly.FromInts(1), poly.FromInts(10))
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := a.TightEpsilonAt(ctx, d); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestTightEpsilonAtClosedEnd: the cutoff decision at δ = 1/2 needs an
// infinite ε below α = 1/2 (the "no" that count 2 gives and count 3 never
// does weighs more than 1/2 there) and none from 1/2 on; on [1/4, 1/2] the
// closed end 1/2 is a finite point of its own.
func TestTightEpsilonAtClosedEnd(t *testing.T) {
	pc, err := CutoffDecision(ctx, poly.Limits{}, 3, 0, 5)
	if err != nil {
		t.Fatal(err)
	}
	half := rf(t, []int64{1}, []int64{2})
	for _, c := range []struct {
		in   poly.Interval
		want string
	}{
		{poly.Open(r(0, 1), r(1, 1)), "∞ for alpha in (0, 1/2); ln(1) for alpha in [1/2, 1)"},
		{poly.Closed(r(1, 4), r(1, 2)), "∞ for alpha in [1/4, 1/2); ln(1) for alpha in [1/2, 1/2]"},
		{poly.Closed(r(1, 2), r(3, 4)), "ln(1) for alpha in [1/2, 3/4]"},
	} {
		q, err := New(ctx, poly.Limits{}, pc.Frame, "alpha", c.in, pc.Rows, pc.Neighbours)
		if err != nil {
			t.Fatal(err)
		}
		res, err := mustAnalyze(t, q).TightEpsilonAt(ctx, half)
		if err != nil {
			t.Fatal(err)
		}
		if got := res.String(); got != c.want {
			t.Errorf("on %s: %s, want %s", c.in, got, c.want)
		}
		// 1/2 itself needs no ε; just below it, no ε is enough.
		if e, err := res.Eps(r(1, 2)); err != nil || !e.IsZero() {
			t.Errorf("on %s at 1/2: %v, %v; want 0", c.in, e, err)
		}
		if c.in.Lo.Cmp(r(1, 2)) < 0 {
			if e, err := res.Eps(r(49, 100)); err != nil || !e.IsInf() {
				t.Errorf("on %s at 49/100: %v, %v; want ∞", c.in, e, err)
			}
		}
	}
}
