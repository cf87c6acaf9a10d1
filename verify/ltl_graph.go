package verify

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/dpcheck/dpcheck/chain"
)

// E[ψ] and A[ψ] (PRISM's CTL and LTL path quantifiers): whether some path
// or every path of the transition graph satisfies ψ, probabilities aside —
// a path of probability 0 counts (A[F φ] fails on a chain that may loop
// forever with probability 0, where P>=1 [F φ] holds). A[ψ] is ¬E[¬ψ].
//
// E[ψ] is decided as for probabilities, on the graph: an innermost
// unbounded subformula ξ = a U b or X a is made a state formula by
// splitting each state into one where ξ holds and one where it does not,
// the edges kept where they agree (ξ at s follows from s, its successor
// and ξ at the successor). Unlike a chain's split, a path of the graph may
// stay forever in states that promise a U b without b coming: each split
// on a U b adds the fairness condition "infinitely often not promising a U b
// with a ∧ ¬b". What remains is co-safe or safe, and its automaton's
// product with the split graph is searched for a path that meets the
// automaton's condition (reaching true; never reaching false) and then
// stays in a strongly connected part that meets every fairness condition
// — the emptiness check of a generalized Büchi automaton.

// graphSplit is a graph whose nodes stand for states of the original
// graph, with the fairness conditions and state formulas of its nodes.
type graphSplit struct {
	succ  [][]int
	atoms [][]bool
	fair  [][]bool // fair[j][u]: u meets fairness condition j
	start [][]int  // start[s]: the nodes standing for the original s
	name  string   // the prefix of its atoms' names
}

// ExistsPath returns, for every state of a graph of n states (succ(s) its
// successors, at least one each), whether some infinite path from it
// satisfies the path formula path; sat decides the state formulas in it.
// A path formula with a bounded operator inside an unbounded one that
// must be split (G F F<=k φ) is an ErrFormula.
func ExistsPath(ctx context.Context, n int, succ func(s int) []int, path *Formula, sat func(*Formula) ([]bool, error)) ([]bool, error) {
	g := &graphSplit{succ: make([][]int, n), start: make([][]int, n), name: "E#"}
	for s := range n {
		g.succ[s] = succ(s)
		g.start[s] = []int{s}
	}
	f, err := freeze(path, func(h *Formula) (*Formula, error) {
		v, err := sat(h)
		if err != nil {
			return nil, err
		}
		g.atoms = append(g.atoms, v)
		return g.atom(len(g.atoms) - 1), nil
	})
	if err != nil {
		return nil, err
	}
	for !ltlSupported(f) {
		h := innermost(f)
		if h == nil {
			return nil, ltlError(path, errSplitBounded)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if 2*len(g.succ) > MaxProductStates {
			return nil, ltlError(path, fmt.Sprintf("splitting the graph on %s would make more than %d states (the limit of a product)", h.Text(MaxFormulaText), MaxProductStates))
		}
		if f, err = g.split(f, h); err != nil {
			return nil, err
		}
	}
	return g.exists(ctx, f)
}

func (g *graphSplit) atom(i int) *Formula {
	return Atom(g.name+strconv.Itoa(i), func(u int) (bool, error) { return g.atoms[i][u], nil })
}

// eval decides a state formula built from g's atoms with !, &, |.
func (g *graphSplit) eval(f *Formula, u int) bool {
	switch f.Op {
	case OpTrue:
		return true
	case OpFalse:
		return false
	case OpNot:
		return !g.eval(f.Args[0], u)
	case OpAnd:
		return !slices.ContainsFunc(f.Args, func(a *Formula) bool { return !g.eval(a, u) })
	case OpOr:
		return slices.ContainsFunc(f.Args, func(a *Formula) bool { return g.eval(a, u) })
	}
	v, _ := f.eval(u) // an atom of g: never an error
	return v
}

// split splits every node u into 2u (h holds) and 2u+1 (it does not) and
// returns f with h replaced by the atom of the first.
func (g *graphSplit) split(f, h *Formula) (*Formula, error) {
	n := len(g.succ)
	holds := func(u, t int, plus bool) bool {
		if h.Op == OpNext {
			return g.eval(h.Args[0], t)
		}
		return g.eval(h.Args[1], u) || g.eval(h.Args[0], u) && plus
	}
	succ := make([][]int, 2*n)
	edges := 0
	for u := range n {
		for k, plus := range []bool{true, false} {
			for _, t := range g.succ[u] {
				for l, tplus := range []bool{true, false} {
					if holds(u, t, tplus) == plus {
						succ[2*u+k] = append(succ[2*u+k], 2*t+l)
					}
				}
			}
			if edges += len(succ[2*u+k]); edges > MaxProductTransitions {
				return nil, errSplitTransitions(h)
			}
		}
	}
	lift := func(v []bool) []bool {
		out := make([]bool, 2*n)
		for i := range out {
			out[i] = v[i/2]
		}
		return out
	}
	var fair []bool
	if h.Op == OpUntil { // not forever promising a U b with a ∧ ¬b
		fair = make([]bool, 2*n)
		for i := range fair {
			u := i / 2
			fair[i] = i%2 == 1 || g.eval(h.Args[1], u) || !g.eval(h.Args[0], u)
		}
	}
	for k := range g.atoms {
		g.atoms[k] = lift(g.atoms[k])
	}
	for k := range g.fair {
		g.fair[k] = lift(g.fair[k])
	}
	if fair != nil {
		g.fair = append(g.fair, fair)
	}
	plus := make([]bool, 2*n)
	for i := range plus {
		plus[i] = i%2 == 0
	}
	g.atoms = append(g.atoms, plus)
	for s, us := range g.start {
		out := make([]int, 0, 2*len(us))
		for _, u := range us {
			out = append(out, 2*u, 2*u+1)
		}
		g.start[s] = out
	}
	g.succ = succ
	return replace(f, h, g.atom(len(g.atoms)-1)), nil
}

// exists decides E[f] for f co-safe or safe, over g's fair paths.
func (g *graphSplit) exists(ctx context.Context, f *Formula) ([]bool, error) {
	n := len(g.succ)
	a, err := NewAutomaton(ctx, f, n, func(h *Formula) ([]bool, error) {
		out := make([]bool, n)
		for u := range out {
			out[u] = g.eval(h, u)
		}
		return out, nil
	})
	if err != nil {
		return nil, err
	}
	p, err := NewProduct(ctx, a, n, func(u int) []int { return g.succ[u] })
	if err != nil {
		return nil, err
	}
	np := len(p.Pairs)
	adj := make(chain.Adjacency, np)
	for i, uq := range p.Pairs {
		for _, t := range g.succ[uq[0]] {
			k, err := p.Next(i, t)
			if err != nil {
				return nil, err
			}
			adj[i] = append(adj[i], int(k))
		}
	}
	// The region the path must end in: past true (co-safe), short of
	// false (safe).
	in := make([]bool, np)
	for i, uq := range p.Pairs {
		if a.CoSafe {
			in[i] = a.Accepting(uq[1])
		} else {
			in[i] = !a.Rejecting(uq[1])
		}
	}
	sub := make(chain.Adjacency, np)
	for i := range sub {
		if in[i] {
			for _, k := range adj[i] {
				if in[k] {
					sub[i] = append(sub[i], k)
				}
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	live := make([]bool, np)
	for _, ids := range sub.Components() {
		if !in[ids[0]] || len(ids) == 1 && !slices.Contains(sub[ids[0]], ids[0]) {
			continue // outside the region, or a single node without a loop
		}
		fairSCC := true
		for _, fj := range g.fair {
			if !slices.ContainsFunc(ids, func(i int) bool { return fj[p.Pairs[i][0]] }) {
				fairSCC = false
				break
			}
		}
		if fairSCC {
			for _, i := range ids {
				live[i] = true
			}
		}
	}
	// Nodes of the region that reach a fair part within it; for a
	// co-safe formula, any node that reaches one of those.
	live = sub.ReachBack(live, in)
	if a.CoSafe {
		all := make([]bool, np)
		for i := range all {
			all[i] = true
		}
		live = adj.ReachBack(live, all)
	}
	out := make([]bool, len(g.start))
	for s, us := range g.start {
		out[s] = slices.ContainsFunc(us, func(u int) bool { return live[p.Start[u]] })
	}
	return out, nil
}
