package main

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/picture"
	"github.com/dpcheck/dpcheck/report"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/spec"
)

// What a run writes besides its exit status: the report in --format on
// standard output, the report files of --junit, --json and --markdown,
// and the pictures of --dot, --svg and --profile.

//go:embed fmt_usage.txt
var fmtUsage string

// reportFiles are the reports written to files alongside --format's.
type reportFiles struct {
	junit, json, markdown string
}

// writeReports writes the report in format to stdout and each report
// file; it reports whether every write succeeded. A failed write is said
// on stderr with the file and the error. --markdown appends (a CI's job
// summary is one file for all its steps).
func writeReports(stdout, stderr io.Writer, format string, files reportFiles, entries []report.Entry) bool {
	ok := true
	fail := func(where string, err error) {
		fmt.Fprintf(stderr, "dpcheck: error: cannot write the %s: %v\n", where, err)
		ok = false
	}
	if err := report.Write(stdout, format, entries, dpcheck.Version); err != nil {
		fail(format+" report to standard output", err)
	}
	for _, f := range []struct {
		path, format string
		append       bool
	}{{files.junit, "junit", false}, {files.json, "json", false}, {files.markdown, "markdown", true}} {
		if f.path == "" {
			continue
		}
		if err := writeFile(f.path, f.append, func(w io.Writer) error { return report.Write(w, f.format, entries, dpcheck.Version) }); err != nil {
			fail(fmt.Sprintf("%s report to %s", f.format, f.path), err)
		}
	}
	return ok
}

// writeFile creates (or appends to) path and writes it with write; the
// error of the write or of closing the file is returned.
func writeFile(path string, appendTo bool, write func(io.Writer) error) error {
	mode := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if appendTo {
		mode = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	f, err := os.OpenFile(path, mode, 0o644)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// drawPictures draws the pictures of the one file given. Pictures never
// change the exit status: a picture that cannot be drawn is a warning on
// stderr, and the others are still written; a chain too large to draw
// whole is drawn as a summary, with a warning that says so.
func drawPictures(ctx context.Context, stderr io.Writer, e report.Entry, dot, svg, prof string) {
	warn := func(format string, args ...any) {
		fmt.Fprintf(stderr, "dpcheck: warning: "+format+"\n", args...)
	}
	r := e.Result
	if why := picture.Undrawable(r); why != "" {
		if r != nil && r.Prepared != nil {
			why = "--dot, --svg and --profile draw a Markov chain, and " + why
		}
		warn("no picture of %s: %s", e.File, why)
		return
	}
	if why := picture.NoProfile(r); prof != "" && why != "" {
		warn("no profile of %s: %s", e.File, why)
		prof = ""
	}
	if c := r.Prepared.Chain; c != nil && (dot != "" || svg != "") && picture.Summarized(c) {
		warn("the chain of %s has %d states and %d transitions: --dot and --svg draw a summary (the pair, the worst event and counts of the rest; a chain is drawn whole up to %d states and %d transitions)",
			e.File, c.NumStates(), c.NumTransitions(), picture.MaxDOTStates, picture.MaxDOTTransitions)
	}
	for _, err := range picture.Draw(ctx, r, dot, svg, prof) {
		if ctx.Err() != nil {
			return // said by the run: interrupted or --timeout
		}
		if errors.Is(err, picture.ErrNoGraphviz) {
			err = fmt.Errorf("no SVG: %v; --dot writes the DOT file to render elsewhere", err)
		}
		warn("%v", err)
	}
}

// reportInternal tells the user that dpcheck itself failed.
func reportInternal(stderr io.Writer, err error) {
	fmt.Fprintf(stderr, "dpcheck: internal error — please report it, with the file that caused it: %v\n", err)
	var ie *dpcheck.InternalError
	if errors.As(err, &ie) && ie.Stack != "" {
		fmt.Fprintf(stderr, "\n%s\n", ie.Stack)
	}
}

// withHint adds to an error about a limit the flag that raises it.
func withHint(err error) error {
	var list source.ErrorList
	if errors.As(err, &list) {
		for _, e := range list {
			if flag := hints[e.Limit]; flag != "" {
				e.Msg += " (raise it with " + flag + ")"
			} else if e.Limit == spec.LimitRoot {
				e.Msg += " (give another root with --root DIR)"
			}
		}
	}
	var fe *dpcheck.FileSizeError
	if errors.As(err, &fe) {
		return fmt.Errorf("%w (raise it with %s)", err, hints["file size"])
	}
	return err
}
