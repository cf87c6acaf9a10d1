package prism_test

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/rand"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/prism"
	"github.com/dpcheck/dpcheck/source"
	"github.com/google/go-cmp/cmp"
)

// formulaChain defines f1 = -f0, f2 = -f1, … fn = -f(n-1), f0 = s: written
// out, fn nests n levels deep.
func formulaChain(n int) string {
	var b strings.Builder
	b.WriteString("dtmc\nformula f0 = s;\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "formula f%d = -f%d;\n", i, i-1)
	}
	fmt.Fprintf(&b, "module m\n  s : [0..1] init 0;\n  [] f%d = 0 -> (s'=1);\nendmodule\n", n)
	return b.String()
}

// formulaDoubling defines f1 = f0 + f0, … f63 = f62 + f62: written out,
// 2^63 nodes.
func formulaDoubling(n int) string {
	var b strings.Builder
	b.WriteString("dtmc\nformula f0 = s;\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "formula f%d = f%d + f%d;\n", i, i-1, i-1)
	}
	fmt.Fprintf(&b, "module m\n  s : [0..3] init 0;\n  [] s = 0 -> (s' = min(f%d, 3));\nendmodule\n", n)
	return b.String()
}

// namedDoubling names p0 = s=1 and p1 = "p0" & !"p0", … : each referring
// to the previous property twice.
func namedDoubling(n int) string {
	var b strings.Builder
	b.WriteString("\"p0\": s=1\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "\"p%d\": \"p%d\" & !\"p%d\"\n", i, i-1, i-1)
	}
	fmt.Fprintf(&b, "P=? [ F \"p%d\" ]\n", n)
	return b.String()
}

// TestExpansionLimits: formulas and named properties are written out
// where they are used, within MaxExpandedNodes nodes and
// MaxExpandedDepth levels, refused at the node where a limit is reached
// (before the translation builds more); the numbers computed from
// constants are counted against Limits.MaxBits.
func TestExpansionLimits(t *testing.T) {
	small := "dtmc\nmodule m\n  s : [0..3] init 0;\n  [] s = 0 -> (s'=1);\nendmodule\n"
	var propChain strings.Builder
	propChain.WriteString("formula g0 = s=1;\n")
	for i := 1; i <= 12_000; i++ {
		fmt.Fprintf(&propChain, "formula g%d = !g%d;\n", i, i-1)
	}
	propChain.WriteString("P=? [ F \"p\" | g12000 ]\nlabel \"p\" = s=2;\n")
	var propDoubling strings.Builder
	propDoubling.WriteString("formula g0 = s=1;\n")
	for i := 1; i <= 63; i++ {
		fmt.Fprintf(&propDoubling, "formula g%d = g%d & g%d;\n", i, i-1, i-1)
	}
	propDoubling.WriteString("P=? [ F g63 ]\n")
	var reversed strings.Builder // each constant defined by the next
	reversed.WriteString("dtmc\n")
	for i := range 12_000 {
		fmt.Fprintf(&reversed, "const int c%d = -c%d;\n", i, i+1)
	}
	reversed.WriteString("const int c12000 = 1;\nmodule m\n  s : [0..1] init 0;\n  [] s = c0 -> (s'=1);\nendmodule\n")
	bigConst := "dtmc\nconst int b = pow(3, 65536);\nconst int c = b*b*b;\nformula f0 = c + 1;\nformula f1 = f0 + f0;\nformula f2 = f1 + f1;\nformula f3 = f2 + f2;\n" +
		"module m\n  s : [0..1] init 0;\n  [] s < f3 -> (s'=1);\nendmodule\n"
	nodes := "the expressions expand to more than 1,000,000 nodes here, every formula written out where it is used and every named property where it is referred to; the limit is 1,000,000 nodes: simplify them"
	depth := "the expression nests more than 10,000 levels deep here, every formula, constant and label written out where it is used; the limit is 10,000 levels: simplify it"
	cases := []struct {
		name, model, props string
		maxBits            int64
		want               []string
	}{
		{name: "a chain of 12 000 formulas", model: formulaChain(12_000), props: "P=? [ F s=1 ]",
			want: []string{"m.pm:7003:17: " + depth}},
		{name: "a chain of 12 000 constants, each defined by the next", model: reversed.String(), props: "P=? [ F s=1 ]",
			want: []string{"m.pm:5002:19: " + depth}},
		{name: "formulas doubling 63 times", model: formulaDoubling(63), props: "P=? [ F s=1 ]",
			want: []string{"m.pm:4:14: " + nodes}},
		{name: "named properties doubling 63 times", model: small, props: namedDoubling(63),
			want: []string{"p.pctl:3:7: " + nodes}},
		{name: "a chain of 12 000 formulas in a property", model: small, props: propChain.String(),
			want: []string{"p.pctl:7003:18: " + depth}},
		{name: "formulas doubling 63 times in a property", model: small, props: propDoubling.String(),
			want: []string{"p.pctl:4:14: " + nodes}},
		{name: "numbers folded from constants", model: bigConst, props: "P=? [ F s=1 ]", maxBits: 3_000_000,
			want: []string{"m.pm:4:14: the numbers computed from constants come to more than 3,000,000 bits here; the limit is 3,000,000 bits"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := files(map[string]string{"m.pm": c.model, "p.pctl": c.props})
			cfg.Limits.MaxBits = c.maxBits
			_, err := cfg.CheckPRISM(context.Background(), "m.pm", "p.pctl", nil)
			if err == nil {
				t.Fatal("loads, want errors")
			}
			if d := cmp.Diff(c.want, errorsOf(t, err)); d != "" {
				t.Errorf("errors (-want +got):\n%s", d)
			}
			var list source.ErrorList
			if errors.As(err, &list) && c.maxBits > 0 && list[0].Limit != "bits" {
				t.Errorf("the error names the limit %q, want bits", list[0].Limit)
			}
		})
	}
}

// TestConstantChain: a chain of 100 000 constants, each the negation of
// the previous one, loads: each constant is evaluated once, however deep
// the chain.
func TestConstantChain(t *testing.T) {
	var b strings.Builder
	b.WriteString("dtmc\nconst int c0 = 1;\n")
	for i := 1; i <= 100_000; i++ {
		fmt.Fprintf(&b, "const int c%d = -c%d;\n", i, i-1)
	}
	b.WriteString("module m\n  s : [0..1] init 0;\n  [] s = c100000 -> (s'=0);\n  [] s = 0 -> (s'=1);\nendmodule\n")
	res := mustCheck(t, b.String(), "P=? [ F s=1 ]", nil)
	if d := cmp.Diff([]map[string]*big.Rat{{"s=0": r(1, 1)}}, probs(t, res), ratCmp); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestTranslationContext: the translation stops with the context's error
// when it ends (here before it starts: it checks every 4096 nodes).
func TestTranslationContext(t *testing.T) {
	mf, err := prism.ParseModel("m.pm", formulaDoubling(40))
	if err != nil {
		t.Fatal(err)
	}
	pf, err := prism.ParseProperties("p.pctl", "P=? [ F s=1 ]")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := prism.Program(mf, pf, prism.Options{Context: ctx}); !errors.Is(err, context.Canceled) {
		t.Errorf("Program: %v, want context.Canceled", err)
	}
	if _, err := prism.NewModel(mf, prism.Options{Context: ctx}); !errors.Is(err, context.Canceled) {
		t.Errorf("NewModel: %v, want context.Canceled", err)
	}
}

// TestClipText: an expression's text in messages is its source with runs
// of white space folded and cut after 200 characters, as
// strings.Fields and a cut at 200 runes write it.
func TestClipText(t *testing.T) {
	want := func(s string) string {
		s = strings.Join(strings.Fields(s), " ")
		if r := []rune(s); len(r) > 200 {
			return string(r[:200]) + "…"
		}
		return s
	}
	rng := rand.New(rand.NewSource(1))
	pieces := []string{"x", "y1", " ", "  ", "\t", "\n", "\r\n", "ε", "≤", "+", "(", ")", "\u00a0", "abc"}
	for range 2000 {
		var b strings.Builder
		for range rng.Intn(300) {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		s := b.String()
		if got := prism.ClipText(s); got != want(s) {
			t.Fatalf("clipText(%q) = %q, want %q", s, got, want(s))
		}
	}
}

// TestMaxErrors: a file with 5000 unknown names gets the first 1000
// errors (each compares the name with every other only for the first
// few) and a last one saying the translation stops.
func TestMaxErrors(t *testing.T) {
	var b strings.Builder
	b.WriteString("dtmc\nmodule m\n  s : [0..1] init 0;\n")
	for i := range 5000 {
		fmt.Fprintf(&b, "  [] z%d = 0 -> (s'=1);\n", i)
	}
	b.WriteString("endmodule\n")
	_, err := check(t, b.String(), "P=? [ F s=1 ]", nil)
	got := errorsOf(t, err)
	if len(got) != prism.MaxErrors+1 {
		t.Fatalf("%d errors, want %d", len(got), prism.MaxErrors+1)
	}
	if want := "m.pm:1004:6: more than 1,000 errors: the translation stops here"; got[len(got)-1] != want {
		t.Errorf("last error %q, want %q", got[len(got)-1], want)
	}
	if want := "m.pm:4:6: unknown name z0 (did you mean s?)"; got[0] != want {
		t.Errorf("first error %q, want %q", got[0], want)
	}
}
