package exact

import (
	"math/big"
	"math/bits"
)

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
	z := fresh()
	z.Num().Set(num)
	z.Denom().Set(den)
	return z
}

// fresh returns a new 1/2 made without a GCD (SetFrac64 computes one):
// its denominator is allocated, so Num and Denom are references to set in
// place.
func fresh() *big.Rat {
	z := new(big.Rat)
	z.Num().SetInt64(2)
	return z.Inv(z)
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
	a, d = cancel(a, d)
	c, b = cancel(c, b)
	z := fresh()
	den := z.Denom()
	den.Mul(b, d)
	if den.Cmp(intOne) == 0 {
		return z.SetInt(new(big.Int).Mul(a, c))
	}
	z.Num().Mul(a, c)
	return z
}

// MulWords returns x·y = n/d in lowest terms when x and y are at least 0,
// their numerators and denominators fit in a word, and so do n and d; ok
// is false otherwise. It allocates nothing: a caller that meets the same
// products often can look n/d up before it makes a value (FromWords).
func MulWords(x, y *big.Rat) (n, d uint64, ok bool) {
	a, b, c, e := x.Num().Bits(), x.Denom().Bits(), y.Num().Bits(), y.Denom().Bits()
	if x.Sign() < 0 || y.Sign() < 0 || len(a) > 1 || len(b) != 1 || len(c) > 1 || len(e) != 1 || bits.UintSize != 64 {
		return 0, 0, false
	}
	if len(a) == 0 || len(c) == 0 {
		return 0, 1, true
	}
	an, bd, cn, ed := uint64(a[0]), uint64(b[0]), uint64(c[0]), uint64(e[0])
	g1, g2 := gcd64(an, ed), gcd64(cn, bd)
	hi, n := bits.Mul64(an/g1, cn/g2)
	if hi != 0 {
		return 0, 0, false
	}
	hi, d = bits.Mul64(bd/g2, ed/g1)
	return n, d, hi == 0
}

// FromWords returns n/d, which must be in lowest terms with d > 0, as a
// new value.
func FromWords(n, d uint64) *big.Rat {
	if d == 1 {
		return new(big.Rat).SetUint64(n)
	}
	z := fresh()
	z.Num().SetUint64(n)
	z.Denom().SetUint64(d)
	return z
}

// OneMinus returns 1 - x in lowest terms, as a new value: (b-a)/b is reduced
// whenever a/b is.
func OneMinus(x *big.Rat) *big.Rat {
	num := new(big.Int).Sub(x.Denom(), x.Num())
	return reduced(num, new(big.Int).Set(x.Denom()))
}

// cancel returns x/g and y/g for g = gcd(x, y), y > 0: x and y themselves
// when g = 1. When one of them fits in a word, the gcd is a remainder of
// the other by it, read off its words, and a word gcd: no copies.
func cancel(x, y *big.Int) (*big.Int, *big.Int) {
	var g uint64
	switch xw, yw := x.Bits(), y.Bits(); {
	case bits.UintSize != 64:
		g = 0
	case len(xw) == 1:
		g = gcdWord(uint64(xw[0]), yw)
	case len(yw) == 1:
		g = gcdWord(uint64(yw[0]), xw)
	}
	switch g {
	case 1:
		return x, y
	case 0: // neither fits in a word
		var gi big.Int
		gi.GCD(nil, nil, x, y)
		if gi.Cmp(intOne) == 0 {
			return x, y
		}
		return new(big.Int).Quo(x, &gi), new(big.Int).Quo(y, &gi)
	}
	gi := new(big.Int).SetUint64(g)
	return new(big.Int).Quo(x, gi), new(big.Int).Quo(y, gi)
}

// gcdWord returns gcd(m, v) for m > 0 and v the words of a non-negative
// number, on 64-bit words.
func gcdWord(m uint64, v []big.Word) uint64 {
	var r uint64
	for i := len(v) - 1; i >= 0; i-- {
		_, r = bits.Div64(r, uint64(v[i]), m)
	}
	return gcd64(m, r)
}
