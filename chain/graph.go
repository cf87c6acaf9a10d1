package chain

import (
	"math/big"
	"slices"

	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/iterator"
	"gonum.org/v1/gonum/graph/simple"
)

// Edge is a transition seen as a gonum graph edge. P is the transition
// probability (read-only).
type Edge struct {
	F, T simple.Node
	P    *big.Rat
}

// From returns the source state of the transition.
func (e Edge) From() graph.Node { return e.F }

// To returns the target state of the transition.
func (e Edge) To() graph.Node { return e.T }

// ReversedEdge returns e unaltered: a transition's reversal is not a
// transition of the chain.
func (e Edge) ReversedEdge() graph.Edge { return e }

// Graph returns a read-only view of c implementing graph.Directed. Node IDs
// are state numbers; absorbing states have self-loops.
func (c *Chain) Graph() graph.Directed { return graphView{c} }

type graphView struct{ c *Chain }

func (g graphView) has(id int64) bool { return id >= 0 && id < int64(len(g.c.names)) }

func (g graphView) Node(id int64) graph.Node {
	if !g.has(id) {
		return nil
	}
	return simple.Node(id)
}

func (g graphView) Nodes() graph.Nodes {
	n := len(g.c.names)
	if n == 0 {
		return graph.Empty
	}
	return iterator.NewImplicitNodes(0, n, func(id int) graph.Node { return simple.Node(id) })
}

func nodesOf(ids []int) graph.Nodes {
	if len(ids) == 0 {
		return graph.Empty
	}
	return &idNodes{ids: ids}
}

// idNodes iterates over states as graph nodes without copying the row
// (Tarjan's algorithm asks for every state's successors: copying them
// allocated more than the chain's own transitions).
type idNodes struct {
	ids []int
	i   int // 1 + the current index; 0 before the first Next
}

func (n *idNodes) Next() bool {
	if n.i < len(n.ids) {
		n.i++
		return true
	}
	n.i = len(n.ids) + 1
	return false
}

func (n *idNodes) Len() int { return max(0, len(n.ids)-n.i) }

func (n *idNodes) Reset() { n.i = 0 }

func (n *idNodes) Node() graph.Node {
	if n.i < 1 || n.i > len(n.ids) {
		return nil
	}
	return simple.Node(n.ids[n.i-1])
}

func (g graphView) From(id int64) graph.Nodes {
	if !g.has(id) {
		return graph.Empty
	}
	return nodesOf(g.c.to[id])
}

func (g graphView) To(id int64) graph.Nodes {
	if !g.has(id) {
		return graph.Empty
	}
	return nodesOf(g.c.Predecessors(int(id)))
}

func (g graphView) HasEdgeFromTo(uid, vid int64) bool {
	if !g.has(uid) || !g.has(vid) {
		return false
	}
	_, ok := slices.BinarySearch(g.c.to[uid], int(vid))
	return ok
}

func (g graphView) HasEdgeBetween(xid, yid int64) bool {
	return g.HasEdgeFromTo(xid, yid) || g.HasEdgeFromTo(yid, xid)
}

func (g graphView) Edge(uid, vid int64) graph.Edge {
	if !g.HasEdgeFromTo(uid, vid) {
		return nil
	}
	return Edge{F: simple.Node(uid), T: simple.Node(vid), P: g.c.Prob(int(uid), int(vid))}
}

// Adjacency is a directed graph given by the successors of each node
// (nodes 0 … len−1): a product of a chain with an automaton, say, whose
// strongly connected components gonum's algorithms find through Graph.
type Adjacency [][]int

// Graph returns a read-only view of a implementing graph.Directed.
func (a Adjacency) Graph() graph.Directed { return &adjView{succ: a} }

type adjView struct {
	succ Adjacency
	pred [][]int // made by the first call of To
}

func (g *adjView) has(id int64) bool { return id >= 0 && id < int64(len(g.succ)) }

func (g *adjView) Node(id int64) graph.Node {
	if !g.has(id) {
		return nil
	}
	return simple.Node(id)
}

func (g *adjView) Nodes() graph.Nodes {
	if len(g.succ) == 0 {
		return graph.Empty
	}
	return iterator.NewImplicitNodes(0, len(g.succ), func(id int) graph.Node { return simple.Node(id) })
}

func (g *adjView) From(id int64) graph.Nodes {
	if !g.has(id) {
		return graph.Empty
	}
	return nodesOf(g.succ[id])
}

func (g *adjView) To(id int64) graph.Nodes {
	if !g.has(id) {
		return graph.Empty
	}
	if g.pred == nil {
		g.pred = make([][]int, len(g.succ))
		for u, ts := range g.succ {
			for _, t := range ts {
				g.pred[t] = append(g.pred[t], u)
			}
		}
	}
	return nodesOf(g.pred[id])
}

func (g *adjView) HasEdgeFromTo(uid, vid int64) bool {
	return g.has(uid) && g.has(vid) && slices.Contains(g.succ[uid], int(vid))
}

func (g *adjView) HasEdgeBetween(xid, yid int64) bool {
	return g.HasEdgeFromTo(xid, yid) || g.HasEdgeFromTo(yid, xid)
}

func (g *adjView) Edge(uid, vid int64) graph.Edge {
	if !g.HasEdgeFromTo(uid, vid) {
		return nil
	}
	return simple.Edge{F: simple.Node(uid), T: simple.Node(vid)}
}

// ReachBack returns the nodes that reach a node of from (from's own
// included) along edges of a whose every node before the one reached is in
// through.
func (a Adjacency) ReachBack(from, through []bool) []bool {
	pred := make([][]int, len(a))
	for u, ts := range a {
		for _, t := range ts {
			pred[t] = append(pred[t], u)
		}
	}
	out := slices.Clone(from)
	var stack []int
	for u, x := range from {
		if x {
			stack = append(stack, u)
		}
	}
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, v := range pred[u] {
			if !out[v] && through[v] {
				out[v] = true
				stack = append(stack, v)
			}
		}
	}
	return out
}
