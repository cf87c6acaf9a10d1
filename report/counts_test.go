package report

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck"
)

// TestReportsAgree: every format counts the same run the same way — a
// statement that passed, failed, ended with an error (a work limit) or was
// stopped; a file that does not load, one stopped before its checks ran,
// one dpcheck failed on — from one tally.
func TestReportsAgree(t *testing.T) {
	ctx := context.Background()
	check := func(name, src string) Entry {
		r, err := dpcheck.CheckSource(ctx, name, src)
		return Entry{File: name, Source: src, Result: r, Err: err}
	}
	p, err := dpcheck.Config{}.Load(ctx, "stop.dp", "model survey()\ncheck dp(eps = ln(3))\n")
	if err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	stoppedRun, stopErr := dpcheck.Run(cancelled, p)
	entries := []Entry{
		check("pf.dp", "model survey()\ncheck dp(eps = ln(3))\ncheck dp(eps = ln(2))\n"),
		check("work.dp", "model compose(k = 9999, model = survey())\nquery delta(eps = 0)\n"),
		{File: "stop.dp", Result: stoppedRun, Err: stopErr},
		check("bad.dp", "model survey(\n"),
		{File: "late.dp", Err: context.DeadlineExceeded},
		{File: "bug.dp", Err: &dpcheck.InternalError{Value: "a bug"}},
	}
	n := tally(entries)
	if want := (counts{files: 6, runs: 6, pass: 1, fail: 1, errors: 1, stopped: 1, notChecked: 2, stoppedBeforeRuns: 1}); n != want {
		t.Fatalf("tally %+v, want %+v", n, want)
	}
	line := "6 files, 4 statements: 1 passed, 1 failed, 1 error, 1 stopped, 2 files with errors, 1 file stopped before checking"
	if n.String() != line {
		t.Errorf("summary %q, want %q", n.String(), line)
	}
	render := func(format string) string {
		var b bytes.Buffer
		if err := Write(&b, format, entries, "test"); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	if got := render("text"); !strings.HasSuffix(got, "\n"+line+"\n") {
		t.Errorf("text ends %q", got[max(0, len(got)-200):])
	}
	if got := render("markdown"); !strings.HasPrefix(got, "### dpcheck: "+line+"\n") {
		t.Errorf("markdown starts %q", got[:min(len(got), 200)])
	}
	if got := render("github"); !strings.HasSuffix(got, "::notice title=dpcheck::"+ghData(line)+"\n") {
		t.Errorf("github ends %q", got[max(0, len(got)-200):])
	}
	junit := render("junit")
	for _, want := range []string{
		`<testsuites name="dpcheck" tests="7" failures="1" errors="5"`,
		`<error message="the file was stopped before its checks ran" type="dpcheck.stopped">`,
		`<error message="dpcheck failed on the file (an internal error)" type="dpcheck.internal">`,
		`<error message="the file does not load" type="dpcheck.invalid">`,
	} {
		if !strings.Contains(junit, want) {
			t.Errorf("junit lacks %q:\n%s", want, junit)
		}
	}
	for typ, want := range map[string]int{"dpcheck.fail": n.fail, "dpcheck.error": n.errors, "dpcheck.stopped": n.stopped + n.stoppedBeforeRuns,
		"dpcheck.invalid": 1, "dpcheck.internal": 1} {
		if got := strings.Count(junit, `type="`+typ+`"`); got != want {
			t.Errorf("junit: %d of type %s, want %d", got, typ, want)
		}
	}
	var doc Document
	if err := json.Unmarshal([]byte(render("json")), &doc); err != nil {
		t.Fatal(err)
	}
	var j counts
	j.files, j.runs = len(doc.Files), len(doc.Files)
	for _, f := range doc.Files {
		switch {
		case f.Status == "invalid" || f.Status == "internal":
			j.notChecked++
		case f.Status == "aborted" && len(f.Statements) == 0:
			j.stoppedBeforeRuns++
		}
		for _, s := range f.Statements {
			switch {
			case s.Pass:
				j.pass++
			case s.Outcome == "stopped":
				j.stopped++
			case s.Outcome == "error":
				j.errors++
			default:
				j.fail++
			}
		}
	}
	if j != n {
		t.Errorf("json counts %+v, want %+v", j, n)
	}
}
