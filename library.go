package dpcheck

import (
	"context"
	"errors"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/verify"
)

// errMDP refuses to analyse the frame of an MDP as a Markov chain.
var errMDP = errors.New("the mechanism is an MDP: its Chain is only the frame of its states; check it with package mdp (mdp.CheckDP, mdp.TightEpsilon, …)")

// Analyze prepares a mechanism for checking from Go code — in property
// tests, say: it computes the exact output distribution (final states) of
// every input of the mechanism's neighbour relation, once. The returned
// Analysis answers DP, TightEpsilon, TightDelta and Profile with typed,
// exact results. A mechanism that is an MDP (Mechanism.MDP) is refused:
// its chain is only the frame of its states.
//
//	m, _ := builder.TruncatedGeometric(alpha, n)
//	a, _ := dpcheck.Analyze(ctx, m)
//	res, _ := a.DP(ctx, eps, delta)   // res.Holds, res.Counterexample
func Analyze(ctx context.Context, m *builder.Mechanism) (*verify.Analysis, error) {
	if m.MDP != nil {
		return nil, errMDP
	}
	return verify.Analyze(ctx, &verify.Model{Chain: m.Chain, Neighbours: m.Neighbours})
}

// Formulas prepares a mechanism for dpCTL checks (verify.Checker). Like
// Analyze, it refuses an MDP.
func Formulas(m *builder.Mechanism) (*verify.Checker, error) {
	if m.MDP != nil {
		return nil, errMDP
	}
	return verify.NewChecker(m.Chain, m.Neighbours)
}
