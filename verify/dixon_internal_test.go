package verify

import (
	"context"
	"errors"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var ratComparer = cmp.Comparer(func(x, y *big.Rat) bool { return x.Cmp(y) == 0 })

// randomSystem is I − Q for a random substochastic Q over k states that
// leaves with positive probability from each, dense when dense is set
// (every state reaches a third of the others), and a right-hand side over
// outs columns whose entries have unrelated denominators, as the values
// of earlier components do.
func randomSystem(r *rand.Rand, k, outs int, dense bool) (a, b []sparse) {
	a, b = make([]sparse, k), make([]sparse, k)
	for i := range k {
		fan := 1 + r.IntN(3)
		if dense {
			fan = k / 3
		}
		weights := map[int]int64{}
		total := int64(1 + r.IntN(5)) // the weight of leaving
		for range fan {
			w := int64(1 + r.IntN(9))
			weights[r.IntN(k)] += w
			total += w
		}
		a[i] = sparse{i: big.NewRat(1, 1)}
		for c, w := range weights {
			addTo(a[i], c, big.NewRat(w, total), -1)
		}
		b[i] = sparse{}
		for range 1 + r.IntN(outs) {
			addTo(b[i], r.IntN(outs)*3, big.NewRat(int64(r.IntN(50)), int64(1+r.IntN(1000))), +1)
		}
	}
	return a, b
}

func clone(v []sparse) []sparse {
	out := make([]sparse, len(v))
	for i, row := range v {
		out[i] = sparse{}
		for c, x := range row {
			out[i][c] = x
		}
	}
	return out
}

// TestDixonAgainstElimination: on random systems, sparse and dense, with
// one and several right-hand columns, lifting gives exactly what
// elimination over the rationals gives, and leaves its inputs as they
// were.
func TestDixonAgainstElimination(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	ctx := context.Background()
	for trial := range 40 {
		k := 2 + r.IntN(70)
		a, b := randomSystem(r, k, 1+r.IntN(4), trial%2 == 0)
		a0, b0 := clone(a), clone(b)
		got, ok, err := solveDixon(ctx, a, b)
		if err != nil || !ok {
			t.Fatalf("trial %d (k = %d): ok = %v, err = %v", trial, k, ok, err)
		}
		if d := cmp.Diff(a0, a, ratComparer); d != "" {
			t.Fatalf("trial %d: solveDixon modified a:\n%s", trial, d)
		}
		if d := cmp.Diff(b0, b, ratComparer); d != "" {
			t.Fatalf("trial %d: solveDixon modified b:\n%s", trial, d)
		}
		want, err := eliminate(ctx, a, b)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got, ratComparer); d != "" {
			t.Fatalf("trial %d (k = %d): (-elimination +lifting):\n%s", trial, k, d)
		}
	}
}

// TestDixonSingularModPrime: a matrix whose determinant the first prime
// divides is factored modulo the next, and the solution is still exact.
func TestDixonSingularModPrime(t *testing.T) {
	p := int64(dixonPrimes[0])
	// det = p·1 − 1·0: [[p, 1], [0, 1]] scaled to a system with x = (1/p·(3 − 2), 2)
	a := []sparse{{0: big.NewRat(p, 1), 1: big.NewRat(1, 1)}, {1: big.NewRat(1, 1)}}
	b := []sparse{{0: big.NewRat(3, 1)}, {0: big.NewRat(2, 1)}}
	if _, ok, _ := factorMod(context.Background(), [][]intEntry{{{0, big.NewInt(p)}, {1, big.NewInt(1)}}, {{1, big.NewInt(1)}}}, newModPrime(uint64(p))); ok {
		t.Fatal("factored a matrix singular modulo p")
	}
	x, ok, err := solveDixon(context.Background(), a, b)
	if err != nil || !ok {
		t.Fatalf("ok = %v, err = %v", ok, err)
	}
	want := []sparse{{0: big.NewRat(1, p)}, {0: big.NewRat(2, 1)}}
	if d := cmp.Diff(want, x, ratComparer); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
}

// TestDixonPivot: a zero pivot modulo the prime, in a matrix that is not
// singular there, is taken from a row below.
func TestDixonPivot(t *testing.T) {
	p := int64(dixonPrimes[0])
	// [[p, 1], [1, 1]]·x = (1, 0): x = (1/(p−1), −1/(p−1)).
	a := []sparse{{0: big.NewRat(p, 1), 1: big.NewRat(1, 1)}, {0: big.NewRat(1, 1), 1: big.NewRat(1, 1)}}
	b := []sparse{{5: big.NewRat(1, 1)}, {}}
	x, ok, err := solveDixon(context.Background(), a, b)
	if err != nil || !ok {
		t.Fatalf("ok = %v, err = %v", ok, err)
	}
	want := []sparse{{5: big.NewRat(1, p-1)}, {5: big.NewRat(-1, p-1)}}
	if d := cmp.Diff(want, x, ratComparer); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
}

// TestReconstructChecks: digits too few for the solution can still read
// back as some small fraction; the exact check refuses it.
func TestReconstructChecks(t *testing.T) {
	// x = n/d with n, d of 200 bits; 2 digits (62 bits) cannot hold it.
	n := new(big.Int).Add(new(big.Int).Lsh(big.NewInt(1), 200), big.NewInt(12345))
	d := new(big.Int).Add(new(big.Int).Lsh(big.NewInt(1), 199), big.NewInt(777))
	target := new(big.Rat).SetFrac(n, d)
	ai := [][]intEntry{{{0, big.NewInt(1)}}}
	pp := big.NewInt(int64(dixonPrimes[0]))
	M := new(big.Int).Mul(pp, pp)
	rejected := 0
	for shift := range int64(50) {
		tg := new(big.Rat).Add(target, big.NewRat(shift, 1))
		u := new(big.Int).Mul(tg.Num(), new(big.Int).ModInverse(tg.Denom(), M))
		u.Mod(u, M)
		if _, _, ok := ratRecon(u, M, new(big.Int).Sqrt(new(big.Int).Rsh(M, 1))); !ok {
			continue // no small fraction: nothing to check
		}
		resid := []residue{{target: tg}}
		if x, ok, _ := reconstruct(context.Background(), ai, resid, []big.Int{*u}, M, []int{0}, 1, 1); ok {
			t.Fatalf("accepted %v for %s", x, tg.RatString())
		}
		rejected++
	}
	if rejected == 0 {
		t.Fatal("no residue read back as a small fraction: the test checks nothing")
	}
}

// TestDixonBigValues: right-hand sides of hundreds of bits with unrelated
// denominators (the values of components solved before) are lifted
// through to the exact solution.
func TestDixonBigValues(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	a, b := randomSystem(r, 50, 2, true)
	huge := new(big.Int).Lsh(big.NewInt(1), 200)
	for i := range b {
		for c, v := range b[i] {
			n := new(big.Int).Add(huge, big.NewInt(int64(i)))
			b[i][c] = new(big.Rat).Mul(v, new(big.Rat).SetFrac(n, new(big.Int).Add(huge, big.NewInt(int64(2*i+1)))))
		}
	}
	got, ok, err := solveDixon(context.Background(), a, b)
	if err != nil || !ok {
		t.Fatalf("ok = %v, err = %v", ok, err)
	}
	want, err := eliminate(context.Background(), clone(a), clone(b))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got, ratComparer); d != "" {
		t.Fatalf("(-elimination +lifting):\n%s", d)
	}
}

// TestDixonCancel: lifting stops when its context ends.
func TestDixonCancel(t *testing.T) {
	a, b := randomSystem(rand.New(rand.NewPCG(1, 1)), 100, 1, true)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := solveDixon(ctx, a, b); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

// TestWantsDixon: a banded system (a random walk) is left to elimination,
// whatever its size; a dense one of at least dixonMinStates states is
// lifted.
func TestWantsDixon(t *testing.T) {
	walk := func(k int) []sparse {
		a := make([]sparse, k)
		for i := range k {
			a[i] = sparse{i: big.NewRat(1, 1)}
			if i > 0 {
				a[i][i-1] = big.NewRat(-1, 3)
			}
			if i+1 < k {
				a[i][i+1] = big.NewRat(-1, 3)
			}
		}
		return a
	}
	if wantsDixon(walk(5000)) {
		t.Error("a random walk of 5000 states is lifted")
	}
	r := rand.New(rand.NewPCG(3, 4))
	if a, _ := randomSystem(r, dixonMinStates, 1, true); !wantsDixon(a) {
		t.Errorf("a dense system of %d states is not lifted", dixonMinStates)
	}
	if a, _ := randomSystem(r, dixonMinStates-1, 1, true); wantsDixon(a) {
		t.Errorf("a system of %d states is lifted", dixonMinStates-1)
	}
}

// TestRatRecon: n/d is found back from n·d⁻¹ mod M when |n|, d ≤ √(M/2),
// and a residue with no such fraction is declined.
func TestRatRecon(t *testing.T) {
	M := new(big.Int).Exp(big.NewInt(int64(dixonPrimes[0])), big.NewInt(4), nil)
	bound := new(big.Int).Sqrt(new(big.Int).Rsh(M, 1))
	r := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		n := randBelow(r, bound)
		if r.IntN(2) == 0 {
			n.Neg(n)
		}
		d := new(big.Int).Add(randBelow(r, bound), big.NewInt(1))
		if d.Cmp(bound) > 0 {
			d.Set(bound)
		}
		g := new(big.Int).GCD(nil, nil, new(big.Int).Abs(n), d)
		if n.Sign() != 0 {
			n.Quo(n, g)
			d.Quo(d, g)
		}
		u := new(big.Int).Mul(n, new(big.Int).ModInverse(d, M))
		u.Mod(u, M)
		if n.Sign() == 0 {
			continue
		}
		gn, gd, ok := ratRecon(u, M, bound)
		if !ok || gn.Cmp(n) != 0 || gd.Cmp(d) != 0 {
			t.Fatalf("ratRecon(%s/%s) = %v/%v, %v", n, d, gn, gd, ok)
		}
	}
	// M/2 + a little: its fraction would need a numerator and a denominator
	// both near √M.
	u := new(big.Int).Add(new(big.Int).Rsh(M, 1), big.NewInt(12345))
	if n, d, ok := ratRecon(u, M, big.NewInt(1000)); ok {
		t.Errorf("ratRecon of a residue with no small fraction: %v/%v", n, d)
	}
}

// randBelow returns a random integer in [0, n), of a random size.
func randBelow(r *rand.Rand, n *big.Int) *big.Int {
	buf := make([]byte, 1+r.IntN((n.BitLen()+7)/8))
	for i := range buf {
		buf[i] = byte(r.Uint32())
	}
	return new(big.Int).Mod(new(big.Int).SetBytes(buf), n)
}

// TestRatSum: sums over a common denominator equal big.Rat's, whatever
// the denominators (equal, dividing, unrelated) and signs.
func TestRatSum(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	dens := []int64{1, 2, 4, 8, 3, 6, 7, 1024, 999983}
	for range 500 {
		var s ratSum
		want := new(big.Rat)
		for range r.IntN(12) {
			x := big.NewRat(int64(r.IntN(2001)-1000), dens[r.IntN(len(dens))]*int64(1+r.IntN(3)))
			s.add(x)
			want.Add(want, x)
		}
		if got := s.rat(); got.Cmp(want) != 0 {
			t.Fatalf("sum %s, want %s", got.RatString(), want.RatString())
		}
	}
}

// FuzzDixon: on systems drawn from the fuzzer's seed, of any size up to
// 90 and any density, lifting gives what elimination gives (it never
// gives up on these: their determinants are not divisible by all five
// primes, and its bound on the digits suffices).
//
//	go test ./verify -run '^$' -fuzz FuzzDixon -fuzztime 5m
func FuzzDixon(f *testing.F) {
	f.Add(uint64(1), uint8(10), uint8(2), true)
	f.Add(uint64(2), uint8(60), uint8(1), false)
	f.Add(uint64(3), uint8(49), uint8(3), true)
	f.Fuzz(func(t *testing.T, seed uint64, k, outs uint8, dense bool) {
		n := 1 + int(k)%90
		r := rand.New(rand.NewPCG(seed, uint64(k)))
		a, b := randomSystem(r, n, 1+int(outs)%4, dense)
		got, ok, err := solveDixon(context.Background(), a, b)
		if err != nil {
			t.Fatal(err)
		}
		want, err := eliminate(context.Background(), clone(a), clone(b))
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			t.Fatalf("k = %d: lifting gave up on a non-singular system", n)
		}
		if d := cmp.Diff(want, got, ratComparer); d != "" {
			t.Fatalf("k = %d: (-elimination +lifting):\n%s", n, d)
		}
	})
}

// countdown is a context that ends at its n-th look.
type countdown struct {
	context.Context
	n int
}

func (c *countdown) Err() error {
	if c.n--; c.n <= 0 {
		return context.Canceled
	}
	return nil
}

// TestEliminateStopsWithinABlock: elimination over the rationals looks at
// its context within a block, not only between blocks of rows — a dense
// block of thousands of states takes minutes per 64 rows — and so does
// the MDP-facing lifting.
func TestEliminateStopsWithinABlock(t *testing.T) {
	a, b := randomSystem(rand.New(rand.NewPCG(5, 5)), 60, 1, true)
	ctx := &countdown{Context: context.Background(), n: 3}
	if _, err := eliminate(ctx, clone(a), clone(b)); !errors.Is(err, context.Canceled) {
		t.Errorf("elimination of 60 dense rows looked at its context fewer than 3 times: %v", err)
	}
	ctx = &countdown{Context: context.Background(), n: 3}
	if _, _, err := solveDixon(ctx, a, b); !errors.Is(err, context.Canceled) {
		t.Errorf("lifting looked at its context fewer than 3 times: %v", err)
	}
}
