package exact_test

import (
	"math/big"

	"github.com/dpcheck/dpcheck/exact"
)

func r(s string) *big.Rat {
	x, ok := new(big.Rat).SetString(s)
	if !ok {
		panic("bad rational " + s)
	}
	return x
}

func ln(s string) exact.Eps {
	e, err := exact.Ln(r(s))
	if err != nil {
		panic(err)
	}
	return e
}

// rational returns ε = q for a valid literal q.
func rational(q *big.Rat) exact.Eps {
	e, err := exact.Rational(q)
	if err != nil {
		panic(err)
	}
	return e
}
