package mdp

import (
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
)

// mdpBuilder builds small MDPs in tests.
type mdpBuilder struct {
	b       *chain.Builder
	n       int
	actions []string
	act     map[string]int
	choices map[int][]Choice
}

func newMDPBuilder(actions ...string) *mdpBuilder {
	x := &mdpBuilder{b: chain.NewBuilder(), actions: actions, act: map[string]int{}, choices: map[int][]Choice{}}
	for i, a := range actions {
		x.act[a] = i
	}
	return x
}

// state adds a state; vars are name, value pairs.
func (x *mdpBuilder) state(name string, labels []string, vars ...any) int {
	var val chain.Valuation
	for i := 0; i < len(vars); i += 2 {
		val = append(val, chain.Var{Name: vars[i].(string), Value: int64(vars[i+1].(int))})
	}
	x.n++
	return x.b.AddState(name, val, labels...)
}

// choose adds s's choice for action a: targets and probabilities
// alternate ("1/4" strings).
func (x *mdpBuilder) choose(s int, a string, tp ...any) {
	c := Choice{Action: x.act[a]}
	for i := 0; i < len(tp); i += 2 {
		c.To = append(c.To, tp[i].(int))
		c.P = append(c.P, rat(tp[i+1].(string)))
	}
	x.choices[s] = append(x.choices[s], c)
}

func (x *mdpBuilder) build(t testing.TB) *MDP {
	t.Helper()
	fr, err := x.b.Build()
	if err != nil {
		t.Fatal(err)
	}
	cs := make([][]Choice, x.n)
	for s, c := range x.choices {
		cs[s] = c
	}
	m, err := New(fr, x.actions, cs)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func rat(s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		panic("bad rational " + s)
	}
	return r
}

func lnRat(t testing.TB, s string) exact.Eps {
	t.Helper()
	e, err := exact.Ln(rat(s))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// wantRat fails unless x is exactly the rational want.
func wantRat(t testing.TB, what string, x *big.Rat, want string) {
	t.Helper()
	if x == nil || x.Cmp(rat(want)) != 0 {
		t.Errorf("%s = %v, want %s", what, x, want)
	}
}

// wantReal fails unless r is exactly the rational want.
func wantReal(t testing.TB, what string, r exact.Real, want string) {
	t.Helper()
	x, ok := r.Rat()
	if !ok || x.Cmp(rat(want)) != 0 {
		t.Errorf("%s = %v, want %s", what, r, want)
	}
}

// wantEps fails unless e is exactly want.
func wantEps(t testing.TB, what string, e exact.Eps, want exact.Eps) {
	t.Helper()
	c, err := e.Cmp(want)
	if err != nil || c != 0 {
		t.Errorf("%s = %v, want %v (err %v)", what, e, want, err)
	}
}
