package exact

import (
	"math/big"
	"math/rand"
	"testing"
)

// TestPowBits: PowBits is never below the bits of the power computed, at
// most 2 above them, and exact for powers of two (2^600000 has 600 001 bits
// in its numerator and 1 in its denominator).
func TestPowBits(t *testing.T) {
	if got := PowBits(big.NewRat(2, 1), 600000); got != 600002 {
		t.Errorf("PowBits(2, 600000) = %d, want 600002", got)
	}
	if got := PowBits(big.NewRat(1, 8), -3); got != 1+10 {
		t.Errorf("PowBits(1/8, -3) = %d, want 11", got)
	}
	rng := rand.New(rand.NewSource(3))
	xs := []*big.Rat{big.NewRat(3, 1), big.NewRat(-3, 7), big.NewRat(1, 1), big.NewRat(0, 1), big.NewRat(255, 256), big.NewRat(257, 1)}
	for range 60 {
		num := new(big.Int).Rand(rng, new(big.Int).Lsh(big.NewInt(1), uint(1+rng.Intn(300))))
		den := new(big.Int).Rand(rng, new(big.Int).Lsh(big.NewInt(1), uint(1+rng.Intn(300))))
		xs = append(xs, new(big.Rat).SetFrac(num.Add(num, big.NewInt(1)), den.Add(den, big.NewInt(1))))
	}
	for _, x := range xs {
		for _, n := range []int64{0, 1, 2, 3, 7, 64, 65, 300, -5} {
			if x.Sign() == 0 && n < 0 {
				continue
			}
			want := int64(Bits(Pow(x, n)))
			got := PowBits(x, n)
			if got < want || got > want+2 {
				t.Errorf("PowBits(%s, %d) = %d, the power has %d bits", x.RatString(), n, got, want)
			}
		}
	}
	// Large exponents and bases over 64 bits, against big.Int's power.
	big70 := new(big.Int).Add(new(big.Int).Lsh(big.NewInt(1), 70), big.NewInt(12345))
	for _, c := range []struct {
		m *big.Int
		k int64
	}{{big.NewInt(3), 1 << 20}, {big.NewInt(1<<62 - 1), 1 << 14}, {big70, 1000}, {new(big.Int).Lsh(big70, 200), 333}} {
		want := int64(new(big.Int).Exp(c.m, big.NewInt(c.k), nil).BitLen())
		if got := powBitLen(c.m, c.k); got < want || got > want+1 {
			t.Errorf("powBitLen(%s, %d) = %d, the power has %d bits", c.m, c.k, got, want)
		}
	}
}

// TestPowBitsHuge: powers whose bit length is beyond a float's exponent
// (28888888^222222220 has about 5.5·10^9 bits) are bounded, not taken for
// 0 bits: a limit on powers relies on it (found by fuzzing an untruncated
// draw around a huge centre).
func TestPowBitsHuge(t *testing.T) {
	for _, tc := range []struct {
		x    *big.Rat
		k    int64
		want int64 // at least
	}{
		{big.NewRat(1, 28888888), 222222220, 24 * 222222220},
		{big.NewRat(28888888, 1), -222222220, 24 * 222222220},
		{big.NewRat(3, 1), 1 << 40, 1 << 40},
		{new(big.Rat).SetFrac(new(big.Int).Lsh(big.NewInt(3), 1<<20), big.NewInt(1)), 1 << 40, 1 << 60},
	} {
		if got := PowBits(tc.x, tc.k); got < tc.want {
			t.Errorf("PowBits(%s, %d) = %d, want at least %d", tc.x.RatString()[:min(20, len(tc.x.RatString()))], tc.k, got, tc.want)
		}
	}
}
