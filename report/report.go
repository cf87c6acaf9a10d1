// Package report formats dpcheck results for people (Text, Markdown) and
// for machines (JSON, JUnit, GitHub workflow commands), and shows progress
// on a terminal. Results computed from Go without a file (a
// verify.Analysis, package dptest) render as the text report shows them
// under a statement: Counterexample, DPResult, EpsResult, DeltaResult.
// Every rendering escapes the names, statements and
// messages that come from the files checked (escape.go). The JSON
// document's schema is docs/dpcheck.schema.json, documented in docs/ci.md
// and versioned by SchemaVersion.
package report

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/outcome"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/verify"
)

// Entry is one file's result, or the error that stopped it.
type Entry struct {
	File   string
	Source string
	// Sources are the texts of the other files the entry read (the PRISM
	// model of a properties file or of a .dp file), by name, for errors
	// in them.
	Sources map[string]string
	Result  *outcome.Result
	Err     error
	// Elapsed is how long the file took, reading it included (the JUnit
	// report's suite time); when it is zero, Result.Elapsed is used.
	Elapsed time.Duration
	// Consts names the values of the constants this run gave the file,
	// one run of a sweep ("K=3"); "" for a single run.
	Consts string
}

// name is the entry's file as a title: with the run's constants.
func (e Entry) name() string {
	if e.Consts == "" {
		return e.File
	}
	return e.File + " (" + e.Consts + ")"
}

// elapsed is how long the entry's file took.
func (e Entry) elapsed() time.Duration {
	if e.Elapsed == 0 && e.Result != nil {
		return e.Result.Elapsed
	}
	return e.Elapsed
}

// text returns the source of the file name: the entry's own, or one of
// the others it read.
func (e Entry) text(name string) (string, bool) {
	if s, ok := e.Sources[name]; ok {
		return s, true
	}
	if name == e.File || e.Sources == nil {
		return e.Source, true
	}
	return "", false
}

// Status classifies an entry.
type Status int

// The statuses, in increasing order of severity.
const (
	Pass     Status = iota // every statement met its expectation
	Fail                   // some statement did not
	Invalid                // the file has parse or semantic errors (or cannot be read)
	Aborted                // the check did not complete (timeout, interrupt)
	Internal               // dpcheck failed: a bug to report (outcome.InternalError)
)

// String names the status as the JSON report does: pass, fail, invalid,
// aborted or internal.
func (s Status) String() string {
	switch s {
	case Pass:
		return "pass"
	case Fail:
		return "fail"
	case Invalid:
		return "invalid"
	case Aborted:
		return "aborted"
	}
	return "internal"
}

// stopped reports whether err is a cancellation or a deadline.
func stopped(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// errText describes an error, in words for a timeout or an interrupt.
func errText(err error) string {
	var me *outcome.MemoryError
	var ns *property.NotStartedError
	switch {
	case errors.As(err, &ns):
		return "not started: " + strings.TrimPrefix(errText(ns.Err), "stopped: ")
	case errors.As(err, &me):
		return "stopped: " + me.Error()
	case errors.Is(err, context.DeadlineExceeded):
		return "stopped: the time limit was reached"
	case errors.Is(err, context.Canceled):
		return "stopped: interrupted"
	}
	return err.Error()
}

// StatusOf classifies an entry.
func StatusOf(e Entry) Status {
	var ie *outcome.InternalError
	if errors.As(e.Err, &ie) {
		return Internal
	}
	switch {
	case e.Err != nil && e.Result != nil:
		return Aborted
	case e.Err != nil:
		var list source.ErrorList
		invalid := errors.As(e.Err, &list) || errors.Is(e.Err, verify.ErrModel) || errors.Is(e.Err, verify.ErrParam)
		if stopped(e.Err) && !invalid {
			return Aborted
		}
		return Invalid
	}
	status := Pass
	for _, o := range e.Result.Statements {
		switch {
		case property.IsRefusal(o.Err()):
			status = max(status, Invalid)
		case o.Err() != nil:
			status = Aborted
		}
	}
	if status != Pass {
		return status
	}
	if !e.Result.Pass() {
		return Fail
	}
	return Pass
}

// ratDec formats a rational for display: six significant digits of the
// exact value, correctly rounded, trailing zeros of the fraction dropped,
// in the notation of %g.
func ratDec(x *big.Rat) string { return exact.TextDecimal().Rat(x) }

// jsonNote says where a value too long to print is in full: the JSON
// report has every value exactly. The renderings of bare results say
// goNote instead: their caller holds the exact value.
const (
	jsonNote = "the JSON report prints it"
	goNote   = "the result holds it exactly"
)

// MaxExactWidth is the longest exact value the text report prints; longer
// ones print as their decimal and size (the JSON report prints them all).
const MaxExactWidth = 60

// MaxAnswerWidth is the longest exact answer of a query (a tight ε or δ,
// a probability asked for) the text report prints in full, so that it can
// be copied into an expectation; longer ones print as their decimal and
// size, like other values beyond MaxExactWidth.
const MaxAnswerWidth = 1000

// ratText formats a rational with its decimal: "1/3 ≈ 0.333333"; integers
// and short terminating decimals print once.
func ratText(x *big.Rat) string { return ratTextW(x, MaxExactWidth) }

// ratTextW is ratText with exact forms up to width characters.
func ratTextW(x *big.Rat, width int) string {
	s := x.RatString()
	d := ratDec(x)
	if s == d {
		return s
	}
	if len(s) > width {
		return fmt.Sprintf("≈ %s (exact: a fraction of %d/%d digits; %s)", d, len(x.Num().String()), len(x.Denom().String()), jsonNote)
	}
	return s + " ≈ " + d
}

// epsText formats ε: its canonical exact form (which the .dp language
// reads back in an expectation) and its decimal, "4·ln(2) ≈ 2.77259". An
// exact form longer than MaxExactWidth is replaced by the decimal and its
// size, marked "≈" (the JSON report prints it).
func epsText(e exact.Eps) string { return epsTextW(e, MaxExactWidth) }

// epsAnswer formats ε as the answer of a query: in full up to
// MaxAnswerWidth characters.
func epsAnswer(e exact.Eps) string { return epsTextW(e, MaxAnswerWidth) }

// epsTextW is epsText with exact forms up to width characters.
func epsTextW(e exact.Eps, width int) string {
	s := e.String()
	if e.IsInf() || e.IsZero() {
		return s
	}
	d := exact.TextDecimal().Eps(e)
	if n := utf8.RuneCountInString(s); n > width {
		if strings.HasPrefix(s, "ln(") && strings.HasSuffix(s, ")") && !strings.Contains(s[3:], "ln(") && !strings.ContainsAny(s, "+-") {
			return fmt.Sprintf("≈ %s (exact: ln of a fraction of %d characters; %s)", d, len(s)-4, jsonNote)
		}
		return fmt.Sprintf("≈ %s (exact: %d characters; %s)", d, n, jsonNote)
	}
	if s == d {
		return s
	}
	return s + " ≈ " + d
}

// realText formats a real (a δ that may involve e^ε) with its decimal.
func realText(r exact.Real) string { return realTextW(r, MaxExactWidth) }

// realAnswer formats a real as the answer of a query: in full up to
// MaxAnswerWidth characters.
func realAnswer(r exact.Real) string { return realTextW(r, MaxAnswerWidth) }

// realTextW is realText with exact forms up to width characters.
func realTextW(r exact.Real, width int) string {
	if x, ok := r.Rat(); ok {
		return ratTextW(x, width)
	}
	s := r.String()
	d := exact.TextDecimal().Real(r)
	if n := utf8.RuneCountInString(s); n > width {
		return fmt.Sprintf("≈ %s (exact: %d characters; %s)", d, n, jsonNote)
	}
	return s + " ≈ " + d
}

// eventText lists an event's outputs, eliding the middle of long ones.
func eventText(ev []string) string {
	if len(ev) <= 8 {
		return "{" + strings.Join(ev, ", ") + "}"
	}
	return fmt.Sprintf("{%s, …, %s} (%d outputs)", strings.Join(ev[:6], ", "), ev[len(ev)-1], len(ev))
}

// formats are the renderings Write knows.
func formats() map[string]func(w io.Writer, entries []Entry, version string) error {
	return map[string]func(io.Writer, []Entry, string) error{
		"text":     func(w io.Writer, e []Entry, _ string) error { return Text(w, e) },
		"json":     JSON,
		"junit":    func(w io.Writer, e []Entry, _ string) error { return JUnit(w, e) },
		"github":   func(w io.Writer, e []Entry, _ string) error { return GitHub(w, e) },
		"markdown": func(w io.Writer, e []Entry, _ string) error { return Markdown(w, e) },
	}
}

// Formats lists the formats Write knows: text, json, junit, github,
// markdown.
func Formats() []string { return []string{"text", "json", "junit", "github", "markdown"} }

// Write renders the entries in format (one of Formats); version is
// dpcheck's, for the JSON document.
func Write(w io.Writer, format string, entries []Entry, version string) error {
	f, ok := formats()[format]
	if !ok {
		return fmt.Errorf("unknown format %q (text, json, junit, github or markdown)", format)
	}
	return f(w, entries, version)
}

// witnessEvent writes a witness's event: its outputs, or for a
// composition the privacy loss that describes it.
func witnessEvent(w *verify.Witness) string {
	l := w.Loss
	if l == nil {
		return eventText(w.Event)
	}
	values := count(l.Values, "loss value")
	switch l.Op {
	case "∞":
		return fmt.Sprintf("{the outputs of %d runs impossible under %s} (infinite privacy loss)", l.Runs, w.To.Name)
	case "≥":
		return fmt.Sprintf("{the outputs of %d runs with the largest privacy loss, %s}", l.Runs, epsText(l.Loss))
	}
	switch {
	case l.Infinite && l.Values == 0:
		values = "the infinite loss only"
	case l.Infinite:
		values += " and the infinite loss"
	}
	return fmt.Sprintf("{the outputs of %d runs with privacy loss > %s} (%s)", l.Runs, epsText(l.Loss), values)
}

// noEvent is what the text report says of a tight δ of 0 in place of a
// witness: no event E has Pr_s(E) > e^ε·Pr_t(E).
const noEvent = "no event exceeds the bound: Pr[E | s] ≤ e^ε·Pr[E | t] for every event E and ordered pair (s, t)"

// eventWitness returns w when its event is not empty, else nil: a tight δ
// of 0 has no witness (an empty event with probabilities 0 vs 0 would
// read like a counterexample).
func eventWitness(w *verify.Witness) *verify.Witness {
	if w == nil || !hasEvent(w) {
		return nil
	}
	return w
}

// hasEvent reports whether a witness's event is not empty.
func hasEvent(w *verify.Witness) bool {
	if w.Loss != nil {
		return w.Loss.Values > 0 || w.PrFrom.Sign() > 0
	}
	return len(w.Event) > 0
}

// checkedText says what a dp result covered: "10 ordered pairs × 6
// outputs", and for a composition how it was computed.
func checkedText(c verify.Checked) string {
	if c.Runs == 0 {
		return fmt.Sprintf("%d ordered pairs × %d outputs", c.OrderedPairs, c.Outputs)
	}
	return fmt.Sprintf("%d ordered pairs × %d outputs per run; %s", c.OrderedPairs, c.Outputs, compositionText(c))
}

// compositionText says how a composition's result was computed.
func compositionText(c verify.Checked) string {
	if c.LossValues == 0 {
		return fmt.Sprintf("%d-fold composition: at δ = 0 the largest loss is %d times one run's, so one run's loss values decide", c.Runs, c.Runs)
	}
	return fmt.Sprintf("%d-fold composition by privacy-loss distributions: %s", c.Runs, count(c.LossValues, "distinct loss value"))
}

// writeComposition writes, for a composition's result, how it was
// computed.
func writeComposition(w io.Writer, c verify.Checked) {
	if c.Runs > 0 {
		printf(w, "%s%s\n", pad, compositionText(c))
	}
}
