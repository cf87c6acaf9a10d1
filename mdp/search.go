package mdp

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"sort"
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
	enc  []byte // canonical encoding, once computed (see encode)

	openEnc []byte // split, once computed
	closed  map[[2]int32]*big.Rat
	openR   map[int32]bool
}

func (d *dist) liveMass() *big.Rat {
	x := new(big.Rat)
	for _, v := range d.live {
		x.Add(x, v)
	}
	return x
}

// encode returns the canonical encoding of d: its live keys and decided
// outcomes in order, with their exact masses. Equal encodings are equal
// distributions.
func (d *dist) encode() []byte {
	if d.enc != nil {
		return d.enc
	}
	ks := make([]key, 0, len(d.live))
	for k := range d.live {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool {
		if ks[i].r != ks[j].r {
			return ks[i].r < ks[j].r
		}
		return ks[i].s < ks[j].s
	})
	b := binary.AppendUvarint(nil, uint64(len(ks)))
	for _, k := range ks {
		b = binary.AppendUvarint(b, uint64(k.r))
		b = binary.AppendUvarint(b, uint64(k.s))
		b = appendRat(b, d.live[k])
	}
	os := make([]int, 0, len(d.done))
	for o := range d.done {
		os = append(os, o)
	}
	sort.Ints(os)
	b = binary.AppendUvarint(b, uint64(len(os)))
	for _, o := range os {
		b = binary.AppendUvarint(b, uint64(o))
		b = appendRat(b, d.done[o])
	}
	d.enc = b
	return b
}

// appendRat appends the non-negative x: its numerator and denominator,
// each preceded by its length.
func appendRat(b []byte, x *big.Rat) []byte {
	for _, n := range []*big.Int{x.Num(), x.Denom()} {
		w := n.Bytes()
		b = binary.AppendUvarint(b, uint64(len(w)))
		b = append(b, w...)
	}
	return b
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

	vals map[key][2]*big.Rat // kindD: Vmax and Vmin of a live key, once computed
	// valCalls counts the calls of values; valStop is set once the
	// context has ended during them.
	valCalls int
	valStop  bool

	pairCV *cval                  // kindD in δ mode: the c of pairG
	pairs  map[[2]key][2]*big.Rat // pairG, once computed
	// pairCalls counts the pairs pairG computes, to look at the context
	// every 64 of them.
	pairCalls int
	pairEst   map[[2]key]float64 // pairG in floats (ordering only)

	tdepth []int                             // kindTraces: the length of a trie node's trace
	conts  map[[2]int]map[string][2]*big.Rat // kindTraces: contVals, once computed
	contsN int                               // their entries in all
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
		p.parent, p.label, p.tdepth = []int{-1}, []int{-1}, []int{0}
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
			p.outNames = append(p.outNames, out.KeyName(fr.Name(s), sk))
		}
		p.outID[s] = id
	}
	return nil
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
	p.tdepth = append(p.tdepth, p.tdepth[node]+1)
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
func (p *problem) step(d *dist, a, depth int) (*dist, error) {
	nd := &dist{live: make(map[key]*big.Rat, len(d.live)), done: make(map[int]*big.Rat, len(d.done)+1)}
	for o, x := range d.done {
		nd.done[o] = x
	}
	t := new(big.Rat)
	n := 0
	for k, x := range d.live {
		if n++; n%ctxEntries == 0 && p.ctx != nil {
			if err := p.ctx.Err(); err != nil {
				return nil, err
			}
		}
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
	return nd, nil
}

// ctxEntries is how many entries of a distribution a step or a
// hockey-stick sum goes through between looks at the context (a trace's
// distribution may have a million).
const ctxEntries = 1 << 12

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
	err = hockey(p.ctx, cv, ds.done, dt.done, A, B)
	return A, B, err
}

// upperParts returns (A, B) with A − c·B an upper bound of the gap of
// direction (ds → dt) under every extension: the hockey-stick of the
// decided and the live parts (the same kernel continues both).
//
// For D the live keys are weighed by their extreme values (see values):
// a key contributes (a − c·b)·Vmax when a > c·b, (a − c·b)·Vmin otherwise,
// which is at most both max(0, a − c·b) (the hockey-stick of the live
// keys) and a·Vmax − c·b·Vmin.
func (p *problem) upperParts(cv *cval, ds, dt *dist) (A, B *big.Rat, err error) {
	A, B = new(big.Rat), new(big.Rat)
	if p.kind != kindD {
		if err = hockey(p.ctx, cv, ds.done, dt.done, A, B); err != nil {
			return nil, nil, err
		}
		err = hockey(p.ctx, cv, ds.live, dt.live, A, B)
		return A, B, err
	}
	A.Set(get(ds.done, 0))
	B.Set(get(dt.done, 0))
	t := new(big.Rat)
	for k, a := range ds.live {
		b := get(dt.live, k)
		hi, lo := p.values(k)
		v := lo
		if ok, err := cv.above(a, b); err != nil {
			return nil, nil, err
		} else if ok {
			v = hi
		}
		if v.Sign() == 0 {
			continue
		}
		A.Add(A, t.Mul(a, v))
		B.Add(B, t.Mul(b, v))
	}
	for k, b := range dt.live {
		if _, ok := ds.live[k]; ok {
			continue
		}
		if _, lo := p.values(k); lo.Sign() != 0 {
			B.Add(B, t.Mul(b, lo))
		}
	}
	return A, B, nil
}

// The bounds of the continuations kept for the traces' second bound:
// beyond them (many observations, long traces) only the hockey-stick of
// the live keys bounds the gap.
const (
	maxConts      = 1 << 10 // of one state
	maxContsTotal = 1 << 18 // in all
)

// contVals returns, for state s and L steps to go, every continuation w
// (the observations of the next L states, encoded) that some scheduler
// may produce from s, with the largest and the least probability of
// producing it, over the schedulers that pick an enabled choice or stay
// where an action is disabled (backward induction, exact); nil when
// there are too many.
func (p *problem) contVals(s, L int) map[string][2]*big.Rat {
	mk := [2]int{s, L}
	if v, ok := p.conts[mk]; ok {
		return v
	}
	if p.conts == nil {
		p.conts = map[[2]int]map[string][2]*big.Rat{}
	}
	if L == 0 {
		v := map[string][2]*big.Rat{"": {ratOne, ratOne}}
		p.conts[mk] = v
		return v
	}
	var opts []Choice
	if !p.absorb[s] {
		opts = p.m.Choices[s]
	}
	if len(opts) < len(p.m.Actions) {
		opts = append(opts[:len(opts):len(opts)], Choice{To: []int{s}, P: []*big.Rat{ratOne}})
	}
	var out map[string][2]*big.Rat
	t := new(big.Rat)
	for n, c := range opts {
		dist := map[string]*big.Rat{}
		for i, u := range c.To {
			sub := p.contVals(u, L-1)
			if sub == nil {
				p.conts[mk] = nil
				return nil
			}
			pre := string(binary.AppendUvarint(nil, uint64(p.obs[u])))
			for w, v := range sub {
				x := t.Mul(c.P[i], v[0])
				if old, ok := dist[pre+w]; ok {
					old.Add(old, x)
				} else {
					dist[pre+w] = new(big.Rat).Set(x)
				}
			}
		}
		// hi: the max over the options; lo: the min of the least values
		// (0 where an option cannot produce w).
		lo := map[string]*big.Rat{}
		for i, u := range c.To {
			pre := string(binary.AppendUvarint(nil, uint64(p.obs[u])))
			for w, v := range p.contVals(u, L-1) {
				x := t.Mul(c.P[i], v[1])
				if old, ok := lo[pre+w]; ok {
					old.Add(old, x)
				} else {
					lo[pre+w] = new(big.Rat).Set(x)
				}
			}
		}
		if n == 0 {
			out = map[string][2]*big.Rat{}
			for w, h := range dist {
				out[w] = [2]*big.Rat{h, lo[w]}
			}
			continue
		}
		for w, v := range out {
			h, l := v[0], v[1]
			if x, ok := dist[w]; ok && x.Cmp(h) > 0 {
				h = x
			}
			if x, ok := lo[w]; !ok {
				l = ratZero
			} else if x.Cmp(l) < 0 {
				l = x
			}
			out[w] = [2]*big.Rat{h, l}
		}
		for w, h := range dist {
			if _, ok := out[w]; !ok {
				out[w] = [2]*big.Rat{h, ratZero}
			}
		}
	}
	if len(out) > maxConts || p.contsN+len(out) > maxContsTotal {
		out = nil
	} else {
		p.contsN += len(out)
	}
	p.conts[mk] = out
	return out
}

// traceParts returns (A, B) with A − c·B an upper bound of the gap of
// direction (ds → dt) for traces, outcome by outcome: the outcome r·w of
// a trace r so far and a continuation w has at most Σ a(r, u)·max_w(u) of
// ds's mass and at least Σ b(r, v)·min_w(v) of dt's (contVals), so its
// term max(0, ·) of the hockey-stick is at most max(0, A_w − c·B_w).
// ok is false when the continuations are too many.
func (p *problem) traceParts(cv *cval, ds, dt *dist) (A, B *big.Rat, ok bool, err error) {
	A, B = new(big.Rat), new(big.Rat)
	if err := hockey(p.ctx, cv, ds.done, dt.done, A, B); err != nil {
		return nil, nil, false, err
	}
	type out struct {
		r int32
		w string
	}
	as, bs := map[out]*big.Rat{}, map[out]*big.Rat{}
	t := new(big.Rat)
	for _, side := range []struct {
		d  *dist
		m  map[out]*big.Rat
		hi bool
	}{{ds, as, true}, {dt, bs, false}} {
		for k, x := range side.d.live {
			cs := p.contVals(int(k.s), p.k-p.tdepth[k.r])
			if cs == nil {
				return nil, nil, false, nil
			}
			for w, v := range cs {
				f := v[1]
				if side.hi {
					f = v[0]
				}
				if f.Sign() == 0 {
					continue
				}
				o := out{k.r, w}
				if !side.hi {
					if _, ok := as[o]; !ok {
						continue
					}
				}
				if old, ok := side.m[o]; ok {
					old.Add(old, t.Mul(x, f))
				} else {
					side.m[o] = new(big.Rat).Mul(x, f)
				}
			}
		}
	}
	if err := hockey(p.ctx, cv, as, bs, A, B); err != nil {
		return nil, nil, false, err
	}
	return A, B, true, nil
}

// pairG returns (A, B) with A − c·B = G(k1, k2), the largest V(k1) −
// c·V(k2) over the schedulers that pick one action for both keys at every
// step (each state taking its choice for it, or staying where it is
// disabled), the action depending on the whole history: exact, by
// backward induction over pairs of keys, c = p.pairCV. A query scheduler
// is such a scheduler, so under every continuation of a prefix V(k1) −
// c·V(k2) ≤ G(k1, k2). Where a key is decided or unbounded its side is
// bounded alone (Vmax, Vmin).
func (p *problem) pairG(k1, k2 key) (A, B *big.Rat, err error) {
	mk := [2]key{k1, k2}
	if v, ok := p.pairs[mk]; ok {
		return v[0], v[1], nil
	}
	if p.pairs == nil {
		p.pairs = map[[2]key][2]*big.Rat{}
	}
	// A stopped computation returns before it remembers anything.
	if p.pairCalls++; p.pairCalls%64 == 0 && p.ctx != nil {
		if err := p.ctx.Err(); err != nil {
			return nil, nil, err
		}
	}
	if p.f.horizon(int(k1.r)) < 0 || p.f.horizon(int(k2.r)) < 0 {
		hi, _ := p.values(k1)
		_, lo := p.values(k2)
		p.pairs[mk] = [2]*big.Rat{hi, lo}
		return hi, lo, nil
	}
	// after returns the residual at u of residual r: idTrue, idFalse or
	// live.
	after := func(r, u int) int {
		if p.absorb[u] {
			if p.f.constant(r, u) {
				return idTrue
			}
			return idFalse
		}
		return p.f.decide(r, u)
	}
	move := func(s, a int) ([]int, []*big.Rat) {
		if !p.absorb[s] {
			if c := p.m.choice(s, a); c != nil {
				return c.To, c.P
			}
		}
		return []int{s}, []*big.Rat{ratOne}
	}
	seen := map[[2]int32]bool{}
	t := new(big.Rat)
	for a := range p.m.Actions {
		e := [2]int32{p.rowID(int(k1.s), a), p.rowID(int(k2.s), a)}
		if seen[e] {
			continue
		}
		seen[e] = true
		to1, p1 := move(int(k1.s), a)
		to2, p2 := move(int(k2.s), a)
		a1, b1 := new(big.Rat), new(big.Rat)
		for i, u1 := range to1 {
			v1 := after(int(k1.r), u1)
			for j, u2 := range to2 {
				v2 := after(int(k2.r), u2)
				var x, y *big.Rat // x − c·y
				switch {
				case v1 <= idTrue && v2 <= idTrue:
					x, y = ratZero, ratZero
					if v1 == idTrue {
						x = ratOne
					}
					if v2 == idTrue {
						y = ratOne
					}
				case v1 <= idTrue:
					x = ratZero
					if v1 == idTrue {
						x = ratOne
					}
					_, y = p.values(key{int32(v2), int32(u2)})
				case v2 <= idTrue:
					x, _ = p.values(key{int32(v1), int32(u1)})
					y = ratZero
					if v2 == idTrue {
						y = ratOne
					}
				default:
					if x, y, err = p.pairG(key{int32(v1), int32(u1)}, key{int32(v2), int32(u2)}); err != nil {
						return nil, nil, err
					}
				}
				w := new(big.Rat).Mul(p1[i], p2[j])
				a1.Add(a1, t.Mul(w, x))
				b1.Add(b1, t.Mul(w, y))
			}
		}
		if A != nil {
			c, err := p.pairCV.real(a1, b1).Cmp(p.pairCV.real(A, B))
			if err != nil {
				return nil, nil, err
			}
			if c <= 0 {
				continue
			}
		}
		A, B = a1, b1
	}
	p.pairs[mk] = [2]*big.Rat{A, B}
	return A, B, nil
}

// pairGreedy returns (A, B) with A − c·B an upper bound of the gap of
// direction (ds → dt) for D (c = p.pairCV): with a = ds's live masses and
// b = dt's, for a coupling π (masses at most a and b, as much in all as
// the smaller side) and the rest of a and b,
// Σ a·V − c·Σ b·V = Σ π(k1, k2)·(V(k1) − c·V(k2)) + the rest's terms
// ≤ Σ π·G(k1, k2) + Σ rest_a·Vmax − c·Σ rest_b·Vmin.
// The coupling is built greedily: the pairs of keys in increasing order of
// G (a float estimate orders them; every coupling gives a valid bound,
// computed exactly), each taking as much of both keys' remaining masses
// as it can.
func (p *problem) pairGreedy(ds, dt *dist) (A, B *big.Rat, err error) {
	A, B = new(big.Rat).Set(get(ds.done, 0)), new(big.Rat).Set(get(dt.done, 0))
	type pr struct {
		k1, k2 key
		x, y   *big.Rat
		est    float64
	}
	c := math.Exp(p.pairCV.e.Float())
	var prs []pr
	for k1 := range ds.live {
		for k2 := range dt.live {
			x, y, err := p.pairG(k1, k2)
			if err != nil {
				return nil, nil, err
			}
			mk := [2]key{k1, k2}
			est, ok := p.pairEst[mk]
			if !ok {
				if p.pairEst == nil {
					p.pairEst = map[[2]key]float64{}
				}
				est = exact.RatFloat(x) - c*exact.RatFloat(y)
				p.pairEst[mk] = est
			}
			prs = append(prs, pr{k1, k2, x, y, est})
		}
	}
	sort.Slice(prs, func(i, j int) bool {
		if prs[i].est != prs[j].est {
			return prs[i].est < prs[j].est
		}
		if prs[i].k1 != prs[j].k1 {
			return prs[i].k1.r < prs[j].k1.r || prs[i].k1.r == prs[j].k1.r && prs[i].k1.s < prs[j].k1.s
		}
		return prs[i].k2.r < prs[j].k2.r || prs[i].k2.r == prs[j].k2.r && prs[i].k2.s < prs[j].k2.s
	})
	ra, rb := map[key]*big.Rat{}, map[key]*big.Rat{}
	for k, x := range ds.live {
		ra[k] = new(big.Rat).Set(x)
	}
	for k, x := range dt.live {
		rb[k] = new(big.Rat).Set(x)
	}
	t := new(big.Rat)
	for _, q := range prs {
		a, b := ra[q.k1], rb[q.k2]
		if a.Sign() == 0 || b.Sign() == 0 {
			continue
		}
		m := a
		if b.Cmp(a) < 0 {
			m = b
		}
		m = new(big.Rat).Set(m)
		A.Add(A, t.Mul(m, q.x))
		B.Add(B, t.Mul(m, q.y))
		a.Sub(a, m)
		b.Sub(b, m)
	}
	for k1, a := range ra {
		if a.Sign() > 0 {
			hi, _ := p.values(k1)
			A.Add(A, t.Mul(a, hi))
		}
	}
	for k2, b := range rb {
		if b.Sign() > 0 {
			_, lo := p.values(k2)
			B.Add(B, t.Mul(b, lo))
		}
	}
	return A, B, nil
}

// lowerTerms and upperTerms give the same bounds as terms for solveC:
// Σ max(0, a − c·b) over the terms plus A0 − c·B0.
func (p *problem) lowerTerms(ds, dt *dist) ([]term, *big.Rat) {
	return doneTerms(ds, dt), dt.liveMass()
}

func (p *problem) upperTerms(ds, dt *dist) (ts []term, A0, B0 *big.Rat) {
	A0, B0 = new(big.Rat), new(big.Rat)
	if p.kind != kindD {
		ts = doneTerms(ds, dt)
		for k, a := range ds.live {
			ts = append(ts, term{a, get(dt.live, k)})
		}
		return ts, A0, B0
	}
	// (a − c·b)·(Vmax if positive, else Vmin) = Vmin·(a − c·b) +
	// max(0, (Vmax − Vmin)·(a − c·b)).
	A0.Set(get(ds.done, 0))
	B0.Set(get(dt.done, 0))
	t := new(big.Rat)
	for k, a := range ds.live {
		b := get(dt.live, k)
		hi, lo := p.values(k)
		A0.Add(A0, t.Mul(a, lo))
		B0.Add(B0, t.Mul(b, lo))
		w := new(big.Rat).Sub(hi, lo)
		if w.Sign() > 0 {
			ts = append(ts, term{new(big.Rat).Mul(a, w), new(big.Rat).Mul(b, w)})
		}
	}
	for k, b := range dt.live {
		if _, ok := ds.live[k]; ok {
			continue
		}
		_, lo := p.values(k)
		B0.Add(B0, t.Mul(b, lo))
	}
	return ts, A0, B0
}

// values returns Vmax and Vmin of live key k (kindD): the largest and the
// least probability, over every scheduler that picks an enabled choice or
// stays where an action is disabled, that the residual k.r holds from the
// state k.s on (k.r is checked from the next state). They are exact, by
// backward induction over (residual, state), the residual's horizon
// dropping by one at every step; an unbounded residual gets the trivial 1
// and 0. They do not depend on the prefix and are computed once per key.
func (p *problem) values(k key) (hi, lo *big.Rat) {
	if v, ok := p.vals[k]; ok {
		return v[0], v[1]
	}
	if p.vals == nil {
		p.vals = map[key][2]*big.Rat{}
	}
	// The recursion is as deep as ψ's horizon and may take long: when the
	// context ends, 1 and 0 are returned (bounds that always hold, not
	// remembered) and the search, which checks the context, stops.
	if p.valCalls++; p.valCalls%1024 == 0 && p.ctx != nil && p.ctx.Err() != nil {
		p.valStop = true
	}
	if p.valStop {
		return ratOne, ratZero
	}
	r, s := int(k.r), int(k.s)
	if p.f.horizon(r) < 0 {
		hi, lo = ratOne, ratZero
		p.vals[k] = [2]*big.Rat{hi, lo}
		return hi, lo
	}
	// w returns the values of arriving at u with residual r.
	w := func(u int) (*big.Rat, *big.Rat) {
		var v int
		if p.absorb[u] {
			v = idFalse
			if p.f.constant(r, u) {
				v = idTrue
			}
		} else {
			v = p.f.decide(r, u)
		}
		switch v {
		case idFalse:
			return ratZero, ratZero
		case idTrue:
			return ratOne, ratOne
		}
		return p.values(key{int32(v), int32(u)})
	}
	opt := func(h, l *big.Rat) {
		if hi == nil || h.Cmp(hi) > 0 {
			hi = h
		}
		if lo == nil || l.Cmp(lo) < 0 {
			lo = l
		}
	}
	var cs []Choice
	if !p.absorb[s] {
		cs = p.m.Choices[s]
	}
	t := new(big.Rat)
	for _, c := range cs {
		h, l := new(big.Rat), new(big.Rat)
		for i, u := range c.To {
			wh, wl := w(u)
			if p.valStop {
				return ratOne, ratZero
			}
			h.Add(h, t.Mul(c.P[i], wh))
			l.Add(l, t.Mul(c.P[i], wl))
		}
		opt(h, l)
	}
	if len(cs) < len(p.m.Actions) { // some action is disabled: waiting
		opt(w(s))
	}
	if p.valStop {
		return ratOne, ratZero
	}
	p.vals[k] = [2]*big.Rat{hi, lo}
	return hi, lo
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

// The bounds of the transposition table: beyond them no node is added
// (those already in it are still found).
const (
	maxTableEntries = 1 << 20
	maxTableBytes   = 64 << 20
)

// ttEntry is what the transposition table keeps of a node: the directions
// explored from it (a bit per direction) and, when the closed part is left
// out of the key (see tkey), for each such direction an upper bound on
// the open part of the gap of every extension.
type ttEntry struct {
	done uint64
	u    []exact.Real
}

// split returns d's open part, encoded, and its closed part: for D the
// open part is the live mass and the closed part the mass where ψ is
// decided; for traces the closed part is the mass at absorbing states
// whose trace no live non-absorbing state of d shares (its whole trace is
// known: the trace so far, then the state's observation until the end),
// by (trace so far, observation), and the open part is the rest.
func (p *problem) split(d *dist) (open []byte, closed map[[2]int32]*big.Rat, openR map[int32]bool) {
	if d.openEnc != nil {
		return d.openEnc, d.closed, d.openR
	}
	live := d.live
	closed = map[[2]int32]*big.Rat{}
	if p.kind == kindTraces {
		openR = map[int32]bool{}
		for k := range d.live {
			if !p.absorb[k.s] {
				openR[k.r] = true
			}
		}
		live = map[key]*big.Rat{}
		for k, x := range d.live {
			if !p.absorb[k.s] || openR[k.r] {
				live[k] = x
				continue
			}
			g := [2]int32{k.r, int32(p.obs[k.s])}
			if old, ok := closed[g]; ok {
				closed[g] = new(big.Rat).Add(old, x)
			} else {
				closed[g] = x
			}
		}
	}
	open = (&dist{live: live}).encode()
	d.openEnc, d.closed, d.openR = open, closed, openR
	return open, closed, openR
}

// tkey returns the key of the node in the transposition table. When
// dominance holds (δ mode, a bounded search, D or traces), the key holds
// the depth and every input's open part, and the gap of every extension
// is the closed value of the node (closedValue) plus an open part that
// depends on the key alone; otherwise it holds the depth and every
// input's whole distribution. ok is false when the node is not to be
// looked up (traces whose closed part another input may still reach).
func (sr *search) tkey(depth int, ds []*dist) (k string, dom, ok bool) {
	p := sr.p
	dom = sr.deltaMode && !sr.everyGap && (p.kind == kindD || p.kind == kindTraces)
	b := []byte{0}
	if dom {
		b[0] = 1
	}
	b = binary.AppendUvarint(b, uint64(depth))
	for i, d := range ds {
		if d == nil {
			b = append(b, 0)
			continue
		}
		e := d.encode()
		if dom {
			var closed map[[2]int32]*big.Rat
			e, closed, _ = p.split(d)
			for g := range closed {
				for j, d2 := range ds {
					if j == i || d2 == nil {
						continue
					}
					if _, _, openR := p.split(d2); openR[g[0]] {
						return "", false, false
					}
				}
			}
		}
		b = append(b, 1)
		b = binary.AppendUvarint(b, uint64(len(e)))
		b = append(b, e...)
	}
	return string(b), dom, true
}

// closedValue returns the closed part of the gap of direction di at the
// node (dominance mode): for D, sat_s − c·sat_t; for traces, the
// hockey-stick of the closed outcomes.
func (sr *search) closedValue(di int, ds []*dist) (exact.Real, error) {
	p := sr.p
	d1, d2 := ds[p.dirs[di][0]], ds[p.dirs[di][1]]
	if p.kind == kindD {
		return sr.cv.real(get(d1.done, 0), get(d2.done, 0)), nil
	}
	_, c1, _ := p.split(d1)
	_, c2, _ := p.split(d2)
	A, B := new(big.Rat), new(big.Rat)
	if err := hockey(sr.p.ctx, sr.cv, c1, c2, A, B); err != nil {
		return exact.Real{}, err
	}
	return sr.cv.real(A, B), nil
}

// note raises track[di] to v.
func (sr *search) note(di int, v exact.Real) error {
	if t := sr.track[di]; t != nil {
		if c, err := v.Cmp(*t); err != nil || c <= 0 {
			return err
		}
	}
	sr.track[di] = &v
	return nil
}

// transposition is the lookup of one node.
type transposition struct {
	key   string
	dom   bool
	fs    []exact.Real // dominance: the closed values of the directions
	acts  []int
	outer []*exact.Real // dominance: track before the node
}

// transpose looks the node up in the transposition table and returns the
// directions of act still to explore. Two nodes of the same depth with
// equal distributions have the same extensions with the same gaps: a
// direction already explored from an equal node is not explored again.
// With dominance, the open parts alone are compared: a direction is not
// explored again when its closed value plus the bound kept for the open
// part cannot beat the best gap found. The lookup is recorded by record.
func (sr *search) transpose(depth int, ds []*dist, act []int) ([]int, *transposition, error) {
	if sr.noTranspose || len(sr.p.dirs) > 64 {
		return act, nil, nil
	}
	k, dom, ok := sr.tkey(depth, ds)
	if !ok {
		return act, nil, nil
	}
	e := sr.table[k]
	tr := &transposition{key: k, dom: dom}
	var rest []int
	for _, di := range act {
		var f exact.Real
		if dom {
			var err error
			if f, err = sr.closedValue(di, ds); err != nil {
				return nil, nil, err
			}
		}
		if e != nil && e.done&(1<<di) != 0 {
			if !dom {
				continue
			}
			if sr.have {
				c, err := f.Cmp(sr.best.Sub(e.u[di]))
				if err != nil {
					return nil, nil, err
				}
				if c <= 0 {
					// Every extension's gap is at most f + u.
					if sr.track != nil {
						neg := exact.RatReal(new(big.Rat)).Sub(e.u[di])
						if err := sr.note(di, f.Sub(neg)); err != nil {
							return nil, nil, err
						}
					}
					continue
				}
			}
		}
		rest = append(rest, di)
		tr.fs = append(tr.fs, f)
	}
	tr.acts = rest
	if !dom && len(rest) > 0 {
		sr.record(tr)
	}
	if dom && len(rest) > 0 {
		if sr.track == nil {
			sr.track = make([]*exact.Real, len(sr.p.dirs))
		}
		tr.outer = append([]*exact.Real(nil), sr.track...)
		for _, di := range rest {
			sr.track[di] = nil
		}
	}
	return rest, tr, nil
}

// record adds what the exploration of a node taught to the table (after
// it, with dominance: every extension's gap is then at most the best gap
// found, unless a prefix was cut at the horizon).
func (sr *search) record(tr *transposition) {
	if tr.dom {
		// Merge the node's bounds into the enclosing node's.
		inner := sr.track
		defer func() {
			sr.track = tr.outer
			for _, di := range tr.acts {
				if inner[di] != nil {
					_ = sr.note(di, *inner[di])
				}
			}
		}()
	}
	if tr.dom && (!sr.have || sr.cut) {
		return
	}
	e := sr.table[tr.key]
	if e == nil {
		if len(sr.table) >= maxTableEntries || sr.tableBytes+len(tr.key) > maxTableBytes {
			return
		}
		sr.tableBytes += len(tr.key)
		e = &ttEntry{}
		if tr.dom {
			e.u = make([]exact.Real, len(sr.p.dirs))
		}
		sr.table[tr.key] = e
	}
	for i, di := range tr.acts {
		if tr.dom {
			u := sr.best.Sub(tr.fs[i])
			if t := sr.track[di]; t != nil {
				u = t.Sub(tr.fs[i]) // at most best − f
			}
			if e.done&(1<<di) != 0 {
				if c, err := u.Cmp(e.u[di]); err != nil || c >= 0 {
					continue
				}
			}
			e.u[di] = u
		}
		e.done |= 1 << di
	}
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
	cv := ratC(ratOne)
	if sr.bestC != nil {
		cv = ratC(sr.bestC)
	}
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
			cv = ratC(ratOne)
			if sr.bestC != nil {
				cv = ratC(sr.bestC)
			}
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

// size is the number of entries of d: its live keys and decided outcomes.
func (d *dist) size() int { return len(d.live) + len(d.done) }

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

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
