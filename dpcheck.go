// Package dpcheck runs .dp specifications and PRISM models: it loads a
// file into a checked program (package spec; package prism for a PRISM
// model and properties file), prepares it — builds its model under the
// context, within limits, and resolves its names (package property) — and
// evaluates every statement against its expectation.
//
// It is the library face of the dpcheck command: CheckFile, CheckSource
// and Config.CheckPRISM return a typed Result per file, with the exact
// verdicts, values and counterexamples, and whether each statement met its
// expectation.
package dpcheck

import (
	"context"
	"errors"
	"io/fs"
	"math/big"
	"runtime/debug"
	"time"

	"github.com/dpcheck/dpcheck/mdp"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/outcome"
	"github.com/dpcheck/dpcheck/poly"
	"github.com/dpcheck/dpcheck/prism"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/spec"
	"github.com/dpcheck/dpcheck/verify"
)

// Result is the outcome of one .dp file (package outcome, where the
// renderings of a result find it without reaching the front ends).
type Result = outcome.Result

// Size describes the checked model (outcome.Size).
type Size = outcome.Size

// InternalError is a bug in dpcheck, caught where the library returns: a
// panic, with its value and the stack where it happened (outcome.InternalError).
type InternalError = outcome.InternalError

// Config controls a check. The zero Config uses the default limits.
type Config struct {
	// Limits bound the models a file may build and hold
	// (model.Limits' defaults when zero).
	Limits model.Limits
	// MaxFileSize bounds the bytes of a source file CheckFile reads
	// (DefaultMaxFileSize when zero).
	MaxFileSize int64
	// ReadFile reads the files a check needs besides a source it is given:
	// the files a .dp file names (model prism("m.pm"), model
	// explicit("m.tra", …)), once confined below Root, and the model and
	// properties files of CheckPRISM. Nil reads them with ReadSource,
	// within MaxFileSize.
	ReadFile func(path string) (string, error)
	// Stdin reads standard input, the file "-" of an Input (CheckInput),
	// once: every call returns the same text and error.
	Stdin func() (string, error)
	// Root is the directory the files a .dp file names must lie below
	// (spec.Options.Root): "" is the directory of the .dp file itself. A
	// path outside it, through ".." or a symbolic link, is an error at the
	// path, whose Limit is spec.LimitRoot.
	Root string
	// FS, when set, holds the files a .dp file names (model
	// prism("m.pm"), model explicit("m.tra", …)) in place of the disk: they
	// are read from it within MaxFileSize, relative to the .dp file's name
	// as a path in FS, and one that leaves FS is refused (spec.Options.FS).
	// ReadFile and Root are then not used for them.
	FS fs.FS
	// ConstHint says how the caller gives a value to an undefined PRISM
	// constant, for the error about a constant without one (a command line
	// names its option there); nil says it neutrally.
	ConstHint func(name string) string
	// LimitHint says how the caller raises a limit ("memory", as
	// model.LimitMemory), for the error of a check stopped by it; nil
	// adds nothing.
	LimitHint func(limit string) string
	// Lump evaluates the statements that observe the chain only through
	// its outputs or a formula's atoms on the chain lumped exactly for
	// them (package lump, docs/semantics.md §4.9): verdicts and values are
	// the same, and large step-by-step models are checked faster.
	// Result.Lumped says how much each lumping shrank the chain.
	Lump bool
	// MDP bounds the search over query schedulers of the statements on an
	// MDP (the zero value: package mdp's defaults). Lump does not apply to
	// an MDP.
	MDP mdp.Options
	// Composition bounds the privacy-loss distributions of compose(k, M)
	// (the zero value: package verify's defaults): their distinct loss
	// values and the estimated work of computing them.
	Composition verify.CompositionOptions
	// MaxEliminationWork bounds the estimated work of state elimination
	// over rational functions, for a model with a parameter whose chain has
	// cycles (param.Chain.MaxEliminationWork; zero: package param's
	// default).
	MaxEliminationWork float64
	// PRISMParam, when set, reads the PRISM model's undefined double
	// constant of that name in CheckPRISM and LoadPRISM as a parameter over
	// PRISMParam.Interval, as PRISM's -param does: P=? [ψ] and P~p [ψ],
	// ψ an F, U or G without time bounds, are computed for every value (a
	// rational function of the parameter from every initial state, a
	// region where a bound holds), and the other properties are refused on
	// their own. At is chosen in the interval when nil.
	PRISMParam *prism.Param
}

// readFile reads a file through the ReadFile hook.
func (c Config) readFile(path string) (string, error) {
	if c.ReadFile != nil {
		return c.ReadFile(path)
	}
	return ReadSource(path, c.MaxFileSize)
}

// CheckFile reads, loads, prepares and runs a .dp file with the default
// configuration. Errors in the file are returned as a source.ErrorList; a
// violated property is an Outcome, not an error.
func CheckFile(ctx context.Context, path string) (*Result, error) {
	return Config{}.CheckFile(ctx, path)
}

// CheckSource is CheckFile for a file's contents.
func CheckSource(ctx context.Context, filename, src string) (*Result, error) {
	return Config{}.CheckSource(ctx, filename, src)
}

// CheckFile reads, loads, prepares and runs a .dp file.
func (c Config) CheckFile(ctx context.Context, path string) (*Result, error) {
	src, err := ReadSource(path, c.MaxFileSize)
	if err != nil {
		return nil, err
	}
	return c.CheckSource(ctx, path, src)
}

// CheckSource is CheckFile for a file's contents. It stops with ctx's
// error when ctx ends, while loading as well as while checking.
func (c Config) CheckSource(ctx context.Context, filename, src string) (*Result, error) {
	return c.checkSource(ctx, filename, src, nil)
}

// checkSource is CheckSource with values for the file's constants
// (spec.Options.Consts).
func (c Config) checkSource(ctx context.Context, filename, src string, consts map[string]*big.Rat) (*Result, error) {
	return c.check(ctx, func(ctx context.Context) (*property.Prepared, error) { return c.load(ctx, filename, src, consts) })
}

// check loads and prepares a program with load, and runs it, under one
// watch of the memory; the result's Elapsed counts both.
func (c Config) check(ctx context.Context, load func(context.Context) (*property.Prepared, error)) (r *Result, err error) {
	defer recoverInternal(&err)
	ctx, finish := c.watch(ctx)
	defer func() { err = finish(err) }()
	start := time.Now()
	p, err := load(ctx)
	if err != nil {
		return nil, err
	}
	r, err = c.Run(ctx, p)
	if r != nil {
		r.Elapsed = time.Since(start)
	}
	return r, err
}

// Load loads a .dp file and prepares it: it checks the file, builds its
// model and resolves its names. Every error of the file is reported at
// once, as a source.ErrorList — those that need the built model too, when
// the model itself is fine.
func (c Config) Load(ctx context.Context, filename, src string) (p *property.Prepared, err error) {
	return c.load(ctx, filename, src, nil)
}

// load is Load with values for the file's constants.
func (c Config) load(ctx context.Context, filename, src string, consts map[string]*big.Rat) (p *property.Prepared, err error) {
	defer recoverInternal(&err)
	ctx, finish := c.watch(ctx)
	defer func() { err = finish(err) }()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	reportStage(ctx, "loading")
	o := spec.Options{Limits: c.Limits, ReadFile: c.readFile, Root: c.Root, Consts: consts, ConstHint: c.ConstHint}
	if c.FS != nil {
		o.FS = c.FS
		o.ReadFile = func(path string) (string, error) { return ReadSourceFS(c.FS, path, c.MaxFileSize) }
	}
	prog, err := o.Load(ctx, filename, src)
	errs, isList := err.(source.ErrorList)
	if err != nil && !isList {
		return nil, err // cancelled
	}
	if prog == nil {
		return nil, err
	}
	reportStage(ctx, buildStage(prog))
	prep, perr := property.Prepare(ctx, prog, c.Limits)
	if perr != nil {
		more, ok := perr.(source.ErrorList)
		if !ok {
			return nil, perr // cancelled
		}
		errs = append(errs, more...)
	}
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	return prep, nil
}

// CheckPRISM reads, loads, prepares and runs a PRISM model file and a
// properties file (see LoadPRISM).
func (c Config) CheckPRISM(ctx context.Context, modelPath, propsPath string, consts map[string]prism.Value) (*Result, error) {
	return c.check(ctx, func(ctx context.Context) (*property.Prepared, error) {
		return c.LoadPRISM(ctx, modelPath, propsPath, consts)
	})
}

// LoadPRISM reads a PRISM model file (.prism, .pm) and a properties file
// (.pctl, .props) through ReadFile, translates them — consts gives the
// values of their undefined constants — and prepares the program: its
// statements are the properties, its inputs the model's initial states,
// and every two initial states are neighbours (the dpCTL plug-in's
// convention). The errors of both files are reported at once, as a
// source.ErrorList whose positions name their file; a value given for a
// name that is no undefined constant is a *prism.ConstError.
func (c Config) LoadPRISM(ctx context.Context, modelPath, propsPath string, consts map[string]prism.Value) (p *property.Prepared, err error) {
	defer recoverInternal(&err)
	ctx, finish := c.watch(ctx)
	defer func() { err = finish(err) }()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	msrc, err := c.readFile(modelPath)
	if err != nil {
		return nil, err
	}
	psrc, err := c.readFile(propsPath)
	if err != nil {
		return nil, err
	}
	var errs source.ErrorList
	mf, merr := prism.ParseModel(modelPath, msrc)
	pf, perr := prism.ParseProperties(propsPath, psrc)
	for _, e := range []error{merr, perr} {
		if list, ok := e.(source.ErrorList); ok {
			errs = append(errs, list...)
		} else if e != nil {
			return nil, e
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	opt := prism.Options{Consts: consts, ConstHint: c.ConstHint, Context: ctx, Limits: c.Limits}
	if p := c.PRISMParam; p != nil {
		q := *p
		if q.At == nil {
			q.At = poly.Simplest(q.Interval)
		}
		opt.Param = &q
	}
	prog, err := prism.Program(mf, pf, opt)
	if err != nil {
		return nil, err
	}
	reportStage(ctx, buildStage(prog))
	prep, err := property.Prepare(ctx, prog, c.Limits)
	if err != nil {
		return nil, err
	}
	return prep, nil
}

// Run evaluates every statement of a prepared program with the default
// configuration (see Config.Run).
func Run(ctx context.Context, p *property.Prepared) (*Result, error) {
	return Config{}.Run(ctx, p)
}

// Run evaluates every statement of a prepared program. It returns an
// error only when the evaluation as a whole cannot go on (cancellation);
// statements that fail individually carry their error in their Outcome.
func (c Config) Run(ctx context.Context, p *property.Prepared) (r *Result, err error) {
	defer recoverInternal(&err)
	ctx, finish := c.watch(ctx)
	defer func() { err = finish(err) }()
	env := property.NewEnvWith(p, property.Options{Lump: c.Lump, MDP: c.MDP, Composition: c.Composition, MaxEliminationWork: c.MaxEliminationWork})
	r = outcome.New(p, env)
	start := time.Now()
	defer func() { r.Lumped, r.Elapsed = env.Lumpings(), time.Since(start) }()
	for _, st := range p.Program.Statements {
		t := time.Now()
		var o property.Outcome
		sctx := statementProgress(ctx, st)
		if err := ctx.Err(); err != nil {
			// Stopped between two statements: the next one is the one cut
			// off, so that every report shows where the run stopped.
			o = property.Stopped(st, err)
		} else {
			o = st.Evaluate(sctx, env)
		}
		r.Times = append(r.Times, time.Since(t))
		r.Statements = append(r.Statements, o)
		property.WrapErr(o, func(err error) error {
			if me := memoryCause(ctx); me != nil && errors.Is(err, context.Canceled) {
				return c.withHint(me)
			}
			return c.hintLimit(err)
		})
		if ctx.Err() != nil && o.Err() != nil {
			// The statements after it are listed as never started, so
			// that a report says what was not checked.
			for _, rest := range p.Program.Statements[len(r.Statements):] {
				r.Statements = append(r.Statements, property.NotStarted(rest, o.Err()))
				r.Times = append(r.Times, 0)
			}
			return r, ctx.Err()
		}
	}

	if a, ok := env.Analyzed(p.Output); ok {
		r.Size.Outputs = a.NumOutputs()
	} else if c, ok := env.Composed(); ok && r.Size.Runs > 0 {
		r.Size.Outputs = c.Analysis().NumOutputs()
	}
	return r, nil
}

// recoverInternal turns a panic into an InternalError in *err.
func recoverInternal(err *error) {
	if v := recover(); v != nil {
		*err = &InternalError{Value: v, Stack: string(debug.Stack())}
	}
}

// Version is dpcheck's version.
const Version = "0.1.0"
