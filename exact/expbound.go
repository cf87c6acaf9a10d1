package exact

import (
	"math/big"
)

// expBounds returns rationals lo <= e^q <= hi whose relative gap is at most
// about 2^-prec. The bounds are certified: every rounding in the Taylor sum
// and in the repeated squaring is directed (down for lo, up for hi) and the
// Taylor remainder is bounded explicitly, so lo and hi enclose e^q exactly.
// No float64 is involved. |q| must stay far below 2^31/log2(e), the range of
// big.Float exponents; callers keep it below 2^22.
func expBounds(q *big.Rat, prec uint) (lo, hi *big.Rat) {
	switch q.Sign() {
	case 0:
		return big.NewRat(1, 1), big.NewRat(1, 1)
	case -1:
		l, h := expBounds(new(big.Rat).Neg(q), prec)
		return new(big.Rat).Inv(h), new(big.Rat).Inv(l)
	}
	// Range reduction: e^q = (e^t)^(2^m) with t = q/2^m <= 1/2.
	m := max(0, q.Num().BitLen()-q.Denom().BitLen()+2)
	t := new(big.Rat).SetFrac(q.Num(), new(big.Int).Lsh(q.Denom(), uint(m)))
	wp := prec + uint(m) + 64 // working precision
	down := func() *big.Float { return new(big.Float).SetPrec(wp).SetMode(big.ToNegativeInf) }
	up := func() *big.Float { return new(big.Float).SetPrec(wp).SetMode(big.ToPositiveInf) }

	tLo, tHi := down().SetRat(t), up().SetRat(t)
	sumLo, sumHi := down().SetInt64(1), up().SetInt64(1)
	termLo, termHi := down().SetInt64(1), up().SetInt64(1)
	eps := new(big.Float).SetMantExp(big.NewFloat(1), -int(wp)-8)
	for i := int64(1); ; i++ {
		termLo.Mul(termLo, tLo)
		termLo.Quo(termLo, down().SetInt64(i))
		termHi.Mul(termHi, tHi)
		termHi.Quo(termHi, up().SetInt64(i))
		sumLo.Add(sumLo, termLo)
		sumHi.Add(sumHi, termHi)
		if termHi.Cmp(eps) < 0 {
			// Remainder after term i: sum_{j>i} t^j/j! <= term_i·t/(i+1)·1/(1-t/(i+2))
			// <= 2·term_i·t/(i+1) since t <= 1/2.
			rem := up().Mul(termHi, tHi)
			rem.Quo(rem, up().SetInt64(i+1))
			rem.Mul(rem, up().SetInt64(2))
			sumHi.Add(sumHi, rem)
			break
		}
	}
	for range m {
		sumLo.Mul(sumLo, sumLo)
		sumHi.Mul(sumHi, sumHi)
	}
	lo, _ = sumLo.Rat(nil)
	hi, _ = sumHi.Rat(nil)
	return lo, hi
}
