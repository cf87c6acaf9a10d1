package chain

import (
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// SinkName is the name of the sink state "†" that receives the remainder of
// rows built with Builder.SendRemainderToSink. It is reserved: no other state
// may use it.
const SinkName = "†"

// Var is one variable of a valuation.
type Var struct {
	Name  string
	Value int64
}

// Valuation assigns integer values to some variables of a state, in the order
// they were declared. A state may have an empty valuation.
type Valuation []Var

// Get returns the value of the named variable and whether the valuation has it.
func (v Valuation) Get(name string) (int64, bool) {
	for _, x := range v {
		if x.Name == name {
			return x.Value, true
		}
	}
	return 0, false
}

// String formats the valuation as "d=3, t=2".
func (v Valuation) String() string {
	var b strings.Builder
	for i, x := range v {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(x.Name)
		b.WriteByte('=')
		b.WriteString(strconv.FormatInt(x.Value, 10))
	}
	return b.String()
}

// Chain is an immutable finite Markov chain with exact rational transition
// probabilities. States are numbered 0..NumStates()-1 in the order they were
// added to the Builder (the sink "†", when present, comes last).
type Chain struct {
	names  []string
	index  map[string]int
	vals   []Valuation
	labels [][]string // sorted, distinct
	to     [][]int    // per state, strictly increasing targets
	p      [][]*big.Rat
	ntrans int

	inputs  []int
	isInput []bool
	sink    int

	varNames   []string
	labelNames []string

	predOnce sync.Once
	pred     [][]int
}

// NumStates returns the number of states.
func (c *Chain) NumStates() int { return len(c.names) }

// NumTransitions returns the number of transitions with non-zero probability,
// self-loops included.
func (c *Chain) NumTransitions() int { return c.ntrans }

// Name returns the name of state s.
func (c *Chain) Name(s int) string { return c.names[s] }

// Lookup returns the state with the given name.
func (c *Chain) Lookup(name string) (int, bool) {
	s, ok := c.index[name]
	return s, ok
}

// Valuation returns the valuation of state s. The result is read-only.
func (c *Chain) Valuation(s int) Valuation { return c.vals[s] }

// Value returns the value of variable name in state s, and whether s has it.
func (c *Chain) Value(s int, name string) (int64, bool) { return c.vals[s].Get(name) }

// Labels returns the labels of state s, sorted. The result is read-only.
func (c *Chain) Labels(s int) []string { return c.labels[s] }

// HasLabel reports whether state s carries label l.
func (c *Chain) HasLabel(s int, l string) bool {
	_, ok := slices.BinarySearch(c.labels[s], l)
	return ok
}

// Vars returns the names of all variables used by some state, sorted.
func (c *Chain) Vars() []string { return c.varNames }

// LabelNames returns all labels used by some state, sorted.
func (c *Chain) LabelNames() []string { return c.labelNames }

// Describe returns the name of s followed by its valuation, if any:
// "s3 (in=3)".
func (c *Chain) Describe(s int) string {
	if len(c.vals[s]) == 0 {
		return c.names[s]
	}
	return c.names[s] + " (" + c.vals[s].String() + ")"
}

// Row returns the successors of s in increasing order and their
// probabilities. Both slices are read-only; the probabilities are positive
// and sum to exactly 1.
func (c *Chain) Row(s int) (to []int, p []*big.Rat) { return c.to[s], c.p[s] }

// Prob returns P(s, t). The result is read-only; it is a fresh zero when
// there is no transition from s to t.
func (c *Chain) Prob(s, t int) *big.Rat {
	if i, ok := slices.BinarySearch(c.to[s], t); ok {
		return c.p[s][i]
	}
	return new(big.Rat)
}

// Predecessors returns the states with a transition to s, in increasing
// order (s itself included when it has a self-loop). The result is read-only.
func (c *Chain) Predecessors(s int) []int {
	c.predOnce.Do(c.computePred)
	return c.pred[s]
}

func (c *Chain) computePred() {
	count := make([]int, len(c.names))
	for _, row := range c.to {
		for _, t := range row {
			count[t]++
		}
	}
	flat := make([]int, c.ntrans)
	pred := make([][]int, len(c.names))
	off := 0
	for s, n := range count {
		pred[s] = flat[off : off : off+n]
		off += n
	}
	for s, row := range c.to { // s increasing, so each pred list is sorted
		for _, t := range row {
			pred[t] = append(pred[t], s)
		}
	}
	c.pred = pred
}

// IsAbsorbing reports whether s has no transition other than a self-loop.
func (c *Chain) IsAbsorbing(s int) bool {
	row := c.to[s]
	return len(row) == 1 && row[0] == s
}

// Absorbing returns the absorbing states in increasing order.
func (c *Chain) Absorbing() []int {
	var out []int
	for s := range c.names {
		if c.IsAbsorbing(s) {
			out = append(out, s)
		}
	}
	return out
}

// WithInputs returns a chain with the same states and transitions whose
// inputs are the given states (duplicates dropped); c is not changed. It
// panics on a state out of range.
func (c *Chain) WithInputs(inputs []int) *Chain {
	d := &Chain{
		names: c.names, index: c.index, vals: c.vals, labels: c.labels, to: c.to, p: c.p, ntrans: c.ntrans,
		sink: c.sink, varNames: c.varNames, labelNames: c.labelNames,
		isInput: make([]bool, len(c.names)),
	}
	for _, s := range inputs {
		if !d.isInput[s] {
			d.isInput[s] = true
			d.inputs = append(d.inputs, s)
		}
	}
	sort.Ints(d.inputs)
	return d
}

// Inputs returns the input states in increasing order. The result is
// read-only.
func (c *Chain) Inputs() []int { return c.inputs }

// IsInput reports whether s is an input state.
func (c *Chain) IsInput(s int) bool { return c.isInput[s] }

// Sink returns the sink state "†" and whether the chain has one.
func (c *Chain) Sink() (int, bool) { return c.sink, c.sink >= 0 }

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
