package statespace_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dpcheck/dpcheck/model"
)

// TestGeometricTables: the clamped geometric draws exactly, the tables'
// entries computed in any order (a far end first, whose power of α is
// computed directly) and shared between draws of one α.
func TestGeometricTables(t *testing.T) {
	for _, tc := range []struct {
		name, draws string
		want        map[string]string
	}{
		// P(Z ≥ 4) = α⁴/(1+α) = 1/24 first, then (1−α)/(1+α)·α^k.
		{"far end first", "(x' ~ geometric(1/2, 4, 0, 5))", map[string]string{
			"x=0, y=0": "1/24", "x=1, y=0": "1/24", "x=2, y=0": "1/12", "x=3, y=0": "1/6",
			"x=4, y=0": "1/3", "x=5, y=0": "1/3"}},
		{"a point", "(x' ~ geometric(1/2, 4, 2, 2))", map[string]string{"x=2, y=0": "1"}},
		// One-sided, the centre below the lower end: P(Z ≤ 1) = 1 − α² at
		// 2, then (1−α)·α^k, the tail α^k at the upper end.
		{"one-sided below", "(x' ~ geometric1(1/3, 1, 2, 4))", map[string]string{
			"x=2, y=0": "8/9", "x=3, y=0": "2/27", "x=4, y=0": "1/27"}},
		{"one-sided above", "(x' ~ geometric1(1/3, 5, 0, 4))", map[string]string{"x=4, y=0": "1"}},
		{"one-sided point", "(x' ~ geometric1(1/3, 0, 3, 3))", map[string]string{"x=3, y=0": "1"}},
		// Two draws of one α share a table; bernoulli(0) and bernoulli(1)
		// have one outcome.
		{"two draws", "(x' ~ geometric(1/3, 1, 0, 2)) & (y' ~ geometric(1/3, 0, 0, 1))", map[string]string{
			"x=0, y=0": "3/16", "x=0, y=1": "1/16", "x=1, y=0": "3/8", "x=1, y=1": "1/8",
			"x=2, y=0": "3/16", "x=2, y=1": "1/16"}},
		{"bernoulli 0 and 1", "(x' ~ bernoulli(0)) & (y' ~ bernoulli(1))", map[string]string{"x=0, y=1": "1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := modules(t, "module m\n  x : [-1..5] init -1;\n  y : [0..1] init 0;\n  [] x = -1 -> "+tc.draws+";\nendmodule")
			wantFinals(t, build(t, m, model.Limits{}), "x=-1, y=0", tc.want)
		})
	}
}

// TestDrawErrors: a draw's arguments, range and size are checked before
// it is computed, at the draw, naming the command and state.
func TestDrawErrors(t *testing.T) {
	const at = " (command at line 3, at (x=0))"
	for _, tc := range []struct {
		name, draw string
		l          model.Limits
		want       string
	}{
		{"empty", "uniform(3, 1)", model.Limits{}, "3:21: the range [3..1] of the draw is empty" + at},
		{"below the range", "uniform(-1, 2)", model.Limits{}, "3:21: the draw can give x' = -1, outside the range [0..9] of x" + at},
		{"above the range", "uniform(0, 10)", model.Limits{}, "3:21: the draw can give x' = 10, outside the range [0..9] of x" + at},
		{"not an integer", "uniform(1/2, 3)", model.Limits{}, "3:21: the lower end of the draw must be an integer, found 1/2" + at},
		{"alpha", "geometric(3/2, 0, 0, 2)", model.Limits{}, "3:21: the α of a geometric draw must be in (0, 1), found 3/2" + at},
		{"centre", "geometric(1/2, 1/3, 0, 2)", model.Limits{}, "3:21: the centre of the draw must be an integer, found 1/3" + at},
		{"p", "bernoulli(3/2)", model.Limits{}, "3:21: the probability of a bernoulli draw must be in [0, 1], found 3/2" + at},
		{"bits", "geometric(1/3, 0, 0, 9)", model.Limits{MaxBits: 100}, "3:21: the draw's exact probabilities would take about 550 bits, more than the 100 left of the limit of 100 bits" + at},
		{"evaluation", "uniform(1/(x - x), 2)", model.Limits{}, "3:30: division by zero" + at},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := modules(t, "module m\n  x : [0..9] init 0;\n  [] x = 0 -> (x' ~ "+tc.draw+");\nendmodule")
			if d := cmp.Diff([]string{tc.want}, errs(t, m, tc.l)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
	m := modules(t, "module m\n  x : [0..3000000] init 0;\n  [] x = 0 -> (x' ~ uniform(1, 2000000));\nendmodule")
	want := []string{"3:21: the draw would take 2,000,000 values; the limit is 1,048,576 (command at line 3, at (x=0))"}
	if d := cmp.Diff(want, errs(t, m, model.Limits{})); d != "" {
		t.Errorf("too many values (-want +got):\n%s", d)
	}
}
