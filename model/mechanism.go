package model

import (
	"context"
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/mdp"
)

// Mechanism is a chain together with its natural neighbour relation.
type Mechanism struct {
	// Chain is the mechanism as a Markov chain; its inputs are the databases.
	Chain *chain.Chain
	// Neighbours lists the unordered neighbouring pairs of input states;
	// nil when AllPairs.
	Neighbours [][2]int
	// AllPairs says that every two inputs are neighbours (PRISM's dpCTL
	// convention for the initial states of a model): the pairs, quadratic
	// in the inputs, are made by AllPairs only when something compares them.
	AllPairs bool
	// Note explains in one line what the chain models, for display.
	Note string
	// ExactAt, when set, says that the chain's outputs were merged where
	// inputs' likelihood ratios vary (an unbounded output's tails): its
	// hockey-stick divergences are exact at c = e^ε for these c only, and
	// lower bounds at every other (merging outputs is post-processing).
	ExactAt []*big.Rat
	// TailRatio, when set with ExactAt, gives what the merged tails hide
	// from a tight ε at δ = 0: for two inputs, named as Chain names them,
	// the supremum over the values of every merged tail of the ratio of
	// their probabilities (nil when no tail has a value the first input
	// reaches).
	TailRatio func(ctx context.Context, from, to string) (*TailSup, error)
	// MDP is set when the mechanism is a Markov decision process (an
	// analyst chooses the queries); Chain is then its frame (the states,
	// their valuations, labels and inputs; not how it moves).
	MDP *mdp.MDP
	// Rewards are the reward structures the model declares that its
	// statements use, evaluated on its states (PRISM's rewards …
	// endrewards).
	Rewards []*Rewards
}

// Rewards is a reward structure evaluated on the states of a mechanism,
// indexed like its chain's states. Entries are never negative; nil is 0.
type Rewards struct {
	// Name is the structure's name ("" when it has none).
	Name string
	// State[s] is the reward of being in s: its state items.
	State []*big.Rat
	// Step[s], on a Markov chain, is the expected reward of one step from
	// s: State[s] plus the expected reward of the transition taken (its
	// transition items, weighted as the step is). Nil on an MDP.
	Step []*big.Rat
	// Choice[s][i], on an MDP, is the reward of choice i of s (MDP.Choices):
	// its transition items. Nil on a Markov chain.
	Choice [][]*big.Rat
}

// TailSup is the supremum, over the values of an unbounded output's
// merged tails, of the ratio Pr[value | from] / Pr[value | to]
// (Mechanism.TailRatio).
type TailSup struct {
	// Ratio is the supremum; nil when it is infinite: a value has
	// probability 0 under to but not under from, or from's probability
	// decays more slowly along a tail.
	Ratio *big.Rat
	// Output names the value that attains it ("(best=2, top=15)"), or,
	// when Attained is false, the tail along which the ratio tends to it
	// without reaching it ("(best=2, top≥9)").
	Output   string
	Attained bool
	// PrFrom and PrTo are Output's probabilities under from and to (of
	// the whole tail when it is not Attained).
	PrFrom, PrTo *big.Rat
}

// Exceeds reports whether s is a larger supremum than best (any, when
// best is nil; an infinite one exceeds every finite one).
func (s *TailSup) Exceeds(best *TailSup) bool {
	return best == nil || best.Ratio != nil && (s.Ratio == nil || s.Ratio.Cmp(best.Ratio) > 0)
}

// AllPairs returns every two of the inputs as unordered pairs, unless the
// pairs would take more than maxMemory bytes: then a *LimitError says how
// many there are.
func AllPairs(ins []int, maxMemory int64) ([][2]int, error) {
	n := int64(len(ins))
	count := n * (n - 1) / 2
	if bytes := float64(count) * 16; bytes > float64(maxMemory) {
		return nil, &LimitError{Builder: fmt.Sprintf("relating every two of the %d inputs (%s neighbouring pairs)", n, thousands(float64(count))),
			Limit: LimitMemory, Estimate: bytes, Max: maxMemory}
	}
	out := make([][2]int, 0, count)
	for i, s := range ins {
		for _, t := range ins[i+1:] {
			out = append(out, [2]int{s, t})
		}
	}
	return out, nil
}
