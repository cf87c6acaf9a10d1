package builder

import (
	"context"
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/poly"
)

// MaxWindow bounds the number of counts of the decision builders.
const MaxWindow = 100_000

// maxExponent bounds the thresholds k and m of the decisions, far beyond
// what the bits limit allows (α^(2^40) has 2^40 bits or more), so that
// their distances to the counts never overflow.
const maxExponent = 1 << 40

// decision builds a yes/no decision over counts N in {lo..hi} (see
// decisionRows). The caller has checked the window with checkWindow. It
// stops with ctx's error when ctx ends.
func decision(ctx context.Context, lo, hi int, note string, yes func(n int) *big.Rat) (*model.Mechanism, error) {
	return rats(ctx, note, func(s Sink[*big.Rat]) ([][2]int, error) {
		return decisionRows(ctx, exact.Rats{}, lo, hi, yes, s)
	})
}

// decisionRows writes a yes/no decision over counts N in {lo..hi} into s:
// inputs "n<N>" (N, label in), outputs "yes" (q=1, label yes) and "no"
// (q=0, label no); neighbours N and N+1. yes(N) is Pr[Q(N) = 1].
func decisionRows[T any](ctx context.Context, F exact.Field[T], lo, hi int, yes func(n int) T, s Sink[T]) ([][2]int, error) {
	o := &ops[T]{F: F}
	y := s.AddState("yes", chain.Valuation{{Name: "q", Value: 1}}, "yes")
	n := s.AddState("no", chain.Valuation{{Name: "q", Value: 0}}, "no")
	var in []int
	for N := lo; N <= hi && o.err == nil; N++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		st := s.AddState(fmt.Sprintf("n%d", N), chain.Valuation{{Name: "N", Value: int64(N)}}, "in")
		s.MarkInput(st)
		in = append(in, st)
		p := yes(N)
		s.AddTransition(st, y, p)
		s.AddTransition(st, n, o.sub(o.one(), p))
	}
	var pairs [][2]int
	for i := 1; i < len(in); i++ {
		pairs = append(pairs, [2]int{in[i-1], in[i]})
	}
	return pairs, o.err
}

// checkWindow checks the counts lo..hi of a decision.
func checkWindow(name string, lo, hi int) error {
	return firstError(checkRange(name, "lo", lo, -MaxWindow, MaxWindow), checkRange(name, "hi", hi, lo+1, lo+MaxWindow))
}

// powers returns α^from..α^to (p[i] = α^(from+i)), shared. α^from is one
// exponentiation (ops.pow), so a large from costs the bits of the result,
// not from multiplications. It stops with ctx's error when ctx ends.
func powers[T any](ctx context.Context, F exact.Field[T], alpha T, from, to int) ([]T, error) {
	if to < from {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	o := &ops[T]{F: F}
	p := make([]T, to-from+1)
	p[0] = o.pow(alpha, from)
	for i := 1; i < len(p) && o.err == nil; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p[i] = o.mul(p[i-1], alpha)
	}
	return p, o.err
}

// ratPow returns x^j for j >= 0, as a new value (one when j = 0): the
// powers of a coprime numerator and denominator are coprime, so no gcd.
func ratPow(x *big.Rat, j int) *big.Rat {
	if j == 0 {
		return one
	}
	e := big.NewInt(int64(j))
	num := new(big.Int).Exp(x.Num(), e, nil)
	den := new(big.Int).Exp(x.Denom(), e, nil)
	if den.Cmp(big.NewInt(1)) == 0 {
		return new(big.Rat).SetInt(num)
	}
	z := new(big.Rat).SetFrac64(1, 2) // initialised, non-integer: Num and Denom are references
	z.Num().Set(num)
	z.Denom().Set(den)
	return z
}

// LaplaceDecision is Implementation of Stochastic Decision, §4: Q(N) = [N + Lap(1/ε) >= k] with
// α = e^(-ε), so Pr[Q(N) = 1] = α^(k-N)/2 for N < k and 1 - α^(N-k)/2 for
// N >= k, over counts N in {lo..hi}. It is exactly ε-DP.
func LaplaceDecision(alpha *big.Rat, k, lo, hi int) (*model.Mechanism, error) {
	return laplaceDecision(context.Background(), alpha, k, lo, hi)
}

func laplaceDecision(ctx context.Context, alpha *big.Rat, k, lo, hi int) (*model.Mechanism, error) {
	const name = "laplace_decision"
	if err := firstError(
		checkUnit(name, "alpha", alpha, true),
		checkWindow(name, lo, hi),
		checkRange(name, "k", k, -maxExponent, maxExponent),
	); err != nil {
		return nil, err
	}
	// The exponents |k-N| for N in lo..hi: from the distance of k to the
	// window up to that of the farther end.
	from := max(0, lo-k, k-hi)
	pw, err := powers(ctx, exact.Rats{}, alpha, from, max(k-lo, hi-k))
	if err != nil {
		return nil, err
	}
	half := rat(1, 2)
	return decision(ctx, lo, hi, fmt.Sprintf("Laplace-noise decision N + Lap(1/ε) >= %d, α = e^-ε = %s", k, alpha.RatString()),
		func(N int) *big.Rat {
			if N < k {
				return mul(half, pw[k-N-from])
			}
			return exact.OneMinus(mul(half, pw[N-k-from]))
		})
}

// CutoffDecision is Implementation of Stochastic Decision, §5: Pr[Q(N) = 1] = α^(m-N) for N <= m and 1
// above, over counts N in {lo..hi}. The notes claim (ε, 1 - e^(-ε))-DP with
// that δ the least possible.
func CutoffDecision(alpha *big.Rat, m, lo, hi int) (*model.Mechanism, error) {
	return cutoffDecision(context.Background(), alpha, m, lo, hi)
}

func cutoffDecision(ctx context.Context, alpha *big.Rat, m, lo, hi int) (*model.Mechanism, error) {
	const name = "cutoff_decision"
	if err := firstError(
		checkUnit(name, "alpha", alpha, true),
		checkWindow(name, lo, hi),
		checkRange(name, "m", m, -maxExponent, maxExponent),
	); err != nil {
		return nil, err
	}
	note := fmt.Sprintf("cutoff exponential decision at m = %d, α = e^-ε = %s", m, alpha.RatString())
	return rats(ctx, note, func(s Sink[*big.Rat]) ([][2]int, error) {
		return cutoffRows(ctx, exact.Rats{}, alpha, m, lo, hi, s)
	})
}

// cutoffRows writes CutoffDecision into s and returns its neighbours.
func cutoffRows[T any](ctx context.Context, F exact.Field[T], alpha T, m, lo, hi int, s Sink[T]) ([][2]int, error) {
	// The exponents m-N for N in lo..min(hi, m-1).
	from := max(1, m-hi)
	pw, err := powers(ctx, F, alpha, from, m-lo)
	if err != nil {
		return nil, err
	}
	one := F.Const(one)
	return decisionRows(ctx, F, lo, hi, func(N int) T {
		if N >= m {
			return one
		}
		return pw[m-N-from]
	}, s)
}

// paramCutoff is cutoff_decision for every value of its alpha.
func paramCutoff(ctx context.Context, a *Args, p Parametric) (*Table[poly.RatFunc], error) {
	m, lo, hi := a.Int("m"), a.Int("lo"), a.Int("hi")
	if hi <= lo || hi-lo > maxParamRange || m-lo > maxParamRange {
		return nil, fmt.Errorf("cutoff decision: counts %d..%d with m = %d: need lo < hi, hi − lo ≤ %d and m − lo ≤ %d", lo, hi, m, maxParamRange, maxParamRange)
	}
	return p.table(func(s Sink[poly.RatFunc]) ([][2]int, error) {
		return cutoffRows(ctx, p.Field, p.Field.X(), m, lo, hi, s)
	})
}

// GeneralizedDecision is Implementation of Stochastic Decision, §6, the decision that spends δ: with
// α = e^(-ε), Pr[Q(m) = 1] = p0 = (1 + αδ)/(1 + α) (the root of the seed's
// g(p), eq. 6.10), and going outwards each step takes the least value the
// DP constraints allow: f(N-1) = max(0, (f(N) - δ)·α) below m (6.11) and
// f(N+1) = min(1, 1 - α·(1 - δ - f(N))) above (6.12). Counts N in
// {lo..hi}.
func GeneralizedDecision(alpha, delta *big.Rat, m, lo, hi int) (*model.Mechanism, error) {
	return generalizedDecision(context.Background(), alpha, delta, m, lo, hi)
}

func generalizedDecision(ctx context.Context, alpha, delta *big.Rat, m, lo, hi int) (*model.Mechanism, error) {
	const name = "generalized_decision"
	if err := firstError(
		checkUnit(name, "alpha", alpha, true),
		checkUnit(name, "delta", delta, false),
		checkWindow(name, lo, hi),
		checkRange(name, "m", m, lo, hi),
	); err != nil {
		return nil, err
	}
	f := map[int]*big.Rat{}
	f[m] = quo(add(one, mul(alpha, delta)), add(one, alpha))
	for N := m; N > lo; N-- {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		v := mul(sub(f[N], delta), alpha)
		if v.Sign() < 0 {
			v = new(big.Rat)
		}
		f[N-1] = v
	}
	oneMinusDelta := exact.OneMinus(delta)
	for N := m; N < hi; N++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		v := exact.OneMinus(mul(alpha, sub(oneMinusDelta, f[N])))
		if v.Cmp(one) > 0 {
			v = one
		}
		f[N+1] = v
	}
	return decision(ctx, lo, hi, fmt.Sprintf("generalized decision around m = %d, α = e^-ε = %s, δ = %s", m, alpha.RatString(), delta.RatString()),
		func(N int) *big.Rat { return f[N] })
}
