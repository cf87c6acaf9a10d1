package dptest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/report"
	"github.com/dpcheck/dpcheck/verify"
)

// The assertions: each takes a testing.TB, checks one property under the
// test's context (t.Context(), which ends only when the test returns) with
// a deadline shortly before the test's own (a *testing.T's Deadline, set
// by go test's timeout) — so that a sampler stuck in a loop fails the test
// with a message instead of the test binary's timeout panic — and reports a failed property with
// t.Error and the message the command would print — the pair of inputs,
// the worst event, both probabilities, the bound, the excess, the least ε
// that would hold. A model that cannot be checked (an invalid
// distribution, a sampler that is not deterministic, no pair of
// neighbours) stops the test with t.Fatal.

// testContext is t's context, ending shortly before t's deadline, if it
// has one: a tenth of the time left before it, at most 5 seconds.
func testContext(t testing.TB) context.Context {
	ctx := t.Context()
	d, ok := t.(interface{ Deadline() (time.Time, bool) })
	if !ok {
		return ctx
	}
	deadline, ok := d.Deadline()
	if !ok {
		return ctx
	}
	margin := min(time.Until(deadline)/10, 5*time.Second)
	ctx, cancel := context.WithDeadlineCause(ctx, deadline.Add(-margin), errNearDeadline)
	t.Cleanup(cancel)
	return ctx
}

// cause is err, or the cause of ctx's end when err is it.
func cause(ctx context.Context, err error) error {
	if c := context.Cause(ctx); c != nil && errors.Is(err, ctx.Err()) {
		return c
	}
	return err
}

// errNearDeadline is the cause of an assertion's end near the test's
// deadline.
var errNearDeadline = errors.New("dptest: stopped shortly before the test's deadline (is the sampler stuck in a loop that draws nothing, or is the budget too large?)")

// AssertDP asserts that m is (ε, δ)-differentially private (a nil delta is
// δ = 0), proved for every way a sampler's unexplored mass could fall. It
// fails on a violation, with the counterexample, and on an unknown
// verdict, with both bounds and the budget to raise.
func AssertDP(t testing.TB, m Model, eps exact.Eps, delta *big.Rat) *Result {
	t.Helper()
	return assertDP(t, "AssertDP", "", Holds, m, eps, delta)
}

// AssertNotDP asserts that m is not (ε, δ)-differentially private (a nil
// delta is δ = 0): a mutation test that a buggy variant is caught. It
// passes only when the violation is proved, whatever a sampler's
// unexplored mass does.
func AssertNotDP(t testing.TB, m Model, eps exact.Eps, delta *big.Rat) *Result {
	t.Helper()
	return assertDP(t, "AssertNotDP", "expected a violation, but ", Violated, m, eps, delta)
}

// assertDP is the assertion name that CheckDP's verdict is want, failing
// with note before the result otherwise.
func assertDP(t testing.TB, name, note string, want Verdict, m Model, eps exact.Eps, delta *big.Rat) *Result {
	t.Helper()
	ctx := testContext(t)
	r, err := CheckDP(ctx, m, eps, delta)
	if err != nil {
		t.Fatalf("dptest.%s: %v", name, cause(ctx, err))
		return nil
	}
	if r.Verdict != want {
		t.Errorf("dptest.%s: %s%s", name, note, r)
	}
	return r
}

// AssertTightEpsilon asserts that the least ε for which (ε, δ)-DP holds is
// want exactly (a nil delta is δ = 0): it pins a mechanism's privacy, so
// that a change that weakens or strengthens it fails. With unexplored
// mass it passes only when the bounds prove the value.
func AssertTightEpsilon(t testing.TB, m Model, delta *big.Rat, want exact.Eps) *EpsResult {
	t.Helper()
	ctx := testContext(t)
	r, err := TightEpsilon(ctx, m, delta)
	if err != nil {
		t.Fatalf("dptest.AssertTightEpsilon: %v", cause(ctx, err))
		return nil
	}
	lo, err1 := r.Low.Cmp(want)
	hi, err2 := r.High.Cmp(want)
	if err1 != nil || err2 != nil || lo != 0 || hi != 0 {
		t.Errorf("dptest.AssertTightEpsilon: want ε = %s, got %s", report.EpsText(want), r)
	}
	return r
}

// AssertSameDist asserts that got's output distribution is want's, input
// by input (SameDist says how inputs and outputs are matched) — a
// sampler's against the exact distribution it should have, or two
// samplers against each other:
//
//	dptest.AssertSameDist(t, dptest.Sampler(fdr6, dptest.Budget{}), dptest.Exact(uniform6))
//
// A sampler with unexplored mass is never proved equal; the assertion
// fails only when they are proved different, with the output where they
// differ most and the exact total-variation distance, and otherwise logs
// within what distance they are equal.
func AssertSameDist(t testing.TB, got, want Model) *DistResult {
	t.Helper()
	ctx := testContext(t)
	r, err := SameDist(ctx, got, want)
	if err != nil {
		t.Fatalf("dptest.AssertSameDist: %v", cause(ctx, err))
		return nil
	}
	switch r.Verdict {
	case Violated:
		t.Errorf("dptest.AssertSameDist: %s", r)
	case Unknown:
		t.Logf("dptest.AssertSameDist: %s", r)
	}
	return r
}

// String says the verdict and what it rests on, in the command's words:
// for a violation the counterexample; with unexplored mass what is proved
// ("ε-DP with δ ≤ d"), both bounds and the budget to raise.
func (r *Result) String() string {
	var b bytes.Buffer
	if !r.Bounded {
		report.DPResult(&b, &verify.DPResult{Eps: r.Eps, Delta: r.Delta, Holds: r.Verdict == Holds, Checked: r.Checked, Counterexample: r.Counterexample})
		if r.Verdict == Holds {
			fmt.Fprintf(&b, "the least δ at this ε is %s\n", report.RealText(r.DeltaBound))
		}
		writeExploration(&b, r.Exploration, false, r.Delta)
		return strings.TrimSuffix(b.String(), "\n")
	}
	head := fmt.Sprintf("%s: ε = %s, δ = %s; %s", r.Verdict, report.EpsText(r.Eps), report.RatText(r.Delta), checkedText(r.Checked))
	if r.Verdict == Unknown {
		fmt.Fprintf(&b, "%s: neither proved nor refuted within the exploration budget\n", head)
	} else {
		fmt.Fprintf(&b, "%s, whatever the unexplored mass does\n", head)
	}
	fmt.Fprintf(&b, "proved: ε-DP with δ ≤ %s at this ε (%s)\n", report.RealText(r.DeltaBound), dNote)
	switch r.Verdict {
	case Unknown:
		fmt.Fprintf(&b, "not refuted: the least δ at this ε is at least %s, which is not above δ\n", report.RealText(r.DeltaLow))
		if w := r.Worst; w != nil {
			fmt.Fprintf(&b, "worst pair: %s vs %s, δ between %s and %s\n", w.From, w.To, report.RealText(w.Low), report.RealText(w.High))
		}
	case Violated:
		report.BoundedCounterexample(&b, r.Counterexample, report.Bounds{
			FromNote:    "explored runs only",
			ToNote:      "explored runs and all of its unexplored mass",
			WorstNote:   "(bounds as above)",
			LeastEpsLow: r.LeastEpsLow,
		})
	}
	writeExploration(&b, r.Exploration, r.Verdict == Unknown, r.Delta)
	return strings.TrimSuffix(b.String(), "\n")
}

// dNote says what d counts.
const dNote = "d counts each input's unexplored mass against it and the excess that the explored runs already show, so it is in general more than the unexplored mass; it never rises as Budget.Runs grows or Budget.MinProb falls"

// writeExploration says what a sampler's verdict rests on, and with raise
// how to decide more: which limit of the budget cut the runs, or, at
// δ = 0, that no budget can.
func writeExploration(b *bytes.Buffer, e *Exploration, raise bool, delta *big.Rat) {
	if e == nil {
		return
	}
	if e.Unexplored.Sign() == 0 {
		fmt.Fprintf(b, "explored: every run (%s)\n", runs(e.Runs))
		return
	}
	fmt.Fprintf(b, "explored: %s, %s cut by the budget; the largest unexplored mass of an input is %s (input %s)\n",
		runs(e.Runs), exact.Thousands(e.Cut), report.RatText(e.Unexplored), e.Input)
	if !raise {
		return
	}
	if delta != nil && delta.Sign() == 0 {
		b.WriteString("with unexplored mass, δ = 0 cannot be proved: give a δ > 0\n")
		return
	}
	var what []string
	if e.RunsHit {
		what = append(what, "raise Budget.Runs (a deeper pass needed more runs than it allows)")
	}
	if e.DepthCut > 0 {
		what = append(what, "raise Budget.Depth (runs asked for more choices)")
	}
	if e.MinProbCut {
		what = append(what, "lower Budget.MinProb (runs fell below it)")
	}
	if len(what) == 0 {
		what = append(what, "raise Budget.Runs or Budget.Depth, or lower Budget.MinProb")
	}
	fmt.Fprintf(b, "to decide, %s (the budget was %s)\n", strings.Join(what, ", or "), budgetText(e.Budget))
}

func runs(n int64) string {
	if n == 1 {
		return "1 run"
	}
	return exact.Thousands(n) + " runs"
}

// budgetText writes a budget as Go code: Budget{Depth: 20}.
func budgetText(b Budget) string {
	var f []string
	if b.Runs > 0 {
		f = append(f, fmt.Sprintf("Runs: %d", b.Runs))
	}
	if b.Depth > 0 {
		f = append(f, fmt.Sprintf("Depth: %d", b.Depth))
	}
	if b.MinProb != nil {
		f = append(f, fmt.Sprintf("MinProb: big.NewRat(%s, %s)", b.MinProb.Num(), b.MinProb.Denom()))
	}
	if len(f) == 0 {
		return "Budget{}, the defaults"
	}
	return "Budget{" + strings.Join(f, ", ") + "}"
}

// String gives the tight ε, or its bounds with unexplored mass.
func (r *EpsResult) String() string {
	var b bytes.Buffer
	switch {
	case r.Exact():
		report.EpsResult(&b, &verify.EpsResult{Delta: r.Delta, Eps: r.High, Witness: r.Witness, Checked: r.Checked})
	case r.High.IsInf():
		fmt.Fprintf(&b, "ε at least %s at δ = %s; no finite ε is proved: an input's unexplored mass may fall where its neighbour has none\n", report.EpsText(r.Low), report.RatText(r.Delta))
	default:
		fmt.Fprintf(&b, "ε between %s and %s at δ = %s, whatever the unexplored mass does\n", report.EpsText(r.Low), report.EpsText(r.High), report.RatText(r.Delta))
	}
	writeExploration(&b, r.Exploration, !r.Exact(), r.Delta)
	return strings.TrimSuffix(b.String(), "\n")
}

// String gives the tight δ, or its bounds with unexplored mass.
func (r *DeltaResult) String() string {
	var b bytes.Buffer
	if r.Exploration == nil || r.Exploration.Unexplored.Sign() == 0 {
		report.DeltaResult(&b, &verify.DeltaResult{Eps: r.Eps, Delta: r.High, Witness: r.Witness, Checked: r.Checked})
	} else {
		fmt.Fprintf(&b, "δ between %s and %s at ε = %s, whatever the unexplored mass does\n", report.RealText(r.Low), report.RealText(r.High), report.EpsText(r.Eps))
		fmt.Fprintf(&b, "proved: ε-DP with δ ≤ %s (%s)\n", report.RealText(r.High), dNote)
		if w := r.Worst; w != nil {
			fmt.Fprintf(&b, "worst pair: %s vs %s, δ between %s and %s\n", w.From, w.To, report.RealText(w.Low), report.RealText(w.High))
		}
	}
	writeExploration(&b, r.Exploration, false, nil)
	return strings.TrimSuffix(b.String(), "\n")
}

// String says whether the distributions are equal, and where they differ
// most, with the exact total-variation distance.
func (r *DistResult) String() string {
	at := ""
	if r.Inputs > 1 || r.Input != "{}" {
		at = " at input " + r.Input
	}
	tv := "is " + report.RatText(r.TVHigh)
	if r.TVLow.Cmp(r.TVHigh) != 0 {
		tv = fmt.Sprintf("is between %s and %s (unexplored mass %s vs %s)", report.RatText(r.TVLow), report.RatText(r.TVHigh), report.RatText(r.UnexploredGot), report.RatText(r.UnexploredWant))
	}
	most := fmt.Sprintf("they differ most at output %s: %s vs %s", r.Output, report.RatText(r.Got), report.RatText(r.Want))
	switch r.Verdict {
	case Holds:
		return fmt.Sprintf("equal: the same distribution at every input (%s), exactly", count(r.Inputs, "input"))
	case Violated:
		return fmt.Sprintf("different: the total-variation distance%s %s\n%s", at, tv, most)
	}
	return fmt.Sprintf("equal within the unexplored mass: no explored output contradicts (%s); the total-variation distance%s %s", count(r.Inputs, "input"), at, tv)
}

// checkedText says what a result covered: "6 ordered pairs × 3 outputs".
func checkedText(c verify.Checked) string {
	return fmt.Sprintf("%s × %s", count(c.OrderedPairs, "ordered pair"), count(c.Outputs, "output"))
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
