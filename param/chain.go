package param

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/poly"
)

// ErrParam is wrapped by every error about a malformed parametric chain or
// claim (as opposed to a limit or a cancelled context).
var ErrParam = errors.New("invalid parametric model")

// Trans is one transition of a parametric row: the target state and its
// probability, a rational function of the parameter.
// It is the builders' Entry, so that a builder's rows (builder.Table) are
// a parametric chain's as they are.
type Trans = builder.Entry[poly.RatFunc]

// Chain is a parametric Markov chain: the states of Frame (names,
// valuations, labels and inputs; its own rows are ignored) with rows whose
// probabilities are rational functions of one parameter, valid for every
// parameter value in Interval. It is made by New, immutable afterwards and
// safe for concurrent use.
type Chain struct {
	// Frame holds the states. Its rows are not the parametric chain's.
	Frame *chain.Chain
	// Param is the parameter's name, used when printing ("α").
	Param string
	// Interval is the parameter's range, with rational ends.
	Interval poly.Interval
	// Rows lists the transitions of every state (indexed like the frame's
	// states), ascending by target; an empty row is an absorbing state.
	Rows [][]Trans
	// Neighbours lists unordered pairs of input states.
	Neighbours [][2]int
	// Limits bounds the polynomial algebra (zero value: poly's defaults).
	Limits poly.Limits
	// MaxEliminationWork bounds the coefficient operations that state
	// elimination (for the inputs whose reachable states have a cycle) is
	// estimated to take over all the inputs analysed together
	// (DefaultMaxEliminationWork when zero): Analyze refuses a chain over
	// it with an *EliminationLimitError before eliminating anything. A
	// float: it bounds an estimate of work, never a value on the way to a
	// verdict.
	MaxEliminationWork float64
}

// New validates and returns a parametric chain. Every row must sum to the
// constant 1 exactly as a rational function, and every probability must be
// positive on the whole interval: the error for one that is not names the
// state, the target and an exact parameter value where it is ≤ 0 (or has a
// pole). Duplicate targets in a row are rejected; rows are sorted by target.
func New(ctx context.Context, lim poly.Limits, frame *chain.Chain, name string, in poly.Interval, rows [][]Trans, neighbours [][2]int) (*Chain, error) {
	if frame == nil {
		return nil, fmt.Errorf("%w: no frame", ErrParam)
	}
	if err := in.Validate(); err != nil {
		return nil, fmt.Errorf("%w: parameter %s: %v", ErrParam, name, err)
	}
	if in.Lo.Cmp(in.Hi) >= 0 {
		return nil, fmt.Errorf("%w: the interval %s of %s is a single point", ErrParam, in, name)
	}
	n := frame.NumStates()
	if len(rows) != n {
		return nil, fmt.Errorf("%w: %d rows for %d states", ErrParam, len(rows), n)
	}
	one := poly.FromPoly(poly.FromInts(1))
	known := newIndex() // probabilities known positive on in
	c := &Chain{Frame: frame, Param: name, Interval: in, Rows: make([][]Trans, n), Limits: lim}
	for s, row := range rows {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r := append([]Trans(nil), row...)
		slices.SortStableFunc(r, func(a, b Trans) int { return cmp.Compare(a.To, b.To) })
		for i, t := range r {
			if t.To < 0 || t.To >= n {
				return nil, fmt.Errorf("%w: state %s: transition to unknown state %d", ErrParam, frame.Name(s), t.To)
			}
			if i > 0 && r[i-1].To == t.To {
				return nil, fmt.Errorf("%w: state %s: two transitions to %s", ErrParam, frame.Name(s), frame.Name(t.To))
			}
			_, fresh := known.add(t.P)
			w, bad := poly.Algebraic{}, false
			if fresh {
				var err error
				if w, bad, err = outside(ctx, lim, t.P, poly.GT, in); err != nil {
					return nil, err
				}
			}
			if bad {
				return nil, fmt.Errorf("%w: state %s: the probability %s of going to %s is not positive at %s = %s (nor everywhere in %s)",
					ErrParam, frame.Name(s), t.P.Format(name), frame.Name(t.To), name, w.Format(name), in)
			}
		}
		ps := make([]poly.RatFunc, len(r))
		for i, t := range r {
			ps[i] = t.P
		}
		sum, err := sumRat(ctx, lim, ps)
		if err != nil {
			return nil, err
		}
		if len(r) > 0 && !sum.Equal(one) {
			return nil, fmt.Errorf("%w: state %s: the probabilities sum to %s, not 1", ErrParam, frame.Name(s), sum.Format(name))
		}
		c.Rows[s] = r
	}
	for _, p := range neighbours {
		for _, s := range p {
			if s < 0 || s >= n || !frame.IsInput(s) {
				return nil, fmt.Errorf("%w: neighbour %d is not an input state", ErrParam, s)
			}
		}
		if p[0] != p[1] {
			c.Neighbours = append(c.Neighbours, p)
		}
	}
	return c, nil
}

// IsAbsorbing reports whether state s has no transitions.
func (c *Chain) IsAbsorbing(s int) bool { return len(c.Rows[s]) == 0 }

// Instantiate returns the chain at parameter value a (which must lie in the
// interval): every probability evaluated exactly, states, valuations,
// labels and inputs as in the frame, absorbing states with their implicit
// self-loop.
func (c *Chain) Instantiate(a *big.Rat) (*chain.Chain, error) {
	if !c.Interval.Contains(a) {
		return nil, fmt.Errorf("%w: %s = %s is outside %s", ErrParam, c.Param, a.RatString(), c.Interval)
	}
	b := chain.NewBuilder()
	f := c.Frame
	for s := range f.NumStates() {
		b.AddState(f.Name(s), f.Valuation(s), f.Labels(s)...)
		if f.IsInput(s) {
			b.MarkInput(s)
		}
	}
	for s, row := range c.Rows {
		to := make([]int, len(row))
		p := make([]*big.Rat, len(row))
		for i, t := range row {
			v, err := t.P.Eval(a)
			if err != nil {
				return nil, err
			}
			to[i], p[i] = t.To, v
		}
		if len(row) > 0 {
			b.AddRow(s, to, p)
		}
	}
	return b.Build()
}

// Frame returns a chain holding states only (every state absorbing), for
// New: names, valuations and labels, and the given inputs.
func Frame(names []string, vals []chain.Valuation, labels [][]string, inputs []int) (*chain.Chain, error) {
	b := chain.NewBuilder()
	for i, n := range names {
		var v chain.Valuation
		if vals != nil {
			v = vals[i]
		}
		var l []string
		if labels != nil {
			l = labels[i]
		}
		b.AddState(n, v, l...)
	}
	for _, s := range inputs {
		b.MarkInput(s)
	}
	return b.Build()
}

// Absorbed reports an error (wrapping ErrParam) when some state reachable
// from an input never reaches an absorbing state:
// the mass it keeps is never absorbed, which the analysis does not
// support (the ordinary verifier's output ⊥∞). It is a search of the
// graph, linear in its size, so that the model can be refused when it is
// prepared rather than when a statement is evaluated.
func (c *Chain) Absorbed(ctx context.Context) error {
	good, err := c.absorbable(ctx)
	if err != nil {
		return err
	}
	from := make([]int32, len(c.Rows)) // the input a state was first reached from, +1
	var queue []int32
	for _, s := range c.Frame.Inputs() {
		from[s] = int32(s) + 1
		queue = append(queue, int32(s))
	}
	for _, p := range c.Neighbours { // inputs too, unless the frame is wrong
		for _, s := range p {
			if from[s] == 0 {
				from[s] = int32(s) + 1
				queue = append(queue, int32(s))
			}
		}
	}
	for i := 0; i < len(queue); i++ {
		if i%4096 == 4095 && ctx.Err() != nil {
			return ctx.Err()
		}
		u := queue[i]
		if !good[u] {
			// u has successors, none of them absorbed either: name one
			// rather than the input itself
			bad := int(u)
			for _, t := range c.Rows[u] {
				if t.To != bad {
					bad = t.To
					break
				}
			}
			return fmt.Errorf("%w: from input %s the state %s is reachable but never reaches an absorbing state (mass never absorbed is not supported)",
				ErrParam, c.Frame.Name(int(from[u]-1)), c.Frame.Name(bad))
		}
		for _, t := range c.Rows[u] {
			if from[t.To] == 0 {
				from[t.To] = from[u]
				queue = append(queue, int32(t.To))
			}
		}
	}
	return nil
}

// absorbable returns the states that reach an absorbing state (a search
// of the graph backwards from the absorbing states).
func (c *Chain) absorbable(ctx context.Context) ([]bool, error) {
	n := len(c.Rows)
	pred := make([][]int32, n)
	for s, row := range c.Rows {
		for _, t := range row {
			pred[t.To] = append(pred[t.To], int32(s))
		}
	}
	good := make([]bool, n)
	var queue []int32
	for s := range n {
		if c.IsAbsorbing(s) {
			good[s] = true
			queue = append(queue, int32(s))
		}
	}
	for i := 0; i < len(queue); i++ {
		if i%4096 == 4095 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		for _, v := range pred[queue[i]] {
			if !good[v] {
				good[v] = true
				queue = append(queue, v)
			}
		}
	}
	return good, nil
}
