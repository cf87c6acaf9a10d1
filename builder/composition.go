package builder

import (
	"context"
	"fmt"

	"github.com/dpcheck/dpcheck/model"
)

// MaxRuns bounds the runs of a composition. Its product chain is built
// for at most MaxProductRuns; beyond that only what needs no product can
// be checked (dp, the tight ε and δ, the privacy profile: the verifier
// computes them from one run's privacy-loss distributions).
const (
	MaxRuns        = 1 << 20
	MaxProductRuns = 64
)

// Composition is k independent runs of a mechanism on the same input,
// every run's output observed (compose(k, m)), described without building
// the product chain of the runs.
type Composition struct {
	Runs int
	Of   *model.Mechanism
}

// Note describes the composition, as the product's Mechanism.Note does.
func (c Composition) Note() string {
	return fmt.Sprintf("%d independent runs of: %s", c.Runs, c.Of.Note)
}

// check validates the parameters: a model, and 1 to MaxRuns runs.
func (c Composition) check() error {
	if c.Of == nil {
		return &ParamError{"compose", "model", "is missing"}
	}
	return checkRange("compose", "k", c.Runs, 1, MaxRuns)
}

// CheckProduct reports whether the product chain of the runs fits within
// l (zero fields are DefaultLimits'): a *LimitError when its states or
// transitions would exceed them, a *ParamError for more than
// MaxProductRuns runs. Nothing is built.
func (c Composition) CheckProduct(l model.Limits) error {
	if err := c.check(); err != nil {
		return err
	}
	l = l.WithDefaults()
	states, trans := composeSize(c.Runs, c.Of)
	switch {
	case !(states <= float64(l.MaxStates)):
		return &model.LimitError{Builder: "compose", Limit: model.LimitStates, Estimate: states, Max: int64(l.MaxStates)}
	case !(trans <= float64(l.MaxTransitions)):
		return &model.LimitError{Builder: "compose", Limit: model.LimitTransitions, Estimate: trans, Max: int64(l.MaxTransitions)}
	}
	return checkRange("compose", "k", c.Runs, 1, MaxProductRuns)
}

// Product builds the product chain of the runs (Compose) within l, after
// CheckProduct.
func (c Composition) Product(ctx context.Context, l model.Limits) (*model.Mechanism, error) {
	if err := c.CheckProduct(l); err != nil {
		return nil, err
	}
	return composeLimited(ctx, c.Runs, c.Of, l)
}
