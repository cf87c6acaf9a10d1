package property

import (
	"context"
	"errors"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/verify"
)

// EquivalenceCheck is "check equivalent(M1, M2)": the two models have
// equal output distributions (final states) for every input, inputs and
// outputs matched on the variables both models have, else by name
// (docs/semantics.md §2.10).
type EquivalenceCheck struct {
	Header
	Models [2]Model
	// CallPos and CallText are where and how the check's call is written.
	CallPos  source.Position
	CallText string
	chains   [2]*chain.Chain
	infos    [2]ModelInfo
}

// EquivalenceOutcome says whether the models are equivalent and, if not,
// the first input and output where they differ.
type EquivalenceOutcome struct {
	base
	Result *verify.EquivalenceResult
}

// Kind is "check equivalent".
func (s *EquivalenceCheck) Kind() string { return "check equivalent" }

// Describe says what the check compares.
func (s *EquivalenceCheck) Describe() string {
	return "equal output distributions (final states) for every input"
}

// Infos describes the two models (their notes are known once prepared).
func (s *EquivalenceCheck) Infos() [2]ModelInfo { return s.infos }

func (s *EquivalenceCheck) prepare(ctx context.Context, p *Prepared) source.ErrorList {
	errs := p.checkExpectUnknown(&s.Header, true)
	for i, m := range s.Models {
		s.infos[i] = m.Info()
		var ok bool
		if s.chains[i], ok = buildCompared(ctx, p, m, &s.infos[i], s.CallPos, &errs); !ok {
			return nil // cancelled: Prepare reports the context's error
		}
	}
	if len(errs) == 0 {
		errs = append(errs, errUnmatched(s.CallPos, s.CallText, s.chains[0], s.chains[1])...)
	}
	return errs
}

// buildCompared builds a model of check equivalent (info describes it,
// and gets its note), returning its chain, or nil with what is wrong with
// it appended to errs (an MDP is). It is false when the build failed
// otherwise (ctx ended).
func buildCompared(ctx context.Context, p *Prepared, m Model, info *ModelInfo, at source.Position, errs *source.ErrorList) (*chain.Chain, bool) {
	mech, err := m.Build(ctx, p.Limits)
	if err != nil {
		return nil, collect(err, errs)
	}
	info.Note = mech.Note
	if mech.MDP != nil {
		name := info.Call
		if name == "" {
			name = "the file's model"
		}
		*errs = append(*errs, errNotOnMDP(at, "check equivalent", name+" is an MDP, whose distributions depend on the scheduler"))
		return nil, true
	}
	return mech.Chain, true
}

// collect appends a failed build's positioned errors to errs; it is
// false when err is not a source.ErrorList (ctx ended).
func collect(err error, errs *source.ErrorList) bool {
	list, ok := err.(source.ErrorList)
	*errs = append(*errs, list...)
	return ok
}

// errUnmatched is the error at the call pos (written text) of two models
// whose inputs do not correspond (verify.MatchInputs), or none.
func errUnmatched(pos source.Position, text string, a, b *chain.Chain) source.ErrorList {
	var un *verify.MatchError
	if err := verify.MatchInputs(a, b); errors.As(err, &un) {
		return source.ErrorList{errorAt(pos, "%s cannot be compared: %s", text, un.Reason())}
	}
	return nil
}

// Evaluate compares the two models' distributions.
func (s *EquivalenceCheck) Evaluate(ctx context.Context, e *Env) Outcome {
	o := &EquivalenceOutcome{base: base{st: s}}
	if o.Result = evaluate(&o.base, func() (*verify.EquivalenceResult, error) {
		return verify.Equivalent(ctx, s.chains[0], s.chains[1])
	}); o.err == nil {
		o.passCheck(&s.Header, o.Result.Equal)
	}
	return o
}

// Value is "holds" or "violated".
func (o *EquivalenceOutcome) Value() string {
	return verdict(&o.base, o.Result != nil && o.Result.Equal)
}
