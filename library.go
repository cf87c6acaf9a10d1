package dpcheck

import (
	"context"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/verify"
)

// Analyze prepares a mechanism for checking from Go code — in property
// tests, say: it computes the exact output distribution (final states) of
// every input of the mechanism's neighbour relation, once. The returned
// Analysis answers DP, TightEpsilon, TightDelta and Profile with typed,
// exact results.
//
//	m, _ := builder.TruncatedGeometric(alpha, n)
//	a, _ := dpcheck.Analyze(ctx, m)
//	res, _ := a.DP(ctx, eps, delta)   // res.Holds, res.Counterexample
func Analyze(ctx context.Context, m *builder.Mechanism) (*verify.Analysis, error) {
	return verify.Analyze(ctx, &verify.Model{Chain: m.Chain, Neighbours: m.Neighbours})
}

// Formulas prepares a mechanism for dpCTL checks (verify.Checker).
func Formulas(m *builder.Mechanism) (*verify.Checker, error) {
	return verify.NewChecker(m.Chain, m.Neighbours)
}
