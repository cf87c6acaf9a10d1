package spec_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestExpansionDepth: a chain of formulas, each using the previous one,
// nests as deep as it is long once written out, and a constant defined
// through a chain of others is evaluated through every link: both stop at MaxExpandedDepth, at the
// link where the limit is reached, so that nothing walking the
// expression can exhaust the stack (a chain of 990 000 formulas did).
func TestExpansionDepth(t *testing.T) {
	const tail = "neighbours true\nquery eps(delta = 0)\n"
	var formulas, consts strings.Builder
	formulas.WriteString("formula f0 = x\n")
	for i := 1; i <= 12_000; i++ {
		fmt.Fprintf(&formulas, "formula f%d = -f%d\n", i, i-1)
		fmt.Fprintf(&consts, "const c%d = -c%d\n", i-1, i) // each uses the next: the first goes through all
	}
	consts.WriteString("const c12000 = 1\n")
	formulas.WriteString("module m\n  input x : [0..1];\n  y : [0..1] init 0;\n  [] y = 0 & f12000 = 0 -> (y' = 1);\nendmodule\n")
	consts.WriteString("module m\n  input x : [0..1];\n  y : [0..1] init 0;\n  [] y = c0 -> (y' = 1);\nendmodule\n")
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"a chain of 12 000 formulas", formulas.String(),
			[]string{"7003:18: the expression nests more than 10,000 levels deep here, every formula written out where it is used; the limit is 10,000 levels: simplify it"}},
		{"a chain of 12 000 constants", consts.String(),
			[]string{"10000:16: constant c10000 is reached through a chain of more than 10,000 constants, each defined by the next; the limit is 10,000: simplify the definitions"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, errorsOf(t, tc.src+tail)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// TestExprTextStops: the text of a node (for messages) is cut at its
// limit, and the printer stops walking there: a sum of 200 000 terms in
// 100 levels of parentheses is described without printing it 100 times.
func TestExprTextStops(t *testing.T) {
	sum := "x" + strings.Repeat(" + x", 200_000)
	guard := strings.Repeat("(", 100) + sum + strings.Repeat(")", 100) + " > 7"
	src := "module m\n  input x : [0..1];\n  y : [0..1] init 0;\n  [] y = 0 & " + guard + " -> (y' = 1);\nendmodule\nneighbours true\nquery eps(delta = 0)\n"
	if got := errorsOf(t, src); len(got) != 0 {
		t.Errorf("errors %v", got)
	}
}

// TestConstantChainForward: constants are evaluated in the order of the
// file, so a chain of 100 000 constants each defined by the previous one
// loads, in one step per constant (in the order of their names, c100000
// came before c99999 and went through 90 000 others).
func TestConstantChainForward(t *testing.T) {
	var b strings.Builder
	b.WriteString("const c0 = 1\n")
	for i := 1; i <= 100_000; i++ {
		fmt.Fprintf(&b, "const c%d = -c%d\n", i, i-1)
	}
	b.WriteString("model survey(theta1 = 1/2 + c100000 - c100000, theta2 = 1/2)\ncheck dp(eps = ln(3))\n")
	if got := errorsOf(t, b.String()); len(got) != 0 {
		t.Errorf("errors %v", got)
	}
}
