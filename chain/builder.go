package chain

import (
	"context"
	"fmt"
	"math/big"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
)

// Builder assembles a Chain. Add states, transitions and inputs in any order,
// then call Build, which validates everything and reports every error at
// once. Transition targets may be given by ID or by name; a name may refer to
// a state added later.
//
// The Builder takes ownership of the *big.Rat values passed to it: the same
// value may be used for several transitions (builders share them to save
// memory), but it must not be modified after it has been added.
//
// Builder methods never panic on bad data; errors are reported by Build.
type Builder struct {
	names   []string
	index   map[string]int
	vals    []Valuation
	labels  [][]string
	to      [][]int // target IDs; a negative value -k-1 refers to pending[k]
	p       [][]*big.Rat
	rem     []bool
	inputs  []int
	pending []string // target names not yet resolved
	errs    ErrorList
	// declared are labels the chain has though no state may carry them.
	declared []string
}

// DeclareLabel makes name a label of the chain even if no state carries
// it (a model's label whose condition holds nowhere): formulas may name
// it, and it holds at no state.
func (b *Builder) DeclareLabel(name string) { b.declared = append(b.declared, name) }

// NewBuilder returns an empty Builder.
func NewBuilder() *Builder {
	return &Builder{index: make(map[string]int)}
}

// AddState adds a state and returns its ID. A duplicate or reserved name is
// reported by Build; AddState then still returns a fresh ID so that callers
// can carry on.
func (b *Builder) AddState(name string, val Valuation, labels ...string) int {
	return b.addState(name, slices.Clone(val), slices.Clone(labels))
}

// addState adds a state whose valuation and labels the Builder owns.
func (b *Builder) addState(name string, val Valuation, ls []string) int {
	id := len(b.names)
	switch {
	case name == "":
		b.errs = append(b.errs, &Error{Kind: BadName, State: name, Index: -1, Msg: "empty state name"})
	case name == SinkName:
		b.errs = append(b.errs, &Error{Kind: BadName, State: name, Index: -1,
			Msg: "the name " + SinkName + " is reserved for the sink state"})
	default:
		if _, dup := b.index[name]; dup {
			b.errs = append(b.errs, &Error{Kind: DuplicateState, State: name, Index: -1, Msg: "duplicate state name"})
		} else {
			b.index[name] = id
		}
	}
	sort.Strings(ls)
	ls = slices.Compact(ls)
	for _, l := range ls {
		if l == "" {
			b.errs = append(b.errs, &Error{Kind: BadName, State: name, Index: -1, Msg: "empty label"})
		}
	}
	b.names = append(b.names, name)
	b.vals = append(b.vals, val)
	b.labels = append(b.labels, ls)
	b.to = append(b.to, nil)
	b.p = append(b.p, nil)
	b.rem = append(b.rem, false)
	return id
}

// Lookup returns the ID of the named state, if it has been added.
func (b *Builder) Lookup(name string) (int, bool) {
	id, ok := b.index[name]
	return id, ok
}

// NumStates returns the number of states added so far.
func (b *Builder) NumStates() int { return len(b.names) }

func (b *Builder) valid(s int) bool { return s >= 0 && s < len(b.names) }

func (b *Builder) badID(s int) {
	b.errs = append(b.errs, &Error{Kind: UnknownState, State: fmt.Sprintf("#%d", s), Index: -1, Msg: "no such state"})
}

// AddTransition adds a transition from state from to state to with
// probability p. Several transitions between the same states are summed.
func (b *Builder) AddTransition(from, to int, p *big.Rat) {
	if !b.valid(from) {
		b.badID(from)
		return
	}
	if !b.valid(to) {
		b.errs = append(b.errs, &Error{Kind: UnknownState, State: b.names[from], To: fmt.Sprintf("#%d", to), Index: -1, Msg: "no such state"})
		return
	}
	b.to[from] = append(b.to[from], to)
	b.p[from] = append(b.p[from], p)
}

// GrowRow makes room for n more transitions from state from, so that a row
// whose length is known is not grown step by step (the copies of a large
// row cost more than the row itself).
func (b *Builder) GrowRow(from, n int) {
	if b.valid(from) && n > 0 {
		b.to[from] = slices.Grow(b.to[from], n)
		b.p[from] = slices.Grow(b.p[from], n)
	}
}

// AddTransitionTo adds a transition from state from to the state named to,
// which may be added later. Build reports names that never appear.
func (b *Builder) AddTransitionTo(from int, to string, p *big.Rat) {
	if !b.valid(from) {
		b.badID(from)
		return
	}
	t, ok := b.index[to]
	if !ok {
		t = -len(b.pending) - 1
		b.pending = append(b.pending, to)
	}
	b.to[from] = append(b.to[from], t)
	b.p[from] = append(b.p[from], p)
}

// SendRemainderToSink sends whatever probability the row of from leaves
// unassigned to the sink state "†", which Build creates on demand.
func (b *Builder) SendRemainderToSink(from int) {
	if !b.valid(from) {
		b.badID(from)
		return
	}
	b.rem[from] = true
}

// MarkInput marks s as an input state.
func (b *Builder) MarkInput(s int) {
	if !b.valid(s) {
		b.badID(s)
		return
	}
	b.inputs = append(b.inputs, s)
}

var ratOne = big.NewRat(1, 1)

// Build validates the chain and returns it. On failure the error is an
// ErrorList holding every problem found. The Builder must not be used after
// Build.
func (b *Builder) Build() (*Chain, error) {
	return b.BuildContext(context.Background())
}

// BuildContext is Build that stops with ctx's error when ctx ends: checking
// that the rows sum to 1 exactly can take long when their probabilities
// are large rationals.
func (b *Builder) BuildContext(ctx context.Context) (*Chain, error) {
	errs := slices.Clone(b.errs)
	n := len(b.names)
	// Resolve names given to AddTransitionTo.
	for s := range b.to {
		for i, t := range b.to[s] {
			if t >= 0 {
				continue
			}
			name := b.pending[-t-1]
			if id, ok := b.index[name]; ok {
				b.to[s][i] = id
			} else {
				errs = append(errs, &Error{Kind: UnknownState, State: b.names[s], To: name, Index: i, Msg: "transition to unknown state"})
				b.to[s][i] = -1
			}
		}
	}
	sinkUsed := slices.Contains(b.rem, true)
	sink := -1
	if sinkUsed {
		sink = n
	}
	// Validate and normalise rows in parallel: rows are independent.
	rowErrs := make([]ErrorList, n)
	workers := min(runtime.GOMAXPROCS(0), max(1, n/64))
	var (
		wg       sync.WaitGroup
		panicked atomic.Value // a worker's panic, re-raised in this goroutine
	)
	next := make(chan int, workers)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					panicked.CompareAndSwap(nil, fmt.Sprintf("%v\n\n%s", r, debug.Stack()))
					for range next { // let the sender finish
					}
				}
			}()
			var acc Accumulator
			for s := range next {
				rowErrs[s] = b.normaliseRow(s, sink, &acc)
			}
		}()
	}
	var stopped error
	for s := range n {
		if stopped = ctx.Err(); stopped != nil {
			break
		}
		next <- s
	}
	close(next)
	wg.Wait()
	if r := panicked.Load(); r != nil {
		panic(r)
	}
	if stopped != nil {
		return nil, stopped
	}
	for _, l := range rowErrs {
		errs = append(errs, l...)
	}
	if len(errs) > 0 {
		return nil, errs
	}

	c := &Chain{
		names:  b.names,
		index:  b.index,
		vals:   b.vals,
		labels: b.labels,
		to:     b.to,
		p:      b.p,
		sink:   sink,
	}
	if sinkUsed {
		c.names = append(c.names, SinkName)
		c.index[SinkName] = sink
		c.vals = append(c.vals, nil)
		c.labels = append(c.labels, nil)
		c.to = append(c.to, []int{sink})
		c.p = append(c.p, []*big.Rat{ratOne})
	}
	c.isInput = make([]bool, len(c.names))
	for _, s := range b.inputs {
		if !c.isInput[s] {
			c.isInput[s] = true
			c.inputs = append(c.inputs, s)
		}
	}
	slices.Sort(c.inputs)
	vars := map[string]bool{}
	labels := map[string]bool{}
	for s := range c.names {
		c.ntrans += len(c.to[s])
		for _, v := range c.vals[s] {
			vars[v.Name] = true
		}
		for _, l := range c.labels[s] {
			labels[l] = true
		}
	}
	for _, l := range b.declared {
		labels[l] = true
	}
	c.varNames = sortedKeys(vars)
	c.labelNames = sortedKeys(labels)
	return c, nil
}

// normaliseRow checks the probabilities of row s, drops zeros, sorts by
// target, merges duplicate targets, adds the sink remainder or the implicit
// self-loop, and checks that the row sums to exactly 1.
func (b *Builder) normaliseRow(s, sink int, acc *Accumulator) ErrorList {
	var errs ErrorList
	name := b.names[s]
	to, p := b.to[s], b.p[s]
	targetName := func(t int) string {
		if t < 0 {
			return ""
		}
		return b.names[t]
	}
	bad := false
	for i, x := range p {
		switch {
		case to[i] < 0:
			bad = true // already reported as unknown
		case x == nil:
			errs = append(errs, &Error{Kind: NilProbability, State: name, To: targetName(to[i]), Index: i, Msg: "missing probability"})
			bad = true
		case x.Sign() < 0:
			errs = append(errs, &Error{Kind: NegativeProbability, State: name, To: targetName(to[i]), Index: i,
				Msg: fmt.Sprintf("probability %s is negative", x.RatString())})
			bad = true
		case x.Num().Cmp(x.Denom()) > 0: // x > 1 (the denominator is positive); Rat.Cmp would allocate
			errs = append(errs, &Error{Kind: ProbabilityAboveOne, State: name, To: targetName(to[i]), Index: i,
				Msg: fmt.Sprintf("probability %s is greater than 1", x.RatString())})
			bad = true
		}
	}
	if bad {
		return errs
	}
	// Drop zeros.
	k := 0
	for i := range to {
		if p[i].Sign() != 0 {
			to[k], p[k] = to[i], p[i]
			k++
		}
	}
	to, p = to[:k], p[:k]
	// Sort by target (builders usually add in order) and merge duplicates.
	if !sort.SliceIsSorted(to, func(i, j int) bool { return to[i] < to[j] }) {
		idx := make([]int, len(to))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(i, j int) bool { return to[idx[i]] < to[idx[j]] })
		nt, np := make([]int, len(to)), make([]*big.Rat, len(p))
		for i, j := range idx {
			nt[i], np[i] = to[j], p[j]
		}
		to, p = nt, np
	}
	// A run of probabilities to one target is summed as one exact sum: a
	// lumped chain merges thousands of 20 000-bit probabilities a row.
	k = 0
	for i := 0; i < len(to); {
		j := i + 1
		for j < len(to) && to[j] == to[i] {
			j++
		}
		x := p[i]
		if j > i+1 {
			acc.Reset()
			for _, y := range p[i:j] {
				acc.Add(y)
			}
			x = acc.Rat(nil)
		}
		to[k], p[k] = to[i], x
		k++
		i = j
	}
	to, p = to[:k], p[:k]

	acc.Reset()
	for _, x := range p {
		acc.Add(x)
	}
	cmp := acc.Cmp(ratOne)
	switch {
	case len(to) == 0 && !b.rem[s]:
		// No transitions: absorbing.
		to, p = []int{s}, []*big.Rat{ratOne}
	case b.rem[s] && cmp < 0:
		to = append(to, sink) // sink is the largest ID, so the row stays sorted
		p = append(p, new(big.Rat).Sub(ratOne, acc.Rat(nil)))
	case cmp != 0:
		sum := acc.Rat(nil)
		diff := new(big.Rat).Sub(sum, ratOne)
		var msg string
		if cmp < 0 {
			msg = fmt.Sprintf("probabilities sum to %s, not 1 (missing %s; send the rest to the sink to allow this)",
				sum.RatString(), diff.Neg(diff).RatString())
		} else {
			msg = fmt.Sprintf("probabilities sum to %s, not 1 (excess %s)", sum.RatString(), diff.RatString())
		}
		errs = append(errs, &Error{Kind: RowSum, State: name, Index: -1, Sum: sum, Msg: msg})
	}
	b.to[s], b.p[s] = to, p
	return errs
}
