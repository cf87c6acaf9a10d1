package dpcheck_test

import (
	"fmt"
	"math"
	"math/big"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/exact"
)

// advanced is the advanced composition theorem's δ for k runs of a
// mechanism with profile δ1(ε0) at total ε (Dwork, Rothblum and Vadhan):
// k runs of an (ε0, δ0)-DP mechanism are (ε', k·δ0 + δ')-DP for every
// δ' > 0, ε' = sqrt(2k·ln(1/δ'))·ε0 + k·ε0·(e^ε0 − 1). For a target ε' = ε,
// each ε0 fixes δ', and the bound is the least k·δ1(ε0) + δ' over a grid
// of ε0 (floating point: a bound to compare, not a verdict).
func advanced(k int, eps float64, delta1 func(float64) float64) float64 {
	best := math.Inf(1)
	fk := float64(k)
	for i := 1; i <= 100000; i++ {
		e0 := eps * float64(i) / 100000
		rest := eps - fk*e0*math.Expm1(e0)
		if rest <= 0 {
			break
		}
		x := rest / e0
		dp := math.Exp(-x * x / (2 * fk))
		best = min(best, fk*delta1(e0)+dp)
	}
	return best
}

// TestCompositionTheoremsTable keeps the table of composition
// theorems against the exact δ of ten surveys true: the basic theorem
// (ε/k and δ1(ε/k) per run, δ = k·δ1(ε/k)), the advanced one (best over
// its parameters) and the exact value.
func TestCompositionTheoremsTable(t *testing.T) {
	readme, err := os.ReadFile("docs/composition.md")
	if err != nil {
		t.Fatal(err)
	}
	const k = 10
	survey := func(e0 float64) float64 { return max(0, 0.75-0.25*math.Exp(e0)) } // one survey's δ(ε0)
	atoms := binomialPLD(big.NewRat(3, 1), big.NewRat(3, 4), k)
	var rows []string
	for _, j := range []int{2, 4, 6, 8, 10} {
		e, err := exact.MulLn(big.NewRat(int64(j), 1), big.NewRat(3, 1))
		if err != nil {
			t.Fatal(err)
		}
		d, _ := deltaAt(t, atoms, e).Rat()
		fe := e.Float()
		basic := k * survey(fe/k)
		adv := advanced(k, fe, survey)
		df, _ := d.Float64()
		rows = append(rows, fmt.Sprintf("| %s = %s | %.4f | %.4f | %s ≈ %.4f |", e.String(), e.Alternate(), basic, adv, d.RatString(), df))
	}
	sort.Strings(rows)
	for _, r := range rows {
		if !strings.Contains(string(readme), r) {
			t.Errorf("docs/composition.md lacks the row\n%s", r)
		}
	}
}
