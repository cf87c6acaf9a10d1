package report

import (
	"bytes"
	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/verify"
	"github.com/google/go-cmp/cmp"
)

const bareSurvey = `chain {
  state pos (x = 1)
  state neg (x = 0)
  state yes
  state no
  pos -> yes : 3/4, no : 1/4
  neg -> yes : 1/4, no : 3/4
}
inputs pos, neg
neighbours pos ~ neg
check dp(eps = ln(2), delta = 1/10)
query eps(delta = 1/10)
query delta(eps = 1/2)
`

// TestBareResults: the renderings of bare verify results are the lines
// the text report prints under the statements that computed them.
func TestBareResults(t *testing.T) {
	ctx := context.Background()
	res, err := dpcheck.CheckSource(ctx, "survey.dp", bareSurvey)
	if err != nil {
		t.Fatal(err)
	}
	var full bytes.Buffer
	if err := Text(&full, []Entry{{File: "survey.dp", Source: bareSurvey, Result: res}}); err != nil {
		t.Fatal(err)
	}
	dp := res.Statements[0].(*property.DPOutcome).Result
	eps := res.Statements[1].(*property.EpsOutcome).Result
	delta := res.Statements[2].(*property.DeltaOutcome).Result
	var cx, d, e, dl bytes.Buffer
	for _, err := range []error{Counterexample(&cx, dp.Counterexample), DPResult(&d, dp), EpsResult(&e, eps), DeltaResult(&dl, delta)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	want := `counterexample: pos (x=1) vs neg (x=0)
  worst event   E* = {yes}
  Pr[E* | pos]  3/4 ≈ 0.75
  Pr[E* | neg]  1/4 ≈ 0.25
  bound         e^ε·Pr[E* | neg] + δ = 3/5 ≈ 0.6
  excess        3/20 ≈ 0.15
  worst output  yes: 3/4 ≈ 0.75 vs 1/4 ≈ 0.25 (ratio 3)
  least ε       ln(13/5) ≈ 0.955511 would hold at this δ
`
	if diff := cmp.Diff(want, cx.String()); diff != "" {
		t.Errorf("Counterexample (-want +got):\n%s", diff)
	}
	if got := d.String(); got != "violated: ε = ln(2) ≈ 0.693147, δ = 1/10 ≈ 0.1; 2 ordered pairs × 2 outputs\n"+want {
		t.Errorf("DPResult:\n%s", got)
	}
	// Each bare rendering appears in the file's report, indented under its
	// statement.
	if !strings.Contains(full.String(), indent(cx.String(), pad)) {
		t.Errorf("counterexample:\n%s\nis not in the text report:\n%s", cx.String(), full.String())
	}
	for name, b := range map[string]string{"eps": e.String(), "delta": dl.String()} {
		for _, l := range strings.SplitAfter(strings.TrimSuffix(b, "\n"), "\n") {
			if !strings.Contains(full.String(), pad+l) {
				t.Errorf("%s: %q is not in the text report:\n%s", name, l, full.String())
			}
		}
	}
	if got, want := e.String(), "ε = ln(13/5) ≈ 0.955511 at δ = 1/10 ≈ 0.1\nattained by pos (x=1) vs neg (x=0) with excess δ on {yes}: 3/4 ≈ 0.75 vs 1/4 ≈ 0.25\n"; got != want {
		t.Errorf("EpsResult:\n%s\nwant\n%s", got, want)
	}
}

// TestBoundedCounterexample: a counterexample proved from bounds marks
// each value as the bound it is, and gives the least ε as an interval.
func TestBoundedCounterexample(t *testing.T) {
	cx := &verify.Counterexample{
		Witness: verify.Witness{
			From: verify.StateInfo{Name: "0"}, To: verify.StateInfo{Name: "1"},
			Event: []string{"a"}, PrFrom: big.NewRat(3, 4), PrTo: big.NewRat(1, 8),
		},
		Bound:    exact.RatReal(big.NewRat(1, 4)),
		Excess:   exact.RatReal(big.NewRat(1, 2)),
		LeastEps: exact.Inf(),
	}
	var b bytes.Buffer
	if err := BoundedCounterexample(&b, cx, Bounds{FromNote: "explored runs only", ToNote: "with all its unexplored mass", LeastEpsLow: exact.LnInt(6)}); err != nil {
		t.Fatal(err)
	}
	want := `counterexample: 0 vs 1
  worst event  E* = {a}
  Pr[E* | 0]   ≥ 3/4 ≈ 0.75 (explored runs only)
  Pr[E* | 1]   ≤ 1/8 ≈ 0.125 (with all its unexplored mass)
  bound        e^ε·Pr[E* | 1] + δ ≤ 1/4 ≈ 0.25
  excess       ≥ 1/2 ≈ 0.5
  least ε      at least ln(6) ≈ 1.79176; whether a finite ε holds at this δ is not decided
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	b.Reset()
	cx.LeastEps = exact.LnInt(8)
	if err := BoundedCounterexample(&b, cx, Bounds{LeastEpsLow: exact.LnInt(6)}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "least ε      between ln(6) ≈ 1.79176 and 3·ln(2) ≈ 2.07944, which holds at this δ\n") {
		t.Errorf("least ε between bounds:\n%s", b.String())
	}
}

// TestBareLongValues: a value too long to print points a Go caller at the
// result that holds it, not at a JSON report it does not have; the
// command's text still points at the JSON report.
func TestBareLongValues(t *testing.T) {
	huge := new(big.Rat).SetFrac(new(big.Int).Exp(big.NewInt(3), big.NewInt(200), nil), new(big.Int).Exp(big.NewInt(2), big.NewInt(320), nil))
	got := RatText(huge)
	if !strings.Contains(got, "(exact: a fraction of 96/97 digits; the result holds it exactly)") {
		t.Errorf("RatText = %q", got)
	}
	if cmd := ratText(huge); !strings.Contains(cmd, "; the JSON report prints it)") {
		t.Errorf("ratText = %q", cmd)
	}
}
