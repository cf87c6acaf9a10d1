package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/spec"
)

// runFmt is "dpcheck fmt".
func runFmt(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("dpcheck fmt", flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	write, check := fl.Bool("w", false, ""), fl.Bool("check", false, "")
	help := fl.Bool("help", false, "")
	args, err := parseAnywhere(fl, args)
	if errors.Is(err, flag.ErrHelp) || err == nil && *help {
		fmt.Fprint(stdout, fmtUsage)
		return exitPass
	}
	if err != nil || len(args) == 0 {
		fmt.Fprint(stderr, fmtUsage)
		return exitInvalid
	}
	files, err := dpcheck.Expand(args)
	if err != nil {
		fmt.Fprintf(stderr, "dpcheck fmt: %v\n", err)
		return exitInvalid
	}
	stdin := 0
	for _, f := range files {
		if f == "-" {
			stdin++
		}
	}
	switch {
	case stdin > 1:
		fmt.Fprintf(stderr, "dpcheck fmt: standard input (-) can be read once: give - at most once\n")
		return exitInvalid
	case stdin > 0 && *write:
		fmt.Fprintf(stderr, "dpcheck fmt: -w rewrites files, and standard input (-) is none: without -w, dpcheck fmt - prints it formatted\n")
		return exitInvalid
	}
	code := exitPass
	for _, f := range files {
		var src string
		if f == "-" {
			f = dpcheck.StdinName
			src, err = dpcheck.ReadSourceFrom(f, os.Stdin, dpcheck.DefaultMaxFileSize)
		} else {
			src, err = dpcheck.ReadSource(f, dpcheck.DefaultMaxFileSize)
		}
		var out string
		if err == nil {
			out, err = spec.Format(f, src)
		}
		var list source.ErrorList
		switch {
		case errors.As(err, &list):
			fmt.Fprint(stderr, list.Pretty(src))
			code = exitInvalid
		case err != nil:
			fmt.Fprintf(stderr, "dpcheck fmt: %v\n", withHint(err))
			code = exitInvalid
		case *check && out != src:
			fmt.Fprintln(stdout, f)
			code = max(code, exitFail)
		case *write && out != src:
			if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
				fmt.Fprintf(stderr, "dpcheck fmt: %v\n", err)
				code = exitInvalid
			}
		case !*check && !*write:
			fmt.Fprint(stdout, out)
		}
	}
	return code
}
