// Package lump shrinks a chain exactly, by lumping bisimilar states.
//
// Lump computes the coarsest ordinary lumpable partition of a chain — the
// coarsest strong probabilistic bisimulation — that keeps apart what a
// statement observes, and returns the quotient chain: one state per block,
// whose row gives the exact probability of moving from any state of the
// block into each block. Two states are merged only when they have the same
// observation and, for every block, the same exact probability of moving
// into it; the probabilities of every path property over the observations
// (absorption in each output, traces of observed labels, dpCTL formulas
// over the observed atoms) are then the same from a state and from its
// block. Every input is kept alone in its block: inputs are what a
// statement compares.
//
// The partition is refined with a queue of splitter blocks, as Derisavi,
// Hermanns and Sanders do ("Optimal state-space lumping in Markov chains",
// 2003): the states with a transition into a splitter are grouped by their
// exact probability of entering it, and a block that splits sends all its
// parts but the largest to the queue, in O(m log n) rational additions and
// comparisons for n states and m transitions. Nothing is approximated.
//
// This package imports only package chain.
package lump

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"sort"

	"github.com/dpcheck/dpcheck/chain"
)

// Respect says what a lumping keeps apart, besides the inputs (each of
// which is always alone in its block).
type Respect struct {
	// Key gives what a statement observes of a state: states with
	// different keys are never merged. With Final it is read at absorbing
	// states only. Nil observes nothing.
	Key func(s int) string
	// Final keeps what an observer of final outputs (docs/semantics.md
	// §1.3) needs: an absorbing state is merged only with absorbing states
	// of the same key, so that the blocks of absorbing states are exactly
	// the quotient's absorbing states; and a state from which no absorbing
	// state can be reached (whose runs all end in ⊥∞) is kept alone, so that
	// no block of them becomes absorbing.
	Final bool
}

// Size is the size of a chain.
type Size struct {
	States, Transitions int
}

// Lumping is a chain lumped: its quotient and the map between the two.
type Lumping struct {
	// Quotient has one state per block, numbered in the order of the
	// blocks' first states; it is the chain itself when no two states
	// merge. A block is named after its first state (its
	// representative); its valuation keeps the variables every member has
	// with the same value, its labels those every member carries, so a
	// state alone in its block keeps all of its own. Its row gives the
	// exact probability of moving from any member into each block. Inputs
	// are the blocks of the chain's inputs.
	Quotient *chain.Chain
	// Block maps each state of the original chain to its block, a state
	// of Quotient.
	Block []int
	// Rep maps each block to its first (smallest) state.
	Rep []int
	// Before and After are the sizes of the original chain and of the
	// quotient.
	Before, After Size
}

// Members returns the states of block b, in increasing order.
func (l *Lumping) Members(b int) []int {
	var out []int
	for s, x := range l.Block {
		if x == b {
			out = append(out, s)
		}
	}
	return out
}

// Lump returns the quotient of c under the coarsest ordinary lumpable
// partition that keeps every input alone and respects r. It stops with
// ctx's error when ctx ends.
func Lump(ctx context.Context, c *chain.Chain, r Respect) (*Lumping, error) {
	block, err := Partition(ctx, c, r)
	if err != nil {
		return nil, err
	}
	n := c.NumStates()
	if n > 0 && block[n-1] == n-1 { // every state alone: c is its own quotient
		size := Size{n, c.NumTransitions()}
		return &Lumping{Quotient: c, Block: block, Rep: slices.Clone(block), Before: size, After: size}, nil
	}
	return quotient(ctx, c, block)
}

// Partition returns the coarsest ordinary lumpable partition of c that
// keeps every input alone and respects r, as a block number for every
// state; blocks are numbered in the order of their first states.
func Partition(ctx context.Context, c *chain.Chain, r Respect) ([]int, error) {
	class := initial(c, r)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if alone(class) { // nothing to refine
		for s := range class {
			class[s] = s
		}
		return class, nil
	}
	p := newRefiner(c, class)
	if err := p.refine(ctx); err != nil {
		return nil, err
	}
	return p.numbered(), nil
}

// initial returns the class of every state before refinement.
func initial(c *chain.Chain, r Respect) []int {
	n := c.NumStates()
	class := make([]int, n)
	var never []bool // states kept alone
	if r.Final {
		never = neverAbsorbed(c)
	}
	ids := map[string]int{}
	next := 0
	id := func(k string) int {
		x, ok := ids[k]
		if !ok {
			x = next
			next++
			ids[k] = x
		}
		return x
	}
	for s := range n {
		switch {
		case c.IsInput(s) || never != nil && never[s]:
			class[s] = next
			next++
		case r.Final && c.IsAbsorbing(s):
			k := ""
			if r.Key != nil {
				k = r.Key(s)
			}
			class[s] = id("a" + k)
		case r.Final:
			class[s] = id("t")
		case r.Key != nil:
			class[s] = id(r.Key(s))
		default:
			class[s] = id("")
		}
	}
	return class
}

// alone reports whether every state is alone in its class (classes are
// numbered densely from 0).
func alone(class []int) bool {
	most := -1
	for _, k := range class {
		most = max(most, k)
	}
	return most == len(class)-1
}

// neverAbsorbed returns the states from which no absorbing state can be
// reached.
func neverAbsorbed(c *chain.Chain) []bool {
	n := c.NumStates()
	reach := make([]bool, n)
	var stack []int
	for s := range n {
		if c.IsAbsorbing(s) {
			reach[s] = true
			stack = append(stack, s)
		}
	}
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, s := range c.Predecessors(t) {
			if !reach[s] {
				reach[s] = true
				stack = append(stack, s)
			}
		}
	}
	for s := range reach {
		reach[s] = !reach[s]
	}
	return reach
}

// refiner holds a partition being refined. The states of each block are
// contiguous in elems: block b is elems[start[b]:end[b]].
type refiner struct {
	c       *chain.Chain
	elems   []int32
	pos     []int32 // index of each state in elems
	blockOf []int32
	start   []int32
	end     []int32
	mid     []int32 // end of the states of a block touched by the splitter
	queued  []bool
	queue   []int32

	// predecessors with their probabilities: pred[predOff[t]:predOff[t+1]]
	predOff  []int32
	predFrom []int32
	predP    []*big.Rat

	// weight of each state into the current splitter (nil: none)
	w       []*big.Rat
	owned   []bool // w[s] is this refiner's and may be changed
	touched []int32
	blocks  []int32 // blocks touched by the current splitter
	members []int32
}

func newRefiner(c *chain.Chain, class []int) *refiner {
	n := c.NumStates()
	p := &refiner{c: c, pos: make([]int32, n), blockOf: make([]int32, n), w: make([]*big.Rat, n), owned: make([]bool, n)}
	// Blocks of the initial classes, in class order.
	nc := 0
	for _, k := range class {
		nc = max(nc, k+1)
	}
	count := make([]int32, nc)
	for _, k := range class {
		count[k]++
	}
	p.start = make([]int32, 0, nc)
	p.end = make([]int32, 0, nc)
	off := int32(0)
	for _, k := range count {
		p.start = append(p.start, off)
		p.end = append(p.end, off)
		off += k
	}
	p.elems = make([]int32, n)
	for s, k := range class {
		i := p.end[k]
		p.elems[i] = int32(s)
		p.pos[s] = i
		p.blockOf[s] = int32(k)
		p.end[k]++
	}
	p.mid = slices.Clone(p.start)
	p.queued = make([]bool, nc)
	// Every row sums to 1, so the partition is stable with respect to the
	// whole state space: the largest class need not be a splitter.
	largest := 0
	for k := range count {
		if count[k] > count[largest] {
			largest = k
		}
	}
	for k := range count {
		if k != largest {
			p.push(int32(k))
		}
	}
	// Predecessors with probabilities.
	p.predOff = make([]int32, n+1)
	for s := range n {
		to, _ := c.Row(s)
		for _, t := range to {
			p.predOff[t+1]++
		}
	}
	for t := range n {
		p.predOff[t+1] += p.predOff[t]
	}
	m := p.predOff[n]
	p.predFrom = make([]int32, m)
	p.predP = make([]*big.Rat, m)
	fill := slices.Clone(p.predOff[:n])
	for s := range n {
		to, pr := c.Row(s)
		for i, t := range to {
			p.predFrom[fill[t]] = int32(s)
			p.predP[fill[t]] = pr[i]
			fill[t]++
		}
	}
	return p
}

func (p *refiner) push(b int32) {
	if !p.queued[b] {
		p.queued[b] = true
		p.queue = append(p.queue, b)
	}
}

// refine splits blocks until the partition is stable with respect to
// every block. It looks at ctx every ctxWork predecessors or so.
func (p *refiner) refine(ctx context.Context) error {
	work := 0
	for len(p.queue) > 0 {
		if work >= ctxWork {
			work = 0
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		b := p.queue[len(p.queue)-1]
		p.queue = p.queue[:len(p.queue)-1]
		p.queued[b] = false
		w, err := p.split(ctx, b)
		if err != nil {
			return err
		}
		work += w + 1
	}
	return nil
}

// ctxWork is about how many predecessors refine weighs between looks at
// its context: a sum of big rationals each.
const ctxWork = 1 << 12

// split refines the partition with respect to the splitter block sp and
// returns the predecessors it weighed. States alone in their block are
// not weighed: they cannot split (the inputs are alone from the start).
func (p *refiner) split(ctx context.Context, sp int32) (int, error) {
	// The splitter's states, copied: splitting may reorder its own block.
	p.members = append(p.members[:0], p.elems[p.start[sp]:p.end[sp]]...)
	p.touched = p.touched[:0]
	work := 0
	for _, t := range p.members {
		for i := p.predOff[t]; i < p.predOff[t+1]; i++ {
			s, x := p.predFrom[i], p.predP[i]
			if b := p.blockOf[s]; p.end[b]-p.start[b] == 1 {
				continue
			}
			if work++; work%ctxWork == 0 {
				if err := ctx.Err(); err != nil {
					p.clear()
					return work, err
				}
			}
			switch {
			case p.w[s] == nil:
				p.w[s] = x
				p.touched = append(p.touched, s)
			case p.owned[s]:
				p.w[s].Add(p.w[s], x)
			default:
				p.w[s] = new(big.Rat).Add(p.w[s], x)
				p.owned[s] = true
			}
		}
	}
	// Move the touched states to the front of their blocks.
	p.blocks = p.blocks[:0]
	for _, s := range p.touched {
		b := p.blockOf[s]
		if p.mid[b] == p.start[b] {
			p.blocks = append(p.blocks, b)
		}
		i, j := p.pos[s], p.mid[b]
		t := p.elems[j]
		p.elems[i], p.elems[j] = t, s
		p.pos[t], p.pos[s] = i, j
		p.mid[b]++
	}
	for _, b := range p.blocks {
		p.splitBlock(b)
	}
	p.clear()
	return work, nil
}

// clear forgets the weights of the touched states.
func (p *refiner) clear() {
	for _, s := range p.touched {
		p.w[s], p.owned[s] = nil, false
	}
}

// splitBlock splits block b by the weights of its touched states (the
// untouched ones, at its end, have weight 0).
func (p *refiner) splitBlock(b int32) {
	lo, mid, hi := p.start[b], p.mid[b], p.end[b]
	p.mid[b] = lo
	touched := p.elems[lo:mid]
	if mid == hi && p.allEqual(touched) {
		return
	}
	sort.Slice(touched, func(i, j int) bool { return p.w[touched[i]].Cmp(p.w[touched[j]]) < 0 })
	// Parts: runs of equal weight, then the untouched states.
	var bounds []int32 // the end of each part
	for i := lo + 1; i <= mid; i++ {
		if i == mid || !p.equal(p.elems[i-1], p.elems[i]) {
			bounds = append(bounds, i)
		}
	}
	if mid < hi {
		bounds = append(bounds, hi)
	}
	if len(bounds) == 1 {
		return // one part: b did not split
	}
	for i := lo; i < mid; i++ {
		p.pos[p.elems[i]] = i
	}
	// The first part keeps b's number; the others get new ones.
	largest, size := b, bounds[0]-lo
	wasQueued := p.queued[b]
	p.end[b] = bounds[0]
	for k := 1; k < len(bounds); k++ {
		nb := int32(len(p.start))
		from, to := bounds[k-1], bounds[k]
		p.start = append(p.start, from)
		p.end = append(p.end, to)
		p.mid = append(p.mid, from)
		p.queued = append(p.queued, false)
		for _, s := range p.elems[from:to] {
			p.blockOf[s] = nb
		}
		if to-from > size {
			largest, size = nb, to-from
		}
		if wasQueued {
			p.push(nb)
		}
	}
	if wasQueued {
		return
	}
	// b was stable as a whole: every part but the largest is a splitter,
	// and stability with respect to the largest follows.
	p.pushUnless(b, largest)
	for k := int32(len(p.start)) - int32(len(bounds)) + 1; k < int32(len(p.start)); k++ {
		p.pushUnless(k, largest)
	}
}

func (p *refiner) pushUnless(b, skip int32) {
	if b != skip {
		p.push(b)
	}
}

func (p *refiner) equal(s, t int32) bool {
	x, y := p.w[s], p.w[t]
	return x == y || x.Cmp(y) == 0
}

func (p *refiner) allEqual(states []int32) bool {
	for _, s := range states[1:] {
		if !p.equal(states[0], s) {
			return false
		}
	}
	return true
}

// numbered returns the block of every state, blocks numbered in the order
// of their first states.
func (p *refiner) numbered() []int {
	n := len(p.blockOf)
	num := make([]int, len(p.start))
	for i := range num {
		num[i] = -1
	}
	out := make([]int, n)
	next := 0
	for s := range n {
		b := p.blockOf[s]
		if num[b] < 0 {
			num[b] = next
			next++
		}
		out[s] = num[b]
	}
	return out
}

// quotient builds the lumped chain of the partition block.
func quotient(ctx context.Context, c *chain.Chain, block []int) (*Lumping, error) {
	n := c.NumStates()
	nb := 0
	for _, b := range block {
		nb = max(nb, b+1)
	}
	rep := make([]int, nb)
	size := make([]int, nb)
	for i := range rep {
		rep[i] = -1
	}
	for s, b := range block {
		if rep[b] < 0 {
			rep[b] = s
		}
		size[b]++
	}
	vals := make([]chain.Valuation, nb)
	labels := make([][]string, nb)
	for b, s := range rep {
		vals[b] = slices.Clone(c.Valuation(s))
		labels[b] = slices.Clone(c.Labels(s))
	}
	// Keep what every member shares.
	for s, b := range block {
		if s == rep[b] || size[b] == 1 {
			continue
		}
		v := vals[b][:0]
		for _, x := range vals[b] {
			if y, ok := c.Value(s, x.Name); ok && y == x.Value {
				v = append(v, x)
			}
		}
		vals[b] = v
		l := labels[b][:0]
		for _, x := range labels[b] {
			if c.HasLabel(s, x) {
				l = append(l, x)
			}
		}
		labels[b] = l
	}
	sink, hasSink := c.Sink()
	sinkAlone := hasSink && size[block[sink]] == 1
	qb := chain.NewBuilder()
	for b, s := range rep {
		if sinkAlone && s == sink {
			continue // the builder makes the sink
		}
		qb.AddState(c.Name(s), vals[b], labels[b]...)
	}
	for b, s := range rep {
		if sinkAlone && s == sink {
			continue
		}
		to, pr := c.Row(s)
		for i, t := range to {
			if sinkAlone && t == sink {
				qb.SendRemainderToSink(b)
				continue
			}
			qb.AddTransition(b, block[t], pr[i])
		}
	}
	for _, s := range c.Inputs() {
		qb.MarkInput(block[s])
	}
	q, err := qb.BuildContext(ctx)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("lump: the quotient does not build: %w", err)
	}
	return &Lumping{
		Quotient: q, Block: block, Rep: rep,
		Before: Size{n, c.NumTransitions()},
		After:  Size{q.NumStates(), q.NumTransitions()},
	}, nil
}
