package source_test

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dpcheck/dpcheck/source"
	"github.com/google/go-cmp/cmp"
)

// TestPosition: lines and columns of byte offsets, columns counting
// characters; a byte-order mark at the start is not a column.
func TestPosition(t *testing.T) {
	f := source.NewFile("f.dp", "ab\nε = δ\n\ncd")
	for _, tc := range []struct {
		off       int
		line, col int
	}{
		{0, 1, 1}, {1, 1, 2}, {2, 1, 3}, {3, 2, 1}, {5, 2, 2}, {8, 2, 5}, {7, 2, 4}, {11, 3, 1}, {12, 4, 1}, {14, 4, 3}, {99, 4, 3},
	} {
		p := f.Position(tc.off)
		if p.Line != tc.line || p.Column != tc.col {
			t.Errorf("offset %d: %d:%d, want %d:%d", tc.off, p.Line, p.Column, tc.line, tc.col)
		}
	}
	bom := source.NewFile("b.dp", "\uFEFFmodel")
	if p := bom.Position(len("\uFEFF") + 2); p.Line != 1 || p.Column != 3 {
		t.Errorf("after a byte-order mark: %d:%d, want 1:3", p.Line, p.Column)
	}
}

func TestPretty(t *testing.T) {
	src := "x\n" + "check dp(eps = ε)\n"
	f := source.NewFile("m.dp", src)
	list := source.ErrorList{{Pos: f.Position(17), Msg: "no ε here"}}
	want := "m.dp:2:16: no ε here\n    check dp(eps = ε)\n                   ^\n"
	if diff := cmp.Diff(want, list.Pretty(src)); diff != "" {
		t.Errorf("Pretty (-want +got):\n%s", diff)
	}
}

// TestPositionNonASCIIStart: the first position asked, on a line that is
// not ASCII, is counted from the line's start.
func TestPositionNonASCIIStart(t *testing.T) {
	f := source.NewFile("f.dp", "\xed\xa0")
	if p := f.Position(0); p.Line != 1 || p.Column != 1 {
		t.Errorf("offset 0: %d:%d, want 1:1", p.Line, p.Column)
	}
}

// TestPrettyEscapes: control characters, bidirectional-text controls,
// separators and invalid bytes of a quoted line and of a message are
// written escaped, and the caret stays under the character of the column.
func TestPrettyEscapes(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		col        int
		msg, want  string
	}{
		{"ESC", "a\x1b[31mb", 7, "x", "f:1:7: x\n    a\\x1b[31mb\n             ^\n"},
		{"NUL and CR", "a\x00b\rc", 5, "y", "f:1:5: y\n    a\\x00b\\x0dc\n              ^\n"},
		{"bidi override", "ab\u202ecd\u2066e", 4, "z", "f:1:4: z\n    ab\\u202ecd\\u2066e\n            ^\n"},
		{"invalid byte", "a\xffb", 3, "w", "f:1:3: w\n    a\\xffb\n         ^\n"},
		{"tab", "\tx", 2, "v", "f:1:2: v\n     x\n     ^\n"},
		{"message", "ok", 1, "bad \x1b]8;;\n\u202e", "f:1:1: bad \\x1b]8;;\\n\\u202e\n    ok\n    ^\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			list := source.ErrorList{{Pos: source.Position{Filename: "f", Line: 1, Column: tc.col, Offset: -1}, Msg: tc.msg}}
			if diff := cmp.Diff(tc.want, list.Pretty(tc.line+"\n")); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestPrettyLongLine: a long line of ordinary text is quoted around the
// column, 120 characters, as before escapes were shown; a long line of
// escapes is quoted within about 120 cells too.
func TestPrettyLongLine(t *testing.T) {
	line := strings.Repeat("abcdefghij", 30) // 300 characters
	for _, col := range []int{1, 50, 61, 62, 150, 250, 300, 301} {
		list := source.ErrorList{{Pos: source.Position{Filename: "f", Line: 1, Column: col, Offset: -1}, Msg: "m"}}
		// The window of the earlier rendering: 60 characters before the
		// column, 120 in all, moved back inside the line at its ends.
		c := col - 1
		from := max(0, c-60)
		to := min(len(line), from+120)
		from = max(0, to-120)
		pre, suf := "", ""
		if from > 0 {
			pre = "…"
		}
		if to < len(line) {
			suf = "…"
		}
		caret := c - from
		if pre != "" {
			caret++
		}
		want := "f:1:" + strconv.Itoa(col) + ": m\n    " + pre + line[from:to] + suf + "\n    " + strings.Repeat(" ", caret) + "^\n"
		if diff := cmp.Diff(want, list.Pretty(line)); diff != "" {
			t.Errorf("column %d (-want +got):\n%s", col, diff)
		}
	}
	esc := strings.Repeat("\x1b", 1000)
	list := source.ErrorList{{Pos: source.Position{Filename: "f", Line: 1, Column: 500, Offset: -1}, Msg: "m"}}
	got := strings.Split(list.Pretty(esc), "\n")
	if n := utf8.RuneCountInString(got[1]); n > 4+120+2 {
		t.Errorf("the quoted line has %d characters: %q", n, got[1])
	}
	runeIndex := func(s, sub string) int { return utf8.RuneCountInString(s[:strings.Index(s, sub)]) }
	if i, j := runeIndex(got[2], "^"), runeIndex(got[1], `\x1b`); i < j || (i-j)%4 != 0 {
		t.Errorf("the caret is not under an escape:\n%s\n%s", got[1], got[2])
	}
}

// TestQuote: an excerpt of at most MaxExcerpt characters, escaped as Go
// quotes strings, with the length of what is cut.
func TestQuote(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"abc", `"abc"`},
		{"a\x1b[2Jb\n", `"a\x1b[2Jb\n"`},
		{"\u202egnp.exe", `"\u202egnp.exe"`},
		{"é\xff", `"é\xff"`},
		{strings.Repeat("x", 40), `"` + strings.Repeat("x", 40) + `"`},
		{strings.Repeat("x", 1<<20), `"` + strings.Repeat("x", 40) + `"… (1,048,576 bytes)`},
		{strings.Repeat("é", 41), `"` + strings.Repeat("é", 40) + `"… (82 bytes)`},
	} {
		if got := source.Quote(tc.in); got != tc.want {
			t.Errorf("Quote(%.50q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// TestEscape: ordinary text, non-ASCII letters included, is unchanged;
// what could drive a terminal or break a line is escaped, a tab too.
func TestEscape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"m.dp:1:2: ε ≤ 1 ok", "m.dp:1:2: ε ≤ 1 ok"},
		{"a\tb", `a\tb`},
		{"a\x1b[31mb\r\n\x00\x7f\u0085", `a\x1b[31mb\r\n\x00\x7f\u0085`},
		{"\u202a\u202e\u2066\u2069\u200f\u061c\u2028", `\u202a\u202e\u2066\u2069\u200f\u061c\u2028`},
		{"a\xffb", `a\xffb`},
	} {
		if got := source.Escape(tc.in); got != tc.want {
			t.Errorf("Escape(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// TestDedup: of the errors at one position, the first is kept.
func TestDedup(t *testing.T) {
	at := func(line int) source.Position { return source.Position{Filename: "f", Line: line, Column: 1} }
	l := source.ErrorList{{Pos: at(1), Msg: "a[1]"}, {Pos: at(1), Msg: "a[2]"}, {Pos: at(2), Msg: "b"}, {Pos: at(2), Msg: "c"}, {Pos: at(3), Msg: "d"}}
	got := l.Dedup()
	if len(got) != 3 || got[0].Msg != "a[1]" || got[1].Msg != "b" || got[2].Msg != "d" {
		t.Errorf("Dedup: %v", got)
	}
}
