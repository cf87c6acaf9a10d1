package picture

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"codeberg.org/go-fonts/dejavu/dejavusans"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/verify"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Point is a checked (ε, δ): dp(ε, δ) held or was violated.
type Point struct {
	Eps   exact.Eps
	Delta *big.Rat
	Holds bool
}

// Curve is a privacy profile to draw and its legend.
type Curve struct {
	Name    string
	Profile *verify.Profile
}

// The figure: its size, the resolution of a PNG, and the margins around
// the plot (the right one wider, for the last tick label).
const (
	figWidth  = 7 * vg.Inch
	figHeight = 4.5 * vg.Inch
	pngDPI    = 150
)

var (
	marginLeft, marginRight = vg.Points(6), vg.Points(16)
	marginTop, marginBottom = vg.Points(8), vg.Points(6)
)

// Colours: the curves (blue, orange), held (green) and violated (red).
var (
	curveColors = []color.Color{color.RGBA{R: 31, G: 119, B: 180, A: 255}, color.RGBA{R: 255, G: 127, B: 14, A: 255}}
	heldColor   = color.RGBA{R: 0, G: 140, B: 60, A: 255}
	violColor   = color.RGBA{R: 214, G: 39, B: 40, A: 255}
	gridColor   = color.Gray{Y: 225}
)

// ProfilePlot draws privacy profiles δ(ε) — the model's worst case and,
// say, a counterexample pair's — with the checked points marked, to a .png
// or .svg file. The profiles are exact; the plot samples them in ε, in
// floating point, for display only.
//
// The title is shortened to the figure's width (two lines at most, then
// cut with …). An axis is logarithmic beyond a linear start (0 stays on
// it) when the values it shows span more than two orders of magnitude
// (see chooseEpsAxis, chooseDeltaAxis). Held points are hollow green
// circles, violated ones red crosses, set side by side where they would
// overlap. The legend sits in a corner of the plot that no curve or point
// crosses, on white, or right of the plot when there is no such corner.
func ProfilePlot(path, title string, curves []Curve, points []Point) error {
	ext := strings.ToLower(filepath.Ext(path))
	if ext != ".png" && ext != ".svg" {
		return fmt.Errorf("a profile is drawn to a .png or .svg file, not %q", path)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := WriteProfile(f, ext[1:], title, curves, points); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// WriteProfile draws privacy profiles as ProfilePlot does, to w, in
// format "png" or "svg".
func WriteProfile(w io.Writer, format, title string, curves []Curve, points []Point) error {
	hdlr, err := textHandler()
	if err != nil {
		return err
	}
	var cw vg.CanvasWriterTo
	switch format {
	case "png":
		if cw, err = pngCanvas(); err != nil {
			return err
		}
	case "svg":
		cw = vgsvg.New(figWidth, figHeight)
	default:
		return fmt.Errorf("a profile is drawn as png or svg, not %q", format)
	}
	drawProfile(draw.New(cw), hdlr, title, curves, points)
	_, err = cw.WriteTo(w)
	return err
}

// The plot's font, DejaVu Sans: unlike gonum's default (Liberation) and
// the Go fonts it has ⊤ and ⊥, besides ε, δ, ∞ and …
var (
	sans        = font.Font{Typeface: "DejaVu", Variant: "Sans"}
	fontOnce    sync.Once
	fontHandler text.Handler
	fontErr     error
)

func textHandler() (text.Handler, error) {
	fontOnce.Do(func() {
		face, err := opentype.Parse(dejavusans.TTF)
		if err != nil {
			fontErr = fmt.Errorf("the plot's font: %v", err)
			return
		}
		fontHandler = text.Plain{Fonts: font.NewCache(font.Collection{{Font: sans, Face: face}})}
	})
	return fontHandler, fontErr
}

func textStyle(h text.Handler, size float64, xa draw.XAlignment, ya draw.YAlignment) text.Style {
	return text.Style{Color: color.Black, Font: font.From(sans, vg.Points(size)), XAlign: xa, YAlign: ya, Handler: h}
}

// drawProfile draws the whole figure on c: the title, the axes (frame),
// the grid, the curves, the checked points and the legend.
func drawProfile(c draw.Canvas, h text.Handler, title string, curves []Curve, points []Point) {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	area := draw.Crop(c, marginLeft, -marginRight, marginBottom, -marginTop)

	// The title, shortened to the width, across the whole figure.
	ts := textStyle(h, 12, draw.XCenter, draw.YTop)
	lines := fitTitle(drawable(h, title), area.Size().X, func(s string) vg.Length { return ts.Width(s) })
	y := area.Max.Y
	for _, l := range lines {
		c.FillText(ts, vg.Point{X: area.Center().X, Y: y}, l)
		y -= 1.3 * ts.Font.Size
	}
	if len(lines) > 0 {
		area.Max.Y = y - vg.Points(4)
	}

	ex, dy := chooseEpsAxis(curves, points), chooseDeltaAxis(curves, points)
	fr := frame{h: h, x: ex, y: dy, xLabel: axisLabel("ε", ex), yLabel: axisLabel("δ(ε)", dy)}

	type curve struct {
		xys   []xy
		style draw.LineStyle
	}
	var drawn []curve
	var legend []legendEntry
	for i, cv := range curves {
		xys := mapped(sampleProfile(cv.Profile, ex), ex, dy)
		if !finite(xys) {
			continue // no finite point: nothing to draw
		}
		sty := draw.LineStyle{Color: curveColors[i%len(curveColors)], Width: vg.Points(2)}
		if i > 0 {
			sty.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
		}
		drawn = append(drawn, curve{xys, sty})
		legend = append(legend, legendEntry{drawable(h, cv.Name), lineThumb{sty}})
	}
	mk := newMarkers(points, ex, dy)
	if len(mk.pts) > 0 {
		for _, holds := range []bool{true, false} {
			if slices.Contains(mk.holds, holds) {
				name := "dp(ε, δ) violated"
				if holds {
					name = "dp(ε, δ) holds"
				}
				legend = append(legend, legendEntry{name, glyphThumb{mk.style(holds)}})
			}
		}
	}

	leg := legendBox{style: textStyle(h, 10, draw.XLeft, draw.YCenter), entries: legend}
	const boxPad = 5
	boxW, boxH := leg.width()+2*vg.Points(boxPad), leg.height()+2*vg.Points(boxPad)

	ax := fr.layout(area.Rectangle, mk)
	var box vg.Rectangle
	if len(legend) > 0 {
		var paths [][]xy
		for _, cv := range drawn {
			paths = append(paths, cv.xys)
		}
		lines, boxes := obstacles(ax, paths, mk)
		var placed bool
		box, placed = placeLegend(draw.Canvas{Rectangle: ax.frame}, boxW, boxH, lines, boxes)
		if !placed {
			// No free corner: the legend goes right of the plot, level
			// with the plot's top.
			area = draw.Crop(area, 0, -(boxW + vg.Points(10)), 0, 0)
			ax = fr.layout(area.Rectangle, mk)
			box = vg.Rectangle{Min: vg.Point{X: area.Max.X + vg.Points(10), Y: ax.frame.Max.Y - boxH}, Max: vg.Point{X: area.Max.X + vg.Points(10) + boxW, Y: ax.frame.Max.Y}}
		}
	}
	fr.drawGrid(c, ax)
	inside := draw.Canvas{Canvas: c.Canvas, Rectangle: ax.frame}
	for _, cv := range drawn {
		pts := make([]vg.Point, len(cv.xys))
		for i, p := range cv.xys {
			pts[i] = ax.point(p)
		}
		inside.StrokeLines(cv.style, inside.ClipLinesXY(pts)...)
	}
	fr.drawAxes(c, ax)
	for i, pt := range mk.positions(ax) {
		c.DrawGlyphNoClip(mk.style(mk.holds[i]), pt)
	}
	if len(legend) > 0 {
		c.SetColor(color.White)
		c.Fill(box.Path())
		c.SetLineStyle(draw.LineStyle{Color: color.Gray{Y: 160}, Width: vg.Points(0.6)})
		c.Stroke(box.Path())
		leg.draw(c, vg.Rectangle{
			Min: box.Min.Add(vg.Point{X: vg.Points(boxPad), Y: vg.Points(boxPad)}),
			Max: box.Max.Sub(vg.Point{X: vg.Points(boxPad), Y: vg.Points(boxPad)}),
		})
	}
}

// finite reports whether a sampled curve has a finite point to draw.
func finite(xys []xy) bool {
	return slices.ContainsFunc(xys, func(p xy) bool {
		return !math.IsInf(p.X, 0) && !math.IsNaN(p.X) && !math.IsInf(p.Y, 0) && !math.IsNaN(p.Y)
	})
}

type legendEntry struct {
	name  string
	thumb thumbnail
}

// axis is a choice of range and scale: [0, Max], linear, or linear on
// [0, Linear] and logarithmic above it.
type axis struct {
	Max    float64
	Log    bool
	Linear float64
}

// f maps a value to the axis' own coordinate, in which the plot is drawn
// (on gonum's linear scale): the value itself when linear, else x/Linear
// up to Linear and one unit per decade above.
func (a axis) f(x float64) float64 {
	if !a.Log {
		return x
	}
	if x <= a.Linear {
		return x / a.Linear
	}
	return 1 + math.Log10(x/a.Linear)
}

// inverse undoes f.
func (a axis) inverse(u float64) float64 {
	if !a.Log {
		return u
	}
	if u <= 1 {
		return u * a.Linear
	}
	return a.Linear * math.Pow(10, u-1)
}

// ticks returns the axis' ticks, at values (not yet mapped by f): round
// steps on a linear axis; 0 and the powers of ten, with minor ticks
// between, on a logarithmic one.
func (a axis) ticks() []tick {
	var ts []tick
	if !a.Log {
		step := niceStep(a.Max / 5)
		prec := decimals(step)
		for i := 0; float64(i)*step <= a.Max*(1+1e-9); i++ {
			v := float64(i) * step
			label := strconv.FormatFloat(v, 'f', prec, 64)
			if i == 0 {
				label = "0"
			}
			ts = append(ts, tick{Value: v, Label: label})
			if m := v + step/2; m < a.Max {
				ts = append(ts, tick{Value: m})
			}
		}
		return ts
	}
	ts = append(ts, tick{Value: 0, Label: "0"})
	for d := a.Linear; d <= a.Max*(1+1e-9); d *= 10 {
		ts = append(ts, tick{Value: d, Label: formatTick(d)})
		for k := 2; k <= 9 && float64(k)*d <= a.Max; k++ {
			ts = append(ts, tick{Value: float64(k) * d})
		}
	}
	return ts
}

// niceStep returns the least of 1, 2 and 5 times a power of ten that is
// at least x.
func niceStep(x float64) float64 {
	if x <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// decimals returns how many decimals print a multiple of step exactly.
func decimals(step float64) int {
	for d := 0; d < 12; d++ {
		s := step * math.Pow(10, float64(d))
		if math.Abs(s-math.Round(s)) < 1e-6 {
			return d
		}
	}
	return 12
}

// formatTick prints a power of ten: 0.001 up to 1000 as decimals, else
// as 10⁻⁵.
func formatTick(v float64) string {
	e := int(math.Round(math.Log10(v)))
	if e >= -3 && e <= 3 {
		return strconv.FormatFloat(v, 'f', max(0, -e), 64)
	}
	const sup = "⁰¹²³⁴⁵⁶⁷⁸⁹"
	digits := []rune(sup)
	var b strings.Builder
	b.WriteString("10")
	if e < 0 {
		b.WriteRune('⁻')
		e = -e
	}
	for _, ch := range strconv.Itoa(e) {
		b.WriteRune(digits[ch-'0'])
	}
	return b.String()
}

// roundUp returns x rounded up to a round number, by at most a quarter.
func roundUp(x float64) float64 {
	step := niceStep(x / 10)
	return math.Ceil(x/step*(1-1e-9)) * step
}

// A scale turns logarithmic when its positive values span more than this
// ratio: a linear axis would squeeze the smallest into 1% of it.
const logRatio = 100

// chooseEpsAxis chooses the ε axis: it runs past the last breakpoint of
// every curve (where each turns constant) and every finite checked ε, and
// is logarithmic beyond the first breakpoint when that would take less
// than 1% of a linear axis.
func chooseEpsAxis(curves []Curve, points []Point) axis {
	end, first := 0.0, math.Inf(1)
	for _, c := range curves {
		for _, pt := range c.Profile.Points {
			if e := pt.Eps.Float(); e > 0 && !math.IsInf(e, 0) {
				end = math.Max(end, e)
				first = math.Min(first, e)
			}
		}
	}
	top := 1.15 * end
	for _, pt := range points {
		if e := pt.Eps.Float(); !math.IsInf(e, 0) {
			top = math.Max(top, 1.08*e)
		}
	}
	if top == 0 {
		return axis{Max: 1}
	}
	if !math.IsInf(first, 0) && top/first > logRatio {
		lin := math.Pow(10, math.Floor(math.Log10(first)))
		return axis{Max: top, Log: true, Linear: lin}
	}
	return axis{Max: roundUp(top)}
}

// chooseDeltaAxis chooses the δ axis: from 0 to past the largest δ of
// the curves and points, logarithmic above the least positive δ's power
// of ten when the positive values span more than two orders of magnitude.
func chooseDeltaAxis(curves []Curve, points []Point) axis {
	top, least := 0.0, math.Inf(1)
	see := func(d *big.Rat) {
		f, _ := d.Float64()
		top = math.Max(top, f)
		if f > 0 {
			least = math.Min(least, f)
		}
	}
	for _, c := range curves {
		for _, pt := range c.Profile.Points {
			see(pt.Delta)
		}
	}
	for _, pt := range points {
		see(pt.Delta)
	}
	if top == 0 {
		return axis{Max: 1}
	}
	if top/least > logRatio {
		lin := math.Pow(10, math.Floor(math.Log10(least)))
		return axis{Max: math.Pow(10, math.Ceil(math.Log10(top)-1e-9)), Log: true, Linear: lin}
	}
	return axis{Max: math.Min(roundUp(1.05*top), math.Max(1, top))}
}

// axisLabel names an axis, and says where it turns logarithmic.
func axisLabel(name string, a axis) string {
	if a.Log {
		return name + ", log scale above " + formatTick(a.Linear)
	}
	return name
}

// mapped returns the points mapped by the axes' f, as the plot draws them.
func mapped(xys []xy, x, y axis) []xy {
	out := make([]xy, len(xys))
	for i, p := range xys {
		out[i] = xy{X: x.f(p.X), Y: y.f(p.Y)}
	}
	return out
}

// sampleProfile samples δ(ε) over the axis, evenly in the axis' own
// coordinate and at every breakpoint, so that kinks stay sharp.
func sampleProfile(p *verify.Profile, ax axis) []xy {
	type bp struct{ c, eps, delta float64 }
	var bps []bp
	for _, pt := range p.Points {
		c, _ := pt.C.Float64()
		d, _ := pt.Delta.Float64()
		bps = append(bps, bp{c, pt.Eps.Float(), d})
	}
	deltaAt := func(eps float64) float64 {
		if len(bps) == 0 {
			return 0
		}
		c := math.Exp(eps)
		for i := 1; i < len(bps); i++ {
			if c <= bps[i].c {
				l, r := bps[i-1], bps[i]
				return l.delta + (r.delta-l.delta)*(c-l.c)/(r.c-l.c)
			}
		}
		return bps[len(bps)-1].delta
	}
	const n = 600
	xs := make([]float64, 0, n+1+len(bps))
	top := ax.f(ax.Max)
	for j := 0; j <= n; j++ {
		xs = append(xs, ax.inverse(top*float64(j)/n))
	}
	for _, b := range bps {
		if b.eps <= ax.Max {
			xs = append(xs, b.eps)
		}
	}
	sort.Float64s(xs)
	xys := make([]xy, 0, len(xs))
	for i, x := range xs {
		if i > 0 && x == xs[i-1] {
			continue
		}
		xys = append(xys, xy{X: x, Y: deltaAt(x)})
	}
	return xys
}

// markers draws the checked points: held as hollow circles, violated as
// crosses, those that would overlap set side by side (markerOffsets).
type markers struct {
	pts    []xy
	holds  []bool
	radius vg.Length
}

// newMarkers returns the finite points, mapped by the axes' f.
func newMarkers(points []Point, x, y axis) *markers {
	m := &markers{radius: vg.Points(4.5)}
	for _, pt := range points {
		if pt.Eps.IsInf() {
			continue
		}
		d, _ := pt.Delta.Float64()
		m.pts = append(m.pts, xy{X: x.f(pt.Eps.Float()), Y: y.f(d)})
		m.holds = append(m.holds, pt.Holds)
	}
	return m
}

func (m *markers) style(holds bool) draw.GlyphStyle {
	if holds {
		return draw.GlyphStyle{Color: heldColor, Radius: m.radius, Shape: ringGlyph{width: vg.Points(1.8)}}
	}
	return draw.GlyphStyle{Color: violColor, Radius: m.radius * 0.85, Shape: crossGlyph{width: vg.Points(2.2)}}
}

// spacing is how far apart the centres of two markers must be.
func (m *markers) spacing() vg.Length { return 2*m.radius + vg.Points(2) }

// positions returns where the markers are drawn in the axes ax, set
// apart where they would overlap.
func (m *markers) positions(ax axes) []vg.Point {
	pos := make([]vg.Point, len(m.pts))
	for i, pt := range m.pts {
		pos[i] = ax.point(pt)
	}
	offs := markerOffsets(pos, m.holds, m.spacing())
	for i := range pos {
		pos[i].X += offs[i]
	}
	return pos
}

// markerOffsets returns horizontal offsets that set apart markers closer
// than d: each group of markers that overlap (closer than d, directly or
// through others) is spread evenly around its centre, d apart, held ones
// first (to the left).
func markerOffsets(pos []vg.Point, holds []bool, d vg.Length) []vg.Length {
	n := len(pos)
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			dx, dy := pos[i].X-pos[j].X, pos[i].Y-pos[j].Y
			if math.Hypot(float64(dx), float64(dy)) < float64(d) {
				parent[find(i)] = find(j)
			}
		}
	}
	groups := map[int][]int{}
	for i := 0; i < n; i++ {
		groups[find(i)] = append(groups[find(i)], i)
	}
	offs := make([]vg.Length, n)
	for _, g := range groups {
		if len(g) < 2 {
			continue
		}
		sort.SliceStable(g, func(a, b int) bool {
			i, j := g[a], g[b]
			if holds[i] != holds[j] {
				return holds[i]
			}
			if pos[i].X != pos[j].X {
				return pos[i].X < pos[j].X
			}
			return i < j
		})
		var centre vg.Length
		for _, i := range g {
			centre += pos[i].X
		}
		centre /= vg.Length(len(g))
		for k, i := range g {
			offs[i] = centre + (vg.Length(k)-vg.Length(len(g)-1)/2)*d - pos[i].X
		}
	}
	return offs
}

// ringGlyph is a hollow circle.
type ringGlyph struct{ width vg.Length }

func (g ringGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: g.width})
	var p vg.Path
	r := sty.Radius - g.width/2
	p.Move(vg.Point{X: pt.X + r, Y: pt.Y})
	p.Arc(pt, r, 0, 2*math.Pi)
	p.Close()
	c.Stroke(p)
}

// crossGlyph is a bold ×.
type crossGlyph struct{ width vg.Length }

func (g crossGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: g.width})
	r := sty.Radius * 0.8
	var p vg.Path
	p.Move(vg.Point{X: pt.X - r, Y: pt.Y - r})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y + r})
	p.Move(vg.Point{X: pt.X - r, Y: pt.Y + r})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y - r})
	c.Stroke(p)
}

// glyphThumb is a marker's legend thumbnail.
type glyphThumb struct{ sty draw.GlyphStyle }

func (g glyphThumb) draw(c draw.Canvas, r vg.Rectangle) {
	c.DrawGlyphNoClip(g.sty, vg.Point{X: (r.Min.X + r.Max.X) / 2, Y: (r.Min.Y + r.Max.Y) / 2})
}

// lineThumb is a curve's legend thumbnail: a stretch of its line.
type lineThumb struct{ sty draw.LineStyle }

func (l lineThumb) draw(c draw.Canvas, r vg.Rectangle) {
	y := (r.Min.Y + r.Max.Y) / 2
	c.StrokeLine2(l.sty, r.Min.X, y, r.Max.X, y)
}

// obstacles returns what the legend must not cover, in canvas
// coordinates: the curves as polylines and the markers as boxes.
func obstacles(ax axes, paths [][]xy, mk *markers) (lines [][]vg.Point, boxes []vg.Rectangle) {
	for _, xys := range paths {
		pl := make([]vg.Point, len(xys))
		for i, p := range xys {
			pl[i] = ax.point(p)
		}
		lines = append(lines, pl)
	}
	for _, pt := range mk.positions(ax) {
		r := mk.radius
		boxes = append(boxes, vg.Rectangle{Min: vg.Point{X: pt.X - r, Y: pt.Y - r}, Max: vg.Point{X: pt.X + r, Y: pt.Y + r}})
	}
	return lines, boxes
}

// placeLegend returns a w×h box in a corner of the data area (top right,
// top left, bottom right, bottom left, in that order) that keeps clear of
// every line and box, and whether there is one.
func placeLegend(data draw.Canvas, w, h vg.Length, lines [][]vg.Point, boxes []vg.Rectangle) (vg.Rectangle, bool) {
	inset, clear := vg.Points(6), vg.Points(4)
	r := data.Rectangle
	if w+2*inset > r.Size().X || h+2*inset > r.Size().Y {
		return vg.Rectangle{}, false
	}
	left, right := r.Min.X+inset, r.Max.X-inset-w
	bottom, top := r.Min.Y+inset, r.Max.Y-inset-h
	for _, corner := range []vg.Point{{X: right, Y: top}, {X: left, Y: top}, {X: right, Y: bottom}, {X: left, Y: bottom}} {
		box := vg.Rectangle{Min: corner, Max: vg.Point{X: corner.X + w, Y: corner.Y + h}}
		keep := vg.Rectangle{Min: box.Min.Sub(vg.Point{X: clear, Y: clear}), Max: box.Max.Add(vg.Point{X: clear, Y: clear})}
		if !hits(keep, lines, boxes) {
			return box, true
		}
	}
	return vg.Rectangle{}, false
}

func hits(r vg.Rectangle, lines [][]vg.Point, boxes []vg.Rectangle) bool {
	for _, b := range boxes {
		if b.Min.X < r.Max.X && r.Min.X < b.Max.X && b.Min.Y < r.Max.Y && r.Min.Y < b.Max.Y {
			return true
		}
	}
	for _, pl := range lines {
		for i := 1; i < len(pl); i++ {
			if segmentHits(r, pl[i-1], pl[i]) {
				return true
			}
		}
	}
	return false
}

// segmentHits reports whether the segment ab meets the rectangle r
// (Liang–Barsky clipping).
func segmentHits(r vg.Rectangle, a, b vg.Point) bool {
	t0, t1 := 0.0, 1.0
	dx, dy := float64(b.X-a.X), float64(b.Y-a.Y)
	for _, e := range [][2]float64{
		{-dx, float64(a.X - r.Min.X)}, {dx, float64(r.Max.X - a.X)},
		{-dy, float64(a.Y - r.Min.Y)}, {dy, float64(r.Max.Y - a.Y)},
	} {
		p, q := e[0], e[1]
		if p == 0 {
			if q < 0 {
				return false
			}
			continue
		}
		t := q / p
		if p < 0 {
			t0 = math.Max(t0, t)
		} else {
			t1 = math.Min(t1, t)
		}
		if t0 > t1 {
			return false
		}
	}
	return true
}

// fitTitle fits a title to width: one line if it fits, else two, broken
// at " — " when both halves fit, else after the last word that fits; a
// second line (or a single word) that is still too wide is cut with ….
func fitTitle(s string, width vg.Length, measure func(string) vg.Length) []string {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	if measure(s) <= width {
		return []string{s}
	}
	if a, b, ok := strings.Cut(s, " — "); ok && measure(a) <= width && measure(b) <= width {
		return []string{a, b}
	}
	words := strings.Fields(s)
	first := words[0]
	n := 1
	for ; n < len(words); n++ {
		if measure(first+" "+words[n]) > width {
			break
		}
		first += " " + words[n]
	}
	first = truncate(first, width, measure)
	if n == len(words) {
		return []string{first}
	}
	rest := strings.Join(words[n:], " ")
	if rest == "—" {
		return []string{first}
	}
	rest = strings.TrimPrefix(rest, "— ")
	return []string{first, truncate(rest, width, measure)}
}

// truncate cuts s to fit width, ending it with …: after a word when that
// keeps half the width, else within one.
func truncate(s string, width vg.Length, measure func(string) vg.Length) string {
	if measure(s) <= width {
		return s
	}
	for i := strings.LastIndexByte(s, ' '); i > 0; i = strings.LastIndexByte(s[:i], ' ') {
		if cut := strings.TrimRight(s[:i], " ") + "…"; measure(cut) <= width {
			if 2*measure(cut) >= width {
				return cut
			}
			break
		}
	}
	r := []rune(s)
	for len(r) > 0 && measure(strings.TrimRight(string(r), " ")+"…") > width {
		r = r[:len(r)-1]
	}
	return strings.TrimRight(string(r), " ") + "…"
}

// drawable escapes a text as the reports do (source.Escape: no control
// character reaches the picture, and an SVG stays valid XML) and replaces
// the characters that the plot's font cannot draw by their code points
// (U+2A00), so that a text never silently loses them.
func drawable(h text.Handler, s string) string {
	s = source.Escape(s)
	face := h.Cache().Lookup(sans, 12)
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
