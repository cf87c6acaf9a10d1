package verify

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
)

// LTL path formulas — temporal operators nested in one another, such as
// F (a & F b) or G (a => X b), in P[…] and in R[…] — through a
// deterministic automaton built by formula progression (Bacchus and
// Kabanza's progression, as in "Planning for temporally extended goals";
// Kupferman and Vardi's "Model checking of safety properties" for why it
// is exact on the two fragments below) and a product with the chain or
// MDP. docs/semantics.md §2.14.
//
// The formula is put in negation normal form (negations on state
// formulas only; ¬(a U b) = ¬a R ¬b). A state of the automaton is what
// the path must still satisfy from the next state on: a disjunction of
// conjunctions of temporal formulas and pending state formulas, kept in a
// canonical form (clauses sorted, duplicates and absorbed clauses gone).
// Reading a state evaluates the pending state formulas there and unfolds
// every operator one step (a U b = b ∨ (a ∧ X(a U b)), and their bounded
// forms). The automaton is deterministic and finite, and:
//
//   - for a co-safe formula (no unbounded R or G in negation normal
//     form) every path that satisfies it reaches the state true after
//     finitely many steps, and only such paths do — the probability of
//     the formula is that of reaching true in the product, and its
//     reward (R[ψ], PRISM's co-safe LTL rewards) the reward earned until
//     then;
//   - for a safe formula (no unbounded U or F) every path that violates
//     it reaches the state false, and only such paths do — the
//     probability is one minus that of reaching false.
//
// Formulas in neither fragment (G F a, F G a) are refused by name.

// lkind is the kind of a node of a formula in negation normal form.
type lkind uint8

const (
	lAtom    lkind = iota // a state formula, evaluated at the state read
	lAnd                  // a ∧ b ∧ …
	lOr                   // a ∨ b ∨ …
	lNext                 // X a
	lUntil                // a U[lo,k] b (k < 0: no upper bound)
	lRelease              // a R[lo,k] b = ¬(¬a U[lo,k] ¬b)
)

type lnode struct {
	kind  lkind
	atom  int  // lAtom: the index of the state formula
	neg   bool // lAtom: negated
	args  []int
	lo, k int
}

// dnf is a disjunction of conjunctions of node ids (each clause sorted):
// true is one empty clause, false none.
type dnf [][]int

func (d dnf) isTrue() bool  { return len(d) == 1 && len(d[0]) == 0 }
func (d dnf) isFalse() bool { return len(d) == 0 }

// MaxAutomatonStates bounds the states of the automaton of an LTL formula.
const MaxAutomatonStates = 100_000

// maxClauses bounds the clauses of one state of the automaton.
const maxClauses = 10_000

// MaxAutomatonWork bounds the work of building an automaton: the clause
// comparisons and products its states take (a few seconds).
const MaxAutomatonWork = 200_000_000

// Automaton is the deterministic automaton of an LTL path formula over
// the states of a chain or MDP (its letters).
type Automaton struct {
	nodes   []lnode
	nodeID  map[string]int
	atomF   []*Formula
	atomIdx map[*Formula]int
	atoms   [][]bool // atoms[i][s]: the state formula i holds in s
	letter  []int32  // letter[s]: the class of states with s's atom values
	rep     []int    // rep[l]: a state of class l
	states  []dnf
	stateID map[string]int32
	delta   map[[2]int32]int32
	prog    map[[2]int]dnf
	// CoSafe and Safe say which fragment the formula is in (both for a
	// formula with bounded operators only).
	CoSafe, Safe bool
	text         string
	// tooBig is set when a conjunction or disjunction would have more
	// than maxClauses clauses, or the work exceeds MaxAutomatonWork: the
	// automaton is then refused.
	tooBig bool
	work   int64 // clause comparisons and products made so far
}

// LTLError says why an LTL formula is not checked.
func ltlError(f *Formula, why string) error {
	return fmt.Errorf("%w: %s: %s", ErrFormula, f.Text(MaxFormulaText), why)
}

// NewAutomaton returns the automaton of the path formula f over n states,
// sat giving the states where each state formula of f holds. It reads
// only the labels and state formulas of the states, never their rows.
func NewAutomaton(ctx context.Context, f *Formula, n int, sat func(*Formula) ([]bool, error)) (*Automaton, error) {
	a := &Automaton{nodeID: map[string]int{}, atomIdx: map[*Formula]int{}, stateID: map[string]int32{},
		delta: map[[2]int32]int32{}, prog: map[[2]int]dnf{}, text: f.Text(MaxFormulaText)}
	root, err := a.convert(ctx, f, false, sat)
	if err != nil {
		return nil, err
	}
	hasU, hasR := false, false
	for _, x := range a.nodes {
		hasU = hasU || x.kind == lUntil && x.k < 0
		hasR = hasR || x.kind == lRelease && x.k < 0
	}
	a.CoSafe, a.Safe = !hasR, !hasU
	if !a.CoSafe && !a.Safe {
		return nil, ltlError(f, "it needs both an unbounded U or F and an unbounded G or R in negation normal form (as G F φ and F G φ do); dpcheck checks LTL formulas that are co-safe (satisfied by a finite prefix: U, F, X, bounded G) or safe (violated by a finite prefix: G, R, W, X, bounded F)")
	}
	// The letters: the classes of states that agree on every state formula.
	a.letter = make([]int32, n)
	classes := map[string]int32{}
	key := make([]byte, len(a.atoms))
	for s := range n {
		for i, v := range a.atoms {
			key[i] = '0'
			if v[s] {
				key[i] = '1'
			}
		}
		l, ok := classes[string(key)]
		if !ok {
			l = int32(len(a.rep))
			classes[string(key)] = l
			a.rep = append(a.rep, s)
		}
		a.letter[s] = l
	}
	if _, err := a.intern(dnf{{root}}); err != nil { // state 0: the whole formula, from the first state
		return nil, err
	}
	return a, nil
}

// node interns a node.
func (a *Automaton) node(x lnode) int {
	var b strings.Builder
	fmt.Fprintf(&b, "%d/%d/%t/%d/%d", x.kind, x.atom, x.neg, x.lo, x.k)
	for _, y := range x.args {
		b.WriteString("," + strconv.Itoa(y))
	}
	if id, ok := a.nodeID[b.String()]; ok {
		return id
	}
	a.nodes = append(a.nodes, x)
	a.nodeID[b.String()] = len(a.nodes) - 1
	return len(a.nodes) - 1
}

// convert puts f (negated when neg) in negation normal form.
func (a *Automaton) convert(ctx context.Context, f *Formula, neg bool, sat func(*Formula) ([]bool, error)) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if f.IsState() {
		i, ok := a.atomIdx[f]
		if !ok {
			v, err := sat(f)
			if err != nil {
				return 0, err
			}
			i = len(a.atoms)
			a.atoms, a.atomF = append(a.atoms, v), append(a.atomF, f)
			a.atomIdx[f] = i
		}
		return a.node(lnode{kind: lAtom, atom: i, neg: neg}), nil
	}
	sub := func(g *Formula, neg bool) (int, error) { return a.convert(ctx, g, neg, sat) }
	switch f.Op {
	case OpNot:
		return sub(f.Args[0], !neg)
	case OpAnd, OpOr:
		kind := lAnd
		if (f.Op == OpOr) != neg {
			kind = lOr
		}
		x := lnode{kind: kind}
		for _, g := range f.Args {
			id, err := sub(g, neg)
			if err != nil {
				return 0, err
			}
			x.args = append(x.args, id)
		}
		return a.node(x), nil
	case OpNext:
		id, err := sub(f.Args[0], neg)
		if err != nil {
			return 0, err
		}
		for range f.K {
			id = a.node(lnode{kind: lNext, args: []int{id}})
		}
		return id, nil
	case OpUntil:
		l, err := sub(f.Args[0], neg)
		if err != nil {
			return 0, err
		}
		r, err := sub(f.Args[1], neg)
		if err != nil {
			return 0, err
		}
		kind := lUntil
		if neg {
			kind = lRelease
		}
		return a.node(lnode{kind: kind, args: []int{l, r}, lo: f.Lo, k: f.K}), nil
	}
	return 0, ltlError(f, "S[…] and D{…}[…] stand for whole properties, not inside a path formula")
}

// intern returns the id of the state d, adding it if new.
func (a *Automaton) intern(d dnf) (int32, error) {
	var b strings.Builder
	for _, c := range d {
		for _, x := range c {
			b.WriteString(strconv.Itoa(x) + ",")
		}
		b.WriteByte(';')
	}
	if id, ok := a.stateID[b.String()]; ok {
		return id, nil
	}
	if len(a.states) >= MaxAutomatonStates {
		return 0, fmt.Errorf("%w: the automaton of %s would have more than %d states (the limit of an LTL formula's automaton)", ErrFormula, a.text, MaxAutomatonStates)
	}
	a.states = append(a.states, d)
	a.stateID[b.String()] = int32(len(a.states) - 1)
	return int32(len(a.states) - 1), nil
}

// errTooBig says which limit of the automaton was reached.
func (a *Automaton) errTooBig() error {
	if a.work > MaxAutomatonWork {
		return fmt.Errorf("%w: building the automaton of %s would take more than %s steps of clause work (the limit of an LTL formula's automaton); simplify the formula", ErrFormula, a.text, exact.Thousands(MaxAutomatonWork))
	}
	return fmt.Errorf("%w: a state of the automaton of %s would have more than %d clauses (the limit of an LTL formula's automaton)", ErrFormula, a.text, maxClauses)
}

// Accepting reports whether q is the state true: every path continuing
// from it satisfies the formula.
func (a *Automaton) Accepting(q int32) bool { return a.states[q].isTrue() }

// Rejecting reports whether q is the state false: no path does.
func (a *Automaton) Rejecting(q int32) bool { return a.states[q].isFalse() }

// NumStates returns the number of states built so far.
func (a *Automaton) NumStates() int { return len(a.states) }

// Start returns the state after reading the first state s of a path.
func (a *Automaton) Start(s int) (int32, error) { return a.Step(0, s) }

// Step returns the state after reading the state s in state q.
func (a *Automaton) Step(q int32, s int) (int32, error) {
	l := a.letter[s]
	if next, ok := a.delta[[2]int32{q, l}]; ok {
		return next, nil
	}
	d := dnf{}
	for _, c := range a.states[q] {
		cd := dnf{{}}
		for _, x := range c {
			p, err := a.progress(x, int(l))
			if err != nil {
				return 0, err
			}
			if cd = a.and(cd, p); cd.isFalse() {
				break
			}
		}
		d = a.or(d, cd)
		if len(d) > maxClauses || a.tooBig {
			return 0, a.errTooBig()
		}
	}
	next, err := a.intern(d)
	if err != nil {
		return 0, err
	}
	a.delta[[2]int32{q, l}] = next
	return next, nil
}

// progress returns what node x requires of the states after one of class
// l, having read it.
func (a *Automaton) progress(x, l int) (dnf, error) {
	if d, ok := a.prog[[2]int{x, l}]; ok {
		return d, nil
	}
	n := a.nodes[x]
	var d dnf
	later := func(lo, k int) int { // the node one step on
		if k >= 0 {
			k--
		}
		return a.node(lnode{kind: n.kind, args: n.args, lo: max(lo-1, 0), k: k})
	}
	sub := func(i int) (dnf, error) { return a.progress(n.args[i], l) }
	switch n.kind {
	case lAtom:
		d = dnf{}
		if a.atoms[n.atom][a.rep[l]] != n.neg {
			d = dnf{{}}
		}
	case lAnd, lOr:
		d = dnf{}
		if n.kind == lAnd {
			d = dnf{{}}
		}
		for i := range n.args {
			p, err := sub(i)
			if err != nil {
				return nil, err
			}
			if n.kind == lAnd {
				d = a.and(d, p)
			} else {
				d = a.or(d, p)
			}
		}
	case lNext:
		d = a.pending(n.args[0])
	case lUntil, lRelease:
		pa, err := sub(0)
		if err != nil {
			return nil, err
		}
		pb, err := sub(1)
		if err != nil {
			return nil, err
		}
		rest := dnf{{later(n.lo, n.k)}}
		until := n.kind == lUntil
		switch {
		case n.lo > 0 && until: // a now, and a U[lo-1,k-1] b from the next state
			d = a.and(pa, rest)
		case n.lo > 0: // a now, or a R[lo-1,k-1] b from the next state
			d = a.or(pa, rest)
		case until: // b now, or a now and a U[0,k-1] b next (none when k = 0)
			if n.k == 0 {
				rest = dnf{}
			}
			d = a.or(pb, a.and(pa, rest))
		default: // b now, and a now or a R[0,k-1] b next (nothing when k = 0)
			if n.k == 0 {
				rest = dnf{{}}
			}
			d = a.and(pb, a.or(pa, rest))
		}
	}
	if len(d) > maxClauses || a.tooBig {
		return nil, a.errTooBig()
	}
	a.prog[[2]int{x, l}] = d
	return d, nil
}

// pending is node x as an obligation from the next state on, not yet
// evaluated: a conjunction or disjunction is spread into clauses, any
// other node stays whole (so X true is met one state later, as PRISM's
// automata meet it).
func (a *Automaton) pending(x int) dnf {
	n := a.nodes[x]
	switch n.kind {
	case lAnd:
		d := dnf{{}}
		for _, y := range n.args {
			d = a.and(d, a.pending(y))
		}
		return d
	case lOr:
		d := dnf{}
		for _, y := range n.args {
			d = a.or(d, a.pending(y))
		}
		return d
	}
	return dnf{{x}}
}

// and returns x ∧ y in canonical form.
func (a *Automaton) and(x, y dnf) dnf {
	if x.isTrue() {
		return y
	}
	if y.isTrue() {
		return x
	}
	if len(x)*len(y) > maxClauses || a.tooBig {
		a.tooBig = true
		return dnf{}
	}
	a.work += int64(len(x)) * int64(len(y))
	out := make(dnf, 0, len(x)*len(y))
	for _, c := range x {
		for _, e := range y {
			m := append(slices.Clone(c), e...)
			slices.Sort(m)
			out = append(out, slices.Compact(m))
		}
	}
	return a.canonical(out)
}

// or returns x ∨ y in canonical form.
func (a *Automaton) or(x, y dnf) dnf {
	if x.isFalse() {
		return y
	}
	if y.isFalse() {
		return x
	}
	if len(x)+len(y) > maxClauses || a.tooBig {
		a.tooBig = true
		return dnf{}
	}
	return a.canonical(append(slices.Clone(x), y...))
}

// canonical sorts the clauses of d and removes those that contain another
// (absorption: c ∨ (c ∧ e) = c), counting the comparisons as work.
func (a *Automaton) canonical(d dnf) dnf {
	if a.work += int64(len(d)) * int64(len(d)+1) / 2; a.work > MaxAutomatonWork {
		a.tooBig = true
		return dnf{}
	}
	slices.SortFunc(d, func(x, y []int) int {
		if c := len(x) - len(y); c != 0 {
			return c
		}
		return slices.Compare(x, y)
	})
	out := d[:0]
	for _, c := range d {
		if !slices.ContainsFunc(out, func(k []int) bool { return subset(k, c) }) {
			out = append(out, c)
		}
	}
	return out
}

// subset reports whether the sorted x is contained in the sorted y.
func subset(x, y []int) bool {
	i := 0
	for _, v := range y {
		if i < len(x) && x[i] == v {
			i++
		}
	}
	return i == len(x)
}

// Product is the product of a chain's or MDP's states with an automaton:
// the pairs (s, q) reachable from every state s paired with the state
// after reading it.
type Product struct {
	// Pairs lists the pairs: Pairs[i] = (s, q).
	Pairs [][2]int32
	// Start[s] is the pair of the run that starts in s.
	Start []int32
	index map[[2]int32]int32
	a     *Automaton
}

// MaxProductStates bounds the pairs of a product, and the states of a
// chain or graph split on a formula's inner operators.
const MaxProductStates = 10_000_000

// MaxProductTransitions bounds the transitions of a chain or graph split
// on a formula's inner operators (each split may double them per state).
const MaxProductTransitions = 10_000_000

// errSplitTransitions is the error of a split beyond MaxProductTransitions.
func errSplitTransitions(on *Formula) error {
	return fmt.Errorf("%w: splitting on %s would make more than %d transitions (the limit of a product)", ErrFormula, on.Text(MaxFormulaText), MaxProductTransitions)
}

// NewProduct explores the product of n states with a: succ lists the
// successors of a state (those of every choice, for an MDP).
func NewProduct(ctx context.Context, a *Automaton, n int, succ func(s int) []int) (*Product, error) {
	p := &Product{Start: make([]int32, n), index: map[[2]int32]int32{}, a: a}
	for s := range n {
		q, err := a.Start(s)
		if err != nil {
			return nil, err
		}
		if p.Start[s], err = p.add(s, q); err != nil {
			return nil, err
		}
	}
	for i := 0; i < len(p.Pairs); i++ {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		for _, t := range succ(int(p.Pairs[i][0])) {
			if _, err := p.Next(i, t); err != nil {
				return nil, err
			}
		}
	}
	return p, nil
}

func (p *Product) add(s int, q int32) (int32, error) {
	k := [2]int32{int32(s), q}
	if i, ok := p.index[k]; ok {
		return i, nil
	}
	if len(p.Pairs) >= MaxProductStates {
		return 0, fmt.Errorf("%w: the product with the automaton of %s would have more than %d states (the limit of a product)", ErrFormula, p.a.text, MaxProductStates)
	}
	p.Pairs = append(p.Pairs, k)
	p.index[k] = int32(len(p.Pairs) - 1)
	return int32(len(p.Pairs) - 1), nil
}

// Next returns the pair reached from pair i by a step to the state t.
func (p *Product) Next(i int, t int) (int32, error) {
	q, err := p.a.Step(p.Pairs[i][1], t)
	if err != nil {
		return 0, err
	}
	return p.add(t, q)
}

// Product labels: the pairs whose automaton state is true or false.
const (
	AcceptLabel = "ltl:accept"
	RejectLabel = "ltl:reject"
)

// Labels returns the label of pair i: AcceptLabel, RejectLabel or none.
func (p *Product) Labels(i int) []string {
	q := p.Pairs[i][1]
	switch {
	case p.a.Accepting(q):
		return []string{AcceptLabel}
	case p.a.Rejecting(q):
		return []string{RejectLabel}
	}
	return nil
}

// Builder returns a chain builder with a state per pair, named "s|q" and
// labelled as Labels says, for the caller to add the pairs' rows.
func (p *Product) Builder() *chain.Builder {
	b := chain.NewBuilder()
	b.Grow(len(p.Pairs))
	for i, sq := range p.Pairs {
		b.AddStateOwned(strconv.Itoa(int(sq[0]))+"|"+strconv.Itoa(int(sq[1])), nil, p.Labels(i))
	}
	return b
}

// productChain builds the product of the chain with a as a chain.
func (m *Checker) productChain(ctx context.Context, a *Automaton) (*Product, *chain.Chain, error) {
	succ := func(s int) []int { to, _ := m.c.Row(s); return to }
	p, err := NewProduct(ctx, a, m.c.NumStates(), succ)
	if err != nil {
		return nil, nil, err
	}
	b := p.Builder()
	for i, sq := range p.Pairs {
		to, pr := m.c.Row(int(sq[0]))
		row := make([]int, len(to))
		for j, t := range to {
			k, err := p.Next(i, t)
			if err != nil {
				return nil, nil, err
			}
			row[j] = int(k)
		}
		b.AddRow(i, row, slices.Clone(pr))
	}
	c, err := b.BuildContext(ctx)
	if err != nil {
		return nil, nil, err
	}
	return p, c, nil
}

// productChecker builds path's automaton (required co-safe with coSafe)
// and a checker of its product with the chain.
func (m *Checker) productChecker(ctx context.Context, path *Formula, coSafe bool) (*Automaton, *Product, *Checker, error) {
	a, err := NewAutomaton(ctx, path, m.c.NumStates(), func(g *Formula) ([]bool, error) { return m.Sat(ctx, g) })
	if err != nil {
		return nil, nil, nil, err
	}
	if coSafe && !a.CoSafe {
		return nil, nil, nil, ErrNotCoSafe(path)
	}
	p, pc, err := m.productChain(ctx, a)
	if err != nil {
		return nil, nil, nil, err
	}
	inner, err := NewChecker(pc, nil)
	return a, p, inner, err
}

// ErrNotCoSafe is the error of a reward asked along a path formula that
// is not co-safe.
func ErrNotCoSafe(path *Formula) error {
	return ltlError(path, "the reward of a path formula is the reward earned until it is met: the formula must be co-safe (U, F, X and bounded operators in negation normal form)")
}

// ltlProb returns Pr_s(path) for every state s through the product with
// path's automaton.
func (m *Checker) ltlProb(ctx context.Context, path *Formula) ([]*big.Rat, error) {
	a, p, inner, err := m.productChecker(ctx, path, false)
	if err != nil {
		return nil, err
	}
	target := AcceptLabel
	if !a.CoSafe {
		target = RejectLabel
	}
	v, err := inner.Prob(ctx, Until(True(), Label(target), -1))
	if err != nil {
		return nil, err
	}
	out := make([]*big.Rat, m.c.NumStates())
	for s := range out {
		out[s] = v[p.Start[s]]
		if !a.CoSafe {
			out[s] = new(big.Rat).Sub(ratOne, out[s])
		}
	}
	return out, nil
}

// coSafeRewards returns the expected reward earned until path, a co-safe
// LTL formula, is first satisfied (PRISM's R[ψ]), from every state.
func (m *Checker) coSafeRewards(ctx context.Context, r Reward, path *Formula) ([]*big.Rat, error) {
	_, p, inner, err := m.productChecker(ctx, path, true)
	if err != nil {
		return nil, err
	}
	lift := func(v []*big.Rat) []*big.Rat {
		out := make([]*big.Rat, len(p.Pairs))
		for i, sq := range p.Pairs {
			out[i] = v[sq[0]]
		}
		return out
	}
	v, err := inner.Rewards(ctx, Reward{State: lift(r.State), Step: lift(r.Step)}, RewardPath{Op: RewardReach, Target: Label(AcceptLabel)})
	if err != nil {
		return nil, err
	}
	out := make([]*big.Rat, m.c.NumStates())
	for s := range out {
		out[s] = v[p.Start[s]]
	}
	return out, nil
}

// ltlClass reports whether f (negated when neg), in negation normal form,
// has an unbounded U (or F) and an unbounded R (or G). State formulas
// count as neither.
func ltlClass(f *Formula, neg bool) (hasU, hasR bool) {
	if f.IsState() {
		return false, false
	}
	if f.Op == OpNot {
		return ltlClass(f.Args[0], !neg)
	}
	if f.Op == OpUntil && f.K < 0 {
		hasU, hasR = !neg, neg
	}
	for _, g := range f.Args {
		u, r := ltlClass(g, neg)
		hasU, hasR = hasU || u, hasR || r
	}
	return hasU, hasR
}

// IsCoSafe reports whether the path formula f is co-safe: in negation
// normal form it has no unbounded R or G, so every path satisfying it is
// recognised after finitely many steps.
func IsCoSafe(f *Formula) bool {
	_, r := ltlClass(f, false)
	return !r
}

// NeedsSplit reports whether the path formula f is neither co-safe nor
// safe (G F φ, F G φ): a Markov chain is split on its inner operators to
// check it, which an MDP does not allow.
func NeedsSplit(f *Formula) bool { return !ltlSupported(f) }

// ltlSupported reports whether the product checks f: it is co-safe or
// safe.
func ltlSupported(f *Formula) bool {
	u, r := ltlClass(f, false)
	return !u || !r
}
