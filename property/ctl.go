package property

import (
	"context"
	"math/big"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/mdp"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/verify"
)

// dpCTL: a state formula checked at every input, Pr(ψ) from every input,
// and the least ε or δ of the paper's D{ε,δ}[ψ] (docs/semantics.md §2).

// FormulaCheck is "check φ" for a dpCTL state formula: it holds when φ
// holds at every input.
type FormulaCheck struct {
	Header
	Formula *Formula
	f       *verify.Formula
	node    *mdpNode // on an MDP
}

// FormulaOutcome is the verdict of a FormulaCheck and, when it is
// violated, the explanation of why at the first input where it fails.
type FormulaOutcome struct {
	base
	Result *verify.FormulaResult
}

// Kind is "check formula".
func (s *FormulaCheck) Kind() string { return "check formula" }

func (s *FormulaCheck) prepare(_ context.Context, p *Prepared) source.ErrorList {
	errs := p.checkExpectUnknown(&s.Header, true)
	s.node = nil
	if p.MDP != nil {
		if g := nestedOnMDP(s.Formula, false); g != nil {
			return append(errs, errNested(g))
		}
		p.refuseSplitOnMDP(&s.Header, s.Formula, false)
		var cerrs source.ErrorList
		s.node = compileMDP(s.Formula, p.Chain, &cerrs)
		if len(cerrs) > 0 {
			return append(errs, cerrs...)
		}
	}
	s.f = s.Formula.resolve(p.Chain, &errs)
	return errs
}

// Resolved returns the formula resolved against the model (once prepared).
func (s *FormulaCheck) Resolved() *verify.Formula { return s.f }

// Describe says what the check checks: a state formula at every input, and
// which property D is when the formula uses it.
func (s *FormulaCheck) Describe() string {
	if s.node != nil {
		return "dpCTL state formula at every input of the MDP: P~p[ψ] " + allSchedulers + " (Pmin for ≥ and >, Pmax for ≤ and <), D{ε,δ}[ψ] " + querySchedulers
	}
	if s.f != nil && s.f.Uses(verify.OpDP) {
		return "dpCTL state formula at every input; D{ε,δ}[ψ] is the paper's single-event property (weaker than dp for δ > 0)"
	}
	return "dpCTL state formula at every input"
}

// Evaluate checks the formula at every input.
func (s *FormulaCheck) Evaluate(ctx context.Context, e *Env) Outcome {
	if s.node != nil {
		return s.formulaOnMDP(ctx, e)
	}
	o := &FormulaOutcome{base: base{st: s}}
	if o.Result = evalFormula(ctx, e, &o.base, s.Formula, s.f, (*verify.Checker).Check); o.err == nil {
		e.liftExplanation(o.Result.Counterexample)
		o.passCheck(&s.Header, o.Result.Holds)
	}
	return o
}

// evalFormula computes a formula statement's result with the checker of
// the formula statements, f resolved for it, recording in b why it could
// not be computed.
func evalFormula[R any](ctx context.Context, e *Env, b *base, f *Formula, resolved *verify.Formula, compute func(*verify.Checker, context.Context, *verify.Formula) (R, error)) R {
	return evaluate(b, after(func() (*verify.Checker, error) { return e.formulaChecker(ctx) }, func(m *verify.Checker) (R, error) {
		return compute(m, ctx, e.checkedFormula(f, resolved))
	}))
}

// pathOf is what a query over a path formula knows once prepared.
type pathOf struct {
	f     *verify.Formula
	onMDP bool
}

// Resolved returns the path formula resolved against the model (once
// prepared).
func (q *pathOf) Resolved() *verify.Formula { return q.f }

// resolve resolves a query's path formula against the model.
func (q *pathOf) resolve(p *Prepared, h *Header, path *Formula) source.ErrorList {
	errs := p.checkExpectUnknown(h, false)
	q.onMDP = p.MDP != nil
	errs = append(errs, p.preparePathOnMDP(h, path)...)
	q.f = path.resolve(p.Chain, &errs)
	return errs
}

// Value is "holds" or "violated".
func (o *FormulaOutcome) Value() string { return verdict(&o.base, o.Result != nil && o.Result.Holds) }

// ProbQuery is "query P=?[ψ]": Pr(ψ) from every input, exactly.
type ProbQuery struct {
	Header
	Path *Formula
	// Extreme is "min" or "max" for Pmin=? and Pmax=? (over the schedulers
	// of an MDP), "" for P=?.
	Extreme string
	// ExpectAll, when set, is the probability expected of every input;
	// ExpectInputs those expected of named inputs.
	ExpectAll    *big.Rat
	ExpectInputs []ExpectedProb
	pathOf
	want map[int]*big.Rat
}

// ExpectedProb is the probability a ProbQuery expects of one input.
type ExpectedProb struct {
	Input Ref
	Value *big.Rat
}

// ProbOutcome is Pr(ψ) from every input.
type ProbOutcome struct {
	base
	Probs []verify.InputProb
}

// Kind is "query P".
func (s *ProbQuery) Kind() string { return "query P" }

// Describe says what the statement computes.
func (s *ProbQuery) Describe() string {
	switch {
	case !s.onMDP:
		return "Pr(ψ) from every input"
	case s.Extreme == "min":
		return "Pmin(ψ) from every input: the least probability over all schedulers"
	case s.Extreme == "max":
		return "Pmax(ψ) from every input: the greatest probability over all schedulers"
	}
	return "Pr(ψ) from every input, the same " + allSchedulers + " (Pmin = Pmax)"
}

func (s *ProbQuery) prepare(_ context.Context, p *Prepared) source.ErrorList {
	errs := s.resolve(p, &s.Header, s.Path)
	if !s.onMDP && s.Extreme != "" {
		errs = append(errs, errorAt(s.Pos, "P%s=? is for MDPs: the model is a Markov chain, where Pr(ψ) is one number; ask P=?", s.Extreme))
	}
	var werrs source.ErrorList
	s.want, werrs = expectedByInput(p, s.ExpectInputs)
	return append(errs, werrs...)
}

// expectedByInput resolves the values a query expects of named inputs.
func expectedByInput(p *Prepared, named []ExpectedProb) (map[int]*big.Rat, source.ErrorList) {
	var errs source.ErrorList
	want := map[int]*big.Rat{}
	for _, x := range named {
		st, err := inputByName(x.Input, p.Chain)
		switch {
		case err != nil:
			errs = append(errs, err)
		case want[st] != nil:
			errs = append(errs, errorAt(x.Input.Pos, "%s is listed twice", expr.DisplayName(x.Input.Name)))
		default:
			want[st] = x.Value
		}
	}
	return want, errs
}

// Expected returns the probability the query expects of input s, or nil
// (once prepared).
func (s *ProbQuery) Expected(st int) *big.Rat {
	if s.ExpectAll != nil {
		return s.ExpectAll
	}
	return s.want[st]
}

// Evaluate computes Pr(ψ) from every input and compares each with what is
// expected of it.
func (s *ProbQuery) Evaluate(ctx context.Context, e *Env) Outcome {
	if s.onMDP {
		return s.probOnMDP(ctx, e)
	}
	o := &ProbOutcome{base: base{st: s}}
	if o.Probs = evalFormula(ctx, e, &o.base, s.Path, s.f, (*verify.Checker).ProbQuery); o.err == nil {
		o.pass = true
		for i, p := range o.Probs {
			o.Probs[i].State = e.state(p.State)
			o.pass = o.pass && s.meets(o.Probs[i].State.ID, p.Pr)
		}
	}
	return o
}

// meets reports whether pr is the probability expected of input st, if
// one is.
func (s *ProbQuery) meets(st int, pr *big.Rat) bool {
	want := s.Expected(st)
	return want == nil || want.Cmp(pr) == 0
}

// Value is "" (one probability per input).
func (o *ProbOutcome) Value() string { return o.noValue() }

// DEpsQuery is "query D{?, δ}[ψ]": the least ε for which D{ε,δ}[ψ] holds
// at every input.
type DEpsQuery struct {
	Header
	Path  *Formula
	Delta *big.Rat
	// Expected is the ε the statement expects (Expect.Kind ExpectValue).
	Expected exact.Eps
	pathOf
}

// DBoundOutcome is the least ε (DEpsQuery) or δ (DDeltaQuery) of D, with
// the pair that attains it.
type DBoundOutcome struct {
	base
	Result *verify.DPBound
	eps    bool
}

// Kind is "query D eps".
func (s *DEpsQuery) Kind() string { return "query D eps" }

// Describe says what the statement computes.
func (s *DEpsQuery) Describe() string { return describeD(s.onMDP) }

// describeD says what a D query computes.
func describeD(onMDP bool) string {
	if onMDP {
		return "the paper's D{ε,δ}[ψ]: the single event ψ, both directions, every neighbouring pair, " + querySchedulers
	}
	return "the paper's D{ε,δ}[ψ]: the single event ψ, both directions, every neighbouring pair (weaker than dp for δ > 0)"
}

func (s *DEpsQuery) prepare(_ context.Context, p *Prepared) source.ErrorList {
	return s.resolve(p, &s.Header, s.Path)
}

// Evaluate computes the least ε.
func (s *DEpsQuery) Evaluate(ctx context.Context, e *Env) Outcome {
	if s.onMDP {
		return epsOnMDP(e, s, s.Expected, func(pairs [][2]int) (*mdp.EpsResult, error) {
			if len(pairs) == 0 {
				return &mdp.EpsResult{Exact: true, Reason: noPair, From: -1, To: -1}, nil
			}
			return mdp.TightEpsilonD(ctx, e.p.MDP, pairs, s.f, s.Delta, e.opts.MDP)
		})
	}
	o := &DBoundOutcome{base: base{st: s}, eps: true}
	if o.Result = evalFormula(ctx, e, &o.base, s.Path, s.f, func(m *verify.Checker, ctx context.Context, f *verify.Formula) (*verify.DPBound, error) {
		return m.TightEpsilonD(ctx, f, s.Delta)
	}); o.err == nil {
		e.liftBound(o.Result)
		o.passEps(&s.Header, true, o.Result.Eps, s.Expected)
	}
	return o
}

// DDeltaQuery is "query D{ε, ?}[ψ]": the least δ for which D{ε,δ}[ψ]
// holds at every input.
type DDeltaQuery struct {
	Header
	Path *Formula
	Eps  exact.Eps
	// Expected is the δ the statement expects (Expect.Kind ExpectValue);
	// ExpectedReal replaces it when that δ is irrational (A + B·e^ε with
	// the statement's ε).
	Expected     *big.Rat
	ExpectedReal *exact.Real
	pathOf
}

// Kind is "query D delta".
func (s *DDeltaQuery) Kind() string { return "query D delta" }

// Describe says what the statement computes.
func (s *DDeltaQuery) Describe() string { return describeD(s.onMDP) }

func (s *DDeltaQuery) prepare(_ context.Context, p *Prepared) source.ErrorList {
	return s.resolve(p, &s.Header, s.Path)
}

// Evaluate computes the least δ.
func (s *DDeltaQuery) Evaluate(ctx context.Context, e *Env) Outcome {
	if s.onMDP {
		return deltaOnMDP(e, s, expectedDelta(s.Expected, s.ExpectedReal), func(pairs [][2]int) (*mdp.Result, error) {
			if len(pairs) == 0 {
				return &mdp.Result{Verdict: mdp.Holds, Exact: true, Reason: noPair, From: -1, To: -1, Delta: exact.RatReal(new(big.Rat))}, nil
			}
			return mdp.TightDeltaD(ctx, e.p.MDP, pairs, s.f, s.Eps, e.opts.MDP)
		})
	}
	o := &DBoundOutcome{base: base{st: s}}
	if o.Result = evalFormula(ctx, e, &o.base, s.Path, s.f, func(m *verify.Checker, ctx context.Context, f *verify.Formula) (*verify.DPBound, error) {
		return m.TightDeltaD(ctx, f, s.Eps)
	}); o.err == nil {
		e.liftBound(o.Result)
		o.passDelta(&s.Header, true, o.Result.Delta, expectedDelta(s.Expected, s.ExpectedReal))
	}
	return o
}

// Value is the least ε or δ.
func (o *DBoundOutcome) Value() string {
	return o.value(o.Result != nil, func() string {
		if o.eps {
			return o.Result.Eps.String()
		}
		return o.Result.Delta.String()
	})
}

// IsEps reports whether the outcome is a least ε (else a least δ).
func (o *DBoundOutcome) IsEps() bool { return o.eps }
