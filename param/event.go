package param

import (
	"context"
	"fmt"

	"github.com/dpcheck/dpcheck/poly"
)

// EventEpsilon returns the least ε ≥ 0, piece by piece, with
// Pr_s(E) ≤ e^ε·Pr_t(E) + δ for every ordered pair (s, t) of c's
// neighbours and one event E whose probability from each input is prob
// (dpCTL's D{?, δ}[ψ], E the runs satisfying ψ): e^ε is the upper envelope
// of 1 and the ratios (Pr_s(E) − δ)/Pr_t(E) of the pairs with Pr_t(E) not
// identically 0, and +∞ where a pair with Pr_t(E) ≡ 0 has Pr_s(E) > δ.
// delta must be ≥ 0 on the interval; every input of a pair must have a
// probability in prob.
func (c *Chain) EventEpsilon(ctx context.Context, prob map[int]poly.RatFunc, delta poly.RatFunc) (*EpsResult, error) {
	a := &Analysis{c: c}
	if err := a.whole(ctx, "δ", delta, poly.GE); err != nil {
		return nil, err
	}
	lim := c.Limits
	one := poly.FromPoly(poly.FromInts(1))
	cands, infFns := []poly.RatFunc{one}, []poly.RatFunc(nil)
	seen, seenInf := newIndex(), newIndex()
	seen.add(one)
	for _, p := range a.ordered() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ps, ok1 := prob[p[0]]
		pt, ok2 := prob[p[1]]
		if !ok1 || !ok2 {
			missing := p[0]
			if ok1 {
				missing = p[1]
			}
			return nil, fmt.Errorf("%w: no probability of the event from input %s", ErrParam, c.Frame.Name(missing))
		}
		excess, err := lim.RatSub(ctx, ps, delta)
		if err != nil {
			return nil, err
		}
		if pt.Num().IsZero() {
			if _, fresh := seenInf.add(excess); fresh && !ps.Num().IsZero() {
				infFns = append(infFns, excess)
			}
			continue
		}
		r, err := lim.RatDiv(ctx, excess, pt)
		if err != nil {
			return nil, err
		}
		if _, fresh := seen.add(r); fresh {
			cands = append(cands, r)
		}
	}
	pw, err := a.envelopeInf(ctx, cands, infFns)
	if err != nil {
		return nil, err
	}
	return &EpsResult{R: pw}, nil
}
