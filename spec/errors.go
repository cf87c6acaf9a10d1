package spec

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// Position is a place in a .dp file. Line and Column start at 1 (Column
// counts characters, not bytes); Offset is the byte offset.
type Position struct {
	Filename     string
	Offset       int
	Line, Column int
}

func pos(p lexer.Position) Position {
	return Position{Filename: p.Filename, Offset: p.Offset, Line: p.Line, Column: p.Column}
}

// String formats the position as "file:line:col".
func (p Position) String() string {
	name := p.Filename
	if name == "" {
		name = "<input>"
	}
	return fmt.Sprintf("%s:%d:%d", name, p.Line, p.Column)
}

// Error is a parse or semantic error at a position.
type Error struct {
	Pos Position
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// ErrorList is every error found in a file, sorted by position. It
// implements error.
type ErrorList []*Error

func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Sort orders the errors by position and removes exact duplicates.
func (l *ErrorList) Sort() {
	sort.SliceStable(*l, func(i, j int) bool {
		a, b := (*l)[i].Pos, (*l)[j].Pos
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	out := (*l)[:0]
	for i, e := range *l {
		if i > 0 && e.Pos == (*l)[i-1].Pos && e.Msg == (*l)[i-1].Msg {
			continue
		}
		out = append(out, e)
	}
	*l = out
}

// Err returns the list as an error, or nil when it is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Pretty formats the errors for a terminal: each "file:line:col: message"
// followed by the offending source line and a caret under the column.
func (l ErrorList) Pretty(src string) string {
	lines := strings.Split(src, "\n")
	var b strings.Builder
	for _, e := range l {
		b.WriteString(e.Error())
		b.WriteByte('\n')
		if e.Pos.Line >= 1 && e.Pos.Line <= len(lines) {
			line := strings.TrimRight(lines[e.Pos.Line-1], "\r")
			b.WriteString("    ")
			b.WriteString(printable(line))
			b.WriteString("\n    ")
			// Columns count characters (as participle does), so does the caret.
			col := min(utf8.RuneCountInString(line), max(0, e.Pos.Column-1))
			b.WriteString(strings.Repeat(" ", col))
			b.WriteString("^\n")
		}
	}
	return b.String()
}

// printable replaces tabs by spaces and other control or invalid
// characters by "·", so that a source line prints on one terminal line.
func printable(line string) string {
	var b strings.Builder
	for _, r := range line {
		switch {
		case r == '\t':
			b.WriteByte(' ')
		case r == utf8.RuneError || unicode.IsControl(r):
			b.WriteString("·")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
