package prism_test

import (
	"context"
	"errors"
	"math/big"
	"os"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/prism"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
	"github.com/google/go-cmp/cmp"
)

// ratCmp compares exact rationals by value.
var ratCmp = cmp.Comparer(func(a, b *big.Rat) bool { return a.Cmp(b) == 0 })

// files is a Config whose ReadFile reads the given texts by name.
func files(texts map[string]string) dpcheck.Config {
	return dpcheck.Config{ReadFile: func(path string) (string, error) {
		if s, ok := texts[path]; ok {
			return s, nil
		}
		return "", os.ErrNotExist
	}}
}

// check runs a model (m.pm) and properties (p.pctl) given as text.
func check(t *testing.T, model, props string, consts map[string]prism.Value) (*dpcheck.Result, error) {
	t.Helper()
	return files(map[string]string{"m.pm": model, "p.pctl": props}).CheckPRISM(context.Background(), "m.pm", "p.pctl", consts)
}

// mustCheck is check for a model and properties that load.
func mustCheck(t *testing.T, model, props string, consts map[string]prism.Value) *dpcheck.Result {
	t.Helper()
	r, err := check(t, model, props, consts)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return r
}

// probs returns, per statement, the probability of every input ("s=0":
// 3/4) of a P=? query, or the verdict ("holds", "violated") of a check.
func probs(t *testing.T, r *dpcheck.Result) []map[string]*big.Rat {
	t.Helper()
	var out []map[string]*big.Rat
	for _, o := range r.Statements {
		if o.Err() != nil {
			t.Fatalf("%s: %v", o.Statement().Head().Text, o.Err())
		}
		m := map[string]*big.Rat{}
		switch o := o.(type) {
		case *property.ProbOutcome:
			for _, p := range o.Probs {
				m[p.State.Valuation.String()] = p.Pr
			}
		default:
			m[o.Value()] = new(big.Rat)
		}
		out = append(out, m)
	}
	return out
}

// errorsOf returns the messages of a load's errors, "file:line:col: msg".
// refusedOf returns the refusals of the statements refused on their own,
// as errorsOf does.
func refusedOf(sts []property.Statement) []string {
	var out []string
	for _, st := range sts {
		if r, ok := st.(*property.Refused); ok {
			for _, e := range r.Why {
				out = append(out, e.Error())
			}
		}
	}
	return out
}

func errorsOf(t *testing.T, err error) []string {
	t.Helper()
	var list source.ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %v (%T), want a source.ErrorList", err, err)
	}
	var out []string
	for _, e := range list {
		out = append(out, e.Error())
	}
	return out
}

func r(a, b int64) *big.Rat { return big.NewRat(a, b) }

// TestExactNumbers: decimals are the rationals they denote, / divides
// exactly, and the functions compute exactly (round as Java's Math.round,
// mod never negative).
func TestExactNumbers(t *testing.T) {
	model := `dtmc
const double p = 0.75;
const double q = .2;
const double e = 1e-3;
const int k = 7;
module m
  s : [0..9] init 0;
  [] s=0 -> p : (s'=1) + q : (s'=2) + e : (s'=3) + 1-p-q-e : (s'=4);
  [] s=1 -> 1/3 : (s'=5) + 2/3 : (s'=round(k/2));
  [] s=2 -> pow(1/2, 2) : (s'=floor(k/2)) + 1 - pow(2.0, -2) : (s'=ceil(k/2) + mod(-1, 3));
  [] s>2 -> true;
endmodule
`
	props := `P=? [ X s=1 ]
P=? [ X s=2 ]
P=? [ X s=3 ]
P=? [ X s=4 ]
P=? [ X X s=5 ]
P=? [ X X s=3 ]
P=? [ X X s=6 ]
`
	got := probs(t, mustCheck(t, model, props, nil))
	want := []map[string]*big.Rat{
		{"s=0": r(3, 4)}, {"s=0": r(1, 5)}, {"s=0": r(1, 1000)}, {"s=0": r(49, 1000)},
		// round(7/2) = 4 (half up), so X X s=5 is 3/4·1/3; floor(7/2) = 3.
		{"s=0": r(1, 4)},
		{"s=0": new(big.Rat).Add(r(1, 1000), r(1, 20))},
		// ceil(7/2) + mod(-1, 3) = 4 + 2 = 6.
		{"s=0": r(3, 20)},
	}
	if d := cmp.Diff(want, got, ratCmp); d != "" {
		t.Errorf("probabilities (-want +got):\n%s", d)
	}
}

// TestPRISMSemantics: uniform choice among enabled commands, synchronised
// actions multiplying, renamed modules, globals written by unlabelled
// commands, init … endinit, and the deadlock self-loop with its label.
func TestPRISMSemantics(t *testing.T) {
	model := `dtmc
global g : [0..2];
module a
  x : [0..2];
  [] x=0 -> (x'=1);
  [] x=0 -> (x'=2) & (g'=1);
  [go] x>0 -> 1/2 : (x'=0) + 1/2 : true;
endmodule
module b = a [x=y] endmodule
init g=0 & x=0 & y<=1 endinit
`
	props := `P=? [ X x=1 ]
P=? [ X g=1 ]
P=? [ X X (x=0 & y=0) ]
P>=1 [ F "deadlock" ]
P=? [ F<=1 "deadlock" ]
"init" & g=0
`
	res := mustCheck(t, model, props, nil)
	if res.Size.States == 0 || res.Size.Inputs != 2 || res.Size.Pairs != 1 {
		t.Errorf("size %+v, want 2 inputs (x=0, y=0 and y=1) and 1 pair", res.Size)
	}
	got := probs(t, res)
	// From (g=0, x=0, y=0): four unlabelled commands, 1/4 each; from y=1
	// two (b's need y=0), and [go] waits for x>0 as well. Back to x=y=0
	// in two steps only from y=1: a moves, then both take [go] and each
	// resets with probability 1/2.
	want := []map[string]*big.Rat{
		{"g=0, x=0, y=0": r(1, 4), "g=0, x=0, y=1": r(1, 2)},
		{"g=0, x=0, y=0": r(1, 2), "g=0, x=0, y=1": r(1, 2)},
		{"g=0, x=0, y=0": r(0, 1), "g=0, x=0, y=1": r(1, 4)},
		{"violated": new(big.Rat)},
		{"g=0, x=0, y=0": r(0, 1), "g=0, x=0, y=1": r(0, 1)},
		{"holds": new(big.Rat)},
	}
	if d := cmp.Diff(want, got, ratCmp); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if !strings.Contains(res.Model.Note, "(the inputs)") || res.Model.Neighbours != prism.Neighbours {
		t.Errorf("model info %+v", res.Model)
	}
}

// TestSynchronisationMultiplies: a synchronised step is the product of the
// modules' distributions, and a module with the action blocks it until its
// own command is enabled.
func TestSynchronisationMultiplies(t *testing.T) {
	model := `dtmc
module a
  x : [0..2];
  [s] x=0 -> 1/3 : (x'=1) + 2/3 : (x'=2);
endmodule
module b
  y : [0..2];
  [s] y=0 -> 1/4 : (y'=1) + 3/4 : (y'=2);
  [] y=0 -> (y'=1);
endmodule
`
	props := `P=? [ X (x=2 & y=2) ]
P=? [ X (x=0 & y=1) ]
`
	got := probs(t, mustCheck(t, model, props, nil))
	want := []map[string]*big.Rat{{"x=0, y=0": r(1, 4)}, {"x=0, y=0": r(1, 2)}}
	if d := cmp.Diff(want, got, ratCmp); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestDeadlockNote: deadlock states are counted in the model's note and
// carry the label "deadlock"; a reward structure no property uses is
// not evaluated.
func TestDeadlockNote(t *testing.T) {
	model := "dtmc\nmodule m\n  s : [0..2];\n  [] s=0 -> 1/2 : (s'=1) + 1/2 : (s'=2);\nendmodule\nrewards \"r\"\n  true : 1;\nendrewards\n"
	res := mustCheck(t, model, `P=? [ X "deadlock" ]`, nil)
	want := "3 states explored from 1 initial state (the inputs); 2 deadlock states got a self-loop (as PRISM does)"
	if res.Model.Note != want {
		t.Errorf("note %q, want %q", res.Model.Note, want)
	}
	if d := cmp.Diff([]map[string]*big.Rat{{"s=0": r(1, 1)}}, probs(t, res), ratCmp); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestForeignWrite: an unsynchronised command may write another module's
// variable (the dpCTL plug-in's examples do; PRISM refuses it), and the
// model's note says so.
func TestForeignWrite(t *testing.T) {
	model := "dtmc\nmodule a\n  x : [0..1];\nendmodule\nmodule b\n  y : [0..1];\n  [] y=0 -> (y'=1) & (x'=1);\nendmodule\n"
	res := mustCheck(t, model, "P=? [ X x=1 ]", nil)
	if !strings.Contains(res.Model.Note, "module b writes x, a variable of module a (line 7), which PRISM refuses") {
		t.Errorf("note %q does not say that b writes a's x", res.Model.Note)
	}
	if d := cmp.Diff([]map[string]*big.Rat{{"x=0, y=0": r(1, 1)}}, probs(t, res), ratCmp); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestProperties: named properties and references to them, labels of both
// files, filters, D with a plain ε, the least ε and δ of D, and Pmin/Pmax
// read as P on a Markov chain.
func TestProperties(t *testing.T) {
	model := `dtmc
module m
  s : [0..4];
  [] s=0 -> 0.75 : (s'=2) + 0.25 : (s'=3);
  [] s=1 -> 0.25 : (s'=2) + 0.75 : (s'=3);
endmodule
init s<=1 endinit
label "yes" = s=2;
`
	props := `label "no" = s=3;
formula answered = s>=2;
"yes1": P>=1/4 [ X "yes" ];
P=? [ X "no" ]
"yes1" & !"no"
D{1, 0} [ X "yes" ]
D{?, 0} [ X "yes" ]
D{1, ?} [ X "yes" ]
D{1.5, ?} [ X "yes" ]
D{0, ?} [ X "yes" ]
filter(forall, answered => s!=4)
filter(forall, s=0, "init")
filter(forall, P>=1 [ X answered ], s<=1)
filter(first, P=? [ F answered ], "init")
Pmin=? [ X "yes" ]
`
	res := mustCheck(t, model, props, nil)
	var got []string
	for _, o := range res.Statements {
		got = append(got, o.Statement().Head().Text+" → "+o.Value())
	}
	want := []string{
		`"yes1": P>=1/4 [ X "yes" ] → holds`,
		`P=? [ X "no" ] → `,
		`"yes1" & !"no" → holds`,
		`D{1, 0} [ X "yes" ] → violated`, // 3/4 > e·1/4
		`D{?, 0} [ X "yes" ] → ln(3)`,
		`D{1, ?} [ X "yes" ] → 3/4 - 1/4·e^(1)`, // e < 3: the ratio 3 needs δ
		`D{1.5, ?} [ X "yes" ] → 0`,             // e^1.5 > 3

		`D{0, ?} [ X "yes" ] → 1/2`,
		`filter(forall, answered => s!=4) → holds`,
		`filter(forall, s=0, "init") → violated`,
		`filter(forall, P>=1 [ X answered ], s<=1) → holds`,
		`filter(first, P=? [ F answered ], "init") → `,
		`Pmin=? [ X "yes" ] → `,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestOneInitialState: with one initial state there is no neighbouring
// pair; P=? is computed and D{ε,δ}[ψ] holds trivially, while standard DP
// (which compares pairs) is refused for want of one.
func TestOneInitialState(t *testing.T) {
	model := "dtmc\nmodule m\n  s : [0..2];\n  [] s=0 -> 1/2 : (s'=1) + 1/2 : (s'=2);\nendmodule\n"
	res := mustCheck(t, model, "P=? [ X s=1 ]\nD{0, 0} [ X s=1 ]\n", nil)
	want := []map[string]*big.Rat{{"s=0": r(1, 2)}, {"holds": new(big.Rat)}}
	if d := cmp.Diff(want, probs(t, res), ratCmp); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if res.Size.Pairs != 0 || res.Size.Inputs != 1 {
		t.Errorf("size %+v, want 1 input and no pair", res.Size)
	}
	dp := files(map[string]string{"m.pm": model})
	_, err := dp.CheckSource(context.Background(), "x.dp", "model prism(\"m.pm\")\ncheck dp(eps = 0)\n")
	if err == nil || err.Error() != "x.dp:2:1: this statement compares neighbouring inputs, and the model has one input" {
		t.Errorf("dp on one input: %v, want a load error at the statement", err)
	}
}

// TestUnusedUndefinedPropertyConstant: an undefined constant of the
// properties file that no property uses needs no value, as in PRISM; one
// a property uses does, and a value given for it is used.
func TestUnusedUndefinedPropertyConstant(t *testing.T) {
	r := mustCheck(t, base, "const double p;\nconst int k;\nP=? [ F s=1 ]\n", nil)
	if len(r.Statements) != 1 || !r.Statements[0].Pass() {
		t.Errorf("%d statements, want one that passes", len(r.Statements))
	}
	if _, err := check(t, base, "const double p;\nP>p [ F s=1 ]\n", nil); err == nil || !strings.Contains(err.Error(), "the double constant p has no value") {
		t.Errorf("a used undefined constant: %v", err)
	}
	r = mustCheck(t, base, "const double p;\nP>p [ F s=1 ]\n", map[string]prism.Value{"p": {Num: big.NewRat(1, 4)}})
	if len(r.Statements) != 1 || !r.Statements[0].Pass() {
		t.Errorf("with p = 1/4: %d statements, want one that passes", len(r.Statements))
	}
}

// TestRationalPowers: pow with a non-integer exponent is exact where the
// result is rational (pow(1/4, 1/2) = 1/2, pow(8, 2/3) = 4, pow(8, −2/3) =
// 1/4), and min and max take one argument, as in PRISM.
func TestRationalPowers(t *testing.T) {
	model := "dtmc\nconst double a = pow(1/4, 1/2);\nconst double b = pow(8, 2/3);\nconst double c = pow(8, -2/3);\nconst int m = min(3);\n" +
		"module x\n  s : [0..1] init 0;\n  [] s=0 -> a : (s'=1) + 1-a : true;\nendmodule\nlabel \"one\" = s=1 & b=4 & c=1/4 & m=3;\n"
	res := mustCheck(t, model, "P=? [ X \"one\" ]", nil)
	want := []map[string]*big.Rat{{"s=0": big.NewRat(1, 2)}}
	if d := cmp.Diff(want, probs(t, res), ratCmp); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestPowerOperator: a^b is pow(a, b), binding tighter than * and /, its
// exponent a unary expression; a minus before a power and a chain of powers
// are refused (TestPropertyErrors) rather than grouped by guess.
func TestPowerOperator(t *testing.T) {
	model := "dtmc\nconst int k = 2*3^2;\nconst double h = -(2^2) + (-2)^2 + 4.0^-1/2 + ((1/2)^2)^(1/2);\n" +
		"module x\n  s : [0..1] init 0;\n  [] s=0 -> 1/2^2 : (s'=1) + 1-1/2^2 : true;\nendmodule\nlabel \"one\" = s=1 & k=18 & h=5/8;\n"
	res := mustCheck(t, model, "P=? [ X \"one\" ]", nil)
	want := []map[string]*big.Rat{{"s=0": big.NewRat(1, 4)}}
	if d := cmp.Diff(want, probs(t, res), ratCmp); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestWeakUntilAndRelease: from s=0 the chain goes to 1 (which stays) or
// to 2 (then 3, which stays), each with probability 1/2; a = s<=1 holds
// forever on the first run and fails at step 1 on the second, b = s=3
// holds from step 2 on the second. So a W b holds on the first run only
// (1/2), as does a W<=1 b; a W<=0 b holds at once; a U b never; and
// b R a = !(!b U !a) fails exactly on the second run (1/2).
func TestWeakUntilAndRelease(t *testing.T) {
	model := "dtmc\nmodule m\n  s : [0..3] init 0;\n  [] s=0 -> 1/2 : (s'=1) + 1/2 : (s'=2);\n  [] s=1 -> true;\n  [] s=2 -> (s'=3);\n  [] s=3 -> true;\nendmodule\nlabel \"a\" = s<=1;\nlabel \"b\" = s=3;\n"
	props := "P=? [ \"a\" W \"b\" ]\nP=? [ \"a\" W<=1 \"b\" ]\nP=? [ \"a\" W<=0 \"b\" ]\nP=? [ \"a\" U \"b\" ]\nP=? [ \"b\" R \"a\" ]\nP=? [ \"b\" R<=1 \"a\" ]\n"
	res := mustCheck(t, model, props, nil)
	var want []map[string]*big.Rat
	for _, x := range []string{"1/2", "1/2", "1", "0", "1/2", "1/2"} {
		v, _ := new(big.Rat).SetString(x)
		want = append(want, map[string]*big.Rat{"s=0": v})
	}
	if d := cmp.Diff(want, probs(t, res), ratCmp); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestNamedPropertyAlone: a property that is only the name of a query is
// that query; arithmetic over query values is refused on its own line.
func TestNamedPropertyAlone(t *testing.T) {
	model := "dtmc\nmodule m\n  s : [0..2] init 0;\n  [] s=0 -> 1/4 : (s'=1) + 3/4 : (s'=2);\n  [] s>0 -> true;\nendmodule\n"
	res := mustCheck(t, model, "\"q\": P=? [ F s=1 ]\n\"q\"\nP=? [ F s=1 ] + P=? [ F s=2 ]\n", nil)
	if len(res.Statements) != 3 {
		t.Fatalf("%d statements, want 3", len(res.Statements))
	}
	for i, o := range res.Statements[:2] {
		po, ok := o.(*property.ProbOutcome)
		if !ok || o.Err() != nil || po.Probs[0].Pr.Cmp(big.NewRat(1, 4)) != 0 {
			t.Errorf("statement %d: %T %v, want Pr = 1/4", i+1, o, o.Err())
		}
	}
	if !property.IsRefusal(res.Statements[2].Err()) {
		t.Errorf("statement 3: %v, want a refusal", res.Statements[2].Err())
	}
}
