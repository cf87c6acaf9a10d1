package spec_test

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/spec"
	"github.com/google/go-cmp/cmp"
)

// loaded is what a load gives, written out for comparisons: the errors
// ("line:col: message") and the explicit chain's states and rows.
type loaded struct {
	Errors []string
	States []string // "name (valuation) [labels] input"
	Rows   []string // "name -> target: p, …"
}

func describeLoad(p *property.Program, err error) loaded {
	var l loaded
	if err != nil {
		list, ok := err.(source.ErrorList)
		if !ok {
			return loaded{Errors: []string{"not a list: " + err.Error()}}
		}
		for _, e := range list {
			l.Errors = append(l.Errors, fmt.Sprintf("%d:%d: %s [%s]", e.Pos.Line, e.Pos.Column, e.Msg, e.Limit))
		}
	}
	if p == nil {
		return l
	}
	m, ok := p.Model.(*property.ChainModel)
	if !ok {
		return l
	}
	c := m.Chain
	for s := range c.NumStates() {
		l.States = append(l.States, fmt.Sprintf("%s (%s) %v %v", c.Name(s), c.Valuation(s), c.Labels(s), c.IsInput(s)))
		to, ps := c.Row(s)
		row := c.Name(s) + " ->"
		for i := range to {
			row += " " + c.Name(to[i]) + ": " + ps[i].RatString()
		}
		l.Rows = append(l.Rows, row)
	}
	return l
}

// loadBothWays loads src as dpcheck does (spec.Options.Load, which reads
// chain blocks into compact records, probabilities that are literals or
// were written before without an expression) and by checking the parsed
// file (spec.Parse, whose AST the formatter uses).
func loadBothWays(t testing.TB, o spec.Options, src string) (fast, parsed loaded) {
	t.Helper()
	ctx := context.Background()
	fast = describeLoad(o.Load(ctx, "t.dp", src))
	f, err := spec.Parse("t.dp", src)
	if err != nil {
		return fast, describeLoad(nil, err)
	}
	return fast, describeLoad(o.Check(ctx, f))
}

// chainCorpus are chain blocks that exercise the loader's shortcuts and
// their fallbacks: literals and fractions, expressions written once and
// again, expressions a literal starts, names a literal is followed by,
// comments and line breaks inside probabilities, and errors of every kind.
func chainCorpus() []string {
	return []string{
		"chain {\n  state a (x = 1) [in]\n  state b (x = -2, y = 3)\n  a -> b : 1/2, a : 0.5\n}\ninputs a\nneighbours a ~ b\ncheck dp(eps = 1)\n",
		"const p = 1/3\nchain {\n  state a\n  state b\n  a -> b : p, a : 1 - p\n  b -> a : p, b : 1 - p\n}\ninputs a, b\nneighbours a ~ b\nquery eps(delta = 0)\n",
		// A literal that starts an expression, and expressions of literals.
		"chain {\n  state a\n  state b\n  a -> b : 1/2*1, a : 1/2^1\n  b -> a : 1/4 + 1/4, b : 1/2\n}\ninputs a, b\nneighbours a ~ b\nquery eps(delta = 0)\n",
		"chain {\n  state a\n  state b\n  a -> b : -1/2, a : 3/2\n  b -> a : 1/0, b : 1\n}\ninputs a, b\nneighbours a ~ b\n",
		// The same wrong expression in several rows; the first in a row
		// refused for an unknown state, so that it is first computed later.
		"chain {\n  state a\n  state b\n  a -> zz : q, a : 1/(1-1)\n  b -> a : q, b : 1/(1-1)\n  c -> a : q\n}\ninputs a, b\nneighbours a ~ b\ncheck dp(eps = 1)\n",
		// Probabilities across lines, with comments, and a row that
		// continues on the next line.
		"chain {\n  state a\n  state b\n  a -> b : 1/2 /* half */, a : 1/2\n  b -> a : 1/4\n    + 1/4, b : 1/2 // rest\n}\ninputs a, b\nneighbours a ~ b\n",
		// Two rows on one line, a quoted state, the sink.
		"chain {\n  state \"+\" [in]\n  state \"-\" [in]\n  state o\n  \"+\" -> o : 3/4 else sink \"-\" -> o : 1/4 else †\n}\ninputs \"+\", \"-\"\nneighbours \"+\" ~ \"-\"\n",
		"chain {\n  state a\n  a -> a : 1/2 else nowhere\n}\ninputs a\nneighbours a ~ a\n",
		// Duplicates, keywords, reserved names, empty names and labels.
		"chain {\n  state a (x = 1, x = 2) [l, l]\n  state a\n  state X\n  state sink\n  state \"\" [\"\"]\n  a -> a : 1/2, a : 1/2\n  a -> a : 1\n}\ninputs a, a\nneighbours a ~ b\n",
		"chain {\n  state \"\" [\"\"]\n  state b\n  \"\" -> b : 1\n}\ninputs b, \"\"\nneighbours b ~ \"\"\n",
		// Values that are not integer literals.
		"const n = 4\nchain {\n  state a (x = n, y = 1/2, z = 2^70, w = - 3, v = 123456789012345678901)\n}\ninputs a\nneighbours a ~ a\n",
		// Literals the evaluator refuses.
		"chain {\n  state a\n  a -> a : 0." + strings.Repeat("1", 1200) + ", a : 1e-2000, a : 1/" + strings.Repeat("9", 400000) + "\n}\ninputs a\nneighbours a ~ a\n",
		// A name right after a literal: the literal ends there.
		"chain {\n  state a\n  state b\n  a -> b : 1 b -> a : 1\n}\ninputs a, b\nneighbours a ~ b\n",
		// Syntax errors inside and after a probability.
		"chain {\n  state a\n  a -> a : 1/2 ,\n}\n",
		"chain {\n  state a\n  a -> a : 1/σ\n}\n",
		"chain {\n  state a\n  a -> a : 1/2σ\n}\n",
		"chain {\n  state a\n  a -> a : 1/2\n  a -> a : 1/2σ\n}\n",
		"chain {\n  state a\n  a -> a : 1\n}\ninputs a\nneighbours a ~ a\ncheck dp(eps = \n",
		"chain {\n  state a\n  a -> a : 1 U 1\n}\n",
		"chain {\n  state a\n  a -> a : p(1)\n}\ninputs a\nneighbours a ~ a\n",
		"chain {\n  state a\n  a -> a : 1\n  a -> a : 1\n",
	}
}

// TestLoadMatchesParse: loading a file gives exactly what checking its
// parse gives — the same chain, exact values and all, and the same errors
// at the same positions — for the corpus above and every model of models/.
func TestLoadMatchesParse(t *testing.T) {
	srcs := chainCorpus()
	files, _ := filepath.Glob("../models/*.dp")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, string(data))
	}
	for i, src := range srcs {
		for _, o := range []spec.Options{{}, {Limits: model.Limits{MaxStates: 3, MaxTransitions: 6, MaxBits: 200}}} {
			fast, parsed := loadBothWays(t, o, src)
			if diff := cmp.Diff(parsed, fast); diff != "" {
				t.Errorf("source %d, limits %+v: (-parsed +loaded):\n%s\n%s", i, o.Limits, diff, src)
			}
		}
	}
}

// TestLoadErrorPositions: the errors of repeated and cached probabilities
// are where each occurrence is, as a parse reports them.
func TestLoadErrorPositions(t *testing.T) {
	src := chainCorpus()[4]
	got := describeLoad(spec.Options{}.Load(context.Background(), "t.dp", src))
	want := []string{
		"4:8: unknown state zz (did you mean a?) []",
		"4:21: division by zero []", // a's row goes on after zz
		"5:12: unknown name q []",   // q is first computed here
		"5:20: division by zero []",
		"6:3: unknown state c (did you mean a?) []",
	}
	if diff := cmp.Diff(want, got.Errors); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

// TestLoadSharesProbabilities: a probability text written many times is
// one *big.Rat in the chain; equal values written differently are not.
func TestLoadSharesProbabilities(t *testing.T) {
	src := "const p = 1/3\nchain {\n  state a\n  state b\n  state c\n" +
		"  a -> b : 1/3, c : 2/3\n  b -> a : 1/3, c : 2/3\n  c -> a : p, b : 2/3\n}\ninputs a, b\nneighbours a ~ b\nquery eps(delta = 0)\n"
	p, err := spec.Load(context.Background(), "t.dp", src)
	if err != nil {
		t.Fatal(err)
	}
	c := p.Model.(*property.ChainModel).Chain
	prob := func(from, to string) *big.Rat {
		s, _ := c.Lookup(from)
		u, _ := c.Lookup(to)
		return c.Prob(s, u)
	}
	if prob("a", "b") != prob("b", "a") || prob("a", "c") != prob("b", "c") || prob("a", "c") != prob("c", "b") {
		t.Errorf("1/3 or 2/3, written several times, are several values")
	}
	if prob("c", "a") == prob("a", "b") || prob("c", "a").Cmp(big.NewRat(1, 3)) != 0 {
		t.Errorf("p = %s (want 1/3, its own value)", prob("c", "a"))
	}
}

// countdown is a context that ends after its Err has been asked n times.
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

// TestLoadStopsInChain: a context that ends while a long chain block is
// read ends the load with the context's error, before the block is
// checked; the reader asks the context once every 1024 states or rows.
func TestLoadStopsInChain(t *testing.T) {
	var b strings.Builder
	b.WriteString("chain {\n")
	for i := range 5000 {
		fmt.Fprintf(&b, "  state s%d\n  s%d -> s%d : 1\n", i, i, (i+1)%5000)
	}
	b.WriteString("}\ninputs s0, s1\nneighbours s0 ~ s1\ncheck dp(eps = 1)\n")
	for _, n := range []int{0, 5, 9} { // 10 000 items: the reader asks 10 times
		ctx := &countdown{Context: context.Background(), n: n}
		if p, err := spec.Load(ctx, "big.dp", b.String()); !errors.Is(err, context.Canceled) || p != nil {
			t.Errorf("ended after %d questions: program %v, error %v; want none and context.Canceled", n, p, err)
		}
	}
	ctx := &countdown{Context: context.Background(), n: 10} // the block is read; its check stops
	if _, err := spec.Load(ctx, "big.dp", b.String()); !errors.Is(err, context.Canceled) {
		t.Errorf("ended after the block was read: %v, want context.Canceled", err)
	}
}

// TestLoadOverLimitKeepsCounting: a block over a limit is refused with
// its totals — counted to its end, though nothing of it is kept beyond
// the limit — as when it is parsed.
func TestLoadOverLimitKeepsCounting(t *testing.T) {
	var b strings.Builder
	b.WriteString("chain {\n")
	for i := range 300 {
		fmt.Fprintf(&b, "  state s%d\n  s%d -> s%d : 1/2, s%d : 1/2\n", i, i, i, (i+1)%300)
	}
	b.WriteString("}\ninputs s0, s1\nneighbours s0 ~ s1\ncheck dp(eps = 1)\n")
	for _, tc := range []struct {
		limits model.Limits
		want   string
	}{
		{model.Limits{MaxStates: 100}, "1:1: the chain declares 300 states; the limit is 100 states [states]"},
		{model.Limits{MaxTransitions: 500}, "1:1: the chain would have about 1,201 transitions; the limit is 500 transitions [transitions]"},
		// 1/2 has 3 bits: the 201st is over 600.
		{model.Limits{MaxBits: 600}, "203:18: the numbers of this file need more than 600 bits in all; the limit is 600 bits [bits]"},
	} {
		fast, parsed := loadBothWays(t, spec.Options{Limits: tc.limits}, b.String())
		if diff := cmp.Diff([]string{tc.want}, fast.Errors); diff != "" {
			t.Errorf("limits %+v (-want +got):\n%s", tc.limits, diff)
		}
		if diff := cmp.Diff(parsed, fast); diff != "" {
			t.Errorf("limits %+v (-parsed +loaded):\n%s", tc.limits, diff)
		}
	}
}

// FuzzLoadParse: for any input, loading (compact chain records, literal
// and repeated probabilities read without an AST) and checking the parse
// agree: the same errors at the same positions, or the same chain.
//
//	go test ./spec -run '^$' -fuzz FuzzLoadParse -fuzztime 60s
func FuzzLoadParse(f *testing.F) {
	for _, src := range chainCorpus() {
		f.Add(src)
	}
	f.Add(flatChain(40))
	o := spec.Options{Limits: model.Limits{MaxStates: 200, MaxTransitions: 1000, MaxBits: 1 << 16}}
	f.Fuzz(func(t *testing.T, src string) {
		fast, parsed := loadBothWays(t, o, src)
		if diff := cmp.Diff(parsed, fast); diff != "" {
			t.Fatalf("(-parsed +loaded):\n%s", diff)
		}
	})
}

// TestLoadNumbers: probabilities written as numbers and fractions — read
// without an expression, small ones without big.Rat's parser — are the
// exact rationals they denote.
func TestLoadNumbers(t *testing.T) {
	texts := []string{"0", "1", "0.25", ".5", "1.", "0.1", "1e-1", "2.5e-1", "0.333333333333333333", "0.3333333333333333333",
		"0.000000000000000001", "1/3", "10/20", "000/7", "0/1", "999999999999999999/1000000000000000000",
		"1/1000000000000000000000", "0.5/2", "1e-3/1", "3/4.0"}
	var b strings.Builder
	b.WriteString("chain {\n  state z\n")
	for i, x := range texts {
		fmt.Fprintf(&b, "  state a%d\n  a%d -> z : %s else sink\n", i, i, x)
	}
	b.WriteString("}\ninputs a0, a1\nneighbours a0 ~ a1\ncheck dp(eps = 1)\n")
	p, err := spec.Load(context.Background(), "t.dp", b.String())
	if err != nil {
		t.Fatal(err)
	}
	c := p.Model.(*property.ChainModel).Chain
	z, _ := c.Lookup("z")
	var got, want []*big.Rat
	for i, x := range texts {
		s, _ := c.Lookup(fmt.Sprintf("a%d", i))
		got = append(got, c.Prob(s, z))
		w, ok := new(big.Rat).SetString(x)
		if !ok {
			num, den, _ := strings.Cut(x, "/")
			n, _ := new(big.Rat).SetString(num)
			d, _ := new(big.Rat).SetString(den)
			w = n.Quo(n, d)
		}
		want = append(want, w)
	}
	if diff := cmp.Diff(want, got, ratCmp); diff != "" {
		t.Errorf("probabilities (-want +got):\n%s", diff)
	}
}
