package mdp

import (
	"cmp"
	"container/heap"
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/dpcheck/dpcheck/verify"
)

// row is a distribution a scheduler may pick at a state.
type row struct {
	to []int
	p  []*big.Rat
}

// sched is the MDP seen by the schedulers of Prob: at every state the rows
// a scheduler may pick. With stay, a state that does not enable every
// action may also stay where it is (the rule of query schedulers), so the
// extremes bound every query scheduler. An absorbing state only stays.
type sched struct {
	m    *MDP
	rows [][]row
	pred [][][2]int // pred[t]: (s, row index) with t a successor
}

func newSched(m *MDP, stay bool) *sched { return buildSched(m, stay, true) }

// buildSched is newSched; with collapse false a state whose every choice
// is a self-loop keeps its choices as rows (they may earn different
// rewards), and only a state without a choice stays where it is.
func buildSched(m *MDP, stay, collapse bool) *sched {
	n := m.NumStates()
	sc := &sched{m: m, rows: make([][]row, n), pred: make([][][2]int, n)}
	for s := range n {
		if collapse && m.IsAbsorbing(s) || len(m.Choices[s]) == 0 {
			sc.rows[s] = []row{{to: []int{s}, p: []*big.Rat{ratOne}}}
		} else {
			rs := make([]row, 0, len(m.Choices[s])+1)
			for _, c := range m.Choices[s] {
				rs = append(rs, row{to: c.To, p: c.P})
			}
			if stay && !m.enablesAll(s) {
				rs = append(rs, row{to: []int{s}, p: []*big.Rat{ratOne}})
			}
			sc.rows[s] = rs
		}
		for ri, r := range sc.rows[s] {
			for _, t := range r.to {
				sc.pred[t] = append(sc.pred[t], [2]int{s, ri})
			}
		}
	}
	return sc
}

// Prob returns, for every state, the minimum (max false) or maximum (max
// true) probability of the path formula over all schedulers, exactly.
// The formula's state formulas must be propositional (labels, atoms, !,
// &, |): a P or D inside a path formula is an error.
func (m *MDP) Prob(ctx context.Context, path *verify.Formula, max bool) ([]*big.Rat, error) {
	if !simplePath(path) {
		return m.ltlProb(ctx, path, max)
	}
	return m.extreme(ctx, newSched(m, false), path, max)
}

// extreme computes the extreme probability of path over sc's schedulers.
func (m *MDP) extreme(ctx context.Context, sc *sched, path *verify.Formula, max bool) ([]*big.Rat, error) {
	sat := func(g *verify.Formula) ([]bool, error) {
		if !isPropositional(g) {
			return nil, errUnsupported(g, "the operands of X and U must be propositional state formulas (labels, atoms, !, &, |) in Pmin, Pmax and P~p on MDPs")
		}
		return m.Sat(ctx, g)
	}
	switch path.Op {
	case verify.OpNot:
		v, err := m.extreme(ctx, sc, path.Args[0], !max)
		if err != nil {
			return nil, err
		}
		out := make([]*big.Rat, len(v))
		for s, x := range v {
			out[s] = new(big.Rat).Sub(ratOne, x)
		}
		return out, nil
	case verify.OpNext:
		phi, err := sat(path.Args[0])
		if err != nil {
			return nil, err
		}
		v := indicator(phi)
		for range path.K {
			if v, err = sc.induct(ctx, v, max, nil, nil); err != nil {
				return nil, err
			}
		}
		return v, nil
	case verify.OpUntil:
		l, err := sat(path.Args[0])
		if err != nil {
			return nil, err
		}
		r, err := sat(path.Args[1])
		if err != nil {
			return nil, err
		}
		cand := make([]bool, len(l))
		for s := range cand {
			cand[s] = l[s] && !r[s]
		}
		var v []*big.Rat
		switch k := path.K - path.Lo; {
		case path.K < 0:
			if v, err = sc.reach(ctx, r, cand, max); err != nil {
				return nil, err
			}
		default:
			v = indicator(r)
			for range k {
				if v, err = sc.induct(ctx, v, max, r, cand); err != nil {
					return nil, err
				}
			}
		}
		// A lower bound lo: lo steps back through states where l holds,
		// each scheduler's choice the extreme one.
		for range path.Lo {
			if v, err = sc.induct(ctx, v, max, nil, nil); err != nil {
				return nil, err
			}
			for s := range v {
				if !l[s] {
					v[s] = new(big.Rat)
				}
			}
		}
		return v, nil
	}
	if path.IsState() {
		// A state formula as a path formula holds of the run's first
		// state (as in verify): its probability is 0 or 1 under every
		// scheduler.
		phi, err := sat(path)
		if err != nil {
			return nil, err
		}
		return indicator(phi), nil
	}
	return nil, fmt.Errorf("mdp: the path formula %s is not supported on MDPs: Pmin, Pmax and P~p take X^k φ, φ U ψ, φ U<=k ψ, F, G and their negations, with propositional operands", path.Text(verify.MaxFormulaText))
}

func indicator(b []bool) []*big.Rat {
	zero, one := new(big.Rat), big.NewRat(1, 1)
	v := make([]*big.Rat, len(b))
	for s, x := range b {
		v[s] = zero
		if x {
			v[s] = one
		}
	}
	return v
}

// induct is one step of backward induction: the best expectation of v
// over the rows of each state; with yes and cand given, yes states keep 1
// and states neither in yes nor cand keep 0.
func (sc *sched) induct(ctx context.Context, v []*big.Rat, max bool, yes, cand []bool) ([]*big.Rat, error) {
	out := make([]*big.Rat, len(v))
	for s := range v {
		if s&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if yes != nil && (yes[s] || !cand[s]) {
			out[s] = v[s]
			continue
		}
		var best *big.Rat
		for _, r := range sc.rows[s] {
			x := expect(r, v)
			if best == nil || (max && x.Cmp(best) > 0) || (!max && x.Cmp(best) < 0) {
				best = x
			}
		}
		out[s] = best
	}
	return out, nil
}

func expect(r row, v []*big.Rat) *big.Rat {
	x, t := new(big.Rat), new(big.Rat)
	for i, s := range r.to {
		if v[s].Sign() != 0 {
			x.Add(x, t.Mul(r.p[i], v[s]))
		}
	}
	return x
}

// backward returns the states of from plus the cand states that reach them
// by some row (through cand states).
func (sc *sched) backward(from, cand []bool) []bool {
	return sc.closure(from, func(s, _ int) bool { return cand[s] })
}

// closure returns the states of from and those the search adds to them:
// taking each state t added in turn (from's in their order first), it
// adds each state s not yet added that has a row into t for which add(s,
// row) holds.
func (sc *sched) closure(from []bool, add func(s, row int) bool) []bool {
	in := slices.Clone(from)
	var queue []int
	for s, b := range from {
		if b {
			queue = append(queue, s)
		}
	}
	for len(queue) > 0 {
		t := queue[0]
		queue = queue[1:]
		for _, pr := range sc.pred[t] {
			if s := pr[0]; !in[s] && add(s, pr[1]) {
				in[s] = true
				queue = append(queue, s)
			}
		}
	}
	return in
}

// not returns the complement of a set of states.
func not(in []bool) []bool {
	out := make([]bool, len(in))
	for s, b := range in {
		out[s] = !b
	}
	return out
}

// maxProb1Rounds bounds the rounds of prob1E.
const maxProb1Rounds = 16

// reach returns the extreme probability of reaching yes through cand
// states: graph precomputation of the states with probability 0 and 1,
// then policy iteration with exact linear solves on the rest.
func (sc *sched) reach(ctx context.Context, yes, cand []bool, max bool) ([]*big.Rat, error) {
	n := len(yes)
	var zero, one []bool // probability 0, probability 1 (yes included)
	if max {
		// prob0A: Pmax = 0 where yes cannot be reached at all.
		pos := sc.backward(yes, cand)
		zero = not(pos)
		// prob1E: the greatest U such that yes is reached within U by rows
		// that stay in U. The nested fixed point may take as many rounds
		// as there are states (a long chain loses one state a round): after
		// maxProb1Rounds it is abandoned, and the states of probability 1
		// are left to the linear solve, which the attractor policy below
		// keeps non-singular.
		u := pos
		one = yes
		for round := 0; round < maxProb1Rounds; round++ {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			r := sc.closure(yes, func(s, row int) bool {
				if !cand[s] || !u[s] {
					return false
				}
				for _, x := range sc.rows[s][row].to {
					if !u[x] {
						return false
					}
				}
				return true
			})
			same := slices.Equal(r, u)
			u = r
			if same {
				one = u
				break
			}
		}
	} else {
		// prob0E: Pmin = 0 except where every row keeps reaching yes.
		hit := make([][]bool, n)
		cnt := make([]int, n)
		forced := sc.closure(yes, func(s, ri int) bool {
			if !cand[s] {
				return false
			}
			if hit[s] == nil {
				hit[s] = make([]bool, len(sc.rows[s]))
			}
			if hit[s][ri] {
				return false
			}
			hit[s][ri] = true
			cnt[s]++
			return cnt[s] == len(sc.rows[s])
		})
		zero = not(forced)
		// prob1A: Pmin = 1 where no scheduler can reach a state of Pmin 0.
		lt1 := sc.backward(zero, cand)
		one = make([]bool, n)
		for s := range one {
			one[s] = yes[s] || (cand[s] && !lt1[s])
		}
	}
	// The rest: 0 < P < 1.
	idx := make([]int, n)
	var maybe []int
	for s := range n {
		idx[s] = -1
		if cand[s] && !zero[s] && !one[s] {
			idx[s] = len(maybe)
			maybe = append(maybe, s)
		}
	}
	val := make([]*big.Rat, n)
	z, o := new(big.Rat), big.NewRat(1, 1)
	for s := range n {
		val[s] = z
		if one[s] {
			val[s] = o
		}
	}
	if len(maybe) == 0 {
		return val, nil
	}
	// The initial policy: for Pmax, a row that moves towards probability 1
	// (an attractor), so that no end component traps the policy; for Pmin
	// every policy leaves the maybe states surely (their end components
	// are in prob0E).
	pol := make([]int, n)
	if max {
		sc.closure(one, func(s, row int) bool {
			if idx[s] < 0 {
				return false
			}
			pol[s] = row
			return true
		})
	}
	if err := sc.iterate(ctx, maybe, idx, val, pol, nil, nil, max); err != nil {
		return nil, err
	}
	return val, nil
}

// iterate is policy iteration with exact linear solves: starting from the
// policy pol (a row of each maybe state; idx[s] is s's index in maybe, -1
// for the others, whose values val holds), it solves
//
//	x(s) = k(s, pol(s)) + Σ_t P(s, pol(s), t)·x(t)
//
// on the maybe states (k nil: 0), and switches a state to a row that is
// strictly better for these values, among the rows allowed (nil: all),
// until none is; val then holds the extreme values. Every policy met must
// leave the maybe states with probability 1; when allowed is set, each is
// checked to, and one that does not is errImproper.
func (sc *sched) iterate(ctx context.Context, maybe, idx []int, val []*big.Rat, pol []int, allowed func(s, row int) bool, k func(s, row int) *big.Rat, max bool) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if allowed != nil && !sc.proper(maybe, idx, pol) {
			return errImproper
		}
		a := make([][]entry, len(maybe))
		b := make([]*big.Rat, len(maybe))
		var rows []map[int]*big.Rat // for lifting, when there are enough unknowns
		if len(maybe) >= verify.LiftingMinStates {
			rows = make([]map[int]*big.Rat, len(maybe))
		}
		for i, s := range maybe {
			r := sc.rows[s][pol[s]]
			m := map[int]*big.Rat{i: big.NewRat(1, 1)}
			rhs := new(big.Rat)
			if k != nil {
				rhs.Set(k(s, pol[s]))
			}
			t := new(big.Rat)
			for j, u := range r.to {
				switch {
				case idx[u] >= 0:
					x, ok := m[idx[u]]
					if !ok {
						x = new(big.Rat)
						m[idx[u]] = x
					}
					x.Sub(x, r.p[j])
				case val[u].Sign() != 0:
					rhs.Add(rhs, t.Mul(r.p[j], val[u]))
				}
			}
			a[i] = sortedEntries(m)
			b[i] = rhs
			if rows != nil {
				rows[i] = m
			}
		}
		var x []*big.Rat
		lifted := false
		if rows != nil {
			var err error
			if x, lifted, err = verify.SolveLifted(ctx, rows, b); err != nil {
				return err
			}
		}
		if !lifted {
			var err error
			if x, err = solveExact(ctx, a, b); err != nil {
				return err
			}
		}
		for i, s := range maybe {
			val[s] = x[i]
		}
		value := func(s, ri int) *big.Rat {
			y := expect(sc.rows[s][ri], val)
			if k != nil {
				y.Add(y, k(s, ri))
			}
			return y
		}
		changed := false
		for _, s := range maybe {
			cur := value(s, pol[s])
			for ri := range sc.rows[s] {
				if ri == pol[s] || allowed != nil && !allowed(s, ri) {
					continue
				}
				y := value(s, ri)
				if c := y.Cmp(cur); (max && c > 0) || (!max && c < 0) {
					cur, pol[s], changed = y, ri, true
				}
			}
		}
		if !changed {
			return nil
		}
	}
}

// errImproper says that policy iteration met a policy that keeps the
// chain among the unknown states forever.
var errImproper = errors.New("a policy keeps the run forever in states that earn no reward (an end component without reward)")

// proper reports whether, under the policy pol, every maybe state reaches
// a state outside maybe.
func (sc *sched) proper(maybe, idx []int, pol []int) bool {
	out := make([]bool, len(idx))
	for s := range out {
		out[s] = idx[s] < 0
	}
	in := sc.closure(out, func(s, row int) bool { return idx[s] >= 0 && row == pol[s] })
	for _, s := range maybe {
		if !in[s] {
			return false
		}
	}
	return true
}

// entry is one coefficient of a sparse row.
type entry struct {
	col int
	v   *big.Rat
}

func sortedEntries(m map[int]*big.Rat) []entry {
	out := make([]entry, 0, len(m))
	for c, v := range m {
		if v.Sign() != 0 {
			out = append(out, entry{c, v})
		}
	}
	sortEntries(out)
	return out
}

// sortEntries sorts a row by column.
func sortEntries(es []entry) {
	slices.SortFunc(es, func(a, b entry) int { return cmp.Compare(a.col, b.col) })
}

type intHeap []int

func (h intHeap) Len() int           { return len(h) }
func (h intHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h intHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *intHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *intHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// solveExact solves A·x = b exactly by Gaussian elimination over big.Rat
// (iterate lifts instead, through verify.SolveLifted, a system whose
// elimination would fill in),
// eliminating rows in their order (no pivoting: A = I − Q of a policy that
// leaves the unknowns surely is a non-singular M-matrix, whose Schur
// complements keep positive pivots). Rows are sparse; the fill-in of
// banded systems stays in the band.
func solveExact(ctx context.Context, a [][]entry, b []*big.Rat) ([]*big.Rat, error) {
	n := len(a)
	upper := make([][]entry, n) // normalised rows: unit pivot, columns > i
	rhs := make([]*big.Rat, n)
	t := new(big.Rat)
	for i := range n {
		// A row of a dense system costs up to n² operations: look at ctx
		// at each.
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		w := make(map[int]*big.Rat, len(a[i]))
		var h intHeap
		for _, e := range a[i] {
			w[e.col] = new(big.Rat).Set(e.v)
			if e.col < i {
				h = append(h, e.col)
			}
		}
		heap.Init(&h)
		r := new(big.Rat).Set(b[i])
		for h.Len() > 0 {
			j := heap.Pop(&h).(int)
			f, ok := w[j]
			if !ok {
				continue
			}
			delete(w, j)
			if f.Sign() == 0 {
				continue
			}
			for _, e := range upper[j] {
				x, ok := w[e.col]
				if !ok {
					x = new(big.Rat)
					w[e.col] = x
					if e.col < i {
						heap.Push(&h, e.col)
					}
				}
				x.Sub(x, t.Mul(f, e.v))
			}
			r.Sub(r, t.Mul(f, rhs[j]))
		}
		piv, ok := w[i]
		if !ok || piv.Sign() == 0 {
			return nil, fmt.Errorf("mdp: singular linear system at unknown %d (internal error)", i)
		}
		delete(w, i)
		inv := new(big.Rat).Inv(piv)
		row := make([]entry, 0, len(w))
		for c, v := range w {
			if v.Sign() != 0 {
				row = append(row, entry{c, v.Mul(v, inv)})
			}
		}
		sortEntries(row)
		upper[i] = row
		rhs[i] = r.Mul(r, inv)
	}
	x := make([]*big.Rat, n)
	for i := n - 1; i >= 0; i-- {
		v := new(big.Rat).Set(rhs[i])
		for _, e := range upper[i] {
			v.Sub(v, t.Mul(e.v, x[e.col]))
		}
		x[i] = v
	}
	return x, nil
}
