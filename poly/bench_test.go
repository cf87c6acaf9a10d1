package poly

import (
	"fmt"
	"math/big"
	"testing"
)

// geoPoly returns a degree-n polynomial shaped like the distributions of the
// truncated geometric mechanism: with m = n/2,
//
//	Σ_{k=0..m} (1 − α)^k (1 + α)^(m−k) α^k − c·(1 + α)^m α^m,
//
// the numerator of a sum of products of (1 − α)/(1 + α)·α^k compared with a
// threshold c.
func geoPoly(n int, c *big.Rat) Poly {
	m := n / 2
	one, a := FromInts(1, -1), FromInts(1, 1) // 1 − α, 1 + α
	pow := func(p Poly, k int) Poly {
		r := FromInts(1)
		for range k {
			r = r.Mul(p)
		}
		return r
	}
	alpha := X()
	sum := Poly{}
	for k := 0; k <= m; k++ {
		sum = sum.Add(pow(one, k).Mul(pow(a, m-k)).Mul(pow(alpha, k)))
	}
	return sum.Sub(pow(a, m).Mul(pow(alpha, m)).Scale(c))
}

func BenchmarkGCD(b *testing.B) {
	for _, n := range []int{20, 50, 100} {
		g := geoPoly(n/2, q(1, 2))
		x, y := g.Mul(geoPoly(n/2, q(1, 3))), g.Mul(geoPoly(n/2, q(1, 5)))
		b.Run(fmt.Sprintf("degree=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r, err := Limits{}.GCD(ctx, x, y)
				if err != nil || !r.Equal(g.Monic()) {
					b.Fatalf("gcd: degree %d, %v", r.Degree(), err)
				}
			}
		})
	}
}

func BenchmarkRoots(b *testing.B) {
	for _, n := range []int{20, 50, 100} {
		p := geoPoly(n, q(1, 2))
		want, err := Limits{}.CountRoots(ctx, p, Closed(q(-2, 1), q(2, 1)))
		if err != nil || want == 0 {
			b.Fatalf("no roots to isolate: %d, %v", want, err)
		}
		b.Run(fmt.Sprintf("degree=%d/roots=%d", n, want), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				rs, err := Limits{}.Roots(ctx, p, Closed(q(-2, 1), q(2, 1)))
				if err != nil || len(rs) != want {
					b.Fatalf("%d roots, %v", len(rs), err)
				}
			}
		})
	}
}

func BenchmarkWhere(b *testing.B) {
	for _, n := range []int{20, 50, 100} {
		p := geoPoly(n, q(1, 2))
		b.Run(fmt.Sprintf("degree=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := (Limits{}).Where(ctx, p, GE, Closed(q(0, 1), q(1, 1))); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
