package mdp

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/verify"
)

// yn2 is /work/shared/external_models/dpctl_epmc/yn2.prism, by hand: s = 0
// goes to 1 or 2 (1/2 each), 2 returns to 0, 1 goes to 3 (a) or to 3 and
// 4 (b, 1/2 each); 3 and 4 are absorbing.
func yn2(t testing.TB) (*MDP, []int) {
	x := newMDPBuilder("a", "b")
	st := make([]int, 5)
	for v := range 5 {
		st[v] = x.state("s"+string(rune('0'+v)), nil, "s", v, "t", 1)
	}
	for _, a := range []string{"a", "b"} {
		x.choose(st[0], a, st[1], "1/2", st[2], "1/2")
		x.choose(st[2], a, st[0], "1")
		x.choose(st[3], a, st[3], "1")
		x.choose(st[4], a, st[4], "1")
	}
	x.choose(st[1], "a", st[3], "1")
	x.choose(st[1], "b", st[3], "1/2", st[4], "1/2")
	return x.build(t), st
}

func sIs(m *MDP, vs ...int64) *verify.Formula {
	var names []string
	for _, v := range vs {
		names = append(names, "s="+string(rune('0'+v)))
	}
	return verify.Atom(strings.Join(names, "|"), func(s int) (bool, error) {
		x, _ := m.Frame.Value(s, "s")
		for _, v := range vs {
			if x == v {
				return true, nil
			}
		}
		return false, nil
	})
}

func probs(t *testing.T, m *MDP, f *verify.Formula) (lo, hi []string) {
	t.Helper()
	ctx := context.Background()
	a, err := m.Prob(ctx, f, false)
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.Prob(ctx, f, true)
	if err != nil {
		t.Fatal(err)
	}
	for s := range a {
		lo = append(lo, a[s].RatString())
		hi = append(hi, b[s].RatString())
	}
	return lo, hi
}

func wantProbs(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func TestProbYn2(t *testing.T) {
	m, _ := yn2(t)
	// P(F s=2) = 1/2 from s=0 under every scheduler: the first step
	// decides; s=2 returns to 0, which then has probability 1/2 again
	// but the target is already reached.
	lo, hi := probs(t, m, verify.Eventually(sIs(m, 2), -1))
	wantProbs(t, "Pmin(F s=2)", lo, []string{"1/2", "0", "1", "0", "0"})
	wantProbs(t, "Pmax(F s=2)", hi, []string{"1/2", "0", "1", "0", "0"})
	// P(F s=2|s=4) in [1/2, 3/4] from 0: b at s=1 adds 1/2·1/2.
	lo, hi = probs(t, m, verify.Eventually(sIs(m, 2, 4), -1))
	wantProbs(t, "Pmin(F s=2|s=4)", lo, []string{"1/2", "0", "1", "0", "1"})
	wantProbs(t, "Pmax(F s=2|s=4)", hi, []string{"3/4", "1/2", "1", "0", "1"})
	// The cycle 0 → 2 → 0: s=1 is reached surely; then a reaches 3
	// surely, b with 1/2.
	lo, hi = probs(t, m, verify.Eventually(sIs(m, 3), -1))
	wantProbs(t, "Pmin(F s=3)", lo, []string{"1/2", "1/2", "1/2", "1", "0"})
	wantProbs(t, "Pmax(F s=3)", hi, []string{"1", "1", "1", "1", "0"})
	// G s≠4 = ¬F s=4: Pmin = 1 − Pmax(F s=4), and Pmax(F s=4) = 1/2
	// from 0 (s=1 is reached surely through the cycle, then b).
	lo, hi = probs(t, m, verify.Globally(verify.Not(sIs(m, 4)), -1))
	wantProbs(t, "Pmin(G s!=4)", lo, []string{"1/2", "1/2", "1/2", "1", "0"})
	wantProbs(t, "Pmax(G s!=4)", hi, []string{"1", "1", "1", "1", "0"})
	// Bounded: F<=2 s=4 needs 0 → 1 → 4.
	lo, hi = probs(t, m, verify.Eventually(sIs(m, 4), 2))
	wantProbs(t, "Pmin(F<=2 s=4)", lo, []string{"0", "0", "0", "0", "1"})
	wantProbs(t, "Pmax(F<=2 s=4)", hi, []string{"1/4", "1/2", "0", "0", "1"})
	// X^2 s=3 from 0: 1/2·(1 or 1/2).
	lo, hi = probs(t, m, verify.Next(2, sIs(m, 3)))
	wantProbs(t, "Pmin(X^2 s=3)", lo, []string{"1/4", "1/2", "0", "1", "0"})
	wantProbs(t, "Pmax(X^2 s=3)", hi, []string{"1/2", "1", "0", "1", "0"})
	// s=0|s=2 U s=4 (bounded by nothing): through 1 only.
	lo, hi = probs(t, m, verify.Until(sIs(m, 0, 2), sIs(m, 4), -1))
	wantProbs(t, "Pmin(s∈{0,2} U s=4)", lo, []string{"0", "0", "0", "0", "1"})
	wantProbs(t, "Pmax(s∈{0,2} U s=4)", hi, []string{"0", "0", "0", "0", "1"})
	// A state formula as a path formula holds of the first state, under
	// every scheduler (as P=?[a] on a chain); found by FuzzLoad.
	lo, hi = probs(t, m, sIs(m, 1, 3))
	wantProbs(t, "Pmin(s∈{1,3})", lo, []string{"0", "1", "0", "1", "0"})
	wantProbs(t, "Pmax(s∈{1,3})", hi, []string{"0", "1", "0", "1", "0"})
}

// TestProbEndComponent: u and v form an end component (a moves between
// them); b leaves u for goal w.p. 1/3 and v w.p. 1/2. Pmax(F goal) = 1/2
// at both (go to v, then b), Pmin = 0 (cycle forever).
func TestProbEndComponent(t *testing.T) {
	x := newMDPBuilder("a", "b")
	u := x.state("u", nil)
	v := x.state("v", nil)
	goal := x.state("goal", []string{"goal"})
	fail := x.state("fail", nil)
	x.choose(u, "a", v, "1")
	x.choose(v, "a", u, "1")
	x.choose(u, "b", goal, "1/3", fail, "2/3")
	x.choose(v, "b", goal, "1/2", fail, "1/2")
	m := x.build(t)
	f := verify.Eventually(verify.Label("goal"), -1)
	lo, hi := probs(t, m, f)
	wantProbs(t, "Pmin(F goal)", lo, []string{"0", "0", "1", "0"})
	wantProbs(t, "Pmax(F goal)", hi, []string{"1/2", "1/2", "1", "0"})
	// G !goal = ¬F goal.
	lo, hi = probs(t, m, verify.Globally(verify.Not(verify.Label("goal")), -1))
	wantProbs(t, "Pmin(G !goal)", lo, []string{"1/2", "1/2", "0", "1"})
	wantProbs(t, "Pmax(G !goal)", hi, []string{"1", "1", "0", "1"})
}

func TestProbUnsupported(t *testing.T) {
	m, _ := yn2(t)
	ctx := context.Background()
	for _, f := range []*verify.Formula{
		verify.Eventually(verify.Prob(">=", rat("1/2"), verify.Next(1, sIs(m, 1))), -1),
		verify.Globally(verify.Eventually(sIs(m, 1), -1), -1),
		verify.Prob(">=", rat("1/2"), verify.Next(1, sIs(m, 1))),
	} {
		if _, err := m.Prob(ctx, f, true); err == nil || !strings.Contains(err.Error(), "MDP") && !strings.Contains(err.Error(), "state formula") {
			t.Errorf("%s: err = %v", f, err)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := m.Prob(cctx, verify.Eventually(sIs(m, 3), -1), true); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
}

func TestNewValidates(t *testing.T) {
	x := newMDPBuilder("a")
	s := x.state("s", nil)
	x.state("t", nil)
	fr, err := x.b.Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cs   [][]Choice
		want string
	}{
		{[][]Choice{{{Action: 0, To: []int{2}, P: []*big.Rat{rat("1")}}}, nil}, "state s, action a: target 2 is not a state"},
		{[][]Choice{{{Action: 0, To: []int{1}, P: []*big.Rat{rat("1/2")}}}, nil}, "state s, action a: the probabilities sum to 1/2, not 1"},
		{[][]Choice{{{Action: 0, To: []int{0, 1}, P: []*big.Rat{rat("0"), rat("1")}}}, nil}, "state s, action a: the probability to s is not positive"},
		{[][]Choice{{{Action: 1, To: []int{1}, P: []*big.Rat{rat("1")}}}, nil}, "state s: action index 1 out of range"},
		{[][]Choice{{{Action: 0, To: []int{1}, P: []*big.Rat{rat("1")}}, {Action: 0, To: []int{0}, P: []*big.Rat{rat("1")}}}, nil}, "state s: more than one choice for action a"},
	} {
		_, err := New(fr, []string{"a"}, tc.cs)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("err = %v, want %q", err, tc.want)
		}
	}
	_ = s
	m, err := New(fr, []string{"a"}, [][]Choice{{{Action: 0, To: []int{0, 1}, P: []*big.Rat{rat("1/3"), rat("2/3")}}}, {{Action: 0, To: []int{1}, P: []*big.Rat{rat("1")}}}})
	if err != nil {
		t.Fatal(err)
	}
	if m.NumChoices() != 2 || m.NumTransitions() != 3 || m.IsAbsorbing(0) || !m.IsAbsorbing(1) {
		t.Errorf("choices %d, transitions %d, absorbing %v %v", m.NumChoices(), m.NumTransitions(), m.IsAbsorbing(0), m.IsAbsorbing(1))
	}
}
