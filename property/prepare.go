package property

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"sort"
	"sync"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/mdp"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/param"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/verify"
)

// MaxPredicateInputs bounds the inputs a neighbour predicate is evaluated
// over (every pair is tried).
const MaxPredicateInputs = 20000

// Prepared is a program whose model is built and whose names are resolved:
// ready to evaluate.
type Prepared struct {
	Program *Program
	Model   ModelInfo
	// Chain is the model's chain (nil in a file of equivalence checks only).
	Chain *chain.Chain
	// Neighbours are unordered pairs of inputs; both directions are
	// checked. When AllPairs is set they are nil until Pairs makes them:
	// read them through Pairs.
	Neighbours [][2]int
	// AllPairs says that every two inputs are neighbours (the convention of
	// a PRISM model's initial states): the pairs, quadratic in the inputs,
	// are made only when a statement compares pairs, within the memory
	// limit.
	AllPairs bool
	pairs    *lazyPairs
	Output   verify.Output
	Observed []string
	Limits   model.Limits
	// MDP is set when the model is a Markov decision process: Chain is
	// then its frame (states, names, valuations, labels, inputs — every
	// state absorbing, not the MDP's dynamics), and the statements are
	// evaluated by package mdp.
	MDP *mdp.MDP
	// Composition is set when the model is compose(k, M); Chain is then
	// the product chain of the runs only when a statement needs it, and
	// nil otherwise (see Composition).
	Composition *Composition
	// ExactAt, when set, says the chain is exact at these c = e^ε only
	// (model.Mechanism.ExactAt): statements at other ε are refused, each
	// on its own (Refused).
	ExactAt []*big.Rat
	// TailRatio is the mechanism's (model.Mechanism.TailRatio): with
	// ExactAt, a tight ε at δ = 0 is exact through it.
	TailRatio func(ctx context.Context, from, to string) (*model.TailSup, error)
	// Rewards are the model's reward structures that its statements use,
	// evaluated on its states (model.Mechanism.Rewards).
	Rewards []*model.Rewards
	// refused holds why the statement of a header cannot be checked on
	// the model; Prepare replaces it with a Refused.
	refused map[*Header]source.ErrorList
	// Param is set when the model has a parameter (a ParamSource): Chain is
	// then its frame (states, names, valuations, labels, inputs), and the
	// statements are decided for every parameter value by package param.
	Param *param.Chain
}

// lazyPairs makes the pairs of AllPairs once.
type lazyPairs struct {
	once sync.Once
	err  error
}

// Pairs returns the neighbouring pairs (Neighbours), making them first
// when every two inputs are neighbours (AllPairs); a *model.LimitError
// when they would take more than the memory limit.
func (p *Prepared) Pairs() ([][2]int, error) {
	if !p.AllPairs {
		return p.Neighbours, nil
	}
	p.pairs.once.Do(func() {
		p.Neighbours, p.pairs.err = model.AllPairs(p.Chain.Inputs(), p.Limits.MaxMemory)
	})
	return p.Neighbours, p.pairs.err
}

// NumPairs is the number of unordered neighbouring pairs, without making
// them.
func (p *Prepared) NumPairs() int {
	if p.AllPairs {
		n := len(p.Chain.Inputs())
		return n * (n - 1) / 2
	}
	return len(p.Neighbours)
}

// Prepare builds the program's model within the limits and resolves every
// name of the program against it. Every name that does not resolve is
// reported, at its position, as a source.ErrorList; Prepare stops with
// ctx's error when ctx ends.
func Prepare(ctx context.Context, p *Program, l model.Limits) (*Prepared, error) {
	l = l.WithDefaults()
	pp := &Prepared{Program: p, Limits: l, Output: verify.FinalState(), pairs: &lazyPairs{}}
	var errs source.ErrorList
	if pm, ok := p.Model.(ParamSource); ok {
		pp.Model = pm.Info()
		perrs, err := pp.prepareParam(ctx, pm)
		if err != nil {
			return nil, err
		}
		errs = perrs
		pp.Model = pm.Info() // what building it found
	} else if p.Model != nil {
		pp.Model = p.Model.Info()
		mech, err := pp.buildModel(ctx, p, l)
		if err != nil {
			return nil, err
		}
		pp.Model.Note, pp.ExactAt, pp.TailRatio = mech.Note, mech.ExactAt, mech.TailRatio
		if p.Neighbours != nil {
			pp.Model.Neighbours = "" // the program's own relation replaces the model's convention
		}
		pp.Chain, pp.MDP, pp.Rewards = mech.Chain, mech.MDP, mech.Rewards
		_, builderModel := p.Model.(*BuilderModel)
		neighbourPairs := mech.Neighbours
		allPairs := mech.AllPairs && p.Neighbours == nil
		switch {
		case p.Inputs == nil || p.Inputs.Where == nil:
		case pp.Composition != nil:
			errs = append(errs, errorAt(p.Inputs.Pos, "inputs where … is not available for compose(…): its inputs are those of the composed model"))
		default:
			if builderModel && !mech.AllPairs {
				// a builder's inputs are kept or dropped; its relation
				// keeps the pairs of two kept inputs
				pp.Chain, neighbourPairs, errs = keepInputs(ctx, pp.Chain, mech.Neighbours, p.Inputs, p.Neighbours == nil)
			} else {
				pp.Chain, errs = inputsWhere(ctx, pp.Chain, p.Inputs.Where)
			}
			if pp.MDP != nil && pp.Chain != nil {
				var err error
				if pp.MDP, err = mdp.New(pp.Chain, pp.MDP.Actions, pp.MDP.Choices); err != nil {
					errs = append(errs, errorAt(p.Inputs.Pos, "%v", err))
				}
			}
		}
		if pp.Chain != nil {
			switch {
			case allPairs:
				pp.AllPairs = true
			case p.Neighbours == nil:
				pp.Neighbours = neighbourPairs
			case len(pp.Chain.Inputs()) > 0:
				var nerrs source.ErrorList
				pp.Neighbours, nerrs = neighbours(ctx, p.Neighbours, pp.Chain)
				if nerrs == nil && pp.Model.Kind == "prism" {
					nerrs = initialValuesDiffer(p.Neighbours, pp.Chain)
				}
				errs = append(errs, nerrs...)
			}
			var oerrs source.ErrorList
			pp.Observed, oerrs = resolveLabels(p.Observe, pp.Chain)
			errs = append(errs, oerrs...)
			errs = append(errs, resolveOutput(p.Output, pp.Chain)...)
			pp.Output = verifyOutput(p.Output, pp.Observed)
		}
		if pp.Composition != nil && len(errs) == 0 {
			errs = append(errs, pp.prepareRuns(ctx, p)...)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var sts []Statement // with the refused ones replaced, when there are some
	for i, st := range p.Statements {
		errs = append(errs, st.prepare(ctx, pp)...)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if why := pp.refused[st.Head()]; why != nil {
			if sts == nil {
				sts = slices.Clone(p.Statements)
			}
			sts[i] = &Refused{Header: *st.Head(), Of: st.Kind(), Why: why}
		}
	}
	if sts != nil {
		prog := *p
		prog.Statements = sts
		pp.Program = &prog
	}
	errs.Sort()
	if len(errs) > 0 {
		return nil, errs
	}
	return pp, nil
}

// resolveOutput checks that the variable or labels of an output space are
// the chain's.
func resolveOutput(o OutputSpec, c *chain.Chain) source.ErrorList {
	if o.Vars != nil {
		var errs source.ErrorList
		for _, v := range o.Vars {
			if !contains(c.Vars(), v.Name) {
				errs = append(errs, errUnknownVar(v.Pos, v.Name, c))
			}
		}
		return errs
	}
	_, errs := resolveLabels(o.Labels, c)
	return errs
}

// resolveLabels checks that every name is a label of the chain.
func resolveLabels(refs []Ref, c *chain.Chain) ([]string, source.ErrorList) {
	var names []string
	var errs source.ErrorList
	for _, r := range refs {
		if r.Name == "" || !contains(c.LabelNames(), r.Name) {
			errs = append(errs, errUnknownLabel(r.Pos, r.Name, c))
		}
		names = append(names, r.Name)
	}
	return names, errs
}

func contains(xs []string, x string) bool {
	i := sort.SearchStrings(xs, x)
	return i < len(xs) && xs[i] == x
}

// satisfying returns the states among ss (all: every state but the sink)
// where the inputs predicate where holds; nil, and no error, when ctx
// ends.
func satisfying(ctx context.Context, c *chain.Chain, where *expr.Expr, ss []int, all bool) ([]int, source.ErrorList) {
	f, errs := expr.Compile(where, c, false)
	if errs != nil {
		return nil, errs
	}
	n := len(ss)
	if all {
		n = c.NumStates()
	}
	var ins []int
	for i := range n {
		if i%4096 == 0 && ctx.Err() != nil {
			return nil, nil
		}
		s := i
		if !all {
			s = ss[i]
		} else if c.Name(s) == chain.SinkName {
			continue
		}
		v, err := f.Eval(s, s)
		if err != nil {
			e := evalError(err, where.Pos)
			e.Msg += fmt.Sprintf(" (at %s)", c.Describe(s))
			return nil, source.ErrorList{e}
		}
		if v {
			ins = append(ins, s)
		}
	}
	return ins, nil
}

// inputsWhere makes the states satisfying where the chain's inputs.
func inputsWhere(ctx context.Context, c *chain.Chain, where *expr.Expr) (*chain.Chain, source.ErrorList) {
	ins, errs := satisfying(ctx, c, where, nil, true)
	switch {
	case errs != nil || ctx.Err() != nil:
		return nil, errs
	case len(ins) == 0:
		return nil, source.ErrorList{{Pos: where.Pos, Msg: "no state satisfies this inputs predicate"}}
	}
	return c.WithInputs(ins), nil
}

// keepInputs keeps the inputs of a builder's chain that satisfy the
// predicate of in (a condition on their valuation), and the builder's
// neighbouring pairs of two kept inputs. pairsNeeded says that those pairs
// are the relation (no neighbours statement replaces it): then keeping no
// pair is an error too.
func keepInputs(ctx context.Context, c *chain.Chain, pairs [][2]int, in *Inputs, pairsNeeded bool) (*chain.Chain, [][2]int, source.ErrorList) {
	where := in.Where
	all := c.Inputs()
	ins, errs := satisfying(ctx, c, where, all, false)
	switch {
	case errs != nil || ctx.Err() != nil:
		return nil, nil, errs
	case len(ins) == 0:
		return nil, nil, source.ErrorList{{Pos: where.Pos, Msg: fmt.Sprintf("no input of the model satisfies this inputs predicate (it has %d inputs)", len(all))}}
	}
	kept := make(map[int]bool)
	for _, s := range ins {
		kept[s] = true
	}
	var keptPairs [][2]int
	for _, pr := range pairs {
		if kept[pr[0]] && kept[pr[1]] {
			keptPairs = append(keptPairs, pr)
		}
	}
	if pairsNeeded && len(keptPairs) == 0 {
		return nil, nil, source.ErrorList{{Pos: where.Pos, Msg: fmt.Sprintf("no two of the %d inputs this predicate keeps are neighbours in the model", len(ins))}}
	}
	return c.WithInputs(ins), keptPairs, nil
}

// evalError positions an error of evaluating an expression.
func evalError(err error, at source.Position) *source.Error {
	var ee *expr.EvalError
	if errors.As(err, &ee) {
		return &source.Error{Pos: ee.Pos, Msg: ee.Msg}
	}
	return &source.Error{Pos: at, Msg: err.Error()}
}

// neighbours resolves the neighbour relation over the chain's inputs.
func neighbours(ctx context.Context, n *Neighbours, c *chain.Chain) ([][2]int, source.ErrorList) {
	if n.Pred == nil {
		var pairs [][2]int
		var errs source.ErrorList
		for _, pr := range n.Pairs {
			a, errA := inputByName(pr.A, c)
			b, errB := inputByName(pr.B, c)
			if errA != nil || errB != nil {
				for _, e := range []*source.Error{errA, errB} {
					if e != nil {
						errs = append(errs, e)
					}
				}
				continue
			}
			if a == b {
				errs = append(errs, errSelfPair(pr))
				continue
			}
			pairs = append(pairs, [2]int{a, b})
		}
		return pairs, errs
	}
	f, errs := expr.Compile(n.Pred, c, true)
	if errs != nil {
		return nil, errs
	}
	ins := c.Inputs()
	// A comparison with a variable a state lacks is false there; for a
	// neighbour relation that would drop pairs silently, so every input
	// must have the variables the predicate reads.
	for _, r := range f.Reads {
		for _, s := range ins {
			if _, has := c.Value(s, r.Name); !has {
				return nil, source.ErrorList{errInputLacksVar(r, c.Name(s))}
			}
		}
	}
	if len(ins) > MaxPredicateInputs {
		return nil, source.ErrorList{errTooManyInputs(n.Pred.Pos, len(ins))}
	}
	var pairs [][2]int
	for i, s := range ins {
		if i%64 == 0 && ctx.Err() != nil {
			return nil, nil
		}
		for _, t := range ins[i+1:] {
			v, err := f.Eval(s, t)
			if err == nil && !v {
				v, err = f.Eval(t, s)
			}
			if err != nil {
				e := evalError(err, n.Pred.Pos)
				e.Msg += fmt.Sprintf(" (comparing the inputs %s and %s)", c.Describe(s), c.Describe(t))
				return nil, source.ErrorList{e}
			}
			if v {
				pairs = append(pairs, [2]int{s, t})
			}
		}
	}
	if len(pairs) == 0 {
		return nil, source.ErrorList{{Pos: n.Pred.Pos, Msg: "this neighbour predicate relates no two distinct inputs"}}
	}
	return pairs, nil
}

// initialValuesDiffer checks that a neighbour predicate over a PRISM
// model (or PRISM's explicit files) reads only variables whose values
// differ between its initial states, the inputs: one with the same value
// at every initial state is not part of the input (a counter that starts
// at 0, an output not yet drawn), and comparing it would relate every pair
// or none. Each variable is reported once, where it is first read.
func initialValuesDiffer(n *Neighbours, c *chain.Chain) source.ErrorList {
	if n.Pred == nil {
		return nil
	}
	f, errs := expr.Compile(n.Pred, c, true)
	if errs != nil {
		return errs
	}
	ins := c.Inputs()
	varies := func(name string) (int64, bool) {
		v0, _ := c.Value(ins[0], name)
		for _, s := range ins[1:] {
			if v, _ := c.Value(s, name); v != v0 {
				return v0, true
			}
		}
		return v0, false
	}
	var differ []string
	for _, v := range c.Vars() {
		if _, ok := varies(v); ok {
			differ = append(differ, v)
		}
	}
	seen := map[string]bool{}
	var out source.ErrorList
	for _, r := range f.Reads {
		if seen[r.Name] {
			continue
		}
		seen[r.Name] = true
		if v, ok := varies(r.Name); !ok {
			out = append(out, errConstantAtInputs(r, v, differ))
		}
	}
	return out
}

// inputByName finds an input state by name.
func inputByName(r Ref, c *chain.Chain) (int, *source.Error) {
	s, ok := c.Lookup(r.Name)
	switch {
	case !ok:
		return 0, errUnknownState(r, c)
	case !c.IsInput(s):
		return 0, errNotAnInput(r, c)
	}
	return s, nil
}
