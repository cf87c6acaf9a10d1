package builder

import (
	"context"
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/mdp"
)

// Mechanism is a chain together with its natural neighbour relation.
type Mechanism struct {
	// Chain is the mechanism as a Markov chain; its inputs are the databases.
	Chain *chain.Chain
	// Neighbours lists the unordered neighbouring pairs of input states;
	// nil when AllPairs.
	Neighbours [][2]int
	// AllPairs says that every two inputs are neighbours (PRISM's dpCTL
	// convention for the initial states of a model): the pairs, quadratic
	// in the inputs, are made by AllPairs only when something compares them.
	AllPairs bool
	// Note explains in one line what the chain models, for display.
	Note string
	// MDP is set when the mechanism is a Markov decision process (an
	// analyst chooses the queries); Chain is then its frame (the states,
	// their valuations, labels and inputs; not how it moves).
	MDP *mdp.MDP
}

// AllPairs returns every two of the inputs as unordered pairs, unless the
// pairs would take more than maxMemory bytes: then a *LimitError says how
// many there are.
func AllPairs(ins []int, maxMemory int64) ([][2]int, error) {
	n := int64(len(ins))
	count := n * (n - 1) / 2
	if bytes := float64(count) * 16; bytes > float64(maxMemory) {
		return nil, &LimitError{Builder: fmt.Sprintf("relating every two of the %d inputs (%s neighbouring pairs)", n, thousands(float64(count))),
			Limit: LimitMemory, Estimate: bytes, Max: maxMemory}
	}
	out := make([][2]int, 0, count)
	for i, s := range ins {
		for _, t := range ins[i+1:] {
			out = append(out, [2]int{s, t})
		}
	}
	return out, nil
}

// buildChain builds b unless ctx has ended, and reports ctx's error
// (unwrapped) when it ends before or while b is built.
func buildChain(ctx context.Context, b *chain.Builder) (*chain.Chain, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c, err := b.BuildContext(ctx)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return c, nil
}

// A ParamError reports a builder parameter that is out of range.
type ParamError struct {
	Builder string
	Param   string
	Msg     string
}

func (e *ParamError) Error() string {
	return fmt.Sprintf("%s: parameter %s %s", e.Builder, e.Param, e.Msg)
}

func rat(a, b int64) *big.Rat { return big.NewRat(a, b) }

var (
	zero = rat(0, 1)
	one  = rat(1, 1)
)

func sub(x, y *big.Rat) *big.Rat { return new(big.Rat).Sub(x, y) }
func add(x, y *big.Rat) *big.Rat { return new(big.Rat).Add(x, y) }

// mul is chain.Mul: exact, and fast when one factor is small.
func mul(x, y *big.Rat) *big.Rat { return chain.Mul(x, y) }
func quo(x, y *big.Rat) *big.Rat { return new(big.Rat).Quo(x, y) }

// checkProb reports an error unless lo <(=) x <(=) hi as requested.
func checkUnit(builder, name string, x *big.Rat, open bool) error {
	if x == nil {
		return &ParamError{builder, name, "is missing"}
	}
	if open {
		if x.Sign() <= 0 || x.Cmp(one) >= 0 {
			return &ParamError{builder, name, fmt.Sprintf("must be in (0, 1), got %s", x.RatString())}
		}
		return nil
	}
	if x.Sign() < 0 || x.Cmp(one) > 0 {
		return &ParamError{builder, name, fmt.Sprintf("must be in [0, 1], got %s", x.RatString())}
	}
	return nil
}

func checkRange(builder, name string, x, lo, hi int) error {
	if x < lo || x > hi {
		return &ParamError{builder, name, fmt.Sprintf("must be between %d and %d, got %d", lo, hi, x)}
	}
	return nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
