package verify

import (
	"context"
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
)

// EquivalenceResult says whether two chains have equal output
// distributions for every input.
type EquivalenceResult struct {
	Equal bool
	Compared
	// Counterexample is set when they differ: the first input (in the first
	// chain's order) and output where the probabilities differ.
	Counterexample *Difference
}

// Compared says what a comparison of two models' output distributions
// (Equivalent, and package param's for every parameter value) compared.
type Compared struct {
	// Inputs and Outputs count the matched inputs and the distinct outputs
	// compared.
	Inputs, Outputs int
	// InputVars and OutputVars are the variables inputs and outputs were
	// matched on (those both chains have); nil when they were matched by
	// state name. InputIgnored and OutputIgnored are the variables some
	// inputs or outputs have and others lack, which the comparison does
	// not see.
	InputVars, OutputVars, InputIgnored, OutputIgnored []string
}

// CompareKeyed compares the output distributions of n matched inputs:
// dists(i) returns input i's in the two models, by output key. The
// outputs of each input are compared in key order, a missing one T's
// zero value, and differ is called once, at the first input and output
// whose probabilities are not equal. It returns the number of distinct
// outputs.
func CompareKeyed[T any](n int, dists func(i int) (a, b map[string]T, err error), equal func(x, y T) bool, differ func(i int, output string, x, y T) error) (int, error) {
	outputs := map[string]bool{}
	found := false
	for i := range n {
		da, db, err := dists(i)
		if err != nil {
			return 0, err
		}
		seen := map[string]bool{}
		var names []string
		for _, d := range []map[string]T{da, db} {
			for o := range d {
				if !seen[o] {
					seen[o] = true
					names = append(names, o)
				}
			}
		}
		sort.Strings(names)
		for _, o := range names {
			outputs[o] = true
			if x, y := da[o], db[o]; !found && !equal(x, y) {
				found = true
				if err := differ(i, o, x, y); err != nil {
					return 0, err
				}
			}
		}
	}
	return len(outputs), nil
}

// Difference is an input and an output whose probabilities differ.
type Difference struct {
	Input  string
	Output string
	PrA    *big.Rat
	PrB    *big.Rat
}

// MatchError is the error of comparing models whose inputs or outputs do
// not correspond. It wraps ErrModel.
type MatchError struct{ reason string }

func (e *MatchError) Error() string { return ErrModel.Error() + ": " + e.reason }

// Reason says what does not correspond.
func (e *MatchError) Reason() string { return e.reason }

func (e *MatchError) Unwrap() error { return ErrModel }

func matchErrorf(format string, args ...any) *MatchError {
	return &MatchError{reason: fmt.Sprintf(format, args...)}
}

// projection keys the states of two chains for matching: by the values
// of the variables a (for the first chain) and b (for the second), in
// order, or by name when they are nil. The two lists name the same
// variables but for an array's element, a[1] in one, matched with a1 or
// a_1 in the other (PRISM has no arrays). The prefixes keep a name such as
// "in=0" from matching a valuation in=0.
type projection struct{ a, b []string }

// key keys the state s of the first chain (side 0) or the second (1).
func (p projection) key(c *chain.Chain, s, side int) string {
	names := p.a
	if side == 1 {
		names = p.b
	}
	v := c.Valuation(s)
	if names == nil || len(v) == 0 {
		return "n\x00" + c.Name(s)
	}
	var b strings.Builder
	b.WriteString("v\x00")
	for i, name := range names {
		x, _ := v.Get(name)
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(chain.Valuation{{Name: p.a[i], Value: x}}.String())
	}
	return b.String()
}

// names are the variables matched on, for a report: a[1] = a1 for an
// element matched with a variable of another name.
func (p projection) names() []string {
	if p.a == nil {
		return nil
	}
	out := make([]string, len(p.a))
	for i, n := range p.a {
		out[i] = n
		if p.b[i] != n {
			out[i] = n + " = " + p.b[i]
		}
	}
	return out
}

// commonVars returns the variables every state of both lists has, in the
// order of the first state (an array's element of one chain paired with
// the variable of the other that writes it without brackets), and the
// variables some of them lack; ok is false when a state has no valuation
// (states are then matched by name).
func commonVars(a *chain.Chain, as []int, b *chain.Chain, bs []int) (common projection, other []string, ok bool) {
	var order []string // every name, in the order of first appearance
	seen := map[string]bool{}
	every := func(c *chain.Chain, ss []int) (all, some []string, ok bool) {
		count := map[string]int{}
		var local []string
		for _, s := range ss {
			v := c.Valuation(s)
			if len(v) == 0 {
				return nil, nil, false
			}
			for _, x := range v {
				if count[x.Name] == 0 {
					local = append(local, x.Name)
				}
				if !seen[x.Name] {
					seen[x.Name] = true
					order = append(order, x.Name)
				}
				count[x.Name]++
			}
		}
		for _, name := range local {
			if count[name] == len(ss) {
				all = append(all, name)
			} else {
				some = append(some, name)
			}
		}
		return all, some, len(ss) > 0
	}
	allA, _, okA := every(a, as)
	allB, _, okB := every(b, bs)
	if !okA || !okB {
		return projection{}, nil, false
	}
	inB := map[string]bool{}
	for _, n := range allB {
		inB[n] = true
	}
	inA := map[string]bool{}
	for _, n := range allA {
		inA[n] = true
	}
	paired := map[string]bool{} // the names of b paired with a's
	for _, n := range allA {
		m := n
		if !inB[n] {
			if m = unbracketed(n, func(x string) bool { return inB[x] && !inA[x] && !paired[x] }); m == "" {
				if m = bracketed(n, allB, func(x string) bool { return !inA[x] && !paired[x] }); m == "" {
					continue
				}
			}
		}
		paired[m] = true
		common.a, common.b = append(common.a, n), append(common.b, m)
	}
	used := map[string]bool{}
	for i := range common.a {
		used[common.a[i]], used[common.b[i]] = true, true
	}
	other = nil
	for _, n := range order {
		if !used[n] {
			other = append(other, n)
		}
	}
	return common, other, true
}

// unbracketed returns the name that writes the array element n (a[1])
// without brackets, a1 or a_1, if free says it is there to pair; else "".
func unbracketed(n string, free func(string) bool) string {
	open := strings.IndexByte(n, '[')
	if open <= 0 || !strings.HasSuffix(n, "]") {
		return ""
	}
	base, k := n[:open], n[open+1:len(n)-1]
	for _, m := range []string{base + k, base + "_" + k} {
		if free(m) {
			return m
		}
	}
	return ""
}

// bracketed returns the array element among names that n (a1 or a_1)
// writes without brackets, if free says it is there to pair; else "".
func bracketed(n string, names []string, free func(string) bool) string {
	for _, m := range names {
		if free(m) && unbracketed(m, func(x string) bool { return x == n }) != "" {
			return m
		}
	}
	return ""
}

// inputMatch matches the inputs of a and b; it returns the projection,
// the inputs of each by key and the keys in a's order.
func inputMatch(a, b *chain.Chain) (p projection, ignored []string, ka, kb map[string]int, keys []string, err error) {
	common, other, ok := commonVars(a, a.Inputs(), b, b.Inputs())
	if ok {
		if len(common.a) == 0 {
			return projection{}, nil, nil, nil, nil, matchErrorf("their inputs share no variable (the variables are %s)", strings.Join(other, ", "))
		}
		p, ignored = common, other
	}
	ka, kb = map[string]int{}, map[string]int{}
	for i, side := range []struct {
		c *chain.Chain
		m map[string]int
	}{{a, ka}, {b, kb}} {
		for _, s := range side.c.Inputs() {
			k := p.key(side.c, s, i)
			if t, dup := side.m[k]; dup {
				return projection{}, nil, nil, nil, nil, matchErrorf("inputs %s and %s of the %s model both match %s: match on more variables by naming them alike in both models",
					side.c.Name(t), side.c.Name(s), ordinal(i), DisplayKey(k))
			}
			side.m[k] = s
		}
	}
	for _, s := range a.Inputs() {
		k := p.key(a, s, 0)
		if !has(kb, k) {
			return projection{}, nil, nil, nil, nil, matchErrorf("input %s of the first model has no counterpart in the second", DisplayKey(k))
		}
		keys = append(keys, k)
	}
	for _, s := range b.Inputs() {
		if k := p.key(b, s, 1); !has(ka, k) {
			return projection{}, nil, nil, nil, nil, matchErrorf("input %s of the second model has no counterpart in the first", DisplayKey(k))
		}
	}
	return p, ignored, ka, kb, keys, nil
}

func ordinal(i int) string {
	if i == 0 {
		return "first"
	}
	return "second"
}

func has(m map[string]int, k string) bool {
	_, ok := m[k]
	return ok
}

// MatchInputs reports a *MatchError unless the inputs of a and b
// correspond one to one, matched as Equivalent matches them.
func MatchInputs(a, b *chain.Chain) error {
	_, _, _, _, _, err := inputMatch(a, b)
	return err
}

// Equivalent compares the final-state output distributions of a and b,
// exactly, for every input.
//
// Inputs are matched on the variables that every input of both chains has
// (so a module with input in and output out matches a builder whose inputs
// are in=k), or by state name when an input has no valuation; two inputs of
// one chain that agree on those variables, or an input without a
// counterpart, are a *MatchError. Outputs (absorbing states) are compared
// on the variables every valued output of both chains has, probabilities of
// outputs that agree on them added; outputs without a valuation (and ⊥∞)
// by name. An array's element a[1] of one chain matches a variable a1
// (or a_1) of the other that has no a[1]. The result names the variables
// used ("a[1] = a1" for such a pair) and those ignored.
func Equivalent(ctx context.Context, a, b *chain.Chain) (*EquivalenceResult, error) {
	p, ignored, ka, kb, keys, err := inputMatch(a, b)
	if err != nil {
		return nil, err
	}
	fa, err := finals(ctx, a)
	if err != nil {
		return nil, err
	}
	fb, err := finals(ctx, b)
	if err != nil {
		return nil, err
	}
	om, err := MatchOutputKeys(a, fa.states, b, fb.states)
	if err != nil {
		return nil, err
	}
	da, db := fa.keyed(om.A), fb.keyed(om.B)
	res := &EquivalenceResult{Equal: true, Compared: Compared{Inputs: len(keys), InputVars: p.names(), OutputVars: om.Vars, InputIgnored: ignored, OutputIgnored: om.Ignored}}
	res.Outputs, err = CompareKeyed(len(keys), func(i int) (map[string]*big.Rat, map[string]*big.Rat, error) {
		return da[ka[keys[i]]], db[kb[keys[i]]], nil
	}, func(x, y *big.Rat) bool { return ratOrZero(x).Cmp(ratOrZero(y)) == 0 }, func(i int, o string, x, y *big.Rat) error {
		res.Equal = false
		res.Counterexample = &Difference{Input: DisplayKey(keys[i]), Output: DisplayKey(o), PrA: ratOrZero(x), PrB: ratOrZero(y)}
		return nil
	})
	return res, err
}

// finalDists are the final-state distributions of every input of a chain.
type finalDists struct {
	inputs      []int
	dists       map[int]dvec
	names       []string
	stateOutput map[int]int
	// states are the absorbing states, in order.
	states []int
}

func finals(ctx context.Context, c *chain.Chain) (*finalDists, error) {
	inputs := c.Inputs()
	dists, names, stateOutput, err := finalDistributions(ctx, c, inputs, FinalState())
	if err != nil {
		return nil, err
	}
	f := &finalDists{inputs: inputs, dists: dists, names: names, stateOutput: stateOutput}
	for s := range stateOutput {
		f.states = append(f.states, s)
	}
	sort.Ints(f.states)
	return f, nil
}

// keyed returns every input's distribution keyed by the outputs' match
// keys (keys[i] that of states[i]), adding the probabilities of outputs
// with the same key.
func (f *finalDists) keyed(keys []string) map[int]map[string]*big.Rat {
	key := make([]string, len(f.names))
	for i, n := range f.names {
		key[i] = "o\x00" + n // ⊥∞
	}
	for i, s := range f.states {
		key[f.stateOutput[s]] = keys[i]
	}
	out := map[int]map[string]*big.Rat{}
	for _, s := range f.inputs {
		out[s], _ = SumByKey(exact.Rats{}, f.dists[s].out, f.dists[s].p, key) // Rats.Add never fails
	}
	return out
}

// SumByKey returns a distribution over outputs (outs, with probabilities
// p) by the outputs' keys (keys[o] that of output o), adding in F the
// probabilities of outputs with the same key.
func SumByKey[T any](F exact.Field[T], outs []int, p []T, keys []string) (map[string]T, error) {
	m := make(map[string]T, len(outs))
	for i, o := range outs {
		k := keys[o]
		if old, ok := m[k]; ok {
			sum, err := F.Add(old, p[i])
			if err != nil {
				return nil, err
			}
			m[k] = sum
		} else {
			m[k] = p[i]
		}
	}
	return m, nil
}

// ratOrZero returns x, or 0 for nil.
func ratOrZero(x *big.Rat) *big.Rat {
	if x == nil {
		return new(big.Rat)
	}
	return x
}
