package builder_test

import (
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/builder"
)

func ExampleTruncatedGeometric() {
	m, err := builder.TruncatedGeometric(big.NewRat(1, 2), 5)
	if err != nil {
		panic(err)
	}
	c := m.Chain
	s0, _ := c.Lookup("s0")
	to, p := c.Row(s0)
	for i, t := range to {
		fmt.Printf("Pr[%s | %s] = %s\n", c.Name(t), c.Name(s0), p[i].RatString())
	}
	fmt.Println(len(m.Neighbours), "neighbouring pairs")
	// Output:
	// Pr[t0 | s0] = 2/3
	// Pr[t1 | s0] = 1/6
	// Pr[t2 | s0] = 1/12
	// Pr[t3 | s0] = 1/24
	// Pr[t4 | s0] = 1/48
	// Pr[t5 | s0] = 1/48
	// 5 neighbouring pairs
}
