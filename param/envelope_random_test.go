package param

import (
	"fmt"
	"math/big"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/poly"
)

// randInterval is one of the parameter intervals of the random chains, and
// whether (1 − α) is positive on it (so that weights may use it); α is
// positive on it unless it holds 0.
type randInterval struct {
	in    poly.Interval
	below bool
}

// weightKind says which factors a random weight may have on an interval.
type weightKind struct {
	below, zero, simple bool // 1 − α > 0; the interval holds 0; no powers
}

func randIntervals() []randInterval {
	return []randInterval{
		{poly.Open(r(0, 1), r(1, 1)), true},
		{poly.Closed(r(1, 4), r(3, 4)), true},
		{poly.Interval{Lo: r(1, 3), Hi: r(2, 1), LoOpen: true}, false},
		{poly.Interval{Lo: r(0, 1), Hi: r(1, 2), LoOpen: true}, true},
		{poly.Closed(r(0, 1), r(1, 1)), false},
	}
}

// randWeight returns a random rational function of α positive on the
// interval: a + b·α, (a + b·α)/(c + d·α), α^k·(1−α)^j (α^k·(1+α)^j when
// 1 − α is not positive on the interval, k = 0 when it holds 0) or a
// constant; only the first and the last when simple.
func randWeight(t *testing.T, rng *rand.Rand, wk weightKind) poly.RatFunc {
	t.Helper()
	a, b := int64(1+rng.Intn(5)), int64(rng.Intn(5))
	kind := rng.Intn(4)
	if wk.simple {
		kind = 3 * rng.Intn(2)
	}
	switch kind {
	case 0:
		return rf(t, []int64{a, b}, []int64{1})
	case 1:
		return rf(t, []int64{a, b}, []int64{int64(1 + rng.Intn(4)), int64(rng.Intn(4))})
	case 2:
		p := poly.FromInts(1)
		for range rng.Intn(4) {
			if !wk.zero {
				p = p.Mul(poly.X())
			}
		}
		f := poly.FromInts(1, 1)
		if wk.below {
			f = poly.FromInts(1, -1)
		}
		for range rng.Intn(4) {
			p = p.Mul(f)
		}
		return poly.FromPoly(p.Scale(r(a, 1)))
	default:
		return rf(t, []int64{a}, []int64{1})
	}
}

// randRow returns a row to the given targets (ascending) with random
// weights normalised to sum to 1.
func randRow(t *testing.T, rng *rand.Rand, wk weightKind, targets []int) []Trans {
	t.Helper()
	ws := make([]poly.RatFunc, len(targets))
	var sum poly.RatFunc
	var err error
	for i := range targets {
		ws[i] = randWeight(t, rng, wk)
		if sum, err = (poly.Limits{}).RatAdd(ctx, sum, ws[i]); err != nil {
			t.Fatal(err)
		}
	}
	row := make([]Trans, len(targets))
	for i, to := range targets {
		p, err := poly.Limits{}.RatDiv(ctx, ws[i], sum)
		if err != nil {
			t.Fatal(err)
		}
		row[i] = Trans{To: to, P: p}
	}
	return row
}

// subset returns a random nonempty subset of from (ascending), all of it
// with probability full.
func subset(rng *rand.Rand, from []int, full float64) []int {
	if rng.Float64() < full {
		return append([]int(nil), from...)
	}
	var s []int
	for _, x := range from {
		if rng.Intn(3) > 0 {
			s = append(s, x)
		}
	}
	if len(s) == 0 {
		s = []int{from[rng.Intn(len(from))]}
	}
	return s
}

// randChain returns a random small parametric chain: 2–4 inputs, 2–5
// outputs, sometimes a layer of 1–3 intermediate states, half of them
// simple (weights constant or linear, so that candidates often cross at
// rational points, and no intermediate layer), rows with random
// supports (so some outputs are unreachable from some inputs), some input
// rows copies of others (ties), random neighbour pairs, and sometimes two
// outputs sharing a value of the variable out (for AnalyzeVar).
func randChain(t *testing.T, rng *rand.Rand) *Chain {
	t.Helper()
	ris := randIntervals()
	ri := ris[rng.Intn(len(ris))]
	nIn, nOut, nMid := 2+rng.Intn(3), 2+rng.Intn(4), 0
	wk := weightKind{below: ri.below, zero: ri.in.Contains(new(big.Rat)), simple: rng.Intn(2) == 0}
	if !wk.simple && rng.Intn(2) == 0 {
		nMid = 1 + rng.Intn(3)
	}
	var names []string
	var vals []chain.Valuation
	var inputs, outs, mids []int
	half := rng.Intn(2) == 0 // outputs 2i and 2i+1 have the same value of out
	for i := range nIn {
		inputs = append(inputs, len(names))
		names = append(names, fmt.Sprintf("s%d", i))
		vals = append(vals, chain.Valuation{{Name: "in", Value: int64(i)}})
	}
	for i := range nMid {
		mids = append(mids, len(names))
		names = append(names, fmt.Sprintf("m%d", i))
		vals = append(vals, nil)
	}
	for i := range nOut {
		outs = append(outs, len(names))
		names = append(names, fmt.Sprintf("o%d", i))
		v := int64(i)
		if half {
			v /= 2
		}
		vals = append(vals, chain.Valuation{{Name: "out", Value: v}})
	}
	rows := make([][]Trans, len(names))
	full := []float64{0.2, 0.5, 0.9}[rng.Intn(3)]
	for _, m := range mids {
		rows[m] = randRow(t, rng, wk, subset(rng, outs, full))
	}
	for k, s := range inputs {
		if k > 0 && rng.Intn(4) == 0 {
			rows[s] = rows[inputs[rng.Intn(k)]] // the same distribution as an earlier input
			continue
		}
		rows[s] = randRow(t, rng, wk, subset(rng, append(append([]int(nil), mids...), outs...), full))
	}
	var pairs [][2]int
	seen := map[[2]int]bool{}
	for i := 0; i+1 < nIn; i++ {
		p := [2]int{inputs[i], inputs[i+1]}
		if rng.Intn(3) == 0 {
			p = [2]int{inputs[rng.Intn(nIn)], inputs[rng.Intn(nIn)]}
			if p[0] == p[1] {
				continue
			}
			if p[0] > p[1] {
				p = [2]int{p[1], p[0]}
			}
		}
		if !seen[p] {
			seen[p] = true
			pairs = append(pairs, p)
		}
	}
	if len(pairs) == 0 {
		pairs = [][2]int{{inputs[0], inputs[1]}}
	}
	frame, err := Frame(names, vals, make([][]string, len(names)), inputs)
	if err != nil {
		t.Fatal(err)
	}
	pc, err := New(ctx, poly.Limits{}, frame, "α", ri.in, rows, pairs)
	if err != nil {
		t.Fatal(err)
	}
	return pc
}

// describe prints a chain's rows and pairs, for failure messages.
func describe(pc *Chain) string {
	var b strings.Builder
	fmt.Fprintf(&b, "α in %s, pairs %v\n", pc.Interval, pc.Neighbours)
	for s, row := range pc.Rows {
		for _, tr := range row {
			fmt.Fprintf(&b, "  %s -> %s: %s\n", pc.Frame.Name(s), pc.Frame.Name(tr.To), tr.P.Format("α"))
		}
	}
	return b.String()
}

// checkPieces fails unless the pieces are ascending, contiguous, cover the
// interval with its ends, each nonempty, adjacent ones different, and the
// finite function continuous across a rational boundary between finite
// pieces (every envelope here is a maximum of continuous functions).
func checkPieces(t *testing.T, st *envelopeStats, what string, in poly.Interval, f Piecewise, continuous bool) {
	t.Helper()
	ps := f.Pieces
	if len(ps) == 0 {
		t.Fatalf("%s: no pieces", what)
	}
	for _, p := range ps[1:] {
		if p.Lo.IsRational() {
			st.ratEnds++
		} else {
			st.irrEnds++
		}
	}
	for _, p := range ps {
		if p.Inf {
			st.infPieces++
		}
	}
	if ps[0].Lo.CmpRat(in.Lo) != 0 || ps[0].LoOpen != in.LoOpen {
		t.Fatalf("%s: first piece starts at %s (open %v), interval %s", what, ps[0].Lo, ps[0].LoOpen, in)
	}
	last := ps[len(ps)-1]
	if last.Hi.CmpRat(in.Hi) != 0 || last.HiOpen != in.HiOpen {
		t.Fatalf("%s: last piece ends at %s (open %v), interval %s", what, last.Hi, last.HiOpen, in)
	}
	for i, p := range ps {
		c, err := p.Lo.Cmp(ctx, p.Hi)
		if err != nil {
			t.Fatal(err)
		}
		if c > 0 || c == 0 && (p.LoOpen || p.HiOpen) {
			t.Fatalf("%s: piece %d is empty: %s", what, i, p.Format("α"))
		}
		if i == 0 {
			continue
		}
		q := ps[i-1]
		c, err = q.Hi.Cmp(ctx, p.Lo)
		if err != nil {
			t.Fatal(err)
		}
		if c != 0 || q.HiOpen == p.LoOpen {
			t.Fatalf("%s: pieces %d and %d do not meet: %s; %s", what, i-1, i, q.Format("α"), p.Format("α"))
		}
		if q.Inf == p.Inf && (q.Inf || q.F.Equal(p.F)) {
			t.Fatalf("%s: pieces %d and %d are the same function: %s; %s", what, i-1, i, q.Format("α"), p.Format("α"))
		}
		if continuous && !q.Inf && !p.Inf && p.Lo.IsRational() {
			x := p.Lo.Rat()
			u, err1 := q.F.Eval(x)
			v, err2 := p.F.Eval(x)
			if err1 != nil || err2 != nil || u.Cmp(v) != 0 {
				t.Fatalf("%s: not continuous at %s: %v, %v", what, x.RatString(), u, v)
			}
		}
	}
}

// probePoints returns rational points of the interval: n random ones, the
// rational piece boundaries and points just next to every boundary (inside
// the isolating interval of an irrational one).
func probePoints(t *testing.T, rng *rand.Rand, in poly.Interval, n int, fs ...Piecewise) []*big.Rat {
	t.Helper()
	var xs []*big.Rat
	seen := map[string]bool{}
	add := func(x *big.Rat) {
		if in.Contains(x) && !seen[x.RatString()] {
			seen[x.RatString()] = true
			xs = append(xs, x)
		}
	}
	width := new(big.Rat).Sub(in.Hi, in.Lo)
	for range n {
		den := int64(2 + rng.Intn(60))
		x := new(big.Rat).Mul(width, r(rng.Int63n(den+1), den))
		add(x.Add(x, in.Lo))
	}
	add(in.Lo)
	add(in.Hi)
	eps := r(1, 100_000)
	for _, f := range fs {
		for _, p := range f.Pieces {
			for _, b := range []poly.Algebraic{p.Lo, p.Hi} {
				if b.IsRational() {
					add(b.Rat())
					add(new(big.Rat).Sub(b.Rat(), eps))
					add(new(big.Rat).Add(b.Rat(), eps))
					continue
				}
				b, err := b.Refine(ctx, eps)
				if err != nil {
					t.Fatal(err)
				}
				lo, hi := b.Bounds()
				add(lo)
				add(hi)
			}
		}
	}
	return xs
}

// hockey returns the largest Σ_o max(0, Pr_s(o) − c·Pr_t(o)) over ordered
// neighbour pairs of the instance, computed here from its distributions.
func hockey(pc *Chain, an interface {
	NumOutputs() int
	OutputName(int) string
	Prob(int, string) *big.Rat
}, c *big.Rat) *big.Rat {
	best := new(big.Rat)
	for _, pr := range pc.Neighbours {
		for _, st := range [][2]int{pr, {pr[1], pr[0]}} {
			sum := new(big.Rat)
			for o := range an.NumOutputs() {
				name := an.OutputName(o)
				g := new(big.Rat).Mul(c, an.Prob(st[1], name))
				g.Sub(an.Prob(st[0], name), g)
				if g.Sign() > 0 {
					sum.Add(sum, g)
				}
			}
			if sum.Cmp(best) > 0 {
				best = sum
			}
		}
	}
	return best
}

// sameEps fails unless the piecewise ε at x equals verify's, exactly.
func sameEps(t *testing.T, what string, x *big.Rat, res *EpsResult, want exact.Eps) {
	t.Helper()
	got, err := res.Eps(x)
	if err != nil {
		t.Fatalf("%s at %s: %v", what, x.RatString(), err)
	}
	if got.IsInf() || want.IsInf() {
		if got.IsInf() != want.IsInf() {
			t.Fatalf("%s at %s: %s, verify %s (pieces %s)", what, x.RatString(), got, want, res)
		}
		return
	}
	c1, ok1 := got.C()
	c2, ok2 := want.C()
	if !ok1 || !ok2 || c1.Cmp(c2) != 0 {
		t.Fatalf("%s at %s: %s, verify %s (pieces %s)", what, x.RatString(), got, want, res)
	}
}

// envelopeStats counts what TestEnvelopeRandom compared.
type envelopeStats struct {
	chains, points, infEps, finiteEps, deltaPts, dpHold, dpFail, pieces, multi, ratEnds, irrEnds, infPieces, byVar, ratioC, massDelta int
}

// TestEnvelopeRandom compares the piecewise results (TightEpsilon,
// TightEpsilonAt, TightDelta, DP) on random small chains with verify on the
// chain instantiated at random rational points, at the piece boundaries and
// just next to them, exactly; and checks the pieces' structure. The seed is
// fixed; ENVELOPE_SEED and ENVELOPE_CHAINS (default 2026 and 28) run other
// or more chains, e.g. ENVELOPE_SEED=7 ENVELOPE_CHAINS=500 go test ./param
// -run TestEnvelopeRandom.
func TestEnvelopeRandom(t *testing.T) {
	var st envelopeStats
	n := 28
	if v := os.Getenv("ENVELOPE_CHAINS"); v != "" {
		n, _ = strconv.Atoi(v)
	}
	rng := rand.New(rand.NewSource(seedFromEnv()))
	for k := range n {
		pc := randChain(t, rng)
		a := mustAnalyze(t, pc)
		if rng.Intn(3) == 0 {
			var err error
			if a, err = AnalyzeVar(ctx, pc, "out"); err != nil {
				t.Fatal(err)
			}
			st.byVar++
		}
		envelopeCheck(t, rng, a, &st, k)
	}
	t.Logf("%+v", st)
	if st.infEps == 0 || st.finiteEps == 0 || st.dpHold == 0 || st.dpFail == 0 || st.multi == 0 || st.byVar == 0 || st.ratEnds == 0 || st.irrEnds == 0 || st.infPieces == 0 || st.ratioC == 0 || st.massDelta == 0 {
		t.Errorf("the random chains missed a case: %+v", st)
	}
}

func envelopeCheck(t *testing.T, rng *rand.Rand, a *Analysis, st *envelopeStats, k int) {
	t.Helper()
	pc := a.Chain()
	defer func() {
		if t.Failed() {
			t.Logf("chain %d:\n%s", k, describe(pc))
		}
	}()
	st.chains++

	in := pc.Interval
	deltas := []poly.RatFunc{{}, rf(t, []int64{1}, []int64{10}), rf(t, []int64{1}, []int64{3}), rf(t, []int64{0, 1}, []int64{3})}
	cs := []poly.RatFunc{konst(t, 1), konst(t, 2), rf(t, []int64{3}, []int64{2}), rf(t, []int64{1}, []int64{0, 1}), rf(t, []int64{1, 1}, []int64{1})}
	if in.Contains(new(big.Rat)) {
		cs[3] = rf(t, []int64{2}, []int64{1, 1}) // 1/α has a pole at 0
	}
	// Coincidences: e^ε the ratio Pr_s(o)/Pr_t(o) of some output (so that
	// Pr_s(o) − c·Pr_t(o) is identically 0), δ the mass Pr_s(Z) of the
	// outputs t never reaches (so that Pr_s(Z) − δ is).
	var ratios, masses []poly.RatFunc
	for _, pr := range pc.Neighbours {
		for _, p := range [][2]int{pr, {pr[1], pr[0]}} {
			ds, _ := a.Distribution(p[0])
			dt, _ := a.Distribution(p[1])
			var z poly.RatFunc
			for i, o := range ds.Out {
				pt := dt.Prob(o)
				if pt.Num().IsZero() {
					var err error
					if z, err = (poly.Limits{}).RatAdd(ctx, z, ds.P[i]); err != nil {
						t.Fatal(err)
					}
					continue
				}
				q, err := poly.Limits{}.RatDiv(ctx, ds.P[i], pt)
				if err != nil {
					t.Fatal(err)
				}
				ratios = append(ratios, q)
			}
			if !z.Num().IsZero() {
				masses = append(masses, z)
			}
		}
	}
	// The simplest of them (the cost grows fast with the degree).
	simplest := func(fs []poly.RatFunc) poly.RatFunc {
		best := fs[0]
		for _, f := range fs[1:] {
			if f.Num().Degree()+f.Den().Degree() < best.Num().Degree()+best.Den().Degree() {
				best = f
			}
		}
		return best
	}
	if len(ratios) > 0 {
		cs = append(cs, simplest(ratios))
		st.ratioC++
	}
	if len(masses) > 0 {
		deltas = append(deltas, simplest(masses))
		st.massDelta++
	}
	eps, err := a.TightEpsilon(ctx)
	if err != nil {
		t.Fatal(err)
	}
	checkPieces(t, st, "tight ε", in, eps.R, false)

	st.pieces += len(eps.R.Pieces)
	if len(eps.R.Pieces) > 1 {
		st.multi++
	}
	type epsAt struct {
		d   poly.RatFunc
		res *EpsResult
	}
	var eat []epsAt
	fs := []Piecewise{eps.R}
	for _, d := range deltas {
		res, err := a.TightEpsilonAt(ctx, d)
		if err != nil {
			t.Fatal(err)
		}
		checkPieces(t, st, "tight ε at δ = "+d.Format("α"), in, res.R, true)
		if len(res.R.Pieces) > 1 {
			st.multi++
		}
		eat = append(eat, epsAt{d, res})
		fs = append(fs, res.R)
	}
	type deltaAt struct {
		c   poly.RatFunc
		res *DeltaResult
		dp  []*DPResult
	}
	var dts []deltaAt
	for _, c := range cs {
		res, err := a.TightDelta(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		checkPieces(t, st, "tight δ at c = "+c.Format("α"), in, res.Delta, true)
		for _, p := range res.Delta.Pieces {
			if p.Inf {
				t.Fatalf("tight δ at c = %s: infinite piece %s", c.Format("α"), p.Format("α"))
			}
		}
		if len(res.Delta.Pieces) > 1 {
			st.multi++
		}
		dt := deltaAt{c: c, res: res}
		for _, d := range deltas {
			dp, err := a.DP(ctx, c, d)
			if err != nil {
				t.Fatal(err)
			}
			dt.dp = append(dt.dp, dp)
		}
		dts = append(dts, dt)
		fs = append(fs, res.Delta)
	}
	for _, x := range probePoints(t, rng, in, 12, fs...) {
		st.points++
		an, err := a.Instance(ctx, x)
		if err != nil {
			t.Fatal(err)
		}
		te, err := an.TightEpsilon(ctx, new(big.Rat))
		if err != nil {
			t.Fatal(err)
		}
		sameEps(t, "tight ε", x, eps, te.Eps)
		if te.Eps.IsInf() {
			st.infEps++
		} else {
			st.finiteEps++
		}
		for _, e := range eat {
			dv, err := e.d.Eval(x)
			if err != nil {
				t.Fatal(err)
			}
			te, err := an.TightEpsilon(ctx, dv)
			if err != nil {
				t.Fatal(err)
			}
			sameEps(t, "tight ε at δ = "+e.d.Format("α"), x, e.res, te.Eps)
		}
		for _, dt := range dts {
			cv, err := dt.c.Eval(x)
			if err != nil {
				t.Fatal(err)
			}
			p, ok := dt.res.Delta.At(x)
			if !ok {
				t.Fatalf("tight δ at c = %s: no piece at %s", dt.c.Format("α"), x.RatString())
			}
			pv, err := p.F.Eval(x)
			if err != nil {
				t.Fatal(err)
			}
			h := hockey(pc, an, cv)
			if pv.Cmp(h) != 0 {
				t.Fatalf("tight δ at c = %s, α = %s: %s, hockey-stick %s (pieces %s)", dt.c.Format("α"), x.RatString(), pv.RatString(), h.RatString(), dt.res)
			}
			var e exact.Eps
			if cv.Cmp(r(1, 1)) >= 0 {
				if e, err = exact.Ln(cv); err != nil {
					t.Fatal(err)
				}
				vd, err := an.TightDelta(ctx, e)
				if err != nil {
					t.Fatal(err)
				}
				if want, ok := vd.Delta.Rat(); !ok || want.Cmp(pv) != 0 {
					t.Fatalf("tight δ at c = %s, α = %s: %s, verify %s", dt.c.Format("α"), x.RatString(), pv.RatString(), vd.Delta)
				}
				st.deltaPts++
			}
			for i, d := range deltas {
				dv, err := d.Eval(x)
				if err != nil {
					t.Fatal(err)
				}
				want := h.Cmp(dv) <= 0
				if cv.Cmp(r(1, 1)) >= 0 {
					v, err := an.DP(ctx, e, dv)
					if err != nil {
						t.Fatal(err)
					}
					if v.Holds != want {
						t.Fatalf("dp(ln %s, %s) at %s: verify %v, hockey-stick %s", cv.RatString(), dv.RatString(), x.RatString(), v.Holds, h.RatString())
					}
				}
				dp := dt.dp[i]
				got, err := dp.Region.Contains(ctx, poly.Rational(x))
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Fatalf("dp(c = %s, δ = %s) at %s: region %s holds %v, hockey-stick %s", dt.c.Format("α"), d.Format("α"), x.RatString(), dp.Region, got, h.RatString())
				}
				if dp.Holds && !want {
					t.Fatalf("dp(c = %s, δ = %s) holds everywhere, fails at %s", dt.c.Format("α"), d.Format("α"), x.RatString())
				}
				if want {
					st.dpHold++
				} else {
					st.dpFail++
				}
			}
		}
	}
	// Every failing claim's witness is outside its region, and verify
	// fails there when it checked.
	for _, dt := range dts {
		for _, dp := range dt.dp {
			if dp.Holds {
				continue
			}
			in, err := dp.Region.Contains(ctx, dp.Witness)
			if err != nil {
				t.Fatal(err)
			}
			if in {
				t.Fatalf("dp(c = %s, δ = %s): witness %s inside region %s", dt.c.Format("α"), dp.Delta.Format("α"), dp.Witness, dp.Region)
			}
			if dp.Instance != nil && dp.Instance.Holds {
				t.Fatalf("dp(c = %s, δ = %s): verify holds at the witness %s", dt.c.Format("α"), dp.Delta.Format("α"), dp.Witness)
			}
		}
	}
}

// seedFromEnv returns ENVELOPE_SEED, or 2026 when it is unset.
func seedFromEnv() int64 {
	s, _ := strconv.ParseInt(os.Getenv("ENVELOPE_SEED"), 10, 64)
	if s == 0 {
		return 2026
	}
	return s
}

// twoInputs returns the chain with inputs s and t (neighbours) going
// straight to outputs o0, o1, … with the given probabilities (a zero one is
// no transition), over the interval in.
func twoInputs(t *testing.T, in poly.Interval, ps, pt []poly.RatFunc) *Chain {
	t.Helper()
	names := []string{"s", "t"}
	for i := range ps {
		names = append(names, fmt.Sprintf("o%d", i))
	}
	rows := make([][]Trans, len(names))
	for i := range ps {
		if !ps[i].Num().IsZero() {
			rows[0] = append(rows[0], Trans{To: 2 + i, P: ps[i]})
		}
		if !pt[i].Num().IsZero() {
			rows[1] = append(rows[1], Trans{To: 2 + i, P: pt[i]})
		}
	}
	frame, err := Frame(names, make([]chain.Valuation, len(names)), make([][]string, len(names)), []int{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	pc, err := New(ctx, poly.Limits{}, frame, "α", in, rows, [][2]int{{0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	return pc
}

// TestEnvelopeTies: candidates that meet three at a time (at a rational
// and at an irrational point), that touch without crossing, and that are
// the same function from different outputs; the tight ε is checked against
// its hand-computed pieces and everything against verify as in
// TestEnvelopeRandom.
func TestEnvelopeTies(t *testing.T) {
	k := func(a, b int64) poly.RatFunc { return rf(t, []int64{a}, []int64{b}) }
	tenth := k(1, 10)
	unit := poly.Open(r(0, 1), r(1, 1))
	type want struct {
		lo, hi *big.Rat
		f      poly.RatFunc
	}
	cases := []struct {
		name   string
		in     poly.Interval
		ps, pt []poly.RatFunc
		want   []want // the tight ε's pieces when rational ends
	}{{
		// s/t ratios 1+α, 2−α, 3/2 (all 3/2 at α = 1/2) and 11/14; t/s
		// ratios below 14/11 < 3/2.
		name: "three meet at 1/2",
		in:   unit,
		ps:   []poly.RatFunc{rf(t, []int64{1, 1}, []int64{10}), rf(t, []int64{2, -1}, []int64{10}), k(3, 20), k(11, 20)},
		pt:   []poly.RatFunc{tenth, tenth, tenth, k(7, 10)},
		want: []want{{r(0, 1), r(1, 2), rf(t, []int64{2, -1}, []int64{1})}, {r(1, 2), r(1, 1), rf(t, []int64{1, 1}, []int64{1})}},
	}, {
		// s/t ratios 2α², 1, 3/2 − α² and (15/2 − α²)/7, all 1 at
		// α = 1/√2 where the two distributions are the same.
		name: "four meet at 1/√2",
		in:   poly.Closed(r(2, 3), r(4, 5)),
		ps:   []poly.RatFunc{rf(t, []int64{0, 0, 2}, []int64{10}), tenth, rf(t, []int64{3, 0, -2}, []int64{20}), rf(t, []int64{15, 0, -2}, []int64{20})},
		pt:   []poly.RatFunc{tenth, tenth, tenth, k(7, 10)},
	}, {
		// s/t ratio 3/2 + 3·(α − 1/2)² touches the constant 3/2 at 1/2
		// and is the largest everywhere.
		name: "touch at 1/2",
		in:   unit,
		ps:   []poly.RatFunc{rf(t, []int64{3, -4, 4}, []int64{8}), k(1, 4), rf(t, []int64{3, 4, -4}, []int64{8})},
		pt:   []poly.RatFunc{k(1, 6), k(1, 6), k(2, 3)},
		want: []want{{r(0, 1), r(1, 1), rf(t, []int64{9, -12, 12}, []int64{4})}},
	}, {
		// The same ratios 2·(1 + α)/3 and its inverse from two outputs
		// (crossing at 1/2), and outputs one input never reaches: +∞ at
		// δ = 0 and where Pr_s(o2) = (1 − α)/2 > δ, finite elsewhere.
		name: "same ratio twice, unreachable output",
		in:   poly.Closed(r(1, 4), r(3, 4)),
		ps:   []poly.RatFunc{rf(t, []int64{1, 1}, []int64{4}), rf(t, []int64{1, 1}, []int64{4}), rf(t, []int64{1, -1}, []int64{2})},
		pt:   []poly.RatFunc{k(3, 8), k(3, 8), k(0, 1), k(1, 4)},
	}}
	rng := rand.New(rand.NewSource(5))
	for i, c := range cases {
		if len(c.ps) < len(c.pt) {
			c.ps = append(c.ps, poly.RatFunc{})
		}
		pc := twoInputs(t, c.in, c.ps, c.pt)
		if c.want != nil {
			eps, err := mustAnalyze(t, pc).TightEpsilon(ctx)
			if err != nil {
				t.Fatal(err)
			}
			ok := len(eps.R.Pieces) == len(c.want)
			for j := 0; ok && j < len(c.want); j++ {
				p := eps.R.Pieces[j]
				ok = !p.Inf && p.Lo.CmpRat(c.want[j].lo) == 0 && p.Hi.CmpRat(c.want[j].hi) == 0 && p.F.Equal(c.want[j].f)
			}
			if !ok {
				t.Errorf("%s: tight ε %s", c.name, eps)
			}
		}
		var st envelopeStats
		envelopeCheck(t, rng, mustAnalyze(t, pc), &st, i)
		t.Logf("%s: %+v", c.name, st)
	}
}
