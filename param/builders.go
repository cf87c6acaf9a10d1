package param

import (
	"context"
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/builder"
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

// SurveyTheta1 returns randomized response with two coins (the notes Differential Privacy,
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

// CutoffDecision returns Implementation of Stochastic Decision, §5's cutoff decision for every α in
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

// MaxThresholdStates bounds the query states of AboveThresholdQ: (n+1)²·k
// at most 10⁵ (each row holds rational functions, and every state's
// distribution is one per output).
const MaxThresholdStates = 100_000

// AboveThresholdQ returns the paper's online model (Model Checking Differentially Private Properties, Algorithm 1;
// builder.AboveThreshold) for every query noise α_q in (0, 1) at a
// fixed threshold noise alphaT in (0, 1), with the same states,
// valuations, labels, inputs and neighbours as
// builder.AboveThreshold(alphaT, α_q, n, k, cmp) and its rows as
// rational functions of α_q: from input "d<d>_t<t>" to the state
// "d<d>_T<T>_q1" shared by the inputs of d, with the (constant) truncated
// alphaT-geometric Pr[T | t]; from "d<d>_T<T>_q<i>" to "halt_<i>" with
// up(d, T) = Σ_f Pr_αq[f | d] over the noisy answers f that compare to T
// as cmp says, and to the next query's state (or "never" after query k)
// with 1 − up(d, T). A probability that is 0 for every α_q (no f
// compares, or every f does) is no transition, as builder drops zeros.
// The parameter is named "alpha_q".
func AboveThresholdQ(ctx context.Context, lim poly.Limits, alphaT *big.Rat, n, k int, cmp builder.Comparison) (*Chain, error) {
	if alphaT == nil || alphaT.Sign() <= 0 || alphaT.Cmp(big.NewRat(1, 1)) >= 0 {
		return nil, fmt.Errorf("%w: above threshold: alpha_t must be in (0, 1)", ErrParam)
	}
	if n < 1 || n > 100 || k < 1 || k > builder.MaxQueries {
		return nil, fmt.Errorf("%w: above threshold: n = %d and k = %d: need 1 ≤ n ≤ 100 and 1 ≤ k ≤ %d", ErrParam, n, k, builder.MaxQueries)
	}
	if (n+1)*(n+1)*k > MaxThresholdStates {
		return nil, fmt.Errorf("%w: above threshold: n = %d and k = %d give more than %d states", ErrParam, n, k, MaxThresholdStates)
	}
	// The threshold's noise: constants, as builder's geometric table.
	one := big.NewRat(1, 1)
	onePlusT := new(big.Rat).Add(one, alphaT)
	thrB := make([]*big.Rat, n+1) // α_t^j/(1+α_t)
	thrI := make([]*big.Rat, n+1) // (1−α_t)·α_t^j/(1+α_t)
	thrB[0] = new(big.Rat).Quo(one, onePlusT)
	thrI[0] = new(big.Rat).Quo(new(big.Rat).Sub(one, alphaT), onePlusT)
	for j := 1; j <= n; j++ {
		thrB[j] = new(big.Rat).Mul(thrB[j-1], alphaT)
		thrI[j] = new(big.Rat).Mul(thrI[j-1], alphaT)
	}
	thr := func(t, T int) poly.RatFunc {
		p := thrI[abs(t-T)]
		switch T {
		case 0:
			p = thrB[t]
		case n:
			p = thrB[n-t]
		}
		return poly.FromPoly(poly.Const(p))
	}
	// The answers' noise: numerators over the common denominator 1 + α_q.
	den := poly.FromInts(1, 1)
	bnum := make([]poly.Poly, n+1) // α^j
	inum := make([]poly.Poly, n+1) // (1−α)·α^j
	pow := poly.FromInts(1)
	for j := 0; j <= n; j++ {
		bnum[j], inum[j] = pow, poly.FromInts(1, -1).Mul(pow)
		pow = pow.Mul(poly.X())
	}
	num := func(d, f int) poly.Poly {
		switch f {
		case 0:
			return bnum[d]
		case n:
			return bnum[n-d]
		}
		return inum[abs(d-f)]
	}
	up := make([][]poly.RatFunc, n+1)
	stay := make([][]poly.RatFunc, n+1)
	for d := 0; d <= n; d++ {
		up[d] = make([]poly.RatFunc, n+1)
		stay[d] = make([]poly.RatFunc, n+1)
		for T := 0; T <= n; T++ {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			lo := T
			if cmp == builder.Above {
				lo = T + 1
			}
			var sum poly.Poly
			for f := lo; f <= n; f++ {
				sum = sum.Add(num(d, f))
			}
			var err error
			if up[d][T], err = lim.RatFunc(ctx, sum, den); err != nil {
				return nil, err
			}
			if stay[d][T], err = lim.RatFunc(ctx, den.Sub(sum), den); err != nil {
				return nil, err
			}
		}
	}
	var (
		names  []string
		vals   []chain.Valuation
		labels [][]string
		inputs []int
	)
	add := func(name string, v chain.Valuation, l ...string) int {
		names, vals, labels = append(names, name), append(vals, v), append(labels, l)
		return len(names) - 1
	}
	halt := make([]int, k+1)
	for i := 1; i <= k; i++ {
		halt[i] = add(fmt.Sprintf("halt_%d", i), chain.Valuation{{Name: "q", Value: int64(i)}}, "halt", "top")
	}
	never := add("never", chain.Valuation{{Name: "q", Value: 0}}, "never")
	var rows [][]Trans
	trans := func(from, to int, p poly.RatFunc) {
		for len(rows) <= from {
			rows = append(rows, nil)
		}
		if !p.Num().IsZero() {
			rows[from] = append(rows[from], Trans{To: to, P: p})
		}
	}
	input := make([][]int, n+1)
	first := make([]int, n+1) // first[T]: d's state "about to answer query 1" at T
	for d := 0; d <= n; d++ {
		input[d] = make([]int, n+1)
		for t := 0; t <= n; t++ {
			s := add(fmt.Sprintf("d%d_t%d", d, t), chain.Valuation{{Name: "d", Value: int64(d)}, {Name: "t", Value: int64(t)}}, "in")
			input[d][t] = s
			inputs = append(inputs, s)
		}
		// The query states of d, shared by its inputs, as in the builder.
		for T := 0; T <= n; T++ {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			last := k // as the builder: nothing after a query that surely halts
			if stay[d][T].Num().IsZero() {
				last = 1
			}
			prev := -1
			for i := 1; i <= last; i++ {
				q := add(fmt.Sprintf("d%d_T%d_q%d", d, T, i), chain.Valuation{
					{Name: "d", Value: int64(d)}, {Name: "T", Value: int64(T)}, {Name: "q", Value: int64(i)}})
				if prev < 0 {
					first[T] = q
				} else {
					trans(prev, q, stay[d][T])
				}
				trans(q, halt[i], up[d][T])
				prev = q
			}
			trans(prev, never, stay[d][T])
		}
		for t := 0; t <= n; t++ {
			for T := 0; T <= n; T++ {
				trans(input[d][t], first[T], thr(t, T))
			}
		}
	}
	for len(rows) < len(names) {
		rows = append(rows, nil)
	}
	frame, err := Frame(names, vals, labels, inputs)
	if err != nil {
		return nil, err
	}
	var pairs [][2]int
	for t := 0; t <= n; t++ {
		for d := 0; d < n; d++ {
			pairs = append(pairs, [2]int{input[d][t], input[d+1][t]})
		}
	}
	return New(ctx, lim, frame, "alpha_q", poly.Open(new(big.Rat), big.NewRat(1, 1)), rows, pairs)
}
