package reference

import (
	"fmt"
	"math/big"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestValueSign(t *testing.T) {
	for _, tt := range []struct {
		v    Value
		want int
	}{
		{Value{A: r("2718281828/1000000000"), B: r("-1"), E: 1}, -1}, // e > 2.718281828
		{Value{A: r("2718281829/1000000000"), B: r("-1"), E: 1}, 1},  // e < 2.718281829
		{Value{A: r("7389056098/1000000000"), B: r("-1"), E: 2}, -1}, // e² = 7.3890560989…
		{Value{A: r("7389056099/1000000000"), B: r("-1"), E: 2}, 1},
		{Value{A: r("0"), B: r("0"), E: 1}, 0},
		{Value{A: r("-1/3"), B: r("0"), E: 1}, -1},
	} {
		if got := tt.v.Sign(); got != tt.want {
			t.Errorf("sign of %s = %d, want %d", tt.v, got, tt.want)
		}
		c := newComparer(tt.v.E)
		if got := c.cmp(tt.v, Value{A: new(big.Rat), B: new(big.Rat), E: tt.v.E}); got != tt.want {
			t.Errorf("comparer: sign of %s = %d, want %d", tt.v, got, tt.want)
		}
	}
}

// TestInteractiveSurveyMDP: the paper's interactive survey, by hand. One
// question: L gives 3/4 vs 1/4, H 4/5 vs 1/5, so the tight ε is ln 4 (H)
// and the total variation 4/5 − 1/5 = 3/5. Two questions: ln 16 (HH);
// the total variation is 1/2 under LL (9/16 − 1/16 on YY, and YN, NY
// tie), 3/5 under HH (16/25 − 1/25), and 3/5 under LH too: YY 12/20 vs
// 1/20, NY 4/20 vs 3/20, so 11/20 + 1/20. Three questions under HHH: at
// least two yes, 112/125 vs 13/125, 99/125. At ε = 1, the events are the
// traces with ratio above e: Y (4/5 − e/5), YY (16/25 − e/25), and the
// traces with two yes or more under HHH (112/125 − 13e/125).
func TestInteractiveSurveyMDP(t *testing.T) {
	obs := []string{"out_Y", "out_N"}
	for _, tt := range []struct {
		q              int
		ratio          string
		ratioSeq       []string
		tv             string
		tvSeq, tvEvent []string
		e1             string
		e1Seq          []string
	}{
		{1, "4", []string{"H"}, "3/5", []string{"H"}, []string{"{out_Y}"}, "4/5 - 1/5·e", []string{"H"}},
		{2, "16", []string{"H", "H"}, "3/5", []string{"L", "H"}, []string{"{out_N}{out_Y}", "{out_Y}{out_Y}"}, "16/25 - 1/25·e", []string{"H", "H"}},
		{3, "64", []string{"H", "H", "H"}, "99/125", []string{"H", "H", "H"},
			[]string{"{out_N}{out_Y}{out_Y}", "{out_Y}{out_N}{out_Y}", "{out_Y}{out_Y}{out_N}", "{out_Y}{out_Y}{out_Y}"}, "112/125 - 13/125·e", []string{"H", "H", "H"}},
	} {
		m, pairs := InteractiveSurveyMDP(tt.q)
		ratio, inf, seq := m.TightRatioTraces(pairs, tt.q, obs)
		if inf || ratio.RatString() != tt.ratio || !cmp.Equal(seq, tt.ratioSeq) {
			t.Errorf("q = %d: tight e^ε %s (inf %v) under %v, want %s under %v", tt.q, ratio.RatString(), inf, seq, tt.ratio, tt.ratioSeq)
		}
		w := m.TightDeltaTraces(pairs, tt.q, obs, EPow(0))
		if w.Delta.String() != tt.tv || !cmp.Equal(w.Seq, tt.tvSeq) || !cmp.Equal(w.Event, tt.tvEvent) || m.Names[w.From] != "pos_" {
			t.Errorf("q = %d: δ at ε = 0 %s under %v on %v from %s, want %s under %v on %v from pos_", tt.q, w.Delta, w.Seq, w.Event, m.Names[w.From], tt.tv, tt.tvSeq, tt.tvEvent)
		}
		if want := int64(1) << (tt.q); w.Sequences != want {
			t.Errorf("q = %d: %d sequences, want %d", tt.q, w.Sequences, want)
		}
		w = m.TightDeltaTraces(pairs, tt.q, obs, EPow(1))
		if w.Delta.String() != tt.e1 || !cmp.Equal(w.Seq, tt.e1Seq) {
			t.Errorf("q = %d: δ at ε = 1 %s under %v, want %s under %v", tt.q, w.Delta, w.Seq, tt.e1, tt.e1Seq)
		}
	}
	// The paper's D{ln 9, 0}[X (out_Y & X out_Y)] fails for the
	// interactive survey: HH gives 16/25 vs 1/25; the tight δ at ln 9 is
	// 16/25 − 9/25 = 7/25; at ε = 0 it is 15/25 = 3/5.
	m, pairs := InteractiveSurveyMDP(2)
	yy := []string{"out_Y", "out_Y"}
	if w := m.TightDeltaD(pairs, yy, LnOf(r("9"))); w.Delta.String() != "7/25" || !cmp.Equal(w.Seq, []string{"H", "H"}) ||
		w.PFrom.RatString() != "16/25" || w.PTo.RatString() != "1/25" {
		t.Errorf("D{ln 9}[X (out_Y & X out_Y)]: δ %s under %v (%s vs %s), want 7/25 under [H H] (16/25 vs 1/25)", w.Delta, w.Seq, w.PFrom.RatString(), w.PTo.RatString())
	}
	if w := m.TightDeltaD(pairs, yy, EPow(0)); w.Delta.String() != "3/5" {
		t.Errorf("D{0}[X (out_Y & X out_Y)]: δ %s, want 3/5", w.Delta)
	}
	// Proposition 2 is exact here: every state has both actions, and the
	// extremes pick H from pos and from neg.
	if v, _, _ := m.Prop2(pairs, yy, EPow(0)); v.String() != "3/5" {
		t.Errorf("Proposition 2 at ε = 0: %s, want 3/5", v)
	}
}

// TestThresholdMDPAgreesWithChain: under the query that always answers d
// (action "m<d>n<d>"), the MDP from (0, t, d) is the offline above
// threshold on database d: Pr(ψ_k) is Pr(halt_{k+1}).
func TestThresholdMDPAgreesWithChain(t *testing.T) {
	at, aq := r("1/4"), r("1/2")
	m, _ := ThresholdMDP(at, aq, 5, false)
	for _, dt := range [][2]int{{5, 3}, {4, 3}, {0, 5}, {2, 0}} {
		d, th := dt[0], dt[1]
		chain := AboveThreshold(at, aq, 5, 6, d, th)
		act := -1
		for a, name := range m.Actions {
			if name == fmt.Sprintf("m%dn%d", d, d) {
				act = a
			}
		}
		seq := []int{act, act, act, act, act, act}
		for role := range 2 {
			s := m.Lookup(fmt.Sprintf("(%d,%d,%d)", role, th, d))
			for k := 0; k < 6; k++ {
				got := m.Prob(s, seq, Psi(k))
				want := chain[fmt.Sprintf("halt_%d", k+1)]
				if want == nil {
					want = new(big.Rat)
				}
				if got.Cmp(want) != 0 {
					t.Errorf("d = %d, t = %d, role %d: Pr(ψ_%d) = %s, the chain's halt_%d %s", d, th, role, k, got.RatString(), k+1, want.RatString())
				}
			}
		}
	}
}

// prop2Table formats Proposition 2's bound for k = 0..12 for the pairs at
// f, one line a k: the exact value, 6 decimals and the pair.
func prop2Table(m *MDP, pairs [][2]int, labels func(int) []string, f Factor) []string {
	var out []string
	for k := 0; k <= 12; k++ {
		v, s, u := m.Prop2(pairs, labels(k), f)
		out = append(out, fmt.Sprintf("k=%d %s = %.6f %s>%s", k, v, v.Float(), m.Names[s], m.Names[u]))
	}
	return out
}

// TestThresholdProp2 reproduces the paper's claims with Proposition 2's
// bound (Liu, Wang and Zhang, APLAS 2018, the MDP section): for t = 3 and
// answers 5 vs 4, D{0, 0.17}[ψ_k] for every k; over every neighbouring
// pair, D{1, 0.74}[ψ_k] for every k. With threshold noise 1/4 and ">="
// both hold: the bounds are at most 1661/10240 = 0.16221 (k = 1) and
// 0.71472 (k = 2), and decrease from there on. With ">" or threshold
// noise 1/2, the first claim fails at k = 1.
func TestThresholdProp2(t *testing.T) {
	m, pairs := ThresholdMDP(r("1/4"), r("1/2"), 5, false)
	pair := [][2]int{{m.Lookup("(0,3,5)"), m.Lookup("(1,3,4)")}}
	want0 := []string{
		"k=0 379/3840 = 0.098698 (0,3,5)>(1,3,4)",
		"k=1 1661/10240 = 0.162207 (1,3,4)>(0,3,5)",
		"k=2 86281/552960 = 0.156035 (1,3,4)>(0,3,5)",
		"k=3 47677/327680 = 0.145499 (1,3,4)>(0,3,5)",
		"k=4 172638109/1274019840 = 0.135507 (1,3,4)>(0,3,5)",
		"k=5 171728977/1358954496 = 0.126368 (1,3,4)>(0,3,5)",
		"k=6 346444042621/2935341711360 = 0.118025 (1,3,4)>(0,3,5)",
		"k=7 1728212368213/15655155793920 = 0.110393 (1,3,4)>(0,3,5)",
		"k=8 699259772000509/6763027302973440 = 0.103394 (1,3,4)>(0,3,5)",
		"k=9 233164634911579/2404631929946112 = 0.096965 (1,3,4)>(0,3,5)",
		"k=10 1418681061774448381/15582014906050805760 = 0.091046 (1,3,4)>(0,3,5)",
		"k=11 7112736027772354133/83104079498937630720 = 0.085588 (1,3,4)>(0,3,5)",
		"k=12 2891737374399310573309/35900962343541056471040 = 0.080548 (1,3,4)>(0,3,5)",
	}
	if diff := cmp.Diff(want0, prop2Table(m, pair, Psi, EPow(0))); diff != "" {
		t.Errorf("Proposition 2 at ε = 0 for (0,3,5) ~ (1,3,4) (-want +got):\n%s", diff)
	}
	want1 := []string{
		"k=0 221/3840 - 7/240·e = -0.021731 (1,5,1)>(0,5,0)",
		"k=1 17783/23040 - 49/1152·e = 0.656210 (0,4,0)>(1,4,1)",
		"k=2 50569/69120 - 859/138240·e = 0.714721 (0,4,0)>(1,4,1)",
		"k=3 115237/165888 - 7699/6635520·e = 0.691514 (0,4,0)>(1,4,1)",
		"k=4 26297557/39813120 - 16583/63700992·e = 0.659817 (0,4,0)>(1,4,1)",
		"k=5 1201686167/1911029760 - 206375/3057647616·e = 0.628633 (0,4,0)>(1,4,1)",
		"k=6 54968826961/91729428480 - 14252419/733835427840·e = 0.599197 (0,4,0)>(1,4,1)",
		"k=7 126450837133/220150628352 - 3104432899/140896402145280·e = 0.574323 (0,5,0)>(1,5,1)",
		"k=8 29530528866877/52836150804480 - 9906205799/1352605460594688·e = 0.558888 (0,5,0)>(1,5,1)",
		"k=9 1379676074262647/2536135238615040 - 158276649575/64925062108545024·e = 0.544001 (0,5,0)>(1,5,1)",
		"k=10 64475934554449681/121734491453521920 - 12653249959939/15582014906050805760·e = 0.529642 (0,5,0)>(1,5,1)",
		"k=11 602771709161701795/1168651117953810432 - 202381037940739/747936715490438676480·e = 0.515783 (0,5,0)>(1,5,1)",
		"k=12 140910828254749604737/280476268308914503680 - 647505858741863/7180192468708211294208·e = 0.502398 (0,5,0)>(1,5,1)",
	}
	if diff := cmp.Diff(want1, prop2Table(m, pairs, Psi, EPow(1))); diff != "" {
		t.Errorf("Proposition 2 at ε = 1 over every pair (-want +got):\n%s", diff)
	}
	// The claims, exactly, and the shape: the bound rises from k = 0 to its
	// maximum (k = 1 at ε = 0, k = 2 at ε = 1) and decreases after it.
	c1 := newComparer(1)
	var prev0, prev1 Value
	for k := 0; k <= 12; k++ {
		v0, _, _ := m.Prop2(pair, Psi(k), EPow(0))
		v1, _, _ := m.Prop2(pairs, Psi(k), EPow(1))
		if v0.Cmp(Value{A: r("17/100"), B: new(big.Rat)}) > 0 || c1.cmp(v1, Value{A: r("74/100"), B: new(big.Rat), E: 1}) > 0 {
			t.Errorf("k = %d: the bounds %s and %s exceed 0.17 and 0.74", k, v0, v1)
		}
		if k >= 2 && v0.Cmp(prev0) >= 0 {
			t.Errorf("ε = 0: the bound at k = %d does not decrease", k)
		}
		if k >= 3 && c1.cmp(v1, prev1) >= 0 {
			t.Errorf("ε = 1: the bound at k = %d does not decrease", k)
		}
		prev0, prev1 = v0, v1
	}
	// The other readings: with ">" or threshold noise 1/2 the bound at
	// ε = 0 exceeds 0.17 at k = 1; with "halted within k+1 answers"
	// (X^(k+1) top, top absorbing) instead of ψ_k it holds, 0.16952 at
	// k = 1, and at ε = 1 its maximum is 0.68803 (k = 2).
	for _, tt := range []struct {
		at     string
		strict bool
		labels func(int) []string
		k      int
		want   string
	}{
		{"1/4", true, Psi, 1, "7777/30720 = 0.253158"},
		{"1/2", false, Psi, 1, "93/512 = 0.181641"},
		{"1/4", false, Halted, 1, "2083/12288 = 0.169515"},
	} {
		mm, _ := ThresholdMDP(r(tt.at), r("1/2"), 5, tt.strict)
		p := [][2]int{{mm.Lookup("(0,3,5)"), mm.Lookup("(1,3,4)")}}
		v, _, _ := mm.Prop2(p, tt.labels(tt.k), EPow(0))
		if got := fmt.Sprintf("%s = %.6f", v, v.Float()); got != tt.want {
			t.Errorf("alpha_t %s, strict %v, k = %d: %s, want %s", tt.at, tt.strict, tt.k, got, tt.want)
		}
	}
	v, _, _ := m.Prop2(pairs, Halted(2), EPow(1))
	if got := fmt.Sprintf("%s = %.6f", v, v.Float()); got != "1611577/1769472 - 4531/55296·e = 0.688029" {
		t.Errorf("halted within 3 answers at ε = 1: %s, want 1611577/1769472 - 4531/55296·e = 0.688029", got)
	}
}

// tightTable formats TightDeltaD for ψ_k, k = 0..kmax: the exact tight δ
// over query schedulers, the worst pair and sequence ("*": the first
// action, which does not matter) and the two probabilities.
func tightTable(m *MDP, pairs [][2]int, kmin, kmax int, f Factor) []string {
	var out []string
	for k := kmin; k <= kmax; k++ {
		w := m.TightDeltaD(pairs, Psi(k), f)
		if w.From < 0 {
			out = append(out, fmt.Sprintf("k=%d 0 (%d sequences)", k, w.Sequences))
			continue
		}
		out = append(out, fmt.Sprintf("k=%d %s = %.6f %s>%s %v %s vs %s (%d sequences)", k, w.Delta, w.Delta.Float(),
			m.Names[w.From], m.Names[w.To], strings.Join(w.Seq, " "), w.PFrom.RatString(), w.PTo.RatString(), w.Sequences))
	}
	return out
}

// TestThresholdTightDelta: the exact tight δ of D{ε,δ}[ψ_k] over every
// query scheduler (every sequence of k+1 actions; the first does not
// matter), by brute force: for t = 3 and answers 5 vs 4 at ε = 0 and 1,
// and over every pair. Proposition 2's bound is far above them.
func TestThresholdTightDelta(t *testing.T) {
	m, pairs := ThresholdMDP(r("1/4"), r("1/2"), 5, false)
	pair := [][2]int{{m.Lookup("(0,3,5)"), m.Lookup("(1,3,4)")}}
	for _, tt := range []struct {
		name  string
		pairs [][2]int
		f     Factor
		kmax  int
		want  []string
	}{
		{"(0,3,5) ~ (1,3,4) at ε = 0", pair, EPow(0), 4, []string{
			"k=0 379/3840 = 0.098698 (0,3,5)>(1,3,4) * 3461/3840 vs 1541/1920 (1 sequences)",
			"k=1 379/3840 = 0.098698 (1,3,4)>(0,3,5) * m4n5 15581/92160 vs 1297/18432 (16 sequences)",
			"k=2 26909/276480 = 0.097327 (1,3,4)>(0,3,5) * m1n0 m4n5 4333/27648 vs 16421/276480 (256 sequences)",
			"k=3 5249/55296 = 0.094925 (1,3,4)>(0,3,5) * m1n0 m1n0 m4n5 30191/207360 vs 42029/829440 (4096 sequences)",
			"k=4 22883/248832 = 0.091962 (1,3,4)>(0,3,5) * m1n0 m1n0 m1n0 m4n5 168617/1244160 vs 27101/622080 (65536 sequences)",
		}},
		{"(0,3,5) ~ (1,3,4) at ε = 1", pair, EPow(1), 4, []string{
			"k=0 0 (1 sequences)",
			"k=1 2321/23040 - 623/23040·e = 0.027236 (1,3,4)>(0,3,5) * m2n3 2321/23040 vs 623/23040 (16 sequences)",
			"k=2 26981/276480 - 11009/552960·e = 0.043469 (1,3,4)>(0,3,5) * m3n2 m3n4 26981/276480 vs 11009/552960 (256 sequences)",
			"k=3 297677/3317760 - 42625/2654208·e = 0.046068 (1,3,4)>(0,3,5) * m3n2 m3n2 m4n5 297677/3317760 vs 42625/2654208 (4096 sequences)",
			"k=4 420509/4976640 - 575429/39813120·e = 0.045209 (1,3,4)>(0,3,5) * m1n0 m3n2 m3n2 m4n5 420509/4976640 vs 575429/39813120 (65536 sequences)",
		}},
		{"every pair at ε = 0", pairs, EPow(0), 2, []string{
			"k=0 18139/61440 = 0.295231 (1,5,5)>(0,5,4) * 43301/61440 vs 12581/30720 (1 sequences)",
			"k=1 9947/30720 = 0.323796 (1,5,3)>(0,5,4) * m4n5 398813/737280 vs 32017/147456 (16 sequences)",
			"k=2 710333/2211840 = 0.321150 (0,5,3)>(1,5,4) * m0n1 m5n4 582737/1105920 vs 455141/2211840 (256 sequences)",
		}},
		{"every pair at ε = 1", pairs, EPow(1), 2, []string{
			"k=0 0 (1 sequences)",
			"k=1 595421/1474560 - 32017/294912·e = 0.108687 (1,5,4)>(0,5,5) * m4n5 595421/1474560 vs 32017/294912 (16 sequences)",
			"k=2 8916269/35389440 - 462049/14155776·e = 0.163222 (0,5,4)>(1,5,5) * m4n5 m5n4 8916269/35389440 vs 462049/14155776 (256 sequences)",
		}},
	} {
		got := tightTable(m, tt.pairs, 0, tt.kmax, tt.f)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
	// Proposition 2 bounds every tight δ, as it must.
	for k := 0; k <= 2; k++ {
		for _, f := range []Factor{EPow(0), EPow(1)} {
			w := m.TightDeltaD(pairs, Psi(k), f)
			v, _, _ := m.Prop2(pairs, Psi(k), f)
			if c := newComparer(f.E); c.cmp(w.Delta, v) > 0 && w.Delta.Sign() > 0 {
				t.Errorf("k = %d, %s: tight δ %s above Proposition 2's %s", k, f, w.Delta, v)
			}
		}
	}
}

// TestThresholdTraces: (ε, δ)-DP over the traces of ⊥ and ⊤ of n steps
// (the answers 1..n), every query scheduler: the tight δ at ε = 0 and 1,
// for t = 3 and answers 5 vs 4, and over every pair.
func TestThresholdTraces(t *testing.T) {
	m, pairs := ThresholdMDP(r("1/4"), r("1/2"), 5, false)
	pair := [][2]int{{m.Lookup("(0,3,5)"), m.Lookup("(1,3,4)")}}
	obs := []string{"bot", "top"}
	var got []string
	for _, tt := range []struct {
		name string
		p    [][2]int
		nmax int
	}{{"pair", pair, 3}, {"every pair", pairs, 2}} {
		for n := 1; n <= tt.nmax; n++ {
			for _, f := range []Factor{EPow(0), EPow(1)} {
				w := m.TightDeltaTraces(tt.p, n, obs, f)
				got = append(got, fmt.Sprintf("%s traces(%d) %s: %s = %.6f %s>%s %v on %v", tt.name, n, f, w.Delta, w.Delta.Float(),
					m.Name(w.From), m.Name(w.To), strings.Join(w.Seq, " "), strings.Join(w.Event, " ")))
			}
		}
	}
	want := []string{
		"pair traces(1) ε = 0: 379/3840 = 0.098698 (0,3,5)>(1,3,4) * on {top}",
		"pair traces(1) ε = 1: 0 = 0.000000 ->-  on ",
		"pair traces(2) ε = 0: 379/3840 = 0.098698 (0,3,5)>(1,3,4) * m0n0 on {top}{top}",
		"pair traces(2) ε = 1: 2321/23040 - 623/23040·e = 0.027236 (1,3,4)>(0,3,5) * m2n3 on {bot}{top}",
		"pair traces(3) ε = 0: 30907/276480 = 0.111787 (0,3,5)>(1,3,4) * m2n3 m3n2 on {bot}{bot}{top} {top}{top}{top}",
		"pair traces(3) ε = 1: 26981/276480 - 11009/552960·e = 0.043469 (1,3,4)>(0,3,5) * m3n2 m3n4 on {bot}{bot}{top}",
		"every pair traces(1) ε = 0: 18139/61440 = 0.295231 (0,5,4)>(1,5,5) * on {bot}",
		"every pair traces(1) ε = 1: 0 = 0.000000 ->-  on ",
		"every pair traces(2) ε = 0: 9947/30720 = 0.323796 (0,5,4)>(1,5,3) * m4n5 on {bot}{bot} {top}{top}",
		"every pair traces(2) ε = 1: 275251/737280 - 275251/2949120·e = 0.119627 (0,5,4)>(1,5,5) * m4n5 on {bot}{bot}",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestThresholdTightDeltaLong runs the longer horizons: set
// DPCHECK_REFERENCE_LONG=1. Measured on one core of the shared machine
// (go test -run TestThresholdTightDeltaLong): for the pair, k = 5 takes
// 10 s at ε = 0 and 19 s at ε = 1 (16^5 sequences), k = 6 3.5 min at ε = 0
// and 8.8 min at ε = 1 (16^6, with other jobs on the machine); for every
// pair, k = 3 takes 2.4 s at ε = 0 and 7.8 s at ε = 1, k = 4 42 s at ε = 0
// and 2.1 min at ε = 1. The whole test took 11 min alone on the machine.
func TestThresholdTightDeltaLong(t *testing.T) {
	if os.Getenv("DPCHECK_REFERENCE_LONG") == "" {
		t.Skip("set DPCHECK_REFERENCE_LONG=1 to run the horizons that take minutes")
	}
	m, pairs := ThresholdMDP(r("1/4"), r("1/2"), 5, false)
	pair := [][2]int{{m.Lookup("(0,3,5)"), m.Lookup("(1,3,4)")}}
	for _, tt := range []struct {
		name       string
		pairs      [][2]int
		f          Factor
		kmin, kmax int
		want       []string
	}{
		{"(0,3,5) ~ (1,3,4) at ε = 0", pair, EPow(0), 5, 6, []string{
			"k=5 2353891/26542080 = 0.088685 (1,3,4)>(0,3,5) * m1n0 m1n0 m1n0 m1n0 m4n5 30187999/238878720 vs 450149/11943936 (1048576 sequences)",
			"k=6 977451163/11466178560 = 0.085246 (1,3,4)>(0,3,5) * m1n0 m1n0 m1n0 m1n0 m1n0 m4n5 270663031/2293235712 vs 46982999/1433272320 (16777216 sequences)",
		}},
		{"(0,3,5) ~ (1,3,4) at ε = 1", pair, EPow(1), 5, 6, []string{
			"k=5 237845/2985984 - 1559141/119439360·e = 0.044170 (1,3,4)>(0,3,5) * m1n0 m1n0 m3n2 m3n2 m4n5 237845/2985984 vs 1559141/119439360 (1048576 sequences)",
			"k=6 53862683/716636160 - 4238081/358318080·e = 0.043009 (1,3,4)>(0,3,5) * m1n0 m1n0 m1n0 m3n2 m3n2 m4n5 53862683/716636160 vs 4238081/358318080 (16777216 sequences)",
		}},
		{"every pair at ε = 0", pairs, EPow(0), 3, 4, []string{
			"k=3 234587/737280 = 0.318179 (0,5,3)>(1,5,4) * m0n1 m0n1 m5n4 425839/829440 vs 1295429/6635520 (4096 sequences)",
			"k=4 315269/995328 = 0.316749 (0,5,2)>(1,5,3) * m0n1 m0n1 m0n1 m5n4 5674807/9953280 vs 2522117/9953280 (65536 sequences)",
		}},
		{"every pair at ε = 1", pairs, EPow(1), 3, 4, []string{
			"k=3 13076693/53084160 - 1322113/42467328·e = 0.161712 (0,5,4)>(1,5,5) * m0n1 m4n5 m5n4 13076693/53084160 vs 1322113/42467328 (4096 sequences)",
			"k=4 19179287/79626240 - 18921413/637009920·e = 0.160124 (0,5,4)>(1,5,5) * m0n1 m0n1 m4n5 m5n4 19179287/79626240 vs 18921413/637009920 (65536 sequences)",
		}},
	} {
		if diff := cmp.Diff(tt.want, tightTable(m, tt.pairs, tt.kmin, tt.kmax, tt.f)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}
