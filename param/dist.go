package param

import (
	"context"
	"fmt"
	"slices"

	"github.com/dpcheck/dpcheck/poly"
)

// MaxEliminationStates bounds the states reachable from one input of a
// cyclic chain: state elimination over rational functions multiplies
// degrees at every step, so its cost grows much faster than the chain
// (gambler's ruin on {0..n}, two inputs: 3 ms at n = 10, 33 ms at 30,
// 0.32 s at 60, about n^3.3, so some 20 s at the limit; the context stops
// it). Elimination is repeated for every compared input. Acyclic chains are
// propagated in topological order and are not bounded by it.
const MaxEliminationStates = 200

// Dist is the distribution over final outputs of one input: the outputs
// reached (ascending output IDs, named by Analysis.OutputName) and their
// probabilities as rational functions of the parameter.
type Dist struct {
	Out []int
	P   []poly.RatFunc
}

// Prob returns the probability of absorbing state o (zero when o is not
// reached).
func (d Dist) Prob(o int) poly.RatFunc {
	if i, ok := slices.BinarySearch(d.Out, o); ok {
		return d.P[i]
	}
	return poly.RatFunc{}
}

// Analysis holds the exact output distribution of every input of a
// neighbouring pair, for every parameter value at once. Made by Analyze.
type Analysis struct {
	c    *Chain
	dist map[int]Dist
	// varName is the observed variable ("" for final states); outputs
	// names the outputs by ID.
	varName string
	outputs []string
	cyclic  map[int]bool // inputs whose distribution came from elimination
}

// OutputName returns the name of output o: the absorbing state's name, or
// "name=value" when a variable is observed (the state's name for an
// absorbing state without the variable).
func (a *Analysis) OutputName(o int) string { return a.outputs[o] }

// NumOutputs returns the number of outputs reached from the compared
// inputs.
func (a *Analysis) NumOutputs() int { return len(a.outputs) }

// Chain returns the analysed chain.
func (a *Analysis) Chain() *Chain { return a.c }

// Distribution returns the output distribution of input s (ok false when s
// is in no neighbouring pair).
func (a *Analysis) Distribution(s int) (Dist, bool) {
	d, ok := a.dist[s]
	return d, ok
}

// Analyze computes the output distribution of every input that appears in a
// neighbouring pair: by propagation in topological order when the states
// reachable from the input form an acyclic graph, and otherwise by state
// elimination over rational functions (at most MaxEliminationStates
// reachable states). Every reachable state must reach an absorbing state
// (mass that is never absorbed is not supported here).
//
// The outputs are the absorbing states themselves, as verify.FinalState
// observes them; AnalyzeVar observes a variable's final value instead.
func Analyze(ctx context.Context, c *Chain) (*Analysis, error) {
	return analyze(ctx, c, "")
}

// AnalyzeVar is Analyze observing the final value of variable name, as
// verify.FinalVar does: absorbing states with the same value are one
// output (their probabilities added), and absorbing states without the
// variable are observed as themselves.
func AnalyzeVar(ctx context.Context, c *Chain, name string) (*Analysis, error) {
	if name == "" {
		return nil, fmt.Errorf("%w: no variable to observe", ErrParam)
	}
	return analyze(ctx, c, name)
}

func analyze(ctx context.Context, c *Chain, varName string) (*Analysis, error) {
	a := &Analysis{c: c, dist: map[int]Dist{}, varName: varName, cyclic: map[int]bool{}}
	ids := map[string]int{}
	for _, p := range c.Neighbours {
		for _, s := range p {
			if _, ok := a.dist[s]; ok {
				continue
			}
			d, cyclic, err := c.distribution(ctx, s)
			if err != nil {
				return nil, err
			}
			a.cyclic[s] = cyclic
			if d, err = a.observe(ctx, d, ids); err != nil {
				return nil, err
			}
			a.dist[s] = d
		}
	}
	// The cuts of DP rely on denominators of constant sign on the interval.
	// Sums and products of functions without a pole in the interval (the
	// transition probabilities, validated positive on it) have none, so
	// acyclic propagation needs no check; state elimination also divides by
	// 1 − p(u,u), positive on the interval when absorption is certain, and
	// that is checked here, once per distinct denominator.
	seen := newIndex()
	for _, p := range c.Neighbours {
		for _, s := range p {
			if !a.cyclic[s] {
				continue
			}
			for i, f := range a.dist[s].P {
				den := f.Den()
				if den.Degree() == 0 {
					continue
				}
				if _, fresh := seen.add(poly.FromPoly(den)); !fresh {
					continue
				}
				n, err := c.Limits.CountRoots(ctx, den, c.Interval)
				if err != nil {
					return nil, err
				}
				if n > 0 {
					return nil, fmt.Errorf("%w: the probability %s of reaching %s from %s has a pole in %s",
						ErrParam, f.Format(c.Param), a.OutputName(a.dist[s].Out[i]), c.Frame.Name(s), c.Interval)
				}
			}
		}
	}
	return a, nil
}

// reach returns the states reachable from s in DFS post-order and whether
// the reachable graph is acyclic.
func (c *Chain) reach(s int) (post []int, acyclic bool) {
	const (
		white = iota
		grey
		black
	)
	colour := map[int]int{}
	acyclic = true
	type frame struct{ s, i int }
	stack := []frame{{s, 0}}
	colour[s] = grey
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		row := c.Rows[top.s]
		if top.i < len(row) {
			t := row[top.i].To
			top.i++
			switch colour[t] {
			case white:
				colour[t] = grey
				stack = append(stack, frame{t, 0})
			case grey:
				acyclic = false
			}
			continue
		}
		colour[top.s] = black
		post = append(post, top.s)
		stack = stack[:len(stack)-1]
	}
	return post, acyclic
}

func (c *Chain) distribution(ctx context.Context, s int) (Dist, bool, error) {
	lim := c.Limits
	post, acyclic := c.reach(s)
	if acyclic {
		mass := map[int]poly.RatFunc{s: poly.FromPoly(poly.FromInts(1))}
		var d Dist
		for i := len(post) - 1; i >= 0; i-- { // reverse post-order: topological
			u := post[i]
			if err := ctx.Err(); err != nil {
				return Dist{}, false, err
			}
			m := mass[u]
			if c.IsAbsorbing(u) {
				d.Out = append(d.Out, u)
				d.P = append(d.P, m)
				continue
			}
			unit := m.Equal(poly.FromPoly(poly.FromInts(1)))
			for _, t := range c.Rows[u] {
				x, err := t.P, error(nil)
				if !unit {
					if x, err = lim.RatMul(ctx, m, t.P); err != nil {
						return Dist{}, false, err
					}
				}
				if y, ok := mass[t.To]; ok {
					if x, err = lim.RatAdd(ctx, y, x); err != nil {
						return Dist{}, false, err
					}
				}
				mass[t.To] = x
			}
		}
		sortDist(&d)
		return d, false, nil
	}
	if len(post) > MaxEliminationStates {
		return Dist{}, true, fmt.Errorf("%w: %d states are reachable from input %s in a cyclic chain; state elimination over rational functions handles at most %d",
			poly.ErrLimit, len(post), c.Frame.Name(s), MaxEliminationStates)
	}
	d, err := c.eliminate(ctx, s, post)
	return d, true, err
}

func sortDist(d *Dist) {
	idx := make([]int, len(d.Out))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(i, j int) int { return d.Out[i] - d.Out[j] })
	out := make([]int, len(idx))
	p := make([]poly.RatFunc, len(idx))
	for k, i := range idx {
		out[k], p[k] = d.Out[i], d.P[i]
	}
	d.Out, d.P = out, p
}

// eliminate computes the absorption probabilities from s by state
// elimination: every transient state u ≠ s is removed, its predecessors v
// getting p(v,w) += p(v,u)·p(u,w)/(1 − p(u,u)); at the end s's edges to
// absorbing states divided by 1 − p(s,s) are the distribution.
func (c *Chain) eliminate(ctx context.Context, s int, states []int) (Dist, error) {
	lim := c.Limits
	// Absorbing states reachable: every transient state must reach one.
	out := map[int]map[int]poly.RatFunc{}
	in := map[int]map[int]bool{}
	for _, u := range states {
		out[u] = map[int]poly.RatFunc{}
		in[u] = map[int]bool{}
	}
	for _, u := range states {
		for _, t := range c.Rows[u] {
			out[u][t.To] = t.P
			in[t.To][u] = true
		}
	}
	// Check absorption: backward search from absorbing states.
	good := map[int]bool{}
	var queue []int
	for _, u := range states {
		if c.IsAbsorbing(u) {
			good[u] = true
			queue = append(queue, u)
		}
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for v := range in[u] {
			if !good[v] {
				good[v] = true
				queue = append(queue, v)
			}
		}
	}
	for _, u := range states {
		if !good[u] {
			return Dist{}, fmt.Errorf("%w: from input %s the state %s is reachable but never reaches an absorbing state (mass never absorbed is not supported)",
				ErrParam, c.Frame.Name(s), c.Frame.Name(u))
		}
	}
	one := poly.FromPoly(poly.FromInts(1))
	for _, u := range states {
		if u == s || c.IsAbsorbing(u) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return Dist{}, err
		}
		stay := one
		if loop, ok := out[u][u]; ok {
			var err error
			if stay, err = lim.RatSub(ctx, one, loop); err != nil {
				return Dist{}, err
			}
			delete(out[u], u)
			delete(in[u], u)
		}
		for v := range in[u] {
			pvu := out[v][u]
			f, err := lim.RatDiv(ctx, pvu, stay)
			if err != nil {
				return Dist{}, err
			}
			for w, puw := range out[u] {
				x, err := lim.RatMul(ctx, f, puw)
				if err != nil {
					return Dist{}, err
				}
				if y, ok := out[v][w]; ok {
					if x, err = lim.RatAdd(ctx, y, x); err != nil {
						return Dist{}, err
					}
				}
				out[v][w] = x
				in[w][v] = true
			}
			delete(out[v], u)
		}
		for w := range out[u] {
			delete(in[w], u)
		}
		delete(out, u)
		delete(in, u)
	}
	stay := one
	if loop, ok := out[s][s]; ok {
		var err error
		if stay, err = lim.RatSub(ctx, one, loop); err != nil {
			return Dist{}, err
		}
	}
	var d Dist
	for w, p := range out[s] {
		if w == s {
			continue
		}
		x, err := lim.RatDiv(ctx, p, stay)
		if err != nil {
			return Dist{}, err
		}
		d.Out = append(d.Out, w)
		d.P = append(d.P, x)
	}
	sortDist(&d)
	return d, nil
}

// observe maps a distribution over absorbing states to one over outputs,
// adding the probabilities of states observed alike.
func (a *Analysis) observe(ctx context.Context, d Dist, ids map[string]int) (Dist, error) {
	f := a.c.Frame
	group := map[int][]poly.RatFunc{}
	var outs []int
	for i, s := range d.Out {
		name := f.Name(s)
		key := "state " + name
		if a.varName != "" {
			if v, ok := f.Value(s, a.varName); ok {
				name = fmt.Sprintf("%s=%d", a.varName, v)
				key = name
			}
		}
		id, ok := ids[key]
		if !ok {
			id = len(a.outputs)
			ids[key] = id
			a.outputs = append(a.outputs, name)
		}
		if _, ok := group[id]; !ok {
			outs = append(outs, id)
		}
		group[id] = append(group[id], d.P[i])
	}
	slices.Sort(outs)
	out := Dist{Out: outs, P: make([]poly.RatFunc, len(outs))}
	for i, o := range outs {
		var err error
		if out.P[i], err = sumRat(ctx, a.c.Limits, group[o]); err != nil {
			return Dist{}, err
		}
	}
	return out, nil
}
