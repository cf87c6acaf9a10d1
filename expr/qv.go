package expr

import "math/big"

// A compiled expression computes in qv values: int64 while they are small,
// exact rationals beyond, so that a neighbour predicate over millions of
// pairs of inputs stays cheap.

// qv is a rational: the integer i when r is nil, else r.
type qv struct {
	i int64
	r *big.Rat
}

const smallLimit = 1 << 31

func (a qv) small() bool { return a.r == nil && a.i > -smallLimit && a.i < smallLimit }

func (a qv) rat() *big.Rat {
	if a.r != nil {
		return a.r
	}
	return big.NewRat(a.i, 1)
}

func qadd(a, b qv) qv {
	if a.small() && b.small() {
		return qv{i: a.i + b.i}
	}
	return qv{r: new(big.Rat).Add(a.rat(), b.rat())}
}

func qsub(a, b qv) qv {
	if a.small() && b.small() {
		return qv{i: a.i - b.i}
	}
	return qv{r: new(big.Rat).Sub(a.rat(), b.rat())}
}

func qmul(a, b qv) qv {
	if a.small() && b.small() {
		return qv{i: a.i * b.i}
	}
	return qv{r: new(big.Rat).Mul(a.rat(), b.rat())}
}

func qcmp(a, b qv) int {
	if a.r == nil && b.r == nil {
		switch {
		case a.i < b.i:
			return -1
		case a.i > b.i:
			return 1
		}
		return 0
	}
	return a.rat().Cmp(b.rat())
}
