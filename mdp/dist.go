package mdp

import (
	"encoding/binary"
	"math/big"
	"sort"
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

// size is the number of entries of d: its live keys and decided outcomes.
func (d *dist) size() int { return len(d.live) + len(d.done) }
