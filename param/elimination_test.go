package param

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/poly"
	"github.com/google/go-cmp/cmp"
)

// TestEliminationWorkLimit: the gambler's ruin on {0..3} from its inputs
// k| and k||, by hand. From k| (states in DFS post-order: lose, win, k||,
// k|) only k|| is eliminated: p(k|, k||) = α (degree 1) divided by 1 costs
// (1+1)² = 4, then p(k|, win) and p(k|, k|) each get α·α or α·(1 − α)
// (degrees 1 + 1, nothing there yet): (2+1)² = 9 each. 22 in all, and 22
// from k|| (k| eliminated, the mirror image): 44. Refused over 43, made
// at 44.
func TestEliminationWorkLimit(t *testing.T) {
	pc := ruin(t, 3)
	pc.MaxEliminationWork = 43
	_, err := Analyze(ctx, pc)
	var le *EliminationLimitError
	if !errors.As(err, &le) || !errors.Is(err, poly.ErrLimit) {
		t.Fatalf("err = %v, want an *EliminationLimitError", err)
	}
	want := EliminationLimitError{Work: 44, Max: 43, Done: 2, Inputs: 2, From: "k||", States: 4}
	if diff := cmp.Diff(want, *le); diff != "" {
		t.Errorf("error (-want +got):\n%s", diff)
	}
	const msg = "state elimination over rational functions would take about 44 coefficient operations for the 2 inputs it is needed for (4 states are reachable from k||); the limit is 43"
	if err.Error() != msg || le.LimitKind() != "elimination work" {
		t.Errorf("message:\n got %s\nwant %s", err, msg)
	}
	pc.MaxEliminationWork = 44
	if _, err := Analyze(ctx, pc); err != nil {
		t.Errorf("at the limit: %v", err)
	}
}

// grid is the random walk on the n×n grid: from an inner state (x, y) it
// steps right or up with probability α/2 each, left or down with
// (1 − α)/2 each; the border absorbs. The inner states are the inputs,
// neighbours one step apart.
func grid(t *testing.T, n int) *Chain {
	t.Helper()
	id := func(x, y int) int { return x*n + y }
	var names []string
	var vals []chain.Valuation
	var inputs []int
	inner := func(x, y int) bool { return x > 0 && x < n-1 && y > 0 && y < n-1 }
	for x := range n {
		for y := range n {
			names = append(names, fmt.Sprintf("s%d_%d", x, y))
			vals = append(vals, chain.Valuation{{Name: "x", Value: int64(x)}, {Name: "y", Value: int64(y)}})
			if inner(x, y) {
				inputs = append(inputs, id(x, y))
			}
		}
	}
	frame, err := Frame(names, vals, nil, inputs)
	if err != nil {
		t.Fatal(err)
	}
	half := poly.Const(big.NewRat(1, 2))
	up := poly.FromPoly(poly.X().Mul(half))
	down := poly.FromPoly(poly.FromInts(1, -1).Mul(half))
	rows := make([][]Trans, n*n)
	var pairs [][2]int
	for x := 1; x < n-1; x++ {
		for y := 1; y < n-1; y++ {
			s := id(x, y)
			rows[s] = []Trans{{To: id(x+1, y), P: up}, {To: id(x, y+1), P: up}, {To: id(x-1, y), P: down}, {To: id(x, y-1), P: down}}
			if inner(x+1, y) {
				pairs = append(pairs, [2]int{s, id(x+1, y)})
			}
			if inner(x, y+1) {
				pairs = append(pairs, [2]int{s, id(x, y+1)})
			}
		}
	}
	pc, err := New(ctx, poly.Limits{}, frame, "α", poly.Open(new(big.Rat), big.NewRat(1, 1)), rows, pairs)
	if err != nil {
		t.Fatal(err)
	}
	return pc
}

// TestEliminationDefaultWork: the random walk on an 11×11 grid (81 inner
// inputs, 117 states reachable from each) would take hours of elimination;
// it is refused at the default limit after the estimate of its first
// input alone. The ruin on {0..60} from its two inputs is within it.
func TestEliminationDefaultWork(t *testing.T) {
	_, err := Analyze(ctx, grid(t, 11))
	var le *EliminationLimitError
	if !errors.As(err, &le) || le.Done != 1 || le.Inputs != 81 || le.States != 117 || le.Max != DefaultMaxEliminationWork || le.Work <= DefaultMaxEliminationWork {
		t.Fatalf("11×11: err = %v", err)
	}
	if _, err := Analyze(ctx, ruin(t, 60)); err != nil {
		t.Errorf("ruin on {0..60}: %v", err)
	}
}

// TestEliminationStopsWithTheContext: a context that ends anywhere while
// the walk on a 5×5 grid is estimated and eliminated ends Analyze with its
// error at the next look.
func TestEliminationStopsWithTheContext(t *testing.T) {
	pc := grid(t, 5)
	all := &counting{Context: context.Background(), n: 1 << 60}
	if _, err := Analyze(all, pc); err != nil {
		t.Fatal(err)
	}
	n := all.calls
	if n < 100 {
		t.Fatalf("the analysis looked at its context %d times", n)
	}
	for _, k := range []int{0, n / 4, n / 2, 3 * n / 4, n - 2} {
		c := &counting{Context: context.Background(), n: k}
		if _, err := Analyze(c, pc); !errors.Is(err, context.Canceled) {
			t.Errorf("ended at look %d of %d: err = %v", k, n, err)
		}
		if c.calls > k+1 {
			t.Errorf("ended at look %d of %d: %d looks in all, it went on", k, n, c.calls)
		}
	}
}

// counting is a context whose Err reports cancellation from its n-th call
// on, and counts the calls.
type counting struct {
	context.Context
	n, calls int
}

func (c *counting) Err() error {
	if c.calls++; c.calls > c.n {
		return context.Canceled
	}
	return nil
}

// TestFinalsShared: the analysis and the expected values taken from one
// memo of final distributions equal those computed afresh, and the memo
// holds one distribution per input of the grid, computed once for both.
func TestFinalsShared(t *testing.T) {
	pc := grid(t, 5)
	fs := NewFinals(pc)
	a, err := fs.Analyze(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := Analyze(ctx, pc)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range pc.Frame.Inputs() {
		d1, _ := a.Distribution(s)
		d2, _ := fresh.Distribution(s)
		if len(d1.Out) != len(d2.Out) {
			t.Fatalf("input %d: %d vs %d outputs", s, len(d1.Out), len(d2.Out))
		}
		for i := range d1.P {
			if !d1.P[i].Equal(d2.P[i]) {
				t.Errorf("input %d, output %d: %s vs %s", s, i, d1.P[i].Format("a"), d2.P[i].Format("a"))
			}
		}
	}
	x := func(_, end int) (*big.Rat, error) {
		v, _ := pc.Frame.Value(end, "x")
		return big.NewRat(v, 1), nil
	}
	e1, err := fs.Expected(ctx, x)
	if err != nil {
		t.Fatal(err)
	}
	e2, err := Expected(ctx, pc, x)
	if err != nil {
		t.Fatal(err)
	}
	if len(e1) != len(pc.Frame.Inputs()) || len(e1) != len(e2) {
		t.Fatalf("%d and %d expected values for %d inputs", len(e1), len(e2), len(pc.Frame.Inputs()))
	}
	for s, f := range e1 {
		if !f.Equal(e2[s]) {
			t.Errorf("input %d: %s vs %s", s, f.Format("a"), e2[s].Format("a"))
		}
	}
	if len(fs.d) != len(pc.Frame.Inputs()) {
		t.Errorf("the memo holds %d distributions for %d inputs", len(fs.d), len(pc.Frame.Inputs()))
	}
}
