package param

import (
	"math/big"
	"math/rand"
	"testing"

	"github.com/dpcheck/dpcheck/poly"
	"github.com/google/go-cmp/cmp"
)

// TestRootFree checks poly.RootFree against Sturm root isolation (poly.Roots):
// it may answer false for a polynomial without a root, never true for one
// with a root in the open interval; and it proves the easy cases.
func TestRootFree(t *testing.T) {
	lim := poly.Limits{}
	ratp := func(cs ...*big.Rat) poly.Poly { return poly.New(cs...) }
	// (α − 1/3)(α − 2/3) = α² − α + 2/9 and (α − 1/2)² + 1/1000.
	two := ratp(r(2, 9), r(-1, 1), r(1, 1))
	near := ratp(r(251, 1000), r(-1, 1), r(1, 1))
	cases := []struct {
		p      poly.Poly
		lo, hi *big.Rat
		want   bool
	}{
		{two, r(0, 1), r(1, 1), false},
		{two, r(0, 1), r(1, 4), true},
		{two, r(1, 3), r(2, 3), true}, // roots at both (open) ends only
		{two, r(2, 5), r(1, 2), true},
		{near, r(0, 1), r(1, 1), true}, // two complex roots near 1/2: needs bisection
		{poly.FromInts(-1, 1), r(0, 1), r(1, 1), true},
		{poly.FromInts(-1, 2), r(0, 1), r(1, 1), false},
		{poly.FromInts(3), r(-5, 1), r(5, 1), true},
	}
	for _, c := range cases {
		got, err := poly.RootFree(ctx, c.p, c.lo, c.hi)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("RootFree(%s, (%s, %s)) = %v, want %v", c.p, c.lo.RatString(), c.hi.RatString(), got, c.want)
		}
	}
	rng := rand.New(rand.NewSource(7))
	proved := 0
	for range 2000 {
		cs := make([]int64, 1+rng.Intn(7))
		for i := range cs {
			cs[i] = int64(rng.Intn(21) - 10)
		}
		p := poly.FromInts(cs...)
		if p.IsZero() {
			continue
		}
		lo := r(int64(rng.Intn(9)-4), int64(1+rng.Intn(4)))
		hi := new(big.Rat).Add(lo, r(int64(1+rng.Intn(8)), int64(1+rng.Intn(4))))
		free, err := poly.RootFree(ctx, p, lo, hi)
		if err != nil {
			t.Fatal(err)
		}
		if !free {
			continue
		}
		proved++
		if p.Degree() == 0 {
			continue
		}
		rs, err := lim.Roots(ctx, p, poly.Open(lo, hi))
		if err != nil {
			t.Fatal(err)
		}
		if len(rs) > 0 {
			t.Fatalf("RootFree(%s, (%s, %s)) = true, but it has the root %s there", p, lo.RatString(), hi.RatString(), rs[0])
		}
	}
	if proved < 500 {
		t.Errorf("RootFree proved only %d of 2000 random cases", proved)
	}
}

// TestPruneKeepsEnvelope: the sweep over the pruned candidates gives
// exactly the pieces of the sweep over all of them, on random rational
// functions positive on each interval, and pruning drops some.
func TestPruneKeepsEnvelope(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	dropped := 0
	for _, ri := range randIntervals() {
		wk := weightKind{below: ri.below, zero: ri.in.Lo.Sign() == 0 && !ri.in.LoOpen}
		for range 5 {
			a := &Analysis{c: &Chain{Param: "α", Interval: ri.in}}
			idx := newIndex()
			var cands []poly.RatFunc
			for range 40 {
				f := randWeight(t, rng, wk)
				if _, fresh := idx.add(f); fresh {
					cands = append(cands, f)
				}
			}
			pruned, err := a.prune(ctx, cands)
			if err != nil {
				t.Fatal(err)
			}
			dropped += len(cands) - len(pruned)
			lo, hi := poly.Rational(ri.in.Lo), poly.Rational(ri.in.Hi)
			want, err := (&sweeper{a: a, cands: cands, roots: map[[2]int][]poly.Algebraic{}}).sweep(ctx, lo, hi)
			if err != nil {
				t.Fatal(err)
			}
			got, err := (&sweeper{a: a, cands: pruned, roots: map[[2]int][]poly.Algebraic{}}).sweep(ctx, lo, hi)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want, got, exactCmp); d != "" {
				t.Fatalf("on %s, %d candidates pruned to %d: the envelope changed (-all +pruned):\n%s", ri.in, len(cands), len(pruned), d)
			}
		}
	}
	if dropped == 0 {
		t.Error("prune dropped no candidate")
	}
}
