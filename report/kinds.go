package report

import (
	"fmt"
	"io"
	"math/big"
	"strings"

	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/verify"
)

// kind is how every format renders one kind of statement. view is the one
// place that knows the kinds: adding a kind of statement adds a case there.
type kind struct {
	// output is the output space of dp, eps, delta and profile.
	output string
	// params writes the statement's ε and δ into its JSON document.
	params func(d *StatementDoc)
	// text writes the lines of the text report under the statement's
	// header; json fills the document of an outcome computed without error.
	text func(w io.Writer)
	json func(d *StatementDoc)
	// failure says in one line how a failing outcome differs from its
	// expectation (empty: "got VALUE, expected EXPECTATION").
	failure func() string
}

// queryParams returns how an ε or δ query, of DP or of a D, writes its
// parameters into its document, and the text of the one it is at.
func queryParams(st property.Statement) (params func(d *StatementDoc), at string) {
	switch s := st.(type) {
	case *property.EpsQuery:
		return func(d *StatementDoc) { d.Delta = ptr(ratNum(s.Delta)) }, ratText(s.Delta)
	case *property.DEpsQuery:
		return func(d *StatementDoc) {
			d.Formula, d.Delta = s.Resolved().Text(verify.MaxFormulaText), ptr(ratNum(s.Delta))
		}, ratText(s.Delta)
	case *property.DeltaQuery:
		return func(d *StatementDoc) { d.Eps = ptr(epsNum(s.Eps)) }, epsText(s.Eps)
	case *property.DDeltaQuery:
		return func(d *StatementDoc) {
			d.Formula, d.Eps = s.Resolved().Text(verify.MaxFormulaText), ptr(epsNum(s.Eps))
		}, epsText(s.Eps)
	}
	return nil, ""
}

// valueKind is the kind of the answer of an ε or δ query on a chain: out
// is its output space and params its parameters; answer returns the start
// of its first line, what was checked, its value and its witness, and
// witness writes that witness. They are called only to render an outcome
// computed without error.
func valueKind(o property.Outcome, out string, params func(d *StatementDoc), answer func() (string, verify.Checked, Number, *verify.Witness), witness func(w io.Writer)) kind {
	return kind{
		output: out,
		params: params,
		text: func(w io.Writer) {
			head, checked, _, _ := answer()
			printf(w, "%s%s%s\n", pad, head, expectNote(o, true))
			printf(w, "%s%s\n", pad, o.Statement().Describe())
			writeComposition(w, checked)
			witness(w)
		},
		json: func(d *StatementDoc) {
			_, checked, value, wit := answer()
			d.Outcome, d.Value = "value", ptr(value)
			d.Checked = checkedDoc(checked)
			d.Witness = witnessDoc(wit)
		},
	}
}

func view(o property.Outcome) kind {
	if k, ok := mdpView(o); ok {
		return k
	}
	if k, ok := paramView(o); ok {
		return k
	}
	switch o := o.(type) {
	case *property.DPOutcome:
		s := o.Statement().(*property.DPCheck)
		out := s.Output().String()
		return kind{
			output: out,
			params: func(d *StatementDoc) { d.Eps, d.Delta = ptr(epsNum(s.Eps)), ptr(ratNum(s.Delta)) },
			text: func(w io.Writer) {
				r := o.Result
				printf(w, "%s%s: %s, ε = %s, δ = %s; %s\n",
					pad, verdictText(o), s.Describe(), epsText(r.Eps), ratText(r.Delta), checkedText(r.Checked))
				if cx := r.Counterexample; cx != nil {
					writeCounterexample(w, cx)
				}
			},
			json: func(d *StatementDoc) {
				r := o.Result
				d.Checked = checkedDoc(r.Checked)
				d.Counterexample = counterexampleDoc(r.Counterexample)
			},
			failure: func() string {
				s := fmt.Sprintf("%s, expected %s", o.Value(), s.Expect.Text)
				if cx := o.Result.Counterexample; cx != nil {
					s += fmt.Sprintf(": %s vs %s on E* = %s, %s > %s (excess %s)",
						cx.From, cx.To, witnessEvent(&cx.Witness), ratText(cx.PrFrom), realText(cx.Bound), realText(cx.Excess))
				}
				return s
			},
		}
	case *property.EpsOutcome:
		s := o.Statement().(*property.EpsQuery)
		params, _ := queryParams(s)
		return valueKind(o, s.Output().String(), params,
			func() (string, verify.Checked, Number, *verify.Witness) {
				r := o.Result
				return fmt.Sprintf("ε = %s at δ = %s", epsAnswer(r.Eps), ratText(r.Delta)), r.Checked, epsNum(r.Eps), r.Witness
			},
			func(w io.Writer) { writeEpsWitness(w, pad, o.Result) })
	case *property.DeltaOutcome:
		s := o.Statement().(*property.DeltaQuery)
		params, _ := queryParams(s)
		return valueKind(o, s.Output().String(), params,
			func() (string, verify.Checked, Number, *verify.Witness) {
				r := o.Result
				return fmt.Sprintf("δ = %s at ε = %s", realAnswer(r.Delta), epsText(r.Eps)), r.Checked, realNum(r.Delta), eventWitness(r.Witness)
			},
			func(w io.Writer) { writeDeltaWitness(w, pad, o.Result) })
	case *property.ProfileOutcome:
		s := o.Statement().(*property.ProfileQuery)
		out := s.Output().String()
		return kind{
			output: out,
			text: func(w io.Writer) {
				printf(w, "%sprivacy profile δ(ε), %s:\n", pad, s.Describe())
				writeComposition(w, o.Result.Checked)
				printf(w, "%sδ is linear in e^ε between these points and constant after the last\n", pad)
				for _, p := range o.Result.Points {
					printf(w, "%s  ε = %-24s δ = %s\n", pad, epsText(p.Eps), ratText(p.Delta))
				}
			},
			json: func(d *StatementDoc) {
				r := o.Result
				d.Outcome = "value"
				d.Checked = checkedDoc(r.Checked)
				for _, p := range r.Points {
					d.Profile = append(d.Profile, ProfilePointDoc{Eps: epsNum(p.Eps), C: ratNum(p.C), Delta: ratNum(p.Delta)})
				}
			},
		}
	case *property.FormulaOutcome:
		s := o.Statement().(*property.FormulaCheck)
		sem := s.Describe()
		return kind{
			params: func(d *StatementDoc) { d.Formula = s.Resolved().Text(verify.MaxFormulaText) },
			text: func(w io.Writer) {
				r := o.Result
				printf(w, "%s%s: %s; %s, %s\n", pad, verdictText(o), sem, count(r.Inputs, "input"), count(r.Pairs, "neighbouring pair"))
				if cx := r.Counterexample; cx != nil {
					printf(w, "%sfails at %s:\n", pad, cx.State)
					writeExplanation(w, cx, pad+"  ")
				}
			},
			json: func(d *StatementDoc) {
				d.Checked = &CheckedDoc{OrderedPairs: 2 * o.Result.Pairs}
				d.Explanation = explanationDoc(o.Result.Counterexample)
			},
		}
	case *property.ProbOutcome:
		return probKind(o.Statement().(*property.ProbQuery), o.Probs, func(p verify.InputProb) (verify.StateInfo, *big.Rat) { return p.State, p.Pr }, nil)
	case *property.RewardOutcome:
		return rewardKind(o)
	case *property.ExpectedOutcome:
		return expectedKind(o)
	case *property.FilterOutcome:
		return filterKind(o)
	case *property.DBoundOutcome:
		what := "δ"
		if _, ok := o.Statement().(*property.DEpsQuery); ok {
			what = "ε"
		}
		params, _ := queryParams(o.Statement())
		return kind{
			params: params,
			text: func(w io.Writer) {
				b := o.Result
				if what == "ε" {
					printf(w, "%sε = %s at δ = %s for ψ = %s%s\n", pad, epsAnswer(b.Eps), realText(b.Delta), b.Path, expectNote(o, true))
				} else {
					printf(w, "%sδ = %s at ε = %s for ψ = %s%s\n", pad, realAnswer(b.Delta), epsText(b.Eps), b.Path, expectNote(o, true))
				}
				printf(w, "%s%s; %s\n", pad, o.Statement().Describe(), count(b.Pairs, "neighbouring pair"))
				if b.From != nil {
					printf(w, "%sattained by %s vs %s: Pr(ψ) = %s vs %s\n", pad, b.From, b.To, ratText(b.PrFrom), ratText(b.PrTo))
				}
			},
			json: func(d *StatementDoc) {
				b := o.Result
				v := realNum(b.Delta)
				if what == "ε" {
					v = epsNum(b.Eps)
				}
				d.Outcome, d.Value = "value", &v
				d.Checked = &CheckedDoc{OrderedPairs: 2 * b.Pairs}
				if b.From != nil {
					d.Witness = &WitnessDoc{From: stateDoc(*b.From), To: stateDoc(*b.To), Event: []string{b.Path}, PrFrom: ratNum(b.PrFrom), PrTo: ratNum(b.PrTo)}
				}
			},
		}
	case *property.EquivalenceOutcome:
		s := o.Statement().(*property.EquivalenceCheck)
		sem := s.Describe()
		infos := s.Infos()
		return kind{
			text: func(w io.Writer) {
				r := o.Result
				writeCompared(w, verdictText(o), sem, r.Compared, modelName(infos[0]), modelName(infos[1]))
				if d := r.Counterexample; d != nil {
					printf(w, "%sthey differ at input %s, output %s: %s vs %s\n", pad, d.Input, d.Output, ratText(d.PrA), ratText(d.PrB))
				}
			},
			json: func(d *StatementDoc) {
				comparedDoc(d, infos, o.Result.Compared)
				if x := o.Result.Counterexample; x != nil {
					d.Difference = &DifferenceDoc{Input: x.Input, Output: x.Output, PrA: ratNum(x.PrA), PrB: ratNum(x.PrB)}
				}
			},
		}
	}
	if o.Err() != nil {
		// A statement stopped before it began (property.Stopped): only
		// its error is shown.
		return kind{text: func(io.Writer) {}, json: func(*StatementDoc) {}}
	}
	panic(fmt.Sprintf("report: no rendering for %T", o))
}

func ptr[T any](x T) *T { return &x }

// varsText lists the variables states were matched on ("names" when
// they were matched by state name).
func varsText(vars []string) string {
	if vars == nil {
		return "state names"
	}
	return strings.Join(vars, ", ")
}

// writeCompared writes the first lines of check equivalent: the verdict v
// with what was compared, the two models and what they were matched on.
func writeCompared(w io.Writer, v, sem string, c verify.Compared, first, second string) {
	printf(w, "%s%s: %s; %s, %s\n", pad, v, sem, count(c.Inputs, "input"), count(c.Outputs, "output"))
	printf(w, "%s  %s\n%s  %s\n", pad, first, pad, second)
	if c.InputVars != nil || c.OutputVars != nil {
		printf(w, "%sinputs matched on %s%s; outputs on %s%s\n", pad, varsText(c.InputVars), ignoredText(c.InputIgnored),
			varsText(c.OutputVars), ignoredText(c.OutputIgnored))
	}
}

// comparedDoc writes the models of check equivalent and what they were
// matched on into its document.
func comparedDoc(d *StatementDoc, infos [2]property.ModelInfo, c verify.Compared) {
	d.Models = []string{modelName(infos[0]), modelName(infos[1])}
	d.Matched = &MatchedDoc{Inputs: c.InputVars, Outputs: c.OutputVars, InputsIgnored: c.InputIgnored, OutputsIgnored: c.OutputIgnored}
}

// ignoredText names the variables a match did not look at.
func ignoredText(vars []string) string {
	if len(vars) == 0 {
		return ""
	}
	return " (not " + strings.Join(vars, ", ") + ")"
}

// isCheck reports whether the statement is a yes/no check.
func isCheck(o property.Outcome) bool {
	switch o.(type) {
	case *property.RewardOutcome:
		return o.Statement().(*property.RewardQuery).Bound != nil
	case *property.ExpectedOutcome:
		return o.Statement().(*property.ExpectedQuery).Bound != nil
	case *property.ParamExpectedOutcome:
		return o.Statement().(*property.ParamExpectedQuery).Bound != nil
	case *property.DPOutcome, *property.FormulaOutcome, *property.EquivalenceOutcome,
		*property.MDPCheckOutcome, *property.MDPFormulaOutcome, *property.ParamDPOutcome,
		*property.ParamEquivalenceOutcome:
		return true
	}
	return false
}

// inputProbLines writes one line per input, of probs (prob gives its
// state and probability): its name, aligned, its probability and whether
// it is the one expected.
func inputProbLines[P any](w io.Writer, probs []P, prob func(P) (verify.StateInfo, *big.Rat), expected func(id int) *big.Rat) {
	var rs [][2]string
	for _, p := range probs {
		st, pr := prob(p)
		note := ""
		if want := expected(st.ID); want != nil {
			note = " (as expected)"
			if want.Cmp(pr) != 0 {
				note = ", expected " + ratText(want)
			}
		}
		rs = append(rs, [2]string{st.String(), ratTextW(pr, MaxAnswerWidth) + note})
	}
	rows(w, pad+"  ", rs)
}

// probKind is the kind of the answer of a query P, probs, one per input:
// prob returns an input's state and probability, and more, if not nil,
// adds to its document.
func probKind[P any](s *property.ProbQuery, probs []P, prob func(P) (verify.StateInfo, *big.Rat), more func(P, *InputProbDoc)) kind {
	return kind{
		params: func(d *StatementDoc) { d.Formula = s.Resolved().Text(verify.MaxFormulaText) },
		text: func(w io.Writer) {
			printf(w, "%s%s:\n", pad, s.Describe())
			inputProbLines(w, probs, prob, s.Expected)
		},
		json: func(d *StatementDoc) {
			d.Outcome = "value"
			for _, p := range probs {
				st, pr := prob(p)
				ip := InputProbDoc{State: stateDoc(st), Pr: ratNum(pr), Expected: optRat(s.Expected(st.ID))}
				if more != nil {
					more(p, &ip)
				}
				d.Probabilities = append(d.Probabilities, ip)
			}
		},
	}
}

// rewardKind is the kind of an expected reward: one value per input, for
// a query or a check against a bound.
func rewardKind(o *property.RewardOutcome) kind {
	s := o.Statement().(*property.RewardQuery)
	return kind{
		params: func(d *StatementDoc) { d.Formula = s.Path().String() },
		text: func(w io.Writer) {
			headline(w, o, s.Bound != nil, s.Describe())
			var rs [][2]string
			for _, v := range o.Values {
				note := ""
				if !s.Meets(v.Value) {
					note = " (violates the bound)"
				}
				rs = append(rs, [2]string{v.State.String(), rewardText(v.Value) + note})
			}
			rows(w, pad+"  ", rs)
		},
		json: func(d *StatementDoc) {
			if s.Bound == nil {
				d.Outcome = "value"
			}
			for _, v := range o.Values {
				d.Rewards = append(d.Rewards, InputRewardDoc{State: stateDoc(v.State), Value: rewardNum(v.Value)})
			}
		},
	}
}

// expectedKind is the kind of expected(f): one value per input, the
// largest named, for a query or a check against a bound.
func expectedKind(o *property.ExpectedOutcome) kind {
	s := o.Statement().(*property.ExpectedQuery)
	return kind{
		text: func(w io.Writer) {
			headline(w, o, s.Bound != nil, s.Describe())
			var rs [][2]string
			for _, v := range o.Values {
				note := ""
				switch want := s.Expected(v.State.ID); {
				case !s.Meets(v.Value):
					note = " (violates the bound)"
				case want != nil && want.Cmp(v.Value) == 0:
					note = " (as expected)"
				case want != nil:
					note = ", expected " + ratText(want)
				}
				rs = append(rs, [2]string{v.State.String(), ratTextW(v.Value, MaxAnswerWidth) + note})
			}
			rows(w, pad+"  ", rs)
			if len(o.Values) > 1 {
				wv := o.Values[o.Worst]
				printf(w, "%s%s: %s from %s\n", pad, map[bool]string{false: "largest", true: "smallest"}[s.Lower()], ratTextW(wv.Value, MaxAnswerWidth), wv.State)
			}
		},
		json: func(d *StatementDoc) {
			if s.Bound == nil {
				d.Outcome = "value"
			}
			for _, v := range o.Values {
				d.Rewards = append(d.Rewards, InputRewardDoc{State: stateDoc(v.State), Value: rewardNum(v.Value), Expected: optRat(s.Expected(v.State.ID))})
			}
			if len(o.Values) > 0 {
				d.Value = ptr(ratNum(o.Values[o.Worst].Value)) // the worst
				d.Worst = ptr(stateDoc(o.Values[o.Worst].State))
			}
		},
	}
}

// filterKind is the kind of PRISM's filter(op, prop, states): its value,
// and the states of argmin, argmax, first, state and print.
func filterKind(o *property.FilterOutcome) kind {
	s := o.Statement().(*property.FilterQuery)
	return kind{
		text: func(w io.Writer) {
			printf(w, "%s%s (%s):", pad, s.Describe(), count(o.Count, "state"))
			if v := o.Value(); v != "" {
				switch {
				case o.Num != nil && !o.Range:
					v = ratTextW(o.Num, MaxAnswerWidth)
				}
				printf(w, " %s", v)
			}
			printf(w, "\n")
			var rs [][2]string
			for i, st := range o.States {
				v := ""
				switch {
				case i < len(o.Values):
					v = rewardText(o.Values[i])
				case i < len(o.Bools):
					v = fmt.Sprint(o.Bools[i])
				}
				rs = append(rs, [2]string{st.String(), v})
			}
			rows(w, pad+"  ", rs)
		},
		json: func(d *StatementDoc) {
			d.Outcome = "value"
			f := &FilterDoc{Op: s.Op, Result: o.Value(), States: o.Count}
			if o.Num != nil || o.Inf {
				d.Value = ptr(rewardNum(o.Num))
			}
			for i, st := range o.States {
				sd := FilterStateDoc{State: stateDoc(st)}
				switch {
				case i < len(o.Values):
					sd.Value = ptr(rewardNum(o.Values[i]))
				case i < len(o.Bools):
					sd.Holds = ptr(o.Bools[i])
				}
				f.Selected = append(f.Selected, sd)
			}
			d.Filter = f
		},
	}
}

// headline writes the first line of a query's values ("what:") or of a
// check of them ("verdict: what").
func headline(w io.Writer, o property.Outcome, check bool, what string) {
	if check {
		printf(w, "%s%s: %s\n", pad, verdictText(o), what)
		return
	}
	printf(w, "%s%s:\n", pad, what)
}

// rewardText writes an expected reward: exact and decimal, or ∞ (nil).
func rewardText(x *big.Rat) string {
	if x == nil {
		return "∞"
	}
	return ratTextW(x, MaxAnswerWidth)
}

// rewardNum is an expected reward's Number: ∞ (no decimal) for nil.
func rewardNum(x *big.Rat) Number {
	if x == nil {
		return Number{Exact: "∞"}
	}
	return ratNum(x)
}

// modelName names a compared model: its call as written, or what it is
// (an explicit chain has no call).
func modelName(i property.ModelInfo) string {
	switch {
	case i.Call != "":
		return i.Call
	case i.Name != "":
		return i.Name
	case i.Note != "":
		return i.Note
	}
	return "the file's model"
}
