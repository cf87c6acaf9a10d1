package report

import (
	"fmt"
	"io"

	"github.com/dpcheck/dpcheck/property"
)

// paramEquivView renders check equivalent(…) for every parameter value:
// as check equivalent, with the two functions where the models differ and
// a value of the parameter where they do.
func paramEquivView(o *property.ParamEquivalenceOutcome) kind {
	s := o.Statement().(*property.ParamEquivalenceCheck)
	infos, constant := s.Infos(), s.Constant()
	call := func(i int) string {
		if constant[i] {
			return modelName(infos[i]) + " (the same for every " + s.Param + ")"
		}
		return modelName(infos[i])
	}
	return kind{
		text: func(w io.Writer) {
			r := o.Result
			v := verdictText(o)
			if r.Equal {
				v = "holds for every " + s.Param + " in " + s.IntervalText
				if !o.Pass() {
					v += ", expected " + s.Expect.Text
				}
			}
			writeCompared(w, v, s.Describe(), r.Compared, call(0), call(1))
			if d := r.Counterexample; d != nil {
				printf(w, "%sthey differ at input %s, output %s: %s vs %s\n", pad, d.Input, d.Output,
					d.PrA.Format(s.Param), d.PrB.Format(s.Param))
				printf(w, "%sat %s = %s: %s vs %s\n", pad, s.Param, d.Witness.RatString(), ratText(d.WitnessA), ratText(d.WitnessB))
			}
		},
		json: func(d *StatementDoc) {
			r := o.Result
			comparedDoc(d, infos, r.Compared)
			h := r.Equal
			pd := &ParamDoc{Name: s.Param, Interval: s.IntervalText, Holds: &h}
			if x := r.Counterexample; x != nil {
				pd.Witness = x.Witness.RatString()
				pd.Functions = []string{x.PrA.Format(s.Param), x.PrB.Format(s.Param)}
				d.Difference = &DifferenceDoc{Input: x.Input, Output: x.Output, PrA: ratNum(x.WitnessA), PrB: ratNum(x.WitnessB)}
			}
			d.Param = pd
		},
		failure: func() string {
			r := o.Result
			if r.Equal {
				return fmt.Sprintf("holds for every %s in %s, expected violated", s.Param, s.IntervalText)
			}
			x := r.Counterexample
			return fmt.Sprintf("violated, expected holds: at input %s, output %s: %s vs %s (at %s = %s: %s vs %s)", x.Input, x.Output,
				x.PrA.Format(s.Param), x.PrB.Format(s.Param), s.Param, x.Witness.RatString(),
				ratText(x.WitnessA), ratText(x.WitnessB))
		},
	}
}
