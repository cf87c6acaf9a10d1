package prism_test

import (
	"math/big"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/property"
)

var ratCmpRewards = cmp.Comparer(func(a, b *big.Rat) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Cmp(b) == 0
})

// rewardValues returns, per statement, the expected reward of every input
// (nil: ∞) of an R query, or the verdict of a check ("holds": nil).
func rewardValues(t *testing.T, r *dpcheck.Result) []map[string]*big.Rat {
	t.Helper()
	var out []map[string]*big.Rat
	for _, o := range r.Statements {
		if o.Err() != nil {
			t.Fatalf("%s: %v", o.Statement().Head().Text, o.Err())
		}
		m := map[string]*big.Rat{}
		ro, ok := o.(*property.RewardOutcome)
		switch {
		case ok && ro.Statement().(*property.RewardQuery).Bound == nil:
			for _, v := range ro.Values {
				m[v.State.Valuation.String()] = v.Value
			}
		default:
			m[o.Value()] = nil
		}
		out = append(out, m)
	}
	return out
}

// TestRewardsOnAChain: a state's transition rewards are weighted by the
// uniform choice among its commands (PRISM's expected rewards), state
// rewards count at every step before it, I=k reads state rewards only,
// and a deadlock's self-loop earns no transition reward.
func TestRewardsOnAChain(t *testing.T) {
	model := `dtmc
module m
  s : [0..2];
  [a] s=0 -> (s'=1);
  [b] s=0 -> 1/2 : (s'=1) + 1/2 : (s'=2);
endmodule
rewards "r"
  s=0 : 1;
  [a] true : 4;
  [b] s=0 : 2;
  s=2 : 5;
  [] true : 100;
endrewards
rewards "steps"
  true : 1;
endrewards
`
	props := `R{"r"}=? [ C<=1 ]
R=? [ I=0 ]
R{"r"}=? [ I=1 ]
R{"r"}=? [ F s>0 ]
R{"r"}=? [ F s=2 ]
R{"steps"}=? [ F s=2 ]
R{1}=? [ C ]
R{2}=? [ S ]
R{"r"}<=4 [ F s>0 ]
R{"r"}<4 [ F s>0 ]
`
	got := rewardValues(t, mustCheck(t, model, props, nil))
	at := func(x *big.Rat) map[string]*big.Rat { return map[string]*big.Rat{"s=0": x} }
	want := []map[string]*big.Rat{
		at(r(4, 1)), // 1 + (4 + 2)/2
		at(r(1, 1)), // the first structure's state reward at s=0
		at(r(5, 4)), // Pr(s=2 at step 1) = 1/4, times 5
		at(r(4, 1)), // one step
		at(nil),     // s=2 is missed with probability 3/4 (s=1 is a deadlock)
		at(nil),     // likewise for "steps"
		at(nil),     // C: s=2's deadlock loop earns 5 per step
		at(r(1, 1)), // S of "steps": 1 per step
		{"holds": nil},
		{"violated": nil},
	}
	if d := cmp.Diff(want, got, ratCmpRewards); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestRewardsOnAnMDP: Rmin and Rmax over the schedulers; R=? is refused
// where they differ; C and S are refused on their own.
func TestRewardsOnAnMDP(t *testing.T) {
	model := `mdp
module m
  s : [0..2];
  [a] s=0 -> (s'=1);
  [b] s=0 -> 1/2 : (s'=1) + 1/2 : (s'=0);
  [] s=1 -> (s'=2);
endmodule
rewards
  [a] true : 4;
  [b] true : 1;
  s=1 : 3;
endrewards
`
	props := `Rmin=? [ F s=2 ]
R{1}max=? [ F s=2 ]
Rmax=? [ C<=2 ]
Rmin=? [ I=1 ]
R>=5 [ F s=2 ]
Rmax=? [ C ]
Rmin=? [ C ]
`
	got := rewardValues(t, mustCheck(t, model, props, nil))
	at := func(x *big.Rat) map[string]*big.Rat { return map[string]*big.Rat{"s=0": x} }
	want := []map[string]*big.Rat{
		at(r(5, 1)), // b costs 1 per try, 2 tries on average, then 3: 5; a gives 4 + 3 = 7
		at(r(7, 1)),
		at(r(7, 1)), // a then the state reward 3
		at(r(3, 2)), // b: Pr(s=1) = 1/2, times 3
		{"holds": nil},
		at(r(7, 1)), // the total: as F s=2, s=2 looping without reward
		at(r(5, 1)),
	}
	if d := cmp.Diff(want, got, ratCmpRewards); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	res := mustCheck(t, model, "R=? [ F s=2 ]\nRmin=? [ S ]\n", nil)
	if err := res.Statements[0].Err(); err == nil || err.Error() != "the expected reward depends on the scheduler: from s0 (s=0) it is between Rmin = 5 and Rmax = 7; ask Rmin=?[…] or Rmax=?[…]" {
		t.Errorf("R=? on an MDP: %v", err)
	}
	var sts []property.Statement
	for _, o := range res.Statements {
		sts = append(sts, o.Statement())
	}
	wantRefused := []string{
		"p.pctl:2:1: R[S] (the long-run average reward) is not supported on MDPs: dpcheck computes Rmin and Rmax of F φ, C<=k, I=k, C and co-safe LTL paths exactly",
	}
	if d := cmp.Diff(wantRefused, refusedOf(sts)); d != "" {
		t.Errorf("refused (-want +got):\n%s", d)
	}
}

// TestRewardErrors: what is wrong with a reward structure or an R
// property is an error at its position; what dpcheck does not compute is
// refused on its own line.
func TestRewardErrors(t *testing.T) {
	const model = "dtmc\nmodule m\n  s : [0..2];\n  [] s<2 -> (s'=s+1);\nendmodule\n"
	tests := []struct{ model, props, want string }{
		{model, "R=? [ F s=2 ]", "p.pctl:1:1: the model has no reward structure (rewards … endrewards)"},
		{model + "rewards \"r\"\n  true : 1;\nendrewards\n", "R{\"x\"}=? [ F s=2 ]", "p.pctl:1:3: the model has no reward structure named \"x\""},
		{model + "rewards \"r\"\n  true : 1;\nendrewards\n", "R{2}=? [ F s=2 ]", "p.pctl:1:3: the index of a reward structure is 2, outside [1, 1]"},
		{model + "rewards\n  true : -1;\nendrewards\n", "R=? [ F s=2 ]", "m.pm:7:10: the reward -1 is negative: rewards are at least 0, as in PRISM"},
		{model + "rewards\n  true : s-1;\nendrewards\n", "R=? [ F s=2 ]", "m.pm:7:10: the reward is -1, negative: rewards are at least 0, as in PRISM (at the state (s=0))"},
		{model + "rewards\n  true : 1/(2-s);\nendrewards\n", "R=? [ F s=2 ]", "m.pm:7:12: division by zero (at the state (s=2))"},
		{model + "rewards\n  s : 1;\nendrewards\n", "R=? [ F s=2 ]", "m.pm:7:3: the guard of a reward item must be a boolean (a condition), found an int"},
	}
	for _, tc := range tests {
		_, err := check(t, tc.model, tc.props, nil)
		if err == nil {
			t.Errorf("%q: no error, want %s", tc.props, tc.want)
			continue
		}
		if got := errorsOf(t, err); len(got) == 0 || got[0] != tc.want {
			t.Errorf("%q:\n got %v\nwant %s", tc.props, got, tc.want)
		}
	}
	res := mustCheck(t, model+"rewards\n  true : 1;\nendrewards\n", "R=? [ G s<2 ]\nP>0 [ F s=2 ] & R<3 [ F s=2 ]\nR=? [ F s=2 {s=1} ]\nR=? [ F s=2 {\"init\"} ]\n", nil)
	var sts []property.Statement
	for _, o := range res.Statements {
		sts = append(sts, o.Statement())
	}
	wantRefused := []string{
		"p.pctl:1:7: R[G s<2]: the reward of a path formula is the reward earned until it is first met, so the formula must be co-safe (U, F, X and bounded operators once negations are pushed inward; not G, R or W)",
		"p.pctl:2:17: R inside a formula is not supported: ask for the expected reward as a whole property, R=? [ρ] or R<=r [ρ]",
	}
	if d := cmp.Diff(wantRefused, refusedOf(sts)); d != "" {
		t.Errorf("refused (-want +got):\n%s", d)
	}
	// {s=1}: the reward from the one state s=1 (filter(state, …)).
	if o := res.Statements[2]; o.Err() != nil || o.Value() != "1" {
		t.Errorf("R=? [ F s=2 {s=1} ]: %v %v", o.Value(), o.Err())
	}
	if o, ok := res.Statements[3].(*property.RewardOutcome); !ok || o.Err() != nil || o.Values[0].Value.Cmp(r(2, 1)) != 0 {
		t.Errorf("R=? [ F s=2 {\"init\"} ]: %v", res.Statements[3].Value())
	}
}
