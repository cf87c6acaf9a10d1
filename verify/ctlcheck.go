package verify

import (
	"context"
	"fmt"
	"github.com/dpcheck/dpcheck/exact"
	"math/big"
)

// FormulaResult is the verdict of checking a state formula at every input.
type FormulaResult struct {
	Formula *Formula
	Holds   bool
	// Inputs is the number of inputs checked; Pairs the number of unordered
	// neighbouring pairs a D operator compares.
	Inputs, Pairs int
	// Counterexample explains the first input (in state order) where the
	// formula fails.
	Counterexample *Explanation
}

// Explanation says why a state formula fails at a state, following the
// formula down to the part that fails.
type Explanation struct {
	State StateInfo
	// Formula is the failing (sub)formula.
	Formula string
	// Reason is one line of text: "s is not labelled out_Y",
	// "Pr(F out_Y) = 1/4, not >= 1/2", ...
	Reason string
	// DP is set when a D operator fails: the neighbour, both probabilities,
	// the bound and the excess.
	DP *DPViolation
	// Causes explain the failing parts of Formula: the first failing
	// conjunct of a conjunction, every disjunct of a disjunction.
	Causes []*Explanation
}

// DPViolation is a failing direction of D{ε,δ}[ψ]: Pr_From(ψ) >
// e^ε·Pr_To(ψ) + δ.
type DPViolation struct {
	From, To     StateInfo
	Path         string
	PrFrom, PrTo *big.Rat
	Bound        exact.Real // e^ε·PrTo + δ
	Excess       exact.Real // PrFrom - Bound
}

func (m *Checker) info(s int) StateInfo {
	return StateInfo{ID: s, Name: m.c.Name(s), Valuation: m.c.Valuation(s)}
}

// Check decides the state formula f at every input.
func (m *Checker) Check(ctx context.Context, f *Formula) (*FormulaResult, error) {
	if !f.IsState() {
		return nil, fmt.Errorf("%w: %s is a path formula; check P…[%s] or D{…}[%s]", ErrFormula, f, f, f)
	}
	sat, err := m.Sat(ctx, f)
	if err != nil {
		return nil, err
	}
	res := &FormulaResult{Formula: f, Holds: true, Inputs: len(m.c.Inputs()), Pairs: m.numPairs}
	for _, s := range m.c.Inputs() {
		if !sat[s] {
			res.Holds = false
			res.Counterexample, err = m.explain(ctx, f, s)
			return res, err
		}
	}
	return res, nil
}

// explain says why f fails at s (f must fail at s).
func (m *Checker) explain(ctx context.Context, f *Formula, s int) (*Explanation, error) {
	e := &Explanation{State: m.info(s), Formula: f.Text(MaxFormulaText)}
	name := e.State.Name
	switch f.Op {
	case OpFalse:
		e.Reason = "false holds nowhere"
	case OpLabel:
		e.Reason = fmt.Sprintf("%s is not labelled %s", name, f)
	case OpAtom:
		e.Reason = fmt.Sprintf("%s is false at %s", f, e.State)
	case OpNot:
		var b fwriter
		b.limit = MaxFormulaText
		paren(&b, f.Args[0])
		e.Reason = fmt.Sprintf("%s holds at %s", b.String(), name)
	case OpAnd:
		for _, g := range f.Args {
			sat, err := m.Sat(ctx, g)
			if err != nil {
				return nil, err
			}
			if !sat[s] {
				e.Reason = fmt.Sprintf("the conjunct %s fails", g)
				cause, err := m.explain(ctx, g, s)
				e.Causes = []*Explanation{cause}
				return e, err
			}
		}
	case OpOr:
		e.Reason = "no disjunct holds"
		for _, g := range f.Args {
			cause, err := m.explain(ctx, g, s)
			if err != nil {
				return nil, err
			}
			e.Causes = append(e.Causes, cause)
		}
	case OpProb:
		pr, err := m.Prob(ctx, f.Args[0])
		if err != nil {
			return nil, err
		}
		e.Reason = fmt.Sprintf("Pr_%s(%s) = %s, not %s %s", name, f.Args[0].Text(MaxFormulaText), pr[s].RatString(), f.Cmp, f.Bound.RatString())
	case OpDP:
		pr, err := m.Prob(ctx, f.Args[0])
		if err != nil {
			return nil, err
		}
		for _, t := range m.nb[s] {
			for _, d := range [2][2]int{{s, t}, {t, s}} {
				a, b := pr[d[0]], pr[d[1]]
				excess := exact.Affine(new(big.Rat).Sub(a, f.Delta), new(big.Rat).Neg(b), f.Eps)
				sign, err := excess.Sign()
				if err != nil {
					return nil, err
				}
				if sign > 0 {
					e.DP = &DPViolation{From: m.info(d[0]), To: m.info(d[1]), Path: f.Args[0].Text(MaxFormulaText),
						PrFrom: a, PrTo: b, Bound: exact.Affine(new(big.Rat).Set(f.Delta), b, f.Eps), Excess: excess}
					e.Reason = fmt.Sprintf("Pr_%s(%s) = %s > e^ε·Pr_%s(%s) + δ = %s",
						m.c.Name(d[0]), e.DP.Path, a.RatString(), m.c.Name(d[1]), e.DP.Path, e.DP.Bound)
					return e, nil
				}
			}
		}
	default:
		e.Reason = "the formula fails"
	}
	return e, nil
}

// InputProb is Pr_s(ψ) for one input.
type InputProb struct {
	State StateInfo
	Pr    *big.Rat
}

// ProbQuery returns Pr_s(path) exactly for every input s: P=?[path].
func (m *Checker) ProbQuery(ctx context.Context, path *Formula) ([]InputProb, error) {
	pr, err := m.Prob(ctx, path)
	if err != nil {
		return nil, err
	}
	out := make([]InputProb, 0, len(m.c.Inputs()))
	for _, s := range m.c.Inputs() {
		out = append(out, InputProb{State: m.info(s), Pr: pr[s]})
	}
	return out, nil
}

// DPBound is a tight value of D{ε,δ}[ψ] over all neighbouring pairs, with
// the ordered pair attaining it.
type DPBound struct {
	Path string
	// Eps is the least ε for which D{ε,δ}[ψ] holds at every input (+∞ when
	// none does); Delta the least δ at the given ε.
	Eps   exact.Eps
	Delta exact.Real
	// From and To attain the bound (nil when every pair already meets it
	// at ε = 0, or δ = 0).
	From, To     *StateInfo
	PrFrom, PrTo *big.Rat
	Pairs        int
}

// TightEpsilonD returns the least ε with D{ε,δ}[path] at every input: the
// largest (Pr_s(ψ) - δ)/Pr_t(ψ) over ordered neighbouring pairs, as ln of an
// exact rational, or +∞ when some Pr_t(ψ) = 0 < Pr_s(ψ) - δ.
func (m *Checker) TightEpsilonD(ctx context.Context, path *Formula, delta *big.Rat) (*DPBound, error) {
	pr, err := m.pairProbs(ctx, path, checkDelta(delta))
	if err != nil {
		return nil, err
	}
	res := &DPBound{Path: path.Text(MaxFormulaText), Delta: exact.RatReal(delta), Pairs: m.numPairs}
	var best *big.Rat // nil: c = 1
	inf := false
	for _, p := range m.pairs {
		for _, d := range [2][2]int{{p[0], p[1]}, {p[1], p[0]}} {
			a, b := pr[d[0]], pr[d[1]]
			num := new(big.Rat).Sub(a, delta)
			if num.Sign() <= 0 {
				continue
			}
			if b.Sign() == 0 {
				if !inf {
					inf = true
					res.setPair(m, d, a, b)
				}
				continue
			}
			c := num.Quo(num, b)
			if !inf && c.Cmp(ratOne) > 0 && (best == nil || c.Cmp(best) > 0) {
				best = c
				res.setPair(m, d, a, b)
			}
		}
	}
	switch {
	case inf:
		res.Eps = exact.Inf()
	case best != nil:
		res.Eps = exact.LnOf(best)
	}
	return res, nil
}

// pairProbs returns Pr_s(path) at every state s, for a bound over the
// neighbouring pairs, unless err (the check of the bound's parameter) is
// not nil or the chain has no pairs.
func (m *Checker) pairProbs(ctx context.Context, path *Formula, err error) ([]*big.Rat, error) {
	if err != nil {
		return nil, err
	}
	if err := m.needPairs(); err != nil {
		return nil, err
	}
	return m.Prob(ctx, path)
}

func (b *DPBound) setPair(m *Checker, d [2]int, a, c *big.Rat) {
	from, to := m.info(d[0]), m.info(d[1])
	b.From, b.To, b.PrFrom, b.PrTo = &from, &to, a, c
}

// TightDeltaD returns the least δ with D{ε,δ}[path] at every input: the
// largest Pr_s(ψ) - e^ε·Pr_t(ψ) over ordered neighbouring pairs (at least 0).
func (m *Checker) TightDeltaD(ctx context.Context, path *Formula, eps exact.Eps) (*DPBound, error) {
	pr, err := m.pairProbs(ctx, path, checkEps(eps))
	if err != nil {
		return nil, err
	}
	res := &DPBound{Path: path.Text(MaxFormulaText), Eps: eps, Delta: exact.RatReal(new(big.Rat)), Pairs: m.numPairs}
	for _, p := range m.pairs {
		for _, d := range [2][2]int{{p[0], p[1]}, {p[1], p[0]}} {
			a, b := pr[d[0]], pr[d[1]]
			v := exact.Affine(new(big.Rat).Set(a), new(big.Rat).Neg(b), eps)
			c, err := v.Cmp(res.Delta)
			if err != nil {
				return nil, err
			}
			if c > 0 {
				res.Delta = v
				res.setPair(m, d, a, b)
			}
		}
	}
	return res, nil
}
