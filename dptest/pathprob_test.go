package dptest

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// randProb is a random prob, small or big, and its value.
func randProb(rng *rand.Rand) (prob, *big.Rat) {
	words := []uint64{1, 2, 3, 5, 6, 7, 1 << 20, 3 << 40, 1<<63 + 1, 1<<64 - 1, 12345678901}
	pick := func() uint64 {
		if rng.IntN(2) == 0 {
			return words[rng.IntN(len(words))]
		}
		return rng.Uint64N(1<<uint(rng.IntN(64))) + 1
	}
	n, d := pick(), pick()
	if n > d {
		n, d = d, n
	}
	e := rng.IntN(200) - 20
	p := smallProb(n, d, e)
	if rng.IntN(8) == 0 {
		r := p.rat()
		p = prob{bn: r.Num(), bd: r.Denom()}
	}
	return p, prob{num: n, den: d, exp: e}.rat()
}

// TestProbArithmetic: products, comparisons and sums of probs agree with
// big.Rat, across the small and big forms and their overflows.
func TestProbArithmetic(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		p, x := randProb(rng)
		q, y := randProb(rng)
		if got := p.rat(); got.Cmp(x) != 0 {
			t.Fatalf("rat(%+v) = %s, want %s", p, got.RatString(), x.RatString())
		}
		if got, want := p.mul(q).rat(), new(big.Rat).Mul(x, y); got.Cmp(want) != 0 {
			t.Fatalf("%s · %s = %s, want %s", x.RatString(), y.RatString(), got.RatString(), want.RatString())
		}
		if got, want := p.cmp(q), x.Cmp(y); got != want {
			t.Fatalf("cmp(%s, %s) = %d, want %d", x.RatString(), y.RatString(), got, want)
		}
		if got := p.cmp(p); got != 0 {
			t.Fatalf("cmp(%s, itself) = %d", x.RatString(), got)
		}
	}
	var a acc
	sum := new(big.Rat)
	for i := range 5000 {
		// Denominators as a sampler's runs have: powers of 2, a few odd
		// factors, sometimes a big one.
		p := smallProb(1, []uint64{1, 1, 3, 5, 15}[rng.IntN(5)], rng.IntN(70))
		if i%50 == 0 {
			p, _ = randProb(rng)
		}
		x := p.rat()
		a.add(p)
		sum.Add(sum, x)
	}
	if got := a.total(); got.Cmp(sum) != 0 {
		t.Fatalf("sum = %s, want %s", got.RatString(), sum.RatString())
	}

	// Big terms whose denominators are products of a few big factors, as
	// a sampler's runs have, so that they often divide each other.
	factors := []*big.Int{big.NewInt(1 << 62), new(big.Int).Lsh(big.NewInt(3), 70), big.NewInt(479001600)}
	var b acc
	sum = new(big.Rat)
	for range 3000 {
		n, d := big.NewInt(int64(rng.IntN(1000)+1)), big.NewInt(1)
		for range rng.IntN(12) {
			d.Mul(d, factors[rng.IntN(len(factors))])
		}
		b.add(prob{bn: n, bd: d})
		sum.Add(sum, new(big.Rat).SetFrac(n, d))
	}
	if got := b.total(); got.Cmp(sum) != 0 {
		t.Fatalf("sum = %s, want %s", got.RatString(), sum.RatString())
	}
}

// TestRatProb: rationals that fit in words become small probs.
func TestRatProb(t *testing.T) {
	for _, s := range []string{"0", "1", "1/2", "3/4", "5/12", "18446744073709551615/18446744073709551616", "1/340282366920938463463374607431768211456"} {
		x, _ := new(big.Rat).SetString(s)
		p := ratProb(x)
		if p.rat().Cmp(x) != 0 {
			t.Errorf("ratProb(%s) = %s", s, p.rat().RatString())
		}
	}
}
