package exact

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestApproxBoundsContainEps: the float64 bounds of ε = k·ln(r) + q that
// the decimals use contain the exact bounds (lnBounds at 300 bits), and the
// decimals they give equal the exact path's, for random k, r and q of every
// size: near 1, huge, tiny, with and without a rational part.
func TestApproxBoundsContainEps(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	randInt := func(bits int) *big.Int {
		x := new(big.Int)
		for x.BitLen() < bits {
			x.Lsh(x, 32)
			x.Or(x, big.NewInt(int64(rng.Uint32())))
		}
		return x.Rsh(x, uint(x.BitLen()-bits)).SetBit(x, bits-1, 1)
	}
	decided := 0
	for i := range 1200 {
		var r *big.Rat
		switch i % 4 {
		case 0: // small
			r = big.NewRat(1+rng.Int64N(1000), 1+rng.Int64N(1000))
		case 1: // near 1
			n := randInt(1 + rng.IntN(200))
			r = new(big.Rat).SetFrac(new(big.Int).Add(n, big.NewInt(1+rng.Int64N(3))), n)
		case 2: // huge and tiny
			r = new(big.Rat).SetFrac(randInt(1+rng.IntN(600)), randInt(1+rng.IntN(600)))
		default:
			r = new(big.Rat).SetFrac(randInt(1+rng.IntN(70)), randInt(1+rng.IntN(70)))
		}
		if r.Cmp(ratOne) == 0 {
			continue
		}
		k := big.NewRat(1+rng.Int64N(200), 1+rng.Int64N(64))
		if rng.IntN(3) == 0 {
			k.Neg(k)
		}
		var e Eps
		var err error
		if rng.IntN(2) == 0 {
			e, err = LnPlus(k, r, big.NewRat(rng.Int64N(2001)-1000, 1+rng.Int64N(1000)))
		} else {
			e, err = LnPlus(k, r, new(big.Rat))
		}
		if err != nil || e.IsInf() || e.IsZero() || e.d.k == nil {
			continue
		}
		lo, hi, ok := e.approxBounds()
		if !ok {
			t.Fatalf("ε = %s: no float bounds", e)
		}
		xlo, xhi := e.bounds(300)
		if lo.Cmp(xlo) > 0 || hi.Cmp(xhi) < 0 {
			t.Fatalf("ε = %s: float bounds [%s, %s] do not contain [%s, %s]", e, lo.FloatString(30), hi.FloatString(30), xlo.FloatString(30), xhi.FloatString(30))
		}
		got := TextDecimal().Eps(e)
		if want := TextDecimal().bounded(e.bounds); got != want {
			t.Fatalf("ε = %s: decimal %s, exactly %s", e, got, want)
		}
		n1, d1, e1 := sigDigits(lo, 6)
		n2, d2, e2 := sigDigits(hi, 6)
		if lo.Sign() == hi.Sign() && n1 == n2 && d1 == d2 && e1 == e2 {
			decided++
		}
	}
	if decided < 900 {
		t.Errorf("the float bounds decided %d of 1200 decimals; want most", decided)
	}
}

// TestLn2Constant: the constant bounds of ln 2 contain the series' bounds
// (2·atanh(1/3), summed with directed rounding) at every precision they
// serve, and are as tight as they claim.
func TestLn2Constant(t *testing.T) {
	for _, wp := range []uint{8, 64, 88, 132, 500, 1000, ln2Bits - 16} {
		lo, hi := ln2Bounds(wp)
		a, b := atanhBounds(big.NewRat(1, 3), wp+40)
		slo, shi := a.Add(a, a), b.Add(b, b)
		if lo.Cmp(slo) > 0 || hi.Cmp(shi) < 0 {
			t.Errorf("wp %d: [%s, %s] does not contain the series' [%s, %s]", wp, lo.FloatString(40), hi.FloatString(40), slo.FloatString(40), shi.FloatString(40))
		}
		width := new(big.Rat).Sub(hi, lo)
		if width.Cmp(new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), wp))) > 0 {
			t.Errorf("wp %d: width %s is over 2^-%d", wp, width.FloatString(40), wp)
		}
	}
}
