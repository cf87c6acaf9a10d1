package model

import (
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
	// MDP is set when the mechanism is a Markov decision process (an
	// analyst chooses the queries); Chain is then its frame (the states,
	// their valuations, labels and inputs; not how it moves).
	MDP *mdp.MDP
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
