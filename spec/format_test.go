package spec_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/spec"
	"github.com/google/go-cmp/cmp"
)

func TestFormat(t *testing.T) {
	src := `// header comment

const   p=1/2   // the coin
const   K   // given from outside
formula   half( a,b )=(a+b)/2
const S=sum( j in 1..3 : j*j )+count(i in 1..2:i>1)
chain{
state pos(x=1)[in_pos]   state neg (x = 0) [ in_neg ]
  // outputs
state "yes"[out_Y]
state no [out_N]
pos->"yes":p+(1-p)*p,no:(1-p)*(1-p)
neg -> "yes" : (1-p)*p, no : p+(1 - p)*( 1-p ) else sink
/* last */
}
inputs pos,neg
neighbours |x-x'|<=1&!in_pos|in_neg


check dp(eps=ln(3),delta=0)expect holds
check D{ln(3),0}[X out_Y]&P>=1/4[F<=2 !out_N U out_Y]   // formulas
query eps(delta = 1e-3) over traces( 2 )
/* trailing
   block */
`
	want := `// header comment

const p = 1/2 // the coin
const K       // given from outside
formula half(a, b) = (a + b)/2
const S = sum(j in 1..3: j*j) + count(i in 1..2: i > 1)
chain {
  state pos (x = 1) [in_pos]
  state neg (x = 0) [in_neg]
  // outputs
  state "yes" [out_Y]
  state no [out_N]
  pos -> "yes" : p + (1 - p)*p, no : (1 - p)*(1 - p)
  neg -> "yes" : (1 - p)*p, no : p + (1 - p)*(1 - p) else sink
  /* last */
}
inputs pos, neg
neighbours |x - x'| <= 1 & !in_pos | in_neg

check dp(eps = ln(3), delta = 0) expect holds
check D{ln(3), 0}[X out_Y] & P>=1/4[F<=2 !out_N U out_Y] // formulas
query eps(delta = 1e-3) over traces(2)
/* trailing
   block */
`
	got, err := spec.Format("t.dp", src)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Format (-want +got):\n%s", diff)
	}
	if _, err := spec.Format("t.dp", "model survey(\n"); err == nil {
		t.Error("Format of a file that does not parse: no error")
	}
}

// TestFormatModules: one declaration per line, a long command wrapped
// before " & " or " + " with the continuation under its first update,
// comments kept.
func TestFormatModules(t *testing.T) {
	src := `formula   ans=i=1?a1:a2
module   m // the mechanism
input a1:[0..2];input a2:[0..2];  i:[0..3]   init 0;   b : bool;
[]i=0->(a1'~geometric(1/2,a1,0,2))&(a2'~geometric(1/2,a2,0,2))&(i'=1)&(b'=!b)&(a1'=max(a1,a2,0));
[ ] i = 1 -> 1/3:(i'=2) + 2/3 : true ; // two updates
endmodule
label "done"=i>=2
outputs var a1,a2
neighbours |a1-a1'|+|a2-a2'|<=1
query eps(delta=0)
`
	want := `formula ans = i = 1 ? a1 : a2
module m // the mechanism
  input a1 : [0..2];
  input a2 : [0..2];
  i : [0..3] init 0;
  b : bool;
  [] i = 0 -> (a1' ~ geometric(1/2, a1, 0, 2)) & (a2' ~ geometric(1/2, a2, 0, 2)) & (i' = 1)
            & (b' = !b) & (a1' = max(a1, a2, 0));
  [] i = 1 -> 1/3 : (i' = 2) + 2/3 : true; // two updates
endmodule
label "done" = i >= 2
outputs var a1, a2
neighbours |a1 - a1'| + |a2 - a2'| <= 1
query eps(delta = 0)
`
	got, err := spec.Format("t.dp", src)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Format (-want +got):\n%s", diff)
	}
	checkFormat(t, "t.dp", src)
}

var lineRef = regexp.MustCompile(`(line|column) \d+`)

// summarize describes a loaded program (or its errors, without positions)
// for comparing a file with its formatted form.
func summarize(src string) string {
	p, err := dpcheck.Config{Limits: fuzzOptions.Limits}.Load(context.Background(), "f.dp", src)
	if err != nil {
		list, ok := err.(source.ErrorList)
		if !ok {
			return "error " + err.Error()
		}
		var msgs []string
		for _, e := range list {
			// Formatting moves lines: "also at line 3" may become line 2.
			msgs = append(msgs, lineRef.ReplaceAllString(e.Msg, "$1 N"))
		}
		// A chain reads a probability written again once, by its text:
		// its error is reported once for every way it is written, and
		// formatting may write two spellings alike ("1- p" and "1 - p").
		slices.Sort(msgs)
		msgs = slices.Compact(msgs)
		return "errors " + strings.Join(msgs, "; ")
	}
	var b strings.Builder
	if p.Chain != nil {
		fmt.Fprintf(&b, "%d states, %d transitions, %d pairs, %s\n", p.Chain.NumStates(), p.Chain.NumTransitions(), p.NumPairs(), p.Output)
	}
	for _, st := range p.Program.Statements {
		fmt.Fprintf(&b, "%s: %s; expect %d %s; %s\n", st.Kind(), describe(st), st.Head().Expect.Kind, st.Head().Expect.Text, st.Describe())
	}
	return b.String()
}

// describe lists a statement's parameters.
func describe(st property.Statement) string {
	switch s := st.(type) {
	case *property.DPCheck:
		return fmt.Sprintf("ε = %s, δ = %s", s.Eps, s.Delta.RatString())
	case *property.EpsQuery:
		return fmt.Sprintf("δ = %s, expect %s", s.Delta.RatString(), s.Expected)
	case *property.DeltaQuery:
		return fmt.Sprintf("ε = %s, expect %v", s.Eps, s.Expected)
	case *property.FormulaCheck:
		return s.Resolved().String()
	case *property.ProbQuery:
		return s.Resolved().String()
	case *property.DEpsQuery:
		return fmt.Sprintf("%s, δ = %s, expect %s", s.Resolved(), s.Delta.RatString(), s.Expected)
	case *property.DDeltaQuery:
		return fmt.Sprintf("%s, ε = %s, expect %v", s.Resolved(), s.Eps, s.Expected)
	case *property.EquivalenceCheck:
		infos := s.Infos()
		return infos[0].Call + " ≡ " + infos[1].Call
	}
	return ""
}

// checkFormat: formatting parses, is idempotent and means the same.
func checkFormat(t *testing.T, name, src string) {
	t.Helper()
	once, err := spec.Format(name, src)
	if err != nil {
		return // does not parse: nothing to format
	}
	twice, err := spec.Format(name, once)
	if err != nil {
		t.Fatalf("%s: the formatted file does not parse: %v\n%s", name, err, once)
	}
	if twice != once {
		t.Fatalf("%s: formatting is not idempotent:\n%s", name, cmp.Diff(once, twice))
	}
	if a, b := summarize(src), summarize(once); a != b {
		t.Fatalf("%s: formatting changed the meaning:\n%s", name, cmp.Diff(a, b))
	}
	if a, b := comments(src), comments(once); !slices.Equal(a, b) {
		t.Fatalf("%s: formatting changed the comments %q to %q:\n%s", name, a, b, once)
	}
}

// comments lists the texts of src's comments in order (string literals
// skipped; trailing spaces dropped), so that "*//*", the end of one
// comment and the start of the next, counts as two comments and no "//".
func comments(src string) []string {
	var out []string
	for i := 0; i < len(src); i++ {
		switch {
		case src[i] == '"':
			for i++; i < len(src) && src[i] != '"' && src[i] != '\n'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		case strings.HasPrefix(src[i:], "//"):
			end := strings.IndexByte(src[i:], '\n')
			if end < 0 {
				end = len(src) - i
			}
			out = append(out, strings.TrimRight(src[i:i+end], " \t\r"))
			i += end
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				out = append(out, src[i:])
				return out
			}
			out = append(out, src[i:i+2+end+2])
			i += 2 + end + 1
		}
	}
	return out
}

func TestFormatModels(t *testing.T) {
	files, _ := filepath.Glob("../models/*.dp")
	more, _ := filepath.Glob("../cmd/dpcheck/testdata/*.dp")
	if len(files) < 20 || len(more) < 5 {
		t.Fatalf("found %d models and %d command test files; the test needs them", len(files), len(more))
	}
	for _, f := range append(files, more...) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkFormat(t, f, string(src))
	}
}

// FuzzFormat: for every input that parses, the formatted file parses, is a
// fixed point of Format, and loads to the same program.
//
//	go test ./spec -run '^$' -fuzz FuzzFormat -fuzztime 60s
func FuzzFormat(f *testing.F) {
	files, _ := filepath.Glob("../models/*.dp")
	for _, p := range files {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(string(src))
		}
	}
	f.Add("const x = 1\nmodel survey(x = 1 ? 1/2 : 1/3, theta2 = (x = 1) ? 1 : 0)\nmodule m\n  y : [0..2] init 0;\n  [] y = 0 -> (y' ~ geometric(alpha = 1/2, y = 0 ? 1 : 2, lo = 0, hi = 2));\nendmodule\ncheck dp(eps = ln(3))\n")
	f.Add("const K = 2\nmodule m\n  input a[1..K] : [0..2];\n  v[-1..K] : bool init false;\n  i : [1..3] init 1;\n  [] i <= K -> (v[a[i] - 1]' = a[i]' > 0) & (i' = i + 1);\nendmodule\nneighbours forall j in 1..K: |a[j] - a[j]'| <= 1 & l1(a) = 1\nquery P>=K[F v[1]]\n")
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4000 {
			return
		}
		checkFormat(t, "f.dp", src)
	})
}

// TestFormatAlignsComments: trailing comments of consecutive lines line up
// one space after the longest code; a line without one ends the run.
func TestFormatAlignsComments(t *testing.T) {
	src := "model survey() // m\ncheck dp(eps = ln(3))   // long\ncheck dp(eps = 1) // short\ncheck dp(eps = 2)\ncheck dp(eps = 3)    // alone\n"
	want := "model survey()        // m\ncheck dp(eps = ln(3)) // long\ncheck dp(eps = 1)     // short\ncheck dp(eps = 2)\ncheck dp(eps = 3) // alone\n"
	got, err := spec.Format("a.dp", src)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Format (-want +got):\n%s", diff)
	}
	again, err := spec.Format("a.dp", got)
	if err != nil || again != got {
		t.Errorf("not idempotent: %q", again)
	}
}

// TestModelsAreFormatted: the reference models are in canonical form, so
// `dpcheck fmt --check models/` passes as the README's CI recipe expects.
func TestModelsAreFormatted(t *testing.T) {
	files, err := filepath.Glob("../models/*.dp")
	if err != nil || len(files) == 0 {
		t.Fatalf("no models: %v", err)
	}
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := spec.Format(p, string(src))
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if diff := cmp.Diff(string(src), got); diff != "" {
			t.Errorf("%s is not formatted (dpcheck fmt -w %s) (-file +formatted):\n%s", p, p, diff)
		}
	}
}

// TestFormatCommentsAfterLineComment: comments that follow a // comment
// moved to the end of a statement's line go on lines of their own (found
// by FuzzFormat: the block comment became part of the line comment).
func TestFormatCommentsAfterLineComment(t *testing.T) {
	src := "model\n// a\nsurvey() /* b */ /* c */\n"
	want := "model survey() // a\n/* b */\n/* c */\n"
	got, err := spec.Format("a.dp", src)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("Format = %q, want %q", got, want)
	}
	checkFormat(t, "a.dp", src)
}

// TestFormatBlockCommentInBlock: a comment spanning lines at the end of a
// chain is followed by the next comment without a blank line the source
// does not have, as at the top level.
func TestFormatBlockCommentInBlock(t *testing.T) {
	src := "chain {\n  state a\n  a -> a : 1\n  /* x\n  y */\n  // z\n}\n"
	got, err := spec.Format("a.dp", src)
	if err != nil {
		t.Fatal(err)
	}
	if got != src {
		t.Errorf("Format = %q, want %q", got, src)
	}
	checkFormat(t, "a.dp", src)
}
