// Package source holds what every front end of dpcheck shares about source
// text: positions (file:line:col, columns counting characters), positioned
// errors, lists of them reported all at once, and their rendering for a
// terminal with the offending line and a caret, short escaped excerpts of
// a file's text for messages (Quote), and the confinement of the files a
// source names below a root directory (Confine). It imports nothing of
// dpcheck's.
package source

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
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
	// "transitions", "bits", …; see model.LimitKind), or is empty. A
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

// Dedup keeps the first error at each position of a sorted list: an
// expression written out several times — a formula at each use, an
// array's elements read at a computed index, a command split on one —
// reports its error once, where it is written.
func (l ErrorList) Dedup() ErrorList {
	out := l[:0]
	for _, e := range l {
		if len(out) > 0 && e.Pos == out[len(out)-1].Pos {
			continue
		}
		out = append(out, e)
	}
	return out
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
// written without its line). Control characters, bidirectional-text
// controls and invalid UTF-8, in the quoted line and in the message, are
// written escaped (\x1b, \u202e, \xff), never raw, so that a file cannot
// move the cursor, recolour the terminal or reorder what is shown.
func (l ErrorList) PrettyIn(text func(filename string) (string, bool)) string {
	var b strings.Builder
	for _, e := range l {
		b.WriteString(Escape(e.Error()))
		b.WriteByte('\n')
		src, known := text(e.Pos.Filename)
		if !known {
			continue
		}
		line, ok := sourceLine(src, e.Pos)
		if !ok {
			continue
		}
		// Columns count characters (as positions do); each is shown as
		// one cell or, escaped, as several, and the caret counts cells.
		units := displayUnits(line)
		col := min(len(units), max(0, e.Pos.Column-1))
		from, to := window(units, col)
		prefix, suffix := "", ""
		if from > 0 {
			prefix = "…"
		}
		if to < len(units) {
			suffix = "…"
		}
		b.WriteString("    ")
		b.WriteString(prefix)
		caret := len([]rune(prefix))
		for i, u := range units[from:to] {
			b.WriteString(u)
			if from+i < col {
				caret += utf8.RuneCountInString(u)
			}
		}
		b.WriteString(suffix)
		b.WriteString("\n    ")
		b.WriteString(strings.Repeat(" ", caret))
		b.WriteString("^\n")
	}
	return b.String()
}

// window returns the units [from, to) of a line to quote around the
// column col: all of them when they take at most MaxQuoted cells, else
// about MaxQuoted cells with col about in the middle.
func window(units []string, col int) (from, to int) {
	width := func(u string) int { return utf8.RuneCountInString(u) }
	total := 0
	for _, u := range units {
		total += width(u)
	}
	if total <= MaxQuoted {
		return 0, len(units)
	}
	// Half the cells before the column, then the rest after it; what the
	// end of the line leaves unused goes before the column.
	from, used := col, 0
	for from > 0 && used+width(units[from-1]) <= MaxQuoted/2 {
		from--
		used += width(units[from])
	}
	to = from
	used = 0
	for to < len(units) && used+width(units[to]) <= MaxQuoted {
		used += width(units[to])
		to++
	}
	for from > 0 && used+width(units[from-1]) <= MaxQuoted {
		from--
		used += width(units[from])
	}
	return from, to
}

// displayUnits splits a source line into what each of its characters
// shows as: the character itself, a space for a tab, or its escape. An
// invalid byte is one character, as positions count it.
func displayUnits(line string) []string {
	units := make([]string, 0, len(line))
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		units = append(units, display(line[i:i+size], r))
		i += size
	}
	return units
}

// display is how the character text (r decoded) is shown.
func display(text string, r rune) string {
	switch {
	case r == '\t':
		return " "
	case r == utf8.RuneError && len(text) == 1:
		return fmt.Sprintf(`\x%02x`, text[0])
	case Unsafe(r):
		if r < 0x80 {
			return fmt.Sprintf(`\x%02x`, r)
		}
		return fmt.Sprintf(`\u%04x`, r)
	}
	return text
}

// MaxExcerpt bounds the characters of a file's text that Quote quotes.
const MaxExcerpt = 40

// Quote returns text, a piece of a file an error is about, quoted for the
// error's message as strconv.Quote quotes it (control characters,
// bidirectional-text controls and invalid bytes escaped) and cut to its
// first MaxExcerpt characters, with "…" and its length, when it is longer:
// a message carries at most a short excerpt of what a file holds.
func Quote(text string) string {
	n, cut := 0, len(text)
	for i := range text {
		if n == MaxExcerpt {
			cut = i
			break
		}
		n++
	}
	if cut == len(text) {
		return strconv.Quote(text)
	}
	return fmt.Sprintf("%s… (%s bytes)", strconv.Quote(text[:cut]), thousands(len(text)))
}

// thousands writes n with thousands separators: 1,048,576.
func thousands(n int) string {
	s := strconv.Itoa(n)
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
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
