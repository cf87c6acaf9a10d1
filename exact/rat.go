package exact

import (
	"fmt"
	"math/big"
	"strconv"
)

// ratOne is 1; it is never written to.
var ratOne = big.NewRat(1, 1)

// Thousands writes n with thousands separators: 10,000,000.
func Thousands(n int64) string {
	s := fmt.Sprint(n)
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// Short writes x exactly, or only its size when it is long (for
// messages): "(a number of 238561 digits)".
func Short(x *big.Rat) string {
	s := x.RatString()
	if len(s) <= 40 {
		return s
	}
	return fmt.Sprintf("(a number of %d digits)", len(s))
}

// Rounded writes an estimate f ≥ 0 (of work or memory, for a message)
// to two significant digits with
// thousands separators (3,100,000,000), or as 3.1e+18 from 10^15 on.
func Rounded(f float64) string {
	if !(f < 1e15) {
		return fmt.Sprintf("%.2g", f)
	}
	r, _ := strconv.ParseFloat(fmt.Sprintf("%.2g", f), 64)
	return Thousands(int64(r))
}

// Whole writes a limit f ≥ 0 as a whole number with thousands separators
// (100,000,000,000), or as %g from 10^15 on.
func Whole(f float64) string {
	if !(f < 1e15) {
		return fmt.Sprintf("%g", f)
	}
	return Thousands(int64(f))
}

func isOne(x *big.Rat) bool { return x.IsInt() && x.Num().IsInt64() && x.Num().Int64() == 1 }
