package verify_test

import (
	"context"
	"fmt"
	"math/big"
	"math/rand"
	"testing"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/verify"
)

// TestUntilFromAgainstPaths: Pr(a U[lo,k] b) on random chains, computed by
// the vector recursion (state operands) and by progression (the same
// formula or false, which takes the general path), equals the
// sum over every path of length k of its probability when b holds at some
// step i in [lo, k] and a at every step before; with no upper bound, the
// paths of length lo along a, each times Pr(a U b) from where it ends.
func TestUntilFromAgainstPaths(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	ctx := context.Background()
	for trial := range 30 {
		n := 3 + rng.Intn(3)
		c, rows := randomChain(t, rng, n)
		m, err := verify.NewChecker(c, nil)
		if err != nil {
			t.Fatal(err)
		}
		la, lb := verify.Label("a"), verify.Label("b")
		holds := func(s int, l string) bool { return c.HasLabel(s, l) }
		// walk sums p over the paths of length steps from s.
		var walk func(path []int, p *big.Rat, steps int, leaf func([]int, *big.Rat))
		walk = func(path []int, p *big.Rat, steps int, leaf func([]int, *big.Rat)) {
			if len(path) == steps+1 {
				leaf(path, p)
				return
			}
			last := path[len(path)-1]
			for u, q := range rows[last] {
				if q.Sign() > 0 {
					walk(append(path[:len(path):len(path)], u), new(big.Rat).Mul(p, q), steps, leaf)
				}
			}
		}
		unbounded, err := m.Prob(ctx, verify.Until(la, lb, -1))
		if err != nil {
			t.Fatal(err)
		}
		for lo := 0; lo <= 3; lo++ {
			for _, k := range []int{-1, lo, lo + 1, lo + 3} {
				f := verify.UntilFrom(la, lb, lo, k)
				fast, err := m.Prob(ctx, f)
				if err != nil {
					t.Fatal(err)
				}
				slow, err := m.Prob(ctx, verify.Or(f, verify.False()))
				if err != nil {
					t.Fatal(err)
				}
				for s := range n {
					want := new(big.Rat)
					if k >= 0 {
						walk([]int{s}, big.NewRat(1, 1), k, func(path []int, p *big.Rat) {
							for i, u := range path {
								if i >= lo && holds(u, "b") {
									want.Add(want, p)
									return
								}
								if !holds(u, "a") {
									return
								}
							}
						})
					} else {
						walk([]int{s}, big.NewRat(1, 1), lo, func(path []int, p *big.Rat) {
							for _, u := range path[:lo] {
								if !holds(u, "a") {
									return
								}
							}
							want.Add(want, new(big.Rat).Mul(p, unbounded[path[lo]]))
						})
					}
					if fast[s].Cmp(want) != 0 || slow[s].Cmp(want) != 0 {
						t.Fatalf("trial %d, Pr_%d(%s): vectors %s, progression %s, paths %s", trial, s, f, fast[s].RatString(), slow[s].RatString(), want.RatString())
					}
				}
			}
		}
	}
}

// TestUntilFromText: the time bounds print as PRISM writes them.
func TestUntilFromText(t *testing.T) {
	a, b := verify.Label("a"), verify.Label("b")
	for _, tc := range []struct {
		f    *verify.Formula
		want string
	}{
		{verify.UntilFrom(a, b, 0, 3), "a U<=3 b"},
		{verify.UntilFrom(a, b, 2, -1), "a U>=2 b"},
		{verify.UntilFrom(a, b, 2, 2), "a U=2 b"},
		{verify.UntilFrom(verify.True(), b, 1, 4), "F[1,4] b"},
		{verify.Not(verify.UntilFrom(verify.True(), verify.Not(a), 3, -1)), "G>=3 a"},
	} {
		if got := tc.f.String(); got != tc.want {
			t.Errorf("%s, want %s", got, tc.want)
		}
	}
}

// randomChain returns a chain of n states s0…, each labelled "a" with
// probability 1/2 and "b" with probability 1/3, each moving to a random
// set of states with weights 1 to 4 (to the next state when the set is
// empty), and its transition matrix.
func randomChain(t *testing.T, rng *rand.Rand, n int) (*chain.Chain, [][]*big.Rat) {
	t.Helper()
	b := chain.NewBuilder()
	for s := range n {
		var labels []string
		if rng.Intn(2) == 0 {
			labels = append(labels, "a")
		}
		if rng.Intn(3) == 0 {
			labels = append(labels, "b")
		}
		b.AddState(fmt.Sprintf("s%d", s), nil, labels...)
	}
	rows := make([][]*big.Rat, n)
	for s := range n {
		w := make([]int64, n)
		var sum int64
		for u := range w {
			if rng.Intn(2) == 0 {
				w[u] = int64(1 + rng.Intn(4))
				sum += w[u]
			}
		}
		if sum == 0 {
			w[(s+1)%n], sum = 1, 1
		}
		var to []int
		var ps []*big.Rat
		rows[s] = make([]*big.Rat, n)
		for u, x := range w {
			rows[s][u] = big.NewRat(x, sum)
			if x > 0 {
				to, ps = append(to, u), append(ps, rows[s][u])
			}
		}
		b.AddRow(s, to, ps)
	}
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return c, rows
}
