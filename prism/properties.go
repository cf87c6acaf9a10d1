package prism

import (
	"math/big"
	"slices"
	"strings"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/syntax"
	"github.com/dpcheck/dpcheck/verify"
)

// Properties: each becomes a statement of the program. A state formula is
// a check that it holds at every initial state (PRISM's default for a
// boolean property: filter(forall, φ, "init")); P=? [ψ] a query of Pr(ψ)
// at every initial state; D{?, δ}[ψ] and D{ε, ?}[ψ] the least ε or δ. The
// conditions a property tests — maximal sub-expressions without labels,
// P, D or path operators — become hidden labels of the state space,
// evaluated with the full expression language while it is explored.

type namedProp struct {
	p     *Property
	state int // 0 unvisited, 1 being expanded
}

// properties translates the properties file.
func (t *translator) properties() []property.Statement {
	pf := t.pf
	f := &pf.File
	for _, p := range pf.Props {
		if p.Name == nil {
			continue
		}
		if prev := t.named[p.Name.Name]; prev != nil {
			t.errorf(f, p.Name.Off, "a property is already named \"%s\" at line %d", p.Name.Name, f.Line(prev.p.Start))
			continue
		}
		t.named[p.Name.Name] = &namedProp{p: p}
	}
	for _, l := range pf.Labels {
		t.addLabel(l.Name.Name)
	}
	if len(pf.Props) == 0 {
		t.errorf(f, 0, "nothing to check: the properties file has no property (such as P=? [ F \"done\" ])")
		return nil
	}
	var out []property.Statement
	for _, p := range pf.Props {
		if st := t.statement(p); st != nil {
			out = append(out, st)
		}
	}
	return out
}

// holds is the expectation of a check.
func holds() property.Expectation {
	return property.Expectation{Kind: property.ExpectHolds, Text: "holds"}
}

// statement translates one property; one that uses what dpcheck does not
// support is refused on its own (property.Refused).
func (t *translator) statement(p *Property) property.Statement {
	f := &t.pf.File
	h := property.Header{Pos: f.Position(p.Start), Text: clipText(f.Source(p.Span))}
	if p.Refused != nil {
		return refused(h, f, p.Refused)
	}
	// A property that is only the name of another ("name") is that one.
	for seen := map[*Property]bool{p: true}; ; {
		e := p.Expr.Unparen()
		np := t.named[e.Text]
		if e.Op != ELabel || np == nil || t.labels[e.Text] != nil || seen[np.p] {
			break
		}
		if np.p.Refused != nil {
			return refused(h, f, np.p.Refused)
		}
		p, seen[np.p] = np.p, true
	}
	t.unsupported = nil
	st := t.translateProperty(p, h)
	if why := t.unsupported; why != nil {
		t.unsupported = nil
		return &property.Refused{Header: h, Of: "refused", Why: why}
	}
	return st
}

// refused is the statement of header h refused for why, a position of f.
func refused(h property.Header, f *File, why *syntax.Error) *property.Refused {
	return &property.Refused{Header: h, Of: "refused", Why: source.ErrorList{{Pos: f.Position(why.Off), Msg: why.Msg}}}
}

// translateProperty translates the property p, with header h.
func (t *translator) translateProperty(p *Property, h property.Header) property.Statement {
	sc := &scope{f: &t.pf.File}
	e := oldStyleFilter(p.Expr.Unparen())
	switch {
	case e.Op == EProb && e.Args[0] == nil:
		return t.probQuery(sc, e, h)
	case e.Op == ESteady && e.Args[0] == nil:
		if p := t.steadyPath(sc, e); p != nil {
			return &property.ProbQuery{Header: h, Path: p}
		}
		return nil
	case e.Op == EDP && (isUnknown(e.Args[0]) || isUnknown(e.Args[1])):
		return t.dpQuery(sc, e, h)
	case e.Op == EFilter:
		st := t.filter(sc, e, h)
		if q, ok := st.(*property.FilterQuery); ok && e != p.Expr.Unparen() {
			// The property without its old-style filter.
			q.PropText = t.text(sc.f, Span{int(e.Off), int(e.OpOff)}) + " ]"
		}
		return st
	case e.Op == EReward:
		return t.rewardQuery(sc, e, h)
	}
	phi := t.formula(sc, e, false)
	if phi == nil {
		return nil
	}
	h.Expect = holds()
	return &property.FormulaCheck{Header: h, Formula: phi}
}

// oldStyleFilter rewrites P, S or R with an old-style filter inside its
// brackets, [… {φ}{min}{max}], into the filter(op, …, φ) it stands for, as
// PRISM reads it: a bound (P>=b) asks whether the property holds at every
// state of φ (op forall); otherwise {min} is min, {max} max, both range,
// and neither state (φ must hold in exactly one state). {"init"} alone is
// dropped: dpcheck gives the value at every initial state, where PRISM
// needs exactly one. Any other expression is returned as it is.
func oldStyleFilter(e *Expr) *Expr {
	if e.Op != EProb && e.Op != ESteady && e.Op != EReward || len(e.Args) < 3 || e.Args[2] == nil {
		return e
	}
	flt := e.Args[2]
	c := *e
	c.Args = slices.Clone(e.Args)
	c.Args[2] = nil
	kinds := strings.Split(flt.Text, ",")
	lo, hi := slices.Contains(kinds, "min"), slices.Contains(kinds, "max")
	var op string
	switch {
	case e.Args[0] != nil && isLabel(flt.Args[0], "init"), e.Args[0] == nil && !lo && !hi && isLabel(flt.Args[0], "init"):
		return &c // at every initial state, as without the filter
	case e.Args[0] != nil && e.Op == EReward:
		return e // R~r inside a formula: refused where it is translated
	case e.Args[0] != nil:
		op = "forall"
	case lo && hi:
		op = "range"
	case lo:
		op = "min"
	case hi:
		op = "max"
	default:
		op = "state"
	}
	return &Expr{Off: e.Off, End: e.End, OpOff: flt.Off, Op: EFilter, Text: op, Args: []*Expr{&c, flt.Args[0]}}
}

// nestedFilter refuses an old-style filter left on P, S or R (e) after
// oldStyleFilter rewrote the whole property's: one inside a formula or
// inside filter(…).
func (t *translator) nestedFilter(sc *scope, e *Expr) bool {
	if len(e.Args) < 3 || e.Args[2] == nil {
		return false
	}
	t.unsupportedAt(sc, e.Args[2], "the old-style filter {…} applies to a whole property: inside a formula or filter(…) it is not supported")
	return true
}

func isUnknown(e *Expr) bool { return e != nil && e.Unparen().Op == EUnknown }

// probQuery translates P=? [ψ], Pmin=? [ψ] and Pmax=? [ψ] (an old-style
// filter is rewritten before, by oldStyleFilter). On an MDP, Pmin=? and Pmax=? are the
// extremes over the schedulers (ProbQuery.Extreme), and P=? is left to the
// statements to judge (it means something only when every scheduler gives
// the same probability); on a Markov chain all three are P=?.
func (t *translator) probQuery(sc *scope, e *Expr, h property.Header) property.Statement {
	if t.nestedFilter(sc, e) {
		return nil
	}
	extreme := strings.TrimSuffix(e.Text, "=")
	isMDP := t.space != nil && t.space.MDP
	path := t.pathFormula(sc, e.Args[1])
	if path == nil {
		return nil
	}
	if !isMDP {
		extreme = ""
	}
	return &property.ProbQuery{Header: h, Path: path, Extreme: extreme}
}

func isLabel(e *Expr, name string) bool {
	e = e.Unparen()
	return e != nil && e.Op == ELabel && e.Text == name
}

// pathFormula translates the path formula of P or D and refuses, at its
// position, what dpcheck cannot compute exactly.
func (t *translator) pathFormula(sc *scope, e *Expr) *property.Formula {
	return property.CheckedPath(t.formula(sc, e, true), &t.unsupported)
}

// dpQuery is D{?, δ}[ψ] or D{ε, ?}[ψ].
func (t *translator) dpQuery(sc *scope, e *Expr, h property.Header) property.Statement {
	if isUnknown(e.Args[0]) && isUnknown(e.Args[1]) {
		t.errAt(sc, e, "D{?, ?} asks for ε and δ at once: ask for one, D{?, δ}[ψ] or D{ε, ?}[ψ]")
		return nil
	}
	path := t.pathFormula(sc, e.Args[2])
	if isUnknown(e.Args[0]) {
		delta, ok := t.delta(sc, e.Args[1])
		if !ok || path == nil {
			return nil
		}
		return &property.DEpsQuery{Header: h, Path: path, Delta: delta}
	}
	eps, ok := t.eps(sc, e.Args[0])
	if !ok || path == nil {
		return nil
	}
	return &property.DDeltaQuery{Header: h, Path: path, Eps: eps}
}

// eps reads the ε of D: a plain number (D{3, 0} is ε = 3, not ln 3, as in
// the dpCTL plug-in).
func (t *translator) eps(sc *scope, e *Expr) (exact.Eps, bool) {
	x, ok := t.ratConst(sc, e, "ε")
	if !ok {
		return exact.Eps{}, false
	}
	if x.Sign() < 0 {
		t.errAt(sc, e, "ε = %s is negative", exact.Short(x))
		return exact.Eps{}, false
	}
	eps, err := exact.Rational(x)
	if err != nil {
		t.errAt(sc, e, "%v", err)
		return exact.Eps{}, false
	}
	return eps, true
}

func (t *translator) delta(sc *scope, e *Expr) (*big.Rat, bool) {
	x, ok := t.ratConst(sc, e, "δ")
	if !ok {
		return nil, false
	}
	if x.Sign() < 0 || x.Cmp(big.NewRat(1, 1)) > 0 {
		t.errAt(sc, e, "δ = %s is outside [0, 1]", exact.Short(x))
		return nil, false
	}
	return x, true
}

// filter translates filter(forall, φ, S) — φ at every state of S, which is
// P>=1 [G (S => φ)] at every initial state (every state is reachable from
// one) — and filter(print|printall|first, P=? [ψ], "init"), which is
// P=? [ψ] at every initial state (the first one first).
func (t *translator) filter(sc *scope, e *Expr, h property.Header) property.Statement {
	op, phi, states := e.Text, e.Args[0], e.Args[1]
	switch op {
	case "forall", "&":
		g := t.formula(sc, phi.Unparen(), false)
		if g == nil {
			return nil
		}
		pos := sc.f.Position(int(e.Off))
		if states != nil && isLabel(states, "init") {
			h.Expect = holds()
			return &property.FormulaCheck{Header: h, Formula: g}
		}
		if states != nil {
			s := t.formula(sc, states.Unparen(), false)
			if s == nil {
				return nil
			}
			not := &property.Formula{Op: verify.OpNot, Pos: s.Pos, Text: "!" + s.Text, Args: []*property.Formula{s}}
			g = &property.Formula{Op: verify.OpOr, Pos: pos, Text: s.Text + " => " + g.Text, Args: []*property.Formula{not, g}}
		}
		always := property.Globally(g, 0, -1, pos, "G "+g.Text)
		check := &property.Formula{Op: verify.OpProb, Pos: pos, Text: h.Text, Cmp: ">=", Bound: big.NewRat(1, 1), Args: []*property.Formula{always}}
		h.Expect = holds()
		return &property.FormulaCheck{Header: h, Formula: check}
	case "print", "printall", "first":
		if q := phi.Unparen(); q.Op == EProb && q.Args[0] == nil && states != nil && isLabel(states, "init") {
			return t.probQuery(sc, q, h)
		}
	}
	return t.generalFilter(sc, e, h)
}

// filterKinds are PRISM's filter operators other than forall (the
// parser's filterOps), with the aliases + (sum) and | (exists); numeric
// says which take a number.
var filterKinds = map[string]struct {
	name    string
	numeric bool
}{
	"min": {"min", true}, "max": {"max", true}, "argmin": {"argmin", true}, "argmax": {"argmax", true},
	"range": {"range", true}, "sum": {"sum", true}, "+": {"sum", true}, "avg": {"avg", true},
	"count": {"count", false}, "exists": {"exists", false}, "|": {"exists", false},
	"first": {"first", false}, "state": {"state", false}, "print": {"print", false}, "printall": {"print", false},
}

// generalFilter translates filter(op, prop, states) into a
// property.FilterQuery: prop a value at every state (P=?, R=?, S=?) or a
// state formula.
func (t *translator) generalFilter(sc *scope, e *Expr, h property.Header) property.Statement {
	op, phi, states := e.Text, e.Args[0], e.Args[1]
	kind := filterKinds[op]
	q := &property.FilterQuery{Header: h, Op: kind.name, PropText: t.text(sc.f, phi.Span())}
	p := phi.Unparen()
	sub := property.Header{Pos: sc.f.Position(int(p.Off)), Text: q.PropText}
	switch {
	case p.Op == EProb && p.Args[0] == nil:
		pq, _ := t.probQuery(sc, p, sub).(*property.ProbQuery)
		if pq == nil {
			return nil
		}
		q.Prob = pq
	case p.Op == ESteady && p.Args[0] == nil:
		path := t.steadyPath(sc, p)
		if path == nil {
			return nil
		}
		q.Prob = &property.ProbQuery{Header: sub, Path: path}
	case p.Op == EReward && p.Args[0] == nil:
		rq, _ := t.rewardQuery(sc, p, sub).(*property.RewardQuery)
		if rq == nil {
			return nil
		}
		q.Reward = rq
	case containsQuery(p):
		t.unsupportedAt(sc, p, "filter(%s, …) over arithmetic on query values is not supported: filter a P=?, R=? or S=? query, or a state formula", op)
		return nil
	default:
		if kind.numeric {
			t.errAt(sc, p, "filter(%s, …) takes a number at every state (P=? [ψ], R=? [ρ], S=? [φ]); this is a condition", op)
			return nil
		}
		if q.Formula = t.formula(sc, p, false); q.Formula == nil {
			return nil
		}
	}
	if (kind.name == "count" || kind.name == "exists") && q.Formula == nil {
		t.errAt(sc, p, "filter(%s, …) takes a condition at every state; this is a number", op)
		return nil
	}
	if states != nil {
		if q.States = t.formula(sc, states.Unparen(), false); q.States == nil {
			return nil
		}
	}
	return q
}

// pure reports whether e is a condition on a state's variables alone: no
// label, P, D, filter or path operator (formulas looked through). Each
// node is judged once (t.purity), so that judging every subformula of a
// property costs what the property's text does; beyond MaxExpandedDepth
// formulas a node is taken as impure, and the translation of the formula
// reports the depth.
func (t *translator) pure(e *Expr) bool {
	if p, ok := t.purity[e]; ok {
		return p
	}
	if t.pureDepth >= MaxExpandedDepth {
		return false
	}
	t.pureDepth++
	defer func() { t.pureDepth-- }()
	p := true
	switch e.Op {
	case ELabel, EProb, ESteady, EDP, EFilter, ETemporal, EUntil, EUnknown, EOldFilter, ETimeBound, EReward, ERewardPath, EPathQuant:
		p = false
	case EName:
		if f := t.formulas[e.Text]; f != nil && !t.expanding[e.Text] {
			t.expanding[e.Text] = true
			p = t.pure(f.decl.Value)
			delete(t.expanding, e.Text)
		}
	}
	for _, a := range e.Args {
		if !p {
			break
		}
		p = a == nil || t.pure(a)
	}
	t.purity[e] = p
	return p
}

// formula translates a state formula, or with path set a path formula. It
// returns nil after reporting an error.
func (t *translator) formula(sc *scope, e *Expr, path bool) *property.Formula {
	if t.pure(e) {
		return t.atom(sc, e)
	}
	if !t.enter(sc, e) {
		return nil
	}
	defer t.leave()
	pos := sc.f.Position(int(e.Off))
	text := t.text(sc.f, e.Span())
	f := &property.Formula{Pos: pos, Text: text}
	sub := func(x *Expr) *property.Formula { return t.formula(sc, x, path) }
	switch e.Op {
	case EParen:
		return sub(e.Args[0])
	case ENot:
		a := sub(e.Args[0])
		if a == nil {
			return nil
		}
		f.Op, f.Args = verify.OpNot, []*property.Formula{a}
		return f
	case EAnd, EOr:
		f.Op = verify.OpAnd
		if e.Op == EOr {
			f.Op = verify.OpOr
		}
		for _, x := range e.Args {
			a := sub(x)
			if a == nil {
				return nil
			}
			f.Args = append(f.Args, a)
		}
		return f
	case EImplies, EIff, EITE:
		return t.connective(sc, e, f, sub)
	case ELabel:
		return t.labelRef(sc, e)
	case EName:
		if fm := t.formulas[e.Text]; fm != nil {
			if t.expanding[e.Text] {
				t.errAt(sc, e, "formula %s is defined in terms of itself", e.Text)
				return nil
			}
			t.expanding[e.Text] = true
			defer delete(t.expanding, e.Text)
			return t.formula(sc.in(fm.f), fm.decl.Value, path)
		}
	case EProb:
		return t.prob(sc, e, f)
	case ESteady:
		if e.Args[0] == nil {
			t.errAt(sc, e, "S=? [φ] is a value: inside a formula compare it with a bound, S>=p [φ]")
			return nil
		}
		b, ok := t.probBound(sc, e.Args[0])
		p := t.steadyPath(sc, e)
		if !ok || p == nil {
			return nil
		}
		f.Op, f.Cmp, f.Bound, f.Args = verify.OpProb, e.Text, b, []*property.Formula{p}
		return f
	case EDP:
		if isUnknown(e.Args[0]) || isUnknown(e.Args[1]) {
			t.errAt(sc, e, "D{?, …} and D{…, ?} ask for a value: they stand for a whole property, not inside a formula")
			return nil
		}
		eps, ok1 := t.eps(sc, e.Args[0])
		delta, ok2 := t.delta(sc, e.Args[1])
		p := t.pathFormula(sc, e.Args[2])
		if !ok1 || !ok2 || p == nil {
			return nil
		}
		f.Op, f.Eps, f.Delta, f.Args = verify.OpDP, eps, delta, []*property.Formula{p}
		return f
	case EPathQuant:
		p := t.pathFormula(sc, e.Args[0])
		if p == nil {
			return nil
		}
		f.Op, f.Args = verify.OpExists, []*property.Formula{p}
		if e.Text == "A" {
			f.Op = verify.OpForall
		}
		return f
	case EFilter:
		t.errAt(sc, e, "filter(…) stands for a whole property only")
		return nil
	case EReward:
		t.unsupportedAt(sc, e, "R inside a formula is not supported: ask for the expected reward as a whole property, R=? [ρ] or R<=r [ρ]")
		return nil
	case ETemporal, EUntil:
		if path {
			return t.temporal(sc, e, f)
		}
		t.errAt(sc, e, "a path operator (X, F, G, U) can only appear inside P…[…] or D{…}[…]")
		return nil
	}
	if containsQuery(e) {
		t.unsupportedAt(sc, e, "arithmetic and comparisons over the values of queries (P=? [ψ] + P=? [φ], P=? [ψ] > 0.5) are not supported: ask for each value as a whole property, P=? [ψ], or compare it within P, P>0.5 [ψ]")
		return nil
	}
	t.errAt(sc, e, "expected a condition here (a label, a comparison, P…[…] or D{…}[…]); a probability can only be asked for by a whole property, P=? [ψ]")
	return nil
}

// containsQuery reports whether e asks for a value: P=?, S=?, D{?, …}.
func containsQuery(e *Expr) bool {
	if e == nil {
		return false
	}
	switch {
	case (e.Op == EProb || e.Op == ESteady || e.Op == EReward) && e.Args[0] == nil,
		e.Op == EDP && (isUnknown(e.Args[0]) || isUnknown(e.Args[1])):
		return true
	}
	return slices.ContainsFunc(e.Args, containsQuery)
}

// connective translates =>, <=> and ? : between formulas.
func (t *translator) connective(sc *scope, e *Expr, f *property.Formula, sub func(*Expr) *property.Formula) *property.Formula {
	var args []*property.Formula
	for _, x := range e.Args {
		a := sub(x)
		if a == nil {
			return nil
		}
		args = append(args, a)
	}
	not := func(a *property.Formula) *property.Formula {
		return &property.Formula{Op: verify.OpNot, Pos: a.Pos, Text: "!" + a.Text, Args: []*property.Formula{a}}
	}
	and := func(a, b *property.Formula) *property.Formula {
		return &property.Formula{Op: verify.OpAnd, Pos: f.Pos, Text: f.Text, Args: []*property.Formula{a, b}}
	}
	f.Op = verify.OpOr
	switch e.Op {
	case EImplies:
		f.Args = []*property.Formula{not(args[0]), args[1]}
	case EIff:
		f.Args = []*property.Formula{and(args[0], args[1]), and(not(args[0]), not(args[1]))}
	default: // c ? a : b
		f.Args = []*property.Formula{and(args[0], args[1]), and(not(args[0]), args[2])}
	}
	return f
}

// atom is a condition on a state's variables: true, false, or a hidden
// label of the state space.
func (t *translator) atom(sc *scope, e *Expr) *property.Formula {
	v, ok := t.condition(sc, e, "a property's condition")
	if !ok {
		return nil
	}
	pos := sc.f.Position(int(e.Off))
	text := t.text(sc.f, e.Span())
	if v.konst {
		op := verify.OpFalse
		if v.b {
			op = verify.OpTrue
		}
		return &property.Formula{Op: op, Pos: pos, Text: text}
	}
	if p := t.opt.Param; p != nil && mentions(v.n, p.Name) {
		t.unsupportedAt(sc, e, "a condition that reads the parameter %s is not supported for every value (it would change the chain's graph); %s", p.Name, t.oneValueHint(p.Name))
		return nil
	}
	name := t.atomLabel(sc.f, e.Span(), v.n)
	return &property.Formula{Op: verify.OpAtom, Pos: pos, Text: text, Atom: labelTest(name, pos)}
}

// mentions reports whether e reads the variable name (each shared node
// visited once).
func mentions(e *expr.Expr, name string) bool {
	seen := map[*expr.Expr]bool{}
	var walk func(e *expr.Expr) bool
	walk = func(e *expr.Expr) bool {
		if e == nil || seen[e] {
			return false
		}
		seen[e] = true
		if e.Op == expr.Var && e.Name == name {
			return true
		}
		for _, a := range e.Args {
			if walk(a) {
				return true
			}
		}
		return false
	}
	return walk(e)
}

// labelTest tests a label of the chain; a label no state carries holds
// nowhere.
func labelTest(name string, pos source.Position) *expr.Expr {
	return &expr.Expr{Op: expr.Label, Pos: pos, Name: name, Text: name, Fallback: &expr.Expr{Op: expr.Bool, Pos: pos}}
}

// labelRef is a quoted name: a label (built-in or defined), or a named
// property.
func (t *translator) labelRef(sc *scope, e *Expr) *property.Formula {
	pos := sc.f.Position(int(e.Off))
	text := "\"" + e.Text + "\""
	name := e.Text
	switch {
	case name == "init" || name == "deadlock":
	case t.labels[name] != nil:
		if t.addLabel(name) < 0 {
			return nil // its condition has errors, reported at it
		}
	case t.named[name] != nil:
		np := t.named[name]
		if r := np.p.Refused; r != nil {
			t.unsupportedAt(sc, e, "property \"%s\" is not supported (%s)", name, r.Msg)
			return nil
		}
		if np.state == 1 {
			t.errAt(sc, e, "property \"%s\" refers to itself", name)
			return nil
		}
		np.state = 1
		defer func() { np.state = 0 }()
		x := np.p.Expr.Unparen()
		if x.Op == EProb && x.Args[0] == nil || x.Op == EDP && (isUnknown(x.Args[0]) || isUnknown(x.Args[1])) || x.Op == EFilter {
			t.errAt(sc, e, "property \"%s\" is a query or a filter, not a condition: it cannot stand inside a formula", name)
			return nil
		}
		return t.formula(sc, x, false)
	default:
		t.errAt(sc, e, "unknown label \"%s\"%s", name, t.knownLabels())
		return nil
	}
	return &property.Formula{Op: verify.OpAtom, Pos: pos, Text: text, Atom: labelTest(name, pos)}
}

// prob is P~p [ψ].
func (t *translator) prob(sc *scope, e *Expr, f *property.Formula) *property.Formula {
	if e.Args[0] == nil {
		t.errAt(sc, e, "P=? [ψ] is a value: inside a formula compare it with a bound, P>=p [ψ]")
		return nil
	}
	if t.nestedFilter(sc, e) {
		return nil
	}
	b, ok := t.probBound(sc, e.Args[0])
	p := t.pathFormula(sc, e.Args[1])
	if !ok || p == nil {
		return nil
	}
	f.Op, f.Cmp, f.Bound, f.Args = verify.OpProb, e.Text, b, []*property.Formula{p}
	return f
}

// probBound reads the bound p of P~p or S~p, in [0, 1].
func (t *translator) probBound(sc *scope, e *Expr) (*big.Rat, bool) {
	b, ok := t.ratConst(sc, e, "a probability bound")
	if ok && (b.Sign() < 0 || b.Cmp(big.NewRat(1, 1)) > 0) {
		t.errAt(sc, e, "the probability bound %s is outside [0, 1]", exact.Short(b))
		ok = false
	}
	return b, ok
}

// steadyPath is the S[φ] of S=? [φ] or S~p [φ]: the long-run probability
// of φ, on a DTMC (on an MDP it is refused, the property on its own).
func (t *translator) steadyPath(sc *scope, e *Expr) *property.Formula {
	if t.nestedFilter(sc, e) {
		return nil
	}
	if t.space != nil && t.space.MDP {
		t.unsupportedAt(sc, e, "S (steady state) is not supported on MDPs: dpcheck computes the long-run probabilities of Markov chains")
		return nil
	}
	phi := t.formula(sc, e.Args[1], false)
	if phi == nil {
		return nil
	}
	return &property.Formula{Op: verify.OpSteady, Pos: sc.f.Position(int(e.Off)), Text: t.text(sc.f, e.Span()), Args: []*property.Formula{phi}}
}

// temporal is X ψ (X X … X collapsed into X^k), F ψ, G ψ with their time
// bounds, and ψ1 U ψ2.
func (t *translator) temporal(sc *scope, e *Expr, f *property.Formula) *property.Formula {
	if e.Op == EUntil {
		l := t.formula(sc, e.Args[0], true)
		r := t.formula(sc, e.Args[1], true)
		lo, k, ok := t.timeBound(sc, e.Args[2])
		if l == nil || r == nil || !ok {
			return nil
		}
		not := func(g *property.Formula) *property.Formula {
			return &property.Formula{Op: verify.OpNot, Pos: g.Pos, Text: "!(" + g.Text + ")", Args: []*property.Formula{g}}
		}
		and := func(a, b *property.Formula) *property.Formula {
			return &property.Formula{Op: verify.OpAnd, Pos: f.Pos, Text: a.Text + " & " + b.Text, Args: []*property.Formula{a, b}}
		}
		switch e.Text {
		case "R": // a R b = !(!a U !b), with the same time bounds
			u := &property.Formula{Op: verify.OpUntil, Pos: f.Pos, Text: f.Text, K: k, Lo: lo, Args: []*property.Formula{not(l), not(r)}}
			f.Op, f.Args = verify.OpNot, []*property.Formula{u}
			return f
		case "W": // a W<=k b = !((a & !b) U<=k (!a & !b))
			if lo > 0 {
				t.unsupportedAt(sc, e, "W (weak until) with a lower time bound is not supported: dpcheck checks W and W<=k")
				return nil
			}
			u := &property.Formula{Op: verify.OpUntil, Pos: f.Pos, Text: f.Text, K: k, Args: []*property.Formula{and(l, not(r)), and(not(l), not(r))}}
			f.Op, f.Args = verify.OpNot, []*property.Formula{u}
			return f
		}
		f.Op, f.K, f.Lo, f.Args = verify.OpUntil, k, lo, []*property.Formula{l, r}
		return f
	}
	if e.Text == "X" {
		k, x := 1, e.Args[0].Unparen()
		for x.Op == ETemporal && x.Text == "X" && k < MaxSteps {
			k, x = k+1, x.Args[0].Unparen()
		}
		a := t.formula(sc, x, true)
		if a == nil {
			return nil
		}
		f.Op, f.K, f.Args = verify.OpNext, k, []*property.Formula{a}
		return f
	}
	a := t.formula(sc, e.Args[0], true)
	lo, k, ok := t.timeBound(sc, e.Args[1])
	if a == nil || !ok {
		return nil
	}
	if e.Text == "F" {
		return property.Eventually(a, lo, k, f.Pos, f.Text)
	}
	return property.Globally(a, lo, k, f.Pos, f.Text)
}

// timeBound reads the time bound of F, G or U (an ETimeBound, or nil):
// the steps lo..k at which it may be met, k = −1 for no upper bound. As in
// PRISM for discrete time, <k is <=k−1, >k is >=k+1, =k is [k,k].
func (t *translator) timeBound(sc *scope, b *Expr) (lo, k int, ok bool) {
	if b == nil {
		return 0, -1, true
	}
	end := func(x *Expr, min int64) (int, bool) {
		v, ok := t.intConst(sc, x, "a time bound", min, MaxSteps)
		return int(v), ok
	}
	switch b.Text {
	case "<=":
		k, ok = end(b.Args[0], 0)
	case "<":
		k, ok = end(b.Args[0], 1)
		k--
	case ">=":
		lo, ok = end(b.Args[0], 0)
		k = -1
	case ">":
		lo, ok = end(b.Args[0], 0)
		lo, k = lo+1, -1
	case "=":
		k, ok = end(b.Args[0], 0)
		lo = k
	case "[]":
		var ok2 bool
		lo, ok = end(b.Args[0], 0)
		k, ok2 = end(b.Args[1], 0)
		if ok && ok2 && lo > k {
			t.errAt(sc, b, "the time interval [%d,%d] is empty", lo, k)
			ok = false
		}
		ok = ok && ok2
	}
	return lo, k, ok
}
