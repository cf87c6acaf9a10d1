package mdp

import (
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
)

// New checks and returns an MDP: every target a state of the frame, every
// probability positive, every choice summing to exactly 1, every action
// index valid, at most one choice per action at a state. The MDP keeps the
// slices it is given.
func New(frame *chain.Chain, actions []string, choices [][]Choice) (*MDP, error) {
	m := &MDP{Frame: frame, Actions: actions, Choices: choices}
	if err := validate(m); err != nil {
		return nil, err
	}
	return m, nil
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
	// (default DefaultMaxSequences). Beyond it an exhaustive search
	// (bounded ψ, traces) fails with a *LimitError; the search for a
	// violation of an unbounded ψ or over final outputs stops, and the
	// answer says so and keeps what it proved.
	MaxSequences int64
	// MaxWork bounds the distribution entries the search may weigh in all
	// (default DefaultMaxWork): every entry (a state with what ψ or the
	// trace still needs, or a decided outcome) of every distribution it
	// steps, and of both distributions of every direction it bounds. A
	// sequence of a search over traces(14) weighs tens of thousands, one
	// of ψ_k on the paper's above-threshold MDP tens (one pair) to
	// hundreds (every pair). Beyond it the search stops as at
	// MaxSequences.
	MaxWork int64

	noPrune     bool // tests: explore every sequence, to check the pruning
	noTranspose bool // tests: no transposition table, to check it
}

// The defaults of Options keep a search to about a minute. The searches
// of the paper's above-threshold MDP explore 5 000 to 20 000 sequences a
// second and weigh 0.2 to 1.6 million entries a second; its traces at
// horizon 8, the largest documented search, explore 268 017 sequences and
// weigh 13 357 186 entries in 8 to 13 s. A sequence of traces(14) weighs
// thousands of entries: at the default of sequences alone, a search over
// them would run for hours.
const (
	DefaultMaxHorizon   = 16
	DefaultMaxSequences = 300_000
	DefaultMaxWork      = 50_000_000
)

// LimitError reports a search that would exceed a limit; Msg names it and
// says how far the search got, and Limit names the limit: "sequences"
// (Options.MaxSequences) or "search work" (Options.MaxWork).
type LimitError struct {
	Msg   string
	Limit string
	at    string // "the limit of 300,000 sequences", for a reason
}

func (e *LimitError) Error() string { return e.Msg }

// LimitKind names the limit the search reached.
func (e *LimitError) LimitKind() string { return e.Limit }

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
	// Transposed counts the prefixes explored (counted in Explored) whose
	// extensions were skipped because an earlier prefix of the same length
	// had reached exactly the same distributions (docs/semantics.md §7.2).
	Transposed int64
	// Weighed counts the distribution entries the search weighed
	// (Options.MaxWork).
	Weighed int64
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
	// Transposed and Weighed are as in Result.
	Transposed, Weighed int64
}
