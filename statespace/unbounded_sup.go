package statespace

import (
	"context"
	"math/big"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/geosum"
	"github.com/dpcheck/dpcheck/model"
)

// The supremum of a likelihood ratio along a tail whose ratios vary, for a
// tight ε at δ = 0 (model.Mechanism.TailRatio). From a merged tail's first
// value on, m steps further, input i's probability is
// P(m) = Σ_g p_g·γ_g^m and input j's Q(m) = Σ_g q_g·γ_g^m (tailForms).
// The ratio r = P/Q tends to L = p_1/q_1 (the terms of the largest γ
// either has; +∞ when only P has it, 0 when only Q has it). With
// D = P − L·Q, whose sign is that of its own leading term from some m₀ on
// (stableFrom):
//   - D < 0 from m₀ on: r < L there, so the supremum is the largest of L
//     and r(0), …, r(m₀−1); L alone is approached, never attained;
//   - D > 0 from m₀ on: r > L there, so with c = r(m₀) > L, P − c·Q has
//     the negative leading term p_1 − c·q_1 and is negative from some m₁
//     on: every r(m) with m ≥ m₁ is below c, and the supremum is the
//     largest of r(0), …, r(max(m₀, m₁)), attained.
// Q's own sign settles from some m_q on; before it, a value with Q = 0 < P
// makes the supremum infinite, attained there.

// varyingTail is a merged tail whose likelihood ratios vary: its inputs'
// forms from its first value at on, in the direction dir.
type varyingTail struct {
	forms   *tailForms
	at, dir int64
	// name is the merged output's name; value names the value x.
	name  string
	value func(x int64) string
}

// sup returns the supremum of P_i/P_j over the values of t (nil when
// input i reaches none of them), looking at most limit values past its
// start.
func (t *varyingTail) sup(ctx context.Context, i, j int, limit, maxPowBits int64) (*model.TailSup, error) {
	p, q := t.forms.values[i], t.forms.values[j]
	lead := func(v []*big.Rat) int {
		for g, x := range v {
			if x != nil {
				return g
			}
		}
		return -1
	}
	ip, iq := lead(p), lead(q)
	if ip < 0 {
		return nil, nil
	}
	if iq < 0 || ip < iq { // Q is 0, or decays faster
		return &model.TailSup{Output: t.name, PrFrom: t.total(p), PrTo: t.total(q)}, nil
	}
	terms := func(c *big.Rat) []tailTerm { // P − c·Q
		cq := make([]*big.Rat, len(q))
		for g, x := range q {
			if x != nil {
				cq[g] = new(big.Rat).Mul(c, x)
			}
		}
		return t.forms.difference(nil, p, cq)
	}
	settle := func(d []tailTerm) (int64, error) {
		m, ok := stableFrom(d, limit, maxPowBits)
		if !ok {
			return 0, errTooLong{limit: limit}
		}
		return m, nil
	}
	mq, err := settle(t.forms.difference(nil, q, make([]*big.Rat, len(q)))) // Q's own terms: Q > 0 from mq on
	if err != nil {
		return nil, err
	}
	limitRatio := new(big.Rat)
	if ip == iq {
		limitRatio.Quo(p[ip], q[iq])
	}
	d := terms(limitRatio)
	m0, err := settle(d)
	if err != nil {
		return nil, err
	}
	upTo := max(m0, mq)
	approached := len(d) == 0 || d[0].value.Sign() < 0
	if !approached {
		pm, qm, err := t.at2(upTo, p, q, maxPowBits) // Q(upTo) > 0
		if err != nil {
			return nil, err
		}
		m1, err := settle(terms(new(big.Rat).Quo(pm, qm)))
		if err != nil {
			return nil, err
		}
		upTo = max(upTo, m1)
	}
	best := &model.TailSup{Ratio: limitRatio, Output: t.name, PrFrom: t.total(p), PrTo: t.total(q)}
	for m := int64(0); m <= upTo; m++ {
		if m%256 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		pm, qm, err := t.at2(m, p, q, maxPowBits)
		if err != nil {
			return nil, err
		}
		if pm.Sign() == 0 {
			continue
		}
		x := t.at + t.dir*m
		if qm.Sign() == 0 {
			return &model.TailSup{Output: t.value(x), Attained: true, PrFrom: pm, PrTo: qm}, nil
		}
		if r := new(big.Rat).Quo(pm, qm); r.Cmp(best.Ratio) > 0 || r.Cmp(best.Ratio) == 0 && !best.Attained {
			best = &model.TailSup{Ratio: r, Output: t.value(x), Attained: true, PrFrom: pm, PrTo: qm}
		}
	}
	return best, nil
}

// total is the probability of the whole tail, Σ_g v_g/(1 − γ_g).
func (t *varyingTail) total(v []*big.Rat) *big.Rat {
	sum := new(big.Rat)
	for g, gamma := range t.forms.gammas {
		if g < len(v) && v[g] != nil {
			sum.Add(sum, new(big.Rat).Quo(v[g], new(big.Rat).Sub(big.NewRat(1, 1), gamma)))
		}
	}
	return sum
}

// at2 is P(m) and Q(m).
func (t *varyingTail) at2(m int64, p, q []*big.Rat, maxPowBits int64) (*big.Rat, *big.Rat, error) {
	pm, qm := new(big.Rat), new(big.Rat)
	for g, gamma := range t.forms.gammas {
		if p[g] == nil && q[g] == nil {
			continue
		}
		if bits := exact.PowBits(gamma, m); bits > maxPowBits {
			return nil, nil, &geosum.PowError{Bits: bits, Max: maxPowBits}
		}
		pow := exact.Pow(gamma, m)
		if p[g] != nil {
			pm.Add(pm, new(big.Rat).Mul(p[g], pow))
		}
		if q[g] != nil {
			qm.Add(qm, new(big.Rat).Mul(q[g], pow))
		}
	}
	return pm, qm, nil
}
