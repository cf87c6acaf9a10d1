package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
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
	"github.com/dpcheck/dpcheck/verify"
)

// The flags of a run (usage.txt says what each does), and how they are
// read and checked.

// hints say how to raise each limit an error names.
var hints = map[string]string{"states": "--max-states", "transitions": "--max-transitions", "bits": "--max-bits", "file size": "--max-file-size", "memory": "--max-memory",
	"sequences": "--max-sequences", "search work": "--max-search-work", "composition work": "--max-composition-work", "elimination work": "--max-elimination-work"}

// options are a run's flags and its file arguments.
type options struct {
	cfg            dpcheck.Config
	format         string
	timeout        time.Duration
	consts         constFlag
	dot, svg, prof string
	outs           reportFiles
	files          []string
}

// pictures reports whether the run draws a picture.
func (o *options) pictures() bool { return o.dot != "" || o.svg != "" || o.prof != "" }

// parseFlags reads the flags and the files of args. When the run ends
// here (--help, --version, a usage error) it has said why, and ok is
// false with the run's exit status.
func parseFlags(args []string, stdout, stderr io.Writer) (o options, code int, ok bool) {
	fl := flag.NewFlagSet("dpcheck", flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	def := model.Limits{}.WithDefaults()
	fl.StringVar(&o.format, "format", "text", "")
	fl.DurationVar(&o.timeout, "timeout", 0, "")
	cfg := &o.cfg
	cfg.Limits = def
	fl.IntVar(&cfg.Limits.MaxStates, "max-states", def.MaxStates, "")
	fl.IntVar(&cfg.Limits.MaxTransitions, "max-transitions", def.MaxTransitions, "")
	fl.Int64Var(&cfg.Limits.MaxBits, "max-bits", def.MaxBits, "")
	fl.Var((*bytesFlag)(&cfg.Limits.MaxMemory), "max-memory", "")
	fl.Int64Var(&cfg.MaxFileSize, "max-file-size", dpcheck.DefaultMaxFileSize, "")
	fl.StringVar(&cfg.Root, "root", "", "")
	fl.Var(&o.consts, "const", "")
	fl.Func("param", "", func(v string) error {
		if cfg.PRISMParam != nil {
			return fmt.Errorf("one --param only: dpcheck decides for every value of one parameter")
		}
		p, err := prism.ParseParam(v)
		cfg.PRISMParam = p
		return err
	})
	fl.BoolVar(&cfg.Lump, "lump", false, "")
	fl.Int64Var(&cfg.MDP.MaxSequences, "max-sequences", mdp.DefaultMaxSequences, "")
	fl.IntVar(&cfg.MDP.MaxHorizon, "max-horizon", mdp.DefaultMaxHorizon, "")
	fl.Int64Var(&cfg.MDP.MaxWork, "max-search-work", mdp.DefaultMaxWork, "")
	fl.Float64Var(&cfg.Composition.MaxWork, "max-composition-work", verify.DefaultMaxWork, "")
	fl.Float64Var(&cfg.MaxEliminationWork, "max-elimination-work", param.DefaultMaxEliminationWork, "")
	fl.StringVar(&o.dot, "dot", "", "")
	fl.StringVar(&o.svg, "svg", "", "")
	fl.StringVar(&o.prof, "profile", "", "")
	fl.StringVar(&o.outs.junit, "junit", "", "")
	fl.StringVar(&o.outs.json, "json", "", "")
	fl.StringVar(&o.outs.markdown, "markdown", "", "")
	version, help := fl.Bool("version", false, ""), fl.Bool("help", false, "")
	files, err := parseAnywhere(fl, args)
	o.files = files
	switch {
	case errors.Is(err, flag.ErrHelp) || err == nil && *help:
		fmt.Fprint(stdout, usage)
		return o, exitPass, false
	case err != nil:
		return o, usageError(stderr, "%v\nRun dpcheck --help for the flags.", err), false
	case *version:
		fmt.Fprintf(stdout, "dpcheck %s\n", dpcheck.Version)
		return o, exitPass, false
	case !strings.Contains(" "+strings.Join(report.Formats(), " ")+" ", " "+o.format+" "):
		return o, usageError(stderr, "unknown format %q (text, json, junit, github or markdown)", o.format), false
	case o.timeout < 0:
		return o, usageError(stderr, "--timeout must not be negative, got %s", o.timeout), false
	case notPositive(fl) != "":
		return o, usageError(stderr, "%s", notPositive(fl)), false
	case !(cfg.Composition.MaxWork >= 1) || !(cfg.MaxEliminationWork >= 1) || math.IsInf(cfg.Composition.MaxWork+cfg.MaxEliminationWork, 0):
		return o, usageError(stderr, "--max-composition-work and --max-elimination-work must be finite numbers of at least 1, as 1e12"), false
	case len(files) == 0:
		return o, usageError(stderr, "no files given\nRun dpcheck --help for the usage."), false
	case o.prof != "" && !strings.EqualFold(filepath.Ext(o.prof), ".png") && !strings.EqualFold(filepath.Ext(o.prof), ".svg"):
		return o, usageError(stderr, "--profile draws to a .png or .svg file, not %q", o.prof), false
	case cfg.Root != "" && !isDir(cfg.Root):
		return o, usageError(stderr, "--root %s is not a directory: give the directory below which the files a model names may lie", source.Escape(cfg.Root)), false
	}
	return o, exitPass, true
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
