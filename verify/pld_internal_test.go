package verify

import (
	"context"
	"errors"
	"math/big"
	"testing"
)

// looks is a context that counts the calls of its Err and reports
// cancellation from the n-th on.
type looks struct {
	context.Context
	n, calls int
}

func (l *looks) Err() error {
	if l.calls++; l.calls > l.n {
		return context.Canceled
	}
	return nil
}

// bigDist is a distribution of n atoms with keys 0 … n−1 and masses of
// about bits bits.
func bigDist(n, bits int) *lossDist {
	d := new(big.Int).Lsh(big.NewInt(1), uint(bits))
	p := &lossDist{runs: 1, d: 1, n: n, ds: d, dt: d, inf: new(big.Int)}
	for i := range n {
		p.exp = append(p.exp, int64(i))
		p.s = append(p.s, new(big.Int).Sub(d, big.NewInt(int64(2*i+1))))
		p.t = append(p.t, new(big.Int).Sub(d, big.NewInt(int64(3*i+1))))
	}
	return p
}

// TestConvolveLooksAtTheContext: a convolution looks at its context at
// least once every ctxWords word operations of its products (masses of
// many runs are thousands of words each), and stops at the first look
// that sees the end.
func TestConvolveLooksAtTheContext(t *testing.T) {
	x := bigDist(300, 4096) // 45 150 products of 65-word numbers
	ctx := &looks{Context: context.Background(), n: 1 << 30}
	if _, err := convolve(ctx, x, x, 1<<20); err != nil {
		t.Fatal(err)
	}
	words := 65 * 65
	if want := 300 * 301 / 2 * words / ctxWords; ctx.calls < want {
		t.Errorf("%d looks at the context for %d word operations, want at least %d", ctx.calls, 300*301/2*words, want)
	}
	ctx = &looks{Context: context.Background(), n: 5}
	if _, err := convolve(ctx, x, x, 1<<20); !errors.Is(err, context.Canceled) || ctx.calls != 6 {
		t.Errorf("ended at the 6th look: err = %v after %d looks", err, ctx.calls)
	}
	// Counting the keys alone looks at it too.
	keys := &lossDist{runs: 1, d: 1, n: x.n, exp: x.exp, keysOnly: true}
	ctx = &looks{Context: context.Background(), n: 1 << 30}
	if _, err := keys.powerOf(ctx, 16, 1<<20, nil); err != nil {
		t.Fatal(err)
	}
	// The squarings of 1, 2, 4 and 8 runs (300, 599, 1197 and 2393 keys):
	// 45 150, 179 700, 717 003 and 2 864 421 products of keys, counted 8
	// words each.
	want := 0
	for _, products := range []int{45150, 179700, 717003, 2864421} {
		want += products * 8 / ctxWords
	}
	if ctx.calls < want {
		t.Errorf("counting the keys of 16 runs looked at the context %d times, want at least %d", ctx.calls, want)
	}
}
