package poly

import (
	"hash/maphash"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// ref is the plain dense representation the tests compare Poly with:
// ref[i] is the coefficient of α^i, trailing zeros allowed.
type ref []*big.Rat

func (r ref) at(i int) *big.Rat {
	if i < len(r) {
		return r[i]
	}
	return new(big.Rat)
}

func refAdd(a, b ref, sign int64) ref {
	c := make(ref, max(len(a), len(b)))
	for i := range c {
		c[i] = new(big.Rat).Mul(b.at(i), big.NewRat(sign, 1))
		c[i].Add(c[i], a.at(i))
	}
	return c
}

func refMul(a, b ref) ref {
	c := make(ref, len(a)+len(b))
	for i := range c {
		c[i] = new(big.Rat)
	}
	for i, x := range a {
		for j, y := range b {
			c[i+j].Add(c[i+j], new(big.Rat).Mul(x, y))
		}
	}
	return c
}

func refEval(a ref, r *big.Rat) *big.Rat {
	acc := new(big.Rat)
	for i := len(a) - 1; i >= 0; i-- {
		acc.Mul(acc, r)
		acc.Add(acc, a[i])
	}
	return acc
}

// randRef draws a polynomial shaped like a mechanism's: often a power of α
// times a few terms, sometimes dense, sometimes zero.
func randRef(rng *rand.Rand) ref {
	if rng.IntN(12) == 0 {
		return nil
	}
	lo := 0
	if rng.IntN(2) == 0 {
		lo = rng.IntN(12)
	}
	n := 1 + rng.IntN(5)
	c := make(ref, lo+n)
	for i := range c {
		c[i] = new(big.Rat)
		if i >= lo && rng.IntN(3) > 0 {
			c[i].SetFrac64(rng.Int64N(19)-9, 1+rng.Int64N(6))
		}
	}
	return c
}

func fromRef(r ref) Poly { return New(r...) }

// equalRef reports whether p has r's coefficients at every degree, and a
// canonical form (degree, lowest degree) that agrees.
func equalRef(p Poly, r ref) bool {
	deg, low := -1, -1
	for i, x := range r {
		if x.Sign() != 0 {
			deg = i
			if low < 0 {
				low = i
			}
		}
	}
	if p.Degree() != deg || p.LowDegree() != low {
		return false
	}
	for i := range max(len(r), deg+1) + 2 {
		if p.Coeff(i).Cmp(r.at(i)) != 0 {
			return false
		}
	}
	return true
}

// TestRepresentationAgainstDense checks every operation of Poly on random
// polynomials against the plain dense reference, and that no operation
// changes its operands or earlier results (coefficients are shared between
// polynomials).
func TestRepresentationAgainstDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 25))
	var seed maphash.Seed = maphash.MakeSeed()
	hash := func(p Poly) uint64 {
		var h maphash.Hash
		h.SetSeed(seed)
		p.Hash(&h)
		return h.Sum64()
	}
	type kept struct {
		p Poly
		s string
	}
	var all []kept
	keep := func(ps ...Poly) {
		for _, p := range ps {
			all = append(all, kept{p, p.Format("a") + "|" + big.NewInt(int64(p.LowDegree())).String()})
		}
	}
	for it := range 3000 {
		ra, rb := randRef(rng), randRef(rng)
		a, b := fromRef(ra), fromRef(rb)
		keep(a, b)
		if !equalRef(a, ra) || !equalRef(b, rb) {
			t.Fatalf("%d: New(%v) = %s", it, ra, a)
		}
		sum, diff, prod := a.Add(b), a.Sub(b), a.Mul(b)
		keep(sum, diff, prod)
		if !equalRef(sum, refAdd(ra, rb, 1)) {
			t.Fatalf("(%s) + (%s) = %s", a, b, sum)
		}
		if !equalRef(diff, refAdd(ra, rb, -1)) {
			t.Fatalf("(%s) − (%s) = %s", a, b, diff)
		}
		if !equalRef(prod, refMul(ra, rb)) {
			t.Fatalf("(%s)·(%s) = %s", a, b, prod)
		}
		rc := randRef(rng)
		c := fromRef(rc)
		all3 := Sum(a, b, c, a)
		keep(c, all3)
		if want := refAdd(refAdd(refAdd(ra, rb, 1), rc, 1), ra, 1); !equalRef(all3, want) {
			t.Fatalf("Sum(%s, %s, %s, %s) = %s", a, b, c, a, all3)
		}
		if !equalRef(a.Neg(), refAdd(nil, ra, -1)) {
			t.Fatalf("−(%s) = %s", a, a.Neg())
		}
		k := big.NewRat(rng.Int64N(7)-3, 1+rng.Int64N(3))
		if !equalRef(a.Scale(k), refMul(ra, ref{k})) {
			t.Fatalf("%s·(%s) = %s", k, a, a.Scale(k))
		}
		x := big.NewRat(rng.Int64N(41)-20, 1+rng.Int64N(9))
		if got, want := a.Eval(x), refEval(ra, x); got.Cmp(want) != 0 {
			t.Fatalf("(%s)(%s) = %s, want %s", a, x, got, want)
		}
		if !b.IsZero() {
			quo, rem, err := a.DivMod(b)
			if err != nil {
				t.Fatal(err)
			}
			keep(quo, rem)
			if rem.Degree() >= b.Degree() || !quo.Mul(b).Add(rem).Equal(a) {
				t.Fatalf("(%s) divmod (%s) = %s, %s", a, b, quo, rem)
			}
		}
		// The derivative against the dense rule, and composition with b.
		dr := make(ref, max(len(ra)-1, 0))
		for i := range dr {
			dr[i] = new(big.Rat).Mul(ra[i+1], big.NewRat(int64(i+1), 1))
		}
		if !equalRef(a.Deriv(), dr) {
			t.Fatalf("(%s)′ = %s", a, a.Deriv())
		}
		if got, want := a.Compose(b).Eval(x), refEval(ra, refEval(rb, x)); got.Cmp(want) != 0 {
			t.Fatalf("(%s)∘(%s) at %s = %s, want %s", a, b, x, got, want)
		}
		// Canonical forms: equal values are Equal and hash alike, however built.
		if again := b.Add(a); !again.Equal(sum) || hash(again) != hash(sum) {
			t.Fatalf("%s and %s: Equal %v", again, sum, again.Equal(sum))
		}
		if !a.IsZero() {
			lo := a.LowDegree()
			if got := a.DivX(lo).Mul(New(append(make([]*big.Rat, lo), q(1, 1))...)); !got.Equal(a) {
				t.Fatalf("DivX(%d) of %s times α^%d = %s", lo, a, lo, got)
			}
			if m := a.Monic(); m.Lead().Cmp(q(1, 1)) != 0 || !m.Scale(a.Lead()).Equal(a) {
				t.Fatalf("Monic(%s) = %s", a, m)
			}
			if pr := a.Primitive(); !pr.Scale(a.Content()).Equal(a) {
				t.Fatalf("Primitive(%s) = %s, content %s", a, pr, a.Content())
			}
			g, err := Limits{}.GCD(ctx, a, prod)
			if err != nil {
				t.Fatal(err)
			}
			if !g.Equal(a.Monic()) { // a divides a·b
				t.Fatalf("gcd(%s, %s) = %s", a, prod, g)
			}
		}
	}
	for _, k := range all {
		if s := k.p.Format("a") + "|" + big.NewInt(int64(k.p.LowDegree())).String(); s != k.s {
			t.Fatalf("a polynomial changed after it was built: %s became %s", k.s, s)
		}
	}
}

// TestEvalExact checks Eval where the homogenized scheme meets its edge
// cases: zero, negative and integer points, rational coefficients with
// different denominators, and a high power of α.
func TestEvalExact(t *testing.T) {
	p := New(nil, nil, nil, q(2, 3), nil, q(-5, 4)) // 2/3·α^3 − 5/4·α^5
	for _, c := range []struct{ x, want *big.Rat }{
		{q(0, 1), q(0, 1)},
		{q(1, 1), q(-7, 12)},
		{q(-2, 1), q(104, 3)},
		{q(1, 2), q(17, 384)},
	} {
		if got := p.Eval(c.x); got.Cmp(c.want) != 0 {
			t.Errorf("p(%s) = %s, want %s", c.x, got, c.want)
		}
	}
	hi := New(append(make([]*big.Rat, 300), q(1, 1))...) // α^300
	if diff := cmp.Diff(new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), 300)), hi.Eval(q(1, 2)), cmp.Comparer(func(x, y *big.Rat) bool { return x.Cmp(y) == 0 })); diff != "" {
		t.Errorf("(1/2)^300: %s", diff)
	}
}

// TestRatFuncCanonicalRandom checks the canonical form of random quotients
// built to meet its shortcuts — a common power of α, a monomial side, sides
// that are multiples of each other — and the general GCD: the denominator is
// monic, numerator and denominator are coprime, and the quotient is the
// value asked for.
func TestRatFuncCanonicalRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 11))
	mono := func(k int, c *big.Rat) Poly { return New(append(make([]*big.Rat, k), c)...) }
	for range 2000 {
		a, b, x := fromRef(randRef(rng)), fromRef(randRef(rng)), fromRef(randRef(rng))
		if b.IsZero() || x.IsZero() {
			continue
		}
		switch rng.IntN(4) {
		case 0: // a monomial denominator
			b = mono(rng.IntN(5), big.NewRat(1+rng.Int64N(5), 1+rng.Int64N(3)))
		case 1: // multiples of each other
			a = b.Scale(big.NewRat(rng.Int64N(9)-4, 1+rng.Int64N(4)))
		}
		num := a.Mul(x).Mul(mono(rng.IntN(6), q(1, 1)))
		den := b.Mul(x).Mul(mono(rng.IntN(6), q(1, 1)))
		f, err := Limits{}.RatFunc(ctx, num, den)
		if err != nil {
			t.Fatal(err)
		}
		if !f.Num().Mul(den).Equal(f.Den().Mul(num)) {
			t.Fatalf("(%s)/(%s) = %s", num, den, f)
		}
		if f.Den().Lead().Cmp(q(1, 1)) != 0 {
			t.Fatalf("(%s)/(%s) = %s: the denominator is not monic", num, den, f)
		}
		if g, err := (Limits{}).GCD(ctx, f.Num(), f.Den()); err != nil || g.Degree() > 0 && !f.Num().IsZero() {
			t.Fatalf("(%s)/(%s) = %s: common factor %s (%v)", num, den, f, g, err)
		}
		if g, err := (Limits{}).RatFunc(ctx, f.Num(), f.Den()); err != nil || !g.Equal(f) {
			t.Fatalf("%s is not canonical: %s", f, g)
		}
	}
}
