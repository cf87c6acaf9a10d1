package poly_test

import (
	"context"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/poly"
)

func TestFieldPositive(t *testing.T) {
	f := poly.Field{Ctx: context.Background(), Interval: poly.Open(new(big.Rat), big.NewRat(1, 1)), Param: "a"}
	one := f.Const(big.NewRat(1, 1))
	half := f.Const(big.NewRat(1, 2))
	oneMinus, err := f.Sub(one, f.X()) // 1 − a: positive on (0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if ok, why, err := f.Positive(oneMinus); !ok || err != nil {
		t.Errorf("1 − a on (0, 1): %v %q %v, want positive", ok, why, err)
	}
	halfMinus, _ := f.Sub(half, f.X()) // 1/2 − a: not positive from 1/2 on
	if ok, why, err := f.Positive(halfMinus); ok || err != nil || why == "" {
		t.Errorf("1/2 − a on (0, 1): %v %q %v, want not positive with a reason", ok, why, err)
	}
	pole, err := f.Quo(one, halfMinus) // 1/(1/2 − a): a pole at 1/2
	if err != nil {
		t.Fatal(err)
	}
	if ok, _, _ := f.Positive(pole); ok {
		t.Error("1/(1/2 − a) is positive on (0, 1), want not")
	}
	sq, _ := f.Mul(oneMinus, oneMinus)
	back, _ := f.Quo(sq, oneMinus)
	if !f.Equal(back, oneMinus) {
		t.Errorf("(1−a)²/(1−a) = %s, want %s", f.Format(back, "a"), f.Format(oneMinus, "a"))
	}
	if _, err := f.Quo(one, f.Const(new(big.Rat))); err == nil {
		t.Error("1/0 gave no error")
	}
}

// TestFieldPositiveWhy: a value that is not positive is explained with an
// exact point, a pole as a pole.
func TestFieldPositiveWhy(t *testing.T) {
	f := poly.Field{Ctx: context.Background(), Interval: poly.Open(new(big.Rat), big.NewRat(1, 1)), Param: "a"}
	halfMinus, _ := f.Sub(f.Const(big.NewRat(1, 2)), f.X())
	pole, _ := f.Quo(f.Const(big.NewRat(1, 1)), halfMinus)
	for _, c := range []struct {
		v    poly.RatFunc
		want string
	}{{halfMinus, "is not positive at a = 1/2"}, {pole, "has a pole at a = 1/2"}} {
		if ok, why, err := f.Positive(c.v); ok || err != nil || why != c.want {
			t.Errorf("%s: %v %q %v, want false %q", f.Format(c.v, "a"), ok, why, err, c.want)
		}
	}
}
