package report

import (
	"fmt"
	"strings"

	"github.com/dpcheck/dpcheck/property"
)

// What every report counts, and how it classifies a file and a statement:
// the text report's summary line, the Markdown heading, the GitHub notice
// and the JUnit totals are all written from tally, so that they agree.

// fileState is how the reports show an entry.
type fileState int

const (
	checked       fileState = iota // its statements are shown
	notChecked                     // it has errors (it does not load, or dpcheck failed on it)
	stoppedBefore                  // it was stopped before its checks ran
)

// stateOf classifies an entry for the reports.
func stateOf(e Entry) fileState {
	switch StatusOf(e) {
	case Invalid, Internal:
		if e.Err != nil || e.Result == nil {
			return notChecked
		}
		// Statements refused on their own: the others ran.
	}
	if e.Result == nil {
		return stoppedBefore
	}
	return checked
}

// statementStatus is a statement's result in every report: PASS, FAIL
// (it did not meet its expectation), ERROR (it could not be evaluated: a
// work limit, say) or STOP (a timeout, an interrupt or the memory limit
// stopped it).
func statementStatus(o property.Outcome) string {
	switch {
	case o.Pass():
		return "PASS"
	case stopped(o.Err()):
		return "STOP"
	case o.Err() != nil:
		return "ERROR"
	}
	return "FAIL"
}

// counts are the totals of a run.
type counts struct {
	files, runs                   int // runs: entries, when a sweep checks a file several times
	pass, fail, errors, stopped   int // statements
	notChecked, stoppedBeforeRuns int // files
}

// tally counts the entries.
func tally(entries []Entry) counts {
	n := counts{runs: len(entries)}
	files := map[string]bool{}
	for _, e := range entries {
		files[e.File] = true
	}
	n.files = len(files)
	for _, e := range entries {
		switch stateOf(e) {
		case notChecked:
			n.notChecked++
			continue
		case stoppedBefore:
			n.stoppedBeforeRuns++
			continue
		}
		for _, o := range e.Result.Statements {
			switch statementStatus(o) {
			case "PASS":
				n.pass++
			case "FAIL":
				n.fail++
			case "ERROR":
				n.errors++
			case "STOP":
				n.stopped++
			}
		}
	}
	return n
}

// statements is the number of statements counted.
func (n counts) statements() int { return n.pass + n.fail + n.errors + n.stopped }

// unit is what an entry is: a file, or a run of a sweep.
func (n counts) unit() string {
	if n.runs > n.files {
		return "run"
	}
	return "file"
}

// String is the summary line: "3 files, 9 statements: 6 passed, 2 failed,
// 1 error, 1 file with errors"; the categories that count none, but
// passed and failed, are left out.
func (n counts) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s", count(n.files, "file"))
	if n.runs > n.files {
		fmt.Fprintf(&b, " in %s", count(n.runs, "run"))
	}
	fmt.Fprintf(&b, ", %s: %d passed, %d failed", count(n.statements(), "statement"), n.pass, n.fail)
	if n.errors > 0 {
		fmt.Fprintf(&b, ", %s", count(n.errors, "error"))
	}
	if n.stopped > 0 {
		fmt.Fprintf(&b, ", %d stopped", n.stopped)
	}
	if n.notChecked > 0 {
		fmt.Fprintf(&b, ", %s with errors", count(n.notChecked, n.unit()))
	}
	if n.stoppedBeforeRuns > 0 {
		fmt.Fprintf(&b, ", %s stopped before checking", count(n.stoppedBeforeRuns, n.unit()))
	}
	return b.String()
}
