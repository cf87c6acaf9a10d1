package mdp

import (
	"context"
	"errors"
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/verify"
)

// errTODO marks what is not written yet.
var errTODO = errors.New("mdp: not implemented yet")

// New checks and returns an MDP: every target a state of the frame, every
// probability positive, every choice summing to exactly 1, every action
// index valid, at most one choice per action at a state. The MDP keeps the
// slices it is given.
func New(frame *chain.Chain, actions []string, choices [][]Choice) (*MDP, error) {
	return &MDP{Frame: frame, Actions: actions, Choices: choices}, nil
}

// NumStates returns the number of states.
func (m *MDP) NumStates() int { return len(m.Choices) }

// Options bound the query-scheduler search. The zero value means the
// defaults.
type Options struct {
	// MaxHorizon is the longest prefix searched for a violation when ψ is
	// unbounded or the outputs are final (default DefaultMaxHorizon).
	MaxHorizon int
	// MaxSequences bounds the prefixes the search may explore in all
	// (default DefaultMaxSequences); beyond it the search fails with a
	// *LimitError.
	MaxSequences int64
}

// The defaults of Options.
const (
	DefaultMaxHorizon   = 16
	DefaultMaxSequences = 10_000_000
)

// LimitError reports a search that would exceed a limit; Msg names it and
// says how far the search got.
type LimitError struct{ Msg string }

func (e *LimitError) Error() string { return e.Msg }

// Prob returns, for every state, the minimum (max false) or maximum (max
// true) probability of the path formula over all schedulers, exactly.
// The formula's state formulas must be propositional (labels, atoms, !,
// &, |): a P or D inside a path formula is an error.
func (m *MDP) Prob(ctx context.Context, path *verify.Formula, max bool) ([]*big.Rat, error) {
	return nil, errTODO
}

// Result is the answer of a check or a tight δ over query schedulers.
type Result struct {
	Verdict Verdict
	// Exact reports whether Delta is the exact tight δ (every sequence
	// explored, or the inputs bisimilar); otherwise the tight δ lies in
	// [Delta, Upper].
	Exact bool
	// Reason says in one line how the answer was reached ("every sequence
	// of 4 actions explored", "Proposition 2", "the inputs are
	// bisimilar", …).
	Reason string
	// Horizon is the length of the sequences explored (the longest
	// searched when ψ is unbounded or the outputs final).
	Horizon int
	// From and To are the pair of the worst sequence found, in the
	// direction of the gap; -1 when there is none.
	From, To int
	// Sequence is the worst action sequence found (the counterexample of a
	// violation).
	Sequence []string
	// ProbFrom and ProbTo are Pr_From(ψ) and Pr_To(ψ) under Sequence (D
	// only; for an unbounded ψ, a lower bound of Pr_From and an upper bound
	// of Pr_To whatever follows the sequence).
	ProbFrom, ProbTo *big.Rat
	// Event lists the outputs (or traces) of the worst event under
	// Sequence (dp only).
	Event []string
	// Delta is the largest gap found, Pr_From(E) − e^ε·Pr_To(E): a lower
	// bound on the tight δ, exact when Exact.
	Delta exact.Real
	// Upper is Proposition 2's upper bound on δ, nil when not computed.
	Upper *exact.Real
	// Explored and Pruned count the prefixes explored and those cut by the
	// bound.
	Explored, Pruned int64
}

// EpsResult is the answer of a tight ε over query schedulers.
type EpsResult struct {
	// Exact reports whether Eps is the exact tight ε; otherwise it lies
	// in [Eps, Upper].
	Exact    bool
	Reason   string
	Horizon  int
	From, To int
	Sequence []string
	// Eps is the largest ε found to be needed: a lower bound, exact when
	// Exact.
	Eps exact.Eps
	// Upper is Proposition 2's upper bound, nil when not computed.
	Upper            *exact.Eps
	Explored, Pruned int64
}

// CheckD decides D{ε,δ}[ψ] for every pair of pairs (both directions) over
// query schedulers.
func CheckD(ctx context.Context, m *MDP, pairs [][2]int, path *verify.Formula, eps exact.Eps, delta *big.Rat, o Options) (*Result, error) {
	return nil, errTODO
}

// TightDeltaD returns the least δ for which D{ε,δ}[ψ] holds for every
// pair, exactly when it can (see Result.Exact).
func TightDeltaD(ctx context.Context, m *MDP, pairs [][2]int, path *verify.Formula, eps exact.Eps, o Options) (*Result, error) {
	return nil, errTODO
}

// TightEpsilonD returns the least ε for which D{ε,δ}[ψ] holds for every
// pair, exactly when it can.
func TightEpsilonD(ctx context.Context, m *MDP, pairs [][2]int, path *verify.Formula, delta *big.Rat, o Options) (*EpsResult, error) {
	return nil, errTODO
}

// CheckDP decides (ε,δ)-DP over the output space out (final outputs, or
// traces of observed labels) for every pair and every query scheduler.
func CheckDP(ctx context.Context, m *MDP, pairs [][2]int, out verify.Output, eps exact.Eps, delta *big.Rat, o Options) (*Result, error) {
	return nil, errTODO
}

// TightDelta returns the least δ for which (ε,δ)-DP holds over out.
func TightDelta(ctx context.Context, m *MDP, pairs [][2]int, out verify.Output, eps exact.Eps, o Options) (*Result, error) {
	return nil, errTODO
}

// TightEpsilon returns the least ε for which (ε,δ)-DP holds over out.
func TightEpsilon(ctx context.Context, m *MDP, pairs [][2]int, out verify.Output, delta *big.Rat, o Options) (*EpsResult, error) {
	return nil, errTODO
}
