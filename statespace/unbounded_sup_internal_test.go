package statespace

import (
	"context"
	"fmt"
	"math/big"
	"math/rand"
	"testing"
)

// TestTailSupAgainstEnumeration: the supremum of P(m)/Q(m) for random
// positive sums of geometric terms equals the largest ratio over the first
// 400 values when a value attains it (that value's), and when it is a limit
// exceeds every ratio there while the last comes within 10^-30 of it.
func TestTailSupAgainstEnumeration(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	gammas := []*big.Rat{big.NewRat(1, 2), big.NewRat(1, 3), big.NewRat(1, 5)}
	// form draws a positive form: a positive leading term, the others at
	// most a quarter of it in all.
	form := func(from int) []*big.Rat {
		v := make([]*big.Rat, len(gammas))
		lead := int64(1 + r.Intn(5))
		v[from] = big.NewRat(lead, 1)
		for g := from + 1; g < len(gammas); g++ {
			if r.Intn(3) > 0 {
				v[g] = big.NewRat(int64(r.Intn(9)-4)*lead, 16*int64(len(gammas)))
				if v[g].Sign() == 0 {
					v[g] = nil
				}
			}
		}
		return v
	}
	const n = 400
	kinds := map[string]int{}
	for trial := range 300 {
		p, q := form(r.Intn(2)), form(r.Intn(2))
		vt := &varyingTail{forms: &tailForms{gammas: gammas, values: map[int][]*big.Rat{0: p, 1: q}}, at: 3, dir: 1,
			name: "v≥3", value: func(x int64) string { return fmt.Sprintf("v=%d", x) }}
		s, err := vt.sup(context.Background(), 0, 1, 100_000, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		best, arg := new(big.Rat), int64(-1)
		var last *big.Rat
		for m := int64(0); m < n; m++ {
			pm, qm, err := vt.at2(m, p, q, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			last = new(big.Rat).Quo(pm, qm)
			if last.Cmp(best) > 0 {
				best, arg = last, m
			}
		}
		switch {
		case s.Ratio == nil:
			kinds["infinite"]++
			if lead(p) >= lead(q) {
				t.Fatalf("trial %d: infinite, but Q's slowest term is no faster than P's (%v, %v)", trial, p, q)
			}
		case s.Attained:
			kinds["attained"]++
			if arg > 0 {
				kinds["attained past the start"]++
			}
			if s.Ratio.Cmp(best) != 0 || s.Output != fmt.Sprintf("v=%d", 3+arg) {
				t.Fatalf("trial %d: supremum %s at %s; the first %d values' largest %s at v=%d", trial, s.Ratio.RatString(), s.Output, n, best.RatString(), 3+arg)
			}
		default:
			kinds["approached"]++
			gap := new(big.Rat).Sub(s.Ratio, last)
			if s.Ratio.Cmp(best) <= 0 || gap.Cmp(big.NewRat(1, 1)) > 0 || gap.Cmp(new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(10), big.NewInt(30), nil))) > 0 {
				t.Fatalf("trial %d: approached %s; the first %d values' largest %s, the last %s", trial, s.Ratio.RatString(), n, best.RatString(), last.RatString())
			}
			if s.Output != "v≥3" {
				t.Fatalf("trial %d: approached along %s, want the tail v≥3", trial, s.Output)
			}
		}
	}
	if kinds["attained past the start"] == 0 || kinds["approached"] == 0 || kinds["infinite"] == 0 {
		t.Errorf("kinds of suprema met: %v; want each", kinds)
	}
}

// lead is the index of the first term of v, the slowest to decay.
func lead(v []*big.Rat) int {
	for g, x := range v {
		if x != nil {
			return g
		}
	}
	return len(v)
}
