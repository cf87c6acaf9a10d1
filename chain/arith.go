package chain

import "math/big"

// Exact rational arithmetic that avoids big.Rat's normalisation where the
// result is known to be in lowest terms. big.Rat.Mul computes the gcd of the
// two products; for a = x.num, b = x.den, c = y.num, d = y.den in lowest terms,
// gcd(ac, bd) = gcd(a, d)·gcd(c, b), and those are cheap when one factor is
// small — as in α^k·α for α = 999/1000, where the products have tens of
// thousands of bits.

// reduced returns num/den for num, den already coprime, den > 0, without
// computing a gcd. It sets the fraction through Num and Denom, which are
// documented to be references into an initialised non-integer Rat.
func reduced(num, den *big.Int) *big.Rat {
	if den.Cmp(intOne) == 0 {
		return new(big.Rat).SetInt(num)
	}
	z := new(big.Rat).SetFrac64(1, 2) // initialised, non-integer
	z.Num().Set(num)
	z.Denom().Set(den)
	return z
}

var intOne = big.NewInt(1)

// Mul returns x·y in lowest terms, as a new value. It gives the same result
// as big.Rat.Mul, faster when one factor has a small numerator or
// denominator.
func Mul(x, y *big.Rat) *big.Rat {
	a, b, c, d := x.Num(), x.Denom(), y.Num(), y.Denom()
	if a.Sign() == 0 || c.Sign() == 0 {
		return new(big.Rat)
	}
	var g1, g2 big.Int
	g1.GCD(nil, nil, new(big.Int).Abs(a), d)
	g2.GCD(nil, nil, new(big.Int).Abs(c), b)
	num := new(big.Int).Quo(a, &g1)
	num.Mul(num, new(big.Int).Quo(c, &g2))
	den := new(big.Int).Quo(b, &g2)
	den.Mul(den, new(big.Int).Quo(d, &g1))
	return reduced(num, den)
}

// OneMinus returns 1 - x in lowest terms, as a new value: (b-a)/b is reduced
// whenever a/b is.
func OneMinus(x *big.Rat) *big.Rat {
	num := new(big.Int).Sub(x.Denom(), x.Num())
	return reduced(num, new(big.Int).Set(x.Denom()))
}
