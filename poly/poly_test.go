package poly

import (
	"context"
	"errors"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
)

var ctx = context.Background()

func q(a, b int64) *big.Rat { return big.NewRat(a, b) }

// lin returns α − r.
func lin(r *big.Rat) Poly { return New(new(big.Rat).Neg(r), q(1, 1)) }

// fromRoots returns Π (α − r)^mult.
func fromRoots(roots []*big.Rat, mult []int) Poly {
	p := FromInts(1)
	for i, r := range roots {
		for range mult[i] {
			p = p.Mul(lin(r))
		}
	}
	return p
}

func TestFormat(t *testing.T) {
	for _, c := range []struct {
		p    Poly
		want string
	}{
		{New(q(1, 1), q(-1, 1), q(3, 4)), "3/4·α^2 − α + 1"},
		{FromInts(-2, 0, 1), "α^2 − 2"},
		{FromInts(0, -1), "−α"},
		{FromInts(0, 0, 0, -5), "−5·α^3"},
		{Poly{}, "0"},
		{FromInts(-7), "−7"},
		{New(q(1, 2), q(1, 1)), "α + 1/2"},
	} {
		if got := c.p.String(); got != c.want {
			t.Errorf("String = %q, want %q", got, c.want)
		}
	}
	if got := FromInts(1, 1).Format("x"); got != "x + 1" {
		t.Errorf("Format(x) = %q", got)
	}
}

func TestArithmetic(t *testing.T) {
	p := New(q(1, 2), q(-3, 1), q(0, 1), q(2, 3)) // 2/3 α^3 − 3α + 1/2
	d := New(q(-1, 1), q(0, 1), q(5, 7))          // 5/7 α^2 − 1
	if got := p.Add(d).Sub(d); !got.Equal(p) {
		t.Errorf("p + d − d = %s", got)
	}
	if got := p.Add(p.Neg()); !got.IsZero() || got.Degree() != -1 {
		t.Errorf("p − p = %s, degree %d", got, got.Degree())
	}
	qq, r, err := p.DivMod(d)
	if err != nil {
		t.Fatal(err)
	}
	if !qq.Mul(d).Add(r).Equal(p) || r.Degree() >= d.Degree() {
		t.Errorf("DivMod: q = %s, r = %s", qq, r)
	}
	// 2/3 α^3 − 3α + 1/2 = (14/15 α)(5/7 α^2 − 1) + (14/15 − 3) α + 1/2
	if want := New(nil, q(14, 15)); !qq.Equal(want) {
		t.Errorf("quotient %s, want %s", qq, want)
	}
	if want := New(q(1, 2), q(-31, 15)); !r.Equal(want) {
		t.Errorf("remainder %s, want %s", r, want)
	}
	if _, _, err := p.DivMod(Poly{}); !errors.Is(err, ErrDivisionByZero) {
		t.Errorf("DivMod by 0: %v", err)
	}
	if got, want := p.Eval(q(3, 2)), q(2*27, 3*8); got.Cmp(new(big.Rat).Add(want, q(-9+1, 2))) != 0 {
		t.Errorf("p(3/2) = %s", got.RatString())
	}
	if got := p.Deriv(); !got.Equal(New(q(-3, 1), nil, q(2, 1))) {
		t.Errorf("p′ = %s", got)
	}
	// (α+1)∘(α^2) = α^2 + 1; (α^2)∘(α+1) = α^2 + 2α + 1
	if got := FromInts(1, 1).Compose(FromInts(0, 0, 1)); !got.Equal(FromInts(1, 0, 1)) {
		t.Errorf("compose %s", got)
	}
	if got := FromInts(0, 0, 1).Compose(FromInts(1, 1)); !got.Equal(FromInts(1, 2, 1)) {
		t.Errorf("compose %s", got)
	}
	c := New(q(3, 4), q(-9, 8), q(15, 2)).Content()
	if c.Cmp(q(3, 8)) != 0 {
		t.Errorf("content %s, want 3/8", c.RatString())
	}
	if got := New(q(3, 4), q(-9, 8), q(15, 2)).Primitive(); !got.Equal(FromInts(2, -3, 20)) {
		t.Errorf("primitive %s", got)
	}
	if got := New(q(-3, 4), q(-9, 8)).Primitive(); !got.Equal(FromInts(-2, -3)) {
		t.Errorf("primitive keeps the sign: %s", got)
	}
	if got := New(q(2, 1), q(4, 1)).Monic(); !got.Equal(New(q(1, 2), q(1, 1))) {
		t.Errorf("monic %s", got)
	}
	// The inputs are untouched (immutability).
	if p.String() != "2/3·α^3 − 3·α + 1/2" {
		t.Errorf("p changed: %s", p)
	}
}

func TestGCDKnown(t *testing.T) {
	s2 := FromInts(-2, 0, 1)
	a := fromRoots([]*big.Rat{q(1, 1), q(1, 3)}, []int{1, 2}).Mul(s2)
	b := fromRoots([]*big.Rat{q(1, 3), q(-5, 1)}, []int{1, 1}).Mul(s2).Scale(q(7, 2))
	g, err := Limits{}.GCD(ctx, a, b)
	if err != nil {
		t.Fatal(err)
	}
	want := lin(q(1, 3)).Mul(s2) // α^3 − 1/3 α^2 − 2α + 2/3
	if !g.Equal(want) {
		t.Errorf("gcd = %s, want %s", g, want)
	}
	if g.String() != "α^3 − 1/3·α^2 − 2·α + 2/3" {
		t.Errorf("gcd prints %s", g)
	}
	if g, _ := (Limits{}).GCD(ctx, a, Poly{}); !g.Equal(a.Monic()) {
		t.Errorf("gcd(a, 0) = %s", g)
	}
	if g, _ := (Limits{}).GCD(ctx, Poly{}, Poly{}); !g.IsZero() {
		t.Errorf("gcd(0, 0) = %s", g)
	}
	if g, _ := (Limits{}).GCD(ctx, FromInts(1, 1), FromInts(-1, 1)); !g.Equal(FromInts(1)) {
		t.Errorf("gcd(α+1, α−1) = %s", g)
	}
	sf, err := Limits{}.SquareFree(ctx, a.Mul(a).Mul(s2))
	if err != nil {
		t.Fatal(err)
	}
	// distinct roots 1, 1/3, ±√2: (α − 1)(3α − 1)(α^2 − 2)
	if want := FromInts(-1, 1).Mul(FromInts(-1, 3)).Mul(s2); !sf.Equal(want) {
		t.Errorf("square-free part %s, want %s", sf, want)
	}
}

func randRat(r *rand.Rand, maxDen int64, span int64) *big.Rat {
	d := 1 + r.Int64N(maxDen)
	return q(r.Int64N(2*span*d+1)-span*d, d)
}

func TestGCDRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for it := 0; it < 60; it++ {
		// Disjoint root sets: A's roots have odd numerators over 7, B's even
		// numerators over 5, C's anything over 3 plus an irreducible quadratic.
		var ra, rb, rc []*big.Rat
		var ma, mb, mc []int
		for range 1 + r.IntN(4) {
			ra, ma = append(ra, q(2*r.Int64N(10)+1, 7)), append(ma, 1+r.IntN(2))
			rb, mb = append(rb, q(2*r.Int64N(10), 5)), append(mb, 1+r.IntN(2))
			rc, mc = append(rc, q(r.Int64N(21)-10, 3)), append(mc, 1+r.IntN(2))
		}
		c := fromRoots(rc, mc).Mul(FromInts(int64(1+r.IntN(5)), 0, 1))
		a := fromRoots(ra, ma).Mul(c).Scale(randRat(r, 9, 5))
		b := fromRoots(rb, mb).Mul(c).Scale(randRat(r, 9, 5))
		if a.IsZero() || b.IsZero() {
			continue
		}
		g, err := Limits{}.GCD(ctx, a, b)
		if err != nil {
			t.Fatal(err)
		}
		if !g.Equal(c.Monic()) {
			t.Fatalf("gcd(%s, %s) = %s, want %s", a, b, g, c.Monic())
		}
	}
}

func TestRatFunc(t *testing.T) {
	l := Limits{}
	// (α^2 − 1)/(2α − 2) = (α + 1)/2, canonical: num 1/2 α + 1/2, den 1.
	f, err := l.RatFunc(ctx, FromInts(-1, 0, 1), FromInts(-2, 2))
	if err != nil {
		t.Fatal(err)
	}
	if !f.Num().Equal(New(q(1, 2), q(1, 2))) || !f.Den().Equal(FromInts(1)) || f.String() != "1/2·α + 1/2" {
		t.Errorf("canonical form %s / %s", f.Num(), f.Den())
	}
	// (2α)/(3α^2 + 3) → (2/3 α)/(α^2 + 1)
	g, _ := l.RatFunc(ctx, FromInts(0, 2), FromInts(3, 0, 3))
	if g.String() != "(2/3·α)/(α^2 + 1)" {
		t.Errorf("g = %s", g)
	}
	h, _ := l.RatFunc(ctx, FromInts(1, -1), FromInts(1, 1)) // (1−α)/(1+α)
	if h.String() != "(1 − α)/(α + 1)" {
		t.Errorf("h = %s", h)
	}
	// (α + 1)/(1 − α): both signs changed, fewer minus signs in front than
	// (−1 − α)/(α − 1); (9/10 − 1/10·α)/α keeps its signs.
	if k, _ := l.RatFunc(ctx, FromInts(1, 1), FromInts(1, -1)); k.String() != "(α + 1)/(1 − α)" {
		t.Errorf("k = %s", k)
	}
	if m, _ := l.RatFunc(ctx, New(big.NewRat(9, 10), big.NewRat(-1, 10)), FromInts(0, 1)); m.String() != "(9/10 − 1/10·α)/α" {
		t.Errorf("m = %s", m)
	}
	for _, x := range []RatFunc{f, g, h} {
		for _, y := range []RatFunc{f, g, h} {
			s, _ := l.RatAdd(ctx, x, y)
			back, _ := l.RatSub(ctx, s, y)
			if !back.Equal(x) {
				t.Errorf("(%s + %s) − %s = %s", x, y, y, back)
			}
			m, _ := l.RatMul(ctx, x, y)
			back, err := l.RatDiv(ctx, m, y)
			if err != nil || !back.Equal(x) {
				t.Errorf("(%s · %s) / %s = %s (%v)", x, y, y, back, err)
			}
		}
		one, _ := l.RatDiv(ctx, x, x)
		if !one.Equal(FromPoly(FromInts(1))) || !one.IsConst() {
			t.Errorf("%s / itself = %s", x, one)
		}
	}
	// h·h + 2h/(…) identity: h(α) + h(−α)·… keep simple: 1 − h = 2α/(1+α)
	d, _ := l.RatSub(ctx, FromPoly(FromInts(1)), h)
	want, _ := l.RatFunc(ctx, FromInts(0, 2), FromInts(1, 1))
	if !d.Equal(want) || d.String() != "2·α/(α + 1)" {
		t.Errorf("1 − h = %s", d)
	}
	if v, err := h.Eval(q(1, 3)); err != nil || v.Cmp(q(1, 2)) != 0 {
		t.Errorf("h(1/3) = %v, %v", v, err)
	}
	if _, err := h.Eval(q(-1, 1)); !errors.Is(err, ErrDivisionByZero) || !strings.Contains(err.Error(), "α + 1 vanishes at α = −1") && !strings.Contains(err.Error(), "α + 1 vanishes at α = -1") {
		t.Errorf("h(−1): %v", err)
	}
	if _, err := l.RatDiv(ctx, h, FromPoly(Poly{})); !errors.Is(err, ErrDivisionByZero) {
		t.Errorf("h / 0: %v", err)
	}
	z, _ := l.RatSub(ctx, h, h)
	if !z.Equal(FromPoly(Poly{})) || !z.IsConst() || h.IsConst() {
		t.Errorf("h − h = %s", z)
	}
}
