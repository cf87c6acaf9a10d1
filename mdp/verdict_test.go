package mdp

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/verify"
)

var fGoal = verify.Eventually(verify.Label("goal"), -1)

// TestHoldsSufficient: s reaches goal w.p. 1/2 per step, t w.p. 1/3; both
// reach it surely, so Proposition 2's bound at ε = 0 is 1 − 1 = 0, but
// the loops keep the search from ending.
func TestHoldsSufficient(t *testing.T) {
	x := newMDPBuilder("a")
	s := x.state("s", nil)
	u := x.state("t", nil)
	g := x.state("g", []string{"goal"})
	x.choose(s, "a", g, "1/2", s, "1/2")
	x.choose(u, "a", g, "1/3", u, "2/3")
	m := x.build(t)
	ctx := context.Background()
	r, err := CheckD(ctx, m, [][2]int{{s, u}}, fGoal, exact.Eps{}, rat("0"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != HoldsSufficient || r.Exact || r.Upper == nil || r.Reason != "Proposition 2" {
		t.Fatalf("got %+v", r)
	}
	wantReal(t, "upper", *r.Upper, "0")
	// The tight δ: 0, exact because the bound meets it.
	d, err := TightDeltaD(ctx, m, [][2]int{{s, u}}, fGoal, exact.Eps{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantReal(t, "δ", d.Delta, "0")
	if !d.Exact || d.Verdict != Holds {
		t.Errorf("got %+v", d)
	}
	// SufficientD agrees, and at a bounded ψ: F<=1 goal gives 1/2 − 1/3.
	b, err := SufficientD(ctx, m, [][2]int{{s, u}}, fGoal, exact.Eps{})
	if err != nil {
		t.Fatal(err)
	}
	wantReal(t, "SufficientD", b, "0")
	b, err = SufficientD(ctx, m, [][2]int{{s, u}}, verify.Eventually(verify.Label("goal"), 1), exact.Eps{})
	if err != nil {
		t.Fatal(err)
	}
	wantReal(t, "SufficientD(F<=1)", b, "1/6")
}

// TestViolatedBySearch: a sends s to goal and t to fail; b keeps both
// where they are (a cycle, so the search does not end by itself).
// Proposition 2 gives 1 > 1/2; the prefix [a] proves the violation.
func TestViolatedBySearch(t *testing.T) {
	x := newMDPBuilder("a", "b")
	s := x.state("s", nil)
	u := x.state("t", nil)
	s2 := x.state("s2", nil)
	u2 := x.state("t2", nil)
	g := x.state("g", []string{"goal"})
	f := x.state("f", nil)
	x.choose(s, "a", g, "1")
	x.choose(u, "a", f, "1")
	x.choose(s, "b", s2, "1")
	x.choose(u, "b", u2, "1")
	x.choose(s2, "b", s, "1")
	x.choose(u2, "b", u, "1")
	m := x.build(t)
	r, err := CheckD(context.Background(), m, [][2]int{{s, u}}, fGoal, exact.Eps{}, rat("1/2"), Options{MaxHorizon: 4})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != Violated || !slices.Equal(r.Sequence, []string{"a"}) || r.From != s || r.To != u {
		t.Fatalf("got %+v", r)
	}
	wantReal(t, "δ", r.Delta, "1")
	wantRat(t, "Pr_s", r.ProbFrom, "1")
	wantRat(t, "Pr_t", r.ProbTo, "0")
	wantReal(t, "upper", *r.Upper, "1")
	// Proposition 2 says 1 and the violation is 1: exact.
	if !r.Exact {
		t.Errorf("not exact: %s", r.Reason)
	}
	if want := "every sequence explored up to 1 action (the rest decided or bounded)"; r.Reason != want {
		t.Errorf("reason %q, want %q", r.Reason, want)
	}
	// dp over the final state: [a] puts s in g and t in f. Proposition 2
	// adds g (max_S Pr_s = 1, min_S Pr_t = 0) and ⊥∞ (s may wait forever
	// with b: 1; t may leave with a: 0): 2, capped at 1 (a tight δ never
	// exceeds 1).
	d, err := CheckDP(context.Background(), m, [][2]int{{s, u}}, verify.FinalState(), exact.Eps{}, rat("1/2"), Options{MaxHorizon: 4})
	if err != nil {
		t.Fatal(err)
	}
	if d.Verdict != Violated || !slices.Equal(d.Sequence, []string{"a"}) || !slices.Equal(d.Event, []string{"g"}) {
		t.Fatalf("got %+v", d)
	}
	wantReal(t, "dp δ", d.Delta, "1")
	wantReal(t, "dp upper", *d.Upper, "1")
	if d.Reason != "every sequence explored up to 1 action (the rest decided or bounded)" {
		t.Errorf("dp reason %q", d.Reason)
	}
}

// TestViolationReason: a sends s to goal w.p. 1/2 and to s2 otherwise,
// where b may still reach goal; it sends t to f. After [a] the gap at
// ε = 0 is at least 1/2 whatever follows, a violation of δ = 1/4, but
// the prefix may still reach 1 (Proposition 2's bound): the search stops
// at the violation, not exact, and says so.
func TestViolationReason(t *testing.T) {
	x := newMDPBuilder("a", "b")
	s := x.state("s", nil)
	u := x.state("t", nil)
	s2 := x.state("s2", nil)
	g := x.state("g", []string{"goal"})
	f := x.state("f", nil)
	x.choose(s, "a", g, "1/2", s2, "1/2")
	x.choose(s2, "a", s2, "1")
	x.choose(s2, "b", g, "1")
	x.choose(u, "a", f, "1")
	m := x.build(t)
	r, err := CheckD(context.Background(), m, [][2]int{{s, u}}, fGoal, exact.Eps{}, rat("1/4"), Options{MaxHorizon: 4})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != Violated || r.Exact || r.Horizon != 1 || !slices.Equal(r.Sequence, []string{"a"}) {
		t.Fatalf("got %+v", r)
	}
	wantReal(t, "δ", r.Delta, "1/2")
	wantReal(t, "upper", *r.Upper, "1")
	if want := "a violation proven at horizon 1: the gap exceeds δ whatever follows"; r.Reason != want {
		t.Errorf("reason %q, want %q", r.Reason, want)
	}
	// Without b, s2 cycles with s3 and never reaches goal: Proposition 2
	// says 1/2, which the violation reaches, so it is exact.
	y := newMDPBuilder("a")
	s = y.state("s", nil)
	u = y.state("t", nil)
	s2 = y.state("s2", nil)
	s3 := y.state("s3", nil)
	g = y.state("g", []string{"goal"})
	f = y.state("f", nil)
	y.choose(s, "a", g, "1/2", s2, "1/2")
	y.choose(s2, "a", s3, "1")
	y.choose(s3, "a", s2, "1")
	y.choose(u, "a", f, "1")
	m = y.build(t)
	r, err = CheckD(context.Background(), m, [][2]int{{s, u}}, fGoal, exact.Eps{}, rat("1/4"), Options{MaxHorizon: 4})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != Violated || r.Upper == nil {
		t.Fatalf("got %+v", r)
	}
	wantReal(t, "δ", r.Delta, "1/2")
	wantReal(t, "upper", *r.Upper, "1/2")
	if want := "a violation proven at horizon 1, reaching Proposition 2's bound"; r.Reason != want {
		t.Errorf("reason %q, want %q", r.Reason, want)
	}
	if !r.Exact {
		t.Errorf("not exact: %s", r.Reason)
	}
}

// TestUnknown: s reaches goal w.p. 1/2 per step; t moves between t and
// t2 forever and never reaches it. Under a^ω the gap at ε = 0 is 1, but
// after any prefix t's undecided mass (1) may still reach goal as far as
// the prefix shows, so no finite prefix proves a violation of δ = 1/2.
func TestUnknown(t *testing.T) {
	x := newMDPBuilder("a")
	s := x.state("s", nil)
	u := x.state("t", nil)
	u2 := x.state("t2", nil)
	g := x.state("g", []string{"goal"})
	x.choose(s, "a", g, "1/2", s, "1/2")
	x.choose(u, "a", u2, "1")
	x.choose(u2, "a", u, "1")
	m := x.build(t)
	r, err := CheckD(context.Background(), m, [][2]int{{s, u}}, fGoal, exact.Eps{}, rat("1/2"), Options{MaxHorizon: 6})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != Unknown || r.Exact || r.Horizon != 6 {
		t.Fatalf("got %+v", r)
	}
	wantReal(t, "δ (lower)", r.Delta, "0")
	wantReal(t, "upper", *r.Upper, "1")
	e, err := TightEpsilonD(context.Background(), m, [][2]int{{s, u}}, fGoal, rat("1/2"), Options{MaxHorizon: 6})
	if err != nil {
		t.Fatal(err)
	}
	if e.Exact || !e.Eps.IsZero() || e.Upper == nil || !e.Upper.IsInf() {
		t.Errorf("got %+v", e)
	}
}

// TestBisimilar: s loops on itself, t alternates with t2; each reaches a
// goal state w.p. 1/2 per step.
func TestBisimilar(t *testing.T) {
	x := newMDPBuilder("a", "b")
	s := x.state("s", nil)
	u := x.state("t", nil)
	u2 := x.state("t2", nil)
	g1 := x.state("g1", []string{"goal"})
	g2 := x.state("g2", []string{"goal"})
	x.choose(s, "a", g1, "1/2", s, "1/2")
	x.choose(u, "a", g2, "1/2", u2, "1/2")
	x.choose(u2, "a", g1, "1/2", u, "1/2")
	// b is enabled at t2 only: staying, t2 is still like s (which waits).
	x.choose(u2, "b", u2, "1")
	m := x.build(t)
	ctx := context.Background()
	r, err := CheckD(ctx, m, [][2]int{{s, u}}, fGoal, exact.Eps{}, rat("0"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	const bisim = "the inputs are bisimilar: every query scheduler gives them the same distributions (no sequence explored, horizon 0)"
	if r.Verdict != Holds || !r.Exact || r.Reason != bisim || r.Horizon != 0 {
		t.Fatalf("got %+v", r)
	}
	wantReal(t, "δ", r.Delta, "0")
	e, err := TightEpsilon(ctx, m, [][2]int{{s, u}}, verify.FinalLabels("goal"), rat("0"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !e.Exact || !e.Eps.IsZero() || e.Reason != bisim || e.Horizon != 0 {
		t.Errorf("got %+v", e)
	}
}

func TestLimitsAndContext(t *testing.T) {
	m, pairs := survey2(t)
	out := verify.FinalVars("a1", "a2")
	_, err := TightDelta(context.Background(), m, pairs, out, exact.Eps{}, Options{MaxSequences: 3})
	var le *LimitError
	const msg = "the search over query schedulers would explore more than 3 action sequences at horizon 2; the limit is 3 sequences"
	if !errors.As(err, &le) || le.Msg != msg || le.LimitKind() != "sequences" {
		t.Errorf("err = %v, want %q", err, msg)
	}
	// The work limit: the start distributions (2 entries), their steps
	// and bounds, until more than 10 entries are weighed.
	r, err := TightDelta(context.Background(), m, pairs, out, exact.Eps{}, Options{})
	if err != nil || r.Weighed <= 10 {
		t.Fatalf("%v entries weighed, err = %v", r, err)
	}
	_, err = TightDelta(context.Background(), m, pairs, out, exact.Eps{}, Options{MaxWork: 10})
	const workMsg = "the search over query schedulers would weigh more than 10 distribution entries (1 action sequence explored, at horizon 2); the limit is 10 entries"
	if !errors.As(err, &le) || le.Msg != workMsg || le.LimitKind() != "search work" {
		t.Errorf("err = %v, want %q", err, workMsg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := TightDelta(ctx, m, pairs, verify.Traces(2, "a1"), exact.Eps{}, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
	if _, err := TightDeltaD(ctx, m, pairs, verify.Eventually(verify.Label("x"), 3), exact.Eps{}, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled D: err = %v", err)
	}
}
