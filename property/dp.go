package property

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/mdp"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/verify"
)

// Standard (ε,δ)-differential privacy over all events of an output space:
// a check, the tight ε, the tight δ and the privacy profile
// (docs/semantics.md §2).

// overOutput is the output space of a dp statement.
type overOutput struct {
	// Over, when set, replaces the program's output space ("over
	// traces(k)").
	Over *OutputSpec
	out  verify.Output
	// runs is the number of runs of a composition computed by
	// privacy-loss distributions (0 for the model's own outputs).
	runs int
	// onMDP is set when the model is an MDP.
	onMDP bool
	// isCheck is set for check dp (which may expect unknown).
	isCheck bool
}

func (o *overOutput) prepare(p *Prepared, h *Header) source.ErrorList {
	var errs source.ErrorList
	o.out, errs = p.outputFor(o.Over)
	o.onMDP = p.MDP != nil
	errs = append(errs, p.checkExpectUnknown(h, o.isCheck)...)
	if p.composed(o.out) {
		o.runs = p.Composition.Runs
	}
	if c := p.inputChain(); c != nil && p.Program.Neighbours == nil && !p.hasPairs() { // a neighbours statement says so itself
		if n := len(c.Inputs()); n == 1 {
			errs = append(errs, errorAt(h.Pos, "this statement compares neighbouring inputs, and the model has one input"))
		} else {
			errs = append(errs, errorAt(h.Pos, "this statement compares neighbouring inputs, and no two of the model's %d inputs are neighbours", n))
		}
	}
	return errs
}

// hasPairs reports whether two distinct inputs are neighbours.
func (p *Prepared) hasPairs() bool {
	if p.AllPairs {
		return p.NumPairs() > 0
	}
	return slices.ContainsFunc(p.Neighbours, func(pr [2]int) bool { return pr[0] != pr[1] })
}

// outputOver is the statement's own output space, or nil.
func (o *overOutput) outputOver() *OutputSpec { return o.Over }

// Output is the output space the statement is checked over (once
// prepared).
func (o *overOutput) Output() verify.Output { return o.out }

// Describe says what a dp statement compares.
func (o *overOutput) Describe() string {
	if o.runs > 0 {
		return fmt.Sprintf("standard (ε,δ)-DP over all events; outputs: final state of each of %d runs", o.runs)
	}
	if o.onMDP {
		return "standard (ε,δ)-DP over all events, " + querySchedulers + "; outputs: " + o.out.String()
	}
	return "standard (ε,δ)-DP over all events; outputs: " + o.out.String()
}

// evalPrivacy computes a dp statement's result from the distributions
// of its output space, recording in b why it could not be computed.
func evalPrivacy[R any](ctx context.Context, e *Env, o *overOutput, b *base, compute func(verify.Privacy) (R, error)) R {
	return evaluate(b, after(func() (verify.Privacy, error) { return e.Privacy(ctx, o.out) }, compute))
}

// DPCheck is "check dp(eps = ε, delta = δ)".
type DPCheck struct {
	Header
	overOutput
	Eps   exact.Eps
	Delta *big.Rat
}

// DPOutcome is the verdict of a DPCheck, with its counterexample.
type DPOutcome struct {
	base
	Result *verify.DPResult
}

// Kind is "check dp".
func (s *DPCheck) Kind() string { return "check dp" }

func (s *DPCheck) prepare(_ context.Context, p *Prepared) source.ErrorList {
	s.isCheck = true
	return append(s.overOutput.prepare(p, &s.Header), p.exactAt(&s.Header, &s.Eps)...)
}

// Evaluate checks standard (ε,δ)-DP over all events.
func (s *DPCheck) Evaluate(ctx context.Context, e *Env) Outcome {
	if e.p.MDP != nil {
		o := &MDPCheckOutcome{base: base{st: s}, OnFrame: e.onFrame()}
		if o.Result = evaluate(&o.base, after(e.p.Pairs, func(pairs [][2]int) (*mdp.Result, error) {
			return mdp.CheckDP(ctx, e.p.MDP, pairs, s.out, s.Eps, s.Delta, e.opts.MDP)
		})); o.err == nil {
			o.passVerdict(&s.Header, o.Result.Verdict)
		}
		return o
	}
	o := &DPOutcome{base: base{st: s}}
	if o.Result = evalPrivacy(ctx, e, &s.overOutput, &o.base, func(a verify.Privacy) (*verify.DPResult, error) {
		return a.DP(ctx, s.Eps, s.Delta)
	}); o.err == nil {
		if err := e.p.qualify(ctx, o.Result.Counterexample, s.Delta); err != nil {
			o.fail(err)
			return o
		}
		o.passCheck(&s.Header, o.Result.Holds)
	}
	return o
}

// Value is "holds" or "violated".
func (o *DPOutcome) Value() string { return verdict(&o.base, o.Result != nil && o.Result.Holds) }

// EpsQuery is "query eps(delta = δ)": the least ε for which dp(ε, δ) holds.
type EpsQuery struct {
	Header
	overOutput
	Delta *big.Rat
	// Expected is the ε the statement expects (Expect.Kind ExpectValue).
	Expected exact.Eps
}

// EpsOutcome is the tight ε of an EpsQuery, with its witness.
type EpsOutcome struct {
	base
	Result *verify.EpsResult
}

// Kind is "query eps".
func (s *EpsQuery) Kind() string { return "query eps" }

func (s *EpsQuery) prepare(_ context.Context, p *Prepared) source.ErrorList {
	errs := s.overOutput.prepare(p, &s.Header)
	if s.Delta.Sign() == 0 && s.Over == nil && p.TailRatio != nil {
		return errs // exact through the tails' suprema (tailEps)
	}
	return append(errs, p.exactAt(&s.Header, nil)...)
}

// Evaluate computes the tight ε at δ.
func (s *EpsQuery) Evaluate(ctx context.Context, e *Env) Outcome {
	if e.p.MDP != nil {
		return epsOnMDP(e, s, s.Expected, func(pairs [][2]int) (*mdp.EpsResult, error) {
			return mdp.TightEpsilon(ctx, e.p.MDP, pairs, s.out, s.Delta, e.opts.MDP)
		})
	}
	o := &EpsOutcome{base: base{st: s}}
	if o.Result = evalPrivacy(ctx, e, &s.overOutput, &o.base, func(a verify.Privacy) (*verify.EpsResult, error) {
		r, err := a.TightEpsilon(ctx, s.Delta)
		if err != nil || e.p.ExactAt == nil {
			return r, err
		}
		return e.p.tailEps(ctx, r)
	}); o.err == nil {
		o.passEps(&s.Header, true, o.Result.Eps, s.Expected)
	}
	return o
}

// Value is the tight ε.
func (o *EpsOutcome) Value() string {
	return o.value(o.Result != nil, func() string { return o.Result.Eps.String() })
}

// DeltaQuery is "query delta(eps = ε)": the least δ for which dp(ε, δ)
// holds.
type DeltaQuery struct {
	Header
	overOutput
	Eps exact.Eps
	// Expected is the δ the statement expects (Expect.Kind ExpectValue);
	// ExpectedReal replaces it when that δ is irrational (A + B·e^ε with
	// the statement's ε, as dpcheck prints a tight δ).
	Expected     *big.Rat
	ExpectedReal *exact.Real
}

// DeltaOutcome is the tight δ of a DeltaQuery, with its witness.
type DeltaOutcome struct {
	base
	Result *verify.DeltaResult
}

// Kind is "query delta".
func (s *DeltaQuery) Kind() string { return "query delta" }

func (s *DeltaQuery) prepare(_ context.Context, p *Prepared) source.ErrorList {
	return append(s.overOutput.prepare(p, &s.Header), p.exactAt(&s.Header, &s.Eps)...)
}

// Evaluate computes the tight δ at ε.
func (s *DeltaQuery) Evaluate(ctx context.Context, e *Env) Outcome {
	if e.p.MDP != nil {
		return deltaOnMDP(e, s, expectedDelta(s.Expected, s.ExpectedReal), func(pairs [][2]int) (*mdp.Result, error) {
			return mdp.TightDelta(ctx, e.p.MDP, pairs, s.out, s.Eps, e.opts.MDP)
		})
	}
	o := &DeltaOutcome{base: base{st: s}}
	if o.Result = evalPrivacy(ctx, e, &s.overOutput, &o.base, func(a verify.Privacy) (*verify.DeltaResult, error) {
		return a.TightDelta(ctx, s.Eps)
	}); o.err == nil {
		o.passDelta(&s.Header, true, o.Result.Delta, expectedDelta(s.Expected, s.ExpectedReal))
	}
	return o
}

// Value is the tight δ.
func (o *DeltaOutcome) Value() string {
	return o.value(o.Result != nil, func() string { return o.Result.Delta.String() })
}

// ProfileQuery is "query profile": the privacy profile ε ↦ δ(ε).
type ProfileQuery struct {
	Header
	overOutput
}

// ProfileOutcome is the exact privacy profile.
type ProfileOutcome struct {
	base
	Result *verify.Profile
}

// Kind is "query profile".
func (s *ProfileQuery) Kind() string { return "query profile" }

func (s *ProfileQuery) prepare(_ context.Context, p *Prepared) source.ErrorList {
	if p.MDP != nil {
		return source.ErrorList{errNotOnMDP(s.Pos, "query profile", "the privacy profile over query schedulers is not computed; ask query delta(eps = …) at each ε you need")}
	}
	return append(s.overOutput.prepare(p, &s.Header), p.exactAt(&s.Header, nil)...)
}

// Evaluate computes the profile's exact breakpoints.
func (s *ProfileQuery) Evaluate(ctx context.Context, e *Env) Outcome {
	o := &ProfileOutcome{base: base{st: s}}
	o.Result = evalPrivacy(ctx, e, &s.overOutput, &o.base, func(a verify.Privacy) (*verify.Profile, error) {
		return a.Profile(ctx)
	})
	o.pass = o.err == nil
	return o
}

// Value is "" (a profile is many values).
func (o *ProfileOutcome) Value() string { return o.noValue() }

// exactAt refuses a statement at ε (nil: at every ε) on a chain that is
// exact at some ε only (Prepared.ExactAt: an unbounded output's tails
// merged where the inputs' likelihood ratios vary): Prepare replaces it
// with a Refused, and the other statements are checked.
func (p *Prepared) exactAt(h *Header, eps *exact.Eps) source.ErrorList {
	if p.ExactAt == nil {
		return nil
	}
	const merged = "the model's tails whose likelihood ratios vary were merged for the ε of its dp checks and δ queries with e^ε rational only (see the model line)"
	what, _, _ := strings.Cut(h.Text, " expect ") // the statement without its expectation
	var why *source.Error
	var c *big.Rat
	ok := false
	if eps != nil {
		c, ok = eps.C()
	}
	switch {
	case eps == nil:
		why = errorAt(h.Pos, "%s needs the outputs at every ε, and %s: ask for dp or δ at given ε or the tight ε at δ = 0, or observe a bounded function of the unbounded variable", what, merged)
	case !ok:
		why = errorAt(h.Pos, "%s compares the outputs at e^ε = e^(%s), which is irrational, and %s: ask at an ε whose e^ε is rational, such as ln(2)", what, eps, merged)
	default:
		for _, x := range p.ExactAt {
			if x.Cmp(c) == 0 {
				return nil
			}
		}
		why = errorAt(h.Pos, "%s compares the outputs at e^ε = %s, and %s", what, c.RatString(), merged)
	}
	p.refuse(h, why)
	return nil
}

// refuse records why the statement of header h cannot be checked on the
// model: Prepare replaces it with a Refused.
func (p *Prepared) refuse(h *Header, why *source.Error) {
	if p.refused == nil {
		p.refused = map[*Header]source.ErrorList{}
	}
	p.refused[h] = append(p.refused[h], why)
}

// tailEps makes the tight ε at δ = 0 of a chain whose varying tails were
// merged, r, exact: a merged tail's ratio is at most the supremum of its
// values' ratios, which every ordered neighbouring pair's TailRatio gives;
// the larger of the two is the mechanism's tight ε, and its witness is a
// value of a tail (or the tail along which the ratio tends to it).
func (p *Prepared) tailEps(ctx context.Context, r *verify.EpsResult) (*verify.EpsResult, error) {
	pairs, err := p.Pairs()
	if err != nil {
		return nil, err
	}
	c := p.Chain
	var best *model.TailSup
	var from, to int
	for _, pr := range pairs {
		for _, o := range [][2]int{pr, {pr[1], pr[0]}} {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			s, err := p.TailRatio(ctx, c.Name(o[0]), c.Name(o[1]))
			if err != nil {
				return nil, err
			}
			if s != nil && s.Exceeds(best) {
				best, from, to = s, o[0], o[1]
			}
		}
	}
	if best == nil || r.Eps.IsInf() {
		return r, nil
	}
	eps := exact.Inf()
	if best.Ratio != nil {
		if best.Ratio.Cmp(big.NewRat(1, 1)) <= 0 {
			return r, nil
		}
		eps = exact.LnOf(best.Ratio)
	}
	if cmp, err := eps.Cmp(r.Eps); err != nil || cmp <= 0 {
		return r, err
	}
	out := *r
	info := func(s int) verify.StateInfo {
		return verify.StateInfo{ID: s, Name: c.Name(s), Valuation: c.Valuation(s)}
	}
	out.Eps = eps
	out.Witness = &verify.Witness{From: info(from), To: info(to), Event: []string{best.Output}, PrFrom: best.PrFrom, PrTo: best.PrTo, Approached: !best.Attained}
	return &out, nil
}

// qualify marks what a counterexample computed on a chain exact at some ε
// only cannot claim: its least ε is a lower bound (merging outputs is
// post-processing), exact where dp holds at it on the chain and the chain
// is exact there, and at δ = 0 made exact by the tails' suprema
// (tailEps); its single worst output is dropped, since the largest ratio
// may lie in a merged tail.
func (p *Prepared) qualify(ctx context.Context, cx *verify.Counterexample, delta *big.Rat) error {
	if cx == nil || p.ExactAt == nil {
		return nil
	}
	cx.WorstOutput, cx.WorstFrom, cx.WorstTo = "", nil, nil
	if delta.Sign() == 0 && p.TailRatio != nil {
		r, err := p.tailEps(ctx, &verify.EpsResult{Delta: delta, Eps: cx.LeastEps})
		if err != nil {
			return err
		}
		cx.LeastEps = r.Eps
		return nil
	}
	if c, ok := cx.LeastEps.C(); ok {
		for _, x := range p.ExactAt {
			if x.Cmp(c) == 0 {
				return nil
			}
		}
	}
	cx.LeastEpsAtLeast = true
	return nil
}
