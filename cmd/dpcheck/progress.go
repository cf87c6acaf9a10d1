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
// line. Anything but a terminal (a pipe, a file, a CI log) gets nothing.
func withProgress(ctx context.Context, stderr io.Writer, file string) (context.Context, func()) {
	if !isTerminal(stderr) {
		return ctx, func() {}
	}
	report, done := progressLine(stderr, file, time.Now)
	return verify.WithProgress(ctx, report), done
}

// isTerminal reports whether w is a character device.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// progressLine returns a progress reporter that rewrites one line of w,
// reading the time from now, and the function that erases the line.
func progressLine(w io.Writer, file string, now func() time.Time) (func(verify.Progress), func()) {
	start := now()
	var mu sync.Mutex
	var last time.Time
	shown := false
	report := func(p verify.Progress) {
		mu.Lock()
		defer mu.Unlock()
		t := now()
		if t.Sub(start) < time.Second || t.Sub(last) < 200*time.Millisecond {
			return
		}
		last, shown = t, true
		fmt.Fprintf(w, "\r\033[K%s: %s %d/%d, %.1fs", file, p.Stage, p.Done, p.Total, t.Sub(start).Seconds())
	}
	done := func() {
		mu.Lock()
		defer mu.Unlock()
		if shown {
			fmt.Fprint(w, "\r\033[K")
		}
	}
	return report, done
}
