package prism_test

import (
	"math/big"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dpcheck/dpcheck/property"
)

// TestFilters: every filter operator over P=?, S=?, R=? and state
// formulas, with and without a condition on the states, on a chain whose
// values are known: randomized response with a fair coin half the time
// (Pr(yes) = 1/4 from truth=false, 3/4 from truth=true, 1 and 0 once
// answered), and on an MDP.
func TestFilters(t *testing.T) {
	const rr = `dtmc
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
