package builder

import (
	"math"
	"math/big"
)

// Estimates of the bits of the probabilities a builder puts in its chain,
// for Def.Bits: the bit length of each distinct probability's numerator
// plus that of its denominator, summed. They are closed forms, so a huge
// parameter costs nothing to estimate, and upper bounds, from two facts:
//
//   - for α = a/b in lowest terms, α^j = a^j/b^j has at most
//     j·log2(a·b) + 2 bits;
//   - a probability x in [0, 1] whose denominator is at most 2^d has at
//     most 2d + 2 bits, and so has 1 - x.
//
// They are within a few percent of the truth for the truncated geometric
// mechanism and the Laplace and cutoff decisions, within a factor of 3 for
// the others, except generalized_decision, whose probabilities are
// clamped to 0 and 1 away from m (a factor of 6 for the reference model);
// TestBitsEstimate checks both bounds.

// ratLogs holds log2 of a rational's numerator and denominator, rounded
// up a little.
type ratLogs struct{ num, den float64 }

func logsOf(x *big.Rat) ratLogs {
	if x == nil {
		return ratLogs{}
	}
	return ratLogs{log2(x.Num()), log2(x.Denom())}
}

// pow is the bits each further power of the rational adds: log2(a·b).
func (l ratLogs) pow() float64 { return l.num + l.den }

// log2 returns log2 |x| rounded up a little (0 for |x| <= 1).
func log2(x *big.Int) float64 {
	n := x.BitLen()
	if n <= 1 {
		return 0
	}
	shift := max(0, n-64)
	top := new(big.Int).Rsh(new(big.Int).Abs(x), uint(shift)).Uint64()
	l := math.Log2(float64(top))
	if shift > 0 {
		l = float64(shift) + math.Log2(float64(top)+1)
	}
	return l * (1 + 1e-12)
}

// tri is 0 + 1 + … + m (0 for m < 0).
func tri(m float64) float64 {
	if m < 0 {
		return 0
	}
	return m * (m + 1) / 2
}

// count is the number of integers in lo..hi.
func count(lo, hi float64) float64 { return max(0, hi-lo+1) }

// absSum is the sum of |N - k| over N in lo..hi.
func absSum(lo, hi, k float64) float64 {
	switch {
	case hi < lo:
		return 0
	case k <= lo:
		return tri(hi-k) - tri(lo-k-1)
	case k >= hi:
		return tri(k-lo) - tri(k-hi-1)
	}
	return tri(hi-k) + tri(k-lo)
}

// geometricTableBits bounds the table of the truncated α-geometric
// mechanism over {0..n}: α^j/(1+α) and (1-α)/(1+α)·α^j for j = 0..n, each
// of at most j·log2(ab) + 2·log2(b) + 3 bits.
func geometricTableBits(alpha *big.Rat, n float64) float64 {
	l := logsOf(alpha)
	n = max(n, 0)
	return 2 * (l.pow()*tri(n) + (n+1)*(2*l.den+3))
}

// thresholdSums returns, over d, T in {0..n}, the sum of |T-d| + 1 (the
// bound on the power j in Pr[the noisy answer for d is above T]) and the
// number of pairs.
func thresholdSums(n float64) (powers, pairs float64) {
	n = max(n, 0)
	return n*(n+1)*(n+2)/3 + (n+1)*(n+1), (n + 1) * (n + 1)
}

// answerOddsBits bounds up[d][T] and stay[d][T] of answerOdds: one is
// α^j/(1+α) and the other 1 minus it, with j <= |T-d| + 1, so the two have
// at most j·(log2(ab) + 2·log2(b)) + 7 bits.
func answerOddsBits(alphaQ *big.Rat, n float64) float64 {
	l := logsOf(alphaQ)
	powers, pairs := thresholdSums(n)
	return (l.pow()+2*l.den)*powers + 7*pairs
}

func aboveThresholdBits(a *Args) float64 {
	n := f(a.Int("n"))
	return geometricTableBits(a.Rat("alpha_t"), n) + answerOddsBits(a.Rat("alpha_q"), n)
}

// aboveThresholdLoopBits adds to the odds the products Pr[T | t]·up[d][T]
// and Pr[T | t]·stay[d][T] for every d, t, T, where Pr[T | t] has at most
// |t-T|·log2(ab) + 2·log2(b) + 3 bits.
func aboveThresholdLoopBits(a *Args) float64 {
	n := max(f(a.Int("n")), 0)
	lt := logsOf(a.Rat("alpha_t"))
	powers, pairs := thresholdSums(n)
	thr := lt.pow()*(powers-pairs) + pairs*(2*lt.den+3)
	return (n+2)*answerOddsBits(a.Rat("alpha_q"), n) + 2*(n+1)*thr + 2
}

// laplaceDecisionBits: for each count N, with j = |k-N|, α^j/2 (at most
// j·log2(ab) + 3 bits) and 1 - α^j/2 (at most 2j·log2(b) + 4).
func laplaceDecisionBits(a *Args) float64 {
	l := logsOf(a.Rat("alpha"))
	lo, hi := f(a.Int("lo")), f(a.Int("hi"))
	return (l.pow()+2*l.den)*absSum(lo, hi, f(a.Int("k"))) + 7*count(lo, hi)
}

// cutoffDecisionBits: for each count N < m, with j = m-N, α^j and 1 - α^j;
// 1 above.
func cutoffDecisionBits(a *Args) float64 {
	l := logsOf(a.Rat("alpha"))
	lo, hi, m := f(a.Int("lo")), f(a.Int("hi")), f(a.Int("m"))
	return (l.pow()+2*l.den)*absSum(lo, min(hi, m-1), m) + 4*count(lo, hi)
}

// generalizedDecisionBits: Pr[yes] at the count N = m ± i has a
// denominator dividing q·(a+b)·b^i for δ = p/q, α = a/b; it and 1 minus it
// have at most 4·(log2 q + (i+1)·log2 b + 1) + 4 bits.
func generalizedDecisionBits(a *Args) float64 {
	l := logsOf(a.Rat("alpha"))
	lq := logsOf(a.Rat("delta")).den
	lo, hi := f(a.Int("lo")), f(a.Int("hi"))
	return 4*l.den*(absSum(lo, hi, f(a.Int("m")))+count(lo, hi)) + (4*lq+8)*count(lo, hi)
}

// yarrowBits: (1-α)/(1+α), α/(1+α), 1-α, α and 1, shared by every state.
func yarrowBits(a *Args) float64 {
	l := logsOf(a.Rat("alpha"))
	return 4*l.den + 2*l.pow() + 12
}

// surveyBits: four probabilities with denominators dividing q1·q2.
func surveyBits(a *Args) float64 {
	return 4 * (2*(logsOf(a.Rat("theta1")).den+logsOf(a.Rat("theta2")).den) + 2)
}

// randomizedResponseBits: (1-θ)/k and θ + (1-θ)/k, denominators dividing
// q·k.
func randomizedResponseBits(a *Args) float64 {
	d := logsOf(a.Rat("theta1")).den + math.Log2(max(f(a.Int("k")), 1))*(1+1e-12)
	return 2 * (2*d + 2)
}

// streamingSumBits: p, 1-p and the 1 of the outputs' self-loops.
func streamingSumBits(a *Args) float64 {
	l := logsOf(a.Rat("p"))
	return l.pow() + 2*l.den + 6
}

// aboveThresholdMDPBits: the odds up[c][T] and stay[c][T]; the products
// Pr[T | t]·stay[r][T] of the inputs' choices (as in the loop); and for
// every (t, r) the probability of ⊤ at once, a sum whose denominator
// divides (a_t+b_t)·b_t^n·(a_q+b_q)·b_q^(n+1) for α_t = a_t/b_t and
// α_q = a_q/b_q.
func aboveThresholdMDPBits(a *Args) float64 {
	n := max(f(a.Int("n")), 0)
	lt, lq := logsOf(a.Rat("alpha_t")), logsOf(a.Rat("alpha_q"))
	powers, pairs := thresholdSums(n)
	thr := lt.pow()*(powers-pairs) + pairs*(2*lt.den+3)
	odds := answerOddsBits(a.Rat("alpha_q"), n)
	d := n*lt.den + lt.pow() + 1 + (n+1)*lq.den + lq.pow() + 1
	return (n+2)*odds + (n+1)*thr + (n+1)*(n+1)*(2*d+2) + 2
}
