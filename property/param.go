package property

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/param"
	"github.com/dpcheck/dpcheck/poly"
	"github.com/dpcheck/dpcheck/source"
)

// Statements for every parameter value (docs/semantics.md, "For every
// parameter value"). A program with a parameter ("param alpha in (0, 1)")
// has a ParamModel: a builder call one of whose arguments is the
// parameter. Prepare builds it with package param as a parametric chain
// (probabilities rational functions of the parameter) over the program's
// interval, and its statements — ParamDPCheck, ParamEpsQuery and
// ParamDeltaQuery — are decided for every value of the interval at once by
// param.Analysis (DP, TightEpsilon, TightDelta), exactly.

// ParamSource is a model with the program's parameter: a builder call
// (ParamModel), an explicit chain or modules whose probabilities mention
// it. Prepare builds it with BuildParam (its Build, as a Model, refuses
// with ErrParamBuild) and decides the statements for every parameter value
// on the parametric chain it returns. Errors about the model are
// positioned (source.ErrorList); BuildParam stops with ctx's error when
// ctx ends.
type ParamSource interface {
	Info() ModelInfo
	BuildParam(ctx context.Context, lim poly.Limits) (*param.Chain, error)
}

// ParamModel is a builder call whose argument Arg is the program's
// parameter, valid for every value in Interval. It is built by
// BuildParam; Build refuses (a parametric model has no single chain).
type ParamModel struct {
	Builder *BuilderModel
	// Param is the parameter's name, Arg the builder argument it stands
	// for.
	Param, Arg string
	Interval   poly.Interval
	// IntervalText is the interval as written canonically ("(0, 1)").
	IntervalText string
	Pos          source.Position
}

// Position is where the builder call is written.
func (m *ParamModel) Position() source.Position { return m.Pos }

// Info describes the call, with the parameter in place of its argument.
func (m *ParamModel) Info() ModelInfo {
	i := m.Builder.Info()
	i.Note = fmt.Sprintf("for every %s in %s", m.Param, m.IntervalText)
	return i
}

// ErrParamBuild refuses to build one chain of a parametric model (the
// Build of every ParamSource).
var ErrParamBuild = errors.New("a model with a parameter is a parametric chain: it has no single chain to build")

// Build refuses: a parametric model is built by BuildParam.
func (m *ParamModel) Build(ctx context.Context, l model.Limits) (*model.Mechanism, error) {
	return nil, ErrParamBuild
}

// BuildParam builds the parametric chain over the model's interval, with
// the parameter named as in the program.
func (m *ParamModel) BuildParam(ctx context.Context, lim poly.Limits) (*param.Chain, error) {
	if !m.Builder.Def.ParamArg(m.Arg) {
		return nil, source.ErrorList{errorAt(m.Pos, "%s: the parameter can be only an argument of %s for now", m.Builder.Def.Name, builder.ParamBuilders())}
	}
	pc, err := param.FromBuilder(ctx, lim, m.Builder.Def, m.Builder.Args, m.Arg, m.Param, m.Interval)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, source.ErrorList{errorAt(m.Pos, "%s for every %s in %s: %v", m.Builder.Call, m.Param, m.IntervalText, err)}
	}
	return pc, nil
}

// prepareParam builds a parametric model, resolves the program's inputs
// and neighbours against its frame (they do not depend on the parameter)
// and its output space against its states.
func (pp *Prepared) prepareParam(ctx context.Context, m ParamSource) (source.ErrorList, error) {
	pc, err := m.BuildParam(ctx, poly.Limits{})
	if err != nil {
		return nil, err
	}
	p := pp.Program
	var errs source.ErrorList
	if p.Inputs != nil && p.Inputs.Where != nil || p.Neighbours != nil {
		_, builderModel := m.(*ParamModel)
		rel, rerrs, err := pp.paramRelation(ctx, pc, builderModel)
		switch {
		case err != nil:
			return nil, err
		case rerrs != nil:
			errs = rerrs
		default:
			pc = rel
		}
	}
	if errs == nil && needsAbsorption(p.Statements) {
		if err := pc.Absorbed(ctx); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			var pos source.Position
			if at, ok := m.(interface{ Position() source.Position }); ok {
				pos = at.Position()
			}
			errs = source.ErrorList{errorAt(pos, "%v", err)}
		}
	}
	pp.Param, pp.Chain, pp.Neighbours = pc, pc.Frame, pc.Neighbours
	o := p.Output
	switch {
	case o.Steps > 0 || o.Labels != nil || len(o.Vars) > 1:
		errs = append(errs, errorAt(o.Pos, "with a parameter the outputs are the final state or one variable's final value (outputs var x) for now"))
	default:
		errs = append(errs, resolveOutput(o, pp.Chain)...)
		pp.Output = verifyOutput(o, nil)
	}
	return errs, nil
}

// paramRelation returns the parametric chain with the program's inputs
// (inputs where …) and neighbours, resolved against its frame: the
// model's own pairs whose states are both still inputs when only the
// inputs change.
func (pp *Prepared) paramRelation(ctx context.Context, pc *param.Chain, builderModel bool) (*param.Chain, source.ErrorList, error) {
	p := pp.Program
	frame, pairs := pc.Frame, pc.Neighbours
	at := p.Inputs
	switch {
	case p.Inputs == nil || p.Inputs.Where == nil:
	case builderModel:
		// as for a builder without the parameter: its inputs are kept or
		// dropped (its other states never become inputs), and its
		// relation keeps the pairs of two kept inputs
		var errs source.ErrorList
		if frame, pairs, errs = keepInputs(ctx, frame, pc.Neighbours, p.Inputs, p.Neighbours == nil); frame == nil {
			return nil, errs, ctx.Err()
		}
	default:
		var errs source.ErrorList
		if frame, errs = inputsWhere(ctx, frame, p.Inputs.Where); frame == nil {
			return nil, errs, ctx.Err()
		}
		pairs = nil
		for _, pr := range pc.Neighbours {
			if frame.IsInput(pr[0]) && frame.IsInput(pr[1]) {
				pairs = append(pairs, pr)
			}
		}
	}
	pos := source.Position{}
	if at != nil {
		pos = at.Pos
	}
	if p.Neighbours != nil {
		pp.Model.Neighbours = ""
		pos = p.Neighbours.Pos
		var errs source.ErrorList
		if pairs, errs = neighbours(ctx, p.Neighbours, frame); errs != nil {
			return nil, errs, ctx.Err()
		}
	}
	out, err := param.New(ctx, pc.Limits, frame, pc.Param, pc.Interval, pc.Rows, pairs)
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		return nil, source.ErrorList{errorAt(pos, "%v", err)}, nil
	}
	return out, nil, nil
}

// IsParam reports whether the model has a parameter (Param is set).
func (p *Prepared) IsParam() bool { return p.Param != nil }

// paramAnalysis returns the parametric chain's output distributions,
// computed once.
func (e *Env) paramAnalysis(ctx context.Context) (*param.Analysis, error) {
	if e.pa != nil {
		return e.pa, nil
	}
	name := ""
	if vs := e.p.Program.Output.Vars; len(vs) == 1 {
		name = vs[0].Name
	}
	a, err := e.paramFinals().Analyze(ctx, name)
	if err != nil {
		return nil, err
	}
	e.pa = a
	return a, nil
}

// paramFinals returns the memo of the parametric chain's final
// distributions, which the statements share: each input's is computed
// once, by state elimination where the chain has cycles.
func (e *Env) paramFinals() *param.Finals {
	if e.finals == nil {
		e.finals = param.NewFinals(e.paramChain(e.p.Param))
	}
	return e.finals
}

// paramChain returns pc within the environment's bound on state
// elimination (a copy: pc is the prepared program's).
func (e *Env) paramChain(pc *param.Chain) *param.Chain {
	c := *pc
	c.MaxEliminationWork = e.opts.MaxEliminationWork
	return &c
}

// paramHead is what the statements for every parameter value have.
type paramHead struct {
	Header
	// Param is the parameter's name (the statement's "for alpha").
	Param string
	out   string
	in    string
	// expected is a query's expected function, one piece over the whole
	// interval (e^ε for query eps, δ for query delta), or nil.
	expected *poly.RatFunc
}

// Expected is a query's expected function (e^ε for query eps, δ for
// query delta) and whether there is one.
func (s *paramHead) Expected() (poly.RatFunc, bool) {
	if s.expected == nil {
		return poly.RatFunc{}, false
	}
	return *s.expected, true
}

// SetExpected sets a query's expectation: one piece equal to f on the
// whole interval (e^ε for query eps, δ for query delta).
func (s *paramHead) SetExpected(f poly.RatFunc) { s.expected = &f }

// piecewise renders a query's piecewise value f() (wrap as pieces
// does), or records err, why there is none; it sets whether the value
// meets the expectation: one finite piece equal to the expected function.
func (b *base) piecewise(ctx context.Context, s *paramHead, err error, f func() param.Piecewise, wrap string) []string {
	var out []string
	if err == nil {
		out, err = pieces(ctx, f(), wrap)
	}
	if err != nil {
		b.fail(err)
		return nil
	}
	v := f()
	b.pass = s.expected == nil || len(v.Pieces) == 1 && !v.Pieces[0].Inf && v.Pieces[0].F.Equal(*s.expected)
	return out
}

func (s *paramHead) prepare(ctx context.Context, p *Prepared) source.ErrorList {
	if p.Param == nil {
		return source.ErrorList{errorAt(s.Pos, "for %s needs a model with the parameter (param %s in (0, 1))", s.Param, s.Param)}
	}
	if s.Expect.Kind == ExpectUnknown || s.Expect.Kind == ExpectValue && s.expected == nil {
		return source.ErrorList{errorAt(s.Expect.Pos, "for every %s a check expects holds or violated, and a query one function of %s", s.Param, s.Param)}
	}
	s.out = p.Output.String()
	s.in = p.Param.Interval.String()
	return nil
}

// Out is the output space compared (once prepared).
func (s *paramHead) Out() string { return s.out }

// Interval is the parameter's interval as written ("(0, 1)").
func (s *paramHead) Interval() string { return s.in }

// ParamDPCheck is "check dp(eps = E, delta = D) for alpha": dp(ε(α), δ(α))
// for every α of the interval, with e^ε = C and δ = Delta rational
// functions of α.
type ParamDPCheck struct {
	paramHead
	C, Delta poly.RatFunc
	// EpsText and DeltaText are ε and δ as written canonically.
	EpsText, DeltaText string
}

// NewParamDPCheck returns the check for every value of the parameter.
func NewParamDPCheck(h Header, name string, c, delta poly.RatFunc, epsText, deltaText string) *ParamDPCheck {
	return &ParamDPCheck{paramHead: paramHead{Header: h, Param: name}, C: c, Delta: delta, EpsText: epsText, DeltaText: deltaText}
}

// Kind is "check dp".
func (s *ParamDPCheck) Kind() string { return "check dp" }

// Describe says what is decided.
func (s *ParamDPCheck) Describe() string {
	return fmt.Sprintf("standard (ε,δ)-DP over all events for every %s in %s; outputs: %s", s.Param, s.in, s.out)
}

// ParamDPOutcome is the verdict for every parameter value: the exact
// region where the claim holds, and when it fails somewhere a rational
// witness with the counterexample of the chain instantiated there.
type ParamDPOutcome struct {
	base
	Result *param.DPResult
	// Region and RegionDecimal are the region where the claim holds,
	// exactly and in decimals ("[1/3, 1)", "[0.3333, 1.0000)"; "∅" when
	// empty).
	Region, RegionDecimal string
}

// Value is "holds" (for every value) or "violated".
func (o *ParamDPOutcome) Value() string { return verdict(&o.base, o.Result != nil && o.Result.Holds) }

// Evaluate decides the claim with param.Analysis.DP.
func (s *ParamDPCheck) Evaluate(ctx context.Context, e *Env) Outcome {
	o := &ParamDPOutcome{base: base{st: s}}
	a, err := e.paramAnalysis(ctx)
	if err == nil {
		o.Result, err = a.DP(ctx, s.C, s.Delta)
	}
	if err == nil && !o.Result.Holds {
		o.Region, o.RegionDecimal, err = region(ctx, o.Result.Region, s.Param)
	}
	if err != nil {
		o.fail(err)
		return o
	}
	o.passCheck(&s.Header, o.Result.Holds)
	return o
}

// region is a region exactly and in decimals, "∅" when empty.
func region(ctx context.Context, r poly.Region, v string) (string, string, error) {
	if r.IsEmpty() {
		return "∅", "∅", nil
	}
	dec, err := r.Decimal(ctx, 4)
	return r.Format(v), dec, err
}

// ParamEpsQuery is "query eps(delta = D) for alpha": the tight ε at δ = D
// (a number or a rational function of the parameter, ≥ 0) for every
// parameter value, piecewise.
//
// With Event set it is dpCTL's D{?, δ}[ψ] of a PRISM properties file for
// every value of the parameter: the least ε ≥ 0 with Pr_s(ψ) ≤
// e^ε·Pr_t(ψ) + δ for every ordered pair of neighbouring inputs, one event
// (param.Chain.EventEpsilon), Event computing Pr(ψ) from every input.
type ParamEpsQuery struct {
	paramHead
	Delta     poly.RatFunc
	DeltaText string
	Event     *ParamExpectedQuery
}

// NewParamDEpsQuery returns D{?, δ}[path] for every value of the
// parameter; path must be a ParamPath.
func NewParamDEpsQuery(h Header, name string, path *Formula, delta *big.Rat) *ParamEpsQuery {
	d := poly.FromPoly(poly.Const(delta))
	return &ParamEpsQuery{paramHead: paramHead{Header: h, Param: name}, Delta: d, DeltaText: delta.RatString(), Event: NewParamProbQuery(h, name, path, "", nil)}
}

// NewParamEpsQuery returns the query at δ = delta (written deltaText) for
// every value of the parameter.
func NewParamEpsQuery(h Header, name string, delta poly.RatFunc, deltaText string) *ParamEpsQuery {
	return &ParamEpsQuery{paramHead: paramHead{Header: h, Param: name}, Delta: delta, DeltaText: deltaText}
}

func (s *ParamEpsQuery) prepare(ctx context.Context, p *Prepared) source.ErrorList {
	if errs := s.paramHead.prepare(ctx, p); errs != nil || s.Event == nil {
		return errs
	}
	return s.Event.prepare(ctx, p)
}

// Kind is "query eps" ("query D eps" for an event).
func (s *ParamEpsQuery) Kind() string {
	if s.Event != nil {
		return "query D eps"
	}
	return "query eps"
}

// Describe says what is computed.
func (s *ParamEpsQuery) Describe() string {
	if s.Event != nil {
		return fmt.Sprintf("least ε ≥ 0 with Pr_s(%s) ≤ e^ε·Pr_t(%s) + δ for every ordered pair of neighbouring inputs (dpCTL's D), for every %s in %s, piecewise", s.Event.Path.Text, s.Event.Path.Text, s.Param, s.in)
	}
	d := "0"
	if !s.Delta.Num().IsZero() {
		d = "δ"
	}
	return fmt.Sprintf("least ε with standard (ε,%s)-DP for every %s in %s, piecewise; outputs: %s", d, s.Param, s.in, s.out)
}

// ParamEpsOutcome is the tight ε piece by piece.
type ParamEpsOutcome struct {
	base
	Result *param.EpsResult
	// Pieces are the pieces in text: "ln(1/alpha) for alpha in (0, 1)
	// ((0.0000, 1.0000))".
	Pieces []string
}

// Value is the pieces joined by "; ".
func (o *ParamEpsOutcome) Value() string {
	return o.value(o.Result != nil, func() string { return strings.Join(o.Pieces, "; ") })
}

// Evaluate computes the tight ε with param.Analysis.TightEpsilon at δ = 0,
// TightEpsilonAt otherwise.
func (s *ParamEpsQuery) Evaluate(ctx context.Context, e *Env) Outcome {
	o := &ParamEpsOutcome{base: base{st: s}}
	if s.Event != nil {
		pc := e.paramChain(e.p.Param)
		fs, err := s.Event.probabilities(ctx, e, pc)
		if err == nil {
			o.Result, err = pc.EventEpsilon(ctx, fs, s.Delta)
		}
		o.Pieces = o.piecewise(ctx, &s.paramHead, err, func() param.Piecewise { return o.Result.R }, "ln(%s)")
		return o
	}
	a, err := e.paramAnalysis(ctx)
	switch {
	case err != nil:
	case s.Delta.Num().IsZero():
		o.Result, err = a.TightEpsilon(ctx)
	default:
		o.Result, err = a.TightEpsilonAt(ctx, s.Delta)
	}
	o.Pieces = o.piecewise(ctx, &s.paramHead, err, func() param.Piecewise { return o.Result.R }, "ln(%s)")
	return o
}

// pieces renders a piecewise function, each piece with its interval
// exactly and in decimals.
func pieces(ctx context.Context, f param.Piecewise, wrap string) ([]string, error) {
	var out []string
	for _, p := range f.Pieces {
		v := "∞"
		switch {
		case p.Inf:
		case wrap == "ln(%s)" && p.F.Equal(poly.FromPoly(poly.FromInts(1))):
			v = "0" // ln(1)
		default:
			v = fmt.Sprintf(wrap, p.F.Format(f.Param))
		}
		if isInt(p.Lo) && isInt(p.Hi) {
			out = append(out, v+" for "+f.Param+" in "+p.Format(f.Param))
			continue
		}
		lo, err := p.Lo.Decimal(ctx, 4)
		if err != nil {
			return nil, err
		}
		hi, err := p.Hi.Decimal(ctx, 4)
		if err != nil {
			return nil, err
		}
		dec := p.Format(f.Param)
		dec = dec[:1] + lo + ", " + hi + dec[len(dec)-1:]
		out = append(out, v+" for "+f.Param+" in "+p.Format(f.Param)+" ("+dec+")")
	}
	return out, nil
}

// ParamDeltaQuery is "query delta(eps = E) for alpha": the tight δ at
// e^ε = C for every parameter value, piecewise.
type ParamDeltaQuery struct {
	paramHead
	C       poly.RatFunc
	EpsText string
}

// NewParamDeltaQuery returns the query for every value of the parameter.
func NewParamDeltaQuery(h Header, name string, c poly.RatFunc, epsText string) *ParamDeltaQuery {
	return &ParamDeltaQuery{paramHead: paramHead{Header: h, Param: name}, C: c, EpsText: epsText}
}

// Kind is "query delta".
func (s *ParamDeltaQuery) Kind() string { return "query delta" }

// Describe says what is computed.
func (s *ParamDeltaQuery) Describe() string {
	return fmt.Sprintf("least δ with standard (ε,δ)-DP for every %s in %s, piecewise; outputs: %s", s.Param, s.in, s.out)
}

// ParamDeltaOutcome is the tight δ piece by piece.
type ParamDeltaOutcome struct {
	base
	Result *param.DeltaResult
	// Pieces are the pieces in text, as ParamEpsOutcome's.
	Pieces []string
}

// Value is the pieces joined by "; ".
func (o *ParamDeltaOutcome) Value() string {
	return o.value(o.Result != nil, func() string { return strings.Join(o.Pieces, "; ") })
}

// Evaluate computes the tight δ with param.Analysis.TightDelta.
func (s *ParamDeltaQuery) Evaluate(ctx context.Context, e *Env) Outcome {
	o := &ParamDeltaOutcome{base: base{st: s}}
	a, err := e.paramAnalysis(ctx)
	if err == nil {
		o.Result, err = a.TightDelta(ctx, s.C)
	}
	o.Pieces = o.piecewise(ctx, &s.paramHead, err, func() param.Piecewise { return o.Result.Delta }, "%s")
	return o
}

// isInt reports whether an algebraic number is an integer.
func isInt(a poly.Algebraic) bool {
	r := a.Rat()
	return r != nil && r.IsInt()
}

// needsAbsorption reports whether a statement reads the distributions of
// where runs end, so that every state reachable from an input must reach
// an absorbing state: all but PRISM's P=? [ψ] for every value, which
// makes its own states absorbing (ParamExpectedQuery.probabilities).
func needsAbsorption(sts []Statement) bool {
	for _, st := range sts {
		switch st := st.(type) {
		case *Refused:
		case *ParamExpectedQuery:
			if st.Path == nil {
				return true
			}
		case *ParamEpsQuery:
			if st.Event == nil {
				return true
			}
		default:
			return true
		}
	}
	return false
}
