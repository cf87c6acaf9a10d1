package verify_test

import (
	"context"
	"flag"
	"math/big"
	"os"
	"testing"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/model"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/verify"
	"github.com/google/go-cmp/cmp"
)

var ratCmp = cmp.Comparer(func(x, y *big.Rat) bool {
	if x == nil || y == nil {
		return x == y
	}
	return x.Cmp(y) == 0
})

var epsCmp = cmp.Comparer(func(x, y exact.Eps) bool { return x.Equal(y) })

func r(s string) *big.Rat {
	x, ok := new(big.Rat).SetString(s)
	if !ok {
		panic("bad rational " + s)
	}
	return x
}

func ln(s string) exact.Eps {
	e, err := exact.Ln(r(s))
	if err != nil {
		panic(err)
	}
	return e
}

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// golden compares got with the file at path, or rewrites the file with
// -update.
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./verify -run %s -update writes it)", err, t.Name())
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, diff)
	}
}

// rational returns ε = q for a valid literal q.
func rational(q *big.Rat) exact.Eps {
	e, err := exact.Rational(q)
	if err != nil {
		panic(err)
	}
	return e
}

func analyze(t testing.TB, m *model.Mechanism, out verify.Output) *verify.Analysis {
	t.Helper()
	if m == nil {
		t.Fatal("nil mechanism")
	}
	a, err := verify.Analyze(context.Background(), &verify.Model{Chain: m.Chain, Neighbours: m.Neighbours, Output: out})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func mustMech(t testing.TB) func(*model.Mechanism, error) *model.Mechanism {
	return func(m *model.Mechanism, err error) *model.Mechanism {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
}

func tightEps(t testing.TB, a *verify.Analysis, delta string) *verify.EpsResult {
	t.Helper()
	res, err := a.TightEpsilon(context.Background(), r(delta))
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func tightDelta(t testing.TB, a *verify.Analysis, e exact.Eps) *big.Rat {
	t.Helper()
	res, err := a.TightDelta(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	x, ok := res.Delta.Rat()
	if !ok {
		t.Fatalf("TightDelta(%s) = %s, want a rational", e, res.Delta)
	}
	return x
}

func dp(t testing.TB, a *verify.Analysis, e exact.Eps, delta string) *verify.DPResult {
	t.Helper()
	res, err := a.DP(context.Background(), e, r(delta))
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// doubleSurvey is the paper's survey asked twice of the same person, both
// answers observed: outputs carry a1, a2 (1 = yes).
func doubleSurvey(t testing.TB) *model.Mechanism {
	t.Helper()
	yes := map[string]*big.Rat{"+": r("3/4"), "-": r("1/4")}
	b := chain.NewBuilder()
	out := map[[2]int]int{}
	for _, a1 := range []int{1, 0} {
		for _, a2 := range []int{1, 0} {
			name := map[int]string{1: "Y", 0: "N"}[a1] + map[int]string{1: "Y", 0: "N"}[a2]
			out[[2]int{a1, a2}] = b.AddState(name, chain.Valuation{{Name: "a1", Value: int64(a1)}, {Name: "a2", Value: int64(a2)}})
		}
	}
	var ins []int
	for _, in := range []string{"+", "-"} {
		s := b.AddState(in, nil)
		b.MarkInput(s)
		ins = append(ins, s)
		py := yes[in]
		pn := new(big.Rat).Sub(big.NewRat(1, 1), py)
		for _, a1 := range []int{1, 0} {
			mid := b.AddState(in+map[int]string{1: "Y", 0: "N"}[a1], nil)
			b.AddTransition(s, mid, map[int]*big.Rat{1: py, 0: pn}[a1])
			b.AddTransition(mid, out[[2]int{a1, 1}], py)
			b.AddTransition(mid, out[[2]int{a1, 0}], pn)
		}
	}
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return &model.Mechanism{Chain: c, Neighbours: [][2]int{{ins[0], ins[1]}}}
}
