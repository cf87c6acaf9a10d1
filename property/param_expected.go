package property

import (
	"context"
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/param"
	"github.com/dpcheck/dpcheck/poly"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/verify"
)

// ParamExpectedQuery is "query expected(f) for alpha": the expected value
// of f where a run ends (as ExpectedQuery), from every input, as a
// rational function of the parameter — a mechanism's accuracy for every
// parameter value; with a bound ("check expected(f) <= b for alpha") a
// check that every input meets it for every value.
//
// With Path set instead of Expr it is PRISM's P=? [ψ] for every value of a
// parameter (a check P~b [ψ] with a bound), as PRISM's -param computes it:
// ψ is φ1 U φ2, F φ2 or G φ without time bounds over conditions (see
// ParamPath), Pr(ψ) from every input a rational function of the
// parameter.
type ParamExpectedQuery struct {
	paramHead
	Expr  *expr.Expr
	Path  *Formula
	Cmp   string
	Bound *big.Rat
	value func(end, input int) (*big.Rat, error)
	// stay and goal are the resolved φ1 and φ2 of Path; negate says that
	// Path is !(φ1 U φ2) (a G).
	stay, goal *verify.Formula
	negate     bool
}

// NewParamExpectedQuery returns the query (a check when bound is set).
func NewParamExpectedQuery(h Header, name string, f *expr.Expr, cmp string, bound *big.Rat) *ParamExpectedQuery {
	return &ParamExpectedQuery{paramHead: paramHead{Header: h, Param: name}, Expr: f, Cmp: cmp, Bound: bound}
}

// NewParamProbQuery returns PRISM's P=? [path] for every value of the
// parameter (P~b [path], a check, when bound is set); path must be a
// ParamPath.
func NewParamProbQuery(h Header, name string, path *Formula, cmp string, bound *big.Rat) *ParamExpectedQuery {
	return &ParamExpectedQuery{paramHead: paramHead{Header: h, Param: name}, Path: path, Cmp: cmp, Bound: bound}
}

// ParamPath reports whether Pr(path) is computed for every value of a
// parameter: φ1 U φ2 (F φ2 is true U φ2) without time bounds, or its
// negation (G φ is !(true U !φ)), φ1 and φ2 conditions on the state
// (labels, comparisons, !, &, |).
func ParamPath(path *Formula) bool {
	if path.Op == verify.OpNot {
		path = path.Args[0]
	}
	return path.Op == verify.OpUntil && path.K < 0 && path.Lo == 0 && condition(path.Args[0]) && condition(path.Args[1])
}

// condition reports whether f is decided by the state alone.
func condition(f *Formula) bool {
	switch f.Op {
	case verify.OpTrue, verify.OpFalse, verify.OpLabel, verify.OpAtom:
		return true
	case verify.OpNot, verify.OpAnd, verify.OpOr:
		for _, a := range f.Args {
			if !condition(a) {
				return false
			}
		}
		return true
	}
	return false
}

// ParamInputValue is an input's expected value as a function of the
// parameter.
type ParamInputValue struct {
	State verify.StateInfo
	F     poly.RatFunc
}

// ParamExpectedOutcome is the expected value from every input; for a
// violated check, the first input and a parameter value where the bound
// fails.
type ParamExpectedOutcome struct {
	base
	Values []ParamInputValue
	// Failing is the input where a check fails (nil when it holds), At
	// the parameter value there, written exactly.
	Failing *verify.StateInfo
	At      string
	// ValueAt is the expected value there, when At is rational.
	ValueAt *big.Rat
}

// Kind is "query expected" or "check expected" ("query P" or "check
// formula" for a probability).
func (s *ParamExpectedQuery) Kind() string {
	switch {
	case s.Path != nil && s.Bound != nil:
		return "check formula"
	case s.Path != nil:
		return "query P"
	case s.Bound != nil:
		return "check expected"
	}
	return "query expected"
}

// Describe says what the statement computes.
func (s *ParamExpectedQuery) Describe() string {
	if s.Path != nil {
		if s.Bound != nil {
			return fmt.Sprintf("Pr(%s) %s %s at every initial state for every %s in %s", s.Path.Text, s.Cmp, s.Bound.RatString(), s.Param, s.Interval())
		}
		return fmt.Sprintf("Pr(%s) at every initial state as a function of %s in %s", s.Path.Text, s.Param, s.Interval())
	}
	if s.Bound != nil {
		return fmt.Sprintf("E[f] %s %s at every input for every %s in %s, f evaluated where the run ends", s.Cmp, s.Bound.RatString(), s.Param, s.Interval())
	}
	return fmt.Sprintf("E[f] from every input as a function of %s in %s, f evaluated where the run ends", s.Param, s.Interval())
}

func (s *ParamExpectedQuery) prepare(ctx context.Context, p *Prepared) source.ErrorList {
	if errs := s.paramHead.prepare(ctx, p); errs != nil {
		return errs
	}
	var errs source.ErrorList
	if s.Path != nil {
		u := s.Path
		if s.negate = u.Op == verify.OpNot; s.negate {
			u = u.Args[0]
		}
		s.stay, s.goal = u.Args[0].resolve(p.Chain, &errs), u.Args[1].resolve(p.Chain, &errs)
		return errs
	}
	s.value, errs = expr.CompileValue(s.Expr, p.Chain)
	if why := partialEndVar(s.Expr, p.Chain, func(st int) bool { return len(p.Param.Rows[st]) == 0 }); why != nil {
		p.refuse(&s.Header, why)
	}
	return errs
}

// Evaluate computes every input's expected value as a function of the
// parameter and, for a check, decides the bound on the whole interval.
func (s *ParamExpectedQuery) Evaluate(ctx context.Context, e *Env) Outcome {
	o := &ParamExpectedOutcome{base: base{st: s}}
	c := e.p.Chain
	pc := e.paramChain(e.p.Param)
	var fs map[int]poly.RatFunc
	var err error
	if s.Path != nil {
		fs, err = s.probabilities(ctx, e, pc)
	} else {
		fs, err = e.paramFinals().Expected(ctx, func(in, end int) (*big.Rat, error) {
			v, err := s.value(end, in)
			if err != nil {
				return nil, fmt.Errorf("%w (where a run from %s ends, at %s)", err, stateInfo(c, in), stateInfo(c, end))
			}
			return v, nil
		})
	}
	if err != nil {
		o.fail(err)
		return o
	}
	for _, st := range c.Inputs() {
		if f, ok := fs[st]; ok {
			o.Values = append(o.Values, ParamInputValue{State: stateInfo(c, st), F: f})
		}
	}
	o.pass = true
	if s.Bound == nil {
		return o
	}
	defer func() {
		if o.err == nil {
			o.passCheck(&s.Header, o.Failing == nil)
		}
	}()
	rel := map[string]poly.Rel{"<": poly.LT, "<=": poly.LE, ">": poly.GT, ">=": poly.GE}[s.Cmp]
	b, err := pc.Limits.RatFunc(ctx, poly.Const(s.Bound), poly.Const(big.NewRat(1, 1)))
	for _, v := range o.Values {
		var g poly.RatFunc
		if err == nil {
			g, err = pc.Limits.RatSub(ctx, v.F, b)
		}
		var w poly.Algebraic
		var bad bool
		if err == nil {
			w, bad, err = pc.Outside(ctx, g, rel)
		}
		if err != nil {
			o.fail(err)
			return o
		}
		if bad {
			st := v.State
			o.Failing, o.At = &st, w.Format(s.Param)
			if w.IsRational() {
				o.ValueAt, _ = v.F.Eval(w.Rat())
			}
			break
		}
	}
	return o
}

// Value is "holds" or "violated" for a check, "" for a query.
func (o *ParamExpectedOutcome) Value() string {
	if o.Statement().(*ParamExpectedQuery).Bound != nil {
		return verdict(&o.base, o.Failing == nil)
	}
	return o.noValue()
}

// probabilities returns Pr(φ1 U φ2) from every input of pc, or
// 1 − Pr(φ1 U φ2) for its negation: the chain with the states of
// probability 0 (that cannot reach a φ2-state through φ1-states) and 1
// (that cannot reach one of probability 0 through φ1-states that are not
// φ2-states, the φ2-states among them) made absorbing, and the probability
// of ending in one of probability 1 (every state then reaches an absorbing
// state, as param's elimination needs, and only the states in between are
// eliminated).
func (s *ParamExpectedQuery) probabilities(ctx context.Context, e *Env, pc *param.Chain) (map[int]poly.RatFunc, error) {
	ck, err := verify.NewChecker(pc.Frame, nil)
	if err != nil {
		return nil, err
	}
	stay, err := ck.Sat(ctx, s.stay)
	if err != nil {
		return nil, err
	}
	goal, err := ck.Sat(ctx, s.goal)
	if err != nil {
		return nil, err
	}
	n := len(pc.Rows)
	adj := make(chain.Adjacency, n)
	for u, row := range pc.Rows {
		for _, t := range row {
			adj[u] = append(adj[u], t.To)
		}
	}
	// Pr > 0: the states that reach a goal through stay-states. Pr = 1:
	// those that cannot reach a state of Pr 0 through stay-states that are
	// not goals (the graph decides both: every probability is positive on
	// the interval).
	zero := adj.ReachBack(goal, stay)
	through := make([]bool, n)
	for u := range n {
		through[u] = stay[u] && !goal[u]
		zero[u] = !zero[u]
	}
	sure := adj.ReachBack(zero, through)
	cut := *pc
	cut.Rows = make([][]param.Trans, n)
	key := make([]byte, n)
	for u, row := range pc.Rows {
		sure[u] = !sure[u] // now: Pr = 1
		switch {
		case zero[u]:
			key[u] = '0'
		case sure[u]:
			key[u] = '1'
		default:
			key[u], cut.Rows[u] = '?', row
		}
	}
	fs, ok := e.reachProbs[string(key)] // the same sets: the same probabilities
	if !ok {
		if fs, err = param.NewFinals(&cut).Expected(ctx, func(_, end int) (*big.Rat, error) {
			if sure[end] {
				return big.NewRat(1, 1), nil
			}
			return new(big.Rat), nil
		}); err != nil {
			return nil, err
		}
		if e.reachProbs == nil {
			e.reachProbs = map[string]map[int]poly.RatFunc{}
		}
		e.reachProbs[string(key)] = fs
	}
	if !s.negate {
		return fs, nil
	}
	one := poly.FromPoly(poly.FromInts(1))
	neg := make(map[int]poly.RatFunc, len(fs))
	for in, f := range fs {
		if neg[in], err = pc.Limits.RatSub(ctx, one, f); err != nil {
			return nil, err
		}
	}
	return neg, nil
}
