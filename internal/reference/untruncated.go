package reference

// Untruncated noise. A mechanism whose noise is the two-sided geometric Z,
// Pr[Z = z] = (1−α)/(1+α)·α^|z| on all of ℤ, has output probabilities that
// are infinite sums. This file computes them two independent ways:
//
//   - clamped: every noisy value c + Z is clamped to a window [lo, hi]
//     (the mass beyond lo goes to lo, beyond hi to hi), which is exact and
//     finite (the semantics of geometric(α, c, lo, hi) in dpcheck's models);
//   - partial sums: only the noise values |Z| ≤ N are summed, exactly, and
//     a proved bound on the omitted mass turns every sum S into an interval
//     [S, S + Tail] that contains the exact untruncated probability.
//
// Both run the same mechanism code on (sub-)probability mass functions of
// the noisy values: the clamped PMF, or the restriction of the untruncated
// PMF to c−N..c+N (of mass 1 − 2α^(N+1)/(1+α)).
//
// The partial-sum bound. Draw every noise of the mechanism up front (those
// a run never reads included: this changes no output probability), and let
// E be the event that every noise Z_i has |Z_i| ≤ N. For an output o, the
// partial sum is S(o) = Pr[out = o ∧ E'] where E' ⊇ E says that the noises
// the run reads lie within N: the sum runs over exactly those noise values
// and each term is the probability of one such run. So S(o) ≤ Pr[out = o],
// and Pr[out = o] − S(o) = Pr[out = o ∧ ¬E'] ≤ Pr[¬E] ≤ Σ_i Pr[|Z_i| > N]
// by the union bound, with Pr[|Z| > N] = 2·Pr[Z ≥ N+1] = 2α^(N+1)/(1+α).
// The same holds for any set A of outputs, with S(A) = Σ_{o∈A} S(o) and the
// same Tail (not multiplied by |A|).
//
// Clamped against untruncated. Couple the two by using the same noise draws.
// When every noisy value lies in its window, c_i + Z_i ∈ [lo, hi], clamping
// changes nothing and both runs give the same output; so for any set A of
// outputs, |Pr_clamped[A] − Pr_untruncated[A]| ≤ Pr[some c_i + Z_i ∉ [lo,
// hi]] ≤ Σ_i Pr[c_i + Z_i ∉ [lo, hi]] (EscapeBound), the total variation
// bound the tests use.

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// Bounds are partial sums with a bound on what they omit: the exact
// untruncated probability of every output o lies in [S(o), S(o) + Tail]
// (see the proof at the top of untruncated.go); an output missing from S has
// S(o) = 0.
type Bounds struct {
	S    Dist     // partial sums over the noise values |z| ≤ N
	Tail *big.Rat // Σ_i Pr[|Z_i| > N] over every noise of the mechanism
}

// Interval is [S(o), S(o) + Tail] for the output o.
func (b Bounds) Interval(o string) (lo, hi *big.Rat) {
	lo = new(big.Rat).Set(b.S.At(o))
	return lo, new(big.Rat).Add(lo, b.Tail)
}

// Contains reports whether p lies in the interval of o.
func (b Bounds) Contains(o string, p *big.Rat) bool {
	lo, hi := b.Interval(o)
	return lo.Cmp(p) <= 0 && p.Cmp(hi) <= 0
}

// TwoSidedTailMass is Pr[|Z| > n] = 2α^(n+1)/(1+α) for the two-sided
// α-geometric Z (n ≥ 0).
func TwoSidedTailMass(alpha *big.Rat, n int) *big.Rat {
	checkAlpha(alpha)
	t := twoSidedTail(alpha, n+1)
	return t.Add(t, t)
}

// EscapeBound is Pr[c + Z ∉ [lo, hi]] = Pr[Z ≥ hi−c+1] + Pr[Z ≤ lo−c−1]
// summed over the centres c (one per noise), Z two-sided α-geometric: the
// bound on the total variation between a clamped and the untruncated run.
func EscapeBound(alpha *big.Rat, lo, hi int, centres ...int) *big.Rat {
	checkAlpha(alpha)
	s := new(big.Rat)
	for _, c := range centres {
		s.Add(s, twoSidedTail(alpha, hi-c+1))
		s.Add(s, twoSidedTail(alpha, c-lo+1)) // Pr[Z ≤ −k] = Pr[Z ≥ k]
	}
	return s
}

// PartialTwoSided is the law of c + Z restricted to |Z| ≤ n: the PMF over
// c−n..c+n of the points (1−α)/(1+α)·α^|z|, of total mass
// 1 − 2α^(n+1)/(1+α) (a sub-probability: the rest is omitted).
func PartialTwoSided(alpha *big.Rat, centre, n int) PMF {
	checkAlpha(alpha)
	if n < 0 {
		panic(fmt.Sprintf("reference: partial sum bound %d < 0", n))
	}
	key := fmt.Sprintf("part|%s|%d|%d", alpha.RatString(), centre, n)
	return memoised(key, func() PMF {
		p := PMF{Lo: centre - n, P: make([]*big.Rat, 2*n+1)}
		for z := -n; z <= n; z++ {
			p.P[z+n] = twoSidedPoint(alpha, z)
		}
		return p
	})
}

// cumulative is a PMF with its prefix sums, for Pr[V < t] and Pr[V ≥ t]
// in constant time.
type cumulative struct {
	p     PMF
	pre   []*big.Rat // pre[i] = Σ_{j < i} p.P[j]
	total *big.Rat
}

func cumulate(p PMF) cumulative {
	c := cumulative{p: p, pre: make([]*big.Rat, len(p.P)+1)}
	c.pre[0] = new(big.Rat)
	for i, q := range p.P {
		c.pre[i+1] = new(big.Rat).Add(c.pre[i], q)
	}
	c.total = c.pre[len(p.P)]
	return c
}

// below is Σ_{v < t} p(v) (not to be modified).
func (c cumulative) below(t int) *big.Rat {
	return c.pre[min(max(t-c.p.Lo, 0), len(c.p.P))]
}

// atLeast is Σ_{v ≥ t} p(v).
func (c cumulative) atLeast(t int) *big.Rat {
	return new(big.Rat).Sub(c.total, c.below(t))
}

// Geometric mechanism.

// Output keys of GeometricExact for the tails.
const (
	BelowKey = "below"
	AboveKey = "above"
)

// GeometricClamped is the geometric mechanism on input a with every noisy
// value clamped to [lo, hi]: output clamp(a + Z, lo, hi), in decimal.
func GeometricClamped(alpha *big.Rat, a, lo, hi int) Dist {
	return PMFDist(TwoSidedGeometric(alpha, a, lo, hi))
}

// GeometricBounds is the geometric mechanism a + Z summed over |Z| ≤ n:
// outputs a−n..a+n in decimal, Tail = 2α^(n+1)/(1+α).
func GeometricBounds(alpha *big.Rat, a, n int) Bounds {
	return Bounds{S: PMFDist(PartialTwoSided(alpha, a, n)), Tail: TwoSidedTailMass(alpha, n)}
}

// GeometricExact is the untruncated geometric mechanism a + Z in closed
// form: the exact Pr[a + Z = o] for o in L..U (decimal keys), and the tails
// Pr[a + Z < L] (BelowKey) and Pr[a + Z > U] (AboveKey). It sums to 1.
func GeometricExact(alpha *big.Rat, a, L, U int) Dist {
	checkAlpha(alpha)
	checkRange(L, U)
	d := Dist{}
	for o := L; o <= U; o++ {
		d.add(strconv.Itoa(o), twoSidedPoint(alpha, o-a))
	}
	d.add(BelowKey, twoSidedTail(alpha, a-L+1)) // Pr[Z ≤ L−a−1] = Pr[Z ≥ a−L+1]
	d.add(AboveKey, twoSidedTail(alpha, U-a+1))
	return d
}

// Coarsen merges the decimal outputs of d outside L..U into BelowKey and
// AboveKey (keys that are not integers are kept).
func Coarsen(d Dist, L, U int) Dist {
	out := Dist{}
	for o, p := range d {
		v, err := strconv.Atoi(o)
		switch {
		case err != nil:
			out.add(o, p)
		case v < L:
			out.add(BelowKey, p)
		case v > U:
			out.add(AboveKey, p)
		default:
			out.add(o, p)
		}
	}
	return out
}

// Sparse vector.

// SVTAlg is a sparse-vector algorithm of Lyu, Su and Li, "Understanding the
// Sparse Vector Technique for Differential Privacy" (VLDB 2017), with c = 1
// (except Alg6, which has no cutoff), or the gap variant, in a discrete
// version: threshold noise ρ two-sided AlphaT-geometric, query noise ν_i
// two-sided AlphaQ-geometric, query i answered positively when
// a_i + ν_i ≥ T + ρ.
type SVTAlg struct {
	Name           string
	AlphaT, AlphaQ *big.Rat // AlphaQ nil: no query noise (Algorithm 5)
	T              int
	kind           svtKind
}

type svtKind int

const (
	svtTop   svtKind = iota // output the index of the first ⊤ ("0": none)
	svtValue                // output "i,v": the index and noisy answer of the first ⊤ ("0": none)
	svtGap                  // output "i,g": the index and gap a_i+ν_i−(T+ρ) of the first ⊤ ("0": none)
	svtAll                  // no cutoff: output "b1,…,bK", b_i = 1 for ⊤, 0 for ⊥
)

// Lyu1 is Algorithm 1 with ε = ln 16: ε1 = ε/2 for the threshold, noise
// Lap(Δ/ε1) → αT = e^(−ε1) = 1/4; ε2 = ε − ε1, query noise Lap(2cΔ/ε2) →
// αQ = e^(−ε2/2) = 1/2; T = 1. Output: the index of the ⊤, "0" for none
// (models/sparse_vector.dp).
func Lyu1() SVTAlg { return SVTAlg{"alg1", rat(1, 4), rat(1, 2), 1, svtTop} }

// Lyu3 is Algorithm 3 (Roth's lecture notes) with the noise of
// models/sparse_vector_alg3.dp: αT = 1/4, αQ = 1/2, T = 1 (the paper's
// Lap(cΔ/ε2) query noise would be αQ = 1/4; the model keeps Algorithm 1's).
// Output: "i,v" for a ⊤ at query i with noisy answer v, "0" for none (the
// model's top = 0, out = −5).
func Lyu3() SVTAlg { return SVTAlg{"alg3", rat(1, 4), rat(1, 2), 1, svtValue} }

// Lyu4 is Algorithm 4 (Lee and Clifton) with ε = ln 16: ε1 = ε/4 for the
// threshold, noise Lap(Δ/ε1) → αT = e^(−ln 2) = 1/2; ε2 = ε − ε1 = 3·ln 2,
// query noise Lap(Δ/ε2) → αQ = 1/8; T = 1, c = 1. Output as Lyu1.
func Lyu4() SVTAlg { return SVTAlg{"alg4", rat(1, 2), rat(1, 8), 1, svtTop} }

// Lyu5 is Algorithm 5 (Stoddard et al.) as models/sparse_vector_alg5.dp:
// αT = 1/4 (ε1 = ε/2 = ln 4), no query noise, T = 1, stopping at the first
// ⊤ as the model does (the paper's version has no cutoff). Output as Lyu1.
func Lyu5() SVTAlg { return SVTAlg{"alg5", rat(1, 4), nil, 1, svtTop} }

// Lyu6 is Algorithm 6 (Chen et al.) with ε = ln 16: ε1 = ε/2, threshold
// noise Lap(Δ/ε1) → αT = 1/4; ε2 = ε − ε1, query noise Lap(Δ/ε2) →
// αQ = 1/4; T = 1; no cutoff: every query is answered. Output: "b1,b2,b3",
// b_i = 1 for ⊤ and 0 for ⊥.
func Lyu6() SVTAlg { return SVTAlg{"alg6", rat(1, 4), rat(1, 4), 1, svtAll} }

// GapSVT is sparse vector with gap, noise as Algorithm 1 (αT = 1/4,
// αQ = 1/2, T = 1), c = 1: at the first query with a_i + ν_i ≥ T + ρ it
// outputs "i,g" with the gap g = a_i + ν_i − (T + ρ) ≥ 0 and stops; "0"
// when no query is above.
func GapSVT() SVTAlg { return SVTAlg{"gap", rat(1, 4), rat(1, 2), 1, svtGap} }

// Clamped is the exact output distribution on the answers with every noisy
// value (threshold and answers) clamped to [lo, hi], compared clamped, as
// geometric(α, c, lo, hi) in dpcheck's models. Without query noise the
// answers are compared as they are.
func (s SVTAlg) Clamped(lo, hi int, answers []int) Dist {
	thr := TwoSidedGeometric(s.AlphaT, s.T, lo, hi)
	qs := make([]PMF, len(answers))
	for i, a := range answers {
		if s.AlphaQ == nil {
			qs[i] = Point(a)
		} else {
			qs[i] = TwoSidedGeometric(s.AlphaQ, a, lo, hi)
		}
	}
	return s.run(thr, qs)
}

// Partial is the untruncated distribution on the answers as partial sums
// over the noise values |z| ≤ n, with Tail the sum of Pr[|Z| > n] over the
// threshold noise and every query noise.
func (s SVTAlg) Partial(n int, answers []int) Bounds {
	thr := PartialTwoSided(s.AlphaT, s.T, n)
	tail := TwoSidedTailMass(s.AlphaT, n)
	qs := make([]PMF, len(answers))
	for i, a := range answers {
		if s.AlphaQ == nil {
			qs[i] = Point(a)
			continue
		}
		qs[i] = PartialTwoSided(s.AlphaQ, a, n)
		tail.Add(tail, TwoSidedTailMass(s.AlphaQ, n))
	}
	return Bounds{S: s.run(thr, qs), Tail: tail}
}

// Escape is EscapeBound for the window [lo, hi]: the threshold's and every
// noisy answer's chance to leave it.
func (s SVTAlg) Escape(lo, hi int, answers []int) *big.Rat {
	e := EscapeBound(s.AlphaT, lo, hi, s.T)
	if s.AlphaQ != nil {
		e.Add(e, EscapeBound(s.AlphaQ, lo, hi, answers...))
	}
	return e
}

// run conditions on the noisy threshold t: given t, the noisy answers are
// independent, so query i is the first ⊤ with probability
// Π_{j<i} Pr[V_j < t] · Pr[V_i ≥ t] (and likewise per value of V_i). The
// laws may be sub-probabilities (partial sums): every product is then the
// probability of the output together with "the noises read lie in range".
func (s SVTAlg) run(thr PMF, laws []PMF) Dist {
	qs := make([]cumulative, len(laws))
	for i, q := range laws {
		qs[i] = cumulate(q)
	}
	out := Dist{}
	for ti, pt := range thr.P {
		t := thr.Lo + ti
		if pt.Sign() == 0 {
			continue
		}
		if s.kind == svtAll {
			bits := make([]string, len(qs))
			var walk func(i int, p *big.Rat)
			walk = func(i int, p *big.Rat) {
				if i == len(qs) {
					out.add(strings.Join(bits, ","), p)
					return
				}
				bits[i] = "1"
				walk(i+1, new(big.Rat).Mul(p, qs[i].atLeast(t)))
				bits[i] = "0"
				walk(i+1, new(big.Rat).Mul(p, qs[i].below(t)))
			}
			walk(0, pt)
			continue
		}
		alive := new(big.Rat).Set(pt) // Pr[ρ-value and queries 1..i−1 below]
		for i, q := range qs {
			switch s.kind {
			case svtTop:
				out.add(strconv.Itoa(i+1), new(big.Rat).Mul(alive, q.atLeast(t)))
			default:
				for j, pv := range q.p.P {
					v := q.p.Lo + j
					if v < t || pv.Sign() == 0 {
						continue
					}
					x := v // svtValue
					if s.kind == svtGap {
						x = v - t
					}
					out.add(fmt.Sprintf("%d,%d", i+1, x), new(big.Rat).Mul(alive, pv))
				}
			}
			alive.Mul(alive, q.below(t))
		}
		out.add("0", alive)
	}
	return out
}

// Report noisy max.

// NoisyMaxAlpha is the noise of models/noisy_max.dp and
// models/noisy_max_value.dp: 1/2-geometric (ε = ln 4 for three counting
// queries with Laplace scale 2/ε).
func NoisyMaxAlpha() *big.Rat { return rat(1, 2) }

// NoisyMaxClamped is report-noisy-max on the answers with every noisy
// answer clamped to [lo, hi]: the output is the 1-based index of the largest
// noisy answer, ties to the smallest index ("2"); with value set, also the
// largest noisy value ("2,4").
func NoisyMaxClamped(alpha *big.Rat, lo, hi int, answers []int, value bool) Dist {
	xs := make([]PMF, len(answers))
	for i, a := range answers {
		xs[i] = TwoSidedGeometric(alpha, a, lo, hi)
	}
	return noisyMaxOf(xs, value)
}

// NoisyMaxBounds is report-noisy-max on the answers summed over noise
// values |z| ≤ n; Tail = len(answers)·2α^(n+1)/(1+α).
func NoisyMaxBounds(alpha *big.Rat, n int, answers []int, value bool) Bounds {
	xs := make([]PMF, len(answers))
	tail := new(big.Rat)
	for i, a := range answers {
		xs[i] = PartialTwoSided(alpha, a, n)
		tail.Add(tail, TwoSidedTailMass(alpha, n))
	}
	return Bounds{S: noisyMaxOf(xs, value), Tail: tail}
}

// noisyMaxOf conditions on the maximum v: index i wins with value v when
// X_i = v, X_j < v for j < i and X_j ≤ v for j > i (ties to the smallest
// index); the answers are independent.
func noisyMaxOf(xs []PMF, value bool) Dist {
	if len(xs) == 0 {
		panic("reference: noisy max of no answers")
	}
	lo, hi := xs[0].Lo, xs[0].Hi()
	for _, x := range xs {
		lo, hi = min(lo, x.Lo), max(hi, x.Hi())
	}
	// cdf[j][v−lo] = Σ_{u ≤ v} X_j(u)
	cdf := make([][]*big.Rat, len(xs))
	for j, x := range xs {
		cdf[j] = make([]*big.Rat, hi-lo+1)
		s := new(big.Rat)
		for v := lo; v <= hi; v++ {
			s = new(big.Rat).Add(s, x.At(v))
			cdf[j][v-lo] = s
		}
	}
	le := func(j, v int) *big.Rat { // Pr[X_j ≤ v]
		if v < lo {
			return new(big.Rat)
		}
		return cdf[j][v-lo]
	}
	out := Dist{}
	for i, x := range xs {
		for k, p := range x.P {
			v := x.Lo + k
			if p.Sign() == 0 {
				continue
			}
			q := new(big.Rat).Set(p)
			for j := range xs {
				switch {
				case j < i:
					q.Mul(q, le(j, v-1))
				case j > i:
					q.Mul(q, le(j, v))
				}
			}
			o := strconv.Itoa(i + 1)
			if value {
				o += "," + strconv.Itoa(v)
			}
			out.add(o, q)
		}
	}
	return out
}

// TightRatioBounds bounds the tight e^ε at δ = 0 of an untruncated
// mechanism with the finite output set outputs, from partial sums of every
// input: the largest Pr_A(o)/Pr_B(o) over the ordered neighbouring pairs
// (both orders of every pair) and outputs lies in [lo, hi]. Each true ratio
// lies in [S_A(o)/(S_B(o) + Tail_B), (S_A(o) + Tail_A)/S_B(o)] (Bounds), so
// the maximum of the ratios lies between the maximum of the lower ends and
// the maximum of the upper ends. hi is nil (no bound) when some S_B(o) is 0.
// lo is a valid lower bound for any output set; hi needs every output the
// mechanism can produce to be in outputs.
func TightRatioBounds(bs map[string]Bounds, pairs []Pair, outputs []string) (lo, hi *big.Rat) {
	lo, hi = rat(1, 1), rat(1, 1)
	for _, p := range pairs {
		for _, ab := range [][2]string{{p.A, p.B}, {p.B, p.A}} {
			a, b := bs[ab[0]], bs[ab[1]]
			for _, o := range outputs {
				la, ha := a.Interval(o)
				lb, hb := b.Interval(o)
				if l := new(big.Rat).Quo(la, hb); l.Cmp(lo) > 0 {
					lo = l
				}
				if hi == nil {
					continue
				}
				if lb.Sign() == 0 {
					hi = nil
					continue
				}
				if h := ha.Quo(ha, lb); h.Cmp(hi) > 0 {
					hi = h
				}
			}
		}
	}
	return lo, hi
}
