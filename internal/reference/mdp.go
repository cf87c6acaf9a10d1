package reference

import (
	"fmt"
	"math/big"
	"sort"
	"strings"
)

// MDP is a small Markov decision process for brute-force checks of query
// schedulers (Liu, Wang and Zhang, APLAS 2018, the MDP section), written
// independently of dpcheck's mdp package: states 0..len(Moves)-1, each
// with its labels and its moves.
//
// Moves[s] is nil for an absorbing state, a single move when every action
// moves s the same way, or one move per action; a nil move means that s
// does not enable the action and waits (stays where it is) for that step.
type MDP struct {
	Names   []string
	Actions []string
	Labels  [][]string
	Moves   [][]*Move
}

// Move is a distribution over successor states.
type Move struct {
	To []int
	P  []*big.Rat
}

// move returns s's move under action a, nil when s stays where it is.
func (m *MDP) move(s, a int) *Move {
	switch len(m.Moves[s]) {
	case 0:
		return nil
	case 1:
		return m.Moves[s][0]
	}
	return m.Moves[s][a]
}

// uniform reports whether every state of the distributions moves the same
// way under every action (one move, or none).
func (m *MDP) uniform(ds []map[int]*big.Rat) bool {
	for _, d := range ds {
		for s := range d {
			if len(m.Moves[s]) > 1 {
				return false
			}
		}
	}
	return true
}

// HasLabel reports whether state s carries label l.
func (m *MDP) HasLabel(s int, l string) bool {
	for _, x := range m.Labels[s] {
		if x == l {
			return true
		}
	}
	return false
}

// Lookup returns the state named name.
func (m *MDP) Lookup(name string) int {
	for s, n := range m.Names {
		if n == name {
			return s
		}
	}
	panic(fmt.Sprintf("reference: no state %q", name))
}

// Step returns the distribution after one step under action a from d,
// keeping only the states that carry label want ("" keeps every state).
func (m *MDP) Step(d map[int]*big.Rat, a int, want string) map[int]*big.Rat {
	out := map[int]*big.Rat{}
	put := func(s int, p *big.Rat) {
		if want != "" && !m.HasLabel(s, want) {
			return
		}
		if q, ok := out[s]; ok {
			q.Add(q, p)
			return
		}
		out[s] = new(big.Rat).Set(p)
	}
	for s, p := range d {
		mv := m.move(s, a)
		if mv == nil {
			put(s, p)
			continue
		}
		for i, t := range mv.To {
			put(t, new(big.Rat).Mul(p, mv.P[i]))
		}
	}
	return out
}

// Psi returns the labels of ψ_k = X bot & … & X^k bot & X^(k+1) top, one
// a step: "the first k answers are ⊥ and answer k+1 is ⊤".
func Psi(k int) []string {
	ls := make([]string, k+1)
	for i := range k {
		ls[i] = "bot"
	}
	ls[k] = "top"
	return ls
}

// Prob is the probability from s, under the action sequence seq (at least
// as long as labels), that the state after step i carries labels[i-1] for
// every i = 1..len(labels).
func (m *MDP) Prob(s int, seq []int, labels []string) *big.Rat {
	d := map[int]*big.Rat{s: rat(1, 1)}
	for i, l := range labels {
		d = m.Step(d, seq[i], l)
	}
	return massOf(d)
}

func massOf(d map[int]*big.Rat) *big.Rat {
	sum := new(big.Rat)
	for _, p := range d {
		sum.Add(sum, p)
	}
	return sum
}

// ExtremeAll is the maximum (max) or minimum over all schedulers, which
// see the whole history, of the probability of Prob's event from every
// state, by backward induction: an optimal scheduler picks its action
// from the step and the state alone, the best for what remains.
func (m *MDP) ExtremeAll(labels []string, max bool) []*big.Rat {
	n := len(m.Moves)
	w := make([]*big.Rat, n) // the value after the last step: 1
	for x := range w {
		w[x] = rat(1, 1)
	}
	for i := len(labels) - 1; i >= 0; i-- {
		next := make([]*big.Rat, n)
		for x := range n {
			var best *big.Rat
			acts := max1(len(m.Moves[x]))
			for a := range acts {
				v := new(big.Rat)
				succ := m.Step(map[int]*big.Rat{x: rat(1, 1)}, a, labels[i])
				for y, p := range succ {
					v.Add(v, new(big.Rat).Mul(p, w[y]))
				}
				if best == nil || (max && v.Cmp(best) > 0) || (!max && v.Cmp(best) < 0) {
					best = v
				}
			}
			next[x] = best
		}
		w = next
	}
	return w
}

func max1(n int) int {
	if n < 1 {
		return 1
	}
	return n
}

// Value is the exact real A + B·e^E (E a natural number); B is zero when
// the factor is rational.
type Value struct {
	A, B *big.Rat
	E    int
}

// Factor is c = e^ε: the rational C when set (ε = ln C), e^E otherwise.
type Factor struct {
	C *big.Rat
	E int
}

// LnOf is the factor of ε = ln c.
func LnOf(c *big.Rat) Factor { return Factor{C: c} }

// EPow is the factor of ε = e, a natural number: c = e^e.
func EPow(e int) Factor { return Factor{E: e} }

// String is "ε = ln 4" or "ε = 1".
func (f Factor) String() string {
	if f.C != nil {
		if f.C.Cmp(rat(1, 1)) == 0 {
			return "ε = 0"
		}
		return "ε = ln " + f.C.RatString()
	}
	return fmt.Sprintf("ε = %d", f.E)
}

// gap is p − c·q.
func (f Factor) gap(p, q *big.Rat) Value {
	if f.C != nil {
		return Value{A: new(big.Rat).Sub(p, new(big.Rat).Mul(f.C, q)), B: new(big.Rat)}
	}
	if f.E == 0 {
		return Value{A: new(big.Rat).Sub(p, q), B: new(big.Rat)}
	}
	return Value{A: new(big.Rat).Set(p), B: new(big.Rat).Neg(q), E: f.E}
}

// zero returns 0 in f's form.
func (f Factor) zero() Value { return Value{A: new(big.Rat), B: new(big.Rat), E: f.E} }

// Add returns v + w (the same E).
func (v Value) Add(w Value) Value {
	return Value{A: new(big.Rat).Add(v.A, w.A), B: new(big.Rat).Add(v.B, w.B), E: max(v.E, w.E)}
}

// Sign is the exact sign of v: e^E is irrational for E ≥ 1, so A + B·e^E
// is zero only when A and B are, and bounds of e close in on it.
func (v Value) Sign() int {
	if v.B.Sign() == 0 || v.E == 0 {
		return new(big.Rat).Add(v.A, v.B).Sign()
	}
	for terms := 8; ; terms *= 2 {
		lo, hi := eBounds(terms)
		lo, hi = powRat(lo, v.E), powRat(hi, v.E)
		a := new(big.Rat).Add(v.A, new(big.Rat).Mul(v.B, lo))
		b := new(big.Rat).Add(v.A, new(big.Rat).Mul(v.B, hi))
		if a.Sign() == b.Sign() && a.Sign() != 0 {
			return a.Sign()
		}
	}
}

// Cmp compares v and w exactly.
func (v Value) Cmp(w Value) int {
	return Value{A: new(big.Rat).Sub(v.A, w.A), B: new(big.Rat).Sub(v.B, w.B), E: max(v.E, w.E)}.Sign()
}

// comparer compares Values of one E exactly, first against bounds of e^E
// to within 10^-19, then, when they cannot tell, by Sign.
type comparer struct{ lo, hi *big.Rat }

func newComparer(e int) comparer {
	lo, hi := eBounds(24)
	return comparer{powRat(lo, e), powRat(hi, e)}
}

func (c comparer) cmp(v, w Value) int {
	a := new(big.Rat).Sub(v.A, w.A)
	b := new(big.Rat).Sub(v.B, w.B)
	if b.Sign() == 0 || v.E == 0 {
		return a.Add(a, b).Sign()
	}
	x := new(big.Rat).Add(a, new(big.Rat).Mul(b, c.lo))
	y := new(big.Rat).Add(a, new(big.Rat).Mul(b, c.hi))
	if x.Sign() == y.Sign() && x.Sign() != 0 {
		return x.Sign()
	}
	return Value{A: a, B: b, E: v.E}.Sign()
}

// Float approximates v, for display only.
func (v Value) Float() float64 {
	a, _ := v.A.Float64()
	b, _ := v.B.Float64()
	e := 1.0
	for range v.E {
		e *= 2.718281828459045
	}
	return a + b*e
}

// String writes v exactly: "379/3840" or "3461/3840 - 1541/1920·e".
func (v Value) String() string {
	if v.B.Sign() == 0 {
		return v.A.RatString()
	}
	e := "e"
	if v.E > 1 {
		e = fmt.Sprintf("e^%d", v.E)
	}
	b := new(big.Rat).Abs(v.B).RatString() + "·" + e
	switch {
	case v.A.Sign() == 0 && v.B.Sign() < 0:
		return "-" + b
	case v.A.Sign() == 0:
		return b
	case v.B.Sign() < 0:
		return v.A.RatString() + " - " + b
	}
	return v.A.RatString() + " + " + b
}

// eBounds returns lo < e < hi: lo = Σ_{j<=n} 1/j!, hi = lo + 1/(n!·n).
func eBounds(n int) (lo, hi *big.Rat) {
	lo = new(big.Rat)
	fact := big.NewInt(1)
	for j := 0; j <= n; j++ {
		if j > 0 {
			fact.Mul(fact, big.NewInt(int64(j)))
		}
		lo.Add(lo, new(big.Rat).SetFrac(big.NewInt(1), fact))
	}
	tail := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Mul(fact, big.NewInt(int64(n))))
	return lo, new(big.Rat).Add(lo, tail)
}

func powRat(x *big.Rat, e int) *big.Rat {
	out := rat(1, 1)
	for range e {
		out.Mul(out, x)
	}
	return out
}

// Prop2 is Proposition 2's bound over the pairs, both directions: the
// largest max_S Pr_s − c·min_S Pr_t over all schedulers S for Prob's
// event, with the pair (s, t) attaining it (the first in the order of
// pairs, s before t).
func (m *MDP) Prop2(pairs [][2]int, labels []string, f Factor) (v Value, s, t int) {
	hi, lo := m.ExtremeAll(labels, true), m.ExtremeAll(labels, false)
	first := true
	for _, p := range pairs {
		for _, dir := range [2][2]int{{p[0], p[1]}, {p[1], p[0]}} {
			if g := f.gap(hi[dir[0]], lo[dir[1]]); first || g.Cmp(v) > 0 {
				v, s, t, first = g, dir[0], dir[1], false
			}
		}
	}
	return v, s, t
}

// Worst is the largest gap found over query schedulers.
type Worst struct {
	// Delta is the largest Pr_From(E) − c·Pr_To(E), 0 when none is positive.
	Delta Value
	// From and To are the worst pair in the direction of the gap (-1 when
	// Delta is 0); Seq is the first worst sequence in the order of the
	// actions, "*" where the action does not matter.
	From, To int
	Seq      []string
	// PFrom and PTo are the probabilities of the event (D), or of the worst
	// set of traces (dp), under Seq.
	PFrom, PTo *big.Rat
	// Event lists the worst traces (dp only).
	Event []string
	// Sequences counts the sequences explored.
	Sequences int64
}

// sequences calls leaf with every action sequence of length n and the
// distributions from the starts after it, computed by next from those
// after the sequence's prefix. A step at which every state of every
// distribution moves the same way whatever the action is taken once, as
// action -1. Two actions that move every state of a distribution alike
// give the same distribution, computed once.
func (m *MDP) sequences(starts []int, n int, next func(d map[int]*big.Rat, a, i int) map[int]*big.Rat, leaf func(seq []int, ds []map[int]*big.Rat)) {
	canon := m.canonical()
	ds := make([]map[int]*big.Rat, len(starts))
	for i, s := range starts {
		ds[i] = map[int]*big.Rat{s: rat(1, 1)}
	}
	seq := make([]int, 0, n)
	var rec func(ds []map[int]*big.Rat)
	rec = func(ds []map[int]*big.Rat) {
		i := len(seq)
		if i == n {
			leaf(seq, ds)
			return
		}
		if m.uniform(ds) {
			nd := make([]map[int]*big.Rat, len(ds))
			for j, d := range ds {
				nd[j] = next(d, 0, i)
			}
			seq = append(seq, -1)
			rec(nd)
			seq = seq[:i]
			return
		}
		acts := len(m.Actions)
		children := make([][]map[int]*big.Rat, acts)
		for a := range acts {
			children[a] = make([]map[int]*big.Rat, len(ds))
		}
		for j, d := range ds {
			support := make([]int, 0, len(d))
			for s := range d {
				support = append(support, s)
			}
			for a := range acts {
				// An earlier action that moves every state of d alike.
				same := -1
				for b := 0; b < a && same < 0; b++ {
					same = b
					for _, s := range support {
						if canon(s, a) != canon(s, b) {
							same = -1
							break
						}
					}
				}
				if same >= 0 {
					children[a][j] = children[same][j]
				} else {
					children[a][j] = next(d, a, i)
				}
			}
		}
		for a := range acts {
			seq = append(seq, a)
			rec(children[a])
			seq = seq[:i]
		}
	}
	rec(ds)
}

// canonical returns canon(s, a): the first action that moves s as a does.
func (m *MDP) canonical() func(s, a int) int {
	c := make([][]int, len(m.Moves))
	for s, mvs := range m.Moves {
		if len(mvs) <= 1 {
			continue
		}
		c[s] = make([]int, len(mvs))
		for a := range mvs {
			c[s][a] = a
			for b := 0; b < a; b++ {
				if sameMove(mvs[a], mvs[b]) {
					c[s][a] = b
					break
				}
			}
		}
	}
	return func(s, a int) int {
		if c[s] == nil {
			return 0
		}
		return c[s][a]
	}
}

func sameMove(x, y *Move) bool {
	if x == nil || y == nil {
		return x == y
	}
	if len(x.To) != len(y.To) {
		return false
	}
	for i := range x.To {
		if x.To[i] != y.To[i] || x.P[i].Cmp(y.P[i]) != 0 {
			return false
		}
	}
	return true
}

// involved returns the distinct states of the pairs and their index.
func involved(pairs [][2]int) ([]int, map[int]int) {
	idx := map[int]int{}
	var starts []int
	for _, p := range pairs {
		for _, s := range p {
			if _, ok := idx[s]; !ok {
				idx[s] = len(starts)
				starts = append(starts, s)
			}
		}
	}
	return starts, idx
}

func (m *MDP) seqNames(seq []int) []string {
	out := make([]string, len(seq))
	for i, a := range seq {
		out[i] = "*"
		if a >= 0 {
			out[i] = m.Actions[a]
		}
	}
	return out
}

// TightDeltaD is the least δ for which D{ε,δ} holds for Prob's event over
// every query scheduler (action sequences of len(labels) steps) and every
// pair, both directions: the largest Pr_s − c·Pr_t, or 0.
func (m *MDP) TightDeltaD(pairs [][2]int, labels []string, f Factor) Worst {
	starts, idx := involved(pairs)
	w := Worst{Delta: f.zero(), From: -1, To: -1}
	c := newComparer(f.E)
	m.sequences(starts, len(labels), func(d map[int]*big.Rat, a, i int) map[int]*big.Rat {
		return m.Step(d, a, labels[i])
	}, func(seq []int, ds []map[int]*big.Rat) {
		w.Sequences++
		mass := make([]*big.Rat, len(ds))
		for j, d := range ds {
			mass[j] = massOf(d)
		}
		for _, p := range pairs {
			for _, dir := range [2][2]int{{p[0], p[1]}, {p[1], p[0]}} {
				ps, pt := mass[idx[dir[0]]], mass[idx[dir[1]]]
				if g := f.gap(ps, pt); c.cmp(g, w.Delta) > 0 {
					w.Delta, w.From, w.To, w.PFrom, w.PTo = g, dir[0], dir[1], ps, pt
					w.Seq = m.seqNames(seq)
				}
			}
		}
	})
	return w
}

// traceKey is a state with the trace that led to it.
type traceKey struct {
	trace string
	state int
}

// TightDeltaTraces is the least δ for which (ε, δ)-DP holds over the
// traces of n steps, every query scheduler (action sequences of n steps)
// and every pair, both directions: a trace is the list of the observed
// labels each state after steps 1..n carries. δ is the largest hockey-stick
// divergence Σ_o max(0, Pr_s(o) − c·Pr_t(o)).
func (m *MDP) TightDeltaTraces(pairs [][2]int, n int, observe []string, f Factor) Worst {
	starts, idx := involved(pairs)
	w := Worst{Delta: f.zero(), From: -1, To: -1}
	c := newComparer(f.E)
	m.sequences(starts, n, func(d map[int]*big.Rat, a, i int) map[int]*big.Rat {
		return m.Step(d, a, "")
	}, func(seq []int, _ []map[int]*big.Rat) {
		w.Sequences++
		traces := make([]map[string]*big.Rat, len(starts))
		for j, s := range starts {
			traces[j] = m.Traces(s, seq, observe)
		}
		for _, p := range pairs {
			for _, dir := range [2][2]int{{p[0], p[1]}, {p[1], p[0]}} {
				ts, tt := traces[idx[dir[0]]], traces[idx[dir[1]]]
				sum := f.zero()
				ps, pt := new(big.Rat), new(big.Rat)
				var event []string
				for o, po := range ts {
					qo := tt[o]
					if qo == nil {
						qo = new(big.Rat)
					}
					if g := f.gap(po, qo); c.cmp(g, f.zero()) > 0 {
						sum = sum.Add(g)
						ps.Add(ps, po)
						pt.Add(pt, qo)
						event = append(event, o)
					}
				}
				if c.cmp(sum, w.Delta) > 0 {
					sort.Strings(event)
					w.Delta, w.From, w.To, w.PFrom, w.PTo, w.Event = sum, dir[0], dir[1], ps, pt, event
					w.Seq = m.seqNames(seq)
				}
			}
		}
	})
	return w
}

// Traces is the distribution of the traces of len(seq) steps from s under
// seq (action -1: any), by plain enumeration of (trace, state). A trace is
// written "{out_Y}{out_N}": the observed labels after each step.
func (m *MDP) Traces(s int, seq []int, observe []string) map[string]*big.Rat {
	d := map[traceKey]*big.Rat{{"", s}: rat(1, 1)}
	for _, a := range seq {
		nd := map[traceKey]*big.Rat{}
		for k, p := range d {
			for t, q := range m.Step(map[int]*big.Rat{k.state: p}, max(a, 0), "") {
				var seen []string
				for _, l := range observe {
					if m.HasLabel(t, l) {
						seen = append(seen, l)
					}
				}
				tr := k.trace + "{" + strings.Join(seen, ",") + "}"
				nk := traceKey{tr, t}
				if x, ok := nd[nk]; ok {
					x.Add(x, q)
				} else {
					nd[nk] = q
				}
			}
		}
		d = nd
	}
	out := map[string]*big.Rat{}
	for k, p := range d {
		if x, ok := out[k.trace]; ok {
			x.Add(x, p)
		} else {
			out[k.trace] = new(big.Rat).Set(p)
		}
	}
	return out
}

// TightRatioTraces is e^ε for the least ε for which (ε, 0)-DP holds over
// the traces of n steps and every query scheduler and pair: the largest
// Pr_s(o)/Pr_t(o); inf reports a trace possible from one input only.
func (m *MDP) TightRatioTraces(pairs [][2]int, n int, observe []string) (ratio *big.Rat, inf bool, seq []string) {
	starts, idx := involved(pairs)
	ratio = rat(1, 1)
	m.sequences(starts, n, func(d map[int]*big.Rat, a, i int) map[int]*big.Rat {
		return m.Step(d, a, "")
	}, func(sq []int, _ []map[int]*big.Rat) {
		traces := make([]map[string]*big.Rat, len(starts))
		for j, s := range starts {
			traces[j] = m.Traces(s, sq, observe)
		}
		for _, p := range pairs {
			for _, dir := range [2][2]int{{p[0], p[1]}, {p[1], p[0]}} {
				ts, tt := traces[idx[dir[0]]], traces[idx[dir[1]]]
				for o, po := range ts {
					qo := tt[o]
					if qo == nil || qo.Sign() == 0 {
						if !inf {
							inf, seq = true, m.seqNames(sq)
						}
						continue
					}
					if r := new(big.Rat).Quo(po, qo); r.Cmp(ratio) > 0 && !inf {
						ratio, seq = r, m.seqNames(sq)
					}
				}
			}
		}
	})
	return ratio, inf, seq
}

// Halted returns the labels of X^(k+1) top: the run has halted within
// k+1 answers (top is absorbing), no requirement before.
func Halted(k int) []string {
	ls := make([]string, k+1)
	ls[k] = "top"
	return ls
}

// Name returns state s's name, "-" for -1 (no state).
func (m *MDP) Name(s int) string {
	if s < 0 {
		return "-"
	}
	return m.Names[s]
}
