package syntax

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// ParseNumber reads an unsigned decimal literal exactly: 0.75 is 3/4, .2
// is 1/5, 1e-3 is 1/1000. It refuses literals of more than maxLen
// characters and decimal exponents beyond ±maxExp, so that no literal
// asks for a huge number.
func ParseNumber(text string, maxLen, maxExp int) (*big.Rat, error) {
	if len(text) > maxLen {
		return nil, fmt.Errorf("number literal has %d characters; the limit is %d", len(text), maxLen)
	}
	if text == "" || text[0] == '+' || text[0] == '-' {
		return nil, fmt.Errorf("malformed number %q", text)
	}
	if i := strings.IndexAny(text, "eE"); i >= 0 {
		e, err := strconv.ParseInt(strings.TrimPrefix(text[i+1:], "+"), 10, 64)
		if err != nil || e > int64(maxExp) || e < -int64(maxExp) {
			return nil, fmt.Errorf("the exponent of %s is outside ±%d", text, maxExp)
		}
	}
	if x, ok := smallDecimal(text); ok { // the common case, without SetString's cost
		return x, nil
	}
	x, ok := new(big.Rat).SetString(text)
	if !ok {
		return nil, fmt.Errorf("malformed number %q", text)
	}
	return x, nil
}

// smallDecimal reads a literal of at most 18 digits, with or without a
// decimal point but without an exponent (3, 0.75, .5, 2.), exactly; false
// for any other.
func smallDecimal(text string) (*big.Rat, bool) {
	var n, den uint64 = 0, 1
	digits, point := 0, false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case IsDigit(c):
			n = n*10 + uint64(c-'0')
			digits++
			if point {
				den *= 10
			}
		case c == '.' && !point:
			point = true
		default:
			return nil, false
		}
	}
	if digits == 0 || digits > 18 {
		return nil, false
	}
	return SmallRat(n, den), true
}

// SmallRat returns n/d (d > 0) in lowest terms.
func SmallRat(n, d uint64) *big.Rat {
	if g := gcd(n, d); g > 1 {
		n, d = n/g, d/g
	}
	if d == 1 {
		return new(big.Rat).SetUint64(n)
	}
	// n/d is in lowest terms: set it without big.Rat's normalisation.
	// Num and Denom are references into an initialised fraction.
	x := new(big.Rat).SetFrac64(1, 2)
	x.Num().SetUint64(n)
	x.Denom().SetUint64(d)
	return x
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
