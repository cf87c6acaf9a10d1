// Package dpcheck runs .dp specifications: it parses and checks a file
// (package spec), builds the chain, computes the output distributions once
// (package verify) and evaluates every check and query against its
// expectation.
//
// It is the library face of the dpcheck command: CheckFile and CheckSource
// return a typed Result per file, with the exact verdicts, values and
// counterexamples, and whether each statement met its expectation.
package dpcheck

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/dpcheck/dpcheck/spec"
	"github.com/dpcheck/dpcheck/verify"
)

// Size describes the checked model.
type Size struct {
	States, Transitions, Inputs int
	// Pairs is the number of unordered neighbouring pairs; every check
	// examines both directions of each.
	Pairs int
	// Outputs is the number of distinct outputs (0 when no statement needed
	// the distributions).
	Outputs int
}

// Result is the outcome of one .dp file.
type Result struct {
	File    string
	Program *spec.Program
	Model   spec.ModelInfo
	Size    Size
	// OutputSpace says what an observer sees ("final state", ...).
	OutputSpace string
	Statements  []*Outcome
}

// Pass reports whether every statement met its expectation.
func (r *Result) Pass() bool {
	for _, o := range r.Statements {
		if !o.Pass {
			return false
		}
	}
	return true
}

// Outcome is the result of one statement.
type Outcome struct {
	Statement *spec.Statement
	// Holds is the verdict of a check.
	Holds bool
	// Exactly one of these is set, by kind.
	DP      *verify.DPResult
	Eps     *verify.EpsResult
	Delta   *verify.DeltaResult
	Profile *verify.Profile
	Formula *verify.FormulaResult
	Probs   []verify.InputProb
	DBound  *verify.DPBound
	Equiv   *verify.EquivalenceResult
	// Output is the output space the statement was checked over (dp, eps,
	// delta and profile).
	Output string
	// Pass reports whether the outcome equals the expectation (queries
	// without an expectation always pass).
	Pass bool
	// Err is set when the statement could not be evaluated (cancelled, or a
	// resource limit); Pass is then false.
	Err error
}

// Value returns the exact outcome as text: "holds"/"violated" for checks,
// "ln(2)" or "1/3" for queries, "" for a profile.
func (o *Outcome) Value() string {
	switch {
	case o.Err != nil:
		return "error"
	case o.DP != nil || o.Formula != nil || o.Equiv != nil:
		if o.Holds {
			return "holds"
		}
		return "violated"
	case o.Eps != nil:
		return o.Eps.Eps.String()
	case o.Delta != nil:
		return o.Delta.Delta.String()
	case o.DBound != nil && o.Statement.Kind == spec.QueryDEps:
		return o.DBound.Eps.String()
	case o.DBound != nil:
		return o.DBound.Delta.String()
	}
	return ""
}

// Config controls a check. The zero Config uses the default limits.
type Config struct {
	// Spec bounds what a file may build.
	Spec spec.Options
	// MaxFileSize bounds the bytes of a source file CheckFile reads
	// (DefaultMaxFileSize when zero).
	MaxFileSize int64
}

// CheckFile reads, parses, checks and runs a .dp file with the default
// configuration. Parse and semantic errors are returned as a
// spec.ErrorList; a violated property is an Outcome, not an error.
func CheckFile(ctx context.Context, path string) (*Result, error) {
	return Config{}.CheckFile(ctx, path)
}

// CheckSource is CheckFile for a file's contents.
func CheckSource(ctx context.Context, filename, src string) (*Result, error) {
	return Config{}.CheckSource(ctx, filename, src)
}

// CheckFile reads, parses, checks and runs a .dp file.
func (c Config) CheckFile(ctx context.Context, path string) (*Result, error) {
	src, err := ReadSource(path, c.MaxFileSize)
	if err != nil {
		return nil, err
	}
	return c.CheckSource(ctx, path, src)
}

// CheckSource is CheckFile for a file's contents. It stops with ctx's
// error when ctx ends, while loading as well as while checking.
func (c Config) CheckSource(ctx context.Context, filename, src string) (r *Result, err error) {
	defer func() {
		if v := recover(); v != nil {
			r, err = nil, internal(v)
		}
	}()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p, err := c.Spec.Load(ctx, filename, src)
	if err != nil {
		return nil, err
	}
	return Run(ctx, p)
}

// Run evaluates every statement of a checked program. It returns an error
// only when the analysis itself cannot be done (cancellation); statements
// that fail individually carry their error in their Outcome.
func Run(ctx context.Context, p *spec.Program) (r *Result, err error) {
	defer func() {
		if v := recover(); v != nil {
			r, err = nil, internal(v)
		}
	}()
	r = &Result{File: p.Filename, Program: p, Model: p.Model, OutputSpace: p.Output.String()}
	if p.Chain != nil { // nil in a file of equivalence checks only
		r.Size = Size{
			States:      p.Chain.NumStates(),
			Transitions: p.Chain.NumTransitions(),
			Inputs:      len(p.Chain.Inputs()),
			Pairs:       len(p.Neighbours),
		}
	}
	if len(p.Statements) == 0 {
		return r, nil
	}
	rn := &runner{p: p, analyses: map[string]*verify.Analysis{}}
	for _, st := range p.Statements {
		o := rn.run(ctx, st)
		r.Statements = append(r.Statements, o)
		if ctx.Err() != nil {
			return r, ctx.Err()
		}
	}
	if a, ok := rn.analyses[p.Output.String()]; ok {
		r.Size.Outputs = a.NumOutputs()
	}
	return r, nil
}

// runner evaluates statements, computing each output space's distributions
// and the formula checker once.
type runner struct {
	p        *spec.Program
	analyses map[string]*verify.Analysis
	checker  *verify.Checker
}

func (rn *runner) analysis(ctx context.Context, out verify.Output) (*verify.Analysis, error) {
	key := out.String()
	if a, ok := rn.analyses[key]; ok {
		return a, nil
	}
	a, err := verify.Analyze(ctx, &verify.Model{Chain: rn.p.Chain, Neighbours: rn.p.Neighbours, Output: out})
	if err != nil {
		return nil, err
	}
	rn.analyses[key] = a
	return a, nil
}

func (rn *runner) run(ctx context.Context, st *spec.Statement) *Outcome {
	switch st.Kind {
	case spec.CheckEquivalent:
		o := &Outcome{Statement: st}
		var err error
		o.Equiv, err = verify.Equivalent(ctx, st.Models[0].Chain, st.Models[1].Chain)
		if err != nil {
			o.Err = err
			return o
		}
		o.Holds = o.Equiv.Equal
		o.Pass = o.Holds == (st.Expect.Kind != spec.ExpectViolated)
		return o
	case spec.CheckFormula, spec.QueryProb, spec.QueryDEps, spec.QueryDDelta:
		o := &Outcome{Statement: st}
		if rn.checker == nil {
			c, err := verify.NewChecker(rn.p.Chain, rn.p.Neighbours)
			if err != nil {
				o.Err = err
				return o
			}
			rn.checker = c
		}
		runFormula(ctx, rn.checker, st, o)
		return o
	}
	out := rn.p.OutputFor(st)
	a, err := rn.analysis(ctx, out)
	if err != nil {
		return &Outcome{Statement: st, Err: err, Output: out.String()}
	}
	o := runStatement(ctx, a, st)
	o.Output = out.String()
	return o
}

func runFormula(ctx context.Context, m *verify.Checker, st *spec.Statement, o *Outcome) {
	var err error
	switch st.Kind {
	case spec.CheckFormula:
		o.Formula, err = m.Check(ctx, st.Formula)
		if err == nil {
			o.Holds = o.Formula.Holds
			o.Pass = o.Holds == (st.Expect.Kind != spec.ExpectViolated)
		}
	case spec.QueryProb:
		o.Probs, err = m.ProbQuery(ctx, st.Path)
		o.Pass = err == nil
		for _, p := range o.Probs {
			if want := st.Expect.ProbOf(p.State.ID); want != nil && want.Cmp(p.Pr) != 0 {
				o.Pass = false
			}
		}
	case spec.QueryDEps:
		o.DBound, err = m.TightEpsilonD(ctx, st.Path, st.Delta)
		if err == nil {
			o.Pass = true
			if st.Expect.Kind == spec.ExpectValue {
				c, cerr := o.DBound.Eps.Cmp(st.Expect.Eps)
				err, o.Pass = cerr, cerr == nil && c == 0
			}
		}
	case spec.QueryDDelta:
		o.DBound, err = m.TightDeltaD(ctx, st.Path, st.Eps)
		if err == nil {
			o.Pass = true
			if st.Expect.Kind == spec.ExpectValue {
				sg, serr := o.DBound.Delta.Sub(verify.RatReal(st.Expect.Value)).Sign()
				err, o.Pass = serr, serr == nil && sg == 0
			}
		}
	}
	if err != nil {
		o.Err, o.Pass = err, false
	}
}

func runStatement(ctx context.Context, a *verify.Analysis, st *spec.Statement) *Outcome {
	o := &Outcome{Statement: st}
	var err error
	switch st.Kind {
	case spec.CheckDP:
		o.DP, err = a.DP(ctx, st.Eps, st.Delta)
		if err == nil {
			o.Holds = o.DP.Holds
			o.Pass = o.Holds == (st.Expect.Kind != spec.ExpectViolated)
		}
	case spec.QueryEps:
		o.Eps, err = a.TightEpsilon(ctx, st.Delta)
		if err == nil {
			o.Pass = true
			if st.Expect.Kind == spec.ExpectValue {
				c, cerr := o.Eps.Eps.Cmp(st.Expect.Eps)
				err = cerr
				o.Pass = cerr == nil && c == 0
			}
		}
	case spec.QueryDelta:
		o.Delta, err = a.TightDelta(ctx, st.Eps)
		if err == nil {
			o.Pass = true
			if st.Expect.Kind == spec.ExpectValue {
				s, serr := o.Delta.Delta.Sub(verify.RatReal(st.Expect.Value)).Sign()
				err = serr
				o.Pass = serr == nil && s == 0
			}
		}
	case spec.QueryProfile:
		o.Profile, err = a.Profile(ctx)
		o.Pass = err == nil
	default:
		err = fmt.Errorf("unknown statement kind %v", st.Kind)
	}
	if err != nil {
		o.Err, o.Pass = err, false
	}
	return o
}

// InternalError is a bug in dpcheck, caught where the library returns: a
// panic, with its value and the stack where it happened. It never stands
// for a problem of the input; please report it.
type InternalError struct {
	Value any
	Stack string
}

func (e *InternalError) Error() string { return fmt.Sprintf("internal error: %v", e.Value) }

// internal turns a recovered panic into an InternalError.
func internal(v any) error {
	return &InternalError{Value: v, Stack: string(debug.Stack())}
}

// Version is dpcheck's version.
const Version = "0.1.0"
