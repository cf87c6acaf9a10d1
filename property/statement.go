package property

import (
	"context"
	"errors"
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/lump"
	"github.com/dpcheck/dpcheck/param"
	"github.com/dpcheck/dpcheck/poly"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/verify"
)

// Statement is one check or query of a program. Each kind is its own type;
// Prepare resolves its names, and Evaluate computes its Outcome.
type Statement interface {
	// Head returns what every statement has: its position, its text and
	// what it expects.
	Head() *Header
	// Kind names the kind of statement: "check dp", "query eps", ….
	Kind() string
	// Describe says precisely what the statement checks or computes (once
	// prepared): "standard (ε,δ)-DP over all events; outputs: final
	// state".
	Describe() string
	// Evaluate computes the statement's outcome against a prepared
	// program. A violated check is an outcome, not an error; the outcome's
	// Err is set when the statement could not be evaluated.
	Evaluate(ctx context.Context, e *Env) Outcome
	// prepare resolves the statement's names against the prepared model.
	prepare(ctx context.Context, p *Prepared) source.ErrorList
}

// Outcome is the result of one statement.
type Outcome interface {
	Statement() Statement
	// Pass reports whether the outcome met the statement's expectation
	// (a query without an expectation passes when it is computed).
	Pass() bool
	// Err is set when the statement could not be evaluated (cancelled, or a
	// resource limit); Pass is then false.
	Err() error
	// Value is the exact outcome as text: "holds" or "violated" for checks,
	// "ln(2)" or "1/3" for queries, "" for a profile, "error" when Err is
	// set.
	Value() string
}

// base is what every outcome has.
type base struct {
	st   Statement
	pass bool
	err  error
}

func (b *base) Statement() Statement { return b.st }
func (b *base) Pass() bool           { return b.pass && b.err == nil }
func (b *base) Err() error           { return b.err }

// fail records that the statement could not be evaluated.
func (b *base) fail(err error) {
	b.err, b.pass = err, false
}

// Stopped is the outcome of a statement that was not evaluated because
// the run stopped before it began: err is why (the context's error, or its
// cause). It renders as a statement cut off.
func Stopped(st Statement, err error) Outcome {
	return &stoppedOutcome{base{st: st, err: err}}
}

type stoppedOutcome struct{ base }

// NotStarted is the outcome of a statement the run never reached: it
// stopped at an earlier one, for err.
func NotStarted(st Statement, err error) Outcome {
	return &stoppedOutcome{base{st: st, err: &NotStartedError{Err: err}}}
}

// NotStartedError is why a statement never started: the run stopped
// before it (Err, a cancellation, a deadline or a memory limit).
type NotStartedError struct{ Err error }

func (e *NotStartedError) Error() string { return "not started: " + e.Err.Error() }

// Unwrap returns why the run stopped.
func (e *NotStartedError) Unwrap() error { return e.Err }

func (o *stoppedOutcome) Value() string { return "error" }

// WrapErr replaces the error of an outcome that could not be evaluated
// with wrap(err): the runner says there why a statement stopped (the cause
// of its context's end, a memory limit) and how to raise a limit. An
// outcome without an error is left alone.
func WrapErr(o Outcome, wrap func(error) error) {
	if b, ok := o.(interface{ setErr(error) }); ok && o.Err() != nil {
		b.setErr(wrap(o.Err()))
	}
}

func (b *base) setErr(err error) { b.fail(err) }

// evaluate computes a statement's result, recording in b why it could
// not be computed (b.err is then set, and the result is R's zero value).
func evaluate[R any](b *base, compute func() (R, error)) R {
	r, err := compute()
	if err != nil {
		b.fail(err)
		var zero R
		return zero
	}
	return r
}

// after returns compute applied to what get returns.
func after[T, R any](get func() (T, error), compute func(T) (R, error)) func() (R, error) {
	return func() (R, error) {
		t, err := get()
		if err != nil {
			var zero R
			return zero, err
		}
		return compute(t)
	}
}

// value is the Value of a query: v's, or "error" when it has no result.
func (b *base) value(has bool, v func() string) string {
	if b.err != nil || !has {
		return "error"
	}
	return v()
}

// noValue is the Value of an outcome that is many values (a profile, a
// probability per input): "", or "error".
func (b *base) noValue() string {
	if b.err != nil {
		return "error"
	}
	return ""
}

// verdict is the value of a check.
func verdict(b *base, holds bool) string {
	switch {
	case b.err != nil:
		return "error"
	case holds:
		return "holds"
	}
	return "violated"
}

// passCheck sets whether a check's verdict meets its expectation.
func (b *base) passCheck(h *Header, holds bool) {
	b.pass = holds == (h.Expect.Kind != ExpectViolated)
}

// passValue sets whether a least ε or δ meets its expectation: decided
// exactly (not an interval) and equal to the expected one, cmp comparing
// them (0: equal).
func (b *base) passValue(h *Header, exactly bool, cmp func() (int, error)) {
	b.pass = h.Expect.Kind != ExpectValue
	if b.pass || !exactly {
		return
	}
	c, err := cmp()
	if err != nil {
		b.fail(err)
		return
	}
	b.pass = c == 0
}

// passEps sets whether a least ε, exact when exactly, equals want.
func (b *base) passEps(h *Header, exactly bool, got, want exact.Eps) {
	b.passValue(h, exactly, func() (int, error) { return got.Cmp(want) })
}

// passDelta sets whether a least δ, exact when exactly, equals want.
func (b *base) passDelta(h *Header, exactly bool, got, want exact.Real) {
	b.passValue(h, exactly, func() (int, error) { return got.Sub(want).Sign() })
}

// expectedDelta is the δ a statement expects: the rational want, or real
// when it is set (an irrational δ, A + B·e^ε with the statement's ε).
func expectedDelta(want *big.Rat, real *exact.Real) exact.Real {
	switch {
	case real != nil:
		return *real
	case want == nil:
		return exact.RatReal(new(big.Rat))
	}
	return exact.RatReal(want)
}

// Env evaluates the statements of a prepared program, computing each
// output space's distributions and the formula checker once. An Env is not
// safe for concurrent use.
type Env struct {
	p        *Prepared
	opts     Options
	analyses map[string]*verify.Analysis
	checker  *verify.Checker
	lumped   []Lumped
	lumps    map[string]*lumping // by initial partition
	// the checker of the formula statements when lumped, its lumping and
	// their formulas resolved against it
	fchecker    *verify.Checker
	flump       *lump.Lumping
	fresolved   map[*Formula]*verify.Formula
	fnoLump     bool // the formulas' atoms cannot be evaluated everywhere
	composition *verify.Composition
	// pa is the parametric chain's analysis (a model with a parameter),
	// finals its inputs' final distributions, shared by the statements.
	pa     *param.Analysis
	finals *param.Finals
	// reachProbs are the probabilities of PRISM's P for every value, by
	// the states of probability 0 and 1 they were computed from.
	reachProbs map[string]map[int]poly.RatFunc
}

// errMDPFrame refuses to treat an MDP's frame as a Markov chain.
var errMDPFrame = errors.New("the model is an MDP: its chain is only the frame of its states, and has no distributions of its own")

// NewEnv returns an environment for evaluating the statements of p.
func NewEnv(p *Prepared) *Env {
	return &Env{p: p, analyses: map[string]*verify.Analysis{}}
}

// Prepared returns the program the environment evaluates.
func (e *Env) Prepared() *Prepared { return e.p }

// Analysis returns the model's distributions over an output space,
// computed once (on the chain lumped for the output space, with
// Options.Lump: the analysis is still of the model's chain).
func (e *Env) Analysis(ctx context.Context, out verify.Output) (*verify.Analysis, error) {
	if e.p.MDP != nil {
		return nil, errMDPFrame
	}
	return memo(e.analyses, out.String(), func() (*verify.Analysis, error) {
		if e.canLump() {
			return e.lumpedAnalysis(ctx, out)
		}
		pairs, err := e.p.Pairs()
		if err != nil {
			return nil, err
		}
		return verify.Analyze(ctx, &verify.Model{Chain: e.p.Chain, Neighbours: pairs, Output: out})
	})
}

// memo returns m[k], computed by f once (and not kept when f fails).
func memo[K comparable, V any](m map[K]V, k K, f func() (V, error)) (V, error) {
	v, ok := m[k]
	if ok {
		return v, nil
	}
	v, err := f()
	if err != nil {
		var zero V
		return zero, err
	}
	m[k] = v
	return v, nil
}

// Analyzed returns the distributions over an output space if a statement
// needed them.
func (e *Env) Analyzed(out verify.Output) (*verify.Analysis, bool) {
	a, ok := e.analyses[out.String()]
	return a, ok
}

// Checker returns the model's dpCTL checker, made once. It checks the
// model's own chain, even with Options.Lump (the statements then use a
// checker of the lumped chain).
func (e *Env) Checker() (*verify.Checker, error) {
	if e.p.MDP != nil {
		return nil, errMDPFrame
	}
	if e.checker == nil {
		c, err := e.newChecker(e.p.Chain, e.p.Pairs)
		if err != nil {
			return nil, err
		}
		e.checker = c
	}
	return e.checker, nil
}

// newChecker makes the dpCTL checker of c (the model's chain or a
// quotient of it), whose neighbouring pairs pairs makes: when a formula
// needs them if every two inputs are neighbours.
func (e *Env) newChecker(c *chain.Chain, pairs func() ([][2]int, error)) (*verify.Checker, error) {
	if e.p.AllPairs {
		return verify.NewCheckerLazy(c, e.p.NumPairs(), pairs), nil
	}
	ns, err := pairs()
	if err != nil {
		return nil, err
	}
	return verify.NewChecker(c, ns)
}

// outputFor resolves a statement's own output space (nil: the program's).
func (p *Prepared) outputFor(o *OutputSpec) (verify.Output, source.ErrorList) {
	if o == nil {
		return p.Output, nil
	}
	if p.Chain == nil {
		return verify.FinalState(), nil
	}
	return verifyOutput(*o, p.Observed), resolveOutput(*o, p.Chain)
}
