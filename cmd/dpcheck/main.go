// Command dpcheck checks differential-privacy properties of mechanisms
// described in .dp files. Run dpcheck --help for usage.
package main

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"runtime/debug"
	"slices"
	"time"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/prism"
	"github.com/dpcheck/dpcheck/report"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/verify"
)

//go:embed usage.txt
var usage string

func main() {
	worker := os.Getenv(workerEnv) == "1"
	if worker {
		watchParent()
	} else {
		if code, ok := supervise(os.Args[1:], os.Stderr); ok {
			os.Exit(code)
		}
	}
	ctx, stop := stopSignals()
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if worker {
		code += workerBase
	}
	os.Exit(code)
}

// Exit statuses.
const (
	exitPass, exitFail, exitInvalid, exitAborted, exitInternal = 0, 1, 2, 3, 4
)

// run is one run of dpcheck, in stages: the flags, the inputs, the
// checks, the reports, the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) (code int) {
	defer func() { // the last resort: a bug in dpcheck is not a crash
		if r := recover(); r != nil {
			reportInternal(stderr, &dpcheck.InternalError{Value: r, Stack: string(debug.Stack())})
			code = exitInternal
		}
	}()
	if len(args) > 0 && args[0] == "fmt" {
		return runFmt(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "serve" {
		return runServe(ctx, args[1:], stdout, stderr)
	}
	o, code, ok := parseFlags(args, stdout, stderr)
	if !ok {
		return code
	}
	inputs, sweep, code, ok := readInputs(&o, stderr)
	if !ok {
		return code
	}
	// The collector keeps garbage under the limit; the watch of each
	// check (dpcheck.WatchMemory) stops what is live beyond it.
	debug.SetMemoryLimit(o.cfg.Limits.MaxMemory)
	if o.pictures() && len(inputs) != 1 {
		return usageError(stderr, "--dot, --svg and --profile draw one file; %d given", len(inputs))
	}
	if o.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.timeout)
		defer cancel()
	}
	runs, err := runsOf(o.cfg, inputs, sweep)
	if err != nil {
		return usageError(stderr, "--const: %v", err)
	}
	entries := checkAll(ctx, &o, runs, inputs, stderr)
	code = render(ctx, &o, entries, stdout, stderr)
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		fmt.Fprintf(stderr, "dpcheck: stopped after %s (--timeout)\n", o.timeout)
		return max(code, exitAborted)
	case ctx.Err() != nil:
		fmt.Fprintf(stderr, "dpcheck: %s\n", stoppedBy(ctx))
		return max(code, exitAborted)
	}
	return code
}

// readInputs turns the files into inputs, reads standard input when one
// of them is "-" and reads --const: one assignment of the constants per
// run (several for a sweep). When the run ends here it has said why, and
// ok is false with the run's exit status.
func readInputs(o *options, stderr io.Writer) (inputs []dpcheck.Input, sweep []prism.Assignment, code int, ok bool) {
	inputs, err := dpcheck.ExpandInputs(o.files)
	if err != nil {
		return nil, nil, usageError(stderr, "%v", err), false
	}
	stdin, stdinErr, err := readStdin(inputs, o.cfg.MaxFileSize)
	if err != nil {
		return nil, nil, usageError(stderr, "%v", err), false
	}
	o.cfg.Stdin = func() (string, error) { return stdin, stdinErr }
	sweep, err = prism.ParseSweep(o.consts...)
	if err != nil {
		return nil, nil, usageError(stderr, "--const: %v", err), false
	}
	if p := o.cfg.PRISMParam; p != nil {
		for _, in := range inputs {
			if in.Model == "" && in.Err == nil {
				return nil, nil, usageError(stderr, "--param is for PRISM models; %s is a .dp file, which names its parameter itself (param %s in (0, 1))", source.Escape(in.File), p.Name), false
			}
		}
		for _, a := range sweep {
			if _, ok := a.Consts[p.Name]; ok {
				return nil, nil, usageError(stderr, "--param %s and --const %s: %s is either a parameter or given a value, not both", p.Name, p.Name, p.Name), false
			}
		}
	}
	o.cfg.ConstHint = func(name string) string { return fmt.Sprintf("give it with --const %s=…", name) }
	o.cfg.LimitHint = func(limit string) string {
		if hints[limit] == "" {
			return ""
		}
		return "raise it with " + hints[limit]
	}
	return inputs, sweep, exitPass, true
}

// checkAll checks each input with the front end its name chooses
// (dpcheck.Config.CheckInput), showing progress on stderr, until the
// context ends.
func checkAll(ctx context.Context, o *options, runs [][]prism.Assignment, inputs []dpcheck.Input, stderr io.Writer) []report.Entry {
	var entries []report.Entry
	for i, in := range inputs {
		for _, a := range runs[i] {
			entries = append(entries, checkOne(ctx, o, in, a, stderr))
			if ctx.Err() != nil {
				return entries
			}
		}
	}
	return entries
}

// runsOf gives each input the values of the constants it declares: one
// run per distinct combination of them (a file that declares none of a
// sweep's constants runs once). A name that no input declares is an error.
// An input whose files cannot be parsed runs once, with every value:
// checking it says what is wrong.
func runsOf(cfg dpcheck.Config, inputs []dpcheck.Input, sweep []prism.Assignment) ([][]prism.Assignment, error) {
	runs := make([][]prism.Assignment, len(inputs))
	declared := map[string]bool{}
	all := true
	for i, in := range inputs {
		names, ok := cfg.ConstNames(in)
		if !ok {
			all = false
			runs[i] = sweep[:1]
			continue
		}
		seen := map[string]bool{}
		for _, a := range sweep {
			p := a.Project(func(n string) bool { return slices.Contains(names, n) })
			if !seen[p.Text] {
				seen[p.Text] = true
				runs[i] = append(runs[i], p)
			}
		}
		for _, n := range names {
			declared[n] = true
		}
	}
	if all {
		for _, n := range slices.Sorted(maps.Keys(sweep[0].Consts)) {
			if !declared[n] {
				return nil, fmt.Errorf("no file given declares a constant %s", n)
			}
		}
	}
	return runs, nil
}

// checkOne checks one input under one assignment of the constants.
func checkOne(ctx context.Context, o *options, in dpcheck.Input, a prism.Assignment, stderr io.Writer) report.Entry {
	f := in.File
	if f == "-" {
		f = dpcheck.StdinName
	}
	start := time.Now()
	pctx, done := report.Progress(ctx, stderr, f)
	if show := verify.ProgressReporter(pctx); show != nil {
		show(verify.Progress{Stage: "reading"})
	}
	// Other files an entry reads (PRISM models) are kept for its errors.
	read := map[string]string{}
	c := o.cfg
	c.ReadFile = func(path string) (string, error) {
		src, err := dpcheck.ReadSource(path, o.cfg.MaxFileSize)
		if err == nil {
			read[path] = src
		}
		return src, err
	}
	e := report.Entry{File: f, Consts: a.Text}
	if in.Err == nil {
		e.Sources = read
	}
	e.Source, e.Result, e.Err = c.CheckInput(pctx, in, a.Consts)
	e.Err = withHint(e.Err)
	e.Elapsed = time.Since(start)
	done()
	return e
}

// render writes the reports and the pictures, and returns the exit
// status the entries call for.
func render(ctx context.Context, o *options, entries []report.Entry, stdout, stderr io.Writer) (code int) {
	for _, e := range entries {
		switch report.StatusOf(e) {
		case report.Fail:
			code = max(code, exitFail)
		case report.Invalid:
			code = max(code, exitInvalid)
		case report.Aborted:
			code = max(code, exitAborted)
		case report.Internal:
			reportInternal(stderr, e.Err)
			code = max(code, exitInternal)
		}
	}
	// A report that cannot be written is an error of the run (exit status
	// 3, the file named); a picture that cannot be drawn is a warning.
	if !writeReports(stdout, stderr, o.format, o.outs, entries) {
		code = max(code, exitAborted)
	}
	if o.pictures() && ctx.Err() == nil {
		drawPictures(ctx, stderr, entries[0], o.dot, o.svg, o.prof)
	}
	return code
}

// readStdin reads standard input when one of the inputs is "-" (at most
// one may be): its text, or the error reading it (over --max-file-size),
// which is that input's. More than one "-" is a usage error.
func readStdin(inputs []dpcheck.Input, limit int64) (string, error, error) {
	n := 0
	for _, in := range inputs {
		if in.File == "-" {
			n++
		}
	}
	switch {
	case n == 0:
		return "", nil, nil
	case n > 1:
		return "", nil, errors.New("standard input (-) can be read once: give - at most once")
	}
	src, err := dpcheck.ReadSourceFrom(dpcheck.StdinName, os.Stdin, limit)
	return src, err, nil
}
