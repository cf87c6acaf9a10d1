package statespace_test

import (
	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/mdp"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/statespace"
)

// moves returns every state's choices, keyed by valuation, then choice
// name, then successor's valuation.
func moves(m *mdp.MDP) map[string]map[string]map[string]*big.Rat {
	out := map[string]map[string]map[string]*big.Rat{}
	for s, cs := range m.Choices {
		row := map[string]map[string]*big.Rat{}
		for _, c := range cs {
			d := map[string]*big.Rat{}
			for i, t := range c.To {
				d[m.Frame.Valuation(t).String()] = c.P[i]
			}
			row[m.Actions[c.Action]] = d
		}
		out[m.Frame.Valuation(s).String()] = row
	}
	return out
}

// checkFrame checks that every state of the frame is absorbing.
func checkFrame(t *testing.T, mech *model.Mechanism) {
	t.Helper()
	if mech.MDP == nil {
		t.Fatal("no MDP")
	}
	c := mech.Chain
	if mech.MDP.Frame != c || mech.MDP.NumStates() != c.NumStates() {
		t.Fatalf("the frame is not the mechanism's chain (%d and %d states)", mech.MDP.NumStates(), c.NumStates())
	}
	for s := range c.NumStates() {
		if !c.IsAbsorbing(s) {
			t.Errorf("frame state %s is not absorbing", c.Valuation(s))
		}
	}
}

// PRISM's MDP semantics: the choices of a state are its enabled
// unlabelled commands and the synchronised combinations, kept apart; two
// choices of the same name get the indices of their commands.
func TestPRISMMDP(t *testing.T) {
	m := &statespace.Model{
		Name: "two modules", Semantics: statespace.PRISM, MDP: true, Modules: []string{"m1", "m2"},
		Vars: []statespace.Var{{Name: "a", Lo: 0, Hi: 1, Module: 0}, {Name: "b", Lo: 0, Hi: 1, Module: 1}},
		Commands: []statespace.Command{
			// m2's [go] first: the combinations still list m1's command first.
			{Module: 1, Action: "go", Guard: eq("b", 0), Updates: []statespace.Update{
				{Prob: frac(1, 3), Assigns: []statespace.Assign{set(1, 1)}}, {Prob: frac(2, 3)}}},
			{Module: 0, Guard: eq("a", 0), Updates: []statespace.Update{{Assigns: []statespace.Assign{set(0, 1)}}}},
			{Module: 0, Guard: eq("a", 0), Updates: []statespace.Update{
				{Prob: frac(1, 2), Assigns: []statespace.Assign{set(0, 1)}},
				{Prob: frac(1, 2), Assigns: []statespace.Assign{set(0, 0)}}}},
			{Module: 0, Action: "go", Guard: &expr.Expr{Op: expr.Bool, Truth: true}, Updates: []statespace.Update{{Assigns: []statespace.Assign{set(0, 0)}}}},
			{Module: 0, Action: "go", Guard: eq("a", 1), Updates: []statespace.Update{{Assigns: []statespace.Assign{set(0, 1)}}}},
		},
	}
	mech, err := m.Build(context.Background(), model.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	checkFrame(t, mech)
	md := mech.MDP
	// m1's commands are #1 (a'=1), #2 (a'=1 or 0), #3 ([go] a'=0) and #4
	// ([go] a'=1); m2's [go] is #1.
	want := map[string]map[string]map[string]*big.Rat{
		"a=0, b=0": {
			"m1#1": {"a=1, b=0": r("1")},
			"m1#2": {"a=1, b=0": r("1/2"), "a=0, b=0": r("1/2")},
			"go":   {"a=0, b=1": r("1/3"), "a=0, b=0": r("2/3")},
		},
		"a=1, b=0": {
			"go#3.1": {"a=0, b=1": r("1/3"), "a=0, b=0": r("2/3")},
			"go#4.1": {"a=1, b=1": r("1/3"), "a=1, b=0": r("2/3")},
		},
		// go is blocked: m2's [go] needs b = 0.
		"a=0, b=1": {
			"m1#1": {"a=1, b=1": r("1")},
			"m1#2": {"a=1, b=1": r("1/2"), "a=0, b=1": r("1/2")},
		},
		"a=1, b=1": {}, // a deadlock
	}
	if d := cmp.Diff(want, moves(md), ratCmp); d != "" {
		t.Errorf("choices (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"go", "go#3.1", "go#4.1", "m1#1", "m1#2"}, md.Actions); d != "" {
		t.Errorf("actions (-want +got):\n%s", d)
	}
	if nc, nt := md.NumChoices(), md.NumTransitions(); nc != 8 || nt != 13 { // s3, a deadlock, stays: one choice, one transition
		t.Errorf("%d choices, %d transitions; want 8 and 13", nc, nt)
	}
	dead, _ := mech.Chain.Lookup("s3")
	if got := mech.Chain.Valuation(dead).String(); got != "a=1, b=1" || !mech.Chain.HasLabel(dead, "deadlock") {
		t.Errorf("state s3 is %s, deadlock label %v; want a=1, b=1 labelled deadlock", got, mech.Chain.HasLabel(dead, "deadlock"))
	}
	wantNote := "an MDP: 4 states, 8 choices, 13 transitions, explored from 1 inputs; 1 deadlock states got a self-loop, as PRISM does"
	if mech.Note != wantNote {
		t.Errorf("note %q, want %q", mech.Note, wantNote)
	}
}

// The DP semantics of an MDP: every command is a choice named by its
// action; equal successors of a choice are merged.
func TestDPMDP(t *testing.T) {
	m := modules(t, `mdp module m
  input d : [0..1];
  x : [0..2] init 0;
  [low] x = 0 -> 1/2 : (x' = 1) + 1/2 : (x' = 2);
  [high] x = 0 -> 1/4 : (x' = d + 1) + 3/4 : (x' = d + 1);
  [low] x > 0 -> (x' = 0);
endmodule`)
	mech, err := m.Build(context.Background(), model.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	checkFrame(t, mech)
	want := map[string]map[string]map[string]*big.Rat{
		"d=0, x=0": {"low": {"d=0, x=1": r("1/2"), "d=0, x=2": r("1/2")}, "high": {"d=0, x=1": r("1")}},
		"d=1, x=0": {"low": {"d=1, x=1": r("1/2"), "d=1, x=2": r("1/2")}, "high": {"d=1, x=2": r("1")}},
		"d=0, x=1": {"low": {"d=0, x=0": r("1")}},
		"d=0, x=2": {"low": {"d=0, x=0": r("1")}},
		"d=1, x=1": {"low": {"d=1, x=0": r("1")}},
		"d=1, x=2": {"low": {"d=1, x=0": r("1")}},
	}
	if d := cmp.Diff(want, moves(mech.MDP), ratCmp); d != "" {
		t.Errorf("choices (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"high", "low"}, mech.MDP.Actions); d != "" {
		t.Errorf("actions (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]int{0, 1}, mech.Chain.Inputs()); d != "" {
		t.Errorf("inputs (-want +got):\n%s", d)
	}
	if strings.Contains(mech.Note, "deadlock") {
		t.Errorf("note %q: the DP semantics has no deadlocks", mech.Note)
	}
}

func TestMDPErrors(t *testing.T) {
	src := `mdp module m
  x : [0..3] init 0;
  [go] x < 2 -> (x' = x + 1);
  [stop] x = 1 -> (x' = 3);
  [go] x >= 1 -> (x' = 3);
endmodule`
	want := []string{"5:3: this command and the one at line 3 are both enabled at (x=1) with action [go]: a state of an MDP has at most one choice per action (make the guards exclusive, or name different actions)"}
	if d := cmp.Diff(want, errs(t, modules(t, src), model.Limits{})); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	// Built by hand (spec refuses it first): an unlabelled command.
	m := &statespace.Model{Name: "m", Semantics: statespace.DP, MDP: true, Modules: []string{"m"},
		Vars:     []statespace.Var{{Name: "x", Lo: 0, Hi: 1}},
		Commands: []statespace.Command{{Guard: eq("x", 0), Updates: []statespace.Update{{Assigns: []statespace.Assign{set(0, 1)}}}}}}
	_, err := m.Build(context.Background(), model.Limits{})
	if err == nil || !strings.Contains(err.Error(), "a command of an mdp module names its action") {
		t.Errorf("unlabelled command: %v", err)
	}
}

// Every choice's transitions count against the limit.
func TestMDPLimits(t *testing.T) {
	m := modules(t, `mdp module m
  x : [0..9] init 0;
  [a] x < 9 -> 1/2 : (x' = x + 1) + 1/2 : (x' = 0);
  [b] x < 9 -> 1/2 : (x' = x + 1) + 1/2 : (x' = 9);
endmodule`)
	// 9 states with 2 choices of 2 transitions (the last two share x=9
	// from x=8 on b), and x=9 absorbing: a deadlock, which stays (one
	// choice, one transition, as PRISM counts it).
	mech, err := m.Build(context.Background(), model.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if nc, nt := mech.MDP.NumChoices(), mech.MDP.NumTransitions(); nc != 19 || nt != 36 {
		t.Errorf("%d choices, %d transitions; want 19 and 36", nc, nt)
	}
	got := errs(t, m, model.Limits{MaxTransitions: 30})
	want := []string{"1:1: the model has more than 30 transitions; the limit is 30 transitions"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}
