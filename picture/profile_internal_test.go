package picture

import (
	"github.com/dpcheck/dpcheck/exact"
	"math"
	"math/big"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dpcheck/dpcheck/verify"
	"github.com/google/go-cmp/cmp"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// runes measures a text as one point per character.
func runes(s string) vg.Length { return vg.Length(utf8.RuneCountInString(s)) }

func TestFitTitle(t *testing.T) {
	for _, tc := range []struct {
		title string
		width vg.Length
		want  []string
	}{
		{"m.dp — privacy profile over final state", 40, []string{"m.dp — privacy profile over final state"}},
		// Broken at the dash when both halves fit.
		{"above_threshold_loop.dp — privacy profile over traces of {⊤, ⊥} over 5 steps", 52,
			[]string{"above_threshold_loop.dp", "privacy profile over traces of {⊤, ⊥} over 5 steps"}},
		// Else after the last word that fits, the rest cut with ….
		{"m.dp — privacy profile over traces of {⊤, ⊥} over 5 steps", 30,
			[]string{"m.dp — privacy profile over", "traces of {⊤, ⊥} over 5 steps"}},
		{"m.dp — privacy profile over traces of {⊤, ⊥} over 5 steps", 20,
			[]string{"m.dp — privacy", "profile over traces…"}},
		// A name wider than the figure is cut too.
		{"a_model_with_a_very_long_name.dp — privacy profile over final state", 20,
			[]string{"a_model_with_a_very…", "privacy profile…"}},
		{"  ", 20, nil},
	} {
		got := fitTitle(tc.title, tc.width, runes)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("fitTitle(%q, %v) (-want +got):\n%s", tc.title, tc.width, diff)
		}
		for _, l := range got {
			if runes(l) > tc.width {
				t.Errorf("line %q is wider than %v", l, tc.width)
			}
		}
	}
}

// prof builds a profile from breakpoints (c, δ) given as floats that are
// exact in binary.
func prof(t *testing.T, cd ...[2]float64) *verify.Profile {
	t.Helper()
	p := &verify.Profile{}
	for _, x := range cd {
		c := new(big.Rat).SetFloat64(x[0])
		e, err := exact.Ln(c)
		if err != nil {
			t.Fatal(err)
		}
		p.Points = append(p.Points, verify.ProfilePoint{C: c, Eps: e, Delta: new(big.Rat).SetFloat64(x[1])})
	}
	return p
}

func TestChooseAxes(t *testing.T) {
	// truncated_geometric(1/2, 5): δ from 1/3 down to 0 at ε = ln 2.
	geometric := []Curve{{Profile: prof(t, [2]float64{1, 1.0 / 3}, [2]float64{1.5, 1.0 / 6}, [2]float64{2, 0})}}
	held := []Point{{Eps: mustLn(t, 2), Delta: new(big.Rat), Holds: true}}
	// A profile whose first kink is at ε ≈ 0.001 and last at ε ≈ 2.3,
	// with δ from 0.5 down to 2⁻¹⁴ ≈ 6·10⁻⁵.
	spread := []Curve{{Profile: prof(t, [2]float64{1, 0.5}, [2]float64{1.0009765625, 0.25}, [2]float64{10, 1.0 / 16384})}}
	for _, tc := range []struct {
		name   string
		curves []Curve
		points []Point
		eps    axis
		delta  axis
	}{
		// 1.15·ln 2 ≈ 0.797 rounds up to 0.8; 1.05/3 = 0.35 to 0.35.
		{"geometric", geometric, held, axis{Max: 0.8}, axis{Max: 0.35}},
		// A checked point far right of the kinks widens the ε axis; a
		// larger δ raises the δ axis (but not past 1).
		// 1.08·ln 8 ≈ 2.25 rounds up to 2.5.
		{"far point", geometric, []Point{{Eps: mustLn(t, 8), Delta: big.NewRat(99, 100)}}, axis{Max: 2.5}, axis{Max: 1}},
		{"two scales", spread, nil, axis{Max: 1.15 * math.Log(10), Log: true, Linear: 0.0001}, axis{Max: 1, Log: true, Linear: 0.00001}},
		{"nothing", nil, nil, axis{Max: 1}, axis{Max: 1}},
	} {
		eps, delta := chooseEpsAxis(tc.curves, tc.points), chooseDeltaAxis(tc.curves, tc.points)
		if !close(eps, tc.eps) || !close(delta, tc.delta) {
			t.Errorf("%s: ε axis %+v, δ axis %+v; want %+v, %+v", tc.name, eps, delta, tc.eps, tc.delta)
		}
	}
}

func close(a, b axis) bool {
	eq := func(x, y float64) bool { return math.Abs(x-y) <= 1e-9*math.Max(1, math.Abs(y)) }
	return a.Log == b.Log && eq(a.Max, b.Max) && eq(a.Linear, b.Linear)
}

func mustLn(t *testing.T, x float64) exact.Eps {
	e, err := exact.Ln(new(big.Rat).SetFloat64(x))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestAxisTicks(t *testing.T) {
	labels := func(a axis) string {
		var ls []string
		for _, tk := range a.ticks() {
			if tk.Label != "" {
				ls = append(ls, tk.Label)
			}
		}
		return strings.Join(ls, " ")
	}
	for _, tc := range []struct {
		a    axis
		want string
	}{
		{axis{Max: 0.8}, "0 0.2 0.4 0.6 0.8"},
		{axis{Max: 0.0012}, "0 0.0005 0.0010"},
		{axis{Max: 3.5}, "0 1 2 3"},
		{axis{Max: 1, Log: true, Linear: 0.00001}, "0 10⁻⁵ 10⁻⁴ 0.001 0.01 0.1 1"},
	} {
		if got := labels(tc.a); got != tc.want {
			t.Errorf("%+v: ticks %q, want %q", tc.a, got, tc.want)
		}
	}
	// On a logarithmic axis 0 and the linear part's end are one unit
	// apart, and so is each decade.
	a := axis{Max: 1, Log: true, Linear: 0.001}
	for _, tc := range [][2]float64{{0, 0}, {0.0005, 0.5}, {0.001, 1}, {0.01, 2}, {1, 4}} {
		if got := a.f(tc[0]); math.Abs(got-tc[1]) > 1e-12 || math.Abs(a.inverse(got)-tc[0]) > 1e-12 {
			t.Errorf("f(%v) = %v, want %v", tc[0], got, tc[1])
		}
	}
}

func TestMarkerOffsets(t *testing.T) {
	const d = 10
	pt := func(x, y vg.Length) vg.Point { return vg.Point{X: x, Y: y} }
	for _, tc := range []struct {
		name  string
		pos   []vg.Point
		holds []bool
		want  []vg.Length
	}{
		{"apart", []vg.Point{pt(0, 0), pt(50, 0)}, []bool{false, true}, []vg.Length{0, 0}},
		// At the same (ε, δ): held to the left, violated to the right.
		{"same place", []vg.Point{pt(100, 40), pt(100, 40)}, []bool{false, true}, []vg.Length{5, -5}},
		// composition.dp: dp(0, 1/2) holds and dp(0, 49/100) is violated,
		// 3 points apart: spread around their middle.
		{"close", []vg.Point{pt(100, 40), pt(100, 43)}, []bool{true, false}, []vg.Length{-5, 5}},
		// Three in a row, around their middle (4): held first, at -6, then
		// the violated ones in order, at 4 and 14.
		{"three", []vg.Point{pt(0, 0), pt(4, 0), pt(8, 0)}, []bool{false, true, false}, []vg.Length{4, -10, 6}},
	} {
		got := markerOffsets(tc.pos, tc.holds, d)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: offsets (-want +got):\n%s", tc.name, diff)
		}
	}
}

func TestPlaceLegend(t *testing.T) {
	data := draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: 400, Y: 300}}}
	// A curve falling from the top left to the bottom right leaves the
	// top right corner free.
	falling := [][]vg.Point{{{X: 0, Y: 290}, {X: 200, Y: 100}, {X: 400, Y: 0}}}
	box, ok := placeLegend(data, 100, 60, falling, nil)
	if want := (vg.Rectangle{Min: vg.Point{X: 294, Y: 234}, Max: vg.Point{X: 394, Y: 294}}); !ok || box != want {
		t.Errorf("falling curve: legend at %v (%v), want %v", box, ok, want)
	}
	// A flat line along the top and a marker at the bottom right leave the
	// bottom left corner.
	flat := [][]vg.Point{{{X: 0, Y: 270}, {X: 400, Y: 270}}}
	marker := []vg.Rectangle{{Min: vg.Point{X: 350, Y: 0}, Max: vg.Point{X: 360, Y: 10}}}
	box, ok = placeLegend(data, 100, 60, flat, marker)
	if want := (vg.Rectangle{Min: vg.Point{X: 6, Y: 6}, Max: vg.Point{X: 106, Y: 66}}); !ok || box != want {
		t.Errorf("flat curve: legend at %v (%v), want %v", box, ok, want)
	}
	// Lines through every corner: no place inside.
	cross := [][]vg.Point{{{X: 0, Y: 0}, {X: 400, Y: 300}}, {{X: 0, Y: 300}, {X: 400, Y: 0}}}
	if box, ok := placeLegend(data, 100, 60, cross, nil); ok {
		t.Errorf("crossed corners: legend at %v", box)
	}
}

func TestSegmentHits(t *testing.T) {
	r := vg.Rectangle{Min: vg.Point{X: 10, Y: 10}, Max: vg.Point{X: 20, Y: 20}}
	for _, tc := range []struct {
		a, b vg.Point
		want bool
	}{
		{vg.Point{X: 0, Y: 0}, vg.Point{X: 30, Y: 30}, true},  // through
		{vg.Point{X: 0, Y: 15}, vg.Point{X: 5, Y: 15}, false}, // short of it
		{vg.Point{X: 0, Y: 25}, vg.Point{X: 30, Y: 25}, false},
		{vg.Point{X: 15, Y: 0}, vg.Point{X: 15, Y: 100}, true}, // vertical, through
		{vg.Point{X: 12, Y: 12}, vg.Point{X: 13, Y: 13}, true}, // inside
	} {
		if got := segmentHits(r, tc.a, tc.b); got != tc.want {
			t.Errorf("segment %v–%v: %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestSampleProfileKeepsKinks(t *testing.T) {
	p := prof(t, [2]float64{1, 0.5}, [2]float64{2, 0.25}, [2]float64{4, 0})
	xys := sampleProfile(p, axis{Max: 2})
	var sawKink bool
	for _, xy := range xys {
		if xy.X == math.Log(2) {
			sawKink = math.Abs(xy.Y-0.25) < 1e-12
		}
	}
	if !sawKink {
		t.Error("the breakpoint at ε = ln 2 is not sampled")
	}
	if last := xys[len(xys)-1]; last.X != 2 || last.Y != 0 {
		t.Errorf("last sample %v, want (2, 0)", last)
	}
}

func TestDrawableKeepsTheLabels(t *testing.T) {
	h, err := textHandler()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := drawable(h, "{⊤, ⊥} ε δ ∞ …"), "{⊤, ⊥} ε δ ∞ …"; got != want {
		t.Errorf("drawable: %q, want %q", got, want)
	}
	// A character the font lacks is written as its code point.
	if got, want := drawable(h, "x中"), "xU+4E2D"; got != want {
		t.Errorf("drawable: %q, want %q", got, want)
	}
}
