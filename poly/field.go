package poly

import (
	"context"
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/exact"
)

// Field is the exact.Field of the rational functions of one parameter on
// an interval: every value of a mechanism for every parameter value at
// once. Its operations keep to Limits and stop with Ctx's error when Ctx
// ends; Positive decides on Interval exactly (Sturm sequences), and a
// value that is not positive is reported with an exact point where it
// fails.
type Field struct {
	Ctx      context.Context
	Limits   Limits
	Interval Interval
	// Param names the parameter in Positive's explanations ("α" if empty).
	Param string
}

var _ exact.Field[RatFunc] = Field{}

// X returns the parameter itself, x/1.
func (Field) X() RatFunc { return FromPoly(X()) }

// Const returns the constant function r.
func (Field) Const(r *big.Rat) RatFunc { return FromPoly(Const(r)) }

// Add returns a + b.
func (f Field) Add(a, b RatFunc) (RatFunc, error) { return f.Limits.RatAdd(f.Ctx, a, b) }

// Sub returns a − b.
func (f Field) Sub(a, b RatFunc) (RatFunc, error) { return f.Limits.RatSub(f.Ctx, a, b) }

// Mul returns a · b.
func (f Field) Mul(a, b RatFunc) (RatFunc, error) { return f.Limits.RatMul(f.Ctx, a, b) }

// Quo returns a / b; an error when b is identically zero.
func (f Field) Quo(a, b RatFunc) (RatFunc, error) { return f.Limits.RatDiv(f.Ctx, a, b) }

// IsZero says whether a is identically zero.
func (Field) IsZero(a RatFunc) bool { return a.Num().IsZero() }

// Equal says whether a and b are the same function.
func (Field) Equal(a, b RatFunc) bool { return a.Equal(b) }

// Format writes a with the parameter named v.
func (Field) Format(a RatFunc, v string) string { return a.Format(v) }

// Positive says whether a > 0 at every point of the interval, with no pole
// there; when it is not, why names an exact point where it fails.
func (f Field) Positive(a RatFunc) (bool, string, error) {
	reg, err := f.Limits.WhereRat(f.Ctx, a, GT, f.Interval)
	if err != nil {
		return false, "", err
	}
	w, bad, err := f.Limits.Witness(f.Ctx, reg)
	if err != nil || !bad {
		return err == nil, "", err
	}
	name := f.Param
	if name == "" {
		name = "α"
	}
	if sg, err := w.SignOf(f.Ctx, a.Den()); err == nil && sg == 0 {
		return false, fmt.Sprintf("has a pole at %s = %s", name, w.Format(name)), nil
	}
	return false, fmt.Sprintf("is not positive at %s = %s", name, w.Format(name)), nil
}
