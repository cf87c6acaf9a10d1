package dptest_test

import (
	"context"
	"errors"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/dptest"
	"github.com/google/go-cmp/cmp"
)

var ratCmp = cmp.Comparer(func(x, y *big.Rat) bool { return x.Cmp(y) == 0 })

func r(s string) *big.Rat {
	x, ok := new(big.Rat).SetString(s)
	if !ok {
		panic(s)
	}
	return x
}

// TestExploreFiniteTree: every run of a sampler with finitely many runs is
// explored, each with its exact probability.
func TestExploreFiniteTree(t *testing.T) {
	ctx := context.Background()
	d, err := dptest.Explore(ctx, func(r *dptest.Rand) int {
		if r.Bernoulli(big.NewRat(1, 3)) {
			return r.IntN(3)
		}
		if r.Bit() {
			return 10
		}
		return 3 + r.IntN(2)
	}, dptest.Budget{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]*big.Rat{0: r("1/9"), 1: r("1/9"), 2: r("1/9"), 10: r("1/3"), 3: r("1/6"), 4: r("1/6")}
	if diff := cmp.Diff(want, d.P, ratCmp); diff != "" || d.Unexplored.Sign() != 0 || d.Runs != 6 || d.Cut != 0 {
		t.Errorf("P (-want +got):\n%s\nunexplored %s, %d runs, %d cut", diff, d.Unexplored.RatString(), d.Runs, d.Cut)
	}
}

// TestExploreRejection: a fair die from rejection sampling of three bits
// is uniform, within an unexplored mass of exactly (1/4)^k after k rounds.
func TestExploreRejection(t *testing.T) {
	die := func(r *dptest.Rand) int {
		for {
			v := 0
			for range 3 {
				v = 2*v + map[bool]int{false: 0, true: 1}[r.Bit()]
			}
			if v >= 1 && v <= 6 {
				return v
			}
		}
	}
	for _, depth := range []int{3, 6, 30} {
		d, err := dptest.Explore(context.Background(), die, dptest.Budget{Depth: depth})
		if err != nil {
			t.Fatal(err)
		}
		rounds := int64(depth / 3)
		u := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(4), big.NewInt(rounds), nil))
		face := new(big.Rat).Sub(ratOne(), u)
		face.Quo(face, big.NewRat(6, 1))
		for v := 1; v <= 6; v++ {
			if d.P[v] == nil || d.P[v].Cmp(face) != 0 {
				t.Errorf("depth %d: Pr(%d) = %v, want %s", depth, v, d.P[v], face.RatString())
			}
		}
		if d.Unexplored.Cmp(u) != 0 {
			t.Errorf("depth %d: unexplored %s, want %s", depth, d.Unexplored.RatString(), u.RatString())
		}
	}
}

func ratOne() *big.Rat { return big.NewRat(1, 1) }

// TestExploreNondeterminism: a sampler that reads state outside its Rand
// is caught, with the choices that led there.
func TestExploreNondeterminism(t *testing.T) {
	calls := 0
	_, err := dptest.Explore(context.Background(), func(r *dptest.Rand) int {
		calls++
		if calls == 2 {
			return r.IntN(3)
		}
		return r.IntN(2)
	}, dptest.Budget{})
	var ne *dptest.NondeterminismError
	if !errors.As(err, &ne) || ne.Want != "IntN(2)" || ne.Got != "IntN(3)" || ne.Choices != "(none)" {
		t.Fatalf("err = %v", err)
	}
}

// TestExplorePanic: a panic of the sampler is an error with its choices.
func TestExplorePanic(t *testing.T) {
	_, err := dptest.Explore(context.Background(), func(r *dptest.Rand) int {
		if r.Bit() && r.IntN(4) == 3 {
			panic("boom")
		}
		return 0
	}, dptest.Budget{})
	var pe *dptest.PanicError
	if !errors.As(err, &pe) || pe.Choices != "Bit()=1, IntN(4)=3" || pe.Value != "boom" {
		t.Fatalf("err = %v", err)
	}
}
