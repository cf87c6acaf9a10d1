package exact_test

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/dpcheck/dpcheck/exact"
)

// TestMulWords: every product MulWords gives is big.Rat's, in lowest
// terms, and FromWords makes it; it declines exactly when a factor is
// negative or does not fit in words, or the product does not.
func TestMulWords(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	word := func() *big.Int {
		switch r.IntN(4) {
		case 0:
			return big.NewInt(int64(r.IntN(10)))
		case 1:
			return new(big.Int).SetUint64(1 << r.IntN(64))
		case 2:
			return new(big.Int).SetUint64(r.Uint64())
		}
		return new(big.Int).Lsh(big.NewInt(int64(r.IntN(1000)+1)), uint(r.IntN(70)))
	}
	fits := func(x *big.Rat) bool { return x.Num().IsUint64() && x.Denom().IsUint64() }
	for i := range 20000 {
		num, den := word(), word()
		if den.Sign() == 0 {
			den.SetInt64(1)
		}
		x := new(big.Rat).SetFrac(num, den)
		y := new(big.Rat).SetFrac(word(), new(big.Int).Add(word(), big.NewInt(1)))
		if i%7 == 0 {
			y.Neg(y)
		}
		want := new(big.Rat).Mul(x, y)
		n, d, ok := exact.MulWords(x, y)
		wantOK := x.Sign() >= 0 && y.Sign() >= 0 && fits(x) && fits(y) && fits(want)
		if ok != wantOK {
			t.Fatalf("MulWords(%s, %s): ok = %v, want %v (product %s)", x.RatString(), y.RatString(), ok, wantOK, want.RatString())
		}
		if !ok {
			continue
		}
		got := exact.FromWords(n, d)
		if got.Cmp(want) != 0 || n != want.Num().Uint64() || d != want.Denom().Uint64() {
			t.Fatalf("MulWords(%s, %s) = %d/%d, want %s", x.RatString(), y.RatString(), n, d, want.RatString())
		}
		// FromWords's value is a proper big.Rat: arithmetic on it agrees.
		if s := new(big.Rat).Add(got, x); s.Cmp(new(big.Rat).Add(want, x)) != 0 {
			t.Fatalf("%s + %s = %s", got.RatString(), x.RatString(), s.RatString())
		}
	}
}
