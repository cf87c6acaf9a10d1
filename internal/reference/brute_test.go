package reference

import (
	"math/big"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// forEachJoint calls f with every joint value of the PMFs and its
// probability (zero-probability values skipped).
func forEachJoint(ps []PMF, f func(vals []int, p *big.Rat)) {
	vals := make([]int, len(ps))
	var rec func(i int, p *big.Rat)
	rec = func(i int, p *big.Rat) {
		if i == len(ps) {
			f(vals, p)
			return
		}
		for j, q := range ps[i].P {
			if q.Sign() == 0 {
				continue
			}
			vals[i] = ps[i].Lo + j
			rec(i+1, new(big.Rat).Mul(p, q))
		}
	}
	rec(0, big.NewRat(1, 1))
}

// bruteSVT draws the threshold and all K query noises jointly and runs the
// algorithm literally.
func bruteSVT(v SVTVariant, p SVTParams, answers []int) Dist {
	ps := []PMF{TwoSidedGeometric(p.AlphaT, p.T, p.Lo, p.Hi)}
	for _, a := range answers {
		if v == SVTAlg5 {
			ps = append(ps, Point(clamp(a, p.Lo, p.Hi)))
		} else {
			ps = append(ps, TwoSidedGeometric(p.AlphaQ, a, p.Lo, p.Hi))
		}
	}
	out := Dist{}
	forEachJoint(ps, func(vals []int, q *big.Rat) {
		s := ""
		for _, a := range vals[1:] {
			if a >= vals[0] {
				if v == SVTAlg3 {
					s += strconv.Itoa(a)
				} else {
					s += Top
				}
				break
			}
			s += Bottom
		}
		out.add(s, q)
	})
	return out
}

// bruteAboveThreshold draws the threshold and K answer noises jointly.
func bruteAboveThreshold(alphaT, alphaQ *big.Rat, n, k, d, t int) Dist {
	ps := []PMF{TruncatedGeometric(alphaT, n, t)}
	for range k {
		ps = append(ps, TruncatedGeometric(alphaQ, n, d))
	}
	out := Dist{}
	forEachJoint(ps, func(vals []int, q *big.Rat) {
		o := "never"
		for i, a := range vals[1:] {
			if a >= vals[0] {
				o = "halt_" + strconv.Itoa(i+1)
				break
			}
		}
		out.add(o, q)
	})
	return out
}

func TestBruteForceAgrees(t *testing.T) {
	p := svtParams()
	for _, v := range []SVTVariant{SVTAlg1, SVTAlg3, SVTAlg5} {
		for _, a := range [][]int{{0, 0, 0}, {1, 1, 1}, {2, 0, 1}, {0, 2, 2}, {2, 2, 2}} {
			if diff := cmp.Diff(bruteSVT(v, p, a), SparseVector(v, p, a), ratCmp); diff != "" {
				t.Errorf("Alg %d on %v (-brute +walk):\n%s", v, a, diff)
			}
		}
	}
	for _, dt := range [][2]int{{5, 3}, {4, 3}, {0, 5}, {2, 0}} {
		want := bruteAboveThreshold(big.NewRat(1, 4), big.NewRat(1, 2), 5, 4, dt[0], dt[1])
		if diff := cmp.Diff(want, AboveThreshold(big.NewRat(1, 4), big.NewRat(1, 2), 5, 4, dt[0], dt[1]), ratCmp); diff != "" {
			t.Errorf("above threshold d=%d t=%d (-brute +walk):\n%s", dt[0], dt[1], diff)
		}
	}
}
