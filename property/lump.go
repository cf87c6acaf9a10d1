package property

import (
	"context"
	"encoding/binary"
	"slices"

	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/lump"
	"github.com/dpcheck/dpcheck/mdp"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/verify"
)

// Lumping (docs/semantics.md §4.9): with Options.Lump, an Env evaluates
// the statements that observe a chain only through its outputs or a
// formula's atoms on the chain's quotient under the coarsest lumping that
// respects them, and reports the results on the original chain.
//
//   - dp, eps, delta and profile statements: a lumping for their output
//     space, respecting the output of every absorbing state (final
//     outputs) or the observed labels of every state (traces); the
//     analysis of the quotient is lifted to the original chain
//     (verify.Analysis.Lift).
//   - check φ, P=?, D{?,δ} and D{ε,?}: one lumping for all of them,
//     respecting every label and variable comparison their formulas read;
//     their atoms are evaluated at each block's first state, and the states
//     their results name are the original inputs.
//   - check equivalent compares the valuations of two models: never lumped.
//
// Output spaces and formulas whose initial partitions are the same share
// one lumping. Inputs are alone in their blocks, so the neighbour relation,
// computed on the original chain, maps onto the quotient unchanged.

// Options change how an Env evaluates statements.
type Options struct {
	// Lump evaluates statements on lumped quotients of the chain where that
	// is exact (see docs/semantics.md §4.9); verdicts, values and the
	// states results name are the same as without. It does not apply to
	// an MDP, whose statements are evaluated without lumping.
	Lump bool
	// MDP bounds the query-scheduler search of statements on an MDP (the
	// zero value: mdp's defaults).
	MDP mdp.Options
	// Composition bounds the privacy-loss distributions of a composition's
	// runs (the zero value: verify's defaults).
	Composition verify.CompositionOptions
	// MaxEliminationWork bounds the estimated work of state elimination
	// over rational functions (param.Chain.MaxEliminationWork; zero:
	// param's default).
	MaxEliminationWork float64
}

// Lumped is one lumping an Env made.
type Lumped struct {
	// For lists what the lumping served: output spaces ("final value of
	// top") and ForFormulas. Those that observe the same (traces of the
	// same labels over different horizons, say) share one lumping.
	For           []string
	Before, After lump.Size
}

// ForFormulas is Lumped.For of the lumping of the dpCTL statements.
const ForFormulas = "dpCTL formulas"

// NewEnvWith returns an environment for evaluating the statements of p
// with options.
func NewEnvWith(p *Prepared, o Options) *Env {
	e := NewEnv(p)
	e.opts = o
	return e
}

// Lumpings returns the lumpings the statements evaluated so far used, in
// the order they were made.
func (e *Env) Lumpings() []Lumped {
	out := slices.Clone(e.lumped)
	for i := range out {
		out[i].For = slices.Clone(out[i].For)
	}
	return out
}

// canLump reports whether the model's chain may be lumped: there is one,
// and its neighbour relation names only inputs (otherwise the verifier's
// error about it is the original chain's).
func (e *Env) canLump() bool {
	c := e.p.Chain
	if !e.opts.Lump || c == nil || e.p.MDP != nil {
		return false
	}
	for _, p := range e.p.Neighbours {
		for _, s := range p {
			if s < 0 || s >= c.NumStates() || !c.IsInput(s) {
				return false
			}
		}
	}
	return true
}

// lumping is a lumping an Env made, with the neighbour relation on its
// quotient.
type lumping struct {
	*lump.Lumping
	index int // in Env.lumped
	// pairs are the neighbouring pairs on the quotient, made by
	// quotientPairs when a statement needs them.
	pairs [][2]int
	made  bool
}

// quotientPairs returns the neighbouring pairs of the model on l's
// quotient.
func (e *Env) quotientPairs(l *lumping) ([][2]int, error) {
	if !l.made {
		ns, err := e.p.Pairs()
		if err != nil {
			return nil, err
		}
		l.pairs = make([][2]int, len(ns))
		for i, p := range ns {
			l.pairs[i] = [2]int{l.Block[p[0]], l.Block[p[1]]}
		}
		l.made = true
	}
	return l.pairs, nil
}

// lump lumps the chain respecting r, once for every initial partition,
// and records what it served.
func (e *Env) lump(ctx context.Context, what string, r lump.Respect) (*lumping, error) {
	c := e.p.Chain
	// The initial partition, numbered canonically, identifies the lumping.
	keys := make([]string, c.NumStates())
	ids := map[string]int{}
	sig := []byte{'t'}
	if r.Final {
		sig[0] = 'f'
	}
	for s := range keys {
		if r.Key != nil && (!r.Final || c.IsAbsorbing(s)) {
			keys[s] = r.Key(s)
		}
		id, ok := ids[keys[s]]
		if !ok {
			id = len(ids)
			ids[keys[s]] = id
		}
		sig = binary.AppendUvarint(sig, uint64(id))
	}
	r.Key = func(s int) string { return keys[s] }
	if l, ok := e.lumps[string(sig)]; ok {
		e.lumped[l.index].For = append(e.lumped[l.index].For, what)
		return l, nil
	}
	l, err := lump.Lump(ctx, c, r)
	if err != nil {
		return nil, err
	}
	if e.lumps == nil {
		e.lumps = map[string]*lumping{}
	}
	e.lumps[string(sig)] = &lumping{Lumping: l, index: len(e.lumped)}
	e.lumped = append(e.lumped, Lumped{For: []string{what}, Before: l.Before, After: l.After})
	return e.lumps[string(sig)], nil
}

// lumpedAnalysis computes the distributions over out on the quotient that
// respects out, lifted to the original chain.
func (e *Env) lumpedAnalysis(ctx context.Context, out verify.Output) (*verify.Analysis, error) {
	c := e.p.Chain
	l, err := e.lump(ctx, out.String(), lump.Respect{Final: out.Final(), Key: func(s int) string { return out.StateKey(c, s) }})
	if err != nil {
		return nil, err
	}
	pairs, err := e.quotientPairs(l)
	if err != nil {
		return nil, err
	}
	q, err := verify.Analyze(ctx, &verify.Model{Chain: l.Quotient, Neighbours: pairs, Output: out})
	if err != nil {
		return nil, err
	}
	return q.Lift(c, l.Block)
}

// formulaStatement is a statement whose formula the dpCTL checker
// evaluates.
type formulaStatement interface {
	formula() *Formula
}

func (s *FormulaCheck) formula() *Formula { return s.Formula }
func (s *ProbQuery) formula() *Formula    { return s.Path }
func (s *DEpsQuery) formula() *Formula    { return s.Path }
func (s *DDeltaQuery) formula() *Formula  { return s.Path }

// formulaChecker returns the checker the formula statements use: on the
// quotient that respects every atom of the program's formulas when
// lumping, else the chain's own.
func (e *Env) formulaChecker(ctx context.Context) (*verify.Checker, error) {
	switch {
	case e.fchecker != nil:
		return e.fchecker, nil
	case e.fnoLump || !e.canLump():
		return e.Checker()
	}
	key, ok := e.atomKeys()
	if !ok {
		e.fnoLump = true
		return e.Checker() // an atom fails somewhere: the checker says where
	}
	l, err := e.lump(ctx, ForFormulas, lump.Respect{Key: key})
	if err != nil {
		return nil, err
	}
	m, err := e.newChecker(l.Quotient, func() ([][2]int, error) { return e.quotientPairs(l) })
	if err != nil {
		return nil, err
	}
	e.fchecker, e.flump, e.fresolved = m, l.Lumping, map[*Formula]*verify.Formula{}
	return m, nil
}

// atomKeys returns, for every state, which labels and comparisons of the
// program's formulas hold there; false when a comparison cannot be
// evaluated at some state.
func (e *Env) atomKeys() (func(s int) string, bool) {
	c := e.p.Chain
	var labels []string
	var atoms []*expr.Compiled
	seen := map[string]bool{}
	var walk func(f *Formula) bool
	walk = func(f *Formula) bool {
		switch f.Op {
		case verify.OpLabel:
			if !seen["l"+f.Label] {
				seen["l"+f.Label] = true
				labels = append(labels, f.Label)
			}
		case verify.OpAtom:
			cond, errs := expr.Compile(f.Atom, c, false)
			if errs != nil {
				return false
			}
			atoms = append(atoms, cond)
		}
		for _, a := range f.Args {
			if !walk(a) {
				return false
			}
		}
		return true
	}
	for _, st := range e.p.Program.Statements {
		if fs, ok := st.(formulaStatement); ok && fs.formula() != nil && !walk(fs.formula()) {
			return nil, false
		}
	}
	keys := make([]string, c.NumStates())
	buf := make([]byte, len(labels)+len(atoms))
	for s := range keys {
		for i, l := range labels {
			buf[i] = bit(c.HasLabel(s, l))
		}
		for i, a := range atoms {
			v, err := a.Eval(s, s)
			if err != nil {
				return nil, false
			}
			buf[len(labels)+i] = bit(v)
		}
		keys[s] = string(buf)
	}
	return func(s int) string { return keys[s] }, true
}

func bit(b bool) byte {
	if b {
		return '1'
	}
	return '0'
}

// checkedFormula returns the formula of a formula statement as the
// checker of formulaChecker evaluates it: resolved is f resolved against
// the chain, or f resolved against the quotient's blocks when lumped.
func (e *Env) checkedFormula(f *Formula, resolved *verify.Formula) *verify.Formula {
	if e.flump == nil {
		return resolved
	}
	if g, ok := e.fresolved[f]; ok {
		return g
	}
	var errs source.ErrorList
	g := f.resolveAt(e.p.Chain, e.flump.Rep, &errs)
	if len(errs) > 0 {
		return resolved // cannot happen: f resolved once against the same chain
	}
	e.fresolved[f] = g
	return g
}

// state names an original state in a result of the lumped checker.
func (e *Env) state(si verify.StateInfo) verify.StateInfo {
	if e.flump != nil {
		si.ID = e.flump.Rep[si.ID]
	}
	return si
}

func (e *Env) liftExplanation(x *verify.Explanation) {
	if x == nil {
		return
	}
	x.State = e.state(x.State)
	if x.DP != nil {
		x.DP.From, x.DP.To = e.state(x.DP.From), e.state(x.DP.To)
	}
	for _, c := range x.Causes {
		e.liftExplanation(c)
	}
}

func (e *Env) liftBound(b *verify.DPBound) {
	if b == nil {
		return
	}
	for _, p := range []**verify.StateInfo{&b.From, &b.To} {
		if *p != nil {
			si := e.state(**p)
			*p = &si
		}
	}
}
