package spec_test

import (
	"context"
	"github.com/dpcheck/dpcheck/exact"
	"math/big"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/spec"
	"github.com/google/go-cmp/cmp"
)

func r(s string) *big.Rat {
	x, ok := new(big.Rat).SetString(s)
	if !ok {
		panic(s)
	}
	return x
}

var ratCmp = cmp.Comparer(func(x, y *big.Rat) bool { return x.Cmp(y) == 0 })

// errorsOf loads src and returns its errors as "line:col: message".
// errorsOf returns the errors of src, without "nothing to check" (most
// test inputs are about something else; errorsAll keeps it).
func errorsOf(t *testing.T, src string) []string {
	t.Helper()
	var out []string
	for _, e := range errorsAll(t, src) {
		if !strings.HasPrefix(e, "1:1: nothing to check") {
			out = append(out, e)
		}
	}
	return out
}

func errorsAll(t *testing.T, src string) []string {
	t.Helper()
	_, err := dpcheck.Config{}.Load(context.Background(), "t.dp", src)
	if err == nil {
		return nil
	}
	list, ok := err.(source.ErrorList)
	if !ok {
		t.Fatalf("error is %T, want source.ErrorList: %v", err, err)
	}
	var out []string
	for _, e := range list {
		if e.Pos.Filename != "t.dp" {
			t.Errorf("error %q has file %q", e.Msg, e.Pos.Filename)
		}
		out = append(out, strings.TrimPrefix(e.Error(), "t.dp:"))
	}
	return out
}

// load loads and prepares src: the file's program, its model built.
func load(t *testing.T, src string) *property.Prepared {
	t.Helper()
	p, err := dpcheck.Config{}.Load(context.Background(), "t.dp", src)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return p
}

const surveyChain = `chain {
  state pos (x = 1) [in_pos]
  state neg (x = 0) [in_neg]
  state yes [out_Y]
  state no [out_N]
  pos -> yes : 3/4, no : 1/4
  neg -> yes : 1/4, no : 3/4
}
inputs pos, neg
`

func TestSurveyProgram(t *testing.T) {
	p := load(t, surveyChain+"neighbours pos ~ neg\ncheck dp(eps = ln(3))\nquery delta(eps = 0) expect 0.5\n")
	if got, want := p.Chain.NumStates(), 4; got != want {
		t.Errorf("states = %d, want %d", got, want)
	}
	pos, _ := p.Chain.Lookup("pos")
	neg, _ := p.Chain.Lookup("neg")
	if diff := cmp.Diff([][2]int{{pos, neg}}, p.Neighbours); diff != "" {
		t.Errorf("neighbours (-want +got):\n%s", diff)
	}
	if len(p.Program.Statements) != 2 {
		t.Fatalf("%d statements", len(p.Program.Statements))
	}
	s0, ok0 := p.Program.Statements[0].(*property.DPCheck)
	s1, ok1 := p.Program.Statements[1].(*property.DeltaQuery)
	if !ok0 || !s0.Eps.Equal(mustLn("3")) || s0.Delta.Sign() != 0 || s0.Expect.Kind != property.ExpectHolds {
		t.Fatalf("statement 0 = %+v", p.Program.Statements[0])
	}
	if s0.Text != "check dp(eps = ln(3))" || s0.Pos.Line != 11 {
		t.Errorf("statement 0 text %q at line %d", s0.Text, s0.Pos.Line)
	}
	if !ok1 || s1.Expect.Kind != property.ExpectValue || s1.Expected.Cmp(r("1/2")) != 0 || s1.Expect.Text != "0.5" {
		t.Errorf("statement 1 = %+v", p.Program.Statements[1])
	}
}

func mustLnPlus(k, x, q string) exact.Eps {
	e, err := exact.LnPlus(r(k), r(x), r(q))
	if err != nil {
		panic(err)
	}
	return e
}

func mustLn(x string) exact.Eps {
	e, err := exact.Ln(r(x))
	if err != nil {
		panic(err)
	}
	return e
}

func TestNumbersAreExact(t *testing.T) {
	// Through δ of a query, which keeps the exact value.
	for _, tc := range []struct{ lit, want string }{
		{"0.75", "3/4"}, {"1e-3", "1/1000"}, {"2.5E-2", "1/40"}, {".125", "1/8"}, {"0.1 + 0.2", "3/10"}, // not 0.30000000000000004
		{"2^-3", "1/8"}, {"(1/2)^10", "1/1024"}, {"-2^2 + 5", "1"}, {"|1/2 - 3/4|", "1/4"}, {"abs(-1/3)", "1/3"},
		{"2*3/8", "3/4"}, {"1 - 1/4 - 1/4", "1/2"},
	} {
		p := load(t, "model survey()\nquery eps(delta = "+tc.lit+")\n")
		if diff := cmp.Diff(r(tc.want), p.Program.Statements[0].(*property.EpsQuery).Delta, ratCmp); diff != "" {
			t.Errorf("%s: %s", tc.lit, diff)
		}
	}
}

func TestEpsForms(t *testing.T) {
	three, _ := exact.MulLn(big.NewRat(3, 1), big.NewRat(2, 1))
	half, _ := exact.MulLn(big.NewRat(1, 2), big.NewRat(3, 1))
	for _, tc := range []struct {
		src  string
		want exact.Eps
	}{
		{"ln(2)", mustLn("2")},
		{"3*ln(2)", three},
		{"ln(2)*3", three},
		{"ln(8)", three},
		{"ln(2) + ln(4)", three},
		{"ln(3)/2", half},
		{"1/2*ln(3)", half},
		{"0.1", mustLnPlus("0", "1", "1/10")},
		{"0", exact.Eps{}},
		{"ln(1)", exact.Eps{}},
		{"ln(2) - 1/1000", mustLnPlus("1", "2", "-1/1000")},
		{"1/10 + 2*ln(3)", mustLnPlus("1", "9", "1/10")},
		{"(ln(2) + 1/2)/2", mustLnPlus("1/2", "2", "1/4")},
		{"ln(2) + 1/2 - 1/2", mustLn("2")},
		// the forms dpcheck prints read back: · and × multiply
		{"3·ln(2)", three},
		{"3×ln(2)", three},
		{"1/2·ln(3)", half},
		{"ln(4)/2", mustLn("2")},
		{"ln(2) − 1/1000", mustLnPlus("1", "2", "-1/1000")}, // U+2212, as parametric pieces print
	} {
		p := load(t, "model survey()\ncheck dp(eps = "+tc.src+")\n")
		if got := p.Program.Statements[0].(*property.DPCheck).Eps; !got.Equal(tc.want) {
			t.Errorf("eps = %s: got %s, want %s", tc.src, got, tc.want)
		}
	}
}

// TestPrintedInfinity checks that ∞, as dpcheck prints an infinite ε,
// reads back as inf in an expectation.
func TestPrintedInfinity(t *testing.T) {
	for _, src := range []string{"∞", "inf"} {
		p := load(t, "model survey()\nquery eps(delta = 0) expect "+src+"\n")
		q := p.Program.Statements[0].(*property.EpsQuery)
		if q.Expect.Kind != property.ExpectValue || !q.Expected.IsInf() {
			t.Errorf("expect %s: %+v, expected %s", src, q.Expect, q.Expected)
		}
	}
}

func TestConstantsInAnyOrder(t *testing.T) {
	p := load(t, "const a = b + 1\nconst b = 1/4\nconst e = ln(a*4)\nmodel survey(theta1 = b, theta2 = a - 1)\ncheck dp(eps = e)\n")
	if got := p.Program.Statements[0].(*property.DPCheck).Eps; !got.Equal(mustLn("5")) {
		t.Errorf("ε = %s, want ln(5)", got)
	}
}

func TestNeighbourPredicate(t *testing.T) {
	p := load(t, "model above_threshold(k = 2)\nneighbours |d - d'| <= 1 & t = t'\ncheck dp(eps = ln(4))\n")
	q := load(t, "model above_threshold(k = 2)\ncheck dp(eps = ln(4))\n")
	norm := func(ps [][2]int) map[[2]int]bool {
		m := map[[2]int]bool{}
		for _, x := range ps {
			m[[2]int{min(x[0], x[1]), max(x[0], x[1])}] = true
		}
		return m
	}
	if diff := cmp.Diff(norm(q.Neighbours), norm(p.Neighbours)); diff != "" {
		t.Errorf("predicate relation differs from the builder's (-builder +predicate):\n%s", diff)
	}
	if got, want := len(p.Neighbours), 30; got != want {
		t.Errorf("%d pairs, want %d", got, want)
	}
	// An asymmetric predicate is symmetrised: d' = d + 1 relates the same pairs.
	s := load(t, "model above_threshold(k = 2)\nneighbours d' = d + 1 & t = t'\ncheck dp(eps = ln(4))\n")
	if diff := cmp.Diff(norm(q.Neighbours), norm(s.Neighbours)); diff != "" {
		t.Errorf("asymmetric predicate (-builder +predicate):\n%s", diff)
	}
}

// The operators of modules work in predicates too: min, max, mod, pow,
// floor, ceil, c ? a : b and =>, over the variables of two inputs.
func TestPredicateFunctions(t *testing.T) {
	pairs := func(nb string) [][2]int64 {
		p := load(t, "model truncated_geometric(alpha = 1/2, n = 4)\nneighbours "+nb+"\ncheck dp(eps = ln(4))\n")
		var out [][2]int64
		for _, x := range p.Neighbours {
			a, _ := p.Chain.Valuation(x[0]).Get("in")
			b, _ := p.Chain.Valuation(x[1]).Get("in")
			out = append(out, [2]int64{min(a, b), max(a, b)})
		}
		sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] || out[i][0] == out[j][0] && out[i][1] < out[j][1] })
		return out
	}
	for _, tc := range []struct {
		nb   string
		want [][2]int64
	}{
		{"max(in, in') - min(in, in') = 1", [][2]int64{{0, 1}, {1, 2}, {2, 3}, {3, 4}}},
		{"in' = (in < 2 ? in + 2 : in - 2)", [][2]int64{{0, 2}, {1, 3}, {2, 4}}},
		{"(in = 0 => in' = 4) & in != in' & mod(in + in', 4) = 0", [][2]int64{{0, 4}, {1, 3}}},
		{"pow(in - in', 2) = 4 & floor(in/2) != ceil(in'/2)", [][2]int64{{0, 2}, {1, 3}, {2, 4}}},
	} {
		if d := cmp.Diff(tc.want, pairs(tc.nb)); d != "" {
			t.Errorf("neighbours %s (-want +got):\n%s", tc.nb, d)
		}
	}
}

func TestInputsWhere(t *testing.T) {
	src := strings.Replace(surveyChain, "inputs pos, neg", "inputs where in_pos | in_neg", 1)
	p := load(t, src+"neighbours pos ~ neg\ncheck dp(eps = ln(3))\n")
	if got := len(p.Chain.Inputs()); got != 2 {
		t.Errorf("%d inputs, want 2", got)
	}
	// A comparison with a variable a state lacks is false there: the
	// outputs, which have no x, are not inputs (the README's example).
	src = strings.Replace(surveyChain, "inputs pos, neg", "inputs where x >= 0 | in_pos", 1)
	p = load(t, src+"neighbours pos ~ neg\ncheck dp(eps = ln(3))\n")
	var names []string
	for _, s := range p.Chain.Inputs() {
		names = append(names, p.Chain.Name(s))
	}
	if diff := cmp.Diff([]string{"pos", "neg"}, names); diff != "" {
		t.Errorf("inputs where x >= 0 | in_pos (-want +got):\n%s", diff)
	}
}

func TestOutputsAndSink(t *testing.T) {
	p := load(t, `chain {
  state a [in_a]
  state b [in_b]
  state o (v = 1)
  a -> o : 1/2 else sink
  b -> o : 1/3 else †
}
inputs a, b
outputs var v
neighbours a ~ b
query eps(delta = 0) expect ln(3/2)
`)
	if _, ok := p.Chain.Sink(); !ok {
		t.Error("no sink state")
	}
	if got := p.Output.String(); got != "final value of v" {
		t.Errorf("output = %q", got)
	}
}

// TestGrammarInReadme: the grammar in docs/language.md is the parser's.
func TestGrammarInReadme(t *testing.T) {
	doc, err := os.ReadFile("../docs/language.md")
	if err != nil {
		t.Fatal(err)
	}
	block := "```ebnf\n" + spec.Grammar() + "\n```"
	if !strings.Contains(string(doc), block) {
		t.Errorf("docs/language.md does not contain the current grammar; replace its ebnf block with:\n%s", block)
	}
}
