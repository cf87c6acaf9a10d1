package verify

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// Progress is a report on a long computation: Done of Total items of the
// named Stage ("ordered pairs (dp)", ...).
type Progress struct {
	Stage       string
	Done, Total int
}

type progressKey struct{}

// WithProgress returns a context whose computations report their progress
// to report, which may be called from several goroutines at once and must
// be cheap (throttle in report). The verifier itself never prints.
func WithProgress(ctx context.Context, report func(Progress)) context.Context {
	return context.WithValue(ctx, progressKey{}, report)
}

// ProgressReporter returns the progress reporter ctx carries (see
// WithProgress), or nil: a caller that runs several stages reports their
// names through it, and may wrap it to say which stage the verifier's
// reports belong to.
func ProgressReporter(ctx context.Context) func(Progress) {
	report, _ := ctx.Value(progressKey{}).(func(Progress))
	return report
}

// parallel calls work(sc, i) for i in [0, n) on up to GOMAXPROCS workers;
// sc is the calling worker's own scratch space, never shared. It stops early and
// returns the context's error when ctx is cancelled, or the first error a
// call returns. When the context carries a progress reporter and stage is
// not empty, every finished item is reported.
func parallel(ctx context.Context, stage string, n int, work func(sc *scratch, i int) error) error {
	if report, ok := ctx.Value(progressKey{}).(func(Progress)); ok && stage != "" {
		var done atomic.Int64
		inner := work
		work = func(sc *scratch, i int) error {
			err := inner(sc, i)
			report(Progress{Stage: stage, Done: int(done.Add(1)), Total: n})
			return err
		}
	}
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		var sc scratch
		for i := range n {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := work(&sc, i); err != nil {
				return err
			}
		}
		return nil
	}
	var (
		next    atomic.Int64
		wg      sync.WaitGroup
		errOnce sync.Once
		first   error
		stop    atomic.Bool
		// panicked holds a worker's panic, re-raised in the caller's
		// goroutine (where the caller can recover it).
		panicked atomic.Value
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					panicked.CompareAndSwap(nil, fmt.Sprintf("%v\n\n%s", r, debug.Stack()))
					stop.Store(true)
				}
			}()
			var sc scratch
			for !stop.Load() {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				err := ctx.Err()
				if err == nil {
					err = work(&sc, i)
				}
				if err != nil {
					errOnce.Do(func() { first = err })
					stop.Store(true)
					return
				}
			}
		}()
	}
	wg.Wait()
	if r := panicked.Load(); r != nil {
		panic(r)
	}
	return first
}
