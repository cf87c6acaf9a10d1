// Package mdp checks Markov decision processes exactly: the minimum and
// maximum probabilities of path formulas over all schedulers, and
// differential privacy against an analyst who chooses the queries — the
// query schedulers of Liu, Wang and Zhang (APLAS 2018, the MDP section).
//
// An MDP is a set of states, each with its enabled choices: a choice is an
// action name and a distribution over successors, with exact rational
// probabilities. A state enables at most one choice per action. A state
// with no choice is absorbing. The states' names, valuations, labels and
// inputs are kept in Frame, a chain whose rows are not the MDP's (every
// state of the frame is absorbing): use it for what a state is, never for
// how the MDP moves.
//
// Semantics (docs/semantics.md §7):
//
//   - Schedulers (Pmin, Pmax, P~p): a scheduler picks one enabled choice
//     at every step, knowing the whole history; a state with no choice
//     stays where it is. P~p[ψ] holds when it holds under every scheduler;
//     the extremes are computed exactly (policy iteration with exact
//     linear solves; backward induction for bounded formulas).
//   - Query schedulers (D{ε,δ}, dp, eps, delta): the analyst fixes a
//     sequence of actions a1 a2 … in advance (the action depends only on
//     the number of steps taken); the same sequence is applied from both
//     inputs of a neighbouring pair. At step i a state takes its choice for
//     ai; a state that does not enable ai stays where it is for that step
//     (it waits for a query it answers; a state with no choice at all is
//     absorbing). In the paper's reactive MDPs every state enables every
//     action, and the rule never applies.
//   - D{ε,δ}[ψ] holds at s when, for every neighbour t and every query
//     scheduler, Pr_s(ψ) ≤ e^ε·Pr_t(ψ) + δ and the converse. dp(ε, δ) is
//     the hockey-stick condition over the final outputs or the traces of
//     length k, for every query scheduler.
//
// What is decided exactly (the general problem is undecidable):
//
//  1. Bounded ψ and trace(k) outputs: every action sequence of the horizon
//     is explored, depth first, the pair of distributions after a prefix
//     computed once and shared by its extensions, and a prefix pruned when
//     an exact upper bound on what it can still reach cannot beat the
//     worst sequence found (for D, each undecided key weighed by the
//     extreme probabilities of its residual, and pairs of keys under one
//     action), or skipped when a prefix of the same length reached the
//     same distributions (a transposition). The verdict is exact and the
//     worst sequence is the counterexample or witness.
//  2. Unbounded ψ and final outputs: Proposition 2's sufficient condition,
//     max_S Pr_s(ψ) − e^ε·min_S Pr_t(ψ) ≤ δ and the converse, with the
//     extremes exact over the schedulers that may also wait where an
//     action is disabled (so that they include every query scheduler); a
//     verdict from it is "holds (sufficient condition)". When it fails,
//     bounded horizons are searched for a real violation: a prefix whose
//     gap exceeds δ whatever follows it (the mass still undecided counted
//     against the violation). Otherwise the verdict is "unknown", with
//     both bounds. An unproven case is never called violated.
package mdp

import (
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
)

// MDP is a Markov decision process with exact probabilities. It is
// immutable once made by New and safe for concurrent use.
type MDP struct {
	// Frame holds the states: names, valuations, labels and inputs. Its
	// rows are not the MDP's.
	Frame *chain.Chain
	// Actions are the action names; Choice.Action indexes it.
	Actions []string
	// Choices lists the enabled choices of every state (indexed like the
	// frame's states), at most one per action; none: absorbing.
	Choices [][]Choice
}

// Choice is one enabled action of a state and its distribution.
type Choice struct {
	Action int
	To     []int
	P      []*big.Rat // exact, positive, summing to 1
}

// Verdict is the outcome of a check on an MDP, saying how it was decided.
type Verdict int

// The verdicts.
const (
	// Holds: decided exactly (every sequence of the horizon explored, or
	// the two inputs bisimilar).
	Holds Verdict = iota
	// HoldsSufficient: Proposition 2's sufficient condition holds.
	HoldsSufficient
	// Violated: a real violation was found, with its action sequence.
	Violated
	// Unknown: the sufficient condition fails and no violation was found
	// within the horizons searched; both bounds are given.
	Unknown
)

// String returns "holds", "holds (sufficient condition)", "violated" or
// "unknown".
func (v Verdict) String() string {
	switch v {
	case Holds:
		return "holds"
	case HoldsSufficient:
		return "holds (sufficient condition)"
	case Violated:
		return "violated"
	}
	return "unknown"
}
