package param

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/poly"
	"github.com/dpcheck/dpcheck/verify"
)

// DPResult is the verdict of dp(ε(α), δ(α)) for every α in the interval.
type DPResult struct {
	// C is e^ε as a function of the parameter, Delta is δ.
	C, Delta poly.RatFunc
	// Holds reports that the claim holds for every parameter value.
	Holds bool
	// Region is the set of parameter values where the claim holds, exact.
	Region poly.Region
	// Witness is a parameter value where the claim fails (when !Holds):
	// the simplest rational outside Region when there is one.
	Witness poly.Algebraic
	// Instance is verify's counterexample on the chain instantiated at a
	// rational Witness, at ε = ln(C(Witness)) and δ = Delta(Witness); nil
	// when the claim holds, the witness is irrational or C(Witness) < 1
	// (a negative ε, which verify does not check).
	Instance *verify.DPResult
}

// Piece is one piece of a piecewise function of the parameter: F on the
// interval from Lo to Hi (ends open or closed), or +∞ when Inf.
type Piece struct {
	Lo, Hi         poly.Algebraic
	LoOpen, HiOpen bool
	F              poly.RatFunc
	Inf            bool
}

// Contains reports whether the rational a lies in the piece.
func (p Piece) Contains(a *big.Rat) bool {
	l, h := p.Lo.CmpRat(a), p.Hi.CmpRat(a)
	return (l < 0 || l == 0 && !p.LoOpen) && (h > 0 || h == 0 && !p.HiOpen)
}

// Format prints the piece's interval with the parameter named v.
func (p Piece) Format(v string) string {
	l, r := "[", "]"
	if p.LoOpen {
		l = "("
	}
	if p.HiOpen {
		r = ")"
	}
	return l + p.Lo.Format(v) + ", " + p.Hi.Format(v) + r
}

// Piecewise is a function of the parameter given piece by piece over the
// interval, ascending; consecutive pieces have different functions.
type Piecewise struct {
	Param  string
	Pieces []Piece
}

// At returns the piece holding the rational a, and false when a is outside
// the interval.
func (f Piecewise) At(a *big.Rat) (Piece, bool) {
	for _, p := range f.Pieces {
		if p.Contains(a) {
			return p, true
		}
	}
	return Piece{}, false
}

// Format prints the function as "ln(1/α) for α in (0, 1)" pieces joined by
// "; ", with wrap around each function (as "ln(%s)"; "%s" for none) and
// "∞" for infinite pieces.
func (f Piecewise) Format(wrap string) string {
	var b []string
	for _, p := range f.Pieces {
		s := "∞"
		if !p.Inf {
			s = fmt.Sprintf(wrap, p.F.Format(f.Param))
		}
		b = append(b, s+" for "+f.Param+" in "+p.Format(f.Param))
	}
	return strings.Join(b, "; ")
}

// EpsResult is the tight ε for every parameter value: ε(α) = ln(R(α)),
// piecewise. At δ = 0 (TightEpsilon) R is the largest ratio
// Pr_s(o)/Pr_t(o) over ordered neighbour pairs and outputs; at δ(α)
// (TightEpsilonAt) the largest (Pr_s(E) − δ)/Pr_t(E) over events, and 1.
type EpsResult struct {
	// R gives e^ε piece by piece (+∞ pieces where no finite ε holds:
	// some Pr_t(o) = 0 < Pr_s(o) at δ = 0, Pr_s(Z) > δ at δ).
	R Piecewise
}

// String prints ε as "ln(1/α) for α in (0, 1)".
func (r *EpsResult) String() string { return r.R.Format("ln(%s)") }

// Eps returns the tight ε at the rational a exactly.
func (r *EpsResult) Eps(a *big.Rat) (exact.Eps, error) {
	p, ok := r.R.At(a)
	if !ok {
		return exact.Eps{}, fmt.Errorf("%w: %s = %s is outside the interval", ErrParam, r.R.Param, a.RatString())
	}
	if p.Inf {
		return exact.Inf(), nil
	}
	v, err := p.F.Eval(a)
	if err != nil {
		return exact.Eps{}, err
	}
	if v.Cmp(big.NewRat(1, 1)) < 0 { // unreachable: some ratio is ≥ 1
		return exact.Eps{}, fmt.Errorf("%w: the largest ratio %s is below 1", ErrParam, v.RatString())
	}
	return exact.LnOf(v), nil
}

// DeltaResult is the tight δ for a given e^ε = c(α), piece by piece: the
// largest hockey-stick divergence over ordered neighbour pairs.
type DeltaResult struct {
	C     poly.RatFunc
	Delta Piecewise
}

// String prints δ as "1/2·α for α in (0, 1)".
func (r *DeltaResult) String() string { return r.Delta.Format("%s") }

func (a *Analysis) ordered() [][2]int {
	var ps [][2]int
	for _, p := range a.c.Neighbours {
		ps = append(ps, p, [2]int{p[1], p[0]})
	}
	return ps
}

// whole reports an error unless f rel 0 on the whole interval.
func (a *Analysis) whole(ctx context.Context, what string, f poly.RatFunc, rel poly.Rel) error {
	w, bad, err := outside(ctx, a.c.Limits, f, rel, a.c.Interval)
	if err != nil {
		return err
	}
	if bad {
		return fmt.Errorf("%w: %s = %s is not %s 0 at %s = %s", ErrParam, what, f.Format(a.c.Param), rel, a.c.Param, w.Format(a.c.Param))
	}
	return nil
}

// outside returns the simplest value of in where f rel 0 does not hold
// (poly.Limits.Witness), bad false when it holds on the whole of in.
func outside(ctx context.Context, lim poly.Limits, f poly.RatFunc, rel poly.Rel, in poly.Interval) (w poly.Algebraic, bad bool, err error) {
	reg, err := lim.WhereRat(ctx, f, rel, in)
	if err != nil {
		return poly.Algebraic{}, false, err
	}
	return lim.Witness(ctx, reg)
}

// gaps returns the hockey-stick candidates of the ordered pair (s, t) at
// e^ε = c: with g_o = Pr_s(o) − c·Pr_t(o), the interval is cut at every real
// root of every g_o, each open gap between consecutive cuts has a fixed set
// E = {o : g_o > 0}, and the sums Σ_{o∈E} g_o of the distinct sets are
// returned (the empty set's 0 included when it occurs). Because the
// hockey-stick Σ max(0, g_o) is continuous (no function has a pole in the
// interval), it is the largest of these sums at every point of the
// interval, cut points included.
//
// g_o is written α^k·P/D: P the numerator Ns·Dt·Dc − Nc·Nt·Ds (or
// Ns·Dc − Nc·Nt when Ds = Dt, the common case) without its factor α^k, D
// the product of the denominators it was brought over (each of constant
// sign on the interval). The cuts are P's roots (and 0), and E at a gap's
// rational point q is read from the signs of q^k, P(q) and D's factors at
// q: no probability is evaluated. Outputs whose g_o differ by a power of α
// (the geometric mechanism's) share one P, whose roots and signs are
// cached in sc across calls.
func (a *Analysis) gaps(ctx context.Context, s, t int, c poly.RatFunc, sc *signCache) ([]poly.RatFunc, error) {
	ds, dt := a.dist[s], a.dist[t]
	outs := slices.Clone(ds.Out)
	outs = append(outs, dt.Out...)
	slices.Sort(outs)
	outs = slices.Compact(outs)
	// g_o = α^k·lead·P/D with P monic (numbered p in sc) and D the product
	// of the denominators numbered dens.
	type part struct {
		o, lead, p, k int
		dens          []int
	}
	parts := make([]part, 0, len(outs))
	var cut []poly.Algebraic
	in := a.c.Interval
	zero := new(big.Rat)
	cden := sc.den(c.Den())
	for _, o := range outs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ps, pt := ds.Prob(o), dt.Prob(o)
		var p poly.Poly
		var dens []int
		switch {
		case ps.Num().IsZero(): // g_o = −Nc·Nt/(Dc·Dt)
			p, dens = c.Num().Mul(pt.Num()).Neg(), []int{cden, sc.den(pt.Den())}
		case pt.Num().IsZero() || ps.Den().Equal(pt.Den()): // over Dc·Ds
			p, dens = ps.Num().Mul(c.Den()).Sub(c.Num().Mul(pt.Num())), []int{cden, sc.den(ps.Den())}
		default: // over Dc·Ds·Dt
			p = ps.Num().Mul(pt.Den()).Mul(c.Den()).Sub(c.Num().Mul(pt.Num()).Mul(ps.Den()))
			dens = []int{cden, sc.den(ps.Den()), sc.den(pt.Den())}
		}
		if p.IsZero() { // g_o = 0: never in E
			continue
		}
		k := trailing(p)
		if k > 0 {
			p = p.DivX(k)
			if in.Contains(zero) {
				cut = append(cut, poly.Rational(zero))
			}
		}
		id, rs, err := sc.roots(ctx, a.c.Limits, p, in)
		if err != nil {
			return nil, err
		}
		cut = append(cut, rs...)
		parts = append(parts, part{o: o, lead: p.Lead().Sign(), p: id, k: k, dens: dens})
	}
	_, qs, err := a.gapPoints(ctx, cut)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var sums []poly.RatFunc
	for _, q := range qs {
		qi := sc.point(q)
		var key []byte
		var es, et []poly.RatFunc
		for _, pa := range parts {
			sg := pa.lead * sc.polySign(pa.p, qi)
			if pa.k > 0 {
				sg *= powSign(q.Sign(), pa.k)
			}
			for _, d := range pa.dens {
				sg *= sc.denSign(d, qi)
			}
			if sg > 0 {
				key = fmt.Appendf(key, "%d,", pa.o)
				es, et = append(es, ds.Prob(pa.o)), append(et, dt.Prob(pa.o))
			}
		}
		if seen[string(key)] {
			continue
		}
		seen[string(key)] = true
		sum, err := a.excess(ctx, es, et, c)
		if err != nil {
			return nil, err
		}
		sums = append(sums, sum)
	}
	return sums, nil
}

// powSign returns the sign of x^k for x of sign s and k ≥ 1.
func powSign(s, k int) int {
	if k%2 == 0 {
		return s * s
	}
	return s
}

// gapSums calls f with the hockey-stick candidates at e^ε = c of every
// ordered pair in turn (see gaps; a root isolation and a sign are computed
// once for all the pairs).
func (a *Analysis) gapSums(ctx context.Context, c poly.RatFunc, f func(sum poly.RatFunc) error) error {
	sc := newSignCache()
	for _, p := range a.ordered() {
		if err := ctx.Err(); err != nil {
			return err
		}
		sums, err := a.gaps(ctx, p[0], p[1], c, sc)
		if err != nil {
			return err
		}
		for _, sum := range sums {
			if err := f(sum); err != nil {
				return err
			}
		}
	}
	return nil
}

// signCache numbers the polynomials gaps meets — the monic numerators P,
// with their roots in the interval, and the denominators — and the
// rational points it tests, and remembers each one's sign at each point.
type signCache struct {
	polys, dens *index
	rootsOf     [][]poly.Algebraic
	points      map[string]int
	at          []*big.Rat
	signs       map[[3]int]int // (0 for P or 1 for a denominator, its number, the point's) → sign
}

func newSignCache() *signCache {
	return &signCache{polys: newIndex(), dens: newIndex(), points: map[string]int{}, signs: map[[3]int]int{}}
}

// roots returns the number of the monic form of p and p's roots in the
// interval, isolated the first time it is met.
func (sc *signCache) roots(ctx context.Context, lim poly.Limits, p poly.Poly, in poly.Interval) (int, []poly.Algebraic, error) {
	id, fresh := sc.polys.add(poly.FromPoly(p.Monic()))
	if fresh {
		var rs []poly.Algebraic
		if p.Degree() > 0 {
			var err error
			if rs, err = lim.Roots(ctx, p, in); err != nil {
				return 0, nil, err
			}
		}
		sc.rootsOf = append(sc.rootsOf, rs)
	}
	return id, sc.rootsOf[id], nil
}

// den returns the number of the denominator d.
func (sc *signCache) den(d poly.Poly) int {
	id, _ := sc.dens.add(poly.FromPoly(d))
	return id
}

// point returns the number of the rational point q.
func (sc *signCache) point(q *big.Rat) int {
	k := q.RatString()
	if i, ok := sc.points[k]; ok {
		return i
	}
	sc.points[k] = len(sc.at)
	sc.at = append(sc.at, q)
	return len(sc.at) - 1
}

// polySign returns the sign of the monic P numbered p at the point qi.
func (sc *signCache) polySign(p, qi int) int { return sc.sign(0, sc.polys, p, qi) }

// denSign returns the sign of the denominator numbered d at the point qi.
func (sc *signCache) denSign(d, qi int) int { return sc.sign(1, sc.dens, d, qi) }

func (sc *signCache) sign(kind int, x *index, id, qi int) int {
	k := [3]int{kind, id, qi}
	if v, ok := sc.signs[k]; ok {
		return v
	}
	v := x.items[id].Num().Eval(sc.at[qi]).Sign()
	sc.signs[k] = v
	return v
}

// excess returns Σ es − c·Σ et.
func (a *Analysis) excess(ctx context.Context, es, et []poly.RatFunc, c poly.RatFunc) (poly.RatFunc, error) {
	lim := a.c.Limits
	ss, err := sumRat(ctx, lim, es)
	if err != nil {
		return poly.RatFunc{}, err
	}
	st, err := sumRat(ctx, lim, et)
	if err != nil {
		return poly.RatFunc{}, err
	}
	if st, err = lim.RatMul(ctx, c, st); err != nil {
		return poly.RatFunc{}, err
	}
	return lim.RatSub(ctx, ss, st)
}

// sumRat adds rational functions, the numerators of those with the same
// denominator first (polynomial additions, no GCD).
func sumRat(ctx context.Context, lim poly.Limits, fs []poly.RatFunc) (poly.RatFunc, error) {
	if len(fs) == 1 {
		return fs[0], nil
	}
	dens := newIndex()
	var nums [][]poly.Poly
	var first []poly.RatFunc
	for _, f := range fs {
		k, fresh := dens.add(poly.FromPoly(f.Den()))
		if fresh {
			nums, first = append(nums, nil), append(first, f)
		}
		nums[k] = append(nums[k], f.Num())
	}
	var sum poly.RatFunc
	for i := range nums {
		g := first[i] // canonical already when alone
		if len(nums[i]) > 1 {
			var err error
			if g, err = lim.RatFunc(ctx, poly.Sum(nums[i]...), first[i].Den()); err != nil {
				return poly.RatFunc{}, err
			}
		}
		if i == 0 {
			sum = g
			continue
		}
		var err error
		if sum, err = lim.RatAdd(ctx, sum, g); err != nil {
			return poly.RatFunc{}, err
		}
	}
	return sum, nil
}

// cuts returns the real roots in the interval of the nonzero polynomials
// ps.
func (a *Analysis) cuts(ctx context.Context, ps []poly.Poly) ([]poly.Algebraic, error) {
	lim := a.c.Limits
	var roots []poly.Algebraic
	for _, p := range ps {
		if p.Degree() <= 0 {
			continue
		}
		rs, err := lim.Roots(ctx, p, a.c.Interval)
		if err != nil {
			return nil, err
		}
		roots = append(roots, rs...)
	}
	return roots, nil
}

// sortRoots sorts algebraic numbers ascending and removes duplicates.
func sortRoots(ctx context.Context, roots []poly.Algebraic) ([]poly.Algebraic, error) {
	var cmpErr error
	slices.SortFunc(roots, func(x, y poly.Algebraic) int {
		c, err := x.Cmp(ctx, y)
		if err != nil && cmpErr == nil {
			cmpErr = err
		}
		return c
	})
	if cmpErr != nil {
		return nil, cmpErr
	}
	var out []poly.Algebraic
	for _, r := range roots {
		if len(out) > 0 {
			c, err := out[len(out)-1].Cmp(ctx, r)
			if err != nil {
				return nil, err
			}
			if c == 0 {
				continue
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// gapPoints returns the ends of the open gaps of the interval cut at
// roots (in any order, repeated or not) and a rational point inside every
// gap.
func (a *Analysis) gapPoints(ctx context.Context, roots []poly.Algebraic) (ends []poly.Algebraic, qs []*big.Rat, err error) {
	if roots, err = sortRoots(ctx, roots); err != nil {
		return nil, nil, err
	}
	in := a.c.Interval
	ends = []poly.Algebraic{poly.Rational(in.Lo)}
	for _, r := range roots {
		if r.CmpRat(in.Lo) != 0 && r.CmpRat(in.Hi) != 0 {
			ends = append(ends, r)
		}
	}
	ends = append(ends, poly.Rational(in.Hi))
	for i := 0; i+1 < len(ends); i++ {
		q, err := poly.Between(ctx, ends[i], ends[i+1])
		if err != nil {
			return nil, nil, err
		}
		qs = append(qs, q)
	}
	return ends, qs, nil
}

// DP decides dp(ε, δ) for every parameter value of the interval, with
// e^ε = c(α) (positive on the interval: c = 1/α is ε = −ln α) and δ(α) ≥ 0.
// For every ordered neighbour pair (s, t) the hockey-stick
// Σ_o max(0, Pr_s(o) − c·Pr_t(o)) must be ≤ δ; it is decided exactly by
// cutting the interval at the real roots of every Pr_s(o) − c·Pr_t(o) (see
// the package doc). When the claim fails somewhere, the result gives the
// exact region where it holds, a witness and verify's counterexample there.
func (a *Analysis) DP(ctx context.Context, c, delta poly.RatFunc) (*DPResult, error) {
	lim := a.c.Limits
	if err := a.whole(ctx, "e^ε", c, poly.GT); err != nil {
		return nil, err
	}
	if err := a.whole(ctx, "δ", delta, poly.GE); err != nil {
		return nil, err
	}
	region := poly.Whole(a.c.Interval)
	err := a.gapSums(ctx, c, func(sum poly.RatFunc) error {
		h, err := lim.RatSub(ctx, sum, delta)
		if err != nil {
			return err
		}
		r, err := lim.WhereRat(ctx, h, poly.LE, a.c.Interval)
		if err != nil {
			return err
		}
		region, err = lim.Intersect(ctx, region, r)
		return err
	})
	if err != nil {
		return nil, err
	}
	res := &DPResult{C: c, Delta: delta, Region: region}
	w, bad, err := lim.Witness(ctx, region)
	if err != nil {
		return nil, err
	}
	res.Holds = !bad
	if !bad {
		return res, nil
	}
	res.Witness = w
	if w.IsRational() {
		if res.Instance, err = a.instance(ctx, w.Rat(), c, delta); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// instance checks the chain instantiated at a with verify.
func (a *Analysis) instance(ctx context.Context, x *big.Rat, c, delta poly.RatFunc) (*verify.DPResult, error) {
	cv, err := c.Eval(x)
	if err != nil {
		return nil, err
	}
	dv, err := delta.Eval(x)
	if err != nil {
		return nil, err
	}
	if cv.Cmp(big.NewRat(1, 1)) < 0 || dv.Cmp(big.NewRat(1, 1)) > 0 {
		return nil, nil
	}
	an, err := a.Instance(ctx, x)
	if err != nil {
		return nil, err
	}
	eps, err := exact.Ln(cv)
	if err != nil {
		return nil, err
	}
	return an.DP(ctx, eps, dv)
}

// Instance returns verify's analysis of the chain instantiated at x, with
// the same neighbours and outputs (final states, or the final value of the
// observed variable).
func (a *Analysis) Instance(ctx context.Context, x *big.Rat) (*verify.Analysis, error) {
	ch, err := a.c.Instantiate(x)
	if err != nil {
		return nil, err
	}
	out := verify.FinalState()
	if a.varName != "" {
		out = verify.FinalVar(a.varName)
	}
	return verify.Analyze(ctx, &verify.Model{Chain: ch, Neighbours: a.c.Neighbours, Output: out})
}

// TightEpsilon returns the least ε with dp(ε, 0) for every parameter value:
// ln of the largest ratio Pr_s(o)/Pr_t(o) over ordered neighbour pairs and
// outputs, piecewise over the interval (cut where two candidate ratios
// cross), +∞ when some output has Pr_t(o) = 0 < Pr_s(o) (probabilities
// are positive on the whole interval, so that is all of it or nowhere).
func (a *Analysis) TightEpsilon(ctx context.Context) (*EpsResult, error) {
	lim := a.c.Limits
	var cands []poly.RatFunc
	seen := newIndex()
	inf := false
	for _, p := range a.ordered() {
		ds, dt := a.dist[p[0]], a.dist[p[1]]
		for i, o := range ds.Out {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			pt := dt.Prob(o)
			if pt.Num().IsZero() {
				inf = true
				continue
			}
			r, err := lim.RatDiv(ctx, ds.P[i], pt)
			if err != nil {
				return nil, err
			}
			if _, fresh := seen.add(r); fresh {
				cands = append(cands, r)
			}
		}
	}
	in := a.c.Interval
	if inf || len(cands) == 0 {
		// No pair with outputs cannot happen for a valid chain (every
		// distribution has mass 1); +∞ covers the whole interval.
		return &EpsResult{R: Piecewise{Param: a.c.Param, Pieces: []Piece{{Lo: poly.Rational(in.Lo), Hi: poly.Rational(in.Hi), LoOpen: in.LoOpen, HiOpen: in.HiOpen, Inf: true}}}}, nil
	}
	pw, err := a.envelope(ctx, cands)
	if err != nil {
		return nil, err
	}
	return &EpsResult{R: pw}, nil
}

// TightDelta returns the least δ with dp(ε, δ) for every parameter value,
// e^ε = c(α) > 0: the largest hockey-stick divergence over ordered
// neighbour pairs, piecewise over the interval.
func (a *Analysis) TightDelta(ctx context.Context, c poly.RatFunc) (*DeltaResult, error) {
	if err := a.whole(ctx, "e^ε", c, poly.GT); err != nil {
		return nil, err
	}
	cands := []poly.RatFunc{{}}
	seen := newIndex()
	seen.add(poly.RatFunc{})
	err := a.gapSums(ctx, c, func(s poly.RatFunc) error {
		if _, fresh := seen.add(s); fresh {
			cands = append(cands, s)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	pw, err := a.envelope(ctx, cands)
	if err != nil {
		return nil, err
	}
	return &DeltaResult{C: c, Delta: pw}, nil
}

// envelope returns the pointwise maximum of distinct continuous functions
// on the interval, piecewise (see envelopeInf).
func (a *Analysis) envelope(ctx context.Context, cands []poly.RatFunc) (Piecewise, error) {
	return a.envelopeInf(ctx, cands, nil)
}

// envelopeInf is the pointwise maximum of distinct continuous functions on
// the interval, +∞ on the open set where some function of infFns is
// positive: it may change only at their roots, and a point where none is
// positive is finite (where the maximum is continuous) — a cut point
// between an infinite and a finite part, or an isolated point between two
// infinite parts where every positive function on either side has a root.
// On each finite part the maximum is found by sweep; a cut point between
// two finite pieces belongs to the piece on its left (both functions agree
// there).
func (a *Analysis) envelopeInf(ctx context.Context, cands []poly.RatFunc, infFns []poly.RatFunc) (Piecewise, error) {
	in := a.c.Interval
	pw := Piecewise{Param: a.c.Param}
	cands, err := a.prune(ctx, cands)
	if err != nil {
		return pw, err
	}
	var roots []poly.Algebraic
	if len(infFns) > 0 {
		infCuts := make([]poly.Poly, len(infFns))
		for i, g := range infFns {
			infCuts[i] = g.Num()
		}
		if roots, err = a.cuts(ctx, infCuts); err != nil {
			return pw, err
		}
	}
	ends, qs, err := a.gapPoints(ctx, roots)
	if err != nil {
		return pw, err
	}
	type part struct {
		lo, hi       poly.Algebraic
		inf, isPoint bool
	}
	var parts []part
	for i := 0; i+1 < len(ends); i++ {
		isInf := false
		if len(infFns) > 0 {
			if isInf, err = anyPositive(ctx, infFns, poly.Rational(qs[i])); err != nil {
				return pw, err
			}
		}
		if n := len(parts); n > 0 && parts[n-1].inf == isInf {
			if isInf {
				// An isolated finite point between two infinite parts.
				pos, err := anyPositive(ctx, infFns, ends[i])
				if err != nil {
					return pw, err
				}
				if !pos {
					parts = append(parts, part{ends[i], ends[i], false, true}, part{ends[i], ends[i+1], true, false})
					continue
				}
			}
			parts[n-1].hi = ends[i+1]
			continue
		}
		parts = append(parts, part{ends[i], ends[i+1], isInf, false})
	}
	sw := &sweeper{a: a, cands: cands, roots: map[[2]int][]poly.Algebraic{}}
	for k, pt := range parts {
		if pt.inf {
			pw.Pieces = append(pw.Pieces, Piece{Lo: pt.lo, Hi: pt.hi, LoOpen: true, HiOpen: true, Inf: true})
			continue
		}
		if pt.isPoint {
			point, err := pointPiece(ctx, a.c.Limits, cands, pt.lo)
			if err != nil {
				return pw, err
			}
			pw.Pieces = append(pw.Pieces, point)
			continue
		}
		ps, err := sw.sweep(ctx, pt.lo, pt.hi)
		if err != nil {
			return pw, err
		}
		if k > 0 {
			ps[0].LoOpen = false // the cut point after an infinite part
		}
		pw.Pieces = append(pw.Pieces, ps...)
	}
	pw.Pieces[0].LoOpen = in.LoOpen
	pw.Pieces[len(pw.Pieces)-1].HiOpen = in.HiOpen
	// A closed end of the interval where no function of infFns is
	// positive is finite there.
	// finite is the piece [x, x] when no function of infFns is positive
	// at x.
	finite := func(x poly.Algebraic) (Piece, bool, error) {
		if pos, err := anyPositive(ctx, infFns, x); err != nil || pos {
			return Piece{}, false, err
		}
		p, err := pointPiece(ctx, a.c.Limits, cands, x)
		return p, err == nil, err
	}
	if p := pw.Pieces[0]; len(infFns) > 0 && p.Inf && !p.LoOpen {
		point, ok, err := finite(p.Lo)
		if err != nil {
			return pw, err
		}
		if ok {
			pw.Pieces[0].LoOpen = true
			pw.Pieces = append([]Piece{point}, pw.Pieces...)
		}
	}
	if p := &pw.Pieces[len(pw.Pieces)-1]; len(infFns) > 0 && p.Inf && !p.HiOpen {
		point, ok, err := finite(p.Hi)
		if err != nil {
			return pw, err
		}
		if ok {
			p.HiOpen = true
			pw.Pieces = append(pw.Pieces, point)
		}
	}
	return pw, nil
}

// signAt returns the sign of f at x, exactly (x is not a pole of f).
func signAt(ctx context.Context, f poly.RatFunc, x poly.Algebraic) (int, error) {
	n, err := x.SignOf(ctx, f.Num())
	if err != nil || n == 0 {
		return 0, err
	}
	d, err := x.SignOf(ctx, f.Den())
	return n * d, err
}

// anyPositive reports whether some function of fs is positive at x.
func anyPositive(ctx context.Context, fs []poly.RatFunc, x poly.Algebraic) (bool, error) {
	for _, g := range fs {
		s, err := signAt(ctx, g, x)
		if err != nil {
			return false, err
		}
		if s > 0 {
			return true, nil
		}
	}
	return false, nil
}

// sweeper finds the upper envelope of candidate functions part by part,
// keeping the real roots in the interval of the differences it has needed.
type sweeper struct {
	a     *Analysis
	cands []poly.RatFunc
	roots map[[2]int][]poly.Algebraic // roots of cands[i] − cands[j], i < j
}

// sweep returns the pieces of the envelope on the open part (lo, hi) of
// the interval, ascending, each (a, b]. At a rational q inside, the
// function largest at q (a unique one: q moves off points where two tie)
// stays largest up to its nearest crossings with the others on both sides,
// because no difference changes sign in between; the parts beyond those
// crossings are swept in turn. The work is one root isolation per pair of
// a largest function and another, not per pair of candidates.
func (sw *sweeper) sweep(ctx context.Context, lo, hi poly.Algebraic) ([]Piece, error) {
	q, err := poly.Between(ctx, lo, hi)
	if err != nil {
		return nil, err
	}
	best := -1
	for range 1000 {
		b, tied, err := uniqueMax(sw.cands, q)
		if err != nil {
			return nil, err
		}
		if !tied {
			best = b
			break
		}
		if q, err = poly.Between(ctx, lo, poly.Rational(q)); err != nil {
			return nil, err
		}
	}
	if best < 0 {
		return nil, fmt.Errorf("%w: candidate functions tie at 1000 points", ErrParam)
	}
	left, right := lo, hi
	hasLeft, hasRight := false, false
	for g := range sw.cands {
		if g == best {
			continue
		}
		rs, err := sw.crossings(ctx, best, g)
		if err != nil {
			return nil, err
		}
		// The nearest crossings on either side of q (no root is q, where
		// best is the only largest) inside (lo, hi).
		for _, r := range rs {
			side := r.CmpRat(q)
			end := right
			if side < 0 {
				end = left
			}
			c, err := r.Cmp(ctx, end)
			switch {
			case err != nil:
				return nil, err
			case side < 0 && c > 0:
				left, hasLeft = r, true
			case side > 0 && c < 0:
				right, hasRight = r, true
			}
		}
	}
	var out []Piece
	if hasLeft {
		if out, err = sw.sweep(ctx, lo, left); err != nil {
			return nil, err
		}
	}
	out = appendPiece(out, Piece{Lo: left, Hi: right, LoOpen: true, F: sw.cands[best]})
	if hasRight {
		ps, err := sw.sweep(ctx, right, hi)
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			out = appendPiece(out, p)
		}
	}
	return out, nil
}

// appendPiece appends p, merged with the last piece when it is the same
// function.
func appendPiece(ps []Piece, p Piece) []Piece {
	if n := len(ps); n > 0 && !ps[n-1].Inf && !p.Inf && ps[n-1].F.Equal(p.F) {
		ps[n-1].Hi, ps[n-1].HiOpen = p.Hi, p.HiOpen
		return ps
	}
	return append(ps, p)
}

// crossings returns the real roots in the interval of cands[i] − cands[j],
// computed once per pair.
func (sw *sweeper) crossings(ctx context.Context, i, j int) ([]poly.Algebraic, error) {
	key := [2]int{min(i, j), max(i, j)}
	if rs, ok := sw.roots[key]; ok {
		return rs, nil
	}
	// The numerator of the difference over the denominators (which do not
	// vanish on the interval) has the same roots there; most pairs have
	// none, which Descartes' rule shows without isolating them.
	in := sw.a.c.Interval
	num := crossNum(sw.cands[i], sw.cands[j])
	free, err := poly.RootFree(ctx, num, in.Lo, in.Hi)
	if err != nil {
		return nil, err
	}
	var rs []poly.Algebraic
	if !free {
		if rs, err = sw.a.cuts(ctx, []poly.Poly{num}); err != nil {
			return nil, err
		}
	}
	sw.roots[key] = rs
	return rs, nil
}

// uniqueMax returns the index of the largest function at q, and whether
// another one ties with it there.
func uniqueMax(cands []poly.RatFunc, q *big.Rat) (best int, tied bool, err error) {
	var bv *big.Rat
	best = -1
	for k, f := range cands {
		v, err := f.Eval(q)
		if err != nil {
			return 0, false, err
		}
		c := 1
		if best >= 0 {
			c = v.Cmp(bv)
		}
		switch {
		case c > 0:
			best, bv, tied = k, v, false
		case c == 0:
			tied = true
		}
	}
	return best, tied, nil
}

// pointPiece returns the piece [x, x] with a largest function at x
// (rational or not: the candidates are compared by the sign of their
// differences there).
func pointPiece(ctx context.Context, lim poly.Limits, cands []poly.RatFunc, x poly.Algebraic) (Piece, error) {
	best := 0
	for k := 1; k < len(cands); k++ {
		d, err := lim.RatSub(ctx, cands[k], cands[best])
		if err != nil {
			return Piece{}, err
		}
		s, err := signAt(ctx, d, x)
		if err != nil {
			return Piece{}, err
		}
		if s > 0 {
			best = k
		}
	}
	return Piece{Lo: x, Hi: x, F: cands[best]}, nil
}

// trailing returns the multiplicity of the root 0 of p (0 for zero).
func trailing(p poly.Poly) int { return max(p.LowDegree(), 0) }
