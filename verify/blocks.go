package verify

import (
	"context"
	"math/big"
	"slices"

	"github.com/dpcheck/dpcheck/chain"
	"gonum.org/v1/gonum/graph/topo"
)

// components returns the strongly connected components of c (gonum's
// Tarjan), each sorted by state, in reverse topological order: a component
// comes after every component it can reach.
func components(c *chain.Chain) [][]int {
	sccs := topo.TarjanSCC(c.Graph())
	out := make([][]int, len(sccs))
	for i, scc := range sccs {
		ids := make([]int, len(scc))
		for j, n := range scc {
			ids[j] = int(n.ID())
		}
		slices.Sort(ids)
		out[i] = ids
	}
	return out
}

// solveBlocks is the exact solver shared by absorption probabilities and
// until-probabilities. For every state s with unknown[s] it sets
//
//	x[s] = Σ_t P(s,t)·x[t]
//
// where x[t] of every other state t is given. It works block by block: the
// unknown states of one strongly connected component at a time, in reverse
// topological order, so that every successor outside the block is already
// known. A block of one state is a single exact propagation (divided by
// 1 - P(s,s) when it has a self-loop); a larger block is a linear system
// (I - Q)·X = R solved by exact sparse elimination. There is no iteration to
// a tolerance. Every block must be able to leave itself with positive
// probability, so that I - Q is non-singular.
func solveBlocks(ctx context.Context, c *chain.Chain, sccs [][]int, unknown []bool, x []dvec) error {
	blockOf := make([]int, c.NumStates())
	for i := range blockOf {
		blockOf[i] = -1
	}
	report, _ := ctx.Value(progressKey{}).(func(Progress))
	for i, scc := range sccs {
		if err := ctx.Err(); err != nil {
			return err
		}
		if report != nil && i%256 == 0 {
			report(Progress{Stage: "components (distributions)", Done: i, Total: len(sccs)})
		}
		var block []int
		for _, s := range scc {
			if unknown[s] {
				block = append(block, s)
			}
		}
		switch len(block) {
		case 0:
			continue
		case 1:
			x[block[0]] = propagate(c, block[0], x)
			continue
		}
		for _, s := range block {
			blockOf[s] = i
		}
		if err := solveComponent(ctx, c, block, i, blockOf, x); err != nil {
			return err
		}
	}
	return nil
}

// solveComponent computes x for the states of a block by solving
// (I - Q)·X = R exactly.
func solveComponent(ctx context.Context, c *chain.Chain, states []int, blockIdx int, blockOf []int, x []dvec) error {
	local := make(map[int]int, len(states))
	for i, s := range states {
		local[s] = i
	}
	a := make([]sparse, len(states))
	b := make([]sparse, len(states))
	for i, s := range states {
		a[i] = sparse{i: ratOne}
		b[i] = sparse{}
		to, p := c.Row(s)
		for k, t := range to {
			if blockOf[t] == blockIdx {
				addTo(a[i], local[t], p[k], -1)
				continue
			}
			d := x[t]
			for j, o := range d.out {
				addTo(b[i], o, new(big.Rat).Mul(p[k], d.p[j]), +1)
			}
		}
	}
	sol, err := solveMMatrix(ctx, a, b)
	if err != nil {
		return err
	}
	for i, s := range states {
		var d dvec
		for o := range sol[i] {
			d.out = append(d.out, o)
		}
		slices.Sort(d.out)
		for _, o := range d.out {
			d.p = append(d.p, sol[i][o])
		}
		x[s] = d
	}
	return nil
}
