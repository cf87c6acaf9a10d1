package report

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/source"
)

// Hostile names: each would do harm if a rendering wrote it raw.
var (
	// a newline then a workflow command: a CI log would run it
	cmdName = "a\n::error file=x::owned"
	// clears a terminal; NUL, CR (rewrites the line) and U+202E (shows
	// the rest backwards)
	ttyName = "b\x1b[2J\x00\r\u202e"
	// the legacy workflow command, anywhere in a line, and a leading one
	legacyName = "##[error]legacy"
	leadName   = "::warning::lead"
	// 10 000 characters
	longName = strings.Repeat("long", 2500)
	// a label that is Markdown and HTML
	mdLabel = "<img src=x onerror=alert(1)>*[link](http://evil.example)*|$x$"
)

// hostileEntries are a file whose states and labels carry hostile names,
// checked (a counterexample names them), and a file of its own hostile
// name whose errors quote a hostile source line and name.
func hostileEntries(t *testing.T) []Entry {
	t.Helper()
	q := strconv.Quote
	src := strings.Join([]string{
		"chain {",
		"  state " + q(cmdName) + " (x = 1) [" + q(mdLabel) + "]",
		"  state " + q(ttyName) + " (x = 0)",
		"  state " + q(legacyName) + " (x = 2) [\"\x1b[2J\rraw\"]",
		"  state " + q(leadName),
		"  state " + q(longName) + " (x = 3)",
		"  state o",
		"  " + q(cmdName) + " -> " + q(leadName) + " : 3/4, o : 1/4",
		"  " + q(ttyName) + " -> " + q(leadName) + " : 1/4, o : 3/4",
		"  " + q(legacyName) + " -> " + q(leadName) + " : 1/2, o : 1/2",
		"  " + q(longName) + " -> " + q(leadName) + " : 1/2, o : 1/2",
		"}",
		"inputs " + q(cmdName) + ", " + q(ttyName) + ", " + q(legacyName) + ", " + q(longName),
		"neighbours " + q(cmdName) + " ~ " + q(ttyName) + ", " + q(ttyName) + " ~ " + q(legacyName),
		"check dp(eps = ln(2))",
		"query eps(delta = 0)",
		// the statement's own text holds a raw ESC and CR: a string may
		"query P=?[F \"\x1b[2J\rraw\"]",
		"check P>=1/2[X " + q(mdLabel) + "]",
		"query P=?[X " + q(mdLabel) + "] expect " + q(cmdName) + ": 3/4",
	}, "\n") + "\n"
	res, err := dpcheck.CheckSource(context.Background(), "hostile.dp", src)
	if err != nil {
		t.Fatalf("the hostile file does not load: %v", err)
	}
	badName := "evil\n::error file=z::f\x1b[31m.dp"
	bad := "chain {\n  state s\n}\ninputs \"\x1b[2J\u202enope\"\nneighbours s ~ \"" + cmdName[:1] + "\\n::error::x\"\ncheck dp(eps = ln(2))\n"
	_, berr := dpcheck.CheckSource(context.Background(), badName, bad)
	if berr == nil {
		t.Fatal("the broken hostile file loads")
	}
	return stopClocks([]Entry{
		{File: "hostile.dp", Source: src, Result: res},
		{File: badName, Source: bad, Err: berr},
	})
}

// TestHostileNames renders hostile names, labels, statements, file names
// and messages through every format: the output has no control character
// (but the line ends dpcheck writes), no direction control, no line that
// a CI runner reads as a workflow command but dpcheck's annotations; the
// JSON document keeps every name exactly; the JUnit report is XML. The
// outputs are golden: testdata/golden/hostile_FORMAT.txt.
func TestHostileNames(t *testing.T) {
	entries := hostileEntries(t)
	for _, format := range Formats() {
		var b bytes.Buffer
		if err := Write(&b, format, entries, "test"); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if !utf8.ValidString(out) {
			t.Errorf("%s: not UTF-8", format)
		}
		for i, r := range out {
			if r != '\n' && source.Unsafe(r) {
				t.Errorf("%s: %U at byte %d: …%q…", format, r, i, out[max(0, i-40):min(len(out), i+40)])
				break
			}
		}
		for _, l := range strings.Split(out, "\n") {
			tl := strings.TrimLeft(l, " \t")
			if strings.Contains(l, "##[") {
				t.Errorf("%s: a legacy workflow command: %.80q", format, l)
			}
			if strings.HasPrefix(tl, "::") && !(format == "github" && (strings.HasPrefix(l, "::error file=") || strings.HasPrefix(l, "::notice title=dpcheck::"))) {
				t.Errorf("%s: a workflow command dpcheck did not write: %.80q", format, l)
			}
			if format == "github" && strings.HasPrefix(l, "::") && strings.Count(l, "::") > 2 && !strings.Contains(l, "%3A%3A") {
				// the data part holds "::" (harmless in data), the
				// properties never do unescaped
				if p := l[:strings.Index(l[2:], "::")+2]; strings.Contains(p[2:], ":") && !strings.HasPrefix(p, "::error file=") {
					t.Errorf("github: properties with a raw colon: %.80q", l)
				}
			}
		}
		switch format {
		case "json":
			var doc Document
			if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
				t.Fatalf("json: %v", err)
			}
			cx := doc.Files[0].Statements[0].Counterexample
			if cx == nil || cx.From.Name != cmdName || cx.To.Name != ttyName {
				t.Errorf("json: the counterexample does not keep the names exactly: %+v", cx)
			}
			if doc.Files[1].File != "evil\n::error file=z::f\x1b[31m.dp" {
				t.Errorf("json: the file name %q is not kept", doc.Files[1].File)
			}
			if !strings.Contains(out, `\u202e`) || !strings.Contains(out, `\u001b`) {
				t.Error("json: U+202E or ESC is not escaped")
			}
		case "junit":
			dec := xml.NewDecoder(&b)
			for {
				if _, err := dec.Token(); err == io.EOF {
					break
				} else if err != nil {
					t.Fatalf("junit: not XML: %v", err)
				}
			}
		case "text":
			for _, want := range []string{`counterexample: a\n::error file=x::owned (x=1) vs b\x1b[2J\x00\r\u202e (x=0)`, `##\x5berror]legacy`, `\x3a:warning::lead`} {
				if !strings.Contains(out, want) {
					t.Errorf("text lacks %q", want)
				}
			}
		case "markdown":
			checkMarkdown(t, out)
		}
		golden(t, filepath.Join("testdata", "golden", "hostile_"+format+".txt"), out)
	}
}

// checkMarkdown: outside code blocks, every character that is markup
// when written by the data (< [ ] $ ` ~ & and the : of a URL) is escaped,
// and every table row has its four cells.
func checkMarkdown(t *testing.T, out string) {
	t.Helper()
	inBlock := ""
	for _, l := range strings.Split(out, "\n") {
		if inBlock != "" {
			if l == inBlock {
				inBlock = ""
			}
			continue
		}
		if strings.HasPrefix(l, "```") {
			inBlock = strings.TrimSuffix(l, "text")
			continue
		}
		unescaped := func(c byte) int {
			n := 0
			for i := 0; i < len(l); i++ {
				if l[i] == '\\' {
					i++
				} else if l[i] == c {
					n++
				}
			}
			return n
		}
		for _, c := range []byte("<[]$`~&") {
			if unescaped(c) > 0 {
				t.Errorf("markdown: %q unescaped in %.100q", c, l)
			}
		}
		if strings.Contains(l, "http://") {
			t.Errorf("markdown: a URL in %.100q", l)
		}
		if strings.HasPrefix(l, "| ") && unescaped('|') != 5 {
			t.Errorf("markdown: a table row of %d cells: %.100q", unescaped('|')-1, l)
		}
	}
}

// golden compares out with the golden file path (-update rewrites it).
func golden(t *testing.T, path, out string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (-update writes it)", err)
	}
	if out != string(want) {
		t.Errorf("the output differs from %s (-update rewrites it)", path)
	}
}

// TestOrdinaryNamesUnchanged: names with non-ASCII letters, symbols and
// backslashes are printed as they are.
func TestOrdinaryNamesUnchanged(t *testing.T) {
	for _, s := range []string{"⊤", "⊥∞", "ε-δ", "Ωμέγα", "s0", `a\nb`, "x=1", "日本", "(top=2, u=1)", "🙂"} {
		if got := textSafe(s); got != s {
			t.Errorf("textSafe(%q) = %q", s, got)
		}
		if got := junitAttr(s); got != s {
			t.Errorf("junitAttr(%q) = %q", s, got)
		}
	}
	for _, s := range []string{cmdName, ttyName, legacyName, leadName, "\u2028\u2029\u061c\u200e\u200f\u2066\u2069\x7f\u0085"} {
		if once := textSafe(s); textSafe(once) != once {
			t.Errorf("textSafe is not idempotent on %q: %q then %q", s, once, textSafe(once))
		}
	}
	if got, want := textSafe("\u2028\u2029\u061c\u200e\u200f\u2066\u2069\x7f\u0085\t\xff"), `\u2028\u2029\u061c\u200e\u200f\u2066\u2069\x7f\u0085\t\xff`; got != want {
		t.Errorf("textSafe = %q, want %q", got, want)
	}
}
