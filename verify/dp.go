package verify

import (
	"context"
	"fmt"
	"github.com/dpcheck/dpcheck/exact"
	"math"
	"math/big"
	"sort"
)

// ErrParam is wrapped by errors about a property's parameters (ε < 0, δ
// outside [0, 1], ...).
var ErrParam = fmt.Errorf("invalid property parameter")

func checkEps(e exact.Eps) error {
	if e.IsInf() {
		return fmt.Errorf("%w: ε must be finite", ErrParam)
	}
	if e.Sign() < 0 {
		return fmt.Errorf("%w: ε = %s is negative", ErrParam, e)
	}
	return nil
}

func checkDelta(d *big.Rat) error {
	if d == nil {
		return fmt.Errorf("%w: δ is missing", ErrParam)
	}
	if d.Sign() < 0 || d.Cmp(ratOne) > 0 {
		return fmt.Errorf("%w: δ = %s is outside [0, 1]", ErrParam, d.RatString())
	}
	return nil
}

func (a *Analysis) checked() Checked {
	return Checked{OrderedPairs: a.numOrdered(), Outputs: len(a.outputs)}
}

func (a *Analysis) outputNames(ids []int) []string {
	names := make([]string, len(ids))
	for i, o := range ids {
		names[i] = a.outputs[o]
	}
	return names
}

// deltaBounds returns float64 bounds dlo ≤ δ ≤ dhi for the filter. The
// relative error bound holds for normal floats only, so a δ too small for
// one gets the bounds (0, +∞): the filter then decides nothing and the exact
// path does all the work.
func deltaBounds(d *big.Rat) (dlo, dhi float64) {
	var sc big.Int
	a := exact.ApproxRat(d, &sc) // relative error ≤ 3.1u
	if a.IsZero() || a.Exp() < -1000 {
		return 0, math.Inf(1)
	}
	f := a.Float()
	return f * (1 - 8*unit), f * (1 + 8*unit)
}

// DP checks standard (ε,δ)-differential privacy over all events of the
// output space: for every ordered neighbouring pair (s, t),
// H_c(s‖t) = Σ_o max(0, Pr_s(o) - c·Pr_t(o)) ≤ δ with c = e^ε. This is
// exactly "Pr_s(E) ≤ c·Pr_t(E) + δ for every event E"; for δ > 0 checking
// single outputs is not enough.
//
// A violated property is a result with a Counterexample, not an error;
// errors are for bad parameters and cancellation.
func (a *Analysis) DP(ctx context.Context, eps exact.Eps, delta *big.Rat) (*DPResult, error) {
	if err := checkEps(eps); err != nil {
		return nil, err
	}
	if err := checkDelta(delta); err != nil {
		return nil, err
	}
	ci := newCinfo(eps)
	dlo, dhi := deltaBounds(delta)
	n := a.numOrdered()
	violated := make([]bool, n)
	err := parallel(ctx, "ordered pairs (dp)", n, func(sc *scratch, k int) error {
		s, t := a.orderedPair(k)
		if delta.Sign() == 0 {
			v, err := a.anyAbove(s, t, &ci, sc)
			violated[k] = v
			return err
		}
		h, e := a.approxH(s, t, &ci)
		if h+e < dlo {
			return nil
		}
		if h-e > dhi {
			violated[k] = true
			return nil
		}
		_, A, B, err := a.excess(s, t, &ci, sc, false)
		if err != nil {
			return err
		}
		sign, err := exact.Affine(new(big.Rat).Sub(A, delta), new(big.Rat).Neg(B), eps).Sign()
		violated[k] = sign > 0
		return err
	})
	if err != nil {
		return nil, err
	}
	res := &DPResult{Eps: eps, Delta: new(big.Rat).Set(delta), Holds: true, Checked: a.checked()}
	var bad []int
	for k, v := range violated {
		if v {
			bad = append(bad, k)
		}
	}
	if len(bad) == 0 {
		return res, nil
	}
	res.Holds = false
	k, ev, A, B, err := a.worstPair(ctx, bad, &ci, eps)
	if err != nil {
		return nil, err
	}
	s, t := a.orderedPair(k)
	cx := &Counterexample{
		Witness: Witness{From: a.stateInfo(s), To: a.stateInfo(t), Event: a.outputNames(ev), PrFrom: A, PrTo: B},
		Bound:   exact.Affine(new(big.Rat).Set(delta), B, eps),
		Excess:  exact.Affine(new(big.Rat).Sub(A, delta), new(big.Rat).Neg(B), eps),
	}
	cx.WorstOutput, cx.WorstFrom, cx.WorstTo = a.worstOutput(s, t, &scratch{})
	if path, pr := mostLikelyPath(a.chain, s, a.eventStates(cx.Event)); path != nil {
		for _, v := range path {
			cx.Path = append(cx.Path, a.stateInfo(v))
		}
		cx.PathPr = pr
	}
	least, err := a.TightEpsilon(ctx, delta)
	if err != nil {
		return nil, err
	}
	cx.LeastEps = least.Eps
	res.Counterexample = cx
	return res, nil
}

// worstPair returns, among the ordered pairs ks, the one with the largest
// exact H_c (the first on ties), with its E* and probabilities.
func (a *Analysis) worstPair(ctx context.Context, ks []int, ci *cinfo, eps exact.Eps) (best int, ev []int, A, B *big.Rat, err error) {
	hs := make([]float64, len(ks))
	es := make([]float64, len(ks))
	err = parallel(ctx, "ordered pairs (worst pair)", len(ks), func(_ *scratch, i int) error {
		s, t := a.orderedPair(ks[i])
		hs[i], es[i] = a.approxH(s, t, ci)
		return nil
	})
	if err != nil {
		return 0, nil, nil, nil, err
	}
	lower := hs[0] - es[0]
	for i := range ks {
		lower = max(lower, hs[i]-es[i])
	}
	var cands []int
	for i := range ks {
		if hs[i]+es[i] >= lower {
			cands = append(cands, i)
		}
	}
	type exactH struct {
		ev   []int
		A, B *big.Rat
		H    exact.Real
	}
	ex := make([]exactH, len(cands))
	err = parallel(ctx, "", len(cands), func(sc *scratch, i int) error {
		s, t := a.orderedPair(ks[cands[i]])
		_, A, B, err := a.excess(s, t, ci, sc, false) // the event only for the winner
		ex[i] = exactH{nil, A, B, exact.Affine(A, new(big.Rat).Neg(B), eps)}
		return err
	})
	if err != nil {
		return 0, nil, nil, nil, err
	}
	bi := 0
	for i := 1; i < len(cands); i++ {
		c, err := ex[i].H.Cmp(ex[bi].H)
		if err != nil {
			return 0, nil, nil, nil, err
		}
		if c > 0 {
			bi = i
		}
	}
	s, t := a.orderedPair(ks[cands[bi]])
	ev, _, _, err = a.excess(s, t, ci, &scratch{}, true)
	return ks[cands[bi]], ev, ex[bi].A, ex[bi].B, err
}

// worstOutput returns the output of the ordered pair (s, t) with the largest
// ratio Pr_s(o)/Pr_t(o) (an output with Pr_t(o) = 0 first), and both
// probabilities.
func (a *Analysis) worstOutput(s, t int, sc *scratch) (string, *big.Rat, *big.Rat) {
	ds, dt := a.dist[s], a.dist[t]
	bi, bj := -1, -1
	match(ds, dt, func(i, j int) {
		switch {
		case bi >= 0 && bj < 0:
		case j < 0:
			bi, bj = i, j
		case bi < 0:
			bi, bj = i, j
		case sc.cmpRatio(ds.p[i], dt.p[j], new(big.Rat).Quo(ds.p[bi], dt.p[bj])) > 0:
			bi, bj = i, j
		}
	})
	if bi < 0 {
		return "", new(big.Rat), new(big.Rat)
	}
	pt := new(big.Rat)
	if bj >= 0 {
		pt = dt.p[bj]
	}
	return a.outputs[ds.out[bi]], ds.p[bi], pt
}

// TightDelta returns the least δ for which dp(ε, δ) holds: the largest
// hockey-stick divergence H_c(s‖t) over ordered neighbouring pairs, exactly.
func (a *Analysis) TightDelta(ctx context.Context, eps exact.Eps) (*DeltaResult, error) {
	if err := checkEps(eps); err != nil {
		return nil, err
	}
	ci := newCinfo(eps)
	all := make([]int, a.numOrdered())
	for k := range all {
		all[k] = k
	}
	k, ev, A, B, err := a.worstPair(ctx, all, &ci, eps)
	if err != nil {
		return nil, err
	}
	s, t := a.orderedPair(k)
	return &DeltaResult{
		Eps:     eps,
		Delta:   exact.Affine(A, new(big.Rat).Neg(B), eps),
		Witness: &Witness{From: a.stateInfo(s), To: a.stateInfo(t), Event: a.outputNames(ev), PrFrom: A, PrTo: B},
		Checked: a.checked(),
	}, nil
}

// TightEpsilon returns the least ε for which dp(ε, δ) holds, exactly.
//
// For δ = 0 it is ln of the largest ratio Pr_s(o)/Pr_t(o) over ordered
// pairs and outputs (+∞ when some Pr_t(o) = 0 < Pr_s(o)). For δ > 0, H_c is
// convex, piecewise linear and decreasing in c with breakpoints at those
// ratios; on the piece where it crosses δ, c* = (A - δ)/B is rational and
// ε = ln(c*) exactly.
func (a *Analysis) TightEpsilon(ctx context.Context, delta *big.Rat) (*EpsResult, error) {
	if err := checkDelta(delta); err != nil {
		return nil, err
	}
	if delta.Sign() == 0 {
		return a.tightEpsPure(ctx)
	}
	return a.tightEpsApprox(ctx, delta)
}

// tightEpsPure finds the largest ratio: the filter finds the approximate
// maximum of every ordered pair, then only outputs within the filter's
// tolerance of the global approximate maximum are compared exactly.
func (a *Analysis) tightEpsPure(ctx context.Context) (*EpsResult, error) {
	n := a.numOrdered()
	type pairMax struct {
		r      exact.Approx
		infAt  int // index in dist of s of an output with Pr_t = 0, or -1
		hasAny bool
	}
	pm := make([]pairMax, n)
	err := parallel(ctx, "ordered pairs (tight ε)", n, func(_ *scratch, k int) error {
		s, t := a.orderedPair(k)
		ds, dt := a.dist[s], a.dist[t]
		m := pairMax{infAt: -1}
		match(ds, dt, func(i, j int) {
			if j < 0 {
				if m.infAt < 0 {
					m.infAt = i
				}
				return
			}
			r := ds.ap[i].Div(dt.ap[j])
			if !m.hasAny || r.Cmp(m.r) > 0 {
				m.r, m.hasAny = r, true
			}
		})
		pm[k] = m
		return nil
	})
	if err != nil {
		return nil, err
	}
	res := &EpsResult{Delta: new(big.Rat), Checked: a.checked()}
	for k, m := range pm {
		if m.infAt >= 0 {
			s, t := a.orderedPair(k)
			ds := a.dist[s]
			res.Eps = exact.Inf()
			res.Witness = &Witness{From: a.stateInfo(s), To: a.stateInfo(t),
				Event: []string{a.outputs[ds.out[m.infAt]]}, PrFrom: ds.p[m.infAt], PrTo: new(big.Rat)}
			return res, nil
		}
	}
	var top exact.Approx
	for _, m := range pm {
		if m.hasAny && m.r.Cmp(top) > 0 {
			top = m.r
		}
	}
	threshold := top.Scale(1 - exact.Tol)
	type exactMax struct {
		r    *big.Rat
		i, j int
	}
	// pairMaxExact is the exact largest ratio of pair k among its outputs
	// the filter does not rule out, the first output attaining it.
	pairMaxExact := func(sc *scratch, k int) exactMax {
		s, t := a.orderedPair(k)
		ds, dt := a.dist[s], a.dist[t]
		var best exactMax
		match(ds, dt, func(i, j int) {
			if j < 0 || ds.ap[i].Div(dt.ap[j]).Cmp(threshold) < 0 {
				return
			}
			if best.r == nil || sc.cmpRatio(ds.p[i], dt.p[j], best.r) > 0 {
				best = exactMax{new(big.Rat).Quo(ds.p[i], dt.p[j]), i, j}
			}
		})
		return best
	}
	// A candidate R: the exact maximum of the first pair with the top
	// approximate ratio. Every pair is then compared with R alone, so that
	// the comparisons of equal probabilities (shared by the builders) are
	// remembered; a pair above R (rare: the filter's top was not the exact
	// top) sends every pair to its own exact maximum.
	k0 := -1
	for k, m := range pm {
		if m.hasAny && m.r.Cmp(top) == 0 {
			k0 = k
			break
		}
	}
	if k0 < 0 {
		return nil, fmt.Errorf("internal error: no comparable outputs")
	}
	cand := pairMaxExact(&scratch{}, k0)
	type vsR struct {
		above bool
		i, j  int // the first output equal to R, i = -1 for none
	}
	vs := make([]vsR, n)
	err = parallel(ctx, "", n, func(sc *scratch, k int) error {
		vs[k] = vsR{i: -1}
		if !pm[k].hasAny || pm[k].r.Cmp(threshold) < 0 {
			return nil
		}
		s, t := a.orderedPair(k)
		ds, dt := a.dist[s], a.dist[t]
		match(ds, dt, func(i, j int) {
			if vs[k].above || j < 0 || ds.ap[i].Div(dt.ap[j]).Cmp(threshold) < 0 {
				return
			}
			switch c := sc.cmpRatioMemo(ds.p[i], dt.p[j], cand.r); {
			case c > 0:
				vs[k].above = true
			case c == 0 && vs[k].i < 0:
				vs[k].i, vs[k].j = i, j
			}
		})
		return nil
	})
	if err != nil {
		return nil, err
	}
	em := make([]exactMax, n)
	above := false
	for _, v := range vs {
		above = above || v.above
	}
	if above {
		err = parallel(ctx, "", n, func(sc *scratch, k int) error {
			if pm[k].hasAny && pm[k].r.Cmp(threshold) >= 0 {
				em[k] = pairMaxExact(sc, k)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	} else {
		for k, v := range vs {
			if v.i >= 0 {
				em[k] = exactMax{cand.r, v.i, v.j}
			}
		}
	}
	bk := -1
	for k, m := range em {
		if m.r != nil && (bk < 0 || m.r.Cmp(em[bk].r) > 0) {
			bk = k
		}
	}
	if bk < 0 { // no output has positive probability under both: cannot happen for distributions
		return nil, fmt.Errorf("internal error: no comparable outputs")
	}
	best := em[bk]
	s, t := a.orderedPair(bk)
	ds, dt := a.dist[s], a.dist[t]
	if best.r.Cmp(ratOne) <= 0 {
		return res, nil // ε = 0: nothing to witness
	}
	res.Eps = exact.LnOf(best.r)
	res.Witness = &Witness{From: a.stateInfo(s), To: a.stateInfo(t),
		Event: []string{a.outputs[ds.out[best.i]]}, PrFrom: ds.p[best.i], PrTo: dt.p[best.j]}
	return res, nil
}

// pairCStar returns the least c ≥ 1 with H_c(s‖t) ≤ δ (nil for +∞), the
// event E* at that c and its probabilities.
func (a *Analysis) pairCStar(s, t int, delta *big.Rat, sc *scratch) (cstar *big.Rat, ev []int, A, B *big.Rat) {
	gs := a.groups(s, t, sc)
	A, B = new(big.Rat), new(big.Rat)
	j := 0
	if len(gs) > 0 && gs[0].ratio == nil {
		A.Set(gs[0].A)
		ev = append(ev, gs[0].outs...)
		j = 1
		if A.Cmp(delta) > 0 {
			return nil, ev, A, B
		}
	}
	// Invariant: H(c) = A - c·B on [next, previous breakpoint], and
	// H ≤ δ at the previous breakpoint.
	h := new(big.Rat)
	for ; ; j++ {
		lower := ratOne
		if j < len(gs) && gs[j].ratio.Cmp(ratOne) > 0 {
			lower = gs[j].ratio
		}
		h.Mul(lower, B)
		h.Sub(A, h)
		if h.Cmp(delta) >= 0 {
			if B.Sign() == 0 {
				return new(big.Rat).Set(lower), ev, A, B
			}
			c := new(big.Rat).Sub(A, delta)
			c.Quo(c, B)
			if c.Cmp(lower) < 0 { // cannot happen; keep c ≥ lower
				c.Set(lower)
			}
			return c, ev, A, B
		}
		if lower == ratOne {
			return big.NewRat(1, 1), ev, A, B
		}
		A = new(big.Rat).Add(A, gs[j].A)
		B = new(big.Rat).Add(B, gs[j].B)
		ev = append(ev, gs[j].outs...)
	}
}

// tightEpsApprox computes c* for every ordered pair by the breakpoint
// method and returns the largest.
func (a *Analysis) tightEpsApprox(ctx context.Context, delta *big.Rat) (*EpsResult, error) {
	n := a.numOrdered()
	type pc struct {
		c       *big.Rat
		inf     bool
		ev      []int
		A, B    *big.Rat
		trivial bool
	}
	res := make([]pc, n)
	dlo, _ := deltaBounds(delta)
	ci1 := newCinfo(exact.Eps{})
	err := parallel(ctx, "ordered pairs (tight ε)", n, func(sc *scratch, k int) error {
		s, t := a.orderedPair(k)
		if h, e := a.approxH(s, t, &ci1); h+e < dlo {
			res[k] = pc{c: big.NewRat(1, 1), trivial: true}
			return nil
		}
		c, ev, A, B := a.pairCStar(s, t, delta, sc)
		res[k] = pc{c: c, inf: c == nil, ev: ev, A: A, B: B}
		return nil
	})
	if err != nil {
		return nil, err
	}
	bk := 0
	for k := 1; k < n; k++ {
		switch {
		case res[bk].inf:
		case res[k].inf:
			bk = k
		case res[k].c.Cmp(res[bk].c) > 0:
			bk = k
		}
	}
	out := &EpsResult{Delta: new(big.Rat).Set(delta), Checked: a.checked()}
	b := res[bk]
	out.Eps = epsOf(b.c)
	if !b.trivial && out.Eps.Sign() > 0 {
		s, t := a.orderedPair(bk)
		sort.Ints(b.ev)
		out.Witness = &Witness{From: a.stateInfo(s), To: a.stateInfo(t), Event: a.outputNames(b.ev), PrFrom: b.A, PrTo: b.B}
	}
	return out, nil
}

// epsOf is the tight ε ln(c) of the least c ≥ 1 that meets δ: +∞ for a
// nil c (none does), 0 for c ≤ 1.
func epsOf(c *big.Rat) exact.Eps {
	switch {
	case c == nil:
		return exact.Inf()
	case c.Cmp(ratOne) <= 0:
		return exact.Eps{}
	}
	return exact.LnOf(c)
}

// PairDelta returns the least δ for which the single ordered pair (from,
// to) satisfies dp(ε, δ): its hockey-stick divergence
// H_c(from‖to) = Pr_from(E*) − c·Pr_to(E*), exactly, with E* as the
// witness. It is TightDelta restricted to one pair; from and to must be
// compared inputs (in some neighbouring pair), else the error wraps
// ErrModel.
func (a *Analysis) PairDelta(ctx context.Context, from, to int, eps exact.Eps) (*DeltaResult, error) {
	if err := checkEps(eps); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, s := range []int{from, to} {
		if a.dist[s] == nil {
			return nil, fmt.Errorf("%w: state #%d is not a compared input", ErrModel, s)
		}
	}
	ci := newCinfo(eps)
	ev, A, B, err := a.excess(from, to, &ci, &scratch{}, true)
	if err != nil {
		return nil, err
	}
	return &DeltaResult{
		Eps:     eps,
		Delta:   exact.Affine(A, new(big.Rat).Neg(B), eps),
		Witness: &Witness{From: a.stateInfo(from), To: a.stateInfo(to), Event: a.outputNames(ev), PrFrom: A, PrTo: B},
		Checked: Checked{OrderedPairs: 1, Outputs: len(a.outputs)},
	}, nil
}
