package report

import (
	"fmt"
	"io"
	"math/big"
	"strings"

	"github.com/dpcheck/dpcheck/mdp"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/verify"
)

// The renderings of statements on MDPs: each says what was checked (over
// which schedulers) and how it was decided — the verdict's kind, the
// engine's reason, the horizon, the sequences explored and pruned, and
// the worst action sequence with its pair, event and probabilities.

// mdpVerdictText is a verdict with its kind: "holds (sufficient
// condition, Proposition 2)", "unknown: δ between X and Y".
func mdpVerdictText(v mdp.Verdict, r *mdp.Result) string {
	switch v {
	case mdp.Holds:
		return "holds"
	case mdp.HoldsSufficient:
		return "holds (sufficient condition, Proposition 2)"
	case mdp.Violated:
		return "violated"
	}
	switch {
	case r == nil:
		return "unknown"
	case r.Upper != nil:
		return fmt.Sprintf("unknown: δ between %s and %s", realText(r.Delta), realText(*r.Upper))
	}
	return fmt.Sprintf("unknown: δ at least %s", realText(r.Delta))
}

// mdpCheckText is the verdict of a check on an MDP, with the expectation
// when it was not met.
func mdpCheckText(o property.Outcome, v mdp.Verdict, r *mdp.Result) string {
	s := mdpVerdictText(v, r)
	if !o.Pass() {
		s += ", expected " + o.Statement().Head().Expect.Text
	}
	return s
}

// sequenceText writes an action sequence: "[H, L]".
func sequenceText(seq []string) string {
	if len(seq) > 12 {
		return fmt.Sprintf("[%s, …, %s] (%d actions)", strings.Join(seq[:10], ", "), seq[len(seq)-1], len(seq))
	}
	return "[" + strings.Join(seq, ", ") + "]"
}

// rows writes aligned name/value rows under a statement.
func rows(w io.Writer, indent string, rs [][2]string) {
	width := 0
	for _, r := range rs {
		width = alignTo(width, r[0])
	}
	for _, r := range rs {
		printf(w, "%s%s%s  %s\n", indent, r[0], strings.Repeat(" ", max(0, width-textWidth(r[0]))), r[1])
	}
}

// searchRows say how it was decided and how far the search over query
// schedulers went; no horizon row when nothing was searched (bisimilar
// inputs, no pair).
func searchRows(reason string, horizon int, explored, pruned, transposed int64) [][2]string {
	rs := [][2]string{{"decided", reason}}
	if explored > 0 {
		t := ""
		if transposed > 0 {
			t = fmt.Sprintf(", %d merged with an earlier prefix", transposed)
		}
		rs = append(rs, [2]string{"horizon", fmt.Sprintf("%d (%s explored, %d pruned%s)", horizon, count(int(explored), "sequence"), pruned, t)})
	}
	return rs
}

// resultRows are the rows of an mdp.Result: how it was decided, the
// search, and the worst sequence. d says whether it is a D's (ψ's
// probabilities) rather than dp's (an event's).
func resultRows(r *mdp.Result, names func(int) string, d bool) [][2]string {
	rs := searchRows(r.Reason, r.Horizon, r.Explored, r.Pruned, r.Transposed)
	if noGap(r) && !d {
		rs = append(rs, [2]string{"worst", "none: " + noEvent})
	} else if r.From >= 0 {
		from, to := names(r.From), names(r.To)
		rs = append(rs, [2]string{"worst", fmt.Sprintf("action sequence %s, %s vs %s", sequenceText(r.Sequence), from, to)})
		if !d && len(r.Event) > 0 {
			rs = append(rs, [2]string{"event", "E* = " + eventText(r.Event)})
		}
		if r.ProbFrom != nil && r.ProbTo != nil {
			what := "Pr[E*"
			if d {
				what = "Pr[ψ"
			}
			rs = append(rs, [2]string{"probabilities", fmt.Sprintf("%s | %s] = %s, %s | %s] = %s", what, from, ratText(r.ProbFrom), what, to, ratText(r.ProbTo))})
		}
	}
	gap := realText(r.Delta)
	if r.Exact {
		gap += " (exact: the tight δ)"
	} else {
		gap += " (the largest gap found: a lower bound on the tight δ)"
	}
	rs = append(rs, [2]string{"δ found", gap})
	if r.Upper != nil {
		rs = append(rs, [2]string{"upper bound", "δ ≤ " + realText(*r.Upper) + " (Proposition 2)"})
	}
	return rs
}

// epsRows are the rows of an mdp.EpsResult.
func epsRows(r *mdp.EpsResult, names func(int) string) [][2]string {
	rs := searchRows(r.Reason, r.Horizon, r.Explored, r.Pruned, r.Transposed)
	if r.From >= 0 {
		rs = append(rs, [2]string{"worst", fmt.Sprintf("action sequence %s, %s vs %s", sequenceText(r.Sequence), names(r.From), names(r.To))})
	}
	if r.Upper != nil && !r.Exact {
		rs = append(rs, [2]string{"upper bound", "ε ≤ " + epsText(*r.Upper) + " (Proposition 2)"})
	}
	return rs
}

// valueText is a least ε or δ, after "ε" or "δ": "= X" when exact (X
// written by answer), or the interval it lies in (hi nil: no upper bound).
func valueText[T any](exact bool, lo T, hi *T, text, answer func(T) string) string {
	switch {
	case exact:
		return "= " + answer(lo)
	case hi != nil:
		return fmt.Sprintf("not decided exactly: between %s and %s", text(lo), text(*hi))
	}
	return fmt.Sprintf("not decided exactly: at least %s", text(lo))
}

// mdpQueryKind is the kind of the answer of an ε or δ query on an MDP:
// params are the query's parameters; head returns the start of its first
// line and whether the answer is decided exactly (value returns it then),
// table and doc its table and its document. They are called only to
// render an outcome computed without error.
func mdpQueryKind(o property.Outcome, params func(d *StatementDoc), head func() (string, bool), value func() Number, table func() [][2]string, doc func() *MDPDoc) kind {
	pairs := o.(framed).Pairs()
	return kind{
		output: outputOf(o.Statement()),
		params: params,
		text: func(w io.Writer) {
			line, exact := head()
			printf(w, "%s%s%s\n", pad, line, expectNote(o, exact))
			printf(w, "%s%s\n", pad, o.Statement().Describe())
			rows(w, pad+"  ", table())
		},
		json: func(d *StatementDoc) {
			d.Outcome = "interval"
			if _, exact := head(); exact {
				d.Outcome, d.Value = "value", ptr(value())
			}
			d.Checked = &CheckedDoc{OrderedPairs: 2 * pairs}
			d.MDP = doc()
		},
		failure: func() string { return queryFailure(o) },
	}
}

// framed is an outcome on an MDP: it names the states of its results.
type framed interface {
	StateInfo(s int) verify.StateInfo
	Pairs() int
}

// mdpView renders the outcomes of statements on MDPs; ok is false for
// other outcomes.
func mdpView(o property.Outcome) (kind, bool) {
	f, ok := o.(framed)
	if !ok {
		return kind{}, false
	}
	info := f.StateInfo
	names := func(s int) string { return info(s).String() }
	switch o := o.(type) {
	case *property.MDPCheckOutcome:
		s := o.Statement().(*property.DPCheck)
		return kind{
			output: s.Output().String(),
			params: func(d *StatementDoc) { d.Eps, d.Delta = ptr(epsNum(s.Eps)), ptr(ratNum(s.Delta)) },
			text: func(w io.Writer) {
				r := o.Result
				printf(w, "%s%s\n", pad, mdpCheckText(o, r.Verdict, r))
				printf(w, "%schecked: %s; ε = %s, δ = %s; %s\n", pad, s.Describe(),
					epsText(s.Eps), ratText(s.Delta), count(2*o.Pairs(), "ordered pair"))
				rows(w, pad+"  ", resultRows(r, names, false))
			},
			json: func(d *StatementDoc) {
				d.Checked = &CheckedDoc{OrderedPairs: 2 * o.Pairs()}
				d.MDP = resultDoc(o.Result, info, true, false)
			},
			failure: func() string {
				return checkFailure(o, o.Result.Verdict, o.Result, names)
			},
		}, true
	case *property.MDPEpsOutcome:
		params, at := queryParams(o.Statement())
		return mdpQueryKind(o, params,
			func() (string, bool) {
				return "ε " + valueText(o.Result.Exact, o.Result.Eps, o.Result.Upper, epsText, epsAnswer) + " at δ = " + at, o.Result.Exact
			},
			func() Number { return epsNum(o.Result.Eps) },
			func() [][2]string { return epsRows(o.Result, names) },
			func() *MDPDoc { return epsDoc(o.Result, info) }), true
	case *property.MDPDeltaOutcome:
		params, at := queryParams(o.Statement())
		_, d := o.Statement().(*property.DDeltaQuery)
		return mdpQueryKind(o, params,
			func() (string, bool) {
				return "δ " + valueText(o.Result.Exact, o.Result.Delta, o.Result.Upper, realText, realText) + " at ε = " + at, o.Result.Exact
			},
			func() Number { return realNum(o.Result.Delta) },
			func() [][2]string { return resultRows(o.Result, names, d) },
			func() *MDPDoc { return resultDoc(o.Result, info, false, d) }), true
	case *property.MDPProbOutcome:
		s := o.Statement().(*property.ProbQuery)
		k := probKind(s, o.Probs, func(p property.MDPInputProb) (verify.StateInfo, *big.Rat) { return p.State, p.Pr }, func(p property.MDPInputProb, ip *InputProbDoc) {
			ip.Min, ip.Max = optRat(p.Min), optRat(p.Max)
		})
		k.failure = func() string {
			for _, p := range o.Probs {
				if want := s.Expected(p.State.ID); want != nil && want.Cmp(p.Pr) != 0 {
					return fmt.Sprintf("%s from %s is %s, expected %s", probName(o.Extreme), p.State, ratText(p.Pr), ratText(want))
				}
			}
			return queryFailure(o)
		}
		return k, true
	case *property.MDPFormulaOutcome:
		s := o.Statement().(*property.FormulaCheck)
		return kind{
			params: func(d *StatementDoc) { d.Formula = s.Resolved().Text(verify.MaxFormulaText) },
			text: func(w io.Writer) {
				printf(w, "%s%s\n", pad, mdpCheckText(o, o.Verdict, formulaDelta(o)))
				printf(w, "%schecked: %s; %s, %s\n", pad, s.Describe(), count(o.Inputs, "input"), count(o.Pairs(), "neighbouring pair"))
				switch {
				case o.State == nil:
					printf(w, "%sat every input:\n", pad)
				case o.Verdict == mdp.Violated:
					printf(w, "%sfails at %s:\n", pad, o.State)
				default:
					printf(w, "%sundecided at %s:\n", pad, o.State)
				}
				for _, a := range o.Atoms {
					writeAtom(w, a, names)
				}
			},
			json: func(d *StatementDoc) {
				d.Checked = &CheckedDoc{OrderedPairs: 2 * o.Pairs()}
				d.MDP = &MDPDoc{Verdict: o.Verdict.String(), At: opt(o.State, stateDoc)}
				for _, a := range o.Atoms {
					d.MDP.Atoms = append(d.MDP.Atoms, atomDoc(a, info))
				}
			},
			failure: func() string {
				s := fmt.Sprintf("%s, expected %s", mdpVerdictText(o.Verdict, formulaDelta(o)), o.Statement().Head().Expect.Text)
				if o.State != nil {
					s += " at " + o.State.String()
				}
				return s
			},
		}, true
	}
	return kind{}, false
}

// probName names what a probability query on an MDP computes.
func probName(extreme string) string {
	if extreme == "" {
		return "Pr(ψ)"
	}
	return "P" + extreme + "(ψ)"
}

// formulaDelta is the result of the D that makes a formula check unknown,
// for its verdict's bounds.
func formulaDelta(o *property.MDPFormulaOutcome) *mdp.Result {
	if o.Verdict != mdp.Unknown {
		return nil
	}
	for _, a := range o.Atoms {
		if a.Result != nil && a.Verdict == mdp.Unknown {
			return a.Result
		}
	}
	return nil
}

// writeAtom writes how a P or D of a check on an MDP was decided.
func writeAtom(w io.Writer, a property.MDPAtom, names func(int) string) {
	in := pad + "  "
	if a.Quantifier != "" {
		where := " at every input"
		switch {
		case a.State != nil:
			where = " at " + a.State.String()
		case a.WorstState != nil:
			where = " at " + a.WorstState.String()
		}
		printf(w, "%s%s: %s%s, over the paths of the transition graph (every scheduler's)\n", in, a.Formula, mdpVerdictText(a.Verdict, nil), where)
		return
	}
	if a.Extreme == "" && a.Result == nil {
		if a.State == nil {
			printf(w, "%s%s: holds: no input has a neighbour\n", in, a.Formula)
		} else {
			printf(w, "%s%s: holds at %s: it has no neighbour\n", in, a.Formula, a.State)
		}
		return
	}
	if a.Extreme != "" {
		where := ""
		switch {
		case a.State != nil:
			where = " at " + a.State.String()
		case a.WorstState != nil:
			where = " (the extreme over the inputs, at " + a.WorstState.String() + ")"
		}
		// P~p must hold under every scheduler: a violation is one
		// scheduler's, the extreme one.
		sched := allSchedulersText
		if a.Verdict == mdp.Violated {
			sched = "by the scheduler of P" + a.Extreme
		}
		printf(w, "%s%s: %s %s: P%s(ψ) = %s%s\n", in, a.Formula, mdpVerdictText(a.Verdict, nil), sched, a.Extreme, ratText(a.Pr), where)
		return
	}
	where := " over every neighbouring pair"
	if a.State != nil {
		where = " at " + a.State.String()
	}
	printf(w, "%s%s: %s%s, over query schedulers\n", in, a.Formula, mdpVerdictText(a.Verdict, a.Result), where)
	rows(w, in+"  ", resultRows(a.Result, names, true))
}

// allSchedulersText says how a P of a check on an MDP is decided.
const allSchedulersText = "under every scheduler"

// expectNote is the note after a query's value: as expected, or what was
// expected (a value not decided exactly, isExact false, never meets one).
func expectNote(o property.Outcome, isExact bool) string {
	ex := o.Statement().Head().Expect
	switch {
	case ex.Kind != property.ExpectValue:
		return ""
	case o.Pass():
		return " (as expected)"
	case !isExact:
		return ", expected " + ex.Text + " (a value not decided exactly cannot be compared)"
	}
	return ", expected " + ex.Text
}

// checkFailure says in one line how a check on an MDP failed.
func checkFailure(o property.Outcome, v mdp.Verdict, r *mdp.Result, names func(int) string) string {
	s := fmt.Sprintf("%s, expected %s", mdpVerdictText(v, r), o.Statement().Head().Expect.Text)
	if r != nil && r.From >= 0 && v == mdp.Violated {
		s += fmt.Sprintf(": action sequence %s, %s vs %s", sequenceText(r.Sequence), names(r.From), names(r.To))
		if len(r.Event) > 0 {
			s += " on E* = " + eventText(r.Event)
		}
		s += ", δ needed ≥ " + realText(r.Delta)
	}
	return s
}

// queryFailure says in one line how a query on an MDP failed.
func queryFailure(o property.Outcome) string {
	return fmt.Sprintf("got %s, expected %s", o.Value(), o.Statement().Head().Expect.Text)
}

// outputOf is the output space of a dp statement, "" for the others.
func outputOf(st property.Statement) string {
	if s, ok := st.(interface{ Output() verify.Output }); ok {
		return s.Output().String()
	}
	return ""
}

// MDPDoc says how a statement on an MDP was decided.
type MDPDoc struct {
	// Verdict is a check's: "holds", "holds (sufficient condition)",
	// "violated" or "unknown".
	Verdict string `json:"verdict,omitempty"`
	// Exact is a query's: whether the value is decided exactly (otherwise
	// it lies between lower and upper).
	Exact    *bool  `json:"exact,omitempty"`
	Reason   string `json:"reason,omitempty"`
	Horizon  int    `json:"horizon,omitempty"`
	Explored int64  `json:"explored,omitempty"`
	Pruned   int64  `json:"pruned,omitempty"`
	// Transposed counts the explored prefixes merged with an earlier one
	// that reached the same distributions.
	Transposed int64     `json:"transposed,omitempty"`
	Sequence   []string  `json:"sequence,omitempty"`
	From       *StateDoc `json:"from,omitempty"`
	To         *StateDoc `json:"to,omitempty"`
	Event      []string  `json:"event,omitempty"`
	PrFrom     *Number   `json:"pr_from,omitempty"`
	PrTo       *Number   `json:"pr_to,omitempty"`
	// Lower is the largest δ (or ε) found to be needed, Upper
	// Proposition 2's bound.
	Lower *Number `json:"lower,omitempty"`
	Upper *Number `json:"upper,omitempty"`
	// At and Atoms are a formula check's: the input where it fails or is
	// unknown, and how each P and D was decided.
	At    *StateDoc    `json:"at,omitempty"`
	Atoms []MDPAtomDoc `json:"atoms,omitempty"`
}

// MDPAtomDoc is how one P or D of a formula check on an MDP was decided.
type MDPAtomDoc struct {
	Formula string `json:"formula"`
	// State is the input it was decided at (absent: at every input).
	State   *StateDoc `json:"state,omitempty"`
	Verdict string    `json:"verdict"`
	// Extreme ("min" or "max") and Pr are a P's, at State or at Worst.
	Extreme string    `json:"extreme,omitempty"`
	Pr      *Number   `json:"pr,omitempty"`
	Worst   *StateDoc `json:"worst_state,omitempty"`
	// Result is a D's.
	Result *MDPDoc `json:"result,omitempty"`
	// Quantifier is "E" or "A" for E[ψ] and A[ψ] (over the paths of the
	// transition graph); Worst is then an input where it fails.
	Quantifier string `json:"quantifier,omitempty"`
}

func atomDoc(a property.MDPAtom, info func(int) verify.StateInfo) MDPAtomDoc {
	d := MDPAtomDoc{Formula: a.Formula, Verdict: a.Verdict.String(), Extreme: a.Extreme, Pr: optRat(a.Pr),
		State: opt(a.State, stateDoc), Worst: opt(a.WorstState, stateDoc), Quantifier: a.Quantifier}
	if a.Result != nil {
		d.Result = resultDoc(a.Result, info, true, true)
	}
	return d
}

// resultDoc is an mdp.Result's document; psi says it is a D's (whose pair
// and ψ's probabilities stay when δ is 0: ψ is not empty), not dp's.
func resultDoc(r *mdp.Result, info func(int) verify.StateInfo, check, psi bool) *MDPDoc {
	d := &MDPDoc{Reason: r.Reason, Horizon: r.Horizon, Explored: r.Explored, Pruned: r.Pruned, Transposed: r.Transposed, Sequence: r.Sequence,
		Event: r.Event, Lower: ptr(realNum(r.Delta))}
	if check {
		d.Verdict = r.Verdict.String()
	} else {
		d.Exact = ptr(r.Exact)
	}
	if noGap(r) && !psi {
		d.Sequence, d.Event = nil, nil
		return d
	}
	if r.From >= 0 {
		d.From, d.To = ptr(stateDoc(info(r.From))), ptr(stateDoc(info(r.To)))
	}
	d.PrFrom, d.PrTo, d.Upper = optRat(r.ProbFrom), optRat(r.ProbTo), opt(r.Upper, realNum)
	return d
}

// noGap reports whether the tight δ is exactly 0: then a dp search's
// "worst" pair and sequence are no witness (no event exceeds the bound),
// and are not shown.
func noGap(r *mdp.Result) bool {
	x, ok := r.Delta.Rat()
	return r.Exact && ok && x.Sign() == 0
}

func epsDoc(r *mdp.EpsResult, info func(int) verify.StateInfo) *MDPDoc {
	d := &MDPDoc{Exact: ptr(r.Exact), Reason: r.Reason, Horizon: r.Horizon, Explored: r.Explored, Pruned: r.Pruned, Transposed: r.Transposed,
		Sequence: r.Sequence, Lower: ptr(epsNum(r.Eps)), Upper: opt(r.Upper, epsNum)}
	if r.From >= 0 {
		d.From, d.To = ptr(stateDoc(info(r.From))), ptr(stateDoc(info(r.To)))
	}
	return d
}
