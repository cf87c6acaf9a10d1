package report

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/dpcheck/dpcheck/exact"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
	"github.com/google/go-cmp/cmp"
)

func TestDecimal(t *testing.T) {
	for _, tc := range []struct {
		x    string
		want string
	}{
		{"0", "0"}, {"1/2", "0.5"}, {"1/3", "0.333333"}, {"2/3", "0.666667"},
		{"1/10000000", "1e-07"}, {"1234567", "1.23457e+06"}, {"3", "3"},
		{"1/10000000000", "1e-10"}, {"29434402/100000000000000000", "2.94344e-10"}, {"100", "100"},
		{"100000000000000000000", "1e+20"}, {"1/10", "0.1"},
		// on a boundary of the sixth digit: halves away from zero (a
		// float64 of 0.000001234565 is below it and %.6g gives 1.23457e-06)
		{"1234565/1000000000000", "1.23457e-06"}, {"1234565/10000000", "0.123457"},
	} {
		x, _ := new(big.Rat).SetString(tc.x)
		if got := ratDec(x); got != tc.want {
			t.Errorf("ratDec(%s) = %q, want %q", tc.x, got, tc.want)
		}
	}
}

func TestEventText(t *testing.T) {
	var long []string
	for i := range 500 {
		long = append(long, fmt.Sprintf("t%d", i))
	}
	for _, tc := range []struct {
		ev   []string
		want string
	}{
		{nil, "{}"},
		{[]string{"t0"}, "{t0}"},
		{long[:8], "{t0, t1, t2, t3, t4, t5, t6, t7}"},
		{long, "{t0, t1, t2, t3, t4, t5, …, t499} (500 outputs)"},
	} {
		if got := eventText(tc.ev); got != tc.want {
			t.Errorf("eventText(%d outputs) = %q, want %q", len(tc.ev), got, tc.want)
		}
	}
}

// madeOutcome is an outcome of a test's own making.
type madeOutcome struct {
	st   property.Statement
	pass bool
	err  error
}

func (o *madeOutcome) Statement() property.Statement { return o.st }
func (o *madeOutcome) Pass() bool                    { return o.pass }
func (o *madeOutcome) Err() error                    { return o.err }
func (o *madeOutcome) Value() string                 { return "" }

func TestStatusOf(t *testing.T) {
	pass := &dpcheck.Result{Statements: []property.Outcome{&madeOutcome{pass: true}}}
	fail := &dpcheck.Result{Statements: []property.Outcome{&madeOutcome{pass: true}, &madeOutcome{}}}
	got := []Status{
		StatusOf(Entry{Result: pass}),
		StatusOf(Entry{Result: fail}),
		StatusOf(Entry{Err: source.ErrorList{{Msg: "x"}}}),
		StatusOf(Entry{Err: errors.New("open x.dp: no such file")}),
		StatusOf(Entry{Result: pass, Err: fmt.Errorf("stopped: %w", errors.New("context canceled"))}),
		StatusOf(Entry{Err: fmt.Errorf("loading: %w", context.DeadlineExceeded)}),
		StatusOf(Entry{Err: errors.New("context of the model")}), // not a cancellation
		StatusOf(Entry{Err: &dpcheck.InternalError{Value: "a bug"}}),
	}
	want := []Status{Pass, Fail, Invalid, Invalid, Aborted, Aborted, Invalid, Internal}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
}

func TestExactElision(t *testing.T) {
	small := new(big.Rat).SetFrac64(1, 3)
	if got, want := ratText(small), "1/3 ≈ 0.333333"; got != want {
		t.Errorf("ratText(1/3) = %q, want %q", got, want)
	}
	huge := new(big.Rat).SetFrac(new(big.Int).Exp(big.NewInt(999), big.NewInt(100), nil), new(big.Int).Exp(big.NewInt(1000), big.NewInt(100), nil))
	if got, want := ratText(huge), "≈ 0.904792 (exact: a fraction of 300/301 digits; the JSON report prints it)"; got != want {
		t.Errorf("ratText(0.999^100) = %q, want %q", got, want)
	}
}

func TestEpsElision(t *testing.T) {
	big100 := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(7), big.NewInt(100), nil))
	pure, err := exact.Ln(new(big.Rat).Add(big100, big.NewRat(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	mixed, err := exact.LnPlus(big.NewRat(1, 2), new(big.Rat).Add(big100, big.NewRat(1, 1)), big.NewRat(1, 10))
	if err != nil {
		t.Fatal(err)
	}
	// 1/2·ln(7^100) + 1/10 is written with its smallest base, whatever
	// its length as ln(7^100)
	power, err := exact.LnPlus(big.NewRat(1, 2), big100, big.NewRat(1, 10))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		e    exact.Eps
		want string
	}{
		{pure, "≈ 194.591 (exact: ln of a fraction of 85 characters; the JSON report prints it)"},
		{mixed, "≈ 97.3955 (exact: 100 characters; the JSON report prints it)"}, // characters, not bytes (· is two)
		{power, "50·ln(7) + 1/10 ≈ 97.3955"},
		{exact.Eps{}, "0"},
	} {
		if got := epsText(tc.e); got != tc.want {
			t.Errorf("epsText(%s) = %q, want %q", tc.e, got, tc.want)
		}
	}
}

// TestTextStopped: a statement cut off by the time limit is STOP, not FAIL,
// and a file stopped while loading says so; the summary counts both.
func TestTextStopped(t *testing.T) {
	st := &property.EpsQuery{Header: property.Header{Pos: source.Position{Line: 2, Column: 1}, Text: "query eps(delta = 0)"}}
	r := &dpcheck.Result{File: "a.dp", Statements: []property.Outcome{&madeOutcome{st: st, err: context.DeadlineExceeded}}}
	var b bytes.Buffer
	Text(&b, []Entry{
		{File: "a.dp", Result: r, Err: context.DeadlineExceeded},
		{File: "b.dp", Err: context.Canceled},
	})
	for _, want := range []string{
		"  STOP  line 2  query eps(delta = 0)\n        stopped: the time limit was reached\n",
		"b.dp: stopped: interrupted before its checks ran\n",
		"2 files, 1 statement: 0 passed, 0 failed, 1 stopped, 1 file stopped before checking\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, b.String())
		}
	}
}

// TestLumpedLines: with lumping, the text report says how much each
// lumping shrank the chain, and for what; the JSON report too.
func TestLumpedLines(t *testing.T) {
	src := `chain {
  state a (x = 0)
  state b (x = 1)
  state m1 [A]
  state m2 [A]
  state o1 (y = 1)
  state o2 (y = 1)
  state o3 (y = 2)
  a -> m1 : 1/2, m2 : 1/2
  b -> m2 : 1/4, o3 : 3/4
  m1 -> o1 : 1/3, o3 : 2/3
  m2 -> o2 : 1/3, o3 : 2/3
}
inputs a, b
neighbours a ~ b
outputs var y
observe A
query eps(delta = 0)
query eps(delta = 0) over traces(2)
query P=?[F A]
`
	res, err := dpcheck.Config{Lump: true}.CheckSource(context.Background(), "l.dp", src)
	if err != nil {
		t.Fatal(err)
	}
	var text, js bytes.Buffer
	Text(&text, []Entry{{File: "l.dp", Source: src, Result: res}})
	wantLines := []string{
		"  lumped 7 → 5 states, 11 → 7 transitions, for final value of y",
		"  lumped 7 → 4 states, 11 → 5 transitions, for traces of {A} over 2 steps; dpCTL formulas",
	}
	var got []string
	for _, l := range strings.Split(text.String(), "\n") {
		if strings.HasPrefix(l, "  lumped") {
			got = append(got, l)
		}
	}
	if diff := cmp.Diff(wantLines, got); diff != "" {
		t.Errorf("lumped lines (-want +got):\n%s", diff)
	}
	if err := JSON(&js, []Entry{{File: "l.dp", Source: src, Result: res}}, "test"); err != nil {
		t.Fatal(err)
	}
	var doc Document
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	want := []LumpedDoc{
		{For: []string{"final value of y"}, Before: ChainSizeDoc{7, 11}, After: ChainSizeDoc{5, 7}},
		{For: []string{"traces of {A} over 2 steps", "dpCTL formulas"}, Before: ChainSizeDoc{7, 11}, After: ChainSizeDoc{4, 5}},
	}
	if diff := cmp.Diff(want, doc.Files[0].Lumped); diff != "" {
		t.Errorf("JSON lumped (-want +got):\n%s", diff)
	}
}

// TestNoWitnessAtDeltaZero: a tight δ of 0 has no witness in any format
// (an empty event with 0 vs 0 would read like a counterexample); the text
// says no event exceeds the bound. A tight δ above 0 keeps its witness.
func TestNoWitnessAtDeltaZero(t *testing.T) {
	src := "model survey()\nquery delta(eps = ln(3))\nquery delta(eps = ln(2))\n"
	res, err := dpcheck.CheckSource(context.Background(), "t.dp", src)
	if err != nil {
		t.Fatal(err)
	}
	entries := []Entry{{File: "t.dp", Source: src, Result: res}}
	var text, js, junit bytes.Buffer
	Text(&text, entries)
	if err := JSON(&js, entries, "test"); err != nil {
		t.Fatal(err)
	}
	if err := JUnit(&junit, entries); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(text.String(), noEvent); n != 1 {
		t.Errorf("the text says %q %d times, want once:\n%s", noEvent, n, text.String())
	}
	if n := strings.Count(text.String(), "attained by"); n != 1 {
		t.Errorf("%d witnesses in the text, want 1 (δ = 1/4 at ln(2)):\n%s", n, text.String())
	}
	if !strings.Contains(junit.String(), "no event exceeds the bound") {
		t.Errorf("JUnit lacks the note:\n%s", junit.String())
	}
	var doc Document
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	sts := doc.Files[0].Statements
	if len(sts) != 2 || sts[0].Value.Exact != "0" || sts[0].Witness != nil {
		t.Errorf("δ = 0: value %v, witness %+v; want 0 and no witness", sts[0].Value, sts[0].Witness)
	}
	if sts[1].Value.Exact != "1/4" || sts[1].Witness == nil || len(sts[1].Witness.Event) != 1 {
		t.Errorf("δ = 1/4: value %v, witness %+v", sts[1].Value, sts[1].Witness)
	}
	// ε carries e^ε when it is rational
	if e := sts[0].Eps; e == nil || e.Exact != "ln(3)" || e.ExpEps != "3" || e.Decimal.String() != "1.0986122886681097" {
		t.Errorf("eps %+v", e)
	}
}

// TestAnswerWidthCountsCharacters: a query's answer prints in full up to
// MaxAnswerWidth characters, counted as characters, not bytes (· is two
// bytes): 1/2·ln(N) with N of 992 digits is 1000 characters and 1001
// bytes, and was elided as "1001 characters"; with 993 digits it is
// elided, and the count is 1001 characters. The same for a δ with e^ε.
func TestAnswerWidthCountsCharacters(t *testing.T) {
	num := func(zeros int) *big.Rat {
		n, _ := new(big.Int).SetString("3"+strings.Repeat("0", zeros)+"1", 10)
		return new(big.Rat).SetInt(n)
	}
	half := big.NewRat(1, 2)
	e1000, err := exact.MulLn(half, num(990))
	if err != nil {
		t.Fatal(err)
	}
	e1001, err := exact.MulLn(half, num(991))
	if err != nil {
		t.Fatal(err)
	}
	full := e1000.String()
	if got, want := epsAnswer(e1000), full+" ≈ 1141.48"; got != want {
		t.Errorf("1000 characters: %.60s…, want the exact form in full", got)
	}
	if got, want := epsAnswer(e1001), "≈ 1142.63 (exact: 1001 characters; the JSON report prints it)"; got != want {
		t.Errorf("1001 characters: %q, want %q", got, want)
	}
	e978, err := exact.MulLn(half, num(976))
	if err != nil {
		t.Fatal(err)
	}
	d := exact.Affine(big.NewRat(2, 3), big.NewRat(-1, 3), e978)
	if s := d.String(); !strings.HasPrefix(s, "2/3 - 1/3·e^(1/2·ln(3000") || len([]rune(s)) != 1000 {
		t.Fatalf("δ = %.40s… of %d characters, want 2/3 - 1/3·e^(1/2·ln(N)) of 1000", s, len([]rune(s)))
	}
	if got := realAnswer(d); !strings.HasPrefix(got, d.String()+" ≈ ") {
		t.Errorf("δ of 1000 characters: %.60s…, want it in full", got)
	}
}

// stopClocks replaces the measured times of entries by fixed ones — the
// i-th statement of a file took i+1 ms, a file 250 ms — so that the
// renderings that show them are golden.
func stopClocks(entries []Entry) []Entry {
	for i := range entries {
		entries[i].Elapsed = 250 * time.Millisecond
		if r := entries[i].Result; r != nil {
			r.Elapsed = entries[i].Elapsed
			r.Times = make([]time.Duration, len(r.Statements))
			for k := range r.Times {
				r.Times[k] = time.Duration(k+1) * time.Millisecond
			}
		}
	}
	return entries
}
