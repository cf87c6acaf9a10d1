package prism_test

import (
	"math/big"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dpcheck/dpcheck/property"
)

// surveyModel is randomized response with a fair coin half the time
// (Pr(yes) = 1/4 from truth=false, 3/4 from truth=true, 1 and 0 once
// answered), with a reward for asking.
const surveyModel = `dtmc
module survey
  truth  : bool;
  answer : [0..2];
  [] answer=0 &  truth -> 3/4 : (answer'=1) + 1/4 : (answer'=2);
  [] answer=0 & !truth -> 1/4 : (answer'=1) + 3/4 : (answer'=2);
endmodule
init answer=0 endinit
label "yes" = answer=1;
rewards "asked"
  answer=0 : 1;
endrewards
`

// TestFilters: every filter operator over P=?, S=?, R=? and state
// formulas, with and without a condition on the states, on a chain whose
// values are known: randomized response with a fair coin half the time
// (Pr(yes) = 1/4 from truth=false, 3/4 from truth=true, 1 and 0 once
// answered), and on an MDP.
func TestFilters(t *testing.T) {
	rr := surveyModel
	props := `filter(min, P=? [ F "yes" ])
filter(max, P=? [ F "yes" ], answer=0)
filter(argmax, P=? [ F "yes" ])
filter(count, answer=0)
filter(exists, answer=1 & !truth)
filter(|, answer=1 & answer=2)
filter(range, P=? [ F "yes" ])
filter(avg, P=? [ F "yes" ])
filter(+, S=? [ "yes" ])
filter(print, P=? [ F "yes" ], answer=0)
filter(state, P=? [ F "yes" ], truth & answer=0)
filter(first, answer=0)
filter(sum, R=? [ C ], answer=0)
filter(max, R=? [ F answer=2 ])
`
	res := mustCheck(t, rr, props, nil)
	var got []string
	for _, o := range res.Statements {
		f, ok := o.(*property.FilterOutcome)
		if !ok || o.Err() != nil {
			t.Fatalf("%s: %T %v", o.Statement().Head().Text, o, o.Err())
		}
		v := f.Value()
		for i, st := range f.States {
			v += " " + st.Valuation.String()
			if i < len(f.Values) {
				v += "=" + infText(f.Values[i])
			}
		}
		got = append(got, v)
	}
	want := []string{
		"0",
		"3/4",
		" truth=0, answer=1=1 truth=1, answer=1=1",
		"2",
		"true",
		"false",
		"[0, 1]",
		"1/2",
		"3",
		" truth=0, answer=0=1/4 truth=1, answer=0=3/4",
		"3/4 truth=1, answer=0=3/4",
		"true truth=0, answer=0",
		"2",
		"∞",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	// Errors and refusals.
	_, err := check(t, rr, "filter(max, answer=0)\n", nil)
	if got := errorsOf(t, err); len(got) != 1 || got[0] != `p.pctl:1:13: filter(max, …) takes a number at every state (P=? [ψ], R=? [ρ], S=? [φ]); this is a condition` {
		t.Errorf("filter(max, condition): %v", got)
	}
	_, err = check(t, rr, "filter(count, P=? [ F \"yes\" ])\n", nil)
	if got := errorsOf(t, err); len(got) != 1 || got[0] != `p.pctl:1:15: filter(count, …) takes a condition at every state; this is a number` {
		t.Errorf("filter(count, number): %v", got)
	}
	res = mustCheck(t, rr, "filter(state, P=? [ F \"yes\" ], answer=0)\n", nil)
	if err := res.Statements[0].Err(); err == nil || err.Error() != "filter(state, …) needs exactly one state satisfying its condition, and 2 do" {
		t.Errorf("filter(state) over two states: %v", err)
	}
}

// TestFiltersOnAnMDP: a filter of Pmin=? or Pmax=? takes the extreme at
// every state; of P=?, the value where the schedulers agree.
func TestFiltersOnAnMDP(t *testing.T) {
	const m = `mdp
module m
  s : [0..2];
  [a] s=0 -> (s'=1);
  [b] s=0 -> 1/2 : (s'=1) + 1/2 : (s'=2);
endmodule
`
	res := mustCheck(t, m, "filter(min, Pmin=? [ F s=1 ])\nfilter(max, Pmax=? [ F s=1 ], s=0)\nfilter(avg, P=? [ F s=2 ], s>0)\nfilter(max, P=? [ F s=1 ])\n", nil)
	var got []string
	for _, o := range res.Statements {
		if o.Err() != nil {
			got = append(got, o.Err().Error())
			continue
		}
		got = append(got, o.Value())
	}
	want := []string{"0", "1", "1/2", "Pr(ψ) depends on the scheduler at s0: between 1/2 and 1; ask Pmin=? or Pmax=? inside the filter"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func infText(x *big.Rat) string {
	if x == nil {
		return "∞"
	}
	return x.RatString()
}

// TestOldStyleFilters: PRISM's filters written inside the brackets,
// P=? [ψ {φ}{min}{max}], are the filters PRISM reads them as — {min} min,
// {max} max, both range, neither state, a bound forall (whatever is
// asked), {"init"} alone the value at every initial state — on P, S and
// R; each gives what the filter(op, …) form gives, written out by hand.
func TestOldStyleFilters(t *testing.T) {
	rr := surveyModel
	pairs := []struct{ old, filter string }{
		{`P=? [ F "yes" {answer=0}{min} ]`, `filter(min, P=? [ F "yes" ], answer=0)`},
		{`P=? [ F "yes" {answer=0}{max} ]`, `filter(max, P=? [ F "yes" ], answer=0)`},
		{`P=? [ F "yes" {answer=0}{max}{min} ]`, `filter(range, P=? [ F "yes" ], answer=0)`},
		{`P=? [ F "yes" {answer=0}{min}{max} ]`, `filter(range, P=? [ F "yes" ], answer=0)`},
		{`P=? [ F "yes" {answer=0}{min}{min} ]`, `filter(min, P=? [ F "yes" ], answer=0)`},
		{`P=? [ F "yes" {truth & answer=0} ]`, `filter(state, P=? [ F "yes" ], truth & answer=0)`},
		{`P=? [ F "yes" {"init"}{max} ]`, `filter(max, P=? [ F "yes" ], "init")`},
		{`P>=1/2 [ F "yes" {answer=0} ]`, `filter(forall, P>=1/2 [ F "yes" ], answer=0)`},
		{`P>=1/4 [ F "yes" {answer=0}{max} ]`, `filter(forall, P>=1/4 [ F "yes" ], answer=0)`},
		{`P>=1/2 [ F "yes" {"init"} ]`, `P>=1/2 [ F "yes" ]`},
		{`P=? [ F "yes" {"init"} ]`, `P=? [ F "yes" ]`},
		{`S=? [ "yes" {answer>0}{min} ]`, `filter(min, S=? [ "yes" ], answer>0)`},
		{`S<1 [ "yes" {answer>0} ]`, `filter(forall, S<1 [ "yes" ], answer>0)`},
		{`R=? [ C {answer=0}{max} ]`, `filter(max, R=? [ C ], answer=0)`},
		{`R{"asked"}=? [ F answer>0 {!truth & answer=0} ]`, `filter(state, R{"asked"}=? [ F answer>0 ], !truth & answer=0)`},
		{`R=? [ S {answer>0}{max} ]`, `filter(max, R=? [ S ], answer>0)`},
		{`R<=1 [ F answer>0 {"init"} ]`, `R<=1 [ F answer>0 ]`},
	}
	var props strings.Builder
	for _, p := range pairs {
		props.WriteString(p.old + "\n" + p.filter + "\n")
	}
	res := mustCheck(t, rr, props.String(), nil)
	for i, p := range pairs {
		a, b := res.Statements[2*i], res.Statements[2*i+1]
		if a.Err() != nil || b.Err() != nil {
			t.Errorf("%s: %v; %s: %v", p.old, a.Err(), p.filter, b.Err())
			continue
		}
		if a.Value() != b.Value() {
			t.Errorf("%s gives %q, %s gives %q", p.old, a.Value(), p.filter, b.Value())
		}
	}
	// The values themselves, so that a pair wrong the same way is caught.
	want := []string{"1/4", "3/4", "[1/4, 3/4]", "[1/4, 3/4]", "1/4", "3/4", "3/4"}
	for i, w := range want {
		if got := res.Statements[2*i].Value(); got != w {
			t.Errorf("%s = %s, want %s", pairs[i].old, got, w)
		}
	}
	if v := res.Statements[14].Value(); v != "violated" {
		t.Errorf("%s: %v, want violated (1/4 from truth=false)", pairs[7].old, v)
	}
	if v := res.Statements[16].Value(); v != "holds" {
		t.Errorf("%s: %v, want holds", pairs[8].old, v)
	}
	// A filter's report names the property without its old-style filter.
	if f, ok := res.Statements[0].Statement().(*property.FilterQuery); !ok || f.PropText != `P=? [ F "yes" ]` || f.Op != "min" {
		t.Errorf("P=? [ F \"yes\" {answer=0}{min} ] reads as %#v", res.Statements[0].Statement())
	}
	// As in PRISM, {φ} alone needs exactly one state.
	res = mustCheck(t, rr, "P=? [ F \"yes\" {answer=0} ]\n", nil)
	if err := res.Statements[0].Err(); err == nil || err.Error() != "filter(state, …) needs exactly one state satisfying its condition, and 2 do" {
		t.Errorf("{answer=0} over two states: %v", err)
	}
	// Inside a formula or another filter, an old-style filter is refused
	// on its own line.
	res = mustCheck(t, rr, "filter(max, P=? [ F \"yes\" {answer=0} ])\nP>0 [ F P>=1/2 [ X \"yes\" {truth} ] ]\n!S>0 [ \"yes\" {truth} ]\nfilter(min, R=? [ C {truth}{max} ])\nP=? [ F \"yes\" ]\nR<=1 [ F answer>0 {truth} ]\n", nil)
	var sts []property.Statement
	for _, o := range res.Statements {
		sts = append(sts, o.Statement())
	}
	msg := ": the old-style filter {…} applies to a whole property: inside a formula or filter(…) it is not supported"
	want = []string{"p.pctl:1:27" + msg, "p.pctl:2:26" + msg, "p.pctl:3:14" + msg, "p.pctl:4:21" + msg,
		"p.pctl:6:19: R~r [ρ {φ}] (the bound at every state of φ) is not supported: ask R=? [ρ {φ}{max}] (or {min}) and compare it with the bound"}
	if d := cmp.Diff(want, refusedOf(sts)); d != "" {
		t.Errorf("refused (-want +got):\n%s", d)
	}
}
