package mdp

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/verify"
)

// countdown is a context whose Err reports cancellation from its n-th
// call on: it ends a computation at a chosen point, with no clock.
type countdown struct {
	context.Context
	n int
}

func (c *countdown) Err() error {
	if c.n--; c.n < 0 {
		return context.Canceled
	}
	return nil
}

// walk is a two-action walk from d = 0 and d = 1 to x = 3, where ψ =
// X^20000 (x = 3) makes Proposition 2's backward induction 20 000 steps
// deep.
func walk(t *testing.T) (*MDP, [][2]int, *verify.Formula) {
	x := newMDPBuilder("a", "b")
	var s [2][4]int
	for d := range 2 {
		for i := range 4 {
			s[d][i] = x.state(fmt.Sprintf("d%dx%d", d, i), nil, "d", d, "x", i)
		}
	}
	for d := range 2 {
		for i := range 3 {
			x.choose(s[d][i], "a", s[d][i+1], "1/2", s[d][i], "1/2")
			if d == 1 {
				x.choose(s[d][i], "b", s[d][i+1], "1")
			} else {
				x.choose(s[d][i], "b", s[d][i], "1")
			}
		}
	}
	m := x.build(t)
	at3 := verify.Atom("x = 3", func(st int) (bool, error) {
		v, _ := m.Frame.Value(st, "x")
		return v == 3, nil
	})
	return m, [][2]int{{s[0][0], s[1][0]}}, verify.Next(20000, at3)
}

// TestValuesStopWithTheContext: the backward induction of the values
// (Vmax, Vmin) stops soon after the context ends, returning the bounds 1
// and 0 that always hold and remembering nothing of the stopped
// computation; the query then fails with the context's error.
func TestValuesStopWithTheContext(t *testing.T) {
	m, pairs, psi := walk(t)
	ctx := &countdown{Context: context.Background(), n: 1 << 30}
	p, err := newProblem(ctx, m, pairs)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.setFormula(psi); err != nil {
		t.Fatal(err)
	}
	ctx.n = 2 // the third check, at the 3072nd call, sees the end
	hi, lo := p.startValues(pairs[0][0])
	if !p.valStop || p.valCalls >= 4096 {
		t.Errorf("values went on after the context ended: %d calls, stopped %v", p.valCalls, p.valStop)
	}
	if hi.Cmp(ratOne) != 0 || lo.Sign() != 0 {
		t.Errorf("stopped values are %s and %s, want the bounds 1 and 0", hi.RatString(), lo.RatString())
	}
	if len(p.vals) > 3072 {
		t.Errorf("%d values remembered, more than were computed before the end", len(p.vals))
	}
	for k, v := range p.vals {
		if v[0] == ratOne && v[1] == ratZero && p.f.horizon(int(k.r)) >= 0 {
			t.Errorf("the stopped bounds were remembered for %v", k)
		}
	}
	_, err = TightDeltaD(&countdown{Context: context.Background(), n: 5}, m, pairs, psi, exact.Eps{}, Options{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("TightDeltaD under a context that ends: err = %v", err)
	}
}

// counted is a countdown that also counts the calls of Err.
type counted struct {
	countdown
	calls int
}

func (c *counted) Err() error {
	c.calls++
	return c.countdown.Err()
}

// TestSearchStopsWithTheContext: a context that ends anywhere in the
// search over query schedulers of the paper's above-threshold MDP (ψ_4
// over every neighbouring pair: each prefix bounds 96 directions) ends it
// with the context's error at the next look; the search looks at it for
// every child and every direction.
func TestSearchStopsWithTheContext(t *testing.T) {
	m, _ := aboveThreshold(t)
	var pairs [][2]int
	for th := 0; th <= 5; th++ {
		for r := 0; r <= 5; r++ {
			for q := max(0, r-1); q <= min(5, r+1); q++ {
				s, ok1 := m.Frame.Lookup(fmt.Sprintf("in0_%d_%d", th, r))
				u, ok2 := m.Frame.Lookup(fmt.Sprintf("in1_%d_%d", th, q))
				if !ok1 || !ok2 {
					t.Fatal("no input")
				}
				pairs = append(pairs, [2]int{s, u})
			}
		}
	}
	psi := psiAt(4)
	all := &counted{countdown: countdown{Context: context.Background(), n: 1 << 60}}
	if _, err := TightDeltaD(all, m, pairs, psi, exact.Eps{}, Options{}); err != nil {
		t.Fatal(err)
	}
	n := all.calls
	if n < 1000 {
		t.Fatalf("%d pairs: the search looked at its context %d times", len(pairs), n)
	}
	for _, k := range []int{0, n / 4, n / 2, 3 * n / 4, n - 2} {
		c := &counted{countdown: countdown{Context: context.Background(), n: k}}
		if _, err := TightDeltaD(c, m, pairs, psi, exact.Eps{}, Options{}); !errors.Is(err, context.Canceled) {
			t.Errorf("ended at look %d of %d: err = %v", k, n, err)
		}
		if c.calls > k+1 {
			t.Errorf("ended at look %d of %d: %d looks in all, it went on", k, n, c.calls)
		}
	}
}
