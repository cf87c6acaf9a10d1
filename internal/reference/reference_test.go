package reference

import (
	"math/big"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var ratCmp = cmp.Comparer(func(a, b *big.Rat) bool { return a.Cmp(b) == 0 })

func r(s string) *big.Rat {
	q, ok := new(big.Rat).SetString(s)
	if !ok {
		panic("bad rational " + s)
	}
	return q
}

func rats(ss ...string) []*big.Rat {
	out := make([]*big.Rat, len(ss))
	for i, s := range ss {
		out[i] = r(s)
	}
	return out
}

func svtParams() SVTParams {
	return SVTParams{AlphaT: r("1/4"), AlphaQ: r("1/2"), T: 1, Lo: -4, Hi: 6}
}

// checkSums asserts that every input's distribution sums to exactly 1.
func checkSums(t *testing.T, name string, m Model) {
	t.Helper()
	if len(m.Inputs) != len(m.Dist) || len(m.Pairs) == 0 {
		t.Fatalf("%s: %d inputs, %d distributions, %d pairs", name, len(m.Inputs), len(m.Dist), len(m.Pairs))
	}
	for _, in := range m.Inputs {
		if s := m.Dist[in].Sum(); s.Cmp(r("1")) != 0 {
			t.Errorf("%s: input %s sums to %s", name, in, s.RatString())
		}
	}
}

// expectEps asserts the tight ε ratio (nil: infinite) and, when from is not
// empty, the witness.
func expectEps(t *testing.T, name string, got EpsResult, ratio *big.Rat, from, to, output string) {
	t.Helper()
	if ratio == nil {
		if !got.Infinite {
			t.Errorf("%s: tight ε %v, want ∞", name, got)
		}
	} else if got.Infinite || got.Ratio.Cmp(ratio) != 0 {
		t.Errorf("%s: tight ε %v, want ratio %s", name, got, ratio.RatString())
	}
	if from != "" && (got.From != from || got.To != to || got.Output != output) {
		t.Errorf("%s: witness %s vs %s on %q, want %s vs %s on %q", name, got.From, got.To, got.Output, from, to, output)
	}
}

func expectDelta(t *testing.T, name string, got DeltaResult, delta *big.Rat, from, to string) {
	t.Helper()
	if got.Delta.Cmp(delta) != 0 {
		t.Errorf("%s: δ %v, want %s", name, got, delta.RatString())
	}
	if from != "" && (got.From != from || got.To != to) {
		t.Errorf("%s: δ attained by %s vs %s, want %s vs %s", name, got.From, got.To, from, to)
	}
}

func TestTwoSidedGeometricClosedForms(t *testing.T) {
	for _, alpha := range rats("1/2", "1/4", "2/3", "99/100") {
		onePlus := new(big.Rat).Add(r("1"), alpha)
		for c := -3; c <= 8; c++ {
			for lo := -2; lo <= 3; lo++ {
				for hi := lo + 1; hi <= 6; hi++ {
					p := TwoSidedGeometric(alpha, c, lo, hi)
					if s := p.Sum(); s.Cmp(r("1")) != 0 {
						t.Fatalf("α=%s c=%d [%d,%d]: sum %s", alpha, c, lo, hi, s.RatString())
					}
					// Widening the range splits an end point's tail exactly.
					wide := TwoSidedGeometric(alpha, c, lo-1, hi+1)
					lowSum := new(big.Rat).Add(wide.At(lo-1), wide.At(lo))
					highSum := new(big.Rat).Add(wide.At(hi+1), wide.At(hi))
					if lowSum.Cmp(p.At(lo)) != 0 || highSum.Cmp(p.At(hi)) != 0 {
						t.Fatalf("α=%s c=%d [%d,%d]: tails do not split", alpha, c, lo, hi)
					}
					if c < lo || c > hi {
						continue
					}
					wantLo := new(big.Rat).Quo(pow(alpha, c-lo), onePlus)
					wantHi := new(big.Rat).Quo(pow(alpha, hi-c), onePlus)
					if p.At(lo).Cmp(wantLo) != 0 || p.At(hi).Cmp(wantHi) != 0 {
						t.Fatalf("α=%s c=%d [%d,%d]: ends %s, %s, want %s, %s", alpha, c, lo, hi,
							p.At(lo).RatString(), p.At(hi).RatString(), wantLo.RatString(), wantHi.RatString())
					}
				}
			}
		}
	}
}

func TestOneSidedGeometric(t *testing.T) {
	for _, alpha := range rats("1/2", "1/3", "3/4") {
		for c := -2; c <= 6; c++ {
			p := OneSidedGeometric(alpha, c, 0, 5)
			if s := p.Sum(); s.Cmp(r("1")) != 0 {
				t.Fatalf("α=%s c=%d: sum %s", alpha, c, s.RatString())
			}
			if c <= 5 {
				if want := pow(alpha, 5-c); p.At(5).Cmp(want) != 0 {
					t.Errorf("α=%s c=%d: P(hi) = %s, want %s", alpha, c, p.At(5).RatString(), want.RatString())
				}
			}
			for v := 1; v < min(c, 5); v++ {
				if p.At(v).Sign() != 0 {
					t.Errorf("α=%s c=%d: P(%d) = %s below the centre", alpha, c, v, p.At(v).RatString())
				}
			}
		}
	}
	want := rats("0", "0", "1/2", "1/4", "1/8", "1/8")
	if diff := cmp.Diff(want, OneSidedGeometric(r("1/2"), 2, 0, 5).P, ratCmp); diff != "" {
		t.Errorf("one-sided 1/2-geometric from 2 over [0, 5] (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(rats("1/4", "1/4", "1/4", "1/4"), Uniform(2, 5).P, ratCmp); diff != "" {
		t.Error(diff)
	}
	if diff := cmp.Diff(rats("2/3", "1/3"), Bernoulli(r("1/3")).P, ratCmp); diff != "" {
		t.Error(diff)
	}
}

func TestTruncatedGeometric(t *testing.T) {
	rows := map[string][]*big.Rat{
		"1/2": rats("2/3", "1/6", "1/12", "1/24", "1/48", "1/48"),
		"1/4": rats("4/5", "3/20", "3/80", "3/320", "3/1280", "1/1280"),
	}
	for a, want := range rows {
		if diff := cmp.Diff(want, TruncatedGeometric(r(a), 5, 0).P, ratCmp); diff != "" {
			t.Errorf("row 0 of the truncated %s-geometric (-want +got):\n%s", a, diff)
		}
	}
	for _, a := range []string{"1/2", "1/4", "2/3", "99/100"} {
		for _, n := range []int{1, 2, 5, 9} {
			m := TruncatedGeometricModel(r(a), n)
			checkSums(t, "geometric", m)
			expectEps(t, "geometric α="+a, m.TightEps(), new(big.Rat).Inv(r(a)), "0", "1", "0")
		}
	}
	m := TruncatedGeometricModel(r("1/2"), 5)
	expectDelta(t, "geometric 1/2 TV", m.TV(), r("1/3"), "0", "1")
	for c, d := range map[string]string{"5/4": "1/4", "3/2": "1/6", "7/4": "1/12", "2": "0"} {
		expectDelta(t, "geometric 1/2 at c="+c, m.TightDelta(r(c)), r(d), "", "")
	}
}

func TestSparseVectorShapes(t *testing.T) {
	p := svtParams()
	d := SparseVector(SVTAlg1, p, []int{0, 0, 0})
	if diff := cmp.Diff([]string{"⊤", "⊥⊤", "⊥⊥⊤", "⊥⊥⊥"}, d.Outputs()); diff != "" {
		t.Errorf("Alg 1 outputs (-want +got):\n%s", diff)
	}
	want := Dist{"⊤": r("45643/122880"), "⊥⊤": r("2321699/11796480"), "⊥⊥⊤": r("137404057/1132462080"), "⊥⊥⊥": r("351529031/1132462080")}
	if diff := cmp.Diff(want, d, ratCmp); diff != "" {
		t.Errorf("Alg 1 on (0,0,0) (-want +got):\n%s", diff)
	}
	// Alg 5 on (0,0,0): ⊤ iff T' ≤ 0, and then at once.
	if diff := cmp.Diff(Dist{"⊤": r("1/5"), "⊥⊥⊥": r("4/5")}, SparseVector(SVTAlg5, p, []int{0, 0, 0}), ratCmp); diff != "" {
		t.Errorf("Alg 5 on (0,0,0) (-want +got):\n%s", diff)
	}
	// An answer at the top of the range is ⊤ whatever the threshold.
	if got := SparseVector(SVTAlg5, p, []int{6, 0}); len(got) != 1 || got.At(Top).Cmp(r("1")) != 0 {
		t.Errorf("Alg 5 on (6, 0): %v", got)
	}
	if got := len(SparseVector(SVTAlg3, p, []int{0, 0, 0})); got != 32 {
		t.Errorf("Alg 3 on (0,0,0): %d outputs, want 32", got)
	}
}

// The exact tight ε at δ = 0 and δ at ε = 0 of every mechanism, with the
// first witness in pair order; these are the expected values of the model
// files.
func TestTightValues(t *testing.T) {
	p := svtParams()
	half := r("1/2")
	for _, c := range []struct {
		name             string
		model            func() Model
		ratio            string // "" for ∞
		from, to, output string
		tv, tvFrom, tvTo string
		at16             string // δ at ε = ln 16, "" when not checked
	}{
		{"sparse vector Alg 1", func() Model { return SparseVectorModel(SVTAlg1, p, 3, 0, 2) },
			"21374156/3056137", "1,1,1", "2,2,0", "⊥⊥⊤", "181017313/566231040", "0,1,0", "1,0,1", "0"},
		{"sparse vector Alg 3", func() Model { return SparseVectorModel(SVTAlg3, p, 3, 0, 2) },
			"8", "0,0,0", "1,1,1", "⊥⊥-1", "106449289/283115520", "0,1,1", "1,0,2", "0"},
		{"sparse vector Alg 5", func() Model { return SparseVectorModel(SVTAlg5, p, 3, 0, 2) },
			"", "0,0,1", "0,0,0", "⊥⊥⊤", "3/4", "0,0,2", "0,1,1", "3/4"},
		{"noisy max m=2 index", func() Model { return NoisyMaxModel(half, -3, 5, 2, 0, 2, false) },
			"13/5", "1,1", "2,0", "i=2", "1/3", "0,1", "1,0", ""},
		{"noisy max m=2 value", func() Model { return NoisyMaxModel(half, -3, 5, 2, 0, 2, true) },
			"4", "0,0", "1,1", "i=1,v=-1", "1/3", "0,0", "1,1", ""},
		{"noisy max m=3 index", func() Model { return NoisyMaxModel(half, -3, 5, 3, 0, 2, false) },
			"6844/1853", "1,1,1", "2,2,0", "i=3", "20191/55296", "0,1,1", "1,0,0", ""},
		{"noisy max m=3 value", func() Model { return NoisyMaxModel(half, -3, 5, 3, 0, 2, true) },
			"8", "0,0,0", "1,1,1", "i=1,v=-1", "2743/6912", "0,2,1", "1,1,2", ""},
		{"histogram 2 bins {0..3}", func() Model { return HistogramModel(half, 3, 2) },
			"2", "0,0", "0,1", "0,0", "1/3", "0,0", "0,1", ""},
		{"above threshold K=4", func() Model { return AboveThresholdModel(r("1/4"), half, 5, 4) },
			"16", "d4_t0", "d5_t0", "never", "18139/61440", "d4_t5", "d5_t5", ""},
		{"above threshold K=5", func() Model { return AboveThresholdModel(r("1/4"), half, 5, 5) },
			"32", "d4_t0", "d5_t0", "never", "18139/61440", "d4_t5", "d5_t5", ""},
		{"truncated geometric 1/2 n=5", func() Model { return TruncatedGeometricModel(half, 5) },
			"2", "0", "1", "0", "1/3", "0", "1", ""},
		{"truncated geometric 1/4 n=5", func() Model { return TruncatedGeometricModel(r("1/4"), 5) },
			"4", "0", "1", "0", "3/5", "0", "1", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := c.model()
			checkSums(t, c.name, m)
			var ratio *big.Rat
			if c.ratio != "" {
				ratio = r(c.ratio)
			}
			eps, tv := m.TightEps(), m.TV()
			expectEps(t, c.name, eps, ratio, c.from, c.to, c.output)
			expectDelta(t, c.name, tv, r(c.tv), c.tvFrom, c.tvTo)
			t.Logf("%s: %d inputs, %d pairs", c.name, len(m.Inputs), len(m.Pairs))
			t.Logf("  tight ε at δ=0: %v", eps)
			t.Logf("  δ at ε=0: %v", tv)
			if c.at16 != "" {
				d := m.TightDelta(r("16"))
				expectDelta(t, c.name+" at ln 16", d, r(c.at16), "", "")
				t.Logf("  δ at ε=ln 16: %v", d)
			}
		})
	}
}

func TestHistogram(t *testing.T) {
	m := HistogramModel(r("1/2"), 3, 2)
	if len(m.Inputs) != 16 || len(m.Pairs) != 24 {
		t.Errorf("histogram: %d inputs, %d pairs, want 16, 24", len(m.Inputs), len(m.Pairs))
	}
	// Only one bin changes: ε = ln 2, not 2·ln 2.
	expectEps(t, "histogram", m.TightEps(), r("2"), "", "", "")
	if got := Histogram(r("1/2"), 3, []int{0, 0}).At("0,0"); got.Cmp(r("4/9")) != 0 {
		t.Errorf("histogram Pr(0,0 | 0,0) = %s, want 4/9", got.RatString())
	}
}

func TestAboveThreshold(t *testing.T) {
	at := func(d int) Dist { return AboveThreshold(r("1/4"), r("1/2"), 5, 3, d, 3) }
	want := map[int][]*big.Rat{
		5: rats("3461/3840", "15581/184320", "99629/8847360"),
		4: rats("1541/1920", "1297/9216", "7393/221184"),
	}
	for d, w := range want {
		dist := at(d)
		got := []*big.Rat{dist.At("halt_1"), dist.At("halt_2"), dist.At("halt_3")}
		if diff := cmp.Diff(w, got, ratCmp); diff != "" {
			t.Errorf("above threshold t=3 d=%d (-want +got):\n%s", d, diff)
		}
	}
	for k, ratio := range map[int]string{4: "16", 5: "32"} {
		m := AboveThresholdModel(r("1/4"), r("1/2"), 5, k)
		checkSums(t, "above threshold", m)
		eps := m.TightEps()
		expectEps(t, "above threshold", eps, r(ratio), "", "", "")
		t.Logf("above threshold K=%d: tight ε at δ=0: %v", k, eps)
		t.Logf("  δ at ε=0: %v", m.TV())
	}
}
