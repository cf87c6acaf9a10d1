package property

import (
	"cmp"
	"context"
	"fmt"
	"math/big"
	"slices"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/mdp"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/verify"
)

// FilterQuery is PRISM's filter(op, prop, states): the property prop
// evaluated at every state where states holds (every state when nil;
// the model's states are those reachable from its initial states), and
// reduced by op — min, max, sum, avg, count, exists, forall, first, state,
// range, argmin, argmax, print (docs/semantics.md §6.3). prop is a value
// per state, Pr(ψ) (Prob), an expected reward (Reward) or a state formula
// (Formula), exactly one of them set. "first" and "state" take the first
// state in the order of the states' valuations (PRISM's order of states).
type FilterQuery struct {
	Header
	Op      string
	Prob    *ProbQuery
	Reward  *RewardQuery
	Formula *Formula
	States  *Formula
	// PropText is prop's text, for reports.
	PropText string
	formula  *verify.Formula
	states   *verify.Formula
	onMDP    bool
}

// FilterOutcome is a filter's result: a number (Num; nil with Inf for
// +∞), a truth value (Bool), a range (Num to High), or states (States,
// for argmin, argmax and print, each with its value in Values or Bools).
type FilterOutcome struct {
	base
	Num, High *big.Rat
	Inf       bool
	Bool      *bool
	States    []verify.StateInfo
	Values    []*big.Rat
	Bools     []bool
	// Count is the number of states the filter kept.
	Count int
	// Range marks a range: [Num, High] (nil: ∞).
	Range bool
}

// numeric reports whether prop is a number (not a formula).
func (s *FilterQuery) numeric() bool { return s.Formula == nil }

// Kind is "query filter".
func (s *FilterQuery) Kind() string { return "query filter" }

// Describe says what the filter computes.
func (s *FilterQuery) Describe() string {
	over := "every state"
	if s.States != nil {
		over = "the states where " + s.States.Text + " holds"
	}
	return fmt.Sprintf("filter %s of %s over %s", s.Op, s.PropText, over)
}

func (s *FilterQuery) prepare(ctx context.Context, p *Prepared) source.ErrorList {
	var errs source.ErrorList
	s.onMDP = p.MDP != nil
	switch {
	case s.Prob != nil:
		errs = s.Prob.prepare(ctx, p)
	case s.Reward != nil:
		errs = s.Reward.prepare(ctx, p)
		if why := p.refused[&s.Reward.Header]; why != nil {
			p.refuse(&s.Header, why[0])
		}
	default:
		if s.onMDP {
			if g := nestedOnMDP(s.Formula, false); g != nil || s.Formula.hasProb() {
				p.refuse(&s.Header, errorAt(s.Formula.Pos, "filter(%s, φ, …) on an MDP takes a propositional φ (labels, comparisons, !, &, |); ask for Pmin=? or Pmax=? inside the filter instead", s.Op))
				return nil
			}
		}
		s.formula = s.Formula.resolve(p.Chain, &errs)
	}
	if s.States != nil {
		if s.onMDP && s.States.hasProb() {
			p.refuse(&s.Header, errorAt(s.States.Pos, "the states of a filter on an MDP must be given by a propositional formula"))
			return nil
		}
		s.states = s.States.resolve(p.Chain, &errs)
	}
	return errs
}

// hasProb reports whether f has a P, S or D operator.
func (f *Formula) hasProb() bool {
	if f.Op == verify.OpProb || f.Op == verify.OpDP || f.Op == verify.OpSteady {
		return true
	}
	return slices.ContainsFunc(f.Args, (*Formula).hasProb)
}

// Evaluate computes prop at every state, keeps those of states and
// reduces them.
func (s *FilterQuery) Evaluate(ctx context.Context, e *Env) Outcome {
	o := &FilterOutcome{base: base{st: s}}
	if err := s.evaluate(ctx, e, o); err != nil {
		o.fail(err)
		return o
	}
	o.pass = true
	return o
}

func (s *FilterQuery) evaluate(ctx context.Context, e *Env, o *FilterOutcome) error {
	c := e.p.Chain
	sat := func(f *verify.Formula) ([]bool, error) {
		if !s.onMDP {
			m, err := e.Checker()
			if err != nil {
				return nil, err
			}
			return m.Sat(ctx, f)
		}
		return e.p.MDP.Sat(ctx, f)
	}
	var nums, other []*big.Rat // other: the other extreme, where they must agree
	var bools []bool
	var err error
	switch {
	case s.Prob != nil:
		nums, other, err = s.probs(ctx, e)
	case s.Reward != nil:
		nums, other, err = s.rewards(ctx, e)
	default:
		bools, err = sat(s.formula)
	}
	if err != nil {
		return err
	}
	// The states kept, in the order of their valuations.
	var keep []int
	var in []bool
	if s.states != nil {
		if in, err = sat(s.states); err != nil {
			return err
		}
	}
	for st := range c.NumStates() {
		if in == nil || in[st] {
			keep = append(keep, st)
		}
	}
	slices.SortStableFunc(keep, func(a, b int) int { return compareValuations(c, a, b) })
	for _, st := range keep {
		if other != nil && ratOrInf(nums[st]) != ratOrInf(other[st]) {
			what, op := "Pr(ψ)", "P"
			if s.Reward != nil {
				what, op = "the expected reward", "R"
			}
			return fmt.Errorf("%s depends on the scheduler at %s: between %s and %s; ask %smin=? or %smax=? inside the filter", what, c.Name(st), ratOrInf(nums[st]), ratOrInf(other[st]), op, op)
		}
	}
	o.Count = len(keep)
	info := func(st int) verify.StateInfo { return stateInfo(c, st) }
	if len(keep) == 0 && s.Op != "count" && s.Op != "exists" && s.Op != "forall" && s.Op != "sum" {
		return fmt.Errorf("filter(%s, …): no state satisfies the filter's condition", s.Op)
	}
	// num is prop at a state as a number (a formula: 1 or 0).
	num := func(st int) *big.Rat {
		if bools != nil {
			if bools[st] {
				return big.NewRat(1, 1)
			}
			return new(big.Rat)
		}
		return nums[st]
	}
	setNum := func(x *big.Rat) {
		o.Num, o.Inf = x, x == nil
	}
	setBool := func(b bool) { o.Bool = &b }
	switch s.Op {
	case "count":
		n := 0
		for _, st := range keep {
			if bools[st] {
				n++
			}
		}
		setNum(big.NewRat(int64(n), 1))
	case "exists", "forall":
		b := s.Op == "forall"
		for _, st := range keep {
			if bools[st] != b {
				b = !b
				break
			}
		}
		setBool(b)
	case "first", "state":
		if s.Op == "state" && len(keep) != 1 {
			return fmt.Errorf("filter(state, …) needs exactly one state satisfying its condition, and %d do", len(keep))
		}
		st := keep[0]
		o.States = []verify.StateInfo{info(st)}
		if bools != nil {
			setBool(bools[st])
			o.Bools = []bool{bools[st]}
		} else {
			setNum(nums[st])
			o.Values = []*big.Rat{nums[st]}
		}
	case "min", "max", "argmin", "argmax", "range":
		var lo, hi *big.Rat // nil: ∞ (only hi can be ∞ once set)
		loSet, hiSet := false, false
		for _, st := range keep {
			x := num(st)
			if !loSet || lessInf(x, lo) {
				lo, loSet = x, true
			}
			if !hiSet || lessInf(hi, x) {
				hi, hiSet = x, true
			}
		}
		switch s.Op {
		case "min":
			setNum(lo)
		case "max":
			setNum(hi)
		case "range":
			setNum(lo)
			o.High, o.Range = hi, true
		default:
			want := lo
			if s.Op == "argmax" {
				want = hi
			}
			for _, st := range keep {
				if x := num(st); (x == nil) == (want == nil) && (x == nil || x.Cmp(want) == 0) {
					o.States, o.Values = append(o.States, info(st)), append(o.Values, x)
				}
			}
		}
	case "sum", "avg":
		sum := new(big.Rat)
		for _, st := range keep {
			x := num(st)
			if x == nil {
				sum = nil
				break
			}
			sum.Add(sum, x)
		}
		if sum != nil && s.Op == "avg" {
			sum.Quo(sum, big.NewRat(int64(len(keep)), 1))
		}
		setNum(sum)
	case "print", "printall":
		for _, st := range keep {
			o.States = append(o.States, info(st))
			if bools != nil {
				o.Bools = append(o.Bools, bools[st])
			} else {
				o.Values = append(o.Values, nums[st])
			}
		}
	default:
		return fmt.Errorf("unknown filter operator %s", s.Op)
	}
	return nil
}

// lessInf compares two values where nil is +∞.
func lessInf(a, b *big.Rat) bool {
	switch {
	case a == nil:
		return false
	case b == nil:
		return true
	}
	return a.Cmp(b) < 0
}

// compareValuations orders states by their variables' values, in the
// order of the variables (PRISM's order of states), then by number.
func compareValuations(c *chain.Chain, a, b int) int {
	va, vb := c.Valuation(a), c.Valuation(b)
	for i := range min(len(va), len(vb)) {
		if d := cmp.Compare(va[i].Value, vb[i].Value); d != 0 {
			return d
		}
	}
	return cmp.Compare(a, b)
}

// probs is Pr(ψ) at every state: on an MDP the query's extreme, or for
// P=? both extremes (which must agree where the filter looks).
func (s *FilterQuery) probs(ctx context.Context, e *Env) (v, other []*big.Rat, err error) {
	q := s.Prob
	if !s.onMDP {
		m, err := e.Checker()
		if err != nil {
			return nil, nil, err
		}
		v, err = m.Prob(ctx, q.f)
		return v, nil, err
	}
	return extremes(q.Extreme, func(max bool) ([]*big.Rat, error) { return e.p.MDP.Prob(ctx, q.f, max) })
}

// rewards is the expected reward at every state (nil: ∞), as probs.
func (s *FilterQuery) rewards(ctx context.Context, e *Env) (v, other []*big.Rat, err error) {
	q := s.Reward
	if !s.onMDP {
		m, err := e.Checker()
		if err != nil {
			return nil, nil, err
		}
		v, err = m.Rewards(ctx, verify.Reward{State: q.rew.State, Step: q.rew.Step}, q.path)
		return v, nil, err
	}
	r := mdp.Reward{State: q.rew.State, Choice: q.rew.Choice}
	return extremes(q.extreme(), func(max bool) ([]*big.Rat, error) { return e.p.MDP.Rewards(ctx, r, q.path, max) })
}

// extremes is the extreme ext ("min", "max") of an MDP's values at every
// state, or with ext "" both (the least first).
func extremes(ext string, of func(max bool) ([]*big.Rat, error)) (v, other []*big.Rat, err error) {
	if ext != "" {
		v, err = of(ext == "max")
		return v, nil, err
	}
	if v, err = of(false); err != nil {
		return nil, nil, err
	}
	other, err = of(true)
	return v, other, err
}

// Value is the filter's result as text.
func (o *FilterOutcome) Value() string {
	switch {
	case o.err != nil:
		return "error"
	case o.Bool != nil:
		return fmt.Sprint(*o.Bool)
	case o.Range:
		return "[" + infText(o.Num) + ", " + infText(o.High) + "]"
	case o.Inf:
		return "∞"
	case o.Num != nil:
		return o.Num.RatString()
	}
	return ""
}

// infText writes a value, "∞" for nil.
func infText(x *big.Rat) string {
	if x == nil {
		return "∞"
	}
	return x.RatString()
}
