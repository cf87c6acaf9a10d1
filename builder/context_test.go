package builder_test

import (
	"context"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/model"
)

// countingContext is a context whose Err reports nil for its first n
// calls and err from then on, so that a test cancels a build at an exact
// point without clocks. It counts the calls.
type countingContext struct {
	context.Context
	n     int
	err   error
	calls int
}

func counting(n int, err error) *countingContext {
	return &countingContext{Context: context.Background(), n: n, err: err}
}

func (c *countingContext) Err() error {
	c.calls++
	if c.calls > c.n {
		return c.err
	}
	return nil
}

func builderName(call string) string { return call[:strings.IndexByte(call, '(')] }

// TestPinnedCoversCatalog keeps the tests below about every builder.
func TestPinnedCoversCatalog(t *testing.T) {
	var want, got []string
	for _, d := range builder.Catalog() {
		want = append(want, d.Name)
	}
	seen := map[string]bool{}
	for _, p := range pinned {
		if name := builderName(p.call); !seen[name] {
			seen[name] = true
			got = append(got, name)
		}
	}
	sort.Strings(got)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("pinned models cover %v, the catalog has %v", got, want)
	}
}

// TestBuildCancelledBefore builds every catalog builder under a context
// that has already ended: it returns the context's error itself and no
// mechanism.
func TestBuildCancelledBefore(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, p := range pinned {
		for _, ctx := range []context.Context{cancelled, counting(0, context.DeadlineExceeded)} {
			want := ctx.Err()
			_, _, m, err := callContext(t, ctx, p.call, model.Limits{})
			if err != want || m != nil {
				t.Errorf("%s under an ended context: got %v, %v; want %v and no mechanism", p.call, m != nil, err, want)
			}
		}
	}
}

// TestBuildCancelledAtEveryCheck counts the checks of an uncancelled
// build, then cancels it at each of them in turn: every check returns
// context.Canceled at once (the context is not asked again) and no
// mechanism. The uncancelled build is the pinned chain.
func TestBuildCancelledAtEveryCheck(t *testing.T) {
	for _, p := range pinned {
		ctx := counting(math.MaxInt, nil)
		_, _, m, err := callContext(t, ctx, p.call, model.Limits{})
		if err != nil {
			t.Fatalf("%s: %v", p.call, err)
		}
		if got := digest(m); got != p.digest {
			t.Errorf("%s under a live context: digest %s, want %s", p.call, got, p.digest)
		}
		checks := ctx.calls
		if checks < 2 {
			t.Errorf("%s: %d context checks, want at least 2", p.call, checks)
		}
		for n := range checks {
			ctx := counting(n, context.Canceled)
			_, _, m, err := callContext(t, ctx, p.call, model.Limits{})
			if err != context.Canceled || m != nil {
				t.Errorf("%s cancelled after %d of %d checks: got %v, %v; want context.Canceled and no mechanism", p.call, n, checks, m != nil, err)
			}
			if ctx.calls != n+1 {
				t.Errorf("%s cancelled after %d of %d checks: the context was asked %d times, want %d", p.call, n, checks, ctx.calls, n+1)
			}
		}
	}
}

// geometricRow returns Pr[t_l | s_k] of the truncated 1/2-geometric
// mechanism over {0..n}, from the formula: 2^-k·2/3 at l = 0, 2^-(n-k)·2/3
// at l = n, 2^-|k-l|/3 in between.
func geometricRow(n, k, l int) *big.Rat {
	pow := func(j int) *big.Int { return new(big.Int).Lsh(big.NewInt(1), uint(j)) }
	switch l {
	case 0:
		return new(big.Rat).SetFrac(big.NewInt(2), new(big.Int).Mul(big.NewInt(3), pow(k)))
	case n:
		return new(big.Rat).SetFrac(big.NewInt(2), new(big.Int).Mul(big.NewInt(3), pow(n-k)))
	}
	d := k - l
	if d < 0 {
		d = -d
	}
	return new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Mul(big.NewInt(3), pow(d)))
}

// large are big builds, each with the exported function that builds the
// same model and what the chain built before builds took a context is.
var large = []struct {
	call    string
	wrapper func() (*model.Mechanism, error)
	check   func(t *testing.T, m *model.Mechanism)
}{
	{"truncated_geometric(alpha = 1/2, n = 1500)",
		func() (*model.Mechanism, error) { return builder.TruncatedGeometric(r("1/2"), 1500) },
		func(t *testing.T, m *model.Mechanism) {
			t.Helper()
			c := m.Chain
			if c.NumStates() != 3002 || c.NumTransitions() != 2254502 {
				t.Errorf("%d states, %d transitions; want 3002, 2254502", c.NumStates(), c.NumTransitions())
			}
			for _, k := range []int{0, 1, 750, 1499, 1500} {
				for _, l := range []int{0, 1, 749, 750, 1500} {
					s, _ := c.Lookup("s" + strconv.Itoa(k))
					o, _ := c.Lookup("t" + strconv.Itoa(l))
					if got, want := c.Prob(s, o), geometricRow(1500, k, l); got.Cmp(want) != 0 {
						t.Errorf("Pr[t%d | s%d] = %.40s…, want %.40s…", l, k, got.RatString(), want.RatString())
					}
				}
			}
			if len(m.Neighbours) != 1500 {
				t.Errorf("%d neighbouring pairs, want 1500", len(m.Neighbours))
			}
		}},
	{"above_threshold(k = 64)",
		func() (*model.Mechanism, error) {
			return builder.AboveThreshold(r("1/4"), r("1/2"), 5, 64, builder.AtLeast)
		},
		func(t *testing.T, m *model.Mechanism) {
			t.Helper()
			c := m.Chain
			// 36 inputs, 6·6·64 shared query states less the 6·63 after a
			// first query at T = 0 (which halts surely with ">="), and 65
			// outputs. Before the query states were shared: 13925
			// states, 25625 transitions, digest 2dc65b09a88e8314; shared
			// with those unreachable states: 2405, 4505, 5a64b0d813db406e.
			if c.NumStates() != 2027 || c.NumTransitions() != 4127 {
				t.Errorf("%d states, %d transitions; want 2027, 4127", c.NumStates(), c.NumTransitions())
			}
			if got, want := digest(m), "d11b6f57c8e8f533"; got != want {
				t.Errorf("digest %s, want %s", got, want)
			}
		}},
	{"compose(k = 6, model = survey())",
		func() (*model.Mechanism, error) {
			m, err := builder.Survey(r("1/2"), r("1/2"))
			if err != nil {
				return nil, err
			}
			return builder.Compose(6, m)
		},
		func(t *testing.T, m *model.Mechanism) {
			t.Helper()
			c := m.Chain
			if c.NumStates() != 190 || c.NumTransitions() != 316 {
				t.Errorf("%d states, %d transitions; want 190, 316", c.NumStates(), c.NumTransitions())
			}
			if got, want := digest(m), "5fd0db93864e4f4a"; got != want {
				t.Errorf("digest %s, want %s", got, want)
			}
		}},
}

// TestLargeBuildCancelled cancels big builds halfway through their checks:
// they stop there with context.Canceled. Uncancelled, the catalog and the
// exported function build the chain they built before.
func TestLargeBuildCancelled(t *testing.T) {
	for _, tt := range large {
		t.Run(builderName(tt.call), func(t *testing.T) {
			ctx := counting(math.MaxInt, nil)
			_, _, m, err := callContext(t, ctx, tt.call, model.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, m)
			checks := ctx.calls
			m, err = tt.wrapper()
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, m)

			n := checks / 2
			ctx = counting(n, context.Canceled)
			_, _, m, err = callContext(t, ctx, tt.call, model.Limits{})
			if err != context.Canceled || m != nil {
				t.Errorf("cancelled after %d of %d checks: got %v, %v; want context.Canceled and no mechanism", n, checks, m != nil, err)
			}
			if ctx.calls != n+1 {
				t.Errorf("cancelled after %d of %d checks: the context was asked %d times, want %d", n, checks, ctx.calls, n+1)
			}
		})
	}
}

// TestWrappersUnchanged: the exported functions, which build under
// context.Background(), build the pinned chains.
func TestWrappersUnchanged(t *testing.T) {
	for _, p := range pinned {
		m, err := p.wrapper()
		if err != nil {
			t.Fatalf("%s: %v", p.call, err)
		}
		if got := digest(m); got != p.digest {
			t.Errorf("wrapper of %s: digest %s, want %s", p.call, got, p.digest)
		}
	}
}
