package mdp

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/dpcheck/dpcheck/verify"
)

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
	if _, k, ok := out.Traces(); ok {
		if k < 1 {
			return fmt.Errorf("mdp: traces need at least one step")
		}
		p.kind, p.k = kindTraces, k
		p.child = map[[2]int]int{}
		p.parent, p.label, p.tdepth = []int{-1}, []int{-1}, []int{0}
		ids := map[string]int{}
		p.obs = make([]int, fr.NumStates())
		for s := range p.obs {
			name := out.Observation(fr, s)
			id, ok := ids[name]
			if !ok {
				id = len(p.obsNames)
				ids[name] = id
				p.obsNames = append(p.obsNames, name)
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

// traceName displays the trace of trie node n.
func (p *problem) traceName(n int) string {
	var parts []string
	for ; n > 0; n = p.parent[n] {
		parts = append(parts, p.obsNames[p.label[n]])
	}
	slices.Reverse(parts)
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

// next returns what residual r becomes on arriving at state t: idTrue,
// idFalse, or the residual to check from t on.
func (p *problem) next(r, t int) int {
	switch {
	case !p.absorb[t]:
		return p.f.decide(r, t)
	case p.f.constant(r, t):
		return idTrue
	}
	return idFalse
}

// arrive puts mass x, carrying r (a residual for t, or a trace), at state t.
func (p *problem) arrive(d *dist, r, t int, x *big.Rat) {
	switch p.kind {
	case kindD:
		v := p.next(r, t)
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
