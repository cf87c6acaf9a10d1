package report

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/dpcheck/dpcheck/verify"
)

// TestProgressLine: nothing in the first second, then at most one line per
// 200 ms, each rewriting the previous one; done erases it.
func TestProgressLine(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := t0
	var b bytes.Buffer
	report, done := ProgressLine(&b, "m.dp", func() time.Time { return clock })
	for _, ms := range []int{500, 1200, 1300, 1500} {
		clock = t0.Add(time.Duration(ms) * time.Millisecond)
		report(verify.Progress{Stage: "ordered pairs (dp)", Done: ms, Total: 4000})
	}
	done()
	want := "\r\033[Km.dp: ordered pairs (dp) 1200/4000, 1.2s" + "\r\033[Km.dp: ordered pairs (dp) 1500/4000, 1.5s" + "\r\033[K"
	if got := b.String(); got != want {
		t.Errorf("progress output %q, want %q", got, want)
	}
}

// TestNoProgressOffTerminal: a writer that is not a terminal gets no
// progress reporter.
func TestNoProgressOffTerminal(t *testing.T) {
	var quiet bytes.Buffer
	ctx := context.Background()
	if got, _ := Progress(ctx, &quiet, "m.dp"); got != ctx {
		t.Error("Progress wraps the context for a writer that is not a terminal")
	}
}
