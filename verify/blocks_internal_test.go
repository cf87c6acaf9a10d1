package verify

import (
	"context"
	"errors"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/chain"
)

// TestSolveBlocksCancel: the distributions of a chain's states stop when
// their context ends (a memory watch ends it), and are exact otherwise.
func TestSolveBlocksCancel(t *testing.T) {
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
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := solveBlocks(ctx, ch, components(ch), unknown, x); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: err = %v", err)
	}
	unknown, x = setup()
	if err := solveBlocks(context.Background(), ch, components(ch), unknown, x); err != nil {
		t.Fatal(err)
	}
	if got := x[s0]; len(got.p) != 2 || got.p[0].Cmp(big.NewRat(1, 3)) != 0 || got.p[1].Cmp(big.NewRat(2, 3)) != 0 {
		t.Fatalf("x[s0] = %v %v, want 1/3, 2/3", got.out, got.p)
	}
}
