package builder

import (
	"context"
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/model"
)

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

// mul is exact.Mul: exact, and fast when one factor is small.
func mul(x, y *big.Rat) *big.Rat { return exact.Mul(x, y) }
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

// CheckSize estimates the size of the chain d would build from a (states,
// transitions and the bits of its probabilities) and compares it with l,
// whose zero fields are DefaultLimits'. It is called before Build, so
// nothing is allocated for a model that is too big. For a composition it
// checks the parameters only (the runs need not be built: see
// Def.Composition), and Build checks the product's size.
func (d *Def) CheckSize(a *Args, l model.Limits) error {
	l = l.WithDefaults()
	a.limits = l
	if d.Composition != nil {
		return d.Composition(a).check()
	}
	for _, p := range d.Params {
		if p.Kind == Integer && p.Max > p.Min {
			if err := checkRange(d.Name, p.Name, a.Int(p.Name), p.Min, p.Max); err != nil {
				return err
			}
		}
	}
	if d.Size != nil {
		states, trans := d.Size(a)
		switch {
		case !(states <= float64(l.MaxStates)):
			return &model.LimitError{Builder: d.Name, Limit: model.LimitStates, Estimate: states, Max: int64(l.MaxStates)}
		case !(trans <= float64(l.MaxTransitions)):
			return &model.LimitError{Builder: d.Name, Limit: model.LimitTransitions, Estimate: trans, Max: int64(l.MaxTransitions)}
		}
	}
	if d.Bits != nil {
		if bits := d.Bits(a); !(bits <= float64(l.MaxBits)) {
			return &model.LimitError{Builder: d.Name, Limit: model.LimitBits, Estimate: bits, Max: l.MaxBits}
		}
	}
	return nil
}

func f(x int) float64 { return float64(x) }

// firstError returns the first of errs that is not nil: the checks of a
// builder's parameters, in the order they are reported.
func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
