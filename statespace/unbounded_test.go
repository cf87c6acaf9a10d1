package statespace_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/poly"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/spec"
	"github.com/dpcheck/dpcheck/statespace"
)

// unboundedProgram is a module with three unbounded integers: the
// command under test is cmd, the outputs out.
func unboundedProgram(cmd, out string) string {
	return `module m
  input a : [0..1];
  t : int;
  v : int;
  w : int;
  b : [0..3] init 0;
  i : [0..3] init 0;
  [] i = 0 -> (t' ~ geometric(1/2, a)) & (v' ~ geometric(1/2, 0)) & (i' = 1);
  ` + cmd + `
endmodule
` + out + `
neighbours true
query eps(delta = 0)
`
}

// TestUnboundedRefusals: everything outside the class of programs with
// unbounded integers that dpcheck decides is refused, at load or as the
// model is built, with the construct's position and a message naming it.
func TestUnboundedRefusals(t *testing.T) {
	const ob = "outputs var b"
	for _, tc := range []struct {
		name, cmd, out, want string
	}{
		{"product", "[] i = 1 & v * 2 >= t -> (b' = 1) & (i' = 2);", ob,
			"9:14: v*2 combines the unbounded variable v in a product or quotient: unbounded variables may only be added, subtracted and compared"},
		{"three variables", "[] i = 1 & v + t - w >= 0 -> (b' = 1) & (i' = 2);", ob,
			"9:14: v + t - w >= 0 relates 3 unbounded variables: dpcheck decides comparisons of at most 2"},
		{"coefficient 2", "[] i = 1 & v + v >= t -> (b' = 1) & (i' = 2);", ob,
			"9:14: v + v >= t has the unbounded variable v with coefficient 2: dpcheck decides sums and differences of unbounded variables with coefficients ±1"},
		{"absolute value", "[] i = 1 & abs(v) >= 1 -> (b' = 1) & (i' = 2);", ob,
			"9:14: abs(v) combines the unbounded variable v in an absolute value: unbounded variables may only be added, subtracted and compared"},
		{"in a probability", "[] i = 1 -> (v > 0 ? 1/2 : 1/3) : (b' = 1) + (v > 0 ? 1/2 : 2/3) : (b' = 2);", ob,
			"9:16: the probability of an update reads the unbounded variable v: only guards, and the values and the centres of the draws of unbounded variables, may read one\n" +
				"9:49: the probability of an update reads the unbounded variable v: only guards, and the values and the centres of the draws of unbounded variables, may read one"},
		{"into a bounded variable", "[] i = 1 -> (b' = v);", ob,
			"9:21: the value of the bounded variable b reads the unbounded variable v: only guards, and the values and the centres of the draws of unbounded variables, may read one"},
		{"centred on itself", "[] i = 1 -> (w' ~ geometric(1/2, w + 1)) & (i' = 2);", ob,
			"9:36: the draw of w is centred on w itself: draw it around another variable or a bounded value"},
		{"centred on a variable the update draws", "[] i = 1 -> (w' ~ geometric(1/2, t)) & (t' ~ geometric(1/2, 0)) & (i' = 2);", ob,
			"9:36: the draw of w is centred on t, which the same update assigns: write the two in two commands"},
		{"unbounded α", "[] i = 1 -> (w' ~ geometric(t, 0)) & (i' = 2);", ob,
			"9:31: the α of the draw of w reads the unbounded variable t: only guards, and the values and the centres of the draws of unbounded variables, may read one"},
		{"centred on a variable with the same α", "[] i = 1 -> (w' ~ geometric(1/2, t)) & (i' = 2);\n  [] i = 2 & w >= 0 -> (b' = 1) & (i' = 3);\n  [] i = 2 & w < 0 -> (i' = 3);", ob,
			"9:21: the sum is not geometric: a term is constant in a variable whose range grows without bound: a variable drawn around another one's value and with the same α as that one's noise has terms z·α^z once the other is summed out, outside the class dpcheck decides exactly (give the two draws different α)"},
		{"centred on two variables", "[] i = 1 -> (w' ~ geometric(1/2, t - v)) & (i' = 2);", ob,
			"9:36: t - v relates 2 unbounded variables: dpcheck decides a value or draw centre of one, negated or not, plus a bounded value"},
		{"swap in one update", "[] i = 1 -> (w' = v) & (v' = w) & (i' = 2);", ob,
			"9:21: w' = v reads v, which the same update assigns: write the two assignments in two commands\n" +
				"9:32: v' = w reads w, which the same update assigns: write the two assignments in two commands"},
		{"two unbounded outputs", "[] i = 1 -> (b' = 1) & (i' = 2);", "outputs var t, v",
			"11:1: the outputs name two unbounded integers, t and v: dpcheck observes at most one"},
		{"no outputs statement", "[] i = 1 -> (b' = 1) & (i' = 2);", "",
			"3:3: t is an unbounded integer: a program with one says which variables it outputs (outputs var …), and the others are summed out"},
		{"label", "[] i = 1 -> (b' = 1) & (i' = 2);", "label \"big\" = v > 3\n" + ob,
			"11:1: labels are not available with an unbounded integer (t): its values are summed in closed form and the chain goes from each input straight to its outputs: observe variables, outputs var …"},
		{"a loop", "[] i >= 1 & v < t -> (v' ~ geometric(1/2, 0));", ob,
			"9:3: this command returns a run to (a=0, b=0, i=1): with unbounded integers, every run must end after a bounded number of steps, never revisiting the values of its bounded variables"},
		{"two commands for some values", "[] i = 1 & v >= t -> (b' = 1) & (i' = 2);\n  [] i = 1 & v <= t -> (b' = 2) & (i' = 2);", ob,
			"10:3: two commands are enabled at once at (a=0, b=0, i=1), for example when t=0, v=0: this one and the one at line 9"},
		// A limit, before the power is computed.
		{"a power too large", "[] i = 1 & v >= 100000 -> (w' ~ geometric(1/3^1000, 0)) & (i' = 2);\n  [] i = 1 & v < 100000 & w >= 100000 -> (i' = 2);\n  [] i = 2 & w >= 100000 -> (b' = 1) & (i' = 3);", ob,
			"1:1: a power of a noise's α would have about 158,496,252 bits, more than the limit of 1,048,576 for one number"},
		{"a constant beyond 2^40", "[] i = 1 & v >= 2^50 -> (b' = 1) & (i' = 2);", ob,
			"9:14: the comparison's bounded part is -1125899906842624, beyond ±2^40 (command at line 9, at (a=0, t=0, v=0, w=0, b=0, i=1))"},
		// Refused by the .dp front end.
		{"uniform into an int", "[] i = 1 -> (w' ~ uniform(0, 3)) & (i' = 2);", ob,
			"9:21: w is an unbounded integer: it is drawn from geometric(alpha, centre) or geometric1(alpha, centre), untruncated"},
		{"bounds on an int's draw", "[] i = 1 -> (w' ~ geometric(1/2, 0, -5, 5)) & (i' = 2);", ob,
			"9:39: w is an unbounded integer: its draw is untruncated, geometric(alpha, centre), without lo and hi"},
		{"no bounds on a bounded draw", "[] i = 1 -> (b' ~ geometric(1/2, 0)) & (i' = 2);", ob,
			"9:21: geometric takes 4 arguments, geometric(alpha, centre, lo, hi); found 2 (only an unbounded integer, declared b : int, is drawn without lo and hi)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := unboundedErrors(t, unboundedProgram(tc.cmd, tc.out))
			if strings.Join(got, "\n") != tc.want {
				t.Errorf("errors\n  %s\nwant\n  %s", strings.Join(got, "\n  "), tc.want)
			}
		})
	}
}

// TestVaryingTailRefusals: a tail whose likelihood ratios vary is merged
// for the ε of dp checks and δ queries with e^ε rational only; the model
// is then exact at those ε (and at none without them), and for every
// value of a parameter it is refused, saying what to do.
func TestVaryingTailRefusals(t *testing.T) {
	prog := strings.Replace(unboundedProgram("[] i = 1 & v >= t -> (b' = 1) & (w' = v) & (i' = 2);", "outputs var b, w"), "query eps(delta = 0)\n", "", 1)
	src := "param alpha in (1/4, 3/4)\n" + strings.Replace(prog+"query delta(eps = 0) for alpha\n", "geometric(1/2, a)", "geometric(alpha, a)", 1)
	want := "12:1: the likelihood ratio of the outputs w≥3 between the inputs (a=0, t=0, v=0, w=0, b=0, i=0) and (a=1, t=0, v=0, w=0, b=0, i=0) varies with w: for every value of a parameter, a tail is one output only where its ratios are constant (or observe a bounded function of it)"
	if got := varyingErrors(t, src, true); strings.Join(got, "\n") != want {
		t.Errorf("errors\n  %s\nwant\n  %s", strings.Join(got, "\n  "), want)
	}
	for _, tc := range []struct{ statements, exactAt string }{
		{"check dp(eps = ln(2))\nquery delta(eps = 0)\n", "[2/1 1/1]"},
		{"check dp(eps = 1/2)\nquery profile\nquery eps(delta = 0)\n", "[]"},
	} {
		p, err := spec.Load(context.Background(), "m.dp", prog+tc.statements)
		if err != nil {
			t.Fatal(err)
		}
		mech, err := p.Model.(*statespace.Model).Build(context.Background(), model.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(mech.ExactAt); mech.ExactAt == nil || got != tc.exactAt {
			t.Errorf("%q: exact at %s (nil: %v), want %s", tc.statements, got, mech.ExactAt == nil, tc.exactAt)
		}
	}
}

// varyingErrors loads and builds src (for every value of its parameter
// when param), returning its errors as "line:col: message".
func varyingErrors(t *testing.T, src string, param bool) []string {
	t.Helper()
	if !param {
		return unboundedErrors(t, src)
	}
	p, err := spec.Load(context.Background(), "m.dp", src)
	if err == nil {
		_, err = p.Model.(property.ParamSource).BuildParam(context.Background(), poly.Limits{})
	}
	return positioned(t, err)
}

// unboundedErrors loads and builds src, returning its errors as
// "line:col: message".
func unboundedErrors(t *testing.T, src string) []string {
	t.Helper()
	p, err := spec.Load(context.Background(), "m.dp", src)
	if err == nil {
		_, err = p.Model.(*statespace.Model).Build(context.Background(), model.Limits{})
	}
	return positioned(t, err)
}

// positioned returns the errors of err, a list of positioned errors, as
// "line:col: message".
func positioned(t *testing.T, err error) []string {
	t.Helper()
	var list source.ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %v, not a list of positioned errors", err)
	}
	var out []string
	for _, e := range list {
		out = append(out, strings.TrimPrefix(e.Pos.String(), "m.dp:")+": "+e.Msg)
	}
	return out
}

// TestUnboundedOnlyOutputs: with an unbounded integer the chain goes from
// each input straight to its outputs, so what reads its steps, labels or
// final states is refused where it is written, not answered on the wrong
// chain.
func TestUnboundedOnlyOutputs(t *testing.T) {
	const why = "with an unbounded integer (t): its values are summed in closed form and the chain goes from each input straight to its outputs"
	prog := func(tail string) string {
		return "module m\n  input a : [0..1];\n  t : int;\n  b : [0..1] init 0;\n  [] b = 0 -> (t' ~ geometric(1/2, a)) & (b' = 1);\nendmodule\nneighbours true\n" + tail
	}
	for _, tc := range []struct{ name, tail, want string }{
		{"a formula", "outputs var b\nquery P=?[X b = 1]\n", "9:1: formulas over the steps of a run are not available " + why + ": check dp, and query eps, delta and profile, over outputs var …"},
		{"a D formula", "outputs var b\ncheck D{0, 0}[F b = 1]\n", "9:1: formulas over the steps of a run are not available " + why + ": check dp, and query eps, delta and profile, over outputs var …"},
		{"a label", "label \"one\" = b = 1\noutputs var b\nquery eps(delta = 0)\n", "8:1: labels are not available " + why + ": observe variables, outputs var …"},
		{"outputs labels", "outputs labels \"x\"\nquery eps(delta = 0)\n", "8:1: outputs labels is not available " + why + ": observe variables, outputs var …"},
		{"traces", "outputs var b\nquery eps(delta = 0) over traces(2)\n", "9:27: over traces(k) needs an observe statement naming the labels a trace shows\n9:27: over traces(k) is not available " + why},
		{"equivalence", "outputs var b\ncheck equivalent(model, survey())\n", "9:1: equivalent compares final states, which are not available " + why},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := spec.Load(context.Background(), "m.dp", prog(tc.tail))
			var list source.ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error %v", err)
			}
			var got []string
			for _, e := range list {
				got = append(got, strings.TrimPrefix(e.Pos.String(), "m.dp:")+": "+e.Msg)
			}
			if strings.Join(got, "\n") != tc.want {
				t.Errorf("errors\n  %s\nwant\n  %s", strings.Join(got, "\n  "), tc.want)
			}
		})
	}
}

// TestUnboundedInput: an input is a range.
func TestUnboundedInput(t *testing.T) {
	got := unboundedErrors(t, "module m\n  input a : int;\n  [] a > 0 -> true;\nendmodule\noutputs var a\nneighbours true\nquery eps(delta = 0)\n")
	want := "2:9: an input variable takes every value of its range: declare input a : [lo..hi]"
	if len(got) != 1 || got[0] != want {
		t.Errorf("errors %q, want %q", got, want)
	}
}

// TestUnboundedTransitionsLimit: the outputs an unbounded integer lists
// one by one, for every input, are counted against the transitions limit,
// and their bytes against the memory limit, before they are made: 5 001
// inputs each listing 5 002 values stop at once, naming the outputs
// statement and the limit.
func TestUnboundedTransitionsLimit(t *testing.T) {
	const src = `module m
  input a : [0..5000];
  v : int init 0;
  drawn : bool init false;
  [] !drawn -> (v' ~ geometric(1/2, a)) & (drawn' = true);
endmodule
outputs var v
neighbours |a - a'| <= 1
check dp(eps = ln(2))
`
	p, err := spec.Load(context.Background(), "m.dp", src)
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Model.(*statespace.Model).Build(context.Background(), model.Limits{})
	want := "7:1: the outputs list 5,002 values of v for 5,001 inputs, about 25,015,002 transitions in all; the limit is 10,000,000 transitions"
	if got := positioned(t, err); strings.Join(got, "\n") != want {
		t.Errorf("errors %q, want %q", got, want)
	}
	var list source.ErrorList
	if errors.As(err, &list); list[0].Limit != string(model.LimitTransitions) {
		t.Errorf("limit %q, want %q", list[0].Limit, model.LimitTransitions)
	}
	// Under the transitions limit, 3 001 inputs listing 3 002 values each
	// would take about 5 GiB: the memory limit speaks first.
	mid := strings.Replace(src, "[0..5000]", "[0..3000]", 1)
	if p, err = spec.Load(context.Background(), "m.dp", mid); err != nil {
		t.Fatal(err)
	}
	_, err = p.Model.(*statespace.Model).Build(context.Background(), model.Limits{})
	want = "7:1: the outputs list 3,002 values of v for 3,001 inputs, about 9,009,002 transitions in all, which would need about 5 GiB of memory; the limit is 4 GiB"
	if got := positioned(t, err); strings.Join(got, "\n") != want {
		t.Errorf("errors %q, want %q", got, want)
	}
	// Outputs that are not listed values count one by one as they are
	// made: 6 inputs with one output each, and its self-loop, pass 5.
	small := strings.NewReplacer("[0..5000]", "[0..5]", "outputs var v", "outputs var drawn").Replace(src)
	if p, err = spec.Load(context.Background(), "m.dp", small); err != nil {
		t.Fatal(err)
	}
	_, err = p.Model.(*statespace.Model).Build(context.Background(), model.Limits{MaxTransitions: 5})
	want = "7:1: the chain would have more than 5 transitions, the limit"
	if got := positioned(t, err); strings.Join(got, "\n") != want {
		t.Errorf("errors %q, want %q", got, want)
	}
}

// TestInitialValueErrors: an initial value beyond 64 bits is named for
// what it is, beyond ±2^40 for an unbounded integer and outside the range
// of a bounded one; one that reads a variable is not a constant.
func TestInitialValueErrors(t *testing.T) {
	const huge = "1000000000000000000000000000000"
	for _, tc := range []struct{ from, to, want string }{
		{"t : int;", "t : int init " + huge + ";", "3:16: the initial value " + huge + " of t is beyond ±2^40"},
		{"b : [0..3] init 0;", "b : [0..3] init " + huge + ";", "6:19: the initial value " + huge + " of b is outside its range [0..3]"},
		{"t : int;", "t : int init a;", "3:16: the initial value of t reads the variable a: an initial value is a constant expression"},
		{"b : [0..3] init 0;", "b : [0..3] init a;", "6:19: the initial value of b reads the variable a: an initial value is a constant expression"},
	} {
		src := strings.Replace(unboundedProgram("[] i = 1 -> (b' = 1) & (i' = 2);", "outputs var b"), tc.from, tc.to, 1)
		if got := unboundedErrors(t, src); strings.Join(got, "\n") != tc.want {
			t.Errorf("errors %q, want %q", got, tc.want)
		}
	}
}

// TestUnboundedParamAlpha: for every value of a parameter, an unbounded
// draw's α is checked below 1 on the whole interval, and the error names
// the parameter's value where it is not.
func TestUnboundedParamAlpha(t *testing.T) {
	src := "param alpha in [1/2, 1]\n" + strings.Replace(unboundedProgram("[] i = 1 -> (b' = 1) & (i' = 2);", "outputs var b"), "geometric(1/2, a)", "geometric(alpha, a)", 1)
	src = strings.Replace(src, "query eps(delta = 0)", "query delta(eps = 0) for alpha", 1)
	want := "9:21: the α alpha of the draw is not below 1 at alpha = 1: it must be for every alpha in [1/2, 1] (the chain's graph must be the same for every alpha) (command at line 9, at (a=0, t=0, v=0, w=0, b=0, i=0))"
	if got := varyingErrors(t, src, true); strings.Join(got, "\n") != want {
		t.Errorf("errors\n  %s\nwant\n  %s", strings.Join(got, "\n  "), want)
	}
}

// TestVaryingTailSpreadLimit: asking about an ε within 10^-3000 of a limit
// ratio would list thousands of values of a tail, each dearer than the
// last; the values listed past a tail's start stop at a 5000th of the
// limit on states (2 000 by default), naming it.
func TestVaryingTailSpreadLimit(t *testing.T) {
	src := `const T = 1
module gap2
  input a1 : [0..2];
  input a2 : [0..2];
  t : int;
  g : int;
  gap : int;
  i : [0..3] init 0;
  drawn : bool init false;
  top : [0..2] init 0;
  [] i = 0 -> (t' ~ geometric(1/3, T)) & (i' = 1);
  [] i >= 1 & i <= 2 & !drawn -> (g' ~ geometric(1/2, (i = 1 ? a1 : a2) - t)) & (drawn' = true);
  [] drawn & g >= 0 -> (top' = i) & (gap' = g) & (i' = 3) & (drawn' = false);
  [] drawn & g < 0 -> (i' = i + 1) & (drawn' = false);
endmodule
outputs var top, gap
neighbours |a1 - a1'| <= 1 & |a2 - a2'| <= 1
check dp(eps = ln(844/217 - 1/10^3000)) expect violated
`
	got := unboundedErrors(t, src)
	want := "16:1: the likelihood ratios of the outputs gap≥4 vary, and listing them one by one until every pair of inputs compares the same way at the statements' ε would take more than 2,000 values, the limit for a tail (a 5000th of the limit on states; an ε very close to a limit ratio needs many)"
	if strings.Join(got, "\n") != want {
		t.Errorf("errors\n  %s\nwant\n  %s", strings.Join(got, "\n  "), want)
	}
}
