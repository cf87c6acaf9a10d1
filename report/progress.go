package report

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/dpcheck/dpcheck/verify"
)

// ProgressLine is a progress line on a terminal: one line of w, rewritten
// in place — "models/big.dp: line 7 (check dp): ordered pairs (dp)
// 1234/4000, 2.1s" — with the stage last reported and the time since the
// line was made. Nothing is drawn in the first second. Then a new stage
// or count is drawn at most five times a second, and Tick redraws the
// elapsed time when nothing new was reported for a second, so that a long
// stage that reports nothing still shows that dpcheck works. Its methods
// may be called from several goroutines at once.
type ProgressLine struct {
	w    io.Writer
	file string
	now  func() time.Time

	mu          sync.Mutex
	start, last time.Time
	p           verify.Progress
	shown       bool
}

// MaxProgressWidth is the widest progress line, in characters: a line
// wider than the terminal would wrap, and the rewrite would erase only
// its last row.
const MaxProgressWidth = 79

// NewProgressLine returns a progress line for file on w, reading the time
// from now.
func NewProgressLine(w io.Writer, file string, now func() time.Time) *ProgressLine {
	t := now()
	return &ProgressLine{w: w, file: file, now: now, start: t}
}

// Report records the stage p and draws it, unless the line was drawn less
// than 200 ms ago or is less than a second old (Tick draws it later).
func (l *ProgressLine) Report(p verify.Progress) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.p = p
	t := l.now()
	if t.Sub(l.start) < time.Second || l.shown && t.Sub(l.last) < 200*time.Millisecond {
		return
	}
	l.draw(t)
}

// Tick redraws the line when it is at least a second old and was not
// drawn in the last second: call it every half second or so.
func (l *ProgressLine) Tick() {
	l.mu.Lock()
	defer l.mu.Unlock()
	t := l.now()
	if t.Sub(l.start) < time.Second || l.shown && t.Sub(l.last) < time.Second {
		return
	}
	l.draw(t)
}

// Done erases the line, if it was drawn; it is not drawn again.
func (l *ProgressLine) Done() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.shown {
		fmt.Fprint(l.w, "\r\033[K")
	}
	l.shown = false
	l.start = time.Unix(1<<62, 0) // never again
}

func (l *ProgressLine) draw(t time.Time) {
	l.last, l.shown = t, true
	fmt.Fprintf(l.w, "\r\033[K%s", progressText(l.file, l.p, t.Sub(l.start)))
}

// progressText is the progress line's text: the file, the stage with its
// counts and the elapsed time, escaped (textSafe) and cut to
// MaxProgressWidth characters — the file's name first, from its start.
func progressText(file string, p verify.Progress, elapsed time.Duration) string {
	stage := textSafe(p.Stage)
	if stage == "" {
		stage = "starting"
	}
	if p.Total > 0 {
		stage += fmt.Sprintf(" %d/%d", p.Done, p.Total)
	}
	tail := fmt.Sprintf(": %s, %.1fs", stage, elapsed.Seconds())
	name := textSafe(file)
	room := MaxProgressWidth - utf8.RuneCountInString(tail)
	if n := utf8.RuneCountInString(name); n > room {
		r := []rune(name)
		name = "…" + string(r[len(r)-min(len(r), max(room-1, 8)):])
	}
	text := name + tail
	if r := []rune(text); len(r) > MaxProgressWidth {
		text = string(r[:MaxProgressWidth-1]) + "…"
	}
	return text
}

// Progress shows the progress of checking file under the returned
// context, on w when it is a terminal (see ProgressLine): the stages of
// loading and checking, reported through verify.WithProgress, and the
// elapsed time redrawn by a ticker. On anything else (a pipe, a file, a
// CI log) nothing. done stops the ticker and erases the line.
func Progress(ctx context.Context, w io.Writer, file string) (_ context.Context, done func()) {
	f, ok := w.(*os.File)
	if !ok {
		return ctx, func() {}
	}
	if info, err := f.Stat(); err != nil || info.Mode()&os.ModeCharDevice == 0 {
		return ctx, func() {}
	}
	line := NewProgressLine(w, file, time.Now)
	ticker := time.NewTicker(500 * time.Millisecond)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-ticker.C:
				line.Tick()
			case <-stop:
				return
			}
		}
	}()
	var once sync.Once
	done = func() {
		once.Do(func() {
			ticker.Stop()
			close(stop)
			wg.Wait()
			line.Done()
		})
	}
	return verify.WithProgress(ctx, line.Report), done
}
