package prism_test

import (
	"context"
	"math/big"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dpcheck/dpcheck/mdp"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/prism"
	"github.com/dpcheck/dpcheck/property"
)

// translateExternal translates an external model and properties file (read
// in place) into a program.
func translateExternal(t *testing.T, model, props string, consts map[string]prism.Value) (*property.Program, error) {
	t.Helper()
	mp, msrc := readExternal(t, model)
	pp, psrc := readExternal(t, props)
	mf, err := prism.ParseModel(mp, msrc)
	if err != nil {
		t.Fatal(err)
	}
	pf, err := prism.ParseProperties(pp, psrc)
	if err != nil {
		t.Fatal(err)
	}
	return prism.Program(mf, pf, prism.Options{Consts: consts})
}

// buildMDP builds a program's model and checks that it is an MDP over an
// absorbing frame.
func buildMDP(t *testing.T, p *property.Program) *model.Mechanism {
	t.Helper()
	if m, ok := p.Model.(*prism.Model); !ok || !m.IsMDP() {
		t.Fatalf("the model is %T, not a PRISM MDP", p.Model)
	}
	mech, err := p.Model.Build(context.Background(), model.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if mech.MDP == nil || mech.MDP.Frame != mech.Chain {
		t.Fatal("the mechanism has no MDP over its chain")
	}
	for s := range mech.Chain.NumStates() {
		if !mech.Chain.IsAbsorbing(s) {
			t.Fatalf("frame state %s is not absorbing", mech.Chain.Valuation(s))
		}
	}
	return mech
}

// mdpMoves returns every state's choices: valuation → choice → successor
// valuation → probability.
func mdpMoves(m *mdp.MDP) map[string]map[string]map[string]*big.Rat {
	out := map[string]map[string]map[string]*big.Rat{}
	for s, cs := range m.Choices {
		row := map[string]map[string]*big.Rat{}
		for _, c := range cs {
			d := map[string]*big.Rat{}
			for i, u := range c.To {
				d[m.Frame.Valuation(u).String()] = c.P[i]
			}
			row[m.Actions[c.Action]] = d
		}
		out[m.Frame.Valuation(s).String()] = row
	}
	return out
}

// TestConformanceYN2: the dpCTL plug-in's MDP survey: from s=0 (t=1), five
// states, actions a and b everywhere, 10 choices and 13 transitions, the
// probabilities exactly those of the file; P=? [ F s=2 ] is a query of
// extreme "" (the statements judge it on an MDP) and D{3,0}[…] a check.
func TestConformanceYN2(t *testing.T) {
	p, err := translateExternal(t, "dpctl_epmc/yn2.prism", "dpctl_epmc/yn2.pctl", nil)
	if err != nil {
		t.Fatal(err)
	}
	mech := buildMDP(t, p)
	m := mech.MDP
	want := map[string]map[string]map[string]*big.Rat{
		"s=0, t=1": {
			"a": {"s=1, t=1": rat("1/2"), "s=2, t=1": rat("1/2")},
			"b": {"s=1, t=1": rat("1/2"), "s=2, t=1": rat("1/2")},
		},
		"s=1, t=1": {"a": {"s=3, t=1": rat("1")}, "b": {"s=3, t=1": rat("1/2"), "s=4, t=1": rat("1/2")}},
		"s=2, t=1": {"a": {"s=0, t=1": rat("1")}, "b": {"s=0, t=1": rat("1")}},
		"s=3, t=1": {"a": {"s=3, t=1": rat("1")}, "b": {"s=3, t=1": rat("1")}},
		"s=4, t=1": {"a": {"s=4, t=1": rat("1")}, "b": {"s=4, t=1": rat("1")}},
	}
	if d := cmp.Diff(want, mdpMoves(m), ratCmp); d != "" {
		t.Errorf("choices (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"a", "b"}, m.Actions); d != "" {
		t.Errorf("actions (-want +got):\n%s", d)
	}
	if nc, nt := m.NumChoices(), m.NumTransitions(); nc != 10 || nt != 13 {
		t.Errorf("%d choices, %d transitions; want 10 and 13", nc, nt)
	}
	if ins := mech.Chain.Inputs(); len(ins) != 1 || mech.Chain.Valuation(ins[0]).String() != "s=0, t=1" || !mech.Chain.HasLabel(ins[0], "init") {
		t.Errorf("inputs %v, want s=0, t=1 labelled init", ins)
	}
	if want := "an MDP: 5 states, 10 choices, 13 transitions, explored from 1 initial state (the inputs)"; mech.Note != want {
		t.Errorf("note %q, want %q", mech.Note, want)
	}
	if len(p.Statements) != 2 {
		t.Fatalf("%d statements, want 2", len(p.Statements))
	}
	if q, ok := p.Statements[0].(*property.ProbQuery); !ok || q.Extreme != "" {
		t.Errorf("P=? [ F s=2 ] is %#v, want a ProbQuery without extreme", p.Statements[0])
	}
	if _, ok := p.Statements[1].(*property.FormulaCheck); !ok {
		t.Errorf("D{3,0} [ … ] is %T, want a FormulaCheck", p.Statements[1])
	}
}

// TestConformanceDiningCrypt: the dining cryptographers (N = 3), an MDP
// with global variables, renamed modules and a synchronised [done]: 380
// states, 620 choices and 776 transitions (EXPECTED.md), the 4 initial
// states of init … endinit; choices named after the modules and done.
// correctness.pctl translates; anonymity.pctl's old-style filters
// {"init"&pay>0}{min} give the values EXPECTED.md records.
func TestConformanceDiningCrypt(t *testing.T) {
	p, err := translateExternal(t, "prism_dining_crypt/dining_crypt3.nm", "prism_dining_crypt/correctness.pctl", nil)
	if err != nil {
		t.Fatal(err)
	}
	mech := buildMDP(t, p)
	m := mech.MDP
	if n := m.NumStates(); n != 380 {
		t.Errorf("%d states, want 380", n)
	}
	if nc, nt := m.NumChoices(), m.NumTransitions(); nc != 620 || nt != 776 {
		t.Errorf("%d choices, %d transitions; want 620 and 776", nc, nt)
	}
	var ins []string
	for _, s := range mech.Chain.Inputs() {
		ins = append(ins, mech.Chain.Valuation(s).String())
	}
	sort.Strings(ins)
	wantIns := []string{
		"pay=0, coin1=0, s1=0, agree1=0, coin2=0, s2=0, agree2=0, coin3=0, s3=0, agree3=0",
		"pay=1, coin1=0, s1=0, agree1=0, coin2=0, s2=0, agree2=0, coin3=0, s3=0, agree3=0",
		"pay=2, coin1=0, s1=0, agree1=0, coin2=0, s2=0, agree2=0, coin3=0, s3=0, agree3=0",
		"pay=3, coin1=0, s1=0, agree1=0, coin2=0, s2=0, agree2=0, coin3=0, s3=0, agree3=0",
	}
	if d := cmp.Diff(wantIns, ins); d != "" {
		t.Errorf("inputs (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"crypt1", "crypt2", "crypt3", "done"}, m.Actions); d != "" {
		t.Errorf("actions (-want +got):\n%s", d)
	}
	// From an initial state every cryptographer may flip its coin.
	in := mech.Chain.Inputs()[0]
	got := mdpMoves(m)[mech.Chain.Valuation(in).String()]
	if len(got) != 3 || len(got["crypt1"]) != 2 || got["crypt1"][mech.Chain.Valuation(in).String()] != nil {
		t.Errorf("the choices of %s: %v", mech.Chain.Valuation(in), got)
	}
	for _, d := range got["crypt1"] {
		if d.Cmp(rat("1/2")) != 0 {
			t.Errorf("a coin flip has probability %s, want 1/2", d.RatString())
		}
	}
	if len(p.Statements) != 2 {
		t.Errorf("%d statements of correctness.pctl, want 2", len(p.Statements))
	}

	// anonymity.pctl's old-style filters {"init"&pay>0}{min} and {max}:
	// when a cryptographer pays, each outcome with an even number of
	// agrees (0, 3, 5, 6) has probability 1/4 whatever the scheduler
	// (EXPECTED.md), the others 0; Pmin = Pmax, as the file's comment says.
	for k := range int64(8) {
		res := mustExternal(t, "prism_dining_crypt/dining_crypt3.nm", "prism_dining_crypt/anonymity.pctl", map[string]prism.Value{"k": {Num: big.NewRat(k, 1)}})
		want := "0"
		if k == 0 || k == 3 || k == 5 || k == 6 {
			want = "1/4"
		}
		if len(res.Statements) != 2 {
			t.Fatalf("k = %d: %d statements, want 2", k, len(res.Statements))
		}
		for _, o := range res.Statements {
			if _, ok := o.(*property.FilterOutcome); !ok || o.Err() != nil || o.Value() != want {
				t.Errorf("k = %d: %s = %s (%T, %v), want %s", k, o.Statement().Head().Text, o.Value(), o, o.Err(), want)
			}
		}
	}
}
