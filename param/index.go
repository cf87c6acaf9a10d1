package param

import (
	"hash/maphash"

	"github.com/dpcheck/dpcheck/poly"
)

// index numbers distinct rational functions: a hash of the canonical
// coefficients, confirmed by Equal. It replaces string keys, whose
// formatting dominated the cost of large chains.
type index struct {
	seed  maphash.Seed
	m     map[uint64][]int
	items []poly.RatFunc
}

func newIndex() *index { return &index{seed: maphash.MakeSeed(), m: map[uint64][]int{}} }

func (x *index) hash(f poly.RatFunc) uint64 {
	var h maphash.Hash
	h.SetSeed(x.seed)
	f.Num().Hash(&h)
	f.Den().Hash(&h)
	return h.Sum64()
}

// add returns f's number and whether f is new.
func (x *index) add(f poly.RatFunc) (int, bool) {
	k := x.hash(f)
	for _, i := range x.m[k] {
		if x.items[i].Equal(f) {
			return i, false
		}
	}
	i := len(x.items)
	x.items = append(x.items, f)
	x.m[k] = append(x.m[k], i)
	return i, true
}
