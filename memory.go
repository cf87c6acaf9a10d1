package dpcheck

import (
	"context"
	"errors"
	"runtime"
	"runtime/metrics"
	"sync"
	"time"

	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/outcome"
)

// MemoryError says that a check was stopped because the process held more
// memory than the limit (outcome.MemoryError): errors.Is reports it as
// context.Canceled.
type MemoryError = outcome.MemoryError

// memoryWatchKey marks a context that a memory watch already covers.
type memoryWatchKey struct{}

// memorySample is how often the watch reads the process's memory. At a
// few gigabytes a second of allocation, a run holds at most some tens of
// megabytes more than the limit before the watch sees it.
const memorySample = 10 * time.Millisecond

// WatchMemory returns a context that is cancelled when the process holds
// more than limit bytes of live memory, with a *MemoryError as its cause
// (context.Cause), and the function that ends the watch. Everything dpcheck
// computes checks its context, so a check that needs more memory than the
// limit stops soon after it gets there, instead of exhausting the machine.
//
// It measures the whole process, as the Go runtime counts it (the memory
// it has mapped and not returned to the system); when that exceeds the
// limit it collects garbage and stops the check only if the live heap is
// still over the limit, so garbage never stops a check. For the collector
// to keep garbage under the limit on its own, set the same value with
// debug.SetMemoryLimit (the dpcheck command does). Config's checks watch
// their memory with Config.Limits.MaxMemory; use WatchMemory to give the
// same protection to verify or builder calls made directly.
func WatchMemory(ctx context.Context, limit int64) (context.Context, context.CancelFunc) {
	if ctx.Value(memoryWatchKey{}) != nil {
		ctx, cancel := context.WithCancel(ctx)
		return ctx, cancel
	}
	ctx, cancel := context.WithCancelCause(context.WithValue(ctx, memoryWatchKey{}, limit))
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(memorySample)
		defer tick.Stop()
		samples := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
		live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		var lastGC time.Time
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case now := <-tick.C:
				metrics.Read(samples)
				held := int64(samples[0].Value.Uint64() - samples[1].Value.Uint64())
				if held <= limit || now.Sub(lastGC) < 5*memorySample {
					continue
				}
				// Over the limit as mapped: garbage or live data? A
				// collection tells.
				runtime.GC()
				lastGC = time.Now()
				metrics.Read(live)
				if h := int64(live[0].Value.Uint64()); h > limit {
					cancel(&MemoryError{Held: h, Limit: limit})
					return
				}
			}
		}
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() { close(done) })
		cancel(context.Canceled)
	}
}

// memoryCause returns the *MemoryError that stopped ctx, or nil.
func memoryCause(ctx context.Context) *MemoryError {
	var me *MemoryError
	if errors.As(context.Cause(ctx), &me) {
		return me
	}
	return nil
}

// watch runs a check of c under a watch of its memory (WatchMemory with
// c.Limits.MaxMemory) and returns the context and the function that ends
// the watch and turns a cancellation by it into the *MemoryError.
func (c Config) watch(ctx context.Context) (context.Context, func(error) error) {
	ctx, stop := WatchMemory(ctx, c.Limits.WithDefaults().MaxMemory)
	return ctx, func(err error) error {
		me := memoryCause(ctx)
		stop()
		if me != nil && errors.Is(err, context.Canceled) {
			return c.withHint(me)
		}
		return err
	}
}

// withHint gives a memory error the caller's hint.
func (c Config) withHint(me *MemoryError) *MemoryError {
	if c.LimitHint != nil && me.Hint == "" {
		cp := *me
		cp.Hint = c.LimitHint(string(model.LimitMemory))
		return &cp
	}
	return me
}

// hintLimit adds the caller's hint (Config.LimitHint) to an error about a
// limit that stopped a statement: a *model.LimitError, or an error that
// names its limit with a LimitKind method (verify.WorkLimitError,
// param.EliminationLimitError, mdp.LimitError).
func (c Config) hintLimit(err error) error {
	if c.LimitHint == nil {
		return err
	}
	var kind string
	var le *model.LimitError
	var lk interface{ LimitKind() string }
	switch {
	case errors.As(err, &le):
		kind = string(le.Limit)
	case errors.As(err, &lk):
		kind = lk.LimitKind()
	default:
		return err
	}
	if h := c.LimitHint(kind); h != "" {
		return &hinted{err: err, hint: h}
	}
	return err
}

// hinted is an error with a hint on how to avoid it.
type hinted struct {
	err  error
	hint string
}

func (h *hinted) Error() string { return h.err.Error() + " (" + h.hint + ")" }
func (h *hinted) Unwrap() error { return h.err }
