package picture

import (
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The profile plot's axes and legend, drawn on gonum's vg/draw canvas.
// They do not use gonum's plot package: importing it adds the twelve
// Liberation fonts to the binary (its init registers them as the default
// font collection), 4.5 MB that nothing here uses — the plot draws every
// text in DejaVu Sans, which has the ⊤ and ⊥ of traces and the
// superscripts of logarithmic ticks that Liberation Sans lacks.

// xy is a point of the plot, in the axes' own coordinates (see axis.f).
type xy struct{ X, Y float64 }

// tick is a tick of an axis at a value; minor ticks have no label.
type tick struct {
	Value float64
	Label string
}

// The axes' sizes.
var (
	tickLength   = vg.Points(5)
	tickLabelGap = vg.Points(2)
	axisLabelGap = vg.Points(3)
	axisWidth    = vg.Points(0.8)
	axisColor    = color.Gray{Y: 60}
)

// frame is the plot's two axes: their ranges and scales, their names, and
// the texts' handler.
type frame struct {
	h              text.Handler
	x, y           axis
	xLabel, yLabel string
}

// axes is where a frame is drawn: the axes' lines run along the left and
// bottom of frame; data is frame inset so that the markers at its edges
// (ε = 0, δ = 0) are whole; it is where the axes' ranges map to.
type axes struct {
	frame, data vg.Rectangle
	x, y        axis
}

// point returns where p (in the axes' own coordinates) is drawn.
func (a axes) point(p xy) vg.Point {
	return vg.Point{
		X: a.data.Min.X + vg.Length(p.X/a.x.f(a.x.Max))*(a.data.Max.X-a.data.Min.X),
		Y: a.data.Min.Y + vg.Length(p.Y/a.y.f(a.y.Max))*(a.data.Max.Y-a.data.Min.Y),
	}
}

func (f frame) tickStyle(xa draw.XAlignment, ya draw.YAlignment) text.Style {
	return textStyle(f.h, 9, xa, ya)
}

func (f frame) labelStyle() text.Style { return textStyle(f.h, 11, draw.XCenter, draw.YBottom) }

// layout places the axes in area: room on the left for the δ ticks'
// labels and the axis' name (written upwards), below for the ε ticks'
// labels and name, above for half the top tick's label and on the right
// for half the last ε tick's; the data inset from the axes' lines by the
// markers' size and their offsets.
func (f frame) layout(area vg.Rectangle, mk *markers) axes {
	ls := f.labelStyle()
	left := ls.Height(f.yLabel) + axisLabelGap
	var widest vg.Length
	for _, t := range f.y.ticks() {
		widest = max(widest, f.tickStyle(draw.XRight, draw.YCenter).Width(t.Label))
	}
	left += widest + tickLabelGap + tickLength
	ts := f.tickStyle(draw.XCenter, draw.YTop)
	bottom := ls.Height(f.xLabel) + axisLabelGap + ts.Height("0") + tickLabelGap + tickLength
	var last vg.Length
	if xt := f.x.ticks(); len(xt) > 0 {
		last = ts.Width(xt[len(xt)-1].Label) / 2
	}
	a := axes{x: f.x, y: f.y}
	a.frame = vg.Rectangle{
		Min: vg.Point{X: area.Min.X + left, Y: area.Min.Y + bottom},
		Max: vg.Point{X: area.Max.X - max(0, last-marginRight/2), Y: area.Max.Y - ts.Height("0")/2},
	}
	inset := mk.radius + vg.Points(2)
	a.data = vg.Rectangle{Min: a.frame.Min.Add(vg.Point{X: inset, Y: inset}), Max: a.frame.Max.Sub(vg.Point{X: inset, Y: inset})}
	// Markers set apart at the edges stay inside the frame.
	var out vg.Length
	for _, p := range mk.positions(a) {
		out = max(out, a.frame.Min.X+mk.radius-p.X, p.X+mk.radius-a.frame.Max.X)
	}
	if out > 0 {
		a.data.Min.X += out
		a.data.Max.X -= out
	}
	return a
}

// drawGrid draws light lines at the major ticks, across the frame.
func (f frame) drawGrid(c draw.Canvas, a axes) {
	sty := draw.LineStyle{Color: gridColor, Width: vg.Points(0.5)}
	for _, t := range f.x.ticks() {
		if t.Label != "" {
			x := a.point(xy{X: f.x.f(t.Value)}).X
			c.StrokeLine2(sty, x, a.frame.Min.Y, x, a.frame.Max.Y)
		}
	}
	for _, t := range f.y.ticks() {
		if t.Label != "" {
			y := a.point(xy{Y: f.y.f(t.Value)}).Y
			c.StrokeLine2(sty, a.frame.Min.X, y, a.frame.Max.X, y)
		}
	}
}

// drawAxes draws the axes' lines along the frame's left and bottom, their
// ticks outwards (minor ones half as long), the ticks' labels and the
// axes' names.
func (f frame) drawAxes(c draw.Canvas, a axes) {
	line := draw.LineStyle{Color: axisColor, Width: axisWidth}
	c.StrokeLine2(line, a.frame.Min.X, a.frame.Min.Y, a.frame.Max.X, a.frame.Min.Y)
	c.StrokeLine2(line, a.frame.Min.X, a.frame.Min.Y, a.frame.Min.X, a.frame.Max.Y)
	xs := f.tickStyle(draw.XCenter, draw.YTop)
	eachTick(f.x.ticks(), func(v float64) vg.Length { return a.point(xy{X: f.x.f(v)}).X }, func(x, n vg.Length, label string) {
		c.StrokeLine2(line, x, a.frame.Min.Y, x, a.frame.Min.Y-n)
		if label != "" {
			c.FillText(xs, vg.Point{X: x, Y: a.frame.Min.Y - tickLength - tickLabelGap}, label)
		}
	})
	ys := f.tickStyle(draw.XRight, draw.YCenter)
	eachTick(f.y.ticks(), func(v float64) vg.Length { return a.point(xy{Y: f.y.f(v)}).Y }, func(y, n vg.Length, label string) {
		c.StrokeLine2(line, a.frame.Min.X, y, a.frame.Min.X-n, y)
		if label != "" {
			c.FillText(ys, vg.Point{X: a.frame.Min.X - tickLength - tickLabelGap, Y: y}, label)
		}
	})
	ls := f.labelStyle()
	bottom := a.frame.Min.Y - tickLength - tickLabelGap - xs.Height("0") - axisLabelGap
	c.FillText(ls, vg.Point{X: (a.frame.Min.X + a.frame.Max.X) / 2, Y: bottom - ls.Height(f.xLabel)}, f.xLabel)
	var widest vg.Length
	for _, t := range f.y.ticks() {
		widest = max(widest, ys.Width(t.Label))
	}
	up := ls
	up.Rotation = math.Pi / 2
	up.YAlign = draw.YTop
	c.FillText(up, vg.Point{X: a.frame.Min.X - tickLength - tickLabelGap - widest - axisLabelGap - ls.Height(f.yLabel), Y: (a.frame.Min.Y + a.frame.Max.Y) / 2}, f.yLabel)
}

// eachTick calls mark with the position of each of an axis' ticks (pos
// maps a value to it), the length of its tick and its label: a minor
// tick, unlabelled, is half as long, and left out where ticks crowd.
func eachTick(ticks []tick, pos func(v float64) vg.Length, mark func(at, n vg.Length, label string)) {
	minor := sparse(ticks, pos)
	for _, t := range ticks {
		n := tickLength
		if t.Label == "" {
			if !minor {
				continue
			}
			n /= 2
		}
		mark(pos(t.Value), n, t.Label)
	}
}

// sparse reports whether an axis' ticks are at least 2 points apart where
// pos puts them: minor ticks closer than that (a logarithmic axis over
// many decades) would draw a solid bar, and are left out.
func sparse(ts []tick, pos func(float64) vg.Length) bool {
	ps := make([]float64, len(ts))
	for i, t := range ts {
		ps[i] = float64(pos(t.Value))
	}
	sort.Float64s(ps)
	for i := 1; i < len(ps); i++ {
		if ps[i]-ps[i-1] < float64(vg.Points(2)) {
			return false
		}
	}
	return true
}

// thumbnail draws a legend entry's sample in a rectangle.
type thumbnail interface {
	draw(c draw.Canvas, r vg.Rectangle)
}

// legendBox is the legend's entries: a thumbnail and a name each, one per
// row.
type legendBox struct {
	style   text.Style
	entries []legendEntry
}

// The legend's thumbnails' width and the gaps beside and between them.
var (
	thumbWidth = vg.Points(22)
	thumbGap   = vg.Points(5)
	rowGap     = vg.Points(3)
)

func (l legendBox) rowHeight(e legendEntry) vg.Length {
	return max(l.style.Height(e.name), vg.Points(10))
}

func (l legendBox) width() vg.Length {
	var w vg.Length
	for _, e := range l.entries {
		w = max(w, l.style.Width(e.name))
	}
	return thumbWidth + thumbGap + w
}

func (l legendBox) height() vg.Length {
	var h vg.Length
	for i, e := range l.entries {
		if i > 0 {
			h += rowGap
		}
		h += l.rowHeight(e)
	}
	return h
}

// draw draws the entries from the top of r down.
func (l legendBox) draw(c draw.Canvas, r vg.Rectangle) {
	y := r.Max.Y
	for _, e := range l.entries {
		h := l.rowHeight(e)
		row := vg.Rectangle{Min: vg.Point{X: r.Min.X, Y: y - h}, Max: vg.Point{X: r.Min.X + thumbWidth, Y: y}}
		e.thumb.draw(c, row)
		c.FillText(l.style, vg.Point{X: r.Min.X + thumbWidth + thumbGap, Y: y - h/2}, e.name)
		y -= h + rowGap
	}
}
