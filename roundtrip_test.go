package dpcheck_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/report"
	"github.com/dpcheck/dpcheck/spec"
)

// edit sets a statement's expectation (or appends a statement).
type edit struct {
	line  int    // the statement's line; 0 appends
	value string // the expectation, or the appended statement
	from  string // where the value was read, for messages
}

// TestPrintedValuesRoundTrip runs every model of models/, reads every
// value the text report and the JSON document print for its queries (tight
// ε and δ, D{…} bounds, P=? per input, the profile's breakpoints, a tight
// ε or δ of one piece for every value of a parameter), writes
// each back as the expectation of its statement (a profile's points as
// query delta(eps = ε_i) expect δ_i) and checks that the file then parses
// and every such statement passes. The text's exact values must also be
// the JSON's, character for character: one canonical form.
func TestPrintedValuesRoundTrip(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every model three times")
	}
	files, err := filepath.Glob("models/*.dp")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("models/prism/*.dp")
	files = append(files, more...)
	if len(files) < 40 {
		t.Fatalf("found %d models", len(files))
	}
	ctx := context.Background()
	total := map[string]int{}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			r, err := dpcheck.CheckSource(ctx, path, string(src))
			if err != nil {
				t.Fatal(err)
			}
			entries := []report.Entry{{File: path, Source: string(src), Result: r}}
			var text, js bytes.Buffer
			report.Text(&text, entries)
			if err := report.JSON(&js, entries, "test"); err != nil {
				t.Fatal(err)
			}
			var doc report.Document
			if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			fromJSON := jsonValues(t, doc.Files[0].Statements, string(src))
			fromText := textValues(t, text.String(), doc.Files[0].Statements, string(src))
			// The text's exact values are the JSON's.
			byLine := map[int][]string{}
			for _, e := range fromJSON {
				if e.line > 0 {
					byLine[e.line] = append(byLine[e.line], e.value)
				}
			}
			for _, e := range fromText {
				if e.line > 0 && !contains(byLine[e.line], e.value) {
					t.Errorf("line %d: the text prints %q, the JSON %q", e.line, e.value, byLine[e.line])
				}
			}
			total["json"] += len(fromJSON)
			total["text"] += len(fromText)
			for _, tc := range []struct {
				name  string
				edits []edit
			}{{"text", fromText}, {"json", fromJSON}} {
				if len(tc.edits) == 0 {
					continue
				}
				checkEdits(t, ctx, path, string(src), tc.name, tc.edits)
			}
		})
	}
	// Enough values were read for the test to mean something.
	if total["json"] < 100 || total["text"] < 100 {
		t.Errorf("read %d values from the JSON and %d from the text; want at least 100 of each", total["json"], total["text"])
	}
	t.Logf("round-tripped %d values from the JSON, %d from the text", total["json"], total["text"])
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// checkEdits applies the edits to src and checks that every edited or
// appended statement passes.
func checkEdits(t *testing.T, ctx context.Context, path, src, from string, edits []edit) {
	t.Helper()
	f, err := spec.Parse(path, src)
	if err != nil {
		t.Fatal(err)
	}
	stmts := map[int]*spec.PropStmt{}
	for _, st := range f.Stmts {
		if p, ok := st.(*spec.PropStmt); ok {
			stmts[lineOf(src, p.Start)] = p
		}
	}
	// one expectation per statement: merge the values of P=? (already
	// one edit) and keep the edits in reverse order of offset
	type change struct {
		at, end int
		text    string
	}
	var changes []change
	var appended []string
	seen := map[int]bool{}
	for _, e := range edits {
		if e.line == 0 {
			appended = append(appended, e.value)
			continue
		}
		if seen[e.line] {
			continue
		}
		seen[e.line] = true
		p := stmts[e.line]
		if p == nil {
			t.Fatalf("%s: no statement at line %d", from, e.line)
		}
		if p.Expect != nil {
			changes = append(changes, change{p.Expect.Start, p.Expect.End, e.value})
		} else {
			changes = append(changes, change{p.End, p.End, " expect " + e.value})
		}
	}
	sort.Slice(changes, func(i, j int) bool { return changes[i].at > changes[j].at })
	out := src
	for _, c := range changes {
		out = out[:c.at] + c.text + out[c.end:]
	}
	if len(appended) > 0 {
		out += "\n" + strings.Join(appended, "\n") + "\n"
	}
	r, err := dpcheck.CheckSource(ctx, path, out)
	if err != nil {
		t.Fatalf("%s: the values do not read back: %v\n%s", from, err, out)
	}
	srcLines := strings.Count(src, "\n") + 1
	for _, o := range r.Statements {
		h := o.Statement().Head()
		line := h.Pos.Line
		if !seen[line] && line <= srcLines {
			continue
		}
		if o.Err() != nil || !o.Pass() {
			t.Errorf("%s: line %d %q: got %s, err %v", from, line, h.Text, o.Value(), o.Err())
		}
	}
}

func lineOf(src string, off int) int { return strings.Count(src[:off], "\n") + 1 }

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// inputName writes an input's name as the language reads it.
func inputName(n string) string {
	if identRE.MatchString(n) {
		return n
	}
	return strconv.Quote(n)
}

// profileQuery is a profile statement asked at one ε.
func profileQuery(src string, line int, eps, delta string) string {
	st := strings.Split(src, "\n")[line-1]
	st = strings.TrimSpace(strings.SplitN(st, "//", 2)[0])
	return strings.Replace(st, "profile", "delta(eps = "+eps+")", 1) + " expect " + delta
}

// jsonValues reads the values of the JSON document's statements.
func jsonValues(t *testing.T, sts []*report.StatementDoc, src string) []edit {
	var out []edit
	for _, s := range sts {
		switch {
		case s.Param != nil && len(s.Param.Pieces) == 1:
			// one piece for every value of the parameter: an expression
			v, _, _ := strings.Cut(s.Param.Pieces[0], " for "+s.Param.Name+" in ")
			out = append(out, edit{s.Line, v, "json"})
		case s.Param != nil, s.Outcome != "value":
		case s.Rewards != nil: // expected(f): one value per input
			var vs []string
			for _, p := range s.Rewards {
				vs = append(vs, inputName(p.State.Name)+": "+p.Value.Exact)
			}
			out = append(out, edit{s.Line, strings.Join(vs, ", "), "json"})
		case s.Value != nil:
			out = append(out, edit{s.Line, s.Value.Exact, "json"})
		case s.Probabilities != nil:
			var vs []string
			for _, p := range s.Probabilities {
				vs = append(vs, inputName(p.State.Name)+": "+p.Pr.Exact)
			}
			out = append(out, edit{s.Line, strings.Join(vs, ", "), "json"})
		case s.Profile != nil:
			for _, p := range s.Profile {
				out = append(out, edit{0, profileQuery(src, s.Line, p.Eps.Exact, p.Delta.Exact), "json"})
			}
		}
	}
	return out
}

var (
	headerRE  = regexp.MustCompile(`^  [A-Z]+ +line (\d+)  `)
	valueRE   = regexp.MustCompile(`^ +[εδ] = (.+?) at [εδ] = `)
	profileRE = regexp.MustCompile(`^ +ε = (.+?) +δ = (.+)$`)
	pieceRE   = regexp.MustCompile(`^ +[εδ] = (.+?) for (\w+) in `)
)

// exactOf is the exact value of a printed "X ≈ d" ("X" alone when it is its
// own decimal); "" for a value too long to print, shown as "≈ d (…)".
func exactOf(s string) string {
	if strings.HasPrefix(s, "≈") {
		return ""
	}
	v, _, _ := strings.Cut(s, " ≈ ")
	return v
}

// textValues reads the values of the text report's statements: the line
// "ε = X at δ = …" (or δ = X at ε = …) of a query, each input's line of a
// P=? (its names are the JSON's, in the same order) and the profile's
// lines.
func textValues(t *testing.T, text string, sts []*report.StatementDoc, src string) []edit {
	byLine := map[int]*report.StatementDoc{}
	for _, s := range sts {
		byLine[s.Line] = s
	}
	var out []edit
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		m := headerRE.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		line, _ := strconv.Atoi(m[1])
		s := byLine[line]
		if s == nil || (s.Param == nil && s.Outcome != "value") || (s.Param != nil && len(s.Param.Pieces) != 1) {
			continue
		}
		// the statement's block: up to the next blank line
		var block []string
		for j := i + 1; j < len(lines) && lines[j] != ""; j++ {
			block = append(block, lines[j])
		}
		switch {
		case s.Param != nil:
			n := 0
			for _, b := range block {
				if pm := pieceRE.FindStringSubmatch(b); pm != nil && pm[2] == s.Param.Name {
					out = append(out, edit{line, pm[1], "text"})
					n++
				}
			}
			if n != 1 {
				t.Fatalf("line %d: read %d pieces from the text, the JSON has 1", line, n)
			}
		case s.Probabilities != nil || s.Rewards != nil:
			// one line per input after the description: "  NAME  VALUE[ (as expected)]"
			// (expected(f): then the worst input's line)
			names := make([]string, 0, len(s.Probabilities)+len(s.Rewards))
			for _, p := range s.Probabilities {
				names = append(names, p.State.Name)
			}
			for _, p := range s.Rewards {
				names = append(names, p.State.Name)
			}
			rows := block[len(block)-len(names):]
			if s.Rewards != nil {
				rows = block[1 : 1+len(names)]
			}
			var vs []string
			for k, row := range rows {
				name := names[k]
				row = strings.TrimSpace(row)
				row = strings.TrimSuffix(row, " (as expected)")
				fields := strings.SplitN(row, "  ", 2)
				if len(fields) != 2 || !strings.HasPrefix(fields[0], name) {
					t.Fatalf("line %d: cannot read the probability of %s in %q", line, name, row)
				}
				v := exactOf(strings.TrimSpace(fields[1]))
				if v == "" {
					t.Fatalf("line %d: the text abbreviates the probability %q", line, fields[1])
				}
				vs = append(vs, inputName(name)+": "+v)
			}
			if vs != nil {
				out = append(out, edit{line, strings.Join(vs, ", "), "text"})
			}
		case s.Profile != nil:
			n := 0
			for _, b := range block {
				if pm := profileRE.FindStringSubmatch(b); pm != nil {
					e, d := exactOf(strings.TrimSpace(pm[1])), exactOf(strings.TrimSpace(pm[2]))
					n++
					if e != "" && d != "" {
						out = append(out, edit{0, profileQuery(src, line, e, d), "text"})
					}
				}
			}
			if n != len(s.Profile) {
				t.Fatalf("line %d: read %d profile points from the text, the JSON has %d", line, n, len(s.Profile))
			}
		default:
			vm := valueRE.FindStringSubmatch(block[0])
			if vm == nil {
				t.Fatalf("line %d: no value in %q", line, block[0])
			}
			// A query's answer is printed in full (up to
			// report.MaxAnswerWidth), so that it can be copied.
			v := exactOf(vm[1])
			if v == "" {
				t.Fatalf("line %d: the text abbreviates the answer %q", line, vm[1])
			}
			out = append(out, edit{line, v, "text"})
		}
	}
	return out
}

// TestIrrationalDeltaByHand checks models/survey_irrational_delta.dp
// against the survey's tight δ computed by hand: for e^ε < 3 the worst
// event is {Y}, Pr(Y|+) = 3/4 and Pr(Y|-) = 1/4, so δ = 3/4 − 1/4·e^ε.
func TestIrrationalDeltaByHand(t *testing.T) {
	ctx := context.Background()
	r, err := dpcheck.CheckFile(ctx, "models/survey_irrational_delta.dp")
	if err != nil {
		t.Fatal(err)
	}
	mustEps := func(e exact.Eps, err error) exact.Eps {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	l2, err := exact.Ln(big.NewRat(2, 1))
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]exact.Eps{ // line → ε
		8:  mustEps(exact.Rational(big.NewRat(1, 2))),
		9:  mustEps(exact.Rational(big.NewRat(1, 10))),
		10: mustEps(exact.MulLn(big.NewRat(1, 2), big.NewRat(3, 1))),
		11: mustEps(l2.AddRat(big.NewRat(1, 4))),
		12: mustEps(exact.Rational(big.NewRat(1, 2))),
	}
	seen := 0
	for _, o := range r.Statements {
		line := o.Statement().Head().Pos.Line
		eps, ok := want[line]
		if !ok {
			continue
		}
		var got exact.Real
		switch o := o.(type) {
		case *property.DeltaOutcome:
			got = o.Result.Delta
		case *property.DBoundOutcome:
			got = o.Result.Delta
		default:
			t.Fatalf("line %d: %T", line, o)
		}
		hand := exact.Affine(big.NewRat(3, 4), big.NewRat(-1, 4), eps)
		if _, rational := hand.Rat(); rational {
			t.Fatalf("line %d: δ by hand is rational", line)
		}
		if s, err := got.Sub(hand).Sign(); err != nil || s != 0 || !o.Pass() {
			t.Errorf("line %d: δ = %s, by hand %s (pass %v)", line, got, hand, o.Pass())
		}
		if got.String() != hand.String() {
			t.Errorf("line %d: prints %s, want %s", line, got, hand)
		}
		seen++
	}
	if seen != len(want) {
		t.Errorf("checked %d statements, want %d", seen, len(want))
	}
	if !r.Pass() {
		t.Error("the model's expectations fail")
	}
}

// TestExpectedIrrationalDelta: an expected δ written with e^(…) must use
// the query's own ε; a constant named e is a constant.
func TestExpectedIrrationalDelta(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct{ src, err string }{
		{"model survey()\nquery delta(eps = 1/2) expect 3/4 - 1/4*e^(1/3)\n",
			"t.dp:2:31: an expected δ may use e^(…) only of the query's ε = 1/2, found e^(1/3)"},
		{"model survey()\nquery delta(eps = 1/2) expect 3 - e^(1/2)\n",
			"t.dp:2:31: δ = 3 - e^(1/2) is outside [0, 1]"},
		{"model survey()\nquery delta(eps = 1/2) expect e^(1/2) + e^(1/3)\n",
			"t.dp:2:39: cannot add multiples of e^(1/2) and e^(1/3) exactly"},
		{"model survey()\ncheck dp(eps = e^(1/2))\n",
			"t.dp:2:16: ε must be a number or k*ln(r), found a number with e^(…)"},
	} {
		_, err := dpcheck.Config{}.Load(ctx, "t.dp", tc.src)
		if err == nil || err.Error() != tc.err {
			t.Errorf("%q: error %v, want %s", tc.src, err, tc.err)
		}
	}
	// e^(ln(2)) is the number 2; with a constant e = 1/2, e^2 is 1/4
	for _, src := range []string{
		"model survey()\nquery delta(eps = ln(2)) expect e^(ln(2))/8\n",
		"const e = 1/2\nmodel survey()\nquery delta(eps = ln(2)) expect e^2\n",
	} {
		r, err := dpcheck.CheckSource(ctx, "t.dp", src)
		if err != nil || !r.Pass() {
			t.Errorf("%q: %v, pass %v", src, err, err == nil && r.Pass())
		}
	}
}
