package property

import (
	"context"
	"fmt"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/verify"
)

// A composition, compose(k, M), is k runs of M. Its dp, eps, delta and
// profile statements over the runs' final outputs are computed from one
// run of M by privacy-loss distributions (verify.Composition), so k may be
// far beyond what a product chain allows. The product chain of the runs
// is built only when another statement needs it — a dpCTL formula, P=?,
// D queries, traces, an output projection or an inputs predicate, which
// read the product's states — and only within the limits; otherwise the
// file is refused at the compose call, naming the statement that needs it.

// Composition is the prepared model of compose(k, M).
type Composition struct {
	Runs int
	// Run is M's chain and Neighbours the pairs of its inputs compared:
	// the inputs of the runs are M's.
	Run        *chain.Chain
	Neighbours [][2]int
	// Product says whether Prepared.Chain is the product chain of the runs
	// (a statement needed it).
	Product bool
}

// compositionOf returns the composition a model describes, if it is one.
func compositionOf(m Model) (*BuilderModel, builder.Composition, bool) {
	bm, ok := m.(*BuilderModel)
	if !ok || bm.Def.Composition == nil {
		return nil, builder.Composition{}, false
	}
	return bm, bm.Def.Composition(bm.Args), true
}

// productNeed returns the first part of the program that reads the states
// of the product chain of the runs, described for a message, or "".
func productNeed(p *Program) string {
	switch {
	case p.Inputs != nil:
		return fmt.Sprintf("the inputs statement (line %d)", p.Inputs.Pos.Line)
	case p.Output.Vars != nil || p.Output.Labels != nil || p.Output.Steps > 0:
		return fmt.Sprintf("the outputs statement (line %d)", p.Output.Pos.Line)
	case len(p.Observe) > 0:
		return fmt.Sprintf("the observe statement (line %d)", p.Observe[0].Pos.Line)
	}
	for _, st := range p.Statements {
		switch s := st.(type) {
		case interface{ outputOver() *OutputSpec }: // a dp statement
			if s.outputOver() == nil {
				continue
			}
		case *EquivalenceCheck:
			continue // it builds its own models
		}
		h := st.Head()
		return fmt.Sprintf("line %d (%s)", h.Pos.Line, h.Text)
	}
	return ""
}

// buildModel builds the program's model. A composition is built as its
// product chain only when a statement needs it; otherwise the mechanism
// returned has no chain, and pp.Composition describes the runs.
func (pp *Prepared) buildModel(ctx context.Context, p *Program, l model.Limits) (*model.Mechanism, error) {
	bm, comp, ok := compositionOf(p.Model)
	if !ok {
		return p.Model.Build(ctx, l)
	}
	if comp.Of != nil && comp.Of.MDP != nil {
		return nil, source.ErrorList{errNotOnMDP(bm.Pos, "compose", fmt.Sprintf("%s runs an MDP, and runs of an MDP would need a scheduler across them", bm.Call))}
	}
	pp.Composition = &Composition{Runs: comp.Runs, Run: comp.Of.Chain, Neighbours: comp.Of.Neighbours}
	need := productNeed(p)
	if need == "" {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return &model.Mechanism{Note: comp.Note(), Neighbours: comp.Of.Neighbours}, nil
	}
	if err := comp.CheckProduct(l); err != nil {
		list, ok := bm.fail(err).(source.ErrorList)
		if ok && len(list) == 1 {
			list[0].Msg += "; " + need + " needs the chain of the runs (dp, eps, delta and profile over their final outputs do not)"
		}
		return nil, list
	}
	pp.Composition.Product = true
	return p.Model.Build(ctx, l)
}

// prepareRuns resolves the pairs of the runs' inputs: the program's
// neighbour relation over M's chain (the product's inputs are M's, with
// the same names, variables and labels), or M's own.
func (pp *Prepared) prepareRuns(ctx context.Context, p *Program) source.ErrorList {
	c := pp.Composition
	switch {
	case p.Neighbours == nil:
	case c.Product:
		c.Neighbours = nil
		// Already resolved over the product chain: the same pairs by name.
		for _, pr := range pp.Neighbours {
			a, okA := c.Run.Lookup(pp.Chain.Name(pr[0]))
			b, okB := c.Run.Lookup(pp.Chain.Name(pr[1]))
			if okA && okB {
				c.Neighbours = append(c.Neighbours, [2]int{a, b})
			}
		}
	default:
		var errs source.ErrorList
		c.Neighbours, errs = neighbours(ctx, p.Neighbours, c.Run)
		pp.Neighbours = c.Neighbours
		return errs
	}
	if !c.Product {
		pp.Neighbours = c.Neighbours
	}
	return nil
}

// inputChain is the chain whose inputs the statements compare: the
// model's, or one run's of a composition whose product is not built.
func (pp *Prepared) inputChain() *chain.Chain {
	if pp.Chain == nil && pp.Composition != nil {
		return pp.Composition.Run
	}
	return pp.Chain
}

// composed reports whether dp statements over out are computed by
// composition.
func (pp *Prepared) composed(out verify.Output) bool {
	return pp.Composition != nil && out.String() == verify.FinalState().String()
}

// Privacy returns what answers the dp statements over an output space:
// the model's distributions over it, or for a composition over its final
// outputs the runs' privacy-loss distributions (computed once).
func (e *Env) Privacy(ctx context.Context, out verify.Output) (verify.Privacy, error) {
	if !e.p.composed(out) {
		a, err := e.Analysis(ctx, out)
		if err != nil {
			return nil, err // not a nil *Analysis in the interface
		}
		return a, nil
	}
	if e.composition != nil {
		return e.composition, nil
	}
	c := e.p.Composition
	a, err := verify.Analyze(ctx, &verify.Model{Chain: c.Run, Neighbours: c.Neighbours})
	if err != nil {
		return nil, err
	}
	comp, err := verify.NewComposition(ctx, a, c.Runs, e.opts.Composition)
	if err != nil {
		return nil, err
	}
	e.composition = comp
	return comp, nil
}

// Composed returns the composition's privacy-loss analysis if a statement
// needed it.
func (e *Env) Composed() (*verify.Composition, bool) {
	return e.composition, e.composition != nil
}
