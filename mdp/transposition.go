package mdp

import (
	"encoding/binary"
	"math/big"

	"github.com/dpcheck/dpcheck/exact"
)

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
