package lump_test

import (
	"context"
	"errors"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/lump"
	"github.com/google/go-cmp/cmp"
)

var ratCmp = cmp.Comparer(func(x, y *big.Rat) bool { return x.Cmp(y) == 0 })

func r(s string) *big.Rat {
	x, ok := new(big.Rat).SetString(s)
	if !ok {
		panic("bad rational " + s)
	}
	return x
}

// st is a state of a hand-made chain.
type st struct {
	name   string
	val    chain.Valuation
	labels []string
	input  bool
	row    []tr
	sink   bool // send the rest of the row to the sink
}

type tr struct {
	to string
	p  string
}

func build(t *testing.T, states []st) *chain.Chain {
	t.Helper()
	b := chain.NewBuilder()
	for _, s := range states {
		id := b.AddState(s.name, s.val, s.labels...)
		if s.input {
			b.MarkInput(id)
		}
	}
	for i, s := range states {
		for _, x := range s.row {
			b.AddTransitionTo(i, x.to, r(x.p))
		}
		if s.sink {
			b.SendRemainderToSink(i)
		}
	}
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// blocks returns the partition as lists of state names, in block order.
func blocks(c *chain.Chain, block []int) [][]string {
	var out [][]string
	for s, b := range block {
		for len(out) <= b {
			out = append(out, nil)
		}
		out[b] = append(out[b], c.Name(s))
	}
	return out
}

// labelKey observes the labels of a state.
func labelKey(c *chain.Chain) func(int) string {
	return func(s int) string {
		k := ""
		for _, l := range c.Labels(s) {
			k += l + "\x00"
		}
		return k
	}
}

// fork: an input moves to a or b, which reach the outputs o1, o1b and o2
// with the same probabilities once o1 and o1b are one output.
func fork(t *testing.T) *chain.Chain {
	return build(t, []st{
		{name: "s", input: true, row: []tr{{"a", "1/2"}, {"b", "1/4"}, {"c", "1/4"}}},
		{name: "a", val: chain.Valuation{{Name: "k", Value: 1}, {Name: "m", Value: 5}}, labels: []string{"mid", "x"}, row: []tr{{"o1", "1/3"}, {"o2", "2/3"}}},
		{name: "b", val: chain.Valuation{{Name: "k", Value: 2}, {Name: "m", Value: 5}}, labels: []string{"mid"}, row: []tr{{"o1b", "1/3"}, {"o2", "2/3"}}},
		{name: "c", val: chain.Valuation{{Name: "k", Value: 3}, {Name: "m", Value: 5}}, labels: []string{"mid"}, row: []tr{{"o1", "1/6"}, {"o1b", "1/6"}, {"o2", "2/3"}}},
		{name: "o1", val: chain.Valuation{{Name: "y", Value: 1}}},
		{name: "o1b", val: chain.Valuation{{Name: "y", Value: 1}, {Name: "z", Value: 7}}},
		{name: "o2", val: chain.Valuation{{Name: "y", Value: 2}}},
	})
}

func yKey(c *chain.Chain) func(int) string {
	return func(s int) string {
		v, _ := c.Value(s, "y")
		return string(rune('0' + v))
	}
}

func TestPartitionFork(t *testing.T) {
	ctx := context.Background()
	c := fork(t)
	for _, tc := range []struct {
		name string
		r    lump.Respect
		want [][]string
	}{
		{"outputs by value", lump.Respect{Final: true, Key: yKey(c)},
			[][]string{{"s"}, {"a", "b", "c"}, {"o1", "o1b"}, {"o2"}}},
		{"every absorbing state its own output", lump.Respect{Final: true, Key: c.Name},
			[][]string{{"s"}, {"a"}, {"b"}, {"c"}, {"o1"}, {"o1b"}, {"o2"}}},
		{"labels", lump.Respect{Key: labelKey(c)},
			[][]string{{"s"}, {"a"}, {"b", "c"}, {"o1", "o1b", "o2"}}},
		{"nothing observed", lump.Respect{},
			[][]string{{"s"}, {"a", "b", "c", "o1", "o1b", "o2"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			block, err := lump.Partition(ctx, c, tc.r)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, blocks(c, block)); diff != "" {
				t.Errorf("partition (-want +got):\n%s", diff)
			}
		})
	}
}

// row is a quotient row as (target name, probability).
type row map[string]*big.Rat

func rows(q *chain.Chain) map[string]row {
	out := map[string]row{}
	for s := range q.NumStates() {
		to, p := q.Row(s)
		rw := row{}
		for i, x := range to {
			rw[q.Name(x)] = p[i]
		}
		out[q.Name(s)] = rw
	}
	return out
}

func TestQuotientFork(t *testing.T) {
	c := fork(t)
	l, err := lump.Lump(context.Background(), c, lump.Respect{Final: true, Key: yKey(c)})
	if err != nil {
		t.Fatal(err)
	}
	q := l.Quotient
	want := map[string]row{
		"s":  {"a": r("1")},
		"a":  {"o1": r("1/3"), "o2": r("2/3")},
		"o1": {"o1": r("1")},
		"o2": {"o2": r("1")},
	}
	if diff := cmp.Diff(want, rows(q), ratCmp); diff != "" {
		t.Errorf("quotient rows (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{0, 1, 1, 1, 2, 2, 3}, l.Block); diff != "" {
		t.Errorf("Block (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{0, 1, 4, 6}, l.Rep); diff != "" {
		t.Errorf("Rep (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{4, 5}, l.Members(2)); diff != "" {
		t.Errorf("Members(2) (-want +got):\n%s", diff)
	}
	if got, want := [2]lump.Size{l.Before, l.After}, [2]lump.Size{{7, 13}, {4, 5}}; got != want {
		t.Errorf("sizes = %v, want %v", got, want)
	}
	// A block keeps what its members share: a, b and c share m=5 and the
	// label mid; o1 and o1b share y=1.
	if got, want := q.Describe(1), "a (m=5)"; got != want {
		t.Errorf("block of a = %q, want %q", got, want)
	}
	if diff := cmp.Diff([]string{"mid"}, q.Labels(1)); diff != "" {
		t.Errorf("labels of the block of a (-want +got):\n%s", diff)
	}
	if got, want := q.Describe(2), "o1 (y=1)"; got != want {
		t.Errorf("block of o1 = %q, want %q", got, want)
	}
	if diff := cmp.Diff([]int{0}, q.Inputs()); diff != "" {
		t.Errorf("quotient inputs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{2, 3}, q.Absorbing()); diff != "" {
		t.Errorf("quotient absorbing states (-want +got):\n%s", diff)
	}
}

// TestInputsAlone: two inputs with the same behaviour stay apart, and so
// does an input that behaves like a non-input.
func TestInputsAlone(t *testing.T) {
	c := build(t, []st{
		{name: "i1", input: true, row: []tr{{"m", "1"}}},
		{name: "i2", input: true, row: []tr{{"m", "1"}}},
		{name: "n", row: []tr{{"m", "1"}}},
		{name: "m", row: []tr{{"o", "1"}}},
		{name: "o"},
	})
	block, err := lump.Partition(context.Background(), c, lump.Respect{})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"i1"}, {"i2"}, {"n", "m", "o"}}
	if diff := cmp.Diff(want, blocks(c, block)); diff != "" {
		t.Errorf("partition (-want +got):\n%s", diff)
	}
}

// TestNeverAbsorbed: with final outputs, states whose runs are never
// absorbed stay alone (a block of them would be an absorbing state of the
// quotient); for traces they merge.
func TestNeverAbsorbed(t *testing.T) {
	c := build(t, []st{
		{name: "s", input: true, row: []tr{{"a", "1/2"}, {"b", "1/2"}}},
		{name: "a", row: []tr{{"u", "1/2"}, {"o", "1/2"}}},
		{name: "b", row: []tr{{"w", "1/2"}, {"o", "1/2"}}},
		{name: "u", row: []tr{{"v", "1"}}},
		{name: "v", row: []tr{{"u", "1"}}},
		{name: "w", row: []tr{{"w", "1/3"}, {"z", "2/3"}}},
		{name: "z", row: []tr{{"w", "1"}}},
		{name: "o", labels: []string{"out"}},
	})
	ctx := context.Background()
	final, err := lump.Lump(ctx, c, lump.Respect{Final: true, Key: labelKey(c)})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"s"}, {"a"}, {"b"}, {"u"}, {"v"}, {"w"}, {"z"}, {"o"}}
	if diff := cmp.Diff(want, blocks(c, final.Block)); diff != "" {
		t.Errorf("final partition (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{7}, final.Quotient.Absorbing()); diff != "" {
		t.Errorf("absorbing states of the final quotient (-want +got):\n%s", diff)
	}
	traces, err := lump.Lump(ctx, c, lump.Respect{Key: labelKey(c)})
	if err != nil {
		t.Fatal(err)
	}
	want = [][]string{{"s"}, {"a", "b"}, {"u", "v", "w", "z"}, {"o"}}
	if diff := cmp.Diff(want, blocks(c, traces.Block)); diff != "" {
		t.Errorf("trace partition (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]row{
		"s": {"a": r("1")},
		"a": {"u": r("1/2"), "o": r("1/2")},
		"u": {"u": r("1")},
		"o": {"o": r("1")},
	}, rows(traces.Quotient), ratCmp); diff != "" {
		t.Errorf("trace quotient rows (-want +got):\n%s", diff)
	}
}

// TestDistances needs one round of splitting per step: states are merged
// exactly when they are as far from the labelled end.
func TestDistances(t *testing.T) {
	c := build(t, []st{
		{name: "in", input: true, row: []tr{{"x1", "1/2"}, {"y1", "1/2"}}},
		{name: "x1", row: []tr{{"x2", "1"}}},
		{name: "x2", row: []tr{{"x3", "1"}}},
		{name: "x3", row: []tr{{"end", "1"}}},
		{name: "y1", row: []tr{{"y2", "1"}}},
		{name: "y2", row: []tr{{"y3", "1"}}},
		{name: "y3", row: []tr{{"y4", "1"}}},
		{name: "y4", row: []tr{{"end", "1"}}},
		{name: "end", labels: []string{"e"}},
	})
	block, err := lump.Partition(context.Background(), c, lump.Respect{Key: labelKey(c)})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"in"}, {"x1", "y2"}, {"x2", "y3"}, {"x3", "y4"}, {"y1"}, {"end"}}
	if diff := cmp.Diff(want, blocks(c, block)); diff != "" {
		t.Errorf("partition (-want +got):\n%s", diff)
	}
}

// TestWeights: equal targets are not enough, the probabilities must be
// equal too; and splitting a block reaches its predecessors.
func TestWeights(t *testing.T) {
	c := build(t, []st{
		{name: "in", input: true, row: []tr{{"p", "1/3"}, {"q", "1/3"}, {"r", "1/3"}}},
		{name: "p", row: []tr{{"a", "1/4"}, {"b", "3/4"}}},
		{name: "q", row: []tr{{"a", "3/4"}, {"b", "1/4"}}},
		{name: "r", row: []tr{{"a", "1/8"}, {"a2", "1/8"}, {"b", "3/4"}}},
		{name: "a", labels: []string{"A"}},
		{name: "a2", labels: []string{"A"}},
		{name: "b", labels: []string{"B"}},
		{name: "pp", row: []tr{{"p", "1"}}},
		{name: "rr", row: []tr{{"r", "1"}}},
		{name: "qq", row: []tr{{"q", "1"}}},
	})
	block, err := lump.Partition(context.Background(), c, lump.Respect{Final: true, Key: labelKey(c)})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"in"}, {"p", "r"}, {"q"}, {"a", "a2"}, {"b"}, {"pp", "rr"}, {"qq"}}
	if diff := cmp.Diff(want, blocks(c, block)); diff != "" {
		t.Errorf("partition (-want +got):\n%s", diff)
	}
}

// TestSink: a sink alone in its block is the quotient's sink; merged with
// another absorbing state, it is named after it.
func TestSink(t *testing.T) {
	c := build(t, []st{
		{name: "in", input: true, row: []tr{{"a", "1/2"}}, sink: true},
		{name: "a", row: []tr{{"o", "1/3"}}, sink: true},
		{name: "b", row: []tr{{"o", "1/3"}}, sink: true},
		{name: "o", labels: []string{"out"}},
	})
	ctx := context.Background()
	alone, err := lump.Lump(ctx, c, lump.Respect{Final: true, Key: c.Name})
	if err != nil {
		t.Fatal(err)
	}
	q := alone.Quotient
	if diff := cmp.Diff(map[string]row{
		"in":           {"a": r("1/2"), chain.SinkName: r("1/2")},
		"a":            {"o": r("1/3"), chain.SinkName: r("2/3")},
		"o":            {"o": r("1")},
		chain.SinkName: {chain.SinkName: r("1")},
	}, rows(q), ratCmp); diff != "" {
		t.Errorf("quotient rows (-want +got):\n%s", diff)
	}
	if s, ok := q.Sink(); !ok || q.Name(s) != chain.SinkName {
		t.Errorf("the quotient has no sink")
	}
	merged, err := lump.Lump(ctx, c, lump.Respect{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]row{
		"in": {"a": r("1")},
		"a":  {"a": r("1")},
	}, rows(merged.Quotient), ratCmp); diff != "" {
		t.Errorf("quotient rows, nothing observed (-want +got):\n%s", diff)
	}
	if _, ok := merged.Quotient.Sink(); ok {
		t.Errorf("the sink merged with other states is still the quotient's sink")
	}
}

func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := lump.Lump(ctx, fork(t), lump.Respect{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Lump with a cancelled context: %v, want context.Canceled", err)
	}
}

// TestNothingMerges: when every state is alone, the chain is its own
// quotient.
func TestNothingMerges(t *testing.T) {
	c := fork(t)
	l, err := lump.Lump(context.Background(), c, lump.Respect{Final: true, Key: c.Name})
	if err != nil {
		t.Fatal(err)
	}
	if l.Quotient != c {
		t.Errorf("the quotient is a new chain of %d states, want the chain itself", l.Quotient.NumStates())
	}
	ids := []int{0, 1, 2, 3, 4, 5, 6}
	if diff := cmp.Diff(ids, l.Block); diff != "" {
		t.Errorf("Block (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(ids, l.Rep); diff != "" {
		t.Errorf("Rep (-want +got):\n%s", diff)
	}
	if l.Before != l.After || l.After != (lump.Size{States: 7, Transitions: 13}) {
		t.Errorf("sizes %v → %v, want 7 states and 13 transitions both", l.Before, l.After)
	}
}
