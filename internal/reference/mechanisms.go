package reference

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// Top and Bottom are the answers of the sparse-vector algorithms.
const (
	Top    = "⊤"
	Bottom = "⊥"
)

// VectorKey is the key of an input vector: its entries joined by commas,
// "0,1,2".
func VectorKey(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

// Vectors is every vector of length k with entries in {lo..hi}, in
// lexicographic order.
func Vectors(k, lo, hi int) [][]int {
	out := [][]int{{}}
	for range k {
		var next [][]int
		for _, v := range out {
			for x := lo; x <= hi; x++ {
				next = append(next, append(append([]int(nil), v...), x))
			}
		}
		out = next
	}
	return out
}

// LInfNeighbours relates two different vectors when |v_i − w_i| ≤ d for
// every i; each unordered pair once, in the order of vs.
func LInfNeighbours(vs [][]int, d int) []Pair {
	var out []Pair
	for i, v := range vs {
		for _, w := range vs[i+1:] {
			ok := len(v) == len(w)
			for j := 0; ok && j < len(v); j++ {
				ok = abs(v[j]-w[j]) <= d
			}
			if ok {
				out = append(out, Pair{VectorKey(v), VectorKey(w)})
			}
		}
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// vectorModel applies f to every vector of Vectors(k, lo, hi), with the
// neighbours of LInfNeighbours(·, 1).
func vectorModel(k, lo, hi int, f func([]int) Dist) Model {
	vs := Vectors(k, lo, hi)
	m := Model{Dist: map[string]Dist{}, Pairs: LInfNeighbours(vs, 1)}
	for _, v := range vs {
		key := VectorKey(v)
		m.Inputs = append(m.Inputs, key)
		m.Dist[key] = f(v)
	}
	return m
}

// SVTParams are the parameters of the sparse-vector algorithms: the public
// threshold T, its noise αT, the query noise αQ, and the clamp range
// [Lo, Hi] of every noisy value.
type SVTParams struct {
	AlphaT, AlphaQ *big.Rat
	T              int
	Lo, Hi         int
}

// SVTVariant is an algorithm of Lyu, Su and Li, "Understanding the Sparse
// Vector Technique for Differential Privacy" (VLDB 2017).
type SVTVariant int

// The variants, numbered as in the paper.
const (
	SVTAlg1 SVTVariant = 1 // noisy threshold, noisy queries, outputs ⊤/⊥
	SVTAlg3 SVTVariant = 3 // as Alg 1 but a positive answer outputs the noisy value
	SVTAlg5 SVTVariant = 5 // noisy threshold, queries without noise
)

// SparseVector is the exact output distribution of a sparse-vector algorithm
// with c = 1 on the answers a_1..a_K: T' = clamp(T + ρ, Lo, Hi), ρ two-sided
// αT-geometric; for i = 1..K, a'_i = clamp(a_i + ν_i, Lo, Hi) with ν_i a
// fresh two-sided αQ-geometric (ν_i = 0 for Alg 5); if a'_i ≥ T' the
// algorithm answers ⊤ (Alg 1, 5) or the value a'_i (Alg 3, in decimal) and
// stops, else it answers ⊥ and continues. The output is the string of
// answers: "⊥⊥⊤", "⊥⊥3", or "⊥⊥⊥" when no answer is positive.
func SparseVector(v SVTVariant, p SVTParams, answers []int) Dist {
	var query func(a int) PMF
	switch v {
	case SVTAlg1, SVTAlg3:
		query = func(a int) PMF { return TwoSidedGeometric(p.AlphaQ, a, p.Lo, p.Hi) }
	case SVTAlg5:
		query = func(a int) PMF { return Point(clamp(a, p.Lo, p.Hi)) }
	default:
		panic(fmt.Sprintf("reference: unknown sparse-vector variant %d", v))
	}
	out := Dist{}
	thr := TwoSidedGeometric(p.AlphaT, p.T, p.Lo, p.Hi)
	for i, pt := range thr.P {
		t := thr.Lo + i
		if pt.Sign() == 0 {
			continue
		}
		alive := new(big.Rat).Set(pt) // Pr(T' = t and every answer so far ⊥)
		prefix := ""
		for _, a := range answers {
			q := query(a)
			bottom := new(big.Rat)
			for j, pv := range q.P {
				val := q.Lo + j
				if val >= t {
					sym := Top
					if v == SVTAlg3 {
						sym = strconv.Itoa(val)
					}
					out.add(prefix+sym, new(big.Rat).Mul(alive, pv))
				} else {
					bottom.Add(bottom, pv)
				}
			}
			alive.Mul(alive, bottom)
			prefix += Bottom
			if alive.Sign() == 0 {
				break
			}
		}
		out.add(prefix, alive)
	}
	return out
}

// SparseVectorModel is SparseVector over every answer vector in
// {aLo..aHi}^k, neighbours differing by at most 1 in every answer.
func SparseVectorModel(v SVTVariant, p SVTParams, k, aLo, aHi int) Model {
	return vectorModel(k, aLo, aHi, func(a []int) Dist { return SparseVector(v, p, a) })
}

// NoisyMax is report-noisy-max: each answer a_i gets a fresh two-sided
// α-geometric noise, clamped to [lo, hi]; the output is the (1-based) index
// of the largest noisy answer, ties to the smallest index, written "i=2";
// with value set, the index and the largest noisy value, "i=2,v=4".
func NoisyMax(alpha *big.Rat, lo, hi int, answers []int, value bool) Dist {
	out := Dist{}
	var walk func(i, best, bestVal int, p *big.Rat)
	walk = func(i, best, bestVal int, p *big.Rat) {
		if i == len(answers) {
			o := fmt.Sprintf("i=%d", best+1)
			if value {
				o += fmt.Sprintf(",v=%d", bestVal)
			}
			out.add(o, p)
			return
		}
		q := TwoSidedGeometric(alpha, answers[i], lo, hi)
		for j, pv := range q.P {
			val := q.Lo + j
			b, bv := best, bestVal
			if i == 0 || val > bestVal {
				b, bv = i, val
			}
			walk(i+1, b, bv, new(big.Rat).Mul(p, pv))
		}
	}
	if len(answers) == 0 {
		panic("reference: noisy max of no answers")
	}
	walk(0, 0, 0, rat(1, 1))
	return out
}

// NoisyMaxModel is NoisyMax over every answer vector in {aLo..aHi}^m,
// neighbours differing by at most 1 in every answer.
func NoisyMaxModel(alpha *big.Rat, lo, hi, m, aLo, aHi int, value bool) Model {
	return vectorModel(m, aLo, aHi, func(a []int) Dist { return NoisyMax(alpha, lo, hi, a, value) })
}

// Histogram is the noisy histogram: every bin h_j gets a fresh two-sided
// α-geometric noise clamped to [0, n] (a truncated geometric); the output
// is the noisy bins joined by commas, "1,3".
func Histogram(alpha *big.Rat, n int, bins []int) Dist {
	out := Dist{}
	var walk func(i int, prefix []string, p *big.Rat)
	walk = func(i int, prefix []string, p *big.Rat) {
		if i == len(bins) {
			out.add(strings.Join(prefix, ","), p)
			return
		}
		q := TruncatedGeometric(alpha, n, bins[i])
		for j, pv := range q.P {
			walk(i+1, append(prefix, strconv.Itoa(q.Lo+j)), new(big.Rat).Mul(p, pv))
		}
	}
	walk(0, nil, rat(1, 1))
	return out
}

// HistogramModel is Histogram over every histogram in {0..n}^bins; two
// histograms are neighbours when exactly one bin differs, by 1.
func HistogramModel(alpha *big.Rat, n, bins int) Model {
	vs := Vectors(bins, 0, n)
	m := Model{Dist: map[string]Dist{}}
	for i, v := range vs {
		key := VectorKey(v)
		m.Inputs = append(m.Inputs, key)
		m.Dist[key] = Histogram(alpha, n, v)
		for _, w := range vs[i+1:] {
			diff := 0
			for j := range v {
				diff += abs(v[j] - w[j])
			}
			if diff == 1 {
				m.Pairs = append(m.Pairs, Pair{key, VectorKey(w)})
			}
		}
	}
	return m
}

// AboveThreshold is the online above-threshold model of Model Checking Differentially Private Properties on input
// (d, t): T' is the truncated αT-geometric over {0..n} centred at t; at each
// query i = 1..k the answer d gets a fresh truncated αQ-geometric noise over
// {0..n}, and the algorithm halts when the noisy answer is ≥ T'. Outputs
// "halt_<i>" and "never" (the names of dpcheck's builder).
func AboveThreshold(alphaT, alphaQ *big.Rat, n, k, d, t int) Dist {
	out := Dist{}
	thr := TruncatedGeometric(alphaT, n, t)
	q := TruncatedGeometric(alphaQ, n, d)
	for i, pt := range thr.P {
		T := thr.Lo + i
		alive := new(big.Rat).Set(pt)
		for step := 1; step <= k; step++ {
			below := new(big.Rat)
			for j, pv := range q.P {
				if q.Lo+j >= T {
					out.add(fmt.Sprintf("halt_%d", step), new(big.Rat).Mul(alive, pv))
				} else {
					below.Add(below, pv)
				}
			}
			alive.Mul(alive, below)
		}
		out.add("never", alive)
	}
	return out
}

// AboveThresholdKey is the key of input (d, t), "d<d>_t<t>" as in dpcheck's
// builder.
func AboveThresholdKey(d, t int) string { return fmt.Sprintf("d%d_t%d", d, t) }

// AboveThresholdModel is AboveThreshold over every (d, t) in {0..n}²,
// neighbours |d − d'| ≤ 1 with the same t.
func AboveThresholdModel(alphaT, alphaQ *big.Rat, n, k int) Model {
	m := Model{Dist: map[string]Dist{}}
	for d := 0; d <= n; d++ {
		for t := 0; t <= n; t++ {
			key := AboveThresholdKey(d, t)
			m.Inputs = append(m.Inputs, key)
			m.Dist[key] = AboveThreshold(alphaT, alphaQ, n, k, d, t)
			if d < n {
				m.Pairs = append(m.Pairs, Pair{key, AboveThresholdKey(d+1, t)})
			}
		}
	}
	return m
}

// TruncatedGeometricModel is the truncated α-geometric mechanism over
// {0..n}: inputs "0".."n", outputs "0".."n", neighbours |k − l| = 1.
func TruncatedGeometricModel(alpha *big.Rat, n int) Model {
	m := Model{Dist: map[string]Dist{}}
	for k := 0; k <= n; k++ {
		key := strconv.Itoa(k)
		m.Inputs = append(m.Inputs, key)
		m.Dist[key] = PMFDist(TruncatedGeometric(alpha, n, k))
		if k < n {
			m.Pairs = append(m.Pairs, Pair{key, strconv.Itoa(k + 1)})
		}
	}
	return m
}
