package param

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/poly"
	"github.com/dpcheck/dpcheck/verify"
)

// Equivalence for every parameter value. Two parametric chains over the
// same interval I are equivalent for every α ∈ I when every matched input
// has the same output distribution at every α: for every input and output,
// Pr_A(o | s) and Pr_B(o | s) are the same rational function on I. Two
// rational functions that agree on infinitely many points are equal
// identically (their difference's numerator is a polynomial with infinitely
// many roots, so zero), and poly keeps them in a canonical reduced form
// (monic denominator, GCD divided out), so comparing the canonical forms
// decides "equal for every α ∈ I" exactly. When two differ, their difference
// has finitely many roots in I, and the simplest rational of I that is not
// one of them (poly.Limits.Witness) is a value where the models differ.

// EquivalenceResult says whether two parametric chains have equal output
// distributions (final states) for every input and every parameter value of
// their interval; inputs and outputs are matched as verify.Equivalent
// matches them.
type EquivalenceResult struct {
	Equal bool
	verify.Compared
	// Counterexample is set when they differ: the first input (in the
	// first chain's order) and output (in key order) whose probabilities
	// are different functions.
	Counterexample *Difference
}

// Difference is an input and an output whose probabilities are different
// rational functions of the parameter, with a value where they differ.
type Difference struct {
	Input, Output string
	// PrA and PrB are the two probabilities, canonical.
	PrA, PrB poly.RatFunc
	// Witness is the simplest rational of the interval where PrA ≠ PrB, and
	// WitnessA, WitnessB the two probabilities there.
	Witness, WitnessA, WitnessB *big.Rat
	// Instance is verify.Equivalent on the two chains instantiated at
	// Witness: not equivalent there, and its counterexample is this input
	// and output with WitnessA and WitnessB (every earlier pair is the same
	// function, so equal at Witness too).
	Instance *verify.EquivalenceResult
}

// Constant returns an ordinary chain as a parametric chain whose
// probabilities do not depend on the parameter: name and interval are the
// parameter's, the frame is c itself (its absorbing states are those
// without transitions here), and it has no neighbours. It lets a model
// without the parameter be compared with one that has it (Equivalent).
func Constant(ctx context.Context, lim poly.Limits, c *chain.Chain, name string, in poly.Interval) (*Chain, error) {
	rows := make([][]Trans, c.NumStates())
	for s := range rows {
		if s%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if c.IsAbsorbing(s) {
			continue
		}
		to, p := c.Row(s)
		row := make([]Trans, len(to))
		for i := range to {
			row[i] = Trans{To: to[i], P: poly.FromPoly(poly.Const(p[i]))}
		}
		rows[s] = row
	}
	return New(ctx, lim, c, name, in, rows, nil)
}

// Equivalent compares the final-state output distributions of a and b for
// every parameter value at once, exactly (see the comment at the top of
// this file): both must be over the same interval. Inputs are matched as
// verify.MatchInputKeys matches them and outputs as verify.MatchOutputKeys
// (probabilities of outputs with the same key added); every input's
// distribution is computed as Analyze computes it (so the limits of
// Analyze apply, MaxEliminationStates for cyclic chains). The polynomial
// algebra is bounded by a's Limits.
func Equivalent(ctx context.Context, a, b *Chain) (*EquivalenceResult, error) {
	if !sameInterval(a.Interval, b.Interval) {
		return nil, fmt.Errorf("%w: the chains are over different intervals, %s and %s", ErrParam, a.Interval, b.Interval)
	}
	lim := a.Limits
	im, err := verify.MatchInputKeys(a.Frame, b.Frame)
	if err != nil {
		return nil, err
	}
	aa, err := analyzeInputs(ctx, a)
	if err != nil {
		return nil, err
	}
	ab, err := analyzeInputs(ctx, b)
	if err != nil {
		return nil, err
	}
	sa, err := outputStates(aa)
	if err != nil {
		return nil, err
	}
	sb, err := outputStates(ab)
	if err != nil {
		return nil, err
	}
	om, err := verify.MatchOutputKeys(a.Frame, sa, b.Frame, sb)
	if err != nil {
		return nil, err
	}
	res := &EquivalenceResult{Equal: true, Compared: verify.Compared{Inputs: len(im.A), InputVars: im.Vars, InputIgnored: im.Ignored,
		OutputVars: om.Vars, OutputIgnored: om.Ignored}}
	inB := map[string]int{}
	for i, s := range b.Frame.Inputs() {
		inB[im.B[i]] = s
	}
	ins := a.Frame.Inputs()
	res.Outputs, err = verify.CompareKeyed(len(ins), func(i int) (map[string]poly.RatFunc, map[string]poly.RatFunc, error) {
		da, err := keyed(ctx, lim, aa, ins[i], om.A)
		if err != nil {
			return nil, nil, err
		}
		db, err := keyed(ctx, lim, ab, inB[im.A[i]], om.B)
		return da, db, err
	}, poly.RatFunc.Equal, func(i int, o string, x, y poly.RatFunc) error {
		d, err := difference(ctx, a, b, x, y)
		if err != nil {
			return err
		}
		d.Input, d.Output = verify.DisplayKey(im.A[i]), verify.DisplayKey(o)
		res.Equal, res.Counterexample = false, d
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// difference finds the simplest rational of the interval where x ≠ y, and
// the two chains' ordinary comparison there.
func difference(ctx context.Context, a, b *Chain, x, y poly.RatFunc) (*Difference, error) {
	lim := a.Limits
	d := &Difference{PrA: x, PrB: y}
	diff, err := lim.RatSub(ctx, x, y)
	if err != nil {
		return nil, err
	}
	w, ne, err := outside(ctx, lim, diff, poly.EQ, a.Interval)
	if err != nil {
		return nil, err
	}
	if !ne || !w.IsRational() {
		// Cannot happen: a nonzero difference has finitely many roots, and
		// Witness then returns a rational.
		return nil, fmt.Errorf("%w: no rational value where %s and %s differ", ErrParam, x.Format(a.Param), y.Format(a.Param))
	}
	d.Witness = w.Rat()
	if d.WitnessA, err = x.Eval(d.Witness); err != nil {
		return nil, err
	}
	if d.WitnessB, err = y.Eval(d.Witness); err != nil {
		return nil, err
	}
	ia, err := a.Instantiate(d.Witness)
	if err != nil {
		return nil, err
	}
	ib, err := b.Instantiate(d.Witness)
	if err != nil {
		return nil, err
	}
	if d.Instance, err = verify.Equivalent(ctx, ia, ib); err != nil {
		return nil, err
	}
	return d, nil
}

func sameInterval(x, y poly.Interval) bool {
	return x.Lo.Cmp(y.Lo) == 0 && x.Hi.Cmp(y.Hi) == 0 && x.LoOpen == y.LoOpen && x.HiOpen == y.HiOpen
}

// analyzeInputs computes the distribution of every input of c, not only
// those in a neighbouring pair.
func analyzeInputs(ctx context.Context, c *Chain) (*Analysis, error) {
	all := *c
	all.Neighbours = nil
	for _, s := range c.Frame.Inputs() {
		all.Neighbours = append(all.Neighbours, [2]int{s, s})
	}
	return Analyze(ctx, &all)
}

// outputStates returns the absorbing state of every output of a (outputs
// are final states, named by the state's name).
func outputStates(a *Analysis) ([]int, error) {
	out := make([]int, a.NumOutputs())
	for o := range out {
		s, ok := a.c.Frame.Lookup(a.OutputName(o))
		if !ok {
			return nil, errors.New("param: output " + a.OutputName(o) + " is not a state")
		}
		out[o] = s
	}
	return out, nil
}

// keyed returns input s's distribution by output key, the probabilities of
// outputs with the same key added.
func keyed(ctx context.Context, lim poly.Limits, a *Analysis, s int, keys []string) (map[string]poly.RatFunc, error) {
	d, ok := a.Distribution(s)
	if !ok {
		return nil, fmt.Errorf("%w: no distribution of input %s", ErrParam, a.c.Frame.Name(s))
	}
	return verify.SumByKey(poly.Field{Ctx: ctx, Limits: lim}, d.Out, d.P, keys)
}
