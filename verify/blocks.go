package verify

import (
	"context"
	"math/big"
	"slices"
	"sync/atomic"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
)

// components returns the strongly connected components of c (Tarjan's,
// without recursion: chain.Components), each sorted by state, in reverse
// topological order: a component comes after every component it can
// reach.
func components(c *chain.Chain) [][]int {
	sccs := c.Components()
	for _, scc := range sccs {
		slices.Sort(scc)
	}
	return sccs
}

// solveBlocks is the exact solver shared by absorption probabilities and
// until-probabilities. For every state s with unknown[s] it sets
//
//	x[s] = Σ_t P(s,t)·x[t]
//
// where x[t] of every other state t is given. It works block by block: the
// unknown states of one strongly connected component at a time, so that
// every successor outside the block is already known. A block of one state
// is a single exact propagation (divided by 1 - P(s,s) when it has a
// self-loop); a larger block is a linear system (I - Q)·X = R solved by
// exact sparse elimination. There is no iteration to a tolerance. Every
// block must be able to leave itself with positive probability, so that
// I - Q is non-singular. The memory the distributions take is bounded by
// the caller's watch of the process's memory (dpcheck.WatchMemory), which
// ends ctx: solveBlocks checks it between components and inside large ones.
//
// Components are solved level by level (a component's level is one more
// than the highest level of the components it leads to), and the
// components of one level, which do not depend on each other, in parallel
// when there are many: the inputs of a chain that shares its states, such
// as above threshold's (n+1)² inputs over shared query states, are one
// level.
func solveBlocks(ctx context.Context, c *chain.Chain, sccs [][]int, unknown []bool, x []dvec) error {
	return solveBlocksPlus(ctx, c, sccs, unknown, x, nil)
}

// solveBlocksPlus is solveBlocks with a constant term: with plus set, it
// solves x[s] = plus[s]·e₀ + Σ_t P(s,t)·x[t] (e₀ the vector of output 0),
// the equations of expected rewards; plus[s] nil or zero adds nothing.
func solveBlocksPlus(ctx context.Context, c *chain.Chain, sccs [][]int, unknown []bool, x []dvec, plus []*big.Rat) error {
	blockOf := make([]int, c.NumStates())
	for i := range blockOf {
		blockOf[i] = -1
	}
	blocks := make([][]int, len(sccs))
	for i, scc := range sccs {
		for _, s := range scc {
			if unknown[s] {
				blocks[i] = append(blocks[i], s)
			}
		}
		if len(blocks[i]) > 1 {
			for _, s := range blocks[i] {
				blockOf[s] = i
			}
		}
	}
	// level[i] of component i; sccs come in reverse topological order.
	compOf := make([]int, c.NumStates())
	for i, scc := range sccs {
		for _, s := range scc {
			compOf[s] = i
		}
	}
	level := make([]int, len(sccs))
	var byLevel [][]int
	for i, scc := range sccs {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		l := 0
		for _, s := range scc {
			to, _ := c.Row(s)
			for _, t := range to {
				if j := compOf[t]; j != i {
					l = max(l, level[j]+1)
				}
			}
		}
		level[i] = l
		if len(blocks[i]) == 0 {
			continue
		}
		for len(byLevel) <= l {
			byLevel = append(byLevel, nil)
		}
		byLevel[l] = append(byLevel[l], i)
	}
	report, _ := ctx.Value(progressKey{}).(func(Progress))
	var seq propScratch // for the levels solved in this goroutine
	var solved atomic.Int64
	const stage = "components (distributions)"
	solve := func(sc *propScratch, i int) error {
		var err error
		if block := blocks[i]; len(block) == 1 {
			x[block[0]] = propagate(c, block[0], x, sc, plusAt(plus, block[0]))
		} else {
			err = solveComponent(ctx, c, blocks[i], i, blockOf, x, plus)
		}
		if report != nil {
			// Each component, so that a wide level reports (and a caller
			// that stops from its reporter is heard) as it goes.
			report(Progress{Stage: stage, Done: int(solved.Add(1)), Total: len(sccs)})
		}
		return err
	}
	if report != nil {
		report(Progress{Stage: stage, Total: len(sccs)})
	}
	for _, comps := range byLevel {
		if err := ctx.Err(); err != nil {
			return err
		}
		if len(comps) >= minParallelLevel {
			if err := parallel(ctx, "", len(comps), func(sc *scratch, j int) error { return solve(&sc.prop, comps[j]) }); err != nil {
				return err
			}
			continue
		}
		for j, i := range comps {
			if j%256 == 255 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			if err := solve(&seq, i); err != nil {
				return err
			}
		}
	}
	return nil
}

// plusAt is the constant term of state s: nil for none.
func plusAt(plus []*big.Rat, s int) *big.Rat {
	if plus == nil || plus[s] == nil || plus[s].Sign() == 0 {
		return nil
	}
	return plus[s]
}

// minParallelLevel is the least number of components of one level that
// solveBlocks solves in parallel: fewer are not worth the goroutines.
const minParallelLevel = 16

// solveComponent computes x for the states of a block by solving
// (I - Q)·X = R exactly.
func solveComponent(ctx context.Context, c *chain.Chain, states []int, blockIdx int, blockOf []int, x []dvec, plus []*big.Rat) error {
	local := make(map[int]int, len(states))
	for i, s := range states {
		local[s] = i
	}
	a := make([]sparse, len(states))
	b := make([]sparse, len(states))
	sums := map[int]*ratSum{} // row i of b, by output
	for i, s := range states {
		a[i] = sparse{i: ratOne}
		clear(sums)
		if k := plusAt(plus, s); k != nil {
			sumAt(sums, 0).add(k)
		}
		to, p := c.Row(s)
		for k, t := range to {
			if blockOf[t] == blockIdx {
				addTo(a[i], local[t], p[k], -1)
				continue
			}
			d := x[t]
			for j, o := range d.out {
				sumAt(sums, o).add(exact.Mul(p[k], d.p[j]))
			}
		}
		b[i] = sparse{}
		for o, sum := range sums {
			if v := sum.rat(); v.Sign() != 0 {
				b[i][o] = v
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

// ratSum adds rationals over a common denominator and reduces once, at
// the end: the values of a component's successors, solved together,
// mostly share their denominators, so that most additions are one
// division and one product instead of a GCD each.
type ratSum struct {
	num, den big.Int // den 0: nothing added yet
	t, r     big.Int
}

func sumAt(sums map[int]*ratSum, o int) *ratSum {
	s := sums[o]
	if s == nil {
		s = new(ratSum)
		sums[o] = s
	}
	return s
}

// add adds x.
func (s *ratSum) add(x *big.Rat) {
	xd := x.Denom()
	if s.den.Sign() == 0 {
		s.num.Set(x.Num())
		s.den.Set(xd)
		return
	}
	if s.t.QuoRem(&s.den, xd, &s.r); s.r.Sign() == 0 { // xd divides den
		s.num.Add(&s.num, s.t.Mul(&s.t, x.Num()))
		return
	}
	g := s.r.GCD(nil, nil, &s.den, xd)
	s.t.Quo(xd, g)          // xd/g
	s.num.Mul(&s.num, &s.t) // num·xd/g
	s.den.Mul(&s.den, &s.t) // lcm(den, xd)
	s.t.Quo(&s.den, xd)     // lcm/xd
	s.num.Add(&s.num, s.t.Mul(&s.t, x.Num()))
}

// rat returns the sum as a new value in lowest terms (0 for none).
func (s *ratSum) rat() *big.Rat {
	if s.den.Sign() == 0 {
		return new(big.Rat)
	}
	return new(big.Rat).SetFrac(new(big.Int).Set(&s.num), new(big.Int).Set(&s.den))
}
