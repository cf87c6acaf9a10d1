package statespace_test

import (
	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/statespace"
)

func num(x int64) *expr.Expr { return &expr.Expr{Op: expr.Num, Value: big.NewRat(x, 1)} }

func frac(a, b int64) *expr.Expr { return &expr.Expr{Op: expr.Num, Value: big.NewRat(a, b)} }

func name(n string) *expr.Expr { return &expr.Expr{Op: expr.Var, Name: n} }

func eq(n string, x int64) *expr.Expr {
	return &expr.Expr{Op: expr.Cmp, CmpOp: "=", Args: []*expr.Expr{name(n), num(x)}}
}

func set(v int, x int64) statespace.Assign { return statespace.Assign{Var: v, Value: num(x)} }

// rows returns every state's row, keyed by valuation.
func rows(c *chain.Chain) map[string]map[string]*big.Rat {
	out := map[string]map[string]*big.Rat{}
	for s := range c.NumStates() {
		row := map[string]*big.Rat{}
		to, ps := c.Row(s)
		for i, u := range to {
			row[c.Valuation(int(u)).String()] = ps[i]
		}
		out[c.Valuation(s).String()] = row
	}
	return out
}

// PRISM's DTMC semantics: the chain picks uniformly among the enabled
// unlabelled commands of the modules and the synchronised actions; [go]
// runs only when every module with go has it enabled.
func TestPRISMSemantics(t *testing.T) {
	m := &statespace.Model{
		Name:      "two modules",
		Semantics: statespace.PRISM,
		Modules:   []string{"m1", "m2"},
		Vars: []statespace.Var{
			{Name: "a", Lo: 0, Hi: 1, Module: 0, Input: true},
			{Name: "b", Lo: 0, Hi: 1, Module: 1},
		},
		Commands: []statespace.Command{
			{Module: 0, Guard: eq("a", 0), Updates: []statespace.Update{{Assigns: []statespace.Assign{set(0, 1)}}}},
			{Module: 1, Guard: eq("b", 0), Updates: []statespace.Update{
				{Prob: frac(1, 2), Assigns: []statespace.Assign{set(1, 1)}},
				{Prob: frac(1, 2), Assigns: []statespace.Assign{set(1, 0)}}}},
			{Module: 0, Action: "go", Guard: eq("a", 1), Updates: []statespace.Update{
				{Prob: frac(1, 3), Assigns: []statespace.Assign{set(0, 0)}}, {Prob: frac(2, 3)}}},
			{Module: 1, Action: "go", Guard: eq("b", 1), Updates: []statespace.Update{{Assigns: []statespace.Assign{set(1, 0)}}}},
		},
	}
	mech, err := m.Build(context.Background(), model.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]*big.Rat{
		// m1's and m2's commands, 1/2 each; m2's splits again.
		"a=0, b=0": {"a=1, b=0": r("1/2"), "a=0, b=1": r("1/4"), "a=0, b=0": r("1/4")},
		// m2's command only: go needs both modules.
		"a=1, b=0": {"a=1, b=1": r("1/2"), "a=1, b=0": r("1/2")},
		// m1's command only (m1's go needs a = 1).
		"a=0, b=1": {"a=1, b=1": r("1")},
		// go alone: m1 resets a with 1/3, m2 resets b; probabilities multiply.
		"a=1, b=1": {"a=0, b=0": r("1/3"), "a=1, b=0": r("2/3")},
	}
	if d := cmp.Diff(want, rows(mech.Chain), ratCmp); d != "" {
		t.Errorf("rows (-want +got):\n%s", d)
	}
	if strings.Contains(mech.Note, "deadlock") {
		t.Errorf("note %q: no state deadlocks", mech.Note)
	}
}

// A PRISM state with no enabled command is a deadlock: it gets a self-loop
// and the label deadlock, and the note counts them.
func TestPRISMDeadlock(t *testing.T) {
	m := &statespace.Model{
		Name: "counter", Semantics: statespace.PRISM, Modules: []string{"m"},
		Vars: []statespace.Var{{Name: "x", Lo: 0, Hi: 2, Input: true}},
		Commands: []statespace.Command{{Guard: eq("x", 0), Updates: []statespace.Update{
			{Prob: frac(1, 2), Assigns: []statespace.Assign{set(0, 1)}},
			{Prob: frac(1, 2), Assigns: []statespace.Assign{set(0, 2)}}}}},
	}
	mech, err := m.Build(context.Background(), model.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	c := mech.Chain
	var dead []string
	for s := range c.NumStates() {
		if c.HasLabel(s, "deadlock") {
			dead = append(dead, c.Valuation(s).String())
		}
	}
	if d := cmp.Diff([]string{"x=1", "x=2"}, dead); d != "" {
		t.Errorf("deadlock states (-want +got):\n%s", d)
	}
	if !strings.Contains(mech.Note, "2 deadlock states got a self-loop, as PRISM does") {
		t.Errorf("note %q does not count the deadlocks", mech.Note)
	}
}
