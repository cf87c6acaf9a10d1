package mdp

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/verify"
)

// randomMDP has n states labelled at random with "a" and "b", 2 or 3
// actions, each enabled with probability 3/4 at a state (some states
// enable none), with distributions over up to 3 successors whose
// probabilities have denominators up to 4.
func randomMDP(t testing.TB, rng *rand.Rand, n int) *MDP {
	acts := []string{"x", "y", "z"}[:2+rng.IntN(2)]
	x := newMDPBuilder(acts...)
	for s := range n {
		var ls []string
		if rng.IntN(2) == 0 {
			ls = append(ls, "a")
		}
		if rng.IntN(3) == 0 {
			ls = append(ls, "b")
		}
		x.state(fmt.Sprintf("s%d", s), ls)
	}
	for s := range n {
		if rng.IntN(6) == 0 {
			continue
		}
		for _, a := range acts {
			if rng.IntN(4) == 0 {
				continue
			}
			k := 1 + rng.IntN(3)
			den := 1 + rng.IntN(4)
			// split den into k positive parts (k ≤ den), or one target.
			if k > den {
				k = den
			}
			parts := make([]int, k)
			for i := range parts {
				parts[i] = 1
			}
			for i := k; i < den; i++ {
				parts[rng.IntN(k)]++
			}
			var tp []any
			used := map[int]bool{}
			for _, p := range parts {
				u := rng.IntN(n)
				for used[u] {
					u = (u + 1) % n
				}
				used[u] = true
				tp = append(tp, u, fmt.Sprintf("%d/%d", p, den))
			}
			x.choose(s, a, tp...)
		}
	}
	return x.build(t)
}

// TestPruningNeverChangesResults compares the pruned search with every
// sequence explored, on random MDPs, for D, dp over traces and dp over
// final outputs: the tight δ and the tight ε must be equal exactly.
func TestPruningNeverChangesResults(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 2018))
	ctx := context.Background()
	la, lb := verify.Label("a"), verify.Label("b")
	forms := []*verify.Formula{
		verify.Eventually(lb, 3),
		verify.Next(2, la),
		verify.Until(la, lb, 3),
		verify.Globally(la, 2),
		verify.And(verify.Next(1, la), verify.Eventually(lb, 2)),
	}
	ln2, err := exact.Ln(big.NewRat(2, 1))
	if err != nil {
		t.Fatal(err)
	}
	half, err := exact.Rational(big.NewRat(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	// Every query runs with the pruning and the transposition table (the
	// default), with each alone, and with neither (plain).
	modes := []struct {
		name string
		o    Options
	}{
		{"default", Options{}},
		{"pruning only", Options{noTranspose: true}},
		{"transpositions only", Options{noPrune: true}},
	}
	plain := Options{noPrune: true, noTranspose: true}
	var pruned, transposed int64
	positive := 0
	delta := func(what string, q func(o Options) (*Result, error)) *Result {
		t.Helper()
		b, err := q(plain)
		if err != nil {
			t.Fatal(err)
		}
		if !b.Exact || b.Pruned != 0 || b.Transposed != 0 || b.Reason == "" {
			t.Errorf("%s plain: exact %v, pruned %d, transposed %d, reason %q", what, b.Exact, b.Pruned, b.Transposed, b.Reason)
		}
		var a *Result
		for _, md := range modes {
			a, err = q(md.o)
			if err != nil {
				t.Fatal(err)
			}
			sameReal(t, what+" ("+md.name+")", a.Delta, b.Delta)
			if !a.Exact || a.Reason == "" {
				t.Errorf("%s (%s): exact %v, reason %q", what, md.name, a.Exact, a.Reason)
			}
			pruned += a.Pruned
			transposed += a.Transposed
		}
		return a
	}
	epsilon := func(what string, q func(o Options) (*EpsResult, error)) *EpsResult {
		t.Helper()
		b, err := q(plain)
		if err != nil {
			t.Fatal(err)
		}
		if b.Reason == "" {
			t.Errorf("%s: no reason", what)
		}
		var a *EpsResult
		for _, md := range modes {
			a, err = q(md.o)
			if err != nil {
				t.Fatal(err)
			}
			sameEps(t, what+" ("+md.name+")", a.Eps, b.Eps)
			if a.Exact != b.Exact || a.Reason == "" {
				t.Errorf("%s (%s): exact %v, plain %v, reason %q", what, md.name, a.Exact, b.Exact, a.Reason)
			}
			pruned += a.Pruned
			transposed += a.Transposed
		}
		return a
	}
	unbounded := func(what string, q func(o Options) (*Result, error)) {
		t.Helper()
		b, err := q(plain)
		if err != nil {
			t.Fatal(err)
		}
		for _, md := range modes {
			a, err := q(md.o)
			if err != nil {
				t.Fatal(err)
			}
			sameReal(t, what+" ("+md.name+")", a.Delta, b.Delta)
			if a.Exact != b.Exact || a.Horizon != b.Horizon || a.Reason != b.Reason || a.Reason == "" {
				t.Errorf("%s (%s): exact %v horizon %d %q, plain %v %d %q", what, md.name, a.Exact, a.Horizon, a.Reason, b.Exact, b.Horizon, b.Reason)
			}
			pruned += a.Pruned
			transposed += a.Transposed
		}
	}
	for iter := range 60 {
		m := randomMDP(t, rng, 4+rng.IntN(3))
		n := m.NumStates()
		pairs := [][2]int{{0, 1}, {1 + rng.IntN(n-1), 0}}
		f := forms[iter%len(forms)]
		for _, eps := range []exact.Eps{{}, ln2, half} {
			a := delta(fmt.Sprintf("iter %d D %s at ε=%s", iter, f, eps), func(o Options) (*Result, error) {
				return TightDeltaD(ctx, m, pairs, f, eps, o)
			})
			if sg, _ := a.Delta.Sign(); sg > 0 {
				positive++
			}
			out := verify.Traces(3, "a", "b")
			delta(fmt.Sprintf("iter %d traces at ε=%s", iter, eps), func(o Options) (*Result, error) {
				return TightDelta(ctx, m, pairs, out, eps, o)
			})
		}
		// Unbounded ψ and final outputs: horizons 1…4 searched at every
		// prefix, exact or not.
		for _, eps := range []exact.Eps{{}, ln2} {
			o4 := func(o Options) Options { o.MaxHorizon = 4; return o }
			ub := verify.Until(la, lb, -1)
			unbounded(fmt.Sprintf("iter %d D %s at ε=%s", iter, ub, eps), func(o Options) (*Result, error) {
				return TightDeltaD(ctx, m, pairs, ub, eps, o4(o))
			})
			unbounded(fmt.Sprintf("iter %d final states at ε=%s", iter, eps), func(o Options) (*Result, error) {
				return TightDelta(ctx, m, pairs, verify.FinalState(), eps, o4(o))
			})
		}
		for _, d := range []*big.Rat{new(big.Rat), big.NewRat(1, 10)} {
			epsilon(fmt.Sprintf("iter %d ε of D %s at δ=%s", iter, f, d.RatString()), func(o Options) (*EpsResult, error) {
				return TightEpsilonD(ctx, m, pairs, f, d, o)
			})
			out := verify.Traces(3, "b")
			a := epsilon(fmt.Sprintf("iter %d ε of traces at δ=%s", iter, d.RatString()), func(o Options) (*EpsResult, error) {
				return TightEpsilon(ctx, m, pairs, out, d, o)
			})
			if a.Eps.Sign() > 0 {
				positive++
			}
		}
	}
	t.Logf("%d prefixes pruned, %d transposed, %d positive answers", pruned, transposed, positive)
	if positive < 50 {
		t.Errorf("only %d positive answers: the random MDPs are too easy", positive)
	}
	if pruned == 0 || transposed == 0 {
		t.Errorf("%d prefixes pruned, %d transposed: the test compares nothing", pruned, transposed)
	}
}

func sameReal(t *testing.T, what string, a, b exact.Real) {
	t.Helper()
	c, err := a.Cmp(b)
	if err != nil || c != 0 {
		t.Errorf("%s: pruned %v, plain %v", what, a, b)
	}
}

func sameEps(t *testing.T, what string, a, b exact.Eps) {
	t.Helper()
	c, err := a.Cmp(b)
	if err != nil || c != 0 {
		t.Errorf("%s: pruned %v, plain %v", what, a, b)
	}
}

// brutePr computes Pr_s(f) under the action sequence seq by enumerating
// the paths, with the step rule (a state without a choice for the action
// stays) and f evaluated on each path directly.
func brutePr(m *MDP, s int, seq []int, f *verify.Formula) *big.Rat {
	total := new(big.Rat)
	var walk func(path []int, p *big.Rat)
	walk = func(path []int, p *big.Rat) {
		i := len(path) - 1
		if i == len(seq) {
			if evalPath(m, f, path, 0) {
				total.Add(total, p)
			}
			return
		}
		c := m.choice(path[i], seq[i])
		if c == nil {
			walk(append(path, path[i]), p)
			return
		}
		for k, u := range c.To {
			walk(append(path[:len(path):len(path)], u), new(big.Rat).Mul(p, c.P[k]))
		}
	}
	walk([]int{s}, big.NewRat(1, 1))
	return total
}

func evalPath(m *MDP, f *verify.Formula, path []int, i int) bool {
	switch f.Op {
	case verify.OpTrue:
		return true
	case verify.OpFalse:
		return false
	case verify.OpLabel:
		return m.Frame.HasLabel(path[i], f.Name)
	case verify.OpNot:
		return !evalPath(m, f.Args[0], path, i)
	case verify.OpAnd:
		for _, a := range f.Args {
			if !evalPath(m, a, path, i) {
				return false
			}
		}
		return true
	case verify.OpOr:
		for _, a := range f.Args {
			if evalPath(m, a, path, i) {
				return true
			}
		}
		return false
	case verify.OpNext:
		return evalPath(m, f.Args[0], path, i+f.K)
	case verify.OpUntil:
		for j := 0; j <= f.K; j++ {
			if j >= f.Lo && evalPath(m, f.Args[1], path, i+j) {
				return true
			}
			if !evalPath(m, f.Args[0], path, i+j) {
				return false
			}
		}
		return false
	}
	panic("unexpected operator")
}

// TestSearchAgainstPaths checks the tight δ of bounded D formulas against
// an enumeration of every sequence and every path.
func TestSearchAgainstPaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 42))
	ctx := context.Background()
	la, lb := verify.Label("a"), verify.Label("b")
	forms := []struct {
		f *verify.Formula
		h int
	}{
		{verify.Eventually(lb, 3), 3},
		{verify.Next(2, la), 2},
		{verify.Until(la, lb, 2), 2},
		{verify.Globally(la, 2), 2},
		{verify.And(verify.Next(1, la), verify.Eventually(lb, 2)), 2},
		{verify.Not(verify.Until(la, verify.Next(1, lb), 1)), 2},
		{verify.UntilFrom(la, lb, 1, 3), 3},
		{verify.UntilFrom(verify.True(), lb, 2, 2), 2},
		{verify.Not(verify.UntilFrom(verify.True(), verify.Not(la), 1, 2)), 2},
	}
	for iter := range 40 {
		m := randomMDP(t, rng, 4+rng.IntN(3))
		pairs := [][2]int{{0, 1}, {2, 0}}
		tc := forms[iter%len(forms)]
		for _, c := range []int64{1, 2} {
			eps, err := exact.Ln(big.NewRat(c, 1))
			if err != nil {
				t.Fatal(err)
			}
			r, err := TightDeltaD(ctx, m, pairs, tc.f, eps, Options{})
			if err != nil {
				t.Fatal(err)
			}
			want := new(big.Rat)
			var seqs [][]int
			var gen func(seq []int)
			gen = func(seq []int) {
				if len(seq) == tc.h {
					seqs = append(seqs, append([]int(nil), seq...))
					return
				}
				for a := range m.Actions {
					gen(append(seq, a))
				}
			}
			gen(nil)
			for _, seq := range seqs {
				for _, pr := range pairs {
					for _, d := range [][2]int{pr, {pr[1], pr[0]}} {
						g := new(big.Rat).Sub(brutePr(m, d[0], seq, tc.f), new(big.Rat).Mul(big.NewRat(c, 1), brutePr(m, d[1], seq, tc.f)))
						if g.Cmp(want) > 0 {
							want = g
						}
					}
				}
			}
			wantReal(t, fmt.Sprintf("iter %d: δ of %s at ε = ln %d", iter, tc.f, c), r.Delta, want.RatString())
		}
	}
}

// TestSufficientResiduals compares Proposition 2's bound of bounded
// formulas computed over the residuals (what SufficientD does for them)
// with the one from Prob's backward induction.
func TestSufficientResiduals(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	ctx := context.Background()
	la, lb := verify.Label("a"), verify.Label("b")
	forms := []*verify.Formula{
		verify.Eventually(lb, 3), verify.Next(2, la), verify.Until(la, lb, 3), verify.Globally(la, 2),
		verify.Not(verify.Eventually(lb, 2)),
	}
	ln2, err := exact.Ln(big.NewRat(2, 1))
	if err != nil {
		t.Fatal(err)
	}
	for iter := range 40 {
		m := randomMDP(t, rng, 4+rng.IntN(3))
		pairs := [][2]int{{0, 1}, {2, 3}}
		f := forms[iter%len(forms)]
		for _, eps := range []exact.Eps{{}, ln2} {
			got, err := SufficientD(ctx, m, pairs, f, eps)
			if err != nil {
				t.Fatal(err)
			}
			p, err := newProblem(ctx, m, pairs)
			if err != nil {
				t.Fatal(err)
			}
			p.kind = kindD
			ans := &answer{}
			if err := ans.prop2(ctx, p, f, query{deltaMode: true, eps: eps}); err != nil {
				t.Fatal(err)
			}
			sameReal(t, fmt.Sprintf("iter %d: %s at ε = %s", iter, f, eps), got, *ans.upper)
		}
	}
}

// TestUntilFromExtremes: Pmax and Pmin of a U[lo,k] b on random MDPs equal
// the best and worst over every history-dependent scheduler, by
// expectimax over the paths of length k (a state without a choice stays).
func TestUntilFromExtremes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	ctx := context.Background()
	la, lb := verify.Label("a"), verify.Label("b")
	for iter := range 30 {
		m := randomMDP(t, rng, 3+rng.IntN(3))
		for _, lk := range [][2]int{{1, 1}, {1, 3}, {2, 3}, {0, 2}, {3, 3}} {
			f := verify.UntilFrom(la, lb, lk[0], lk[1])
			for _, max := range []bool{true, false} {
				got, err := m.Prob(ctx, f, max)
				if err != nil {
					t.Fatal(err)
				}
				var value func(path []int) *big.Rat
				value = func(path []int) *big.Rat {
					if len(path) == lk[1]+1 {
						if evalPath(m, f, path, 0) {
							return big.NewRat(1, 1)
						}
						return new(big.Rat)
					}
					s := path[len(path)-1]
					if len(m.Choices[s]) == 0 {
						return value(append(path[:len(path):len(path)], s))
					}
					var best *big.Rat
					for _, c := range m.Choices[s] {
						v := new(big.Rat)
						for k, u := range c.To {
							v.Add(v, new(big.Rat).Mul(c.P[k], value(append(path[:len(path):len(path)], u))))
						}
						if best == nil || max && v.Cmp(best) > 0 || !max && v.Cmp(best) < 0 {
							best = v
						}
					}
					return best
				}
				for s := range m.Choices {
					if want := value([]int{s}); got[s].Cmp(want) != 0 {
						t.Fatalf("iter %d, %s, max %v, from s%d: %s, expectimax %s", iter, f, max, s, got[s].RatString(), want.RatString())
					}
				}
			}
		}
	}
}
