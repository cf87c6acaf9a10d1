package verify_test

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/verify"
	"github.com/google/go-cmp/cmp"
)

// observed is what an observer of a mechanism can tell about its inputs
// under one output space: for every input (by name) its valuation and the
// exact distribution over outputs (by name), and the neighbour pairs by
// name.
type observed struct {
	Inputs map[string]string
	Dist   map[string]map[string]*big.Rat
	Pairs  [][2]string
}

func observe(t *testing.T, m *model.Mechanism, out verify.Output) observed {
	t.Helper()
	a := analyze(t, m, out)
	c := m.Chain
	o := observed{Inputs: map[string]string{}, Dist: map[string]map[string]*big.Rat{}}
	for _, s := range c.Inputs() {
		o.Inputs[c.Name(s)] = c.Valuation(s).String() + fmt.Sprint(c.Labels(s))
		outs, p, ok := a.Distribution(s)
		if !ok {
			continue
		}
		d := map[string]*big.Rat{}
		for i, x := range outs {
			d[x] = p[i]
		}
		o.Dist[c.Name(s)] = d
	}
	for _, p := range m.Neighbours {
		o.Pairs = append(o.Pairs, [2]string{c.Name(p[0]), c.Name(p[1])})
	}
	return o
}

// TestAboveThresholdIsAboveThreshold: the shared chain and the chain
// with one copy of the query states per input (builder.AboveThresholdPerInput, an
// independent construction) agree on everything an observer sees: inputs,
// pairs, the final-state distribution of every input, and its distribution
// of label traces step by step (so every dpCTL path formula over the
// labels), while the shared chain has (n+1)²·k query states instead of
// (n+1)³·k.
func TestAboveThresholdIsAboveThreshold(t *testing.T) {
	cases := []struct {
		at, aq string
		n, k   int
		cmp    builder.Comparison
	}{
		{"1/4", "1/2", 5, 4, builder.AtLeast},
		{"1/4", "1/2", 5, 5, builder.Above},
		{"1/3", "2/7", 3, 3, builder.AtLeast},
		{"1/2", "1/3", 4, 1, builder.Above},
		{"9/10", "1/10", 2, 6, builder.AtLeast},
	}
	for _, tc := range cases {
		name := fmt.Sprintf("%s,%s,n=%d,k=%d,%s", tc.at, tc.aq, tc.n, tc.k, tc.cmp)
		t.Run(name, func(t *testing.T) {
			old := mustMech(t)(builder.AboveThresholdPerInput(r(tc.at), r(tc.aq), tc.n, tc.k, tc.cmp))
			shared := mustMech(t)(builder.AboveThreshold(r(tc.at), r(tc.aq), tc.n, tc.k, tc.cmp))
			n1 := tc.n + 1
			want := n1*n1*(1+tc.k) + tc.k + 1
			if tc.cmp == builder.AtLeast { // no query after one at T = 0
				want -= n1 * (tc.k - 1)
			}
			if got := shared.Chain.NumStates(); got != want {
				t.Errorf("shared: %d states, want %d", got, want)
			}
			if got, want := old.Chain.NumStates(), n1*n1*(1+n1*tc.k)+tc.k+1; got != want {
				t.Errorf("per input: %d states, want %d", got, want)
			}
			for _, out := range []verify.Output{verify.FinalState(), verify.FinalVar("q"), verify.Traces(tc.k+2, "in", "halt", "top", "never")} {
				if diff := cmp.Diff(observe(t, old, out), observe(t, shared, out), ratCmp); diff != "" {
					t.Errorf("output %v: per input vs shared (-old +shared):\n%s", out, diff)
				}
			}
			if tc.n == 5 && tc.k == 4 && tc.cmp == builder.AtLeast {
				a := analyze(t, shared, verify.FinalState())
				if diff := cmp.Diff(ln("16"), tightEps(t, a, "0").Eps, epsCmp); diff != "" {
					t.Errorf("tight ε: %s", diff)
				}
			}
		})
	}
}

// perInputLoop is the loop form of above threshold as AboveThresholdLoop
// built it before its states were shared: every input (d, t) has its own ⊥
// and ⊤ state for each noisy threshold T. Written here from the
// probabilities of the truncated geometric mechanism, independently of the
// builder.
func perInputLoop(t *testing.T, at, aq *big.Rat, n int, cmpAbove bool) *model.Mechanism {
	t.Helper()
	geo := func(alpha *big.Rat, k, l int) *big.Rat {
		one := big.NewRat(1, 1)
		onePlus := new(big.Rat).Add(one, alpha)
		pow := func(e int) *big.Rat {
			x := big.NewRat(1, 1)
			for range e {
				x.Mul(x, alpha)
			}
			return x
		}
		switch l {
		case 0:
			return new(big.Rat).Quo(pow(k), onePlus)
		case n:
			return new(big.Rat).Quo(pow(n-k), onePlus)
		}
		j := k - l
		if j < 0 {
			j = -j
		}
		x := new(big.Rat).Sub(one, alpha)
		x.Quo(x, onePlus)
		return x.Mul(x, pow(j))
	}
	up := func(d, T int) *big.Rat {
		lo := T
		if cmpAbove {
			lo = T + 1
		}
		x := new(big.Rat)
		for f := lo; f <= n; f++ {
			x.Add(x, geo(aq, d, f))
		}
		return x
	}
	b := chain.NewBuilder()
	halted := b.AddState("halted", nil, "halted")
	input := make([][]int, n+1)
	for d := 0; d <= n; d++ {
		input[d] = make([]int, n+1)
		for tt := 0; tt <= n; tt++ {
			val := chain.Valuation{{Name: "d", Value: int64(d)}, {Name: "t", Value: int64(tt)}}
			s := b.AddState(fmt.Sprintf("d%d_t%d", d, tt), val, "in")
			input[d][tt] = s
			b.MarkInput(s)
			for T := 0; T <= n; T++ {
				v := append(val[:2:2], chain.Var{Name: "T", Value: int64(T)})
				bot := b.AddState(fmt.Sprintf("d%d_t%d_T%d_bot", d, tt, T), v, builder.Below)
				top := b.AddState(fmt.Sprintf("d%d_t%d_T%d_top", d, tt, T), v, builder.Top)
				u := up(d, T)
				st := new(big.Rat).Sub(big.NewRat(1, 1), u)
				pT := geo(at, tt, T)
				b.AddTransition(s, bot, new(big.Rat).Mul(pT, st))
				b.AddTransition(s, top, new(big.Rat).Mul(pT, u))
				b.AddTransition(bot, bot, st)
				b.AddTransition(bot, top, u)
				b.AddTransition(top, halted, big.NewRat(1, 1))
			}
		}
	}
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	var pairs [][2]int
	for tt := 0; tt <= n; tt++ {
		for d := 0; d < n; d++ {
			pairs = append(pairs, [2]int{input[d][tt], input[d+1][tt]})
		}
	}
	return &model.Mechanism{Chain: c, Neighbours: pairs}
}

// TestAboveThresholdLoopShared: the loop form, whose ⊥ and ⊤ states are
// shared by the inputs of one d, has the trace distributions of the
// per-input loop written out in the test, for every horizon up to 7, and
// 3(n+1)²+1 states instead of (n+1)²(2n+3)+1.
func TestAboveThresholdLoopShared(t *testing.T) {
	for _, tc := range []struct {
		at, aq string
		n      int
		above  bool
	}{{"1/4", "1/2", 5, false}, {"1/3", "2/5", 3, true}, {"1/2", "1/2", 1, false}} {
		t.Run(fmt.Sprintf("%s,%s,n=%d,above=%v", tc.at, tc.aq, tc.n, tc.above), func(t *testing.T) {
			cmpKind := builder.AtLeast
			if tc.above {
				cmpKind = builder.Above
			}
			shared := mustMech(t)(builder.AboveThresholdLoop(r(tc.at), r(tc.aq), tc.n, cmpKind))
			ref := perInputLoop(t, r(tc.at), r(tc.aq), tc.n, tc.above)
			n1 := tc.n + 1
			if got, want := shared.Chain.NumStates(), 3*n1*n1+1; got != want {
				t.Errorf("shared loop: %d states, want %d", got, want)
			}
			for k := 1; k <= 7; k++ {
				out := verify.Traces(k, builder.Below, builder.Top, "in", "halted")
				if diff := cmp.Diff(observe(t, ref, out), observe(t, shared, out), ratCmp); diff != "" {
					t.Errorf("traces(%d): per input vs shared (-ref +shared):\n%s", k, diff)
				}
			}
		})
	}
}

// TestStreamingSumShared: the streaming sum's two inputs share their
// partial-sum states, and their outputs are still the exact binomial laws
// Pr[y = x + 2i − m | x] = C(m, i)·p^i·(1−p)^(m−i), m = rows − 1, computed
// here by hand.
func TestStreamingSumShared(t *testing.T) {
	for _, tc := range []struct {
		rows int
		p    string
	}{{2, "1/2"}, {5, "1/3"}, {8, "3/4"}} {
		m := tc.rows - 1
		mech := mustMech(t)(builder.StreamingSum(tc.rows, r(tc.p)))
		inner := 0
		for j := 1; j < m; j++ {
			inner += j + 2
		}
		if got, want := mech.Chain.NumStates(), 2+inner+m+2; got != want {
			t.Errorf("rows = %d: %d states, want %d", tc.rows, got, want)
		}
		a := analyze(t, mech, verify.FinalVar("y"))
		p := r(tc.p)
		q := new(big.Rat).Sub(big.NewRat(1, 1), p)
		for _, x := range []int{1, -1} {
			name := map[int]string{1: "plus", -1: "minus"}[x]
			s, _ := mech.Chain.Lookup(name)
			outs, probs, ok := a.Distribution(s)
			if !ok {
				t.Fatalf("no distribution for %s", name)
			}
			got := map[string]*big.Rat{}
			for i, o := range outs {
				got[o] = probs[i]
			}
			want := map[string]*big.Rat{}
			for i := 0; i <= m; i++ {
				c := new(big.Int).Binomial(int64(m), int64(i))
				pr := new(big.Rat).SetInt(c)
				for range i {
					pr.Mul(pr, p)
				}
				for range m - i {
					pr.Mul(pr, q)
				}
				want[fmt.Sprintf("y=%d", x+2*i-m)] = pr
			}
			if diff := cmp.Diff(want, got, ratCmp); diff != "" {
				t.Errorf("rows = %d, %s (-want +got):\n%s", tc.rows, name, diff)
			}
		}
	}
}
