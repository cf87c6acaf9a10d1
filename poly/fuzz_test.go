package poly

import (
	"math/big"
	"testing"
)

// polyFromBytes reads data[2:] as signed coefficients (at most 10) and
// data[0:2] as the interval [lo, lo + (data[1]+1)/16] with lo = (data[0] −
// 128)/32, its ends open according to the low bits of data[1] … of data[0].
func polyFromBytes(data []byte) (Poly, Interval, bool) {
	if len(data) < 3 {
		return Poly{}, Interval{}, false
	}
	lo := q(int64(data[0])-128, 32)
	hi := new(big.Rat).Add(lo, q(int64(data[1])+1, 16))
	in := Interval{Lo: lo, Hi: hi, LoOpen: data[0]&1 == 1, HiOpen: data[1]&1 == 1}
	cs := data[2:]
	if len(cs) > 10 {
		cs = cs[:10]
	}
	c := make([]int64, len(cs))
	for i, b := range cs {
		c[i] = int64(int8(b))
	}
	p := FromInts(c...)
	return p, in, !p.IsZero()
}

func FuzzSturm(f *testing.F) {
	f.Add([]byte{128, 63, 254, 0, 1})                 // α^2 − 2 on [0, 4]
	f.Add([]byte{96, 31, 0, 1, 253, 2})               // α(2α^2 − 3α + 1)
	f.Add([]byte{127, 255, 1, 252, 6, 252, 1})        // (α − 1)^4
	f.Add([]byte{100, 90, 6, 245, 6, 255})            // −(α − 1)(α − 2)(α − 3)
	f.Add([]byte{129, 200, 36, 0, 207, 0, 1, 0, 255}) // several roots
	l := Limits{}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, in, ok := polyFromBytes(data)
		if !ok {
			return
		}
		n, err := l.CountRoots(ctx, p, in)
		if err != nil {
			t.Fatal(err)
		}
		rs, err := l.Roots(ctx, p, in)
		if err != nil {
			t.Fatal(err)
		}
		if len(rs) != n {
			t.Fatalf("%s on %s: CountRoots %d, Roots %v", p, in, n, rs)
		}
		sf, _ := l.SquareFree(ctx, p)
		for i, x := range rs {
			if i > 0 {
				if c, err := rs[i-1].Cmp(ctx, x); err != nil || c >= 0 {
					t.Fatalf("%s: roots %s, %s not ascending", p, rs[i-1], x)
				}
			}
			if x.IsRational() {
				if !in.Contains(x.Rat()) || p.Eval(x.Rat()).Sign() != 0 {
					t.Fatalf("%s on %s: %s is not a root in the interval", p, in, x)
				}
				continue
			}
			lo, hi := x.Bounds()
			if lo.Cmp(in.Lo) < 0 || hi.Cmp(in.Hi) > 0 || sf.Eval(lo).Sign()*sf.Eval(hi).Sign() >= 0 {
				t.Fatalf("%s on %s: bad isolating interval for %s", p, in, x)
			}
			if k, _ := l.CountRoots(ctx, p, Open(lo, hi)); k != 1 {
				t.Fatalf("%s: (%s, %s) holds %d roots", p, lo, hi, k)
			}
			if s, err := x.SignOf(ctx, p); err != nil || s != 0 {
				t.Fatalf("%s at its root %s: sign %d", p, x, s)
			}
		}
		// Brute force on a grid of 64 cells: every zero at a grid point and
		// every sign change between nonzero neighbours is a distinct root, so
		// their number bounds n from below; and the Sturm counts of the open
		// cells plus the grid zeros add up to n exactly.
		step := new(big.Rat).Sub(in.Hi, in.Lo)
		step.Quo(step, q(64, 1))
		lower, sum := 0, 0
		prev := new(big.Rat).Set(in.Lo)
		lastSign := 0
		for i := 0; i <= 64; i++ {
			x := new(big.Rat).Mul(step, q(int64(i), 1))
			x.Add(x, in.Lo)
			s := p.Eval(x).Sign()
			if s == 0 && in.Contains(x) {
				lower++
				sum++
			}
			if s != 0 && lastSign != 0 && s != lastSign {
				lower++
			}
			lastSign = s
			if i > 0 {
				k, err := l.CountRoots(ctx, p, Open(prev, x))
				if err != nil {
					t.Fatal(err)
				}
				sum += k
			}
			prev = x
		}
		if lower > n || sum != n {
			t.Fatalf("%s on %s: Sturm %d, grid lower bound %d, cell sum %d", p, in, n, lower, sum)
		}
		kind, roots, err := l.SignOn(ctx, p, in)
		if err != nil || len(roots) != n {
			t.Fatalf("%s on %s: SignOn %s with %d roots (%v), want %d", p, in, kind, len(roots), err, n)
		}
		if n == 0 && kind != Positive && kind != Negative {
			t.Fatalf("%s on %s: no roots but sign %s", p, in, kind)
		}
	})
}
