package exact

// This file holds the only float64 arithmetic of the package outside the
// certified filter (approx.go): approximations for heuristics (the order of
// a search) and plots. Nothing here decides a verdict or prints a digit:
// printed decimals are decimal.go's, correctly rounded.

import (
	"math"
	"math/big"
)

// LnFloat returns ln(r) for r > 0 as a float64 approximation (not
// correctly rounded: see Decimal for printing). It works
// for rationals far outside float64's range by splitting off the binary
// exponents.
func LnFloat(r *big.Rat) float64 {
	return lnInt(r.Num()) - lnInt(r.Denom())
}

func lnInt(x *big.Int) float64 {
	n := x.BitLen()
	if n <= 1000 {
		f, _ := new(big.Float).SetInt(x).Float64()
		return math.Log(f) // display only
	}
	shift := n - 64
	top := new(big.Int).Rsh(x, uint(shift))
	f, _ := new(big.Float).SetInt(top).Float64()
	return math.Log(f) + float64(shift)*math.Ln2 // display only
}

// RatFloat returns x as a float64 approximation (0 for nil).
func RatFloat(x *big.Rat) float64 {
	if x == nil {
		return 0
	}
	f, _ := x.Float64()
	return f
}
