package param

import (
	"context"
	"errors"
	"math/big"
	"math/rand"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/poly"
	"github.com/google/go-cmp/cmp"
)

var ctx = context.Background()

func r(a, b int64) *big.Rat { return big.NewRat(a, b) }

// rf returns num/den with integer coefficients (ascending).
func rf(t *testing.T, num, den []int64) poly.RatFunc {
	t.Helper()
	f, err := poly.Limits{}.RatFunc(ctx, poly.FromInts(num...), poly.FromInts(den...))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func konst(t *testing.T, k int64) poly.RatFunc { return rf(t, []int64{k}, []int64{1}) }

// sameChain fails unless a and b have the same states (names, valuations,
// labels, inputs) and exactly the same rows.
func sameChain(t *testing.T, a, b *chain.Chain) {
	t.Helper()
	if a.NumStates() != b.NumStates() {
		t.Fatalf("%d states, want %d", a.NumStates(), b.NumStates())
	}
	for s := range a.NumStates() {
		if a.Name(s) != b.Name(s) || a.Valuation(s).String() != b.Valuation(s).String() ||
			strings.Join(a.Labels(s), ",") != strings.Join(b.Labels(s), ",") || a.IsInput(s) != b.IsInput(s) {
			t.Fatalf("state %d: %s %s %v %v, want %s %s %v %v", s, a.Name(s), a.Valuation(s), a.Labels(s), a.IsInput(s),
				b.Name(s), b.Valuation(s), b.Labels(s), b.IsInput(s))
		}
		at, ap := a.Row(s)
		bt, bp := b.Row(s)
		if len(at) != len(bt) {
			t.Fatalf("state %s: %d transitions, want %d", a.Name(s), len(at), len(bt))
		}
		for i := range at {
			if at[i] != bt[i] || ap[i].Cmp(bp[i]) != 0 {
				t.Fatalf("state %s: transition %d to %d with %s, want to %d with %s", a.Name(s), i, at[i], ap[i].RatString(), bt[i], bp[i].RatString())
			}
		}
	}
}

func samePairs(t *testing.T, a, b [][2]int) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("neighbours %v, want %v", a, b)
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("neighbours %v, want %v", a, b)
		}
	}
}

func TestGeometricInstances(t *testing.T) {
	for _, n := range []int{1, 3, 5} {
		pc, err := TruncatedGeometric(ctx, poly.Limits{}, n)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range []*big.Rat{r(1, 2), r(1, 3), r(2, 7), r(9, 10), r(1, 1000)} {
			ch, err := pc.Instantiate(a)
			if err != nil {
				t.Fatal(err)
			}
			m, err := builder.TruncatedGeometric(a, n)
			if err != nil {
				t.Fatal(err)
			}
			sameChain(t, ch, m.Chain)
			samePairs(t, pc.Neighbours, m.Neighbours)
		}
	}
}

func TestSurveyInstances(t *testing.T) {
	for _, t2 := range []*big.Rat{r(1, 2), r(1, 3)} {
		pc, err := SurveyTheta1(ctx, poly.Limits{}, t2)
		if err != nil {
			t.Fatal(err)
		}
		for _, t1 := range []*big.Rat{r(1, 2), r(1, 3), r(3, 4)} {
			ch, err := pc.Instantiate(t1)
			if err != nil {
				t.Fatal(err)
			}
			m, err := builder.Survey(t1, t2)
			if err != nil {
				t.Fatal(err)
			}
			sameChain(t, ch, m.Chain)
			samePairs(t, pc.Neighbours, m.Neighbours)
			pc2, err := SurveyTheta2(ctx, poly.Limits{}, t1)
			if err != nil {
				t.Fatal(err)
			}
			ch2, err := pc2.Instantiate(t2)
			if err != nil {
				t.Fatal(err)
			}
			sameChain(t, ch2, m.Chain)
		}
	}
}

func mustAnalyze(t *testing.T, pc *Chain) *Analysis {
	t.Helper()
	a, err := Analyze(ctx, pc)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func geometric(t *testing.T, n int) *Analysis {
	t.Helper()
	pc, err := TruncatedGeometric(ctx, poly.Limits{}, n)
	if err != nil {
		t.Fatal(err)
	}
	return mustAnalyze(t, pc)
}

func TestGeometricEveryAlpha(t *testing.T) {
	invAlpha := rf(t, []int64{1}, []int64{0, 1})
	for _, n := range []int{5, 20} {
		a := geometric(t, n)
		// The output distribution of s0 is its row: t0 gets 1/(1+α).
		d, _ := a.Distribution(0)
		if len(d.Out) != n+1 || a.OutputName(d.Out[0]) != "t0" || !d.P[0].Equal(rf(t, []int64{1}, []int64{1, 1})) {
			t.Fatalf("n=%d: distribution of s0 %v", n, d.P)
		}
		res, err := a.DP(ctx, invAlpha, poly.RatFunc{})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Holds || res.Region.String() != "(0, 1)" || res.Instance != nil {
			t.Fatalf("n=%d: (−ln α)-DP: holds %v on %s", n, res.Holds, res.Region)
		}
		eps, err := a.TightEpsilon(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(eps.R.Pieces) != 1 || !eps.R.Pieces[0].F.Equal(invAlpha) || eps.R.Pieces[0].Inf {
			t.Fatalf("n=%d: tight ε %s, want ln(1/α) on the whole interval", n, eps)
		}
		if got := eps.String(); got != "ln(1/alpha) for alpha in (0, 1)" {
			t.Fatalf("n=%d: %s", n, got)
		}
		// dp(ln 3, 0) holds exactly for α ≥ 1/3.
		res, err = a.DP(ctx, konst(t, 3), poly.RatFunc{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Holds || res.Region.String() != "[1/3, 1)" {
			t.Fatalf("n=%d: dp(ln 3, 0): holds %v on %s, want [1/3, 1)", n, res.Holds, res.Region)
		}
		dec, err := res.Region.Decimal(ctx, 4)
		if err != nil || dec != "[0.3333, 1.0000)" {
			t.Fatalf("n=%d: decimal region %q %v", n, dec, err)
		}
		if !res.Witness.IsRational() || res.Witness.Rat().Cmp(r(1, 4)) != 0 {
			t.Fatalf("n=%d: witness %s, want 1/4", n, res.Witness)
		}
		if res.Instance == nil || res.Instance.Holds || res.Instance.Counterexample == nil {
			t.Fatalf("n=%d: no violated instance at 1/4: %+v", n, res.Instance)
		}
		// At α = 1/4 the worst output ratio is 4 = 1/α.
		ce := res.Instance.Counterexample
		if new(big.Rat).Quo(ce.WorstFrom, ce.WorstTo).Cmp(r(4, 1)) != 0 {
			t.Fatalf("n=%d: worst output %s: %s / %s", n, ce.WorstOutput, ce.WorstFrom.RatString(), ce.WorstTo.RatString())
		}
	}
}

func TestSurveyTightEps(t *testing.T) {
	// θ2 = 1/2: Pr(Y|+) = (1+θ1)/2, Pr(Y|−) = (1−θ1)/2, so ε = ln((1+θ1)/(1−θ1)).
	pc, err := SurveyTheta1(ctx, poly.Limits{}, r(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	a := mustAnalyze(t, pc)
	eps, err := a.TightEpsilon(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := rf(t, []int64{1, 1}, []int64{1, -1})
	if len(eps.R.Pieces) != 1 || !eps.R.Pieces[0].F.Equal(want) {
		t.Fatalf("tight ε %s, want ln((1+θ1)/(1−θ1))", eps)
	}
	e, err := eps.Eps(r(1, 2))
	if c, ok := e.C(); err != nil || !ok || c.Cmp(r(3, 1)) != 0 {
		t.Fatalf("ε at θ1 = 1/2: %s %v, want ln 3", e, err)
	}
	// θ2 = 1/3: ratios (1+2θ1)/(1−θ1) for Y and (2+θ1)/(2−2θ1) for N; Y's is larger.
	pc, err = SurveyTheta1(ctx, poly.Limits{}, r(1, 3))
	if err != nil {
		t.Fatal(err)
	}
	eps, err = mustAnalyze(t, pc).TightEpsilon(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(eps.R.Pieces) != 1 || !eps.R.Pieces[0].F.Equal(rf(t, []int64{1, 2}, []int64{1, -1})) {
		t.Fatalf("θ2 = 1/3: tight ε %s", eps)
	}
}

func TestSurveyTheta2Pieces(t *testing.T) {
	// θ1 = 1/2: ratios (1+θ2)/θ2 (output Y) and (2−θ2)/(1−θ2) (output N)
	// cross at θ2 = 1/2; Y's is larger below.
	pc, err := SurveyTheta2(ctx, poly.Limits{}, r(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	a := mustAnalyze(t, pc)
	eps, err := a.TightEpsilon(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ps := eps.R.Pieces
	if len(ps) != 2 || !ps[0].F.Equal(rf(t, []int64{1, 1}, []int64{0, 1})) || !ps[1].F.Equal(rf(t, []int64{2, -1}, []int64{1, -1})) {
		t.Fatalf("tight ε %s", eps)
	}
	if ps[0].Format("θ") != "(0, 1/2]" || ps[1].Format("θ") != "(1/2, 1)" {
		t.Fatalf("pieces %s and %s", ps[0].Format("θ"), ps[1].Format("θ"))
	}
}

func TestSurveyTightDelta(t *testing.T) {
	pc, err := SurveyTheta1(ctx, poly.Limits{}, r(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	a := mustAnalyze(t, pc)
	// c = 1: δ = Pr(Y|+) − Pr(Y|−) = θ1.
	d, err := a.TightDelta(ctx, konst(t, 1))
	if err != nil {
		t.Fatal(err)
	}
	if ps := d.Delta.Pieces; len(ps) != 1 || !ps[0].F.Equal(rf(t, []int64{0, 1}, []int64{1})) {
		t.Fatalf("δ at ε = 0: %s", d)
	}
	// c = 2: (1+θ1)/2 − (1−θ1) = (3θ1 − 1)/2 above θ1 = 1/3, 0 below.
	d, err = a.TightDelta(ctx, konst(t, 2))
	if err != nil {
		t.Fatal(err)
	}
	ps := d.Delta.Pieces
	if len(ps) != 2 || !ps[0].F.Num().IsZero() || !ps[1].F.Equal(rf(t, []int64{-1, 3}, []int64{2})) ||
		ps[0].Format("θ") != "(0, 1/3]" || ps[1].Format("θ") != "(1/3, 1)" {
		t.Fatalf("δ at ε = ln 2: %s", d)
	}
	// dp(ln 2, δ = 1/5) holds exactly where (3θ1 − 1)/2 ≤ 1/5: θ1 ≤ 7/15.
	res, err := a.DP(ctx, konst(t, 2), rf(t, []int64{1}, []int64{5}))
	if err != nil {
		t.Fatal(err)
	}
	if res.Holds || res.Region.String() != "(0, 7/15]" || res.Witness.Rat().Cmp(r(1, 2)) != 0 {
		t.Fatalf("dp(ln 2, 1/5): %v on %s, witness %s", res.Holds, res.Region, res.Witness)
	}
	if res.Instance == nil || res.Instance.Holds {
		t.Fatalf("instance at 1/2 not violated")
	}
}

// retry is a cyclic chain: from input i, Y with α, else to m; m returns to
// i or goes to N with 1/2 each. Pr(Y | i) = 2α/(1+α). Input j goes to Y
// and N with 1/2 each.
func retry(t *testing.T, extra int) *Chain {
	t.Helper()
	names := []string{"i", "j", "Y", "N", "m"}
	for k := range extra {
		names = append(names, "x"+string(rune('a'+k%26))+string(rune('a'+k/26)))
	}
	frame, err := Frame(names, nil, nil, []int{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	half := rf(t, []int64{1}, []int64{2})
	rows := make([][]Trans, len(names))
	rows[0] = []Trans{{To: 2, P: rf(t, []int64{0, 1}, []int64{1})}, {To: 4, P: rf(t, []int64{1, -1}, []int64{1})}}
	rows[1] = []Trans{{To: 2, P: half}, {To: 3, P: half}}
	if extra == 0 {
		rows[4] = []Trans{{To: 0, P: half}, {To: 3, P: half}}
	} else { // m walks through the extra states before returning
		rows[4] = []Trans{{To: 5, P: half}, {To: 3, P: half}}
		for k := range extra {
			next := 6 + k
			if k == extra-1 {
				next = 0
			}
			rows[5+k] = []Trans{{To: next, P: konst(t, 1)}}
		}
	}
	pc, err := New(ctx, poly.Limits{}, frame, "α", poly.Open(new(big.Rat), r(1, 1)), rows, [][2]int{{0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	return pc
}

func TestCyclic(t *testing.T) {
	pc := retry(t, 0)
	a := mustAnalyze(t, pc)
	d, _ := a.Distribution(0)
	if len(d.Out) != 2 || a.OutputName(d.Out[0]) != "Y" || a.OutputName(d.Out[1]) != "N" || !d.P[0].Equal(rf(t, []int64{0, 2}, []int64{1, 1})) || !d.P[1].Equal(rf(t, []int64{1, -1}, []int64{1, 1})) {
		t.Fatalf("distribution of i: %v %v", d.Out, d.P)
	}
	// Ratios: 4α/(1+α) (Y, i over j) and its inverse (1+α)/(4α),
	// 2(1−α)/(1+α) (N) and its inverse (1+α)/(2(1−α)). The inverses cross
	// where 4α = 2 − 2α: α = 1/3.
	eps, err := a.TightEpsilon(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ps := eps.R.Pieces
	if len(ps) != 2 || !ps[0].F.Equal(rf(t, []int64{1, 1}, []int64{0, 4})) || !ps[1].F.Equal(rf(t, []int64{1, 1}, []int64{2, -2})) ||
		ps[0].Format("α") != "(0, 1/3]" || ps[1].Format("α") != "(1/3, 1)" {
		t.Fatalf("tight ε %s", eps)
	}
	// c = 2, pair (j, i): Y exceeds by (1−7α)/(2(1+α)) below 1/7, N by
	// (5α−3)/(2(1+α)) above 3/5; the pair (i, j) never exceeds.
	dl, err := a.TightDelta(ctx, konst(t, 2))
	if err != nil {
		t.Fatal(err)
	}
	ps = dl.Delta.Pieces
	if len(ps) != 3 || !ps[0].F.Equal(rf(t, []int64{1, -7}, []int64{2, 2})) || !ps[1].F.Num().IsZero() || !ps[2].F.Equal(rf(t, []int64{-3, 5}, []int64{2, 2})) ||
		ps[0].Format("α") != "(0, 1/7]" || ps[1].Format("α") != "(1/7, 3/5]" || ps[2].Format("α") != "(3/5, 1)" {
		t.Fatalf("tight δ %s", dl)
	}
	res, err := a.DP(ctx, konst(t, 2), poly.RatFunc{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Holds || res.Region.String() != "[1/7, 3/5]" || res.Witness.Rat().Cmp(r(2, 3)) != 0 || res.Instance == nil || res.Instance.Holds {
		t.Fatalf("dp(ln 2, 0): %s, witness %s", res.Region, res.Witness)
	}
	propertyCheck(t, a, konst(t, 2), poly.RatFunc{}, 30)
	propertyCheck(t, a, konst(t, 3), rf(t, []int64{0, 1}, []int64{5}), 30)
	// The same chain with the loop through 3 more states: same distribution.
	d3, _ := mustAnalyze(t, retry(t, 3)).Distribution(0)
	if !d3.P[0].Equal(d.P[0]) {
		t.Fatalf("longer loop: %v", d3.P)
	}
	_, err = Analyze(ctx, retry(t, MaxEliminationStates))
	if !errors.Is(err, poly.ErrLimit) || !strings.Contains(err.Error(), "at most 200") {
		t.Fatalf("elimination limit: %v", err)
	}
}

// propertyCheck compares the parametric verdict of dp(ln c, 0) and the tight
// ε with verify's on instances at random rational points.
func propertyCheck(t *testing.T, a *Analysis, c, delta poly.RatFunc, n int) {
	t.Helper()
	res, err := a.DP(ctx, c, delta)
	if err != nil {
		t.Fatal(err)
	}
	eps, err := a.TightEpsilon(ctx)
	if err != nil {
		t.Fatal(err)
	}
	dl, err := a.TightDelta(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	verdicts := map[bool]int{}
	rng := rand.New(rand.NewSource(1))
	for range n {
		den := int64(2 + rng.Intn(60))
		x := r(1+rng.Int63n(den-1), den)
		an, err := a.Instance(ctx, x)
		if err != nil {
			t.Fatal(err)
		}
		cv, _ := c.Eval(x)
		if cv.Cmp(r(1, 1)) >= 0 {
			e, _ := exact.Ln(cv)
			dv, _ := delta.Eval(x)
			v, err := an.DP(ctx, e, dv)
			if err != nil {
				t.Fatal(err)
			}
			in, err := res.Region.Contains(ctx, poly.Rational(x))
			if err != nil {
				t.Fatal(err)
			}
			if in != v.Holds {
				t.Fatalf("at %s: parametric %v, verify %v", x.RatString(), in, v.Holds)
			}
			verdicts[v.Holds]++
			vd, err := an.TightDelta(ctx, e)
			if err != nil {
				t.Fatal(err)
			}
			p, ok := dl.Delta.At(x)
			if !ok {
				t.Fatalf("at %s: no piece of δ", x.RatString())
			}
			pv, _ := p.F.Eval(x)
			if want, ok := vd.Delta.Rat(); !ok || want.Cmp(pv) != 0 {
				t.Fatalf("at %s: tight δ %s, verify %s", x.RatString(), pv.RatString(), vd.Delta)
			}
		}
		te, err := an.TightEpsilon(ctx, new(big.Rat))
		if err != nil {
			t.Fatal(err)
		}
		pe, err := eps.Eps(x)
		if err != nil {
			t.Fatal(err)
		}
		if te.Eps.IsInf() || pe.IsInf() {
			if te.Eps.IsInf() != pe.IsInf() {
				t.Fatalf("at %s: tight ε %s, verify %s", x.RatString(), pe, te.Eps)
			}
			continue
		}
		c1, ok1 := te.Eps.C()
		c2, ok2 := pe.C()
		if !ok1 || !ok2 || c1.Cmp(c2) != 0 {
			t.Fatalf("at %s: tight ε %s, verify %s", x.RatString(), pe, te.Eps)
		}
	}
	// Where the region is neither empty nor everything, both verdicts must
	// have been met, or the comparison proved little.
	if !res.Holds && !res.Region.IsEmpty() && (verdicts[true] == 0 || verdicts[false] == 0) {
		t.Fatalf("region %s: verdicts met %v", res.Region, verdicts)
	}
}

func TestPropertyGeometric(t *testing.T) {
	a := geometric(t, 5)
	propertyCheck(t, a, konst(t, 3), poly.RatFunc{}, 40)
	propertyCheck(t, a, rf(t, []int64{1}, []int64{0, 1}), poly.RatFunc{}, 20)
	pc, err := SurveyTheta2(ctx, poly.Limits{}, r(1, 3))
	if err != nil {
		t.Fatal(err)
	}
	propertyCheck(t, mustAnalyze(t, pc), konst(t, 5), poly.RatFunc{}, 40)
}

func TestValidation(t *testing.T) {
	frame, err := Frame([]string{"a", "b", "c"}, nil, nil, []int{0})
	if err != nil {
		t.Fatal(err)
	}
	in := poly.Open(new(big.Rat), r(2, 1))
	// 1 − α is ≤ 0 from α = 1 on: the simplest such α is 1.
	rows := [][]Trans{{{To: 1, P: rf(t, []int64{0, 1}, []int64{1})}, {To: 2, P: rf(t, []int64{1, -1}, []int64{1})}}, nil, nil}
	_, err = New(ctx, poly.Limits{}, frame, "α", in, rows, nil)
	if !errors.Is(err, ErrParam) || !strings.Contains(err.Error(), "state a") || !strings.Contains(err.Error(), "to c") || !strings.Contains(err.Error(), "at α = 1 ") {
		t.Fatalf("non-positive probability: %v", err)
	}
	rows = [][]Trans{{{To: 1, P: rf(t, []int64{1}, []int64{2})}, {To: 2, P: rf(t, []int64{0, 1}, []int64{4})}}, nil, nil}
	_, err = New(ctx, poly.Limits{}, frame, "α", in, rows, nil)
	if !errors.Is(err, ErrParam) || !strings.Contains(err.Error(), "sum to") {
		t.Fatalf("row sum: %v", err)
	}
	// c must be positive, δ nonnegative.
	a := geometric(t, 2)
	if _, err := a.DP(ctx, rf(t, []int64{-1, 2}, []int64{1}), poly.RatFunc{}); !errors.Is(err, ErrParam) || !strings.Contains(err.Error(), "e^ε") {
		t.Fatalf("c = 2α − 1: %v", err)
	}
	if _, err := a.DP(ctx, konst(t, 2), konst(t, -1)); !errors.Is(err, ErrParam) {
		t.Fatalf("δ = −1: %v", err)
	}
	if _, err := a.c.Instantiate(r(1, 1)); !errors.Is(err, ErrParam) {
		t.Fatalf("instantiate outside: %v", err)
	}
}

func TestLimitsAndCancel(t *testing.T) {
	if _, err := TruncatedGeometric(ctx, poly.Limits{MaxDegree: 10}, 20); !errors.Is(err, poly.ErrLimit) {
		t.Fatalf("degree limit: %v", err)
	}
	if _, err := TruncatedGeometric(ctx, poly.Limits{}, MaxRange+1); !errors.Is(err, ErrParam) {
		t.Fatalf("range: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := TruncatedGeometric(cctx, poly.Limits{}, 5); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled build: %v", err)
	}
	a := geometric(t, 5)
	if _, err := Analyze(cctx, a.c); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled analysis: %v", err)
	}
	if _, err := a.DP(cctx, konst(t, 3), poly.RatFunc{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled DP: %v", err)
	}
	if _, err := a.TightEpsilon(cctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled tight ε: %v", err)
	}
	if _, err := a.TightDelta(cctx, konst(t, 3)); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled tight δ: %v", err)
	}
	if _, err := Analyze(cctx, retry(t, 2)); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled elimination: %v", err)
	}
}

func TestIrrationalRegion(t *testing.T) {
	pc, err := SurveyTheta1(ctx, poly.Limits{}, r(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	a := mustAnalyze(t, pc)
	// dp(ln 2, θ1²/2): the excess (3θ1 − 1)/2 ≤ θ1²/2 ⟺ θ1² − 3θ1 + 1 ≥ 0
	// ⟺ θ1 ≤ (3 − √5)/2 ≈ 0.381966 on (0, 1).
	res, err := a.DP(ctx, konst(t, 2), rf(t, []int64{0, 0, 1}, []int64{2}))
	if err != nil {
		t.Fatal(err)
	}
	parts := res.Region.Parts()
	if res.Holds || len(parts) != 1 || parts[0].Hi.IsRational() || !parts[0].Hi.Defining().Equal(poly.FromInts(-1, 3, -1)) || parts[0].HiOpen ||
		res.Region.Format("θ1") != "(0, (3 − √5)/2]" {
		t.Fatalf("region %s", res.Region)
	}
	dec, err := res.Region.Decimal(ctx, 5)
	if err != nil || dec != "(0.00000, 0.38197]" {
		t.Fatalf("decimal %q %v", dec, err)
	}
	if res.Witness.Rat().Cmp(r(1, 2)) != 0 || res.Instance == nil || res.Instance.Holds {
		t.Fatalf("witness %s", res.Witness)
	}
	// At θ1 = 1/2, c = 2, δ = 1/8: Pr(Y|+) − 2·Pr(Y|−) = 3/4 − 1/2 = 1/4.
	if ex, ok := res.Instance.Counterexample.Excess.Rat(); !ok || ex.Cmp(r(1, 8)) != 0 {
		t.Fatalf("excess %v", res.Instance.Counterexample.Excess)
	}
}

func TestCutoffDecision(t *testing.T) {
	pc, err := CutoffDecision(ctx, poly.Limits{}, 3, 0, 5)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []*big.Rat{r(1, 2), r(1, 3), r(9, 10)} {
		ch, err := pc.Instantiate(x)
		if err != nil {
			t.Fatal(err)
		}
		m, err := builder.CutoffDecision(x, 3, 0, 5)
		if err != nil {
			t.Fatal(err)
		}
		sameChain(t, ch, m.Chain)
		samePairs(t, pc.Neighbours, m.Neighbours)
	}
	a := mustAnalyze(t, pc)
	inv := rf(t, []int64{1}, []int64{0, 1})
	oneMinus := rf(t, []int64{1, -1}, []int64{1})
	// The seed's claim: (ε, 1 − e^−ε)-DP with α = e^−ε, for every α.
	res, err := a.DP(ctx, inv, oneMinus)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Holds {
		t.Fatalf("(−ln α, 1 − α)-DP holds only on %s", res.Region)
	}
	// And 1 − α is the least δ: from n2 "no" has 1 − α, from n3 none.
	d, err := a.TightDelta(ctx, inv)
	if err != nil {
		t.Fatal(err)
	}
	if ps := d.Delta.Pieces; len(ps) != 1 || !ps[0].F.Equal(oneMinus) {
		t.Fatalf("tight δ %s", d)
	}
	// At δ = 0 it fails everywhere, and no finite ε works.
	res, err = a.DP(ctx, inv, poly.RatFunc{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Holds || !res.Region.IsEmpty() || res.Witness.Rat().Cmp(r(1, 2)) != 0 || res.Instance == nil || res.Instance.Holds {
		t.Fatalf("δ = 0: region %s, witness %s", res.Region, res.Witness)
	}
	eps, err := a.TightEpsilon(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if ps := eps.R.Pieces; len(ps) != 1 || !ps[0].Inf || eps.String() != "∞ for alpha in (0, 1)" {
		t.Fatalf("tight ε %s", eps)
	}
	propertyCheck(t, a, konst(t, 4), poly.RatFunc{}, 20)
	propertyCheck(t, a, konst(t, 2), rf(t, []int64{1}, []int64{2}), 30)
	propertyCheck(t, a, inv, rf(t, []int64{0, 1}, []int64{2}), 30)
}

func TestFinalVar(t *testing.T) {
	// y1 and y2 both have out=1, n has out=0. Input a: y1 α/2, y2 (1−α)/2,
	// n 1/2; input b: y1 1/4, y2 1/4, n 1/2. Observing out, both inputs give
	// out=1 and out=0 with 1/2 each: ε = 0 for every α. Observing states,
	// the largest ratio is max(2α, 1/(2α), 2(1−α), 1/(2(1−α))): 1/(2α) up to
	// 1/2 (1/(2α) ≥ 2(1−α) ⟺ 1 ≥ 4α(1−α)) and 1/(2(1−α)) above.
	frame, err := Frame([]string{"a", "b", "y1", "y2", "n"},
		[]chain.Valuation{nil, nil, {{Name: "out", Value: 1}}, {{Name: "out", Value: 1}}, {{Name: "out", Value: 0}}}, nil, []int{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	half, quarter := rf(t, []int64{1}, []int64{2}), rf(t, []int64{1}, []int64{4})
	rows := [][]Trans{
		{{To: 2, P: rf(t, []int64{0, 1}, []int64{2})}, {To: 3, P: rf(t, []int64{1, -1}, []int64{2})}, {To: 4, P: half}},
		{{To: 2, P: quarter}, {To: 3, P: quarter}, {To: 4, P: half}},
		nil, nil, nil,
	}
	pc, err := New(ctx, poly.Limits{}, frame, "α", poly.Open(new(big.Rat), r(1, 1)), rows, [][2]int{{0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	av, err := AnalyzeVar(ctx, pc, "out")
	if err != nil {
		t.Fatal(err)
	}
	d, _ := av.Distribution(0)
	if len(d.Out) != 2 || av.OutputName(d.Out[0]) != "out=1" || !d.P[0].Equal(half) || !d.P[1].Equal(half) {
		t.Fatalf("observing out: %v %v", d.Out, d.P)
	}
	eps, err := av.TightEpsilon(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if ps := eps.R.Pieces; len(ps) != 1 || !ps[0].F.Equal(konst(t, 1)) {
		t.Fatalf("observing out: tight ε %s, want ln 1", eps)
	}
	propertyCheck(t, av, konst(t, 1), poly.RatFunc{}, 20)
	as := mustAnalyze(t, pc)
	eps, err = as.TightEpsilon(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ps := eps.R.Pieces
	if len(ps) != 2 || !ps[0].F.Equal(rf(t, []int64{1}, []int64{0, 2})) || !ps[1].F.Equal(rf(t, []int64{1}, []int64{2, -2})) ||
		ps[0].Format("α") != "(0, 1/2]" || ps[1].Format("α") != "(1/2, 1)" {
		t.Fatalf("observing states: tight ε %s", eps)
	}
	propertyCheck(t, as, konst(t, 3), poly.RatFunc{}, 30)
}

// TestEnvelopeManyCandidates: input a spreads 1/300 over 300 outputs, b
// gives output k (1 + (2k − 299)α/2000)/300: 600 distinct ratios over both
// directions (more than the envelope once handled). The largest is a over
// b at k = 0, 2000/(2000 − 299α), on all of (0, 1): it exceeds b over a at
// k = 299, (2000 + 299α)/2000, since their product's denominator
// 2000² − (299α)² is below 2000².
func TestEnvelopeManyCandidates(t *testing.T) {
	const m = 300
	names := []string{"a", "b"}
	for k := range m {
		names = append(names, "o"+strings.Repeat("x", k))
	}
	frame, err := Frame(names, nil, nil, []int{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	rows := make([][]Trans, len(names))
	for k := range m {
		rows[0] = append(rows[0], Trans{To: 2 + k, P: rf(t, []int64{1}, []int64{m})})
		rows[1] = append(rows[1], Trans{To: 2 + k, P: rf(t, []int64{2000, int64(2*k - 299)}, []int64{2000 * m})})
	}
	pc, err := New(ctx, poly.Limits{}, frame, "α", poly.Open(new(big.Rat), r(1, 1)), rows, [][2]int{{0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := mustAnalyze(t, pc).TightEpsilon(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := Piecewise{Param: "α", Pieces: []Piece{{Lo: poly.Rational(r(0, 1)), Hi: poly.Rational(r(1, 1)), LoOpen: true, HiOpen: true,
		F: rf(t, []int64{2000}, []int64{2000, -299})}}}
	if d := cmp.Diff(want, got.R, exactCmp); d != "" {
		t.Errorf("tight ε over 600 candidates (-want +got):\n%s", d)
	}
}

// exactCmp compares rational functions and algebraic numbers exactly, for
// go-cmp.
var exactCmp = cmp.Options{
	cmp.Comparer(func(f, g poly.RatFunc) bool { return f.Equal(g) }),
	cmp.Comparer(func(x, y poly.Algebraic) bool {
		c, err := x.Cmp(context.Background(), y)
		return err == nil && c == 0 && x.IsRational() == y.IsRational()
	}),
	cmp.Comparer(func(x, y *big.Rat) bool { return x.Cmp(y) == 0 }),
}

// ruin is gambler's ruin on {0..n}: from k, up with α and down with 1 − α,
// absorbed at 0 ("lose") and n ("win"); inputs 1 and 2 are neighbours.
func ruin(tb testing.TB, n int) *Chain {
	tb.Helper()
	names := []string{"lose", "win"}
	for k := 1; k < n; k++ {
		names = append(names, "k"+strings.Repeat("|", k))
	}
	id := func(k int) int {
		switch k {
		case 0:
			return 0
		case n:
			return 1
		}
		return k + 1
	}
	frame, err := Frame(names, nil, nil, []int{id(1), id(2)})
	if err != nil {
		tb.Fatal(err)
	}
	up := poly.FromPoly(poly.X())
	down := poly.FromPoly(poly.FromInts(1, -1))
	rows := make([][]Trans, len(names))
	for k := 1; k < n; k++ {
		rows[id(k)] = []Trans{{To: id(k - 1), P: down}, {To: id(k + 1), P: up}}
	}
	pc, err := New(ctx, poly.Limits{}, frame, "α", poly.Open(new(big.Rat), r(1, 1)), rows, [][2]int{{id(1), id(2)}})
	if err != nil {
		tb.Fatal(err)
	}
	return pc
}

func TestRuin(t *testing.T) {
	// n = 4, r = (1−α)/α: Pr(win | 1) = 1/(1 + r + r² + r³) =
	// α³/(α³ + α²(1−α) + α(1−α)² + (1−α)³) = α³/(2α² − 2α + 1), and
	// Pr(win | 2) = 1/(1 + r²) = α²/(2α² − 2α + 1) (1/4 and 1/2 at α = 1/2).
	a := mustAnalyze(t, ruin(t, 4))
	for _, c := range []struct {
		state int
		num   []int64
	}{{2, []int64{0, 0, 0, 1}}, {3, []int64{0, 0, 1}}} {
		d, _ := a.Distribution(c.state)
		win := -1
		for i, o := range d.Out {
			if a.OutputName(o) == "win" {
				win = i
			}
		}
		if win < 0 || !d.P[win].Equal(rf(t, c.num, []int64{1, -2, 2})) {
			t.Fatalf("Pr(win | %s) = %v", a.c.Frame.Name(c.state), d.P)
		}
	}
	propertyCheck(t, a, konst(t, 4), poly.RatFunc{}, 20)
}
