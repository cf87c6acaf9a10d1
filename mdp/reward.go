package mdp

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/verify"
)

// Reward is a reward structure on an MDP (PRISM's rewards … endrewards):
// State[s] is the reward of being in s, Choice[s][i] the reward of taking
// the choice m.Choices[s][i] (its transition items). nil entries are 0;
// none is negative. A state without a choice earns its state reward at
// every step; a choice that loops back earns its own reward each time.
type Reward struct {
	State  []*big.Rat
	Choice [][]*big.Rat
}

// ErrRewardUnsupported says that an expected reward is not computed on
// MDPs (the long-run average S); errors.Is
// recognises the error Rewards returns for them.
var ErrRewardUnsupported = errors.New("not supported on MDPs")

// Rewards returns, for every state, the least (max false) or greatest
// (max true) expected reward of r along p over all schedulers, exactly; a
// nil entry is +∞. For F φ, Rmax is +∞ where some scheduler misses φ with
// positive probability and Rmin where every scheduler does; otherwise the
// extreme is over the schedulers that reach φ surely (PRISM's semantics),
// found by policy iteration with exact linear solves. C<=k and I=k are
// backward induction. C is solved through the maximal end components
// (total.go), a co-safe LTL path through the product with its automaton
// (ltl.go). S is ErrRewardUnsupported; an Rmin[F φ] whose policies may
// stay forever among states without reward is refused too.
func (m *MDP) Rewards(ctx context.Context, r Reward, p verify.RewardPath, max bool) ([]*big.Rat, error) {
	n := m.NumStates()
	if len(r.State) != n || len(r.Choice) != n {
		return nil, fmt.Errorf("mdp: the reward structure has %d and %d entries for %d states", len(r.State), len(r.Choice), n)
	}
	// Every choice is a row, a self-loop's too: it earns its reward.
	sc := buildSched(m, false, false)
	zero := new(big.Rat)
	// k is the reward of taking row ri of s.
	k := func(s, ri int) *big.Rat {
		x := new(big.Rat)
		if r.State[s] != nil {
			x.Set(r.State[s])
		}
		if len(m.Choices[s]) > 0 && r.Choice[s] != nil && r.Choice[s][ri] != nil {
			x.Add(x, r.Choice[s][ri])
		}
		return x
	}
	switch p.Op {
	case verify.RewardCumulative, verify.RewardInstant:
		v := make([]*big.Rat, n)
		for s := range v {
			v[s] = zero
			if p.Op == verify.RewardInstant && r.State[s] != nil {
				v[s] = r.State[s]
			}
		}
		for range p.K {
			next := make([]*big.Rat, n)
			for s := range n {
				if s&1023 == 0 {
					if err := ctx.Err(); err != nil {
						return nil, err
					}
				}
				var best *big.Rat
				for ri, row := range sc.rows[s] {
					x := expect(row, v)
					if p.Op == verify.RewardCumulative {
						x.Add(x, k(s, ri))
					}
					if best == nil || (max && x.Cmp(best) > 0) || (!max && x.Cmp(best) < 0) {
						best = x
					}
				}
				next[s] = best
			}
			v = next
		}
		return v, nil
	case verify.RewardCoSafe:
		return m.coSafeRewards(ctx, r, p.Target, max)
	case verify.RewardReach:
		return m.reachReward(ctx, sc, p.Target, k, max)
	case verify.RewardTotal:
		return sc.totalReward(ctx, k, max)
	}
	return nil, fmt.Errorf("R[%s]: %w", p, ErrRewardUnsupported)
}

// reachReward is Rmin or Rmax [F target].
func (m *MDP) reachReward(ctx context.Context, sc *sched, target *verify.Formula, k func(s, ri int) *big.Rat, max bool) ([]*big.Rat, error) {
	if !isPropositional(target) {
		return nil, errUnsupported(target, "the target of R[F φ] on an MDP must be a propositional state formula (labels, atoms, !, &, |)")
	}
	yes, err := m.Sat(ctx, target)
	if err != nil {
		return nil, err
	}
	val, err := sc.reachRewardSet(ctx, yes, k, max)
	if errors.Is(err, errImproper) {
		return nil, fmt.Errorf("Rmin[F %s]: %w: %w", target.Text(verify.MaxFormulaText), ErrRewardUnsupported, err)
	}
	return val, err
}

// reachRewardSet is Rmin or Rmax [F yes]; errImproper when an Rmin's
// policy may stay forever among states without reward.
func (sc *sched) reachRewardSet(ctx context.Context, yes []bool, k func(s, ri int) *big.Rat, max bool) ([]*big.Rat, error) {
	n := len(sc.rows)
	// Finite where the target is reached surely: by every scheduler for
	// Rmax, by some for Rmin.
	pr, err := sc.reach(ctx, yes, not(yes), !max)
	if err != nil {
		return nil, err
	}
	one := big.NewRat(1, 1)
	finite := make([]bool, n)
	idx := make([]int, n)
	var maybe []int
	val := make([]*big.Rat, n)
	zero := new(big.Rat)
	for s := range n {
		idx[s], val[s] = -1, zero
		finite[s] = pr[s].Cmp(one) == 0
		if finite[s] && !yes[s] {
			idx[s] = len(maybe)
			maybe = append(maybe, s)
		}
	}
	// A row is allowed when it keeps to finite states (for Rmax every row
	// of a finite state does).
	allowed := func(s, ri int) bool {
		for _, t := range sc.rows[s][ri].to {
			if !finite[t] {
				return false
			}
		}
		return true
	}
	pol := make([]int, n)
	// The initial policy moves towards the target (an attractor) by
	// allowed rows, so that it reaches the target surely.
	sc.closure(yes, func(s, ri int) bool {
		if idx[s] < 0 || !allowed(s, ri) {
			return false
		}
		pol[s] = ri
		return true
	})
	var check func(s, ri int) bool
	if !max {
		check = allowed
	}
	if len(maybe) > 0 {
		if err := sc.iterate(ctx, maybe, idx, val, pol, check, k, max); err != nil {
			return nil, err
		}
	}
	for s := range n {
		if !finite[s] {
			val[s] = nil
		}
	}
	return val, nil
}
