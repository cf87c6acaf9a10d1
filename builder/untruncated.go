package builder

import (
	"context"
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/geosum"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/poly"
)

// The mechanisms as published: their noise is the two-sided α-geometric
// Z on all of ℤ, Pr[Z = z] = (1−α)/(1+α)·α^|z|, never truncated. Their
// output probabilities are infinite sums, written here in closed form;
// the outputs that take infinitely many values are merged into one output
// only where every two inputs' probabilities keep a constant ratio, so no
// divergence between neighbours changes.

// UntruncatedGeometric returns the α-geometric mechanism of Ghosh, Roughgarden and
// Sundararajan over the counts {0..n} without truncation (the catalog's
// geometric): the output is k + Z on all of ℤ for input k. Inputs s0..sn
// (in=k, label in_k); outputs t0..tn (out=l, label out_l) with
// Pr[t_l | s_k] = (1−α)/(1+α)·α^|k−l|, and two tails, "out≤-1" (label
// out_below) with Pr = α^(k+1)/(1+α) and "out≥n+1" (label out_above) with
// Pr = α^(n+1−k)/(1+α): on each tail the probabilities of inputs k and l
// have the constant ratio α^(k−l) or α^(l−k), so merging it changes no
// divergence between neighbours. Inputs k and l are neighbours iff
// 0 < |k−l| <= delta. The mechanism is exactly (−delta·ln α)-DP.
func UntruncatedGeometric(alpha *big.Rat, n, delta int) (*model.Mechanism, error) {
	return geometric(context.Background(), alpha, n, delta)
}

func geometric(ctx context.Context, alpha *big.Rat, n, delta int) (*model.Mechanism, error) {
	note := func() string {
		return fmt.Sprintf("%s-geometric mechanism over {0..%d} without truncation, sensitivity %d; the outputs below 0 and above %d merged (constant ratios)", alpha.RatString(), n, delta, n)
	}
	return geometricMechanism(ctx, "untruncated_geometric", note, alpha, n, delta, untruncatedGeometricRows[*big.Rat])
}

// untruncatedGeometricRows writes Geometric's chain into s and returns its
// neighbours.
func untruncatedGeometricRows[T any](ctx context.Context, F exact.Field[T], alpha T, n, delta int, s Sink[T]) ([][2]int, error) {
	g, err := newGeometricTable(ctx, F, alpha, n+1)
	if err != nil {
		return nil, err
	}
	in := make([]int, n+1)
	for k := range in {
		in[k] = s.AddState(fmt.Sprintf("s%d", k), chain.Valuation{{Name: "in", Value: int64(k)}}, fmt.Sprintf("in_%d", k))
		s.MarkInput(in[k])
	}
	out := make([]int, n+3) // below, t0..tn, above
	out[0] = s.AddState("out≤-1", nil, "out_below")
	for l := 0; l <= n; l++ {
		out[l+1] = s.AddState(fmt.Sprintf("t%d", l), chain.Valuation{{Name: "out", Value: int64(l)}}, fmt.Sprintf("out_%d", l))
	}
	out[n+2] = s.AddState(fmt.Sprintf("out≥%d", n+1), nil, "out_above")
	for k := 0; k <= n; k++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p := make([]T, n+3)
		// boundary[j] = α^j/(1+α): Σ_{v≤−1} (1−α)/(1+α)·α^(k−v) = α^(k+1)/(1+α).
		p[0] = g.boundary[k+1]
		for l := 0; l <= n; l++ {
			p[l+1] = g.interior[abs(k-l)]
		}
		p[n+2] = g.boundary[n+1-k]
		s.AddRow(in[k], append([]int(nil), out...), p)
	}
	return geometricPairs(in, delta), nil
}

// paramUntruncatedGeometric is untruncated_geometric for every value of
// its alpha.
func paramUntruncatedGeometric(ctx context.Context, a *Args, p Parametric) (*Table[poly.RatFunc], error) {
	return paramGeometricRows(ctx, "untruncated geometric", a, p, untruncatedGeometricRows[poly.RatFunc])
}

// Bounds of AboveThresholdUntruncated: its probabilities are sums over
// the noisy threshold whose terms multiply as queries are answered (query
// i's have about i² powers of alpha_q in them).
const (
	MaxUntruncatedThresholdRange   = 1000
	MaxUntruncatedThresholdQueries = 100
)

// AboveThresholdUntruncated returns above threshold as published: the
// threshold t (0..n) plus untruncated alphaT-geometric noise, each query's
// answer d (0..n) plus untruncated alphaQ-geometric noise, halting at the
// first noisy answer that compares to the noisy threshold as cmp says,
// after at most k queries (the catalog's above_threshold_untruncated; with
// one ⊤ it is Algorithm 1 of Lyu, Su and Li, Understanding the Sparse
// Vector Technique for Differential Privacy, with every query answering d).
//
// States: inputs "d<d>_t<t>" (d, t; label in) and the outputs of
// AboveThreshold, "halt_<i>" (q=i; labels halt and top) and "never" (q=0;
// label never), each input moving straight to the outputs with the exact
// sums over every value of the noisy threshold and the noisy answers.
// Neighbours: |d−d'| <= 1 with the same t.
func AboveThresholdUntruncated(alphaT, alphaQ *big.Rat, n, k int, cmp Comparison) (*model.Mechanism, error) {
	return aboveThresholdUntruncated(context.Background(), alphaT, alphaQ, n, k, cmp, model.DefaultLimits.MaxBits)
}

// aboveThresholdUntruncated builds AboveThresholdUntruncated within
// maxBits: one sum over the noisy threshold may take a sixteenth of them
// (2^28 bits, 32 MiB, by default), as a module's unbounded integers do.
func aboveThresholdUntruncated(ctx context.Context, alphaT, alphaQ *big.Rat, n, k int, cmp Comparison, maxBits int64) (*model.Mechanism, error) {
	const name = "above_threshold_untruncated"
	if err := firstError(checkNoises(name, alphaT, alphaQ, n, MaxUntruncatedThresholdRange), checkRange(name, "k", k, 1, MaxUntruncatedThresholdQueries)); err != nil {
		return nil, err
	}
	note := fmt.Sprintf("above threshold without truncation (halt at noisy answer %s noisy threshold), threshold noise %s-geometric, answer noise %s-geometric on ℤ, d and t in {0..%d}, %s",
		cmp, alphaT.RatString(), alphaQ.RatString(), n, atMostQueries(k))
	return rats(ctx, note, func(s Sink[*big.Rat]) ([][2]int, error) {
		sum := geosum.NewSummer[*big.Rat](ctx, exact.Rats{}, 0)
		sum.Bits, sum.MaxBits = func(q *big.Rat) int64 { return int64(exact.Bits(q)) }, maxBits/16
		return untruncatedThresholdRows(sum, alphaT, alphaQ, n, k, cmp, s)
	})
}

// untruncatedThresholdRows writes AboveThresholdUntruncated's chain into b
// and returns its neighbours. The outputs' probabilities depend on d − t
// only; each of the 2n+1 differences is summed once.
func untruncatedThresholdRows[T any](sum *geosum.Summer[T], alphaT, alphaQ T, n, k int, cmp Comparison, b Sink[T]) ([][2]int, error) {
	outs := make([]int, k+1) // halt_1..halt_k, never
	for i := 1; i <= k; i++ {
		outs[i-1] = b.AddState(fmt.Sprintf("halt_%d", i), chain.Valuation{{Name: "q", Value: int64(i)}}, "halt", "top")
	}
	outs[k] = b.AddState("never", chain.Valuation{{Name: "q", Value: 0}}, "never")
	rows := map[int][]T{}
	input := make([][]int, n+1)
	for d := 0; d <= n; d++ {
		input[d] = thresholdInputs(b, d, n)
		for t := 0; t <= n; t++ {
			p, ok := rows[d-t]
			if !ok {
				var err error
				if p, err = haltProbs(sum, alphaT, alphaQ, d-t, k, cmp); err != nil {
					return nil, err
				}
				rows[d-t] = p
			}
			b.AddRow(input[d][t], append([]int(nil), outs...), append([]T(nil), p...))
		}
	}
	return thresholdPairs(input), nil
}

// haltProbs returns Pr[halt at query i], i = 1..k, and Pr[never] for the
// threshold 0 and the answer diff, by sums over x_0, the noisy threshold,
// and x_1, the query's noisy answer.
func haltProbs[T any](sum *geosum.Summer[T], alphaT, alphaQ T, diff, k int, cmp Comparison) ([]T, error) {
	thr, ans := geosum.Var(0, 1, 0), geosum.Var(1, 1, 0)
	// Halt at x_1 ≥ x_0 (or x_1 ≥ x_0 + 1 for Above); go on at x_1 ≤ x_0 − 1 (x_0).
	haltAt, goOnTo := thr, geosum.Var(0, 1, -1)
	if cmp == Above {
		haltAt, goOnTo = geosum.Var(0, 1, 1), thr
	}
	w, err := sum.Geometric(sum.Point([]int64{0, 0}, sum.F.Const(one)), 0, alphaT, 0, false)
	if err != nil {
		return nil, err
	}
	p := make([]T, k+1)
	for i := 0; i < k; i++ {
		if w, err = sum.Geometric(w, 1, alphaQ, int64(diff), false); err != nil {
			return nil, err
		}
		if p[i], err = sum.Total(sum.Restrict(w, haltAt, ans)); err != nil {
			return nil, err
		}
		if w, err = sum.SumOut(sum.Restrict(w, ans, goOnTo), 1); err != nil {
			return nil, err
		}
		if w, err = sum.Tidy(w); err != nil {
			return nil, err
		}
	}
	p[k], err = sum.Total(w)
	return p, err
}

// paramUntruncatedThreshold is above_threshold_untruncated for every value
// of alpha_t or alpha_q.
func paramUntruncatedThreshold(ctx context.Context, a *Args, p Parametric) (*Table[poly.RatFunc], error) {
	n, k := a.Int("n"), a.Int("k")
	if n < 1 || n > maxParamRange || k < 1 || k > MaxUntruncatedThresholdQueries {
		return nil, fmt.Errorf("above threshold untruncated: n = %d and k = %d: need 1 ≤ n ≤ %d and 1 ≤ k ≤ %d", n, k, maxParamRange, MaxUntruncatedThresholdQueries)
	}
	for _, name := range []string{"alpha_t", "alpha_q"} {
		if x := a.Rat(name); name != p.Arg && (x == nil || x.Sign() <= 0 || x.Cmp(one) >= 0) {
			return nil, fmt.Errorf("above threshold untruncated: %s must be in (0, 1)", name)
		}
	}
	return p.table(func(s Sink[poly.RatFunc]) ([][2]int, error) {
		sum := geosum.NewSummer[poly.RatFunc](ctx, p.Field, 0)
		return untruncatedThresholdRows(sum, p.Rat(a, "alpha_t"), p.Rat(a, "alpha_q"), n, k, thresholdCmp(a), s)
	})
}

// untruncatedThresholdBits bounds the bits of AboveThresholdUntruncated's
// probabilities, one row for each difference Δ = d − t. Pr[halt at query
// i] sums, over the noisy threshold, products of i geometric factors: its
// denominator divides (1+α_t)(1+α_q)^i·Π_{j≤i}(1 − α_t·α_q^j) times the
// powers the |Δ| values between threshold and answer add, so it has about
// (i(i+1)/2 + i)·log2(a·b) bits of α_q = a/b, (i+1)·log2 of α_t's, and
// |Δ|·(α_t's + i·α_q's) more; the numerator as many. Never is as halt at
// query k. TestBitsEstimate checks the bound and its slack.
func untruncatedThresholdBits(a *Args) float64 {
	pT, pQ := logsOf(a.Rat("alpha_t")).pow(), logsOf(a.Rat("alpha_q")).pow()
	n, k := f(a.Int("n")), a.Int("k")
	var bits float64
	for i := 1; i <= k+1; i++ {
		j := f(min(i, k))
		perRow := 2*((tri(j)+j)*pQ+(j+1)*pT) + 16*j
		// Σ over Δ = −n..n of the row and of 2|Δ|·(pT + j·pQ).
		bits += (2*n+1)*perRow + 2*n*(n+1)*(pT+j*pQ)
	}
	return bits
}
