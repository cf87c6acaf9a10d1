package mdp

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/verify"
)

// TestRewardsAgainstPolicies compares Rmin and Rmax on random MDPs with
// every deterministic policy: for F a, the memoryless ones (which attain
// both extremes), each policy's chain solved by the Markov-chain checker;
// for C<=k and I=k, the policies that pick a row per state and step,
// each followed forward from every state.
func TestRewardsAgainstPolicies(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	ctx := context.Background()
	compared, refused := 0, 0
	for trial := 0; trial < 120; trial++ {
		n := 3 + rng.IntN(2) // randomMDP needs n ≥ 3
		m := randomMDP(t, rng, n)
		// The reference's rows, from the choices themselves: every choice,
		// a self-loop's too; a state without a choice stays.
		sc := &sched{m: m, rows: make([][]row, n)}
		for s := range n {
			for _, c := range m.Choices[s] {
				sc.rows[s] = append(sc.rows[s], row{to: c.To, p: c.P})
			}
			if len(m.Choices[s]) == 0 {
				sc.rows[s] = []row{{to: []int{s}, p: []*big.Rat{big.NewRat(1, 1)}}}
			}
		}
		r := Reward{State: make([]*big.Rat, n), Choice: make([][]*big.Rat, n)}
		for s := range n {
			r.State[s] = big.NewRat(int64(rng.IntN(3)), 2)
			for range m.Choices[s] {
				r.Choice[s] = append(r.Choice[s], big.NewRat(int64(rng.IntN(3)), 1))
			}
		}
		rowReward := func(s, ri int) *big.Rat {
			x := new(big.Rat).Set(r.State[s])
			if len(m.Choices[s]) > 0 {
				x.Add(x, r.Choice[s][ri])
			}
			return x
		}
		// Every memoryless policy, as an index into each state's rows.
		var policies [][]int
		pol := make([]int, n)
		for {
			policies = append(policies, append([]int(nil), pol...))
			i := 0
			for ; i < n; i++ {
				if pol[i]+1 < len(sc.rows[i]) {
					pol[i]++
					break
				}
				pol[i] = 0
			}
			if i == n {
				break
			}
		}
		for _, path := range []verify.RewardPath{{Op: verify.RewardReach, Target: verify.Label("a")}, {Op: verify.RewardTotal}} {
			for _, max := range []bool{false, true} {
				what := fmt.Sprintf("trial %d: R%s[%s]", trial, map[bool]string{false: "min", true: "max"}[max], path)
				got, err := m.Rewards(ctx, r, path, max)
				if errors.Is(err, ErrRewardUnsupported) && !max && path.Op == verify.RewardReach {
					refused++
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				want := make([]*big.Rat, n)
				for i, p := range policies {
					v := policyReward(t, m, sc, p, rowReward, path)
					for s := range n {
						switch {
						case i == 0:
							want[s] = v[s]
						case max && (want[s] == nil || v[s] == nil):
							want[s] = nil
						case max && v[s].Cmp(want[s]) > 0, !max && v[s] != nil && (want[s] == nil || v[s].Cmp(want[s]) < 0):
							want[s] = v[s]
						}
					}
				}
				for s := range n {
					if show(got[s]) != show(want[s]) {
						t.Fatalf("%s at s%d: %s, the best memoryless policy gives %s", what, s, show(got[s]), show(want[s]))
					}
					compared++
				}
			}
		}
		// Bounded: every policy per state and step, for k ≤ 2 (k ≤ 1
		// when there are many policies).
		for k := range 3 {
			if k == 2 && len(policies) > 16 {
				break
			}
			for _, op := range []verify.RewardOp{verify.RewardCumulative, verify.RewardInstant} {
				for _, max := range []bool{false, true} {
					got, err := m.Rewards(ctx, r, verify.RewardPath{Op: op, K: k}, max)
					if err != nil {
						t.Fatal(err)
					}
					for s := range n {
						var best *big.Rat
						var walk func(step int, dist []*big.Rat, acc *big.Rat)
						walk = func(step int, dist []*big.Rat, acc *big.Rat) {
							if step == k {
								x := new(big.Rat).Set(acc)
								if op == verify.RewardInstant {
									for u, q := range dist {
										x.Add(x, new(big.Rat).Mul(q, r.State[u]))
									}
								}
								if best == nil || max && x.Cmp(best) > 0 || !max && x.Cmp(best) < 0 {
									best = x
								}
								return
							}
							for _, p := range policies {
								next := make([]*big.Rat, n)
								for u := range next {
									next[u] = new(big.Rat)
								}
								a := new(big.Rat).Set(acc)
								for u, q := range dist {
									if q.Sign() == 0 {
										continue
									}
									row := sc.rows[u][p[u]]
									if op == verify.RewardCumulative {
										a.Add(a, new(big.Rat).Mul(q, rowReward(u, p[u])))
									}
									for j, v := range row.to {
										next[v].Add(next[v], new(big.Rat).Mul(q, row.p[j]))
									}
								}
								walk(step+1, next, a)
							}
						}
						dist := make([]*big.Rat, n)
						for u := range dist {
							dist[u] = new(big.Rat)
						}
						dist[s].SetInt64(1)
						walk(0, dist, new(big.Rat))
						if got[s].Cmp(best) != 0 {
							t.Fatalf("trial %d: op %d k=%d max=%v at s%d: %s, the best policy gives %s", trial, op, k, max, s, got[s].RatString(), best.RatString())
						}
						compared++
					}
				}
			}
		}
	}
	if compared < 2000 || refused > 30 {
		t.Errorf("%d values compared, %d refused", compared, refused)
	}
}

// TestRewardOfSelfLoops: a state whose every choice loops back still
// earns each choice's reward (found by a reviewer: they were taken for an
// absorbing state's).
func TestRewardOfSelfLoops(t *testing.T) {
	x := newMDPBuilder("go", "tick", "tock")
	s0 := x.state("s0", nil)
	s1 := x.state("s1", nil)
	x.choose(s0, "go", s1, "1")
	x.choose(s1, "tick", s1, "1")
	x.choose(s1, "tock", s1, "1")
	m := x.build(t)
	r := Reward{State: []*big.Rat{nil, nil}, Choice: [][]*big.Rat{{big.NewRat(1, 1)}, {big.NewRat(5, 1), big.NewRat(2, 1)}}}
	for _, tc := range []struct {
		max  bool
		want string
	}{{true, "11"}, {false, "5"}} {
		v, err := m.Rewards(context.Background(), r, verify.RewardPath{Op: verify.RewardCumulative, K: 3}, tc.max)
		if err != nil {
			t.Fatal(err)
		}
		if v[s0].RatString() != tc.want {
			t.Errorf("max=%v: C<=3 from s0 is %s, want %s", tc.max, v[s0].RatString(), tc.want)
		}
	}
}

// policyReward is the expected reward along path under the memoryless
// policy p, by the Markov-chain checker (nil: +∞).
func policyReward(t *testing.T, m *MDP, sc *sched, p []int, rowReward func(s, ri int) *big.Rat, path verify.RewardPath) []*big.Rat {
	t.Helper()
	n := m.NumStates()
	b := chain.NewBuilder()
	for s := range n {
		b.AddState(fmt.Sprintf("s%d", s), nil, m.Frame.Labels(s)...)
	}
	step := make([]*big.Rat, n)
	for s := range n {
		row := sc.rows[s][p[s]]
		b.AddRow(s, slices.Clone(row.to), slices.Clone(row.p))
		step[s] = rowReward(s, p[s])
	}
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	ch, err := verify.NewChecker(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	v, err := ch.Rewards(context.Background(), verify.Reward{State: step, Step: step}, path)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func show(x *big.Rat) string {
	if x == nil {
		return "∞"
	}
	return x.RatString()
}
