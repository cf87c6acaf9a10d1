package param

import (
	"context"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/dpcheck/dpcheck/poly"
)

// TightEpsilonAt returns the least ε with dp(ε, δ) for every parameter
// value, δ = delta(α) ≥ 0, piecewise: e^ε = R(α).
//
// For one ordered pair (s, t), dp(ε, δ) holds when Pr_s(E) − e^ε·Pr_t(E) ≤
// δ for every event E, so the least e^ε is the largest (Pr_s(E) − δ)/Pr_t(E)
// over the events with Pr_t(E) > 0 (at least 1: ε ≥ 0), and +∞ where the
// outputs Z that t never reaches already have Pr_s(Z) > δ. At a given α the
// largest is attained by an event made of Z and the j outputs of largest
// ratio Pr_s(o)/Pr_t(o), for some j (the event that attains the
// hockey-stick divergence at the optimum). The ratios' order changes only
// at roots of their pairwise differences: the interval is cut there, each
// gap's prefixes give candidate functions (Pr_s(E_j) − δ)/Pr_t(E_j), and
// their upper envelope with the constant 1 — exact at every point, since
// every candidate is a lower bound and each gap's maximiser is among them
// — is R. Where some pair's Pr_s(Z) − δ > 0 (an open set, cut at the
// roots of those functions) R is +∞; a boundary point is finite.
func (a *Analysis) TightEpsilonAt(ctx context.Context, delta poly.RatFunc) (*EpsResult, error) {
	if err := a.whole(ctx, "δ", delta, poly.GE); err != nil {
		return nil, err
	}
	cands, infFns, err := a.epsAtCandidates(ctx, delta)
	if err != nil {
		return nil, err
	}
	pw, err := a.envelopeInf(ctx, cands, infFns)
	if err != nil {
		return nil, err
	}
	return &EpsResult{R: pw}, nil
}

// epsAtCandidates returns TightEpsilonAt's candidate functions (the
// constant 1 first), the functions Pr_s(Z) − δ of the pairs with outputs
// Z unreachable from t.
func (a *Analysis) epsAtCandidates(ctx context.Context, delta poly.RatFunc) (cands, infFns []poly.RatFunc, err error) {
	lim := a.c.Limits
	one := poly.FromPoly(poly.FromInts(1))
	cands = []poly.RatFunc{one}
	seen := newIndex()
	seen.add(one)
	seenInf := newIndex()
	for _, p := range a.ordered() {
		ds, dt := a.dist[p[0]], a.dist[p[1]]
		var zs, zt []poly.RatFunc // Pr_s(o) and Pr_t(o) of o ∉ Z
		var pz poly.RatFunc       // Pr_s(Z)
		hasZ := false
		var err error
		for i, o := range ds.Out {
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
			pt := dt.Prob(o)
			if pt.Num().IsZero() {
				hasZ = true
				if pz, err = lim.RatAdd(ctx, pz, ds.P[i]); err != nil {
					return nil, nil, err
				}
				continue
			}
			zs, zt = append(zs, ds.P[i]), append(zt, pt)
		}
		if hasZ {
			g, err := lim.RatSub(ctx, pz, delta)
			if err != nil {
				return nil, nil, err
			}
			if _, fresh := seenInf.add(g); fresh {
				infFns = append(infFns, g)
			}
		}
		if len(zs) == 0 {
			continue
		}
		ratios := make([]poly.RatFunc, len(zs))
		for i := range zs {
			if ratios[i], err = lim.RatDiv(ctx, zs[i], zt[i]); err != nil {
				return nil, nil, err
			}
		}
		var orderCuts []poly.Poly
		for i := range ratios {
			for j := i + 1; j < len(ratios); j++ {
				d, err := lim.RatSub(ctx, ratios[i], ratios[j])
				if err != nil {
					return nil, nil, err
				}
				if !d.Num().IsZero() {
					orderCuts = append(orderCuts, d.Num())
				}
			}
		}
		roots, err := a.cuts(ctx, orderCuts)
		if err != nil {
			return nil, nil, err
		}
		_, points, err := a.gapPoints(ctx, roots)
		if err != nil {
			return nil, nil, err
		}
		done := map[string]bool{}
		for _, q := range points {
			order, err := orderAt(ratios, q)
			if err != nil {
				return nil, nil, err
			}
			var ps, pt poly.RatFunc
			var key strings.Builder
			for _, i := range order {
				if err := ctx.Err(); err != nil {
					return nil, nil, err
				}
				key.WriteString(strconv.Itoa(i))
				key.WriteByte(',')
				if ps, err = lim.RatAdd(ctx, ps, zs[i]); err != nil {
					return nil, nil, err
				}
				if pt, err = lim.RatAdd(ctx, pt, zt[i]); err != nil {
					return nil, nil, err
				}
				if done[key.String()] {
					continue
				}
				done[key.String()] = true
				num, err := lim.RatAdd(ctx, ps, pz)
				if err == nil {
					num, err = lim.RatSub(ctx, num, delta)
				}
				var c poly.RatFunc
				if err == nil {
					c, err = lim.RatDiv(ctx, num, pt)
				}
				if err != nil {
					return nil, nil, err
				}
				if _, fresh := seen.add(c); fresh {
					cands = append(cands, c)
				}
			}
		}
	}
	// The envelope drops (prune) the candidates the constant 1 or another
	// one exceeds everywhere (about half of the geometric mechanism's never
	// exceed 1).
	return cands, infFns, nil
}

// orderAt returns the indices of the ratios sorted by their value at q,
// largest first (ties by index).
func orderAt(ratios []poly.RatFunc, q *big.Rat) ([]int, error) {
	vals := make([]*big.Rat, len(ratios))
	for i, r := range ratios {
		v, err := r.Eval(q)
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	order := make([]int, len(ratios))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return vals[j].Cmp(vals[i]) })
	return order, nil
}
