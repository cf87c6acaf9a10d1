package mdp

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"slices"
	"sort"

	"github.com/dpcheck/dpcheck/exact"
)

// search explores action sequences depth first.
type search struct {
	p           *problem
	horizon     int
	limit       int64
	maxWork     int64
	noPrune     bool
	noTranspose bool
	everyGap    bool // a proven lower bound at every prefix (ψ unbounded, final outputs)

	deltaMode bool
	cv        *cval    // δ mode: c = e^ε
	delta     *big.Rat // ε mode

	explored, pruned, transposed int64
	work                         int64 // distribution entries weighed (see spend)

	// The transposition table of the current horizon: the contents of
	// the nodes explored (depth and every input's distribution, encoded)
	// with the directions explored from them (a bit per direction).
	table      map[string]*ttEntry
	tableBytes int

	// With dominance, track[di] is the largest bound (a gap, or a bound
	// at most the best that cut a prefix) met for direction di in the
	// extensions of the node being explored, nil when none: every gap of
	// those extensions is at most it.
	track     []*exact.Real
	lastBound exact.Real // the bound that cut the last direction (δ mode)
	terminal  bool       // the node being considered is terminal

	have     bool
	best     exact.Real // δ mode
	bestC    *big.Rat   // ε mode (nil: c = 1)
	bestInf  bool
	bestSeq  []int
	bestDir  [2]int
	bestFrom *big.Rat
	bestTo   *big.Rat
	bestEv   []string

	cut     bool // a prefix at the horizon could still beat the best
	cutMax  exact.Real
	cutC    *big.Rat
	cutInf  bool
	reached int // deepest horizon searched

	seq []int
}

func newSearch(p *problem, o Options) *search {
	lim, work := o.MaxSequences, o.MaxWork
	if lim <= 0 {
		lim = DefaultMaxSequences
	}
	if work <= 0 {
		work = DefaultMaxWork
	}
	return &search{p: p, limit: lim, maxWork: work, noPrune: o.noPrune, noTranspose: o.noTranspose}
}

// consider records direction di's proven gap at the current prefix.
func (sr *search) consider(di int, ds []*dist) error {
	p := sr.p
	dir := p.dirs[di]
	d1, d2 := ds[dir[0]], ds[dir[1]]
	var ev []string
	if sr.deltaMode {
		A, B, err := p.lowerParts(sr.cv, d1, d2)
		if err != nil {
			return err
		}
		v := sr.cv.real(A, B)
		if sr.track != nil && sr.terminal {
			if err := sr.note(di, v); err != nil {
				return err
			}
		}
		if sr.have {
			c, err := v.Cmp(sr.best)
			if err != nil {
				return err
			}
			if c <= 0 {
				return nil
			}
		}
		sr.best = v
		if p.kind != kindD {
			for o, a := range d1.done {
				if ok, err := sr.cv.above(a, get(d2.done, o)); err != nil {
					return err
				} else if ok {
					ev = append(ev, p.outcomeName(o))
				}
			}
		}
	} else {
		ts, L := p.lowerTerms(d1, d2)
		c, inf := solveC(ts, L, sr.delta)
		switch {
		case sr.bestInf:
			return nil
		case inf:
		case c.Cmp(sr.bestCOrOne()) <= 0:
			return nil
		}
		sr.bestC, sr.bestInf = c, inf
		if p.kind != kindD {
			for o, a := range d1.done {
				b := get(d2.done, o)
				if a.Sign() > 0 && (inf && b.Sign() == 0 || !inf && a.Cmp(new(big.Rat).Mul(c, b)) >= 0) {
					ev = append(ev, p.outcomeName(o))
				}
			}
		}
	}
	sr.have = true
	sr.bestSeq = append(sr.bestSeq[:0], sr.seq...)
	sr.bestDir = [2]int{p.inputs[dir[0]], p.inputs[dir[1]]}
	sr.bestFrom = get(d1.done, 0)
	sr.bestTo = new(big.Rat).Add(get(d2.done, 0), d2.liveMass())
	slices.Sort(ev)
	sr.bestEv = ev
	return nil
}

// promising reports whether some extension of the prefix may beat the
// best found in direction di.
func (sr *search) promising(di int, ds []*dist) (bool, error) {
	if sr.noPrune {
		return true, nil
	}
	p := sr.p
	dir := p.dirs[di]
	d1, d2 := ds[dir[0]], ds[dir[1]]
	if sr.deltaMode {
		if !sr.have {
			return true, nil
		}
		A, B, err := p.upperParts(sr.cv, d1, d2)
		if err != nil {
			return false, err
		}
		v := sr.cv.real(A, B)
		c, err := v.Cmp(sr.best)
		if err != nil || c <= 0 {
			sr.lastBound = v
			return false, err
		}
		return sr.pairPromising(di, ds)
	}
	if sr.bestInf {
		return false, nil
	}
	cv := ratC(sr.bestCOrOne())
	A, B, err := p.upperParts(cv, d1, d2)
	if err != nil {
		return false, err
	}
	v := new(big.Rat).Sub(A, new(big.Rat).Mul(cv.c, B))
	if v.Cmp(sr.delta) <= 0 {
		return false, nil
	}
	return sr.pairPromising(di, ds)
}

// pairPromising reports whether direction di may still beat the best by
// the second bound: pairGreedy for D in δ mode with live mass on both
// sides, traceParts for traces; true otherwise. It is tried only where
// the bound of upperParts does not settle it, being costlier.
func (sr *search) pairPromising(di int, ds []*dist) (bool, error) {
	p := sr.p
	dir := p.dirs[di]
	d1, d2 := ds[dir[0]], ds[dir[1]]
	if p.kind == kindTraces && len(d1.live) > 0 {
		cv, bound := sr.cv, exact.Real{}
		if sr.deltaMode {
			bound = sr.best
		} else {
			if sr.bestInf {
				return false, nil
			}
			cv = ratC(sr.bestCOrOne())
			bound = exact.RatReal(sr.delta)
		}
		A, B, ok, err := p.traceParts(cv, d1, d2)
		if err != nil || !ok {
			return true, err
		}
		v := cv.real(A, B)
		c, err := v.Cmp(bound)
		sr.lastBound = v
		return c > 0, err
	}
	if p.kind != kindD || !sr.deltaMode || p.pairCV != sr.cv || len(d1.live) == 0 || len(d2.live) == 0 {
		return true, nil
	}
	A, B, err := p.pairGreedy(d1, d2)
	if err != nil {
		return false, err
	}
	v := sr.cv.real(A, B)
	c, err := v.Cmp(sr.best)
	sr.lastBound = v
	return c > 0, err
}

// cutAt records a prefix cut at the horizon that may still matter.
func (sr *search) cutAt(di int, ds []*dist) error {
	p := sr.p
	dir := p.dirs[di]
	d1, d2 := ds[dir[0]], ds[dir[1]]
	if sr.deltaMode {
		A, B, err := p.upperParts(sr.cv, d1, d2)
		if err != nil {
			return err
		}
		v := sr.cv.real(A, B)
		if sr.cut {
			if c, err := v.Cmp(sr.cutMax); err != nil || c <= 0 {
				return err
			}
		}
		sr.cut, sr.cutMax = true, v
		return nil
	}
	ts, A0, B0 := p.upperTerms(d1, d2)
	c, inf := solveCBase(ts, A0, B0, sr.delta)
	if sr.cut && (sr.cutInf || !inf && c.Cmp(sr.cutC) <= 0) {
		return nil
	}
	sr.cut, sr.cutC, sr.cutInf = true, c, inf
	return nil
}

// exact reports whether the search settled the tight value: no prefix cut
// at the horizon can beat the best.
func (sr *search) exact() (bool, error) {
	if !sr.cut {
		return true, nil
	}
	if sr.deltaMode {
		if !sr.have {
			return false, nil
		}
		c, err := sr.cutMax.Cmp(sr.best)
		return c <= 0, err
	}
	if sr.cutInf {
		return sr.bestInf, nil
	}
	if sr.bestInf {
		return true, nil
	}
	return sr.cutC.Cmp(sr.bestCOrOne()) <= 0, nil
}

// bestCOrOne is the best c = e^ε found in ε mode, 1 when none is above 1.
func (sr *search) bestCOrOne() *big.Rat {
	if sr.bestC != nil {
		return sr.bestC
	}
	return ratOne
}

// run searches every sequence of the horizon.
func (sr *search) run(horizon int) error {
	if err := sr.p.ctx.Err(); err != nil {
		return err
	}
	sr.horizon = horizon
	sr.cut, sr.cutC, sr.cutInf = false, nil, false
	sr.table, sr.tableBytes, sr.track = map[string]*ttEntry{}, 0, nil
	p := sr.p
	ds := make([]*dist, len(p.inputs))
	for i, s := range p.inputs {
		ds[i] = p.start(s)
	}
	active := make([]int, len(p.dirs))
	for i := range active {
		active[i] = i
	}
	sr.reached = horizon
	return sr.node(0, ds, active, nil)
}

// node evaluates the prefix sr.seq, whose distributions are ds, for the
// directions still active, and explores its extensions. ups holds the
// upper bounds of the directions when the parent computed them (δ mode).
func (sr *search) node(depth int, ds []*dist, active []int, ups []exact.Real) error {
	p := sr.p
	terminal := true
	for _, di := range active {
		for _, i := range p.dirs[di] {
			if len(ds[i].live) > 0 {
				terminal = false
			}
		}
	}
	sr.terminal = terminal
	// Each direction's step below may take milliseconds of exact
	// arithmetic (96 directions over every pair of the paper's
	// above-threshold MDP): the context is looked at for every one.
	if terminal || sr.everyGap {
		for _, di := range active {
			if err := p.ctx.Err(); err != nil {
				return err
			}
			if err := sr.spend(ds[p.dirs[di][0]], ds[p.dirs[di][1]]); err != nil {
				return err
			}
			if err := sr.consider(di, ds); err != nil {
				return err
			}
		}
	}
	if terminal {
		return nil
	}
	var act []int
	for k, di := range active {
		if err := p.ctx.Err(); err != nil {
			return err
		}
		if err := sr.spend(ds[p.dirs[di][0]], ds[p.dirs[di][1]]); err != nil {
			return err
		}
		var ok bool
		var err error
		if ups != nil && !sr.noPrune && sr.have {
			var c int
			c, err = ups[k].Cmp(sr.best)
			ok = c > 0
			sr.lastBound = ups[k]
			if err == nil && ok {
				ok, err = sr.pairPromising(di, ds)
			}
		} else {
			ok, err = sr.promising(di, ds)
		}
		if err != nil {
			return err
		}
		if !ok && sr.track != nil {
			// In δ mode a direction is cut only by a bound at most the
			// best, kept in lastBound.
			if err := sr.note(di, sr.lastBound); err != nil {
				return err
			}
		}
		if ok {
			act = append(act, di)
		}
	}
	if len(act) == 0 {
		sr.pruned++
		return nil
	}
	if depth == sr.horizon {
		for _, di := range act {
			if err := p.ctx.Err(); err != nil {
				return err
			}
			if err := sr.cutAt(di, ds); err != nil {
				return err
			}
		}
		return nil
	}
	act, tr, err := sr.transpose(depth, ds, act)
	if err != nil {
		return err
	}
	if len(act) == 0 {
		sr.transposed++
		return nil
	}
	need := make([]bool, len(p.inputs))
	for _, di := range act {
		need[p.dirs[di][0]], need[p.dirs[di][1]] = true, true
	}
	// Actions that move every needed input the same way lead to the same
	// distributions: only the first of them is explored.
	var states [][]int
	for i, d := range ds {
		if !need[i] {
			states = append(states, nil)
			continue
		}
		seen := map[int32]bool{}
		var ss []int
		for k := range d.live {
			if !seen[k.s] {
				seen[k.s] = true
				ss = append(ss, int(k.s))
			}
		}
		states = append(states, ss)
	}
	type child struct {
		a   int
		ds  []*dist
		ups []exact.Real
		est float64
	}
	var children []child
	// An input's distribution after a depends only on how a moves its
	// live states: computed once per distinct move (in the above-threshold
	// MDP, role 0 reads only m of "m n", role 1 only n).
	effects := map[string]bool{}
	stepped := make([]map[string]*dist, len(ds))
	keys := make([]string, len(ds))
	var eb, kb []byte
	for a := range p.m.Actions {
		eb = eb[:0]
		for i, ss := range states {
			kb = kb[:0]
			for _, s := range ss {
				kb = binary.AppendUvarint(kb, uint64(p.rowID(s, a)))
			}
			keys[i] = string(kb)
			eb = append(eb, kb...)
			eb = append(eb, 0xff)
		}
		if effects[string(eb)] {
			continue
		}
		effects[string(eb)] = true
		sr.explored++
		if sr.explored > sr.limit {
			return &LimitError{Limit: "sequences", at: "the limit of " + exact.Thousands(sr.limit) + " sequences", Msg: fmt.Sprintf("the search over query schedulers would explore more than %s action sequences at horizon %d; the limit is %s sequences",
				exact.Thousands(sr.limit), sr.horizon, exact.Thousands(sr.limit))}
		}
		if err := p.ctx.Err(); err != nil {
			return err
		}
		c := child{a: a, ds: make([]*dist, len(ds))}
		for i, d := range ds {
			if !need[i] {
				continue
			}
			if stepped[i] == nil {
				stepped[i] = map[string]*dist{}
			}
			nd, ok := stepped[i][keys[i]]
			if !ok {
				if err := sr.spend(d); err != nil {
					return err
				}
				var err error
				if nd, err = p.step(d, a, depth+1); err != nil {
					return err
				}
				stepped[i][keys[i]] = nd
			}
			c.ds[i] = nd
		}
		// In δ mode the children are explored from the largest upper
		// bound down (a float estimate orders them; the bounds themselves
		// are exact and decide), so that a large gap is found early.
		if sr.deltaMode && !sr.noPrune {
			c.ups = make([]exact.Real, len(act))
			c.est = math.Inf(-1)
			for k, di := range act {
				if err := p.ctx.Err(); err != nil {
					return err
				}
				dir := p.dirs[di]
				if err := sr.spend(c.ds[dir[0]], c.ds[dir[1]]); err != nil {
					return err
				}
				A, B, err := p.upperParts(sr.cv, c.ds[dir[0]], c.ds[dir[1]])
				if err != nil {
					return err
				}
				c.ups[k] = sr.cv.real(A, B)
				c.est = math.Max(c.est, c.ups[k].Float())
			}
		}
		children = append(children, c)
	}
	sort.SliceStable(children, func(i, j int) bool { return children[i].est > children[j].est })
	for k := range children {
		c := &children[k]
		sr.seq = append(sr.seq, c.a)
		err := sr.node(depth+1, c.ds, act, c.ups)
		sr.seq = sr.seq[:len(sr.seq)-1]
		children[k] = child{}
		if err != nil {
			return err
		}
	}
	if tr != nil && tr.dom {
		sr.record(tr)
	}
	return nil
}

// spend adds the entries of the distributions ds to the work of the
// search, and stops it with a *LimitError beyond Options.MaxWork.
func (sr *search) spend(ds ...*dist) error {
	for _, d := range ds {
		sr.work += int64(d.size())
	}
	if sr.work <= sr.maxWork {
		return nil
	}
	max, seqs := exact.Thousands(sr.maxWork), exact.Thousands(sr.explored)+" action sequences"
	if sr.explored == 1 {
		seqs = "1 action sequence"
	}
	return &LimitError{Limit: "search work", at: "the limit of " + max + " distribution entries weighed",
		Msg: fmt.Sprintf("the search over query schedulers would weigh more than %s distribution entries (%s explored, at horizon %d); the limit is %s entries",
			max, seqs, sr.horizon, max)}
}

func (sr *search) names(seq []int) []string {
	out := make([]string, len(seq))
	for i, a := range seq {
		out[i] = sr.p.m.Actions[a]
	}
	return out
}
