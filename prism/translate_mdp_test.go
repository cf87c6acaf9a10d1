package prism_test

import (
	"context"
	"math/big"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/prism"
	"github.com/dpcheck/dpcheck/property"
)

// translate parses and translates a model and properties given as text.
func translate(t *testing.T, text, props string) (*property.Program, error) {
	t.Helper()
	mf, err := prism.ParseModel("m.pm", text)
	if err != nil {
		t.Fatal(err)
	}
	pf, err := prism.ParseProperties("p.pctl", props)
	if err != nil {
		t.Fatal(err)
	}
	return prism.Program(mf, pf, prism.Options{})
}

// mdp, nondeterministic and a model without a type are MDPs: unlabelled
// commands are choices named after their module (with the command's index
// when two meet), [go] synchronises, probabilities multiply; Pmin=? and
// Pmax=? are extremes, P=? and bounds are left as written.
func TestTranslateMDP(t *testing.T) {
	body := `
module m1
  a : [0..1] init 0;
  [] a=0 -> (a'=1);
  [] a=0 -> 0.5 : (a'=1) + 0.5 : true;
  [go] a=1 -> 1/3 : (a'=0) + 2/3 : true;
endmodule
module m2
  b : [0..1] init 0;
  [go] true -> 0.25 : (b'=1-b) + 0.75 : true;
endmodule
`
	props := "Pmin=? [ F a=1 ]\nPmax=? [ F b=1 ]\nP=? [ F a=1 ]\nP>=1/2 [ F a=1 ]\n"
	for _, typ := range []string{"mdp", "nondeterministic", ""} {
		p, err := translate(t, typ+body, props)
		if err != nil {
			t.Fatalf("%q: %v", typ, err)
		}
		mech, err := p.Model.Build(context.Background(), model.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]map[string]map[string]*big.Rat{
			"a=0, b=0": {"m1#1": {"a=1, b=0": rat("1")}, "m1#2": {"a=1, b=0": rat("1/2"), "a=0, b=0": rat("1/2")}},
			"a=1, b=0": {"go": {"a=0, b=0": rat("1/4"), "a=0, b=1": rat("1/12"), "a=1, b=0": rat("1/2"), "a=1, b=1": rat("1/6")}},
			"a=0, b=1": {"m1#1": {"a=1, b=1": rat("1")}, "m1#2": {"a=1, b=1": rat("1/2"), "a=0, b=1": rat("1/2")}},
			"a=1, b=1": {"go": {"a=0, b=1": rat("1/4"), "a=0, b=0": rat("1/12"), "a=1, b=1": rat("1/2"), "a=1, b=0": rat("1/6")}},
		}
		if mech.MDP == nil {
			t.Fatalf("%q: no MDP", typ)
		}
		if d := cmp.Diff(want, mdpMoves(mech.MDP), ratCmp); d != "" {
			t.Errorf("%q: choices (-want +got):\n%s", typ, d)
		}
		wantNote := "an MDP: 4 states, 6 choices, 14 transitions, explored from 1 initial state (the inputs)"
		if typ == "" {
			wantNote += "; the model declares no type, and is read as an MDP, as PRISM does"
		}
		if mech.Note != wantNote {
			t.Errorf("%q: note %q, want %q", typ, mech.Note, wantNote)
		}
		var extremes []string
		for _, st := range p.Statements[:3] {
			extremes = append(extremes, st.(*property.ProbQuery).Extreme)
		}
		if d := cmp.Diff([]string{"min", "max", ""}, extremes); d != "" {
			t.Errorf("%q: extremes (-want +got):\n%s", typ, d)
		}
		if _, ok := p.Statements[3].(*property.FormulaCheck); !ok {
			t.Errorf("%q: P>=1/2 […] is %T", typ, p.Statements[3])
		}
	}
	// On a Markov chain, Pmin=? and Pmax=? are P=?.
	p, err := translate(t, "dtmc"+body, props)
	if err != nil {
		t.Fatal(err)
	}
	if q := p.Statements[0].(*property.ProbQuery); q.Extreme != "" {
		t.Errorf("dtmc: Pmin=? has extreme %q", q.Extreme)
	}
}
