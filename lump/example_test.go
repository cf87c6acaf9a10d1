package lump_test

import (
	"context"
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/lump"
)

// A coin flipped twice, step by step: the runs "heads then tails" and
// "tails then heads" end in different states, ht and th, with the same
// count of heads. Lumped for that count, they are one state.
func ExampleLump() {
	b := chain.NewBuilder()
	start := b.AddState("start", nil)
	h := b.AddState("h", chain.Valuation{{Name: "heads", Value: 1}})
	t := b.AddState("t", chain.Valuation{{Name: "heads", Value: 0}})
	hh := b.AddState("hh", chain.Valuation{{Name: "heads", Value: 2}})
	ht := b.AddState("ht", chain.Valuation{{Name: "heads", Value: 1}})
	th := b.AddState("th", chain.Valuation{{Name: "heads", Value: 1}})
	tt := b.AddState("tt", chain.Valuation{{Name: "heads", Value: 0}})
	half := big.NewRat(1, 2)
	for _, x := range [][3]int{{start, h, t}, {h, hh, ht}, {t, th, tt}} {
		b.AddTransition(x[0], x[1], half)
		b.AddTransition(x[0], x[2], half)
	}
	b.MarkInput(start)
	c, _ := b.Build()

	// The count of heads at the end is what is observed.
	heads := func(s int) string { v, _ := c.Value(s, "heads"); return fmt.Sprint(v) }
	l, _ := lump.Lump(context.Background(), c, lump.Respect{Final: true, Key: heads})
	fmt.Println(l.Before, "→", l.After)
	for q := range l.Quotient.NumStates() {
		to, p := l.Quotient.Row(q)
		fmt.Printf("%s:", l.Quotient.Describe(q))
		for i, x := range to {
			fmt.Printf(" %s %s", l.Quotient.Name(x), p[i].RatString())
		}
		fmt.Println()
	}
	// Output:
	// {7 10} → {6 9}
	// start: h 1/2 t 1/2
	// h (heads=1): hh 1/2 ht 1/2
	// t (heads=0): ht 1/2 tt 1/2
	// hh (heads=2): hh 1
	// ht (heads=1): ht 1
	// tt (heads=0): tt 1
}
