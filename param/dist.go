package param

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/poly"
)

// MaxEliminationStates bounds the states that are not absorbing reachable
// from one input of a cyclic chain: state elimination over rational functions multiplies
// degrees at every step, so its cost grows much faster than the chain
// (gambler's ruin on {0..n}, two inputs: 3 ms at n = 10, 33 ms at 30,
// 0.32 s at 60, about n^3.3, so some 20 s at the limit; the context stops
// it). Elimination is repeated for every compared input. Chains acyclic but
// for self-loops are propagated in topological order and are not bounded
// by it.
const MaxEliminationStates = 200

// DefaultMaxEliminationWork bounds the coefficient operations that state
// elimination over rational functions is estimated to take, over all the
// inputs it is done for, when Chain.MaxEliminationWork is zero: 5·10^8,
// up to about a minute on one core (some 10^-7 s an operation). The
// gambler's ruin on {0..60} from its 59 inner states estimates 5·10^7 (the
// whole check takes 7 s), the random walk on a 7×7 grid from its 25 inner
// states 2.8·10^8 (52 s); on 8×8 1.9·10^9 (more than 5 minutes), on
// 11×11 1.3·10^11.
const DefaultMaxEliminationWork = 5e8

// EliminationLimitError says that state elimination over rational
// functions would take more coefficient operations than the chain allows
// (Chain.MaxEliminationWork): about Work for the first Done of the Inputs
// inputs it is needed for, the last of them From, with States states
// reachable from it. It is refused before anything is eliminated.
type EliminationLimitError struct {
	Work, Max    float64 // estimates of work and their bound, never a verdict's values
	Done, Inputs int
	From         string
	States       int
}

// Error says how much work for how many inputs, and the limit.
func (e *EliminationLimitError) Error() string {
	of := fmt.Sprintf("%d of the %d inputs it is needed for", e.Done, e.Inputs)
	if e.Done == e.Inputs {
		of = fmt.Sprintf("the %d inputs it is needed for", e.Inputs)
		if e.Inputs == 1 {
			of = "the input it is needed for"
		}
	}
	return fmt.Sprintf("state elimination over rational functions would take about %s coefficient operations for %s (%d states are reachable from %s); the limit is %s",
		exact.Rounded(e.Work), of, e.States, e.From, exact.Whole(e.Max))
}

// LimitKind names the limit: "elimination work".
func (e *EliminationLimitError) LimitKind() string { return "elimination work" }

// Unwrap makes an EliminationLimitError a poly.ErrLimit.
func (e *EliminationLimitError) Unwrap() error { return poly.ErrLimit }

// StatesLimitError says that more than MaxEliminationStates states that
// are not absorbing are reachable from an input of a chain with cycles
// (other than self-loops), too many for state elimination over rational
// functions.
type StatesLimitError struct {
	States int
	From   string
}

// Error names the input, the states and the limit.
func (e *StatesLimitError) Error() string {
	return fmt.Sprintf("%d states that are not absorbing are reachable from input %s, with cycles among them; state elimination over rational functions handles at most %d", e.States, e.From, MaxEliminationStates)
}

// Unwrap makes a StatesLimitError a poly.ErrLimit.
func (e *StatesLimitError) Unwrap() error { return poly.ErrLimit }

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
// reachable states; the work of all the eliminations, estimated before
// any is made, at most c.MaxEliminationWork, else an
// *EliminationLimitError). Every reachable state must reach an absorbing state
// (mass that is never absorbed is not supported here).
//
// The outputs are the absorbing states themselves, as verify.FinalState
// observes them; AnalyzeVar observes a variable's final value instead.
func Analyze(ctx context.Context, c *Chain) (*Analysis, error) {
	return NewFinals(c).Analyze(ctx, "")
}

// Finals memoizes the final-state distributions of a chain's inputs, each
// computed once for whichever statements need it — the analysis of the
// neighbouring pairs, the expected values of every input — since state
// elimination over rational functions may take long. It is safe for
// concurrent use.
type Finals struct {
	c    *Chain
	mu   sync.Mutex
	good []bool // the states that reach an absorbing state, once needed
	d    map[int]Dist
}

// NewFinals returns an empty memo of c's final distributions.
func NewFinals(c *Chain) *Finals { return &Finals{c: c, d: map[int]Dist{}} }

// of returns the final distribution of the input of pl.
func (fs *Finals) of(ctx context.Context, pl inputPlan) (Dist, error) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if d, ok := fs.d[pl.s]; ok {
		return d, nil
	}
	if !pl.acyclic && fs.good == nil {
		good, err := fs.c.absorbable(ctx)
		if err != nil {
			return Dist{}, err
		}
		fs.good = good
	}
	d, err := fs.c.distribution(ctx, pl, fs.good)
	if err != nil {
		return Dist{}, err
	}
	fs.d[pl.s] = d
	return d, nil
}

// Analyze is the package's Analyze (AnalyzeVar with a variable's name),
// its distributions taken from the memo.
func (fs *Finals) Analyze(ctx context.Context, varName string) (*Analysis, error) {
	return analyze(ctx, fs, varName)
}

// AnalyzeVar is Analyze observing the final value of variable name, as
// verify.FinalVar does: absorbing states with the same value are one
// output (their probabilities added), and absorbing states without the
// variable are observed as themselves.
func AnalyzeVar(ctx context.Context, c *Chain, name string) (*Analysis, error) {
	if name == "" {
		return nil, fmt.Errorf("%w: no variable to observe", ErrParam)
	}
	return NewFinals(c).Analyze(ctx, name)
}

func analyze(ctx context.Context, fs *Finals, varName string) (*Analysis, error) {
	c := fs.c
	a := &Analysis{c: c, dist: map[int]Dist{}, varName: varName, cyclic: map[int]bool{}}
	plans, err := c.plan(ctx, false)
	if err != nil {
		return nil, err
	}
	ids := map[string]int{}
	for _, pl := range plans {
		d, err := fs.of(ctx, pl)
		if err != nil {
			return nil, err
		}
		a.cyclic[pl.s] = !pl.acyclic
		if d, err = a.observe(ctx, d, ids); err != nil {
			return nil, err
		}
		a.dist[pl.s] = d
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
// the reachable graph is acyclic but for self-loops (which propagation
// divides out: see distribution).
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
			if t == top.s {
				continue // a self-loop
			}
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

// inputPlan is how the distribution of input s is computed: the states
// reachable from it in DFS post-order, by propagation when they are
// acyclic but for self-loops, else by elimination in that order.
type inputPlan struct {
	s       int
	post    []int
	acyclic bool
}

// plan returns the plan of every input in a neighbouring pair, in the
// order of the pairs (with every, of every input of the frame), once the inputs that need elimination are known to
// be within MaxEliminationStates and their estimated work within
// c.MaxEliminationWork: nothing is computed for a chain over a limit.
func (c *Chain) plan(ctx context.Context, every bool) ([]inputPlan, error) {
	var plans []inputPlan
	seen := map[int]bool{}
	cyclic := 0
	inputs := c.Frame.Inputs()
	if !every {
		inputs = nil
		for _, p := range c.Neighbours {
			inputs = append(inputs, p[0], p[1])
		}
	}
	for _, s := range inputs {
		if seen[s] {
			continue
		}
		seen[s] = true
		post, acyclic := c.reach(s)
		if !acyclic {
			transient := 0
			for _, u := range post {
				if !c.IsAbsorbing(u) {
					transient++
				}
			}
			if transient > MaxEliminationStates {
				return nil, &StatesLimitError{States: transient, From: c.Frame.Name(s)}
			}
		}
		if !acyclic {
			cyclic++
		}
		plans = append(plans, inputPlan{s, post, acyclic})
	}
	limit := c.MaxEliminationWork
	if limit <= 0 {
		limit = DefaultMaxEliminationWork
	}
	work, done := 0.0, 0
	for _, pl := range plans {
		if pl.acyclic {
			continue
		}
		w, err := c.eliminationWork(ctx, pl.s, pl.post)
		if err != nil {
			return nil, err
		}
		work += w
		done++
		if work > limit {
			return nil, &EliminationLimitError{Work: work, Max: limit, Done: done, Inputs: cyclic, From: c.Frame.Describe(pl.s), States: len(pl.post)}
		}
	}
	return plans, nil
}

// distribution computes the distribution of the input of pl (good as
// eliminate's).
func (c *Chain) distribution(ctx context.Context, pl inputPlan, good []bool) (Dist, error) {
	lim := c.Limits
	s, post := pl.s, pl.post
	if pl.acyclic {
		mass := map[int]poly.RatFunc{s: poly.FromPoly(poly.FromInts(1))}
		var d Dist
		for i := len(post) - 1; i >= 0; i-- { // reverse post-order: topological
			u := post[i]
			if err := ctx.Err(); err != nil {
				return Dist{}, err
			}
			m := mass[u]
			if c.IsAbsorbing(u) {
				d.Out = append(d.Out, u)
				d.P = append(d.P, m)
				continue
			}
			// A self-loop of probability q sends the mass on to the other
			// successors in proportion, each p(u,t)/(1 − q): 1 − q is the
			// sum of their probabilities, positive on the interval.
			for _, t := range c.Rows[u] {
				if t.To != u {
					continue
				}
				out, err := lim.RatSub(ctx, poly.FromPoly(poly.FromInts(1)), t.P)
				if err == nil && out.Num().IsZero() {
					err = fmt.Errorf("%w: from input %s the state %s is reachable but never reaches an absorbing state (mass never absorbed is not supported)", ErrParam, c.Frame.Name(s), c.Frame.Name(u))
				}
				if err == nil {
					m, err = lim.RatDiv(ctx, m, out)
				}
				if err != nil {
					return Dist{}, err
				}
			}
			unit := m.Equal(poly.FromPoly(poly.FromInts(1)))
			for _, t := range c.Rows[u] {
				if t.To == u {
					continue
				}
				x, err := t.P, error(nil)
				if !unit {
					if x, err = lim.RatMul(ctx, m, t.P); err != nil {
						return Dist{}, err
					}
				}
				if y, ok := mass[t.To]; ok {
					if x, err = lim.RatAdd(ctx, y, x); err != nil {
						return Dist{}, err
					}
				}
				mass[t.To] = x
			}
		}
		sortDist(&d)
		return d, nil
	}
	return c.eliminate(ctx, s, post, good)
}

// eliminationWork estimates the coefficient operations of eliminating the
// states of post from s (see eliminate) without computing any: it removes
// them from the graph as eliminate does and prices every operation
// p(v,w) + p(v,u)·p(u,w)/(1 − p(u,u)) at (D+1)², D the sum of the degrees
// (numerator plus denominator) of its operands — a product of polynomials
// of degree D, or their GCD, makes some D² products of coefficients. The
// degree of a probability made is the sum of those it is made from, at
// most 2·d·(k+1) for d the largest degree of the chain's probabilities
// and k the eliminated states connected to u: after their elimination
// every probability through them is a ratio of determinants of their
// matrix (Cramer's rule). On gambler's ruins and random walks on grids
// the estimate is 1.2 to 2 times the operations eliminate makes.
//
// The estimate is a float64: it only decides whether to start, and
// never enters a probability or a verdict.
func (c *Chain) eliminationWork(ctx context.Context, s int, post []int) (float64, error) {
	deg := func(f poly.RatFunc) int { return max(f.Num().Degree(), 0) + f.Den().Degree() }
	g := newElimGraph(c, post, deg) // the degree of every probability left
	d := 0
	adj := map[int][]int{} // the chain's graph, both ways
	for _, u := range post {
		for _, t := range c.Rows[u] {
			d = max(d, t.P.Num().Degree(), t.P.Den().Degree())
			adj[u], adj[t.To] = append(adj[u], t.To), append(adj[t.To], u)
		}
	}
	// The eliminated states' connected parts (union-find).
	parent, size := map[int]int{}, map[int]int{}
	find := func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	work := 0.0
	for _, u := range post {
		if u == s || c.IsAbsorbing(u) {
			continue
		}
		parent[u], size[u] = u, 1
		for _, x := range adj[u] {
			if _, gone := parent[x]; gone {
				if a, b := find(u), find(x); a != b {
					parent[b] = a
					size[a] += size[b]
				}
			}
		}
		most := 2 * d * (size[find(u)] + 1)
		err := g.remove(ctx, u, func(loop int, _ bool) (int, error) { return loop, nil },
			func(pvu, stay int) (int, error) {
				f := pvu + stay
				work += float64((f + 1) * (f + 1))
				return min(f, most), nil
			},
			func(f, puw, pvw int, _ bool) (int, error) {
				D := f + puw + pvw // pvw is 0 when there is no p(v,w) yet
				work += float64((D + 1) * (D + 1))
				return min(D, most), nil
			})
		if err != nil {
			return 0, err
		}
	}
	return work, nil
}

// elimGraph is the graph state elimination works on: out[u][w] is the
// value of the edge u → w (a probability, or for eliminationWork its
// degree) and in[w] the states with an edge to w.
type elimGraph[T any] struct {
	out map[int]map[int]T
	in  map[int]map[int]bool
}

// newElimGraph returns the graph of the rows of states, an edge's value
// val of its probability.
func newElimGraph[T any](c *Chain, states []int, val func(poly.RatFunc) T) elimGraph[T] {
	g := elimGraph[T]{out: map[int]map[int]T{}, in: map[int]map[int]bool{}}
	for _, u := range states {
		g.out[u], g.in[u] = map[int]T{}, map[int]bool{}
	}
	for _, u := range states {
		for _, t := range c.Rows[u] {
			g.out[u][t.To] = val(t.P)
			g.in[t.To][u] = true
		}
	}
	return g
}

// remove eliminates u: stay(loop, ok) turns u's self-loop (ok false when
// it has none) into the value through which u is left, and every
// predecessor v of u gets the edge v → w, for every successor w of u,
// through(via(p(v,u), stay), p(u,w), p(v,w), ok) (ok false, p(v,w) the
// zero value, when v had no edge to w).
func (g elimGraph[T]) remove(ctx context.Context, u int, stay func(loop T, ok bool) (T, error), via func(pvu, stay T) (T, error), through func(f, puw, pvw T, ok bool) (T, error)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	loop, ok := g.out[u][u]
	st, err := stay(loop, ok)
	if err != nil {
		return err
	}
	delete(g.out[u], u)
	delete(g.in[u], u)
	for v := range g.in[u] {
		f, err := via(g.out[v][u], st)
		if err != nil {
			return err
		}
		for w, puw := range g.out[u] {
			pvw, ok := g.out[v][w]
			if g.out[v][w], err = through(f, puw, pvw, ok); err != nil {
				return err
			}
			g.in[w][v] = true
		}
		delete(g.out[v], u)
	}
	for w := range g.out[u] {
		delete(g.in[w], u)
	}
	delete(g.out, u)
	delete(g.in, u)
	return nil
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
// absorbing states divided by 1 − p(s,s) are the distribution. good says
// which states reach an absorbing state (absorbed): every state of states
// must.
func (c *Chain) eliminate(ctx context.Context, s int, states []int, good []bool) (Dist, error) {
	lim := c.Limits
	for _, u := range states {
		if !good[u] {
			return Dist{}, fmt.Errorf("%w: from input %s the state %s is reachable but never reaches an absorbing state (mass never absorbed is not supported)",
				ErrParam, c.Frame.Name(s), c.Frame.Name(u))
		}
	}
	g := newElimGraph(c, states, func(p poly.RatFunc) poly.RatFunc { return p })
	one := poly.FromPoly(poly.FromInts(1))
	stay := func(loop poly.RatFunc, ok bool) (poly.RatFunc, error) {
		if !ok {
			return one, nil
		}
		return lim.RatSub(ctx, one, loop)
	}
	via := func(pvu, stay poly.RatFunc) (poly.RatFunc, error) { return lim.RatDiv(ctx, pvu, stay) }
	through := func(f, puw, pvw poly.RatFunc, ok bool) (poly.RatFunc, error) {
		x, err := lim.RatMul(ctx, f, puw)
		if err != nil || !ok {
			return x, err
		}
		return lim.RatAdd(ctx, pvw, x)
	}
	for _, u := range states {
		if u == s || c.IsAbsorbing(u) {
			continue
		}
		if err := g.remove(ctx, u, stay, via, through); err != nil {
			return Dist{}, err
		}
	}
	loop, ok := g.out[s][s]
	st, err := stay(loop, ok)
	if err != nil {
		return Dist{}, err
	}
	var d Dist
	for w, p := range g.out[s] {
		if w == s {
			continue
		}
		x, err := lim.RatDiv(ctx, p, st)
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
