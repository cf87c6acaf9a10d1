package builder_test

import (
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/model"
	"github.com/google/go-cmp/cmp"
)

var ratCmp = cmp.Comparer(func(x, y *big.Rat) bool { return x.Cmp(y) == 0 })

func r(s string) *big.Rat {
	x, ok := new(big.Rat).SetString(s)
	if !ok {
		panic(s)
	}
	return x
}

func TestSurveyGeneral(t *testing.T) {
	// θ1 = 1/3, θ2 = 1/4: Pr(Y|+) = 1/3 + 2/3·1/4 = 1/2, Pr(Y|-) = 1/6.
	m, err := builder.Survey(r("1/3"), r("1/4"))
	if err != nil {
		t.Fatal(err)
	}
	c := m.Chain
	pos, _ := c.Lookup("+")
	neg, _ := c.Lookup("-")
	y, _ := c.Lookup("Y")
	n, _ := c.Lookup("N")
	got := []*big.Rat{c.Prob(pos, y), c.Prob(pos, n), c.Prob(neg, y), c.Prob(neg, n)}
	want := []*big.Rat{r("1/2"), r("1/2"), r("1/6"), r("5/6")}
	if diff := cmp.Diff(want, got, ratCmp); diff != "" {
		t.Errorf("probabilities (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([][2]int{{pos, neg}}, m.Neighbours); diff != "" {
		t.Errorf("neighbours (-want +got):\n%s", diff)
	}
	// θ2 = 0: a liar always says no, so Pr(Y|-) = 0 and the transition is absent.
	m, err = builder.Survey(r("1/2"), r("0"))
	if err != nil {
		t.Fatal(err)
	}
	if to, _ := m.Chain.Row(neg); len(to) != 1 {
		t.Errorf("Survey(1/2, 0): row of - has %d transitions, want 1", len(to))
	}
}

func TestGeometricStructure(t *testing.T) {
	m, err := builder.TruncatedGeometricSensitivity(r("1/2"), 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	c := m.Chain
	if got, want := c.NumStates(), 10; got != want {
		t.Errorf("states = %d, want %d", got, want)
	}
	if got, want := c.NumTransitions(), 25+5; got != want {
		t.Errorf("transitions = %d, want %d", got, want)
	}
	s := func(name string) int { id, _ := c.Lookup(name); return id }
	want := [][2]int{{s("s0"), s("s1")}, {s("s0"), s("s2")}, {s("s1"), s("s2")}, {s("s1"), s("s3")}, {s("s2"), s("s3")}, {s("s2"), s("s4")}, {s("s3"), s("s4")}}
	if diff := cmp.Diff(want, m.Neighbours); diff != "" {
		t.Errorf("neighbours (-want +got):\n%s", diff)
	}
	if v, ok := c.Value(s("t3"), "out"); !ok || v != 3 {
		t.Errorf("t3 has out=%d, %v", v, ok)
	}
	if !c.HasLabel(s("s2"), "in_2") || !c.IsInput(s("s2")) {
		t.Error("s2 is not labelled in_2 or not an input")
	}
}

func TestAboveThresholdPerInputStructure(t *testing.T) {
	m, err := builder.AboveThresholdPerInput(r("1/4"), r("1/2"), 5, 4, builder.Above)
	if err != nil {
		t.Fatal(err)
	}
	c := m.Chain
	if got, want := len(c.Inputs()), 36; got != want {
		t.Errorf("inputs = %d, want %d", got, want)
	}
	if got, want := len(m.Neighbours), 30; got != want {
		t.Errorf("neighbouring pairs = %d, want %d", got, want)
	}
	if got, want := len(c.Absorbing()), 5; got != want {
		t.Errorf("outputs = %d, want %d (halt_1..halt_4, never)", got, want)
	}
	// With ">", a noisy threshold of 5 can never be exceeded: the query state
	// goes on with probability 1.
	q, _ := c.Lookup("d0_t0_T5_q1")
	next, _ := c.Lookup("d0_t0_T5_q2")
	if diff := cmp.Diff(r("1"), c.Prob(q, next), ratCmp); diff != "" {
		t.Errorf("P(T=5 query continues): %s", diff)
	}
}

func TestParamErrors(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"theta1 > 1", second(builder.Survey(r("3/2"), r("1/2"))), "survey: parameter theta1 must be in [0, 1], got 3/2"},
		{"theta2 < 0", second(builder.Survey(r("1/2"), r("-1"))), "survey: parameter theta2 must be in [0, 1], got -1"},
		{"theta nil", second(builder.Survey(nil, r("1/2"))), "survey: parameter theta1 is missing"},
		{"alpha = 1", second(builder.TruncatedGeometric(r("1"), 5)), "truncated_geometric: parameter alpha must be in (0, 1), got 1"},
		{"alpha = 0", second(builder.TruncatedGeometric(r("0"), 5)), "truncated_geometric: parameter alpha must be in (0, 1), got 0"},
		{"n = 0", second(builder.TruncatedGeometric(r("1/2"), 0)), "truncated_geometric: parameter n must be between 1 and 5000, got 0"},
		{"n too big", second(builder.TruncatedGeometric(r("1/2"), 100000)), "truncated_geometric: parameter n must be between 1 and 5000, got 100000"},
		{"sensitivity", second(builder.TruncatedGeometricSensitivity(r("1/2"), 5, 6)), "truncated_geometric: parameter sensitivity must be between 1 and 5, got 6"},
		{"k = 0", second(builder.AboveThreshold(r("1/4"), r("1/2"), 5, 0, builder.AtLeast)), "above_threshold: parameter k must be between 1 and 10000, got 0"},
		{"alpha_q", second(builder.AboveThreshold(r("1/4"), r("2"), 5, 1, builder.AtLeast)), "above_threshold: parameter alpha_q must be in (0, 1), got 2"},
		{"alpha_t", second(builder.AboveThreshold(r("0"), r("1/2"), 5, 1, builder.AtLeast)), "above_threshold: parameter alpha_t must be in (0, 1), got 0"},
		{"threshold n", second(builder.AboveThresholdPerInput(r("1/4"), r("1/2"), 101, 1, builder.AtLeast)), "above_threshold: parameter n must be between 1 and 100, got 101"},
		{"loop alpha_t", second(builder.AboveThresholdLoop(r("1"), r("1/2"), 5, builder.AtLeast)), "above_threshold_loop: parameter alpha_t must be in (0, 1), got 1"},
		{"loop alpha_q", second(builder.AboveThresholdLoop(r("1/4"), nil, 5, builder.AtLeast)), "above_threshold_loop: parameter alpha_q is missing"},
		{"loop n", second(builder.AboveThresholdLoop(r("1/4"), r("1/2"), 0, builder.Above)), "above_threshold_loop: parameter n must be between 1 and 100, got 0"},
		{"rr k", second(builder.RandomizedResponseK(r("1/2"), 1)), "randomized_response: parameter k must be between 2 and 1000, got 1"},
		{"rr theta", second(builder.RandomizedResponseK(r("2"), 3)), "randomized_response: parameter theta1 must be in [0, 1], got 2"},
		{"compose k", second(builder.Compose(0, mustSurvey(t))), "compose: parameter k must be between 1 and 64, got 0"},
		{"yarrow bits", second(builder.YarrowGeometric(r("1/2"), 0, 5, -1)), "yarrow_geometric: parameter bits must be between 1 and 5000, got -1"},
		{"yarrow range", second(builder.YarrowGeometric(r("1/2"), 5, 5, 0)), "yarrow_geometric: parameter count_max must be between 6 and 5005, got 5"},
		{"laplace alpha", second(builder.LaplaceDecision(r("3/2"), 2, 0, 5)), "laplace_decision: parameter alpha must be in (0, 1), got 3/2"},
		{"cutoff range", second(builder.CutoffDecision(r("1/2"), 2, 5, 0)), "cutoff_decision: parameter hi must be between 6 and 100005, got 0"},
		{"generalized delta", second(builder.GeneralizedDecision(r("1/2"), r("2"), 2, 0, 5)), "generalized_decision: parameter delta must be in [0, 1], got 2"},
		{"streaming rows", second(builder.StreamingSum(1, r("1/2"))), "streaming_sum: parameter rows must be between 2 and 2000, got 1"},
		{"streaming p", second(builder.StreamingSum(4, r("0"))), "streaming_sum: parameter p must be in (0, 1), got 0"},
		{"too many states", second(builder.AboveThresholdPerInput(r("1/4"), r("1/2"), 100, 100, builder.AtLeast)), "above_threshold: parameter k with n = 100 gives more than 10^7 states"},
		{"shared n", second(builder.AboveThreshold(r("1/4"), r("1/2"), 1001, 1, builder.AtLeast)), "above_threshold: parameter n must be between 1 and 1000, got 1001"},
		{"shared k", second(builder.AboveThreshold(r("1/4"), r("1/2"), 5, 0, builder.AtLeast)), "above_threshold: parameter k must be between 1 and 10000, got 0"},
		{"shared states", second(builder.AboveThreshold(r("1/4"), r("1/2"), 100, 1000, builder.AtLeast)), "above_threshold: parameter k with n = 100 gives more than 10^7 states"},
		{"shared transitions", second(builder.AboveThreshold(r("1/4"), r("1/2"), 1000, 4, builder.AtLeast)), "above_threshold: parameter n = 1000 gives more than 10^8 transitions ((n+1)³ threshold draws)"},
	}
	for _, tt := range tests {
		if tt.err == nil {
			t.Errorf("%s: no error", tt.name)
			continue
		}
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("%s: error %q, want %q", tt.name, got, tt.want)
		}
		if _, ok := tt.err.(*builder.ParamError); !ok {
			t.Errorf("%s: error is %T, want *builder.ParamError", tt.name, tt.err)
		}
	}
}

func second(_ *model.Mechanism, err error) error { return err }

func mustSurvey(t *testing.T) *model.Mechanism {
	t.Helper()
	m, err := builder.Survey(r("1/2"), r("1/2"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestAboveThresholdStructure: the query states of one database are
// shared by its inputs: from d1_t0 and d1_t1 the threshold draw leads into
// the same d1_T<T>_q1, whose valuation has no t.
func TestAboveThresholdStructure(t *testing.T) {
	m, err := builder.AboveThreshold(r("1/4"), r("1/2"), 1, 2, builder.AtLeast)
	if err != nil {
		t.Fatal(err)
	}
	c := m.Chain
	// 4 inputs, 2·2·2 query states less the second query after T = 0
	// (every answer is ≥ 0: the first halts surely) for each d, halt_1,
	// halt_2, never.
	if got, want := c.NumStates(), 13; got != want {
		t.Errorf("%d states, want %d", got, want)
	}
	a, _ := c.Lookup("d1_t0")
	b, _ := c.Lookup("d1_t1")
	if _, ok := c.Lookup("d1_T0_q2"); ok {
		t.Error("d1_T0_q2 exists, though no run reaches it")
	}
	q, ok := c.Lookup("d1_T1_q1")
	if !ok {
		t.Fatal("no state d1_T1_q1")
	}
	if got := c.Valuation(q).String(); got != "d=1, T=1, q=1" {
		t.Errorf("valuation of d1_T1_q1: %s", got)
	}
	// Pr[T = 1 | t] is 1/(1+1/4) = 4/5 from t = 1 and 1/5 from t = 0.
	if diff := cmp.Diff([]*big.Rat{r("1/5"), r("4/5")}, []*big.Rat{c.Prob(a, q), c.Prob(b, q)}, ratCmp); diff != "" {
		t.Errorf("Pr[d1_T1_q1 | d1_t0], Pr[… | d1_t1]: %s", diff)
	}
}

// TestComposeSharedStates: composing a chain whose inputs share states
// gives each input its own copy in the first run, named "input||state".
func TestComposeSharedStates(t *testing.T) {
	m, err := builder.AboveThresholdLoop(r("1/4"), r("1/2"), 1, builder.AtLeast)
	if err != nil {
		t.Fatal(err)
	}
	p, err := builder.Compose(2, m)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"d0_t0||d0_T1_bot", "d0_t1||d0_T1_bot", "d0_t0|halted|d0_T1_bot"} {
		if _, ok := p.Chain.Lookup(name); !ok {
			t.Errorf("no state %s", name)
		}
	}
}

// TestYarrowSharedDraws: once a draw is clipped to count_max (count_min),
// the draws of every input meet in max_bit<j> (min_bit<j>): over {0..4}
// with 4 bits, each input v keeps its own draws j < 4 − v (plus) and j < v
// (minus): 6 + 6 of them, and 4 + 4 are shared, instead of 2·5·4 = 40.
func TestYarrowSharedDraws(t *testing.T) {
	m, err := builder.YarrowGeometric(r("1/2"), 0, 4, 0)
	if err != nil {
		t.Fatal(err)
	}
	c := m.Chain
	// 5 outputs, 5 inputs, 5 zero states, 10 sign states, 12 own draws,
	// 8 shared draws.
	if got, want := c.NumStates(), 45; got != want {
		t.Errorf("%d states, want %d", got, want)
	}
	s3, ok3 := c.Lookup("k3_plus")
	s2, ok2 := c.Lookup("k2_plus_bit1")
	max1, okm1 := c.Lookup("max_bit1")
	max2, okm2 := c.Lookup("max_bit2")
	if _, own := c.Lookup("k3_plus_bit1"); own || !ok3 || !ok2 || !okm1 || !okm2 {
		t.Fatal("want states k3_plus, k2_plus_bit1, max_bit1, max_bit2 and no k3_plus_bit1")
	}
	// From v = 3 the first bit already gives 4; from v = 2 the second
	// does, after a first bit 0 (probability α = 1/2).
	if diff := cmp.Diff([]*big.Rat{r("1"), r("1/2")}, []*big.Rat{c.Prob(s3, max1), c.Prob(s2, max2)}, ratCmp); diff != "" {
		t.Errorf("into the shared draws: %s", diff)
	}
}
