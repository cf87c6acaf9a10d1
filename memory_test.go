package dpcheck

import (
	"context"
	"errors"
	"testing"

	"github.com/dpcheck/dpcheck/property"
)

// TestMemoryLimitStopsACheck: a check whose model or distributions need
// more memory than Limits.MaxMemory stops with a *MemoryError naming the
// limit (a cancellation, like a timeout), while loading and while
// evaluating, and says how to raise it when the caller gives a hint.
func TestMemoryLimitStopsACheck(t *testing.T) {
	const limit = 96 << 20
	cfg := Config{Limits: property.Limits{MaxMemory: limit}, LimitHint: func(l string) string { return "raise the " + l + " limit" }}
	ctx := context.Background()

	// Building above threshold at n = 100, k = 100 (a million states)
	// takes more than the limit.
	_, err := cfg.CheckSource(ctx, "big.dp", "model above_threshold(n = 100, k = 100)\nquery eps(delta = 0)\n")
	var me *MemoryError
	if !errors.As(err, &me) || !errors.Is(err, context.Canceled) {
		t.Fatalf("loading: err = %v, want a *MemoryError", err)
	}
	if me.Limit != limit || me.Held <= limit || me.Hint != "raise the memory limit" {
		t.Errorf("loading: %+v", me)
	}

	// Its model built under a higher limit, the distributions of its
	// 10 201 inputs take more than this one: the statement stops.
	p, err := Config{}.Load(ctx, "big.dp", "model above_threshold(n = 100, k = 100)\nquery eps(delta = 0)\nquery delta(eps = 0)\n")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Config{Limits: property.Limits{MaxMemory: 400 << 20}}.Run(ctx, p)
	if !errors.As(err, &me) || me.Limit != 400<<20 {
		t.Fatalf("evaluating: err = %v, want a *MemoryError", err)
	}
	if len(r.Statements) != 1 || !errors.As(r.Statements[0].Err(), &me) {
		t.Fatalf("evaluating: the stopped statement says %v", r.Statements)
	}
	if r.Statements[0].Pass() || r.Statements[0].Value() != "error" {
		t.Errorf("a stopped statement passes: %v", r.Statements[0].Value())
	}
}
