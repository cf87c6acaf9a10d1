package verify

import (
	"strings"

	"github.com/dpcheck/dpcheck/chain"
)

// Matching is how Equivalent pairs two chains' inputs and outputs, for
// comparisons of other distributions (package param's, for every
// parameter value) under the same rules.
type Matching struct {
	// Vars are the variables matched on (those every state compared has),
	// nil when the states are matched by name; Ignored are the variables
	// some of them have and others lack.
	Vars, Ignored []string
	// A and B are the match keys of the states given, in their order:
	// states of the two chains correspond when their keys are equal. A key
	// is read with DisplayKey.
	A, B []string
}

// DisplayKey is a match key as people read it: "in=3", or a state's name.
func DisplayKey(k string) string { return k[2:] }

// MatchInputKeys matches the inputs of a and b as Equivalent does: on the
// variables every input of both has, else by name, one to one (a
// *MatchError otherwise). A and B list the keys of a.Inputs() and
// b.Inputs().
func MatchInputKeys(a, b *chain.Chain) (*Matching, error) {
	p, ignored, _, _, _, err := inputMatch(a, b)
	if err != nil {
		return nil, err
	}
	m := &Matching{Vars: p, Ignored: ignored}
	for _, s := range a.Inputs() {
		m.A = append(m.A, p.key(a, s))
	}
	for _, s := range b.Inputs() {
		m.B = append(m.B, p.key(b, s))
	}
	return m, nil
}

// MatchOutputKeys keys the outputs as (absorbing states of a) and bs (of b)
// as Equivalent does: on the variables every output with a valuation has,
// outputs without one by name; several outputs of one chain may share a
// key (their probabilities are added). It is a *MatchError when the valued
// outputs share no variable.
func MatchOutputKeys(a *chain.Chain, as []int, b *chain.Chain, bs []int) (*Matching, error) {
	var va, vb []int
	for _, s := range as {
		if len(a.Valuation(s)) > 0 {
			va = append(va, s)
		}
	}
	for _, s := range bs {
		if len(b.Valuation(s)) > 0 {
			vb = append(vb, s)
		}
	}
	common, other, ok := commonVars(a, va, b, vb)
	var p projection
	if ok {
		if len(common) == 0 {
			return nil, matchErrorf("their outputs share no variable (the variables are %s)", strings.Join(other, ", "))
		}
		p = common
	}
	m := &Matching{Vars: p, Ignored: other}
	for _, s := range as {
		m.A = append(m.A, p.key(a, s))
	}
	for _, s := range bs {
		m.B = append(m.B, p.key(b, s))
	}
	return m, nil
}
