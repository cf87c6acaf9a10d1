package verify

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestCmpRatio checks the cross-multiplied comparison against big.Rat on
// positive rationals of the shapes the mechanisms produce: dyadic ones
// with long powers of two, equal ratios, and arbitrary ones.
func TestCmpRatio(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var sc scratch
	check := func(ps, pt, r *big.Rat) {
		want := new(big.Rat).Quo(ps, pt).Cmp(r)
		if got := sc.cmpRatio(ps, pt, r); got != want {
			t.Fatalf("cmpRatio(%s, %s, %s) = %d, want %d", ps.RatString(), pt.RatString(), r.RatString(), got, want)
		}
	}
	for range 20000 {
		ps, pt, r := gen(rng), gen(rng), gen(rng)
		check(ps, pt, r)
		check(ps, pt, new(big.Rat).Quo(ps, pt)) // equal
		q := new(big.Rat).Quo(ps, pt)
		check(ps, pt, q.Add(q, new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), 400)))) // just above
	}
}

// gen is a positive rational: an odd part of up to 40 bits (sometimes 200)
// times a power of two between 2^-300 and 2^300.
func gen(rng *rand.Rand) *big.Rat {
	odd := func(bits int) *big.Int {
		x := new(big.Int)
		for x.BitLen() < bits {
			x.Lsh(x, 32).Or(x, big.NewInt(int64(rng.Uint32())))
		}
		return x.SetBit(x, 0, 1)
	}
	bits := 1 + rng.IntN(40)
	if rng.IntN(5) == 0 {
		bits = 200
	}
	num, den := odd(bits), odd(1+rng.IntN(40))
	if e := rng.IntN(601) - 300; e > 0 {
		num.Lsh(num, uint(e))
	} else {
		den.Lsh(den, uint(-e))
	}
	return new(big.Rat).SetFrac(num, den)
}
