package report

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dpcheck/dpcheck/verify"
)

// fakeClock is a clock the test moves.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func (c *fakeClock) at(ms int) {
	c.t = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(ms) * time.Millisecond)
}

// TestProgressLine: nothing in the first second, then at most one line per
// 200 ms for new reports, each rewriting the previous one; done erases it.
func TestProgressLine(t *testing.T) {
	clock := &fakeClock{}
	clock.at(0)
	var b bytes.Buffer
	l := NewProgressLine(&b, "m.dp", clock.now)
	for _, ms := range []int{500, 1200, 1300, 1500} {
		clock.at(ms)
		l.Report(verify.Progress{Stage: "ordered pairs (dp)", Done: ms, Total: 4000})
	}
	l.Done()
	want := "\r\033[Km.dp: ordered pairs (dp) 1200/4000, 1.2s" + "\r\033[Km.dp: ordered pairs (dp) 1500/4000, 1.5s" + "\r\033[K"
	if got := b.String(); got != want {
		t.Errorf("progress output %q, want %q", got, want)
	}
}

// TestProgressTicks: a stage that reports nothing for long is redrawn by
// the ticks, with the elapsed time, at least every two seconds — first at
// one second, with the stage reported before it (throttled then); a tick
// less than a second after a draw draws nothing.
func TestProgressTicks(t *testing.T) {
	clock := &fakeClock{}
	clock.at(0)
	var b bytes.Buffer
	l := NewProgressLine(&b, "m.dp", clock.now)
	clock.at(100)
	l.Report(verify.Progress{Stage: "building the model: exploring its states"})
	var draws []string
	for ms := 500; ms <= 6000; ms += 500 {
		clock.at(ms)
		before := b.Len()
		l.Tick()
		if b.Len() > before {
			draws = append(draws, b.String()[before:])
		}
	}
	want := []string{
		"\r\033[Km.dp: building the model: exploring its states, 1.0s",
		"\r\033[Km.dp: building the model: exploring its states, 2.0s",
		"\r\033[Km.dp: building the model: exploring its states, 3.0s",
		"\r\033[Km.dp: building the model: exploring its states, 4.0s",
		"\r\033[Km.dp: building the model: exploring its states, 5.0s",
		"\r\033[Km.dp: building the model: exploring its states, 6.0s",
	}
	if strings.Join(draws, "|") != strings.Join(want, "|") {
		t.Errorf("draws\n%q\nwant\n%q", draws, want)
	}
	// A report between ticks draws at once (200 ms after the last draw),
	// and the next tick waits a second from it.
	clock.at(6300)
	l.Report(verify.Progress{Stage: "line 7 (check dp): ordered pairs (dp)", Done: 3, Total: 10})
	clock.at(6500)
	l.Tick()
	clock.at(7300)
	l.Tick()
	l.Done()
	clock.at(9000)
	l.Tick()
	l.Report(verify.Progress{Stage: "after done"})
	rest := b.String()[strings.LastIndex(b.String(), "6.0s")+len("6.0s"):]
	wantRest := "\r\033[Km.dp: line 7 (check dp): ordered pairs (dp) 3/10, 6.3s" +
		"\r\033[Km.dp: line 7 (check dp): ordered pairs (dp) 3/10, 7.3s" + "\r\033[K"
	if rest != wantRest {
		t.Errorf("after the ticks: %q, want %q", rest, wantRest)
	}
}

// TestProgressText: names are escaped and the line is cut to
// MaxProgressWidth characters, the file's name from its start.
func TestProgressText(t *testing.T) {
	for _, tc := range []struct {
		file string
		p    verify.Progress
		want string
	}{
		{"m.dp", verify.Progress{Stage: "loading"}, "m.dp: loading, 2.0s"},
		{"a\n::error file=x::owned\x1b[2J.dp", verify.Progress{Stage: "loading"}, `a\n::error file=x::owned\x1b[2J.dp: loading, 2.0s`},
		{strings.Repeat("d/", 60) + "m.dp", verify.Progress{Stage: "line 12 (check dp): ordered pairs (dp)", Done: 10, Total: 400},
			"…/d/d/d/d/d/d/d/d/d/d/m.dp: line 12 (check dp): ordered pairs (dp) 10/400, 2.0s"},
	} {
		got := progressText(tc.file, tc.p, 2*time.Second)
		if got != tc.want {
			t.Errorf("progressText(%q) = %q, want %q", tc.file, got, tc.want)
		}
		if n := len([]rune(got)); n > MaxProgressWidth {
			t.Errorf("progressText(%q) has %d characters", tc.file, n)
		}
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
