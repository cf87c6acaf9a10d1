package geosum

import (
	"context"
	"math/big"
	"math/rand"
	"testing"

	"github.com/dpcheck/dpcheck/exact"
)

func rat(a, b int64) *big.Rat { return big.NewRat(a, b) }

// geo is Pr[centre + Z = x] for two-sided geometric noise.
func geo(alpha *big.Rat, centre, x int64) *big.Rat {
	d := x - centre
	if d < 0 {
		d = -d
	}
	k := new(big.Rat).Quo(exact.OneMinus(alpha), new(big.Rat).Add(big.NewRat(1, 1), alpha))
	return k.Mul(k, exact.Pow(alpha, d))
}

// TestRandomPrograms draws random sequences of draws, shifts, sets and
// cuts over three variables and compares the exact total and point
// values with brute-force sums over a window whose omitted mass is
// bounded: every draw leaves the window [−R, R] around its centre with
// probability 2α^(R+1)/(1+α), so the total omitted mass is at most the sum
// of those.
func TestRandomPrograms(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	s := NewSummer[*big.Rat](context.Background(), exact.Rats{}, 0)
	alphas := []*big.Rat{rat(1, 2), rat(1, 3), rat(1, 4)}
	for trial := 0; trial < 150; trial++ {
		const n = 3
		w := s.Point([]int64{0, 0, 0}, big.NewRat(1, 1))
		// brute: the explicit distribution over a window, as a map.
		brute := map[[n]int64]*big.Rat{{0, 0, 0}: big.NewRat(1, 1)}
		omitted := new(big.Rat)
		const R = 14
		for step := 0; step < 4; step++ {
			v := r.Intn(n)
			var err error
			switch op := r.Intn(4); op {
			case 0, 1: // draw
				a := alphas[r.Intn(len(alphas))]
				c := int64(r.Intn(5) - 2)
				if w, err = s.Geometric(w, v, a, c, false); err != nil {
					t.Fatal(err)
				}
				next := map[[n]int64]*big.Rat{}
				for x, p := range brute {
					for z := c - R; z <= c+R; z++ {
						y := x
						y[v] = z
						q := new(big.Rat).Mul(p, geo(a, c, z))
						if old, ok := next[y]; ok {
							q.Add(q, old)
						}
						next[y] = q
					}
				}
				brute = next
				tail := new(big.Rat).Quo(new(big.Rat).Mul(big.NewRat(2, 1), exact.Pow(a, R+1)), new(big.Rat).Add(big.NewRat(1, 1), a))
				omitted.Add(omitted, tail)
			case 2: // cut: s1·x_v ≤ s2·x_u + c
				u := r.Intn(n)
				f, g := Var(v, 1-2*r.Intn(2), 0), Var(u, 1-2*r.Intn(2), int64(r.Intn(5)-2))
				if r.Intn(3) == 0 {
					g = Const(int64(r.Intn(5) - 2))
				}
				w = s.Restrict(w, f, g)
				for x, p := range brute {
					if eval(f, x[:]) > eval(g, x[:]) {
						delete(brute, x)
					} else {
						_ = p
					}
				}
			case 3: // shift or set
				if r.Intn(2) == 0 {
					sign, c := 1-2*r.Intn(2), int64(r.Intn(5)-2)
					if w, err = s.Shift(w, v, sign, c); err != nil {
						t.Fatal(err)
					}
					next := map[[n]int64]*big.Rat{}
					for x, p := range brute {
						y := x
						y[v] = int64(sign)*x[v] + c
						next[y] = p
					}
					brute = next
				} else {
					u := r.Intn(n)
					var f Form
					if u == v {
						f = Const(int64(r.Intn(5) - 2))
					} else {
						f = Var(u, 1-2*r.Intn(2), int64(r.Intn(3)-1))
					}
					if w, err = s.Set(w, v, f); err != nil {
						t.Fatal(err)
					}
					next := map[[n]int64]*big.Rat{}
					for x, p := range brute {
						y := x
						y[v] = eval(f, x[:])
						q := new(big.Rat).Set(p)
						if old, ok := next[y]; ok {
							q.Add(q, old)
						}
						next[y] = q
					}
					brute = next
				}
			}
		}
		total, err := s.Total(w)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		sum := new(big.Rat)
		for x, p := range brute {
			sum.Add(sum, p)
			if r.Intn(20) == 0 {
				got, err := s.Eval(w, x[:])
				if err != nil {
					t.Fatal(err)
				}
				// A point's value is exact in the window unless a shift
				// moved mass across it; compare within the omitted mass.
				d := new(big.Rat).Sub(got, p)
				if d.Abs(d).Cmp(omitted) > 0 {
					t.Fatalf("trial %d: w(%v) = %s, brute force %s", trial, x, got.FloatString(12), p.FloatString(12))
				}
			}
		}
		d := new(big.Rat).Sub(total, sum)
		if d.Sign() < 0 || d.Cmp(omitted) > 0 {
			t.Fatalf("trial %d: total %s, brute force %s (omitted at most %s)", trial, total.FloatString(15), sum.FloatString(15), omitted.FloatString(15))
		}
	}
}

func eval(f Form, x []int64) int64 {
	if f.V < 0 {
		return f.C
	}
	return int64(f.S)*x[f.V] + f.C
}

// TestGeometricSums checks closed forms: Pr[X ≥ Y] for independent
// two-sided geometric X, Y with the same centre is 1/2 + Pr[X = Y]/2,
// and Pr[X = Y] = Σ_z p(z)² = k²·(1+α²)/(1−α²), k = (1−α)/(1+α).
func TestGeometricSums(t *testing.T) {
	s := NewSummer[*big.Rat](context.Background(), exact.Rats{}, 0)
	a := rat(1, 3)
	w := s.Point([]int64{0, 0}, big.NewRat(1, 1))
	var err error
	if w, err = s.Geometric(w, 0, a, 0, false); err != nil {
		t.Fatal(err)
	}
	if w, err = s.Geometric(w, 1, a, 0, false); err != nil {
		t.Fatal(err)
	}
	eq := s.Restrict(s.Restrict(w, Var(0, 1, 0), Var(1, 1, 0)), Var(1, 1, 0), Var(0, 1, 0))
	got, err := s.Total(eq)
	if err != nil {
		t.Fatal(err)
	}
	k := rat(1, 2) // (1−1/3)/(1+1/3)
	want := new(big.Rat).Mul(new(big.Rat).Mul(k, k), new(big.Rat).Quo(rat(10, 9), rat(8, 9)))
	if got.Cmp(want) != 0 {
		t.Fatalf("Pr[X = Y] = %s, want %s", got, want)
	}
	ge, err := s.Total(s.Restrict(w, Var(1, 1, 0), Var(0, 1, 0)))
	if err != nil {
		t.Fatal(err)
	}
	want2 := new(big.Rat).Add(rat(1, 2), new(big.Rat).Quo(want, rat(2, 1)))
	if ge.Cmp(want2) != 0 {
		t.Fatalf("Pr[X ≥ Y] = %s, want %s", ge, want2)
	}
}

// TestPoint: a point of a random closed octagon with points lies in it.
func TestPoint(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for trial := 0; trial < 2000; trial++ {
		o := Universe(3)
		ok := true
		for range 4 {
			f := Var(r.Intn(3), 1-2*r.Intn(2), int64(r.Intn(7)-3))
			g := Var(r.Intn(3), 1-2*r.Intn(2), int64(r.Intn(7)-3))
			if r.Intn(3) == 0 {
				g = Const(int64(r.Intn(9) - 4))
			}
			var q Oct
			if q, ok = o.LessEq(f, g); !ok {
				break
			}
			o = q
		}
		if !ok {
			continue
		}
		if x := o.Point(); !o.Contains(x) {
			t.Fatalf("trial %d: %v is not in the octagon", trial, x)
		}
	}
}

// TestGeometricAround: x₀ drawn around 1, then x₁ around ±x₀ + k: the
// weight at every point of a window is the product of the two point
// probabilities, and the whole sums to 1; a one-sided draw too.
func TestGeometricAround(t *testing.T) {
	s := NewSummer[*big.Rat](context.Background(), exact.Rats{}, 0)
	a, b := rat(1, 3), rat(2, 5)
	two := func(alpha *big.Rat, z int64) *big.Rat { // (1−α)/(1+α)·α^|z|
		k := new(big.Rat).Quo(new(big.Rat).Sub(rat(1, 1), alpha), new(big.Rat).Add(rat(1, 1), alpha))
		return k.Mul(k, exact.Pow(alpha, max(z, -z)))
	}
	one := func(alpha *big.Rat, z int64) *big.Rat { // (1−α)·α^z, z ≥ 0
		if z < 0 {
			return new(big.Rat)
		}
		k := new(big.Rat).Sub(rat(1, 1), alpha)
		return k.Mul(k, exact.Pow(alpha, z))
	}
	for _, tc := range []struct {
		sign     int
		k        int64
		oneSided bool
	}{{1, 0, false}, {-1, 2, false}, {1, -3, true}, {-1, 1, true}} {
		w := s.Point([]int64{0, 0}, big.NewRat(1, 1))
		var err error
		if w, err = s.Geometric(w, 0, a, 1, false); err != nil {
			t.Fatal(err)
		}
		if w, err = s.GeometricAround(w, 1, b, Var(0, tc.sign, tc.k), tc.oneSided); err != nil {
			t.Fatal(err)
		}
		for x0 := int64(-6); x0 <= 8; x0++ {
			for x1 := int64(-12); x1 <= 12; x1++ {
				got, err := s.Eval(w, []int64{x0, x1})
				if err != nil {
					t.Fatal(err)
				}
				z := x1 - (int64(tc.sign)*x0 + tc.k)
				p := two(b, z)
				if tc.oneSided {
					p = one(b, z)
				}
				if want := new(big.Rat).Mul(two(a, x0-1), p); got.Cmp(want) != 0 {
					t.Fatalf("%+v: weight at (%d, %d) = %s, want %s", tc, x0, x1, got.RatString(), want.RatString())
				}
			}
		}
		if total, err := s.Total(w); err != nil || total.Cmp(rat(1, 1)) != 0 {
			t.Errorf("%+v: total %v, %v", tc, total, err)
		}
	}
	if _, err := s.GeometricAround(s.Point([]int64{0}, rat(1, 1)), 0, a, Var(0, 1, 0), false); err == nil {
		t.Error("a draw around itself was accepted")
	}
}
