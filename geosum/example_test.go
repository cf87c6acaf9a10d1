package geosum_test

import (
	"context"
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/geosum"
)

// The probability that a noisy answer 1 + Z₁ reaches a noisy threshold
// 2 + Z₂, Z₁ and Z₂ untruncated two-sided geometric noise with α = 1/2:
// an infinite sum, exactly. (Pr[Z₁ = Z₂] = 5/27, and by symmetry the
// rest splits evenly: (1 − 5/27)/2.)
func Example() {
	s := geosum.NewSummer[*big.Rat](context.Background(), exact.Rats{}, 0)
	half := big.NewRat(1, 2)
	w := s.Point([]int64{0, 0}, big.NewRat(1, 1))
	w, _ = s.Geometric(w, 0, half, 1, false) // x₀ = 1 + Z₁
	w, _ = s.Geometric(w, 1, half, 2, false) // x₁ = 2 + Z₂
	above := s.Restrict(w, geosum.Var(1, 1, 0), geosum.Var(0, 1, 0))
	p, _ := s.Total(above)
	fmt.Println(p)
	// Output: 11/27
}
