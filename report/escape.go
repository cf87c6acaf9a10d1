package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/dpcheck/dpcheck/source"
)

// Every rendering shows names, labels, file names, statements and
// messages that came from the files checked — which an attacker may have
// written — through one escaping of its own kind, where they enter the
// output:
//
//   - text (and the texts of JUnit and Markdown): textSafe, through printf;
//     the whole report then passes guardLines;
//   - GitHub annotations: ghData and ghProp;
//   - JUnit XML: junitAttr and junitText, then encoding/xml;
//   - JSON: encoding/json, then jsonSafe;
//   - Markdown: mdCode and mdBlock.

// textSafe makes a text printable on one terminal line of a report: every
// control character, line end, and character that changes the direction
// of text is written as a Go escape (source.Escape); "##[" (the legacy
// form of a GitHub workflow command, read anywhere in a line) becomes
// "##\x5b", and a leading "::" (a workflow command, after spaces) becomes
// "\x3a:". Ordinary text, non-ASCII letters included, is unchanged, and
// textSafe(textSafe(s)) == textSafe(s).
func textSafe(s string) string {
	s = source.Escape(s)
	if strings.Contains(s, "##[") {
		s = strings.ReplaceAll(s, "##[", `##\x5b`)
	}
	if t := strings.TrimLeft(s, " "); strings.HasPrefix(t, "::") {
		s = s[:len(s)-len(t)] + `\x3a` + t[1:]
	}
	return s
}

// textWidth is how many characters s takes in the text report, escaped.
func textWidth(s string) int { return utf8.RuneCountInString(textSafe(s)) }

// MaxAlign is the widest name a column of the text report is aligned to:
// a longer one (a state named with 10 000 characters) is written with no
// padding rather than pad every other line to its width.
const MaxAlign = 60

// alignTo returns the width of a column that holds width so far and s.
func alignTo(width int, s string) int {
	if n := textWidth(s); n <= MaxAlign {
		return max(width, n)
	}
	return width
}

// safeArgs escapes the arguments of a format that are text — strings,
// errors and fmt.Stringers — with textSafe; numbers are kept.
func safeArgs(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		switch a := a.(type) {
		case string:
			out[i] = textSafe(a)
		case error:
			out[i] = textSafe(a.Error())
		case fmt.Stringer:
			out[i] = textSafe(a.String())
		default:
			out[i] = a
		}
	}
	return out
}

// printf is fmt.Fprintf for the text report: the format is dpcheck's own
// words and is written as it is; every text argument is data and is
// escaped (textSafe), so that a name never ends a line or moves the
// cursor.
func printf(w io.Writer, format string, args ...any) {
	fmt.Fprintf(w, format, safeArgs(args)...)
}

// printLines writes a block of dpcheck's own lines (an error list with
// its source lines and carets), each escaped on its own.
func printLines(w io.Writer, block string) {
	lines := strings.Split(strings.TrimSuffix(block, "\n"), "\n")
	for _, l := range lines {
		fmt.Fprintln(w, textSafe(l))
	}
}

// guardLines is the last line of defence of a text written to a CI log: a
// line that would read as a workflow command — "::" after leading spaces,
// or "##[" anywhere — is defused as textSafe does. The report's own lines
// never look so; a line that does carries data that escaped textSafe (two
// names side by side, say).
func guardLines(b []byte) []byte {
	if !bytes.Contains(b, []byte("::")) && !bytes.Contains(b, []byte("##[")) {
		return b
	}
	lines := strings.SplitAfter(string(b), "\n")
	for i, l := range lines {
		body := strings.TrimSuffix(l, "\n")
		lines[i] = textSafe(body) + l[len(body):]
	}
	return []byte(strings.Join(lines, ""))
}

// ghData escapes a workflow command's message: the text escaped as in the
// text report (so that nothing in it is a line end or a control
// character), then the runner's own escapes of %, CR and LF.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(textSafe(s))
}

// ghProp escapes a workflow command's property value: as ghData, and the
// property separators : and ,.
func ghProp(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(textSafe(s))
}

// junitAttr is a JUnit attribute: one line, escaped as in the text report
// (encoding/xml then escapes what XML needs).
func junitAttr(s string) string { return textSafe(s) }

// junitText is the text of a JUnit element: lines of the text report,
// each escaped on its own.
func junitText(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = textSafe(l)
	}
	return strings.Join(lines, "\n")
}

// jsonSafe rewrites, in an encoded JSON document, every unsafe character
// that encoding/json leaves as it is (DEL, C1, the direction controls) as
// a \u escape, and the [ of "##[" (a legacy workflow command) as \u005b.
// Such characters can only be inside strings, whose values are unchanged:
// the document says the same, and a terminal or CI log that shows it raw
// is not driven by it.
func jsonSafe(b []byte) []byte {
	b = bytes.ReplaceAll(b, []byte("##["), []byte(`##\u005b`))
	if !needsJSONEscape(b) {
		return b
	}
	var out bytes.Buffer
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r >= 0x20 && source.Unsafe(r) { // C0 is whitespace between tokens, escaped in strings
			fmt.Fprintf(&out, `\u%04x`, r)
		} else {
			out.Write(b[i : i+size])
		}
		i += size
	}
	return out.Bytes()
}

func needsJSONEscape(b []byte) bool {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r >= 0x20 && source.Unsafe(r) {
			return true
		}
		i += size
	}
	return false
}
