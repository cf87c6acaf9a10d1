package poly

import (
	"errors"
	"math/big"
	"math/rand/v2"
	"testing"
)

func where(t *testing.T, p Poly, rel Rel, in Interval) Region {
	t.Helper()
	r, err := Limits{}.Where(ctx, p, rel, in)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestWhereHand(t *testing.T) {
	unit := Closed(q(0, 1), q(1, 1))
	quarter := New(q(-1, 4), nil, q(1, 1)) // α^2 − 1/4
	for _, c := range []struct {
		p    Poly
		rel  Rel
		in   Interval
		want string
	}{
		{quarter, GE, unit, "[1/2, 1]"},
		{quarter, GT, unit, "(1/2, 1]"},
		{quarter, EQ, unit, "{1/2}"},
		{quarter, LT, unit, "[0, 1/2)"},
		{quarter, LE, Open(q(0, 1), q(1, 1)), "(0, 1/2]"},
		{quarter, NE, unit, "[0, 1/2) ∪ (1/2, 1]"},
		{FromInts(-1, 2, 1), GE, unit, "[−1 + √2, 1]"},
		{FromInts(0, 0, 1), GT, unit, "(0, 1]"},
		{FromInts(0, 0, 1), LE, unit, "{0}"},
		{FromInts(1, 0, 1), LT, unit, "∅"},
		{Poly{}, GE, unit, "[0, 1]"},
		{Poly{}, NE, unit, "∅"},
		// (α − 1/3)^2 (α − 2/3): ≥ 0 at 1/3 and on [2/3, 1].
		{fromRoots([]*big.Rat{q(1, 3), q(2, 3)}, []int{2, 1}), GE, unit, "{1/3} ∪ [2/3, 1]"},
		{fromRoots([]*big.Rat{q(1, 3), q(2, 3)}, []int{2, 1}), LT, unit, "[0, 1/3) ∪ (1/3, 2/3)"},
		{FromInts(-1, 2), GE, Closed(q(1, 3), q(1, 3)), "∅"},
		{FromInts(-1, 3), EQ, Closed(q(1, 3), q(1, 3)), "{1/3}"},
	} {
		r := where(t, c.p, c.rel, c.in)
		if got := r.String(); got != c.want {
			t.Errorf("{α ∈ %s : %s %s 0} = %s, want %s", c.in, c.p, c.rel, got, c.want)
		}
	}
	r := where(t, FromInts(-1, 2, 1), GE, unit)
	if got := r.Format("x"); got != "[−1 + √2, 1]" {
		t.Errorf("Format(x) = %q", got)
	}
	if d, err := r.Decimal(ctx, 5); err != nil || d != "[0.41421, 1.00000]" {
		t.Errorf("Decimal = %q, %v", d, err)
	}
	w, ok, err := Limits{}.Witness(ctx, r)
	if err != nil || !ok || w.String() != "0" {
		t.Errorf("witness %s %v %v", w, ok, err)
	}
	// On (0, 1] the complement (0, √2 − 1) has 1/3 as its simplest point.
	r = where(t, FromInts(-1, 2, 1), GE, Interval{Lo: q(0, 1), Hi: q(1, 1), LoOpen: true})
	if w, ok, _ := (Limits{}).Witness(ctx, r); !ok || w.String() != "1/3" {
		t.Errorf("witness %s, want 1/3", w)
	}
	// Complement {√2} only: an irrational witness.
	sq := FromInts(-2, 0, 1)
	r = where(t, sq.Mul(sq), GT, Closed(q(1, 1), q(2, 1)))
	if r.String() != "[1, √2) ∪ (√2, 2]" {
		t.Errorf("region %s", r)
	}
	if w, ok, _ := (Limits{}).Witness(ctx, r); !ok || w.IsRational() || w.CmpRat(q(7, 5)) != 1 || w.CmpRat(q(3, 2)) != -1 {
		t.Errorf("witness %s, want √2", w)
	}
	if _, ok, _ := (Limits{}).Witness(ctx, where(t, FromInts(1), GT, unit)); ok {
		t.Errorf("witness of the whole domain")
	}
	in, _ := r.Contains(ctx, Rational(q(7, 5)))
	out, _ := r.Contains(ctx, root(t, sq, q(1, 1), q(2, 1)))
	if !in || out {
		t.Errorf("Contains: 7/5 %v, √2 %v", in, out)
	}
}

func TestWhereRatFunc(t *testing.T) {
	l := Limits{}
	unit := Closed(q(0, 1), q(1, 1))
	f, _ := l.RatFunc(ctx, lin(q(1, 2)), lin(q(3, 4)))
	for _, c := range []struct {
		rel  Rel
		want string
	}{
		{GE, "[0, 1/2] ∪ (3/4, 1]"},
		{LT, "(1/2, 3/4)"},
		{NE, "[0, 1/2) ∪ (1/2, 3/4) ∪ (3/4, 1]"},
		{EQ, "{1/2}"},
	} {
		r, err := l.WhereRat(ctx, f, c.rel, unit)
		if err != nil || r.String() != c.want {
			t.Errorf("{%s %s 0} = %s (%v), want %s", f, c.rel, r, err, c.want)
		}
	}
	// 1/(α − 1/2) > 0: the pole 1/2 is outside every region.
	g, _ := l.RatFunc(ctx, FromInts(1), lin(q(1, 2)))
	r, _ := l.WhereRat(ctx, g, GT, unit)
	if r.String() != "(1/2, 1]" {
		t.Errorf("region %s", r)
	}
	r, _ = l.WhereRat(ctx, g, LE, unit)
	if r.String() != "[0, 1/2)" {
		t.Errorf("region %s", r)
	}
	// (1 − α)/(1 + α) ≥ 1/3 ⇔ α ≤ 1/2 on [0, 1].
	h, _ := l.RatFunc(ctx, FromInts(1, -1), FromInts(1, 1))
	d, _ := l.RatSub(ctx, h, FromPoly(Const(q(1, 3))))
	r, _ = l.WhereRat(ctx, d, GE, unit)
	if r.String() != "[0, 1/2]" {
		t.Errorf("region %s", r)
	}
	if w, ok, _ := l.Witness(ctx, r); !ok || w.String() != "1" {
		t.Errorf("witness %s", w)
	}
}

func TestRegionAlgebra(t *testing.T) {
	l := Limits{}
	unit := Closed(q(0, 1), q(1, 1))
	a := where(t, FromInts(-1, 3), GE, unit) // [1/3, 1]
	b := where(t, FromInts(1, -2), GE, unit) // [0, 1/2]
	s2 := where(t, FromInts(-1, 2, 1), LT, unit)
	for _, c := range []struct {
		op   func() (Region, error)
		want string
	}{
		{func() (Region, error) { return l.Intersect(ctx, a, b) }, "[1/3, 1/2]"},
		{func() (Region, error) { return l.Union(ctx, a, b) }, "[0, 1]"},
		{func() (Region, error) { return l.Complement(ctx, a) }, "[0, 1/3)"},
		{func() (Region, error) { return l.Intersect(ctx, a, s2) }, "[1/3, −1 + √2)"},
		{func() (Region, error) {
			c, _ := l.Complement(ctx, a)
			return l.Union(ctx, c, a)
		}, "[0, 1]"},
		{func() (Region, error) {
			c, _ := l.Complement(ctx, s2)
			return l.Intersect(ctx, c, s2)
		}, "∅"},
		{func() (Region, error) {
			x := where(t, FromInts(-1, 2, 1), EQ, unit)
			return l.Union(ctx, x, s2)
		}, "[0, −1 + √2]"},
	} {
		r, err := c.op()
		if err != nil || r.String() != c.want {
			t.Errorf("got %s (%v), want %s", r, err, c.want)
		}
	}
	if _, err := l.Union(ctx, a, where(t, FromInts(1), GT, Open(q(0, 1), q(1, 1)))); !errors.Is(err, ErrDomain) {
		t.Errorf("union across domains")
	}
}

// bruteSimplest scans denominators 1, 2, … and numerators by absolute value.
func bruteSimplest(in Interval) *big.Rat {
	for d := int64(1); ; d++ {
		for n := int64(0); n <= 100*d; n++ {
			for _, s := range []int64{1, -1} {
				x := q(s*n, d)
				if in.Contains(x) {
					return x
				}
			}
		}
	}
}

func TestSimplest(t *testing.T) {
	for _, c := range []struct {
		in   Interval
		want string
	}{
		{Open(q(1, 4), q(1, 2)), "1/3"},
		{Open(q(0, 1), q(1, 1)), "1/2"},
		{Closed(q(3, 7), q(3, 7)), "3/7"},
		{Open(q(-3, 2), q(-1, 1)), "-4/3"},
		{Open(q(-1, 1), q(1, 1)), "0"},
		{Open(q(31415, 10000), q(31416, 10000)), "333/106"},
		{Interval{Lo: q(1, 2), Hi: q(1, 1), HiOpen: true}, "1/2"},
		{Open(q(314159, 100000), q(31416, 10000)), "355/113"},
		{Interval{Lo: q(1, 2), Hi: q(1, 1), LoOpen: true}, "1"},
	} {
		if got := Simplest(c.in).RatString(); got != c.want {
			t.Errorf("Simplest%s = %s, want %s", c.in, got, c.want)
		}
	}
	r := rand.New(rand.NewPCG(7, 8))
	for it := 0; it < 2000; it++ {
		a, b := randRat(r, 12, 3), randRat(r, 12, 3)
		if a.Cmp(b) > 0 {
			a, b = b, a
		}
		in := Interval{Lo: a, Hi: b, LoOpen: r.IntN(2) == 0, HiOpen: r.IntN(2) == 0}
		if in.Validate() != nil {
			continue
		}
		if got, want := Simplest(in), bruteSimplest(in); got.Cmp(want) != 0 {
			t.Fatalf("Simplest%s = %s, brute force %s", in, got.RatString(), want.RatString())
		}
	}
}

// Random polynomials with known roots: {p ≥ 0} and {p < 0} partition the
// domain, and a witness outside {p ≥ 0} has p < 0 there.
func TestRegionRandom(t *testing.T) {
	l := Limits{}
	r := rand.New(rand.NewPCG(9, 10))
	witnesses := 0
	for it := 0; it < 150; it++ {
		var roots []*big.Rat
		var mult []int
		for range r.IntN(5) {
			roots, mult = append(roots, randRat(r, 6, 1)), append(mult, 1+r.IntN(2))
		}
		p := fromRoots(roots, mult).Scale(randRat(r, 4, 2))
		if p.IsZero() {
			continue
		}
		if r.IntN(2) == 0 {
			p = p.Mul(FromInts(-1, 2, 1)) // root √2 − 1 ∈ (0, 1)
		}
		a, b := randRat(r, 6, 1), randRat(r, 6, 1)
		if a.Cmp(b) >= 0 {
			continue
		}
		in := Interval{Lo: a, Hi: b, LoOpen: r.IntN(2) == 0, HiOpen: r.IntN(2) == 0}
		ge, lt := where(t, p, GE, in), where(t, p, LT, in)
		u, err := l.Union(ctx, ge, lt)
		if err != nil || u.String() != Whole(in).String() {
			t.Fatalf("%s on %s: %s ∪ %s = %s (%v)", p, in, ge, lt, u, err)
		}
		x, err := l.Intersect(ctx, ge, lt)
		if err != nil || !x.IsEmpty() {
			t.Fatalf("%s on %s: %s ∩ %s = %s (%v)", p, in, ge, lt, x, err)
		}
		w, ok, err := l.Witness(ctx, ge)
		if err != nil {
			t.Fatal(err)
		}
		kind, _, _ := l.SignOn(ctx, p, in)
		if !ok {
			if kind != Positive && kind != NonNegative {
				t.Fatalf("%s on %s: no witness outside %s but sign %s", p, in, ge, kind)
			}
			continue
		}
		witnesses++
		if !w.IsRational() || !in.Contains(w.Rat()) || p.Eval(w.Rat()).Sign() >= 0 {
			t.Fatalf("%s on %s: witness %s outside %s", p, in, w, ge)
		}
		if c, _ := lt.Contains(ctx, w); !c {
			t.Fatalf("%s: witness %s not in %s", p, w, lt)
		}
		// The witness is the simplest rational of {p < 0}: no rational with a
		// smaller denominator lies there.
		for d := int64(1); d < w.Rat().Denom().Int64(); d++ {
			for n := a.Num().Int64()*d/a.Denom().Int64() - 1; n <= b.Num().Int64()*d/b.Denom().Int64()+1; n++ {
				y := q(n, d)
				if in.Contains(y) && p.Eval(y).Sign() < 0 {
					t.Fatalf("%s on %s: witness %s but %s is simpler", p, in, w, y.RatString())
				}
			}
		}
	}
	if witnesses < 30 {
		t.Fatalf("only %d witnesses checked", witnesses)
	}
}
