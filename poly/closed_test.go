package poly

import (
	"context"
	"math/big"
	"testing"
)

// TestClosedForms: irrational roots print with a square or k-th root once
// the defining polynomial's rational roots are divided out; the roots are
// known by hand.
func TestClosedForms(t *testing.T) {
	ctx := context.Background()
	var l Limits
	q := big.NewRat
	tests := []struct {
		name   string
		p      Poly
		in     Interval
		want   []string
		digits string // the first root to 6 digits, as a check on the form
	}{
		// (1 + α)(1 − 3α²): the endpoint 1/√3 of a region.
		{"one over root three", FromInts(1, 1, -3, -3), Open(q(0, 1), q(1, 1)), []string{"√3/3"}, "0.577350"},
		{"both roots of a quadratic", FromInts(-1, -1, 1), Open(q(-1, 1), q(2, 1)), []string{"(1 − √5)/2", "(1 + √5)/2"}, "-0.618034"},
		{"square factor pulled out", FromInts(-18, 0, 1), Open(q(-5, 1), q(5, 1)), []string{"−3√2", "3√2"}, "-4.242641"},
		{"root over an integer", FromInts(-1, 6, -4), Open(q(0, 1), q(2, 1)), []string{"(3 − √5)/4", "(3 + √5)/4"}, "0.190983"},
		// (16α³ − 1)(2α − 1): the cube root of 1/16.
		{"cube root", FromInts(-1, 0, 0, 16).Mul(FromInts(-1, 2)), Open(q(0, 1), q(1, 2)), []string{"(1/16)^(1/3)"}, "0.396850"},
		{"negative cube root", FromInts(2, 0, 0, 1), Open(q(-2, 1), q(0, 1)), []string{"−2^(1/3)"}, "-1.259921"},
		{"fourth roots", FromInts(-3, 0, 0, 0, 1), Open(q(-2, 1), q(2, 1)), []string{"−3^(1/4)", "3^(1/4)"}, "-1.316074"},
		// (α − 2)(α³ − α − 1): the cubic stays, reduced.
		{"irreducible cubic", FromInts(-1, -1, 0, 1).Mul(FromInts(-2, 1)), Open(q(1, 1), q(3, 2)), []string{"the root of α^3 − α − 1 in (1, 3/2)"}, "1.324718"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rs, err := l.Roots(ctx, tc.p, tc.in)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range rs {
				got = append(got, r.String())
			}
			if len(got) != len(tc.want) {
				t.Fatalf("roots %q, want %q", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("root %d = %q, want %q", i, got[i], tc.want[i])
				}
			}
			if d, err := rs[0].Decimal(ctx, 6); err != nil || d != tc.digits {
				t.Errorf("Decimal = %q, %v; want %s", d, err, tc.digits)
			}
		})
	}
}

// TestClosedFormLarge: a defining polynomial above the degree bound keeps
// its form without reduction.
func TestClosedFormLarge(t *testing.T) {
	c := make([]int64, maxClosedDegree+2)
	c[0], c[1], c[len(c)-1] = -1, -1, 1 // α^25 − α − 1
	rs, err := Limits{}.Roots(context.Background(), FromInts(c...), Open(big.NewRat(1, 1), big.NewRat(2, 1)))
	if err != nil || len(rs) != 1 {
		t.Fatalf("roots %v, %v", rs, err)
	}
	if got, want := rs[0].String()[:len("the root of α^25 − α − 1 in")], "the root of α^25 − α − 1 in"; got != want {
		t.Errorf("got %q, want prefix %q", rs[0].String(), want)
	}
}
