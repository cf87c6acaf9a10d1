package dptest_test

import (
	"bytes"
	"context"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/dptest"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/report"
	"github.com/google/go-cmp/cmp"
)

// recorder is a testing.TB that records what an assertion reports
// instead of failing the test.
type recorder struct {
	testing.TB
	errors, fatals, logs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.fatals = append(r.fatals, fmt.Sprintf(format, args...))
}
func (r *recorder) Logf(format string, args ...any) {
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
}

// record runs an assertion on a recorder.
func record(t *testing.T, assert func(tb testing.TB)) *recorder {
	r := &recorder{TB: t}
	assert(r)
	return r
}

// TestAssertions: each assertion passes and fails on known mechanisms.
func TestAssertions(t *testing.T) {
	right, binary := rrFormula(3, false), rrFormula(3, true)
	ln3, ln6 := exact.LnInt(3), exact.LnInt(6)
	unknown := tailSampler()
	unknown.Budget = dptest.Budget{Depth: 5}
	violated := tailSampler()
	violated.Budget = dptest.Budget{Depth: 20}
	for _, c := range []struct {
		name   string
		assert func(tb testing.TB)
		fail   string // the start of the failure; "" passes
	}{
		{"dp holds", func(tb testing.TB) { dptest.AssertDP(tb, right, ln3, nil) }, ""},
		{"dp violated", func(tb testing.TB) { dptest.AssertDP(tb, binary, ln3, nil) }, "dptest.AssertDP: violated: ε = ln(3)"},
		{"dp unknown", func(tb testing.TB) { dptest.AssertDP(tb, unknown, exact.LnInt(2), pow2(12)) }, "dptest.AssertDP: unknown: ε = ln(2)"},
		{"not dp violated", func(tb testing.TB) { dptest.AssertNotDP(tb, binary, ln3, nil) }, ""},
		{"not dp proved", func(tb testing.TB) { dptest.AssertNotDP(tb, violated, exact.LnInt(2), pow2(12)) }, ""},
		{"not dp holds", func(tb testing.TB) { dptest.AssertNotDP(tb, right, ln3, nil) }, "dptest.AssertNotDP: expected a violation, but holds: ε = ln(3)"},
		// a violation that is not proved is no pass for a mutation test
		{"not dp unknown", func(tb testing.TB) { dptest.AssertNotDP(tb, unknown, exact.LnInt(2), pow2(12)) }, "dptest.AssertNotDP: expected a violation, but unknown:"},
		{"tight ε", func(tb testing.TB) { dptest.AssertTightEpsilon(tb, binary, nil, ln6) }, ""},
		{"tight ε off", func(tb testing.TB) { dptest.AssertTightEpsilon(tb, right, nil, ln6) }, "dptest.AssertTightEpsilon: want ε = ln(6) ≈ 1.79176, got ε = ln(3) ≈ 1.09861 at δ = 0"},
		{"tight ε unproved", func(tb testing.TB) { dptest.AssertTightEpsilon(tb, coinRR(6), big.NewRat(1, 32), exact.LnFrac(61, 32)) },
			"dptest.AssertTightEpsilon: want ε = ln(61/32) ≈ 0.645138, got ε between ln(20/11) ≈ 0.597837 and ln(41/21) ≈ 0.66905 at δ = 1/32 ≈ 0.03125, whatever the unexplored mass does"},
		{"same dist", func(tb testing.TB) { dptest.AssertSameDist(tb, rrSampler(3), right) }, ""},
		{"different dist", func(tb testing.TB) { dptest.AssertSameDist(tb, rrSampler(3), binary) }, "dptest.AssertSameDist: different: the total-variation distance at input 0 is 3/20 ≈ 0.15"},
		{"error", func(tb testing.TB) { dptest.AssertDP(tb, dptest.Mechanism[int, int]{}, ln3, nil) }, "dptest.AssertDP: dptest: the mechanism has neither Dist nor Run"},
	} {
		r := record(t, c.assert)
		got := append(r.errors, r.fatals...)
		switch {
		case c.fail == "" && len(got) > 0:
			t.Errorf("%s: failed: %s", c.name, got)
		case c.fail != "" && (len(got) != 1 || !strings.HasPrefix(got[0], c.fail)):
			t.Errorf("%s: reported %q, want one failure starting %q", c.name, got, c.fail)
		case c.name == "error" && len(r.fatals) != 1:
			t.Errorf("an error stops the test: %q", r.fatals)
		}
	}
}

// TestAssertDPMessage: a failing assertion prints the counterexample as
// the command does, exactly.
func TestAssertDPMessage(t *testing.T) {
	r := record(t, func(tb testing.TB) { dptest.AssertDP(tb, rrFormula(3, true), exact.LnInt(3), nil) })
	want := `dptest.AssertDP: violated: ε = ln(3) ≈ 1.09861, δ = 0; 6 ordered pairs × 3 outputs
counterexample: 0 vs 1
  worst event   E* = {0}
  Pr[E* | 0]    3/4 ≈ 0.75
  Pr[E* | 1]    1/8 ≈ 0.125
  bound         e^ε·Pr[E* | 1] + δ = 3/8 ≈ 0.375
  excess        3/8 ≈ 0.375
  worst output  0: 3/4 ≈ 0.75 vs 1/8 ≈ 0.125 (ratio 6)
  least ε       ln(6) ≈ 1.79176 would hold at this δ`
	if len(r.errors) != 1 {
		t.Fatalf("errors %q", r.errors)
	}
	if diff := cmp.Diff(want, r.errors[0]); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestFailureIsTheCommandsCounterexample: a .dp model's failed assertion
// shows the block the command prints for the same check.
func TestFailureIsTheCommandsCounterexample(t *testing.T) {
	src := strings.Replace(surveySource, "check dp(eps = ln(3))", "check dp(eps = ln(2), delta = 1/10)", 1)
	res, err := dpcheck.CheckSource(context.Background(), "survey.dp", src)
	if err != nil {
		t.Fatal(err)
	}
	var cli bytes.Buffer
	if err := report.Text(&cli, []report.Entry{{File: "survey.dp", Source: src, Result: res}}); err != nil {
		t.Fatal(err)
	}
	r := record(t, func(tb testing.TB) {
		dptest.AssertDP(tb, dptest.Source("survey.dp", src), exact.LnInt(2), big.NewRat(1, 10))
	})
	if len(r.errors) != 1 {
		t.Fatalf("errors %q", r.errors)
	}
	block := r.errors[0][strings.Index(r.errors[0], "counterexample:"):]
	var indented strings.Builder
	for _, l := range strings.Split(block, "\n") {
		indented.WriteString("        " + l + "\n")
	}
	if !strings.Contains(cli.String(), indented.String()) {
		t.Errorf("the assertion's counterexample\n%s\nis not the command's:\n%s", block, cli.String())
	}
}

// TestBoundedMessages: what an unknown verdict and a violation proved
// with unexplored mass say.
func TestBoundedMessages(t *testing.T) {
	unknown := tailSampler()
	unknown.Budget = dptest.Budget{Depth: 5}
	violated := tailSampler()
	violated.Budget = dptest.Budget{Depth: 20}
	u := record(t, func(tb testing.TB) { dptest.AssertDP(tb, unknown, exact.LnInt(2), pow2(12)) })
	v := record(t, func(tb testing.TB) { dptest.AssertDP(tb, violated, exact.LnInt(2), pow2(12)) })
	for _, c := range []struct {
		got  []string
		want string
	}{
		{u.errors, `dptest.AssertDP: unknown: ε = ln(2) ≈ 0.693147, δ = 1/4096 ≈ 0.000244141; 2 ordered pairs × 1 output: neither proved nor refuted within the exploration budget
proved: ε-DP with δ ≤ 1/32 ≈ 0.03125 at this ε (d counts each input's unexplored mass against it and the excess that the explored runs already show, so it is in general more than the unexplored mass; it never rises as Budget.Runs grows or Budget.MinProb falls)
not refuted: the least δ at this ε is at least 0, which is not above δ
worst pair: 0 vs 1, δ between 0 and 1/32 ≈ 0.03125
explored: 10 runs, 2 cut by the budget; the largest unexplored mass of an input is 1/32 ≈ 0.03125 (input 0)
to decide, raise Budget.Depth (runs asked for more choices) (the budget was Budget{Depth: 5})`},
		{v.errors, `dptest.AssertDP: violated: ε = ln(2) ≈ 0.693147, δ = 1/4096 ≈ 0.000244141; 2 ordered pairs × 3 outputs, whatever the unexplored mass does
proved: ε-DP with δ ≤ 1/1024 ≈ 0.000976563 at this ε (d counts each input's unexplored mass against it and the excess that the explored runs already show, so it is in general more than the unexplored mass; it never rises as Budget.Runs grows or Budget.MinProb falls)
counterexample: 0 vs 1
  worst event   E* = {0}
  Pr[E* | 0]    ≥ 1023/1048576 ≈ 0.000975609 (explored runs only)
  Pr[E* | 1]    ≤ 1/1048576 ≈ 9.53674e-07 (explored runs and all of its unexplored mass)
  bound         e^ε·Pr[E* | 1] + δ ≤ 129/524288 ≈ 0.000246048
  excess        ≥ 765/1048576 ≈ 0.000729561
  worst output  0: 1023/1048576 ≈ 0.000975609 vs 1/1048576 ≈ 9.53674e-07 (ratio 1023) (bounds as above)
  least ε       at least ln(767) ≈ 6.64249; whether a finite ε holds at this δ is not decided
explored: 40 runs, 2 cut by the budget; the largest unexplored mass of an input is 1/1048576 ≈ 9.53674e-07 (input 0)`},
	} {
		if len(c.got) != 1 {
			t.Errorf("errors %q", c.got)
			continue
		}
		if diff := cmp.Diff(c.want, c.got[0]); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	}
}

// fdr6 is a fair die from three bits, rejecting 6 and 7 (Lumbroso's Fast
// Dice Roller restarts the same way): each face has (1 − u)/6 after k
// rounds, u = 4^-k.
func fdr6(r *dptest.Rand) int {
	for {
		v := 0
		for range 3 {
			v <<= 1
			if r.Bit() {
				v |= 1
			}
		}
		if v < 6 {
			return v
		}
	}
}

// mod6 is the classic bug: three bits mod 6, so 0 and 1 come up twice as
// often (2/8) as the other faces (1/8).
func mod6(r *dptest.Rand) int {
	v := 0
	for range 3 {
		v <<= 1
		if r.Bit() {
			v |= 1
		}
	}
	return v % 6
}

// biased6 rejects only 7 and turns 6 into 0: Pr(0) = 2/7.
func biased6(r *dptest.Rand) int {
	for {
		v := mod6Raw(r)
		switch {
		case v < 6:
			return v
		case v == 6:
			return 0
		}
	}
}

func mod6Raw(r *dptest.Rand) int {
	v := 0
	for range 3 {
		v <<= 1
		if r.Bit() {
			v |= 1
		}
	}
	return v
}

var uniform6 = func() map[int]*big.Rat {
	m := map[int]*big.Rat{}
	for v := range 6 {
		m[v] = big.NewRat(1, 6)
	}
	return m
}()

// TestSameDist: sampler correctness, sound for the unexplored mass.
func TestSameDist(t *testing.T) {
	ctx := context.Background()
	want := dptest.Exact(uniform6)
	// The die after three rounds (u = 1/64): each face 63/384 ≤ 1/6, so
	// nothing contradicts; the distance is at most u.
	r, err := dptest.SameDist(ctx, dptest.Sampler(fdr6, dptest.Budget{Depth: 9}), want)
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != dptest.Unknown || r.TVLow.Sign() != 0 || r.TVHigh.Cmp(big.NewRat(1, 64)) != 0 || r.UnexploredGot.Cmp(big.NewRat(1, 64)) != 0 {
		t.Errorf("fdr6: %s", r)
	}
	// bits mod 6: exactly 2·(1/4 − 1/6) = 1/6 apart, most at 0.
	if r, err = dptest.SameDist(ctx, dptest.Sampler(mod6, dptest.Budget{}), want); err != nil {
		t.Fatal(err)
	}
	if r.Verdict != dptest.Violated || r.TVLow.Cmp(big.NewRat(1, 6)) != 0 || r.TVHigh.Cmp(big.NewRat(1, 6)) != 0 ||
		r.Output != "0" || r.Got.Cmp(big.NewRat(1, 4)) != 0 || r.Want.Cmp(big.NewRat(1, 6)) != 0 {
		t.Errorf("mod6: %s", r)
	}
	if got, want := r.String(), "different: the total-variation distance is 1/6 ≈ 0.166667\nthey differ most at output 0: 1/4 ≈ 0.25 vs 1/6 ≈ 0.166667"; got != want {
		t.Errorf("mod6:\n%s\nwant\n%s", got, want)
	}
	// biased6 after one round: 0 has 2/8 explored, more than 1/6, which
	// no unexplored mass of the exact die can cover: different, by at
	// least 1/4 − 1/6 = 1/12 and at most 1/12 + 1/8 (the true distance is
	// 2/7 − 1/6 = 5/42).
	if r, err = dptest.SameDist(ctx, dptest.Sampler(biased6, dptest.Budget{Depth: 3}), want); err != nil {
		t.Fatal(err)
	}
	if r.Verdict != dptest.Violated || r.TVLow.Cmp(big.NewRat(1, 12)) != 0 || r.TVHigh.Cmp(big.NewRat(5, 24)) != 0 || r.Output != "0" {
		t.Errorf("biased6: %s", r)
	}
	// Two samplers: the die against itself with other budgets; and mod6's
	// excess of 1/8 at 0 and at 1 is more than the die's unexplored 1/64.
	if r, err = dptest.SameDist(ctx, dptest.Sampler(fdr6, dptest.Budget{Depth: 6}), dptest.Sampler(fdr6, dptest.Budget{Depth: 12})); err != nil {
		t.Fatal(err)
	}
	// H = Σ max(0, (15/16)/6 − (255/256)/6) = 0, so the distance is at
	// most the first's 1/16.
	if r.Verdict != dptest.Unknown || r.TVHigh.Cmp(big.NewRat(1, 16)) != 0 || r.TVLow.Sign() != 0 {
		t.Errorf("fdr6 vs fdr6: %s", r)
	}
	if r, err = dptest.SameDist(ctx, dptest.Sampler(mod6, dptest.Budget{}), dptest.Sampler(fdr6, dptest.Budget{Depth: 9})); err != nil {
		t.Fatal(err)
	}
	// H = 2·(1/4 − 63/384) = 11/64, less the die's 1/64 unexplored.
	if r.Verdict != dptest.Violated || r.TVLow.Cmp(big.NewRat(10, 64)) != 0 || r.TVHigh.Cmp(big.NewRat(11, 64)) != 0 {
		t.Errorf("mod6 vs fdr6: %s", r)
	}
}

// value and answer print as the builder's k-ary randomized response names
// its inputs (by their valuation, v=0) and outputs (final states a0).
type value int
type answer int

func (v value) String() string  { return fmt.Sprintf("v=%d", int(v)) }
func (a answer) String() string { return fmt.Sprintf("a%d", int(a)) }

// TestSameDistAgainstChain: a Go sampler against an independent encoding,
// the builder's chain, inputs and outputs matched on how they print.
func TestSameDistAgainstChain(t *testing.T) {
	ctx := context.Background()
	b, err := builder.RandomizedResponseK(big.NewRat(2, 5), 3)
	if err != nil {
		t.Fatal(err)
	}
	sampler := func(lie int) dptest.Mechanism[value, answer] {
		return dptest.Mechanism[value, answer]{
			Inputs: []value{0, 1, 2},
			Run: func(x value, r *dptest.Rand) answer {
				if r.Bernoulli(big.NewRat(2, 5)) {
					return answer(x)
				}
				return answer(r.IntN(lie))
			},
		}
	}
	r, err := dptest.SameDist(ctx, sampler(3), dptest.Builder(b))
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != dptest.Holds || r.Inputs != 3 {
		t.Errorf("%s", r)
	}
	// Lying uniformly over {0, 1} only: at input v=0, a0 has 7/10 instead
	// of 3/5, a1 3/10 instead of 1/5 and a2 none instead of 1/5: distance
	// 1/5 (the same at every input), most at a2.
	if r, err = dptest.SameDist(ctx, sampler(2), dptest.Builder(b)); err != nil {
		t.Fatal(err)
	}
	if r.Verdict != dptest.Violated || r.Input != "v=0" || r.TVLow.Cmp(big.NewRat(1, 5)) != 0 || r.Output != "a2" {
		t.Errorf("%s", r)
	}
	if got, want := r.String(), "different: the total-variation distance at input v=0 is 1/5 ≈ 0.2\nthey differ most at output a2: 0 vs 1/5 ≈ 0.2"; got != want {
		t.Errorf("%s\nwant\n%s", got, want)
	}
	// An input without a counterpart is an error.
	bad := sampler(3)
	bad.Inputs = []value{0, 7}
	if _, err := dptest.SameDist(ctx, bad, dptest.Builder(b)); err == nil || !strings.Contains(err.Error(), "input v=7 has no counterpart") {
		t.Errorf("err = %v", err)
	}
}

// TestAssertSameDistLogs: equal within the unexplored mass passes, and
// says within what distance.
func TestAssertSameDistLogs(t *testing.T) {
	r := record(t, func(tb testing.TB) {
		dptest.AssertSameDist(tb, dptest.Sampler(fdr6, dptest.Budget{Depth: 9}), dptest.Exact(uniform6))
	})
	want := "dptest.AssertSameDist: equal within the unexplored mass: no explored output contradicts (1 input); the total-variation distance is between 0 and 1/64 ≈ 0.015625 (unexplored mass 1/64 ≈ 0.015625 vs 0)"
	if len(r.errors) != 0 || len(r.logs) != 1 || r.logs[0] != want {
		t.Errorf("errors %q, logs %q", r.errors, r.logs)
	}
}
