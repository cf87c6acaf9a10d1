package verify_test

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/verify"
)

// randomDAG is a chain whose transitions go to higher states only, the
// last ones absorbing: every path is a finite word followed by one state
// forever, on which LTL can be evaluated directly.
func randomDAG(t *testing.T, rng *rand.Rand, n int) *chain.Chain {
	t.Helper()
	b := chain.NewBuilder()
	for s := range n {
		b.AddState(fmt.Sprint(s), nil, randomLabels(rng)...)
	}
	for s := range n - 2 {
		next := rng.Perm(n - s - 1)
		k := min(1+rng.IntN(3), len(next))
		den := int64(k * (k + 1) / 2)
		for i := range k {
			b.AddTransition(s, s+1+next[i], big.NewRat(int64(i+1), den))
		}
	}
	b.MarkInput(0)
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// randomLabels is each of the labels a and b with probability 1/2.
func randomLabels(rng *rand.Rand) []string {
	var ls []string
	for _, l := range []string{"a", "b"} {
		if rng.IntN(2) == 0 {
			ls = append(ls, l)
		}
	}
	return ls
}

// randomLTL is a random path formula over the labels a and b.
func randomLTL(rng *rand.Rand, depth int) *verify.Formula {
	atoms := []*verify.Formula{verify.Label("a"), verify.Label("b"), verify.Not(verify.Label("a")), verify.True()}
	if depth == 0 {
		return atoms[rng.IntN(len(atoms))]
	}
	sub := func() *verify.Formula { return randomLTL(rng, depth-1) }
	bound := func() int {
		if rng.IntN(2) == 0 {
			return -1
		}
		return rng.IntN(3)
	}
	switch rng.IntN(8) {
	case 0:
		return verify.Not(sub())
	case 1:
		return verify.And(sub(), sub())
	case 2:
		return verify.Or(sub(), sub())
	case 3:
		return verify.Next(1+rng.IntN(2), sub())
	case 4:
		return verify.Until(sub(), sub(), bound())
	case 5:
		k := bound()
		lo := 0
		if k < 0 {
			lo = rng.IntN(3)
		} else {
			lo = rng.IntN(k + 1)
		}
		return verify.UntilFrom(sub(), sub(), lo, k)
	case 6:
		return verify.Eventually(sub(), bound())
	}
	return verify.Globally(sub(), bound())
}

// lassoEval evaluates f at position i of the word w[0] w[1] … w[m-1]
// w[m-1] … (the last letter forever), straight from LTL's semantics.
func lassoEval(c *chain.Chain, f *verify.Formula, w []int, i int) bool {
	return loopEval(c, f, w, len(w)-1, i)
}

// loopEval evaluates f at position i of the word w[:ls] (w[ls:])^ω.
func loopEval(c *chain.Chain, f *verify.Formula, w []int, ls, i int) bool {
	m := len(w)
	norm := func(j int) int {
		if j < m {
			return j
		}
		return ls + (j-ls)%(m-ls)
	}
	at := func(j int) int { return w[norm(j)] }
	lassoEval := func(c *chain.Chain, f *verify.Formula, w []int, j int) bool { return loopEval(c, f, w, ls, norm(j)) }
	switch f.Op {
	case verify.OpTrue:
		return true
	case verify.OpFalse:
		return false
	case verify.OpLabel:
		return c.HasLabel(at(i), f.Name)
	case verify.OpNot:
		return !lassoEval(c, f.Args[0], w, i)
	case verify.OpAnd:
		for _, g := range f.Args {
			if !lassoEval(c, g, w, i) {
				return false
			}
		}
		return true
	case verify.OpOr:
		for _, g := range f.Args {
			if lassoEval(c, g, w, i) {
				return true
			}
		}
		return false
	case verify.OpNext:
		return lassoEval(c, f.Args[0], w, i+f.K)
	case verify.OpUntil:
		// Positions repeat with the loop: looking m+lo positions beyond
		// i covers every distinct one.
		hi := i + f.Lo + m + 2
		if f.K >= 0 {
			hi = i + f.K
		}
		for j := i; j <= hi; j++ {
			if j >= i+f.Lo && lassoEval(c, f.Args[1], w, j) {
				return true
			}
			if !lassoEval(c, f.Args[0], w, j) {
				return false
			}
		}
		return false
	}
	panic("lassoEval: " + f.String())
}

// lassoProb is Pr_s(f) on a DAG chain by enumerating its paths.
func lassoProb(c *chain.Chain, f *verify.Formula, s int) *big.Rat {
	total := new(big.Rat)
	var walk func(w []int, p *big.Rat)
	walk = func(w []int, p *big.Rat) {
		last := w[len(w)-1]
		if c.IsAbsorbing(last) {
			if lassoEval(c, f, w, 0) {
				total.Add(total, p)
			}
			return
		}
		to, pr := c.Row(last)
		for i, t := range to {
			walk(append(w[:len(w):len(w)], t), new(big.Rat).Mul(p, pr[i]))
		}
	}
	walk([]int{s}, big.NewRat(1, 1))
	return total
}

// TestLTLAgainstPaths: the probability of random LTL formulas through the
// automaton and product equals the sum over every path of a DAG chain of
// the formula evaluated directly on it, and formulas neither co-safe nor
// safe are refused.
func TestLTLAgainstPaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 1))
	checked, refused, product := 0, 0, 0
	for range 60 {
		c := randomDAG(t, rng, 8)
		m, err := verify.NewChecker(c, nil)
		if err != nil {
			t.Fatal(err)
		}
		for range 10 {
			f := randomLTL(rng, 3)
			got, err := m.Prob(context.Background(), f)
			if errors.Is(err, verify.ErrFormula) {
				if bad, _ := verify.Unsupported(f); bad == nil {
					t.Errorf("%s: refused (%v) but Unsupported accepts it", f, err)
				}
				refused++
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if bad, why := verify.Unsupported(f); bad != nil {
				t.Errorf("%s: computed but Unsupported says %s", f, why)
			}
			viaProduct, err := m.LTLProb(context.Background(), f)
			if errors.Is(err, verify.ErrFormula) {
				viaProduct = got // neither co-safe nor safe, yet progression decides it
			} else if err != nil {
				t.Fatalf("%s through the product: %v", f, err)
			} else {
				product++
			}
			for s := range c.NumStates() {
				want := lassoProb(c, f, s)
				if got[s].Cmp(want) != 0 || viaProduct[s].Cmp(want) != 0 {
					t.Fatalf("Pr_%d(%s) = %s, through the product %s, want %s (by its paths)", s, f, got[s].RatString(), viaProduct[s].RatString(), want.RatString())
				}
			}
			checked++
		}
	}
	if checked < 400 || refused == 0 || product < 300 {
		t.Errorf("checked %d formulas (%d through the product) and refused %d: the generator should give all three", checked, product, refused)
	}
}

// TestLTLKnown: hand-computed values on the chain a ⇄ b with exits win and
// lose (a: b 1/2, win 1/4, lose 1/4; b: a, win, lose 1/3 each), where
// Pr_a(F win) = Pr_b(F win) = 1/2.
func TestLTLKnown(t *testing.T) {
	m, id := cycleWithExits(t)
	c := checker(t, m)
	win, lose := verify.Label("win"), verify.Label("lose")
	ctx := context.Background()
	for _, tc := range []struct {
		f    *verify.Formula
		a, b string
	}{
		// X lose ∧ F win is impossible: lose is absorbing.
		{verify.And(verify.Eventually(win, -1), verify.Next(1, lose)), "0", "0"},
		// F X win = X F win: from a, 1/2·Pr_b(F win) + 1/4.
		{verify.Eventually(verify.Next(1, win), -1), "1/2·1/2+1/4", "1/3·1/2+1/3"},
		// G ¬lose is a safe formula: 1 − Pr(F lose).
		{verify.Globally(verify.Not(lose), -1), "1/2", "1/2"},
		// G<=1 ¬win ∧ F win: not won by step 1, won later — from a through
		// b (1/2, then 1/2), from b through a (1/3, then 1/2).
		{verify.And(verify.Globally(verify.Not(win), 1), verify.Eventually(win, -1)), "1/2·1/2", "1/3·1/2"},
		// win within two steps and no lose on the way: a → win, a → b → win.
		{verify.And(verify.Eventually(win, 2), verify.Globally(verify.Not(lose), 2)), "1/4+1/2·1/3", "1/3+1/3·1/4"},
	} {
		got, err := c.Prob(ctx, tc.f)
		if err != nil {
			t.Fatalf("%s: %v", tc.f, err)
		}
		for _, w := range []struct {
			s    string
			want string
		}{{"a", tc.a}, {"b", tc.b}} {
			if want := evalRat(t, w.want); got[id[w.s]].Cmp(want) != 0 {
				t.Errorf("Pr_%s(%s) = %s, want %s", w.s, tc.f, got[id[w.s]].RatString(), want.RatString())
			}
		}
	}
	// G F win is neither co-safe nor safe: the chain is split on F win.
	// G F a holds where an absorbing a-state is reached: Pr(F win).
	gf, err := c.Prob(ctx, verify.Globally(verify.Eventually(win, -1), -1))
	if err != nil || gf[id["a"]].Cmp(r("1/2")) != 0 || gf[id["win"]].Cmp(r("1")) != 0 || gf[id["lose"]].Sign() != 0 {
		t.Errorf("G F win: %v, %v; want 1/2 from a, 1 from win, 0 from lose", gf, err)
	}
	// With a bounded operator inside, the split is refused.
	if _, err := c.Prob(ctx, verify.Globally(verify.Eventually(verify.Eventually(win, 1), -1), -1)); !errors.Is(err, verify.ErrFormula) || !strings.Contains(err.Error(), "bounded operator") {
		t.Errorf("G F F<=1 win: %v, want a refusal naming the bounded operator", err)
	}
}

// evalRat reads "p/q", "x·y" (product) and "x+y" (sum) of fractions.
func evalRat(t *testing.T, s string) *big.Rat {
	t.Helper()
	sum := new(big.Rat)
	for _, term := range strings.Split(s, "+") {
		prod := big.NewRat(1, 1)
		for _, f := range strings.Split(term, "·") {
			prod.Mul(prod, r(f))
		}
		sum.Add(sum, prod)
	}
	return sum
}

// TestLTLRecurrence: on random chains with cycles, Boolean combinations of
// G F x and F G y through the split chain and product equal the closed
// form: the probability of reaching a bottom component B in which they
// hold (G F x when some state of B has x, F G y when every one has y),
// the components found here by reachability alone.
func TestLTLRecurrence(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 3))
	a, b := verify.Label("a"), verify.Label("b")
	GF := func(f *verify.Formula) *verify.Formula { return verify.Globally(verify.Eventually(f, -1), -1) }
	FG := func(f *verify.Formula) *verify.Formula { return verify.Eventually(verify.Globally(f, -1), -1) }
	type form struct {
		f     *verify.Formula
		holds func(has func(l string) bool, all func(l string) bool) bool
	}
	forms := []form{
		{GF(a), func(has, all func(string) bool) bool { return has("a") }},
		{FG(a), func(has, all func(string) bool) bool { return all("a") }},
		{verify.And(GF(a), FG(b)), func(has, all func(string) bool) bool { return has("a") && all("b") }},
		{verify.Or(GF(b), FG(verify.Not(a))), func(has, all func(string) bool) bool { return has("b") || !has("a") }},
		{verify.Not(GF(verify.And(a, b))), func(has, all func(string) bool) bool { return !has("ab") }},
	}
	for range 40 {
		const n = 7
		succ := make([][]int, n)
		labels := make([][]string, n)
		for s := range n {
			labels[s] = randomLabels(rng)
			succ[s] = rng.Perm(n)[:1+rng.IntN(2)]
		}
		reach := func(s int) []bool {
			seen := make([]bool, n)
			stack := []int{s}
			seen[s] = true
			for len(stack) > 0 {
				u := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				for _, v := range succ[u] {
					if !seen[v] {
						seen[v] = true
						stack = append(stack, v)
					}
				}
			}
			return seen
		}
		// bottom[s]: s lies in a bottom component, the states it reaches.
		bottom := make([][]bool, n)
		for s := range n {
			rs := reach(s)
			in := true
			for u := range n {
				if rs[u] && !reach(u)[s] {
					in = false
				}
			}
			if in {
				bottom[s] = rs
			}
		}
		for _, fm := range forms {
			bld := chain.NewBuilder()
			for s := range n {
				ls := slices.Clone(labels[s])
				if bottom[s] != nil {
					has := func(l string) bool {
						for u := range n {
							if bottom[s][u] && (l == "ab" && slices.Contains(labels[u], "a") && slices.Contains(labels[u], "b") || slices.Contains(labels[u], l)) {
								return true
							}
						}
						return false
					}
					all := func(l string) bool {
						for u := range n {
							if bottom[s][u] && !slices.Contains(labels[u], l) {
								return false
							}
						}
						return true
					}
					if fm.holds(has, all) {
						ls = append(ls, "good")
					}
				}
				bld.AddState(fmt.Sprint(s), nil, ls...)
			}
			for s := range n {
				for i, t := range succ[s] {
					bld.AddTransition(s, t, big.NewRat(int64(i+1), int64(len(succ[s])*(len(succ[s])+1)/2)))
				}
			}
			_, m := buildChecker(t, bld)
			got, err := m.Prob(context.Background(), fm.f)
			if err != nil {
				t.Fatalf("%s: %v", fm.f, err)
			}
			want, err := m.Prob(context.Background(), verify.Eventually(verify.Label("good"), -1))
			if err != nil {
				t.Fatal(err)
			}
			for s := range n {
				if got[s].Cmp(want[s]) != 0 {
					t.Fatalf("Pr_%d(%s) = %s, want %s (reaching a bottom component where it holds)", s, fm.f, got[s].RatString(), want[s].RatString())
				}
			}
		}
	}
}

// TestExistsAgainstLassos: E[ψ] and A[ψ] of random LTL formulas on random
// small graphs equal the search of every lasso path (a prefix and a loop
// of at most 7 states) evaluated directly: an ω-regular property that
// some path satisfies is satisfied by such a lasso.
func TestExistsAgainstLassos(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 4))
	ctx := context.Background()
	checked := 0
	for range 50 {
		const n = 4
		bld := chain.NewBuilder()
		for s := range n {
			bld.AddState(fmt.Sprint(s), nil, randomLabels(rng)...)
		}
		for s := range n {
			to := rng.Perm(n)[:1+rng.IntN(2)]
			for _, u := range to {
				bld.AddTransition(s, u, big.NewRat(1, int64(len(to))))
			}
		}
		c, m := buildChecker(t, bld)
		for range 8 {
			f := randomLTL(rng, 2+rng.IntN(2))
			e, err := m.Sat(ctx, verify.Exists(f))
			if errors.Is(err, verify.ErrFormula) {
				continue
			}
			if err != nil {
				t.Fatalf("E[%s]: %v", f, err)
			}
			a, err := m.Sat(ctx, verify.Forall(f))
			if err != nil {
				t.Fatalf("A[%s]: %v", f, err)
			}
			for s := range n {
				some, every := lassos(c, f, s, 7)
				if e[s] != some || a[s] != every {
					t.Fatalf("state %d, %s: E %t A %t, the lassos say %t and %t", s, f, e[s], a[s], some, every)
				}
			}
			checked++
		}
	}
	if checked < 300 {
		t.Errorf("checked %d formulas, want at least 300", checked)
	}
}

// lassos reports whether some and whether every lasso path from s of at
// most max states satisfies f.
func lassos(c *chain.Chain, f *verify.Formula, s, max int) (some, every bool) {
	every = true
	var walk func(w []int)
	walk = func(w []int) {
		last := w[len(w)-1]
		to, _ := c.Row(last)
		for ls := range w {
			if slices.Contains(to, w[ls]) {
				if loopEval(c, f, w, ls, 0) {
					some = true
				} else {
					every = false
				}
			}
		}
		if len(w) < max {
			for _, t := range to {
				walk(append(w[:len(w):len(w)], t))
			}
		}
	}
	walk([]int{s})
	return some, every
}

// buildChecker builds the chain of bld and a checker of it.
func buildChecker(t *testing.T, bld *chain.Builder) (*chain.Chain, *verify.Checker) {
	t.Helper()
	c, err := bld.Build()
	if err != nil {
		t.Fatal(err)
	}
	m, err := verify.NewChecker(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c, m
}
