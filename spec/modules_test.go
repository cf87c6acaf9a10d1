package spec_test

import (
	"context"
	"testing"

	"github.com/dpcheck/dpcheck"
	"github.com/google/go-cmp/cmp"
)

// TestModuleErrors: every mistake in a module is reported at its position,
// all of them at once, before anything is explored where it can be.
func TestModuleErrors(t *testing.T) {
	const tail = "neighbours true\nquery eps(delta = 0)\n"
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"no endmodule", "module m\n  x : [0..3] init 0;\n", []string{`3:1: unexpected "neighbours": module m (line 1) has no endmodule before it`}},
		{"unprimed update", "module m\n  x : [0..3] init 0;\n  [] x = 0 -> (x = 1);\nendmodule\n", []string{"3:16: an update names the next value of a variable with a prime: (x' = …)"}},
		{"missing semicolon", "module m\n  x : [0..3] init 0;\n  [] x = 0 -> (x' = 1)\nendmodule\n", []string{"3:23: missing ; at the end of this command (inside a module, declarations and commands end with ;)"}},
		{"keyword module", "module model\n  x : [0..3] init 0;\nendmodule\n", []string{"1:8: model is a keyword and cannot name a module"}},
		{"module twice", "module m\n  x : [0..3] init 0;\nendmodule\nmodule m\n  y : [0..3] init 0;\nendmodule\n", []string{"4:8: module m is already declared at line 1"}},
		{"keyword variable", "module m\n  P : [0..3] init 0;\nendmodule\n", []string{"2:3: P is a keyword and cannot name a variable"}},
		{"variable twice", "module m\n  x : [0..3] init 0;\n  x : [0..3] init 0;\nendmodule\n", []string{"3:3: variable x is already declared at line 2"}},
		{"empty range", "module m\n  x : [3..0] init 0;\nendmodule\n", []string{"2:3: the range [3..0] of x is empty", "2:19: the initial value 0 of x is outside its range [3..0]"}},
		{"init out of range", "module m\n  x : [0..3] init 7;\nendmodule\n", []string{"2:19: the initial value 7 of x is outside its range [0..3]"}},
		{"input with init", "module m\n  input x : [0..3] init 1;\nendmodule\n", []string{"2:25: an input variable takes every value of its range: it has no init"}},
		{"action", "module m\n  x : [0..3] init 0;\n  [go] x = 0 -> (x' = 1);\nendmodule\n", []string{"3:4: an action ([go]) names a choice of an MDP; the commands of a .dp module form a Markov chain: write [], or declare an MDP: mdp module"}},
		{"bool as number", "module m\n  b : bool init false;\n  x : [0..3] init 0;\n  [] x = 0 -> (x' = b + 1);\nendmodule\n", []string{"4:21: b is a boolean, not a number"}},
		{"number as guard", "module m\n  x : [0..3] init 0;\n  [] x + 1 -> (x' = 1);\nendmodule\n", []string{"3:6: expected a condition, found a number"}},
		{"number to a boolean", "module m\n  b : bool init false;\n  [] !b -> (b' = 2);\nendmodule\n", []string{"3:18: expected a condition, found a number"}},
		{"unknown names", "module m\n  x : [0..3] init 0;\n  [] z = 0 -> (x' = w);\nendmodule\n", []string{"3:6: unknown name z (variables: x)", "3:21: unknown name w (variables: x)"}},
		{"unknown variable assigned", "module m\n  x : [0..3] init 0;\n  [] x = 0 -> (q' = 1);\nendmodule\n", []string{"3:16: unknown variable q (variables: x)"}},
		{"another module's variable", "module m\n  x : [0..3] init 0;\n  [] x = 0 -> (y' = 1);\nendmodule\nmodule n\n  y : [0..3] init 0;\nendmodule\n", []string{"3:16: y belongs to another module: a command updates only its own module's variables"}},
		{"assigned twice", "module m\n  x : [0..3] init 0;\n  [] x = 0 -> (x' = 1) & (x' = 2);\nendmodule\n", []string{"3:27: x is assigned twice in this update"}},
		{"primed in an expression", "module m\n  x : [0..3] init 0;\n  [] x = 0 -> (x' = x' + 1);\nendmodule\n", []string{"3:21: x' (a primed name) is written only in an update: (x' = …)"}},
		{"log", "module m\n  x : [0..3] init 0;\n  [] x = 0 -> log(2) : (x' = 1);\nendmodule\n", []string{"3:15: log is not a rational function: a module's numbers are exact rationals"}},
		{"unknown function", "module m\n  x : [0..3] init 0;\n  [] x = 0 -> (x' = sqrt(4));\nendmodule\n", []string{"3:21: unknown function sqrt (min, max, floor, ceil, mod, pow, abs)"}},
		{"unknown distribution", "module m\n  x : [0..3] init 0;\n  [] x = 0 -> (x' ~ laplace(1, 0));\nendmodule\n", []string{"3:21: unknown distribution laplace (the discrete Laplace distribution is the two-sided geometric: geometric(alpha, centre, lo, hi), Pr[Z = z] ∝ alpha^|z|) (geometric(alpha, centre, lo, hi), geometric1(alpha, centre, lo, hi), uniform(lo, hi) or bernoulli(p))"}},
		{"draw arity", "module m\n  x : [0..3] init 0;\n  [] x = 0 -> (x' ~ geometric(1/2, 0));\nendmodule\n", []string{"3:21: geometric takes 4 arguments, geometric(alpha, centre, lo, hi); found 2 (only an unbounded integer, declared x : int, is drawn without lo and hi)"}},
		{"formula cycle", "formula f = g + 1\nformula g = f\nmodule m\n  x : [0..3] init 0;\n  [] x = 0 -> (x' = f);\nendmodule\n", []string{"1:9: formula f is defined in terms of itself (f → g → f)"}},
		{"formula calling itself", "formula f(a) = a + f(a)\nmodule m\n  x : [0..3] init 0;\n  [] x = 0 -> (x' = f(1));\nendmodule\n", []string{"1:9: formula f is defined in terms of itself (f → f)"}},
		{"formula arity", "formula clamp(v, lo, hi) = max(lo, min(hi, v))\nmodule m\n  x : [0..3] init 0;\n  [] x = 0 -> (x' = clamp(x + 1, 3));\nendmodule\n", []string{"4:21: formula clamp takes 3 arguments (v, lo, hi), given 2"}},
		{"formula without its arguments", "formula inc(v) = v + 1\nmodule m\n  x : [0..3] init 0;\n  [] x = 0 -> (x' = inc);\nendmodule\n", []string{"4:21: formula inc takes 1 argument: write inc(v)"}},
		{"formula argument by an unknown name", "formula inc(v) = v + 1\nmodule m\n  x : [0..3] init 0;\n  [] x = 0 -> (x' = inc(x = 1));\nendmodule\n", []string{"4:25: formula inc has no parameter x (its parameters: v); a comparison as an argument is written in parentheses, (x = …)"}},
		{"arguments to a formula without parameters", "formula one = 1\nmodule m\n  x : [0..3] init 0;\n  [] x = 0 -> (x' = one(2));\nendmodule\n", []string{"4:21: formula one takes no arguments: write one"}},
		{"quantifier over a variable range", "module m\n  x : [0..3] init 0;\n  [] x = 0 & (forall j in 1..x: j > 0) -> (x' = 1);\nendmodule\n", []string{"3:30: the range of forall must be constant, and x is a variable: write the ends with numbers and constants"}},
		{"fold over too many values", "module m\n  x : [0..3] init 0;\n  [] x = 0 -> (x' = sum(j in 1..20000: j));\nendmodule\n", []string{"3:21: sum ranges over 20,000 values; the limit is 10,000"}},
		{"max over an empty range", "module m\n  x : [0..3] init 0;\n  [] x = 0 -> (x' = max(j in 2..1: j));\nendmodule\n", []string{"3:21: max over an empty range has no value"}},
		{"formula naming a parameter twice", "formula f(p, p) = p\nmodule m\n  x : [0..3] init 0;\n  [] x = 0 -> (x' = f(1, 2));\nendmodule\n", []string{"1:14: formula f names its parameter p twice"}},
		{"positional argument after a named one", "formula f(p, q) = p + q\nmodule m\n  x : [0..3] init 0;\n  [] x = 0 -> (x' = f(q = 1, 2));\nendmodule\n", []string{"4:30: formula f: an argument without a name follows a named one; name it too, or give them in order"}},
		{"folds past the limit of what is written out", "module m\n  x : [0..3] init 0;\n  [] x = 0 -> (x' = min(3, sum(j in 1..2000: sum(i in 1..2000: i))));\nendmodule\n", []string{"3:50: the modules' formulas, folds and array indices expand to more than 1,000,000 nodes, each written out where used: simplify them"}},
		{"label twice", "module m\n  x : [0..3] init 0;\nendmodule\nlabel \"a\" = x = 1\nlabel \"a\" = x = 2\n", []string{"5:7: label a is already defined at line 4"}},
		{"boolean init that fails", "module m\n  b : bool init 1/0 > 0;\nendmodule\n", []string{"2:18: division by zero"}},
		{"pow of a zero", "module m\n  input x : [0..1];\n  y : [0..1] init 0;\n  [] pow(x/2 + x/2 - x, -1) > 0 -> (y' = 1);\nendmodule\n", []string{"4:6: division by zero: pow(0, -1) (command at line 4, at (x=0, y=0))"}},
		{"pow too big", "module m\n  input x : [0..1];\n  y : [0..1] init 0;\n  [] pow(pow(x + 3, 65536), 65536) > 0 -> (y' = 1);\nendmodule\n", []string{"4:6: pow(41547922016337211725…, 65536) would have about 6,807,362,107 bits; the limit is 1,048,576 (command at line 4, at (x=0, y=0))"}},
		{"draw far from its centre", "module m\n  input x : [0..1];\n  y : [0..5] init 0;\n  [] y = 0 -> (y' ~ geometric(1/2, 1000000000, 0, 5));\nendmodule\n", []string{"4:21: the draw's exact probabilities would take about 30,000,000,060 bits, more than the 4,294,967,296 left of the limit of 4,294,967,296 bits (command at line 4, at (x=0, y=0))"}},
		{"label of a number", "module m\n  x : [0..3] init 0;\nendmodule\nlabel \"a\" = x + 1\n", []string{"4:13: expected a condition, found a number"}},
		{"outputs of an unknown variable", "module m\n  input x : [0..3];\nendmodule\noutputs var q\n", []string{"4:13: unknown variable q (variables: x)"}},
		// Found while exploring: the state and the command are named.
		{"overlapping guards", "module m\n  x : [0..3] init 0;\n  [] x < 2 -> (x' = x + 1);\n  [] x >= 1 -> (x' = 3);\nendmodule\n", []string{"4:3: this command and the one at line 3 are both enabled at (x=1): a mechanism must not choose between commands (make the guards exclusive)"}},
		{"pow with a fraction", "module m\n  x : [0..3] init 0;\n  [] x = 0 -> pow(2, 1/2)/2 : (x' = 1) + 1/2 : (x' = 2);\nendmodule\n", []string{"3:15: pow(2, 1/2): the exponent is not an integer, and dpcheck computes only exact powers (command at line 3, at (x=0))"}},
		{"mod by zero", "module m\n  x : [0..3] init 0;\n  [] x = 0 -> (x' = mod(3, x));\nendmodule\n", []string{"3:21: mod(3, 0) needs a positive divisor (command at line 3, at (x=0))"}},
		{"draw of an empty range", "module m\n  x : [0..3] init 0;\n  [] x = 0 -> (x' ~ uniform(3, 1));\nendmodule\n", []string{"3:21: the range [3..1] of the draw is empty (command at line 3, at (x=0))"}},
		{"bernoulli above 1", "module m\n  x : [0..3] init 0;\n  [] x = 0 -> (x' ~ bernoulli(3/2));\nendmodule\n", []string{"3:21: the probability of a bernoulli draw must be in [0, 1], found 3/2 (command at line 3, at (x=0))"}},
		{"geometric α", "module m\n  x : [0..3] init 0;\n  [] x = 0 -> (x' ~ geometric(2, 0, 0, 3));\nendmodule\n", []string{"3:21: the α of a geometric draw must be in (0, 1), found 2 (command at line 3, at (x=0))"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, errorsOf(t, tc.src+tail)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestModulesNeedNeighbours(t *testing.T) {
	got := errorsOf(t, "module m\n  input x : [0..3];\nendmodule\nquery eps(delta = 0)\n")
	want := []string{"1:1: no neighbours statement: say which inputs are neighbours (a predicate such as |d - d'| <= 1)"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestFormulaArguments: formulas with parameters, called in order, by
// name, nested and in a neighbour predicate, give the same chain as the
// file with every call written out by hand; a parameter hides a variable
// of the same name.
func TestFormulaArguments(t *testing.T) {
	with := `formula clamp(v, lo, hi) = max(lo, min(hi, v))
formula step(x) = clamp(x + 1, 0, 3)
module m
  input d : [0..1];
  x : [0..3] init 0;
  [] x = 0 & d = 0 -> 1/2 : (x' = step(x)) + 1/2 : (x' = clamp(v = x + 2, hi = 3, lo = 0));
  [] x = 0 & d = 1 -> 1/4 : (x' = step(x)) + 3/4 : (x' = step(step(x)));
endmodule
neighbours |d - d'| <= clamp(1, 0, 1)
outputs var x
query eps(delta = 0)
`
	by := `module m
  input d : [0..1];
  x : [0..3] init 0;
  [] x = 0 & d = 0 -> 1/2 : (x' = max(0, min(3, x + 1))) + 1/2 : (x' = max(0, min(3, x + 2)));
  [] x = 0 & d = 1 -> 1/4 : (x' = max(0, min(3, x + 1))) + 3/4 : (x' = max(0, min(3, max(0, min(3, x + 1)) + 1)));
endmodule
neighbours |d - d'| <= max(0, min(1, 1))
outputs var x
query eps(delta = 0)
`
	// Outputs x = 1, 2 with 1/2, 1/2 from d = 0 and 1/4, 3/4 from d = 1.
	got, want := epsOf(t, with), epsOf(t, by)
	if got != "ln(2)" || want != "ln(2)" {
		t.Errorf("with formulas: %s; written out: %s; want ln(2) for both", got, want)
	}
}

// epsOf checks src and returns its first outcome's value.
func epsOf(t *testing.T, src string) string {
	t.Helper()
	r, err := dpcheck.CheckSource(context.Background(), "f.dp", src)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return r.Statements[0].Value()
}

// TestSubstitutedSigns: a parameter or bound name subtracted or dividing
// keeps its sign once written out (it became + and * at first: 5 - 1 was
// 6), in formulas, folds and constants, checked against hand-computed
// values.
func TestSubstitutedSigns(t *testing.T) {
	src := `formula f1(p, q) = p - q
formula f6(p) = 10 - p
formula f7(p, q) = p / q
formula f8(p, q) = p - q - 1
const c1 = sum(j in 1..3: 10 - j)
const c2 = sum(j in 1..3: 12 / j)
const c3 = max(j in 1..3: 0 - j)
const c4 = min(j in 1..3: j*j - 4*j)
module m
  input a : [0..1];
  x : [-100..100] init 0;
endmodule
neighbours a != a'
query expected(f1(5, 1)) expect 4
query expected(f6(5)) expect 5
query expected(f7(6, 2)) expect 3
query expected(f8(5, 1)) expect 3
query expected(c1 + 1000 * c2) expect 22024
query expected(count(j in 1..3: 5 - j >= 3)) expect 2
query expected(c3) expect -1
query expected(c4) expect -4
query expected(sum(j in 1..3: sum(i in 1..3: i - j))) expect 0
`
	r, err := dpcheck.CheckSource(context.Background(), "s.dp", src)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range r.Statements {
		if !o.Pass() {
			t.Errorf("%s: %s", o.Statement().Head().Text, o.Value())
		}
	}
}

// TestLabelHoldingNowhere: a label whose condition holds at no state is
// still the model's label, and holds nowhere: P=?[F "hi"] is 0.
func TestLabelHoldingNowhere(t *testing.T) {
	passes(t, "label", "module m\n  input a : [0..1];\n  x : [0..2] init 0;\n  [] x = 0 -> (x' = 1);\nendmodule\nlabel \"hi\" = x = 2\nneighbours a != a'\nquery P=?[F \"hi\"] expect s0: 0, s1: 0\n")
}
