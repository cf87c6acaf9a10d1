package mdp

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/verify"
)

// psiK is X bot & X^2 bot & … & X^k bot & X^(k+1) top: the first ⊤ comes
// at query k+1.
func psiK(k int) *verify.Formula {
	var fs []*verify.Formula
	for i := 1; i <= k; i++ {
		fs = append(fs, verify.Next(i, verify.Label("bot")))
	}
	return verify.And(append(fs, verify.Next(k+1, verify.Label("top")))...)
}

// tableRow is the tight δ of D{ε,?}[ψ_k] on the above-threshold pair,
// A + B·e^ε, Proposition 2's bound likewise, and the worst sequence.
type tableRow struct {
	k              int
	a, b           string // the tight δ
	sa, sb         string // SufficientD
	seq            string
	explored, same int64
}

// TestAboveThresholdTable computes the exact tight δ of D{ε,?}[ψ_k] at
// ε = 0 and ε = 1 for k = 1…8 on the pair (0,3,5) ~ (1,3,4), with
// Proposition 2's bound beside it; the values for k ≤ 3 are those of the
// enumeration of every sequence (bruteTightDelta), and the worst
// direction is always (1,3,4) → (0,3,5).
func TestAboveThresholdTable(t *testing.T) {
	m, pairs := aboveThreshold(t)
	ctx := context.Background()
	one, err := exact.Rational(big.NewRat(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	tables := []struct {
		eps  exact.Eps
		rows []tableRow
	}{
		{exact.Eps{}, []tableRow{
			{k: 1, a: "379/3840", sa: "1661/10240", seq: "0 0|4 5"},
			{k: 2, a: "26909/276480", sa: "86281/552960", seq: "0 0|1 0|4 5"},
			{k: 3, a: "5249/55296", sa: "47677/327680", seq: "0 0|1 0|1 0|4 5"},
			{k: 4, a: "22883/248832", sa: "172638109/1274019840", seq: "0 0|1 0|1 0|1 0|4 5"},
			{k: 5, a: "2353891/26542080", sa: "171728977/1358954496", seq: "0 0|1 0|1 0|1 0|1 0|4 5"},
			{k: 6, a: "977451163/11466178560", sa: "346444042621/2935341711360", seq: "0 0|1 0|1 0|1 0|1 0|1 0|4 5"},
			{k: 7, a: "2999302823/36691771392", sa: "1728212368213/15655155793920", seq: "0 0|1 0|1 0|1 0|1 0|1 0|1 0|4 5"},
			{k: 8, a: "413401518899/5283615080448", sa: "699259772000509/6763027302973440", seq: "0 0|1 0|1 0|1 0|1 0|1 0|1 0|1 0|4 5"},
		}},
		{one, []tableRow{
			{k: 1, a: "2321/23040", b: "-623/23040", sa: "15581/92160", sb: "-79/11520", seq: "0 0|2 3"},
			{k: 2, a: "26981/276480", b: "-11009/552960", sa: "4333/27648", sb: "-379/552960", seq: "0 0|3 2|3 4"},
			{k: 3, a: "297677/3317760", b: "-42625/2654208", sa: "30191/207360", sb: "-2611/26542080", seq: "0 0|3 2|3 2|4 5"},
			{k: 4, a: "420509/4976640", b: "-575429/39813120", sa: "168617/1244160", sb: "-25699/1274019840", seq: "0 0|1 0|3 2|3 2|4 5"},
			{k: 5, a: "237845/2985984", b: "-1559141/119439360", sa: "30187999/238878720", sb: "-323779/61152952320", seq: "0 0|1 0|1 0|3 2|3 2|4 5"},
			{k: 6, a: "53862683/716636160", b: "-4238081/358318080", sa: "270663031/2293235712", sb: "-4637059/2935341711360", seq: "0 0|1 0|1 0|1 0|3 2|3 2|4 5"},
			{k: 7, a: "12052256557/137594142720", b: "-143108851/8599633920", sa: "60757741273/550376570880", sb: "-70451971/140896402145280", seq: "0 0|1 0|1 0|1 0|1 0|1 0|3 2|4 5"},
			{k: 8, a: "544652641883/6604518850560", b: "-3078057461/206391214080", sa: "2731487780063/26418075402240", sb: "-1099695619/6763027302973440", seq: "0 0|1 0|1 0|1 0|1 0|1 0|1 0|3 2|4 5"},
		}},
	}
	var out strings.Builder
	for _, tb := range tables {
		fmt.Fprintf(&out, "ε = %s\n k  tight δ  ≈  Proposition 2  ≈  worst sequence  explored/pruned/transposed\n", tb.eps)
		for _, row := range tb.rows {
			what := fmt.Sprintf("ε = %s, k = %d", tb.eps, row.k)
			r, err := TightDeltaD(ctx, m, pairs, psiK(row.k), tb.eps, Options{})
			if err != nil {
				t.Fatal(err)
			}
			suf, err := SufficientD(ctx, m, pairs, psiK(row.k), tb.eps)
			if err != nil {
				t.Fatal(err)
			}
			wantAffine(t, what+": δ", r.Delta, row.a, row.b)
			wantAffine(t, what+": Proposition 2", suf, row.sa, row.sb)
			if got := strings.Join(r.Sequence, "|"); got != row.seq || !r.Exact || r.Verdict != Holds || r.From != pairs[0][1] || r.To != pairs[0][0] {
				t.Errorf("%s: sequence %s (want %s), exact %v, %v, %d → %d", what, got, row.seq, r.Exact, r.Verdict, r.From, r.To)
			}
			if c, err := r.Delta.Cmp(suf); err != nil || c > 0 {
				t.Errorf("%s: δ %v above Proposition 2's %v", what, r.Delta, suf)
			}
			if row.k <= 3 {
				want, err := bruteTightDelta(m, pairs, psiK(row.k), row.k+1, tb.eps)
				if err != nil {
					t.Fatal(err)
				}
				if c, err := r.Delta.Cmp(want); err != nil || c != 0 {
					t.Errorf("%s: δ %v, every sequence enumerated %v", what, r.Delta, want)
				}
			}
			fmt.Fprintf(&out, "%2d  %s  %.6f  %s  %.6f  %s  %d/%d/%d\n", row.k, r.Delta, r.Delta.Float(), suf, suf.Float(), strings.Join(r.Sequence, " | "), r.Explored, r.Pruned, r.Transposed)
		}
	}
	t.Log("\n" + out.String())
}

// wantAffine fails unless r is exactly a + b·e^ε (b "" for 0).
func wantAffine(t *testing.T, what string, r exact.Real, a, b string) {
	t.Helper()
	rb := r.B
	if rb == nil {
		rb = new(big.Rat)
	}
	wb := new(big.Rat)
	if b != "" {
		wb = rat(b)
	}
	if r.A.Cmp(rat(a)) != 0 || rb.Cmp(wb) != 0 {
		t.Errorf("%s = %v, want %s + (%s)·e^ε", what, r, a, b)
	}
}

// bruteTightDelta is the largest Pr_s(f) − e^ε·Pr_t(f) over every
// sequence of h actions, every pair in both directions, and 0, by
// enumerating the sequences and the paths (brutePr). The first action is
// fixed to the first one: every input of the above-threshold MDP has the
// same choice for every action.
func bruteTightDelta(m *MDP, pairs [][2]int, f *verify.Formula, h int, eps exact.Eps) (exact.Real, error) {
	for _, pr := range pairs {
		for _, s := range pr {
			for _, c := range m.Choices[s] {
				if !slices.Equal(c.To, m.Choices[s][0].To) || !slices.EqualFunc(c.P, m.Choices[s][0].P, func(x, y *big.Rat) bool { return x.Cmp(y) == 0 }) {
					return exact.Real{}, fmt.Errorf("state %d has different choices", s)
				}
			}
		}
	}
	best := exact.RatReal(new(big.Rat))
	seq := make([]int, h)
	var gen func(i int) error
	gen = func(i int) error {
		if i == h {
			pr := map[int]*big.Rat{}
			for _, p := range pairs {
				for _, s := range p {
					if pr[s] == nil {
						pr[s] = brutePr(m, s, seq, f)
					}
				}
			}
			for _, p := range pairs {
				for _, d := range [][2]int{p, {p[1], p[0]}} {
					g := exact.Affine(pr[d[0]], new(big.Rat).Neg(pr[d[1]]), eps)
					c, err := g.Cmp(best)
					if err != nil {
						return err
					}
					if c > 0 {
						best = g
					}
				}
			}
			return nil
		}
		for a := range m.Actions {
			seq[i] = a
			if err := gen(i + 1); err != nil {
				return err
			}
		}
		return nil
	}
	return best, gen(1)
}
