package verify_test

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/model"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/verify"
	"github.com/google/go-cmp/cmp"
)

func checker(t *testing.T, m *model.Mechanism) *verify.Checker {
	t.Helper()
	c, err := verify.NewChecker(m.Chain, m.Neighbours)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func holds(t *testing.T, m *verify.Checker, f *verify.Formula) bool {
	t.Helper()
	res, err := m.Check(context.Background(), f)
	if err != nil {
		t.Fatalf("%s: %v", f, err)
	}
	return res.Holds
}

func probs(t *testing.T, m *verify.Checker, path *verify.Formula, states ...int) []*big.Rat {
	t.Helper()
	pr, err := m.Prob(context.Background(), path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []*big.Rat
	for _, s := range states {
		out = append(out, pr[s])
	}
	return out
}

// cycleWithExits: a ↔ b with exits. From a: to b 1/2, to win 1/4, to lose
// 1/4. From b: to a 1/3, to win 1/3, to lose 1/3. By hand,
// x_a = 1/4 + x_b/2 and x_b = 1/3 + x_a/3, so x_a = 1/2 and x_b = 1/2
// for F win. Bounded: F<=1 win from a is 1/4; F<=2 is 1/4 + 1/2·1/3 = 5/12.
func cycleWithExits(t *testing.T) (*model.Mechanism, map[string]int) {
	b := chain.NewBuilder()
	ids := map[string]int{}
	for _, n := range []string{"a", "b", "win", "lose"} {
		labels := []string{}
		if n == "win" || n == "lose" {
			labels = append(labels, n)
		}
		ids[n] = b.AddState(n, nil, labels...)
	}
	b.AddTransition(ids["a"], ids["b"], r("1/2"))
	b.AddTransition(ids["a"], ids["win"], r("1/4"))
	b.AddTransition(ids["a"], ids["lose"], r("1/4"))
	b.AddTransition(ids["b"], ids["a"], r("1/3"))
	b.AddTransition(ids["b"], ids["win"], r("1/3"))
	b.AddTransition(ids["b"], ids["lose"], r("1/3"))
	b.MarkInput(ids["a"])
	b.MarkInput(ids["b"])
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return &model.Mechanism{Chain: c, Neighbours: [][2]int{{ids["a"], ids["b"]}}}, ids
}

func TestUntilLinearSolve(t *testing.T) {
	m, id := cycleWithExits(t)
	c := checker(t, m)
	win := verify.Label("win")
	for _, tc := range []struct {
		path *verify.Formula
		want []string // from a, b
	}{
		{verify.Eventually(win, -1), []string{"1/2", "1/2"}},
		{verify.Eventually(win, 0), []string{"0", "0"}},
		{verify.Eventually(win, 1), []string{"1/4", "1/3"}},
		{verify.Eventually(win, 2), []string{"5/12", "5/12"}}, // a: 1/4 + 1/2·1/3; b: 1/3 + 1/3·1/4
		{verify.Next(1, win), []string{"1/4", "1/3"}},
		{verify.Next(2, win), []string{"5/12", "5/12"}}, // win is absorbing
		{verify.Globally(verify.Not(win), -1), []string{"1/2", "1/2"}},
		{verify.Until(verify.Not(verify.Label("lose")), win, -1), []string{"1/2", "1/2"}},
		// a U win where only a satisfies the left side: from a, 1/4 directly.
		{verify.Until(verify.Atom("at a", func(s int) (bool, error) { return s == id["a"], nil }), win, -1), []string{"1/4", "0"}},
	} {
		var want []*big.Rat
		for _, w := range tc.want {
			want = append(want, r(w))
		}
		if diff := cmp.Diff(want, probs(t, c, tc.path, id["a"], id["b"]), ratCmp); diff != "" {
			t.Errorf("Pr(%s) from a, b (-want +got):\n%s", tc.path, diff)
		}
	}
}

func TestGamblersRuinUntil(t *testing.T) {
	// x_i = (2^i - 1)/15, computed by the linear solver on the cycle 1..3.
	m := gamblersRuin(t)
	c := checker(t, m)
	four := verify.Atom("x = 4", func(s int) (bool, error) { v, _ := m.Chain.Value(s, "x"); return v == 4, nil })
	var states []int
	for _, n := range []string{"1", "2", "3"} {
		s, _ := m.Chain.Lookup(n)
		states = append(states, s)
	}
	if diff := cmp.Diff([]*big.Rat{r("1/15"), r("3/15"), r("7/15")}, probs(t, c, verify.Eventually(four, -1), states...), ratCmp); diff != "" {
		t.Errorf("Pr(F x=4) (-want +got):\n%s", diff)
	}
}

// TestBoundedOverPathFormulas: the bounded operators take path formulas
// (here X) as operands. Gambler's ruin, up 1/3, down 2/3, from x = 1, 2, 3;
// values by hand, e.g. F<=3 (x >= 2 & X x=4) from 2 is winning within four
// steps: 1/9 + 2/81 + 2/81 = 13/81.
func TestBoundedOverPathFormulas(t *testing.T) {
	m := gamblersRuin(t)
	c := checker(t, m)
	xAtLeast := func(k int64) *verify.Formula {
		return verify.Atom(fmt.Sprintf("x >= %d", k), func(s int) (bool, error) { v, _ := m.Chain.Value(s, "x"); return v >= k, nil })
	}
	win := verify.Next(1, verify.Atom("x = 4", func(s int) (bool, error) { v, _ := m.Chain.Value(s, "x"); return v == 4, nil }))
	var states []int
	for _, n := range []string{"1", "2", "3"} {
		s, _ := m.Chain.Lookup(n)
		states = append(states, s)
	}
	for _, tc := range []struct {
		path *verify.Formula
		want []string
	}{
		{verify.Eventually(win, 1), []string{"0", "1/9", "1/3"}},
		{verify.Eventually(verify.And(xAtLeast(2), win), 3), []string{"1/27", "13/81", "11/27"}},
		{verify.Until(xAtLeast(1), win, 2), []string{"1/27", "1/9", "11/27"}},
		{verify.Next(1, verify.And(xAtLeast(2), verify.Eventually(win, 1))), []string{"1/27", "1/9", "11/27"}},
		{verify.Globally(verify.Not(win), 1), []string{"1", "8/9", "2/3"}},
	} {
		var want []*big.Rat
		for _, w := range tc.want {
			want = append(want, r(w))
		}
		if diff := cmp.Diff(want, probs(t, c, tc.path, states...), ratCmp); diff != "" {
			t.Errorf("Pr(%s) from 1, 2, 3 (-want +got):\n%s", tc.path, diff)
		}
	}
}

// TestLabelNamedLikeConstant: a label called "true" is not the constant
// true, whichever is computed first.
func TestLabelNamedLikeConstant(t *testing.T) {
	b := chain.NewBuilder()
	s := b.AddState("s", nil)
	yes := b.AddState("yes", nil, "true")
	no := b.AddState("no", nil)
	b.AddTransition(s, yes, r("1/2"))
	b.AddTransition(s, no, r("1/2"))
	b.MarkInput(s)
	b.MarkInput(no)
	ch, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if got := verify.Label("true").String(); got != `"true"` {
		t.Errorf("Label(true) prints as %s", got)
	}
	for _, order := range [][]*verify.Formula{
		{verify.True(), verify.Label("true")},
		{verify.Label("true"), verify.True()},
	} {
		c := checker(t, &model.Mechanism{Chain: ch, Neighbours: [][2]int{{s, no}}})
		got := map[string]*big.Rat{}
		for _, f := range order {
			got[f.String()] = probs(t, c, verify.Next(1, f), s)[0]
		}
		want := map[string]*big.Rat{"true": r("1"), `"true"`: r("1/2")}
		if diff := cmp.Diff(want, got, ratCmp); diff != "" {
			t.Errorf("order %v (-want +got):\n%s", order, diff)
		}
	}
}

func TestSurveyD(t *testing.T) {
	c := checker(t, mustMech(t)(builder.Survey(r("1/2"), r("1/2"))))
	xY := verify.Next(1, verify.Label("out_Y"))
	xN := verify.Next(1, verify.Label("out_N"))
	if !holds(t, c, verify.And(verify.DP(ln("3"), r("0"), xY), verify.DP(ln("3"), r("0"), xN))) {
		t.Error("D{ln 3,0}[X out_Y] & D{ln 3,0}[X out_N] fails")
	}
	if !holds(t, c, verify.DP(exact.Eps{}, r("1/2"), xY)) {
		t.Error("D{0,1/2}[X out_Y] fails")
	}
	if holds(t, c, verify.DP(exact.Eps{}, r("49/100"), xY)) {
		t.Error("D{0,49/100}[X out_Y] holds")
	}
	d, err := c.TightDeltaD(context.Background(), xY, exact.Eps{})
	if err != nil {
		t.Fatal(err)
	}
	if x, _ := d.Delta.Rat(); x.Cmp(r("1/2")) != 0 {
		t.Errorf("tight δ at ε = 0: %s, want 1/2", d.Delta)
	}
	e, err := c.TightEpsilonD(context.Background(), xY, r("0"))
	if err != nil {
		t.Fatal(err)
	}
	if !e.Eps.Equal(ln("3")) || e.From.Name != "+" || e.PrFrom.Cmp(r("3/4")) != 0 {
		t.Errorf("tight ε = %s by %v (%s), want ln(3) by + (3/4)", e.Eps, e.From, e.PrFrom)
	}
	// At δ = 1/4: 3/4 ≤ c·1/4 + 1/4 needs c ≥ 2.
	e, err = c.TightEpsilonD(context.Background(), xY, r("1/4"))
	if err != nil {
		t.Fatal(err)
	}
	if !e.Eps.Equal(ln("2")) || e.From.Name != "+" {
		t.Errorf("tight ε at δ = 1/4 = %s by %v, want ln(2) by +", e.Eps, e.From)
	}
	// A violation explains itself.
	res, err := c.Check(context.Background(), verify.DP(ln("2"), r("0"), xY))
	if err != nil {
		t.Fatal(err)
	}
	cx := res.Counterexample
	if res.Holds || cx == nil || cx.DP == nil {
		t.Fatalf("D{ln 2,0}[X out_Y]: holds %v, counterexample %+v", res.Holds, cx)
	}
	got := fmt.Sprintf("%s %s %s %s %s %s", cx.State.Name, cx.DP.From.Name, cx.DP.To.Name, cx.DP.PrFrom.RatString(), cx.DP.Bound, cx.DP.Excess)
	if want := "+ + - 3/4 1/2 1/4"; got != want {
		t.Errorf("counterexample %q, want %q", got, want)
	}
}

func TestHighAccuracySurveyD(t *testing.T) {
	c := checker(t, mustMech(t)(builder.Survey(r("3/5"), r("1/2"))))
	e, err := c.TightEpsilonD(context.Background(), verify.Next(1, verify.Label("out_Y")), r("0"))
	if err != nil {
		t.Fatal(err)
	}
	if !e.Eps.Equal(ln("4")) {
		t.Errorf("tight ε = %s, want ln(4)", e.Eps)
	}
}

func TestGeometricD(t *testing.T) {
	m := mustMech(t)(builder.TruncatedGeometric(r("1/2"), 5))
	c := checker(t, m)
	var conj []*verify.Formula
	for l := range 6 {
		conj = append(conj, verify.DP(ln("2"), r("0"), verify.Next(1, verify.Label(fmt.Sprintf("out_%d", l)))))
	}
	if !holds(t, c, verify.And(conj...)) {
		t.Error("the conjunction of D{ln 2,0}[X out_l] fails")
	}
	conj[2] = verify.DP(ln("3/2"), r("0"), verify.Next(1, verify.Label("out_2")))
	if holds(t, c, verify.And(conj...)) {
		t.Error("D{ln(3/2),0}[X out_2] holds")
	}
}

// labelledDoubleSurvey is the paper's double survey: the state after the
// first answer carries out_Y or out_N, and so do the final states for the
// second answer. The states after the first answer are inputs too, related
// across + and -, so that a nested D compares them.
func labelledDoubleSurvey(t *testing.T) *model.Mechanism {
	b := chain.NewBuilder()
	yes := map[string]*big.Rat{"+": r("3/4"), "-": r("1/4")}
	id := map[string]int{}
	for _, in := range []string{"+", "-"} {
		id[in] = b.AddState(in, nil)
		for _, a := range []string{"Y", "N"} {
			id[in+a] = b.AddState(in+a, nil, "out_"+a)
			for _, a2 := range []string{"Y", "N"} {
				id[in+a+a2] = b.AddState(in+a+a2, nil, "out_"+a2)
			}
		}
	}
	for _, in := range []string{"+", "-"} {
		py, pn := yes[in], new(big.Rat).Sub(big.NewRat(1, 1), yes[in])
		b.AddTransition(id[in], id[in+"Y"], py)
		b.AddTransition(id[in], id[in+"N"], pn)
		for _, a := range []string{"Y", "N"} {
			b.AddTransition(id[in+a], id[in+a+"Y"], py)
			b.AddTransition(id[in+a], id[in+a+"N"], pn)
		}
		for _, s := range []string{in, in + "Y", in + "N"} {
			b.MarkInput(id[s])
		}
	}
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return &model.Mechanism{Chain: c, Neighbours: [][2]int{{id["+"], id["-"]}, {id["+Y"], id["-Y"]}, {id["+N"], id["-N"]}}}
}

func TestDoubleSurveyD(t *testing.T) {
	c := checker(t, labelledDoubleSurvey(t))
	outY := verify.Label("out_Y")
	twice := verify.Next(1, verify.And(outY, verify.Next(1, outY)))
	if !holds(t, c, verify.DP(ln("9"), r("0"), twice)) {
		t.Error("D{ln 9,0}[X (out_Y & X out_Y)] fails")
	}
	e, err := c.TightEpsilonD(context.Background(), twice, r("0"))
	if err != nil {
		t.Fatal(err)
	}
	if !e.Eps.Equal(ln("9")) || e.PrFrom.Cmp(r("9/16")) != 0 || e.PrTo.Cmp(r("1/16")) != 0 {
		t.Errorf("tight ε %s with %s vs %s, want ln(9) with 9/16 vs 1/16", e.Eps, e.PrFrom, e.PrTo)
	}
	if !holds(t, c, verify.DP(ln("3"), r("0"), verify.Next(2, outY))) {
		t.Error("D{ln 3,0}[X X out_Y] fails: the hidden first answer should cost nothing")
	}
	nested := verify.DP(ln("3"), r("0"), verify.Next(1, verify.And(outY, verify.DP(ln("3"), r("0"), verify.Next(1, outY)))))
	if !holds(t, c, nested) {
		t.Error("D{ln(3),0}[X (out_Y & D{ln(3),0}[X out_Y])] fails")
	}
	if got, want := nested.String(), "D{ln(3),0}[X (out_Y & D{ln(3),0}[X out_Y])]"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func TestUnsupportedFormulas(t *testing.T) {
	m, _ := cycleWithExits(t)
	c := checker(t, m)
	win := verify.Label("win")
	if _, err := c.Check(context.Background(), verify.Next(1, win)); !errors.Is(err, verify.ErrFormula) {
		t.Errorf("Check of a path formula: %v", err)
	}
}

// TestDversusDP is the case of docs/semantics.md §2.6: on the above-threshold model (t = 3,
// d = 4 against d = 5, horizon 6, c = 2) every single event meets δ =
// 5359/491520, so the paper's D holds, but standard (ε,δ)-DP over all events
// needs δ = 2611/92160.
func TestDversusDP(t *testing.T) {
	m := mustMech(t)(builder.AboveThresholdLoop(r("1/4"), r("1/2"), 5, builder.AtLeast))
	d4, _ := m.Chain.Lookup("d4_t3")
	d5, _ := m.Chain.Lookup("d5_t3")
	m.Neighbours = [][2]int{{d4, d5}}
	c := checker(t, m)
	single := r("5359/491520")
	top := verify.Label(builder.Top)
	var events []*verify.Formula
	for k := 1; k <= 6; k++ {
		events = append(events, verify.Next(k, top)) // halted at query k
	}
	events = append(events, verify.Globally(verify.Not(top), 6)) // no ⊤ within 6 steps
	var ds []*verify.Formula
	best := new(big.Rat)
	for _, ev := range events {
		ds = append(ds, verify.DP(ln("2"), single, ev))
		d, err := c.TightDeltaD(context.Background(), ev, ln("2"))
		if err != nil {
			t.Fatal(err)
		}
		if x, _ := d.Delta.Rat(); x.Cmp(best) > 0 {
			best = x
		}
	}
	if diff := cmp.Diff(single, best, ratCmp); diff != "" {
		t.Errorf("largest single-event δ: %s", diff)
	}
	if !holds(t, c, verify.And(ds...)) {
		t.Error("D{ln 2, 5359/491520} fails on a single event")
	}
	a, err := verify.Analyze(context.Background(), &verify.Model{Chain: m.Chain, Neighbours: m.Neighbours, Output: verify.Traces(6, builder.Below, builder.Top)})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(r("2611/92160"), tightDelta(t, a, ln("2")), ratCmp); diff != "" {
		t.Errorf("dp δ over traces(6): %s", diff)
	}
	if dp(t, a, ln("2"), "5359/491520").Holds {
		t.Error("dp(ln 2, 5359/491520) over traces(6) holds")
	}
}

func TestLoopTraces(t *testing.T) {
	m := mustMech(t)(builder.AboveThresholdLoop(r("1/4"), r("1/2"), 5, builder.AtLeast))
	for k := 1; k <= 6; k++ {
		a, err := verify.Analyze(context.Background(), &verify.Model{Chain: m.Chain, Neighbours: m.Neighbours, Output: verify.Traces(k, builder.Below, builder.Top)})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := exact.MulLn(big.NewRat(int64(k), 1), big.NewRat(2, 1))
		res := tightEps(t, a, "0")
		if !res.Eps.Equal(want) {
			t.Errorf("k=%d: tight ε over traces = %s, want %s", k, res.Eps, want)
		}
		if k == 3 {
			if got, want := a.NumOutputs(), 4; got != want {
				t.Errorf("k=3: %d traces, want %d", got, want)
			}
			w := res.Witness
			if w.From.Name != "d4_t0" || w.To.Name != "d5_t0" || len(w.Event) != 1 || w.Event[0] != "⊥ ⊥ ⊥" {
				t.Errorf("k=3: witness %s vs %s on %v, want d4_t0 vs d5_t0 on [⊥ ⊥ ⊥]", w.From, w.To, w.Event)
			}
			d5, _ := m.Chain.Lookup("d5_t3")
			if diff := cmp.Diff(r("3461/3840"), a.Prob(d5, "⊤ · ·"), ratCmp); diff != "" {
				t.Errorf("Pr(⊤ · · | d5_t3): %s", diff)
			}
			if diff := cmp.Diff(r("15581/184320"), a.Prob(d5, "⊥ ⊤ ·"), ratCmp); diff != "" {
				t.Errorf("Pr(⊥ ⊤ · | d5_t3): %s", diff)
			}
		}
	}
	// D{ε,0}[X^k ⊤] is the single event "halted exactly at query k". Its
	// tight ε is not monotone in k (values checked against an independent
	// computation with Python's fractions).
	c := checker(t, m)
	for k, want := range []string{"221/112", "590/311", "2200/659", "21392/3953", "401824/43253"} {
		e, err := c.TightEpsilonD(context.Background(), verify.Next(k+1, verify.Label(builder.Top)), r("0"))
		if err != nil {
			t.Fatal(err)
		}
		if !e.Eps.Equal(ln(want)) {
			t.Errorf("k=%d: tight ε of X^k ⊤ is %s, want ln(%s)", k+1, e.Eps, want)
		}
	}
}

// TestTraceLabelsDoNotMerge: a label literally named "·" is not the empty
// observation.
// TestTightEpsilonDWithDelta: on gambler's ruin, Pr(F<=2 x=4) is 0, 1/9,
// 1/3 from x = 1, 2, 3; at δ = 1/9 the pair (3, 2) needs 1/3 ≤ c/9 + 1/9,
// c = 2, and (2, 1) needs only 1/9 ≤ δ.
func TestTightEpsilonDWithDelta(t *testing.T) {
	m := gamblersRuin(t)
	c := checker(t, m)
	four := verify.Atom("x = 4", func(s int) (bool, error) { v, _ := m.Chain.Value(s, "x"); return v == 4, nil })
	for _, tc := range []struct {
		delta string
		want  exact.Eps
	}{
		{"1/9", ln("2")},
		{"0", exact.Inf()},
		{"1/3", exact.Eps{}},
	} {
		e, err := c.TightEpsilonD(context.Background(), verify.Eventually(four, 2), r(tc.delta))
		if err != nil {
			t.Fatal(err)
		}
		if !e.Eps.Equal(tc.want) {
			t.Errorf("D{?, %s}[F<=2 x = 4] = %s, want %s", tc.delta, e.Eps, tc.want)
		}
	}
}

// TestTraceWithSeveralLabels: a step that shows two observed labels is one
// observation, printed as a set.
func TestTraceWithSeveralLabels(t *testing.T) {
	b := chain.NewBuilder()
	i0 := b.AddState("i0", nil)
	i1 := b.AddState("i1", nil)
	both := b.AddState("both", nil, "a", "b")
	onlyA := b.AddState("onlyA", nil, "a")
	b.AddTransition(i0, both, r("3/4"))
	b.AddTransition(i0, onlyA, r("1/4"))
	b.AddTransition(i1, onlyA, r("1"))
	b.MarkInput(i0)
	b.MarkInput(i1)
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	a, err := verify.Analyze(context.Background(), &verify.Model{Chain: c, Neighbours: [][2]int{{i0, i1}}, Output: verify.Traces(1, "a", "b")})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*big.Rat{}
	for o := range a.NumOutputs() {
		got[a.OutputName(o)] = a.Prob(i0, a.OutputName(o))
	}
	if diff := cmp.Diff(map[string]*big.Rat{"a": r("1/4"), "{a, b}": r("3/4")}, got, ratCmp); diff != "" {
		t.Errorf("traces from i0 (-want +got):\n%s", diff)
	}
}

func TestTraceLabelsDoNotMerge(t *testing.T) {
	b := chain.NewBuilder()
	i0 := b.AddState("i0", nil)
	i1 := b.AddState("i1", nil)
	dot := b.AddState("dot", nil, "·")
	none := b.AddState("none", nil)
	b.AddTransition(i0, dot, r("1"))
	b.AddTransition(i1, none, r("1"))
	b.MarkInput(i0)
	b.MarkInput(i1)
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	a, err := verify.Analyze(context.Background(), &verify.Model{Chain: c, Neighbours: [][2]int{{i0, i1}}, Output: verify.Traces(1, "·")})
	if err != nil {
		t.Fatal(err)
	}
	if got := a.NumOutputs(); got != 2 {
		t.Fatalf("%d traces, want 2", got)
	}
	if got := a.Prob(i0, `"·"`); got.Cmp(r("1")) != 0 {
		t.Errorf("Pr(\"·\" | i0) = %s, want 1", got.RatString())
	}
	if got := a.Prob(i1, "·"); got.Cmp(r("1")) != 0 {
		t.Errorf("Pr(· | i1) = %s, want 1", got.RatString())
	}
}
