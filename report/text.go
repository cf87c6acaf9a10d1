package report

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/outcome"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/verify"
)

// Text writes entries for a person at a terminal: per file the model and
// its size, then each statement with PASS or FAIL, its exact outcome and,
// for violations, the counterexample; parse and semantic errors with the
// source line and a caret. It ends with a summary line. Names and
// messages from the files are escaped (no control character, line end or
// workflow command reaches w); the error is w's.
func Text(w io.Writer, entries []Entry) error {
	var b bytes.Buffer
	text(&b, entries)
	_, err := w.Write(guardLines(b.Bytes()))
	return err
}

func text(w io.Writer, entries []Entry) {
	for i, e := range entries {
		if i > 0 {
			fmt.Fprintln(w)
		}
		switch stateOf(e) {
		case notChecked:
			writeErr(w, e)
			continue
		case stoppedBefore:
			if me := (*outcome.MemoryError)(nil); errors.As(e.Err, &me) {
				printf(w, "%s: stopped before its checks ran: %s\n", e.name(), me.Error())
			} else {
				printf(w, "%s: %s before its checks ran\n", e.name(), errText(e.Err))
			}
			continue
		}
		textResult(w, e.name(), e.Result, e.text)
		if e.Err != nil && !slices.ContainsFunc(e.Result.Statements, func(o property.Outcome) bool { return stopped(o.Err()) }) {
			printf(w, "  %s\n", errText(e.Err))
		}
	}
	fmt.Fprintln(w)
	printf(w, "%s\n", tally(entries))
}

func writeErr(w io.Writer, e Entry) {
	var list source.ErrorList
	if errors.As(e.Err, &list) {
		printf(w, "%s: %d error%s\n", e.name(), len(list), plural(len(list)))
		printLines(w, indent(safeErrors(list, e.text), "  "))
		return
	}
	printf(w, "%s: error: %s\n", e.name(), errText(e.Err))
}

// safeErrors lays out positioned errors with their source lines (from
// src) and carets, each error's file name and message escaped first, so
// that each is one line.
func safeErrors(list source.ErrorList, src func(string) (string, bool)) string {
	safe := make(source.ErrorList, len(list))
	names := map[string]string{}
	for i, x := range list {
		c := *x
		c.Pos.Filename, c.Msg = textSafe(x.Pos.Filename), textSafe(x.Msg)
		names[c.Pos.Filename] = x.Pos.Filename
		safe[i] = &c
	}
	return safe.PrettyIn(func(name string) (string, bool) { return src(names[name]) })
}

func count(n int, noun string) string { return fmt.Sprintf("%d %s%s", n, noun, plural(n)) }

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func indent(s, pre string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = pre + l
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

func textResult(w io.Writer, name string, r *outcome.Result, src func(string) (string, bool)) {
	printf(w, "%s\n", name)
	m := r.Model
	switch m.Kind {
	case "builder", "modules", "prism":
		printf(w, "  model  %s: %s\n", m.Call, m.Note)
	case "chain":
		if strings.HasPrefix(m.Note, "for every ") { // a chain with the parameter
			printf(w, "  model  explicit chain: %s\n", m.Note)
			break
		}
		printf(w, "  model  explicit chain\n")
	default:
		textStatements(w, r, src)
		return
	}
	s := r.Size
	run := ""
	if s.Runs > 0 {
		run = "one run: "
	}
	if s.MDP {
		printf(w, "  size   MDP: %s, %s, %s, %s; %s, %s (%d ordered)",
			count(s.States, "state"), count(s.Choices, "choice"), count(s.Transitions, "transition"), count(s.Actions, "action"),
			count(s.Inputs, "input"), count(s.Pairs, "neighbouring pair"), 2*s.Pairs)
	} else {
		printf(w, "  size   %s%s, %s, %s, %s (%d ordered)", run,
			count(s.States, "state"), count(s.Transitions, "transition"), count(s.Inputs, "input"), count(s.Pairs, "neighbouring pair"), 2*s.Pairs)
	}
	if s.Outputs > 0 {
		printf(w, ", %d outputs (%s)", s.Outputs, r.OutputSpace)
	}
	if s.Runs > 0 {
		printf(w, "; the product chain of the %d runs is not built", s.Runs)
	}
	fmt.Fprintln(w)
	if m.Neighbours != "" {
		printf(w, "  pairs  %s", m.Neighbours)
		if s.Inputs == 1 {
			fmt.Fprint(w, "; with one initial state there is no pair, and D{ε,δ}[ψ] holds trivially")
		}
		fmt.Fprintln(w)
	}
	for _, l := range r.Lumped {
		printf(w, "  lumped %d → %s, %d → %s, for %s\n", l.Before.States, count(l.After.States, "state"),
			l.Before.Transitions, count(l.After.Transitions, "transition"), strings.Join(l.For, "; "))
	}
	textStatements(w, r, src)
}

// textStatements writes the statements' outcomes; src, when set, gives
// the files' text, so that a refused statement shows its line and a caret.
func textStatements(w io.Writer, r *outcome.Result, src func(string) (string, bool)) {
	for _, o := range r.Statements {
		fmt.Fprintln(w)
		h := o.Statement().Head()
		printf(w, "  %s  line %d  %s\n", statementStatus(o), h.Pos.Line, h.Text)
		var refused *property.RefusalError
		if src != nil && errors.As(o.Err(), &refused) {
			printLines(w, indent(safeErrors(refused.Why, src), pad))
			continue
		}
		textOutcome(w, o)
	}
}

const pad = "        "

func textOutcome(w io.Writer, o property.Outcome) {
	if err := o.Err(); err != nil {
		if stopped(err) {
			printf(w, "%s%s\n", pad, errText(err))
			return
		}
		printf(w, "%serror: %v\n", pad, err)
		return
	}
	view(o).text(w)
}

func writeCounterexample(w io.Writer, cx *verify.Counterexample) {
	writeCounterexampleAt(w, pad, cx, nil)
}

// writeCounterexampleAt writes a counterexample's block with its first
// line at indent: exact values, or with b the bounds a partial
// computation proves.
func writeCounterexampleAt(w io.Writer, indent string, cx *verify.Counterexample, b *Bounds) {
	from, to := cx.From.Name, cx.To.Name
	printf(w, "%scounterexample: %s vs %s\n", indent, cx.From, cx.To)
	prFrom, prTo, bound, excess := ratText(cx.PrFrom), ratText(cx.PrTo), realText(cx.Bound), realText(cx.Excess)
	if b != nil {
		prFrom, prTo = "≥ "+prFrom+noteText(b.FromNote), "≤ "+prTo+noteText(b.ToNote)
		bound, excess = "≤ "+bound, "≥ "+excess
	} else {
		bound = "= " + bound
	}
	rs := [][2]string{
		{"worst event", "E* = " + witnessEvent(&cx.Witness)},
		{"Pr[E* | " + from + "]", prFrom},
		{"Pr[E* | " + to + "]", prTo},
		{"bound", "e^ε·Pr[E* | " + to + "] + δ " + bound},
		{"excess", excess},
	}
	if cx.WorstOutput != "" {
		ratio := "∞"
		if cx.WorstTo.Sign() > 0 {
			ratio = exactRatio(cx.WorstFrom, cx.WorstTo)
			if strings.HasPrefix(ratio, "≈") {
				ratio = strings.SplitN(ratio, " (", 2)[0]
			}
		}
		v := fmt.Sprintf("%s: %s vs %s (ratio %s)", cx.WorstOutput, ratText(cx.WorstFrom), ratText(cx.WorstTo), ratio)
		if b != nil && b.WorstNote != "" {
			v += " " + b.WorstNote
		}
		rs = append(rs, [2]string{"worst output", v})
	}
	if len(cx.Path) > 2 { // a run of more than one step
		names := make([]string, len(cx.Path))
		for i, v := range cx.Path {
			names[i] = v.Name
		}
		run := strings.Join(names, " → ")
		if len(cx.Path) > 8 {
			run = strings.Join(names[:3], " → ") + fmt.Sprintf(" → … (%d steps) → ", len(cx.Path)-4) + names[len(names)-1]
		}
		rs = append(rs, [2]string{"likeliest run", fmt.Sprintf("%s (probability %s)", run, ratText(cx.PathPr))})
	}
	switch lo := leastLow(cx, b); {
	case cx.LeastEpsAtLeast:
		rs = append(rs, [2]string{"least ε", "at least " + epsText(cx.LeastEps) + " at this δ (the tails merged for the statements' ε only; see the model line)"})
	case lo != nil && cx.LeastEps.IsInf():
		rs = append(rs, [2]string{"least ε", "at least " + epsText(*lo) + "; whether a finite ε holds at this δ is not decided"})
	case lo != nil:
		rs = append(rs, [2]string{"least ε", "between " + epsText(*lo) + " and " + epsText(cx.LeastEps) + ", which holds at this δ"})
	case cx.LeastEps.IsInf():
		rs = append(rs, [2]string{"least ε", "none: no finite ε holds at this δ"})
	default:
		rs = append(rs, [2]string{"least ε", epsText(cx.LeastEps) + " would hold at this δ"})
	}
	rows(w, indent+"  ", rs)
}

// leastLow is the lower bound on the least ε that b gives, or nil when
// the least ε is known (no bounds, or equal bounds).
func leastLow(cx *verify.Counterexample, b *Bounds) *exact.Eps {
	if b == nil || b.LeastEpsLow.Equal(cx.LeastEps) {
		return nil
	}
	return &b.LeastEpsLow
}

func noteText(note string) string {
	if note == "" {
		return ""
	}
	return " (" + note + ")"
}

// writeExplanation prints why a formula fails, following its cause.
func writeExplanation(w io.Writer, e *verify.Explanation, indent string) {
	printf(w, "%s%s: %s\n", indent, e.Formula, e.Reason)
	if d := e.DP; d != nil {
		printf(w, "%s  Pr[%s | %s] = %s\n", indent, d.Path, d.From.Name, ratText(d.PrFrom))
		printf(w, "%s  Pr[%s | %s] = %s\n", indent, d.Path, d.To.Name, ratText(d.PrTo))
		printf(w, "%s  bound e^ε·Pr[… | %s] + δ = %s, excess %s\n", indent, d.To.Name, realText(d.Bound), realText(d.Excess))
	}
	for _, c := range e.Causes {
		writeExplanation(w, c, indent+"  ")
	}
}

// verdictText is "holds" or "violated", with the expectation when it was
// not met.
func verdictText(o property.Outcome) string {
	v := o.Value()
	if !o.Pass() {
		v += ", expected " + o.Statement().Head().Expect.Text
	}
	return v
}
