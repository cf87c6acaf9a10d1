package verify

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/dpcheck/dpcheck/chain"
)

// MaxTraceStates bounds the (state, trace prefix) pairs kept at one step of
// the forward propagation of trace outputs.
const MaxTraceStates = 1 << 20

// Traces observes the sequence of observable labels along the first k
// steps of a run: the observation at step i is the set of the given labels
// carried by the state reached after i steps (the input's own labels are
// not observed). An empty observation prints as "·", one label as itself,
// several as {a, b}.
func Traces(k int, labels ...string) Output {
	ls := slices.Clone(labels)
	sort.Strings(ls)
	return Output{kind: outTraces, labels: slices.Compact(ls), horizon: k}
}

// traceDistributions computes the exact distribution of traces of every
// input by forward propagation that merges equal (state, prefix) pairs.
func traceDistributions(ctx context.Context, c *chain.Chain, inputs []int, out Output) (map[int]dvec, []string, error) {
	if out.horizon < 1 {
		return nil, nil, fmt.Errorf("%w: traces need at least one step", ErrModel)
	}
	// Observation of each state, interned.
	obsID := map[string]int{}
	var obsName []string
	obs := make([]int, c.NumStates())
	for s := range obs {
		name := out.Observation(c, s)
		id, ok := obsID[name]
		if !ok {
			id = len(obsName)
			obsID[name] = id
			obsName = append(obsName, name)
		}
		obs[s] = id
	}
	// Trie of trace prefixes shared by all inputs; node 0 is the empty trace.
	type edge struct{ node, obs int }
	child := map[edge]int{}
	parent := []int{-1}
	label := []int{-1}
	extend := func(node, o int) int {
		if n, ok := child[edge{node, o}]; ok {
			return n
		}
		n := len(parent)
		child[edge{node, o}] = n
		parent = append(parent, node)
		label = append(label, o)
		return n
	}
	type key struct{ s, node int }
	dists := map[int]map[int]*big.Rat{}
	for _, in := range inputs {
		cur := map[key]*big.Rat{{in, 0}: ratOne}
		for range out.horizon {
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
			next := make(map[key]*big.Rat, len(cur))
			for k, p := range cur {
				to, pt := c.Row(k.s)
				for i, t := range to {
					nk := key{t, extend(k.node, obs[t])}
					x := new(big.Rat).Mul(p, pt[i])
					if old, ok := next[nk]; ok {
						x.Add(x, old)
					}
					next[nk] = x
				}
			}
			if len(next) > MaxTraceStates {
				return nil, nil, fmt.Errorf("%w: more than %d (state, trace) pairs after a step from %s; use fewer steps or observe fewer labels", ErrModel, MaxTraceStates, c.Name(in))
			}
			cur = next
		}
		d := map[int]*big.Rat{}
		for k, p := range cur {
			if old, ok := d[k.node]; ok {
				d[k.node] = new(big.Rat).Add(old, p)
			} else {
				d[k.node] = p
			}
		}
		dists[in] = d
	}
	// Name and number the traces of full length, in lexical order.
	nameOf := func(node int) string {
		var parts []string
		for n := node; n > 0; n = parent[n] {
			parts = append(parts, obsName[label[n]])
		}
		slices.Reverse(parts)
		return strings.Join(parts, " ")
	}
	var leaves []int
	seen := map[int]bool{}
	for _, d := range dists {
		for node := range d {
			if !seen[node] {
				seen[node] = true
				leaves = append(leaves, node)
			}
		}
	}
	names := make([]string, len(leaves))
	for i, n := range leaves {
		names[i] = nameOf(n)
	}
	sort.Sort(byName{leaves, names})
	id := make(map[int]int, len(leaves))
	for i, n := range leaves {
		id[n] = i
	}
	res := make(map[int]dvec, len(inputs))
	for in, d := range dists {
		var v dvec
		for node, p := range d {
			v.out = append(v.out, id[node])
			v.p = append(v.p, p)
		}
		sort.Sort(byOut{&v})
		res[in] = v
	}
	return res, names, nil
}

type byName struct {
	nodes []int
	names []string
}

func (b byName) Len() int           { return len(b.nodes) }
func (b byName) Less(i, j int) bool { return b.names[i] < b.names[j] }
func (b byName) Swap(i, j int) {
	b.nodes[i], b.nodes[j] = b.nodes[j], b.nodes[i]
	b.names[i], b.names[j] = b.names[j], b.names[i]
}

type byOut struct{ v *dvec }

func (b byOut) Len() int           { return len(b.v.out) }
func (b byOut) Less(i, j int) bool { return b.v.out[i] < b.v.out[j] }
func (b byOut) Swap(i, j int) {
	b.v.out[i], b.v.out[j] = b.v.out[j], b.v.out[i]
	b.v.p[i], b.v.p[j] = b.v.p[j], b.v.p[i]
}

// Observation is what a trace of o shows of state s of c: the observed
// labels s holds, "·" for none, the label for one, "{a, b}" for more, each
// written as traceLabel writes it. Two states show the same exactly when
// they hold the same observed labels.
func (o Output) Observation(c *chain.Chain, s int) string {
	var held []string
	for _, l := range o.labels {
		if c.HasLabel(s, l) {
			held = append(held, traceLabel(l))
		}
	}
	switch len(held) {
	case 0:
		return "·"
	case 1:
		return held[0]
	}
	return "{" + strings.Join(held, ", ") + "}"
}

// traceLabel writes a label in a trace, quoted when it could be read as
// trace notation (·, braces, commas, spaces), so that trace names are
// unambiguous.
func traceLabel(l string) string {
	if l == "·" || l == "" || strings.ContainsAny(l, "{}, \"") {
		return strconv.Quote(l)
	}
	return l
}
