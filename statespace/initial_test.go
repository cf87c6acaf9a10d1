package statespace_test

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/statespace"
)

func cmpOf(n, op string, c *big.Rat, swap bool) *expr.Expr {
	a, b := name(n), &expr.Expr{Op: expr.Num, Value: c}
	if swap {
		a, b = b, a
	}
	return &expr.Expr{Op: expr.Cmp, CmpOp: op, Args: []*expr.Expr{a, b}}
}

func and(args ...*expr.Expr) *expr.Expr { return &expr.Expr{Op: expr.And, Args: args} }

// initModel has six variables of range [0..hi] (and a boolean) and the
// initial states init (PRISM's init … endinit).
func initModel(hi int64, init *expr.Expr) *statespace.Model {
	m := &statespace.Model{Name: "init", Semantics: statespace.PRISM, Modules: []string{"m"}, Init: init}
	for _, n := range []string{"a", "b", "c", "d", "e", "f"} {
		m.Vars = append(m.Vars, statespace.Var{Name: n, Lo: 0, Hi: hi})
	}
	m.Vars = append(m.Vars, statespace.Var{Name: "flag", Lo: 0, Hi: 1, Bool: true})
	return m
}

func initialStates(t *testing.T, m *statespace.Model) []string {
	t.Helper()
	mech, err := m.Build(context.Background(), model.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range mech.Chain.Inputs() {
		out = append(out, mech.Chain.Valuation(s).String())
	}
	return out
}

// TestInitialBox: conditions that pin variables or bound them by constants
// (either way round, strict or not, fractions, booleans) narrow the
// valuations tried for the initial states; the states and their order are
// those of the whole product, tried one by one (the same condition behind
// an or with false, which narrows nothing); a pinned value outside a range,
// or a fraction an integer must equal, leaves no initial state.
func TestInitialBox(t *testing.T) {
	q := func(a, b int64) *big.Rat { return big.NewRat(a, b) }
	pinned := and(
		cmpOf("a", "=", q(1, 1), false),
		cmpOf("b", "=", q(2, 1), true),
		cmpOf("c", ">=", q(5, 2), false), // c ≥ 3
		cmpOf("c", "<", q(5, 1), false),  // c ≤ 4
		cmpOf("d", ">", q(1, 1), true),   // d < 1
		&expr.Expr{Op: expr.Not, Args: []*expr.Expr{name("flag")}},
		cmpOf("e", "<=", q(7, 2), true),  // e ≥ 4
		cmpOf("e", "!=", q(5, 1), false), // narrows nothing; tested one by one
		cmpOf("f", "<=", q(3, 2), false), // f ≤ 1
	)
	small := initialStates(t, initModel(6, pinned))
	whole := initialStates(t, initModel(6, &expr.Expr{Op: expr.Or, Args: []*expr.Expr{pinned, {Op: expr.Bool}}}))
	if diff := cmp.Diff(whole, small); diff != "" {
		t.Errorf("initial states narrowed (-whole product +narrowed):\n%s", diff)
	}
	// c ∈ {3, 4}, e ∈ {4, 6}, f ∈ {0, 1}: 8 states.
	if len(small) != 8 || small[0] != "a=1, b=2, c=3, d=0, e=4, f=0, flag=0" {
		t.Errorf("%d initial states, the first %q", len(small), small[0])
	}
	// Ranges of 10^9 values each: the product of six is far beyond the
	// valuations dpcheck tries, the narrowed box is not.
	if got := initialStates(t, initModel(1_000_000_000, and(pinned, cmpOf("e", "<", q(7, 1), false)))); fmt.Sprint(got) != fmt.Sprint(small) {
		t.Errorf("wide ranges: %v, want %v", got, small)
	}
	for _, none := range []*expr.Expr{cmpOf("a", "=", q(7, 1), false), cmpOf("a", "=", q(1, 2), false), and(cmpOf("b", ">", q(3, 1), false), cmpOf("b", "<", q(4, 1), false))} {
		_, err := initModel(6, none).Build(context.Background(), model.Limits{})
		if err == nil || !strings.HasSuffix(err.Error(), ": no state satisfies the conditions on the initial states") {
			t.Errorf("%v: %v", none.CmpOp, err)
		}
	}
}
