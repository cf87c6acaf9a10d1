package chain

import (
	"fmt"
	"maps"
	"math/big"
	"slices"
)

// Loading a large chain from a file: the Builder's methods for adding many
// states and whole rows without growing its slices one state at a time.

// Grow makes room for n more states, so that adding them does not grow the
// Builder's slices and index again and again.
func (b *Builder) Grow(n int) {
	if n <= 0 {
		return
	}
	if len(b.index) == 0 {
		b.index = make(map[string]int, n)
	} else {
		index := make(map[string]int, len(b.index)+n)
		maps.Copy(index, b.index)
		b.index = index
	}
	b.names = slices.Grow(b.names, n)
	b.vals = slices.Grow(b.vals, n)
	b.labels = slices.Grow(b.labels, n)
	b.to = slices.Grow(b.to, n)
	b.p = slices.Grow(b.p, n)
	b.rem = slices.Grow(b.rem, n)
}

// AddStateOwned is AddState for a loader that hands over what it built:
// the Builder takes ownership of val and labels (it sorts the labels in
// place) instead of copying them, so the caller can cut every state's out
// of one array.
func (b *Builder) AddStateOwned(name string, val Valuation, labels []string) int {
	return b.addState(name, val[:len(val):len(val)], labels[:len(labels):len(labels)])
}

// AddRow adds transitions from state from to the states to[i] with
// probabilities p[i], as AddTransition does one by one. The Builder takes
// ownership of both slices (it may reorder them): the caller must not use
// them afterwards. A loader can thus cut every row out of one array.
func (b *Builder) AddRow(from int, to []int, p []*big.Rat) {
	if !b.valid(from) {
		b.badID(from)
		return
	}
	if len(to) != len(p) {
		b.errs = append(b.errs, &Error{Kind: NilProbability, State: b.names[from], Index: -1,
			Msg: fmt.Sprintf("a row of %d targets with %d probabilities", len(to), len(p))})
		return
	}
	for _, t := range to {
		if !b.valid(t) {
			b.errs = append(b.errs, &Error{Kind: UnknownState, State: b.names[from], To: fmt.Sprintf("#%d", t), Index: -1, Msg: "no such state"})
			return
		}
	}
	if len(b.to[from]) == 0 {
		// Capped, so that appending to the row (the sink) never writes
		// into what follows it in the caller's array.
		b.to[from], b.p[from] = to[:len(to):len(to)], p[:len(p):len(p)]
		return
	}
	b.to[from] = append(b.to[from], to...)
	b.p[from] = append(b.p[from], p...)
}
