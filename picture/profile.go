package picture

import (
	"fmt"
	"image/color"
	"math"
	"math/big"
	"path/filepath"
	"strings"

	"github.com/dpcheck/dpcheck/verify"
	"golang.org/x/image/font/sfnt"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Point is a checked (ε, δ): dp(ε, δ) held or was violated.
type Point struct {
	Eps   verify.Eps
	Delta *big.Rat
	Holds bool
}

// Curve is a privacy profile to draw and its legend.
type Curve struct {
	Name    string
	Profile *verify.Profile
}

// ProfilePlot draws privacy profiles δ(ε) — the model's worst case and,
// say, a counterexample pair's — with the checked points marked, to a .png
// or .svg file. The profiles are exact; the plot samples them in ε for
// display only.
func ProfilePlot(path, title string, curves []Curve, points []Point) error {
	ext := strings.ToLower(filepath.Ext(path))
	if ext != ".png" && ext != ".svg" {
		return fmt.Errorf("--profile writes a .png or .svg file, not %q", path)
	}
	p := plot.New()
	p.Title.Text = drawable(title)
	p.X.Label.Text = "ε"
	p.Y.Label.Text = "δ(ε)"
	p.Add(plotter.NewGrid())
	// The ε range: past the last breakpoint and every checked point.
	xmax := 0.1
	for _, c := range curves {
		if pts := c.Profile.Points; len(pts) > 0 {
			xmax = math.Max(xmax, 1.25*pts[len(pts)-1].Eps.Float())
		}
	}
	for _, pt := range points {
		if e := pt.Eps.Float(); !math.IsInf(e, 0) {
			xmax = math.Max(xmax, 1.1*e)
		}
	}
	ymax := 0.0
	for _, c := range curves {
		if pts := c.Profile.Points; len(pts) > 0 {
			d, _ := pts[0].Delta.Float64()
			ymax = math.Max(ymax, d)
		}
	}
	for _, pt := range points {
		d, _ := pt.Delta.Float64()
		ymax = math.Max(ymax, d)
	}
	colors := []color.Color{color.RGBA{R: 31, G: 119, B: 180, A: 255}, color.RGBA{R: 255, G: 127, B: 14, A: 255}}
	for i, c := range curves {
		const n = 400
		xys := make(plotter.XYs, n+1)
		for j := range xys {
			eps := xmax * float64(j) / n
			cr := new(big.Rat).SetFloat64(math.Exp(eps)) // display only
			d, _ := c.Profile.DeltaAt(cr).Float64()
			xys[j] = plotter.XY{X: eps, Y: d}
		}
		line, err := plotter.NewLine(xys)
		if err != nil {
			return err
		}
		line.Color = colors[i%len(colors)]
		line.Width = vg.Points(2)
		if i > 0 {
			line.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
		}
		p.Add(line)
		p.Legend.Add(drawable(c.Name), line)
	}
	for _, holds := range []bool{true, false} {
		var xys plotter.XYs
		for _, pt := range points {
			if pt.Holds == holds && !pt.Eps.IsInf() {
				d, _ := pt.Delta.Float64()
				xys = append(xys, plotter.XY{X: pt.Eps.Float(), Y: d})
			}
		}
		if len(xys) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return err
		}
		sc.GlyphStyle.Radius = vg.Points(4)
		if holds {
			sc.GlyphStyle.Shape = draw.CircleGlyph{}
			sc.GlyphStyle.Color = color.RGBA{G: 150, A: 255}
			p.Legend.Add("dp(ε, δ) holds", sc)
		} else {
			sc.GlyphStyle.Shape = draw.CrossGlyph{}
			sc.GlyphStyle.Color = color.RGBA{R: 210, A: 255}
			p.Legend.Add("dp(ε, δ) violated", sc)
		}
		p.Add(sc)
	}
	p.Legend.Top = true
	p.X.Min, p.Y.Min = 0, 0
	// Headroom above the curves for the legend; a profile that is 0
	// everywhere gets the axis [0, 1] rather than a degenerate one.
	p.Y.Max = 1.3 * ymax
	if ymax == 0 {
		p.Y.Max = 1
	}
	return p.Save(7*vg.Inch, 4.5*vg.Inch, path)
}

// drawable replaces the characters that the plot's font cannot draw, such
// as the labels ⊤ and ⊥, by their code points (U+22A4), so that a title
// never silently loses them.
func drawable(s string) string {
	face := font.DefaultCache.Lookup(plot.DefaultFont, 12)
	if face.Face == nil {
		return s
	}
	var buf sfnt.Buffer
	var b strings.Builder
	for _, r := range s {
		if i, err := face.Face.GlyphIndex(&buf, r); r < 0x80 || err == nil && i != 0 {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(&b, "U+%04X", r)
		}
	}
	return b.String()
}
