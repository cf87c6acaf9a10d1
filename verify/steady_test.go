package verify_test

import (
	"context"
	"math/big"
	"math/rand"
	"testing"

	"github.com/dpcheck/dpcheck/verify"
)

// TestSteadyAgainstDenseSolve: S[φ] on random chains is determined by two
// facts checked independently: on a recurrent state (one that every state
// it reaches reaches back) it is π(φ) for the stationary distribution of
// its class, solved here by dense Gauss–Jordan elimination of π(P − I) = 0,
// Σπ = 1; and everywhere it is harmonic, v(s) = Σ_t P(s,t)·v(t).
func TestSteadyAgainstDenseSolve(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	ctx := context.Background()
	classes := 0
	for trial := range 60 {
		n := 2 + rng.Intn(6)
		c, p := randomChain(t, rng, n)
		phi := make([]bool, n)
		for s := range phi {
			phi[s] = c.HasLabel(s, "a")
		}
		m, err := verify.NewChecker(c, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := m.Prob(ctx, verify.Steady(verify.Label("a")))
		if err != nil {
			t.Fatal(err)
		}
		// reach[s][u]: u reachable from s (in zero or more steps).
		reach := make([][]bool, n)
		for s := range n {
			reach[s] = make([]bool, n)
			reach[s][s] = true
			for changed := true; changed; {
				changed = false
				for u := range n {
					if !reach[s][u] {
						continue
					}
					for v := range n {
						if p[u][v].Sign() > 0 && !reach[s][v] {
							reach[s][v], changed = true, true
						}
					}
				}
			}
		}
		done := make([]bool, n)
		for s := range n {
			recurrent := true
			for u := range n {
				if reach[s][u] && !reach[u][s] {
					recurrent = false
				}
			}
			if !recurrent || done[s] {
				continue
			}
			var class []int
			for u := range n {
				if reach[s][u] {
					class, done[u] = append(class, u), true
				}
			}
			classes++
			pi := stationaryDense(p, class)
			want := new(big.Rat)
			for i, u := range class {
				if phi[u] {
					want.Add(want, pi[i])
				}
			}
			for _, u := range class {
				if got[u].Cmp(want) != 0 {
					t.Fatalf("trial %d: S[a] at recurrent s%d is %s, π(a) = %s", trial, u, got[u].RatString(), want.RatString())
				}
			}
		}
		for s := range n {
			h := new(big.Rat)
			for u := range n {
				h.Add(h, new(big.Rat).Mul(p[s][u], got[u]))
			}
			if h.Cmp(got[s]) != 0 {
				t.Fatalf("trial %d: S[a] at s%d is %s, one step later %s", trial, s, got[s].RatString(), h.RatString())
			}
		}
	}
	if classes < 60 {
		t.Errorf("%d recurrent classes met, want at least one per chain", classes)
	}
}

// stationaryDense solves π(P − I) = 0, Σπ = 1 on class by Gauss–Jordan
// elimination with pivot search, the last equation replaced by Σπ = 1.
func stationaryDense(p [][]*big.Rat, class []int) []*big.Rat {
	k := len(class)
	// rows: equation j is Σ_i π_i (P[i][j] − δ_ij) = 0; the last is Σπ = 1.
	a := make([][]*big.Rat, k)
	for j := range k {
		a[j] = make([]*big.Rat, k+1)
		for i := range k {
			x := new(big.Rat).Set(p[class[i]][class[j]])
			if i == j {
				x.Sub(x, big.NewRat(1, 1))
			}
			a[j][i] = x
		}
		a[j][k] = new(big.Rat)
	}
	for i := range k {
		a[k-1][i] = big.NewRat(1, 1)
	}
	a[k-1][k] = big.NewRat(1, 1)
	for col := range k {
		piv := col
		for a[piv][col].Sign() == 0 {
			piv++
		}
		a[col], a[piv] = a[piv], a[col]
		inv := new(big.Rat).Inv(a[col][col])
		for j := col; j <= k; j++ {
			a[col][j] = new(big.Rat).Mul(a[col][j], inv)
		}
		for r := range k {
			if r == col || a[r][col].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Set(a[r][col])
			for j := col; j <= k; j++ {
				a[r][j] = new(big.Rat).Sub(a[r][j], new(big.Rat).Mul(f, a[col][j]))
			}
		}
	}
	pi := make([]*big.Rat, k)
	for i := range k {
		pi[i] = a[i][k]
	}
	return pi
}
