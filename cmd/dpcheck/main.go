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

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/report"
)

const usage = `dpcheck — exact model checking of differential privacy

Usage:
  dpcheck [flags] FILE|DIR ...

Checks every statement of each .dp file (a directory means every .dp file
below it) and prints the verdicts, exact values and counterexamples.

Flags:
  --format text|json   output format (default text)
  --version            print the version and exit
  --help               print this help and exit

Exit status:
  0  every statement met its expectation (default: holds)
  1  some statement did not
  2  usage error, unreadable file, or parse/semantic errors in a file
  3  a check did not complete (interrupted)

Examples:
  dpcheck models/geometric.dp
  dpcheck models/
  dpcheck --format json models/ > results.json
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// Exit statuses.
const (
	exitPass    = 0
	exitFail    = 1
	exitInvalid = 2
	exitAborted = 3
)

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("dpcheck", flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	format := fl.String("format", "text", "")
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
	case *format != "text" && *format != "json":
		fmt.Fprintf(stderr, "dpcheck: unknown format %q (text or json)\n", *format)
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
	var entries []report.Entry
	for _, f := range files {
		entries = append(entries, checkOne(ctx, f))
		if ctx.Err() != nil {
			break
		}
	}
	switch *format {
	case "json":
		if err := report.JSON(stdout, entries, dpcheck.Version); err != nil {
			fmt.Fprintf(stderr, "dpcheck: %v\n", err)
			return exitInvalid
		}
	default:
		report.Text(stdout, entries)
	}
	if ctx.Err() != nil {
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
	return code
}

func checkOne(ctx context.Context, path string) report.Entry {
	src, err := os.ReadFile(path)
	if err != nil {
		return report.Entry{File: path, Err: err}
	}
	res, err := dpcheck.CheckSource(ctx, path, string(src))
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
