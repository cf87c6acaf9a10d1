package statespace

import (
	"context"
	"fmt"
	"math/big"
	"sort"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/geosum"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/source"
)

// Tails whose likelihood ratios vary. Beyond the values where any run's
// weight changes form, each input's probability of the observed value x
// is Σ_j a_j·β_j^x: the same bases for every input, other coefficients.
// Where the coefficients are not proportional the ratio of two inputs
// varies along the tail, and no merging keeps every divergence. But a
// hockey-stick divergence at one c = e^ε, Σ_o max(0, P(o) − c·P'(o)), is
// unchanged by merging outputs on which P − c·P' keeps one sign. Moving
// away from the listed values, f = P − c·P' = Σ_j d_j·γ_j^m (m steps
// further, γ_j < 1 the factor of one step) has the sign of its dominant
// term d_1 (the largest γ with d ≠ 0) from the first m where
// |d_1| > Σ_{j≥2} |d_j|·(γ_j/γ_1)^m on: the right-hand side only
// decreases. So the values are listed one by one up to the largest such m
// over every ordered pair of inputs and every c the statements ask about
// (Model.Ratios), and the rest is merged: dp(ε, δ) and δ at those ε are
// exact, and every other divergence of the merged chain is a lower bound
// (merging outputs is post-processing).

// tailTerm is one term of an input's probability on a tail: its value at
// the tail's first value and the factor gamma (< 1) of each further step.
type tailTerm struct{ value, gamma *big.Rat }

// tailForms is every input's probability on a tail: the factors of its
// terms, distinct and largest first, and each input's values at the
// tail's start, one per factor (nil for none).
type tailForms struct {
	gammas []*big.Rat
	values map[int][]*big.Rat
}

// tailForms returns the inputs' terms on the tail of x_k from at in the
// direction dir (+1: x ≥ at, −1: x ≤ at), from the pieces that hold at.
func (r *urun[T]) tailForms(ws map[int]geosum.Weight[*big.Rat], ins []int, at, dir int64) (*tailForms, error) {
	k := r.u.observed
	n := len(r.u.vars)
	point := make([]int64, n)
	point[k] = at
	byInput := map[int]map[string]*tailTerm{}
	gammas := map[string]*big.Rat{}
	for _, in := range ins {
		byBase := map[string]*tailTerm{}
		byInput[in] = byBase
		for _, p := range ws[in].Pieces {
			if !p.Region.Contains(point) {
				continue
			}
			for _, t := range p.Terms {
				b := big.NewRat(1, 1)
				if t.Base[k] != nil {
					b = *t.Base[k]
				}
				if bits := exact.PowBits(b, at); bits > r.s.MaxPowBits {
					return nil, r.failed(&geosum.PowError{Bits: bits, Max: r.s.MaxPowBits})
				}
				v := new(big.Rat).Mul(t.Coef, exact.Pow(b, at))
				key := b.RatString()
				if tt, ok := byBase[key]; ok {
					tt.value = new(big.Rat).Add(tt.value, v)
					continue
				}
				gamma := b
				if dir < 0 {
					gamma = new(big.Rat).Inv(b)
				}
				if gamma.Cmp(big.NewRat(1, 1)) >= 0 {
					return nil, r.failed(geosum.ErrNotGeometric)
				}
				byBase[key] = &tailTerm{value: v, gamma: gamma}
				gammas[key] = gamma
			}
		}
	}
	f := &tailForms{values: map[int][]*big.Rat{}}
	keys := make([]string, 0, len(gammas))
	for key := range gammas {
		keys = append(keys, key)
	}
	sort.Slice(keys, func(a, b int) bool { return gammas[keys[a]].Cmp(gammas[keys[b]]) > 0 })
	for _, key := range keys {
		f.gammas = append(f.gammas, gammas[key])
	}
	for _, in := range ins {
		vs := make([]*big.Rat, len(keys))
		for g, key := range keys {
			if t, ok := byInput[in][key]; ok && t.value.Sign() != 0 {
				vs[g] = t.value
			}
		}
		f.values[in] = vs
	}
	return f, nil
}

// signSteps returns how many values past a tail's start must be listed
// one by one so that, from there on, P_i − c·P_j keeps one sign for every
// ordered pair of inputs (i, j) and every c in ratios; more than limit is
// an error.
func signSteps(ctx context.Context, f *tailForms, ins []int, ratios []*big.Rat, limit, maxPowBits int64) (int64, error) {
	var most int64
	d := make([]tailTerm, 0, len(f.gammas))
	for _, c := range ratios {
		scaled := map[int][]*big.Rat{} // c·P_j, once for every i
		for _, j := range ins {
			vs := make([]*big.Rat, len(f.gammas))
			for g, v := range f.values[j] {
				if v != nil {
					vs[g] = new(big.Rat).Mul(c, v)
				}
			}
			scaled[j] = vs
		}
		for _, i := range ins {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
			for _, j := range ins {
				if i == j {
					continue
				}
				d = f.difference(d[:0], f.values[i], scaled[j])
				m, ok := stableFrom(d, limit, maxPowBits)
				if !ok {
					return 0, errTooLong{limit: limit}
				}
				most = max(most, m)
			}
		}
	}
	return most, nil
}

// errTooLong says the sign settles only beyond limit values.
type errTooLong struct{ limit int64 }

func (e errTooLong) Error() string { return fmt.Sprintf("more than %d values", e.limit) }

// difference appends to d the terms of p − cq (P_i and c·P_j, one value
// per factor), largest factor first, zero terms dropped.
func (f *tailForms) difference(d []tailTerm, p, cq []*big.Rat) []tailTerm {
	for g, gamma := range f.gammas {
		var v *big.Rat
		switch {
		case cq[g] == nil && p[g] == nil:
			continue
		case cq[g] == nil:
			v = p[g]
		case p[g] == nil:
			v = new(big.Rat).Neg(cq[g])
		default:
			v = new(big.Rat).Sub(p[g], cq[g])
		}
		if v.Sign() != 0 {
			d = append(d, tailTerm{value: v, gamma: gamma})
		}
	}
	return d
}

// stableFrom returns the least m ≥ 0 from which Σ_j d_j·γ_j^m has the
// sign of d_1 (d sorted by γ, largest first), false when it exceeds limit
// or a power tried would exceed maxPowBits.
func stableFrom(d []tailTerm, limit, maxPowBits int64) (int64, bool) {
	if len(d) <= 1 {
		return 0, true
	}
	// dominates(m): |d_1| > Σ_{j≥2} |d_j|·(γ_j/γ_1)^m, true from some m on.
	ratios := make([]*big.Rat, len(d)-1)
	for j := range ratios {
		ratios[j] = new(big.Rat).Quo(d[j+1].gamma, d[0].gamma)
	}
	lead := new(big.Rat).Abs(d[0].value)
	tooBig := false
	dominates := func(m int64) bool {
		rest := new(big.Rat)
		for j, q := range ratios {
			if exact.PowBits(q, m) > maxPowBits {
				tooBig = true
				return true // stops the search; false is returned
			}
			rest.Add(rest, new(big.Rat).Mul(new(big.Rat).Abs(d[j+1].value), exact.Pow(q, m)))
		}
		return lead.Cmp(rest) > 0
	}
	if dominates(0) {
		return 0, !tooBig
	}
	lo, hi := int64(0), int64(1) // dominates(lo) is false
	for !dominates(hi) {
		if hi > limit {
			return 0, false
		}
		lo, hi = hi, 2*hi
	}
	if tooBig {
		return 0, false
	}
	for hi-lo > 1 {
		if mid := lo + (hi-lo)/2; dominates(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, hi <= limit && !tooBig
}

// spreadError is the error of a tail whose sign settles too far out.
func (r *urun[T]) spreadError(name, sign string, at, limit int64) error {
	return source.ErrorList{{Pos: r.x.p.m.ObservedPos, Limit: string(model.LimitStates), Msg: fmt.Sprintf(
		"the likelihood ratios of the outputs %s%s%d vary, and listing them one by one until every pair of inputs compares the same way at the statements' ε would take more than %s values, the limit for a tail (a 5000th of the limit on states; an ε very close to a limit ratio needs many)", name, sign, at, exact.Thousands(limit))}}
}
