package poly

import (
	"context"
	"errors"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
)

// sqrt2In reports whether √2 lies in the interval (its ends are rational,
// never √2).
func sqrt2In(in Interval) bool {
	two := q(2, 1)
	sq := func(r *big.Rat) *big.Rat { return new(big.Rat).Mul(r, r) }
	above := in.Lo.Sign() < 0 || sq(in.Lo).Cmp(two) < 0
	below := in.Hi.Sign() > 0 && sq(in.Hi).Cmp(two) > 0
	return above && below
}

// gridCount counts the distinct roots of p in the interval by brute force on
// the grid of step 1/120 (which holds every rational with denominator ≤ 6):
// zeros at grid points plus sign changes between consecutive nonzero grid
// points. It is exact when the roots off the grid are simple and more than
// 1/120 apart, as in TestSturmRandom.
func gridCount(p Poly, in Interval) int {
	n := 0
	step := q(1, 120)
	lastSign := 0
	for x := new(big.Rat).Set(in.Lo); x.Cmp(in.Hi) <= 0; x = new(big.Rat).Add(x, step) {
		s := p.Eval(x).Sign()
		if s == 0 && in.Contains(x) {
			n++
		}
		if s == 0 {
			lastSign = 0
		} else {
			if lastSign != 0 && s != lastSign {
				n++
			}
			lastSign = s
		}
	}
	return n
}

func TestSturmRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	l := Limits{}
	checked, irrs := 0, 0
	for it := 0; it < 300; it++ {
		var roots []*big.Rat
		var mult []int
		seen := map[string]bool{}
		for range r.IntN(6) {
			x := randRat(r, 6, 2)
			if seen[x.RatString()] {
				continue
			}
			seen[x.RatString()] = true
			roots, mult = append(roots, x), append(mult, 1+r.IntN(3))
		}
		p := fromRoots(roots, mult).Scale(randRat(r, 5, 3))
		if p.IsZero() {
			continue
		}
		withSqrt2 := r.IntN(3) == 0
		if withSqrt2 {
			p = p.Mul(FromInts(-2, 0, 1))
		} else if r.IntN(2) == 0 {
			p = p.Mul(FromInts(1, 0, 1)) // no real roots
		}
		// Ends: often a root, sometimes √2's neighbours.
		end := func() *big.Rat {
			if len(roots) > 0 && r.IntN(2) == 0 {
				return roots[r.IntN(len(roots))]
			}
			return randRat(r, 6, 2)
		}
		a, b := end(), end()
		if a.Cmp(b) > 0 {
			a, b = b, a
		}
		in := Interval{Lo: a, Hi: b, LoOpen: r.IntN(2) == 0, HiOpen: r.IntN(2) == 0}
		if a.Cmp(b) == 0 {
			in.LoOpen, in.HiOpen = false, false
		}
		want := 0
		var wantRat []*big.Rat
		for _, x := range roots {
			if in.Contains(x) {
				want++
				wantRat = append(wantRat, x)
			}
		}
		wantIrr := 0
		if withSqrt2 {
			neg := Interval{Lo: new(big.Rat).Neg(in.Hi), Hi: new(big.Rat).Neg(in.Lo), LoOpen: in.HiOpen, HiOpen: in.LoOpen}
			if sqrt2In(neg) { // −√2 ∈ in
				wantIrr++
			}
			if sqrt2In(in) {
				wantIrr++
			}
		}
		got, err := l.CountRoots(ctx, p, in)
		if err != nil {
			t.Fatal(err)
		}
		if got != want+wantIrr {
			t.Fatalf("CountRoots(%s, %s) = %d, want %d + %d", p, in, got, want, wantIrr)
		}
		if g := gridCount(p, in); g != got {
			t.Fatalf("grid count of %s on %s = %d, Sturm %d", p, in, g, got)
		}
		rs, err := l.Roots(ctx, p, in)
		if err != nil {
			t.Fatal(err)
		}
		if len(rs) != got {
			t.Fatalf("Roots(%s, %s): %d roots, want %d", p, in, len(rs), got)
		}
		var gotRat []*big.Rat
		nIrr := 0
		for i, x := range rs {
			if i > 0 {
				if c, _ := rs[i-1].Cmp(ctx, x); c >= 0 {
					t.Fatalf("roots not ascending: %s, %s", rs[i-1], x)
				}
			}
			if x.IsRational() {
				gotRat = append(gotRat, x.Rat())
				continue
			}
			nIrr++
			if s, err := x.SignOf(ctx, FromInts(-2, 0, 1)); err != nil || s != 0 {
				t.Fatalf("irrational root %s of %s is not ±√2", x, p)
			}
			lo, hi := x.Bounds()
			if n, _ := l.CountRoots(ctx, p, Open(lo, hi)); n != 1 || p.Eval(lo).Sign() == 0 || p.Eval(hi).Sign() == 0 {
				t.Fatalf("isolating interval (%s, %s) of %s holds %d roots", lo.RatString(), hi.RatString(), p, n)
			}
		}
		if nIrr != wantIrr || len(gotRat) != len(wantRat) {
			t.Fatalf("Roots(%s, %s) = %v", p, in, rs)
		}
		for _, x := range gotRat {
			found := false
			for _, y := range wantRat {
				found = found || x.Cmp(y) == 0
			}
			if !found {
				t.Fatalf("Roots(%s, %s): %s is not a root", p, in, x.RatString())
			}
		}
		checked += got
		irrs += nIrr
	}
	if checked < 200 || irrs < 20 {
		t.Fatalf("only %d roots (%d irrational) checked", checked, irrs)
	}
}

func TestCountRootsEnds(t *testing.T) {
	l := Limits{}
	p := fromRoots([]*big.Rat{q(0, 1), q(1, 2), q(1, 1)}, []int{2, 1, 3})
	for _, c := range []struct {
		in   Interval
		want int
	}{
		{Closed(q(0, 1), q(1, 1)), 3},
		{Open(q(0, 1), q(1, 1)), 1},
		{Interval{Lo: q(0, 1), Hi: q(1, 1), HiOpen: true}, 2},
		{Interval{Lo: q(0, 1), Hi: q(1, 1), LoOpen: true}, 2},
		{Closed(q(1, 2), q(1, 2)), 1},
		{Closed(q(1, 3), q(1, 3)), 0},
		{Open(q(-1, 1), q(0, 1)), 0},
		{Closed(q(-1, 1), q(2, 1)), 3},
	} {
		if got, err := l.CountRoots(ctx, p, c.in); err != nil || got != c.want {
			t.Errorf("CountRoots on %s = %d (%v), want %d", c.in, got, err, c.want)
		}
	}
	if _, err := l.CountRoots(ctx, p, Open(q(1, 1), q(1, 1))); !errors.Is(err, ErrInterval) {
		t.Errorf("empty interval: %v", err)
	}
	if _, err := l.CountRoots(ctx, Poly{}, Closed(q(0, 1), q(1, 1))); !errors.Is(err, ErrZeroPolynomial) {
		t.Errorf("zero polynomial: %v", err)
	}
	seq, err := l.SturmSequence(ctx, FromInts(-2, 0, 1))
	if err != nil || len(seq) != 3 || !seq[1].Equal(FromInts(0, 1)) || !seq[2].Equal(FromInts(1)) {
		t.Errorf("Sturm sequence of α^2 − 2: %v (%v)", seq, err)
	}
	seq, err = l.SturmSequence(ctx, FromInts(1, -2, 1).Mul(FromInts(1, 1)).Scale(q(2, 3))) // 2/3 (α − 1)^2 (α + 1)
	if err != nil || len(seq) != 3 || !seq[0].Equal(FromInts(-1, 0, 1)) || !seq[1].Equal(FromInts(0, 1)) || !seq[2].Equal(FromInts(1)) {
		t.Errorf("Sturm sequence of the square-free part α^2 − 1: %v (%v)", seq, err)
	}
	// α^3 − 3α + 1: p′ = 3α^2 − 3 → α^2 − 1; −rem = 2α − 1; −rem(α^2 − 1, 2α − 1) = 3/4 → 1.
	seq, _ = l.SturmSequence(ctx, FromInts(1, -3, 0, 1))
	want := []Poly{FromInts(1, -3, 0, 1), FromInts(-1, 0, 1), FromInts(-1, 2), FromInts(1)}
	if len(seq) != len(want) {
		t.Fatalf("Sturm sequence %v", seq)
	}
	for i := range want {
		if !seq[i].Equal(want[i]) {
			t.Errorf("Sturm[%d] = %s, want %s", i, seq[i], want[i])
		}
	}
}

func TestSignOn(t *testing.T) {
	l := Limits{}
	unit := Closed(q(0, 1), q(1, 1))
	for _, c := range []struct {
		p     Poly
		in    Interval
		want  SignKind
		roots string
	}{
		{FromInts(1, 0, 1), unit, Positive, ""},
		{FromInts(-1, 0, -1), unit, Negative, ""},
		{Poly{}, unit, Zero, ""},
		{FromInts(0, 0, 1), unit, NonNegative, "0"},
		{FromInts(0, 0, 1), Interval{Lo: q(0, 1), Hi: q(1, 1), LoOpen: true}, Positive, ""},
		{fromRoots([]*big.Rat{q(1, 3)}, []int{2}).Neg(), unit, NonPositive, "1/3"},
		{FromInts(-1, 3), unit, Mixed, "1/3"},
		{FromInts(-2, 0, 1), Closed(q(0, 1), q(2, 1)), Mixed, "√2"},
	} {
		k, roots, err := l.SignOn(ctx, c.p, c.in)
		if err != nil {
			t.Fatal(err)
		}
		var rs []string
		for _, x := range roots {
			rs = append(rs, x.String())
		}
		if k != c.want || strings.Join(rs, ", ") != c.roots {
			t.Errorf("SignOn(%s, %s) = %s %v, want %s %s", c.p, c.in, k, rs, c.want, c.roots)
		}
	}
}

func TestLimitsAndCancel(t *testing.T) {
	p := FromInts(1, 2, 3, 4, 5)
	_, err := Limits{MaxDegree: 3}.Roots(ctx, p, Closed(q(0, 1), q(1, 1)))
	var le *LimitError
	if !errors.As(err, &le) || !errors.Is(err, ErrLimit) || le.Got != 4 || le.Max != 3 || le.Quantity != "degree" {
		t.Fatalf("degree limit: %v", err)
	}
	if err.Error() != "the exact arithmetic in the parameter reaches a polynomial of degree 4, beyond the limit of degree 3" {
		t.Errorf("message %q", err)
	}
	big1 := New(q(1, 1), new(big.Rat).SetFrac(new(big.Int).Lsh(big.NewInt(1), 100), big.NewInt(3)))
	_, err = Limits{MaxBits: 64}.GCD(ctx, big1, p)
	if err == nil || err.Error() != "the exact arithmetic in the parameter reaches a coefficient of 103 bits (numerator and denominator), beyond the limit of 64 bits" {
		t.Errorf("bits limit: %v", err)
	}
	// Intermediate remainders are checked too: inputs of 8 bits whose PRS grows.
	a := FromInts(17, -93, 120, 77, -101, 55, 3, -88, 91)
	b := FromInts(-45, 67, 12, -119, 38, 99, -7, 64)
	if _, err := (Limits{MaxBits: 9}).GCD(ctx, a, b); !errors.Is(err, ErrLimit) {
		t.Errorf("intermediate bits limit: %v", err)
	}
	if g, err := (Limits{}).GCD(ctx, a, b); err != nil || !g.Equal(FromInts(1)) {
		t.Errorf("gcd of coprime: %s %v", g, err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := (Limits{}).Roots(cctx, FromInts(-2, 0, 1), Closed(q(0, 1), q(2, 1))); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Roots: %v", err)
	}
	if _, err := (Limits{}).GCD(cctx, a, b); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled GCD: %v", err)
	}
	if _, err := (Limits{}).Where(cctx, FromInts(-2, 0, 1), GE, Closed(q(0, 1), q(2, 1))); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Where: %v", err)
	}
	r, _ := Limits{}.Where(ctx, FromInts(-2, 0, 1), GE, Closed(q(0, 1), q(2, 1)))
	if _, _, err := (Limits{}).Witness(cctx, r); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Witness: %v", err)
	}
	if _, err := (Limits{MaxDegree: 5}).RatAdd(ctx, FromPoly(FromInts(1, 0, 0, 1)), FromPoly(X())); err != nil {
		t.Errorf("RatAdd within the limit: %v", err)
	}
	f, _ := Limits{}.RatFunc(ctx, FromInts(1), FromInts(1, 0, 0, 1))
	if _, err := (Limits{MaxDegree: 5}).RatMul(ctx, f, f); !errors.As(err, &le) || le.Op != "RatFunc" || le.Got != 6 {
		t.Errorf("RatMul beyond the limit: %v", err)
	}
	x, _ := Limits{}.Roots(ctx, FromInts(-2, 0, 1), Closed(q(0, 1), q(2, 1)))
	if _, err := x[0].Decimal(cctx, 50); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Decimal: %v", err)
	}
}
