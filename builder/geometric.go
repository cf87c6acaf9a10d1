package builder

import (
	"context"
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/model"
)

// MaxRange bounds n for the geometric-style builders: the truncated
// geometric mechanism over {0..n} has (n+1)² transitions, so n = 5000 is
// already 25 million exact rationals.
const MaxRange = 5000

// geometricTable holds the distinct probabilities of the truncated
// α-geometric mechanism over {0..n}; entries are shared, read-only values.
type geometricTable struct {
	n        int
	interior []*big.Rat // (1-α)/(1+α)·α^j, j = 0..n
	boundary []*big.Rat // α^j/(1+α), j = 0..n
}

// newGeometricTable computes the table for alpha over {0..n}. It stops
// with ctx's error when ctx ends.
func newGeometricTable(ctx context.Context, alpha *big.Rat, n int) (*geometricTable, error) {
	g := &geometricTable{n: n, interior: make([]*big.Rat, n+1), boundary: make([]*big.Rat, n+1)}
	onePlus := add(one, alpha)
	g.interior[0] = quo(sub(one, alpha), onePlus)
	g.boundary[0] = quo(one, onePlus)
	for j := 1; j <= n; j++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		g.interior[j] = mul(g.interior[j-1], alpha)
		g.boundary[j] = mul(g.boundary[j-1], alpha)
	}
	return g, nil
}

// prob returns Pr[output l | input k] (read-only, shared).
func (g *geometricTable) prob(k, l int) *big.Rat {
	switch l {
	case 0:
		return g.boundary[k]
	case g.n:
		return g.boundary[g.n-k]
	default:
		return g.interior[abs(k-l)]
	}
}

// TruncatedGeometric returns the truncated α-geometric mechanism over
// {0..n} of Ghosh, Roughgarden and Sundararajan (Model Checking Differentially Private Properties) for a query of
// sensitivity 1. See TruncatedGeometricSensitivity.
func TruncatedGeometric(alpha *big.Rat, n int) (*model.Mechanism, error) {
	return truncatedGeometric(context.Background(), alpha, n, 1)
}

// TruncatedGeometricSensitivity returns the truncated α-geometric mechanism
// over {0..n} for a query of sensitivity delta: input states s0..sn (in=k,
// label in_k), output states t0..tn (out=l, label out_l), and
// Pr[t_l | s_k] = α^k/(1+α) for l = 0, α^(n-k)/(1+α) for l = n and
// (1-α)/(1+α)·α^|k-l| in between. Inputs k and l are neighbours iff
// 0 < |k-l| <= delta. The mechanism is exactly (-delta·ln α)-DP.
func TruncatedGeometricSensitivity(alpha *big.Rat, n, delta int) (*model.Mechanism, error) {
	return truncatedGeometric(context.Background(), alpha, n, delta)
}

func truncatedGeometric(ctx context.Context, alpha *big.Rat, n, delta int) (*model.Mechanism, error) {
	const name = "truncated_geometric"
	if err := checkUnit(name, "alpha", alpha, true); err != nil {
		return nil, err
	}
	if err := checkRange(name, "n", n, 1, MaxRange); err != nil {
		return nil, err
	}
	if err := checkRange(name, "sensitivity", delta, 1, n); err != nil {
		return nil, err
	}
	g, err := newGeometricTable(ctx, alpha, n)
	if err != nil {
		return nil, err
	}
	b := chain.NewBuilder()
	in := make([]int, n+1)
	for k := 0; k <= n; k++ {
		in[k] = b.AddState(fmt.Sprintf("s%d", k), chain.Valuation{{Name: "in", Value: int64(k)}}, fmt.Sprintf("in_%d", k))
		b.MarkInput(in[k])
	}
	out := make([]int, n+1)
	for l := 0; l <= n; l++ {
		out[l] = b.AddState(fmt.Sprintf("t%d", l), chain.Valuation{{Name: "out", Value: int64(l)}}, fmt.Sprintf("out_%d", l))
	}
	for k := 0; k <= n; k++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b.GrowRow(in[k], n+1)
		for l := 0; l <= n; l++ {
			b.AddTransition(in[k], out[l], g.prob(k, l))
		}
	}
	c, err := buildChain(ctx, b)
	if err != nil {
		return nil, err
	}
	var pairs [][2]int
	for k := 0; k <= n; k++ {
		for l := k + 1; l <= min(n, k+delta); l++ {
			pairs = append(pairs, [2]int{in[k], in[l]})
		}
	}
	return &model.Mechanism{
		Chain:      c,
		Neighbours: pairs,
		Note:       fmt.Sprintf("truncated %s-geometric mechanism over {0..%d}, sensitivity %d", alpha.RatString(), n, delta),
	}, nil
}
