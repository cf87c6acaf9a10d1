package builder

import (
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
)

// MaxWindow bounds the number of counts of the decision builders.
const MaxWindow = 100_000

// decision builds a yes/no decision over counts N in {lo..hi}: inputs "n<N>"
// (N, label in), outputs "yes" (q=1, label yes) and "no" (q=0, label no);
// neighbours N and N+1. yes(N) is Pr[Q(N) = 1].
func decision(name string, lo, hi int, note string, yes func(n int) *big.Rat) (*Mechanism, error) {
	if err := checkRange(name, "hi", hi, lo+1, lo+MaxWindow); err != nil {
		return nil, err
	}
	b := chain.NewBuilder()
	y := b.AddState("yes", chain.Valuation{{Name: "q", Value: 1}}, "yes")
	n := b.AddState("no", chain.Valuation{{Name: "q", Value: 0}}, "no")
	var in []int
	for N := lo; N <= hi; N++ {
		s := b.AddState(fmt.Sprintf("n%d", N), chain.Valuation{{Name: "N", Value: int64(N)}}, "in")
		b.MarkInput(s)
		in = append(in, s)
		p := yes(N)
		b.AddTransition(s, y, p)
		b.AddTransition(s, n, chain.OneMinus(p))
	}
	c, err := b.Build()
	if err != nil {
		return nil, err
	}
	var pairs [][2]int
	for i := 1; i < len(in); i++ {
		pairs = append(pairs, [2]int{in[i-1], in[i]})
	}
	return &Mechanism{Chain: c, Neighbours: pairs, Note: note}, nil
}

// powers returns α^0..α^max, shared.
func powers(alpha *big.Rat, max int) []*big.Rat {
	p := make([]*big.Rat, max+1)
	p[0] = one
	for i := 1; i <= max; i++ {
		p[i] = mul(p[i-1], alpha)
	}
	return p
}

// LaplaceDecision is seed 000 §4: Q(N) = [N + Lap(1/ε) >= k] with
// α = e^(-ε), so Pr[Q(N) = 1] = α^(k-N)/2 for N < k and 1 - α^(N-k)/2 for
// N >= k, over counts N in {lo..hi}. It is exactly ε-DP.
func LaplaceDecision(alpha *big.Rat, k, lo, hi int) (*Mechanism, error) {
	const name = "laplace_decision"
	if err := checkUnit(name, "alpha", alpha, true); err != nil {
		return nil, err
	}
	if err := checkRange(name, "lo", lo, -MaxWindow, MaxWindow); err != nil {
		return nil, err
	}
	pw := powers(alpha, max(abs(k-lo), abs(hi-k)))
	half := rat(1, 2)
	return decision(name, lo, hi, fmt.Sprintf("Laplace-noise decision N + Lap(1/ε) >= %d, α = e^-ε = %s", k, alpha.RatString()),
		func(N int) *big.Rat {
			if N < k {
				return mul(half, pw[k-N])
			}
			return chain.OneMinus(mul(half, pw[N-k]))
		})
}

// CutoffDecision is seed 000 §5: Pr[Q(N) = 1] = α^(m-N) for N <= m and 1
// above, over counts N in {lo..hi}. The seed claims (ε, 1 - e^(-ε))-DP with
// that δ the least possible.
func CutoffDecision(alpha *big.Rat, m, lo, hi int) (*Mechanism, error) {
	const name = "cutoff_decision"
	if err := checkUnit(name, "alpha", alpha, true); err != nil {
		return nil, err
	}
	if err := checkRange(name, "lo", lo, -MaxWindow, MaxWindow); err != nil {
		return nil, err
	}
	pw := powers(alpha, max(0, m-lo))
	return decision(name, lo, hi, fmt.Sprintf("cutoff exponential decision at m = %d, α = e^-ε = %s", m, alpha.RatString()),
		func(N int) *big.Rat {
			if N >= m {
				return one
			}
			return pw[m-N]
		})
}

// GeneralizedDecision is seed 000 §6, the decision that spends δ: with
// α = e^(-ε), Pr[Q(m) = 1] = p0 = (1 + αδ)/(1 + α) (the root of the seed's
// g(p), eq. 6.10), and going outwards each step takes the least value the
// DP constraints allow: f(N-1) = max(0, (f(N) - δ)·α) below m (6.11) and
// f(N+1) = min(1, 1 - α·(1 - δ - f(N))) above (6.12). Counts N in
// {lo..hi}.
func GeneralizedDecision(alpha, delta *big.Rat, m, lo, hi int) (*Mechanism, error) {
	const name = "generalized_decision"
	if err := checkUnit(name, "alpha", alpha, true); err != nil {
		return nil, err
	}
	if err := checkUnit(name, "delta", delta, false); err != nil {
		return nil, err
	}
	if err := checkRange(name, "lo", lo, -MaxWindow, MaxWindow); err != nil {
		return nil, err
	}
	if err := checkRange(name, "m", m, lo, hi); err != nil {
		return nil, err
	}
	f := map[int]*big.Rat{}
	f[m] = quo(add(one, mul(alpha, delta)), add(one, alpha))
	for N := m; N > lo; N-- {
		v := mul(sub(f[N], delta), alpha)
		if v.Sign() < 0 {
			v = new(big.Rat)
		}
		f[N-1] = v
	}
	oneMinusDelta := chain.OneMinus(delta)
	for N := m; N < hi; N++ {
		v := chain.OneMinus(mul(alpha, sub(oneMinusDelta, f[N])))
		if v.Cmp(one) > 0 {
			v = one
		}
		f[N+1] = v
	}
	return decision(name, lo, hi, fmt.Sprintf("generalized decision around m = %d, α = e^-ε = %s, δ = %s", m, alpha.RatString(), delta.RatString()),
		func(N int) *big.Rat { return f[N] })
}
