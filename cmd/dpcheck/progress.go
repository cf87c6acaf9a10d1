package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/dpcheck/dpcheck/verify"
)

// withProgress shows the verifier's progress on stderr when it is a
// terminal — "models/big.dp: ordered pairs (dp) 1234/4000, 2.1s" — at most
// five times a second and only after the first second. done erases the
// line.
func withProgress(ctx context.Context, stderr io.Writer, file string) (context.Context, func()) {
	f, ok := stderr.(*os.File)
	if !ok {
		return ctx, func() {}
	}
	if info, err := f.Stat(); err != nil || info.Mode()&os.ModeCharDevice == 0 {
		return ctx, func() {}
	}
	start := time.Now()
	var mu sync.Mutex
	var last time.Time
	shown := false
	report := func(p verify.Progress) {
		mu.Lock()
		defer mu.Unlock()
		now := time.Now()
		if now.Sub(start) < time.Second || now.Sub(last) < 200*time.Millisecond {
			return
		}
		last, shown = now, true
		fmt.Fprintf(f, "\r\033[K%s: %s %d/%d, %.1fs", file, p.Stage, p.Done, p.Total, now.Sub(start).Seconds())
	}
	done := func() {
		mu.Lock()
		defer mu.Unlock()
		if shown {
			fmt.Fprint(f, "\r\033[K")
		}
	}
	return verify.WithProgress(ctx, report), done
}
