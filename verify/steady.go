package verify

import (
	"context"
	"math/big"
)

// steadyVec is, for every state s, the long-run fraction of time the chain
// spends in f-states from s (PRISM's S=? [f]): Σ over the bottom strongly
// connected components B of Pr_s(reach B)·π_B(f), with π_B the stationary
// distribution of B (the long-run average, whatever B's period). Exact:
// π_B by one sparse linear system per component of more than one state,
// the reach probabilities by the block solver, the components' values as
// their absorbing values.
func (m *Checker) steadyVec(ctx context.Context, f *Formula) ([]*big.Rat, error) {
	sat, err := m.Sat(ctx, f)
	if err != nil {
		return nil, err
	}
	return m.longRun(ctx, func(s int) *big.Rat {
		if sat[s] {
			return ratOne
		}
		return nil
	})
}

// longRun is, for every state s, the long-run average of w (nil: 0) from
// s: Σ over the bottom strongly connected components B of
// Pr_s(reach B)·Σ_{t∈B} π_B(t)·w(t).
func (m *Checker) longRun(ctx context.Context, w func(s int) *big.Rat) ([]*big.Rat, error) {
	if m.sccs == nil {
		m.sccs = components(m.c)
	}
	n := m.c.NumStates()
	compOf := make([]int, n)
	for i, scc := range m.sccs {
		for _, s := range scc {
			compOf[s] = i
		}
	}
	x := make([]dvec, n)
	unknown := make([]bool, n)
	for i, scc := range m.sccs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if !m.isBottom(scc, compOf, i) {
			for _, s := range scc {
				unknown[s] = true
			}
			continue
		}
		pi, err := m.stationary(ctx, scc)
		if err != nil {
			return nil, err
		}
		v, t := new(big.Rat), new(big.Rat)
		for j, s := range scc {
			if x := w(s); x != nil {
				v.Add(v, t.Mul(pi[j], x))
			}
		}
		if v.Sign() > 0 {
			for _, s := range scc {
				x[s] = dvec{out: []int{0}, p: []*big.Rat{v}}
			}
		}
	}
	if err := solveBlocks(ctx, m.c, m.sccs, unknown, x); err != nil {
		return nil, err
	}
	return scalars(x), nil
}

// isBottom reports whether the component scc (index i) has no transition
// leaving it.
func (m *Checker) isBottom(scc []int, compOf []int, i int) bool {
	for _, s := range scc {
		to, _ := m.c.Row(s)
		for _, t := range to {
			if compOf[t] != i {
				return false
			}
		}
	}
	return true
}

// stationary returns the stationary distribution of the bottom component
// scc (in its order): with r its first state and Q the transitions among
// the others, the expected visits v to each other state between two visits
// to r solve v·(I − Q) = P(r, ·), and π is (1, v) normalised. I − Q is a
// non-singular M-matrix (from every other state the chain reaches r), so
// its transpose is solved by exact elimination without pivoting.
func (m *Checker) stationary(ctx context.Context, scc []int) ([]*big.Rat, error) {
	if len(scc) == 1 {
		return []*big.Rat{ratOne}, nil
	}
	r := scc[0]
	idx := make(map[int]int, len(scc)-1) // state → row of the others
	for j, s := range scc[1:] {
		idx[s] = j
	}
	k := len(scc) - 1
	// a = (I − Q)ᵀ: row j holds column j of I − Q.
	a := make([]sparse, k)
	for j := range a {
		a[j] = sparse{j: big.NewRat(1, 1)}
	}
	for _, s := range scc[1:] {
		to, ps := m.c.Row(s)
		for i, t := range to {
			if jt, ok := idx[t]; ok {
				addTo(a[jt], idx[s], ps[i], -1)
			}
		}
	}
	b := make([]sparse, k)
	for j := range b {
		b[j] = sparse{}
	}
	to, ps := m.c.Row(r)
	for i, t := range to {
		if jt, ok := idx[t]; ok {
			addTo(b[jt], 0, ps[i], 1)
		}
	}
	xs, err := solveMMatrix(ctx, a, b)
	if err != nil {
		return nil, err
	}
	total := big.NewRat(1, 1)
	v := make([]*big.Rat, k)
	for j := range v {
		v[j] = new(big.Rat)
		if x := xs[j][0]; x != nil {
			v[j] = x
		}
		total.Add(total, v[j])
	}
	pi := make([]*big.Rat, len(scc))
	pi[0] = new(big.Rat).Inv(total)
	for j := range v {
		pi[j+1] = new(big.Rat).Quo(v[j], total)
	}
	return pi, nil
}
