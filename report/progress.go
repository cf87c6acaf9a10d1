package report

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/dpcheck/dpcheck/verify"
)

// ProgressLine returns a progress reporter for a terminal that rewrites
// one line of w — "models/big.dp: ordered pairs (dp) 1234/4000, 2.1s" — at
// most five times a second and only after the first second, reading the
// time from now; and the function that erases the line.
func ProgressLine(w io.Writer, file string, now func() time.Time) (report func(verify.Progress), done func()) {
	start := now()
	var mu sync.Mutex
	var last time.Time
	shown := false
	report = func(p verify.Progress) {
		mu.Lock()
		defer mu.Unlock()
		t := now()
		if t.Sub(start) < time.Second || t.Sub(last) < 200*time.Millisecond {
			return
		}
		last, shown = t, true
		fmt.Fprintf(w, "\r\033[K%s: %s %d/%d, %.1fs", file, p.Stage, p.Done, p.Total, t.Sub(start).Seconds())
	}
	done = func() {
		mu.Lock()
		defer mu.Unlock()
		if shown {
			fmt.Fprint(w, "\r\033[K")
		}
	}
	return report, done
}

// Progress shows the verifier's progress while file is checked under the
// returned context, on w when it is a terminal (see ProgressLine); on
// anything else (a pipe, a file, a CI log) nothing. done erases the line.
func Progress(ctx context.Context, w io.Writer, file string) (_ context.Context, done func()) {
	f, ok := w.(*os.File)
	if !ok {
		return ctx, func() {}
	}
	if info, err := f.Stat(); err != nil || info.Mode()&os.ModeCharDevice == 0 {
		return ctx, func() {}
	}
	show, done := ProgressLine(w, file, time.Now)
	return verify.WithProgress(ctx, show), done
}
