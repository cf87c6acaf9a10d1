package picture_test

import (
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/picture"
	"github.com/dpcheck/dpcheck/verify"
)

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
		"strict digraph dpcheck {",
		`label="cx"`,
		`"+" [`, `label="+\nx=1\n[in_pos]"`, "shape=box",
		`"Y" [`, "shape=doublecircle", "fillcolor=salmon",
		"color=red", "penwidth=3",
		`"+" -> "Y" [label="3/4"]`, `"-" -> "N" [label="3/4"]`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("DOT lacks %q:\n%s", want, s)
		}
	}
	// The un-highlighted output is not salmon.
	if n := strings.Count(s, "fillcolor=salmon"); n != 1 {
		t.Errorf("%d salmon states, want 1", n)
	}
}

func TestDOTTooBig(t *testing.T) {
	m, err := builder.TruncatedGeometric(big.NewRat(1, 2), 1000)
	if err != nil {
		t.Fatal(err)
	}
	_, err = picture.DOT(m.Chain, picture.NoHighlight)
	if err == nil || err.Error() != "the chain has 2002 states; a picture is drawn for at most 2000" {
		t.Errorf("error %v", err)
	}
}

func TestProfilePlot(t *testing.T) {
	dir := t.TempDir()
	prof := &verify.Profile{Points: []verify.ProfilePoint{
		{C: big.NewRat(1, 1), Eps: verify.Eps{}, Delta: big.NewRat(1, 3)},
		{C: big.NewRat(2, 1), Eps: mustLn(t, 2), Delta: new(big.Rat)},
	}}
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
	// The SVG carries its texts: the title (⊤, which the font lacks, as its
	// code point), the curve's legend, and a legend entry per kind of point.
	svg, err := os.ReadFile(filepath.Join(dir, "p.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if err := picture.ProfilePlot(filepath.Join(dir, "q.svg"), "traces of {⊤} over ε", []picture.Curve{{Name: "worst", Profile: prof}}, points[:1]); err != nil {
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
		{string(held), ">traces of {U+22A4} over ε</text>", true},
		{string(held), ">dp(ε, δ) violated</text>", false},
	} {
		if strings.Contains(tc.svg, tc.text) != tc.want {
			t.Errorf("SVG contains %q: %v, want %v", tc.text, !tc.want, tc.want)
		}
	}
	if err := picture.ProfilePlot(filepath.Join(dir, "p.gif"), "t", nil, nil); err == nil || !strings.Contains(err.Error(), ".png or .svg") {
		t.Errorf("a .gif: %v", err)
	}
}

func mustLn(t *testing.T, x float64) verify.Eps {
	e, err := verify.Ln(new(big.Rat).SetFloat64(x))
	if err != nil {
		t.Fatal(err)
	}
	return e
}
