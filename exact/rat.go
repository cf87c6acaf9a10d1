package exact

import (
	"fmt"
	"math/big"
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

func isOne(x *big.Rat) bool { return x.IsInt() && x.Num().IsInt64() && x.Num().Int64() == 1 }
