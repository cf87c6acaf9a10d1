package chain_test

import (
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
)

func ExampleBuilder() {
	b := chain.NewBuilder()
	pos := b.AddState("pos", chain.Valuation{{Name: "x", Value: 1}}, "in_pos")
	yes := b.AddState("yes", nil, "out_Y")
	b.AddTransition(pos, yes, big.NewRat(3, 4))
	b.SendRemainderToSink(pos) // the missing 1/4 goes to †
	b.MarkInput(pos)
	c, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	to, p := c.Row(pos)
	for i, t := range to {
		fmt.Printf("%s -> %s : %s\n", c.Describe(pos), c.Name(t), p[i].RatString())
	}
	fmt.Println("absorbing:", c.IsAbsorbing(yes))
	// Output:
	// pos (x=1) -> yes : 3/4
	// pos (x=1) -> † : 1/4
	// absorbing: true
}

func ExampleErrorList() {
	b := chain.NewBuilder()
	a := b.AddState("a", nil)
	b.AddTransitionTo(a, "b", big.NewRat(1, 2))
	b.AddTransition(a, a, big.NewRat(1, 3))
	_, err := b.Build()
	fmt.Println(err)
	// Output:
	// state "a", transition to "b": transition to unknown state
}
