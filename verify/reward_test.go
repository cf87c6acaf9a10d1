package verify_test

import (
	"context"
	"math/big"
	"math/rand"
	"testing"

	"github.com/dpcheck/dpcheck/verify"
)

// TestRewardsAgainstReference checks every reward operator on random
// chains with random rewards against an independent computation: bounded
// sums (C<=k, I=k) by pushing each state's distribution forward step by
// step (the checker recurses backward); F and C by dense Gauss–Jordan
// elimination with the states of infinite reward found from the
// reachability matrix and the probabilities of reaching the target; S
// by the stationary distributions of the recurrent classes and
// harmonicity elsewhere.
func TestRewardsAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	ctx := context.Background()
	infinite, finite := 0, 0
	for trial := range 80 {
		n := 2 + rng.Intn(6)
		c, p := randomChain(t, rng, n)
		r := verify.Reward{State: make([]*big.Rat, n), Step: make([]*big.Rat, n)}
		for s := range n {
			r.State[s] = big.NewRat(int64(rng.Intn(3)), int64(1+rng.Intn(2)))
			r.Step[s] = new(big.Rat).Add(r.State[s], big.NewRat(int64(rng.Intn(2)), 3))
		}
		m, err := verify.NewChecker(c, nil)
		if err != nil {
			t.Fatal(err)
		}
		get := func(p verify.RewardPath) []*big.Rat {
			v, err := m.Rewards(ctx, r, p)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		same := func(what string, s int, got, want *big.Rat) {
			t.Helper()
			switch {
			case got == nil && want == nil:
				infinite++
				return
			case got == nil || want == nil || got.Cmp(want) != 0:
				t.Fatalf("trial %d: %s at s%d is %s, want %s", trial, what, s, show(got), show(want))
			}
			finite++
		}
		// Bounded: forward distributions.
		for k := range 5 {
			cum, inst := get(verify.RewardPath{Op: verify.RewardCumulative, K: k}), get(verify.RewardPath{Op: verify.RewardInstant, K: k})
			for s := range n {
				dist := make([]*big.Rat, n)
				for u := range dist {
					dist[u] = new(big.Rat)
				}
				dist[s].SetInt64(1)
				sum := new(big.Rat)
				for range k {
					sum.Add(sum, dot(dist, r.Step))
					dist = step(p, dist)
				}
				same("C<=k", s, cum[s], sum)
				same("I=k", s, inst[s], dot(dist, r.State))
			}
		}
		reach := reachability(p)
		a := make([]bool, n)
		for s := range a {
			a[s] = c.HasLabel(s, "a")
		}
		// F a: infinite where Pr(F a) < 1.
		prA := reachProb(p, reach, a)
		unknown := make([]bool, n)
		for s := range n {
			unknown[s] = !a[s] && prA[s].Cmp(big.NewRat(1, 1)) == 0
		}
		want := rewardDense(p, r.Step, unknown)
		got := get(verify.RewardPath{Op: verify.RewardReach, Target: verify.Label("a")})
		for s := range n {
			if !a[s] && !unknown[s] {
				want[s] = nil
			}
			same("F a", s, got[s], want[s])
		}
		// C: infinite where a recurrent class that earns is reachable.
		recurrent, earns := recurrence(reach, r.Step)
		inf := make([]bool, n)
		for s := range n {
			for u := range n {
				if reach[s][u] && recurrent[u] && earns[u] {
					inf[s] = true
				}
			}
			unknown[s] = !inf[s] && !recurrent[s]
		}
		want = rewardDense(p, r.Step, unknown)
		got = get(verify.RewardPath{Op: verify.RewardTotal})
		for s := range n {
			if inf[s] {
				want[s] = nil
			}
			same("C", s, got[s], want[s])
		}
		// S: π·step on a recurrent class, harmonic everywhere.
		lr := get(verify.RewardPath{Op: verify.RewardLongRun})
		for s := range n {
			if recurrent[s] {
				var class []int
				for u := range n {
					if reach[s][u] {
						class = append(class, u)
					}
				}
				pi := stationaryDense(p, class)
				w := new(big.Rat)
				for i, u := range class {
					w.Add(w, new(big.Rat).Mul(pi[i], r.Step[u]))
				}
				same("S", s, lr[s], w)
			}
			same("S (harmonic)", s, lr[s], dot(p[s], lr))
		}
	}
	if infinite < 20 || finite < 1000 {
		t.Errorf("%d infinite and %d finite values compared: the random chains do not exercise both", infinite, finite)
	}
}

func show(x *big.Rat) string {
	if x == nil {
		return "∞"
	}
	return x.RatString()
}

func dot(a, b []*big.Rat) *big.Rat {
	x := new(big.Rat)
	for i := range a {
		x.Add(x, new(big.Rat).Mul(a[i], b[i]))
	}
	return x
}

// step pushes a distribution one step forward.
func step(p [][]*big.Rat, dist []*big.Rat) []*big.Rat {
	out := make([]*big.Rat, len(dist))
	for u := range out {
		out[u] = new(big.Rat)
	}
	for s, x := range dist {
		for u, q := range p[s] {
			out[u].Add(out[u], new(big.Rat).Mul(x, q))
		}
	}
	return out
}

// reachability returns reach[s][u]: u is reachable from s in zero or more
// steps.
func reachability(p [][]*big.Rat) [][]bool {
	n := len(p)
	reach := make([][]bool, n)
	for s := range n {
		reach[s] = make([]bool, n)
		reach[s][s] = true
		for changed := true; changed; {
			changed = false
			for u := range n {
				for v := range n {
					if reach[s][u] && p[u][v].Sign() > 0 && !reach[s][v] {
						reach[s][v], changed = true, true
					}
				}
			}
		}
	}
	return reach
}

// recurrence returns which states are recurrent (every state they reach
// reaches them back) and whether their class has a state with a positive
// reward.
func recurrence(reach [][]bool, w []*big.Rat) (recurrent, earns []bool) {
	n := len(reach)
	recurrent, earns = make([]bool, n), make([]bool, n)
	for s := range n {
		recurrent[s] = true
		for u := range n {
			if reach[s][u] && !reach[u][s] {
				recurrent[s] = false
			}
		}
	}
	for s := range n {
		for u := range n {
			if recurrent[s] && reach[s][u] && w[u].Sign() > 0 {
				earns[s] = true
			}
		}
	}
	return recurrent, earns
}

// reachProb returns Pr(F target) by a dense solve over the states that
// reach the target without being in it.
func reachProb(p [][]*big.Rat, reach [][]bool, target []bool) []*big.Rat {
	n := len(p)
	canReach := make([]bool, n)
	b := make([]*big.Rat, n)
	for s := range n {
		b[s] = new(big.Rat)
		for u := range n {
			if reach[s][u] && target[u] {
				canReach[s] = true
			}
			if target[u] {
				b[s].Add(b[s], p[s][u])
			}
		}
		canReach[s] = canReach[s] && !target[s]
	}
	x := solveOn(p, b, canReach)
	for s := range n {
		if target[s] {
			x[s] = big.NewRat(1, 1)
		}
	}
	return x
}

// rewardDense solves x = w + P·x on the unknown states, x = 0 elsewhere.
func rewardDense(p [][]*big.Rat, w []*big.Rat, unknown []bool) []*big.Rat {
	return solveOn(p, w, unknown)
}

// solveOn solves x(s) = b(s) + Σ_{t unknown} P(s,t)·x(t) for the unknown
// states by Gauss–Jordan elimination with pivot search; 0 elsewhere.
func solveOn(p [][]*big.Rat, b []*big.Rat, unknown []bool) []*big.Rat {
	var idx []int
	for s, u := range unknown {
		if u {
			idx = append(idx, s)
		}
	}
	k := len(idx)
	a := make([][]*big.Rat, k)
	for i, s := range idx {
		a[i] = make([]*big.Rat, k+1)
		for j, u := range idx {
			x := new(big.Rat).Neg(p[s][u])
			if i == j {
				x.Add(x, big.NewRat(1, 1))
			}
			a[i][j] = x
		}
		a[i][k] = new(big.Rat).Set(b[s])
	}
	for col := range k {
		piv := col
		for a[piv][col].Sign() == 0 {
			piv++
		}
		a[col], a[piv] = a[piv], a[col]
		inv := new(big.Rat).Inv(a[col][col])
		for j := col; j <= k; j++ {
			a[col][j] = new(big.Rat).Mul(a[col][j], inv)
		}
		for r := range k {
			if r == col || a[r][col].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Set(a[r][col])
			for j := col; j <= k; j++ {
				a[r][j] = new(big.Rat).Sub(a[r][j], new(big.Rat).Mul(f, a[col][j]))
			}
		}
	}
	x := make([]*big.Rat, len(p))
	for s := range x {
		x[s] = new(big.Rat)
	}
	for i, s := range idx {
		x[s] = a[i][k]
	}
	return x
}
