// Package picture draws dpcheck's models and results: the chain in
// Graphviz DOT (through gonum's DOT encoder), rendered to SVG when
// Graphviz is installed (a summary of a chain too large to draw whole),
// and the exact privacy profile δ(ε) plotted on gonum's vg canvases.
// Names from the files are escaped where they enter a picture. Pictures
// are for people; nothing here decides a
// verdict, and the floating point used for plotting never reaches one.
package picture

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/source"
	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/encoding"
	"gonum.org/v1/gonum/graph/encoding/dot"
	"gonum.org/v1/gonum/graph/multi"
)

// The largest chains DOT draws. Every transition is a line with its
// probability beside it: truncated_geometric(n = 5), 12 states and 42
// transitions, is a picture of 36 crossing lines already; at a few hundred
// lines a picture is a texture, not a diagram, and Graphviz's layout time
// grows much faster than the chain (n = 200, 40 000 transitions, ran for
// minutes). These bounds keep every picture one that a person can follow
// and that Graphviz lays out in about a second.
const (
	MaxDOTStates      = 200
	MaxDOTTransitions = 1000
)

// Highlight marks a counterexample in a picture: an ordered pair of states
// and the states of the event (absorbing states). A summary picture (see
// Summarized) shows the event as one node: EventNames are its outputs as
// the reports name them, PrFrom and PrTo its exact probabilities under
// From and To ("3/4"; empty when unknown).
type Highlight struct {
	From, To   int // -1 when there is no pair
	Event      []int
	Title      string
	EventNames []string
	PrFrom     string
	PrTo       string
}

// NoHighlight draws the chain plainly.
var NoHighlight = Highlight{From: -1, To: -1}

// DOT returns the chain in Graphviz DOT. Inputs are blue boxes in a column
// on the left and absorbing states (outputs) yellow double ellipses in a
// column on the right, the sink † grey and last; both columns run top to
// bottom in the order of the states' valuations, then names. Every state
// that moves lists the exact probabilities of its transitions in a column
// of its box, each line leaving beside its probability; the probability-1
// self-loops of absorbing states are not drawn. The highlighted pair is
// outlined in red and its event filled salmon.
//
// A chain of more than MaxDOTStates states or MaxDOTTransitions
// transitions would be unreadable: it is drawn as a summary (see
// Summarized), the counterexample's pair and event with the rest
// collapsed.
func DOT(c *chain.Chain, h Highlight) ([]byte, error) {
	if Summarized(c) {
		return summaryDOT(c, h), nil
	}
	return dot.MarshalMulti(newDOTGraph(c, h), "dpcheck", "", "  ")
}

// dotGraph is the chain as a gonum multigraph whose node IDs are the
// states' places in the drawing order: gonum writes nodes and edges in ID
// order, and Graphviz takes that order as its first guess. It is a
// multigraph because gonum writes simple graphs as strict digraphs, in
// which a column's invisible line would merge with, and hide, a
// transition between the same two states.
type dotGraph struct {
	*multi.DirectedGraph
	title      string
	structure  []dot.Multigraph
	inputs     []int // in drawing order
	outputs    []int // absorbing states that are not inputs, the sink last
	drawingPos []int // state → node ID
}

func newDOTGraph(c *chain.Chain, h Highlight) *dotGraph {
	n := c.NumStates()
	g := &dotGraph{DirectedGraph: multi.NewDirectedGraph(), title: h.Title, drawingPos: make([]int, n)}
	sink, hasSink := c.Sink()
	var mid []int
	for s := 0; s < n; s++ {
		switch {
		case c.IsInput(s):
			g.inputs = append(g.inputs, s)
		case c.IsAbsorbing(s):
			g.outputs = append(g.outputs, s)
		default:
			mid = append(mid, s)
		}
	}
	byValuation := func(states []int) {
		sort.SliceStable(states, func(i, j int) bool {
			a, b := states[i], states[j]
			if hasSink && (a == sink) != (b == sink) {
				return b == sink
			}
			return stateLess(c, a, b)
		})
	}
	byValuation(g.inputs)
	byValuation(g.outputs)
	order := append(append(append([]int(nil), g.inputs...), mid...), g.outputs...)
	colOf := make([]int, n) // 1 for the inputs' column, 2 for the outputs'
	for id, s := range order {
		g.drawingPos[s] = id
		if c.IsInput(s) {
			colOf[s] = 1
		} else if c.IsAbsorbing(s) {
			colOf[s] = 2
		}
	}
	event := map[int]bool{}
	for _, s := range h.Event {
		event[s] = true
	}
	nodes := make([]dotNode, n)
	targets := make([][]int, n)
	for s := range nodes {
		targets[s] = drawnTargets(c, s, g.drawingPos)
		nodes[s] = dotNode{id: g.drawingPos[s], name: c.Name(s), attrs: nodeAttributes(c, s, targets[s], h, event)}
		g.AddNode(nodes[s])
	}
	// A state's transitions are listed, and drawn, in the drawing order of
	// their targets; the probability-1 self-loops of absorbing states are
	// left out.
	for s := 0; s < n; s++ {
		for k, t := range targets[s] {
			flat := colOf[s] != 0 && colOf[s] == colOf[t] && s != t
			g.SetLine(dotLine{f: nodes[s], t: nodes[t], row: k, flat: flat})
		}
	}
	if len(g.inputs) > 0 {
		g.structure = append(g.structure, newColumn("inputs", "source", g.inputs, g.drawingPos, c))
	}
	if len(g.outputs) > 0 {
		g.structure = append(g.structure, newColumn("outputs", "sink", g.outputs, g.drawingPos, c))
	}
	return g
}

// drawnTargets returns the states s moves to that are drawn, in drawing
// order.
func drawnTargets(c *chain.Chain, s int, pos []int) []int {
	to, _ := c.Row(s)
	var ts []int
	for _, t := range to {
		if t != s || !c.IsAbsorbing(s) {
			ts = append(ts, t)
		}
	}
	sort.Slice(ts, func(i, j int) bool { return pos[ts[i]] < pos[ts[j]] })
	return ts
}

// stateLess orders states by valuation (variable by variable, in
// declaration order), then by name, numbers within names compared as
// numbers (s2 before s10).
func stateLess(c *chain.Chain, a, b int) bool {
	va, vb := c.Valuation(a), c.Valuation(b)
	for i := 0; i < len(va) && i < len(vb); i++ {
		if va[i].Name != vb[i].Name {
			return va[i].Name < vb[i].Name
		}
		if va[i].Value != vb[i].Value {
			return va[i].Value < vb[i].Value
		}
	}
	if len(va) != len(vb) {
		return len(va) < len(vb)
	}
	return naturalLess(c.Name(a), c.Name(b))
}

// naturalLess compares strings with runs of digits compared as numbers.
func naturalLess(a, b string) bool {
	for a != "" && b != "" {
		da, db := digitPrefix(a), digitPrefix(b)
		if da != "" && db != "" {
			na, nb := strings.TrimLeft(da, "0"), strings.TrimLeft(db, "0")
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			a, b = a[len(da):], b[len(db):]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func digitPrefix(s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i]
}

func (g *dotGraph) DOTID() string { return "dpcheck" }

func (g *dotGraph) DOTAttributers() (graphAttrs, nodeAttrs, edgeAttrs encoding.Attributer) {
	ga := attrs{
		{Key: "rankdir", Value: "LR"},
		{Key: "ranksep", Value: "1.2"},
		{Key: "nodesep", Value: "0.15"},
		{Key: "fontname", Value: "Helvetica"},
	}
	if g.title != "" {
		ga = append(ga, encoding.Attribute{Key: "label", Value: dotLabel(strings.Split(g.title, "\n")...)}, encoding.Attribute{Key: "labelloc", Value: "t"})
	}
	return ga, attrs{{Key: "fontname", Value: "Helvetica"}, {Key: "fontsize", Value: "11"}},
		attrs{{Key: "arrowsize", Value: "0.7"}}
}

// Structure returns the two columns: the inputs first (rank=source) and
// the outputs last (rank=sink).
func (g *dotGraph) Structure() []dot.Multigraph { return g.structure }

type attrs []encoding.Attribute

func (a attrs) Attributes() []encoding.Attribute { return a }

// quote is a node's ID: the state's name as a Go string literal, which
// DOT reads as a string (its escapes are two characters each; an ID is
// never shown: every node has a label).
func quote(s string) string { return strconv.Quote(s) }

// What a picture shows of a name, a label or a statement is escaped, as
// the reports escape it, where it enters the DOT text: dotLabel for
// Graphviz's strings, htmlText for its HTML-like labels. Graphviz then
// never meets a control character (a NUL ends its input), and an SVG it
// writes is valid XML.

// MaxDrawnName is the longest name a picture shows; a longer one is cut
// with … (the reports show it whole).
const MaxDrawnName = 40

// shown is a name as a picture shows it: escaped (source.Escape) and cut
// to MaxDrawnName characters.
func shown(s string) string {
	s = source.Escape(s)
	if r := []rune(s); len(r) > MaxDrawnName {
		s = string(r[:MaxDrawnName-1]) + "…"
	}
	return s
}

// dotLabel is a DOT string that Graphviz shows as these lines, each
// escaped and, when it is a name, cut (see shown): backslashes and quotes
// are escaped for DOT, the lines joined by its line break \n.
func dotLabel(lines ...string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = r.Replace(source.Escape(l))
	}
	return `"` + strings.Join(out, `\n`) + `"`
}

// htmlText is a text in an HTML-like label: shown, then HTML-escaped.
func htmlText(s string) string { return html.EscapeString(shown(s)) }

// dotNode is a state: its ID is its place in the drawing order.
type dotNode struct {
	id    int
	name  string
	attrs attrs
}

func (n dotNode) ID() int64                        { return int64(n.id) }
func (n dotNode) DOTID() string                    { return quote(n.name) }
func (n dotNode) Attributes() []encoding.Attribute { return n.attrs }

// nodeAttributes draws state s. A state that moves is a table: its name,
// valuation and labels on the left, the probabilities of its transitions
// (to targets, in drawing order) on the right, one row and port each.
// Absorbing states are double ellipses.
func nodeAttributes(c *chain.Chain, s int, targets []int, h Highlight, event map[int]bool) attrs {
	text := []string{shown(c.Name(s))}
	if v := c.Valuation(s); len(v) > 0 {
		text = append(text, v.String())
	}
	if ls := c.Labels(s); len(ls) > 0 {
		shownLabels := make([]string, len(ls))
		for i, l := range ls {
			shownLabels[i] = shown(l)
		}
		text = append(text, "["+strings.Join(shownLabels, ", ")+"]")
	}
	marked := s == h.From || s == h.To
	if len(targets) == 0 {
		fill := "lightyellow"
		sink, hasSink := c.Sink()
		switch {
		case c.IsInput(s):
			fill = "lightblue"
		case hasSink && s == sink:
			fill = "grey85"
		case event[s]:
			fill = "salmon"
		}
		a := attrs{
			{Key: "label", Value: dotLabel(text...)},
			{Key: "shape", Value: "ellipse"}, {Key: "peripheries", Value: "2"},
			{Key: "style", Value: "filled"}, {Key: "fillcolor", Value: fill},
		}
		if marked {
			a = append(a, encoding.Attribute{Key: "color", Value: "red"}, encoding.Attribute{Key: "penwidth", Value: "3"})
		}
		return a
	}
	fill, style := "white", ` STYLE="rounded"`
	if c.IsInput(s) {
		fill, style = "lightblue", ""
	}
	border, color := "1", "black"
	if marked {
		border, color = "3", "red"
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<<TABLE BORDER="%s" COLOR="%s" CELLBORDER="0" CELLSPACING="0" CELLPADDING="3"%s>`, border, color, style)
	for k, t := range targets {
		b.WriteString("<TR>")
		if k == 0 {
			lines := make([]string, len(text))
			for i, l := range text {
				lines[i] = html.EscapeString(l) // shown above
			}
			fmt.Fprintf(&b, `<TD ROWSPAN="%d" BGCOLOR="%s">%s</TD>`, len(targets), fill, strings.Join(lines, "<BR/>"))
		}
		fmt.Fprintf(&b, `<TD PORT="p%d" ALIGN="RIGHT" BORDER="1" SIDES="L" COLOR="grey60"><FONT POINT-SIZE="9">%s</FONT></TD>`,
			k, html.EscapeString(c.Prob(s, t).RatString()))
		b.WriteString("</TR>")
	}
	b.WriteString("</TABLE>>")
	return attrs{{Key: "shape", Value: "plain"}, {Key: "label", Value: b.String()}}
}

// dotLine is a transition, drawn from the row of its probability in its
// state's box. A line between two states of one column runs on the
// column's right and does not constrain the layout: the column's order
// is the invisible lines' (see column).
type dotLine struct {
	f, t dotNode
	row  int
	flat bool
}

func (l dotLine) From() graph.Node         { return l.f }
func (l dotLine) To() graph.Node           { return l.t }
func (l dotLine) ReversedLine() graph.Line { return l }
func (l dotLine) ID() int64                { return int64(l.row) }

func (l dotLine) FromPort() (port, compass string) { return "p" + strconv.Itoa(l.row), "e" }

func (l dotLine) ToPort() (port, compass string) {
	if l.flat {
		return "", "e"
	}
	return "", ""
}

func (l dotLine) Attributes() []encoding.Attribute {
	if l.flat {
		return []encoding.Attribute{{Key: "constraint", Value: "false"}}
	}
	return nil
}

// column is a subgraph of states on one rank, held in order by invisible
// lines between consecutive states: Graphviz places the tail of a line
// within a rank above its head (rankdir=LR).
type column struct {
	*multi.DirectedGraph
	name, rank string
}

func newColumn(name, rank string, states []int, pos []int, c *chain.Chain) *column {
	col := &column{DirectedGraph: multi.NewDirectedGraph(), name: name, rank: rank}
	for i, s := range states {
		n := columnNode{pos[s], c.Name(s)}
		col.AddNode(n)
		if i > 0 {
			col.SetLine(invisibleLine{columnNode{pos[states[i-1]], c.Name(states[i-1])}, n})
		}
	}
	return col
}

func (col *column) DOTID() string { return col.name }

func (col *column) DOTAttributers() (graphAttrs, nodeAttrs, edgeAttrs encoding.Attributer) {
	return attrs{{Key: "rank", Value: col.rank}}, attrs{}, attrs{{Key: "style", Value: "invis"}}
}

// columnNode is a state named in a column; its attributes are the graph's.
type columnNode struct {
	id   int
	name string
}

func (n columnNode) ID() int64     { return int64(n.id) }
func (n columnNode) DOTID() string { return quote(n.name) }

type invisibleLine struct{ f, t columnNode }

func (l invisibleLine) From() graph.Node         { return l.f }
func (l invisibleLine) To() graph.Node           { return l.t }
func (l invisibleLine) ReversedLine() graph.Line { return l }
func (l invisibleLine) ID() int64                { return 0 }

// ErrNoGraphviz is returned by SVG when Graphviz's dot command is missing.
var ErrNoGraphviz = errors.New("Graphviz's dot command is not installed (Debian: apt-get install graphviz)")

// SVG renders DOT source to an SVG file with Graphviz's dot command. The
// command runs under ctx: when ctx is cancelled or its deadline passes, dot
// is killed and SVG returns an error that wraps ctx.Err() (test it with
// errors.Is(err, context.DeadlineExceeded) or context.Canceled).
func SVG(ctx context.Context, dotSrc []byte, path string) error {
	bin, err := exec.LookPath("dot")
	if err != nil {
		return ErrNoGraphviz
	}
	cmd := exec.CommandContext(ctx, bin, "-Tsvg", "-o", path)
	cmd.Stdin = bytes.NewReader(dotSrc)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	// After the kill, wait no longer than this for the pipes to close (a
	// child of dot may hold them).
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("Graphviz's dot was stopped: %w", ctx.Err())
		}
		return fmt.Errorf("Graphviz's dot: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return nil
}
