package verify

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dpcheck/dpcheck/chain"
)

// What a lumped chain needs from this package (docs/semantics.md §4.9):
// what an output space observes of a state, and an analysis of a quotient
// turned into the analysis of the chain it was lumped from.

// Final reports whether o observes where runs end (every output space but
// traces).
func (o Output) Final() bool { return o.kind != outTraces }

// Traces returns the observed labels and the horizon of a trace output
// space; ok is false for a final one.
func (o Output) Traces() (labels []string, horizon int, ok bool) {
	if o.kind != outTraces {
		return nil, 0, false
	}
	return slices.Clone(o.labels), o.horizon, true
}

// StateKey returns what o observes of state s of c, as a key that is equal
// for two states exactly when an observer cannot tell them apart: for a
// final output space the output of s, which means something only when s is
// absorbing; for traces the observed labels s carries.
func (o Output) StateKey(c *chain.Chain, s int) string {
	if o.kind == outTraces {
		var b strings.Builder
		for _, l := range o.labels {
			if c.HasLabel(s, l) {
				b.WriteString(l)
				b.WriteByte(0)
			}
		}
		return b.String()
	}
	k := outputKey(c, s, o)
	switch k.kind {
	case 's':
		return "s" + strconv.Itoa(k.state)
	case 'v':
		return "v" + strconv.FormatInt(k.value, 10)
	}
	return string(k.kind) + k.text
}

// KeyName displays the final output a StateKey stands for as the
// reports name outputs: "top=2", "(y1=0, y2=1)", "{out_Y}", or the name
// of the state (given: a key does not hold it). A trace's key is
// returned as it is.
func (o Output) KeyName(state, key string) string {
	if o.kind == outTraces {
		return key
	}
	if key == "" {
		return state
	}
	switch key[0] {
	case 'v':
		v, _ := strconv.ParseInt(key[1:], 10, 64)
		return outKey{kind: 'v', value: v}.display(o)
	case 'u', 'l':
		return outKey{kind: key[0], text: key[1:]}.display(o)
	}
	return state
}

// Lift returns the analysis a would be on chain c, when a's chain is a
// quotient of c: block maps every state of c to a state of a's chain, each
// input of c is alone in its block, and the blocks' rows and absorbing
// states are those of a lumping that respects the output space (every
// absorbing state of c in the block of an absorbing state with the same
// output). The distributions are a's; states are c's, so pairs,
// witnesses and counterexamples name c's inputs, and the most likely run
// of a counterexample is searched in c.
func (a *Analysis) Lift(c *chain.Chain, block []int) (*Analysis, error) {
	if len(block) != c.NumStates() {
		return nil, fmt.Errorf("%w: the block map has %d states, the chain %d", ErrModel, len(block), c.NumStates())
	}
	orig := map[int]int{} // block of an input → the input
	for _, s := range c.Inputs() {
		if t, dup := orig[block[s]]; dup {
			return nil, fmt.Errorf("%w: inputs %s and %s share a block", ErrModel, c.Describe(t), c.Describe(s))
		}
		orig[block[s]] = s
	}
	at := func(q int) (int, error) {
		s, ok := orig[q]
		if !ok {
			return 0, fmt.Errorf("%w: block %d of the analysis is no input's", ErrModel, q)
		}
		return s, nil
	}
	l := &Analysis{chain: c, output: a.output, outputs: a.outputs, dist: make(map[int]*inputDist, len(a.dist))}
	for _, p := range a.pairs {
		s, err := at(p[0])
		if err != nil {
			return nil, err
		}
		t, err := at(p[1])
		if err != nil {
			return nil, err
		}
		l.pairs = append(l.pairs, [2]int{s, t})
	}
	for q, d := range a.dist {
		s, err := at(q)
		if err != nil {
			return nil, err
		}
		l.dist[s] = d
	}
	if a.stateOutput != nil {
		l.stateOutput = map[int]int{}
		for s := range c.NumStates() {
			if o, ok := a.stateOutput[block[s]]; ok && c.IsAbsorbing(s) {
				l.stateOutput[s] = o
			}
		}
	}
	return l, nil
}
