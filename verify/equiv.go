package verify

import (
	"context"
	"math/big"
	"sort"

	"github.com/dpcheck/dpcheck/chain"
)

// EquivalenceResult says whether two chains have equal output
// distributions for every input.
type EquivalenceResult struct {
	Equal bool
	// Inputs and Outputs count the matched inputs and the distinct outputs
	// compared.
	Inputs, Outputs int
	// Counterexample is set when they differ: the first input (in the first
	// chain's order) and output where the probabilities differ.
	Counterexample *Difference
}

// Difference is an input and an output whose probabilities differ.
type Difference struct {
	Input  string
	Output string
	PrA    *big.Rat
	PrB    *big.Rat
}

// matchKey identifies a state across chains: its valuation, or its name
// when it has none; the prefix keeps a name such as "in=0" from matching a
// valuation in=0.
func matchKey(c *chain.Chain, s int) string {
	if v := c.Valuation(s); len(v) > 0 {
		return "v\x00" + v.String()
	}
	return "n\x00" + c.Name(s)
}

// displayKey is a match key as people read it.
func displayKey(k string) string { return k[2:] }

// UnmatchedInput is the error of comparing models whose inputs do not
// correspond: Input (a valuation, or a name) of the first model (First) or
// of the second has no counterpart in the other. It wraps ErrModel.
type UnmatchedInput struct {
	Input string
	First bool
}

func (e *UnmatchedInput) Error() string { return ErrModel.Error() + ": " + e.Reason() }

// Reason says which input has no counterpart.
func (e *UnmatchedInput) Reason() string {
	if e.First {
		return "input " + e.Input + " of the first model has no counterpart in the second"
	}
	return "input " + e.Input + " of the second model has no counterpart in the first"
}

func (e *UnmatchedInput) Unwrap() error { return ErrModel }

// MatchInputs reports an *UnmatchedInput unless the inputs of a and b correspond one
// to one, matched as Equivalent matches them.
func MatchInputs(a, b *chain.Chain) error {
	_, _, _, err := matchInputs(a, b)
	return err
}

// matchInputs matches the inputs of a and b; it returns the inputs of
// each by key and the keys in a's order.
func matchInputs(a, b *chain.Chain) (ka, kb map[string]int, keys []string, err error) {
	ka, kb = map[string]int{}, map[string]int{}
	for _, s := range a.Inputs() {
		ka[matchKey(a, s)] = s
	}
	for _, s := range b.Inputs() {
		kb[matchKey(b, s)] = s
	}
	for _, s := range a.Inputs() {
		k := matchKey(a, s)
		if _, ok := kb[k]; !ok {
			return nil, nil, nil, &UnmatchedInput{Input: displayKey(k), First: true}
		}
		keys = append(keys, k)
	}
	for _, s := range b.Inputs() {
		if k := matchKey(b, s); !has(ka, k) {
			return nil, nil, nil, &UnmatchedInput{Input: displayKey(k)}
		}
	}
	return ka, kb, keys, nil
}

func has(m map[string]int, k string) bool {
	_, ok := m[k]
	return ok
}

// Equivalent compares the final-state output distributions of a and b,
// exactly, for every input. Inputs and outputs are matched by their
// valuation (in=3, out=2), or by name when they have none; an input of one
// chain without a counterpart in the other is an error.
func Equivalent(ctx context.Context, a, b *chain.Chain) (*EquivalenceResult, error) {
	ka, kb, keys, err := matchInputs(a, b)
	if err != nil {
		return nil, err
	}
	da, err := keyedDistributions(ctx, a)
	if err != nil {
		return nil, err
	}
	db, err := keyedDistributions(ctx, b)
	if err != nil {
		return nil, err
	}
	outputs := map[string]bool{}
	res := &EquivalenceResult{Equal: true, Inputs: len(keys)}
	for _, k := range keys {
		pa, pb := da[ka[k]], db[kb[k]]
		names := map[string]bool{}
		for o := range pa {
			names[o] = true
		}
		for o := range pb {
			names[o] = true
		}
		sorted := make([]string, 0, len(names))
		for o := range names {
			sorted = append(sorted, o)
			outputs[o] = true
		}
		sort.Strings(sorted)
		for _, o := range sorted {
			x, y := ratOrZero(pa[o]), ratOrZero(pb[o])
			if x.Cmp(y) != 0 && res.Equal {
				res.Equal = false
				res.Counterexample = &Difference{Input: displayKey(k), Output: displayKey(o), PrA: x, PrB: y}
			}
		}
	}
	res.Outputs = len(outputs)
	return res, nil
}

// keyedDistributions returns every input's final-state distribution keyed
// by the outputs' match keys.
func keyedDistributions(ctx context.Context, c *chain.Chain) (map[int]map[string]*big.Rat, error) {
	inputs := c.Inputs()
	dists, names, stateOutput, err := finalDistributions(ctx, c, inputs, FinalState())
	if err != nil {
		return nil, err
	}
	// Outputs are absorbing states (or ⊥∞); re-key them by match key.
	key := make([]string, len(names))
	for i, n := range names {
		key[i] = "o\x00" + n // ⊥∞
	}
	for s, o := range stateOutput {
		key[o] = matchKey(c, s)
	}
	out := map[int]map[string]*big.Rat{}
	for _, s := range inputs {
		d := dists[s]
		m := map[string]*big.Rat{}
		for i, o := range d.out {
			k := key[o]
			if old, ok := m[k]; ok {
				m[k] = new(big.Rat).Add(old, d.p[i])
			} else {
				m[k] = d.p[i]
			}
		}
		out[s] = m
	}
	return out, nil
}

// ratOrZero returns x, or 0 for nil.
func ratOrZero(x *big.Rat) *big.Rat {
	if x == nil {
		return new(big.Rat)
	}
	return x
}
