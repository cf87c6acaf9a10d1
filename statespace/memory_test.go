package statespace

import (
	"context"
	"math/big"
	"runtime"
	"testing"

	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/model"
)

func num(v int64) *expr.Expr { return &expr.Expr{Op: expr.Num, Value: big.NewRat(v, 1)} }

func vr(name string) *expr.Expr { return &expr.Expr{Op: expr.Var, Name: name} }

func cmpE(op string, a, b *expr.Expr) *expr.Expr {
	return &expr.Expr{Op: expr.Cmp, CmpOp: op, Args: []*expr.Expr{a, b}}
}

func plus(a, b *expr.Expr) *expr.Expr {
	return &expr.Expr{Op: expr.Sum, Args: []*expr.Expr{a, b}, Inv: []bool{false, false}}
}

// counterModel counts x up to n; each of the k other variables is drawn
// uniformly from [0, d-1] at each step (d outcomes each), so that a state
// has d^k transitions.
func counterModel(n int64, k int, d int64, mdp bool) *Model {
	m := &Model{Name: "counter", Semantics: PRISM, MDP: mdp, Modules: []string{"m"}}
	m.Vars = append(m.Vars, Var{Name: "x", Lo: 0, Hi: n})
	u := Update{Assigns: []Assign{{Var: 0, Value: plus(vr("x"), num(1))}}}
	for i := range k {
		name := string(rune('a' + i))
		m.Vars = append(m.Vars, Var{Name: name, Lo: 0, Hi: d - 1})
		u.Assigns = append(u.Assigns, Assign{Var: i + 1, Noise: &Noise{Kind: Uniform, Args: []*expr.Expr{num(0), num(d - 1)}}})
	}
	m.Commands = []Command{{Guard: cmpE("<", vr("x"), num(n)), Updates: []Update{u}, Text: "count"}}
	if mdp {
		m.Commands[0].Action = "a"
		c := m.Commands[0]
		c.Action = "b"
		m.Commands = append(m.Commands, c)
	}
	return m
}

var exprTrue = expr.Expr{Op: expr.Bool, Truth: true}

func heapInUse() int64 {
	runtime.GC()
	runtime.GC()
	var s runtime.MemStats
	runtime.ReadMemStats(&s)
	return int64(s.HeapAlloc)
}

// TestMemoryEstimate: what exploration estimates it holds, with the chain
// (or MDP frame) built from it, is at least what the Go heap holds once
// both are built, and not more than three times as much: the memory limit
// speaks for what is really allocated.
func TestMemoryEstimate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds models of up to 100 000 states")
	}
	for _, c := range []struct {
		name string
		m    *Model
	}{
		{"one variable, one transition a state", counterModel(100_000, 0, 1, false)},
		{"five variables, eight transitions a state", counterModel(10_000, 3, 2, false)},
		{"twelve variables", counterModel(50_000, 11, 1, false)},
		{"an MDP, two choices a state", counterModel(50_000, 1, 2, true)},
	} {
		l := model.DefaultLimits
		before := heapInUse()
		x, err := c.m.newExplorer(context.Background(), l)
		if err != nil {
			t.Fatal(err)
		}
		ch, err := x.run()
		if err != nil {
			t.Fatal(err)
		}
		if c.m.MDP {
			md, err := x.buildMDP(ch)
			if err != nil {
				t.Fatal(err)
			}
			defer runtime.KeepAlive(md)
		}
		used := heapInUse() - before
		est := x.held()
		t.Logf("%s: %d states, %d transitions: estimate %s, heap %s (%.2f)", c.name, ch.NumStates(), ch.NumTransitions(), model.Bytes(est), model.Bytes(used), float64(est)/float64(used))
		if est < used || est > 3*used {
			t.Errorf("%s: estimate %s, heap %s: want the estimate between the heap and 3 times it", c.name, model.Bytes(est), model.Bytes(used))
		}
		runtime.KeepAlive(x)
		runtime.KeepAlive(ch)
	}
}
