package exact

import (
	"errors"
	"math/big"
)

// ErrDivisionByZero is returned by a Field's Quo when the divisor is zero.
var ErrDivisionByZero = errors.New("division by zero")

// Field is the arithmetic a mechanism's probabilities are written in, so
// that a mechanism's rows, a sampler's distribution or an explorer's
// branch algebra is written once and made twice: over the rationals
// (Rats, one parameter value) and over the rational functions of one
// parameter (poly.Field, every value in an interval at once).
//
// Every operation returns a new value and may fail: the rational
// functions' operations stop at their limits and when their context ends.
// A value of T is never modified once made, so values may be shared.
type Field[T any] interface {
	// Const returns the constant r (r itself is not kept).
	Const(r *big.Rat) T
	// Add, Sub, Mul and Quo return a+b, a−b, a·b and a/b. Quo fails when
	// b is zero.
	Add(a, b T) (T, error)
	Sub(a, b T) (T, error)
	Mul(a, b T) (T, error)
	Quo(a, b T) (T, error)
	// IsZero says whether a is zero (for a function: identically zero).
	IsZero(a T) bool
	// Positive says whether a > 0 (for a function: at every value of the
	// parameter's interval, with no pole there). When it is not, why says
	// where for a person: "is not positive at α = 1/2", "has a pole at
	// α = 1/3", "is -1/2".
	Positive(a T) (ok bool, why string, err error)
	// Equal says whether a and b are equal (for functions: as functions).
	Equal(a, b T) bool
	// Format writes a for a person, the parameter (if any) named v.
	Format(a T, v string) string
}

// Rats is the Field of exact rationals, *big.Rat: its operations never
// fail (except Quo by zero) and never modify their arguments, and Mul is
// the fast Mul of this package.
type Rats struct{}

// Const returns a copy of r.
func (Rats) Const(r *big.Rat) *big.Rat { return new(big.Rat).Set(r) }

// Add returns a + b.
func (Rats) Add(a, b *big.Rat) (*big.Rat, error) { return new(big.Rat).Add(a, b), nil }

// Sub returns a − b.
func (Rats) Sub(a, b *big.Rat) (*big.Rat, error) { return new(big.Rat).Sub(a, b), nil }

// Mul returns a · b (see Mul).
func (Rats) Mul(a, b *big.Rat) (*big.Rat, error) { return Mul(a, b), nil }

// Quo returns a / b, or ErrDivisionByZero when b is 0.
func (Rats) Quo(a, b *big.Rat) (*big.Rat, error) {
	if b.Sign() == 0 {
		return nil, ErrDivisionByZero
	}
	return new(big.Rat).Quo(a, b), nil
}

// IsZero says whether a is 0.
func (Rats) IsZero(a *big.Rat) bool { return a.Sign() == 0 }

// Positive says whether a > 0; when it is not, why is "is " and a's value.
func (Rats) Positive(a *big.Rat) (bool, string, error) {
	if a.Sign() > 0 {
		return true, "", nil
	}
	return false, "is " + a.RatString(), nil
}

// Equal says whether a = b.
func (Rats) Equal(a, b *big.Rat) bool { return a.Cmp(b) == 0 }

// Format writes a as RatString does (v is not used).
func (Rats) Format(a *big.Rat, _ string) string { return a.RatString() }
