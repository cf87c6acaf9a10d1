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

// TestFracRat: fracRat is SetFrac — normalised, equal, with a denominator
// that is the Rat's own — for dyadic fractions of every size (its
// shortcut) and others.
func TestFracRat(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		words := make([]big.Word, rng.IntN(48))
		for i := range words {
			words[i] = big.Word(rng.Uint64())
		}
		n := new(big.Int).SetBits(words)
		n.Lsh(n, uint(rng.IntN(200)))
		d := new(big.Int).Lsh(big.NewInt(1), uint(rng.IntN(3200)))
		if rng.IntN(4) == 0 {
			d.Mul(d, big.NewInt(int64(rng.IntN(1000)+1)))
		}
		n0, d0 := new(big.Int).Set(n), new(big.Int).Set(d)
		got := fracRat(n, d)
		want := new(big.Rat).SetFrac(n, d)
		if got.Cmp(want) != 0 || got.Num().Cmp(want.Num()) != 0 || got.Denom().Cmp(want.Denom()) != 0 {
			t.Fatalf("fracRat(%s, %s) = %s, want %s", n, d, got.RatString(), want.RatString())
		}
		if n.Cmp(n0) != 0 || d.Cmp(d0) != 0 {
			t.Fatal("fracRat changed its arguments")
		}
		// The Rat is a valid value: arithmetic on it agrees.
		if s, w := new(big.Rat).Add(got, ratOne), new(big.Rat).Add(want, ratOne); s.Cmp(w) != 0 || s.RatString() != w.RatString() {
			t.Fatalf("%s + 1 = %s, want %s", got.RatString(), s.RatString(), w.RatString())
		}
	}
	if r := fracRat(new(big.Int), new(big.Int).Lsh(big.NewInt(1), 100)); r.Sign() != 0 || r.Denom().Cmp(big.NewInt(1)) != 0 {
		t.Errorf("fracRat(0, 2^100) = %s", r.RatString())
	}
}

// TestRest: 1 − Σ ps exactly, dyadic (one partial sum) or not.
func TestRest(t *testing.T) {
	for _, ps := range [][]*big.Rat{
		nil,
		{big.NewRat(1, 2), big.NewRat(1, 4)},
		{new(big.Rat).SetFrac(big.NewInt(3), new(big.Int).Lsh(big.NewInt(1), 300)), new(big.Rat).SetFrac(big.NewInt(5), new(big.Int).Lsh(big.NewInt(1), 90)), new(big.Rat)},
		{big.NewRat(1, 3), big.NewRat(1, 5), new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), 100))},
		{big.NewRat(1, 2), big.NewRat(1, 2)},
	} {
		want := new(big.Rat).Set(ratOne)
		for _, p := range ps {
			want.Sub(want, p)
		}
		if got := rest(ps); got.Cmp(want) != 0 || got.RatString() != want.RatString() {
			t.Errorf("rest(%v) = %s, want %s", ps, got.RatString(), want.RatString())
		}
	}
}
