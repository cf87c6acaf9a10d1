package verify

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// parallel calls work(w, i) for i in [0, n) on up to GOMAXPROCS workers; w
// is the worker number, for per-worker scratch space. It stops early and
// returns the context's error when ctx is cancelled, or the first error a
// call returns.
func parallel(ctx context.Context, n int, work func(w, i int) error) error {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := work(0, i); err != nil {
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
	)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				err := ctx.Err()
				if err == nil {
					err = work(w, i)
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
	return first
}

func numWorkers() int { return runtime.GOMAXPROCS(0) }
