package param

import (
	"context"
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/poly"
)

// MaxRange bounds n for TruncatedGeometric (its probabilities have degree
// up to n + 1, and the chain (n+1)² transitions).
const MaxRange = 500

// TruncatedGeometric returns the truncated α-geometric mechanism over
// {0..n} for every α in (0, 1), exactly as builder.TruncatedGeometric
// defines it at one α: input states s0..sn (in=k, label in_k), output
// states t0..tn (out=l, label out_l), Pr[t_l | s_k] = α^k/(1+α) for l = 0,
// α^(n−k)/(1+α) for l = n and (1−α)/(1+α)·α^|k−l| in between; inputs k and
// k+1 are neighbours. The parameter is named "alpha".
func TruncatedGeometric(ctx context.Context, lim poly.Limits, n int) (*Chain, error) {
	if n < 1 || n > MaxRange {
		return nil, fmt.Errorf("%w: truncated geometric: n = %d is outside [1, %d]", ErrParam, n, MaxRange)
	}
	names := make([]string, 0, 2*(n+1))
	var vals []chain.Valuation
	var labels [][]string
	var inputs []int
	for k := 0; k <= n; k++ {
		names = append(names, fmt.Sprintf("s%d", k))
		vals = append(vals, chain.Valuation{{Name: "in", Value: int64(k)}})
		labels = append(labels, []string{fmt.Sprintf("in_%d", k)})
		inputs = append(inputs, k)
	}
	for l := 0; l <= n; l++ {
		names = append(names, fmt.Sprintf("t%d", l))
		vals = append(vals, chain.Valuation{{Name: "out", Value: int64(l)}})
		labels = append(labels, []string{fmt.Sprintf("out_%d", l)})
	}
	frame, err := Frame(names, vals, labels, inputs)
	if err != nil {
		return nil, err
	}
	onePlus := poly.FromInts(1, 1)
	interior := make([]poly.RatFunc, n+1)
	boundary := make([]poly.RatFunc, n+1)
	pow := poly.FromInts(1)
	for j := 0; j <= n; j++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if interior[j], err = lim.RatFunc(ctx, poly.FromInts(1, -1).Mul(pow), onePlus); err != nil {
			return nil, err
		}
		if boundary[j], err = lim.RatFunc(ctx, pow, onePlus); err != nil {
			return nil, err
		}
		pow = pow.Mul(poly.X())
	}
	rows := make([][]Trans, len(names))
	for k := 0; k <= n; k++ {
		row := make([]Trans, n+1)
		for l := 0; l <= n; l++ {
			p := interior[abs(k-l)]
			switch l {
			case 0:
				p = boundary[k]
			case n:
				p = boundary[n-k]
			}
			row[l] = Trans{To: n + 1 + l, P: p}
		}
		rows[k] = row
	}
	var pairs [][2]int
	for k := 0; k < n; k++ {
		pairs = append(pairs, [2]int{k, k + 1})
	}
	return New(ctx, lim, frame, "alpha", poly.Open(new(big.Rat), big.NewRat(1, 1)), rows, pairs)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// SurveyTheta1 returns randomized response with two coins (seed 001,
// builder.Survey) for every θ1 in (0, 1) at a fixed θ2 in (0, 1): states
// "+" (x=1, in_pos), "-" (x=0, in_neg), "Y" (y=1, out_Y), "N" (y=0,
// out_N); Pr(Y | +) = θ1 + (1−θ1)·θ2, Pr(N | +) = (1−θ1)(1−θ2), Pr(Y | −) =
// (1−θ1)·θ2, Pr(N | −) = θ1 + (1−θ1)(1−θ2). The parameter is "theta1".
func SurveyTheta1(ctx context.Context, lim poly.Limits, theta2 *big.Rat) (*Chain, error) {
	t2 := poly.Const(theta2)
	nt2 := poly.Const(new(big.Rat).Sub(big.NewRat(1, 1), theta2))
	lie := poly.FromInts(1, -1) // 1 − θ1
	return survey(ctx, lim, "theta1", poly.X(), lie.Mul(t2), lie.Mul(nt2))
}

// SurveyTheta2 is SurveyTheta1 with θ1 fixed in (0, 1) and θ2 the parameter
// on (0, 1), named "theta2".
func SurveyTheta2(ctx context.Context, lim poly.Limits, theta1 *big.Rat) (*Chain, error) {
	lie := new(big.Rat).Sub(big.NewRat(1, 1), theta1)
	yes := poly.X().Scale(lie)            // (1−θ1)·θ2
	no := poly.FromInts(1, -1).Scale(lie) // (1−θ1)(1−θ2)
	return survey(ctx, lim, "theta2", poly.Const(theta1), yes, no)
}

func survey(ctx context.Context, lim poly.Limits, name string, truth, yesIfLie, noIfLie poly.Poly) (*Chain, error) {
	frame, err := Frame([]string{"+", "-", "Y", "N"},
		[]chain.Valuation{{{Name: "x", Value: 1}}, {{Name: "x", Value: 0}}, {{Name: "y", Value: 1}}, {{Name: "y", Value: 0}}},
		[][]string{{"in_pos"}, {"in_neg"}, {"out_Y"}, {"out_N"}}, []int{0, 1})
	if err != nil {
		return nil, err
	}
	rows := [][]Trans{
		{{To: 2, P: poly.FromPoly(truth.Add(yesIfLie))}, {To: 3, P: poly.FromPoly(noIfLie)}},
		{{To: 2, P: poly.FromPoly(yesIfLie)}, {To: 3, P: poly.FromPoly(truth.Add(noIfLie))}},
		nil, nil,
	}
	return New(ctx, lim, frame, name, poly.Open(new(big.Rat), big.NewRat(1, 1)), rows, [][2]int{{0, 1}})
}

// CutoffDecision returns seed 000 §5's cutoff decision for every α in
// (0, 1), exactly as builder.CutoffDecision defines it at one α: outputs
// "yes" (q=1, label yes) and "no" (q=0, label no), inputs "n<N>" (N, label
// in) for counts N in {lo..hi}, neighbours N and N+1, and Pr[yes | N] =
// α^(m−N) for N < m, 1 for N ≥ m (no transition to "no" then). The
// exponents m − lo are at most MaxRange. The parameter is named "alpha".
func CutoffDecision(ctx context.Context, lim poly.Limits, m, lo, hi int) (*Chain, error) {
	if hi <= lo || hi-lo > MaxRange || m-lo > MaxRange {
		return nil, fmt.Errorf("%w: cutoff decision: counts %d..%d with m = %d: need lo < hi, hi − lo ≤ %d and m − lo ≤ %d", ErrParam, lo, hi, m, MaxRange, MaxRange)
	}
	names := []string{"yes", "no"}
	vals := []chain.Valuation{{{Name: "q", Value: 1}}, {{Name: "q", Value: 0}}}
	labels := [][]string{{"yes"}, {"no"}}
	var inputs []int
	for N := lo; N <= hi; N++ {
		inputs = append(inputs, len(names))
		names = append(names, fmt.Sprintf("n%d", N))
		vals = append(vals, chain.Valuation{{Name: "N", Value: int64(N)}})
		labels = append(labels, []string{"in"})
	}
	frame, err := Frame(names, vals, labels, inputs)
	if err != nil {
		return nil, err
	}
	rows := make([][]Trans, len(names))
	for i, N := range inputs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if lo+i >= m {
			rows[N] = []Trans{{To: 0, P: poly.FromPoly(poly.FromInts(1))}}
			continue
		}
		cs := make([]int64, m-lo-i+1)
		cs[m-lo-i] = 1 // α^(m−N)
		pw := poly.FromInts(cs...)
		rows[N] = []Trans{{To: 0, P: poly.FromPoly(pw)}, {To: 1, P: poly.FromPoly(poly.FromInts(1).Sub(pw))}}
	}
	var pairs [][2]int
	for i := 1; i < len(inputs); i++ {
		pairs = append(pairs, [2]int{inputs[i-1], inputs[i]})
	}
	return New(ctx, lim, frame, "alpha", poly.Open(new(big.Rat), big.NewRat(1, 1)), rows, pairs)
}
