package spec_test

import (
	"context"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck"
	dpmodel "github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/spec"
	"github.com/google/go-cmp/cmp"
)

// passes checks src and fails the test for an error or a statement that
// does not pass.
func passes(t *testing.T, name, src string) {
	t.Helper()
	r, err := dpcheck.CheckSource(context.Background(), name, src)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, o := range r.Statements {
		if !o.Pass() {
			t.Errorf("%s: %s: %s", name, o.Statement().Head().Text, o.Value())
		}
	}
}

// TestArrays: report-noisy-max over K = 3 answers written with arrays —
// noise drawn answer by answer at a computed index, the winner found by a
// fold — gives the values of models/noisy_max.dp, which draws the three
// noises at once into three variables and finds the winner by a chain of
// conditions; ε and δ there agree with the reference encodings.
func TestArrays(t *testing.T) {
	passes(t, "noisy_max_arrays.dp", `const K = 3
module noisy_max
  input a[1..K] : [0..2];
  n[1..K] : [-3..5] init -3;
  i : [1..K+1] init 1; // the next answer to draw noise for
  best : [0..K] init 0;
  [] i <= K -> (n[i]' ~ geometric(1/2, a[i], -3, 5)) & (i' = i + 1);
  [] i = K + 1 & best = 0 -> (best' = min(j in 1..K: (forall l in 1..K: n[j] >= n[l]) ? j : K + 1));
endmodule
outputs var best
neighbours forall j in 1..K: |a[j] - a[j]'| <= 1
query eps(delta = 0) expect ln(6844/1853)
query delta(eps = 0) expect 20191/55296
`)
}

// TestArrayElements: boolean arrays, elements assigned and read at
// computed and constant indices, arrays passed to a formula (primed in a
// neighbour predicate), outputs var of an array and labels over arrays
// give what the same file gives written out by hand, and the values worked
// out by hand: both flags are set with 3/4 · 3/4, and the output (0, 1)
// has 1/4 · 3/4 from a = (0, 0) but cannot follow a = (0, 1).
func TestArrayElements(t *testing.T) {
	const expect = `query P=?[F "two"] expect s0: 9/16, s1: 9/16, s2: 9/16, s3: 9/16
query eps(delta = 0) expect inf
`
	with := `const K = 2
formula tot(x) = sum(j in 1..K: x[j])
module m
  input a[1..K] : [0..1];
  f[1..K] : bool init false;
  o[1..K] : [0..2] init 0;
  i : [1..K+1] init 1;
  [] i <= K -> 3/4 : (f[i]' = true) & (o[i]' = a[i] + 1) & (i' = i + 1) + 1/4 : (o[K + 1 - i]' = a[1]) & (i' = i + 1);
endmodule
label "two" = count(j in 1..K: f[j]) = K & o[2] = a[2] + 1
outputs var o
neighbours tot(a) = tot(a') + 1 | tot(a') = tot(a) + 1
` + expect
	by := `module m
  input a1 : [0..1];
  input a2 : [0..1];
  f1 : bool init false;
  f2 : bool init false;
  o1 : [0..2] init 0;
  o2 : [0..2] init 0;
  i : [1..3] init 1;
  [] i = 1 -> 3/4 : (f1' = true) & (o1' = a1 + 1) & (i' = 2) + 1/4 : (o2' = a1) & (i' = 2);
  [] i = 2 -> 3/4 : (f2' = true) & (o2' = a2 + 1) & (i' = 3) + 1/4 : (o1' = a1) & (i' = 3);
endmodule
label "two" = f1 & f2 & o2 = a2 + 1
outputs var o1, o2
neighbours a1 + a2 = a1' + a2' + 1 | a1' + a2' = a1 + a2 + 1
` + expect
	passes(t, "with arrays", with)
	passes(t, "written out", by)
}

// TestArrayErrors: each misuse of an array is reported at its position.
func TestArrayErrors(t *testing.T) {
	head := "module m\n  input a[1..3] : [0..2];\n  x : [0..3] init 0;\n  v[1..3] : [0..3];\n"
	tail := "endmodule\noutputs var x\nneighbours a[1] != a[1]'\ncheck dp(eps = 1)\n"
	for _, tc := range []struct{ body, want string }{
		{"  y : [0..3] init a;\n", "5:19: a is an array, a[1..3]: read an element, a[i]"},
		{"  [] a[4] = 0 -> (x' = 1);\n", "5:8: the index of a[4] is 4, outside the array's indices 1..3"},
		{"  [] a[1/2] = 0 -> (x' = 1);\n", "5:8: the index of a must be an integer, found 1/2"},
		{"  [] x[1] = 0 -> (x' = 1);\n", "5:6: x is a variable, not an array: an array is declared x[1..K] : …, and its elements read x[i]"},
		{"  [] x = 0 -> (a' = 1);\n", "5:16: a is an array, a[1..3]: an update assigns one element, (a[i]' = …)"},
		{"  [] x = 0 -> (b[x]' = 1);\n", "5:16: unknown array b (arrays: a[1..3], v[1..3])"},
		{"  [] x = 0 -> (v[x]' = 1) & (v[1]' = 2);\n", "5:30: v is assigned at two indices in one update, x and 1, one of them computed: they might be equal; assign one element of an array per update, or index with constants"},
		{"  [] x = 0 -> (v[2]' = 1) & (v[2]' = 2);\n", "5:30: v[2] is assigned twice in this update"},
		{"  a : [0..1];\n", "5:3: a is already declared as the array a[1..3] at line 2"},
		{"  x[1..2] : [0..1];\n", "5:3: variable x is already declared at line 3"},
		{"  v[1..2] : [0..1];\n", "5:3: array v is already declared at line 4"},
		{"  e[3..1] : [0..1];\n", "5:5: the array e[3..1] has no element: its last index must be at least its first"},
		{"  e[1..100000] : [0..1];\n", "5:5: the array e[1..100000] has 100,000 elements; the limit is 10,000"},
		{"  e[1..x] : [0..1];\n", "5:8: the indices of an array are constant, and x is a variable: write them with numbers and constants"},
		{"  [] x = 0 -> (x' = a[x+1]');\n", "5:21: a[x + 1]' (a primed element) is written only in an update: (a[x + 1]' = …)"},
		{"  [] x = 0 -> (x' = l1(a));\n", "5:21: l1 compares two states: it is written in a neighbour predicate, as in neighbours l1(a) <= 1"},
	} {
		got := errorsOf(t, head+tc.body+tail)
		if len(got) == 0 || got[0] != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.body, got, tc.want)
		}
	}
}

// TestArrayIndexOutOfRange: an index computed outside the array stops the
// run where it is evaluated, naming the state and the command, for a read
// and for an assignment.
func TestArrayIndexOutOfRange(t *testing.T) {
	for _, tc := range []struct{ cmd, want string }{
		{"[] i <= 3 -> (x' = a[i]) & (i' = i + 1);", "5:22: the index of a[i] is 0, outside the array's indices 1..2 (command at line 5, at (a[1]=0, a[2]=0, x=0, i=0))"},
		{"[] i <= 3 -> (a[i]' = 1) & (i' = i + 1);", "5:19: the index of a[i] is 0, outside the array's indices 1..2 (command at line 5, at (a[1]=0, a[2]=0, x=0, i=0))"},
		// An index that is not an integer stops the run too, where it is
		// assigned at as where it is read (it must not disable the command).
		{"[] i <= 3 -> (a[(i + 3)/2]' = 1) & (i' = i + 1);", "5:19: the index of a[(i + 3)/2] is 3/2, not an integer (command at line 5, at (a[1]=0, a[2]=0, x=0, i=0))"},
		{"[] i <= 3 -> (x' = a[(i + 3)/2]) & (i' = i + 1);", "5:22: the index of a[(i + 3)/2] is 3/2, not an integer (command at line 5, at (a[1]=0, a[2]=0, x=0, i=0))"},
		{"[] i <= 3 -> (x' = a[i * 9223372036854775807 + 3]) & (i' = i + 1);", "5:22: the index of a[i*9223372036854775807 + 3] is 3, outside the array's indices 1..2 (command at line 5, at (a[1]=0, a[2]=0, x=0, i=0))"},
	} {
		src := "module m\n  a[1..2] : [0..2] init 0;\n  x : [0..2] init 0;\n  i : [0..4] init 0;\n  " + tc.cmd + "\nendmodule\ninputs where true\noutputs var x\nneighbours true\ncheck dp(eps = 1)\n"
		got := errorsOf(t, src)
		if len(got) != 1 || got[0] != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.cmd, got, tc.want)
		}
	}
}

// TestFormatArrays: arrays, their elements and the assignments to them
// are printed canonically, and the bracket after P's bound stays the
// path formula's.
func TestFormatArrays(t *testing.T) {
	src := "const K=2\nmodule m\ninput a [1..K]:[0..2];v[1..K]:bool init false;i:[1..3] init 1;\n[]i<=K->(v [i]'=a[i]>0)&(i'=i+1);\nendmodule\noutputs var v[ 1 ],i\nneighbours forall j in 1..K:|a[j]-a[j]'|<=1&l1( a )<=2\nquery P>=K[F v[1]]\n"
	want := "const K = 2\nmodule m\n  input a[1..K] : [0..2];\n  v[1..K] : bool init false;\n  i : [1..3] init 1;\n  [] i <= K -> (v[i]' = a[i] > 0) & (i' = i + 1);\nendmodule\noutputs var v[1], i\nneighbours forall j in 1..K: |a[j] - a[j]'| <= 1 & l1(a) <= 2\nquery P>=K[F v[1]]\n"
	got, err := spec.Format("t.dp", src)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if again, err := spec.Format("t.dp", got); err != nil || again != got {
		t.Errorf("formatting again: %v\n%s", err, again)
	}
	if !strings.Contains(got, "P>=K[F v[1]]") {
		t.Errorf("P's bound lost: %s", got)
	}
}

// TestDistances: l1, linf and hamming relate the pairs of inputs their
// definitions written out with folds relate, over arrays and variables
// together, and the number of pairs is the one counted here by brute force
// over the 54 inputs.
func TestDistances(t *testing.T) {
	const model = "module m\n  input a[1..3] : [0..2];\n  input b : [0..1];\n  x : [0..1] init 0;\n  [] x = 0 -> (x' = 1);\nendmodule\nquery eps(delta = 0)\n"
	abs := func(x int) int { return max(x, -x) }
	for _, tc := range []struct {
		short, long string
		related     func(d []int) bool // d: the differences a[1..3], b
	}{
		{"l1(a, b) <= 1", "sum(j in 1..3: |a[j] - a[j]'|) + |b - b'| <= 1",
			func(d []int) bool { return abs(d[0])+abs(d[1])+abs(d[2])+abs(d[3]) <= 1 }},
		{"linf(a) <= 1 & b = b'", "(forall j in 1..3: |a[j] - a[j]'| <= 1) & b = b'",
			func(d []int) bool { return abs(d[0]) <= 1 && abs(d[1]) <= 1 && abs(d[2]) <= 1 && d[3] == 0 }},
		{"hamming(a, b) = 1", "count(j in 1..3: a[j] != a[j]') + (b != b' ? 1 : 0) = 1",
			func(d []int) bool {
				n := 0
				for _, x := range d {
					if x != 0 {
						n++
					}
				}
				return n == 1
			}},
	} {
		var pairs [2][][2]int
		for i, pred := range []string{tc.short, tc.long} {
			p, err := spec.Load(context.Background(), "d.dp", model+"neighbours "+pred+"\n")
			if err != nil {
				t.Fatalf("%s: %v", pred, err)
			}
			pp, err := property.Prepare(context.Background(), p, dpmodel.Limits{})
			if err != nil {
				t.Fatalf("%s: %v", pred, err)
			}
			pairs[i] = pp.Neighbours
		}
		if d := cmp.Diff(pairs[1], pairs[0]); d != "" {
			t.Errorf("%s vs %s (-long +short):\n%s", tc.short, tc.long, d)
		}
		n := 0
		for v := range 54 * 54 {
			x, y := v/54, v%54
			d := []int{x/18 - y/18, x/6%3 - y/6%3, x/2%3 - y/2%3, x%2 - y%2}
			if x != y && tc.related(d) {
				n++
			}
		}
		if 2*len(pairs[0]) != n {
			t.Errorf("%s: %d ordered pairs, want %d", tc.short, 2*len(pairs[0]), n)
		}
	}
}

// TestDistanceErrors: a distance's arguments are input variables and
// arrays, named.
func TestDistanceErrors(t *testing.T) {
	head := "const K = 1\nmodule m\n  input a[1..3] : [0..2];\n  x : [0..3] init 0;\n  [] x = 0 -> (x' = 1);\nendmodule\ncheck dp(eps = 1)\n"
	for _, tc := range []struct{ pred, want string }{
		{"l1(a + 1) <= 1", "8:15: l1 compares input variables and arrays, and a + 1 is neither: write their names, l1(a, b)"},
		{"hamming() = 1", "8:12: hamming needs the input variables or arrays it compares: hamming(a, …)"},
		{"linf(a, K) <= 1", "8:20: linf compares input variables and arrays, and K is a constant"},
		{"linf(a, x) <= 1", "8:20: x is not an input variable: every input has it at its initial value, so comparing it cannot tell two inputs apart; a neighbour predicate compares input variables (input variables: a[1..3])"},
		{"l1(a') <= 1", "8:15: l1 compares input variables and arrays, and a' is neither: write their names, l1(a, b)"},
	} {
		got := errorsOf(t, head+"neighbours "+tc.pred+"\n")
		if len(got) == 0 || got[0] != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.pred, got, tc.want)
		}
	}
}

// TestArraysAssignedAtComputedIndices: unbounded integers drawn into an
// int array at a computed index, and an index written as a formula, give
// what the same mechanisms give written with one variable per element.
func TestArraysAssignedAtComputedIndices(t *testing.T) {
	passes(t, "int array", `module m
  input a[1..2] : [0..1];
  n[1..2] : int;
  i : [1..3] init 1;
  best : [0..2] init 0;
  [] i <= 2 -> (n[i]' ~ geometric(1/2, a[i])) & (i' = i + 1);
  [] i = 3 & best = 0 & n[1] >= n[2] -> (best' = 1);
  [] i = 3 & best = 0 & n[1] < n[2] -> (best' = 2);
endmodule
outputs var best
neighbours linf(a) <= 1
query eps(delta = 0) expect ln(16/7)
`)
	passes(t, "scalars", `module m
  input a1 : [0..1];
  input a2 : [0..1];
  n1 : int;
  n2 : int;
  i : [1..3] init 1;
  best : [0..2] init 0;
  [] i = 1 -> (n1' ~ geometric(1/2, a1)) & (i' = 2);
  [] i = 2 -> (n2' ~ geometric(1/2, a2)) & (i' = 3);
  [] i = 3 & best = 0 & n1 >= n2 -> (best' = 1);
  [] i = 3 & best = 0 & n1 < n2 -> (best' = 2);
endmodule
outputs var best
neighbours |a1 - a1'| <= 1 & |a2 - a2'| <= 1
query eps(delta = 0) expect ln(16/7)
`)
	// formula idx is 2: o is a[2], and v[2] gets 1.
	passes(t, "formula index", `formula idx = 2
module m
  input a[1..3] : [0..2];
  v[1..3] : [0..2] init 0;
  o : [0..2] init 0;
  [] o = 0 & v[2] = 0 -> (o' = a[idx]) & (v[idx]' = 1);
endmodule
outputs var o, v
neighbours linf(a) <= 1
query P=?[F (o = a[2] & v[2] = 1 & v[1] = 0)] expect s0: 1, s1: 1, s2: 1, s3: 1, s4: 1, s5: 1, s6: 1, s7: 1, s8: 1, s9: 1, s10: 1, s11: 1, s12: 1, s13: 1, s14: 1, s15: 1, s16: 1, s17: 1, s18: 1, s19: 1, s20: 1, s21: 1, s22: 1, s23: 1, s24: 1, s25: 1, s26: 1
query eps(delta = 0) expect inf
`)
}

// TestArrayErrorsOnce: a mistake in a read at a computed index, or in a
// command split on one, is reported once, as written, however many
// elements and pieces it is written out as.
func TestArrayErrorsOnce(t *testing.T) {
	head := "const K = 300\nmodule m\n  input a[1..2] : [0..1];\n  b[1..K] : [0..2] init 0;\n  i : [1..K+1] init 1;\n"
	want := [][]string{
		{"6:15: b[i] is a number, not a condition: compare it (b[i] = …)"},
		{"10:13: b[i]' (a primed element) only makes sense in a neighbour predicate"},
		{"10:25: the array b belongs to another module: a command updates only its own module's variables"},
		{"9:12: a is an array, a[1..2]: compare its elements (a[j]), or its two inputs' with a distance, l1(a), linf(a) or hamming(a)",
			"9:17: a is an array, a[1..2]: compare its elements (a[j]), or its two inputs' with a distance, l1(a), linf(a) or hamming(a)"},
	}
	for i, tc := range []struct{ body, tail string }{
		{"  [] i <= K & b[i] -> (b[i]' = 1) & (i' = i + 1);\n", ""},
		{"  [] i <= K -> (b[i]' = 1) & (i' = i + 1);\n", "query P=?[F b[i]' = 0]\n"},
		{"  [] i <= K -> (i' = i + 1);\nendmodule\nmodule n\n  j : [0..1] init 0;\n  [] j = 0 & i <= K -> (b[i]' = 2) & (j' = 1);\n", ""},
		{"  [] i <= K -> (i' = i + 1);\n", "neighbours a != a'\n"},
	} {
		neighbours := "neighbours linf(a) <= 1\n"
		if strings.HasPrefix(tc.tail, "neighbours") {
			neighbours = ""
		}
		got := errorsOf(t, head+tc.body+"endmodule\n"+neighbours+"check dp(eps = 1)\n"+tc.tail)
		if d := cmp.Diff(want[i], got); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.body, d)
		}
	}
}

// TestOutputElements: outputs var names an array's element with a
// constant index, checked against the array.
func TestOutputElements(t *testing.T) {
	src := "module m\n  input a[1..2] : [0..1];\n  o[1..2] : [0..1] init 0;\n  [] o[1] = 0 -> (o[1]' = a[1]) & (o[2]' = 1);\nendmodule\nneighbours l1(a) = 1\n"
	passes(t, "element", src+"outputs var o[1]\nquery eps(delta = 0) expect inf\n")
	passes(t, "other element", src+"outputs var o[2]\nquery eps(delta = 0) expect 0\n")
	for _, tc := range []struct{ out, want string }{
		{"outputs var o[3]", "7:15: the index of o[3] is 3, outside the array's indices 1..2"},
		{"outputs var o[a[1]]", "7:15: the index of an output must be constant: outputs var o[a[1]]"},
	} {
		got := errorsOf(t, src+tc.out+"\ncheck dp(eps = 1)\n")
		if len(got) != 1 || got[0] != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.out, got, tc.want)
		}
	}
}
