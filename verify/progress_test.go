package verify_test

import (
	"context"
	"math/big"
	"sync"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/verify"
)

// TestProgress: a reporter on the context sees every ordered pair of a
// check, and the last report of a stage is Done == Total.
func TestProgress(t *testing.T) {
	var mu sync.Mutex
	last := map[string]verify.Progress{}
	count := map[string]int{}
	ctx := verify.WithProgress(context.Background(), func(p verify.Progress) {
		mu.Lock()
		defer mu.Unlock()
		count[p.Stage]++
		if p.Done > last[p.Stage].Done {
			last[p.Stage] = p
		}
	})
	m := mustMech(t)(builder.TruncatedGeometric(r("1/2"), 20))
	a, err := verify.Analyze(ctx, &verify.Model{Chain: m.Chain, Neighbours: m.Neighbours})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.DP(ctx, ln("2"), new(big.Rat)); err != nil {
		t.Fatal(err)
	}
	p := last["ordered pairs (dp)"]
	if p.Done != 40 || p.Total != 40 || count["ordered pairs (dp)"] != 40 {
		t.Errorf("dp progress: last %+v after %d reports, want 40 of 40", p, count["ordered pairs (dp)"])
	}
}
