package builder

import (
	"context"
	"fmt"
	"math/big"
	"slices"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/poly"
)

// MaxRange bounds n for the geometric-style builders: the truncated
// geometric mechanism over {0..n} has (n+1)² transitions, so n = 5000 is
// already 25 million exact rationals.
const MaxRange = 5000

// geometricTable holds the distinct probabilities of the truncated
// α-geometric mechanism over {0..n}; entries are shared, read-only values.
type geometricTable[T any] struct {
	n        int
	interior []T // (1-α)/(1+α)·α^j, j = 0..n
	boundary []T // α^j/(1+α), j = 0..n
}

// newGeometricTable computes the table for alpha over {0..n}. It stops
// with ctx's error when ctx ends.
func newGeometricTable[T any](ctx context.Context, F exact.Field[T], alpha T, n int) (*geometricTable[T], error) {
	o := &ops[T]{F: F}
	g := &geometricTable[T]{n: n, interior: make([]T, n+1), boundary: make([]T, n+1)}
	onePlus := o.add(o.one(), alpha)
	g.interior[0] = o.quo(o.sub(o.one(), alpha), onePlus)
	g.boundary[0] = o.quo(o.one(), onePlus)
	for j := 1; j <= n && o.err == nil; j++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		g.interior[j] = o.mul(g.interior[j-1], alpha)
		g.boundary[j] = o.mul(g.boundary[j-1], alpha)
	}
	return g, o.err
}

// prob returns Pr[output l | input k] (read-only, shared).
func (g *geometricTable[T]) prob(k, l int) T {
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
	note := func() string {
		return fmt.Sprintf("truncated %s-geometric mechanism over {0..%d}, sensitivity %d", alpha.RatString(), n, delta)
	}
	return geometricMechanism(ctx, "truncated_geometric", note, alpha, n, delta, geometricRows[*big.Rat])
}

// geometricMechanism checks the arguments of the geometric mechanism name
// and builds its rows, described by note (called once they are checked).
func geometricMechanism(ctx context.Context, name string, note func() string, alpha *big.Rat, n, delta int, rows func(context.Context, exact.Field[*big.Rat], *big.Rat, int, int, Sink[*big.Rat]) ([][2]int, error)) (*model.Mechanism, error) {
	if err := firstError(
		checkUnit(name, "alpha", alpha, true),
		checkRange(name, "n", n, 1, MaxRange),
		checkRange(name, "sensitivity", delta, 1, n),
	); err != nil {
		return nil, err
	}
	return rats(ctx, note(), func(s Sink[*big.Rat]) ([][2]int, error) {
		return rows(ctx, exact.Rats{}, alpha, n, delta, s)
	})
}

// geometricRows writes the truncated α-geometric mechanism over {0..n} of
// sensitivity delta (TruncatedGeometricSensitivity) into s and returns its
// neighbours.
func geometricRows[T any](ctx context.Context, F exact.Field[T], alpha T, n, delta int, s Sink[T]) ([][2]int, error) {
	g, err := newGeometricTable(ctx, F, alpha, n)
	if err != nil {
		return nil, err
	}
	in := make([]int, n+1)
	for k := 0; k <= n; k++ {
		in[k] = s.AddState(fmt.Sprintf("s%d", k), chain.Valuation{{Name: "in", Value: int64(k)}}, fmt.Sprintf("in_%d", k))
		s.MarkInput(in[k])
	}
	out := make([]int, n+1)
	for l := 0; l <= n; l++ {
		out[l] = s.AddState(fmt.Sprintf("t%d", l), chain.Valuation{{Name: "out", Value: int64(l)}}, fmt.Sprintf("out_%d", l))
	}
	for k := 0; k <= n; k++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p := make([]T, n+1)
		for l := range p {
			p[l] = g.prob(k, l)
		}
		s.AddRow(in[k], slices.Clone(out), p)
	}
	return geometricPairs(in, delta), nil
}

// geometricPairs is the geometric mechanisms' neighbour relation on the
// inputs in[k]: 0 < |k − l| <= delta.
func geometricPairs(in []int, delta int) [][2]int {
	var pairs [][2]int
	for k := range in {
		for l := k + 1; l < min(len(in), k+delta+1); l++ {
			pairs = append(pairs, [2]int{in[k], in[l]})
		}
	}
	return pairs
}

// paramGeometric is truncated_geometric for every value of its alpha.
func paramGeometric(ctx context.Context, a *Args, p Parametric) (*Table[poly.RatFunc], error) {
	return paramGeometricRows(ctx, "truncated geometric", a, p, geometricRows[poly.RatFunc])
}

// paramGeometricRows checks the arguments of the geometric mechanism name
// for every value of its alpha and writes its rows.
func paramGeometricRows(ctx context.Context, name string, a *Args, p Parametric, rows func(context.Context, exact.Field[poly.RatFunc], poly.RatFunc, int, int, Sink[poly.RatFunc]) ([][2]int, error)) (*Table[poly.RatFunc], error) {
	n, delta := a.Int("n"), a.Int("sensitivity")
	if n < 1 || n > maxParamRange {
		return nil, fmt.Errorf("%s: n = %d is outside [1, %d]", name, n, maxParamRange)
	}
	if delta < 1 || delta > n {
		return nil, fmt.Errorf("%s: sensitivity = %d is outside [1, n]", name, delta)
	}
	return p.table(func(s Sink[poly.RatFunc]) ([][2]int, error) {
		return rows(ctx, p.Field, p.Field.X(), n, delta, s)
	})
}

// maxParamRange bounds the ranges of the parametric chains: their
// probabilities have degree up to the range + 1.
const maxParamRange = 500
