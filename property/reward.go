package property

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/mdp"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/verify"
)

// RewardQuery is PRISM's R operator: the expected reward of one of the
// model's reward structures along a reward path (F φ, C<=k, I=k, C, S)
// from every input, exactly — a query (R=?, Rmin=?, Rmax=?), or with a
// bound a check that every input meets it (R~r; on an MDP Rmax for < and
// <=, Rmin for > and >=, so that every scheduler meets it). A value may be
// +∞ (docs/semantics.md §2.12).
type RewardQuery struct {
	Header
	// Reward indexes the model's reward structures
	// (model.Mechanism.Rewards); Name names it for reports, and Index
	// (1-based, 0 for the default) is its place in the model's file.
	Reward int
	Name   string
	Index  int
	// Path is what the reward accumulates; its Target (F φ) is Target
	// resolved.
	Op     verify.RewardOp
	Target *Formula
	K      int
	// Extreme is "min" or "max" for Rmin=? and Rmax=? on an MDP, "" for
	// R=? and R~r.
	Extreme string
	// Cmp and Bound, when Bound is set, make the statement a check.
	Cmp   string
	Bound *big.Rat
	path  verify.RewardPath
	onMDP bool
	rew   *model.Rewards
}

// RewardOutcome is the expected reward from every input.
type RewardOutcome struct {
	base
	// Values are one per input; a nil Value is +∞.
	Values []verify.InputReward
	// Extreme is "min" or "max" on an MDP: the schedulers' least or
	// greatest expected reward; "" on a Markov chain, or when every
	// scheduler gives the same.
	Extreme string
	// Holds says whether every value meets the bound of a check.
	Holds bool
}

// Kind is "query R", or "check R" with a bound.
func (s *RewardQuery) Kind() string {
	if s.Bound != nil {
		return "check R"
	}
	return "query R"
}

// Path returns the reward path (once prepared).
func (s *RewardQuery) Path() verify.RewardPath { return s.path }

// extreme is the extreme the statement computes on an MDP.
func (s *RewardQuery) extreme() string {
	switch {
	case s.Bound == nil:
		return s.Extreme
	case s.Cmp == "<" || s.Cmp == "<=":
		return "max"
	}
	return "min"
}

// Describe says what the statement computes.
func (s *RewardQuery) Describe() string {
	what := fmt.Sprintf("the expected reward %s[%s]", s.structure(), s.path)
	switch {
	case !s.onMDP:
		what += " from every input"
	case s.extreme() == "min":
		what += " from every input, the least over all schedulers (Rmin)"
	case s.extreme() == "max":
		what += " from every input, the greatest over all schedulers (Rmax)"
	default:
		what += " from every input, the same " + allSchedulers + " (Rmin = Rmax)"
	}
	if s.Bound != nil {
		what = fmt.Sprintf("the expected reward %s[%s] %s %s at every input", s.structure(), s.path, s.Cmp, s.Bound.RatString())
		if s.onMDP {
			what += " under every scheduler (R" + s.extreme() + ")"
		}
	}
	return what
}

// structure names the reward structure as PRISM writes it: R{"name"}.
func (s *RewardQuery) structure() string {
	switch {
	case s.Name != "":
		return `R{"` + s.Name + `"}`
	case s.Index > 1:
		return fmt.Sprintf("R{%d}", s.Index)
	}
	return "R"
}

func (s *RewardQuery) prepare(_ context.Context, p *Prepared) source.ErrorList {
	errs := p.checkExpectUnknown(&s.Header, s.Bound != nil)
	s.onMDP = p.MDP != nil
	s.path = verify.RewardPath{Op: s.Op, K: s.K}
	if s.Target != nil {
		errs = append(errs, p.preparePathOnMDP(&s.Header, s.Target)...)
		s.path.Target = s.Target.resolve(p.Chain, &errs)
		if s.Op == verify.RewardCoSafe {
			switch t := s.path.Target; {
			case CheckPath(s.Target) != nil:
				p.refuse(&s.Header, CheckPath(s.Target))
			case !verify.IsCoSafe(t):
				p.refuse(&s.Header, errorAt(s.Target.Pos, "R[%s]: the reward of a path formula is the reward earned until it is first met, so the formula must be co-safe (U, F, X and bounded operators once negations are pushed inward; not G, R or W)", s.Target.Text))
			}
		}
	}
	if s.Reward < 0 || s.Reward >= len(p.Rewards) || p.Chain == nil || len(p.Rewards[s.Reward].State) != p.Chain.NumStates() {
		return append(errs, errorAt(s.Pos, "the reward structure %s has no values on the model's states", s.structure()))
	}
	s.rew = p.Rewards[s.Reward]
	if s.onMDP && s.Op == verify.RewardLongRun {
		p.refuse(&s.Header, errorAt(s.Pos, "R[S] (the long-run average reward) is not supported on MDPs: dpcheck computes Rmin and Rmax of F φ, C<=k, I=k, C and co-safe LTL paths exactly"))
	}
	return errs
}

// Evaluate computes the expected reward from every input.
func (s *RewardQuery) Evaluate(ctx context.Context, e *Env) Outcome {
	o := &RewardOutcome{base: base{st: s}}
	c := e.p.Chain
	if !s.onMDP {
		m, err := e.Checker()
		if err == nil {
			o.Values, err = m.RewardQuery(ctx, verify.Reward{State: s.rew.State, Step: s.rew.Step}, s.path)
		}
		if err != nil {
			o.fail(err)
			return o
		}
	} else {
		r := mdp.Reward{State: s.rew.State, Choice: s.rew.Choice}
		ext := s.extreme()
		o.Extreme = ext
		var lo, hi []*big.Rat
		var err error
		if ext != "max" {
			lo, err = e.p.MDP.Rewards(ctx, r, s.path, false)
		}
		if err == nil && ext != "min" {
			hi, err = e.p.MDP.Rewards(ctx, r, s.path, true)
		}
		if err != nil {
			o.fail(err)
			return o
		}
		for _, st := range c.Inputs() {
			ir := verify.InputReward{State: stateInfo(c, st)}
			switch ext {
			case "min":
				ir.Value = lo[st]
			case "max":
				ir.Value = hi[st]
			default:
				if ratOrInf(lo[st]) != ratOrInf(hi[st]) {
					o.fail(&RewardScheduleError{State: ir.State, Min: lo[st], Max: hi[st]})
					return o
				}
				ir.Value = lo[st]
			}
			o.Values = append(o.Values, ir)
		}
	}
	o.Holds, o.pass = true, true
	if s.Bound != nil {
		for _, v := range o.Values {
			o.Holds = o.Holds && s.Meets(v.Value)
		}
		o.passCheck(&s.Header, o.Holds)
	}
	return o
}

// Meets reports whether an expected reward (nil: +∞) meets the bound of a
// check.
func (s *RewardQuery) Meets(v *big.Rat) bool {
	if s.Bound == nil {
		return true
	}
	if v == nil {
		return s.Cmp == ">" || s.Cmp == ">="
	}
	c := v.Cmp(s.Bound)
	switch s.Cmp {
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	}
	return c >= 0
}

// Value is "holds" or "violated" for a check, "" for a query (one value
// per input).
func (o *RewardOutcome) Value() string {
	if o.Statement().(*RewardQuery).Bound != nil {
		return verdict(&o.base, o.Holds)
	}
	return o.noValue()
}

// RewardScheduleError is the error of R=? on an MDP whose expected reward
// depends on the scheduler: the first input where the extremes differ.
type RewardScheduleError struct {
	State    verify.StateInfo
	Min, Max *big.Rat
}

func (e *RewardScheduleError) Error() string {
	return fmt.Sprintf("the expected reward depends on the scheduler: from %s it is between Rmin = %s and Rmax = %s; ask Rmin=?[…] or Rmax=?[…]",
		e.State, infText(e.Min), infText(e.Max))
}

// ratOrInf writes an expected reward: a fraction, or "Infinity" for nil.
func ratOrInf(x *big.Rat) string {
	if x == nil {
		return "Infinity"
	}
	return x.RatString()
}

// IsRewardUnsupported reports whether err says that an expected reward is
// not computed on an MDP.
func IsRewardUnsupported(err error) bool { return errors.Is(err, mdp.ErrRewardUnsupported) }
