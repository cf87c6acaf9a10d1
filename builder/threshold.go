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

// Comparison says when a noisy answer counts as above the noisy threshold.
type Comparison int

const (
	// AtLeast halts at the first noisy answer >= the noisy threshold, as the
	// seed's prose says.
	AtLeast Comparison = iota
	// Above halts at the first noisy answer > the noisy threshold, as the
	// seed's pseudocode (Algorithm 1) says.
	Above
)

func (c Comparison) String() string {
	if c == Above {
		return ">"
	}
	return ">="
}

// MaxQueries bounds the number of queries of AboveThreshold.
const MaxQueries = 10000

// AboveThresholdPerInput returns the model of AboveThreshold with one copy
// of the query states per input, the literal reading of the algorithm:
// "d<d>_t<t>_T<T>_q<i>" (d, t, T, q) is "noisy threshold T, about to answer
// query i" for the run that started from threshold t, (n+1)³·k of them
// (n ≤ 100, at most 10⁷ states). Inputs, outputs, labels, neighbours and
// every output distribution are AboveThreshold's; it is kept as a second,
// independent encoding to check the shared chain against, and to measure
// what sharing saves.
func AboveThresholdPerInput(alphaT, alphaQ *big.Rat, n, k int, cmp Comparison) (*model.Mechanism, error) {
	return aboveThreshold(context.Background(), alphaT, alphaQ, n, k, cmp)
}

func aboveThreshold(ctx context.Context, alphaT, alphaQ *big.Rat, n, k int, cmp Comparison) (*model.Mechanism, error) {
	err := checkThreshold(alphaT, alphaQ, n, 100, k, func() error {
		if (n+1)*(n+1)*(n+1)*k > 10_000_000 {
			return &ParamError{"above_threshold", "k", fmt.Sprintf("with n = %d gives more than 10^7 states", n)}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rats(ctx, thresholdNote(alphaT, alphaQ, n, k, cmp), func(b Sink[*big.Rat]) ([][2]int, error) {
		f, err := newThresholdFrame(ctx, exact.Rats{}, alphaT, alphaQ, n, k, cmp, b)
		if err != nil {
			return nil, err
		}
		input := make([][]int, n+1)
		for d := 0; d <= n; d++ {
			input[d] = make([]int, n+1)
			for t := 0; t <= n; t++ {
				s := thresholdInput(b, d, t)
				input[d][t] = s
				// The query states of this input, for each T.
				for T := 0; T <= n; T++ {
					if err := ctx.Err(); err != nil {
						return nil, err
					}
					first := f.queries(b, d, T, k, func(i int) int {
						return b.AddState(fmt.Sprintf("d%d_t%d_T%d_q%d", d, t, T, i), chain.Valuation{
							{Name: "d", Value: int64(d)}, {Name: "t", Value: int64(t)},
							{Name: "T", Value: int64(T)}, {Name: "q", Value: int64(i)}})
					})
					b.AddTransition(s, first, f.thr.prob(t, T))
				}
			}
		}
		return thresholdPairs(input), nil
	})
}

// MaxSharedThresholdRange bounds n in AboveThreshold.
const MaxSharedThresholdRange = 1000

// Bounds of AboveThreshold on its own, whatever the catalog's Limits:
// about 16 bytes per transition and a few hundred per state.
const (
	maxSharedThresholdStates      = 10_000_000
	maxSharedThresholdTransitions = 100_000_000
)

// AboveThreshold returns the paper's online model (Model Checking Differentially Private Properties, Algorithm 1)
// with at most k queries (the catalog's above_threshold). The input
// database d and threshold t range over {0..n}. The threshold is noised
// once by the truncated alphaT-geometric mechanism over {0..n}; each query
// (of sensitivity 1, answering d) is noised by the truncated
// alphaQ-geometric mechanism; the mechanism halts at the first noisy
// answer that compares to the noisy threshold as cmp says.
//
// States: inputs "d<d>_t<t>" (d, t; label in); "d<d>_T<T>_q<i>" is
// "database d, noisy threshold T, about to answer query i" (d, T, q); outputs
// "halt_<i>" (halted at query i: q=i, labels halt and top) and "never" (no
// answer was above the threshold in k queries: q=0, label never). Each
// query step goes to halt_i with the exact probability that the noisy
// answer compares to T. Neighbours: |d-d'| <= 1 with the same t.
//
// Every future is built once: what follows the threshold draw depends on
// d, T and the query i, not on the threshold t the run started from, so the
// inputs of one d lead into the same query states (no t in their
// valuation). The chain is a DAG with (n+1)² inputs, (n+1)²·k query states
// and k+1 outputs, where AboveThresholdPerInput has (n+1)³·k query states;
// every run's sequence of labels and every output distribution are the
// same. n may reach MaxSharedThresholdRange; at most 10^7 states and 10^8
// transitions ((n+1)³ of them are the threshold draws).
func AboveThreshold(alphaT, alphaQ *big.Rat, n, k int, cmp Comparison) (*model.Mechanism, error) {
	return aboveThresholdShared(context.Background(), alphaT, alphaQ, n, k, cmp)
}

// sharedThresholdSize returns the states and transitions of
// AboveThreshold (zero transitions counted).
func sharedThresholdSize(n, k int) (states, transitions float64) {
	n1, kf := float64(n+1), float64(k)
	return n1*n1*(1+kf) + kf + 1, n1*n1*n1 + 2*kf*n1*n1
}

func aboveThresholdShared(ctx context.Context, alphaT, alphaQ *big.Rat, n, k int, cmp Comparison) (*model.Mechanism, error) {
	err := checkThreshold(alphaT, alphaQ, n, MaxSharedThresholdRange, k, func() error {
		states, trans := sharedThresholdSize(n, k)
		if states > maxSharedThresholdStates {
			return &ParamError{"above_threshold", "k", fmt.Sprintf("with n = %d gives more than 10^7 states", n)}
		}
		if trans > maxSharedThresholdTransitions {
			return &ParamError{"above_threshold", "n", fmt.Sprintf("= %d gives more than 10^8 transitions ((n+1)³ threshold draws)", n)}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rats(ctx, thresholdNote(alphaT, alphaQ, n, k, cmp), func(s Sink[*big.Rat]) ([][2]int, error) {
		return thresholdRows(ctx, exact.Rats{}, alphaT, alphaQ, n, k, cmp, s)
	})
}

// thresholdRows writes AboveThreshold's shared chain into b and returns its
// neighbours.
func thresholdRows[P any](ctx context.Context, F exact.Field[P], alphaT, alphaQ P, n, k int, cmp Comparison, b Sink[P]) ([][2]int, error) {
	f, err := newThresholdFrame(ctx, F, alphaT, alphaQ, n, k, cmp, b)
	if err != nil {
		return nil, err
	}
	input := make([][]int, n+1)
	first := make([]int, n+1) // first[T]: d's state "about to answer query 1" at T
	for d := 0; d <= n; d++ {
		input[d] = thresholdInputs(b, d, n)
		// The query states of d, shared by its inputs: each is built once.
		for T := 0; T <= n; T++ {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			// A query that halts surely (stay 0: every noisy answer
			// compares to T) is the last: no unreachable states after it.
			last := k
			if F.IsZero(f.stay[d][T]) {
				last = 1
			}
			first[T] = f.queries(b, d, T, last, func(i int) int {
				return b.AddState(fmt.Sprintf("d%d_T%d_q%d", d, T, i), chain.Valuation{
					{Name: "d", Value: int64(d)}, {Name: "T", Value: int64(T)}, {Name: "q", Value: int64(i)}})
			})
		}
		for t := 0; t <= n; t++ {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			p := make([]P, n+1)
			for T := range p {
				p[T] = f.thr.prob(t, T)
			}
			b.AddRow(input[d][t], slices.Clone(first), p)
		}
	}
	return thresholdPairs(input), nil
}

// paramThresholdStates bounds the query states of the parametric above
// threshold: (n+1)²·k at most 10⁵.
const paramThresholdStates = 100_000

// paramThreshold is above_threshold for every value of alpha_q.
func paramThreshold(ctx context.Context, a *Args, p Parametric) (*Table[poly.RatFunc], error) {
	alphaT, n, k := a.Rat("alpha_t"), a.Int("n"), a.Int("k")
	if alphaT == nil || alphaT.Sign() <= 0 || alphaT.Cmp(one) >= 0 {
		return nil, fmt.Errorf("above threshold: alpha_t must be in (0, 1)")
	}
	if n < 1 || n > 100 || k < 1 || k > MaxQueries {
		return nil, fmt.Errorf("above threshold: n = %d and k = %d: need 1 ≤ n ≤ 100 and 1 ≤ k ≤ %d", n, k, MaxQueries)
	}
	if (n+1)*(n+1)*k > paramThresholdStates {
		return nil, fmt.Errorf("above threshold: n = %d and k = %d give more than %d states", n, k, paramThresholdStates)
	}
	return p.table(func(s Sink[poly.RatFunc]) ([][2]int, error) {
		return thresholdRows(ctx, p.Field, p.Rat(a, "alpha_t"), p.Rat(a, "alpha_q"), n, k, thresholdCmp(a), s)
	})
}

// thresholdCmp is the comparison of the argument cmp.
func thresholdCmp(a *Args) Comparison {
	if a.Choice("cmp") == ">" {
		return Above
	}
	return AtLeast
}

// thresholdFrame is what both layouts of above threshold start from: the
// threshold's noise table, the answers' odds and the outputs halt_1..halt_k
// and never.
type thresholdFrame[P any] struct {
	thr      *geometricTable[P]
	up, stay [][]P
	halt     []int // halt[i], i = 1..k
	never    int
}

// queries adds the query states 1..last of database d at the noisy
// threshold T, state(i) adding the one about to answer query i, each
// moving to halt_i with up and to the next with stay (the last to never),
// and returns the first.
func (f *thresholdFrame[P]) queries(b Sink[P], d, T, last int, state func(i int) int) int {
	first, prev := -1, -1
	for i := 1; i <= last; i++ {
		q := state(i)
		if i == 1 {
			first = q
		} else {
			b.AddTransition(prev, q, f.stay[d][T])
		}
		b.AddTransition(q, f.halt[i], f.up[d][T])
		prev = q
	}
	b.AddTransition(prev, f.never, f.stay[d][T])
	return first
}

// checkThreshold checks the arguments (n at most maxN; size, the layout's
// own bound on states and transitions).
func checkThreshold(alphaT, alphaQ *big.Rat, n, maxN, k int, size func() error) error {
	const name = "above_threshold"
	if err := firstError(checkNoises(name, alphaT, alphaQ, n, maxN), checkRange(name, "k", k, 1, MaxQueries)); err != nil {
		return err
	}
	return size()
}

// checkNoises checks the noises' parameters and the range n (at most
// maxN) of the threshold builder name.
func checkNoises(name string, alphaT, alphaQ *big.Rat, n, maxN int) error {
	return firstError(checkUnit(name, "alpha_t", alphaT, true), checkUnit(name, "alpha_q", alphaQ, true), checkRange(name, "n", n, 1, maxN))
}

// thresholdTables checks the arguments of the threshold builder name
// without a bound on the queries (n at most maxN) and returns the
// threshold's noise table and the answers' odds (see answerOdds).
func thresholdTables(ctx context.Context, name string, alphaT, alphaQ *big.Rat, n, maxN int, cmp Comparison) (*geometricTable[*big.Rat], [][]*big.Rat, [][]*big.Rat, error) {
	if err := checkNoises(name, alphaT, alphaQ, n, maxN); err != nil {
		return nil, nil, nil, err
	}
	return thresholdOdds(ctx, exact.Rats{}, alphaT, alphaQ, n, cmp)
}

// thresholdOdds returns the threshold's noise table and the answers' odds
// (see answerOdds).
func thresholdOdds[P any](ctx context.Context, F exact.Field[P], alphaT, alphaQ P, n int, cmp Comparison) (*geometricTable[P], [][]P, [][]P, error) {
	thr, err := newGeometricTable(ctx, F, alphaT, n)
	if err != nil {
		return nil, nil, nil, err
	}
	up, stay, err := answerOdds(ctx, F, alphaQ, n, cmp)
	return thr, up, stay, err
}

// thresholdInput adds the input "d<d>_t<t>" (d, t; label in) to b.
func thresholdInput[P any](b Sink[P], d, t int) int {
	s := b.AddState(fmt.Sprintf("d%d_t%d", d, t), chain.Valuation{{Name: "d", Value: int64(d)}, {Name: "t", Value: int64(t)}}, "in")
	b.MarkInput(s)
	return s
}

// thresholdInputs adds the inputs of database d, t = 0..n, to b.
func thresholdInputs[P any](b Sink[P], d, n int) []int {
	in := make([]int, n+1)
	for t := range in {
		in[t] = thresholdInput(b, d, t)
	}
	return in
}

// newThresholdFrame computes the tables and adds the outputs to b.
func newThresholdFrame[P any](ctx context.Context, F exact.Field[P], alphaT, alphaQ P, n, k int, cmp Comparison, b Sink[P]) (*thresholdFrame[P], error) {
	thr, up, stay, err := thresholdOdds(ctx, F, alphaT, alphaQ, n, cmp)
	if err != nil {
		return nil, err
	}
	f := &thresholdFrame[P]{thr: thr, up: up, stay: stay, halt: make([]int, k+1)}
	for i := 1; i <= k; i++ {
		f.halt[i] = b.AddState(fmt.Sprintf("halt_%d", i), chain.Valuation{{Name: "q", Value: int64(i)}}, "halt", "top")
	}
	// never has q = 0: no query was answered above the threshold.
	f.never = b.AddState("never", chain.Valuation{{Name: "q", Value: 0}}, "never")
	return f, nil
}

// thresholdNote describes above threshold.
func thresholdNote(alphaT, alphaQ *big.Rat, n, k int, cmp Comparison) string {
	return fmt.Sprintf("above threshold (halt at noisy answer %s noisy threshold), threshold noise %s-geometric, answer noise %s-geometric over {0..%d}, %s",
		cmp, alphaT.RatString(), alphaQ.RatString(), n, atMostQueries(k))
}

// atMostQueries is "at most k queries", or "one query".
func atMostQueries(k int) string {
	if k == 1 {
		return "one query"
	}
	return fmt.Sprintf("at most %d queries", k)
}

// answerOdds returns up[d][T] = Pr[the noisy answer for database d is above
// the noisy threshold T] (truncated alphaQ-geometric noise) and stay = 1-up.
// It stops with ctx's error when ctx ends.
func answerOdds[P any](ctx context.Context, F exact.Field[P], alphaQ P, n int, cmp Comparison) (up, stay [][]P, err error) {
	qry, err := newGeometricTable(ctx, F, alphaQ, n)
	if err != nil {
		return nil, nil, err
	}
	o := &ops[P]{F: F}
	up = make([][]P, n+1)
	stay = make([][]P, n+1)
	tail := make([]P, n+2) // tail[j] = Σ_{f ≥ j} Pr[f | d]
	for d := 0; d <= n; d++ {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		tail[n+1] = F.Const(zero)
		for j := n; j >= 0; j-- {
			tail[j] = o.add(tail[j+1], qry.prob(d, j))
		}
		up[d] = make([]P, n+1)
		stay[d] = make([]P, n+1)
		for T := 0; T <= n; T++ {
			lo := T
			if cmp == Above {
				lo = T + 1
			}
			up[d][T] = tail[lo]
			stay[d][T] = o.sub(o.one(), up[d][T])
		}
	}
	return up, stay, o.err
}

// Labels of the answers of AboveThresholdLoop.
const (
	Below = "⊥"
	Top   = "⊤"
)

// AboveThresholdLoop returns the online model as the paper draws it: a
// chain with a loop and no step counter, answering a stream of queries
// until one is above the threshold. From input (d, t) the first step draws
// the noisy threshold T and answers the first query; every step answers one
// query: state "d<d>_T<T>_bot" (label ⊥) when the noisy answer is below
// T, and the chain loops there for the next query; "d<d>_T<T>_top"
// (label ⊤) when it is above, after which the chain halts in the absorbing
// state "halted". What follows the draw depends on d and T only, so the
// inputs of one d share these states (valuation d, T; no t). Observed as
// traces of {⊥, ⊤} over k steps it is the k-query model; D{ε,δ}[X^k ⊤] is
// "halted exactly at query k". Neighbours: |d-d'| <= 1 with the same t.
func AboveThresholdLoop(alphaT, alphaQ *big.Rat, n int, cmp Comparison) (*model.Mechanism, error) {
	return aboveThresholdLoop(context.Background(), alphaT, alphaQ, n, cmp)
}

func aboveThresholdLoop(ctx context.Context, alphaT, alphaQ *big.Rat, n int, cmp Comparison) (*model.Mechanism, error) {
	thr, up, stay, err := thresholdTables(ctx, "above_threshold_loop", alphaT, alphaQ, n, 100, cmp)
	if err != nil {
		return nil, err
	}
	note := fmt.Sprintf("above threshold as a loop (halt at noisy answer %s noisy threshold), threshold noise %s-geometric, answer noise %s-geometric over {0..%d}",
		cmp, alphaT.RatString(), alphaQ.RatString(), n)
	return rats(ctx, note, func(b Sink[*big.Rat]) ([][2]int, error) {
		halted := b.AddState("halted", nil, "halted")
		input := make([][]int, n+1)
		bot := make([]int, n+1)
		top := make([]int, n+1)
		for d := 0; d <= n; d++ {
			input[d] = thresholdInputs(b, d, n)
			// The ⊥ and ⊤ states of d, shared by its inputs.
			for T := 0; T <= n; T++ {
				v := chain.Valuation{{Name: "d", Value: int64(d)}, {Name: "T", Value: int64(T)}}
				bot[T] = b.AddState(fmt.Sprintf("d%d_T%d_bot", d, T), v, Below)
				top[T] = b.AddState(fmt.Sprintf("d%d_T%d_top", d, T), v, Top)
				b.AddTransition(bot[T], bot[T], stay[d][T])
				b.AddTransition(bot[T], top[T], up[d][T])
				b.AddTransition(top[T], halted, one)
			}
			for t := 0; t <= n; t++ {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				to, p := make([]int, 0, 2*(n+1)), make([]*big.Rat, 0, 2*(n+1))
				for T := 0; T <= n; T++ {
					pT := thr.prob(t, T)
					to = append(to, bot[T], top[T])
					p = append(p, mul(pT, stay[d][T]), mul(pT, up[d][T]))
				}
				b.AddRow(input[d][t], to, p)
			}
		}
		return thresholdPairs(input), nil
	})
}

// thresholdPairs is the online model's neighbour relation: |d - d'| <= 1
// with the same t, over input[d][t].
func thresholdPairs(input [][]int) [][2]int {
	var pairs [][2]int
	for t := range input[0] {
		for d := 0; d+1 < len(input); d++ {
			pairs = append(pairs, [2]int{input[d][t], input[d+1][t]})
		}
	}
	return pairs
}
