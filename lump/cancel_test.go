package lump_test

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/lump"
)

// counting is a context whose Err reports cancellation from its n-th call
// on, and counts the calls (the quotient's rows are checked in parallel).
type counting struct {
	context.Context
	n     int64
	calls atomic.Int64
}

func (c *counting) Err() error {
	if c.calls.Add(1) > c.n {
		return context.Canceled
	}
	return nil
}

// fan is an input that goes to n middle states with 1/n each; middle state
// i ends in "yes" with probability 1/3 when i is even and 2/3 when odd,
// else in "no".
func fan(t *testing.T, n int) *chain.Chain {
	t.Helper()
	b := chain.NewBuilder()
	in := b.AddState("in", nil)
	yes := b.AddState("yes", nil, "yes")
	no := b.AddState("no", nil, "no")
	b.MarkInput(in)
	third, twoThirds := big.NewRat(1, 3), big.NewRat(2, 3)
	each := big.NewRat(1, int64(n))
	for i := range n {
		m := b.AddState(fmt.Sprintf("m%d", i), nil)
		b.AddTransition(in, m, each)
		p, q := third, twoThirds
		if i%2 == 1 {
			p, q = q, p
		}
		b.AddTransition(m, yes, p)
		b.AddTransition(m, no, q)
	}
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestLumpStopsWithTheContext: the 40 000 middle states of a fan are split
// by one splitter (a block's predecessors are weighed a few thousand at a
// time between looks at the context), and the quotient sums 20 000
// probabilities a row: a context that ends anywhere ends Lump with its
// error at the next look.
func TestLumpStopsWithTheContext(t *testing.T) {
	const n = 40000
	c := fan(t, n)
	key := func(s int) string { return fmt.Sprint(c.Labels(s)) }
	all := &counting{Context: context.Background(), n: 1 << 60}
	l, err := lump.Lump(all, c, lump.Respect{Key: key, Final: true})
	if err != nil {
		t.Fatal(err)
	}
	if l.After.States != 5 {
		t.Fatalf("lumped to %d states, want 5 (in, the even and odd middle states, yes, no)", l.After.States)
	}
	to, p := l.Quotient.Row(l.Block[0])
	if len(to) != 2 || p[0].Cmp(big.NewRat(1, 2)) != 0 || p[1].Cmp(big.NewRat(1, 2)) != 0 {
		t.Errorf("the input's row in the quotient: %v %v, want 1/2 to each middle block", to, p)
	}
	k := all.calls.Load()
	if k < n/4096 {
		t.Fatalf("Lump looked at its context %d times", k)
	}
	for _, m := range []int64{0, 1, k / 2, k - 1} {
		ctx := &counting{Context: context.Background(), n: m}
		if _, err := lump.Lump(ctx, c, lump.Respect{Key: key, Final: true}); !errors.Is(err, context.Canceled) {
			t.Errorf("ended at look %d of %d: err = %v", m, k, err)
		}
		// One more look, or one for each worker checking the quotient's rows.
		if got := ctx.calls.Load(); got > m+1+int64(runtime.GOMAXPROCS(0)) {
			t.Errorf("ended at look %d of %d: %d looks in all, it went on", m, k, got)
		}
	}
}
