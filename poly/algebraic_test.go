package poly

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

func root(t *testing.T, p Poly, lo, hi *big.Rat) Algebraic {
	t.Helper()
	rs, err := Limits{}.Roots(ctx, p, Open(lo, hi))
	if err != nil || len(rs) != 1 {
		t.Fatalf("Roots(%s, (%s, %s)) = %v, %v", p, lo, hi, rs, err)
	}
	return rs[0]
}

func TestAlgebraicCompare(t *testing.T) {
	sqrt2 := root(t, FromInts(-2, 0, 1), q(0, 1), q(2, 1))
	if sqrt2.IsRational() || sqrt2.Rat() != nil {
		t.Fatalf("√2 rational: %s", sqrt2)
	}
	// α^4 − 4 = (α^2 − 2)(α^2 + 2): its positive root is √2.
	other := root(t, FromInts(-4, 0, 0, 0, 1), q(1, 1), q(3, 1))
	// (α^2 − 2)(α − 1/3)·(α^2 − 3), isolated on a different interval.
	third := root(t, FromInts(-2, 0, 1).Mul(lin(q(1, 3))).Mul(FromInts(-3, 0, 1)), q(7, 5), q(3, 2))
	sqrt3 := root(t, FromInts(-3, 0, 1), q(0, 1), q(2, 1))
	seven5, three2 := Rational(q(7, 5)), Rational(q(3, 2))
	for _, c := range []struct {
		a, b Algebraic
		want int
	}{
		{sqrt2, seven5, 1}, {seven5, sqrt2, -1}, {sqrt2, three2, -1},
		{sqrt2, other, 0}, {other, sqrt2, 0}, {sqrt2, third, 0}, {third, other, 0},
		{sqrt2, sqrt3, -1}, {sqrt3, other, 1}, {sqrt3, three2, 1},
		{seven5, three2, -1}, {three2, three2, 0}, {Algebraic{}, Rational(new(big.Rat)), 0},
	} {
		got, err := c.a.Cmp(ctx, c.b)
		if err != nil || got != c.want {
			t.Errorf("Cmp(%s, %s) = %d (%v), want %d", c.a, c.b, got, err, c.want)
		}
	}
	if sqrt2.CmpRat(q(141421, 100000)) != 1 || sqrt2.CmpRat(q(141422, 100000)) != -1 {
		t.Errorf("√2 against its decimals")
	}
	for _, c := range []struct {
		p    Poly
		want int
	}{
		{FromInts(-2, 0, 1), 0}, {FromInts(0, -2, 0, 1), 0}, {FromInts(-1, 1), 1},
		{New(q(-14142136, 10000000), q(1, 1)), -1}, // √2 − 1.4142136 < 0
		{New(q(-14142135, 10000000), q(1, 1)), 1},
		{FromInts(-3, 0, 1).Mul(FromInts(-3, 0, 1)), 1}, {FromInts(5), 1}, {Poly{}, 0},
	} {
		if got, err := sqrt2.SignOf(ctx, c.p); err != nil || got != c.want {
			t.Errorf("sign of %s at √2 = %d (%v), want %d", c.p, got, err, c.want)
		}
	}
	for _, c := range []struct {
		x      Algebraic
		digits int
		want   string
	}{
		{sqrt2, 10, "1.4142135624"}, {sqrt2, 0, "1"}, {sqrt3, 5, "1.73205"},
		{root(t, FromInts(-2, 0, 1), q(-2, 1), q(0, 1)), 3, "-1.414"},
		{root(t, FromInts(-1, 2, 1), q(0, 1), q(1, 1)), 5, "0.41421"}, // √2 − 1
		{Rational(q(1, 3)), 4, "0.3333"}, {Rational(q(2, 3)), 2, "0.67"},
		// correctly rounded where a float64 is not: √2 = 1.41421356237309504880…
		// (float64: 1.41421356237309514547…), a half away from zero
		{sqrt2, 20, "1.41421356237309504880"}, {Rational(q(1, 8)), 2, "0.13"}, {Rational(q(-1, 8)), 2, "-0.13"},
	} {
		if got, err := c.x.Decimal(ctx, c.digits); err != nil || got != c.want {
			t.Errorf("Decimal(%s, %d) = %q (%v), want %q", c.x, c.digits, got, err, c.want)
		}
	}
	if s := sqrt2.String(); s != "√2" {
		t.Errorf("String = %q", s)
	}
	if s := Rational(q(-1, 3)).Format("x"); s != "-1/3" {
		t.Errorf("Format = %q", s)
	}
	fine, err := sqrt2.Refine(ctx, q(1, 1000000))
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := fine.Bounds()
	w := new(big.Rat).Sub(hi, lo)
	if w.Cmp(q(1, 1000000)) > 0 || new(big.Rat).Mul(lo, lo).Cmp(q(2, 1)) >= 0 || new(big.Rat).Mul(hi, hi).Cmp(q(2, 1)) <= 0 {
		t.Errorf("refined √2 to (%s, %s)", lo.RatString(), hi.RatString())
	}
	if c, _ := fine.Cmp(ctx, sqrt2); c != 0 || !fine.Defining().Equal(FromInts(-2, 0, 1)) {
		t.Errorf("refinement changed the number")
	}
	if !Rational(q(-2, 3)).Defining().Equal(FromInts(2, 3)) {
		t.Errorf("Defining of −2/3 = %s", Rational(q(-2, 3)).Defining())
	}
}

// Rational roots whose denominator is not a power of two are recognized.
func TestRationalRootsRecognized(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for it := 0; it < 100; it++ {
		x := randRat(r, 40, 3)
		p := lin(x).Mul(FromInts(-2, 0, 1)).Mul(FromInts(int64(1+r.IntN(7)), int64(r.IntN(5)), 1)).Scale(randRat(r, 9, 9))
		if p.IsZero() {
			continue
		}
		lo := new(big.Rat).Sub(x, q(1, 1))
		rs, err := Limits{}.Roots(ctx, p, Open(lo, new(big.Rat).Add(x, q(1, 1000))))
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, y := range rs {
			if y.IsRational() && y.Rat().Cmp(x) == 0 {
				found = true
			}
			if y.IsRational() && p.Eval(y.Rat()).Sign() != 0 {
				t.Fatalf("spurious rational root %s of %s", y, p)
			}
		}
		if !found {
			t.Fatalf("the rational root %s of %s came back as %v", x.RatString(), p, rs)
		}
	}
}
