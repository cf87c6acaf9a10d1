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

var ratCmp = cmp.Comparer(func(x, y *big.Rat) bool { return x.Cmp(y) == 0 })

func r(s string) *big.Rat {
	x, ok := new(big.Rat).SetString(s)
	if !ok {
		panic(s)
	}
	return x
}

// TestExploreFiniteTree: every run of a sampler with finitely many runs is
// explored, each with its exact probability.
func TestExploreFiniteTree(t *testing.T) {
	ctx := context.Background()
	d, err := dptest.Explore(ctx, func(r *dptest.Rand) int {
		if r.Bernoulli(big.NewRat(1, 3)) {
			return r.IntN(3)
		}
		if r.Bit() {
			return 10
		}
		return 3 + r.IntN(2)
	}, dptest.Budget{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]*big.Rat{0: r("1/9"), 1: r("1/9"), 2: r("1/9"), 10: r("1/3"), 3: r("1/6"), 4: r("1/6")}
	if diff := cmp.Diff(want, d.P, ratCmp); diff != "" || d.Unexplored.Sign() != 0 || d.Runs != 6 || d.Cut != 0 {
		t.Errorf("P (-want +got):\n%s\nunexplored %s, %d runs, %d cut", diff, d.Unexplored.RatString(), d.Runs, d.Cut)
	}
}

// TestExploreRejection: a fair die from rejection sampling of three bits
// is uniform, within an unexplored mass of exactly (1/4)^k after k rounds.
func TestExploreRejection(t *testing.T) {
	die := func(r *dptest.Rand) int {
		for {
			v := 0
			for range 3 {
				v = 2*v + map[bool]int{false: 0, true: 1}[r.Bit()]
			}
			if v >= 1 && v <= 6 {
				return v
			}
		}
	}
	for _, depth := range []int{3, 6, 30} {
		d, err := dptest.Explore(context.Background(), die, dptest.Budget{Depth: depth})
		if err != nil {
			t.Fatal(err)
		}
		rounds := int64(depth / 3)
		u := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(4), big.NewInt(rounds), nil))
		face := new(big.Rat).Sub(ratOne(), u)
		face.Quo(face, big.NewRat(6, 1))
		for v := 1; v <= 6; v++ {
			if d.P[v] == nil || d.P[v].Cmp(face) != 0 {
				t.Errorf("depth %d: Pr(%d) = %v, want %s", depth, v, d.P[v], face.RatString())
			}
		}
		if d.Unexplored.Cmp(u) != 0 {
			t.Errorf("depth %d: unexplored %s, want %s", depth, d.Unexplored.RatString(), u.RatString())
		}
	}
}

func ratOne() *big.Rat { return big.NewRat(1, 1) }

// TestExploreNondeterminism: a sampler that reads state outside its Rand
// is caught, with the choices that led there.
func TestExploreNondeterminism(t *testing.T) {
	calls := 0
	_, err := dptest.Explore(context.Background(), func(r *dptest.Rand) int {
		calls++
		if calls == 2 {
			return r.IntN(3)
		}
		return r.IntN(2)
	}, dptest.Budget{})
	var ne *dptest.NondeterminismError
	if !errors.As(err, &ne) || ne.Want != "IntN(2)" || ne.Got != "IntN(3)" || ne.Choices != "(none)" {
		t.Fatalf("err = %v", err)
	}
}

// TestExplorePanic: a panic of the sampler is an error with its choices.
func TestExplorePanic(t *testing.T) {
	_, err := dptest.Explore(context.Background(), func(r *dptest.Rand) int {
		if r.Bit() && r.IntN(4) == 3 {
			panic("boom")
		}
		return 0
	}, dptest.Budget{})
	var pe *dptest.PanicError
	if !errors.As(err, &pe) || pe.Choices != "Bit()=1, IntN(4)=3" || pe.Value != "boom" {
		t.Fatalf("err = %v", err)
	}
}

// geometric counts the Bit()=1 before the first Bit()=0.
func geometric(r *dptest.Rand) int {
	n := 0
	for r.Bit() {
		n++
	}
	return n
}

// pow2 is 2^−k.
func pow2(k int) *big.Rat {
	return new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), uint(k)))
}

// TestExploreBudgets: each budget cuts where it says, the unexplored mass
// is exactly what it cut, and Runs and Cut count the runs.
func TestExploreBudgets(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name      string
		b         dptest.Budget
		n         int // outputs 0..n−1 explored
		runs, cut int64
	}{
		// The run that asks for choice 301 is cut: Pr(n) = 2^−(n+1) for
		// n < 300, far beyond 64 bits of exponent.
		{"depth", dptest.Budget{Depth: 300}, 300, 300, 1},
		// 2^−11 < MinProb = 2^−10: the runs 0..9 complete, Bit()=1 ten
		// times then Bit()=0 is cut, and Bit()=1 is cut without a run.
		{"min prob", dptest.Budget{MinProb: pow2(10)}, 10, 10, 2},
		// 5 runs: 4 complete, the fifth is cut.
		{"runs", dptest.Budget{Runs: 5, Depth: 4}, 4, 4, 1},
		{"runs limit first", dptest.Budget{Runs: 3}, 3, 3, 0},
	} {
		d, err := dptest.Explore(ctx, geometric, c.b)
		if err != nil {
			t.Fatal(err)
		}
		want := map[int]*big.Rat{}
		for k := range c.n {
			want[k] = pow2(k + 1)
		}
		if diff := cmp.Diff(want, d.P, ratCmp); diff != "" {
			t.Errorf("%s: P (-want +got):\n%s", c.name, diff)
		}
		if u := pow2(c.n); d.Unexplored.Cmp(u) != 0 || d.Runs != c.runs || d.Cut != c.cut {
			t.Errorf("%s: unexplored %s (want %s), %d runs (want %d), %d cut (want %d)", c.name, d.Unexplored.RatString(), u.RatString(), d.Runs, c.runs, d.Cut, c.cut)
		}
	}
}

// TestExploreMinProbSiblings: when a uniform choice's branch is below
// MinProb, so are its others: they count as cut runs without being run.
func TestExploreMinProbSiblings(t *testing.T) {
	calls := 0
	d, err := dptest.Explore(context.Background(), func(r *dptest.Rand) int {
		calls++
		if r.Bit() {
			return 1 << 40
		}
		return r.IntN(1 << 40)
	}, dptest.Budget{MinProb: r("1/1000")})
	if err != nil {
		t.Fatal(err)
	}
	// Two passes (at 2^−8, then at MinProb) of two calls each, and the
	// completed run run once more to check its output.
	if calls != 5 || d.Runs != 1 || d.Cut != 1<<40 || d.Unexplored.Cmp(r("1/2")) != 0 {
		t.Errorf("%d calls, %d runs, %d cut, unexplored %s", calls, d.Runs, d.Cut, d.Unexplored.RatString())
	}
	// They do not count against Runs, which bounds the runs run.
	d, err = dptest.Explore(context.Background(), func(r *dptest.Rand) int { return r.IntN(1 << 40) }, dptest.Budget{MinProb: r("1/1000"), Runs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if d.Runs != 0 || d.Cut != 1<<40 || d.Unexplored.Cmp(r("1")) != 0 {
		t.Errorf("%d runs, %d cut, unexplored %s", d.Runs, d.Cut, d.Unexplored.RatString())
	}
}

// TestExploreBernoulli: Bernoulli(0) and Bernoulli(1) have one branch; p
// is copied, so that the sampler may change it; big rationals are exact.
func TestExploreBernoulli(t *testing.T) {
	p := big.NewRat(1, 3)
	huge := r("123456789012345678901234567890/987654321098765432109876543210")
	d, err := dptest.Explore(context.Background(), func(r *dptest.Rand) string {
		p.SetFrac64(1, 3)
		a := r.Bernoulli(p)
		p.SetInt64(7) // not the sampler's p any more
		if r.Bernoulli(big.NewRat(0, 1)) || !r.Bernoulli(big.NewRat(1, 1)) {
			return "impossible"
		}
		if a {
			return "a"
		}
		if r.Bernoulli(huge) {
			return "huge"
		}
		return "not huge"
	}, dptest.Budget{})
	if err != nil {
		t.Fatal(err)
	}
	notHuge := new(big.Rat).Sub(ratOne(), huge)
	want := map[string]*big.Rat{
		"a":        r("1/3"),
		"huge":     new(big.Rat).Mul(r("2/3"), huge),
		"not huge": new(big.Rat).Mul(r("2/3"), notHuge),
	}
	if diff := cmp.Diff(want, d.P, ratCmp); diff != "" || d.Unexplored.Sign() != 0 || d.Runs != 3 {
		t.Errorf("P (-want +got):\n%s\nunexplored %s, %d runs", diff, d.Unexplored.RatString(), d.Runs)
	}
	for _, bad := range []*big.Rat{r("-1/2"), r("3/2"), r("-123456789012345678901234567890")} {
		_, err := dptest.Explore(context.Background(), func(r *dptest.Rand) bool { return r.Bernoulli(bad) }, dptest.Budget{})
		var pe *dptest.PanicError
		if !errors.As(err, &pe) || pe.Value != "dptest: Bernoulli("+bad.RatString()+"): p must be in [0, 1]" {
			t.Errorf("Bernoulli(%s): %v", bad.RatString(), err)
		}
	}
}

// TestExploreNondeterminismKinds: another Bernoulli p, or a run that ends
// before its forced prefix, are caught.
func TestExploreNondeterminismKinds(t *testing.T) {
	calls := 0
	_, err := dptest.Explore(context.Background(), func(r *dptest.Rand) bool {
		calls++
		return r.Bit() && r.Bernoulli(big.NewRat(1, int64(2+calls)))
	}, dptest.Budget{})
	// Each completed run is run twice: Bit()=0 twice, then Bit()=1 asks
	// for Bernoulli(1/5), and for Bernoulli(1/6) when run again.
	var ne *dptest.NondeterminismError
	if !errors.As(err, &ne) || ne.Choices != "Bit()=1" || ne.Want != "Bernoulli(1/5)" || ne.Got != "Bernoulli(1/6)" {
		t.Errorf("another p: %v", err)
	}
	calls = 0
	_, err = dptest.Explore(context.Background(), func(r *dptest.Rand) int {
		calls++
		if calls > 2 {
			return r.IntN(2)
		}
		return r.IntN(2) + r.IntN(3)
	}, dptest.Budget{})
	if !errors.As(err, &ne) || ne.Choices != "IntN(2)=0" || ne.Want != "IntN(3)" || ne.Got != "(the end of the run)" {
		t.Errorf("an early end: %v", err)
	}
}

// TestExploreCancel: Explore stops within 1024 runs of its context's end,
// also inside a sub-sampler's exploration.
func TestExploreCancel(t *testing.T) {
	for _, reuse := range []bool{false, true} {
		ctx, cancel := context.WithCancel(context.Background())
		calls, at := 0, 0
		sampler := func(r *dptest.Rand) int {
			calls++
			if calls == 5000 {
				cancel()
				at = calls
			}
			return geometric(r) + r.IntN(1000)
		}
		_, err := dptest.Explore(ctx, func(r *dptest.Rand) int {
			if reuse {
				return dptest.Reuse(r, "sampler", sampler)
			}
			return sampler(r)
		}, dptest.Budget{})
		if !errors.Is(err, context.Canceled) || at == 0 || calls-at > 1024 {
			t.Errorf("reuse %t: err %v, %d calls after the cancellation", reuse, err, calls-at)
		}
		cancel()
	}
}

// TestExploreConcurrent: explorations in parallel share nothing (run
// with -race).
func TestExploreConcurrent(t *testing.T) {
	sampler := func(r *dptest.Rand) int {
		return dptest.Reuse(r, "g", geometric) + r.IntN(3) + map[bool]int{true: 10}[r.Bernoulli(big.NewRat(1, 3))]
	}
	b := dptest.Budget{MinProb: pow2(12)}
	want, err := dptest.Explore(context.Background(), sampler, b)
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error)
	for range 8 {
		go func() {
			d, err := dptest.Explore(context.Background(), sampler, b)
			if err == nil && (cmp.Diff(want.P, d.P, ratCmp) != "" || d.Unexplored.Cmp(want.Unexplored) != 0) {
				err = errors.New("another distribution")
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestExploreMisuse: a Rand kept past its run, used by a goroutine, used
// after Explore returned, a recovered cut, and the zero Rand.
func TestExploreMisuse(t *testing.T) {
	ctx := context.Background()
	var kept *dptest.Rand
	_, err := dptest.Explore(ctx, func(r *dptest.Rand) int {
		if kept != nil && kept.Bit() {
			return 2
		}
		kept = r
		return r.IntN(2)
	}, dptest.Budget{})
	var me *dptest.MisuseError
	if !errors.As(err, &me) || !strings.Contains(me.What, "used after its run had returned") {
		t.Errorf("a kept Rand: %v", err)
	}
	defer func() {
		v := recover()
		if me, ok := v.(*dptest.MisuseError); !ok || !strings.Contains(me.What, "used after its run had returned") {
			t.Errorf("a Rand used after Explore returned: recovered %v", v)
		}
		testMisuseGoroutine(t)
	}()
	kept.Bit()
	t.Error("a Rand used after Explore returned did not panic")
}

func testMisuseGoroutine(t *testing.T) {
	ctx := context.Background()
	// A goroutine started by the first run uses its Rand during the second.
	start, done := make(chan struct{}), make(chan bool)
	runs := 0
	_, err := dptest.Explore(ctx, func(r *dptest.Rand) int {
		runs++
		switch runs {
		case 1:
			go func() {
				<-start
				done <- r.Bit()
			}()
		case 2:
			close(start)
			<-done
		}
		return r.IntN(3)
	}, dptest.Budget{})
	var me *dptest.MisuseError
	if !errors.As(err, &me) || !strings.Contains(me.What, "hand it to a goroutine") || runs != 2 {
		t.Errorf("a goroutine: %v after %d runs", err, runs)
	}

	_, err = dptest.Explore(ctx, func(r *dptest.Rand) (v int) {
		defer func() { recover() }()
		return r.IntN(3) + r.IntN(3)
	}, dptest.Budget{Depth: 1})
	if !errors.As(err, &me) || !strings.Contains(me.What, "recovered the panic by which the exploration stops a run") || me.Choices != "IntN(3)=0" {
		t.Errorf("a recovered cut: %v", err)
	}
	_, err = dptest.Explore(ctx, func(r *dptest.Rand) (v int) {
		func() {
			defer func() { recover() }()
			v = r.IntN(3) + r.IntN(3)
		}()
		return v + r.IntN(2) // the run goes on after its cut
	}, dptest.Budget{Depth: 1})
	if !errors.As(err, &me) || !strings.Contains(me.What, "recovered the panic by which the exploration stops a run (dptest: the run was cut by the budget) and went on") || me.Choices != "IntN(3)=0" {
		t.Errorf("a run that goes on after its cut: %v", err)
	}

	defer func() {
		if v := recover(); v != "dptest: this Rand was not made by Explore" {
			t.Errorf("the zero Rand: recovered %v", v)
		}
	}()
	new(dptest.Rand).IntN(2)
}

// TestExploreNested: a sampler may run an exploration of its own, but not
// hand its Rand to it (caught when that Rand's run is cut).
func TestExploreNested(t *testing.T) {
	ctx := context.Background()
	d, err := dptest.Explore(ctx, func(r *dptest.Rand) int {
		inner, err := dptest.Explore(ctx, func(r *dptest.Rand) int { return r.IntN(3) }, dptest.Budget{})
		if err != nil || len(inner.P) != 3 {
			panic(err)
		}
		return r.IntN(2)
	}, dptest.Budget{})
	if err != nil || len(d.P) != 2 {
		t.Errorf("nested explorations: %v", err)
	}
	_, err = dptest.Explore(ctx, func(r *dptest.Rand) int {
		inner, err := dptest.Explore(ctx, func(inner *dptest.Rand) int { return inner.IntN(2) + r.IntN(2) }, dptest.Budget{})
		if err != nil {
			panic(err)
		}
		return len(inner.P)
	}, dptest.Budget{Depth: 1})
	// The inner exploration's first run, run a second time to check its
	// output, cuts the outer run.
	var me *dptest.MisuseError
	if !errors.As(err, &me) || me.What != "the sampler used the Rand of another exploration" || me.Choices != "IntN(2)=0" {
		t.Errorf("the outer Rand in an inner exploration: %v", err)
	}
}
