package exact

import (
	"math/big"
)

// PowBits returns the bits that x^n has, as Bits counts them (numerator
// plus denominator), without computing the power: exact when a numerator
// and denominator are powers of two, otherwise at most one bit above each
// (so at most 2 above Bits(Pow(x, n))) for |n| ≤ 2^24; beyond, the bound
// is the cruder b·|n| (b the bits of the numerator or denominator), and
// 2^62 where that overflows. x ≠ 0 when n < 0.
//
// The bit length of m^k is that of the largest power of two at most m^k,
// plus one: m^k is bounded above by (⌈m/2^s⌉·2^s)^k with s dropping all but
// m's top 64 bits, and ⌈m/2^s⌉^k is computed in 64-bit floating point
// rounded up (big.Float, exact interval arithmetic in one direction), so
// the bound exceeds m^k by a factor below 1 + 2^-40 for k ≤ 2^20 — one bit
// at most — and never falls below it.
func PowBits(x *big.Rat, n int64) int64 {
	if n < 0 {
		n = -n
	}
	return powBitLen(x.Num(), n) + powBitLen(x.Denom(), n)
}

// powBitLen returns an upper bound on the bit length of |m|^k, at most one
// above it (exact when |m| is a power of two, 0 or 1).
func powBitLen(m *big.Int, k int64) int64 {
	b := int64(m.BitLen())
	switch {
	case b == 0: // 0^k
		if k == 0 {
			return 1
		}
		return 0
	case k == 0:
		return 1
	case b > (1<<62)/k: // b·k, the bound below, would overflow
		return 1 << 62
	case k > 1<<24:
		// |m|^k < 2^(b·k). Below, ⌈m/2^s⌉ < 2^64 is raised to the k in a
		// big.Float, whose exponent overflows past 2^31 (to +Inf, whose
		// exponent reads 0): for k beyond 2^24 the cruder bound speaks,
		// at most 1/(b−1) above the bit length.
		return b * k
	case new(big.Int).Abs(m).TrailingZeroBits() == uint(b-1): // 2^(b−1)
		return (b-1)*k + 1
	}
	s := max(b-64, 0)
	top := new(big.Int).Rsh(new(big.Int).Abs(m), uint(s))
	if s > 0 && new(big.Int).Abs(m).TrailingZeroBits() < uint(s) {
		top.Add(top, big.NewInt(1)) // ⌈|m|/2^s⌉
	}
	f := new(big.Float).SetPrec(64).SetMode(big.AwayFromZero).SetInt(top)
	r := new(big.Float).SetPrec(64).SetMode(big.AwayFromZero).SetInt64(1)
	for e := k; e > 0; e >>= 1 {
		if e&1 == 1 {
			r.Mul(r, f)
		}
		if e > 1 {
			f.Mul(f, f)
		}
	}
	// r = mant·2^exp with mant in [0.5, 1): r < 2^exp, and r ≥ 2^(exp−1).
	return int64(r.MantExp(nil)) + s*k
}
