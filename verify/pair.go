package verify

import (
	"github.com/dpcheck/dpcheck/exact"
	"math/big"
	"sort"

	"github.com/dpcheck/dpcheck/chain"
)

// cinfo describes c = e^ε for the per-pair primitives.
type cinfo struct {
	eps exact.Eps
	c   *big.Rat     // c when rational, else nil
	ap  exact.Approx // approximation of c, relative error ≤ 3.1u
}

func newCinfo(e exact.Eps) cinfo {
	var sc big.Int
	ci := cinfo{eps: e}
	if c, ok := e.C(); ok {
		ci.c = c
		ci.ap = exact.ApproxRat(c, &sc)
		return ci
	}
	lo, _ := e.Bounds() // relative gap ≤ 2^-64, far below u
	ci.ap = exact.ApproxRat(lo, &sc)
	return ci
}

// scratch is per-worker working space.
type scratch struct {
	t1, t2, t3 big.Int
	// memo remembers cmpRatioMemo's answers against memoR, by the
	// probabilities' identities.
	memo       map[[2]*big.Rat]int8
	memoR      *big.Rat
	accA, accB chain.Accumulator
	prof       profScratch
	prop       propScratch
}

// orderedPair returns the k-th ordered neighbouring pair: pair k/2, in its
// given direction for even k and reversed for odd k.
func (a *Analysis) orderedPair(k int) (s, t int) {
	p := a.pairs[k/2]
	if k%2 == 0 {
		return p[0], p[1]
	}
	return p[1], p[0]
}

func (a *Analysis) numOrdered() int { return 2 * len(a.pairs) }

// match calls f(i, j) for every output in the support of ds, where j is the
// index of the same output in dt or -1 when Pr_t of it is 0.
func match(ds, dt *inputDist, f func(i, j int)) {
	j := 0
	for i, o := range ds.out {
		for j < len(dt.out) && dt.out[j] < o {
			j++
		}
		if j < len(dt.out) && dt.out[j] == o {
			f(i, j)
		} else {
			f(i, -1)
		}
	}
}

// cmpC returns sign(ps - c·pt) for ps, pt > 0, exactly, trying the filter
// first.
func (sc *scratch) cmpC(ps, pt *big.Rat, aps, apt exact.Approx, ci *cinfo) (int, error) {
	if f := exact.CmpFilter(aps.Div(apt), ci.ap); f != 0 {
		return f, nil
	}
	if ci.c != nil {
		// ps.num/ps.den ? c.num/c.den · pt.num/pt.den
		sc.t1.Mul(ps.Num(), pt.Denom())
		sc.t1.Mul(&sc.t1, ci.c.Denom())
		sc.t2.Mul(ci.c.Num(), pt.Num())
		sc.t2.Mul(&sc.t2, ps.Denom())
		return sc.t1.Cmp(&sc.t2), nil
	}
	x := new(big.Rat).Quo(ps, pt)
	return ci.eps.CmpC(x)
}

// cmpRatio returns sign(ps/pt - r) exactly, for ps, pt, r > 0.
func (sc *scratch) cmpRatio(ps, pt, r *big.Rat) int {
	sc.t1.Mul(ps.Num(), pt.Denom())
	sc.t1.Mul(&sc.t1, r.Denom())
	sc.t2.Mul(r.Num(), pt.Num())
	sc.t2.Mul(&sc.t2, ps.Denom())
	return sc.t1.Cmp(&sc.t2)
}

// maxMemo bounds the answers a scratch remembers.
const maxMemo = 1 << 16

// cmpRatioMemo is cmpRatio against a fixed r, remembered by the identities
// of ps and pt: chains share their probabilities (a builder's table, a
// chain's interned rationals), so the same pair of pointers recurs across
// neighbouring pairs, and a *big.Rat is never changed once in a chain.
func (sc *scratch) cmpRatioMemo(ps, pt, r *big.Rat) int {
	if sc.memoR != r {
		sc.memo, sc.memoR = map[[2]*big.Rat]int8{}, r
	}
	key := [2]*big.Rat{ps, pt}
	if c, ok := sc.memo[key]; ok {
		return int(c)
	}
	c := sc.cmpRatio(ps, pt, r)
	if len(sc.memo) < maxMemo {
		sc.memo[key] = int8(c)
	}
	return c
}

// anyAbove reports whether some output has Pr_s(o) > c·Pr_t(o): the
// verdict of dp(ε, 0) for the ordered pair, without any sums. It stops at
// the first such output.
func (a *Analysis) anyAbove(s, t int, ci *cinfo, sc *scratch) (bool, error) {
	ds, dt := a.dist[s], a.dist[t]
	j := 0
	for i, o := range ds.out {
		for j < len(dt.out) && dt.out[j] < o {
			j++
		}
		if j == len(dt.out) || dt.out[j] != o {
			return true, nil // Pr_t(o) = 0 < Pr_s(o)
		}
		c, err := sc.cmpC(ds.p[i], dt.p[j], ds.ap[i], dt.ap[j], ci)
		if err != nil || c > 0 {
			return c > 0, err
		}
	}
	return false, nil
}

// excess returns the worst event E* = {o : Pr_s(o) > c·Pr_t(o)} of the
// ordered pair (s, t) and its exact probabilities A = Pr_s(E*) and
// B = Pr_t(E*), so that the hockey-stick divergence is H_c = A - c·B.
func (a *Analysis) excess(s, t int, ci *cinfo, sc *scratch, wantEvent bool) (ev []int, A, B *big.Rat, err error) {
	ds, dt := a.dist[s], a.dist[t]
	sc.accA.Reset()
	sc.accB.Reset()
	match(ds, dt, func(i, j int) {
		if err != nil {
			return
		}
		in := j < 0
		if !in {
			var cmp int
			cmp, err = sc.cmpC(ds.p[i], dt.p[j], ds.ap[i], dt.ap[j], ci)
			in = cmp > 0
		}
		if in {
			if wantEvent {
				ev = append(ev, ds.out[i])
			}
			sc.accA.Add(ds.p[i])
			if j >= 0 {
				sc.accB.Add(dt.p[j])
			}
		}
	})
	if err != nil {
		return nil, nil, nil, err
	}
	return ev, sc.accA.Rat(nil), sc.accB.Rat(nil), nil
}

// approxH returns an approximation of H_c(s‖t) and a certified bound on its
// error (see approx.go).
func (a *Analysis) approxH(s, t int, ci *cinfo) (h, errBound float64) {
	ds, dt := a.dist[s], a.dist[t]
	m := 0
	match(ds, dt, func(i, j int) {
		m++
		if j < 0 {
			h += ds.ap[i].Float()
			return
		}
		h += hTerm(ds.ap[i], ci.ap.Mul(dt.ap[j]))
	})
	return h, hErr(h, m)
}

// group is a set of outputs of an ordered pair with the same exact ratio
// Pr_s(o)/Pr_t(o) (ratio == nil for Pr_t(o) = 0), with their total
// probabilities A (under s) and B (under t).
type group struct {
	ratio *big.Rat
	outs  []int
	A, B  *big.Rat
}

// groups returns the outputs in the support of Pr_s grouped by exact ratio,
// in decreasing order of ratio (the infinite group first). Sorting uses the
// filter; runs of ratios the filter cannot separate are sorted exactly, and
// a run of exactly equal ratios (the common case) costs one comparison per
// element.
func (a *Analysis) groups(s, t int, sc *scratch) []group {
	ds, dt := a.dist[s], a.dist[t]
	type item struct {
		i, j int
		r    exact.Approx
	}
	var items []item
	var inf []item
	match(ds, dt, func(i, j int) {
		if j < 0 {
			inf = append(inf, item{i, j, exact.Approx{}})
			return
		}
		items = append(items, item{i, j, ds.ap[i].Div(dt.ap[j])})
	})
	var out []group
	mk := func(ratio *big.Rat, run []item) group {
		g := group{ratio: ratio}
		sc.accA.Reset()
		sc.accB.Reset()
		for _, it := range run {
			g.outs = append(g.outs, ds.out[it.i])
			sc.accA.Add(ds.p[it.i])
			if it.j >= 0 {
				sc.accB.Add(dt.p[it.j])
			}
		}
		sort.Ints(g.outs)
		g.A, g.B = sc.accA.Rat(nil), sc.accB.Rat(nil)
		return g
	}
	if len(inf) > 0 {
		out = append(out, mk(nil, inf))
	}
	sort.SliceStable(items, func(x, y int) bool { return items[x].r.Cmp(items[y].r) > 0 })
	ratioOf := func(it item) *big.Rat { return new(big.Rat).Quo(ds.p[it.i], dt.p[it.j]) }
	for lo := 0; lo < len(items); {
		hi := lo + 1
		for hi < len(items) && exact.CmpFilter(items[hi].r, items[hi-1].r) == 0 {
			hi++
		}
		run := items[lo:hi]
		first := ratioOf(run[0])
		allEqual := true
		for _, it := range run[1:] {
			if sc.cmpRatio(ds.p[it.i], dt.p[it.j], first) != 0 {
				allEqual = false
				break
			}
		}
		if allEqual {
			out = append(out, mk(first, run))
		} else {
			// Ordered exactly, as pairLines orders such a run.
			cmp := func(x, y item) int { return sc.cmpRatios(ds.p[x.i], dt.p[x.j], ds.p[y.i], dt.p[y.j]) }
			sort.SliceStable(run, func(x, y int) bool { return cmp(run[x], run[y]) > 0 })
			for k := 0; k < len(run); {
				l := k + 1
				for l < len(run) && cmp(run[l], run[k]) == 0 {
					l++
				}
				out = append(out, mk(ratioOf(run[k]), run[k:l]))
				k = l
			}
		}
		lo = hi
	}
	return out
}
