package dpcheck

import (
	"context"
	"errors"
	"testing"

	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/verify"
)

// TestMemoryLimitStopsACheck: a check whose model or distributions need
// more memory than Limits.MaxMemory stops with a *MemoryError naming the
// limit (a cancellation, like a timeout), while loading and while
// evaluating, and says how to raise it when the caller gives a hint.
func TestMemoryLimitStopsACheck(t *testing.T) {
	const limit = 96 << 20
	cfg := Config{Limits: model.Limits{MaxMemory: limit}, LimitHint: func(l string) string { return "raise the " + l + " limit" }}
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
	r, err := Config{Limits: model.Limits{MaxMemory: 400 << 20}}.Run(ctx, p)
	if !errors.As(err, &me) || me.Limit != 400<<20 {
		t.Fatalf("evaluating: err = %v, want a *MemoryError", err)
	}
	if len(r.Statements) != 2 || !errors.As(r.Statements[0].Err(), &me) {
		t.Fatalf("evaluating: the stopped statement says %v", r.Statements)
	}
	// The statement after it never started, and says why.
	var ns *property.NotStartedError
	if err := r.Statements[1].Err(); !errors.As(err, &ns) || !errors.As(err, &me) || r.Statements[1].Pass() {
		t.Errorf("evaluating: the statement after the stop says %v", err)
	}
	if r.Statements[0].Pass() || r.Statements[0].Value() != "error" {
		t.Errorf("a stopped statement passes: %v", r.Statements[0].Value())
	}
}

// TestRunStoppedBetweenStatements: a run whose context ends between two
// statements reports the next statement as stopped — every report then
// shows where the run stopped — instead of ending after a statement that
// passed with nothing cut off; the statements after it are listed as
// never started.
func TestRunStoppedBetweenStatements(t *testing.T) {
	src := "model survey()\ncheck dp(eps = ln(3))\nquery eps(delta = 0)\nquery delta(eps = 0)\n"
	p, err := Config{}.Load(context.Background(), "s.dp", src)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The stop comes as the first statement reports its last pair done:
	// it has nothing left to stop, and completes.
	ctx = verify.WithProgress(ctx, func(pr verify.Progress) {
		if pr.Stage == "line 2 (check dp): ordered pairs (dp)" && pr.Done == pr.Total {
			cancel()
		}
	})
	r, err := Config{}.Run(ctx, p)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if len(r.Statements) != 3 || !r.Statements[0].Pass() || !errors.Is(r.Statements[1].Err(), context.Canceled) || r.Statements[1].Statement() != p.Program.Statements[1] {
		t.Fatalf("%d statements; want the first passed, the second stopped and the third not started", len(r.Statements))
	}
	var ns *property.NotStartedError
	if err := r.Statements[2].Err(); !errors.As(err, &ns) || !errors.Is(err, context.Canceled) || r.Statements[2].Statement() != p.Program.Statements[2] {
		t.Errorf("the third statement: %v", err)
	}
	if _, ok := r.Statements[1].Err().(*property.NotStartedError); ok {
		t.Errorf("the statement cut off is reported as never started")
	}
	if v := r.Statements[1].Value(); v != "error" {
		t.Errorf("value %q, want error", v)
	}
}
