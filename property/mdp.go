package property

import (
	"context"
	"fmt"
	"math/big"
	"slices"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/mdp"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/verify"
)

// Statements on MDPs (docs/semantics.md §7). When the model is a Markov
// decision process (Prepared.MDP), its chain is only the frame — names,
// valuations, labels, inputs — and every statement is evaluated by package
// mdp:
//
//   - check dp, query eps, query delta: over query schedulers (a fixed
//     sequence of actions applied from both inputs of a pair), over the
//     program's output space (mdp.CheckDP, TightEpsilon, TightDelta).
//   - check φ, for φ a boolean combination of P~p[ψ], D{ε,δ}[ψ], labels
//     and comparisons at every input: P~p[ψ] holds when it holds under
//     every scheduler (Pmin for ≥ and >, Pmax for ≤ and <, exact);
//     D{ε,δ}[ψ] by mdp.CheckD over query schedulers. The verdict is
//     three-valued: a D whose verdict is unknown makes φ unknown where it
//     decides φ.
//   - query P=?[ψ]: the probability when it is the same under every
//     scheduler (an error naming both extremes otherwise); Pmin=? and
//     Pmax=? the extremes.
//   - query D{?,δ}[ψ], D{ε,?}[ψ]: mdp.TightEpsilonD, TightDeltaD; a value
//     not decided exactly is an interval.
//
// Refused when the file is prepared, at the statement: query profile,
// check equivalent of an MDP, compose(k, M) of an MDP, and P or D inside a
// path formula. Options.Lump does not apply to an MDP (it is skipped).

// errNotOnMDP is the refusal of a statement that is not defined on MDPs.
func errNotOnMDP(at source.Position, what, why string) *source.Error {
	return errorAt(at, "%s is not defined on MDPs yet: %s", what, why)
}

// checkExpectUnknown refuses "expect unknown" where it cannot be met: on
// a Markov chain (every check is decided), and on a query.
func (p *Prepared) checkExpectUnknown(h *Header, check bool) source.ErrorList {
	if h.Expect.Kind != ExpectUnknown {
		return nil
	}
	switch {
	case !check:
		return source.ErrorList{errorAt(h.Expect.Pos, "expect unknown is for checks on MDPs: a query whose value is not decided exactly gives an interval")}
	case p.MDP == nil:
		return source.ErrorList{errorAt(h.Expect.Pos, "expect unknown is for checks on MDPs: on a Markov chain every check is decided exactly")}
	}
	return nil
}

// nestedOnMDP returns the first P or D inside a path formula of f (f a
// path formula when inPath), or nil.
func nestedOnMDP(f *Formula, inPath bool) *Formula {
	if inPath && (f.Op == verify.OpProb || f.Op == verify.OpDP) {
		return f
	}
	in := inPath || f.Op == verify.OpProb || f.Op == verify.OpDP
	for _, a := range f.Args {
		if g := nestedOnMDP(a, in); g != nil {
			return g
		}
	}
	return nil
}

// errNested refuses a P or D inside a path formula on an MDP.
func errNested(g *Formula) *source.Error {
	return errorAt(g.Pos, "%s: P and D inside a path formula are not defined on MDPs yet: on an MDP the state formulas of a path formula must be propositional (labels, comparisons, true, false, !, &, |)", g.Text)
}

// preparePathOnMDP refuses a path formula with a P or D inside on an MDP
// (an error), and the statement h of an LTL path formula that is neither
// co-safe nor safe.
func (p *Prepared) preparePathOnMDP(h *Header, path *Formula) source.ErrorList {
	if p.MDP == nil {
		return nil
	}
	if g := nestedOnMDP(path, true); g != nil {
		return source.ErrorList{errNested(g)}
	}
	p.refuseSplitOnMDP(h, path, true)
	return nil
}

// refuseSplitOnMDP refuses the statement h when a path formula of f (f a
// path formula when inPath) is neither co-safe nor safe: on a Markov chain
// dpcheck splits the chain on its inner operators, which an MDP's
// schedulers forbid.
func (p *Prepared) refuseSplitOnMDP(h *Header, f *Formula, inPath bool) {
	if inPath {
		if g := f.shape(map[*verify.Formula]*Formula{}); !g.IsState() && verify.NeedsSplit(g) {
			p.refuse(h, errorAt(f.Pos, "%s: on MDPs dpcheck checks the LTL formulas that are co-safe (U, F, X and bounded operators once negations are pushed inward) or safe (G, R, W, X and bounded operators); G F φ and F G φ need both", f.Text))
		}
		return
	}
	for _, a := range f.Args {
		p.refuseSplitOnMDP(h, a, f.Op == verify.OpProb)
	}
}

// IsMDP reports whether the model is a Markov decision process.
func (p *Prepared) IsMDP() bool { return p.MDP != nil }

// stateInfo names a state of the frame.
func stateInfo(c *chain.Chain, s int) verify.StateInfo {
	return verify.StateInfo{ID: s, Name: c.Name(s), Valuation: c.Valuation(s)}
}

// schedulers says, in a description, over which schedulers a statement on
// an MDP is checked.
const (
	querySchedulers = "over query schedulers (fixed action sequences)"
	allSchedulers   = "under every scheduler"
)

// passVerdict sets whether an MDP verdict meets the statement's
// expectation: holds (decided, or by the sufficient condition), violated,
// or unknown.
func (b *base) passVerdict(h *Header, v mdp.Verdict) {
	switch h.Expect.Kind {
	case ExpectViolated:
		b.pass = v == mdp.Violated
	case ExpectUnknown:
		b.pass = v == mdp.Unknown
	default:
		b.pass = v == mdp.Holds || v == mdp.HoldsSufficient
	}
}

// mdpVerdict is the value of a check on an MDP: "holds", "violated" or
// "unknown" (how it holds is in the result).
func mdpVerdict(b *base, v mdp.Verdict) string {
	switch {
	case b.err != nil:
		return "error"
	case v == mdp.Holds || v == mdp.HoldsSufficient:
		return "holds"
	case v == mdp.Violated:
		return "violated"
	}
	return "unknown"
}

// OnFrame names the states an outcome on an MDP refers to, and counts
// the pairs it compared.
type OnFrame struct {
	frame *chain.Chain
	pairs int
}

// onFrame is what an outcome on e's MDP knows of it.
func (e *Env) onFrame() OnFrame { return OnFrame{frame: e.p.Chain, pairs: e.p.NumPairs()} }

// StateInfo names state s of the MDP (the From and To of a result).
func (f OnFrame) StateInfo(s int) verify.StateInfo {
	if f.frame == nil || s < 0 || s >= f.frame.NumStates() {
		return verify.StateInfo{ID: s, Name: fmt.Sprint(s)}
	}
	return stateInfo(f.frame, s)
}

// Pairs is the number of unordered neighbouring pairs compared.
func (f OnFrame) Pairs() int { return f.pairs }

// MDPCheckOutcome is the verdict of check dp on an MDP, over query
// schedulers, with how it was decided and the worst action sequence.
type MDPCheckOutcome struct {
	base
	OnFrame
	Result *mdp.Result
}

// Value is "holds", "violated" or "unknown".
func (o *MDPCheckOutcome) Value() string {
	if o.Result == nil {
		return mdpVerdict(&o.base, mdp.Unknown)
	}
	return mdpVerdict(&o.base, o.Result.Verdict)
}

// MDPEpsOutcome is the least ε of query eps or query D{?,δ}[ψ] on an MDP,
// over query schedulers: exact, or an interval.
type MDPEpsOutcome struct {
	base
	OnFrame
	Result *mdp.EpsResult
}

// Value is the least ε, or "[lower, upper]" when it is not decided
// exactly ("≥ lower" without an upper bound).
func (o *MDPEpsOutcome) Value() string {
	return o.value(o.Result != nil, func() string { return intervalValue(o.Result.Exact, o.Result.Eps, o.Result.Upper) })
}

// intervalValue is a least ε or δ: the value when exact, otherwise the
// interval it lies in ("≥ lo" without an upper bound hi).
func intervalValue[T fmt.Stringer](ex bool, lo T, hi *T) string {
	switch {
	case ex:
		return lo.String()
	case hi == nil:
		return "≥ " + lo.String()
	}
	return "[" + lo.String() + ", " + (*hi).String() + "]"
}

// MDPDeltaOutcome is the least δ of query delta or query D{ε,?}[ψ] on an
// MDP, over query schedulers: exact, or an interval.
type MDPDeltaOutcome struct {
	base
	OnFrame
	Result *mdp.Result
}

// Value is the least δ, or "[lower, upper]" when it is not decided
// exactly ("≥ lower" without an upper bound).
func (o *MDPDeltaOutcome) Value() string {
	return o.value(o.Result != nil, func() string { return intervalValue(o.Result.Exact, o.Result.Delta, o.Result.Upper) })
}

// epsOnMDP evaluates a least ε on e's MDP (query eps, query D{?,δ}[ψ]),
// computed by compute, and whether it is exactly want.
func epsOnMDP(e *Env, st Statement, want exact.Eps, compute func(pairs [][2]int) (*mdp.EpsResult, error)) Outcome {
	o := &MDPEpsOutcome{base: base{st: st}, OnFrame: e.onFrame()}
	if o.Result = evaluate(&o.base, after(e.p.Pairs, compute)); o.err == nil {
		o.passEps(st.Head(), o.Result.Exact, o.Result.Eps, want)
	}
	return o
}

// deltaOnMDP evaluates a least δ on e's MDP (query delta, query
// D{ε,?}[ψ]), computed by compute, and whether it is exactly want.
func deltaOnMDP(e *Env, st Statement, want exact.Real, compute func(pairs [][2]int) (*mdp.Result, error)) Outcome {
	o := &MDPDeltaOutcome{base: base{st: st}, OnFrame: e.onFrame()}
	if o.Result = evaluate(&o.base, after(e.p.Pairs, compute)); o.err == nil {
		o.passDelta(st.Head(), o.Result.Exact, o.Result.Delta, want)
	}
	return o
}

// noPair is the reason of a D query without neighbouring pairs.
const noPair = "no two inputs are neighbours: D{ε,δ}[ψ] holds at every input for every ε and δ"

// MDPInputProb is the probability of a path formula from one input of an
// MDP: Min and Max over all schedulers (Min nil for Pmax=?, Max nil for
// Pmin=?), and Pr the answer (for P=?, the probability the same under
// every scheduler).
type MDPInputProb struct {
	State    verify.StateInfo
	Pr       *big.Rat
	Min, Max *big.Rat
}

// MDPProbOutcome is the answer of query P=?, Pmin=? or Pmax=? on an MDP.
type MDPProbOutcome struct {
	base
	OnFrame
	// Extreme is the query's: "" for P=?, "min" or "max".
	Extreme string
	Probs   []MDPInputProb
}

// Value is "" (one probability per input).
func (o *MDPProbOutcome) Value() string { return o.noValue() }

// ScheduleError is the error of query P=? on an MDP whose probability
// depends on the scheduler: the first input where the extremes differ.
type ScheduleError struct {
	State    verify.StateInfo
	Min, Max *big.Rat
}

func (e *ScheduleError) Error() string {
	return fmt.Sprintf("Pr(ψ) depends on the scheduler: from %s it is between Pmin = %s and Pmax = %s; ask Pmin=?[…] or Pmax=?[…]",
		e.State, e.Min.RatString(), e.Max.RatString())
}

// probOnMDP evaluates query P=?, Pmin=? or Pmax=? on an MDP.
func (s *ProbQuery) probOnMDP(ctx context.Context, e *Env) Outcome {
	o := &MDPProbOutcome{base: base{st: s}, OnFrame: e.onFrame(), Extreme: s.Extreme}
	m := e.p.MDP
	var lo, hi []*big.Rat
	var err error
	if s.Extreme != "max" {
		lo, err = m.Prob(ctx, s.f, false)
	}
	if err == nil && s.Extreme != "min" {
		hi, err = m.Prob(ctx, s.f, true)
	}
	if err != nil {
		o.fail(err)
		return o
	}
	c := e.p.Chain
	for _, st := range c.Inputs() {
		ip := MDPInputProb{State: stateInfo(c, st)}
		if lo != nil {
			ip.Min, ip.Pr = lo[st], lo[st]
		}
		if hi != nil {
			ip.Max, ip.Pr = hi[st], hi[st]
		}
		if s.Extreme == "" && ip.Min.Cmp(ip.Max) != 0 {
			o.fail(&ScheduleError{State: ip.State, Min: ip.Min, Max: ip.Max})
			o.Probs = nil
			return o
		}
		o.Probs = append(o.Probs, ip)
	}
	o.pass = true
	for _, p := range o.Probs {
		o.pass = o.pass && s.meets(p.State.ID, p.Pr)
	}
	return o
}

// mdpNode is a state formula of a check on an MDP, compiled against the
// frame: its P and D carry their path formulas resolved.
type mdpNode struct {
	f    *Formula
	cond *expr.Compiled
	args []*mdpNode
	path *verify.Formula // P's and D's path; E[…] and A[…] whole
}

// compileMDP compiles the state formula f against the frame c.
func compileMDP(f *Formula, c *chain.Chain, errs *source.ErrorList) *mdpNode {
	n := &mdpNode{f: f}
	switch f.Op {
	case verify.OpLabel:
		f.resolve(c, errs) // reports an unknown label, or a variable
	case verify.OpAtom:
		cond, cerrs := expr.Compile(f.Atom, c, false)
		*errs = append(*errs, cerrs...)
		n.cond = cond
	case verify.OpProb, verify.OpDP:
		n.path = f.Args[0].resolve(c, errs)
	case verify.OpExists, verify.OpForall:
		n.path = f.resolve(c, errs)
	case verify.OpNot, verify.OpAnd, verify.OpOr:
		for _, a := range f.Args {
			n.args = append(n.args, compileMDP(a, c, errs))
		}
	}
	return n
}

// MDPAtom is how one P~p[ψ] or D{ε,δ}[ψ] of a check on an MDP was
// decided: at one input, or at every input.
type MDPAtom struct {
	// Formula is the P or D as written.
	Formula string
	// State is the input it was decided at; nil: at every input.
	State *verify.StateInfo
	// Verdict is its truth there: Holds or Violated for a P; for a D
	// mdp.CheckD's verdict.
	Verdict mdp.Verdict
	// Extreme ("min" or "max") and Pr are a P's: Pmin(ψ) for ≥ and >,
	// Pmax(ψ) for ≤ and <, at State (over every input: the extreme
	// closest to the bound, at WorstState).
	Extreme    string
	Pr         *big.Rat
	WorstState *verify.StateInfo
	// Result is a D's, as mdp.CheckD returned it (nil for a D at an input
	// without neighbours, or when no input has one: it holds).
	Result *mdp.Result
	// Quantifier is "E" or "A" for E[ψ] and A[ψ], decided over the paths
	// of the transition graph (Verdict Holds or Violated; at every input,
	// WorstState is an input where it is violated).
	Quantifier string
}

// MDPFormulaOutcome is the verdict of check φ on an MDP: φ holds (every
// input), is violated (at State), or is unknown (at State: some D there
// can be neither proved nor refuted). Atoms say how each P and D was
// decided: at State, or at every input when φ holds.
type MDPFormulaOutcome struct {
	base
	OnFrame
	Verdict mdp.Verdict
	Inputs  int
	State   *verify.StateInfo
	Atoms   []MDPAtom
}

// Value is "holds", "violated" or "unknown".
func (o *MDPFormulaOutcome) Value() string { return mdpVerdict(&o.base, o.Verdict) }

// tri is a three-valued truth: a D may be unknown.
type tri int8

const (
	triFalse tri = iota
	triUnknown
	triTrue
)

// mdpEval evaluates the state formula of a check at the inputs of an MDP,
// computing each extreme probability and each D once.
type mdpEval struct {
	ctx   context.Context
	e     *Env
	pairs [][2]int // the neighbouring pairs
	probs map[*mdpNode][]*big.Rat
	sats  map[*mdpNode][]bool // of E[…] and A[…]
	// dPair are D's results over every pair (index -1) and, when it does
	// not hold for all of them at once, pair by pair (by index in the
	// neighbours).
	dPair map[nodePair]*mdp.Result
}

// nodePair is a D and the index of a pair.
type nodePair struct {
	n *mdpNode
	i int
}

func (v *mdpEval) prob(n *mdpNode) ([]*big.Rat, error) {
	return memo(v.probs, n, func() ([]*big.Rat, error) { return v.e.p.MDP.Prob(v.ctx, n.path, maxFor(n.f.Cmp)) })
}

// checkD is D's verdict over pairs, pairs[i] when i ≥ 0, computed once.
func (v *mdpEval) checkD(n *mdpNode, i int) (*mdp.Result, error) {
	return memo(v.dPair, nodePair{n, i}, func() (*mdp.Result, error) {
		pairs := v.pairs
		if i >= 0 {
			pairs = [][2]int{pairs[i]}
		}
		return mdp.CheckD(v.ctx, v.e.p.MDP, pairs, n.path, n.f.Eps, n.f.Delta, v.e.opts.MDP)
	})
}

// maxFor says which extreme decides P~p: Pmax for ≤ and <.
func maxFor(cmp string) bool { return cmp == "<=" || cmp == "<" }

func extremeFor(cmp string) string {
	if maxFor(cmp) {
		return "max"
	}
	return "min"
}

// dAtInput returns D's result at input s: over every pair when D holds
// for all of them (or there is one pair), else the deciding result among
// the pairs of s, each pair checked once: a violated one, else an unknown
// one, else one that holds (nil when s has no pair).
func (v *mdpEval) dAtInput(n *mdpNode, s int) (*mdp.Result, error) {
	pairs := v.pairs
	if !v.hasPair(s) {
		return nil, nil // no neighbour: D holds
	}
	all, err := v.checkD(n, -1)
	if err != nil {
		return nil, err
	}
	if all.Verdict == mdp.Holds || all.Verdict == mdp.HoldsSufficient || len(pairs) == 1 && (pairs[0][0] == s || pairs[0][1] == s) {
		return all, nil
	}
	var worst *mdp.Result
	for i, p := range pairs {
		if p[0] != s && p[1] != s {
			continue
		}
		r, err := v.checkD(n, i)
		if err != nil {
			return nil, err
		}
		if worst == nil || rank(r.Verdict) > rank(worst.Verdict) {
			worst = r
		}
	}
	return worst, nil
}

// hasPair reports whether input s has a neighbour.
func (v *mdpEval) hasPair(s int) bool {
	return slices.ContainsFunc(v.pairs, func(p [2]int) bool { return p[0] == s || p[1] == s })
}

// rank orders verdicts by how much they decide a D at an input: one
// violated pair violates it, one unknown pair leaves it unknown.
func rank(v mdp.Verdict) int {
	switch v {
	case mdp.Violated:
		return 3
	case mdp.Unknown:
		return 2
	case mdp.HoldsSufficient:
		return 1
	}
	return 0
}

// at evaluates n at state s.
func (v *mdpEval) at(n *mdpNode, s int) (tri, error) {
	c := v.e.p.Chain
	f := n.f
	switch f.Op {
	case verify.OpTrue:
		return triTrue, nil
	case verify.OpFalse:
		return triFalse, nil
	case verify.OpLabel:
		return triOf(c.HasLabel(s, f.Label)), nil
	case verify.OpAtom:
		b, err := n.cond.Eval(s, s)
		if err != nil {
			return triFalse, evalError(err, f.Pos)
		}
		return triOf(b), nil
	case verify.OpNot:
		t, err := v.at(n.args[0], s)
		return triTrue - t, err
	case verify.OpAnd, verify.OpOr:
		stop := triFalse // the value that decides an And
		if f.Op == verify.OpOr {
			stop = triTrue
		}
		res := triTrue - stop
		for _, a := range n.args {
			t, err := v.at(a, s)
			if err != nil {
				return triFalse, err
			}
			if t == stop {
				return stop, nil
			}
			if t == triUnknown {
				res = triUnknown
			}
		}
		return res, nil
	case verify.OpProb:
		p, err := v.prob(n)
		if err != nil {
			return triFalse, err
		}
		return triOf(exact.CmpHolds(f.Cmp, p[s].Cmp(f.Bound))), nil
	case verify.OpExists, verify.OpForall:
		sat, err := memo(v.sats, n, func() ([]bool, error) { return v.e.p.MDP.Sat(v.ctx, n.path) })
		if err != nil {
			return triFalse, err
		}
		return triOf(sat[s]), nil
	case verify.OpDP:
		r, err := v.dAtInput(n, s)
		switch {
		case err != nil:
			return triFalse, err
		case r == nil || r.Verdict == mdp.Holds || r.Verdict == mdp.HoldsSufficient:
			return triTrue, nil
		case r.Verdict == mdp.Violated:
			return triFalse, nil
		}
		return triUnknown, nil
	}
	return triFalse, fmt.Errorf("%s: not a state formula", f.Text)
}

func triOf(b bool) tri {
	if b {
		return triTrue
	}
	return triFalse
}

// atoms lists the P, D, E and A nodes of n, in the order of the formula.
func atoms(n *mdpNode, out []*mdpNode) []*mdpNode {
	if n.f.Op == verify.OpProb || n.f.Op == verify.OpDP || n.f.Op == verify.OpExists || n.f.Op == verify.OpForall {
		return append(out, n)
	}
	for _, a := range n.args {
		out = atoms(a, out)
	}
	return out
}

// formulaOnMDP evaluates check φ on an MDP.
func (s *FormulaCheck) formulaOnMDP(ctx context.Context, e *Env) Outcome {
	o := &MDPFormulaOutcome{base: base{st: s}, OnFrame: e.onFrame()}
	pairs, err := e.p.Pairs()
	if err != nil {
		o.fail(err)
		return o
	}
	v := &mdpEval{ctx: ctx, e: e, pairs: pairs, probs: map[*mdpNode][]*big.Rat{}, sats: map[*mdpNode][]bool{}, dPair: map[nodePair]*mdp.Result{}}
	c := e.p.Chain
	ins := c.Inputs()
	o.Inputs = len(ins)
	at, verdict := -1, mdp.Holds
	for _, st := range ins {
		t, err := v.at(s.node, st)
		if err != nil {
			o.fail(err)
			return o
		}
		if t == triFalse {
			at, verdict = st, mdp.Violated
			break
		}
		if t == triUnknown && at < 0 {
			at, verdict = st, mdp.Unknown
		}
	}
	if at >= 0 {
		si := stateInfo(c, at)
		o.State = &si
	}
	for _, n := range atoms(s.node, nil) {
		a, ok := v.describe(n, at)
		if !ok {
			continue // not evaluated: the verdict did not need it
		}
		if verdict == mdp.Holds && a.Verdict == mdp.HoldsSufficient {
			verdict = mdp.HoldsSufficient
		}
		o.Atoms = append(o.Atoms, a)
	}
	o.Verdict = verdict
	o.passVerdict(&s.Header, verdict)
	return o
}

// describe says how node n was decided at input s (-1: at every input),
// from what was computed; false when n was not evaluated.
func (v *mdpEval) describe(n *mdpNode, s int) (MDPAtom, bool) {
	c := v.e.p.Chain
	a := MDPAtom{Formula: n.f.Text}
	if s >= 0 {
		si := stateInfo(c, s)
		a.State = &si
	}
	if n.f.Op == verify.OpExists || n.f.Op == verify.OpForall {
		sat, ok := v.sats[n]
		if !ok {
			return a, false
		}
		a.Quantifier, a.Verdict = map[verify.Op]string{verify.OpExists: "E", verify.OpForall: "A"}[n.f.Op], mdp.Holds
		ins := []int{s}
		if s < 0 {
			ins = c.Inputs()
		}
		for _, in := range ins {
			if !sat[in] {
				a.Verdict = mdp.Violated
				if s < 0 {
					si := stateInfo(c, in)
					a.WorstState = &si
				}
				break
			}
		}
		return a, true
	}
	if n.f.Op == verify.OpProb {
		p, ok := v.probs[n]
		if !ok {
			return a, false
		}
		a.Extreme = extremeFor(n.f.Cmp)
		if s < 0 { // the input closest to violating the bound
			for _, in := range c.Inputs() {
				worse := a.Pr == nil
				if !worse {
					d := p[in].Cmp(a.Pr)
					worse = d < 0 && !maxFor(n.f.Cmp) || d > 0 && maxFor(n.f.Cmp)
				}
				if worse {
					si := stateInfo(c, in)
					a.Pr, a.WorstState = p[in], &si
				}
			}
			if a.Pr == nil {
				return a, false
			}
		} else {
			a.Pr = p[s]
		}
		a.Verdict = mdp.Violated
		if exact.CmpHolds(n.f.Cmp, a.Pr.Cmp(n.f.Bound)) {
			a.Verdict = mdp.Holds
		}
		return a, true
	}
	if s >= 0 && !v.hasPair(s) || s < 0 && len(v.pairs) == 0 {
		a.Verdict = mdp.Holds // no neighbour: D holds (Result nil)
		return a, true
	}
	all, ok := v.dPair[nodePair{n, -1}]
	switch {
	case !ok:
		return a, false
	case s < 0 || all.Verdict == mdp.Holds || all.Verdict == mdp.HoldsSufficient:
		a.Result = all
		if s >= 0 {
			a.State = nil // decided over every pair
		}
	default:
		r, err := v.dAtInput(n, s) // computed already: cached
		if err != nil {
			return a, false
		}
		a.Result = r
	}
	a.Verdict = mdp.Holds
	if a.Result != nil {
		a.Verdict = a.Result.Verdict
	}
	return a, true
}
