package dpcheck_test

import (
	"context"
	"math/big"
	"os"
	"testing"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/internal/reference"
	"github.com/dpcheck/dpcheck/verify"
)

// windowRatio is e^ε of models/above_threshold_window.dp: the tight ε at
// δ = 0 of above_threshold(n = 17, k = 16) on the inputs with d and t in
// {6..11}.
const windowRatio = "8002625270779791616834608979854227593943071887355740160/1999518142376025408355077999068176509912266806607478787"

func inWindow(d, t int64) bool { return 6 <= d && d <= 11 && 6 <= t && t <= 11 }

// TestInputsWhereOnBuilder cross-checks models/above_threshold_window.dp
// (inputs where … on a builder) against the same builder restricted by
// hand in Go, and against internal/reference's independent enumeration of
// the mechanism on the same 36 inputs.
func TestInputsWhereOnBuilder(t *testing.T) {
	ctx := context.Background()
	path := "models/above_threshold_window.dp"
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := dpcheck.Config{}.Load(ctx, path, string(src))
	if err != nil {
		t.Fatal(err)
	}
	if got := len(p.Chain.Inputs()); got != 36 {
		t.Errorf("%d inputs, want 36", got)
	}
	if got := len(p.Neighbours); got != 30 {
		t.Errorf("%d neighbouring pairs, want 30", got)
	}
	a, err := verify.Analyze(ctx, &verify.Model{Chain: p.Chain, Neighbours: p.Neighbours, Output: p.Output})
	if err != nil {
		t.Fatal(err)
	}
	got, err := a.TightEpsilon(ctx, new(big.Rat))
	if err != nil {
		t.Fatal(err)
	}

	// The builder restricted by hand: its inputs in the window, its pairs
	// of two of them.
	quarter, half := big.NewRat(1, 4), big.NewRat(1, 2)
	mech, err := builder.AboveThreshold(quarter, half, 17, 16, builder.AtLeast)
	if err != nil {
		t.Fatal(err)
	}
	c := mech.Chain
	var ins []int
	kept := map[int]bool{}
	for _, s := range c.Inputs() {
		d, _ := c.Value(s, "d")
		th, _ := c.Value(s, "t")
		if inWindow(d, th) {
			ins = append(ins, s)
			kept[s] = true
		}
	}
	var pairs [][2]int
	for _, pr := range mech.Neighbours {
		if kept[pr[0]] && kept[pr[1]] {
			pairs = append(pairs, pr)
		}
	}
	if len(c.Inputs()) != 324 || len(ins) != 36 || len(pairs) != 30 {
		t.Fatalf("by hand: %d inputs of %d, %d pairs; want 36 of 324, 30", len(ins), len(c.Inputs()), len(pairs))
	}
	b, err := verify.Analyze(ctx, &verify.Model{Chain: c.WithInputs(ins), Neighbours: pairs, Output: verify.FinalState()})
	if err != nil {
		t.Fatal(err)
	}
	hand, err := b.TightEpsilon(ctx, new(big.Rat))
	if err != nil {
		t.Fatal(err)
	}

	// The reference: direct enumeration on the window's inputs.
	ref := reference.Model{Dist: map[string]reference.Dist{}}
	for d := 6; d <= 11; d++ {
		for th := 6; th <= 11; th++ {
			key := reference.AboveThresholdKey(d, th)
			ref.Inputs = append(ref.Inputs, key)
			ref.Dist[key] = reference.AboveThreshold(quarter, half, 17, 16, d, th)
			if d < 11 {
				ref.Pairs = append(ref.Pairs, reference.Pair{A: key, B: reference.AboveThresholdKey(d+1, th)})
			}
		}
	}
	re := ref.TightEps()

	want, _ := new(big.Rat).SetString(windowRatio)
	if re.Infinite || re.Ratio.Cmp(want) != 0 {
		t.Errorf("reference ratio %v, want %s", re, windowRatio)
	}
	for name, e := range map[string]exact.Eps{"model": got.Eps, "by hand": hand.Eps} {
		if c, ok := e.C(); !ok || c.Cmp(want) != 0 {
			t.Errorf("%s: ε = %s, want ln(%s)", name, e, windowRatio)
		}
	}
	// The decimal a float64 difference of logarithms gets wrong
	// (1.386863423975015); the digits are Python's decimal module's at 50
	// digits: 1.38686342397502276788023303987857553428518469927.
	if d := exact.JSONDecimal().Eps(got.Eps); d != "1.3868634239750228" {
		t.Errorf("JSON decimal %s, want 1.3868634239750228", d)
	}
	if d := exact.TextDecimal().Eps(got.Eps); d != "1.38686" {
		t.Errorf("text decimal %s, want 1.38686", d)
	}
}

// TestInputsWhereOnBuilderErrors: inputs where … on a builder keeps some of
// its inputs, with positions when none (or no pair) remains; names are
// refused.
func TestInputsWhereOnBuilderErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"model above_threshold(n = 5, k = 4)\ninputs where t > 7\nquery eps(delta = 0)\n",
			"t.dp:2:14: no input of the model satisfies this inputs predicate (it has 36 inputs)"},
		{"model above_threshold(n = 5, k = 4)\ninputs where d == 3\nquery eps(delta = 0)\n",
			"t.dp:2:14: no two of the 6 inputs this predicate keeps are neighbours in the model"},
		{"model above_threshold(n = 5, k = 4)\ninputs d0_t0, d1_t0\nquery eps(delta = 0)\n",
			"t.dp:2:1: the model above_threshold defines its own inputs: write inputs where … to keep some of them"},
		{"model compose(k = 2, model = survey())\ninputs where x == 1\nquery eps(delta = 0)\n",
			"t.dp:2:1: inputs where … is not available for compose(…): its inputs are those of the composed model"},
		{"model above_threshold(n = 5, k = 4)\ninputs where nosuch == 1\nquery eps(delta = 0)\n",
			"t.dp:2:14: unknown variable nosuch (variables: T, d, q, t)"},
	} {
		_, err := dpcheck.Config{}.Load(context.Background(), "t.dp", tc.src)
		if err == nil {
			t.Errorf("%q: no error", tc.src)
			continue
		}
		if err.Error() != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.src, err, tc.want)
		}
	}
	// a neighbours statement replaces the relation: then the kept inputs
	// need no pair of the builder's
	p, err := dpcheck.Config{}.Load(context.Background(), "t.dp",
		"model above_threshold(n = 5, k = 4)\ninputs where t == 0 & d <= 1 | t == 1 & d == 0\nneighbours d0_t0 ~ d1_t0, d0_t0 ~ d0_t1\nquery eps(delta = 0)\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Chain.Inputs()) != 3 || len(p.Neighbours) != 2 {
		t.Errorf("%d inputs, %d pairs; want 3, 2", len(p.Chain.Inputs()), len(p.Neighbours))
	}
}
