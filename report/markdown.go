package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"
)

// The Markdown summary, made for a CI's job summary (GitHub's
// $GITHUB_STEP_SUMMARY): a heading with the totals, a table of every
// file and statement with its result, then each failure with its full
// report (the counterexample) in a code block.

// MaxMarkdownRows and MaxMarkdownDetails bound the summary (GitHub takes
// at most 1 MiB of it per step): the rows of its table and the failures
// it details; the others are counted.
const (
	MaxMarkdownRows    = 1000
	MaxMarkdownDetails = 100
)

// Markdown writes entries as a Markdown summary. Names, statements and
// messages are escaped (mdText, mdBlock): nothing from the files is read
// as Markdown or HTML.
func Markdown(w io.Writer, entries []Entry) error {
	var b bytes.Buffer
	type row struct{ status, file, line, statement string }
	type detail struct{ head, body string }
	var rows []row
	var details []detail
	for _, e := range entries {
		file := mdText(e.name())
		if st := stateOf(e); st != checked {
			var t bytes.Buffer
			writeErr(&t, e)
			status, what := "**ERROR**", "the file was not checked"
			if st == stoppedBefore {
				status, what = "**STOP**", "stopped before its checks ran"
			}
			rows = append(rows, row{status, file, "", what})
			details = append(details, detail{status + " " + file, t.String()})
			continue
		}
		for _, o := range e.Result.Statements {
			h := o.Statement().Head()
			status := statementStatus(o)
			if status != "PASS" {
				status = "**" + status + "**"
			}
			line := fmt.Sprint(h.Pos.Line)
			rows = append(rows, row{status, file, line, mdText(h.Text)})
			if status != "PASS" {
				var t bytes.Buffer
				textOutcome(&t, o)
				details = append(details, detail{fmt.Sprintf("%s %s line %s: %s", status, file, line, mdText(h.Text)), dedent(t.String())})
			}
		}
	}
	fmt.Fprintf(&b, "### dpcheck: %s", tally(entries))
	b.WriteString("\n\n")
	if len(rows) > 0 {
		b.WriteString("| result | file | line | statement |\n|---|---|--:|---|\n")
		for i, r := range rows {
			if i == MaxMarkdownRows {
				fmt.Fprintf(&b, "\n%s more not shown.\n", count(len(rows)-i, "row"))
				break
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", r.status, r.file, r.line, r.statement)
		}
		b.WriteString("\n")
	}
	for i, d := range details {
		if i == MaxMarkdownDetails {
			fmt.Fprintf(&b, "%s more not shown.\n\n", count(len(details)-i, "failure"))
			break
		}
		fmt.Fprintf(&b, "%s\n\n%s\n", d.head, mdBlock(d.body))
	}
	_, err := w.Write(b.Bytes())
	return err
}

// mdText makes a text from the files plain Markdown text, in a table cell
// or a paragraph: escaped as in the text report (textSafe: one line, no
// control character), then with a backslash before every character that
// Markdown as GitHub renders it may read as markup — \ ` * _ [ ] < > & |
// # ! ~ $ and the : . @ of autolinks — so that nothing in it is emphasis,
// a link, an autolink, HTML, an entity, a code span, math or a table's
// cell separator. GitHub shows the text as it is.
func mdText(s string) string {
	s = textSafe(s)
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 && strings.ContainsRune("\\`*_[]<>&|#!~$:.@", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// mdBlock puts lines of the text report in a fenced code block, whose
// fence is longer than any run of backticks in them (so that no line
// closes it); every line is escaped as in the text report.
func mdBlock(text string) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	longest := 0
	for i, l := range lines {
		lines[i] = textSafe(l)
		run := 0
		for _, r := range lines[i] {
			if r == '`' {
				run++
				longest = max(longest, run)
			} else {
				run = 0
			}
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	return fence + "text\n" + strings.Join(lines, "\n") + "\n" + fence + "\n"
}
