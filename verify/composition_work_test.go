package verify_test

import (
	"context"
	"errors"
	"math"
	"math/big"
	"sync/atomic"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/verify"
)

// surveyWork is the word operations the composition of k = 2^j runs of the
// survey (θ1 = θ2 = 1/2: probabilities 3/4 and 1/4, common denominators 4,
// two bits a run) is estimated to take, computed from its closed form: k is
// reached by j squarings, the i-th of 2^i runs with 2^i + 1 loss values,
// (2^i + 1)(2^i + 2)/2 products of atoms, each multiplying numerators of
// 2^(i+1) bits on both sides.
func surveyWork(j int) float64 {
	w := 0.0
	for i := range j {
		n := float64(int64(1)<<i + 1)
		words := math.Ceil(float64(int64(1)<<(i+1)) / 64)
		w += n * (n + 1) / 2 * 2 * words * words
	}
	return w
}

func surveyAnalysis(t *testing.T) *verify.Analysis {
	t.Helper()
	m, err := builder.Survey(big.NewRat(1, 2), big.NewRat(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	a, err := verify.Analyze(context.Background(), &verify.Model{Chain: m.Chain, Neighbours: m.Neighbours})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestCompositionWorkLimit: the composition of 1024 surveys is refused
// when its estimate, computed before any mass is multiplied, is over
// CompositionOptions.MaxWork (the error gives it, with the loss values and
// the bits of the masses), and computed at the estimate itself.
func TestCompositionWorkLimit(t *testing.T) {
	ctx := context.Background()
	a := surveyAnalysis(t)
	want := surveyWork(10)
	// By hand: 6 + 12 + 30 + 90 + 306 + 1122 (one word a number) + 17 160 +
	// 268 320 + 4 243 584 + 67 502 592 (2, 4, 8 and 16 words).
	if want != 72_033_222 {
		t.Fatalf("closed form: %v", want)
	}
	c, err := verify.NewComposition(ctx, a, 1024, verify.CompositionOptions{MaxWork: want - 1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.TightDelta(ctx, rational(big.NewRat(0, 1)))
	var we *verify.WorkLimitError
	if !errors.As(err, &we) || !errors.Is(err, verify.ErrLossValues) {
		t.Fatalf("err = %v, want a *WorkLimitError", err)
	}
	if we.Work != want || we.Max != want-1 || we.Runs != 1024 || we.Values != 1025 || we.Bits != 2048 || we.LimitKind() != "composition work" {
		t.Errorf("got %+v, want %v word operations for 1025 loss values of 2048 bits", we, want)
	}
	const msg = "the privacy-loss distribution of 1024 runs for + vs - would take about 72,000,000 word operations to compute (1,025 loss values, probabilities of up to 2,048 bits); the limit is 72,033,221"
	if err.Error() != msg {
		t.Errorf("message:\n got %s\nwant %s", err, msg)
	}
	// The error is kept: the next statement gets it at once.
	if _, err := c.Profile(ctx); !errors.As(err, &we) {
		t.Errorf("again: err = %v", err)
	}
	c, err = verify.NewComposition(ctx, a, 1024, verify.CompositionOptions{MaxWork: want})
	if err != nil {
		t.Fatal(err)
	}
	d, err := c.TightDelta(ctx, rational(big.NewRat(0, 1)))
	if err != nil || d.LossValues != 1025 {
		t.Fatalf("at the limit: %v, %v", d, err)
	}
	// PLD.ComposeWithin applies the same limit.
	s, _ := a.Chain().Lookup("+")
	u, _ := a.Chain().Lookup("-")
	one, err := a.PairPLD(ctx, s, u)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := one.ComposeWithin(ctx, 1024, verify.CompositionOptions{MaxWork: want - 1}); !errors.As(err, &we) || we.Work != want {
		t.Errorf("ComposeWithin: err = %v", err)
	}
	if p, err := one.ComposeWithin(ctx, 1024, verify.CompositionOptions{MaxWork: want}); err != nil || p.Len() != 1025 {
		t.Errorf("ComposeWithin at the limit: %v", err)
	}
}

// TestCompositionDefaultWork: 9999 surveys are refused at the default
// limit (their estimate is 7.3·10^11 word operations), 1000 are computed.
func TestCompositionDefaultWork(t *testing.T) {
	ctx := context.Background()
	a := surveyAnalysis(t)
	c, err := verify.NewComposition(ctx, a, 9999, verify.CompositionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.TightDelta(ctx, rational(big.NewRat(0, 1)))
	var we *verify.WorkLimitError
	if !errors.As(err, &we) || we.Max != verify.DefaultMaxWork || we.Work < 7e11 || we.Work > 8e11 || we.Values != 10000 {
		t.Fatalf("9999 runs: err = %v", err)
	}
	c, err = verify.NewComposition(ctx, a, 1000, verify.CompositionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.TightDelta(ctx, rational(big.NewRat(0, 1))); err != nil {
		t.Fatalf("1000 runs: %v", err)
	}
}

// countdown is a context whose Err reports cancellation from its n-th
// call on, and counts the calls (safe for the verifier's goroutines): it
// ends a computation at a chosen point, with no clock.
type countdown struct {
	context.Context
	left, calls atomic.Int64
}

func newCountdown(n int64) *countdown {
	c := &countdown{Context: context.Background()}
	c.left.Store(n)
	return c
}

func (c *countdown) Err() error {
	c.calls.Add(1)
	if c.left.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// TestCompositionStopsWithTheContext: a context that ends anywhere in the
// composition of 1024 surveys — while its powers are counted, multiplied
// or sorted — ends it with the context's error, at the next look.
func TestCompositionStopsWithTheContext(t *testing.T) {
	a := surveyAnalysis(t)
	run := func(ctx context.Context) error {
		c, err := verify.NewComposition(ctx, a, 1024, verify.CompositionOptions{})
		if err != nil {
			return err
		}
		_, err = c.TightDelta(ctx, rational(big.NewRat(0, 1)))
		return err
	}
	all := newCountdown(math.MaxInt64)
	if err := run(all); err != nil {
		t.Fatal(err)
	}
	n := all.calls.Load()
	if n < 20 {
		t.Fatalf("the composition looked at its context %d times", n)
	}
	for _, k := range []int64{0, n / 4, n / 2, 3 * n / 4, n - 2} {
		ctx := newCountdown(k)
		if err := run(ctx); !errors.Is(err, context.Canceled) {
			t.Errorf("ended at look %d of %d: err = %v", k, n, err)
		}
		if c := ctx.calls.Load(); c > k+2 {
			t.Errorf("ended at look %d of %d: %d looks in all, it went on", k, n, c)
		}
	}
}
