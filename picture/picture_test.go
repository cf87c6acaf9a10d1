package picture_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"flag"
	"github.com/dpcheck/dpcheck/exact"
	"io"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/picture"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/verify"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestDOT(t *testing.T) {
	m, err := builder.Survey(big.NewRat(1, 2), big.NewRat(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	c := m.Chain
	pos, _ := c.Lookup("+")
	neg, _ := c.Lookup("-")
	y, _ := c.Lookup("Y")
	src, err := picture.DOT(c, picture.Highlight{From: pos, To: neg, Event: []int{y}, Title: "cx"})
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	for _, want := range []string{
		"digraph dpcheck {",
		`label="cx"`,
		// An input is a table: its name, valuation and labels, then one
		// row and port per transition, outlined in red when highlighted.
		`"+" [`, "shape=plain", `<TABLE BORDER="3" COLOR="red"`, `BGCOLOR="lightblue">+<BR/>x=1<BR/>[in_pos]</TD>`,
		`<TD PORT="p0"`, `<FONT POINT-SIZE="9">1/4</FONT>`, `<FONT POINT-SIZE="9">3/4</FONT>`,
		`"Y" [`, "shape=ellipse", "peripheries=2", "fillcolor=salmon",
		// Outputs in name order (no valuation): N, then Y.
		`"+":p0:e -> "N";`, `"+":p1:e -> "Y";`, `"-":p0:e -> "N";`, `"-":p1:e -> "Y";`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("DOT lacks %q:\n%s", want, s)
		}
	}
	// The + row to Y is 3/4: the second row of +'s table.
	if !regexp.MustCompile(`"\+" \[\n\s*shape=plain\n\s*label=<.*>1/4<.*>3/4<`).MatchString(s) {
		t.Errorf("+'s rows are not 1/4 (to N), 3/4 (to Y):\n%s", s)
	}
	if n := strings.Count(s, "fillcolor=salmon"); n != 1 {
		t.Errorf("%d salmon states, want 1", n)
	}
	// Absorbing states' probability-1 self-loops are not drawn.
	if strings.Contains(s, `"Y" -> "Y"`) || strings.Contains(s, `"N" -> "N"`) {
		t.Errorf("DOT draws the self-loops of outputs:\n%s", s)
	}
}

// TestDOTGeometricColumns: truncated_geometric(n = 5) is drawn with its
// inputs s0..s5 in a column on the left (rank=source) and its outputs
// t0..t5 in a column on the right (rank=sink), each held in valuation
// order by invisible edges; the whole text is kept in testdata.
func TestDOTGeometricColumns(t *testing.T) {
	m, err := builder.TruncatedGeometric(big.NewRat(1, 2), 5)
	if err != nil {
		t.Fatal(err)
	}
	src, err := picture.DOT(m.Chain, picture.NoHighlight)
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	in := column(t, s, "inputs")
	out := column(t, s, "outputs")
	if want := "rank=source|s0 s1 s2 s3 s4 s5|s0>s1 s1>s2 s2>s3 s3>s4 s4>s5"; in != want {
		t.Errorf("inputs column %q, want %q", in, want)
	}
	if want := "rank=sink|t0 t1 t2 t3 t4 t5|t0>t1 t1>t2 t2>t3 t3>t4 t4>t5"; out != want {
		t.Errorf("outputs column %q, want %q", out, want)
	}
	// Each input lists its six transitions in the outputs' order.
	for _, in := range []string{"s0", "s3", "s5"} {
		var got []string
		for _, m := range regexp.MustCompile(`"`+in+`":(p\d):e -> "(t\d)";`).FindAllStringSubmatch(s, -1) {
			got = append(got, m[1]+">"+m[2])
		}
		if want := "p0>t0 p1>t1 p2>t2 p3>t3 p4>t4 p5>t5"; strings.Join(got, " ") != want {
			t.Errorf("%s's edges %v, want %s", in, got, want)
		}
	}
	const golden = "testdata/geometric5.dot"
	if *update {
		if err := os.WriteFile(golden, src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if s != string(want) {
		t.Errorf("DOT differs from %s (-update rewrites it):\n%s", golden, s)
	}
}

// column summarises the subgraph name of DOT text as
// "rank=…|nodes|invisible edges".
func column(t *testing.T, dot, name string) string {
	t.Helper()
	m := regexp.MustCompile(`(?s)subgraph ` + name + ` \{(.*?)\n  \}`).FindStringSubmatch(dot)
	if m == nil {
		t.Fatalf("no subgraph %s in\n%s", name, dot)
	}
	body := m[1]
	rank := regexp.MustCompile(`rank=\w+`).FindString(body)
	if !strings.Contains(body, "style=invis") {
		t.Errorf("subgraph %s: its edges are not invisible", name)
	}
	var nodes, edges []string
	for _, m := range regexp.MustCompile(`(?m)^\s*"([^"]+)";$`).FindAllStringSubmatch(body, -1) {
		nodes = append(nodes, m[1])
	}
	for _, m := range regexp.MustCompile(`"([^"]+)" -> "([^"]+)";`).FindAllStringSubmatch(body, -1) {
		edges = append(edges, m[1]+">"+m[2])
	}
	return rank + "|" + strings.Join(nodes, " ") + "|" + strings.Join(edges, " ")
}

// TestDOTOrder: columns run in valuation order, then by name with numbers
// compared as numbers, whatever the order the states were added in; the
// sink comes last. A transition between two inputs runs on the column's
// right and does not constrain the layout.
func TestDOTOrder(t *testing.T) {
	b := chain.NewBuilder()
	v := func(x int64) chain.Valuation { return chain.Valuation{{Name: "x", Value: x}} }
	in10 := b.AddState("in10", v(2))
	in9 := b.AddState("in9", v(1))
	inA := b.AddState("a", v(2))
	out10 := b.AddState("o10", nil)
	out2 := b.AddState("o2", nil)
	for _, s := range []int{in10, in9, inA} {
		b.MarkInput(s)
	}
	half := big.NewRat(1, 2)
	b.AddTransition(in10, out10, half)
	b.AddTransition(in10, in9, big.NewRat(1, 4))
	b.SendRemainderToSink(in10)
	b.AddTransition(in9, out2, big.NewRat(1, 1))
	b.AddTransition(inA, out2, half)
	b.AddTransition(inA, out10, half)
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	src, err := picture.DOT(c, picture.NoHighlight)
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	if got, want := column(t, s, "inputs"), "rank=source|in9 a in10|in9>a a>in10"; got != want {
		t.Errorf("inputs column %q, want %q", got, want)
	}
	if got, want := column(t, s, "outputs"), "rank=sink|o2 o10 †|o2>o10 o10>†"; got != want {
		t.Errorf("outputs column %q, want %q", got, want)
	}
	// in10's rows follow the drawing order: in9, o10, †.
	for _, want := range []string{`"in10":p0:e -> "in9":e [constraint=false];`, `"in10":p1:e -> "o10";`, `"in10":p2:e -> "†";`, "fillcolor=grey85"} {
		if !strings.Contains(s, want) {
			t.Errorf("DOT lacks %q:\n%s", want, s)
		}
	}
}

// TestDOTSummary: a chain over MaxDOTStates states or MaxDOTTransitions
// transitions is drawn as a summary — the pair, the event with the pair's
// exact probabilities of it and of the rest, and the other inputs,
// interior states and outputs collapsed into nodes that count them; the
// largest chain drawn whole is not. The summary of the above-threshold
// model (930 states) is golden (testdata/above_threshold_summary.dot).
func TestDOTSummary(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{
		// 2n+2 states: n = 100 has 202.
		{100, "the chain has 202 states and 10 302 transitions"},
		// (n+1)² + n+1 transitions: n = 31 has 1056, in 64 states.
		{31, "the chain has 64 states and 1 056 transitions"},
	} {
		m, err := builder.TruncatedGeometric(big.NewRat(1, 2), tc.n)
		if err != nil {
			t.Fatal(err)
		}
		if !picture.Summarized(m.Chain) {
			t.Errorf("n = %d: not summarized", tc.n)
		}
		src, err := picture.DOT(m.Chain, picture.NoHighlight)
		if err != nil || !strings.Contains(string(src), tc.want) {
			t.Errorf("n = %d: error %v, DOT lacks %q:\n%s", tc.n, err, tc.want, src)
		}
	}
	// The largest geometric chain that is drawn whole: n = 30, 62 states
	// and 992 transitions.
	m, err := builder.TruncatedGeometric(big.NewRat(1, 2), 30)
	if err != nil {
		t.Fatal(err)
	}
	if picture.Summarized(m.Chain) {
		t.Error("n = 30 is summarized")
	}
	r, err := dpcheck.CheckSource(context.Background(), "at.dp", `model above_threshold(alpha_t = 1/4, alpha_q = 1/2, n = 9, k = 9, cmp = ">=")
check dp(eps = ln(16)) expect violated
`)
	if err != nil {
		t.Fatal(err)
	}
	h := picture.HighlightOf(r)
	src, err := picture.DOT(r.Prepared.Chain, h)
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	for _, want := range []string{"a summary: the chain has", "pair0 -> event [color=red", "pair1 -> event [color=blue", "worst event E*", "interior"} {
		if !strings.Contains(s, want) {
			t.Errorf("the summary lacks %q:\n%s", want, s)
		}
	}
	goldenFile(t, "testdata/above_threshold_summary.dot", src)
	if _, err := exec.LookPath("dot"); err == nil {
		out := filepath.Join(t.TempDir(), "s.svg")
		if err := picture.SVG(context.Background(), src, out); err != nil {
			t.Errorf("Graphviz does not render the summary: %v", err)
		}
	}
}

// goldenFile compares got with the file path (-update rewrites it).
func goldenFile(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (-update writes it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("the output differs from %s (-update rewrites it):\n%s", path, got)
	}
}

// TestMessagesNameNoFlags: the library's messages say nothing of the
// command line's flags.
func TestMessagesNameNoFlags(t *testing.T) {
	perr := picture.ProfilePlot(filepath.Join(t.TempDir(), "p.gif"), "t", nil, nil)
	for _, msg := range []string{picture.ErrNoGraphviz.Error(), perr.Error()} {
		if strings.Contains(msg, "--") {
			t.Errorf("message names a flag: %q", msg)
		}
	}
}

// fakeDot puts on PATH a dot that sleeps for a minute and returns the
// file its process ID is written to.
func fakeDot(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh for a fake dot")
	}
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	script := "#!/bin/sh\necho $$ > " + pidFile + "\nexec sleep 60\n"
	if err := os.WriteFile(filepath.Join(dir, "dot"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return pidFile
}

func TestSVGStopsWithContext(t *testing.T) {
	for _, tc := range []struct {
		name string
		ctx  func() (context.Context, context.CancelFunc)
		want error
	}{
		{"deadline", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 200*time.Millisecond)
		}, context.DeadlineExceeded},
		{"cancel", func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(200*time.Millisecond, cancel)
			return ctx, cancel
		}, context.Canceled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pidFile := fakeDot(t)
			ctx, cancel := tc.ctx()
			defer cancel()
			start := time.Now()
			err := picture.SVG(ctx, []byte("digraph {}"), filepath.Join(t.TempDir(), "m.svg"))
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want one that is %v", err, tc.want)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("SVG returned after %s", d)
			}
			// The fake dot was killed (and reaped).
			pid, err := os.ReadFile(pidFile)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat("/proc/" + strings.TrimSpace(string(pid))); err == nil {
				if stat, _ := os.ReadFile("/proc/" + strings.TrimSpace(string(pid)) + "/stat"); !strings.Contains(string(stat), ") Z ") {
					t.Errorf("the fake dot (pid %s) still runs", pid)
				}
			}
		})
	}
}

func TestSVGWithoutGraphviz(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	err := picture.SVG(context.Background(), []byte("digraph {}"), filepath.Join(t.TempDir(), "m.svg"))
	if !errors.Is(err, picture.ErrNoGraphviz) {
		t.Errorf("error %v, want ErrNoGraphviz", err)
	}
}

// TestSVG renders truncated_geometric(n = 5) when Graphviz is installed.
func TestSVG(t *testing.T) {
	if _, err := exec.LookPath("dot"); err != nil {
		t.Skip("Graphviz's dot is not installed")
	}
	m, err := builder.TruncatedGeometric(big.NewRat(1, 2), 5)
	if err != nil {
		t.Fatal(err)
	}
	src, err := picture.DOT(m.Chain, picture.NoHighlight)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "m.svg")
	if err := picture.SVG(context.Background(), src, path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(b), "<svg") || !strings.Contains(string(b), ">1/48<") {
		t.Errorf("no SVG with the probabilities (%v)", err)
	}
	if err := picture.SVG(context.Background(), []byte("digraph {"), path); err == nil || !strings.HasPrefix(err.Error(), "Graphviz's dot: ") {
		t.Errorf("broken DOT: %v", err)
	}
}

func TestProfilePlot(t *testing.T) {
	dir := t.TempDir()
	prof := profile(t, [][2]*big.Rat{{big.NewRat(1, 1), big.NewRat(1, 3)}, {big.NewRat(2, 1), new(big.Rat)}})
	points := []picture.Point{{Eps: mustLn(t, 2), Delta: new(big.Rat), Holds: true}, {Eps: mustLn(t, 1.5), Delta: new(big.Rat), Holds: false}}
	for _, name := range []string{"p.png", "p.svg"} {
		path := filepath.Join(dir, name)
		if err := picture.ProfilePlot(path, "t", []picture.Curve{{Name: "worst", Profile: prof}}, points); err != nil {
			t.Fatal(err)
		}
		if info, err := os.Stat(path); err != nil || info.Size() < 1000 {
			t.Errorf("%s: %v", name, err)
		}
	}
	png, _ := os.ReadFile(filepath.Join(dir, "p.png"))
	if len(png) < 8 || string(png[1:4]) != "PNG" {
		t.Error("p.png is not a PNG")
	}
	svg, err := os.ReadFile(filepath.Join(dir, "p.svg"))
	if err != nil {
		t.Fatal(err)
	}
	// Over traces the labels ⊤ and ⊥ are drawn as themselves, in a font
	// that has them; δ spanning three orders of magnitude is drawn on a
	// logarithmic axis.
	wide := profile(t, [][2]*big.Rat{{big.NewRat(1, 1), big.NewRat(1, 2)}, {big.NewRat(2, 1), big.NewRat(1, 10000)}, {big.NewRat(3, 1), new(big.Rat)}})
	if err := picture.ProfilePlot(filepath.Join(dir, "q.svg"), "m.dp — traces of {⊤, ⊥}", []picture.Curve{{Name: "worst", Profile: wide}}, points[:1]); err != nil {
		t.Fatal(err)
	}
	held, err := os.ReadFile(filepath.Join(dir, "q.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		svg, text string
		want      bool
	}{
		{string(svg), ">worst</text>", true},
		{string(svg), ">dp(ε, δ) holds</text>", true},
		{string(svg), ">dp(ε, δ) violated</text>", true},
		{string(svg), "font-family:DejaVu Sans", true},
		{string(svg), ">δ(ε)</text>", true},
		{string(held), ">m.dp — traces of {⊤, ⊥}</text>", true},
		{string(held), "U+22A4", false},
		{string(held), ">dp(ε, δ) violated</text>", false},
		{string(held), ">δ(ε), log scale above 10⁻⁴</text>", true},
	} {
		if strings.Contains(tc.svg, tc.text) != tc.want {
			t.Errorf("SVG contains %q: %v, want %v", tc.text, !tc.want, tc.want)
		}
	}
	if err := picture.ProfilePlot(filepath.Join(dir, "p.gif"), "t", nil, nil); err == nil || err.Error() != `a profile is drawn to a .png or .svg file, not "`+filepath.Join(dir, "p.gif")+`"` {
		t.Errorf("a .gif: %v", err)
	}
}

// profile builds a profile from breakpoints (c, δ).
func profile(t *testing.T, pts [][2]*big.Rat) *verify.Profile {
	p := &verify.Profile{}
	for _, cd := range pts {
		e, err := exact.Ln(cd[0])
		if err != nil {
			t.Fatal(err)
		}
		p.Points = append(p.Points, verify.ProfilePoint{C: cd[0], Eps: e, Delta: cd[1]})
	}
	return p
}

func mustLn(t *testing.T, x float64) exact.Eps {
	e, err := exact.Ln(new(big.Rat).SetFloat64(x))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestHostilePictures: names with control characters, line ends, direction
// controls, XML and HTML are escaped in the DOT text (no control
// character: Graphviz would stop at a NUL), the SVG Graphviz renders and
// the profile plot's SVG are valid XML and show the names escaped; a
// 10 000-character name is cut.
func TestHostilePictures(t *testing.T) {
	q := strconv.Quote
	a, b, long := "a\n::error file=x::owned", "b\x1b[2J\x00\r\u202e<&>", strings.Repeat("long", 2500)
	src := strings.Join([]string{
		"chain {",
		"  state " + q(a) + " (x = 1) [" + q("l\x1b[2J</TD>") + "]",
		"  state " + q(b) + " (x = 0)",
		"  state " + q(long) + " (x = 2)",
		"  state \"<yes>&\" (top = 2)",
		"  state y2 (top = 2)",
		"  state no (top = 1)",
		"  " + q(a) + " -> \"<yes>&\" : 1/2, y2 : 1/4, no : 1/4",
		"  " + q(b) + " -> \"<yes>&\" : 1/4, y2 : 1/4, no : 1/2",
		"  " + q(long) + " -> no : 1",
		"}",
		"inputs " + q(a) + ", " + q(b) + ", " + q(long),
		"neighbours " + q(a) + " ~ " + q(b),
		"outputs var top",
		"check dp(eps = ln(1))",
	}, "\n") + "\n"
	r, err := dpcheck.CheckSource(context.Background(), "m\x1b<&>.dp", src)
	if err != nil {
		t.Fatal(err)
	}
	h := picture.HighlightOf(r)
	dot, err := picture.DOT(r.Prepared.Chain, h)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range string(dot) {
		if c != '\n' && source.Unsafe(c) {
			t.Fatalf("DOT has %U at %d", c, i)
		}
	}
	for _, want := range []string{`>a\n::error file=x::owned<BR/>`, `>b\x1b[2J\x00\r\u202e&lt;&amp;&gt;<BR/>`, `[l\x1b[2J&lt;/TD&gt;]`, "lon…<BR/>x=2"} {
		if !strings.Contains(string(dot), want) {
			t.Errorf("DOT lacks %q:\n%.3000s", want, dot)
		}
	}
	// The name is the node's ID (never shown); its label is cut.
	for _, l := range strings.Split(string(dot), "\n") {
		if strings.Contains(l, "label=") && strings.Contains(l, strings.Repeat("long", 20)) {
			t.Errorf("a label shows the whole 10 000-character name: %.200s", l)
		}
	}
	goldenFile(t, "testdata/hostile.dot", dot)
	dir := t.TempDir()
	svgs := []string{filepath.Join(dir, "p.svg")}
	title, curves, points, err := picture.ProfileOf(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if err := picture.ProfilePlot(svgs[0], title, curves, points); err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("dot"); err == nil {
		svgs = append(svgs, filepath.Join(dir, "m.svg"))
		if err := picture.SVG(context.Background(), dot, svgs[1]); err != nil {
			t.Fatalf("Graphviz does not render the hostile DOT: %v", err)
		}
	}
	for _, path := range svgs {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		dec := xml.NewDecoder(bytes.NewReader(data))
		for {
			if _, err := dec.Token(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("%s is not XML: %v", filepath.Base(path), err)
			}
		}
		if !strings.Contains(string(data), `a\n::error file=x::owned`) {
			t.Errorf("%s does not show the name escaped", filepath.Base(path))
		}
	}
}

// TestHighlightOutputsVar: with outputs var top, the worst event is a set
// of values, and every final state with such a value is highlighted.
func TestHighlightOutputsVar(t *testing.T) {
	src := `chain {
  state pos (x = 1)
  state neg (x = 0)
  state a (top = 2)
  state b (top = 2)
  state c (top = 1)
  pos -> a : 1/2, b : 1/4, c : 1/4
  neg -> a : 1/4, b : 1/4, c : 1/2
}
inputs pos, neg
neighbours pos ~ neg
outputs var top
check dp(eps = 0)
`
	r, err := dpcheck.CheckSource(context.Background(), "v.dp", src)
	if err != nil {
		t.Fatal(err)
	}
	h := picture.HighlightOf(r)
	c := r.Prepared.Chain
	var names []string
	for _, s := range h.Event {
		names = append(names, c.Name(s))
	}
	if strings.Join(names, " ") != "a b" || strings.Join(h.EventNames, " ") != "top=2" || h.PrFrom != "3/4" || h.PrTo != "1/2" {
		t.Errorf("highlight: states %v, event %v, %s vs %s; want a b, top=2, 3/4 vs 1/2", names, h.EventNames, h.PrFrom, h.PrTo)
	}
	dot, _ := picture.DOT(c, h)
	if n := strings.Count(string(dot), "fillcolor=salmon"); n != 2 {
		t.Errorf("%d salmon states, want 2", n)
	}
}

// TestNoUnusedFonts: the command links no font it does not use. gonum's
// plot package registers the twelve Liberation fonts (4.5 MB) in its init;
// the profile plot draws with gonum's vg packages in DejaVu Sans instead,
// and nothing of dpcheck imports the plot package.
func TestNoUnusedFonts(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(goTool, "list", "-deps", "github.com/dpcheck/dpcheck/cmd/dpcheck").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "gonum.org/v1/plot" || dep == "gonum.org/v1/plot/plotter" || strings.HasPrefix(dep, "codeberg.org/go-fonts/liberation") || strings.HasPrefix(dep, "gonum.org/v1/plot/font/liberation") {
			t.Errorf("dpcheck links %s", dep)
		}
	}
}
