package report

import (
	"fmt"
	"io"

	"github.com/dpcheck/dpcheck/property"
)

// ParamDoc is the JSON of a statement decided for every parameter value:
// the parameter and its interval; for check dp the region where the claim
// holds and the witness where it fails; for the queries the pieces of the
// tight ε or δ.
type ParamDoc struct {
	Name     string `json:"name"`
	Interval string `json:"interval"`
	// Holds is set for check dp: the claim holds for every value.
	Holds *bool `json:"holds,omitempty"`
	// Region and RegionDecimal are where the claim holds (when it does
	// not hold everywhere), exactly and in decimals.
	Region        string `json:"region,omitempty"`
	RegionDecimal string `json:"region_decimal,omitempty"`
	// Witness is a parameter value where the claim fails.
	Witness string `json:"witness,omitempty"`
	// Pieces are the pieces of the tight ε or δ, in text.
	Pieces []string `json:"pieces,omitempty"`
	// Functions are, for check equivalent, the two models' probabilities
	// where they differ, as functions of the parameter; for expected(f),
	// every input's expected value.
	Functions []string `json:"functions,omitempty"`
	// Values are, for expected(f) and a PRISM file's P=? for every value,
	// every input with its function of the parameter (Functions in
	// parts).
	Values []ParamValueDoc `json:"values,omitempty"`
	// Failing is the input where check expected(f) … for NAME fails (at
	// Witness), and ValueAt its expected value there when Witness is
	// rational.
	Failing *StateDoc `json:"failing,omitempty"`
	ValueAt *Number   `json:"value_at,omitempty"`
}

// ParamValueDoc is an input's value as a function of the parameter.
type ParamValueDoc struct {
	State    StateDoc `json:"state"`
	Function string   `json:"function"`
}

// paramView renders the outcomes of statements for every parameter value;
// ok is false for other outcomes.
func paramView(o property.Outcome) (kind, bool) {
	switch o := o.(type) {
	case *property.ParamEquivalenceOutcome:
		return paramEquivView(o), true
	case *property.ParamDPOutcome:
		s := o.Statement().(*property.ParamDPCheck)
		doc := func() *ParamDoc {
			h := o.Result.Holds
			d := &ParamDoc{Name: s.Param, Interval: s.Interval(), Holds: &h, Region: o.Region, RegionDecimal: o.RegionDecimal}
			if !h {
				d.Witness = o.Result.Witness.Format(s.Param)
			}
			return d
		}
		return kind{
			output: s.Out(),
			text: func(w io.Writer) {
				r := o.Result
				if r.Holds {
					v := fmt.Sprintf("holds for every %s in %s", s.Param, s.Interval())
					if !o.Pass() {
						v += ", expected " + s.Expect.Text
					}
					printf(w, "%s%s: ε = %s, δ = %s\n", pad, v, s.EpsText, s.DeltaText)
				} else {
					where := fmt.Sprintf("only for %s in %s (%s)", s.Param, o.Region, o.RegionDecimal)
					if r.Region.IsEmpty() {
						where = fmt.Sprintf("for no %s in %s", s.Param, s.Interval())
					}
					printf(w, "%s%s: ε = %s, δ = %s holds %s; at %s = %s:\n", pad, verdictText(o),
						s.EpsText, s.DeltaText, where, s.Param, r.Witness.Format(s.Param))
					if r.Instance != nil && r.Instance.Counterexample != nil {
						writeCounterexample(w, r.Instance.Counterexample)
					} else {
						printf(w, "%s  (no counterexample of the instance: e^ε < 1 there, or the witness is irrational)\n", pad)
					}
				}
				printf(w, "%s%s\n", pad, s.Describe())
			},
			json: func(d *StatementDoc) {
				d.Param = doc()
				if r := o.Result; r.Instance != nil {
					d.Counterexample = counterexampleDoc(r.Instance.Counterexample)
				}
			},
			failure: func() string {
				if o.Result.Holds {
					return fmt.Sprintf("holds for every %s in %s, expected violated", s.Param, s.Interval())
				}
				return fmt.Sprintf("violated: holds only for %s in %s, expected holds", s.Param, o.Region)
			},
		}, true
	case *property.ParamExpectedOutcome:
		return paramExpectedView(o), true
	case *property.ParamEpsOutcome:
		s := o.Statement().(*property.ParamEpsQuery)
		return piecesView(o, s.Out(), s.Param, s.Interval(), "ε", "δ = "+s.DeltaText, s.Describe(), o.Pieces), true
	case *property.ParamDeltaOutcome:
		s := o.Statement().(*property.ParamDeltaQuery)
		return piecesView(o, s.Out(), s.Param, s.Interval(), "δ", "ε = "+s.EpsText, s.Describe(), o.Pieces), true
	}
	return kind{}, false
}

// piecesView renders a query for every parameter value answered piece by
// piece: "ε at δ = 0 for every alpha in (0, 1):" and a line per piece.
func piecesView(o property.Outcome, out, param, interval, what, at, describe string, pieces []string) kind {
	return kind{
		output: out,
		text: func(w io.Writer) {
			printf(w, "%s%s at %s for every %s in %s%s:\n", pad, what, at, param, interval, expectNote(o, true))
			for _, p := range pieces {
				printf(w, "%s  %s = %s\n", pad, what, p)
			}
			printf(w, "%s%s\n", pad, describe)
		},
		json: func(d *StatementDoc) {
			d.Outcome = "pieces"
			d.Param = &ParamDoc{Name: param, Interval: interval, Pieces: pieces}
		},
	}
}

// paramExpectedView renders expected(f) for every parameter value: one
// function per input, and where a check fails.
func paramExpectedView(o *property.ParamExpectedOutcome) kind {
	s := o.Statement().(*property.ParamExpectedQuery)
	return kind{
		text: func(w io.Writer) {
			headline(w, o, s.Bound != nil, s.Describe())
			var rs [][2]string
			for _, v := range o.Values {
				rs = append(rs, [2]string{v.State.String(), v.F.Format(s.Param)})
			}
			rows(w, pad+"  ", rs)
			if o.Failing != nil {
				at := ""
				if o.ValueAt != nil {
					at = ", where it is " + ratText(o.ValueAt)
				}
				printf(w, "%sfails from %s at %s = %s%s\n", pad, o.Failing, s.Param, o.At, at)
			}
		},
		json: func(d *StatementDoc) {
			pd := &ParamDoc{Name: s.Param, Interval: s.Interval()}
			if s.Bound == nil {
				d.Outcome = "pieces"
			} else {
				h := o.Failing == nil
				pd.Holds = &h
				if o.Failing != nil {
					pd.Witness, pd.Failing, pd.ValueAt = o.At, ptr(stateDoc(*o.Failing)), optRat(o.ValueAt)
				}
			}
			for _, v := range o.Values {
				f := v.F.Format(s.Param)
				pd.Functions = append(pd.Functions, v.State.String()+": "+f)
				pd.Values = append(pd.Values, ParamValueDoc{State: stateDoc(v.State), Function: f})
			}
			d.Param = pd
		},
	}
}
