package property

import (
	"context"
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/poly"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/verify"
)

// ParamExpectedQuery is "query expected(f) for alpha": the expected value
// of f where a run ends (as ExpectedQuery), from every input, as a
// rational function of the parameter — a mechanism's accuracy for every
// parameter value; with a bound ("check expected(f) <= b for alpha") a
// check that every input meets it for every value.
type ParamExpectedQuery struct {
	paramHead
	Expr  *expr.Expr
	Cmp   string
	Bound *big.Rat
	value func(end, input int) (*big.Rat, error)
}

// NewParamExpectedQuery returns the query (a check when bound is set).
func NewParamExpectedQuery(h Header, name string, f *expr.Expr, cmp string, bound *big.Rat) *ParamExpectedQuery {
	return &ParamExpectedQuery{paramHead: paramHead{Header: h, Param: name}, Expr: f, Cmp: cmp, Bound: bound}
}

// ParamInputValue is an input's expected value as a function of the
// parameter.
type ParamInputValue struct {
	State verify.StateInfo
	F     poly.RatFunc
}

// ParamExpectedOutcome is the expected value from every input; for a
// violated check, the first input and a parameter value where the bound
// fails.
type ParamExpectedOutcome struct {
	base
	Values []ParamInputValue
	// Failing is the input where a check fails (nil when it holds), At
	// the parameter value there, written exactly.
	Failing *verify.StateInfo
	At      string
	// ValueAt is the expected value there, when At is rational.
	ValueAt *big.Rat
}

// Kind is "query expected" or "check expected".
func (s *ParamExpectedQuery) Kind() string {
	if s.Bound != nil {
		return "check expected"
	}
	return "query expected"
}

// Describe says what the statement computes.
func (s *ParamExpectedQuery) Describe() string {
	if s.Bound != nil {
		return fmt.Sprintf("E[f] %s %s at every input for every %s in %s, f evaluated where the run ends", s.Cmp, s.Bound.RatString(), s.Param, s.Interval())
	}
	return fmt.Sprintf("E[f] from every input as a function of %s in %s, f evaluated where the run ends", s.Param, s.Interval())
}

func (s *ParamExpectedQuery) prepare(ctx context.Context, p *Prepared) source.ErrorList {
	if errs := s.paramHead.prepare(ctx, p); errs != nil {
		return errs
	}
	var errs source.ErrorList
	s.value, errs = expr.CompileValue(s.Expr, p.Chain)
	if why := partialEndVar(s.Expr, p.Chain, func(st int) bool { return len(p.Param.Rows[st]) == 0 }); why != nil {
		p.refuse(&s.Header, why)
	}
	return errs
}

// Evaluate computes every input's expected value as a function of the
// parameter and, for a check, decides the bound on the whole interval.
func (s *ParamExpectedQuery) Evaluate(ctx context.Context, e *Env) Outcome {
	o := &ParamExpectedOutcome{base: base{st: s}}
	c := e.p.Chain
	pc := e.paramChain(e.p.Param)
	fs, err := e.paramFinals().Expected(ctx, func(in, end int) (*big.Rat, error) {
		v, err := s.value(end, in)
		if err != nil {
			return nil, fmt.Errorf("%w (where a run from %s ends, at %s)", err, stateInfo(c, in), stateInfo(c, end))
		}
		return v, nil
	})
	if err != nil {
		o.fail(err)
		return o
	}
	for _, st := range c.Inputs() {
		if f, ok := fs[st]; ok {
			o.Values = append(o.Values, ParamInputValue{State: stateInfo(c, st), F: f})
		}
	}
	o.pass = true
	if s.Bound == nil {
		return o
	}
	defer func() {
		if o.err == nil {
			o.passCheck(&s.Header, o.Failing == nil)
		}
	}()
	rel := map[string]poly.Rel{"<": poly.LT, "<=": poly.LE, ">": poly.GT, ">=": poly.GE}[s.Cmp]
	b, err := pc.Limits.RatFunc(ctx, poly.Const(s.Bound), poly.Const(big.NewRat(1, 1)))
	for _, v := range o.Values {
		var g poly.RatFunc
		if err == nil {
			g, err = pc.Limits.RatSub(ctx, v.F, b)
		}
		var w poly.Algebraic
		var bad bool
		if err == nil {
			w, bad, err = pc.Outside(ctx, g, rel)
		}
		if err != nil {
			o.fail(err)
			return o
		}
		if bad {
			st := v.State
			o.Failing, o.At = &st, w.Format(s.Param)
			if w.IsRational() {
				o.ValueAt, _ = v.F.Eval(w.Rat())
			}
			break
		}
	}
	return o
}

// Value is "holds" or "violated" for a check, "" for a query.
func (o *ParamExpectedOutcome) Value() string {
	if o.Statement().(*ParamExpectedQuery).Bound != nil {
		return verdict(&o.base, o.Failing == nil)
	}
	return o.noValue()
}
