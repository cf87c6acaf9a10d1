package statespace

import (
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/source"
)

// Rewards (PRISM's rewards … endrewards): a structure's state items give
// every state where their guard holds their value, summed; its transition
// items give every choice of their action (none: an unlabelled command's
// choice) taken at a state where their guard holds their value, summed. On
// a Markov chain a step's expected reward is the state reward plus the
// transition rewards of the choices, each weighted by the probability the
// uniform mix gives it (PRISM's expected rewards); a deadlock state's
// self-loop earns no transition reward, as in PRISM. A value must be a
// number, never negative.

// Reward is a reward structure.
type Reward struct {
	// Name is its name ("" for none).
	Name  string
	Pos   source.Position
	Items []RewardItem
}

// RewardItem is "guard : value;" (a state item) or "[action] guard :
// value;" (a transition item, Trans set; Action "" for []).
type RewardItem struct {
	Pos          source.Position
	Trans        bool
	Action       string
	Guard, Value *expr.Expr
}

// crewItem is a compiled reward item.
type crewItem struct {
	src   *RewardItem
	guard expr.ValCond
	value expr.ValNum
}

// compileRewards compiles the model's reward items.
func (m *Model) compileRewards(sl slots) ([][]crewItem, source.ErrorList) {
	var errs source.ErrorList
	out := make([][]crewItem, len(m.Rewards))
	for ri := range m.Rewards {
		for ii := range m.Rewards[ri].Items {
			it := &m.Rewards[ri].Items[ii]
			g, ce := expr.CompileCondition(it.Guard, sl)
			errs = append(errs, ce...)
			v, ce := expr.CompileNumber(it.Value, sl)
			errs = append(errs, ce...)
			out[ri] = append(out[ri], crewItem{src: it, guard: g, value: v})
		}
	}
	return out, errs
}

// rewardsOf holds the reward structures' values as states are explored.
type rewardsOf struct {
	out  []*model.Rewards
	zero *big.Rat
}

// newRewards prepares the reward structures' vectors.
func (x *explorer) newRewards() {
	if len(x.p.rewards) == 0 {
		return
	}
	x.rew = &rewardsOf{zero: new(big.Rat)}
	for _, r := range x.p.m.Rewards {
		x.rew.out = append(x.rew.out, &model.Rewards{Name: r.Name})
	}
}

// rewardRow evaluates the reward structures at the next state explored,
// whose choices are cs.
func (x *explorer) rewardRow(cs []choice[*big.Rat]) error {
	if x.rew == nil {
		return nil
	}
	s := len(x.rew.out[0].State)
	v := x.state(s)
	for ri, items := range x.p.rewards {
		out := x.rew.out[ri]
		st, err := x.rewardSum(items, v, func(it *RewardItem) bool { return !it.Trans })
		if err != nil {
			return err
		}
		trans := make([]*big.Rat, len(cs))
		for i, c := range cs {
			if trans[i], err = x.rewardSum(items, v, func(it *RewardItem) bool { return it.Trans && it.Action == c.action }); err != nil {
				return err
			}
		}
		out.State = append(out.State, st)
		if x.p.m.MDP {
			var row []*big.Rat
			for _, t := range trans {
				if t != x.rew.zero {
					row = trans
					break
				}
			}
			out.Choice = append(out.Choice, row)
			x.extra += int64(len(row)) * 8
			continue
		}
		step := st
		if len(cs) > 0 {
			sum := new(big.Rat)
			for _, t := range trans {
				sum.Add(sum, t)
			}
			if sum.Sign() != 0 {
				step = sum.Quo(sum, big.NewRat(int64(len(cs)), 1))
				step.Add(step, st)
			}
		}
		out.Step = append(out.Step, step)
		x.extra += ratBytes(st) + ratBytes(step) + 16
	}
	return nil
}

// rewardSum sums the values of the items that apply (use) and whose guard
// holds at v; x.rew.zero when none does.
func (x *explorer) rewardSum(items []crewItem, v []int64, use func(*RewardItem) bool) (*big.Rat, error) {
	sum := x.rew.zero
	for _, it := range items {
		if !use(it.src) {
			continue
		}
		ok, err := it.guard(v)
		if err != nil {
			return nil, source.ErrorList{x.rewardError(errEval(err, it.src.Guard.Pos), v)}
		}
		if !ok {
			continue
		}
		val, err := it.value(v)
		if err != nil {
			return nil, source.ErrorList{x.rewardError(errEval(err, it.src.Value.Pos), v)}
		}
		q := val.Rat()
		if q.Sign() < 0 {
			return nil, source.ErrorList{x.rewardError(&source.Error{Pos: it.src.Value.Pos, Msg: fmt.Sprintf("the reward is %s, negative: rewards are at least 0, as in PRISM", exact.Short(q))}, v)}
		}
		if q.Sign() == 0 {
			continue
		}
		if sum == x.rew.zero {
			sum = new(big.Rat)
		}
		sum.Add(sum, q)
	}
	return sum, nil
}

// rewardError adds the state to an error of a reward item.
func (x *explorer) rewardError(e *source.Error, v []int64) *source.Error {
	e.Msg += fmt.Sprintf(" (at the state %s)", x.describe(v))
	return e
}
