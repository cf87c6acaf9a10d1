package dptest_test

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/dptest"
)

// Lumbroso's Fast Dice Roller ("Optimal Discrete Uniform Generation from
// Coin Flips, and Applications"): a uniform integer in [0, n) from fair
// bits, and the classic bug it avoids, k bits mod n.

// fastDiceRoller returns a uniform integer in [0, n) from fair bits: c is
// uniform in [0, v) after each bit; once v ≥ n it returns c if c < n, and
// otherwise keeps c − n, uniform in [0, v − n).
func fastDiceRoller(src bitSource, n int) int {
	v, c := 1, 0
	for {
		v, c = 2*v, 2*c
		if src.Bit() {
			c++
		}
		if v >= n {
			if c < n {
				return c
			}
			v, c = v-n, c-n
		}
	}
}

// bitsModN is the classic bug: k fair bits, as a number mod n.
func bitsModN(src bitSource, n, k int) int {
	v := 0
	for range k {
		v *= 2
		if src.Bit() {
			v++
		}
	}
	return v % n
}

// uniform is the uniform distribution on [0, n).
func uniform(n int) map[int]*big.Rat {
	d := map[int]*big.Rat{}
	for i := range n {
		d[i] = big.NewRat(1, int64(n))
	}
	return d
}

// fdrUnexplored is the mass of the Fast Dice Roller's runs of more than
// depth bits, by the paper's invariant rather than by exploring: v does not
// depend on the bits, and when v ≥ n the roller returns with probability
// n/v (c uniform in [0, v)), else goes on with v − n.
func fdrUnexplored(n, depth int) *big.Rat {
	u := big.NewRat(1, 1)
	v := 1
	for range depth {
		if v *= 2; v >= n {
			u.Mul(u, big.NewRat(int64(v-n), int64(v)))
			v -= n
		}
	}
	return u
}

// TestFastDiceRoller: explored to 24 bits, the roller gives every face
// exactly (1 − u)/n, u the unexplored mass, which is the invariant's
// (fdrUnexplored) and, by hand: n = 3 returns with 3/4 every 2 bits
// (u = 4^−12); n = 5 goes 2, 4, 8 → 3 (3/8 left), 6 → 1 (1/6 left): 1/16
// every 4 bits (16^−6); n = 6 after 2, 4, 8 → 2 (1/4 left) cycles 4, 8 → 2
// every 2 bits (4^−11 after 23 bits, the 24th returns nothing); n = 7 keeps
// 1/8 every 3 bits (8^−8); n = 10 goes 2, 4, 8, 16 → 6 (3/8 left), then 12
// → 2 (1/6 left), 4, 8, 16 → 6 (3/8 left): 1/16 every 4 bits after the
// first 4 (3/8·16^−5); n = 8 is three bits (u = 0). AssertSameDist with the
// uniform distribution finds nothing against it: the distance is between 0
// and u.
func TestFastDiceRoller(t *testing.T) {
	const depth = 24
	for _, c := range []struct {
		n int
		u *big.Rat
	}{
		{3, pow2(24)},
		{5, pow2(24)},
		{6, pow2(22)},
		{7, pow2(24)},
		{10, new(big.Rat).Mul(big.NewRat(3, 1), pow2(23))},
		{8, new(big.Rat)},
	} {
		if u := fdrUnexplored(c.n, depth); u.Cmp(c.u) != 0 {
			t.Errorf("n = %d: the invariant gives u = %s, by hand %s", c.n, u.RatString(), c.u.RatString())
		}
		roll := func(r *dptest.Rand) int { return fastDiceRoller(r, c.n) }
		d, err := dptest.Explore(context.Background(), roll, dptest.Budget{Depth: depth})
		if err != nil {
			t.Fatal(err)
		}
		face := new(big.Rat).Sub(big.NewRat(1, 1), c.u)
		face.Quo(face, big.NewRat(int64(c.n), 1))
		if d.Unexplored.Cmp(c.u) != 0 || len(d.P) != c.n {
			t.Errorf("n = %d: unexplored %s, want %s; %d faces", c.n, d.Unexplored.RatString(), c.u.RatString(), len(d.P))
		}
		for i, p := range d.P {
			if i < 0 || i >= c.n || p.Cmp(face) != 0 {
				t.Errorf("n = %d: Pr(%d) = %s, want (1 − u)/n = %s", c.n, i, p.RatString(), face.RatString())
			}
		}
		r := dptest.AssertSameDist(t, dptest.Sampler(roll, dptest.Budget{Depth: depth}), dptest.Exact(uniform(c.n)))
		want := dptest.Unknown
		if c.u.Sign() == 0 {
			want = dptest.Holds
		}
		if r != nil && (r.Verdict != want || r.TVLow.Sign() != 0 || r.TVHigh.Cmp(c.u) != 0) {
			t.Errorf("n = %d: %s", c.n, r)
		}
	}
}

// TestBitsModNCaught: k bits mod n is caught, with its exact bias. With
// 2^k = q·n + r, the faces below r come up (q+1)/2^k, the others q/2^k, so
// the distance from uniform is r·((q+1)/2^k − 1/n) = r·(n − r)/(n·2^k):
// n = 3, k = 2: 0 ∈ {0, 3}, Pr(0) = 1/2 vs 1/3, distance 1·2/12 = 1/6;
// n = 5, k = 3: 3·2/40 = 3/20; n = 10, k = 4: 6·4/160 = 3/20; n = 6,
// k = 4: 4·2/96 = 1/12 (the example's); n = 3, k = 8:
// 1·2/768 = 1/384; n = 7, k = 8: 256 = 36·7 + 4, 4·3/1792 = 3/448. The
// output where they differ most is 0 for n = 3 (1/2 vs 1/3), face r = 3
// for n = 5 (1/8 vs 1/5 is further off than 1/4 vs 1/5).
func TestBitsModNCaught(t *testing.T) {
	for _, c := range []struct {
		n, k int
		tv   *big.Rat // by hand
	}{
		{3, 2, big.NewRat(1, 6)},
		{5, 3, big.NewRat(3, 20)},
		{10, 4, big.NewRat(3, 20)},
		{6, 4, big.NewRat(1, 12)},
		{3, 8, big.NewRat(1, 384)},
		{7, 8, big.NewRat(3, 448)},
	} {
		q, rem := (1<<c.k)/c.n, (1<<c.k)%c.n
		if tv := big.NewRat(int64(rem*(c.n-rem)), int64(c.n<<c.k)); tv.Cmp(c.tv) != 0 {
			t.Errorf("n = %d, k = %d: r(n − r)/(n·2^k) = %s, by hand %s", c.n, c.k, tv.RatString(), c.tv.RatString())
		}
		var res *dptest.DistResult
		rec := record(t, func(tb testing.TB) {
			res = dptest.AssertSameDist(tb, dptest.Sampler(func(r *dptest.Rand) int { return bitsModN(r, c.n, c.k) }, dptest.Budget{}), dptest.Exact(uniform(c.n)))
		})
		// They differ most at face 0, by (q+1)/2^k − 1/n, unless a face
		// that comes up less is further off, by 1/n − q/2^k: the first is
		// face r.
		face, got := 0, big.NewRat(int64(q+1), 1<<c.k)
		if c.n*(2*q+1) < 2<<c.k {
			face, got = rem, big.NewRat(int64(q), 1<<c.k)
		}
		if len(rec.errors) != 1 || res == nil || res.Verdict != dptest.Violated || res.TVLow.Cmp(c.tv) != 0 || res.TVHigh.Cmp(c.tv) != 0 ||
			res.Output != fmt.Sprint(face) || res.Got.Cmp(got) != 0 || res.Want.Cmp(big.NewRat(1, int64(c.n))) != 0 {
			t.Errorf("n = %d, k = %d: %s (reported %q)", c.n, c.k, res, rec.errors)
		}
	}
	// The failure as a test prints it.
	rec := record(t, func(tb testing.TB) {
		dptest.AssertSameDist(tb, dptest.Sampler(func(r *dptest.Rand) int { return bitsModN(r, 3, 2) }, dptest.Budget{}), dptest.Exact(uniform(3)))
	})
	const want = "dptest.AssertSameDist: different: the total-variation distance is 1/6 ≈ 0.166667\nthey differ most at output 0: 1/2 ≈ 0.5 vs 1/3 ≈ 0.333333"
	if len(rec.errors) != 1 || rec.errors[0] != want {
		t.Errorf("reported %q, want %q", rec.errors, want)
	}
}

// A die from coin flips, as Lumbroso's Fast Dice Roller draws it, against
// the classic bug of bits mod 6. The roller's runs never end surely:
// explored to 12 bits they are uniform within their unexplored mass, which
// the assertion logs. Four bits mod 6 fails with its exact bias: faces 0
// to 3 come up 3/16, faces 4 and 5 only 2/16.
func ExampleAssertSameDist_fastDiceRoller() {
	var t testing.TB = printTB{}       // in a test, the *testing.T
	roll := func(r *dptest.Rand) int { // a fair die from fair bits
		v, c := 1, 0
		for {
			v, c = 2*v, 2*c
			if r.Bit() {
				c++
			}
			if v >= 6 {
				if c < 6 {
					return c
				}
				v, c = v-6, c-6
			}
		}
	}
	mod6 := func(r *dptest.Rand) int { // the bug
		v := 0
		for range 4 {
			v *= 2
			if r.Bit() {
				v++
			}
		}
		return v % 6
	}
	die := map[int]*big.Rat{}
	for face := range 6 {
		die[face] = big.NewRat(1, 6)
	}
	dptest.AssertSameDist(t, dptest.Sampler(roll, dptest.Budget{Depth: 12}), dptest.Exact(die))
	dptest.AssertSameDist(t, dptest.Sampler(mod6, dptest.Budget{}), dptest.Exact(die))
	// Output:
	// dptest.AssertSameDist: equal within the unexplored mass: no explored output contradicts (1 input); the total-variation distance is between 0 and 1/1024 ≈ 0.000976563 (unexplored mass 1/1024 ≈ 0.000976563 vs 0)
	// dptest.AssertSameDist: different: the total-variation distance is 1/12 ≈ 0.0833333
	// they differ most at output 4: 1/8 ≈ 0.125 vs 1/6 ≈ 0.166667
}
