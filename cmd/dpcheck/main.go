// Command dpcheck checks differential-privacy properties of mechanisms
// described in .dp files. Run dpcheck --help for usage.
package main

import (
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/mdp"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/param"
	"github.com/dpcheck/dpcheck/prism"
	"github.com/dpcheck/dpcheck/report"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/spec"
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

// hints say how to raise each limit an error names.
var hints = map[string]string{"states": "--max-states", "transitions": "--max-transitions", "bits": "--max-bits", "file size": "--max-file-size", "memory": "--max-memory",
	"sequences": "--max-sequences", "search work": "--max-search-work", "composition work": "--max-composition-work", "elimination work": "--max-elimination-work"}

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
	def := model.Limits{}.WithDefaults()
	format := fl.String("format", "text", "")
	timeout := fl.Duration("timeout", 0, "")
	cfg := dpcheck.Config{Limits: def}
	fl.IntVar(&cfg.Limits.MaxStates, "max-states", def.MaxStates, "")
	fl.IntVar(&cfg.Limits.MaxTransitions, "max-transitions", def.MaxTransitions, "")
	fl.Int64Var(&cfg.Limits.MaxBits, "max-bits", def.MaxBits, "")
	cfg.Limits.MaxMemory = def.MaxMemory
	fl.Var((*bytesFlag)(&cfg.Limits.MaxMemory), "max-memory", "")
	fl.Int64Var(&cfg.MaxFileSize, "max-file-size", dpcheck.DefaultMaxFileSize, "")
	fl.StringVar(&cfg.Root, "root", "", "")
	var constDefs constFlag
	fl.Var(&constDefs, "const", "")
	fl.BoolVar(&cfg.Lump, "lump", false, "")
	fl.Int64Var(&cfg.MDP.MaxSequences, "max-sequences", mdp.DefaultMaxSequences, "")
	fl.IntVar(&cfg.MDP.MaxHorizon, "max-horizon", mdp.DefaultMaxHorizon, "")
	fl.Int64Var(&cfg.MDP.MaxWork, "max-search-work", mdp.DefaultMaxWork, "")
	fl.Float64Var(&cfg.Composition.MaxWork, "max-composition-work", verify.DefaultMaxWork, "")
	fl.Float64Var(&cfg.MaxEliminationWork, "max-elimination-work", param.DefaultMaxEliminationWork, "")
	dot, svg, prof := fl.String("dot", "", ""), fl.String("svg", "", ""), fl.String("profile", "", "")
	var outs reportFiles
	fl.StringVar(&outs.junit, "junit", "", "")
	fl.StringVar(&outs.json, "json", "", "")
	fl.StringVar(&outs.markdown, "markdown", "", "")
	version, help := fl.Bool("version", false, ""), fl.Bool("help", false, "")
	args, err := parseAnywhere(fl, args)
	switch {
	case errors.Is(err, flag.ErrHelp) || err == nil && *help:
		fmt.Fprint(stdout, usage)
		return exitPass
	case err != nil:
		return usageError(stderr, "%v\nRun dpcheck --help for the flags.", err)
	case *version:
		fmt.Fprintf(stdout, "dpcheck %s\n", dpcheck.Version)
		return exitPass
	case !strings.Contains(" "+strings.Join(report.Formats(), " ")+" ", " "+*format+" "):
		return usageError(stderr, "unknown format %q (text, json, junit, github or markdown)", *format)
	case *timeout < 0:
		return usageError(stderr, "--timeout must not be negative, got %s", *timeout)
	case notPositive(fl) != "":
		return usageError(stderr, "%s", notPositive(fl))
	case !(cfg.Composition.MaxWork >= 1) || !(cfg.MaxEliminationWork >= 1) || math.IsInf(cfg.Composition.MaxWork+cfg.MaxEliminationWork, 0):
		return usageError(stderr, "--max-composition-work and --max-elimination-work must be finite numbers of at least 1, as 1e12")
	case len(args) == 0:
		return usageError(stderr, "no files given\nRun dpcheck --help for the usage.")
	case *prof != "" && !strings.EqualFold(filepath.Ext(*prof), ".png") && !strings.EqualFold(filepath.Ext(*prof), ".svg"):
		return usageError(stderr, "--profile draws to a .png or .svg file, not %q", *prof)
	case cfg.Root != "" && !isDir(cfg.Root):
		return usageError(stderr, "--root %s is not a directory: give the directory below which the files a model names may lie", source.Escape(cfg.Root))
	}
	inputs, err := dpcheck.ExpandInputs(args)
	if err != nil {
		return usageError(stderr, "%v", err)
	}
	stdin, stdinErr, err := readStdin(inputs, cfg.MaxFileSize)
	if err != nil {
		return usageError(stderr, "%v", err)
	}
	consts, err := prism.ParseConsts(constDefs...)
	switch {
	case err != nil:
		return usageError(stderr, "--const: %v", err)
	case len(constDefs) > 0 && !anyPRISM(inputs):
		return usageError(stderr, "--const gives the undefined constants of a PRISM model: give a model and a properties file (dpcheck MODEL.prism PROPS.pctl --const N=5)")
	}
	cfg.ConstHint = func(name string) string { return fmt.Sprintf("give it with --const %s=…", name) }
	cfg.LimitHint = func(limit string) string {
		if hints[limit] == "" {
			return ""
		}
		return "raise it with " + hints[limit]
	}
	// The collector keeps garbage under the limit; the watch of each
	// check (dpcheck.WatchMemory) stops what is live beyond it.
	debug.SetMemoryLimit(cfg.Limits.MaxMemory)
	pictures := *dot != "" || *svg != "" || *prof != ""
	if pictures && len(inputs) != 1 {
		return usageError(stderr, "--dot, --svg and --profile draw one file; %d given", len(inputs))
	}
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	var entries []report.Entry
	for _, in := range inputs {
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
		c := cfg
		c.ReadFile = func(path string) (string, error) {
			if in.File == "-" && in.Model != "" && path == f { // the properties
				return stdin, stdinErr
			}
			src, err := dpcheck.ReadSource(path, cfg.MaxFileSize)
			if err == nil {
				read[path] = src
			}
			return src, err
		}
		if in.File == "-" && c.Root == "" {
			c.Root = "." // what standard input names is below the working directory
		}
		var e report.Entry
		if in.Err != nil { // not read: a path a directory walk does not follow
			e = report.Entry{File: f, Err: in.Err}
		} else if in.Model != "" {
			e = report.Entry{File: f, Sources: read}
			e.Result, e.Err = c.CheckPRISM(pctx, in.Model, f, consts)
			e.Source = read[f]
			if in.File == "-" {
				e.Source = stdin
			}
		} else {
			src, err := dpcheck.ReadSource(in.File, cfg.MaxFileSize)
			if in.File == "-" {
				src, err = stdin, stdinErr
			}
			e = report.Entry{File: f, Source: src, Sources: read, Err: err}
			if err == nil {
				e.Result, e.Err = c.CheckSource(pctx, f, src)
			}
		}
		e.Err = withHint(e.Err)
		e.Elapsed = time.Since(start)
		entries = append(entries, e)
		done()
		if ctx.Err() != nil {
			break
		}
	}
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
	if !writeReports(stdout, stderr, *format, outs, entries) {
		code = max(code, exitAborted)
	}
	if pictures && ctx.Err() == nil {
		drawPictures(ctx, stderr, entries[0], *dot, *svg, *prof)
	}
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		fmt.Fprintf(stderr, "dpcheck: stopped after %s (--timeout)\n", *timeout)
		return max(code, exitAborted)
	case ctx.Err() != nil:
		fmt.Fprintf(stderr, "dpcheck: %s\n", stoppedBy(ctx))
		return max(code, exitAborted)
	}
	return code
}

// notPositive says which of the limits that must be at least 1 are not
// ("" when none is): only the flags given wrongly are named.
func notPositive(fl *flag.FlagSet) string {
	var bad []string
	for _, name := range []string{"max-states", "max-transitions", "max-bits", "max-memory", "max-file-size", "max-sequences", "max-horizon", "max-search-work"} {
		if n, err := strconv.ParseFloat(fl.Lookup(name).Value.String(), 64); err != nil || n < 1 {
			bad = append(bad, "--"+name)
		}
	}
	switch len(bad) {
	case 0:
		return ""
	case 1:
		return bad[0] + " must be positive"
	}
	return strings.Join(bad[:len(bad)-1], ", ") + " and " + bad[len(bad)-1] + " must be positive"
}

// isDir reports whether path is a directory (or a symbolic link to one).
func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}

func usageError(stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "dpcheck: "+format+"\n", args...)
	return exitInvalid
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
		files, args = append(files, rest[0]), rest[1:]
	}
}

// bytesFlag is a number of bytes with an optional unit: 4GiB, 512MiB,
// 1.5G, 100000.
type bytesFlag int64

func (b *bytesFlag) String() string { return fmt.Sprint(int64(*b)) }

func (b *bytesFlag) Set(v string) error {
	n, err := parseBytes(v)
	if err != nil {
		return err
	}
	*b = bytesFlag(n)
	return nil
}

// parseBytes reads a size: a number (decimals allowed) and an optional
// unit, B, K/KB/KiB, M/MB/MiB, G/GB/GiB or T/TB/TiB; every unit is a power
// of 1024.
func parseBytes(v string) (int64, error) {
	s := strings.TrimSpace(v)
	i := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	num, unit := s, ""
	if i >= 0 {
		num, unit = s[:i], strings.TrimSpace(s[i:])
	}
	shift := map[string]uint{"": 0, "b": 0, "k": 10, "kb": 10, "kib": 10, "m": 20, "mb": 20, "mib": 20, "g": 30, "gb": 30, "gib": 30, "t": 40, "tb": 40, "tib": 40}
	sh, ok := shift[strings.ToLower(unit)]
	x, err := strconv.ParseFloat(num, 64)
	if !ok || err != nil || num == "" {
		return 0, fmt.Errorf("invalid size %q: write bytes with an optional unit, as 4GiB, 512MiB or 100000", v)
	}
	if f := x * float64(uint64(1)<<sh); f >= 1<<62 {
		return 0, fmt.Errorf("size %q is too large", v)
	} else {
		return int64(f), nil
	}
}

// constFlag collects --const NAME=VALUE[,NAME=VALUE…], repeatable.
type constFlag []string

func (c *constFlag) String() string { return strings.Join(*c, ",") }

func (c *constFlag) Set(v string) error {
	*c = append(*c, v)
	return nil
}

func anyPRISM(inputs []dpcheck.Input) bool {
	for _, in := range inputs {
		if in.Model != "" {
			return true
		}
	}
	return false
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
