package statespace_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/statespace"
)

func less(n string, x int64) *expr.Expr {
	return &expr.Expr{Op: expr.Cmp, CmpOp: "<", Args: []*expr.Expr{name(n), num(x)}}
}

func plusOne(n string) *expr.Expr {
	return &expr.Expr{Op: expr.Sum, Args: []*expr.Expr{name(n), num(1)}, Inv: []bool{false, false}}
}

var yes = &expr.Expr{Op: expr.Bool, Truth: true}

// counter is a module of one variable x : [0..n] counting up.
func counter(n int64) *statespace.Model {
	return &statespace.Model{
		Name: "counter", Semantics: statespace.PRISM, Modules: []string{"m"},
		Vars:     []statespace.Var{{Name: "x", Lo: 0, Hi: n}},
		Commands: []statespace.Command{{Guard: less("x", n), Updates: []statespace.Update{{Assigns: []statespace.Assign{{Var: 0, Value: plusOne("x")}}}}}},
	}
}

// draws is a module drawing k variables from uniform(0, 9) in one update.
func draws(k int) *statespace.Model {
	m := &statespace.Model{Name: "draws", Semantics: statespace.DP, Modules: []string{"m"},
		Vars: []statespace.Var{{Name: "d", Lo: 0, Hi: 1}}}
	u := statespace.Update{Assigns: []statespace.Assign{set(0, 1)}}
	for i := range k {
		m.Vars = append(m.Vars, statespace.Var{Name: fmt.Sprintf("y%d", i), Lo: 0, Hi: 9})
		u.Assigns = append(u.Assigns, statespace.Assign{Var: i + 1, Noise: &statespace.Noise{Kind: statespace.Uniform, Args: []*expr.Expr{num(0), num(9)}}})
	}
	m.Commands = []statespace.Command{{Guard: eq("d", 0), Updates: []statespace.Update{u}}}
	return m
}

// synchronised is k modules of one variable each, with two commands [a]
// enabled everywhere: 2^k combinations of one command per module.
func synchronised(k int, mdp bool) *statespace.Model {
	m := &statespace.Model{Name: "sync", Semantics: statespace.PRISM, MDP: mdp}
	for i := range k {
		m.Modules = append(m.Modules, fmt.Sprintf("m%d", i))
		m.Vars = append(m.Vars, statespace.Var{Name: fmt.Sprintf("x%d", i), Lo: 0, Hi: 1, Module: i})
		for v := range int64(2) {
			m.Commands = append(m.Commands, statespace.Command{Module: i, Action: "a", Guard: yes, Updates: []statespace.Update{{Assigns: []statespace.Assign{set(i, v)}}}})
		}
	}
	return m
}

// limitOf returns the message and the limit an error of Build names.
func limitOf(t *testing.T, err error) (string, string) {
	t.Helper()
	var list source.ErrorList
	if !errors.As(err, &list) || len(list) != 1 {
		t.Fatalf("error %v (%T), want one positioned error", err, err)
	}
	return list[0].Msg, list[0].Limit
}

// TestMemoryLimit: a counter over [0..10^9] is stopped by the memory
// limit as it explores, long before it holds the limit (the estimate
// counts what the explored states and the chain built from them take).
func TestMemoryLimit(t *testing.T) {
	l := model.Limits{MaxMemory: 32 << 20}
	_, err := counter(1_000_000_000).Build(context.Background(), l)
	msg, limit := limitOf(t, err)
	re := regexp.MustCompile(`^exploring the model would need more than 32 MiB of memory \(([0-9,]+) states and ([0-9,]+) transitions so far, with the chain built from them\); the limit is 32 MiB$`)
	m := re.FindStringSubmatch(msg)
	if m == nil || limit != string(model.LimitMemory) {
		t.Fatalf("%q (limit %q), want the memory limit", msg, limit)
	}
	if n := strings.ReplaceAll(m[1], ",", ""); len(n) < 5 || len(n) > 6 {
		t.Errorf("stopped at %s states, want between 10 000 and 999 999 for 32 MiB", m[1])
	}
}

// TestDrawsProduct: eight draws from uniform(0, 9) in one update have 10^8
// outcomes together: counted before they are enumerated, against the
// transitions limit and, when that is raised, the memory limit.
func TestDrawsProduct(t *testing.T) {
	at := "(d=0, y0=0, y1=0, y2=0, y3=0, y4=0, y5=0, y6=0, y7=0)"
	for _, c := range []struct {
		l          model.Limits
		msg, limit string
	}{
		{model.Limits{}, "the draws of this update have 100,000,000 outcomes together at " + at + ", more than the limit of 10,000,000 transitions", "transitions"},
		{model.Limits{MaxTransitions: 1 << 40}, "the draws of this update have 100,000,000 outcomes together at " + at + ", which would need about 55.9 GiB of memory; the limit is 4 GiB", "memory"},
	} {
		_, err := draws(8).Build(context.Background(), c.l)
		msg, limit := limitOf(t, err)
		if msg != c.msg || limit != c.limit {
			t.Errorf("%q (limit %q), want %q (%s)", msg, limit, c.msg, c.limit)
		}
	}
	if _, err := draws(3).Build(context.Background(), model.Limits{}); err != nil {
		t.Errorf("three draws (1000 outcomes): %v", err)
	}
}

// TestSynchronisationProduct: 27 modules with two enabled [a] commands
// each have 2^27 combinations at every state: counted before they are
// enumerated, in a chain and in an MDP; with 20 modules (2^20) they are
// within the transitions limit, and counted against the memory limit.
func TestSynchronisationProduct(t *testing.T) {
	zeros := make([]string, 27)
	for i := range zeros {
		zeros[i] = fmt.Sprintf("x%d=0", i)
	}
	want := "the commands synchronised on [a] have 134,217,728 outcomes (134,217,728 combinations of one enabled command per module) at (" + strings.Join(zeros, ", ") + "), more than the limit of 10,000,000 transitions"
	for _, mdp := range []bool{false, true} {
		_, err := synchronised(27, mdp).Build(context.Background(), model.Limits{})
		msg, limit := limitOf(t, err)
		if msg != want || limit != "transitions" {
			t.Errorf("MDP %v: %q (limit %q), want %q", mdp, msg, limit, want)
		}
	}
	_, err := synchronised(20, false).Build(context.Background(), model.Limits{MaxMemory: 64 << 20})
	msg, limit := limitOf(t, err)
	want = "the commands synchronised on [a] have 1,048,576 outcomes (1,048,576 combinations of one enabled command per module) at (" + strings.Join(zeros[:20], ", ") + "), which would need about 1.1 GiB of memory; the limit is 64 MiB"
	if msg != want || limit != "memory" {
		t.Errorf("20 modules: %q (limit %q), want %q", msg, limit, want)
	}
}

// countdown is a context that ends after its Err has been asked n times:
// it finds the loops that check the context.
type countdown struct {
	context.Context
	n int
}

func (c *countdown) Err() error {
	if c.n--; c.n < 0 {
		return context.Canceled
	}
	return nil
}

// TestExplorationContext: the exploration stops with the context's error
// inside the enumeration of a state's synchronised combinations (2^16 of
// them at the first state, whose exploration checks the context once
// before it starts).
func TestExplorationContext(t *testing.T) {
	ctx := &countdown{Context: context.Background(), n: 1}
	_, err := synchronised(16, false).Build(ctx, model.Limits{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Build: %v, want context.Canceled", err)
	}
}

// TestLabelsMemory: the labels every state carries are counted against the
// memory limit as the chain is built (2000 labels holding at 10 000
// states are 320 MB).
func TestLabelsMemory(t *testing.T) {
	m := counter(10_000)
	for i := range 2000 {
		m.Labels = append(m.Labels, statespace.Label{Name: fmt.Sprintf("l%d", i), Cond: yes})
	}
	_, err := m.Build(context.Background(), model.Limits{MaxMemory: 64 << 20})
	msg, limit := limitOf(t, err)
	if !strings.HasPrefix(msg, "exploring the model would need more than 64 MiB of memory (10,001 states and 10,001 transitions so far") || limit != "memory" {
		t.Errorf("%q (limit %q), want the memory limit once every state is explored", msg, limit)
	}
}
