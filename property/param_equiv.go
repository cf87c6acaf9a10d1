package property

import (
	"context"

	"github.com/dpcheck/dpcheck/param"
	"github.com/dpcheck/dpcheck/poly"
	"github.com/dpcheck/dpcheck/source"
)

// paramBuilder is a model with the program's parameter: it builds a
// parametric chain over the parameter's interval (ParamModel does).
type paramBuilder interface {
	BuildParam(ctx context.Context, lim poly.Limits) (*param.Chain, error)
}

// ParamEquivalenceCheck is "check equivalent(M1, M2) for alpha": the two
// models have equal output distributions (final states) for every input
// and every value of the parameter in its interval, inputs and outputs
// matched as EquivalenceCheck matches them. A model with the parameter
// (a paramBuilder) is its parametric chain; a model without it is the
// same chain for every value (param.Constant). Decided by
// param.Equivalent: equal for every value exactly when every probability
// is the same rational function in canonical form (two rational functions
// equal at infinitely many points are equal identically); otherwise the
// first input and output where they differ, both functions, and the
// simplest rational value where they differ, with verify's comparison of
// the two chains there.
type ParamEquivalenceCheck struct {
	Header
	// Param is the parameter's name, Interval its interval and
	// IntervalText the interval as written canonically ("(0, 1)").
	Param        string
	Interval     poly.Interval
	IntervalText string
	Models       [2]Model
	// CallPos and CallText are where and how the check's call is written.
	CallPos  source.Position
	CallText string
	chains   [2]*param.Chain
	infos    [2]ModelInfo
	// constant says which models do not have the parameter.
	constant [2]bool
}

// ParamEquivalenceOutcome says whether the models are equivalent for every
// parameter value and, if not, where they differ.
type ParamEquivalenceOutcome struct {
	base
	Result *param.EquivalenceResult
}

// Kind is "check equivalent".
func (s *ParamEquivalenceCheck) Kind() string { return "check equivalent" }

// Describe says what the check compares.
func (s *ParamEquivalenceCheck) Describe() string {
	return "equal output distributions (final states) for every input and every " + s.Param + " in " + s.IntervalText
}

// Infos describes the two models (their notes are known once prepared).
func (s *ParamEquivalenceCheck) Infos() [2]ModelInfo { return s.infos }

// Constant reports which models do not have the parameter (the same chain
// for every value).
func (s *ParamEquivalenceCheck) Constant() [2]bool { return s.constant }

func (s *ParamEquivalenceCheck) prepare(ctx context.Context, p *Prepared) source.ErrorList {
	errs := p.checkExpectUnknown(&s.Header, true)
	for i, m := range s.Models {
		s.infos[i] = m.Info()
		if pb, ok := m.(paramBuilder); ok {
			pc := p.Param
			if m != p.Program.Model || pc == nil {
				var err error
				if pc, err = pb.BuildParam(ctx, poly.Limits{}); err != nil {
					if !collect(err, &errs) {
						return nil // cancelled: Prepare reports the context's error
					}
					continue
				}
			}
			s.chains[i] = pc
			continue
		}
		s.constant[i] = true
		c, ok := buildCompared(ctx, p, m, &s.infos[i], s.CallPos, &errs)
		switch {
		case !ok:
			return nil
		case c == nil:
			continue
		}
		pc, err := param.Constant(ctx, poly.Limits{}, c, s.Param, s.Interval)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			errs = append(errs, errorAt(s.CallPos, "%s: %v", s.infos[i].Call, err))
			continue
		}
		s.chains[i] = pc
	}
	if len(errs) == 0 {
		errs = append(errs, errUnmatched(s.CallPos, s.CallText, s.chains[0].Frame, s.chains[1].Frame)...)
	}
	return errs
}

// Evaluate compares the two models' distributions for every parameter
// value with param.Equivalent.
func (s *ParamEquivalenceCheck) Evaluate(ctx context.Context, e *Env) Outcome {
	o := &ParamEquivalenceOutcome{base: base{st: s}}
	if o.Result = evaluate(&o.base, func() (*param.EquivalenceResult, error) {
		return param.Equivalent(ctx, e.paramChain(s.chains[0]), e.paramChain(s.chains[1]))
	}); o.err == nil {
		o.passCheck(&s.Header, o.Result.Equal)
	}
	return o
}

// Value is "holds" or "violated".
func (o *ParamEquivalenceOutcome) Value() string {
	return verdict(&o.base, o.Result != nil && o.Result.Equal)
}
