package verify

import (
	"github.com/dpcheck/dpcheck/exact"
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
)

// StateInfo identifies a state in a result.
type StateInfo struct {
	ID        int
	Name      string
	Valuation chain.Valuation
}

// String returns the name and the valuation: "d4_t0 (d=4, t=0)".
func (s StateInfo) String() string {
	if len(s.Valuation) == 0 {
		return s.Name
	}
	return s.Name + " (" + s.Valuation.String() + ")"
}

func (a *Analysis) stateInfo(s int) StateInfo {
	return StateInfo{ID: s, Name: a.chain.Name(s), Valuation: a.chain.Valuation(s)}
}

// Checked says how much a result covers: every ordered pair of neighbouring
// inputs (both directions of each unordered pair) over every output.
type Checked struct {
	OrderedPairs int
	Outputs      int
	// Runs is the number of independent runs of a Composition (0 for a
	// chain's own outputs); Outputs then counts the outputs of one run.
	Runs int
	// LossValues is, for a Composition, the largest number of distinct
	// privacy-loss values (the infinite one included) of an ordered pair
	// over all Runs runs; 0 when the result needed one run's only.
	LossValues int
}

// Witness is an ordered pair of neighbouring inputs and an event (a set of
// outputs) with its exact probability under each.
type Witness struct {
	From, To StateInfo
	// Event lists the outputs of the event, in output order.
	Event []string
	// Loss, when set, describes the event by privacy loss instead (Event
	// is then empty): a composition's outputs are tuples, too many to list.
	Loss         *LossEvent
	PrFrom, PrTo *big.Rat
	// Approached says that a tight ε at δ = 0 is the limit of the ratio
	// of the probabilities of the values of Event, one merged tail of an
	// unbounded output, attained by none of them; PrFrom and PrTo are the
	// whole tail's.
	Approached bool
}

// Counterexample explains a violated dp(ε, δ) (docs/semantics.md §2.1): under the
// ordered pair (From, To) the event E* = {o : Pr_From(o) > c·Pr_To(o)} has
// Pr_From(E*) > c·Pr_To(E*) + δ. The pair is the worst one: its
// hockey-stick divergence is the largest.
type Counterexample struct {
	Witness
	// Bound is c·Pr_To(E*) + δ.
	Bound exact.Real
	// Excess is Pr_From(E*) - Bound, the amount by which δ is exceeded.
	Excess exact.Real
	// LeastEps is the least ε for which dp(ε, δ) holds (+∞ when none does).
	LeastEps exact.Eps
	// LeastEpsAtLeast says LeastEps is only a lower bound: the chain's
	// outputs were merged so that it is exact at the checked ε only (set by
	// the caller that knows it; see property's Prepared.ExactAt).
	LeastEpsAtLeast bool
	// WorstOutput is the single output of the pair with the largest ratio
	// Pr_From(o)/Pr_To(o), with both probabilities.
	WorstOutput        string
	WorstFrom, WorstTo *big.Rat
	// Path is the most likely run from From into E* (final-state outputs,
	// chains of at most MaxPathStates states), and PathPr its probability.
	Path   []StateInfo
	PathPr *big.Rat
}

// DPResult is the verdict of dp(ε, δ): standard (ε,δ)-differential privacy
// over all events of the output space, for every ordered neighbouring pair.
type DPResult struct {
	Eps   exact.Eps
	Delta *big.Rat
	Holds bool
	Checked
	// Counterexample is set when the property is violated.
	Counterexample *Counterexample
}

// EpsResult is the least ε for which dp(ε, δ) holds, with the pair and event
// where it is attained.
type EpsResult struct {
	Delta *big.Rat
	// Eps is the tight ε: ln(c*) exactly, or +∞ when no finite ε works.
	Eps exact.Eps
	// Witness is the ordered pair and event attaining the bound: for δ = 0
	// the single output with the largest ratio; for δ > 0 the event E* at
	// c*, where Pr_From(E*) - c*·Pr_To(E*) = δ exactly. When ε = +∞ it is an
	// event with Pr_From(E) > δ and Pr_To(E) = 0, which no finite ε covers.
	// Nil when the tight ε is 0.
	Witness *Witness
	Checked
}

// DeltaResult is the least δ for which dp(ε, δ) holds: the largest
// hockey-stick divergence over ordered pairs, with the pair and its E*.
type DeltaResult struct {
	Eps exact.Eps
	// Delta is exact: a rational when c = e^ε is rational, else A - B·e^ε.
	Delta   exact.Real
	Witness *Witness
	Checked
}

// ProfilePoint is a breakpoint of the privacy profile.
type ProfilePoint struct {
	// C is e^ε at the breakpoint and Eps = ln(C).
	C   *big.Rat
	Eps exact.Eps
	// Delta is δ(ε) at the breakpoint.
	Delta *big.Rat
}

// Profile is the exact privacy profile ε ↦ δ(ε) for ε ≥ 0: the least δ for
// which dp(ε, δ) holds. As a function of c = e^ε it is convex, piecewise
// linear and decreasing: linear between consecutive Points and constant
// after the last one. The first point is at ε = 0.
type Profile struct {
	Points []ProfilePoint
	Checked
}

// DeltaAt returns δ at c = e^ε ≥ 1 by interpolating the profile exactly.
func (p *Profile) DeltaAt(c *big.Rat) *big.Rat {
	pts := p.Points
	if len(pts) == 0 {
		return new(big.Rat)
	}
	for i := 1; i < len(pts); i++ {
		if c.Cmp(pts[i].C) <= 0 {
			// δ = δ0 + (δ1-δ0)·(c-c0)/(c1-c0)
			l, r := pts[i-1], pts[i]
			f := new(big.Rat).Sub(c, l.C)
			f.Quo(f, new(big.Rat).Sub(r.C, l.C))
			d := new(big.Rat).Sub(r.Delta, l.Delta)
			d.Mul(d, f)
			return d.Add(d, l.Delta)
		}
	}
	return pts[len(pts)-1].Delta
}
