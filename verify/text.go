package verify

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/dpcheck/dpcheck/exact"
)

// The String methods of the results: a few lines for a person reading a
// test log or a debugger, every value exact with its decimal. Package
// report renders the same results as the command does.

// String describes the verdict in one line, and a violation's
// counterexample in the lines after it:
//
//	dp(ε = ln(3) ≈ 1.09861, δ = 0) holds: 2 ordered pairs × 2 outputs
func (r *DPResult) String() string {
	head := fmt.Sprintf("dp(ε = %s, δ = %s)", epsString(r.Eps), ratString(r.Delta))
	if r.Holds {
		return fmt.Sprintf("%s holds: %s", head, checkedString(r.Checked))
	}
	s := fmt.Sprintf("%s is violated: %s", head, checkedString(r.Checked))
	if r.Counterexample != nil {
		s += "\n" + r.Counterexample.String()
	}
	return s
}

// String describes the counterexample in four lines: the pair and the
// event, both probabilities, the bound and the excess, the least ε that
// would hold.
func (cx *Counterexample) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s vs %s on E* = %s\n", cx.From, cx.To, eventString(&cx.Witness))
	fmt.Fprintf(&b, "Pr[E* | %s] = %s, Pr[E* | %s] = %s\n", cx.From.Name, ratString(cx.PrFrom), cx.To.Name, ratString(cx.PrTo))
	fmt.Fprintf(&b, "bound e^ε·Pr[E* | %s] + δ = %s, excess %s\n", cx.To.Name, realString(cx.Bound), realString(cx.Excess))
	if cx.LeastEps.IsInf() {
		b.WriteString("least ε: none, no finite ε holds at this δ")
	} else {
		fmt.Fprintf(&b, "least ε that holds at this δ: %s", epsString(cx.LeastEps))
	}
	return b.String()
}

// String gives the tight ε and, on the next line, where it is attained:
//
//	ε = ln(2) ≈ 0.693147 at δ = 0
//	attained by s0 (in=0) vs s1 (in=1) on {t0}: 2/3 ≈ 0.666667 vs 1/3 ≈ 0.333333
func (r *EpsResult) String() string {
	s := fmt.Sprintf("ε = %s at δ = %s", epsString(r.Eps), ratString(r.Delta))
	if r.Witness != nil {
		s += "\n" + witnessString(r.Witness)
	}
	return s
}

// String gives the tight δ and, on the next line, where it is attained:
//
//	δ = 1/4 at ε = ln(2) ≈ 0.693147
//	attained by + vs - on {Y}: 3/4 vs 1/4
func (r *DeltaResult) String() string {
	s := fmt.Sprintf("δ = %s at ε = %s", realString(r.Delta), epsString(r.Eps))
	if w := r.Witness; w != nil && (len(w.Event) > 0 || w.Loss != nil) {
		s += "\n" + witnessString(w)
	}
	return s
}

func witnessString(w *Witness) string {
	return fmt.Sprintf("attained by %s vs %s on %s: %s vs %s", w.From, w.To, eventString(w), ratString(w.PrFrom), ratString(w.PrTo))
}

// eventString lists an event's outputs (the middle of a long one elided),
// or says which privacy loss describes a composition's event.
func eventString(w *Witness) string {
	if l := w.Loss; l != nil {
		switch l.Op {
		case "∞":
			return fmt.Sprintf("{the outputs of %d runs impossible under %s}", l.Runs, w.To.Name)
		case "≥":
			return fmt.Sprintf("{the outputs of %d runs with privacy loss ≥ %s}", l.Runs, epsString(l.Loss))
		}
		return fmt.Sprintf("{the outputs of %d runs with privacy loss > %s}", l.Runs, epsString(l.Loss))
	}
	ev := w.Event
	if len(ev) > 8 {
		return fmt.Sprintf("{%s, …, %s} (%d outputs)", strings.Join(ev[:6], ", "), ev[len(ev)-1], len(ev))
	}
	return "{" + strings.Join(ev, ", ") + "}"
}

func checkedString(c Checked) string {
	s := fmt.Sprintf("%d ordered pairs × %d outputs", c.OrderedPairs, c.Outputs)
	if c.Runs > 0 {
		s += fmt.Sprintf(" per run, %d runs", c.Runs)
	}
	return s
}

// ratString is x exactly, with its decimal when that differs: "1/3 ≈
// 0.333333", "1/4 ≈ 0.25", "0".
func ratString(x *big.Rat) string {
	if x == nil {
		return "?"
	}
	s, d := x.RatString(), exact.TextDecimal().Rat(x)
	if s == d {
		return s
	}
	return s + " ≈ " + d
}

func epsString(e exact.Eps) string {
	s := e.String()
	if e.IsInf() || e.IsZero() {
		return s
	}
	if d := exact.TextDecimal().Eps(e); d != s {
		return s + " ≈ " + d
	}
	return s
}

func realString(r exact.Real) string {
	if r.A == nil {
		return "?"
	}
	if x, ok := r.Rat(); ok {
		return ratString(x)
	}
	return r.String() + " ≈ " + exact.TextDecimal().Real(r)
}
