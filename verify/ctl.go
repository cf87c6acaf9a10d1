package verify

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/dpcheck/dpcheck/exact"

	"github.com/dpcheck/dpcheck/chain"
	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/graph/traverse"
)

// ErrFormula is wrapped by errors about formulas dpcheck cannot model check
// exactly (see Unsupported, which front ends use to refuse them before).
var ErrFormula = errors.New("unsupported formula")

// Checker model checks dpCTL formulas on a chain with a neighbour relation,
// exactly. Every sub-formula is computed once for all states and memoised.
// A Checker is not safe for concurrent use.
type Checker struct {
	c     *chain.Chain
	pairs [][2]int
	nb    [][]int // neighbours of each state
	sccs  [][]int
	// lazy, when set, makes pairs and nb the first time a formula needs
	// them (see NewCheckerLazy); numPairs counts them before.
	lazy     func() ([][2]int, error)
	numPairs int

	// Formulas are identified structurally (id): equal formulas share
	// their memo entries, and the keys stay linear in the formula's size.
	ids    map[*Formula]int
	byKey  map[string]int
	sat    map[int][]bool
	leaves map[int][]*big.Rat
	memo   map[memoKey]*big.Rat
	forms  map[int]*Formula
	// refinements counts the LTL refinements made on this checker, whose
	// atoms it must never confuse with another's (ltl_refine.go).
	refinements int
}

type memoKey struct {
	s, f int
}

// NewChecker prepares to check formulas on c. The neighbour relation
// follows the same rules as Model.Neighbours, except that it may be empty
// (a model with one input): D{ε,δ}[ψ] then holds vacuously.
func NewChecker(c *chain.Chain, neighbours [][2]int) (*Checker, error) {
	pairs, err := validatePairs(c, neighbours, true) // no pair: D holds vacuously
	if err != nil {
		return nil, err
	}
	m := &Checker{
		c: c, pairs: pairs, nb: make([][]int, c.NumStates()),
		ids: map[*Formula]int{}, byKey: map[string]int{},
		sat: map[int][]bool{}, leaves: map[int][]*big.Rat{},
		memo: map[memoKey]*big.Rat{}, forms: map[int]*Formula{},
	}
	m.setPairs(pairs)
	return m, nil
}

// NewCheckerLazy is NewChecker for a neighbour relation of numPairs pairs
// that pairs makes only when a formula first needs them (a D operator, or
// a tight ε or δ of one): a relation too large to make is then the error of
// those formulas alone, and the others are checked without it.
func NewCheckerLazy(c *chain.Chain, numPairs int, pairs func() ([][2]int, error)) *Checker {
	m, _ := NewChecker(c, nil) // an empty relation is always valid
	m.lazy, m.numPairs = pairs, numPairs
	return m
}

func (m *Checker) setPairs(pairs [][2]int) {
	m.pairs, m.numPairs = pairs, len(pairs)
	for _, p := range pairs {
		m.nb[p[0]] = append(m.nb[p[0]], p[1])
		m.nb[p[1]] = append(m.nb[p[1]], p[0])
	}
}

// needPairs makes the neighbour relation of a lazy checker.
func (m *Checker) needPairs() error {
	if m.lazy == nil {
		return nil
	}
	ns, err := m.lazy()
	if err != nil {
		return err
	}
	pairs, err := validatePairs(m.c, ns, true)
	if err != nil {
		return err
	}
	m.lazy = nil
	m.setPairs(pairs)
	return nil
}

// NumPairs returns the number of unordered neighbouring pairs.
func (m *Checker) NumPairs() int { return m.numPairs }

// Sat returns, for every state, whether the state formula f holds there.
// The result is read-only.
func (m *Checker) Sat(ctx context.Context, f *Formula) ([]bool, error) {
	key := m.id(f)
	if v, ok := m.sat[key]; ok {
		return v, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	n := m.c.NumStates()
	out := make([]bool, n)
	switch f.Op {
	case OpTrue:
		for s := range out {
			out[s] = true
		}
	case OpFalse:
	case OpLabel:
		for s := range out {
			out[s] = m.c.HasLabel(s, f.Name)
		}
	case OpAtom:
		for s := range out {
			v, err := f.eval(s)
			if err != nil {
				return nil, err
			}
			out[s] = v
		}
	case OpNot:
		a, err := m.Sat(ctx, f.Args[0])
		if err != nil {
			return nil, err
		}
		for s := range out {
			out[s] = !a[s]
		}
	case OpAnd, OpOr:
		for s := range out {
			out[s] = f.Op == OpAnd
		}
		for _, g := range f.Args {
			a, err := m.Sat(ctx, g)
			if err != nil {
				return nil, err
			}
			for s := range out {
				if f.Op == OpAnd {
					out[s] = out[s] && a[s]
				} else {
					out[s] = out[s] || a[s]
				}
			}
		}
	case OpProb:
		pr, err := m.Prob(ctx, f.Args[0])
		if err != nil {
			return nil, err
		}
		for s := range out {
			out[s] = exact.CmpHolds(f.Cmp, pr[s].Cmp(f.Bound))
		}
	case OpDP:
		pr, err := m.pairProbs(ctx, f.Args[0], nil)
		if err != nil {
			return nil, err
		}
		for s := range out {
			out[s] = true
			for _, t := range m.nb[s] {
				v, err := dpPairHolds(pr[s], pr[t], f.Eps, f.Delta)
				if err != nil {
					return nil, err
				}
				if !v {
					out[s] = false
					break
				}
			}
		}
	case OpExists, OpForall:
		path := f.Args[0]
		if f.Op == OpForall {
			path = Not(path)
		}
		succ := func(s int) []int { to, _ := m.c.Row(s); return to }
		e, err := ExistsPath(ctx, n, succ, path, func(g *Formula) ([]bool, error) { return m.Sat(ctx, g) })
		if err != nil {
			return nil, err
		}
		for s := range out {
			out[s] = e[s] != (f.Op == OpForall)
		}
	default:
		return nil, fmt.Errorf("%w: %s is a path formula; use it inside P…[…] or D{…}[…]", ErrFormula, f)
	}
	m.sat[key] = out
	return out, nil
}

// dpPairHolds decides a ≤ c·b + δ and b ≤ c·a + δ exactly.
func dpPairHolds(a, b *big.Rat, e exact.Eps, delta *big.Rat) (bool, error) {
	for _, xy := range [2][2]*big.Rat{{a, b}, {b, a}} {
		s, err := exact.Affine(new(big.Rat).Sub(xy[0], delta), new(big.Rat).Neg(xy[1]), e).Sign()
		if err != nil {
			return false, err
		}
		if s > 0 {
			return false, nil
		}
	}
	return true, nil
}

// Prob returns Pr_s(path) for every state s, exactly. The result is
// read-only.
func (m *Checker) Prob(ctx context.Context, path *Formula) ([]*big.Rat, error) {
	key := m.id(path)
	if v, ok := m.leaves[key]; ok {
		return v, nil
	}
	var out []*big.Rat
	var err error
	switch {
	case path.IsState():
		var sat []bool
		if sat, err = m.Sat(ctx, path); err == nil {
			out = indicator(sat)
		}
	case path.Op == OpSteady:
		out, err = m.steadyVec(ctx, path.Args[0])
	case path.Op == OpNext && path.Args[0].IsState():
		out, err = m.nextVec(ctx, path.K, path.Args[0])
	case path.Op == OpUntil && path.Lo > 0 && path.Args[0].IsState() && path.Args[1].IsState():
		out, err = m.untilFromVec(ctx, path)
	case path.Op == OpUntil && path.Args[0].IsState() && path.Args[1].IsState():
		if path.K < 0 {
			out, err = m.untilVec(ctx, path.Args[0], path.Args[1])
		} else {
			out, err = m.boundedUntilVec(ctx, path.Args[0], path.Args[1], path.K)
		}
	case path.Op == OpNot:
		var inner []*big.Rat
		if inner, err = m.Prob(ctx, path.Args[0]); err == nil {
			out = make([]*big.Rat, len(inner))
			for s, x := range inner {
				out[s] = new(big.Rat).Sub(ratOne, x)
			}
		}
	case func() bool { bad, _ := unsupported(path); return bad != nil }():
		if ltlSupported(path) {
			out, err = m.ltlProb(ctx, path)
		} else {
			out, err = m.ltlGeneral(ctx, path)
		}
	default:
		out = make([]*big.Rat, m.c.NumStates())
		for s := range out {
			if out[s], err = m.pr(ctx, s, path); err != nil {
				break
			}
		}
	}
	if err != nil {
		return nil, err
	}
	m.leaves[key] = out
	return out, nil
}

func indicator(sat []bool) []*big.Rat {
	zero := new(big.Rat)
	out := make([]*big.Rat, len(sat))
	for s, v := range sat {
		if v {
			out[s] = ratOne
		} else {
			out[s] = zero
		}
	}
	return out
}

// step computes v'(s) = Σ_t P(s,t)·v(t) for every state.
func (m *Checker) step(v []*big.Rat) []*big.Rat {
	out := make([]*big.Rat, len(v))
	var acc chain.Accumulator
	for s := range out {
		to, p := m.c.Row(s)
		acc.Reset()
		for i, u := range to {
			addTimes(&acc, p[i], v[u])
		}
		out[s] = acc.Rat(nil)
	}
	return out
}

// addTimes adds p·x to acc, sparing the product when x is 0 or 1.
func addTimes(acc *chain.Accumulator, p, x *big.Rat) {
	switch {
	case x.Sign() == 0:
	case isOne(x):
		acc.Add(p)
	default:
		acc.Add(exact.Mul(p, x))
	}
}

// nextVec is Pr(X^k φ) = P^k·1_φ: k exact matrix–vector products.
func (m *Checker) nextVec(ctx context.Context, k int, f *Formula) ([]*big.Rat, error) {
	sat, err := m.Sat(ctx, f)
	if err != nil {
		return nil, err
	}
	v := indicator(sat)
	for range k {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		v = m.step(v)
	}
	return v, nil
}

// operands returns where the two state formulas of an until hold.
func (m *Checker) operands(ctx context.Context, l, r *Formula) (a, b []bool, err error) {
	if a, err = m.Sat(ctx, l); err != nil {
		return nil, nil, err
	}
	b, err = m.Sat(ctx, r)
	return a, b, err
}

// boundedUntilVec is Pr(l U<=k r): k exact steps.
func (m *Checker) boundedUntilVec(ctx context.Context, l, r *Formula, k int) ([]*big.Rat, error) {
	a, b, err := m.operands(ctx, l, r)
	if err != nil {
		return nil, err
	}
	v := indicator(b)
	zero := new(big.Rat)
	for range k {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		next := m.step(v)
		for s := range next {
			switch {
			case b[s]:
				next[s] = ratOne
			case !a[s]:
				next[s] = zero
			}
		}
		v = next
	}
	return v, nil
}

// untilFromVec is Pr(l U[lo,k] r) for lo > 0: Pr(l U[0,k−lo] r) (no upper
// bound when k < 0), then lo steps back through states where l holds.
func (m *Checker) untilFromVec(ctx context.Context, path *Formula) ([]*big.Rat, error) {
	k := path.K
	if k >= 0 {
		k -= path.Lo
	}
	v, err := m.Prob(ctx, UntilFrom(path.Args[0], path.Args[1], 0, k))
	if err != nil {
		return nil, err
	}
	a, err := m.Sat(ctx, path.Args[0])
	if err != nil {
		return nil, err
	}
	zero := new(big.Rat)
	for range path.Lo {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		next := m.step(v)
		for s := range next {
			if !a[s] {
				next[s] = zero
			}
		}
		v = next
	}
	return v, nil
}

// reversed is the chain's graph with every edge turned round, for backward
// reachability with gonum's traversals.
type reversed struct{ g graph.Directed }

func (r reversed) Node(id int64) graph.Node       { return r.g.Node(id) }
func (r reversed) Nodes() graph.Nodes             { return r.g.Nodes() }
func (r reversed) From(id int64) graph.Nodes      { return r.g.To(id) }
func (r reversed) HasEdgeBetween(x, y int64) bool { return r.g.HasEdgeBetween(x, y) }
func (r reversed) Edge(u, v int64) graph.Edge {
	return simple.Edge{F: simple.Node(u), T: simple.Node(v)}
}
func (r reversed) HasEdgeFromTo(u, v int64) bool { return r.g.HasEdgeFromTo(v, u) }
func (r reversed) To(id int64) graph.Nodes       { return r.g.From(id) }
func (m *Checker) backward(from, through []bool) []bool {
	bfs := traverse.BreadthFirst{Traverse: func(e graph.Edge) bool { return through[e.To().ID()] }}
	g := reversed{m.c.Graph()}
	for s, ok := range from {
		if ok && !bfs.Visited(simple.Node(s)) {
			bfs.Walk(g, simple.Node(s), nil)
		}
	}
	out := make([]bool, len(from))
	for s := range out {
		out[s] = bfs.Visited(simple.Node(s))
	}
	return out
}

// untilVec is Pr(l U r) for state formulas l, r: the states with
// probability 0 and 1 by graph precomputation (backward breadth-first
// search), then the exact linear system on the rest, solved SCC by SCC.
func (m *Checker) untilVec(ctx context.Context, l, r *Formula) ([]*big.Rat, error) {
	a, b, err := m.operands(ctx, l, r)
	if err != nil {
		return nil, err
	}
	n := m.c.NumStates()
	aNotB := make([]bool, n)
	for s := range aNotB {
		aNotB[s] = a[s] && !b[s]
	}
	reachB := m.backward(b, aNotB) // Pr > 0
	no := make([]bool, n)
	for s := range no {
		no[s] = !reachB[s]
	}
	reachNo := m.backward(no, aNotB) // Pr < 1
	x := make([]dvec, n)
	unknown := make([]bool, n)
	for s := range n {
		switch {
		case no[s]:
		case !reachNo[s]:
			x[s] = dvec{out: []int{0}, p: []*big.Rat{ratOne}}
		default:
			unknown[s] = true
		}
	}
	if m.sccs == nil {
		m.sccs = components(m.c)
	}
	if err := solveBlocks(ctx, m.c, m.sccs, unknown, x); err != nil {
		return nil, err
	}
	return scalars(x), nil
}

// scalars reads the one value of each state's dvec (0 when it has none).
func scalars(x []dvec) []*big.Rat {
	zero := new(big.Rat)
	out := make([]*big.Rat, len(x))
	for s := range out {
		out[s] = zero
		if len(x[s].p) > 0 {
			out[s] = x[s].p[0]
		}
	}
	return out
}

// pr computes Pr_s(f) for a general path formula by progression: the
// state facts of f are decided at s, what remains is either a constant, a
// single unbounded operator (whose probabilities come from untilVec), or a
// combination of obligations for the next state, whose probability is
// Σ_t P(s,t)·Pr_t(rest). Results are memoised per state and residual.
func (m *Checker) pr(ctx context.Context, s int, f *Formula) (*big.Rat, error) {
	mk := memoKey{s, m.id(f)}
	if v, ok := m.memo[mk]; ok {
		return v, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r, err := m.now(ctx, s, f)
	if err != nil {
		return nil, err
	}
	var v *big.Rat
	switch {
	case r.Op == OpTrue:
		v = ratOne
	case r.Op == OpFalse:
		v = new(big.Rat)
	case isLeaf(r) || r.Op == OpNot && isLeaf(r.Args[0]):
		vec, err := m.Prob(ctx, r)
		if err != nil {
			return nil, err
		}
		v = vec[s]
	default:
		next, err := m.shift(r)
		if err != nil {
			return nil, err
		}
		next = m.intern(next)
		to, p := m.c.Row(s)
		var acc chain.Accumulator
		for i, t := range to {
			x, err := m.pr(ctx, t, next)
			if err != nil {
				return nil, err
			}
			addTimes(&acc, p[i], x)
		}
		v = acc.Rat(nil)
	}
	m.memo[mk] = v
	return v, nil
}

func (m *Checker) intern(f *Formula) *Formula {
	k := m.id(f)
	if g, ok := m.forms[k]; ok {
		return g
	}
	m.forms[k] = f
	return f
}

// id returns the structural identity of f: equal formulas (same operator,
// parameters and operands) get equal ids. Each key names the operands by
// their ids, so the keys of a formula take space linear in its size.
func (m *Checker) id(f *Formula) int {
	if id, ok := m.ids[f]; ok {
		return id
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d|%q|%d|%d|%s", f.Op, f.Name, f.K, f.Lo, f.Cmp)
	if f.Bound != nil {
		b.WriteString("|" + f.Bound.RatString())
	}
	if f.Op == OpDP {
		b.WriteString("|" + f.Eps.String() + "|" + f.Delta.RatString())
	}
	for _, a := range f.Args {
		fmt.Fprintf(&b, "|%d", m.id(a))
	}
	k := b.String()
	id, ok := m.byKey[k]
	if !ok {
		id = len(m.byKey)
		m.byKey[k] = id
	}
	m.ids[f] = id
	return id
}

func isLeaf(f *Formula) bool { return f.Op == OpUntil && f.K < 0 && f.Lo == 0 }

// now decides the state facts of f at s (position 0 of the path).
func (m *Checker) now(ctx context.Context, s int, f *Formula) (*Formula, error) {
	switch {
	case f.IsState():
		sat, err := m.Sat(ctx, f)
		if err != nil {
			return nil, err
		}
		if sat[s] {
			return True(), nil
		}
		return False(), nil
	case f.Op == OpNext:
		return f, nil
	case f.Op == OpUntil && f.Lo > 0:
		// l U[lo,k] r = l & X (l U[lo−1,k−1] r).
		lNow, err := m.now(ctx, s, f.Args[0])
		if err != nil {
			return nil, err
		}
		k := f.K
		if k > 0 {
			k--
		}
		return simplify(And(lNow, Next(1, UntilFrom(f.Args[0], f.Args[1], f.Lo-1, k)))), nil
	case f.Op == OpUntil && f.K < 0:
		if !f.Args[0].IsState() || !f.Args[1].IsState() {
			return nil, fmt.Errorf("%w: the operands of an unbounded U, F or G must be state formulas (%s); use a bounded operator such as F<=k", ErrFormula, f)
		}
		return f, nil
	case f.Op == OpUntil:
		// l U<=k r = r | (l & X (l U<=k-1 r)), and r alone when k = 0.
		rNow, err := m.now(ctx, s, f.Args[1])
		if err != nil {
			return nil, err
		}
		if f.K == 0 {
			return rNow, nil
		}
		lNow, err := m.now(ctx, s, f.Args[0])
		if err != nil {
			return nil, err
		}
		return simplify(Or(rNow, simplify(And(lNow, Next(1, Until(f.Args[0], f.Args[1], f.K-1)))))), nil
	case f.Op == OpNot:
		g, err := m.now(ctx, s, f.Args[0])
		if err != nil {
			return nil, err
		}
		return simplify(Not(g)), nil
	case f.Op == OpAnd || f.Op == OpOr:
		args := make([]*Formula, len(f.Args))
		for i, a := range f.Args {
			g, err := m.now(ctx, s, a)
			if err != nil {
				return nil, err
			}
			args[i] = g
		}
		return simplify(&Formula{Op: f.Op, Args: args}), nil
	}
	return nil, fmt.Errorf("%w: %s", ErrFormula, f)
}

// simplify folds constants one level deep.
func simplify(f *Formula) *Formula {
	switch f.Op {
	case OpNot:
		switch f.Args[0].Op {
		case OpTrue:
			return False()
		case OpFalse:
			return True()
		case OpNot:
			return f.Args[0].Args[0]
		}
	case OpAnd, OpOr:
		unit, zero := OpTrue, OpFalse // And
		if f.Op == OpOr {
			unit, zero = OpFalse, OpTrue
		}
		var args []*Formula
		for _, a := range f.Args {
			switch a.Op {
			case zero:
				return &Formula{Op: zero}
			case unit:
				continue
			}
			args = append(args, a)
		}
		switch len(args) {
		case 0:
			return &Formula{Op: unit}
		case 1:
			return args[0]
		}
		return &Formula{Op: f.Op, Args: args}
	}
	return f
}

// shift turns a combination of X obligations into the formula the next
// state must satisfy: X distributes over !, & and |.
func (m *Checker) shift(f *Formula) (*Formula, error) {
	switch f.Op {
	case OpNext:
		if f.K == 1 {
			return f.Args[0], nil
		}
		return Next(f.K-1, f.Args[0]), nil
	case OpTrue, OpFalse:
		return f, nil // X true = true
	case OpNot, OpAnd, OpOr:
		args := make([]*Formula, len(f.Args))
		for i, a := range f.Args {
			g, err := m.shift(a)
			if err != nil {
				return nil, err
			}
			args[i] = g
		}
		return &Formula{Op: f.Op, Args: args}, nil
	}
	return nil, fmt.Errorf("%w: %s combines an unbounded U, F or G with other temporal operators; dpcheck computes such formulas only with bounded operators (F<=k, G<=k, U<=k)", ErrFormula, f)
}
