package mdp

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/big"
	"strings"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/verify"
)

// kind is what a search observes.
type kind int

const (
	kindD      kind = iota // Pr(ψ): the mass that satisfies ψ
	kindFinal              // final outputs: the mass absorbed per output
	kindTraces             // traces of observed labels
)

// key is undecided mass: a residual formula (kindD) or a trace (kindTraces)
// together with a state.
type key struct{ r, s int32 }

// dist is where the mass of one input is after a prefix: undecided (live)
// or decided per outcome (kindD: outcome 0 is "ψ holds"; kindFinal: the
// output; kindTraces: the trace, at the horizon). Its values are shared
// and never modified.
type dist struct {
	live map[key]*big.Rat
	done map[int]*big.Rat
}

func (d *dist) liveMass() *big.Rat {
	x := new(big.Rat)
	for _, v := range d.live {
		x.Add(x, v)
	}
	return x
}

// problem is a query-scheduler question: the MDP, what is observed, the
// inputs and the ordered pairs (directions) over them.
type problem struct {
	ctx    context.Context
	m      *MDP
	kind   kind
	absorb []bool

	f   *forms // kindD
	psi int

	outID    []int // kindFinal: the output of an absorbing state
	outNames []string

	obs      []int // kindTraces: the observation of a state
	obsNames []string
	k        int
	child    map[[2]int]int
	parent   []int
	label    []int

	inputs []int
	dirs   [][2]int // indices into inputs

	rows   map[string]int32 // distinct moves, by content
	rowIDs [][]int32        // per state and action, once computed
}

// rowID identifies how state s moves under action a: equal for equal
// distributions (staying is the self-loop).
func (p *problem) rowID(s, a int) int32 {
	if p.rowIDs == nil {
		p.rowIDs = make([][]int32, p.m.NumStates())
		p.rows = map[string]int32{}
	}
	if p.rowIDs[s] == nil {
		ids := make([]int32, len(p.m.Actions))
		for b := range ids {
			var sb strings.Builder
			c := p.m.choice(s, b)
			if p.absorb[s] || c == nil {
				fmt.Fprintf(&sb, "%d:1", s)
			} else {
				for i, t := range c.To {
					fmt.Fprintf(&sb, "%d:%s,", t, c.P[i].RatString())
				}
				if len(c.To) == 1 && c.To[0] == s {
					sb.Reset()
					fmt.Fprintf(&sb, "%d:1", s)
				}
			}
			k := sb.String()
			id, ok := p.rows[k]
			if !ok {
				id = int32(len(p.rows))
				p.rows[k] = id
			}
			ids[b] = id
		}
		p.rowIDs[s] = ids
	}
	return p.rowIDs[s][a]
}

func newProblem(ctx context.Context, m *MDP, pairs [][2]int) (*problem, error) {
	if m == nil {
		return nil, fmt.Errorf("mdp: no MDP")
	}
	n := m.NumStates()
	p := &problem{ctx: ctx, m: m, absorb: make([]bool, n)}
	for s := range n {
		p.absorb[s] = m.IsAbsorbing(s)
	}
	idx := map[int]int{}
	in := func(s int) int {
		if i, ok := idx[s]; ok {
			return i
		}
		idx[s] = len(p.inputs)
		p.inputs = append(p.inputs, s)
		return idx[s]
	}
	if len(pairs) == 0 {
		return nil, fmt.Errorf("mdp: no neighbouring pair of inputs")
	}
	for _, pr := range pairs {
		for _, s := range pr {
			if s < 0 || s >= n {
				return nil, fmt.Errorf("mdp: the pair (%d, %d) names a state out of range (%d states)", pr[0], pr[1], n)
			}
		}
		a, b := in(pr[0]), in(pr[1])
		p.dirs = append(p.dirs, [2]int{a, b}, [2]int{b, a})
	}
	return p, nil
}

func (p *problem) setFormula(path *verify.Formula) error {
	p.kind = kindD
	p.f = newForms(p.m)
	id, err := p.f.convert(p.ctx, path)
	if err != nil {
		return err
	}
	p.psi = id
	return nil
}

func (p *problem) setOutput(out verify.Output) error {
	fr := p.m.Frame
	if labels, k, ok := out.Traces(); ok {
		if k < 1 {
			return fmt.Errorf("mdp: traces need at least one step")
		}
		p.kind, p.k = kindTraces, k
		p.child = map[[2]int]int{}
		p.parent, p.label = []int{-1}, []int{-1}
		ids := map[string]int{}
		p.obs = make([]int, fr.NumStates())
		for s := range p.obs {
			sk := out.StateKey(fr, s)
			id, ok := ids[sk]
			if !ok {
				id = len(p.obsNames)
				ids[sk] = id
				var held []string
				for _, l := range labels {
					if fr.HasLabel(s, l) {
						held = append(held, traceLabel(l))
					}
				}
				switch len(held) {
				case 0:
					p.obsNames = append(p.obsNames, "·")
				case 1:
					p.obsNames = append(p.obsNames, held[0])
				default:
					p.obsNames = append(p.obsNames, "{"+strings.Join(held, ", ")+"}")
				}
			}
			p.obs[s] = id
		}
		return nil
	}
	p.kind = kindFinal
	ids := map[string]int{}
	p.outID = make([]int, fr.NumStates())
	for s := range p.outID {
		p.outID[s] = -1
		if !p.absorb[s] {
			continue
		}
		sk := out.StateKey(fr, s)
		id, ok := ids[sk]
		if !ok {
			id = len(p.outNames)
			ids[sk] = id
			p.outNames = append(p.outNames, outputName(fr.Name(s), sk))
		}
		p.outID[s] = id
	}
	return nil
}

// outputName displays a final output from its key.
func outputName(state, sk string) string {
	if sk == "" {
		return state
	}
	switch sk[0] {
	case 's':
		return state
	case 'v':
		return sk[1:]
	case 'u':
		return "(" + strings.ReplaceAll(sk[1:], "\x00", ", ") + ")"
	case 'l':
		return "{" + strings.ReplaceAll(sk[1:], "\x00", ", ") + "}"
	}
	return sk
}

func traceLabel(l string) string {
	if l == "·" || l == "" || strings.ContainsAny(l, "{}, \"") {
		return fmt.Sprintf("%q", l)
	}
	return l
}

// traceName displays the trace of trie node n.
func (p *problem) traceName(n int) string {
	var parts []string
	for ; n > 0; n = p.parent[n] {
		parts = append(parts, p.obsNames[p.label[n]])
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, " ")
}

func (p *problem) extend(node, o int) int {
	e := [2]int{node, o}
	if n, ok := p.child[e]; ok {
		return n
	}
	n := len(p.parent)
	p.child[e] = n
	p.parent = append(p.parent, node)
	p.label = append(p.label, o)
	return n
}

// arrive puts mass x, carrying r (a residual for t, or a trace), at state t.
func (p *problem) arrive(d *dist, r, t int, x *big.Rat) {
	switch p.kind {
	case kindD:
		var v int
		if p.absorb[t] {
			v = idFalse
			if p.f.constant(r, t) {
				v = idTrue
			}
		} else {
			v = p.f.decide(r, t)
		}
		switch v {
		case idFalse:
			return
		case idTrue:
			addDone(d, 0, x)
			return
		}
		addLive(d, key{int32(v), int32(t)}, x)
	case kindFinal:
		if p.absorb[t] {
			addDone(d, p.outID[t], x)
			return
		}
		addLive(d, key{0, int32(t)}, x)
	case kindTraces:
		addLive(d, key{int32(r), int32(t)}, x)
	}
}

func addDone(d *dist, o int, x *big.Rat) {
	if old, ok := d.done[o]; ok {
		d.done[o] = new(big.Rat).Add(old, x)
	} else {
		d.done[o] = x
	}
}

// addLive adds x to a live key; live values belong to the dist being
// built, which may change them until it is complete.
func addLive(d *dist, k key, x *big.Rat) {
	if old, ok := d.live[k]; ok {
		old.Add(old, x)
	} else {
		d.live[k] = new(big.Rat).Set(x)
	}
}

// start is the distribution of input s before any step.
func (p *problem) start(s int) *dist {
	d := &dist{live: map[key]*big.Rat{}, done: map[int]*big.Rat{}}
	switch p.kind {
	case kindD:
		p.arrive(d, p.psi, s, ratOne)
	case kindFinal:
		p.arrive(d, 0, s, ratOne)
	case kindTraces:
		addLive(d, key{0, int32(s)}, ratOne)
	}
	return d
}

// step applies action a to d: a state takes its choice for a, a state
// that does not enable a stays. depth is the number of steps after it.
func (p *problem) step(d *dist, a, depth int) *dist {
	nd := &dist{live: make(map[key]*big.Rat, len(d.live)), done: make(map[int]*big.Rat, len(d.done)+1)}
	for o, x := range d.done {
		nd.done[o] = x
	}
	t := new(big.Rat)
	for k, x := range d.live {
		s := int(k.s)
		var c *Choice
		if !p.absorb[s] {
			c = p.m.choice(s, a)
		}
		if c == nil {
			p.move(nd, k, s, x)
			continue
		}
		for i, u := range c.To {
			p.move(nd, k, u, t.Mul(x, c.P[i]))
		}
	}
	if p.kind == kindTraces && depth == p.k {
		for k, x := range nd.live {
			addDone(nd, int(k.r), x)
		}
		nd.live = map[key]*big.Rat{}
	}
	return nd
}

func (p *problem) move(nd *dist, k key, u int, x *big.Rat) {
	if p.kind == kindTraces {
		addLive(nd, key{int32(p.extend(int(k.r), p.obs[u])), int32(u)}, x)
		return
	}
	p.arrive(nd, int(k.r), u, new(big.Rat).Set(x))
}

// outcomeName displays outcome o.
func (p *problem) outcomeName(o int) string {
	switch p.kind {
	case kindFinal:
		return p.outNames[o]
	case kindTraces:
		return p.traceName(o)
	}
	return "ψ"
}

// lowerParts returns (A, B) with A − c·B a lower bound of the gap of
// direction (ds → dt) under every extension of the prefix: the decided
// mass of s against all of t's mass that may still join it.
func (p *problem) lowerParts(cv *cval, ds, dt *dist) (A, B *big.Rat, err error) {
	A, B = new(big.Rat), dt.liveMass()
	if p.kind == kindD {
		A.Set(get(ds.done, 0))
		B.Add(B, get(dt.done, 0))
		return A, B, nil
	}
	err = hockey(cv, ds.done, dt.done, A, B)
	return A, B, err
}

// upperParts returns (A, B) with A − c·B an upper bound of the gap of
// direction (ds → dt) under every extension: the hockey-stick of the
// decided and the live parts (the same kernel continues both).
func (p *problem) upperParts(cv *cval, ds, dt *dist) (A, B *big.Rat, err error) {
	A, B = new(big.Rat), new(big.Rat)
	if p.kind == kindD {
		A.Set(get(ds.done, 0))
		B.Set(get(dt.done, 0))
	} else if err = hockey(cv, ds.done, dt.done, A, B); err != nil {
		return nil, nil, err
	}
	err = hockey(cv, ds.live, dt.live, A, B)
	return A, B, err
}

// lowerTerms and upperTerms give the same bounds as terms for solveC.
func (p *problem) lowerTerms(ds, dt *dist) ([]term, *big.Rat) {
	return doneTerms(ds, dt), dt.liveMass()
}

func (p *problem) upperTerms(ds, dt *dist) []term {
	ts := doneTerms(ds, dt)
	for k, a := range ds.live {
		ts = append(ts, term{a, get(dt.live, k)})
	}
	return ts
}

func doneTerms(ds, dt *dist) []term {
	var ts []term
	for o, a := range ds.done {
		ts = append(ts, term{a, get(dt.done, o)})
	}
	return ts
}

// search explores action sequences depth first.
type search struct {
	p        *problem
	horizon  int
	limit    int64
	noPrune  bool
	everyGap bool // a proven lower bound at every prefix (ψ unbounded, final outputs)

	deltaMode bool
	cv        *cval    // δ mode: c = e^ε
	delta     *big.Rat // ε mode

	explored, pruned int64

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
	lim := o.MaxSequences
	if lim <= 0 {
		lim = DefaultMaxSequences
	}
	return &search{p: p, limit: lim, noPrune: o.noPrune}
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
		case sr.bestC == nil && c.Cmp(ratOne) <= 0, sr.bestC != nil && c.Cmp(sr.bestC) <= 0:
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
	sortStrings(ev)
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
		c, err := sr.cv.real(A, B).Cmp(sr.best)
		return c > 0, err
	}
	if sr.bestInf {
		return false, nil
	}
	cv := ratC(ratOne)
	if sr.bestC != nil {
		cv = ratC(sr.bestC)
	}
	A, B, err := p.upperParts(cv, d1, d2)
	if err != nil {
		return false, err
	}
	v := new(big.Rat).Sub(A, new(big.Rat).Mul(cv.c, B))
	return v.Cmp(sr.delta) > 0, nil
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
	c, inf := solveC(p.upperTerms(d1, d2), new(big.Rat), sr.delta)
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
	best := ratOne
	if sr.bestC != nil {
		best = sr.bestC
	}
	return sr.cutC.Cmp(best) <= 0, nil
}

// run searches every sequence of the horizon.
func (sr *search) run(horizon int) error {
	if err := sr.p.ctx.Err(); err != nil {
		return err
	}
	sr.horizon = horizon
	sr.cut, sr.cutC, sr.cutInf = false, nil, false
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
	return sr.node(0, ds, active)
}

func (sr *search) node(depth int, ds []*dist, active []int) error {
	p := sr.p
	terminal := true
	for _, di := range active {
		for _, i := range p.dirs[di] {
			if len(ds[i].live) > 0 {
				terminal = false
			}
		}
	}
	if terminal || sr.everyGap {
		for _, di := range active {
			if err := sr.consider(di, ds); err != nil {
				return err
			}
		}
	}
	if terminal {
		return nil
	}
	var act []int
	for _, di := range active {
		ok, err := sr.promising(di, ds)
		if err != nil {
			return err
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
			if err := sr.cutAt(di, ds); err != nil {
				return err
			}
		}
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
	effects := map[string]bool{}
	var eb []byte
	for a := range p.m.Actions {
		eb = eb[:0]
		for _, ss := range states {
			for _, s := range ss {
				eb = binary.AppendUvarint(eb, uint64(p.rowID(s, a)))
			}
			eb = append(eb, 0xff)
		}
		if effects[string(eb)] {
			continue
		}
		effects[string(eb)] = true
		sr.explored++
		if sr.explored > sr.limit {
			return &LimitError{Msg: fmt.Sprintf("mdp: more than %s action sequences to explore (the limit MaxSequences) at horizon %d", exact.Thousands(sr.limit), sr.horizon)}
		}
		if sr.explored&63 == 0 {
			if err := p.ctx.Err(); err != nil {
				return err
			}
		}
		child := make([]*dist, len(ds))
		for i, d := range ds {
			if need[i] {
				child[i] = p.step(d, a, depth+1)
			}
		}
		sr.seq = append(sr.seq, a)
		err := sr.node(depth+1, child, act)
		sr.seq = sr.seq[:len(sr.seq)-1]
		if err != nil {
			return err
		}
	}
	return nil
}

func (sr *search) names(seq []int) []string {
	out := make([]string, len(seq))
	for i, a := range seq {
		out[i] = sr.p.m.Actions[a]
	}
	return out
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
