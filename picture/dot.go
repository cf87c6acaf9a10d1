// Package picture draws dpcheck's models and results: the chain in
// Graphviz DOT (through gonum's DOT encoder), rendered to SVG when
// Graphviz is installed, and the exact privacy profile δ(ε) plotted with
// gonum's plot package. Pictures are for people; nothing here decides a
// verdict, and the floating point used for plotting never reaches one.
package picture

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"os/exec"
	"strings"

	"github.com/dpcheck/dpcheck/chain"
	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/encoding"
	"gonum.org/v1/gonum/graph/encoding/dot"
	"gonum.org/v1/gonum/graph/iterator"
)

// MaxDOTStates bounds the chains DOT draws: a larger picture is unreadable.
const MaxDOTStates = 2000

// Highlight marks a counterexample in a picture: an ordered pair of states
// and the states of the event (absorbing states).
type Highlight struct {
	From, To int // -1 when there is no pair
	Event    []int
	Title    string
}

// NoHighlight draws the chain plainly.
var NoHighlight = Highlight{From: -1, To: -1}

// DOT returns the chain in Graphviz DOT: inputs as blue boxes, absorbing
// states (outputs) as yellow double circles, the sink † grey, exact
// probabilities on the edges; the highlighted pair red, its event salmon.
func DOT(c *chain.Chain, h Highlight) ([]byte, error) {
	if c.NumStates() > MaxDOTStates {
		return nil, fmt.Errorf("the chain has %d states; a picture is drawn for at most %d", c.NumStates(), MaxDOTStates)
	}
	g := &dotGraph{c: c, h: h, event: map[int]bool{}}
	for _, s := range h.Event {
		g.event[s] = true
	}
	return dot.Marshal(g, "dpcheck", "", "  ")
}

type dotGraph struct {
	c     *chain.Chain
	h     Highlight
	event map[int]bool
}

func (g *dotGraph) DOTID() string { return "dpcheck" }

func (g *dotGraph) DOTAttributers() (graphAttrs, nodeAttrs, edgeAttrs encoding.Attributer) {
	ga := attrs{{Key: "rankdir", Value: "LR"}, {Key: "fontname", Value: "Helvetica"}}
	if g.h.Title != "" {
		ga = append(ga, encoding.Attribute{Key: "label", Value: quote(g.h.Title)}, encoding.Attribute{Key: "labelloc", Value: "t"})
	}
	return ga, attrs{{Key: "fontname", Value: "Helvetica"}}, attrs{{Key: "fontname", Value: "Helvetica"}, {Key: "fontsize", Value: "10"}}
}

type attrs []encoding.Attribute

func (a attrs) Attributes() []encoding.Attribute { return a }

func quote(s string) string { return fmt.Sprintf("%q", s) }

type dotNode struct {
	g  *dotGraph
	id int
}

func (n dotNode) ID() int64     { return int64(n.id) }
func (n dotNode) DOTID() string { return quote(n.g.c.Name(n.id)) }
func (n dotNode) Attributes() []encoding.Attribute {
	c, s := n.g.c, n.id
	label := c.Name(s)
	if v := c.Valuation(s); len(v) > 0 {
		label += "\n" + v.String()
	}
	if ls := c.Labels(s); len(ls) > 0 {
		label += "\n[" + strings.Join(ls, ", ") + "]"
	}
	a := attrs{{Key: "label", Value: quote(label)}}
	sink, hasSink := c.Sink()
	switch {
	case c.IsInput(s):
		a = append(a, encoding.Attribute{Key: "shape", Value: "box"}, encoding.Attribute{Key: "style", Value: "filled"},
			encoding.Attribute{Key: "fillcolor", Value: "lightblue"})
	case hasSink && s == sink:
		a = append(a, encoding.Attribute{Key: "style", Value: "filled"}, encoding.Attribute{Key: "fillcolor", Value: "grey85"})
	case c.IsAbsorbing(s):
		fill := "lightyellow"
		if n.g.event[s] {
			fill = "salmon"
		}
		a = append(a, encoding.Attribute{Key: "shape", Value: "doublecircle"}, encoding.Attribute{Key: "style", Value: "filled"},
			encoding.Attribute{Key: "fillcolor", Value: fill})
	}
	if s == n.g.h.From || s == n.g.h.To {
		a = append(a, encoding.Attribute{Key: "color", Value: "red"}, encoding.Attribute{Key: "penwidth", Value: "3"})
	}
	return a
}

type dotEdge struct {
	f, t dotNode
	p    *big.Rat
}

func (e dotEdge) From() graph.Node         { return e.f }
func (e dotEdge) To() graph.Node           { return e.t }
func (e dotEdge) ReversedEdge() graph.Edge { return e }
func (e dotEdge) Attributes() []encoding.Attribute {
	return []encoding.Attribute{{Key: "label", Value: quote(e.p.RatString())}}
}

func (g *dotGraph) node(id int) dotNode { return dotNode{g, id} }

func (g *dotGraph) Node(id int64) graph.Node {
	if id < 0 || id >= int64(g.c.NumStates()) {
		return nil
	}
	return g.node(int(id))
}

func (g *dotGraph) Nodes() graph.Nodes {
	nodes := make([]graph.Node, g.c.NumStates())
	for i := range nodes {
		nodes[i] = g.node(i)
	}
	return iterator.NewOrderedNodes(nodes)
}

func (g *dotGraph) nodesOf(ids []int) graph.Nodes {
	nodes := make([]graph.Node, len(ids))
	for i, id := range ids {
		nodes[i] = g.node(id)
	}
	return iterator.NewOrderedNodes(nodes)
}

func (g *dotGraph) From(id int64) graph.Nodes {
	to, _ := g.c.Row(int(id))
	return g.nodesOf(to)
}

func (g *dotGraph) To(id int64) graph.Nodes { return g.nodesOf(g.c.Predecessors(int(id))) }

func (g *dotGraph) HasEdgeFromTo(u, v int64) bool { return g.c.Graph().HasEdgeFromTo(u, v) }

func (g *dotGraph) HasEdgeBetween(x, y int64) bool { return g.c.Graph().HasEdgeBetween(x, y) }

func (g *dotGraph) Edge(u, v int64) graph.Edge {
	if !g.HasEdgeFromTo(u, v) {
		return nil
	}
	return dotEdge{g.node(int(u)), g.node(int(v)), g.c.Prob(int(u), int(v))}
}

// ErrNoGraphviz is returned by SVG when Graphviz's dot command is missing.
var ErrNoGraphviz = errors.New("Graphviz's dot command is not installed (Debian: apt-get install graphviz); --dot writes the DOT file to render elsewhere")

// SVG renders DOT source to an SVG file with Graphviz's dot command.
func SVG(dotSrc []byte, path string) error {
	bin, err := exec.LookPath("dot")
	if err != nil {
		return ErrNoGraphviz
	}
	cmd := exec.Command(bin, "-Tsvg", "-o", path)
	cmd.Stdin = bytes.NewReader(dotSrc)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("dot: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return nil
}
