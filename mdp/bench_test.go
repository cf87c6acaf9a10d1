package mdp

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"testing"
	"time"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/verify"
)

// truncGeom is the truncated α-geometric distribution over {0..n} around
// c: (1−α)/(1+α)·α^|x−c| inside, α^|x−c|/(1+α) at the ends 0 and n.
func truncGeom(alpha *big.Rat, n, c int) []*big.Rat {
	one := big.NewRat(1, 1)
	inner := new(big.Rat).Quo(new(big.Rat).Sub(one, alpha), new(big.Rat).Add(one, alpha))
	end := new(big.Rat).Inv(new(big.Rat).Add(one, alpha))
	p := make([]*big.Rat, n+1)
	for x := range p {
		d := x - c
		if d < 0 {
			d = -d
		}
		f := inner
		if x == 0 || x == n {
			f = end
		}
		p[x] = new(big.Rat).Mul(f, exact.Pow(alpha, int64(d)))
	}
	return p
}

// aboveThreshold is the paper's above-threshold MDP over {0..5}: inputs
// (role, t, r) for the dataset (role 0) and its neighbour (role 1);
// step 1 draws the noisy threshold T (1/4-geometric around t) and the
// first noisy answer (1/2-geometric around r) whatever the action: ⊤
// (absorbing, "top") when the answer is at least T, else ⊥ ("bot", T
// kept). At ⊥ the action "m n" sets the next query result to m (role 0)
// or n (role 1), and the noisy answer is drawn again.
func aboveThreshold(t testing.TB) (*MDP, [][2]int) {
	const n = 5
	var acts []string
	type mn struct{ m, n int }
	var eff []mn
	for m := 0; m <= n; m++ {
		for k := max(0, m-1); k <= min(n, m+1); k++ {
			acts = append(acts, fmt.Sprintf("%d %d", m, k))
			eff = append(eff, mn{m, k})
		}
	}
	x := newMDPBuilder(acts...)
	top := x.state("top", []string{"top"})
	var bot [2][n + 1]int
	for role := range 2 {
		for T := 0; T <= n; T++ {
			bot[role][T] = x.state(fmt.Sprintf("bot%d_%d", role, T), []string{"bot"}, "role", role, "T", T)
		}
	}
	quarter, half := big.NewRat(1, 4), big.NewRat(1, 2)
	// pTop[T][q]: probability that the answer around q is at least T.
	var pTop [n + 1][n + 1]*big.Rat
	for q := 0; q <= n; q++ {
		g := truncGeom(half, n, q)
		for T := 0; T <= n; T++ {
			s := new(big.Rat)
			for r := T; r <= n; r++ {
				s.Add(s, g[r])
			}
			pTop[T][q] = s
		}
	}
	// Rows shared by the states and actions that draw the same way.
	var botRow [2][n + 1][n + 1]Choice
	for role := range 2 {
		for T := 0; T <= n; T++ {
			for q := 0; q <= n; q++ {
				c := Choice{To: []int{top}, P: []*big.Rat{pTop[T][q]}}
				if T > 0 {
					c.To = append(c.To, bot[role][T])
					c.P = append(c.P, new(big.Rat).Sub(ratOne, pTop[T][q]))
				}
				if pTop[T][q].Sign() == 0 {
					c = Choice{To: []int{bot[role][T]}, P: []*big.Rat{ratOne}}
				}
				botRow[role][T][q] = c
			}
		}
	}
	for role := range 2 {
		for T := 0; T <= n; T++ {
			for a, e := range eff {
				q := e.m
				if role == 1 {
					q = e.n
				}
				c := botRow[role][T][q]
				c.Action = a
				x.choices[bot[role][T]] = append(x.choices[bot[role][T]], c)
			}
		}
	}
	inputs := map[[3]int]int{}
	for role := range 2 {
		for th := 0; th <= n; th++ {
			gT := truncGeom(quarter, n, th)
			for r := 0; r <= n; r++ {
				s := x.state(fmt.Sprintf("in%d_%d_%d", role, th, r), nil, "role", role, "t", th, "r", r)
				inputs[[3]int{role, th, r}] = s
				c := Choice{P: nil}
				pt := new(big.Rat)
				for T := 0; T <= n; T++ {
					pt.Add(pt, new(big.Rat).Mul(gT[T], pTop[T][r]))
					if T > 0 {
						c.To = append(c.To, bot[role][T])
						c.P = append(c.P, new(big.Rat).Mul(gT[T], new(big.Rat).Sub(ratOne, pTop[T][r])))
					}
				}
				c.To = append(c.To, top)
				c.P = append(c.P, pt)
				for a := range acts {
					cc := c
					cc.Action = a
					x.choices[s] = append(x.choices[s], cc)
				}
			}
		}
	}
	return x.build(t), [][2]int{{inputs[[3]int{0, 3, 5}], inputs[[3]int{1, 3, 4}]}}
}

func TestAboveThresholdModel(t *testing.T) {
	m, pairs := aboveThreshold(t)
	if m.NumStates() != 1+12+72 || len(m.Actions) != 16 {
		t.Fatalf("%d states, %d actions", m.NumStates(), len(m.Actions))
	}
	// One step: Pr(⊤) from (0, 3, 5) is Σ_T P(T)·P(answer ≥ T | 5).
	ctx := context.Background()
	top1 := verify.Next(1, verify.Label("top"))
	lo, err := m.Prob(ctx, top1, false)
	if err != nil {
		t.Fatal(err)
	}
	gT := truncGeom(big.NewRat(1, 4), 5, 3)
	g := truncGeom(big.NewRat(1, 2), 5, 5)
	want := new(big.Rat)
	for T := range 6 {
		for r := T; r <= 5; r++ {
			want.Add(want, new(big.Rat).Mul(gT[T], g[r]))
		}
	}
	wantRat(t, "Pr(X top)", lo[pairs[0][0]], want.RatString())
}

// psiAt is X^(h−1) bot & X^h top: the first ⊤ comes at query h.
func psiAt(h int) *verify.Formula {
	return verify.And(verify.Next(h-1, verify.Label("bot")), verify.Next(h, verify.Label("top")))
}

func benchSearch(b *testing.B, run func() (*Result, error)) {
	var last *Result
	for b.Loop() {
		start := time.Now()
		r, err := run()
		var le *LimitError
		if errors.As(err, &le) {
			b.Skipf("after %v: %v", time.Since(start).Round(time.Millisecond), err)
		}
		if err != nil {
			b.Fatal(err)
		}
		last = r
	}
	b.ReportMetric(float64(last.Explored), "explored")
	b.ReportMetric(float64(last.Pruned), "pruned")
	b.ReportMetric(float64(last.Transposed), "transposed")
	b.ReportMetric(float64(last.Weighed), "weighed")
}

// benchOptions stops the trace searches from horizon 12 after a million
// prefixes (at horizon 8 they explore 0.27 million; D explores 19
// thousand at horizon 12).
func benchOptions(traces bool, h int) Options {
	if traces && h >= 12 {
		return Options{MaxSequences: 1_000_000}
	}
	return Options{}
}

func BenchmarkAboveThresholdD(b *testing.B) {
	m, pairs := aboveThreshold(b)
	eps, _ := exact.Ln(big.NewRat(2, 1))
	for _, h := range []int{4, 6, 8, 12} {
		b.Run(fmt.Sprintf("h=%d", h), func(b *testing.B) {
			benchSearch(b, func() (*Result, error) {
				return TightDeltaD(context.Background(), m, pairs, psiAt(h), eps, benchOptions(false, h))
			})
		})
	}
}

func BenchmarkAboveThresholdTraces(b *testing.B) {
	m, pairs := aboveThreshold(b)
	eps, _ := exact.Ln(big.NewRat(2, 1))
	for _, h := range []int{4, 6, 8, 12} {
		b.Run(fmt.Sprintf("h=%d", h), func(b *testing.B) {
			benchSearch(b, func() (*Result, error) {
				return TightDelta(context.Background(), m, pairs, verify.Traces(h, "top", "bot"), eps, benchOptions(true, h))
			})
		})
	}
}

// randomWalk has states 0..n−1; 0 and n−1 ("goal") are absorbing. At the
// others, a moves ±1 with 1/2 each, and b stays w.p. 1/2 and moves ±1
// with 1/4 each: both are fair, so every scheduler reaches goal from i
// with probability i/(n−1).
func randomWalk(t testing.TB, n int) *MDP {
	x := newMDPBuilder("a", "b")
	for i := range n {
		var ls []string
		if i == n-1 {
			ls = []string{"goal"}
		}
		x.state(fmt.Sprintf("w%d", i), ls)
	}
	h, q := big.NewRat(1, 2), big.NewRat(1, 4)
	for i := 1; i < n-1; i++ {
		x.choices[i] = []Choice{
			{Action: 0, To: []int{i - 1, i + 1}, P: []*big.Rat{h, h}},
			{Action: 1, To: []int{i - 1, i, i + 1}, P: []*big.Rat{q, h, q}},
		}
	}
	return x.build(t)
}

func TestRandomWalk(t *testing.T) {
	const n = 101
	m := randomWalk(t, n)
	for _, max := range []bool{false, true} {
		v, err := m.Prob(context.Background(), fGoal, max)
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			wantRat(t, fmt.Sprintf("P(F goal) at %d (max %v)", i, max), v[i], fmt.Sprintf("%d/%d", i, n-1))
		}
	}
}

func BenchmarkRandomWalkProb(b *testing.B) {
	const n = 100_000
	m := randomWalk(b, n)
	for _, max := range []bool{false, true} {
		b.Run(fmt.Sprintf("max=%v", max), func(b *testing.B) {
			for b.Loop() {
				v, err := m.Prob(context.Background(), fGoal, max)
				if err != nil {
					b.Fatal(err)
				}
				if v[n/2].Cmp(big.NewRat(int64(n/2), n-1)) != 0 {
					b.Fatalf("P at %d = %v", n/2, v[n/2])
				}
			}
		})
	}
}
