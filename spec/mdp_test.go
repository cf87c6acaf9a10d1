package spec_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/spec"
	"github.com/dpcheck/dpcheck/statespace"
)

const mdpModule = `mdp module m
  input d : [0..1];
  x : [0..2] init 0;
  [low] x = 0 -> 1/2 : (x' = 1) + 1/2 : (x' = 2);
  [high] x = 0 -> (x' = d + 1);
endmodule
label "one" = x = 1
neighbours true
`

// An MDP's modules, Pmin=? and Pmax=?, and expect unknown.
func TestMDPProgram(t *testing.T) {
	src := mdpModule + `query Pmin=?[F "one"]
query Pmax=?[F "one"] expect 1
check D{ln(2), 0}[F "one"] expect unknown
check P>=1/2[F "one"] expect violated
`
	p, err := spec.Load(context.Background(), "t.dp", src)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := p.Model.(*statespace.Model)
	if !ok || !m.MDP || m.Semantics != statespace.DP || !m.IsMDP() {
		t.Fatalf("the model is %#v, want an MDP of modules", p.Model)
	}
	var acts []string
	for _, c := range m.Commands {
		acts = append(acts, c.Action)
	}
	if d := cmp.Diff([]string{"low", "high"}, acts); d != "" {
		t.Errorf("actions (-want +got):\n%s", d)
	}
	if len(p.Statements) != 4 {
		t.Fatalf("%d statements, want 4", len(p.Statements))
	}
	for i, want := range []string{"min", "max"} {
		q, ok := p.Statements[i].(*property.ProbQuery)
		if !ok || q.Extreme != want {
			t.Errorf("statement %d is %#v, want a ProbQuery with Extreme %q", i+1, p.Statements[i], want)
		}
	}
	if q := p.Statements[1].(*property.ProbQuery); q.ExpectAll == nil || q.ExpectAll.Cmp(r("1")) != 0 {
		t.Errorf("Pmax expects %v, want 1", q.ExpectAll)
	}
	h := p.Statements[2].Head()
	if h.Expect.Kind != property.ExpectUnknown || h.Expect.Text != "unknown" || h.Expect.Pos.Line != 11 || h.Text != `check D{ln(2), 0}[F "one"] expect unknown` {
		t.Errorf("expectation %+v (%q), want unknown at line 11", h.Expect, h.Text)
	}
	if h := p.Statements[3].Head(); h.Expect.Kind != property.ExpectViolated {
		t.Errorf("expectation %+v, want violated", h.Expect)
	}
}

func TestMDPErrors(t *testing.T) {
	const chain = "module m\n  input x : [0..1];\nendmodule\nneighbours true\n"
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"unlabelled command", "mdp module m\n  x : [0..1] init 0;\n  [] x = 0 -> (x' = 1);\nendmodule\nneighbours true\nquery Pmax=?[F x = 1]\n",
			[]string{"3:3: a command of an mdp module names its action, the choice it is: write [a] guard -> …"}},
		{"one action in two modules", "mdp module a\n  x : [0..1] init 0;\n  [go] x = 0 -> (x' = 1);\nendmodule\nmdp module b\n  y : [0..1] init 0;\n  [go] y = 0 -> (y' = 1);\nendmodule\nneighbours true\nquery Pmax=?[F y = 1]\n",
			[]string{"7:3: this command and the one at line 3 are both enabled at (x=0, y=0) with action [go]: a state of an MDP has at most one choice per action (make the guards exclusive, or name different actions)"}},
		{"mixed modules", "module a\n  x : [0..1] init 0;\nendmodule\nmdp module b\n  y : [0..1] init 0;\n  [go] y = 0 -> (y' = 1);\nendmodule\nneighbours true\nquery Pmax=?[F y = 1]\n",
			[]string{"1:1: module a is a Markov chain's, and mdp module b (line 4) makes the model an MDP: write mdp module a"}},
		{"mdp without module", "mdp m\n", []string{`1:5: unexpected "m" (expected "module": an MDP's module is written mdp module NAME … endmodule)`}},
		{"Pmin on a chain", chain + "query Pmin=?[F x = 1]\n",
			[]string{"5:7: Pmin=?[…] is the minimum over the schedulers of an MDP, and this model is a Markov chain: write P=?[…]"}},
		{"Pmax on a builder", "model survey(theta1 = 1/2)\nquery Pmax=?[F \"Y\"]\n",
			[]string{"2:7: Pmax=?[…] is the maximum over the schedulers of an MDP, and this model is a Markov chain: write P=?[…]"}},
		{"Pmin with a bound", mdpModule + "query Pmin=1/2[F \"one\"]\n", []string{"9:12: Pmin= asks for a probability: write Pmin=?[ψ] (bounds such as P>=p[ψ] hold for every scheduler)"}},
		{"Pmin checked", mdpModule + "check Pmin=?[F \"one\"]\n", []string{"9:7: Pmin=?[…] is a query: write query Pmin=?[…]"}},
		{"Pmax nested", mdpModule + "check P>=1[F Pmax=?[X \"one\"]]\n", []string{"9:14: Pmax=?[…] is a query of its own: write query Pmax=?[…]"}},
		{"expect unknown on a chain", chain + "check D{0, 0}[F x = 1] expect unknown\n",
			[]string{"5:31: expect unknown is for a check on an MDP that may be neither proved nor refuted; a check on a Markov chain is decided exactly: expect holds or violated"}},
		{"expect unknown on a query", mdpModule + "query Pmax=?[F \"one\"] expect unknown\n", []string{"9:30: a query expects a value, not unknown"}},
		{"Pmin as a name", "const Pmin = 1\n" + chain + "query P=?[F x = 1]\n", []string{"1:7: Pmin is a keyword and cannot name a constant"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, errorsOf(t, tc.src)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// The formatter writes mdp modules, Pmin=?, Pmax=? and expect unknown
// canonically, and reads them back.
func TestFormatMDP(t *testing.T) {
	src := "mdp   module m\ninput d:[0..1];x:[0..2] init 0;\n[low]x=0->1/2:(x'=1)+1/2:(x'=2);\n[ high ] x=0->(x'=d+1);\nendmodule\n" +
		"label \"one\"=x=1\nneighbours true\nquery Pmin=?[F \"one\"]\nquery Pmax =? [F<=3 \"one\"] expect 1\ncheck D{ln(2),0}[F \"one\"] expect unknown\n"
	want := `mdp module m
  input d : [0..1];
  x : [0..2] init 0;
  [low] x = 0 -> 1/2 : (x' = 1) + 1/2 : (x' = 2);
  [high] x = 0 -> (x' = d + 1);
endmodule
label "one" = x = 1
neighbours true
query Pmin=?[F "one"]
query Pmax=?[F<=3 "one"] expect 1
check D{ln(2), 0}[F "one"] expect unknown
`
	got, err := spec.Format("t.dp", src)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Format (-want +got):\n%s", d)
	}
	again, err := spec.Format("t.dp", got)
	if err != nil || again != got {
		t.Errorf("formatting twice changes the text (%v):\n%s", err, again)
	}
}
