package verify

import (
	"context"
	"fmt"
	"math/big"
	"slices"

	"github.com/dpcheck/dpcheck/chain"
)

// Expected rewards on a Markov chain (PRISM's R operator, docs/semantics.md
// §2.12), exactly: linear systems over ℚ solved by the block solver,
// bounded sums by exact backward recursion.

// Reward is a reward structure on the states of a chain (PRISM's rewards
// … endrewards). State[s] is the reward of being in s (its state items);
// Step[s] the expected reward earned by one step from s: the state reward
// plus the expected reward of the transition taken. Both have an entry,
// never negative, for every state; nil is 0.
type Reward struct {
	State, Step []*big.Rat
}

// RewardOp is what an expected reward accumulates.
type RewardOp int

// The rewards PRISM's R operator asks for.
const (
	// RewardReach (F φ): the reward earned until a φ-state is first
	// reached (0 in one); +∞ from a state that reaches none with
	// probability 1.
	RewardReach RewardOp = iota
	// RewardCumulative (C<=k): the reward earned by the first k steps.
	RewardCumulative
	// RewardInstant (I=k): the state reward of the state at step k.
	RewardInstant
	// RewardTotal (C): the reward earned over the whole run; +∞ from a
	// state that reaches, with positive probability, a bottom strongly
	// connected component where some state earns a positive reward.
	RewardTotal
	// RewardLongRun (S): the long-run average reward per step.
	RewardLongRun
	// RewardCoSafe (a co-safe LTL path ψ as Target: U, F, X and bounded
	// operators once negations are pushed inward): the reward earned
	// until ψ is first met — until the first prefix all of whose
	// continuations satisfy ψ, a state formula met at the first state —
	// and +∞ from a state where that happens with probability below 1
	// (PRISM's rewards of co-safe LTL). F φ is RewardReach's.
	RewardCoSafe
)

// RewardPath is the path part of a reward query: what it accumulates, the
// target of RewardReach (the path of RewardCoSafe), the steps k of RewardCumulative and
// RewardInstant.
type RewardPath struct {
	Op     RewardOp
	Target *Formula
	K      int
}

// String writes the path as PRISM does: F φ, C<=k, I=k, C, S.
func (p RewardPath) String() string {
	switch p.Op {
	case RewardReach:
		return "F " + p.Target.Text(MaxFormulaText)
	case RewardCoSafe:
		return p.Target.Text(MaxFormulaText)
	case RewardCumulative:
		return fmt.Sprintf("C<=%d", p.K)
	case RewardInstant:
		return fmt.Sprintf("I=%d", p.K)
	case RewardTotal:
		return "C"
	}
	return "S"
}

// InputReward is an expected reward from one input; Value nil is +∞.
type InputReward struct {
	State StateInfo
	Value *big.Rat
}

// RewardQuery returns the expected reward of r along p from every input.
func (m *Checker) RewardQuery(ctx context.Context, r Reward, p RewardPath) ([]InputReward, error) {
	v, err := m.Rewards(ctx, r, p)
	if err != nil {
		return nil, err
	}
	out := make([]InputReward, 0, len(m.c.Inputs()))
	for _, s := range m.c.Inputs() {
		out = append(out, InputReward{State: m.info(s), Value: v[s]})
	}
	return out, nil
}

// Rewards returns, for every state, the expected reward of r along p,
// exactly; a nil entry is +∞.
func (m *Checker) Rewards(ctx context.Context, r Reward, p RewardPath) ([]*big.Rat, error) {
	n := m.c.NumStates()
	if len(r.State) != n || len(r.Step) != n {
		return nil, fmt.Errorf("the reward structure has %d and %d entries for %d states", len(r.State), len(r.Step), n)
	}
	switch p.Op {
	case RewardCumulative:
		return m.recurse(ctx, p.K, make([]*big.Rat, n), r.Step)
	case RewardInstant:
		return m.recurse(ctx, p.K, r.State, nil)
	case RewardLongRun:
		return m.longRun(ctx, func(s int) *big.Rat { return r.Step[s] })
	case RewardCoSafe:
		return m.coSafeRewards(ctx, r, p.Target)
	case RewardReach:
		sat, err := m.Sat(ctx, p.Target)
		if err != nil {
			return nil, err
		}
		// +∞ where the target is missed with positive probability: the
		// states that reach, avoiding it, one that cannot reach it.
		reach := m.backward(sat, all(n))
		inf := m.backward(not(reach), not(sat))
		return m.solveReward(ctx, r.Step, func(s int) bool { return !sat[s] && !inf[s] }, inf)
	case RewardTotal:
		// +∞ where a bottom component earning a reward is reached.
		if m.sccs == nil {
			m.sccs = components(m.c)
		}
		compOf := m.compOf()
		earning := make([]bool, n)
		bottom := make([]bool, n)
		for i, scc := range m.sccs {
			if !m.isBottom(scc, compOf, i) {
				continue
			}
			pos := slices.ContainsFunc(scc, func(s int) bool { return r.Step[s] != nil && r.Step[s].Sign() > 0 })
			for _, s := range scc {
				bottom[s], earning[s] = true, pos
			}
		}
		inf := m.backward(earning, all(n))
		return m.solveReward(ctx, r.Step, func(s int) bool { return !bottom[s] && !inf[s] }, inf)
	}
	return nil, fmt.Errorf("unknown reward operator %d", p.Op)
}

// recurse returns v_k where v_0 = start and v_{i+1}(s) = add(s) +
// Σ_t P(s,t)·v_i(t) (add nil: 0; nil entries are 0).
func (m *Checker) recurse(ctx context.Context, k int, start, add []*big.Rat) ([]*big.Rat, error) {
	n := m.c.NumStates()
	zero := new(big.Rat)
	v := make([]*big.Rat, n)
	for s := range v {
		v[s] = zero
		if start[s] != nil {
			v[s] = start[s]
		}
	}
	t := new(big.Rat)
	for i := 0; i < k; i++ {
		next := make([]*big.Rat, n)
		for s := range n {
			if s&1023 == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			x := new(big.Rat)
			if add != nil && add[s] != nil {
				x.Set(add[s])
			}
			to, p := m.c.Row(s)
			for j, u := range to {
				if v[u].Sign() != 0 {
					x.Add(x, t.Mul(p[j], v[u]))
				}
			}
			next[s] = x
		}
		v = next
	}
	return v, nil
}

// solveReward solves x(s) = step(s) + Σ_t P(s,t)·x(t) for the states
// where unknown holds, x = 0 elsewhere except +∞ (nil) where inf holds.
// From every unknown state the chain must leave the unknown states with
// probability 1 without reaching an inf state.
func (m *Checker) solveReward(ctx context.Context, step []*big.Rat, unknown func(s int) bool, inf []bool) ([]*big.Rat, error) {
	if m.sccs == nil {
		m.sccs = components(m.c)
	}
	n := m.c.NumStates()
	x := make([]dvec, n)
	unk := make([]bool, n)
	for s := range n {
		unk[s] = unknown(s)
	}
	if err := solveBlocksPlus(ctx, m.c, m.sccs, unk, x, step); err != nil {
		return nil, err
	}
	out := scalars(x)
	for s, b := range inf {
		if b {
			out[s] = nil
		}
	}
	return out, nil
}

// compOf returns the index of every state's component in m.sccs.
func (m *Checker) compOf() []int {
	compOf := make([]int, m.c.NumStates())
	for i, scc := range m.sccs {
		for _, s := range scc {
			compOf[s] = i
		}
	}
	return compOf
}

func not(in []bool) []bool {
	out := make([]bool, len(in))
	for s, b := range in {
		out[s] = !b
	}
	return out
}

func all(n int) []bool {
	out := make([]bool, n)
	for s := range out {
		out[s] = true
	}
	return out
}

// FinalValues returns, for every input s of c, the expected value of
// f(s, t) over the absorbing state t where a run from s ends:
// Σ_t Pr_s(end at t)·f(s, t), exactly. A run that may never end (mass
// that enters a closed component other than an absorbing state) is an
// error naming its input.
func FinalValues(ctx context.Context, c *chain.Chain, f func(input, end int) (*big.Rat, error)) ([]InputReward, error) {
	dists, names, stateOutput, err := finalDistributions(ctx, c, c.Inputs(), FinalState())
	if err != nil {
		return nil, err
	}
	stateOf := make([]int, len(names))
	for i := range stateOf {
		stateOf[i] = -1
	}
	for s, o := range stateOutput {
		stateOf[o] = s
	}
	info := func(s int) StateInfo { return StateInfo{ID: s, Name: c.Name(s), Valuation: c.Valuation(s)} }
	out := make([]InputReward, 0, len(c.Inputs()))
	for _, s := range c.Inputs() {
		d := dists[s]
		v := new(big.Rat)
		for i, o := range d.out {
			t := stateOf[o]
			if t < 0 {
				return nil, fmt.Errorf("from input %s a run may never end (it ends with probability less than 1): the expected value where it ends is undefined", info(s))
			}
			x, err := f(s, t)
			if err != nil {
				return nil, err
			}
			v.Add(v, new(big.Rat).Mul(d.p[i], x))
		}
		out = append(out, InputReward{State: info(s), Value: v})
	}
	return out, nil
}
