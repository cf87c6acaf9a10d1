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
	return p.matching(ignored, a, a.Inputs(), b, b.Inputs()), nil
}

// MatchOutputKeys keys the outputs as (absorbing states of a) and bs (of b)
// as Equivalent does: on the variables every output with a valuation has,
// outputs without one by name; several outputs of one chain may share a
// key (their probabilities are added). It is a *MatchError when the valued
// outputs share no variable.
func MatchOutputKeys(a *chain.Chain, as []int, b *chain.Chain, bs []int) (*Matching, error) {
	valued := func(c *chain.Chain, ss []int) (out []int) {
		for _, s := range ss {
			if len(c.Valuation(s)) > 0 {
				out = append(out, s)
			}
		}
		return out
	}
	common, other, ok := commonVars(a, valued(a, as), b, valued(b, bs))
	var p projection
	if ok {
		if len(common.a) == 0 {
			return nil, matchErrorf("their outputs share no variable (the variables are %s)", strings.Join(other, ", "))
		}
		p = common
	}
	return p.matching(other, a, as, b, bs), nil
}

// matching is the Matching of the states as of a and bs of b, keyed by p.
func (p projection) matching(ignored []string, a *chain.Chain, as []int, b *chain.Chain, bs []int) *Matching {
	m := &Matching{Vars: p.names(), Ignored: ignored}
	for _, s := range as {
		m.A = append(m.A, p.key(a, s, 0))
	}
	for _, s := range bs {
		m.B = append(m.B, p.key(b, s, 1))
	}
	return m
}
