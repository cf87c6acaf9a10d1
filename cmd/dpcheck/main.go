// Command dpcheck checks differential-privacy properties of mechanisms
// described in .dp files. Run dpcheck --help for usage.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/report"
	"github.com/dpcheck/dpcheck/spec"
)

const usage = `dpcheck — exact model checking of differential privacy

Usage:
  dpcheck [flags] FILE|DIR ...      check .dp files (a directory: every .dp file below it);
                                    flags may come before or after the files
  dpcheck fmt [-w] [--check] FILE|DIR ...
                                    print .dp files in canonical form; -w rewrites
                                    them, --check lists those not formatted

Flags:
  --format FORMAT        text (default), json, junit or github (workflow annotations)
  --timeout DURATION     stop after DURATION (e.g. 30s, 5m); exit status 3
  --max-states N         refuse models with more states (default 10000000)
  --max-transitions N    refuse models with more transitions (default 10000000)
  --max-bits N           refuse models whose probabilities need more bits in all
                         (default 4294967296)
  --max-file-size BYTES  refuse larger source files (default 67108864, 64 MiB)
  --dot FILE             write the chain (one input file) in Graphviz DOT, the first
                         counterexample highlighted
  --svg FILE             the same rendered to SVG (needs Graphviz's dot)
  --profile FILE         plot the privacy profile δ(ε) to FILE (.png or .svg), with the
                         counterexample pair's profile and every checked (ε, δ)
  --version              print the version and exit
  --help                 print this help and exit

Progress is shown on standard error when it is a terminal. Ctrl-C stops
cleanly (exit status 3).

Exit status:
  0  every statement met its expectation (default: holds)
  1  some statement did not
  2  usage error, unreadable file, or parse/semantic errors in a file
     (fmt --check: 1 when some file is not formatted)
  3  a check did not complete (interrupted, --timeout, or an evaluation error)
  4  internal error in dpcheck: please report it, with the file

Examples:
  dpcheck models/geometric.dp
  dpcheck models/
  dpcheck --format json models/ > results.json
  dpcheck --format github models/          # in a GitHub Actions step
  dpcheck --profile profile.png models/geometric.dp
  dpcheck fmt --check models/
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() {
		<-ctx.Done()
		stop() // a second Ctrl-C kills the process at once
	}()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// Exit statuses.
const (
	exitPass     = 0
	exitFail     = 1
	exitInvalid  = 2
	exitAborted  = 3
	exitInternal = 4
)

type options struct {
	format            string
	timeout           time.Duration
	limits            builderLimits
	maxFileSize       int64
	dot, svg, profile string
}

// builderLimits are the --max-… flags of the models' sizes.
type builderLimits struct {
	states, transitions int
	bits                int64
}

// hints says how to raise each limit a spec.Error or FileSizeError names.
var hints = map[string]string{
	"states":      "--max-states",
	"transitions": "--max-transitions",
	"bits":        "--max-bits",
	"file size":   "--max-file-size",
}

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
	fl := flag.NewFlagSet("dpcheck", flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	var o options
	def := spec.Options{}.Limits.WithDefaults()
	fl.StringVar(&o.format, "format", "text", "")
	fl.DurationVar(&o.timeout, "timeout", 0, "")
	fl.IntVar(&o.limits.states, "max-states", def.MaxStates, "")
	fl.IntVar(&o.limits.transitions, "max-transitions", def.MaxTransitions, "")
	fl.Int64Var(&o.limits.bits, "max-bits", def.MaxBits, "")
	fl.Int64Var(&o.maxFileSize, "max-file-size", dpcheck.DefaultMaxFileSize, "")
	fl.StringVar(&o.dot, "dot", "", "")
	fl.StringVar(&o.svg, "svg", "", "")
	fl.StringVar(&o.profile, "profile", "", "")
	version := fl.Bool("version", false, "")
	help := fl.Bool("help", false, "")
	args, err := parseAnywhere(fl, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage)
			return exitPass
		}
		fmt.Fprintf(stderr, "dpcheck: %v\nRun dpcheck --help for the flags.\n", err)
		return exitInvalid
	}
	switch {
	case *help:
		fmt.Fprint(stdout, usage)
		return exitPass
	case *version:
		fmt.Fprintf(stdout, "dpcheck %s\n", dpcheck.Version)
		return exitPass
	case o.format != "text" && o.format != "json" && o.format != "junit" && o.format != "github":
		fmt.Fprintf(stderr, "dpcheck: unknown format %q (text, json, junit or github)\n", o.format)
		return exitInvalid
	case o.timeout < 0:
		fmt.Fprintf(stderr, "dpcheck: --timeout must not be negative, got %s\n", o.timeout)
		return exitInvalid
	case o.limits.states < 1 || o.limits.transitions < 1 || o.limits.bits < 1 || o.maxFileSize < 1:
		fmt.Fprintln(stderr, "dpcheck: --max-states, --max-transitions, --max-bits and --max-file-size must be positive")
		return exitInvalid
	case len(args) == 0:
		fmt.Fprintf(stderr, "dpcheck: no files given\nRun dpcheck --help for the usage.\n")
		return exitInvalid
	}
	files, err := expand(args)
	if err != nil {
		fmt.Fprintf(stderr, "dpcheck: %v\n", err)
		return exitInvalid
	}
	pictures := o.dot != "" || o.svg != "" || o.profile != ""
	if pictures && len(files) != 1 {
		fmt.Fprintf(stderr, "dpcheck: --dot, --svg and --profile draw one file; %d given\n", len(files))
		return exitInvalid
	}
	if o.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.timeout)
		defer cancel()
	}
	cfg := dpcheck.Config{
		Spec:        spec.Options{Limits: builder.Limits{MaxStates: o.limits.states, MaxTransitions: o.limits.transitions, MaxBits: o.limits.bits}},
		MaxFileSize: o.maxFileSize,
	}
	var entries []report.Entry
	for _, f := range files {
		pctx, done := withProgress(ctx, stderr, f)
		entries = append(entries, checkOne(pctx, cfg, f))
		done()
		if ctx.Err() != nil {
			break
		}
	}
	if err := write(stdout, o.format, entries); err != nil {
		fmt.Fprintf(stderr, "dpcheck: %v\n", err)
		return exitInvalid
	}
	code = exitPass
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
	if pictures && entries[0].Result != nil && ctx.Err() == nil {
		if err := drawPictures(ctx, entries[0].Result, o); err != nil {
			fmt.Fprintf(stderr, "dpcheck: %v\n", err)
			if ctx.Err() == nil {
				code = max(code, exitInvalid)
			}
		}
	}
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		fmt.Fprintf(stderr, "dpcheck: stopped after %s (--timeout)\n", o.timeout)
		return max(code, exitAborted)
	case ctx.Err() != nil:
		fmt.Fprintln(stderr, "dpcheck: interrupted")
		return max(code, exitAborted)
	}
	return code
}

// parseAnywhere parses flags before, between and after the file names, as
// Go commands do; after "--" every argument is a file.
func parseAnywhere(fl *flag.FlagSet, args []string) ([]string, error) {
	var files []string
	for {
		if err := fl.Parse(args); err != nil {
			return nil, err
		}
		rest := fl.Args()
		if len(rest) == 0 {
			return files, nil
		}
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(files, rest...), nil
		}
		files = append(files, rest[0])
		args = rest[1:]
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

func write(w io.Writer, format string, entries []report.Entry) error {
	switch format {
	case "json":
		return report.JSON(w, entries, dpcheck.Version)
	case "junit":
		return report.JUnit(w, entries)
	case "github":
		return report.GitHub(w, entries)
	}
	report.Text(w, entries)
	return nil
}

func checkOne(ctx context.Context, cfg dpcheck.Config, path string) report.Entry {
	src, err := dpcheck.ReadSource(path, cfg.MaxFileSize)
	if err != nil {
		return report.Entry{File: path, Err: withHint(err)}
	}
	res, err := cfg.CheckSource(ctx, path, src)
	return report.Entry{File: path, Source: src, Result: res, Err: withHint(err)}
}

// withHint adds to errors about a limit the flag that raises it.
func withHint(err error) error {
	var list spec.ErrorList
	if errors.As(err, &list) {
		for _, e := range list {
			if flag := hints[e.Limit]; flag != "" {
				e.Msg += " (raise it with " + flag + ")"
			}
		}
	}
	var fe *dpcheck.FileSizeError
	if errors.As(err, &fe) {
		return fmt.Errorf("%w (raise it with %s)", err, hints["file size"])
	}
	return err
}

// expand turns the arguments into .dp files: a directory stands for every
// .dp file below it, in lexical order.
func expand(args []string) ([]string, error) {
	var files []string
	for _, a := range args {
		info, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			files = append(files, a)
			continue
		}
		var found []string
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(p, ".dp") {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("no .dp files in %s", a)
		}
		sort.Strings(found)
		files = append(files, found...)
	}
	return files, nil
}

// runFmt is "dpcheck fmt".
func runFmt(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("dpcheck fmt", flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	write := fl.Bool("w", false, "")
	check := fl.Bool("check", false, "")
	if err := fl.Parse(args); err != nil || fl.NArg() == 0 {
		fmt.Fprintf(stderr, "usage: dpcheck fmt [-w] [--check] FILE|DIR ...\n")
		return exitInvalid
	}
	files, err := expand(fl.Args())
	if err != nil {
		fmt.Fprintf(stderr, "dpcheck fmt: %v\n", err)
		return exitInvalid
	}
	code := exitPass
	for _, f := range files {
		src, err := dpcheck.ReadSource(f, dpcheck.DefaultMaxFileSize)
		if err != nil {
			fmt.Fprintf(stderr, "dpcheck fmt: %v\n", withHint(err))
			code = exitInvalid
			continue
		}
		out, err := spec.Format(f, src)
		if err != nil {
			var list spec.ErrorList
			if errors.As(err, &list) {
				fmt.Fprint(stderr, list.Pretty(src))
			} else {
				fmt.Fprintf(stderr, "dpcheck fmt: %v\n", err)
			}
			code = exitInvalid
			continue
		}
		switch {
		case *check:
			if out != src {
				fmt.Fprintln(stdout, f)
				code = max(code, exitFail)
			}
		case *write:
			if out != src {
				if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
					fmt.Fprintf(stderr, "dpcheck fmt: %v\n", err)
					code = exitInvalid
				}
			}
		default:
			fmt.Fprint(stdout, out)
		}
	}
	return code
}
