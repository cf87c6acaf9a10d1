package spec_test

import (
	"context"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/model"
	"github.com/google/go-cmp/cmp"
)

// An MDP's explicit files: the frame has the states, values and labels,
// every state absorbing; the choices are named by their actions (c<k>
// without one, and "#k" when two of a state would share a name).
func TestExplicitMDP(t *testing.T) {
	files := map[string]string{
		"m.tra": "3 5 7\n0 0 1 1/2 a\n0 0 2 0.5 a\n0 1 1 1 b\n1 0 1 1 go\n1 1 0 1 go\n2 0 2 0.75\n2 0 0 1/4\n",
		"m.lab": "0=\"init\" 1=\"deadlock\"\n0: 0\n",
		"m.sta": "(x)\n0:(0)\n1:(1)\n2:(2)\n",
	}
	src := "model explicit(\"m.tra\", \"m.lab\", \"m.sta\")\nquery Pmax=?[F x = 2]\n"
	p, err := withFiles(files, model.Limits{}).Load(context.Background(), "m.dp", src)
	if err != nil {
		t.Fatal(err)
	}
	mech, err := p.Model.Build(context.Background(), model.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	m := mech.MDP
	if m == nil || m.Frame != mech.Chain {
		t.Fatal("no MDP over the frame")
	}
	got := map[string]map[string]map[string]*big.Rat{}
	for s, cs := range m.Choices {
		if !mech.Chain.IsAbsorbing(s) {
			t.Errorf("frame state %d is not absorbing", s)
		}
		row := map[string]map[string]*big.Rat{}
		for _, c := range cs {
			d := map[string]*big.Rat{}
			for i, u := range c.To {
				d[mech.Chain.Name(u)] = c.P[i]
			}
			row[m.Actions[c.Action]] = d
		}
		got[mech.Chain.Name(s)+" "+mech.Chain.Valuation(s).String()] = row
	}
	want := map[string]map[string]map[string]*big.Rat{
		"s0 x=0": {"a": {"s1": r("1/2"), "s2": r("1/2")}, "b": {"s1": r("1")}},
		"s1 x=1": {"go#0": {"s1": r("1")}, "go#1": {"s0": r("1")}},
		"s2 x=2": {"c0": {"s0": r("1/4"), "s2": r("3/4")}},
	}
	if d := cmp.Diff(want, got, ratCmp); d != "" {
		t.Errorf("choices (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"a", "b", "c0", "go#0", "go#1"}, m.Actions); d != "" {
		t.Errorf("actions (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]int{0}, mech.Chain.Inputs()); d != "" {
		t.Errorf("inputs (-want +got):\n%s", d)
	}
	if want := "an MDP: 3 states, 5 choices, 7 transitions read from PRISM's explicit files, 1 initial state (the inputs)"; mech.Note != want {
		t.Errorf("note %q, want %q", mech.Note, want)
	}
}

func TestExplicitMDPErrors(t *testing.T) {
	const lab = "0=\"init\"\n0: 0\n"
	const call = "model explicit(\"m.tra\", \"m.lab\")\nquery Pmax=?[F \"init\"]\n"
	for _, tc := range []struct {
		name, tra string
		limits    model.Limits
		want      []string
	}{
		{name: "header", tra: "2 x 3\n0 0 1 1\n",
			want: []string{`m.tra:1:3: "x" is not a number of choices []`}},
		{name: "transitions limit", tra: "2 2 3\n0 0 1 1\n", limits: model.Limits{MaxTransitions: 4},
			want: []string{"m.tra:1:1: the model would have about 5 transitions; the limit is 4 transitions [transitions]"}},
		{name: "lines", tra: "2 2 4\n0 0 1\n0 x 1 1\n0 0 2 1\n0 0 1 0\n1 0 0 1\n",
			want: []string{
				"m.tra:2:1: a transition of an MDP is SOURCE CHOICE TARGET PROBABILITY (and an action): found 3 fields []",
				`m.tra:3:3: "x" is not a choice: a state's choices are numbered 0, 1, … []`,
				`m.tra:4:5: "2" is not a state: the states are 0 to 1 []`,
				"m.tra:5:7: a transition has probability 0: leave it out []",
				"m.tra:6:1: the first line says the file has 4 transitions; this is one more []",
			}},
		{name: "choices", tra: "2 3 6\n0 0 1 1/2 a\n0 0 0 1/2 b\n0 2 1 1\n1 0 0 1/3\n1 0 1 1/3\n1 0 1 1/3\n",
			want: []string{
				`m.tra:3:1: choice 0 of state 0 has two actions, "b" and "a" (line 2) []`,
				"m.tra:4:1: state 0 has choice 2 but no choice 1: a state's choices are numbered 0, 1, … []",
				"m.tra:7:1: the transition of choice 0 of state 1 to 1 is listed twice (also at line 6) []",
			}},
		{name: "sums and count", tra: "2 3 3\n0 0 1 1/2\n0 0 0 1/3\n1 0 0 1\n",
			want: []string{
				"m.tra:1:1: the first line says the file has 3 choices; it has 2 []",
				"m.tra:2:1: the probabilities of choice 0 of state 0 sum to 5/6, not 1 (PRISM writes rounded decimals unless it exports with -exact) []",
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := withFiles(map[string]string{"m.tra": tc.tra, "m.lab": lab}, tc.limits).Load(context.Background(), "m.dp", call)
			if d := cmp.Diff(tc.want, errorLines(err)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}
