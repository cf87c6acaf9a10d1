package chain_test

import (
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/google/go-cmp/cmp"
)

// rows describes a chain's rows as (target, probability) text, for
// comparisons.
func rows(c *chain.Chain) [][]string {
	var out [][]string
	for s := range c.NumStates() {
		to, p := c.Row(s)
		var row []string
		for i := range to {
			row = append(row, c.Name(to[i])+":"+p[i].RatString())
		}
		out = append(out, row)
	}
	return out
}

// TestAddRowFromOneArray: rows cut out of one array, as a loader hands
// them over, give the chain AddTransition gives — also when a row gets the
// sink's remainder appended (which must not overwrite the next row in the
// array) and when its targets come unsorted or repeated.
func TestAddRowFromOneArray(t *testing.T) {
	half, quarter := r("1/2"), r("1/4")
	build := func(bulk bool) *chain.Chain {
		b := chain.NewBuilder()
		b.Grow(4)
		a := b.AddStateOwned("a", chain.Valuation{{Name: "x", Value: 1}}, []string{"in", "a_label", "in"})
		bb := b.AddState("b", nil)
		c := b.AddState("c", chain.Valuation{{Name: "x", Value: 2}}, "out")
		d := b.AddState("d", nil)
		type tr struct {
			from, to int
			p        *big.Rat
		}
		plan := [][]tr{
			{{a, bb, half}, {a, c, quarter}},                    // then the sink: 1/4
			{{bb, d, quarter}, {bb, c, half}, {bb, d, quarter}}, // unsorted, d twice
		}
		tos, ps := make([]int, 0, 5), make([]*big.Rat, 0, 5)
		for _, row := range plan {
			lo := len(tos)
			for _, x := range row {
				if bulk {
					tos, ps = append(tos, x.to), append(ps, x.p)
				} else {
					b.AddTransition(x.from, x.to, x.p)
				}
			}
			if bulk {
				b.AddRow(row[0].from, tos[lo:], ps[lo:])
			}
		}
		b.SendRemainderToSink(a)
		b.MarkInput(a)
		ch, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		return ch
	}
	want, got := build(false), build(true)
	if diff := cmp.Diff(rows(want), rows(got)); diff != "" {
		t.Errorf("rows (-AddTransition +AddRow):\n%s", diff)
	}
	wantRows := [][]string{{"b:1/2", "c:1/4", "†:1/4"}, {"c:1/2", "d:1/2"}, {"c:1"}, {"d:1"}, {"†:1"}}
	if diff := cmp.Diff(wantRows, rows(got)); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"a_label", "in"}, got.Labels(0)); diff != "" {
		t.Errorf("labels of a, sorted and without repeats (-want +got):\n%s", diff)
	}
	if v, ok := got.Value(2, "x"); !ok || v != 2 {
		t.Errorf("x at c = %d, %v; want 2", v, ok)
	}
}

// TestAddRowErrors: a row with a state out of range, or with fewer
// probabilities than targets, is reported by Build, not a panic.
func TestAddRowErrors(t *testing.T) {
	b := chain.NewBuilder()
	a := b.AddState("a", nil)
	b.AddRow(a, []int{7}, []*big.Rat{r("1")})
	b.AddRow(a, []int{a, a}, []*big.Rat{r("1")})
	b.AddRow(9, nil, nil)
	_, err := b.Build()
	list, ok := err.(chain.ErrorList)
	if !ok {
		t.Fatalf("error %v, want a chain.ErrorList", err)
	}
	var kinds []chain.ErrorKind
	for _, e := range list {
		kinds = append(kinds, e.Kind)
	}
	if diff := cmp.Diff([]chain.ErrorKind{chain.UnknownState, chain.NilProbability, chain.UnknownState}, kinds); diff != "" {
		t.Errorf("error kinds (-want +got):\n%s\n%v", diff, err)
	}
}
