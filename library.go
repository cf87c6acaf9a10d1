package dpcheck

import (
	"context"
	"errors"
	"fmt"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/verify"
)

// errMDP refuses to analyse the frame of an MDP as a Markov chain.
var errMDP = errors.New("the mechanism is an MDP: its Chain is only the frame of its states; check it with package mdp (mdp.CheckDP, mdp.TightEpsilon, …)")

// Analyze prepares a mechanism for checking from Go code — in property
// tests, say: it computes the exact output distribution (final states) of
// every input of the mechanism's neighbour relation, once. The returned
// Analysis answers DP, TightEpsilon, TightDelta and Profile with typed,
// exact results. A mechanism that is an MDP (Mechanism.MDP) is refused:
// its chain is only the frame of its states. To observe something else
// than the final state, use AnalyzeChain with the mechanism's chain and
// neighbours.
//
//	m, _ := builder.TruncatedGeometric(alpha, n)
//	a, _ := dpcheck.Analyze(ctx, m)
//	res, _ := a.DP(ctx, eps, delta)   // res.Holds, res.Counterexample
func Analyze(ctx context.Context, m *model.Mechanism) (*verify.Analysis, error) {
	if m.MDP != nil {
		return nil, errMDP
	}
	pairs := m.Neighbours
	if pairs == nil && !m.AllPairs {
		pairs = [][2]int{} // no pair: verify says so
	}
	return AnalyzeChain(ctx, m.Chain, pairs, verify.FinalState())
}

// AnalyzeChain prepares a chain — one built with chain.NewBuilder, or a
// model.Mechanism's Chain — for checking from Go code: it computes the
// exact distribution over the output space out of every input in the
// neighbouring pairs (unordered pairs of input states, both directions
// checked; nil: every two inputs), once. It is the one front door for a
// chain: Analyze is AnalyzeChain of a mechanism with its own neighbours
// and final states observed.
//
//	a, _ := dpcheck.AnalyzeChain(ctx, c, [][2]int{{pos, neg}}, verify.FinalLabels("out_Y"))
//	res, _ := a.TightEpsilon(ctx, new(big.Rat))
func AnalyzeChain(ctx context.Context, c *chain.Chain, pairs [][2]int, out verify.Output) (*verify.Analysis, error) {
	if c == nil {
		return nil, fmt.Errorf("%w: no chain", verify.ErrModel)
	}
	if pairs == nil {
		var err error
		if pairs, err = model.AllPairs(c.Inputs(), model.DefaultLimits.MaxMemory); err != nil {
			return nil, err
		}
	}
	return verify.Analyze(ctx, &verify.Model{Chain: c, Neighbours: pairs, Output: out})
}

// Formulas prepares a mechanism for dpCTL checks (verify.Checker). Like
// Analyze, it refuses an MDP.
func Formulas(m *model.Mechanism) (*verify.Checker, error) {
	if m.MDP != nil {
		return nil, errMDP
	}
	return verify.NewChecker(m.Chain, m.Neighbours)
}
