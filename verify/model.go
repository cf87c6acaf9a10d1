package verify

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/dpcheck/dpcheck/exact"

	"github.com/dpcheck/dpcheck/chain"
)

// Never is the name of the output "the run is never absorbed".
const Never = "⊥∞"

type outputKind int

const (
	outState outputKind = iota
	outVar
	outLabels
	outTraces
)

// Output says what an observer of a run sees. The zero value is
// FinalState().
type Output struct {
	kind    outputKind
	name    string   // the variable of FinalVar
	names   []string // the variables of FinalVars, two or more
	labels  []string
	horizon int
}

// FinalState observes the absorbing state a run ends in. Mass that is never
// absorbed is the output ⊥∞.
func FinalState() Output { return Output{} }

// FinalVar observes the value of variable name in the absorbing state a run
// ends in. Absorbing states without the variable are observed as themselves.
func FinalVar(name string) Output { return Output{kind: outVar, name: name} }

// FinalVars observes the values of several variables of the absorbing
// state a run ends in, as a tuple. Absorbing states without one of them
// are observed as themselves.
func FinalVars(names ...string) Output {
	if len(names) == 1 {
		return FinalVar(names[0])
	}
	return Output{kind: outVar, names: slices.Clone(names)}
}

// FinalLabels observes which of the given labels the absorbing state a run
// ends in carries.
func FinalLabels(labels ...string) Output {
	ls := slices.Clone(labels)
	sort.Strings(ls)
	return Output{kind: outLabels, labels: slices.Compact(ls)}
}

// String describes the output space: "final state", "final value of out",
// "final labels {out_N, out_Y}", "traces of {⊤} over 6 steps".
func (o Output) String() string {
	switch o.kind {
	case outVar:
		if o.names != nil {
			return "final values of (" + strings.Join(o.names, ", ") + ")"
		}
		return "final value of " + o.name
	case outLabels:
		return "final labels {" + strings.Join(o.labels, ", ") + "}"
	case outTraces:
		steps := "steps"
		if o.horizon == 1 {
			steps = "step"
		}
		return fmt.Sprintf("traces of {%s} over %d %s", strings.Join(o.labels, ", "), o.horizon, steps)
	}
	return "final state"
}

// Model is what the verifier checks: a chain, its neighbour relation on input
// states and what an observer sees.
type Model struct {
	Chain *chain.Chain
	// Neighbours lists unordered pairs of input states; both directions are
	// checked. Pairs of a state with itself are ignored, repeated pairs
	// counted once.
	Neighbours [][2]int
	Output     Output
}

// ErrModel is wrapped by every error Analyze returns for a malformed model.
var ErrModel = errors.New("invalid model")

// dvec is a sparse distribution over outputs: increasing output IDs and
// their probabilities (read-only, possibly shared).
type dvec struct {
	out []int
	p   []*big.Rat
}

// Analysis holds the exact output distribution of every compared input. It
// is computed once by Analyze and then answers any number of DP, TightDelta,
// TightEpsilon and Profile questions. It is safe for concurrent use.
type Analysis struct {
	chain   *chain.Chain
	output  Output
	outputs []string // output names by ID
	pairs   [][2]int
	dist    map[int]*inputDist
	// stateOutput maps each reachable absorbing state to its output (final
	// outputs only).
	stateOutput map[int]int
}

type inputDist struct {
	dvec
	ap []exact.Approx // approximations of p, for the filter
}

// Analyze validates the model and computes the exact output distribution of
// every input that appears in a neighbouring pair.
func Analyze(ctx context.Context, m *Model) (*Analysis, error) {
	if m == nil || m.Chain == nil {
		return nil, fmt.Errorf("%w: no chain", ErrModel)
	}
	c := m.Chain
	pairs, err := validatePairs(c, m.Neighbours, false)
	if err != nil {
		return nil, err
	}
	inputs := pairInputs(pairs)
	slices.Sort(inputs)
	a := &Analysis{chain: c, output: m.Output, pairs: pairs, dist: make(map[int]*inputDist, len(inputs))}
	var dists map[int]dvec
	if m.Output.kind == outTraces {
		dists, a.outputs, err = traceDistributions(ctx, c, inputs, m.Output)
	} else {
		dists, a.outputs, a.stateOutput, err = finalDistributions(ctx, c, inputs, m.Output)
	}
	if err != nil {
		return nil, err
	}
	ids := make([]*inputDist, len(inputs))
	err = parallel(ctx, "", len(inputs), func(_ *scratch, i int) error {
		d := dists[inputs[i]]
		var scratch big.Int
		ap := make([]exact.Approx, len(d.p))
		for j, x := range d.p {
			ap[j] = exact.ApproxRat(x, &scratch)
		}
		ids[i] = &inputDist{dvec: d, ap: ap}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i, s := range inputs {
		a.dist[s] = ids[i]
	}
	return a, nil
}

// validatePairs checks a neighbour relation and drops repeated pairs. An
// empty relation is refused unless allowEmpty (dpCTL: D then holds
// vacuously at every state).
func validatePairs(c *chain.Chain, in [][2]int, allowEmpty bool) ([][2]int, error) {
	var problems []string
	seen := map[[2]int]bool{}
	var pairs [][2]int
	n := c.NumStates()
	for _, p := range in {
		ok := true
		for _, s := range p {
			switch {
			case s < 0 || s >= n:
				problems = append(problems, fmt.Sprintf("neighbour pair names state #%d, which does not exist", s))
				ok = false
			case !c.IsInput(s):
				problems = append(problems, fmt.Sprintf("neighbour pair names %s, which is not an input", c.Describe(s)))
				ok = false
			}
		}
		if !ok || p[0] == p[1] {
			continue
		}
		key := [2]int{min(p[0], p[1]), max(p[0], p[1])}
		if !seen[key] {
			seen[key] = true
			pairs = append(pairs, p)
		}
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("%w: %s", ErrModel, strings.Join(problems, "; "))
	}
	if len(pairs) == 0 && !allowEmpty {
		return nil, fmt.Errorf("%w: the neighbour relation relates no two distinct inputs", ErrModel)
	}
	return pairs, nil
}

// NumPairs returns the number of unordered neighbouring pairs; every check
// examines both directions of each.
func (a *Analysis) NumPairs() int { return len(a.pairs) }

// NumOutputs returns the number of distinct outputs.
func (a *Analysis) NumOutputs() int { return len(a.outputs) }

// OutputName returns the display name of output o.
func (a *Analysis) OutputName(o int) string { return a.outputs[o] }

// Chain returns the analysed chain.
func (a *Analysis) Chain() *chain.Chain { return a.chain }

// Distribution returns the exact output distribution of input state s as
// output names and probabilities (read-only), or false if s is not a
// compared input.
func (a *Analysis) Distribution(s int) (outputs []string, p []*big.Rat, ok bool) {
	d, ok := a.dist[s]
	if !ok {
		return nil, nil, false
	}
	outputs = make([]string, len(d.out))
	for i, o := range d.out {
		outputs[i] = a.outputs[o]
	}
	return outputs, d.p, true
}

// Prob returns Pr_s(o) for input s and output name o (zero if s is not
// compared or o is not an output it reaches). The result is read-only.
func (a *Analysis) Prob(s int, output string) *big.Rat {
	d, ok := a.dist[s]
	if !ok {
		return new(big.Rat)
	}
	for i, o := range d.out {
		if a.outputs[o] == output {
			return d.p[i]
		}
	}
	return new(big.Rat)
}

// finalDistributions computes absorption distributions for the given
// inputs: SCC by SCC in reverse topological order, propagating exactly in
// acyclic parts and solving the linear system of each transient cyclic
// component by exact elimination. Mass that enters a closed component other
// than an absorbing state is never absorbed: output ⊥∞.
func finalDistributions(ctx context.Context, c *chain.Chain, inputs []int, out Output) (map[int]dvec, []string, map[int]int, error) {
	reach := reachable(c, inputs)
	// Output IDs for absorbing states: identities are outKeys, so that no
	// state name can merge two outputs; display names come after.
	ids := map[outKey]int{}
	var order []outKey
	outOf := map[int]outKey{}
	for s := range c.NumStates() {
		if !reach[s] || !c.IsAbsorbing(s) {
			continue
		}
		k := outputKey(c, s, out)
		outOf[s] = k
		if _, ok := ids[k]; !ok {
			ids[k] = -1
			order = append(order, k)
		}
	}
	sortOutputKeys(order)
	var names []string
	for i, k := range order {
		ids[k] = i
		names = append(names, k.display(out))
	}
	keys := ids
	neverID := -1
	never := func() int {
		if neverID < 0 {
			neverID = len(names)
			names = append(names, Never)
		}
		return neverID
	}

	// Absorbing states and closed components are known; everything else
	// reachable is solved block by block.
	sccs := components(c)
	x := make([]dvec, c.NumStates())
	unknown := make([]bool, c.NumStates())
	compOf := make([]int, c.NumStates())
	for i, scc := range sccs {
		for _, s := range scc {
			compOf[s] = i
		}
	}
	for i, scc := range sccs {
		if !reach[scc[0]] {
			continue
		}
		if len(scc) == 1 && c.IsAbsorbing(scc[0]) {
			x[scc[0]] = dvec{out: []int{keys[outOf[scc[0]]]}, p: []*big.Rat{ratOne}}
			continue
		}
		closed := true
		for _, s := range scc {
			to, _ := c.Row(s)
			for _, t := range to {
				if compOf[t] != i {
					closed = false
				}
			}
		}
		for _, s := range scc {
			if closed {
				x[s] = dvec{out: []int{never()}, p: []*big.Rat{ratOne}}
			} else {
				unknown[s] = true
			}
		}
	}
	if err := solveBlocks(ctx, c, sccs, unknown, x); err != nil {
		return nil, nil, nil, err
	}
	res := make(map[int]dvec, len(inputs))
	for _, s := range inputs {
		res[s] = x[s]
	}
	uniqueNames(names, neverID)
	stateOutput := make(map[int]int, len(outOf))
	for s, k := range outOf {
		stateOutput[s] = keys[k]
	}
	return res, names, stateOutput, nil
}

func reachable(c *chain.Chain, from []int) []bool {
	seen := make([]bool, c.NumStates())
	stack := slices.Clone(from)
	for _, s := range from {
		seen[s] = true
	}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		to, _ := c.Row(s)
		for _, t := range to {
			if !seen[t] {
				seen[t] = true
				stack = append(stack, t)
			}
		}
	}
	return seen
}

// outKey identifies an output of a final-state output space: the
// absorbing state itself, the value of the observed variable, or the set of
// observed labels held.
type outKey struct {
	kind  byte // 's' state, 'v' value, 'l' labels
	value int64
	text  string // the state's name, or the labels joined by "\x00"
	state int    // for 's': keeps the state order
}

func outputKey(c *chain.Chain, s int, out Output) outKey {
	switch out.kind {
	case outVar:
		if out.names != nil {
			vals := make([]string, len(out.names))
			for i, n := range out.names {
				v, ok := c.Value(s, n)
				if !ok {
					return outKey{kind: 's', text: c.Name(s), state: s}
				}
				vals[i] = strconv.FormatInt(v, 10)
			}
			return outKey{kind: 'u', text: strings.Join(vals, "\x00")}
		}
		if v, ok := c.Value(s, out.name); ok {
			return outKey{kind: 'v', value: v}
		}
	case outLabels:
		var held []string
		for _, l := range out.labels {
			if c.HasLabel(s, l) {
				held = append(held, l)
			}
		}
		return outKey{kind: 'l', text: strings.Join(held, "\x00")}
	}
	return outKey{kind: 's', text: c.Name(s), state: s}
}

func (k outKey) display(out Output) string {
	switch k.kind {
	case 'v':
		return out.name + "=" + strconv.FormatInt(k.value, 10)
	case 'u':
		vals := strings.Split(k.text, "\x00")
		parts := make([]string, len(vals))
		for i, v := range vals {
			parts[i] = out.names[i] + "=" + v
		}
		return "(" + strings.Join(parts, ", ") + ")"
	case 'l':
		return "{" + strings.ReplaceAll(k.text, "\x00", ", ") + "}"
	}
	return k.text
}

// sortOutputKeys orders outputs for display: variable values numerically,
// then label sets, then states in state order.
func sortOutputKeys(keys []outKey) {
	rank := map[byte]int{'v': 0, 'u': 1, 'l': 2, 's': 3}
	sort.SliceStable(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		switch {
		case a.kind != b.kind:
			return rank[a.kind] < rank[b.kind]
		case a.kind == 'v':
			return a.value < b.value
		case a.kind == 'u':
			return tupleLess(a.text, b.text)
		case a.kind == 'l':
			return a.text < b.text
		}
		return a.state < b.state
	})
}

// tupleLess orders tuples of values numerically, element by element.
func tupleLess(a, b string) bool {
	x, y := strings.Split(a, "\x00"), strings.Split(b, "\x00")
	for i := range x {
		p, _ := strconv.ParseInt(x[i], 10, 64)
		q, _ := strconv.ParseInt(y[i], 10, 64)
		if p != q {
			return p < q
		}
	}
	return false
}

// uniqueNames makes display names distinct: a name already taken (a state
// named "x=1" beside the value x = 1, or one named ⊥∞ beside the output
// ⊥∞, which keeps its name) gets " (state)", then a number.
func uniqueNames(names []string, never int) {
	seen := map[string]bool{}
	if never >= 0 {
		seen[names[never]] = true
	}
	for i, n := range names {
		if i == never {
			continue
		}
		if !seen[n] {
			seen[n] = true
			continue
		}
		alt := n + " (state)"
		for k := 2; seen[alt]; k++ {
			alt = fmt.Sprintf("%s (state %d)", n, k)
		}
		names[i] = alt
		seen[alt] = true
	}
}

var ratOne = big.NewRat(1, 1)

func isOne(x *big.Rat) bool { return x.IsInt() && x.Num().IsInt64() && x.Num().Int64() == 1 }

// propagate computes dist(s) = Σ_t P(s,t)·dist(t) / (1 - P(s,s)) for a state
// whose only cycle is an optional self-loop; the successors are done. The
// terms of one output are summed as unreduced products, and each sum is
// reduced once: an input whose row leads into many shared states (a
// threshold drawn over {0..n}) sums n+1 products per output. A plus not
// nil adds plus·e₀ (the constant term of an expected reward) to the sum.
func propagate(c *chain.Chain, s int, dist []dvec, sc *propScratch, plus *big.Rat) dvec {
	to, p := c.Row(s)
	type entry = propEntry
	maxOut := -1
	entries := sc.entries[:0]
	if plus != nil {
		entries = append(entries, entry{0, ratOne, plus})
		maxOut = 0
	}
	var loop *big.Rat
	for i, t := range to {
		if t == s {
			loop = p[i]
			continue
		}
		d := dist[t]
		for j, o := range d.out {
			entries = append(entries, entry{o, p[i], d.p[j]})
			maxOut = max(maxOut, o)
		}
	}
	sc.entries = entries
	if !sort.SliceIsSorted(entries, func(i, j int) bool { return entries[i].out < entries[j].out }) {
		if maxOut < 4*len(entries)+64 {
			// Counting sort by output, stable.
			start := make([]int, maxOut+2)
			for _, e := range entries {
				start[e.out+1]++
			}
			for o := 1; o < len(start); o++ {
				start[o] += start[o-1]
			}
			sorted := slices.Grow(sc.sorted[:0], len(entries))[:len(entries)]
			for _, e := range entries {
				sorted[start[e.out]] = e
				start[e.out]++
			}
			sc.sorted = sorted
			entries = sorted
		} else {
			sort.SliceStable(entries, func(i, j int) bool { return entries[i].out < entries[j].out })
		}
	}
	defer func() {
		// Keep the buffers, not the values: they must not outlive the call.
		clear(sc.entries)
		clear(sc.sorted)
	}()
	n := 0
	for i := 0; i < len(entries); n++ {
		j := i + 1
		for j < len(entries) && entries[j].out == entries[i].out {
			j++
		}
		i = j
	}
	res := dvec{out: make([]int, 0, n), p: make([]*big.Rat, 0, n)}
	acc := &sc.acc
	for i := 0; i < len(entries); {
		j := i + 1
		for j < len(entries) && entries[j].out == entries[i].out {
			j++
		}
		var x *big.Rat
		if j == i+1 {
			x = times(entries[i].w, entries[i].x)
		} else {
			acc.Reset()
			for _, e := range entries[i:j] {
				switch {
				case isOne(e.x):
					acc.Add(e.w)
				case isOne(e.w):
					acc.Add(e.x)
				default:
					acc.AddProduct(e.w, e.x)
				}
			}
			x = acc.Rat(nil)
		}
		res.out = append(res.out, entries[i].out)
		res.p = append(res.p, x)
		i = j
	}
	if loop != nil {
		f := new(big.Rat).Sub(ratOne, loop)
		for i, x := range res.p {
			res.p[i] = new(big.Rat).Quo(x, f)
		}
	}
	return res
}

// propEntry is a term w·x of propagate's output out.
type propEntry struct {
	out  int
	w, x *big.Rat
}

// propScratch is propagate's reusable space, one per goroutine.
type propScratch struct {
	entries, sorted []propEntry
	acc             chain.Accumulator
}

// times returns w·x, sharing a factor that is 1.
func times(w, x *big.Rat) *big.Rat {
	switch {
	case isOne(x):
		return w
	case isOne(w):
		return x
	}
	return exact.Mul(w, x)
}
