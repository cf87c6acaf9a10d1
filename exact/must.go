package exact

import "math/big"

// Constructors of ε for tests and examples, where an invalid ε is a bug in
// the test itself: they panic instead of returning an error.
//
//	exact.LnInt(3)                                           // ln(3)
//	exact.LnFrac(3, 2)                                       // ln(3/2)
//	exact.Must(exact.LnPlus(big.NewRat(1, 1), r, q))         // any other ε

// Must returns e, and panics when err is not nil. It wraps any constructor
// of ε: exact.Must(exact.Rational(big.NewRat(1, 2))) is ε = 1/2.
func Must(e Eps, err error) Eps {
	if err != nil {
		panic(err)
	}
	return e
}

// LnInt returns ε = ln(n); it panics unless n ≥ 1.
func LnInt(n int64) Eps {
	if n < 1 {
		panic(epsErrorf("LnInt(%d): ε = ln(n) needs n ≥ 1", n))
	}
	return Must(Ln(big.NewRat(n, 1)))
}

// LnFrac returns ε = ln(a/b); it panics unless a ≥ b ≥ 1 (ε ≥ 0).
func LnFrac(a, b int64) Eps {
	if b < 1 || a < b {
		panic(epsErrorf("LnFrac(%d, %d): ε = ln(a/b) needs a ≥ b ≥ 1", a, b))
	}
	return Must(Ln(big.NewRat(a, b)))
}
