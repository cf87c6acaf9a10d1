package dptest_test

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/dptest"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/verify"
)

const surveySource = `chain {
  state pos (x = 1)
  state neg (x = 0)
  state yes
  state no
  pos -> yes : 3/4, no : 1/4
  neg -> yes : 1/4, no : 3/4
}
inputs pos, neg
neighbours pos ~ neg
check dp(eps = ln(3))
`

// TestModelsOfEveryKind: the survey (Pr(yes | pos) = 3/4, Pr(yes | neg) =
// 1/4, tight ε = ln(3)) as a .dp source, the file of the repository, a
// hand-built chain, a builder's mechanism, a distribution function and a
// sampler: the same verdicts through the same calls.
func TestModelsOfEveryKind(t *testing.T) {
	surveyBuilder, err := builder.Survey(big.NewRat(1, 2), big.NewRat(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	b := chain.NewBuilder()
	pos, neg := b.AddState("pos", nil), b.AddState("neg", nil)
	yes, no := b.AddState("yes", nil, "out_Y"), b.AddState("no", nil, "out_N")
	b.AddTransition(pos, yes, big.NewRat(3, 4))
	b.AddTransition(pos, no, big.NewRat(1, 4))
	b.AddTransition(neg, yes, big.NewRat(1, 4))
	b.AddTransition(neg, no, big.NewRat(3, 4))
	b.MarkInput(pos)
	b.MarkInput(neg)
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	dist := dptest.Mechanism[bool, bool]{
		Inputs: []bool{true, false},
		Dist: func(x bool) map[bool]*big.Rat {
			return map[bool]*big.Rat{x: big.NewRat(3, 4), !x: big.NewRat(1, 4)}
		},
	}
	sampler := dptest.Mechanism[bool, bool]{
		Inputs: []bool{true, false},
		Run: func(x bool, r *dptest.Rand) bool {
			if r.Bit() { // the paper's coin: tails, the truth
				return x
			}
			return r.Bit()
		},
	}
	for name, m := range map[string]dptest.Model{
		"source":   dptest.Source("survey.dp", surveySource),
		"file":     dptest.File("../models/survey.dp"),
		"chain":    dptest.Chain(c, [][2]int{{pos, neg}}, verify.FinalState()),
		"labels":   dptest.Chain(c, nil, verify.FinalLabels("out_Y")),
		"builder":  dptest.Builder(surveyBuilder),
		"dist":     dist,
		"sampler":  sampler,
		"pointer":  &sampler,
		"sampler2": dptest.Sampler(func(r *dptest.Rand) bool { return r.Bit() }, dptest.Budget{}),
	} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			if name == "sampler2" { // one input: nothing to compare
				if _, err := dptest.CheckDP(ctx, m, exact.LnInt(3), nil); err == nil || !strings.Contains(err.Error(), "no two inputs are neighbours") {
					t.Errorf("one input: %v", err)
				}
				return
			}
			e, err := dptest.TightEpsilon(ctx, m, nil)
			if err != nil {
				t.Fatal(err)
			}
			wantEps(t, "tight ε", e.High, exact.LnInt(3))
			if !e.Exact() || e.Witness == nil || e.Witness.PrFrom.Cmp(big.NewRat(3, 4)) != 0 {
				t.Errorf("%s", e)
			}
			r, err := dptest.CheckDP(ctx, m, exact.LnInt(2), big.NewRat(1, 10))
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != dptest.Violated {
				t.Fatalf("%s", r)
			}
			wantEps(t, "least ε", r.Counterexample.LeastEps, exact.LnFrac(13, 5))
			wantRat(t, "excess", r.Counterexample.Excess, big.NewRat(3, 20))
		})
	}
}

// TestModelErrors: a model that cannot be checked is an error that says
// why, naming the input.
func TestModelErrors(t *testing.T) {
	half := big.NewRat(1, 2)
	mdp, err := builder.InteractiveSurvey(2)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		m    dptest.Model
		want string
	}{
		{"sum", dptest.Mechanism[int, string]{Inputs: []int{0, 7}, Dist: func(x int) map[string]*big.Rat {
			if x == 7 {
				return map[string]*big.Rat{"a": half, "b": big.NewRat(1, 3)}
			}
			return map[string]*big.Rat{"a": big.NewRat(1, 1)}
		}}, "the probabilities of Dist(7) sum to 5/6, not 1"},
		{"negative", dptest.Mechanism[int, string]{Inputs: []int{3}, Dist: func(int) map[string]*big.Rat {
			return map[string]*big.Rat{"a": big.NewRat(3, 2), "b": big.NewRat(-1, 2)}
		}}, "Dist(3) gives output b the negative probability -1/2"},
		{"nil", dptest.Mechanism[int, string]{Inputs: []int{3}, Dist: func(int) map[string]*big.Rat {
			return map[string]*big.Rat{"a": nil}
		}}, "Dist(3) gives output a a nil probability"},
		{"panic", dptest.Mechanism[int, string]{Inputs: []int{4}, Dist: func(int) map[string]*big.Rat {
			panic("boom")
		}}, "Dist(4) panicked: boom"},
		{"twice", dptest.Mechanism[int, int]{Inputs: []int{1, 2, 1}, Dist: func(int) map[int]*big.Rat { return nil }}, "input 1 is listed twice in Inputs"},
		{"both", dptest.Mechanism[int, int]{Inputs: []int{1}, Dist: func(int) map[int]*big.Rat { return nil }, Run: func(int, *dptest.Rand) int { return 0 }}, "both Dist and Run"},
		{"neither", dptest.Mechanism[int, int]{Inputs: []int{1}}, "neither Dist nor Run"},
		{"no inputs", dptest.Mechanism[int, int]{Run: func(int, *dptest.Rand) int { return 0 }}, "no Inputs"},
		{"no pairs", dptest.Mechanism[int, int]{Inputs: []int{1, 5}, Neighbours: dptest.Within(1), Run: func(int, *dptest.Rand) int { return 0 }}, "no two inputs are neighbours"},
		{"mdp", dptest.Builder(mdp), "the mechanism is an MDP"},
		{"source", dptest.Source("bad.dp", "chain {"), "bad.dp:1:"},
		{"file", dptest.File("testdata/does-not-exist.dp"), "does-not-exist.dp"},
	} {
		_, err := dptest.CheckDP(context.Background(), c.m, exact.LnInt(2), nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

// TestSamplerErrorsNameTheInput: a sampler that reads something besides
// its Rand, or panics, fails on the input where it happens, with the
// choices that led there.
func TestSamplerErrorsNameTheInput(t *testing.T) {
	calls := 0
	m := dptest.Mechanism[string, int]{
		Inputs: []string{"alice", "carol"}, // bob's error could stop alice's exploration first
		Run: func(x string, r *dptest.Rand) int {
			if x == "bob" {
				calls++ // a global that changes between runs
				return r.IntN(2 + calls%2)
			}
			if x == "carol" {
				return 0
			}
			if r.Bit() && r.Bit() {
				panic("unreachable?")
			}
			return 0
		},
	}
	_, err := dptest.CheckDP(context.Background(), m, exact.LnInt(2), nil)
	var ie *dptest.InputError
	var pe *dptest.PanicError
	if !errors.As(err, &ie) || ie.Input != "alice" || !errors.As(err, &pe) || !strings.Contains(err.Error(), "dptest: input alice: ") {
		t.Errorf("err = %v", err)
	}
	m.Inputs = []string{"bob"}
	_, err = dptest.SameDist(context.Background(), m, m)
	var ne *dptest.NondeterminismError
	if !errors.As(err, &ie) || ie.Input != "bob" || !errors.As(err, &ne) {
		t.Errorf("err = %v", err)
	}
}

// TestCancelled: the exploration stops with the context.
func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := dptest.CheckDP(ctx, tailSampler(), exact.LnInt(2), nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v", err)
	}
}

// TestOutputOrder: results list outputs in their natural order, not a
// map's or their text's: numbers by value, structs field by field.
func TestOutputOrder(t *testing.T) {
	type pt struct{ X, Y int }
	m := dptest.Mechanism[int, pt]{
		Inputs: []int{0, 1},
		Dist: func(x int) map[pt]*big.Rat {
			if x == 0 {
				return map[pt]*big.Rat{{10, 0}: big.NewRat(1, 4), {2, 5}: big.NewRat(1, 4), {2, -1}: big.NewRat(1, 4), {-3, 9}: big.NewRat(1, 4)}
			}
			return map[pt]*big.Rat{{10, 0}: big.NewRat(1, 8), {2, 5}: big.NewRat(1, 8), {2, -1}: big.NewRat(3, 8), {-3, 9}: big.NewRat(3, 8)}
		},
	}
	for range 5 { // maps iterate in another order each time
		r, err := dptest.CheckDP(context.Background(), m, exact.Eps{}, big.NewRat(1, 100))
		if err != nil {
			t.Fatal(err)
		}
		cx := r.Counterexample
		if got := fmt.Sprint(cx.From.Name, cx.To.Name, cx.Event); got != "01[{2 5} {10 0}]" {
			t.Errorf("pair and event %s", got)
		}
	}
}

// count and release print as the module below names its input variable and
// its output.
type count int
type release int

func (c count) String() string   { return fmt.Sprintf("in=%d", int(c)) }
func (r release) String() string { return fmt.Sprintf("out=%d", int(r)) }

// TestSameDistMatchesInputVariables: a module's inputs are matched on its
// input variables, not on the state variables that every input starts
// with alike (out=-1 here), so a Go input prints as "in=1", not as
// "in=1, out=-1".
func TestSameDistMatchesInputVariables(t *testing.T) {
	const src = `module geometric
  input in : [0..2];
  out : [-1..2] init -1;
  [] out = -1 -> (out' ~ geometric(1/2, in, 0, 2)) & (in' = 0);
endmodule
outputs var out
neighbours |in - in'| <= 1
check dp(eps = ln(2))
`
	// clamp(in + Z, 0, 2) with Pr[Z = z] = 1/3·2^−|z|: the tails fold onto
	// 0 and 2, Pr(0 | in) = Σ_{z ≤ −in} = 2/3·2^−in.
	m := dptest.Mechanism[count, release]{
		Inputs: []count{0, 1, 2},
		Dist: func(in count) map[release]*big.Rat {
			d := int64(in)
			return map[release]*big.Rat{
				0: big.NewRat(2, 3<<d),
				1: big.NewRat(1, 3<<max(1-d, d-1)),
				2: big.NewRat(2, 3<<(2-d)),
			}
		},
	}
	r, err := dptest.SameDist(context.Background(), m, dptest.Source("geometric.dp", src))
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != dptest.Holds || r.Inputs != 3 {
		t.Errorf("%s", r)
	}
	// An input that prints otherwise: the error says how the model's print.
	bare := dptest.Mechanism[int, int]{Inputs: []int{0, 1}, Run: func(x int, r *dptest.Rand) int { return x }}
	_, err = dptest.SameDist(context.Background(), bare, dptest.Source("geometric.dp", src))
	if want := "dptest: input 0 has no counterpart in the model compared with, whose inputs print as in=0; in=1; in=2"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
	// A chain block's states: x varies, y does not.
	const block = `chain {
  state pos (x = 1, y = 0)
  state neg (x = 0, y = 0)
  state yes
  state no
  pos -> yes : 3/4, no : 1/4
  neg -> yes : 1/4, no : 3/4
}
inputs pos, neg
neighbours pos ~ neg
check dp(eps = ln(3))
`
	survey := dptest.Mechanism[string, string]{
		Inputs: []string{"x=1", "x=0"},
		Dist: func(x string) map[string]*big.Rat {
			if x == "x=1" {
				return map[string]*big.Rat{"yes": big.NewRat(3, 4), "no": big.NewRat(1, 4)}
			}
			return map[string]*big.Rat{"yes": big.NewRat(1, 4), "no": big.NewRat(3, 4)}
		},
	}
	if r, err = dptest.SameDist(context.Background(), survey, dptest.Source("survey.dp", block)); err != nil {
		t.Fatal(err)
	}
	if r.Verdict != dptest.Holds || r.Inputs != 2 {
		t.Errorf("%s", r)
	}
}
