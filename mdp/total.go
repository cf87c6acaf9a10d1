package mdp

import (
	"context"
	"math/big"
	"slices"

	"github.com/dpcheck/dpcheck/chain"
)

// The total reward C on an MDP (PRISM's Rmin=? [C] and Rmax=? [C]),
// exactly, through maximal end components (sets of states a scheduler can
// keep the run in forever, by rows that stay inside):
//
//   - Rmax is +∞ from the states that can reach an end component earning
//     a reward (a positive state reward, or a positive reward of a row
//     inside it): a scheduler stays there forever. Elsewhere every end
//     component earns nothing, and a scheduler may stay in one for
//     nothing: each state of one gets a row to a stop state, and policy
//     iteration from a policy that stops surely finds the greatest
//     reward (it never switches to a policy that loops without stopping:
//     the loop would earn nothing, so it cannot be strictly better).
//   - Rmin is the least reward until the run is in an end component of
//     the rows earning nothing (it can stay there for free, and rewards
//     are never negative), +∞ where no scheduler gets there surely.

// endComponents returns, for every state, the maximal end component it
// lies in (an index), or −1: the components of the graph of the rows use
// accepts (nil: every row), with every row that can leave its component
// removed until none is left.
func (sc *sched) endComponents(use func(s, ri int) bool) []int {
	n := len(sc.rows)
	ok := make([][]bool, n)
	alive := make([]bool, n)
	for s := range n {
		ok[s] = make([]bool, len(sc.rows[s]))
		for ri := range ok[s] {
			ok[s][ri] = use == nil || use(s, ri)
			alive[s] = alive[s] || ok[s][ri]
		}
	}
	comp := make([]int, n)
	for {
		adj := make(chain.Adjacency, n)
		for s := range n {
			if !alive[s] {
				continue
			}
			for ri, r := range sc.rows[s] {
				if ok[s][ri] {
					for _, t := range r.to {
						if alive[t] {
							adj[s] = append(adj[s], t)
						}
					}
				}
			}
		}
		for s := range comp {
			comp[s] = -1
		}
		for i, scc := range adj.Components() {
			for _, x := range scc {
				if alive[x] {
					comp[x] = i
				}
			}
		}
		changed := false
		for s := range n {
			if !alive[s] {
				continue
			}
			any := false
			for ri, r := range sc.rows[s] {
				if ok[s][ri] && slices.ContainsFunc(r.to, func(t int) bool { return !alive[t] || comp[t] != comp[s] }) {
					ok[s][ri], changed = false, true
				}
				any = any || ok[s][ri]
			}
			if !any {
				alive[s], changed = false, true
			}
		}
		if !changed {
			for s := range n {
				if !alive[s] {
					comp[s] = -1
				}
			}
			return comp
		}
	}
}

// totalReward is Rmin or Rmax [C] (k the reward of taking a row).
func (sc *sched) totalReward(ctx context.Context, k func(s, ri int) *big.Rat, max bool) ([]*big.Rat, error) {
	n := len(sc.rows)
	if !max {
		comp := sc.endComponents(func(s, ri int) bool { return k(s, ri).Sign() == 0 })
		free := make([]bool, n)
		for s, c := range comp {
			free[s] = c >= 0
		}
		return sc.reachRewardSet(ctx, free, k, false)
	}
	comp := sc.endComponents(nil)
	earning := make([]bool, n)
	for s, c := range comp {
		if c < 0 {
			continue
		}
		for ri, r := range sc.rows[s] {
			inside := !slices.ContainsFunc(r.to, func(t int) bool { return comp[t] != c })
			if inside && k(s, ri).Sign() > 0 {
				earning[s] = true
			}
		}
	}
	// earning states' components earn: mark the whole component.
	compEarns := map[int]bool{}
	for s, e := range earning {
		if e {
			compEarns[comp[s]] = true
		}
	}
	for s, c := range comp {
		earning[s] = c >= 0 && compEarns[c]
	}
	inf := sc.backward(earning, all(n))
	// The finite states, with a stop row (to the state n, worth 0) at
	// those of an end component.
	stop := row{to: []int{n}, p: []*big.Rat{ratOne}}
	aug := &sched{m: sc.m, rows: make([][]row, n+1), pred: make([][][2]int, n+1)}
	for s := range n {
		aug.rows[s] = sc.rows[s]
		if comp[s] >= 0 && !inf[s] {
			aug.rows[s] = append(slices.Clip(sc.rows[s]), stop)
		}
	}
	aug.rows[n] = []row{stop}
	for s, rs := range aug.rows {
		for ri, r := range rs {
			for _, t := range r.to {
				aug.pred[t] = append(aug.pred[t], [2]int{s, ri})
			}
		}
	}
	kk := func(s, ri int) *big.Rat {
		if s == n || ri >= len(sc.rows[s]) {
			return new(big.Rat)
		}
		return k(s, ri)
	}
	target := make([]bool, n+1)
	target[n] = true
	idx := make([]int, n+1)
	val := make([]*big.Rat, n+1)
	var maybe []int
	for s := range idx {
		idx[s], val[s] = -1, new(big.Rat)
		if s < n && !inf[s] {
			idx[s] = len(maybe)
			maybe = append(maybe, s)
		}
	}
	pol := make([]int, n+1)
	aug.closure(target, func(s, ri int) bool {
		if idx[s] < 0 {
			return false
		}
		pol[s] = ri
		return true
	})
	if len(maybe) > 0 {
		if err := aug.iterate(ctx, maybe, idx, val, pol, nil, kk, true); err != nil {
			return nil, err
		}
	}
	out := val[:n]
	for s := range out {
		if inf[s] {
			out[s] = nil
		}
	}
	return out, nil
}

// all is n trues.
func all(n int) []bool {
	out := make([]bool, n)
	for s := range out {
		out[s] = true
	}
	return out
}
