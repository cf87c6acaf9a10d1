package verify

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/chain"
)

// TestSolveBlocksBudget: the distributions of a chain's states stop at
// their memory budget with an error wrapping ErrModel and naming
// MaxDistributionBytes, and are exact within it.
func TestSolveBlocksBudget(t *testing.T) {
	b := chain.NewBuilder()
	s0 := b.AddState("s0", nil)
	a := b.AddState("a", nil)
	c := b.AddState("b", nil)
	b.AddTransition(s0, a, big.NewRat(1, 3))
	b.AddTransition(s0, c, big.NewRat(2, 3))
	ch, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	setup := func() ([]bool, []dvec) {
		unknown := make([]bool, 3)
		unknown[s0] = true
		x := make([]dvec, 3)
		x[a] = dvec{out: []int{0}, p: []*big.Rat{big.NewRat(1, 1)}}
		x[c] = dvec{out: []int{1}, p: []*big.Rat{big.NewRat(1, 1)}}
		return unknown, x
	}
	unknown, x := setup()
	err = solveBlocks(context.Background(), ch, components(ch), unknown, x, 100)
	if !errors.Is(err, ErrModel) || err == nil || !strings.Contains(err.Error(), "verify.MaxDistributionBytes") {
		t.Fatalf("budget of 100 bytes: err = %v", err)
	}
	unknown, x = setup()
	if err := solveBlocks(context.Background(), ch, components(ch), unknown, x, 1<<20); err != nil {
		t.Fatal(err)
	}
	if got := x[s0]; len(got.p) != 2 || got.p[0].Cmp(big.NewRat(1, 3)) != 0 || got.p[1].Cmp(big.NewRat(2, 3)) != 0 {
		t.Fatalf("x[s0] = %v %v, want 1/3, 2/3", got.out, got.p)
	}
}
