package dptest_test

import (
	"context"
	"errors"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/dptest"
	"github.com/dpcheck/dpcheck/exact"
)

// TestStuckSamplerEndsWithContext: a sampler stuck in a loop that draws
// nothing does not hold CheckDP once the context ends; its goroutine is
// abandoned (and released here when the test ends).
func TestStuckSamplerEndsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	stuck, release := make(chan struct{}), make(chan struct{})
	t.Cleanup(func() { close(release) })
	go func() {
		<-stuck
		cancel()
	}()
	var once bool
	m := dptest.Mechanism[int, int]{
		Inputs: []int{0, 1},
		Run: func(x int, r *dptest.Rand) int {
			if x == 1 && r.Bit() && !once {
				once = true
				close(stuck)
				<-release // stuck, drawing nothing
			}
			return x
		},
	}
	_, err := dptest.CheckDP(ctx, m, exact.LnInt(2), nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

// TestUncomparableValues: an output or an input whose dynamic value
// cannot be a map key is an error naming it, not a crash.
func TestUncomparableValues(t *testing.T) {
	m := dptest.Mechanism[int, any]{
		Inputs: []int{0, 1},
		Run: func(x int, r *dptest.Rand) any {
			if r.Bit() {
				return []int{x}
			}
			return x
		},
	}
	_, err := dptest.CheckDP(context.Background(), m, exact.LnInt(2), nil)
	var ie *dptest.InputError
	var me *dptest.MisuseError
	if !errors.As(err, &ie) || ie.Input != "0" || !errors.As(err, &me) || !strings.Contains(me.What, "returned [0], of type []int, which cannot be compared") || me.Choices != "Bit()=1" {
		t.Errorf("an uncomparable output: %v", err)
	}
	in := dptest.Mechanism[any, int]{
		Inputs: []any{0, []int{1}},
		Run:    func(x any, r *dptest.Rand) int { return r.IntN(2) },
	}
	_, err = dptest.CheckDP(context.Background(), in, exact.LnInt(2), nil)
	if err == nil || !strings.Contains(err.Error(), "input [1] (at 1), of type []int, cannot be compared") {
		t.Errorf("an uncomparable input: %v", err)
	}
}

// TestNoPairsBeforeExploring: without a pair of neighbours the check
// fails before any run.
func TestNoPairsBeforeExploring(t *testing.T) {
	calls := 0
	m := dptest.Mechanism[int, int]{
		Inputs:     []int{0, 5},
		Neighbours: dptest.Within(1),
		Run:        func(x int, r *dptest.Rand) int { calls++; return x },
	}
	_, err := dptest.CheckDP(context.Background(), m, exact.LnInt(2), nil)
	if err == nil || !strings.Contains(err.Error(), "no two inputs are neighbours") || calls != 0 {
		t.Errorf("err = %v after %d calls", err, calls)
	}
}

// same prints as "same", whatever its value.
type same int

func (same) String() string { return "same" }

// TestPrintAlike: two distinct values of one model that print alike are
// an error naming both, and two models that share no output name cannot
// be compared.
func TestPrintAlike(t *testing.T) {
	ctx := context.Background()
	a := dptest.Sampler(func(r *dptest.Rand) same { return same(r.IntN(2)) }, dptest.Budget{})
	b := dptest.Sampler(func(r *dptest.Rand) same { return 0 }, dptest.Budget{})
	_, err := dptest.SameDist(ctx, a, b)
	if err == nil || !strings.Contains(err.Error(), `two distinct outputs, 0 and 1, both print as "same"`) {
		t.Errorf("outputs: %v", err)
	}
	m := dptest.Mechanism[same, int]{Inputs: []same{0, 1}, Run: func(x same, r *dptest.Rand) int { return int(x) }}
	_, err = dptest.CheckDP(ctx, m, exact.LnInt(2), nil)
	if err == nil || !strings.Contains(err.Error(), `two distinct inputs, 0 (at 0) and 1 (at 1), both print as "same"`) {
		t.Errorf("inputs: %v", err)
	}

	rr, err := builder.RandomizedResponseK(big.NewRat(2, 5), 3)
	if err != nil {
		t.Fatal(err)
	}
	g := dptest.Mechanism[value, int]{
		Inputs: []value{0, 1, 2},
		Run: func(x value, r *dptest.Rand) int {
			if r.Bernoulli(big.NewRat(2, 5)) {
				return int(x)
			}
			return r.IntN(3)
		},
	}
	_, err = dptest.SameDist(ctx, g, dptest.Builder(rr))
	if err == nil || !strings.Contains(err.Error(), "the outputs of the first print as 0, 1, 2, those of the second as a0, a1, a2") {
		t.Errorf("no output in common: %v", err)
	}
}

// TestNondeterministicOutput: a sampler that reads something else for its
// output, not for its choices, is caught when its first runs are run
// again.
func TestNondeterministicOutput(t *testing.T) {
	calls := 0
	m := dptest.Mechanism[int, int]{
		Inputs: []int{0, 1},
		Run: func(x int, r *dptest.Rand) int {
			if x == 0 {
				return x
			}
			calls++ // a global that changes between runs
			if r.Bit() {
				return x
			}
			return calls % 2
		},
	}
	_, err := dptest.CheckDP(context.Background(), m, exact.LnInt(2), nil)
	var ie *dptest.InputError
	var ne *dptest.NondeterminismError
	if !errors.As(err, &ie) || ie.Input != "1" || !errors.As(err, &ne) || ne.Choices != "Bit()=0" || ne.First != "1" || ne.Replayed != "0" {
		t.Errorf("err = %v", err)
	}
	if want := "dptest: input 1: the sampler is not deterministic given its choices: after Bit()=0 it returned 1, and 0 when the same choices were replayed"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("err = %v", err)
	}
}

// TestBudgetMessages: the advice names the limit that cut the runs, and
// at δ = 0 says that no budget can prove it.
func TestBudgetMessages(t *testing.T) {
	ctx := context.Background()
	huge := dptest.Mechanism[int, int]{
		Inputs: []int{0, 1},
		Run:    func(x int, r *dptest.Rand) int { return x + r.IntN(1<<40) },
		Budget: dptest.Budget{Runs: 1000},
	}
	r, err := dptest.CheckDP(ctx, huge, exact.LnInt(2), big.NewRat(1, 10))
	if err != nil {
		t.Fatal(err)
	}
	s := r.String()
	for _, want := range []string{"explored: 0 runs, 2,199,023,255,552 cut by the budget;", "to decide, raise Budget.Runs (a deeper pass needed more runs than it allows) (the budget was Budget{Runs: 1000})"} {
		if !strings.Contains(s, want) {
			t.Errorf("IntN(1<<40): %q not in\n%s", want, s)
		}
	}
	if r.Exploration.Unexplored.Cmp(big.NewRat(1, 1)) != 0 || !r.Exploration.RunsHit {
		t.Errorf("IntN(1<<40): %+v", r.Exploration)
	}

	geo := dptest.Mechanism[int, int]{
		Inputs: []int{0, 1},
		Run: func(x int, r *dptest.Rand) int {
			for r.Bit() {
			}
			return 0
		},
		Budget: dptest.Budget{Depth: 4},
	}
	r, err = dptest.CheckDP(ctx, geo, exact.LnInt(2), big.NewRat(1, 100))
	if err != nil {
		t.Fatal(err)
	}
	if s := r.String(); !strings.Contains(s, "2 cut by the budget;") || !strings.Contains(s, "to decide, raise Budget.Depth (runs asked for more choices) (the budget was Budget{Depth: 4})") {
		t.Errorf("Depth:\n%s", s)
	}
	geo.Budget = dptest.Budget{MinProb: big.NewRat(1, 8)}
	if r, err = dptest.CheckDP(ctx, geo, exact.LnInt(2), big.NewRat(1, 100)); err != nil {
		t.Fatal(err)
	}
	if s := r.String(); !strings.Contains(s, "to decide, lower Budget.MinProb (runs fell below it)") {
		t.Errorf("MinProb:\n%s", s)
	}
	if r, err = dptest.CheckDP(ctx, geo, exact.LnInt(2), nil); err != nil {
		t.Fatal(err)
	}
	if s := r.String(); !strings.Contains(s, "with unexplored mass, δ = 0 cannot be proved: give a δ > 0") || strings.Contains(s, "to decide") {
		t.Errorf("δ = 0:\n%s", s)
	}
}

// TestBernoulliNil: Bernoulli(nil) is a panic that names it.
func TestBernoulliNil(t *testing.T) {
	_, err := dptest.Explore(context.Background(), func(r *dptest.Rand) bool { return r.Bernoulli(nil) }, dptest.Budget{})
	var pe *dptest.PanicError
	if !errors.As(err, &pe) || pe.Value != "dptest: Bernoulli(nil): p must be a *big.Rat in [0, 1]" {
		t.Errorf("err = %v", err)
	}
}

// TestOnePositionOverflow: a difference that overflows int is not small.
func TestOnePositionOverflow(t *testing.T) {
	n := dptest.OnePosition(1, func(c []int) []int { return c })
	if n([]int{math.MaxInt}, []int{math.MinInt}) || n([]int{math.MinInt}, []int{math.MaxInt}) {
		t.Error("MaxInt and MinInt are neighbours")
	}
	if !n([]int{math.MaxInt, 0}, []int{math.MaxInt - 1, 0}) || !n([]int{math.MinInt}, []int{math.MinInt + 1}) {
		t.Error("neighbours at the ends of int are not")
	}
}

// TestMisusePrefixOnce: an input's misuse says "dptest:" once.
func TestMisusePrefixOnce(t *testing.T) {
	var kept *dptest.Rand
	m := dptest.Mechanism[int, int]{
		Inputs: []int{0, 1},
		Run: func(x int, r *dptest.Rand) int {
			if kept != nil && x == 0 {
				kept.Bit()
			}
			if x == 0 {
				kept = r
			}
			return r.IntN(2)
		},
	}
	_, err := dptest.CheckDP(context.Background(), m, exact.LnInt(2), nil)
	if err == nil || strings.Count(err.Error(), "dptest:") != 1 {
		t.Errorf("err = %v", err)
	}
}
