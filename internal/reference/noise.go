// Package reference is a second, independent encoding of a few
// differential-privacy mechanisms, for tests only. It computes exact output
// distributions by direct enumeration from the mathematical definitions, and
// the tight ε at δ = 0 and the total variation at ε = 0 straight from their
// definitions, with math/big and the standard library alone: it imports
// nothing of dpcheck, so models written in dpcheck's languages (and its
// builders) can be cross-checked against it.
//
// MDP (mdp.go) adds small Markov decision processes against query
// schedulers: every action sequence enumerated, Proposition 2's bound by
// backward induction over all schedulers, and values A + B·e^E compared
// exactly from series bounds of e.
//
// Untruncated geometric noise (untruncated.go, untruncated_exact.go) is
// computed three ways: clamped to a window, as partial sums with a proved
// bound on the omitted mass, and in closed form.
//
// Every noise distribution is a PMF over a finite integer range. PMFs are
// memoised and shared: callers must not modify the rationals they hold.
package reference

import (
	"fmt"
	"math/big"
	"strings"
	"sync"
)

// PMF is an exact probability mass function over the integers Lo..Lo+len(P)-1.
// Its rationals may be shared (memoised): do not modify them.
type PMF struct {
	Lo int
	P  []*big.Rat
}

// Hi is the largest value of the support range.
func (p PMF) Hi() int { return p.Lo + len(p.P) - 1 }

// At is the probability of v (a fresh zero outside the range).
func (p PMF) At(v int) *big.Rat {
	if v < p.Lo || v > p.Hi() {
		return new(big.Rat)
	}
	return p.P[v-p.Lo]
}

// Sum is the total mass (exactly 1 for every PMF of this package).
func (p PMF) Sum() *big.Rat {
	s := new(big.Rat)
	for _, q := range p.P {
		s.Add(s, q)
	}
	return s
}

var (
	memoMu sync.Mutex
	memo   = map[string]PMF{}
)

func memoised(key string, f func() PMF) PMF {
	memoMu.Lock()
	defer memoMu.Unlock()
	if p, ok := memo[key]; ok {
		return p
	}
	p := f()
	memo[key] = p
	return p
}

func rat(a, b int64) *big.Rat { return big.NewRat(a, b) }

// pow is α^k for k ≥ 0.
func pow(alpha *big.Rat, k int) *big.Rat {
	if k < 0 {
		panic("reference: negative power")
	}
	num := new(big.Int).Exp(alpha.Num(), big.NewInt(int64(k)), nil)
	den := new(big.Int).Exp(alpha.Denom(), big.NewInt(int64(k)), nil)
	return new(big.Rat).SetFrac(num, den)
}

func checkAlpha(alpha *big.Rat) {
	if alpha.Sign() <= 0 || alpha.Cmp(rat(1, 1)) >= 0 {
		panic(fmt.Sprintf("reference: α = %s is not in (0, 1)", alpha.RatString()))
	}
}

func checkRange(lo, hi int) {
	if lo > hi {
		panic(fmt.Sprintf("reference: empty range [%d, %d]", lo, hi))
	}
}

// twoSidedTail is P(Z ≥ k) for the two-sided geometric Z,
// P(Z = z) = (1−α)/(1+α)·α^|z|:
// α^k/(1+α) for k ≥ 1, and 1 − α^(1−k)/(1+α) for k ≤ 0.
func twoSidedTail(alpha *big.Rat, k int) *big.Rat {
	onePlus := new(big.Rat).Add(rat(1, 1), alpha)
	if k >= 1 {
		return new(big.Rat).Quo(pow(alpha, k), onePlus)
	}
	t := new(big.Rat).Quo(pow(alpha, 1-k), onePlus)
	return t.Sub(rat(1, 1), t)
}

// twoSidedPoint is P(Z = z) = (1−α)/(1+α)·α^|z|.
func twoSidedPoint(alpha *big.Rat, z int) *big.Rat {
	if z < 0 {
		z = -z
	}
	f := new(big.Rat).Sub(rat(1, 1), alpha)
	f.Quo(f, new(big.Rat).Add(rat(1, 1), alpha))
	return f.Mul(f, pow(alpha, z))
}

// TwoSidedGeometric is the law of clamp(centre + Z, lo, hi) for the two-sided
// geometric Z, P(Z = z) = (1−α)/(1+α)·α^|z| (z ∈ ℤ): the end points collect
// the tails, P(lo) = P(centre + Z ≤ lo) and P(hi) = P(centre + Z ≥ hi). The
// centre may lie outside [lo, hi].
func TwoSidedGeometric(alpha *big.Rat, centre, lo, hi int) PMF {
	checkAlpha(alpha)
	checkRange(lo, hi)
	key := fmt.Sprintf("two|%s|%d|%d|%d", alpha.RatString(), centre, lo, hi)
	return memoised(key, func() PMF {
		p := PMF{Lo: lo, P: make([]*big.Rat, hi-lo+1)}
		if lo == hi {
			p.P[0] = rat(1, 1)
			return p
		}
		for v := lo + 1; v < hi; v++ {
			p.P[v-lo] = twoSidedPoint(alpha, v-centre)
		}
		// P(v ≤ lo) = 1 − P(Z ≥ lo − centre + 1); P(v ≥ hi) = P(Z ≥ hi − centre).
		low := twoSidedTail(alpha, lo-centre+1)
		p.P[0] = low.Sub(rat(1, 1), low)
		p.P[hi-lo] = twoSidedTail(alpha, hi-centre)
		return p
	})
}

// TruncatedGeometric is the row k of the truncated α-geometric mechanism
// over {0..n} (Ghosh, Roughgarden and Sundararajan): TwoSidedGeometric with
// centre k and range [0, n].
func TruncatedGeometric(alpha *big.Rat, n, k int) PMF {
	return TwoSidedGeometric(alpha, k, 0, n)
}

// OneSidedGeometric is the law of clamp(centre + Z, lo, hi) for the
// one-sided geometric Z ≥ 0, P(Z = z) = (1−α)·α^z, P(Z ≥ k) = α^k.
func OneSidedGeometric(alpha *big.Rat, centre, lo, hi int) PMF {
	checkAlpha(alpha)
	checkRange(lo, hi)
	key := fmt.Sprintf("one|%s|%d|%d|%d", alpha.RatString(), centre, lo, hi)
	tail := func(k int) *big.Rat { // P(Z ≥ k)
		if k <= 0 {
			return rat(1, 1)
		}
		return pow(alpha, k)
	}
	return memoised(key, func() PMF {
		p := PMF{Lo: lo, P: make([]*big.Rat, hi-lo+1)}
		if lo == hi {
			p.P[0] = rat(1, 1)
			return p
		}
		oneMinus := new(big.Rat).Sub(rat(1, 1), alpha)
		for v := lo + 1; v < hi; v++ {
			if v < centre {
				p.P[v-lo] = new(big.Rat)
			} else {
				p.P[v-lo] = new(big.Rat).Mul(oneMinus, pow(alpha, v-centre))
			}
		}
		low := tail(lo - centre + 1)
		p.P[0] = low.Sub(rat(1, 1), low)
		p.P[hi-lo] = tail(hi - centre)
		return p
	})
}

// Uniform is the uniform law over {lo..hi}.
func Uniform(lo, hi int) PMF {
	checkRange(lo, hi)
	p := PMF{Lo: lo, P: make([]*big.Rat, hi-lo+1)}
	for i := range p.P {
		p.P[i] = rat(1, int64(hi-lo+1))
	}
	return p
}

// Bernoulli is 1 with probability p and 0 with probability 1 − p.
func Bernoulli(p *big.Rat) PMF {
	if p.Sign() < 0 || p.Cmp(rat(1, 1)) > 0 {
		panic(fmt.Sprintf("reference: p = %s is not a probability", p.RatString()))
	}
	return PMF{Lo: 0, P: []*big.Rat{new(big.Rat).Sub(rat(1, 1), p), new(big.Rat).Set(p)}}
}

// Point is the point mass at v.
func Point(v int) PMF { return PMF{Lo: v, P: []*big.Rat{rat(1, 1)}} }

func clamp(v, lo, hi int) int { return min(max(v, lo), hi) }

// Dist is an exact distribution over outputs, each output a readable string.
type Dist map[string]*big.Rat

// add adds p to the mass of o (p is not retained).
func (d Dist) add(o string, p *big.Rat) {
	if p.Sign() == 0 {
		return
	}
	if q, ok := d[o]; ok {
		q.Add(q, p)
		return
	}
	d[o] = new(big.Rat).Set(p)
}

// Sum is the total mass.
func (d Dist) Sum() *big.Rat {
	s := new(big.Rat)
	for _, p := range d {
		s.Add(s, p)
	}
	return s
}

// At is the probability of o (a fresh zero when o is not in the support).
func (d Dist) At(o string) *big.Rat {
	if p, ok := d[o]; ok {
		return p
	}
	return new(big.Rat)
}

// Outputs is the support, sorted.
func (d Dist) Outputs() []string { return sortedKeys(d) }

// String lists the support in sorted order: "o1: p1, o2: p2".
func (d Dist) String() string {
	var b strings.Builder
	for i, o := range d.Outputs() {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s: %s", o, d[o].RatString())
	}
	return b.String()
}

// PMFDist is the PMF as a Dist with outputs the decimal values.
func PMFDist(p PMF) Dist {
	d := Dist{}
	for i, q := range p.P {
		d.add(fmt.Sprint(p.Lo+i), q)
	}
	return d
}
