package verify

// The privacy profile.
//
// For one ordered pair (s, t), H_c(s‖t) = max_E Pr_s(E) - c·Pr_t(E) is the
// upper envelope of the lines δ = A - c·B where (A, B) are the cumulative
// probabilities of the outputs taken in decreasing order of their ratio
// Pr_s/Pr_t, one line after each group of equal ratio. The profile is the
// upper envelope of all these lines over all ordered pairs, on c ≥ 1.
//
// The envelope as a function of c does not depend on which lines it is
// computed from, as long as every line is below it and the lines that
// attain it are there. So:
//
//   - each pair contributes only the lines that can attain its own H_c for
//     some c ≥ 1: the B = 0 line and the line after each group of ratio
//     > 1 (the others are below the previous line on c ≥ 1);
//   - sums are kept as unreduced fractions: no gcd of huge numbers;
//   - a float64 hull of the approximations picks a few candidate lines K,
//     and the exact envelope of K is computed with big rationals;
//   - every other line is then proved to be below the envelope of K, with
//     the certified filter first and exact integer arithmetic when the
//     filter cannot tell (lines through a vertex of the envelope); the
//     lines that are not below are added to K and the exact envelope of K
//     is computed again, which is then the envelope of all lines.
//
// The result is the same canonical list of breakpoints as the
// straightforward sort-and-hull of all lines, with the same exact values.

import (
	"context"
	"github.com/dpcheck/dpcheck/exact"
	"math"
	"math/big"
	"slices"
	"sort"
)

// frac is num/den with num ≥ 0 and den > 0, not necessarily in lowest
// terms. Its Ints may be shared with the distributions or with other fracs
// and are never modified.
type frac struct{ num, den *big.Int }

var (
	fracZero  = frac{big.NewInt(0), big.NewInt(1)}
	approxOne = exact.NewApprox(1, 0)
)

const (
	profChunk  = 256  // lines per work item when certifying
	ctxStride  = 1024 // loop iterations between looks at the context
	fracSlack  = 64   // see fracAcc.add
	floatLimit = 1000 // breakpoints c ≥ 2^floatLimit skip the filter
)

func fracOf(x *big.Rat) frac { return frac{x.Num(), x.Denom()} }

func (f frac) rat() *big.Rat { return new(big.Rat).SetFrac(f.num, f.den) }

func (f frac) approx(sc *big.Int) exact.Approx {
	return exact.ApproxInt(f.num, sc).Div(exact.ApproxInt(f.den, sc))
}

// fracAcc sums non-negative fracs exactly. Like chain.Accumulator it never
// computes a gcd while the denominators divide one another; it reduces
// only when the denominator has grown far beyond those of the terms.
type fracAcc struct {
	num, den big.Int
	q, r, t  big.Int
	terms    int
	single   frac // the only term while terms == 1
	maxDen   int  // bit length of the largest denominator of a term
}

func (s *fracAcc) reset() { s.terms, s.maxDen = 0, 0 }

func (s *fracAcc) add(x frac) {
	if x.num.Sign() == 0 {
		return
	}
	s.terms++
	s.maxDen = max(s.maxDen, x.den.BitLen())
	if s.terms == 1 {
		s.single = x
		return
	}
	if s.terms == 2 {
		s.num.Set(s.single.num)
		s.den.Set(s.single.den)
	}
	if s.den.Cmp(x.den) == 0 {
		s.num.Add(&s.num, x.num)
		return
	}
	if s.den.BitLen() >= x.den.BitLen() {
		if s.q.QuoRem(&s.den, x.den, &s.r); s.r.Sign() == 0 {
			s.t.Mul(x.num, &s.q)
			s.num.Add(&s.num, &s.t)
			return
		}
	} else if s.q.QuoRem(x.den, &s.den, &s.r); s.r.Sign() == 0 {
		s.num.Mul(&s.num, &s.q)
		s.num.Add(&s.num, x.num)
		s.den.Set(x.den)
		return
	}
	s.t.Mul(x.num, &s.den)
	s.num.Mul(&s.num, x.den)
	s.num.Add(&s.num, &s.t)
	s.den.Mul(&s.den, x.den)
	if s.den.BitLen() > 2*s.maxDen+fracSlack {
		s.q.GCD(nil, nil, &s.num, &s.den)
		s.num.Quo(&s.num, &s.q)
		s.den.Quo(&s.den, &s.q)
	}
}

// value returns the sum; it shares nothing with the accumulator.
func (s *fracAcc) value() frac {
	switch s.terms {
	case 0:
		return fracZero
	case 1:
		return s.single
	}
	return frac{new(big.Int).Set(&s.num), new(big.Int).Set(&s.den)}
}

// pline is the line δ = A - c·B with approximations a ≈ A and b ≈ B
// (relative error ≤ 3.1u, see approx.go).
type pline struct {
	A, B frac
	a, b exact.Approx
}

func newPline(A, B frac, sc *big.Int) pline {
	return pline{A: A, B: B, a: A.approx(sc), b: B.approx(sc)}
}

// cmpRatios returns sign(ps1/pt1 - ps2/pt2) exactly, all four > 0.
func (sc *scratch) cmpRatios(ps1, pt1, ps2, pt2 *big.Rat) int {
	// n1·e1/(d1·m1) ? n2·e2/(d2·m2) with ps = n/d, pt = m/e
	sc.t1.Mul(ps1.Num(), pt2.Num())
	sc.t1.Mul(&sc.t1, ps2.Denom())
	sc.t1.Mul(&sc.t1, pt1.Denom())
	sc.t2.Mul(ps2.Num(), pt1.Num())
	sc.t2.Mul(&sc.t2, ps1.Denom())
	sc.t2.Mul(&sc.t2, pt2.Denom())
	return sc.t1.Cmp(&sc.t2)
}

// pairLines returns lines whose upper envelope on c ≥ 1 is H_c(s‖t): the
// B = 0 line of the outputs Pr_t gives probability 0, and the cumulative
// (A, B) after each group of equal ratio Pr_s/Pr_t > 1, in decreasing
// order of ratio. The lines after groups of ratio ≤ 1 are left out: each
// is at most the previous one on c ≥ 1.
func (a *Analysis) pairLines(s, t int, sc *scratch) []pline {
	ds, dt := a.dist[s], a.dist[t]
	accA, accB := &sc.prof.accA, &sc.prof.accB
	accA.reset()
	accB.reset()
	type item struct {
		i, j int
		r    exact.Approx
	}
	var items []item
	match(ds, dt, func(i, j int) {
		if j < 0 {
			accA.add(fracOf(ds.p[i]))
			return
		}
		r := ds.ap[i].Div(dt.ap[j])
		f := exact.CmpFilter(r, approxOne)
		if f == 0 {
			f = sc.cmpRatio(ds.p[i], dt.p[j], ratOne)
		}
		if f > 0 {
			items = append(items, item{i, j, r})
		}
	})
	lines := []pline{newPline(accA.value(), fracZero, &sc.t3)}
	if len(items) == 0 {
		return lines
	}
	sort.SliceStable(items, func(x, y int) bool { return items[x].r.Cmp(items[y].r) > 0 })
	cmpItems := func(x, y item) int { return sc.cmpRatios(ds.p[x.i], dt.p[x.j], ds.p[y.i], dt.p[y.j]) }
	for lo := 0; lo < len(items); {
		// A run of ratios the filter cannot separate is ordered exactly;
		// the ratios of different runs differ.
		hi := lo + 1
		for hi < len(items) && exact.CmpFilter(items[hi].r, items[hi-1].r) == 0 {
			hi++
		}
		run := items[lo:hi]
		allEqual := true
		for _, it := range run[1:] {
			if cmpItems(it, run[0]) != 0 {
				allEqual = false
				break
			}
		}
		if !allEqual {
			sort.SliceStable(run, func(x, y int) bool { return cmpItems(run[x], run[y]) > 0 })
		}
		for k, it := range run {
			accA.add(fracOf(ds.p[it.i]))
			accB.add(fracOf(dt.p[it.j]))
			if k == len(run)-1 || (!allEqual && cmpItems(it, run[k+1]) != 0) {
				lines = append(lines, newPline(accA.value(), accB.value(), &sc.t3))
			}
		}
		lo = hi
	}
	return lines
}

// Profile returns the exact privacy profile ε ↦ δ(ε) for ε ≥ 0: the upper
// envelope, over all ordered pairs, of their hockey-stick divergences as
// functions of c = e^ε.
func (a *Analysis) Profile(ctx context.Context) (*Profile, error) {
	n := a.numOrdered()
	per := make([][]pline, n)
	err := parallel(ctx, "ordered pairs (profile)", n, func(sc *scratch, k int) error {
		s, t := a.orderedPair(k)
		per[k] = a.pairLines(s, t, sc)
		return nil
	})
	if err != nil {
		return nil, err
	}
	total := 0
	for _, ls := range per {
		total += len(ls)
	}
	all := make([]pline, 0, total)
	for k, ls := range per {
		all = append(all, ls...)
		per[k] = nil
	}
	pts, err := profileEnvelope(ctx, all)
	if err != nil {
		return nil, err
	}
	return &Profile{Points: pts, Checked: a.checked()}, nil
}

// PairProfile returns the privacy profile of the single ordered pair
// (from, to), both compared inputs.
func (a *Analysis) PairProfile(ctx context.Context, from, to int) (*Profile, error) {
	if a.dist[from] == nil || a.dist[to] == nil {
		return &Profile{}, nil
	}
	pts, err := profileEnvelope(ctx, a.pairLines(from, to, &scratch{}))
	if err != nil {
		return nil, err
	}
	return &Profile{Points: pts, Checked: Checked{OrderedPairs: 1, Outputs: len(a.outputs)}}, nil
}

// profileEnvelope returns the breakpoints on c ≥ 1 of the upper envelope of
// lines, which include a line with B = 0.
func profileEnvelope(ctx context.Context, lines []pline) ([]ProfilePoint, error) {
	if len(lines) == 0 {
		return nil, nil
	}
	K, err := floatHull(ctx, lines)
	if err != nil {
		return nil, err
	}
	// K must contain the B = 0 line with the largest A: then the envelope
	// of K is ≥ 0, as the envelope of all lines is, and hullPoints never
	// clamps a value of it.
	var sc scratch
	z := -1
	for k := range lines {
		if k%ctxStride == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		l := &lines[k]
		if l.B.num.Sign() == 0 && (z < 0 || sc.cmpFrac(l.A, lines[z].A, l.a, lines[z].a) > 0) {
			z = k
		}
	}
	if z >= 0 && !slices.Contains(K, z) {
		K = append(K, z)
	}
	hull, pts, err := exactEnvelope(ctx, lines, K)
	if err != nil {
		return nil, err
	}
	inK := make([]bool, len(lines))
	for _, k := range K {
		inK[k] = true
	}
	cert := newHullCert(hull, pts)
	above := make([]bool, len(lines))
	chunks := (len(lines) + profChunk - 1) / profChunk
	err = parallel(ctx, "", chunks, func(sc *scratch, c int) error {
		for k := c * profChunk; k < min(len(lines), (c+1)*profChunk); k++ {
			if !inK[k] && !cert.below(&lines[k], sc) {
				above[k] = true
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	n := len(K)
	for k, x := range above {
		if x {
			K = append(K, k)
		}
	}
	if len(K) == n {
		return pts, nil
	}
	_, pts, err = exactEnvelope(ctx, lines, K)
	return pts, err
}

// floatHull returns the indices of the lines on the upper envelope on c ≥ 1
// as computed from the float64 approximations: candidates only, which may
// miss lines of the exact envelope or include others.
func floatHull(ctx context.Context, lines []pline) ([]int, error) {
	fa := make([]float64, len(lines))
	fb := make([]float64, len(lines))
	idx := make([]int, len(lines))
	for k := range lines {
		fa[k], fb[k], idx[k] = lines[k].a.Float(), lines[k].b.Float(), k
	}
	sort.Slice(idx, func(x, y int) bool {
		i, j := idx[x], idx[y]
		if fb[i] != fb[j] {
			return fb[i] > fb[j]
		}
		if fa[i] != fa[j] {
			return fa[i] > fa[j]
		}
		return i < j
	})
	crossF := func(i, j int) float64 { return (fa[i] - fa[j]) / (fb[i] - fb[j]) }
	var hull []int
	for n, l := range idx {
		if n%ctxStride == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if n > 0 && fb[l] == fb[idx[n-1]] {
			continue
		}
		for len(hull) >= 2 && crossF(hull[len(hull)-2], l) <= crossF(hull[len(hull)-2], hull[len(hull)-1]) {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, l)
	}
	for len(hull) >= 2 && crossF(hull[0], hull[1]) <= 1 {
		hull = hull[1:]
	}
	return hull, nil
}

// line is δ = A - c·B.
type line struct{ A, B *big.Rat }

// exactEnvelope returns the upper envelope on c ≥ 1 of lines[k], k in K,
// computed exactly: its lines by decreasing B and its breakpoints.
func exactEnvelope(ctx context.Context, lines []pline, K []int) ([]line, []ProfilePoint, error) {
	type cand struct {
		l    line
		a, b exact.Approx
	}
	cs := make([]cand, len(K))
	for n, k := range K {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		p := &lines[k]
		cs[n] = cand{line{p.A.rat(), p.B.rat()}, p.a, p.b}
	}
	// Sort by B descending; for equal B keep the largest A.
	cmp := func(x, y *big.Rat, ax, ay exact.Approx) int {
		if f := exact.CmpFilter(ax, ay); f != 0 {
			return f
		}
		return x.Cmp(y)
	}
	sort.Slice(cs, func(i, j int) bool {
		if c := cmp(cs[i].l.B, cs[j].l.B, cs[i].b, cs[j].b); c != 0 {
			return c > 0
		}
		return cmp(cs[i].l.A, cs[j].l.A, cs[i].a, cs[j].a) > 0
	})
	var ls []line
	for i, c := range cs {
		if i > 0 && c.l.B.Cmp(cs[i-1].l.B) == 0 {
			continue
		}
		ls = append(ls, c.l)
	}
	hull, err := upperHull(ctx, ls)
	if err != nil {
		return nil, nil, err
	}
	pts, err := hullPoints(ctx, hull)
	return hull, pts, err
}

// cross is where l1 (steeper) and l2 meet: c = (A1-A2)/(B1-B2).
func cross(l1, l2 line) *big.Rat {
	num := new(big.Rat).Sub(l1.A, l2.A)
	return num.Quo(num, new(big.Rat).Sub(l1.B, l2.B))
}

// upperHull returns the lines of the upper envelope on c ≥ 1 of ls, which
// are sorted by strictly decreasing B.
func upperHull(ctx context.Context, ls []line) ([]line, error) {
	var hull []line
	for _, l := range ls {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for len(hull) >= 2 && cross(hull[len(hull)-2], l).Cmp(cross(hull[len(hull)-2], hull[len(hull)-1])) <= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, l)
	}
	// Drop hull lines that only matter below c = 1.
	for len(hull) >= 2 && cross(hull[0], hull[1]).Cmp(ratOne) <= 0 {
		hull = hull[1:]
	}
	return hull, nil
}

// hullPoints returns the breakpoints of an upper hull: c = 1 and where
// consecutive lines meet.
func hullPoints(ctx context.Context, hull []line) ([]ProfilePoint, error) {
	at := func(l line, c *big.Rat) *big.Rat {
		d := new(big.Rat).Mul(c, l.B)
		d.Sub(l.A, d)
		if d.Sign() < 0 { // cannot happen: a line with B = 0 and A ≥ 0 is there
			d.SetInt64(0)
		}
		return d
	}
	pts := []ProfilePoint{{C: big.NewRat(1, 1), Eps: exact.Eps{}, Delta: at(hull[0], ratOne)}}
	for i := 1; i < len(hull); i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c := cross(hull[i-1], hull[i])
		pts = append(pts, ProfilePoint{C: c, Eps: exact.LnOf(c), Delta: at(hull[i], c)})
	}
	return pts, nil
}

// hullCert proves lines to be below an upper envelope on c ≥ 1: hull[i] is
// the envelope on [x[i], x[i+1]] (x[0] = 1, the last piece unbounded), and
// d[i] is its value at x[i].
type hullCert struct {
	hb     []frac
	hbap   []exact.Approx
	x, d   []*big.Rat
	xf, df []float64 // approximations; xf[i] = +Inf when x[i] is too large
}

func newHullCert(hull []line, pts []ProfilePoint) *hullCert {
	var sc big.Int
	h := &hullCert{}
	for i, l := range hull {
		h.hb = append(h.hb, fracOf(l.B))
		h.hbap = append(h.hbap, exact.ApproxRat(l.B, &sc))
		x, d := pts[i].C, pts[i].Delta
		h.x, h.d = append(h.x, x), append(h.d, d)
		xa := exact.ApproxRat(x, &sc)
		xf := math.Inf(1)
		if xa.Exp() < floatLimit {
			xf = xa.Float()
		}
		h.xf, h.df = append(h.xf, xf), append(h.df, exact.ApproxRat(d, &sc).Float())
	}
	return h
}

// below reports whether L ≤ the envelope everywhere on c ≥ 1. The
// difference L - envelope is concave, with slope B_hull[i] - B_L on piece
// i: it is largest at x[j] for the first j with B_hull[j] ≤ B_L, and grows
// without bound when there is none.
func (h *hullCert) below(L *pline, sc *scratch) bool {
	j := sort.Search(len(h.hb), func(i int) bool { return sc.cmpFrac(h.hb[i], L.B, h.hbap[i], L.b) <= 0 })
	if j == len(h.hb) {
		return false
	}
	return sc.cmpLineAt(L, h.x[j], h.d[j], h.xf[j], h.df[j]) <= 0
}

// cmpFrac returns sign(x - y) exactly, given approximations of both.
func (sc *scratch) cmpFrac(x, y frac, ax, ay exact.Approx) int {
	if f := exact.CmpFilter(ax, ay); f != 0 {
		return f
	}
	sc.t1.Mul(x.num, y.den)
	sc.t2.Mul(y.num, x.den)
	return sc.t1.Cmp(&sc.t2)
}

// cmpLineAt returns sign(A - x·B - d) for the line L = (A, B) exactly,
// where xf ≈ x ≥ 1 and df ≈ d ≥ 0 come from approxRat.
//
// Error of the float evaluation g = (a - xf·b) - df: a, b, df are within
// 3.1u relative and 2^-1074 absolute of A, B, d (approxRat, then float()),
// xf within 3.1u of x; the product and the two differences add one
// rounding each (or 2^-1075 absolute in the subnormal range). So
// |g - (A - x·B - d)| ≤ 16u·(a + xf·b + df) + (xf + 3)·2^-1072 to first
// order, and the bound below is more than sixteen times that.
func (sc *scratch) cmpLineAt(L *pline, x, d *big.Rat, xf, df float64) int {
	if !math.IsInf(xf, 1) {
		a, b := L.a.Float(), L.b.Float()
		p := xf * b
		g := a - p - df
		bound := 0x1p-45*(a+p+df) + (xf+4)*0x1p-1060
		if g < -bound {
			return -1
		}
		if g > bound {
			return 1
		}
	}
	// Over a common denominator D, A = n1/D and B = n2/D; with x = p/q and
	// d = r/s the sign is that of n1·q·s - n2·p·s - r·q·D. D is the larger
	// denominator when one divides the other (as for the powers of a
	// geometric mechanism), else their product.
	A, B := L.A, L.B
	ps := &sc.prof
	n1, n2, D := A.num, B.num, A.den
	switch {
	case A.den == B.den || A.den.Cmp(B.den) == 0:
	case divides(A.den, B.den, &ps.m, &ps.r):
		n1, D = ps.n1.Mul(A.num, &ps.m), B.den
	case divides(B.den, A.den, &ps.m, &ps.r):
		n2 = ps.n2.Mul(B.num, &ps.m)
	default:
		n1 = ps.n1.Mul(A.num, B.den)
		n2 = ps.n2.Mul(B.num, A.den)
		if d.Sign() != 0 {
			D = ps.d.Mul(A.den, B.den)
		}
	}
	t1, t2 := &sc.t1, &sc.t2
	t1.Mul(n1, x.Denom())
	t1.Mul(t1, d.Denom())
	t2.Mul(n2, x.Num())
	t2.Mul(t2, d.Denom())
	t1.Sub(t1, t2)
	if d.Sign() != 0 {
		t2.Mul(D, d.Num())
		t2.Mul(t2, x.Denom())
		t1.Sub(t1, t2)
	}
	return t1.Sign()
}

// divides reports whether y is a multiple of x > 0, leaving y/x in m.
func divides(x, y, m, r *big.Int) bool {
	if y.BitLen() < x.BitLen() {
		return false
	}
	m.QuoRem(y, x, r)
	return r.Sign() == 0
}

// profScratch is a worker's working space for the profile.
type profScratch struct {
	accA, accB      fracAcc
	n1, n2, d, m, r big.Int
}
