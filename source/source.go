// Package source holds what every front end of dpcheck shares about source
// text: positions (file:line:col, columns counting characters), positioned
// errors, lists of them reported all at once, and their rendering for a
// terminal with the offending line and a caret. It imports nothing of
// dpcheck's.
package source

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Position is a place in a source file. Line and Column start at 1 (Column
// counts characters, not bytes); Offset is the byte offset.
type Position struct {
	Filename     string
	Offset       int
	Line, Column int
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
	// Limit names the resource limit the error reports ("states",
	// "transitions", "bits", …; see builder.LimitKind), or is empty. A
	// command line adds from it how to raise the limit.
	Limit string
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

// Sort orders the errors by position (by file first, when they are in
// several) and removes exact duplicates.
func (l *ErrorList) Sort() {
	sort.SliceStable(*l, func(i, j int) bool {
		a, b := (*l)[i].Pos, (*l)[j].Pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
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

// MaxQuoted bounds the characters of a source line that Pretty quotes:
// a longer line is quoted around the error's column, its cut ends marked
// with "…".
const MaxQuoted = 120

// Pretty formats the errors for a terminal: each "file:line:col: message"
// followed by the offending source line (or the part of it around the
// column, for a long line) and a caret under the column.
func (l ErrorList) Pretty(src string) string {
	return l.PrettyIn(func(string) (string, bool) { return src, true })
}

// PrettyIn is Pretty for errors in several files: text returns the source
// of the file an error names (false when it is not known: the error is
// written without its line).
func (l ErrorList) PrettyIn(text func(filename string) (string, bool)) string {
	var b strings.Builder
	for _, e := range l {
		b.WriteString(e.Error())
		b.WriteByte('\n')
		src, known := text(e.Pos.Filename)
		if !known {
			continue
		}
		line, ok := sourceLine(src, e.Pos)
		if !ok {
			continue
		}
		// Columns count characters (as positions do), so does the caret.
		runes := []rune(line)
		col := min(len(runes), max(0, e.Pos.Column-1))
		from, to := 0, len(runes)
		prefix, suffix := "", ""
		if len(runes) > MaxQuoted {
			from = max(0, col-MaxQuoted/2)
			to = min(len(runes), from+MaxQuoted)
			from = max(0, to-MaxQuoted)
			if from > 0 {
				prefix = "…"
			}
			if to < len(runes) {
				suffix = "…"
			}
		}
		b.WriteString("    ")
		b.WriteString(prefix + printable(string(runes[from:to])) + suffix)
		b.WriteString("\n    ")
		b.WriteString(strings.Repeat(" ", col-from+len([]rune(prefix))))
		b.WriteString("^\n")
	}
	return b.String()
}

// sourceLine returns the line of src that p is on, without its line end.
func sourceLine(src string, p Position) (string, bool) {
	if p.Line < 1 {
		return "", false
	}
	start := 0
	if p.Offset > 0 && p.Offset <= len(src) {
		start = strings.LastIndexByte(src[:p.Offset], '\n') + 1
	} else {
		for range p.Line - 1 {
			i := strings.IndexByte(src[start:], '\n')
			if i < 0 {
				return "", false
			}
			start += i + 1
		}
	}
	end := strings.IndexByte(src[start:], '\n')
	if end < 0 {
		end = len(src) - start
	}
	return strings.TrimRight(src[start:start+end], "\r"), true
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

// File is a source text and its name; it turns byte offsets into
// positions.
type File struct {
	Name   string
	Text   string
	starts []int // byte offset of each line's first character, computed when needed
	// ascii[i] is 1 when line i is ASCII, 2 when it is not, 0 unknown.
	ascii []uint8
	// The last column computed on a non-ASCII line, to count on from it.
	lastOff, lastCol int
}

// NewFile returns the file name with contents text.
func NewFile(name, text string) *File { return &File{Name: name, Text: text} }

func (f *File) lines() []int {
	if f.starts != nil {
		return f.starts
	}
	src := f.Text
	f.starts = []int{0}
	for i := 0; ; {
		j := strings.IndexByte(src[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		f.starts = append(f.starts, i)
	}
	return f.starts
}

// line returns the 1-based line of offset off.
func (f *File) line(off int) int {
	starts := f.lines()
	lo, hi := 0, len(starts)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if starts[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + 1
}

// Position returns the position of byte offset off; the column counts
// characters, not bytes, and a byte-order mark at the start is not one.
func (f *File) Position(off int) Position {
	off = max(0, min(off, len(f.Text)))
	line := f.line(off)
	start := f.lines()[line-1]
	if start == 0 && strings.HasPrefix(f.Text, "\uFEFF") && off >= len("\uFEFF") {
		start = len("\uFEFF")
	}
	return Position{Filename: f.Name, Offset: off, Line: line, Column: f.column(line, start, off)}
}

// column counts the characters from start (line's first) to off, in
// constant time on an ASCII line and counting on from the last column
// asked on another line.
func (f *File) column(line, start, off int) int {
	if f.ascii == nil {
		f.ascii = make([]uint8, len(f.lines()))
	}
	if f.ascii[line-1] == 0 {
		end := len(f.Text)
		if line < len(f.starts) {
			end = f.starts[line]
		}
		f.ascii[line-1] = 2
		if isASCII(f.Text[start:end]) {
			f.ascii[line-1] = 1
		}
	}
	if f.ascii[line-1] == 1 {
		return off - start + 1
	}
	from, col := start, 1
	if f.lastCol > 0 && f.lastOff >= start && f.lastOff <= off {
		from, col = f.lastOff, f.lastCol
	}
	col += utf8.RuneCountInString(f.Text[from:off])
	f.lastOff, f.lastCol = off, col
	return col
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
