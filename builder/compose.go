package builder

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/model"
)

// MaxComposedStates bounds the states of a composition.
const MaxComposedStates = 1_000_000

// Compose returns k independent runs of m on the same input, all outputs
// observed (sequential composition, the notes Differential Privacy). From an input s the chain
// runs m from s; when a run ends in an absorbing state o it starts the next
// run from s again, remembering the outputs so far; after k runs it ends in
// the absorbing state "o1,o2,…,ok". That final state carries each run's
// labels and variables with the run's number appended (out_Y_1, y_2), so
// that dpCTL formulas and output variables can refer to single runs. A
// state of m that several inputs reach (m shares their futures) is one
// state per input in the composition, named "input||state" in the first
// run, since the runs after it start again from that input. Inputs
// and the neighbour relation are m's.
func Compose(k int, m *model.Mechanism) (*model.Mechanism, error) {
	return composeLimited(context.Background(), k, m, model.Limits{MaxStates: MaxComposedStates, MaxTransitions: math.MaxInt})
}

// ComposeLimited is Compose that stops with a *LimitError once the
// composition would exceed l (zero fields are DefaultLimits'). It creates
// no probabilities: the composition shares m's.
func ComposeLimited(k int, m *model.Mechanism, l model.Limits) (*model.Mechanism, error) {
	return composeLimited(context.Background(), k, m, l)
}

func composeLimited(ctx context.Context, k int, m *model.Mechanism, l model.Limits) (*model.Mechanism, error) {
	const name = "compose"
	l = l.WithDefaults()
	if m == nil {
		return nil, &ParamError{name, "model", "is missing"}
	}
	if err := checkRange(name, "k", k, 1, MaxProductRuns); err != nil {
		return nil, err
	}
	c := m.Chain
	b := chain.NewBuilder()
	finals := map[string]int{}
	states := 0
	// final returns the absorbing state for the outputs os. States are
	// identified by output IDs; names only display them.
	final := func(os []int) int {
		var names []string
		var val chain.Valuation
		var labels []string
		for i, o := range os {
			names = append(names, component(c.Name(o)))
			for _, v := range c.Valuation(o) {
				val = append(val, chain.Var{Name: fmt.Sprintf("%s_%d", v.Name, i+1), Value: v.Value})
			}
			for _, l := range c.Labels(o) {
				labels = append(labels, fmt.Sprintf("%s_%d", l, i+1))
			}
		}
		key := idKey(os)
		if id, ok := finals[key]; ok {
			return id
		}
		id := b.AddState(strings.Join(names, ","), val, labels...)
		finals[key] = id
		states++
		return id
	}
	shared := sharedStates(c)
	type runKey struct {
		input  int
		prefix string
		s      int
	}
	ids := map[runKey]int{}
	var tooBig bool
	var stopped error // ctx's error, once it has ended
	// node returns the state "run j from input s with outputs prefix, in m's
	// state s" and builds what it reaches.
	var node func(input int, prefix []int, s int) int
	node = func(input int, prefix []int, s int) int {
		key := runKey{input, idKey(prefix), s}
		if id, ok := ids[key]; ok {
			return id
		}
		name := c.Name(s)
		if len(prefix) == 0 && s != input && shared[s] {
			// m's state is reached from several inputs, and the first run
			// from each input is a state of its own: "input||s".
			name = component(c.Name(input)) + "||" + component(c.Name(s))
		} else if len(prefix) > 0 {
			var ps []string
			for _, o := range prefix {
				ps = append(ps, component(c.Name(o)))
			}
			name = component(c.Name(input)) + "|" + strings.Join(ps, ",") + "|" + component(c.Name(s))
		}
		var labels []string
		if len(prefix) == 0 && s == input {
			labels = c.Labels(s)
		}
		var val chain.Valuation
		if s == input {
			val = c.Valuation(s)
		}
		id := b.AddState(name, val, labels...)
		ids[key] = id
		states++
		if states > l.MaxStates {
			tooBig = true
			return id
		}
		if stopped == nil {
			stopped = ctx.Err()
		}
		if stopped != nil {
			return id
		}
		to, p := c.Row(s)
		for i, t := range to {
			var target int
			switch {
			case !c.IsAbsorbing(t):
				target = node(input, prefix, t)
			case len(prefix)+1 == k:
				target = final(append(append([]int(nil), prefix...), t))
			default:
				target = node(input, append(append([]int(nil), prefix...), t), input)
			}
			b.AddTransition(id, target, p[i])
		}
		return id
	}
	in := map[int]int{}
	for _, s := range c.Inputs() {
		in[s] = node(s, nil, s)
		b.MarkInput(in[s])
		if stopped != nil {
			return nil, stopped
		}
		if tooBig {
			return nil, &model.LimitError{Builder: name, Limit: model.LimitStates, Estimate: f(states), Max: int64(l.MaxStates)}
		}
	}
	composed, err := buildChain(ctx, b)
	if err != nil {
		return nil, err
	}
	var pairs [][2]int
	for _, p := range m.Neighbours {
		pairs = append(pairs, [2]int{in[p[0]], in[p[1]]})
	}
	return &model.Mechanism{Chain: composed, Neighbours: pairs, Note: Composition{Runs: k, Of: m}.Note()}, nil
}

// sharedStates marks the states of c that are reached from more than one
// input without passing an absorbing state (chains that share the futures
// of their inputs, such as AboveThreshold's).
func sharedStates(c *chain.Chain) []bool {
	n := c.NumStates()
	shared := make([]bool, n)
	owner := make([]int, n) // the first input reaching the state, plus one
	seen := make([]int, n)  // the last input whose search visited it, plus one
	var stack []int
	for _, in := range c.Inputs() {
		stack = append(stack[:0], in)
		seen[in] = in + 1
		for len(stack) > 0 {
			s := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if s != in {
				if owner[s] == 0 {
					owner[s] = in + 1
				} else if owner[s] != in+1 {
					shared[s] = true
				}
			}
			to, _ := c.Row(s)
			for _, t := range to {
				if seen[t] != in+1 && !c.IsAbsorbing(t) {
					seen[t] = in + 1
					stack = append(stack, t)
				}
			}
		}
	}
	return shared
}

// idKey identifies a sequence of states by their IDs.
func idKey(ids []int) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.Itoa(id)
	}
	return strings.Join(parts, ",")
}

// component writes a state name inside a composed name, quoted when it
// contains a separator, so that composed names stay distinct.
func component(name string) string {
	if strings.ContainsAny(name, ",|\"") {
		return strconv.Quote(name)
	}
	return name
}
