package report

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
)

// JUnit writes entries as JUnit XML: a test suite per file and a test case
// per statement; a statement that does not meet its expectation is a
// failure whose text is the statement's full report (counterexample
// included); a file with parse or semantic errors is a suite with one
// erroring test case. Every test case has the time its statement took
// (outcome.Result.Times), every suite its file's (Entry.Elapsed), in
// seconds. Names and messages are escaped as in the text report.
func JUnit(w io.Writer, entries []Entry) error {
	type failure struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
	type testcase struct {
		Classname string   `xml:"classname,attr"`
		Name      string   `xml:"name,attr"`
		Time      string   `xml:"time,attr"`
		Failure   *failure `xml:"failure,omitempty"`
		Error     *failure `xml:"error,omitempty"`
		SystemOut string   `xml:"system-out,omitempty"`
	}
	type testsuite struct {
		Name     string     `xml:"name,attr"`
		Tests    int        `xml:"tests,attr"`
		Failures int        `xml:"failures,attr"`
		Errors   int        `xml:"errors,attr"`
		Time     string     `xml:"time,attr"`
		Cases    []testcase `xml:"testcase"`
	}
	type testsuites struct {
		XMLName  xml.Name    `xml:"testsuites"`
		Name     string      `xml:"name,attr"`
		Tests    int         `xml:"tests,attr"`
		Failures int         `xml:"failures,attr"`
		Errors   int         `xml:"errors,attr"`
		Time     string      `xml:"time,attr"`
		Suites   []testsuite `xml:"testsuite"`
	}
	doc := testsuites{Name: "dpcheck"}
	var total time.Duration
	for _, e := range entries {
		file := junitAttr(e.name())
		elapsed := e.elapsed()
		total += elapsed
		s := testsuite{Name: file, Time: seconds(elapsed)}
		n := tally([]Entry{e})
		s.Failures, s.Errors = n.fail, n.errors+n.stopped+n.notChecked+n.stoppedBeforeRuns
		if st := stateOf(e); st != checked {
			var b bytes.Buffer
			writeErr(&b, e)
			f := &failure{Message: "the file does not load", Type: "dpcheck.invalid", Text: junitText(b.String())}
			switch {
			case st == stoppedBefore:
				f.Message, f.Type = "the file was stopped before its checks ran", "dpcheck.stopped"
			case StatusOf(e) == Internal:
				f.Message, f.Type = "dpcheck failed on the file (an internal error)", "dpcheck.internal"
			}
			s.Cases = append(s.Cases, testcase{Classname: file, Name: "load " + file, Time: seconds(elapsed), Error: f})
		} else {
			for i, o := range e.Result.Statements {
				var b bytes.Buffer
				textOutcome(&b, o)
				text := junitText(dedent(b.String()))
				h := o.Statement().Head()
				var took time.Duration
				if i < len(e.Result.Times) {
					took = e.Result.Times[i]
				}
				tc := testcase{Classname: file, Name: junitAttr(fmt.Sprintf("line %d: %s", h.Pos.Line, h.Text)), Time: seconds(took)}
				switch statementStatus(o) {
				case "STOP":
					tc.Error = &failure{Message: junitAttr(errText(o.Err())), Type: "dpcheck.stopped", Text: text}
				case "ERROR":
					tc.Error = &failure{Message: junitAttr(errText(o.Err())), Type: "dpcheck.error", Text: text}
				case "FAIL":
					tc.Failure = &failure{Message: junitAttr(summary(o)), Type: "dpcheck.fail", Text: text}
				default:
					tc.SystemOut = text
				}
				s.Cases = append(s.Cases, tc)
			}
		}
		s.Tests = len(s.Cases)
		doc.Tests += s.Tests
		doc.Failures += s.Failures
		doc.Errors += s.Errors
		doc.Suites = append(doc.Suites, s)
	}
	doc.Time = seconds(total)
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	b.WriteString("\n")
	_, err := w.Write(b.Bytes())
	return err
}

// seconds writes a duration as JUnit's time attribute: seconds, to the
// millisecond.
func seconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

// summary says in one line how a statement's outcome differs from its
// expectation.
func summary(o property.Outcome) string {
	if err := o.Err(); err != nil {
		var refused *property.RefusalError
		switch {
		case stopped(err):
			return errText(err)
		case errors.As(err, &refused): // the annotation has the position
			msgs := make([]string, len(refused.Why))
			for i, e := range refused.Why {
				msgs[i] = e.Msg
			}
			return "refused: " + strings.Join(msgs, "; ")
		}
		return "error: " + err.Error()
	}
	if k := view(o); k.failure != nil {
		return k.failure()
	}
	if isCheck(o) {
		return fmt.Sprintf("%s, expected %s", o.Value(), o.Statement().Head().Expect.Text)
	}
	return fmt.Sprintf("got %s, expected %s", o.Value(), o.Statement().Head().Expect.Text)
}

// GitHub writes GitHub Actions workflow commands: an error annotation on
// the line of every statement that does not meet its expectation and of
// every parse or semantic error, then a notice with the totals.
func GitHub(out io.Writer, entries []Entry) error {
	var b bytes.Buffer
	w := &b
	for _, e := range entries {
		if st := stateOf(e); st != checked {
			var list source.ErrorList
			if errors.As(e.Err, &list) {
				for _, x := range list {
					file := e.File
					if x.Pos.Filename != "" {
						file = x.Pos.Filename // the PRISM model of a properties file, say
					}
					fmt.Fprintf(w, "::error file=%s,line=%d,col=%d,title=%s::%s\n",
						ghProp(file), x.Pos.Line, x.Pos.Column, ghProp("dpcheck: invalid file"), ghData(x.Msg))
				}
			} else {
				title := "dpcheck: cannot check"
				if st == stoppedBefore {
					title = "dpcheck: stopped before checking"
				}
				fmt.Fprintf(w, "::error file=%s,title=%s::%s\n", ghProp(e.File), ghProp(title), ghData(errText(e.Err)))
			}
			continue
		}
		for _, o := range e.Result.Statements {
			if o.Pass() {
				continue
			}
			h := o.Statement().Head()
			title := "dpcheck: " + h.Text
			if e.Consts != "" {
				title += " (" + e.Consts + ")"
			}
			fmt.Fprintf(w, "::error file=%s,line=%d,col=%d,title=%s::%s\n", ghProp(e.File), h.Pos.Line, h.Pos.Column,
				ghProp(title), ghData(summary(o)))
		}
	}
	fmt.Fprintf(w, "::notice title=dpcheck::%s\n", ghData(tally(entries).String()))
	_, err := out.Write(b.Bytes())
	return err
}

// dedent removes the text report's indentation.
func dedent(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, pad)
	}
	return strings.Join(lines, "\n")
}
