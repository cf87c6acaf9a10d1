package source_test

import (
	"testing"

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
