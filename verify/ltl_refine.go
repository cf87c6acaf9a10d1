package verify

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/dpcheck/dpcheck/chain"
)

// LTL formulas that are neither co-safe nor safe (G F φ, F G φ) on Markov
// chains: Courcoubetis and Yannakakis's construction ("The complexity of
// probabilistic verification"). An innermost temporal subformula ξ (X a
// or a U b, with state formulas as operands) is made a state formula by
// splitting every state s in two, s+ where ξ holds of the path from s and
// s− where it does not, weighted by p_s = Pr_s(ξ) and 1 − p_s. Whether ξ
// holds at s is decided by s, its successor t and whether ξ holds at t
// (a U b: b at s, or a at s and ξ at t; X a: a at t), so the chain
// conditioned on ξ's truth at every step is again a Markov chain:
//
//	P'(s±, t±') = P(s,t) · w(t±') / w(s±)  when ξ at s follows from (s, t, ±'), else 0
//
// with w(s+) = p_s and w(s−) = 1 − p_s. Its paths, read through s± ↦ s,
// have the original distribution, and ξ holds exactly where the path is
// in a + state. Repeating this for innermost subformulas (each at most
// doubles the states) leaves a co-safe or safe formula, which the
// automaton and product then check. The probability from s is the
// weighted sum over the states s stands for.

// refinement is a chain whose states stand for states of the original
// one, with the weights of each original state over them.
type refinement struct {
	m     *Checker
	name  string       // the prefix of its atoms' names, unique on the original checker
	atoms [][]bool     // the state formulas, at the current chain's states
	start [][]weighted // start[s]: the states the original s stands for, weighted
}

type weighted struct {
	s int
	w *big.Rat
}

// ltlGeneral is Pr_s(path) for a path formula neither co-safe nor safe.
func (m *Checker) ltlGeneral(ctx context.Context, path *Formula) ([]*big.Rat, error) {
	n := m.c.NumStates()
	m.refinements++
	r := &refinement{m: m, name: "ltl" + strconv.Itoa(m.refinements) + "#", start: make([][]weighted, n)}
	for s := range n {
		r.start[s] = []weighted{{s, ratOne}}
	}
	f, err := freeze(path, func(g *Formula) (*Formula, error) {
		sat, err := m.Sat(ctx, g)
		if err != nil {
			return nil, err
		}
		r.atoms = append(r.atoms, sat)
		return r.atom(len(r.atoms) - 1), nil
	})
	if err != nil {
		return nil, err
	}
	for !ltlSupported(f) {
		g := innermost(f)
		if g == nil {
			return nil, ltlError(path, errSplitBounded)
		}
		if f, err = r.split(ctx, f, g); err != nil {
			return nil, err
		}
	}
	v, err := r.m.ltlProb(ctx, f)
	if err != nil {
		return nil, err
	}
	out := make([]*big.Rat, n)
	for s := range out {
		x := new(big.Rat)
		for _, e := range r.start[s] {
			x.Add(x, new(big.Rat).Mul(e.w, v[e.s]))
		}
		out[s] = x
	}
	return out, nil
}

// atom is the state formula i of r, read at the current chain's states.
func (r *refinement) atom(i int) *Formula {
	return Atom(r.name+strconv.Itoa(i), func(s int) (bool, error) { return r.atoms[i][s], nil })
}

// errSplitBounded says why a formula is refused on a chain.
const errSplitBounded = "a bounded operator (F<=k, G<=k, U<=k) sits inside a formula that is neither co-safe nor safe (as G F φ and F G φ are); dpcheck splits the chain on X, U, F and G there, not on bounded operators"

// splittable reports whether splitting on innermost subformulas makes f
// co-safe or safe.
func splittable(f *Formula) bool {
	f, _ = freeze(f, func(*Formula) (*Formula, error) { return True(), nil })
	for !ltlSupported(f) {
		g := innermost(f)
		if g == nil {
			return false
		}
		f = replace(f, g, True())
	}
	return true
}

// freeze replaces the state formulas of f by what atom returns for them
// (atoms decided once on the original chain: a P[…] inside must keep its
// original meaning), and spells out what split needs: X^k as k X's,
// a U[lo,∞) b as lo steps of a before a U b.
func freeze(f *Formula, atom func(*Formula) (*Formula, error)) (*Formula, error) {
	seen := map[string]*Formula{} // equal state formulas share their atom
	return freezeIn(f, func(g *Formula) (*Formula, error) {
		const max = 1 << 16
		text := g.Text(max)
		if x, ok := seen[text]; ok && len(text) < max {
			return x, nil
		}
		x, err := atom(g)
		if err == nil && len(text) < max {
			seen[text] = x
		}
		return x, err
	})
}

func freezeIn(f *Formula, atom func(*Formula) (*Formula, error)) (*Formula, error) {
	if f.IsState() {
		return atom(f)
	}
	args := make([]*Formula, len(f.Args))
	for i, a := range f.Args {
		var err error
		if args[i], err = freezeIn(a, atom); err != nil {
			return nil, err
		}
	}
	switch {
	case f.Op == OpNext:
		g := args[0]
		for range f.K {
			g = Next(1, g)
		}
		return g, nil
	case f.Op == OpUntil && f.K < 0 && f.Lo > 0:
		g := Until(args[0], args[1], -1)
		for range f.Lo {
			g = And(args[0], Next(1, g))
		}
		return g, nil
	}
	return &Formula{Op: f.Op, K: f.K, Lo: f.Lo, Args: args}, nil
}

// innermost returns a subformula X a or a U b (unbounded) of f with state
// formulas as operands, or nil.
func innermost(f *Formula) *Formula {
	if f.IsState() {
		return nil
	}
	for _, a := range f.Args {
		if g := innermost(a); g != nil {
			return g
		}
	}
	if (f.Op == OpNext && f.K == 1 || f.Op == OpUntil && f.K < 0 && f.Lo == 0) && !slices.ContainsFunc(f.Args, func(a *Formula) bool { return !a.IsState() }) {
		return f
	}
	return nil
}

// split splits the chain on g, a subformula of f, and returns f with g
// replaced by the atom of the + states.
func (r *refinement) split(ctx context.Context, f, g *Formula) (*Formula, error) {
	m := r.m
	p, err := m.Prob(ctx, g)
	if err != nil {
		return nil, err
	}
	a, err := m.Sat(ctx, g.Args[0])
	if err != nil {
		return nil, err
	}
	var b []bool
	if g.Op == OpUntil {
		if b, err = m.Sat(ctx, g.Args[1]); err != nil {
			return nil, err
		}
	}
	// holds says whether g holds at s, the path going on to t with g's
	// truth there plus.
	holds := func(s, t int, plus bool) bool {
		if g.Op == OpNext {
			return a[t]
		}
		return b[s] || a[s] && plus
	}
	n := m.c.NumStates()
	weight := func(s int, plus bool) *big.Rat {
		if plus {
			return p[s]
		}
		return new(big.Rat).Sub(ratOne, p[s])
	}
	states := 0
	for s := range n {
		if p[s].Sign() > 0 {
			states++
		}
		if p[s].Cmp(ratOne) < 0 {
			states++
		}
	}
	if states > MaxProductStates {
		return nil, fmt.Errorf("%w: splitting the chain on %s would make more than %d states (the limit of a product)", ErrFormula, g.Text(MaxFormulaText), MaxProductStates)
	}
	id := make([][2]int, n) // id[s][0]: s+, id[s][1]: s−; -1 when its weight is 0
	var parent []int
	var plus []bool
	for s := range n {
		id[s] = [2]int{-1, -1}
		for k, pl := range []bool{true, false} {
			if weight(s, pl).Sign() > 0 {
				id[s][k] = len(parent)
				parent, plus = append(parent, s), append(plus, pl)
			}
		}
	}
	bld := chain.NewBuilder()
	bld.Grow(len(parent))
	edges := 0 // at most two per transition of s: an upper bound, counted before they are made
	for i := range parent {
		bld.AddStateOwned(strconv.Itoa(i), nil, nil)
	}
	for i, s := range parent {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		ws := weight(s, plus[i])
		to, pr := m.c.Row(s)
		if edges += 2 * len(to); edges > 2*MaxProductTransitions {
			return nil, errSplitTransitions(g)
		}
		var row []int
		var ps []*big.Rat
		for j, t := range to {
			for k, pl := range []bool{true, false} {
				if id[t][k] < 0 || holds(s, t, pl) != plus[i] {
					continue
				}
				x := new(big.Rat).Mul(pr[j], weight(t, pl))
				row, ps = append(row, id[t][k]), append(ps, x.Quo(x, ws))
			}
		}
		bld.AddRow(i, row, ps)
	}
	c, err := bld.BuildContext(ctx)
	if err != nil {
		return nil, err
	}
	next, err := NewChecker(c, nil)
	if err != nil {
		return nil, err
	}
	// Carry the atoms, the origins and the start weights over.
	for k, v := range r.atoms {
		nv := make([]bool, len(parent))
		for i, s := range parent {
			nv[i] = v[s]
		}
		r.atoms[k] = nv
	}
	r.atoms = append(r.atoms, plus)
	for s, ws := range r.start {
		var out []weighted
		for _, e := range ws {
			for k, pl := range []bool{true, false} {
				if i := id[e.s][k]; i >= 0 {
					out = append(out, weighted{i, new(big.Rat).Mul(e.w, weight(e.s, pl))})
				}
			}
		}
		r.start[s] = out
	}
	r.m = next
	return replace(f, g, r.atom(len(r.atoms)-1)), nil
}

// replace returns f with every subformula equal to g (the same
// operators over the same atoms: G F a twice is split on once) replaced
// by x.
func replace(f, g, x *Formula) *Formula {
	return replaceKey(f, shapeKey(g), x)
}

func replaceKey(f *Formula, key string, x *Formula) *Formula {
	if f.IsState() {
		return f
	}
	if shapeKey(f) == key {
		return x
	}
	args := make([]*Formula, len(f.Args))
	for i, a := range f.Args {
		args[i] = replaceKey(a, key, x)
	}
	return &Formula{Op: f.Op, K: f.K, Lo: f.Lo, Args: args}
}

// shapeKey identifies a frozen formula (its state formulas are atoms with
// names of their own, true, false, and !, &, | of those).
func shapeKey(f *Formula) string {
	var b strings.Builder
	var walk func(*Formula)
	walk = func(f *Formula) {
		fmt.Fprintf(&b, "(%d %q %d %d", f.Op, f.Name, f.K, f.Lo)
		for _, a := range f.Args {
			walk(a)
		}
		b.WriteByte(')')
	}
	walk(f)
	return b.String()
}
