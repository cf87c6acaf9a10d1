package param

import (
	"context"
	"math/big"

	"github.com/dpcheck/dpcheck/poly"
)

// Expected returns, for every input, the expected value of f(input, end)
// over the absorbing state end where its runs end, Σ_end
// Pr_input(end)·f(input, end), as a rational function of the parameter,
// exactly (a mechanism's accuracy for every parameter value).
func Expected(ctx context.Context, c *Chain, f func(input, end int) (*big.Rat, error)) (map[int]poly.RatFunc, error) {
	return NewFinals(c).Expected(ctx, f)
}

// Expected is the package's Expected, its distributions taken from the
// memo.
func (fs *Finals) Expected(ctx context.Context, f func(input, end int) (*big.Rat, error)) (map[int]poly.RatFunc, error) {
	c := fs.c
	plans, err := c.plan(ctx, true) // every input, paired or not
	if err != nil {
		return nil, err
	}
	out := make(map[int]poly.RatFunc, len(plans))
	for _, pl := range plans {
		d, err := fs.of(ctx, pl)
		if err != nil {
			return nil, err
		}
		var terms []poly.RatFunc
		for i, end := range d.Out {
			v, err := f(pl.s, end)
			if err != nil {
				return nil, err
			}
			if v.Sign() == 0 {
				continue
			}
			k, err := c.Limits.RatFunc(ctx, poly.Const(v), poly.Const(big.NewRat(1, 1)))
			if err != nil {
				return nil, err
			}
			t, err := c.Limits.RatMul(ctx, d.P[i], k)
			if err != nil {
				return nil, err
			}
			terms = append(terms, t)
		}
		sum := poly.RatFunc{}
		if len(terms) > 0 {
			if sum, err = sumRat(ctx, c.Limits, terms); err != nil {
				return nil, err
			}
		}
		out[pl.s] = sum
	}
	return out, nil
}

// Outside returns the simplest parameter value of c's interval where
// f rel 0 fails, bad false when it holds on the whole interval.
func (c *Chain) Outside(ctx context.Context, f poly.RatFunc, rel poly.Rel) (w poly.Algebraic, bad bool, err error) {
	return outside(ctx, c.Limits, f, rel, c.Interval)
}
