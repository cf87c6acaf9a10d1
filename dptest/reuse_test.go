package dptest_test

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/dptest"
	"github.com/google/go-cmp/cmp"
)

// die is a fair die from rejection sampling of three bits.
func die(r *dptest.Rand) int {
	for {
		v := 0
		for range 3 {
			v *= 2
			if r.Bit() {
				v++
			}
		}
		if v >= 1 && v <= 6 {
			return v
		}
	}
}

// sumOf3 is the sum of three draws of sub, reused or not.
func sumOf3(sub func(*dptest.Rand) int, reuse bool) func(*dptest.Rand) int {
	return func(r *dptest.Rand) int {
		s := 0
		for range 3 {
			if reuse {
				s += dptest.Reuse(r, "sub", sub)
			} else {
				s += sub(r)
			}
		}
		return s
	}
}

// diceSums is the number of ways three dice sum to s, by counting.
func diceSums() map[int]int64 {
	n := map[int]int64{}
	for a := 1; a <= 6; a++ {
		for b := 1; b <= 6; b++ {
			for c := 1; c <= 6; c++ {
				n[a+b+c]++
			}
		}
	}
	return n
}

// TestReuseSameAsInline: with nothing cut, a reused sub-sampler gives the
// very distribution of the sampler that calls it inline, in fewer runs.
func TestReuseSameAsInline(t *testing.T) {
	ctx := context.Background()
	// Four paths to three outcomes, of unequal probabilities.
	sub := func(r *dptest.Rand) int {
		if r.Bernoulli(big.NewRat(1, 3)) {
			return r.IntN(2) + r.IntN(2)
		}
		return 1 + 2*r.IntN(2)
	}
	inline, err := dptest.Explore(ctx, sumOf3(sub, false), dptest.Budget{})
	if err != nil {
		t.Fatal(err)
	}
	reused, err := dptest.Explore(ctx, sumOf3(sub, true), dptest.Budget{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(inline.P, reused.P, ratCmp); diff != "" {
		t.Errorf("P (-inline +reused):\n%s", diff)
	}
	if inline.Unexplored.Sign() != 0 || reused.Unexplored.Sign() != 0 {
		t.Errorf("unexplored: inline %s, reused %s", inline.Unexplored.RatString(), reused.Unexplored.RatString())
	}
	// Inline: 6 paths three times; reused: 4 outcomes three times, after
	// the 6 runs of the sub-sampler.
	if inline.Runs != 216 || reused.Runs != 64 || reused.SubRuns != 6 || inline.Cut+reused.Cut != 0 {
		t.Errorf("runs: inline %d, reused %d + %d; cut %d, %d", inline.Runs, reused.Runs, reused.SubRuns, inline.Cut, reused.Cut)
	}
}

// TestReuseRejectionClosedForm: three dice from a reused rejection sampler
// cut at r rounds: each face has (1 − 4^−r)/6, so each sum s has
// N(s)·((1 − 4^−r)/6)³, and the reused choice's unexplored branch carries
// the rest.
func TestReuseRejectionClosedForm(t *testing.T) {
	const rounds = 10
	d, err := dptest.Explore(context.Background(), sumOf3(die, true), dptest.Budget{Depth: 3 * rounds})
	if err != nil {
		t.Fatal(err)
	}
	q := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), 2*rounds))
	q.Sub(big.NewRat(1, 1), q)
	q.Quo(q, big.NewRat(6, 1))
	q3 := new(big.Rat).Mul(q, new(big.Rat).Mul(q, q))
	want := map[int]*big.Rat{}
	for s, n := range diceSums() {
		want[s] = new(big.Rat).Mul(q3, big.NewRat(n, 1))
	}
	if diff := cmp.Diff(want, d.P, ratCmp); diff != "" {
		t.Errorf("P (-want +got):\n%s", diff)
	}
	u := new(big.Rat).Mul(q3, big.NewRat(216, 1))
	u.Sub(big.NewRat(1, 1), u)
	if d.Unexplored.Cmp(u) != 0 {
		t.Errorf("unexplored %s, want %s", d.Unexplored.RatString(), u.RatString())
	}
	// 6³ runs complete; 1 + 6 + 36 take the unexplored branch. The die
	// completes 6 runs in each round of 2^(k−1) prefixes and is cut at the
	// 2^rounds prefixes left.
	if d.Runs != 216 || d.Cut != 43 || d.SubRuns != 6*(1<<rounds-1)+1<<rounds {
		t.Errorf("%d runs, %d cut, %d sub-runs", d.Runs, d.Cut, d.SubRuns)
	}
}

// TestReuseSoundWithCuts: with runs cut at MinProb, the reused and the
// inline sampler are both sound (each explored mass is at most the true
// probability, N(s)/216), the reused one explores at least the inline
// one's mass of every output, and far more in all, in fewer runs.
func TestReuseSoundWithCuts(t *testing.T) {
	ctx := context.Background()
	b := dptest.Budget{MinProb: big.NewRat(1, 1<<20)}
	inline, err := dptest.Explore(ctx, sumOf3(die, false), b)
	if err != nil {
		t.Fatal(err)
	}
	reused, err := dptest.Explore(ctx, sumOf3(die, true), b)
	if err != nil {
		t.Fatal(err)
	}
	for s, n := range diceSums() {
		truth := big.NewRat(n, 216)
		for name, d := range map[string]*dptest.Dist[int]{"inline": inline, "reused": reused} {
			if p := d.P[s]; p == nil || p.Cmp(truth) > 0 {
				t.Errorf("%s: Pr(%d) = %v > %s", name, s, p, truth.RatString())
			}
		}
		if reused.P[s].Cmp(inline.P[s]) < 0 {
			t.Errorf("Pr(%d): reused %s < inline %s", s, reused.P[s].RatString(), inline.P[s].RatString())
		}
	}
	for name, d := range map[string]*dptest.Dist[int]{"inline": inline, "reused": reused} {
		sum := new(big.Rat).Set(d.Unexplored)
		for _, p := range d.P {
			sum.Add(sum, p)
		}
		if sum.Cmp(big.NewRat(1, 1)) != 0 {
			t.Errorf("%s: the masses sum to %s", name, sum.RatString())
		}
	}
	// The inline sampler keeps the runs of up to 6 rounds (2^−18) in all,
	// the reused one up to 6 rounds per die: 3·4^−6 unexplored, against
	// 0.0376.
	face := new(big.Rat).Sub(big.NewRat(1, 1), big.NewRat(1, 1<<12)) // a die's explored mass
	if u := new(big.Rat).Sub(big.NewRat(1, 1), new(big.Rat).Mul(face, new(big.Rat).Mul(face, face))); reused.Unexplored.Cmp(u) != 0 {
		t.Errorf("reused: unexplored %s, want 1 − (1 − 4^−6)³ = %s", reused.Unexplored.RatString(), u.RatString())
	}
	if f := new(big.Rat).Mul(reused.Unexplored, big.NewRat(50, 1)); f.Cmp(inline.Unexplored) > 0 {
		t.Errorf("unexplored: reused %s, inline %s", reused.Unexplored.FloatString(12), inline.Unexplored.FloatString(12))
	}
	if reused.Runs+reused.Cut+reused.SubRuns >= inline.Runs+inline.Cut {
		t.Errorf("runs: reused %d + %d + %d, inline %d + %d", reused.Runs, reused.Cut, reused.SubRuns, inline.Runs, inline.Cut)
	}
	t.Logf("inline: %d runs, unexplored %s; reused: %d runs, unexplored %s", inline.Runs+inline.Cut, inline.Unexplored.FloatString(12), reused.Runs+reused.Cut+reused.SubRuns, reused.Unexplored.FloatString(12))
}

// TestReuseNested: a sub-sampler may reuse others; the distribution is
// that of the inline sampler.
func TestReuseNested(t *testing.T) {
	ctx := context.Background()
	coin := func(r *dptest.Rand) int { return r.IntN(2) }
	pair := func(reuse bool) func(*dptest.Rand) int {
		return func(r *dptest.Rand) int {
			if reuse {
				return dptest.Reuse(r, "coin", coin) + dptest.Reuse(r, "coin", coin)
			}
			return coin(r) + coin(r)
		}
	}
	outer := func(reuse bool) func(*dptest.Rand) int {
		return func(r *dptest.Rand) int {
			if reuse {
				return 10*dptest.Reuse(r, "pair", pair(true)) + dptest.Reuse(r, "pair", pair(true))
			}
			return 10*pair(false)(r) + pair(false)(r)
		}
	}
	inline, err := dptest.Explore(ctx, outer(false), dptest.Budget{})
	if err != nil {
		t.Fatal(err)
	}
	reused, err := dptest.Explore(ctx, outer(true), dptest.Budget{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(inline.P, reused.P, ratCmp); diff != "" || reused.Unexplored.Sign() != 0 {
		t.Errorf("P (-inline +reused):\n%s", diff)
	}
	// pair: 2·2 runs of coin's 2 outcomes, after coin's 2 runs; outer: 3·3.
	if inline.Runs != 16 || reused.Runs != 9 || reused.SubRuns != 2+4 {
		t.Errorf("runs: inline %d, reused %d + %d", inline.Runs, reused.Runs, reused.SubRuns)
	}
}

// TestReuseNothingExplored: a sub-sampler whose every run is cut leaves
// one branch, its unexplored mass, which cuts the run.
func TestReuseNothingExplored(t *testing.T) {
	d, err := dptest.Explore(context.Background(), func(r *dptest.Rand) bool {
		if r.Bit() {
			return dptest.Reuse(r, "deep", func(r *dptest.Rand) bool { return r.Bit() && r.Bit() && r.Bit() })
		}
		return true
	}, dptest.Budget{Depth: 2})
	if err != nil {
		t.Fatal(err)
	}
	// The sub-sampler completes its runs Bit()=0 and Bit()=1, Bit()=0
	// (3/4, false) and is cut at 1/4.
	want := map[bool]*big.Rat{true: r("1/2"), false: r("3/8")}
	if diff := cmp.Diff(want, d.P, ratCmp); diff != "" || d.Unexplored.Cmp(r("1/8")) != 0 || d.Cut != 1 || d.Runs != 2 {
		t.Errorf("P (-want +got):\n%s\nunexplored %s, %d runs, %d cut", diff, d.Unexplored.RatString(), d.Runs, d.Cut)
	}
	d, err = dptest.Explore(context.Background(), func(r *dptest.Rand) bool {
		return dptest.Reuse(r, "deep", func(r *dptest.Rand) bool { return r.Bit() && r.Bit() || r.Bit() })
	}, dptest.Budget{Depth: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.P) != 0 || d.Unexplored.Cmp(r("1")) != 0 || d.Cut != 1 || d.Runs != 0 {
		t.Errorf("P %v, unexplored %s, %d runs, %d cut", d.P, d.Unexplored.RatString(), d.Runs, d.Cut)
	}
}

// TestReuseErrors: misuses of Reuse, and the errors of its sub-sampler,
// name the choices that led to them.
func TestReuseErrors(t *testing.T) {
	ctx := context.Background()
	coin := func(r *dptest.Rand) int { return r.IntN(2) }
	runs := 0
	_, err := dptest.Explore(ctx, func(r *dptest.Rand) int {
		runs++
		key := "a"
		if runs > 1 {
			key = "b"
		}
		return dptest.Reuse(r, key, coin)
	}, dptest.Budget{})
	var ne *dptest.NondeterminismError
	if !errors.As(err, &ne) || ne.Choices != "(none)" || ne.Want != "Reuse(a)" || ne.Got != "Reuse(b)" {
		t.Errorf("another key at the same position: %v", err)
	}

	_, err = dptest.Explore(ctx, func(r *dptest.Rand) bool {
		return dptest.Reuse(r, "k", coin) == 1 && dptest.Reuse(r, "k", func(r *dptest.Rand) bool { return r.Bit() })
	}, dptest.Budget{})
	var me *dptest.MisuseError
	if !errors.As(err, &me) || !strings.Contains(me.What, "Reuse(k) was called for sub-samplers of types int and bool") || me.Choices != "Reuse(k)=1" {
		t.Errorf("one key, two types: %v", err)
	}

	var self func(r *dptest.Rand) int
	self = func(r *dptest.Rand) int { return dptest.Reuse(r, "self", self) }
	_, err = dptest.Explore(ctx, func(r *dptest.Rand) int { return r.IntN(3) + self(r) }, dptest.Budget{})
	if !errors.As(err, &me) || !strings.Contains(me.What, "Reuse(self) was called within its own sub-sampler") || me.Choices != "IntN(3)=0, then in the sub-sampler of Reuse(self): (none)" {
		t.Errorf("a sub-sampler that reuses itself: %v", err)
	}

	_, err = dptest.Explore(ctx, func(r *dptest.Rand) bool {
		return r.Bit() && dptest.Reuse(r, "k", func(*dptest.Rand) bool { return r.Bit() })
	}, dptest.Budget{})
	if !errors.As(err, &me) || !strings.Contains(me.What, "used its own Rand inside a sub-sampler of Reuse") || me.Choices != "Bit()=1" {
		t.Errorf("a sub-sampler that uses the outer Rand: %v", err)
	}

	_, err = dptest.Explore(ctx, func(r *dptest.Rand) int {
		return r.IntN(2) + dptest.Reuse(r, "boom", func(r *dptest.Rand) int {
			if r.Bit() && r.Bernoulli(big.NewRat(2, 3)) {
				panic("boom")
			}
			return 0
		})
	}, dptest.Budget{})
	var pe *dptest.PanicError
	if !errors.As(err, &pe) || pe.Value != "boom" || pe.Choices != "IntN(2)=0, then in the sub-sampler of Reuse(boom): Bit()=1, Bernoulli(2/3)=true" {
		t.Errorf("a sub-sampler that panics: %v", err)
	}

	_, err = dptest.Explore(ctx, func(r *dptest.Rand) int {
		if v := dptest.Reuse(r, "die", die); v == 6 && r.Bit() {
			panic("six")
		}
		return 0
	}, dptest.Budget{Depth: 12})
	if !errors.As(err, &pe) || pe.Value != "six" || pe.Choices != "Reuse(die)=6, Bit()=1" {
		t.Errorf("a panic after a reused choice: %v", err)
	}
}

// TestReuseOrder: a reused choice tries its outcomes in decreasing
// probability, so that once one is below MinProb, the others are cut at
// once.
func TestReuseOrder(t *testing.T) {
	sub := func(r *dptest.Rand) int { // 0..999 first found, 1/2000 each; 1000 has 1/2
		if !r.Bit() {
			return r.IntN(1000)
		}
		return 1000
	}
	var first []int
	calls := 0
	d, err := dptest.Explore(context.Background(), func(r *dptest.Rand) int {
		calls++
		a, b := dptest.Reuse(r, "sub", sub), dptest.Reuse(r, "sub", sub)
		if first == nil {
			first = []int{a, b}
		}
		return a + b
	}, dptest.Budget{MinProb: r("1/3000")})
	if err != nil {
		t.Fatal(err)
	}
	// (1000, 1000) completes; (x, y) is cut for every other pair: run
	// once for each x (y = 1000 then all others at once), not for each y.
	if diff := cmp.Diff(map[int]*big.Rat{2000: r("1/4")}, d.P, ratCmp); diff != "" || d.Unexplored.Cmp(r("3/4")) != 0 {
		t.Errorf("P (-want +got):\n%s\nunexplored %s", diff, d.Unexplored.RatString())
	}
	// The first pass, at 2^−8, runs (1000, 1000) twice (to check its
	// output) and cuts the rest at once; the pass at MinProb as above.
	if cmp.Diff([]int{1000, 1000}, first) != "" || calls != 2+1+1000 || d.Runs != 1 || d.Cut != 1000+1000+1000*1000 {
		t.Errorf("first run %v, %d calls, %d runs, %d cut", first, calls, d.Runs, d.Cut)
	}
}
