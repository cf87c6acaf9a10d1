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
  dpcheck [flags] FILE|DIR ...      check .dp files (a directory: every .dp file below it)
  dpcheck fmt [-w] [--check] FILE|DIR ...
                                    print .dp files in canonical form; -w rewrites
                                    them, --check lists those not formatted

Flags:
  --format FORMAT        text (default), json, junit or github (workflow annotations)
  --timeout DURATION     stop after DURATION (e.g. 30s, 5m); exit status 3
  --max-states N         refuse models with more states (default 10000000)
  --max-transitions N    refuse models with more transitions (default 10000000)
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
	exitPass    = 0
	exitFail    = 1
	exitInvalid = 2
	exitAborted = 3
)

type options struct {
	format            string
	timeout           time.Duration
	maxStates         int
	maxTransitions    int
	dot, svg, profile string
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "fmt" {
		return runFmt(args[1:], stdout, stderr)
	}
	fl := flag.NewFlagSet("dpcheck", flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	var o options
	fl.StringVar(&o.format, "format", "text", "")
	fl.DurationVar(&o.timeout, "timeout", 0, "")
	fl.IntVar(&o.maxStates, "max-states", builder.DefaultLimits.MaxStates, "")
	fl.IntVar(&o.maxTransitions, "max-transitions", builder.DefaultLimits.MaxTransitions, "")
	fl.StringVar(&o.dot, "dot", "", "")
	fl.StringVar(&o.svg, "svg", "", "")
	fl.StringVar(&o.profile, "profile", "", "")
	version := fl.Bool("version", false, "")
	help := fl.Bool("help", false, "")
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage)
			return exitPass
		}
		fmt.Fprintf(stderr, "dpcheck: %v\n\n%s", err, usage)
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
	case o.maxStates < 1 || o.maxTransitions < 1:
		fmt.Fprintln(stderr, "dpcheck: --max-states and --max-transitions must be positive")
		return exitInvalid
	case fl.NArg() == 0:
		fmt.Fprintf(stderr, "dpcheck: no files given\n\n%s", usage)
		return exitInvalid
	}
	files, err := expand(fl.Args())
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
	cfg := dpcheck.Config{Spec: spec.Options{Limits: builder.Limits{MaxStates: o.maxStates, MaxTransitions: o.maxTransitions}}}
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
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		fmt.Fprintf(stderr, "dpcheck: stopped after %s (--timeout)\n", o.timeout)
		return exitAborted
	case ctx.Err() != nil:
		fmt.Fprintln(stderr, "dpcheck: interrupted")
		return exitAborted
	}
	code := exitPass
	for _, e := range entries {
		switch report.StatusOf(e) {
		case report.Fail:
			code = max(code, exitFail)
		case report.Invalid:
			code = max(code, exitInvalid)
		case report.Aborted:
			code = max(code, exitAborted)
		}
	}
	if pictures && entries[0].Result != nil {
		if err := drawPictures(ctx, entries[0].Result, o); err != nil {
			fmt.Fprintf(stderr, "dpcheck: %v\n", err)
			code = max(code, exitInvalid)
		}
	}
	return code
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
	src, err := os.ReadFile(path)
	if err != nil {
		return report.Entry{File: path, Err: err}
	}
	res, err := cfg.CheckSource(ctx, path, string(src))
	return report.Entry{File: path, Source: string(src), Result: res, Err: err}
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
		src, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintf(stderr, "dpcheck fmt: %v\n", err)
			code = exitInvalid
			continue
		}
		out, err := spec.Format(f, string(src))
		if err != nil {
			var list spec.ErrorList
			if errors.As(err, &list) {
				fmt.Fprint(stderr, list.Pretty(string(src)))
			} else {
				fmt.Fprintf(stderr, "dpcheck fmt: %v\n", err)
			}
			code = exitInvalid
			continue
		}
		switch {
		case *check:
			if out != string(src) {
				fmt.Fprintln(stdout, f)
				code = max(code, exitFail)
			}
		case *write:
			if out != string(src) {
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
