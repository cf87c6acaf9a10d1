package mdp

import (
	"encoding/binary"
	"math"
	"math/big"
	"sort"

	"github.com/dpcheck/dpcheck/exact"
)

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
	p.addUnmatched(B, ds, dt)
	return A, B, nil
}

// addUnmatched adds to B the mass of the keys live under dt and not under
// ds, each weighed by its least value (see upperParts).
func (p *problem) addUnmatched(B *big.Rat, ds, dt *dist) {
	t := new(big.Rat)
	for k, b := range dt.live {
		if _, ok := ds.live[k]; ok {
			continue
		}
		if _, lo := p.values(k); lo.Sign() != 0 {
			B.Add(B, t.Mul(b, lo))
		}
	}
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
	p.addUnmatched(B0, ds, dt)
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
		v := p.next(r, u)
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
