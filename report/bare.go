package report

import (
	"bytes"
	"io"
	"math/big"
	"strings"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/verify"
)

// The text report of results computed from Go (verify.Analysis, package
// dptest), without a file: the lines the command prints under a
// statement, with the first at the left margin. Like Text, they escape
// every name they show; the error is w's.

// Counterexample writes a violated dp check's counterexample as the text
// report does: the ordered pair, the worst event E*, both probabilities
// exactly and in decimal, the bound e^ε·Pr[E* | To] + δ, the excess, the
// single worst output and the least ε that would hold at this δ.
func Counterexample(w io.Writer, cx *verify.Counterexample) error {
	return write(w, func(b io.Writer) { writeCounterexampleAt(b, "", cx, nil) })
}

// Bounds qualifies a counterexample whose values are bounds that hold
// whatever the part that was not computed is — a sampler explored within
// a budget, say: Pr[E* | From] is at least cx.PrFrom, Pr[E* | To] at
// most cx.PrTo, so the bound is at most cx.Bound and the excess at least
// cx.Excess; the least ε lies between LeastEpsLow and cx.LeastEps (which
// holds).
type Bounds struct {
	// FromNote and ToNote say why each probability is a bound, in a few
	// words ("explored runs only"); WorstNote qualifies the worst output.
	FromNote, ToNote, WorstNote string
	// LeastEpsLow is a lower bound on the least ε that holds at this δ.
	LeastEpsLow exact.Eps
}

// BoundedCounterexample writes cx as Counterexample does, each value
// marked as the bound that b says it is.
func BoundedCounterexample(w io.Writer, cx *verify.Counterexample, b Bounds) error {
	return write(w, func(out io.Writer) { writeCounterexampleAt(out, "", cx, &b) })
}

// DPResult writes the verdict of a dp check as the text report does —
// "holds: ε = ln(3) ≈ 1.09861, δ = 0; 2 ordered pairs × 2 outputs" — and,
// when it is violated, its counterexample.
func DPResult(w io.Writer, r *verify.DPResult) error {
	return write(w, func(b io.Writer) {
		verdict := "holds"
		if !r.Holds {
			verdict = "violated"
		}
		printf(b, "%s: ε = %s, δ = %s; %s\n", verdict, epsText(r.Eps), ratText(r.Delta), checkedText(r.Checked))
		writeComposition(b, r.Checked)
		if cx := r.Counterexample; cx != nil {
			writeCounterexampleAt(b, "", cx, nil)
		}
	})
}

// EpsResult writes a tight ε as the text report does: the value, and the
// pair and event that attain it.
func EpsResult(w io.Writer, r *verify.EpsResult) error {
	return write(w, func(b io.Writer) {
		printf(b, "ε = %s at δ = %s\n", epsAnswer(r.Eps), ratText(r.Delta))
		writeComposition(b, r.Checked)
		writeEpsWitness(b, "", r)
	})
}

// DeltaResult writes a tight δ as the text report does: the value, and
// the pair and event that attain it.
func DeltaResult(w io.Writer, r *verify.DeltaResult) error {
	return write(w, func(b io.Writer) {
		printf(b, "δ = %s at ε = %s\n", realAnswer(r.Delta), epsText(r.Eps))
		writeComposition(b, r.Checked)
		writeDeltaWitness(b, "", r)
	})
}

// writeEpsWitness writes the line that says where a tight ε is attained.
func writeEpsWitness(w io.Writer, indent string, r *verify.EpsResult) {
	if wt := r.Witness; wt != nil {
		if wt.Approached {
			printf(w, "%sapproached by %s vs %s along %s: the ratio of its values' probabilities tends to e^ε, attained by none (the whole tail: %s vs %s)\n", indent, wt.From, wt.To, witnessEvent(wt), ratText(wt.PrFrom), ratText(wt.PrTo))
			return
		}
		what := "on"
		if r.Delta.Sign() > 0 {
			what = "with excess δ on"
		}
		printf(w, "%sattained by %s vs %s %s %s: %s vs %s\n", indent, wt.From, wt.To, what, witnessEvent(wt), ratText(wt.PrFrom), ratText(wt.PrTo))
	}
}

// writeDeltaWitness writes the line that says where a tight δ is
// attained, or that no event exceeds the bound.
func writeDeltaWitness(w io.Writer, indent string, r *verify.DeltaResult) {
	if wt := eventWitness(r.Witness); wt != nil {
		printf(w, "%sattained by %s vs %s on E* = %s: %s vs %s\n", indent, wt.From, wt.To, witnessEvent(wt), ratText(wt.PrFrom), ratText(wt.PrTo))
	} else {
		printf(w, "%s%s\n", indent, noEvent)
	}
}

// RatText formats an exact rational as the text report does: with its
// decimal when that differs, "1/3 ≈ 0.333333"; a very long fraction as its
// decimal and size.
func RatText(x *big.Rat) string { return bare(textSafe(ratText(x))) }

// RealText formats an exact real A + B·e^ε as the text report does, with
// its decimal.
func RealText(r exact.Real) string { return bare(textSafe(realText(r))) }

// EpsText formats ε as the text report does: "ln(3) ≈ 1.09861".
func EpsText(e exact.Eps) string { return bare(textSafe(epsText(e))) }

// write renders into a buffer and writes it guarded (guardLines), as Text
// does.
func write(w io.Writer, f func(io.Writer)) error {
	var b bytes.Buffer
	f(&b)
	_, err := w.Write(guardLines([]byte(bare(b.String()))))
	return err
}

// bare points a value too long to print at the result that holds it, not
// at a JSON report that a Go caller does not have.
func bare(s string) string { return strings.ReplaceAll(s, jsonNote, goNote) }
