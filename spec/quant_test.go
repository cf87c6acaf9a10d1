package spec_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestQuantifiers: forall, exists and the folds sum, count, max and min,
// in a module's updates, a neighbour predicate, a label and a constant,
// give the values computed by hand for every input (x is a1 + 2·a2 + 3·a3
// or 2 + a1, each with 1/2; "top" is x ∈ {3, 4}), as does the same file
// written out by hand (ε is ∞: x = 0 only from a1 = a2 = a3 = 0).
func TestQuantifiers(t *testing.T) {
	const expect = `query P=?[F "top"] expect s0: 0, s1: 1/2, s2: 0, s3: 0, s4: 1/2, s5: 1, s6: 1, s7: 1/2
query eps(delta = 0) expect inf
`
	with := `const K = sum(j in 1..3: j) - 3
formula hit(j) = x = j
module m
  input a1 : [0..1];
  input a2 : [0..1];
  input a3 : [0..1];
  x : [0..6] init 0;
  [] x = 0 & count(j in 1..K: j > 1) = 2 -> 1/2 : (x' = sum(j in 1..K: j * (j = 1 ? a1 : (j = 2 ? a2 : a3)))) + 1/2 : (x' = max(j in 1..2: j + a1));
endmodule
neighbours forall j in 1..1: |a1 - a1'| + |a2 - a2'| + |a3 - a3'| <= j & min(i in -1..0: i) = -1
outputs var x
label "top" = exists j in 3..4: hit(j)
` + expect
	by := `module m
  input a1 : [0..1];
  input a2 : [0..1];
  input a3 : [0..1];
  x : [0..6] init 0;
  [] x = 0 -> 1/2 : (x' = 1 * a1 + 2 * a2 + 3 * a3) + 1/2 : (x' = max(1 + a1, 2 + a1));
endmodule
neighbours |a1 - a1'| + |a2 - a2'| + |a3 - a3'| <= 1
outputs var x
label "top" = x = 3 | x = 4
` + expect
	passes(t, "with quantifiers", with)
	passes(t, "written out", by)
}

// TestWrittenOutLimit: folds nested in a property, each within MaxFold,
// that would write out 4 million terms are refused at the limit of what a
// file writes out, before they are built.
func TestWrittenOutLimit(t *testing.T) {
	src := "model truncated_geometric(alpha = 1/2, n = 2)\nquery expected(sum(j in 1..2000: sum(i in 1..2000: i)))\n"
	want := []string{"2:34: the quantifiers, folds, formulas and computed indices of this file write out more than 1,000,000 terms; the limit is 1,000,000: simplify them"}
	if d := cmp.Diff(want, errorsOf(t, src)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}
