package dptest_test

import (
	"context"
	"math"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/dptest"
	"github.com/dpcheck/dpcheck/exact"
)

func TestWithin(t *testing.T) {
	near := dptest.Within(2)
	for _, c := range []struct {
		a, b int
		want bool
	}{{0, 2, true}, {2, 0, true}, {-1, 1, true}, {0, 3, false}, {5, 5, true}} {
		if got := near(c.a, c.b); got != c.want {
			t.Errorf("Within(2)(%d, %d) = %v", c.a, c.b, got)
		}
	}
	if dptest.Within[int64](1)(math.MaxInt64, math.MinInt64) {
		t.Error("a difference that overflows is no neighbour")
	}
	if !dptest.Within[uint8](1)(255, 254) || dptest.Within[uint8](1)(0, 255) {
		t.Error("Within on uint8")
	}
}

func TestOnePosition(t *testing.T) {
	near := dptest.OnePosition(1, func(c [3]int) []int { return c[:] })
	for _, c := range []struct {
		a, b [3]int
		want bool
	}{
		{[3]int{0, 1, 2}, [3]int{0, 2, 2}, true},
		{[3]int{0, 1, 2}, [3]int{0, 3, 2}, false}, // by 2
		{[3]int{0, 1, 2}, [3]int{1, 2, 2}, false}, // in two positions
		{[3]int{0, 1, 2}, [3]int{0, 1, 2}, false}, // the same
	} {
		if got := near(c.a, c.b); got != c.want {
			t.Errorf("OnePosition(1)(%v, %v) = %v", c.a, c.b, got)
		}
	}
	lengths := dptest.OnePosition(5, func(s string) []int {
		out := []int{}
		for _, r := range s {
			out = append(out, int(r))
		}
		return out
	})
	if lengths("ab", "abc") || !lengths("ab", "ac") {
		t.Error("OnePosition on strings")
	}
}

func TestAddRemoveOne(t *testing.T) {
	near := dptest.AddRemoveOne(func(db string) []rune { return []rune(db) })
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"aab", "ab", true}, {"ab", "aba", true}, {"ab", "ba", false}, {"ab", "abcd", false},
		{"abc", "abd", false}, {"", "x", true}, {"xy", "zxy", true}, {"aab", "abb", false},
	} {
		if got := near(c.a, c.b); got != c.want {
			t.Errorf("AddRemoveOne(%q, %q) = %v", c.a, c.b, got)
		}
	}
}

// TestNeighboursInUse: the truncated 1/2-geometric mechanism over counts
// 0..3 (Pr(o | x) = (1/3)·(1/2)^|o−x| inside, (2/3)·(1/2)^|o−x| at the
// ends 0 and 3): with Within(1) the tight ε is that of adjacent counts,
// ln(2) — as for the builder's encoding; with every two inputs
// neighbours, that of 0 vs 3 on output 0, (2/3) / (2/3·1/8) = 8.
func TestNeighboursInUse(t *testing.T) {
	m := dptest.Mechanism[int, int]{
		Inputs: []int{0, 1, 2, 3},
		Dist: func(x int) map[int]*big.Rat {
			w := map[int]*big.Rat{}
			for o := range 4 {
				d := o - x
				if d < 0 {
					d = -d
				}
				w[o] = big.NewRat(1, 3<<d)
				if o == 0 || o == 3 {
					w[o].Add(w[o], w[o])
				}
			}
			return w
		},
	}
	b, err := builder.TruncatedGeometric(big.NewRat(1, 2), 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		m    dptest.Model
		near func(a, b int) bool
		want exact.Eps
	}{{m, dptest.Within(1), exact.LnInt(2)}, {dptest.Builder(b), nil, exact.LnInt(2)}, {m, nil, exact.LnInt(8)}} {
		if mech, ok := c.m.(dptest.Mechanism[int, int]); ok {
			mech.Neighbours = c.near
			c.m = mech
		}
		e, err := dptest.TightEpsilon(context.Background(), c.m, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !e.Exact() || !e.High.Equal(c.want) {
			t.Errorf("tight ε %s, want %s", e, c.want)
		}
	}
}
