package statespace

import (
	"context"
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/poly"
	"github.com/dpcheck/dpcheck/source"
)

// Modules with a parameter (docs/semantics.md, "For every
// parameter value"). The parameter — a Var node named Param.Name that is
// no variable of the model, its Fallback the number Param.At — may appear
// in update probabilities and in the first argument of a draw (the α of
// geometric and geometric1, the p of bernoulli); the front end refuses it
// anywhere else (guards, assignments, initial values, labels, the other
// arguments of draws), so the reachable states do not depend on it.
//
// BuildParam explores the model as Build does, with the parameter at
// Param.At (a rational inside the interval): guards, assignments, ranges
// and the numeric checks are those of that instance. Alongside, every
// branch carries its probability as a rational function of the parameter
// (poly.RatFunc): an update's probability is its expression evaluated
// symbolically at the state (the parameter is α, every subexpression
// without it a number), a draw's distribution is the same closed form as
// the numeric one with α a rational function (geometric: α^k/(1+α) at
// the clamped ends, (1−α)/(1+α)·α^|k| between), and a branch is the
// product of its update's probability and its draws'. Branches reaching
// the same state are merged by adding their functions. Every update
// probability and draw parameter that depends on the parameter is
// checked where it is first met: positive on the whole interval (and a
// draw's α and p below 1), else an error at the update or draw naming an
// exact value where it fails; the updates of a command must sum to 1 as a
// function. Identically zero branches are dropped. The limits on states
// and transitions, and the context, apply as in Build; the polynomial
// algebra is bounded by Param.Limits.

// Param names a model's parameter for BuildParam.
type Param struct {
	// Name is the parameter's name as the expressions write it.
	Name string
	// Interval is its range; At is the rational inside it at which the
	// graph is explored (every probability is positive on the whole
	// interval, so any point gives the same graph).
	Interval poly.Interval
	At       *big.Rat
	// Limits bounds the polynomial algebra (zero value: poly's defaults).
	Limits poly.Limits
}

// ParamTrans is a transition whose probability is a rational function of
// the parameter.
type ParamTrans struct {
	To int
	P  poly.RatFunc
}

// ParamChain is a model explored for every value of its parameter: the
// frame's states (valuations, labels, inputs; every state absorbing in the
// frame) and the parametric rows, ascending by target.
type ParamChain struct {
	Frame      *chain.Chain
	Rows       [][]ParamTrans
	Neighbours [][2]int
	// Note describes the exploration, as Build's.
	Note string
}

// symbolic is BuildParam's algebra (algebra.go): the rational functions
// of the parameter, the explorer's numbers evaluated at Param.At checked
// beside them.
type symbolic struct {
	poly.Field
	x    *explorer
	p    Param
	unit poly.RatFunc
	sl   slots
	nums map[*expr.Expr]expr.ValNum
	// pure caches the functions of expressions that read no variable.
	pure map[*expr.Expr]poly.RatFunc
	// checked holds the functions already checked positive (by Format).
	checked map[string]bool
	dists   map[string][]outcome[poly.RatFunc]
	// geos holds the geometric tables by α (by Format).
	geos map[string]*geoTable[poly.RatFunc]
	// scanned memoizes scan.
	scanned map[*expr.Expr]uint8
	// rows holds the parametric row of every state explored.
	rows [][]ParamTrans
}

// BuildParam explores the model for every value of the parameter p (see
// above): .dp modules, whose states have at most one enabled command, and
// PRISM's DTMCs, a state's choices mixed uniformly (a deadlock absorbing),
// not MDPs. Errors about the model are a source.ErrorList; BuildParam
// stops with ctx's error when ctx ends.
func (m *Model) BuildParam(ctx context.Context, l model.Limits, p Param) (*ParamChain, error) {
	switch {
	case m.MDP:
		return nil, source.ErrorList{{Pos: m.Pos, Msg: fmt.Sprintf("an MDP with the parameter %s is not supported: for every %s the model is a Markov chain", p.Name, p.Name)}}
	case p.At == nil || !p.Interval.Contains(p.At):
		return nil, fmt.Errorf("statespace: the point at which the parametric model is explored is not in its interval")
	}
	x, err := m.newExplorer(ctx, l)
	if err != nil {
		return nil, err
	}
	x.param = &p
	s := &symbolic{Field: poly.Field{Ctx: ctx, Limits: p.Limits, Interval: p.Interval, Param: p.Name}, x: x, p: p, unit: poly.FromPoly(poly.FromInts(1)), sl: slots{m},
		nums: map[*expr.Expr]expr.ValNum{}, pure: map[*expr.Expr]poly.RatFunc{}, checked: map[string]bool{}, dists: map[string][]outcome[poly.RatFunc]{},
		geos: map[string]*geoTable[poly.RatFunc]{}, scanned: map[*expr.Expr]uint8{}}
	if errs := s.misplaced(m); errs != nil {
		return nil, errs
	}
	if m.Semantics == PRISM { // an empty row: no command was enabled
		x.paramDeadlock = func(st int) bool { return st < len(s.rows) && len(s.rows[st]) == 0 }
	}
	if m.HasUnbounded() {
		return s.unbounded(m)
	}
	c, err := (&expander[poly.RatFunc]{x, s}).run(s.row)
	if err != nil {
		return nil, err
	}
	pairs, err := model.AllPairs(c.Inputs(), x.limits.MaxMemory)
	if err != nil {
		return nil, source.ErrorList{{Pos: m.Pos, Msg: err.Error(), Limit: string(model.LimitMemory)}}
	}
	note := fmt.Sprintf("%d states explored from %d inputs", c.NumStates(), len(c.Inputs()))
	if x.deadlocks > 0 {
		note += fmt.Sprintf("; %d deadlock states got a self-loop, as PRISM does", x.deadlocks)
	}
	return &ParamChain{Frame: c, Rows: s.rows, Neighbours: pairs, Note: note}, nil
}

// misplaced reports each use of the parameter outside an update's
// probability and a draw's first argument (α or p): there the chain's
// graph would depend on its value. (The .dp front end refuses these
// where they are written; a PRISM model's undefined constant is checked
// here.)
func (s *symbolic) misplaced(m *Model) source.ErrorList {
	var errs source.ErrorList
	check := func(e *expr.Expr, what string) {
		if e != nil && s.mentions(e) {
			errs = append(errs, &source.Error{Pos: e.Pos, Msg: fmt.Sprintf("%s must not depend on the parameter %s: the chain's graph must be the same for every %s (it may appear in an update's probability)", what, s.p.Name, s.p.Name)})
		}
	}
	for _, v := range m.Vars {
		check(v.Init, "an initial value")
	}
	for _, c := range m.Commands {
		check(c.Guard, "a guard")
		for _, u := range c.Updates {
			for _, a := range u.Assigns {
				check(a.Value, "an assignment")
				if a.Noise != nil {
					for i, arg := range a.Noise.Args {
						if i > 0 || a.Noise.Kind == Uniform {
							check(arg, "this argument of a draw")
						}
					}
				}
			}
		}
	}
	for _, l := range m.Labels {
		check(l.Cond, "a label")
	}
	for _, r := range m.Rewards {
		for _, it := range r.Items {
			check(it.Guard, "a reward's guard")
			check(it.Value, "a reward (rewards are not computed for every parameter value)")
		}
	}
	check(m.InputsWhere, "an inputs condition")
	check(m.Init, "the initial states' condition")
	errs.Sort()
	return errs
}

// row keeps the parametric row of a state: its choice's branches (under
// PRISM's semantics, a uniform mix of its choices), merged by target.
func (s *symbolic) row(choices []choice[poly.RatFunc]) error {
	var row []ParamTrans
	if len(choices) > 1 {
		share := poly.FromPoly(poly.Const(big.NewRat(1, int64(len(choices)))))
		mixed := choice[poly.RatFunc]{cmds: choices[0].cmds}
		for _, c := range choices {
			for _, b := range c.bs {
				p, err := s.Mul(b.p, share)
				if err != nil {
					return s.x.algebra(c.cmds[0], err)
				}
				mixed.bs = append(mixed.bs, branch[poly.RatFunc]{v: b.v, p: p})
			}
		}
		choices = []choice[poly.RatFunc]{mixed}
	}
	if len(choices) > 0 {
		ss, err := merge(s.x, s, choices[0])
		if err != nil {
			return err
		}
		row = make([]ParamTrans, len(ss))
		for i, t := range ss {
			row[i] = ParamTrans{To: int(t.to), P: t.p}
		}
	}
	s.rows = append(s.rows, row)
	s.x.trans += max(1, len(row))
	return nil
}

func (s *symbolic) one() poly.RatFunc { return s.unit }

func (s *symbolic) isOne(f poly.RatFunc) bool { return f.Equal(s.unit) }

func (s *symbolic) oneMinus(f poly.RatFunc) (poly.RatFunc, error) { return s.Sub(s.unit, f) }

// power: the functions' powers are multiplied up.
func (*symbolic) power(poly.RatFunc, int64) (poly.RatFunc, bool) { return poly.RatFunc{}, false }

func (*symbolic) kept(poly.RatFunc) {}

// algebra positions an error of the polynomial algebra (a limit) at
// command ci.
func (x *explorer) algebra(ci int, err error) error {
	if x.ctx.Err() != nil {
		return x.ctx.Err()
	}
	return source.ErrorList{{Pos: x.p.m.Commands[ci].Pos, Msg: fmt.Sprintf("for every %s: %v", x.param.Name, err)}}
}

// mentions reports whether e mentions the parameter (once per node).
func (s *symbolic) mentions(e *expr.Expr) bool {
	if e == nil {
		return false
	}
	return s.scan(e)&1 != 0
}

// readsVars reports whether e reads a variable of the model.
func (s *symbolic) readsVars(e *expr.Expr) bool { return s.scan(e)&2 != 0 }

// scan returns, memoized by node, bit 0 when e mentions the parameter and
// bit 1 when it reads a variable.
func (s *symbolic) scan(e *expr.Expr) uint8 {
	if b, ok := s.scanned[e]; ok {
		return b
	}
	var b uint8
	if e.Op == expr.Var {
		if _, _, isVar := s.sl.Slot(e.Name); isVar {
			b |= 2
		} else if e.Name == s.p.Name {
			b |= 1
		}
	}
	for _, a := range e.Args {
		b |= s.scan(a)
	}
	s.scanned[e] = b
	return b
}

// number evaluates an expression without the parameter at cur.
func (s *symbolic) number(e *expr.Expr, cur []int64) (*big.Rat, error) {
	f, ok := s.nums[e]
	if !ok {
		var errs source.ErrorList
		if f, errs = expr.CompileNumber(e, s.sl); errs != nil {
			return nil, errs
		}
		s.nums[e] = f
	}
	v, err := f(cur)
	if err != nil {
		return nil, source.ErrorList{errEval(err, e.Pos)}
	}
	return v.Rat(), nil
}

// rat evaluates e at the state cur as a rational function of the
// parameter: numbers and variables, the parameter, + − * /, powers with an
// integer exponent and c ? a : b with c not depending on the parameter.
func (s *symbolic) rat(e *expr.Expr, cur []int64) (poly.RatFunc, error) {
	if !s.mentions(e) {
		r, err := s.number(e, cur)
		if err != nil {
			return poly.RatFunc{}, err
		}
		return poly.FromPoly(poly.Const(r)), nil
	}
	pure := !s.readsVars(e)
	if pure {
		if f, ok := s.pure[e]; ok {
			return f, nil
		}
	}
	f, err := s.ratNode(e, cur)
	if err == nil && pure {
		s.pure[e] = f
	}
	return f, err
}

func (s *symbolic) ratNode(e *expr.Expr, cur []int64) (poly.RatFunc, error) {
	fail := func(err error) (poly.RatFunc, error) {
		if s.Ctx.Err() != nil {
			return poly.RatFunc{}, s.Ctx.Err()
		}
		return poly.RatFunc{}, source.ErrorList{{Pos: e.Pos, Msg: fmt.Sprintf("for every %s: %v", s.p.Name, err)}}
	}
	switch e.Op {
	case expr.Var:
		return s.X(), nil
	case expr.Neg:
		f, err := s.rat(e.Args[0], cur)
		if err != nil {
			return f, err
		}
		if f, err = s.Sub(poly.RatFunc{}, f); err != nil {
			return fail(err)
		}
		return f, nil
	case expr.Sum, expr.Prod:
		acc, err := s.rat(e.Args[0], cur)
		if err != nil {
			return acc, err
		}
		for i, a := range e.Args[1:] {
			f, err := s.rat(a, cur)
			if err != nil {
				return f, err
			}
			switch inv := e.Inv[i+1]; {
			case e.Op == expr.Sum && inv:
				acc, err = s.Sub(acc, f)
			case e.Op == expr.Sum:
				acc, err = s.Add(acc, f)
			case inv:
				acc, err = s.Quo(acc, f)
			default:
				acc, err = s.Mul(acc, f)
			}
			if err != nil {
				return fail(err)
			}
		}
		return acc, nil
	case expr.Pow:
		if s.mentions(e.Args[1]) {
			return poly.RatFunc{}, source.ErrorList{{Pos: e.Args[1].Pos, Msg: fmt.Sprintf("the exponent must not depend on the parameter %s: a probability is a rational function of %s", s.p.Name, s.p.Name)}}
		}
		k, err := s.number(e.Args[1], cur)
		if err != nil {
			return poly.RatFunc{}, err
		}
		const most = poly.DefaultMaxDegree // a larger power of the parameter exceeds poly's degree limit
		if !k.IsInt() || !k.Num().IsInt64() || k.Num().Int64() > most || k.Num().Int64() < -most {
			return poly.RatFunc{}, source.ErrorList{{Pos: e.Args[1].Pos, Msg: fmt.Sprintf("the exponent of a power of the parameter %s must be an integer in [-%d, %d], found %s", s.p.Name, most, most, k.RatString())}}
		}
		base, err := s.rat(e.Args[0], cur)
		if err != nil {
			return base, err
		}
		n := k.Num().Int64()
		acc := s.unit
		for m := max(n, -n); m > 0; m >>= 1 { // by squaring
			if m&1 == 1 {
				if acc, err = s.Mul(acc, base); err != nil {
					return fail(err)
				}
			}
			if m > 1 {
				if base, err = s.Mul(base, base); err != nil {
					return fail(err)
				}
			}
		}
		if n < 0 {
			if acc, err = s.Quo(s.unit, acc); err != nil {
				return fail(err)
			}
		}
		return acc, nil
	case expr.Ite:
		if s.mentions(e.Args[0]) {
			return poly.RatFunc{}, source.ErrorList{{Pos: e.Args[0].Pos, Msg: fmt.Sprintf("a condition must not depend on the parameter %s: the chain's graph must be the same for every %s", s.p.Name, s.p.Name)}}
		}
		cond, errs := expr.CompileCondition(e.Args[0], s.sl)
		if errs != nil {
			return poly.RatFunc{}, errs
		}
		b, err := cond(cur)
		if err != nil {
			return poly.RatFunc{}, source.ErrorList{errEval(err, e.Args[0].Pos)}
		}
		if b {
			return s.rat(e.Args[1], cur)
		}
		return s.rat(e.Args[2], cur)
	case expr.Index:
		if s.mentions(e.Args[0]) {
			return poly.RatFunc{}, source.ErrorList{{Pos: e.Args[0].Pos, Msg: fmt.Sprintf("an array's index must not depend on the parameter %s", s.p.Name)}}
		}
		i, err := s.number(e.Args[0], cur)
		if err != nil {
			return poly.RatFunc{}, err
		}
		first := e.Args[1].Value
		k := new(big.Rat).Sub(i, first)
		if !k.IsInt() || k.Sign() < 0 || k.Num().Cmp(big.NewInt(int64(len(e.Args)-2))) >= 0 {
			// Out of range or not an integer: the evaluation says why.
			_, err := s.number(e, cur)
			if err == nil {
				err = source.ErrorList{{Pos: e.Pos, Msg: fmt.Sprintf("the index of %s is %s, outside the array", e.Text, i.RatString())}}
			}
			return poly.RatFunc{}, err
		}
		return s.rat(e.Args[2+int(k.Num().Int64())], cur)
	}
	return poly.RatFunc{}, source.ErrorList{{Pos: e.Pos, Msg: fmt.Sprintf("%s is not a rational function of the parameter %s (numbers, %s, + - * / and ^ with an integer exponent)", e.Text, s.p.Name, s.p.Name)}}
}

// positive checks that f > 0 on the whole interval (and f < 1 when below1),
// once per function; what names f in the message, with %s for f ("the
// probability %s").
func (s *symbolic) positive(f poly.RatFunc, below1 bool, what string, at source.Position) error {
	key := f.Format("x")
	if below1 {
		key += " <1"
	}
	if s.checked[key] {
		return nil
	}
	check := func(g poly.RatFunc, bound string) error {
		reg, err := s.Limits.WhereRat(s.Ctx, g, poly.GT, s.Interval)
		if err != nil {
			if s.Ctx.Err() != nil {
				return s.Ctx.Err()
			}
			return source.ErrorList{{Pos: at, Msg: fmt.Sprintf(what+": %v", f.Format(s.p.Name), err)}}
		}
		w, bad, err := s.Limits.Witness(s.Ctx, reg)
		if err != nil {
			return err
		}
		if bad {
			how := "is not " + bound + " at %s = %s: it must be"
			if sg, err := w.SignOf(s.Ctx, g.Den()); err == nil && sg == 0 {
				how = "has a pole at %s = %s: it must be " + bound // undefined there
			}
			return source.ErrorList{{Pos: at, Msg: fmt.Sprintf(what+" "+how+" for every %s in %s (the chain's graph must be the same for every %s)",
				f.Format(s.p.Name), s.p.Name, w.Format(s.p.Name), s.p.Name, s.p.Interval, s.p.Name)}}
		}
		return nil
	}
	if err := check(f, "positive"); err != nil {
		return err
	}
	if below1 {
		g, err := s.oneMinus(f)
		if err != nil {
			return err
		}
		if err := check(g, "below 1"); err != nil {
			return err
		}
	}
	s.checked[key] = true
	return nil
}

// update is update ui's probability of command ci at cur as a function,
// checked positive when it depends on the parameter.
func (s *symbolic) update(ci, ui int, cur []int64, _ *big.Rat) (poly.RatFunc, error) {
	u := s.x.p.m.Commands[ci].Updates[ui]
	f, err := s.rat(u.Prob, cur)
	if err != nil {
		return f, s.x.atErr(ci, cur, err)
	}
	if s.mentions(u.Prob) && !s.IsZero(f) {
		if err := s.positive(f, false, "the probability %s", u.Pos); err != nil {
			return f, s.x.atErr(ci, cur, err)
		}
	}
	return f, nil
}

// atErr adds the state and command to the errors of a list.
func (x *explorer) atErr(ci int, cur []int64, err error) error {
	list, ok := err.(source.ErrorList)
	if !ok || len(list) != 1 {
		return err
	}
	return x.at(ci, cur, list[0])
}

// draw is a draw's distribution as functions of the parameter. Its first
// argument, when it mentions the parameter, is checked in (0, 1) for every
// value of the interval (a bernoulli's p may also be constantly 0 or 1)
// before the numeric draw (at Param.At) is made with its checks and
// limits. The distribution is the numeric one's, its probabilities
// constants, when the first argument does not mention the parameter, and
// else the same closed form with the function as α or p.
func (s *symbolic) draw(ci int, a cassign, cur []int64) ([]outcome[poly.RatFunc], error) {
	x, noise := s.x, a.noise.src
	var f poly.RatFunc
	mentions := s.mentions(noise.Args[0])
	if mentions {
		var err error
		if f, err = s.rat(noise.Args[0], cur); err != nil {
			return nil, x.atErr(ci, cur, err)
		}
		what := "the α %s of the draw"
		if noise.Kind == Bernoulli {
			what = "the p %s of the draw"
		}
		if noise.Kind != Bernoulli || !s.IsZero(f) && !s.isOne(f) {
			if err := s.positive(f, true, what, noise.Pos); err != nil {
				return nil, x.atErr(ci, cur, err)
			}
		}
	}
	d, err := x.draw(ci, a, cur)
	if err != nil {
		return nil, err
	}
	if !mentions {
		out := make([]outcome[poly.RatFunc], len(d))
		for i, o := range d {
			out[i] = outcome[poly.RatFunc]{o.v, s.Const(o.p)}
		}
		return out, nil
	}
	args := make([]int64, len(noise.Args))
	for i, e := range noise.Args[1:] {
		r, err := s.number(e, cur)
		if err != nil {
			return nil, x.atErr(ci, cur, err)
		}
		args[i+1] = r.Num().Int64() // integers: the numeric draw checked them
	}
	key := fmt.Sprint(noise.Kind, f.Format("x"), args[1:])
	if out, ok := s.dists[key]; ok {
		return out, nil
	}
	var out []outcome[poly.RatFunc]
	switch noise.Kind {
	case Bernoulli:
		out, err = bernoulli(s, f)
	case Geometric, Geometric1:
		out, err = tableOf(s.Ctx, s, s.geos, f).geometric(noise.Kind, args[1], args[2], args[3])
	default:
		return nil, x.at(ci, cur, &source.Error{Pos: noise.Pos, Msg: fmt.Sprintf("this draw cannot depend on the parameter %s", s.p.Name)})
	}
	if err != nil {
		return nil, x.algebra(ci, err)
	}
	s.dists[key] = out
	return out, nil
}

// atParam says, in a parametric exploration, at which parameter value a
// numeric check failed.
func (x *explorer) atParam() string {
	if x.param == nil {
		return ""
	}
	return fmt.Sprintf(" at %s = %s", x.param.Name, x.param.At.RatString())
}
