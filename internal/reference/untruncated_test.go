package reference

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"testing"
)

// untruncatedMech is one mechanism of untruncated.go on one input: its
// clamped distribution on a window, its partial sums, and the escape bound
// of the window.
type untruncatedMech struct {
	name    string
	inputs  [][]int
	clamped func(lo, hi int, a []int) Dist
	partial func(n int, a []int) Bounds
	escape  func(lo, hi int, a []int) *big.Rat
	centre  int // the windows are [centre−W, centre+W]
}

func untruncatedMechs() []untruncatedMech {
	var ms []untruncatedMech
	for _, s := range []SVTAlg{Lyu1(), Lyu3(), Lyu4(), Lyu5(), Lyu6(), GapSVT()} {
		ms = append(ms, untruncatedMech{
			name: s.Name, inputs: Vectors(3, 0, 2), centre: 1,
			clamped: s.Clamped, partial: s.Partial, escape: s.Escape,
		})
	}
	half := NoisyMaxAlpha()
	for _, value := range []bool{false, true} {
		ms = append(ms, untruncatedMech{
			name: fmt.Sprintf("noisy max (value %v)", value), inputs: Vectors(3, 0, 2), centre: 1,
			clamped: func(lo, hi int, a []int) Dist { return NoisyMaxClamped(half, lo, hi, a, value) },
			partial: func(n int, a []int) Bounds { return NoisyMaxBounds(half, n, a, value) },
			escape:  func(lo, hi int, a []int) *big.Rat { return EscapeBound(half, lo, hi, a...) },
		})
	}
	ms = append(ms, untruncatedMech{
		name: "geometric", inputs: Vectors(1, 0, 5), centre: 2,
		clamped: func(lo, hi int, a []int) Dist { return GeometricClamped(half, a[0], lo, hi) },
		partial: func(n int, a []int) Bounds { return GeometricBounds(half, a[0], n) },
		escape:  func(lo, hi int, a []int) *big.Rat { return EscapeBound(half, lo, hi, a[0]) },
	})
	return ms
}

func union(ds ...Dist) []string {
	seen := map[string]bool{}
	var out []string
	for _, d := range ds {
		for o := range d {
			if !seen[o] {
				seen[o] = true
				out = append(out, o)
			}
		}
	}
	return out
}

// TestUntruncatedClampedWithinBounds: the clamped distribution differs from
// the untruncated one by at most the escape bound B on every output (the
// coupling at the top of untruncated.go), and the untruncated one lies in
// [S, S + Tail]; so clamped ∈ [S − B, S + Tail + B].
func TestUntruncatedClampedWithinBounds(t *testing.T) {
	for _, m := range untruncatedMechs() {
		for _, w := range []int{10, 20, 40} {
			lo, hi := m.centre-w, m.centre+w
			for k, a := range m.inputs {
				if w == 40 && k%5 != 0 { // a sample: the widest window is the slowest
					continue
				}
				cl := m.clamped(lo, hi, a)
				if s := cl.Sum(); s.Cmp(rat(1, 1)) != 0 {
					t.Fatalf("%s W=%d %v: clamped sums to %s", m.name, w, a, s.RatString())
				}
				b := m.partial(w, a)
				esc := m.escape(lo, hi, a)
				if esc.Cmp(rat(1, 100)) > 0 || b.Tail.Cmp(rat(1, 100)) > 0 {
					t.Fatalf("%s W=%d: bounds too loose to test: escape %s, tail %s", m.name, w, esc.FloatString(6), b.Tail.FloatString(6))
				}
				for _, o := range union(cl, b.S) {
					l, h := b.Interval(o)
					l.Sub(l, esc)
					h.Add(h, esc)
					if p := cl.At(o); p.Cmp(l) < 0 || p.Cmp(h) > 0 {
						t.Errorf("%s W=%d %v %q: clamped %s outside [%s, %s]", m.name, w, a, o,
							p.FloatString(12), l.FloatString(12), h.FloatString(12))
					}
				}
			}
		}
	}
}

// TestUntruncatedIntervalsShrink: the intervals of N′ > N nest inside those
// of N (S grows by at most what Tail loses), and Σ_o S(o) ∈ [1 − Tail, 1].
func TestUntruncatedIntervalsShrink(t *testing.T) {
	ns := []int{5, 10, 20, 40}
	for _, m := range untruncatedMechs() {
		for _, a := range m.inputs {
			var prev Bounds
			for k, n := range ns {
				b := m.partial(n, a)
				sum := b.S.Sum()
				low := new(big.Rat).Sub(rat(1, 1), b.Tail)
				if sum.Cmp(rat(1, 1)) > 0 || sum.Cmp(low) < 0 {
					t.Errorf("%s N=%d %v: partial mass %s outside [1 − %s, 1]", m.name, n, a, sum.FloatString(12), b.Tail.FloatString(12))
				}
				if k > 0 {
					if b.Tail.Cmp(prev.Tail) >= 0 {
						t.Errorf("%s %v: tail %s at N=%d not below %s at N=%d", m.name, a, b.Tail.FloatString(12), n, prev.Tail.FloatString(12), ns[k-1])
					}
					for _, o := range union(b.S, prev.S) {
						l, h := b.Interval(o)
						pl, ph := prev.Interval(o)
						if l.Cmp(pl) < 0 || h.Cmp(ph) > 0 {
							t.Errorf("%s %v %q: interval at N=%d not inside that at N=%d", m.name, a, o, n, ns[k-1])
						}
					}
				}
				prev = b
			}
		}
	}
}

// TestGeometricExactInBounds: the closed form of the untruncated geometric
// mechanism lies in the partial-sum intervals (coarsened to L..U: an event's
// interval is [S(A), S(A) + Tail]), and the window size of the partial sum
// agrees with the closed form's exactly inside it.
func TestGeometricExactInBounds(t *testing.T) {
	for _, alpha := range []*big.Rat{rat(1, 2), rat(1, 4), rat(9, 10)} {
		for a := 0; a <= 3; a++ {
			ex := GeometricExact(alpha, a, -2, 6)
			if s := ex.Sum(); s.Cmp(rat(1, 1)) != 0 {
				t.Fatalf("α=%s a=%d: exact sums to %s", alpha.RatString(), a, s.RatString())
			}
			for _, n := range []int{8, 20, 40} {
				b := GeometricBounds(alpha, a, n)
				b.S = Coarsen(b.S, -2, 6)
				for _, o := range union(ex, b.S) {
					if !b.Contains(o, ex.At(o)) {
						l, h := b.Interval(o)
						t.Errorf("α=%s a=%d N=%d %q: exact %s outside [%s, %s]", alpha.RatString(), a, n, o,
							ex.At(o).FloatString(12), l.FloatString(12), h.FloatString(12))
					}
					if o != BelowKey && o != AboveKey && ex.At(o).Cmp(b.S.At(o)) != 0 {
						t.Errorf("α=%s a=%d N=%d %q: partial %s, exact %s", alpha.RatString(), a, n, o, b.S.At(o).RatString(), ex.At(o).RatString())
					}
				}
			}
		}
	}
}

// oldKey maps an output of SparseVector ("⊥⊥⊤", "⊥3", "⊥⊥⊥") or NoisyMax
// ("i=2", "i=2,v=4") to the keys of untruncated.go ("3", "2,3", "0"; "2",
// "2,4").
func oldKey(o string) string {
	if strings.HasPrefix(o, "i=") {
		return strings.Replace(strings.TrimPrefix(o, "i="), ",v=", ",", 1)
	}
	i := strings.Count(o, Bottom)
	rest := strings.ReplaceAll(o, Bottom, "")
	switch rest {
	case "":
		return "0"
	case Top:
		return strconv.Itoa(i + 1)
	}
	return fmt.Sprintf("%d,%s", i+1, rest)
}

func rekey(d Dist) Dist {
	out := Dist{}
	for o, p := range d {
		out.add(oldKey(o), p)
	}
	return out
}

func sameDist(t *testing.T, name string, got, want Dist) {
	t.Helper()
	for _, o := range union(got, want) {
		if got.At(o).Cmp(want.At(o)) != 0 {
			t.Errorf("%s %q: %s, want %s", name, o, got.At(o).RatString(), want.At(o).RatString())
		}
	}
}

// TestUntruncatedClampedAgrees: the clamped versions on the models' window
// [-4, 6] ([-3, 5] for noisy max) are the enumerations of mechanisms.go.
func TestUntruncatedClampedAgrees(t *testing.T) {
	old := svtParams()
	for _, c := range []struct {
		s SVTAlg
		v SVTVariant
	}{{Lyu1(), SVTAlg1}, {Lyu3(), SVTAlg3}, {Lyu5(), SVTAlg5}} {
		for _, a := range Vectors(3, 0, 2) {
			sameDist(t, c.s.Name+" "+VectorKey(a), c.s.Clamped(-4, 6, a), rekey(SparseVector(c.v, old, a)))
		}
	}
	for _, value := range []bool{false, true} {
		for _, a := range Vectors(3, 0, 2) {
			sameDist(t, "noisy max "+VectorKey(a), NoisyMaxClamped(NoisyMaxAlpha(), -3, 5, a, value),
				rekey(NoisyMax(NoisyMaxAlpha(), -3, 5, a, value)))
		}
	}
}

// TestUntruncatedClampedPins: on the models' windows the clamped versions
// give the tight ε and δ the models in models/ state (geometric.dp: the
// truncated 1/2-geometric mechanism over {0..5}, the window [0, 5]).
func TestUntruncatedClampedPins(t *testing.T) {
	nm := func(value bool) func([]int) Dist {
		return func(a []int) Dist { return NoisyMaxClamped(NoisyMaxAlpha(), -3, 5, a, value) }
	}
	svt := func(s SVTAlg) func([]int) Dist { return func(a []int) Dist { return s.Clamped(-4, 6, a) } }
	for _, c := range []struct {
		model  string
		k, aHi int
		f      func([]int) Dist
		ratio  string // "" for ∞
		cDelta string // e^ε of the δ query
		delta  string
	}{
		{"geometric.dp", 1, 5, func(a []int) Dist { return GeometricClamped(NoisyMaxAlpha(), a[0], 0, 5) }, "2", "3/2", "1/6"},
		{"sparse_vector.dp", 3, 2, svt(Lyu1()), "21374156/3056137", "1", "181017313/566231040"},
		{"sparse_vector_alg3.dp", 5, 1, svt(Lyu3()), "32", "", ""},
		{"sparse_vector_alg5.dp", 3, 2, svt(Lyu5()), "", "16", "3/4"},
		{"noisy_max.dp", 3, 2, nm(false), "6844/1853", "1", "20191/55296"},
		{"noisy_max_value.dp", 3, 2, nm(true), "8", "1", "2743/6912"},
	} {
		m := vectorModel(c.k, 0, c.aHi, c.f)
		checkSums(t, c.model, m)
		e := m.TightEps()
		if c.ratio == "" {
			if !e.Infinite {
				t.Errorf("%s: %v, want ∞", c.model, e)
			}
		} else if e.Infinite || e.Ratio.Cmp(r(c.ratio)) != 0 {
			t.Errorf("%s: %v, want ratio %s", c.model, e, c.ratio)
		}
		if c.delta != "" {
			if d := m.TightDelta(r(c.cDelta)); d.Delta.Cmp(r(c.delta)) != 0 {
				t.Errorf("%s: δ(e^ε = %s) %v, want %s", c.model, c.cDelta, d, c.delta)
			}
		}
	}
}

// TestUntruncatedTightRatio bounds the tight e^ε of the untruncated
// mechanisms with finitely many outputs (L∞ neighbours, answers in {0,1,2})
// from partial sums at N = 60, where the intervals are narrower than 10⁻¹²:
// Algorithm 1 and noisy max keep their claimed ε (ln 16, ln 4), Algorithms
// 4 and 6 break ln 16 (Algorithm 4 is (1+6c)/4·ε-DP, e^ε ≤ 128 here), and
// Algorithm 5 has an output one input never gives (see
// models/sparse_vector_alg5.dp).
func TestUntruncatedTightRatio(t *testing.T) {
	inputs := Vectors(3, 0, 2)
	pairs := LInfNeighbours(inputs, 1)
	svtOut := []string{"0", "1", "2", "3"}
	bits := []string{"0,0,0", "0,0,1", "0,1,0", "0,1,1", "1,0,0", "1,0,1", "1,1,0", "1,1,1"}
	for _, c := range []struct {
		name    string
		f       func(n int, a []int) Bounds
		outputs []string
		above   string // lo must exceed it ("": no check)
		below   string // hi must stay under it ("": hi must be nil)
		within  string // hi − lo must stay under it
	}{
		{"alg1", Lyu1().Partial, svtOut, "6", "16", "1/1000000000000"},
		{"alg4", Lyu4().Partial, svtOut, "16", "128", "1/1000000000000"},
		{"alg5", Lyu5().Partial, svtOut, "4", "", ""},
		{"alg6", Lyu6().Partial, bits, "16", "64", "1/1000000000000"},
		{"noisy max", func(n int, a []int) Bounds { return NoisyMaxBounds(NoisyMaxAlpha(), n, a, false) },
			[]string{"1", "2", "3"}, "3", "4", "1/1000000000000"},
	} {
		bs := map[string]Bounds{}
		for _, a := range inputs {
			bs[VectorKey(a)] = c.f(60, a)
		}
		lo, hi := TightRatioBounds(bs, pairs, c.outputs)
		if lo.Cmp(r(c.above)) <= 0 {
			t.Errorf("%s: lower bound %s not above %s", c.name, lo.FloatString(9), c.above)
		}
		switch {
		case c.below == "":
			if hi != nil {
				t.Errorf("%s: upper bound %s, want none", c.name, hi.FloatString(9))
			}
		case hi == nil:
			t.Errorf("%s: no upper bound", c.name)
		default:
			if hi.Cmp(r(c.below)) >= 0 {
				t.Errorf("%s: upper bound %s not below %s", c.name, hi.FloatString(9), c.below)
			}
			if w := new(big.Rat).Sub(hi, lo); w.Cmp(r(c.within)) >= 0 {
				t.Errorf("%s: bounds [%s, %s] wider than %s", c.name, lo.FloatString(20), hi.FloatString(20), c.within)
			}
		}
		if hi != nil {
			t.Logf("%s: e^ε ∈ [%s, %s]", c.name, lo.FloatString(18), hi.FloatString(18))
		}
	}
}

// TestUntruncatedExactInBounds: the closed forms of untruncated_exact.go lie
// in the partial-sum intervals, sum to 1 when the outputs are finitely many
// (and to at most 1 on a window of values otherwise), and give tight ratios
// inside TightRatioBounds.
func TestUntruncatedExactInBounds(t *testing.T) {
	half := NoisyMaxAlpha()
	type mech struct {
		name    string
		finite  bool
		exact   func(a []int) Dist
		partial func(n int, a []int) Bounds
	}
	var ms []mech
	for _, s := range []SVTAlg{Lyu1(), Lyu3(), Lyu4(), Lyu5(), Lyu6(), GapSVT()} {
		ms = append(ms, mech{s.Name, s.kind == svtTop || s.kind == svtAll,
			func(a []int) Dist { return s.Exact(a, -12, 14) }, s.Partial})
	}
	for _, value := range []bool{false, true} {
		ms = append(ms, mech{fmt.Sprintf("noisy max (value %v)", value), !value,
			func(a []int) Dist { return NoisyMaxExact(half, a, value, -12, 14) },
			func(n int, a []int) Bounds { return NoisyMaxBounds(half, n, a, value) }})
	}
	inputs := Vectors(3, 0, 2)
	pairs := LInfNeighbours(inputs, 1)
	for _, m := range ms {
		exact := map[string]Dist{}
		bs := map[string]Bounds{}
		for _, a := range inputs {
			ex := m.exact(a)
			key := VectorKey(a)
			exact[key] = ex
			s := ex.Sum()
			if m.finite && s.Cmp(rat(1, 1)) != 0 || s.Cmp(rat(1, 1)) > 0 || s.Cmp(rat(99, 100)) < 0 {
				t.Errorf("%s %v: exact sums to %s", m.name, a, s.FloatString(20))
			}
			for _, n := range []int{3, 20} {
				b := m.partial(n, a)
				if n == 20 {
					bs[key] = b
				}
				for _, o := range ex.Outputs() {
					if !b.Contains(o, ex[o]) {
						l, h := b.Interval(o)
						t.Errorf("%s %v N=%d %q: exact %s outside [%s, %s]", m.name, a, n, o,
							ex[o].FloatString(15), l.FloatString(15), h.FloatString(15))
					}
				}
			}
		}
		if !m.finite {
			continue
		}
		e := TightEps(exact, pairs)
		var all []Dist
		for _, d := range exact {
			all = append(all, d)
		}
		lo, hi := TightRatioBounds(bs, pairs, union(all...))
		if e.Infinite {
			if hi != nil {
				t.Errorf("%s: exact ratio ∞, bounds [%s, %s]", m.name, lo.FloatString(9), hi.FloatString(9))
			}
			t.Logf("%s: exact %v", m.name, e)
			continue
		}
		if e.Ratio.Cmp(lo) < 0 || hi == nil || e.Ratio.Cmp(hi) > 0 {
			t.Errorf("%s: exact ratio %s outside the bounds [%s, %v]", m.name, e.Ratio.RatString(), lo.FloatString(12), hi)
		}
		t.Logf("%s: exact %v", m.name, e)
	}
}

// TestUntruncatedExactPins pins the tight e^ε of the untruncated mechanisms
// with finitely many outputs (answers in {0,1,2}, L∞ neighbours), as the
// closed forms give them; TestUntruncatedExactInBounds checks them against
// the partial-sum bounds (intervals narrower than 10⁻¹²).
func TestUntruncatedExactPins(t *testing.T) {
	inputs := Vectors(3, 0, 2)
	pairs := LInfNeighbours(inputs, 1)
	for _, c := range []struct {
		name  string
		f     func(a []int) Dist
		part  func(n int, a []int) Bounds
		ratio string // "" for ∞
		tv    string
	}{
		{"alg1", func(a []int) Dist { return Lyu1().Exact(a, 0, 0) }, Lyu1().Partial, "3686/527", "5203/16275"},
		{"alg4", func(a []int) Dist { return Lyu4().Exact(a, 0, 0) }, Lyu4().Partial, "27737816/227137", "602993888/1420686135"},
		{"alg5", func(a []int) Dist { return Lyu5().Exact(a, 0, 0) }, Lyu5().Partial, "", "3/4"},
		{"alg6", func(a []int) Dist { return Lyu6().Exact(a, 0, 0) }, Lyu6().Partial, "45268/1057", "208501/371875"},
		{"noisy max", func(a []int) Dist { return NoisyMaxExact(NoisyMaxAlpha(), a, false, 0, 0) },
			func(n int, a []int) Bounds { return NoisyMaxBounds(NoisyMaxAlpha(), n, a, false) }, "376/103", "23/63"},
	} {
		dists := map[string]Dist{}
		for _, a := range inputs {
			dists[VectorKey(a)] = c.f(a)
		}
		e := TightEps(dists, pairs)
		if c.ratio == "" {
			if !e.Infinite {
				t.Errorf("%s: %v, want ∞", c.name, e)
			}
		} else if e.Infinite || e.Ratio.Cmp(r(c.ratio)) != 0 {
			t.Errorf("%s: %v, want ratio %s", c.name, e, c.ratio)
		}
		tv := TightDelta(dists, pairs, rat(1, 1)).Delta
		if tv.Cmp(r(c.tv)) != 0 {
			t.Errorf("%s: total variation %s, want %s", c.name, tv.RatString(), c.tv)
		}
		// With P = S + e, e ≥ 0 and Σ_o e_o = 1 − Σ_o S(o) ≤ Tail, each
		// Σ_o max(0, P_A − P_B) is within Σ e_A + Σ e_B ≤ 2·Tail of the
		// same sum over the partial sums S.
		parts := map[string]Dist{}
		var tail *big.Rat
		for _, a := range inputs {
			b := c.part(30, a)
			parts[VectorKey(a)], tail = b.S, b.Tail
		}
		diff := new(big.Rat).Sub(TightDelta(parts, pairs, rat(1, 1)).Delta, tv)
		if diff.Abs(diff).Cmp(new(big.Rat).Add(tail, tail)) > 0 {
			t.Errorf("%s: partial sums give total variation %s away from %s", c.name, diff.FloatString(15), tv.RatString())
		}
	}
}

// TestUntruncatedSVTOneRationalFunction: Algorithm 1 with threshold noise
// α² and query noise α (ε1 = ε2 = 2·ln(1/α)) has, at every α tried, the
// tight e^ε
//
//	(α⁹ + α⁸ + 2α⁷ + 3α⁶ + 5α⁵ + 4α⁴ + 3α³ + 3α² + 2α + 1) /
//	(α¹⁰ + 3α⁹ + 4α⁸ + 5α⁷ + 5α⁶ + 4α⁵ + 2α⁴ + α³)
//
// (the rational function models/sparse_vector_untruncated_param.dp states),
// below the claimed α⁻⁴.
func TestUntruncatedSVTOneRationalFunction(t *testing.T) {
	poly := func(a *big.Rat, cs ...int64) *big.Rat { // Σ cs[k]·a^k
		s := new(big.Rat)
		for k, c := range cs {
			s.Add(s, new(big.Rat).Mul(rat(c, 1), pow(a, k)))
		}
		return s
	}
	inputs := Vectors(3, 0, 2)
	pairs := LInfNeighbours(inputs, 1)
	for _, a := range []*big.Rat{rat(1, 10), rat(1, 3), rat(1, 2), rat(2, 3), rat(9, 10), rat(99, 100)} {
		s := SVTAlg{Name: "alg1", AlphaT: new(big.Rat).Mul(a, a), AlphaQ: a, T: 1, kind: svtTop}
		dists := map[string]Dist{}
		for _, v := range inputs {
			dists[VectorKey(v)] = s.Exact(v, 0, 0)
		}
		want := new(big.Rat).Quo(poly(a, 1, 2, 3, 3, 4, 5, 3, 2, 1, 1), poly(a, 0, 0, 0, 1, 2, 4, 5, 5, 4, 3, 1))
		e := TightEps(dists, pairs)
		if e.Infinite || e.Ratio.Cmp(want) != 0 {
			t.Errorf("α = %s: %v, want ratio %s", a.RatString(), e, want.RatString())
		}
		if claim := new(big.Rat).Inv(pow(a, 4)); e.Ratio.Cmp(claim) > 0 {
			t.Errorf("α = %s: ratio %s above α⁻⁴", a.RatString(), e.Ratio.RatString())
		}
	}
}
