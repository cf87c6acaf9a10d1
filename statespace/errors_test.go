package statespace_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dpcheck/dpcheck/model"
)

// TestAssignmentErrors: an assigned value that is not an integer, or is
// beyond int64, at the assignment.
func TestAssignmentErrors(t *testing.T) {
	for _, tc := range []struct{ value, want string }{
		{"x + 1/2", "3:15: x' = 1/2 is not an integer (command at line 3, at (x=0))"},
		{"2^70", "3:15: x' = 1180591620717411303424 is outside the range [0..9] of x (command at line 3, at (x=0))"},
	} {
		m := modules(t, "module m\n  x : [0..9] init 0;\n  [] x = 0 -> (x' = "+tc.value+");\nendmodule")
		if d := cmp.Diff([]string{tc.want}, errs(t, m, model.Limits{})); d != "" {
			t.Errorf("x' = %s (-want +got):\n%s", tc.value, d)
		}
	}
}

// TestInitialErrors: the initial values and states, checked at the
// variable, the model or the condition on the inputs.
func TestInitialErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		l         model.Limits
		want      string
	}{
		{"initial value not an integer", "module m\n  x : [0..3] init 1/2;\n  [] x = 0 -> (x' = 1);\nendmodule", model.Limits{},
			"2:19: the initial value of x is 1/2, not an integer"},
		{"initial value outside the range", "module m\n  x : [0..3] init 5;\n  [] x = 0 -> (x' = 1);\nendmodule", model.Limits{},
			"2:19: the initial value 5 of x is outside its range [0..3]"},
		{"empty range", "module m\n  x : [3..0];\n  [] x = 0 -> (x' = 1);\nendmodule", model.Limits{},
			"2:3: the range [3..0] of x is empty"},
		{"no initial state", "module m\n  input x : [0..3];\n  [] x = 0 -> (x' = 1);\nendmodule\ninputs where x > 3", model.Limits{},
			"5:14: no state satisfies the conditions on the initial states"},
		{"inputs beyond the states limit", "module m\n  input x : [0..99];\n  input y : [0..99];\n  [] x = 0 -> (x' = 1);\nendmodule", model.Limits{MaxStates: 1000},
			"1:1: the input variables have more than 1,000 valuations, each an initial state; the limit is 1,000 states"},
		{"too many valuations to filter", "module m\n  input x : [0..9999];\n  input y : [0..9999];\n  [] x = 0 -> (x' = 1);\nendmodule\ninputs where x = y", model.Limits{},
			"1:1: the initial states would be chosen among more than 10,000,000 valuations, the most dpcheck tries: narrow the variables' ranges"},
		{"condition not evaluated", "module m\n  input x : [0..3];\n  [] x = 0 -> (x' = 1);\nendmodule\ninputs where 1/x > 0", model.Limits{},
			"5:15: division by zero (at (x=0))"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff([]string{tc.want}, errs(t, modules(t, tc.src), tc.l)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}
