package statespace

import (
	"context"
	"fmt"
	"math/big"
	"sort"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/poly"
	"github.com/dpcheck/dpcheck/source"
)

// Modules with a parameter (issue 14; docs/semantics.md, "For every
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

// symbolic evaluates the parametric side of an exploration.
type symbolic struct {
	p    Param
	ctx  context.Context
	one  poly.RatFunc
	sl   slots
	nums map[*expr.Expr]expr.ValNum
	// pure caches the functions of expressions that read no variable.
	pure map[*expr.Expr]poly.RatFunc
	// checked holds the functions already checked positive (by Format).
	checked map[string]bool
	dists   map[string][]spv
	// geos holds the geometric tables by α (by Format).
	geos map[string]*symGeo
	// scanned memoizes scan.
	scanned map[*expr.Expr]uint8
	// rows holds the parametric row of every state explored.
	rows [][]ParamTrans
}

// spv is a value and its probability as a rational function.
type spv struct {
	v int64
	f poly.RatFunc
}

// BuildParam explores the model for every value of the parameter p (see
// above). Only .dp modules whose states have at most one enabled command
// are supported (not PRISM's semantics, not MDPs). Errors about the model
// are a source.ErrorList; BuildParam stops with ctx's error when ctx ends.
func (m *Model) BuildParam(ctx context.Context, l model.Limits, p Param) (*ParamChain, error) {
	switch {
	case m.Semantics != DP:
		return nil, source.ErrorList{{Pos: m.Pos, Msg: fmt.Sprintf("a PRISM model with the parameter %s is not supported: write it as .dp modules", p.Name)}}
	case m.MDP:
		return nil, source.ErrorList{{Pos: m.Pos, Msg: fmt.Sprintf("an MDP with the parameter %s is not supported: for every %s the model is a Markov chain", p.Name, p.Name)}}
	case p.At == nil || !p.Interval.Contains(p.At):
		return nil, fmt.Errorf("statespace: the point at which the parametric model is explored is not in its interval")
	}
	l = l.WithDefaults()
	cp, errs := m.compile()
	if errs != nil {
		return nil, errs
	}
	x := m.newExplorer(ctx, l, cp)
	x.sym = &symbolic{p: p, ctx: ctx, one: poly.FromPoly(poly.FromInts(1)), sl: slots{m}, nums: map[*expr.Expr]expr.ValNum{},
		pure: map[*expr.Expr]poly.RatFunc{}, checked: map[string]bool{}, dists: map[string][]spv{}, geos: map[string]*symGeo{}, scanned: map[*expr.Expr]uint8{}}
	c, err := x.run()
	if err != nil {
		return nil, err
	}
	pairs, err := model.AllPairs(c.Inputs(), l.MaxMemory)
	if err != nil {
		return nil, source.ErrorList{{Pos: m.Pos, Msg: err.Error(), Limit: string(model.LimitMemory)}}
	}
	return &ParamChain{Frame: c, Rows: x.sym.rows, Neighbours: pairs,
		Note: fmt.Sprintf("%d states explored from %d inputs", c.NumStates(), len(c.Inputs()))}, nil
}

// symRow is the parametric row of a state: its single choice's branches,
// merged by target.
func (x *explorer) symRow(choices []choice) ([]ParamTrans, error) {
	if len(choices) == 0 {
		return nil, nil
	}
	lim := x.sym.p.Limits
	at := map[int]int{}
	var row []ParamTrans
	for _, b := range choices[0].bs {
		t, _, err := x.find(b.v)
		if err != nil {
			return nil, err
		}
		if i, ok := at[t]; ok {
			if row[i].P, err = lim.RatAdd(x.ctx, row[i].P, b.f); err != nil {
				return nil, x.algebra(choices[0].cmds[0], err)
			}
			continue
		}
		at[t] = len(row)
		row = append(row, ParamTrans{To: t, P: b.f})
	}
	sort.Slice(row, func(i, j int) bool { return row[i].To < row[j].To })
	return row, nil
}

// algebra positions an error of the polynomial algebra (a limit) at
// command ci.
func (x *explorer) algebra(ci int, err error) error {
	if x.ctx.Err() != nil {
		return x.ctx.Err()
	}
	return source.ErrorList{{Pos: x.p.m.Commands[ci].Pos, Msg: fmt.Sprintf("for every %s: %v", x.sym.p.Name, err)}}
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
	lim, ctx := s.p.Limits, s.ctx
	fail := func(err error) (poly.RatFunc, error) {
		if ctx.Err() != nil {
			return poly.RatFunc{}, ctx.Err()
		}
		return poly.RatFunc{}, source.ErrorList{{Pos: e.Pos, Msg: fmt.Sprintf("for every %s: %v", s.p.Name, err)}}
	}
	switch e.Op {
	case expr.Var:
		return poly.FromPoly(poly.X()), nil
	case expr.Neg:
		f, err := s.rat(e.Args[0], cur)
		if err != nil {
			return f, err
		}
		if f, err = lim.RatSub(ctx, poly.RatFunc{}, f); err != nil {
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
				acc, err = lim.RatSub(ctx, acc, f)
			case e.Op == expr.Sum:
				acc, err = lim.RatAdd(ctx, acc, f)
			case inv:
				acc, err = lim.RatDiv(ctx, acc, f)
			default:
				acc, err = lim.RatMul(ctx, acc, f)
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
		if !k.IsInt() || !k.Num().IsInt64() || k.Num().Int64() > 64 || k.Num().Int64() < -64 {
			return poly.RatFunc{}, source.ErrorList{{Pos: e.Args[1].Pos, Msg: fmt.Sprintf("the exponent of a power of the parameter %s must be an integer in [-64, 64], found %s", s.p.Name, k.RatString())}}
		}
		base, err := s.rat(e.Args[0], cur)
		if err != nil {
			return base, err
		}
		n := k.Num().Int64()
		acc := s.one
		for range max(n, -n) {
			if acc, err = lim.RatMul(ctx, acc, base); err != nil {
				return fail(err)
			}
		}
		if n < 0 {
			if acc, err = lim.RatDiv(ctx, s.one, acc); err != nil {
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
	lim, ctx := s.p.Limits, s.ctx
	check := func(g poly.RatFunc, bound string) error {
		reg, err := lim.WhereRat(ctx, g, poly.GT, s.p.Interval)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return source.ErrorList{{Pos: at, Msg: fmt.Sprintf(what+": %v", f.Format(s.p.Name), err)}}
		}
		w, bad, err := lim.Witness(ctx, reg)
		if err != nil {
			return err
		}
		if bad {
			how := "is not " + bound + " at %s = %s: it must be"
			if sg, err := w.SignOf(ctx, g.Den()); err == nil && sg == 0 {
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
		g, err := lim.RatSub(ctx, s.one, f)
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

// updateProb is update ui's probability of command ci at cur as a
// function, checked positive when it depends on the parameter.
func (x *explorer) updateProb(ci, ui int, cur []int64) (poly.RatFunc, error) {
	u := x.p.m.Commands[ci].Updates[ui]
	f, err := x.sym.rat(u.Prob, cur)
	if err != nil {
		return f, x.atErr(ci, cur, err)
	}
	if x.sym.mentions(u.Prob) && !f.Equal(poly.RatFunc{}) {
		if err := x.sym.positive(f, false, "the probability %s", u.Pos); err != nil {
			return f, x.atErr(ci, cur, err)
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

// checkDraw checks, before the numeric draw, that a draw's first argument
// that mentions the parameter is in (0, 1) for every value of the interval
// (a bernoulli's p may also be constantly 0 or 1).
func (x *explorer) checkDraw(ci int, a cassign, cur []int64) error {
	s := x.sym
	noise := a.noise.src
	if !s.mentions(noise.Args[0]) {
		return nil
	}
	f, err := s.rat(noise.Args[0], cur)
	if err != nil {
		return x.atErr(ci, cur, err)
	}
	what := "the α %s of the draw"
	if noise.Kind == Bernoulli {
		what = "the p %s of the draw"
		if f.Equal(poly.RatFunc{}) || f.Equal(s.one) {
			return nil
		}
	}
	if err := s.positive(f, true, what, noise.Pos); err != nil {
		return x.atErr(ci, cur, err)
	}
	return nil
}

// symDraw is a draw's distribution as functions of the parameter: its
// values are those of the numeric draw d (at Param.At), or — for a
// bernoulli draw whose p is 0 there but not everywhere — both.
func (x *explorer) symDraw(ci int, a cassign, cur []int64, d []pv) ([]spv, error) {
	s := x.sym
	noise := a.noise.src
	if !s.mentions(noise.Args[0]) {
		out := make([]spv, len(d))
		for i, o := range d {
			out[i] = spv{o.v, poly.FromPoly(poly.Const(o.p))}
		}
		return out, nil
	}
	f, err := s.rat(noise.Args[0], cur)
	if err != nil {
		return nil, x.atErr(ci, cur, err)
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
	if noise.Kind == Bernoulli && (f.Equal(poly.RatFunc{}) || f.Equal(s.one)) {
		out := make([]spv, len(d))
		for i, o := range d {
			out[i] = spv{o.v, poly.FromPoly(poly.Const(o.p))}
		}
		return out, nil
	}
	var out []spv
	switch noise.Kind {
	case Bernoulli:
		q, err := s.p.Limits.RatSub(s.ctx, s.one, f)
		if err != nil {
			return nil, x.algebra(ci, err)
		}
		out = []spv{{0, q}, {1, f}}
	case Geometric, Geometric1:
		out, err = s.geometric(noise.Kind, f, args[1], args[2], args[3])
		if err != nil {
			return nil, x.algebra(ci, err)
		}
	default:
		return nil, x.at(ci, cur, &source.Error{Pos: noise.Pos, Msg: fmt.Sprintf("this draw cannot depend on the parameter %s", s.p.Name)})
	}
	s.dists[key] = out
	return out, nil
}

// symGeo holds the functions of the geometric draws of one α(x), each
// computed once (as geoTable holds numbers): α^k, and for the two-sided
// noise point[k] = (1−α)/(1+α)·α^k and atLeast[k] = P(Z ≥ k); for the
// one-sided one point1[k] = (1−α)·α^k and atMost1[k] = 1 − α^(k+1).
type symGeo struct {
	a, one, oneMinus, onePlus, mid poly.RatFunc
	pw                             []poly.RatFunc
	point, atLeast, point1, atMost map[int64]poly.RatFunc
}

// geoTable returns the table of α = a.
func (s *symbolic) geoTable(a poly.RatFunc) (*symGeo, error) {
	key := a.Format("x")
	if t, ok := s.geos[key]; ok {
		return t, nil
	}
	lim, ctx := s.p.Limits, s.ctx
	t := &symGeo{a: a, one: s.one, pw: []poly.RatFunc{s.one}, point: map[int64]poly.RatFunc{}, atLeast: map[int64]poly.RatFunc{},
		point1: map[int64]poly.RatFunc{}, atMost: map[int64]poly.RatFunc{}}
	var err error
	if t.oneMinus, err = lim.RatSub(ctx, s.one, a); err != nil {
		return nil, err
	}
	if t.onePlus, err = lim.RatAdd(ctx, s.one, a); err != nil {
		return nil, err
	}
	if t.mid, err = lim.RatDiv(ctx, t.oneMinus, t.onePlus); err != nil {
		return nil, err
	}
	s.geos[key] = t
	return t, nil
}

// memo returns m[k], computing it with f the first time.
func memoRat(m map[int64]poly.RatFunc, k int64, f func() (poly.RatFunc, error)) (poly.RatFunc, error) {
	if p, ok := m[k]; ok {
		return p, nil
	}
	p, err := f()
	if err == nil {
		m[k] = p
	}
	return p, err
}

// geometric is the clamped geometric distribution of twoSided and
// oneSided (noise.go) with α the function a.
func (s *symbolic) geometric(kind NoiseKind, a poly.RatFunc, c, lo, hi int64) ([]spv, error) {
	lim, ctx := s.p.Limits, s.ctx
	t, err := s.geoTable(a)
	if err != nil {
		return nil, err
	}
	power := func(k int64) (poly.RatFunc, error) {
		for int64(len(t.pw)) <= k {
			if err := ctx.Err(); err != nil {
				return poly.RatFunc{}, err
			}
			next, err := lim.RatMul(ctx, t.pw[len(t.pw)-1], a)
			if err != nil {
				return next, err
			}
			t.pw = append(t.pw, next)
		}
		return t.pw[k], nil
	}
	var out []spv
	add := func(v int64, f poly.RatFunc, err error) error {
		if err == nil && !f.Equal(poly.RatFunc{}) {
			out = append(out, spv{v, f})
		}
		return err
	}
	if kind == Geometric {
		if lo == hi {
			return []spv{{lo, s.one}}, nil
		}
		// atLeast is P(Z ≥ k): α^k/(1+α) for k ≥ 1, 1 − α^(1−k)/(1+α) for k ≤ 0.
		atLeast := func(k int64) (poly.RatFunc, error) {
			return memoRat(t.atLeast, k, func() (poly.RatFunc, error) {
				e := k
				if k <= 0 {
					e = 1 - k
				}
				p, err := power(e)
				if err != nil {
					return p, err
				}
				if p, err = lim.RatDiv(ctx, p, t.onePlus); err != nil || k > 0 {
					return p, err
				}
				return lim.RatSub(ctx, s.one, p)
			})
		}
		f, err := atLeast(c - lo)
		if err := add(lo, f, err); err != nil {
			return nil, err
		}
		for v := lo + 1; v < hi; v++ {
			k := abs(v - c)
			p, err := memoRat(t.point, k, func() (poly.RatFunc, error) {
				p, err := power(k)
				if err != nil {
					return p, err
				}
				return lim.RatMul(ctx, t.mid, p)
			})
			if err := add(v, p, err); err != nil {
				return nil, err
			}
		}
		f, err = atLeast(hi - c)
		return out, add(hi, f, err)
	}
	if c >= hi || lo == hi {
		return []spv{{hi, s.one}}, nil
	}
	if c < lo {
		k := lo - c
		p, err := memoRat(t.atMost, k, func() (poly.RatFunc, error) {
			p, err := power(k + 1)
			if err != nil {
				return p, err
			}
			return lim.RatSub(ctx, s.one, p)
		})
		if err := add(lo, p, err); err != nil {
			return nil, err
		}
	}
	for v := max(lo, c); v < hi; v++ {
		if v == lo && c < lo {
			continue
		}
		k := v - c
		p, err := memoRat(t.point1, k, func() (poly.RatFunc, error) {
			p, err := power(k)
			if err != nil {
				return p, err
			}
			return lim.RatMul(ctx, t.oneMinus, p)
		})
		if err := add(v, p, err); err != nil {
			return nil, err
		}
	}
	f, err := power(hi - c)
	return out, add(hi, f, err)
}

// symBranches expands the branches out by a draw of variable v with the
// parametric distribution d (their numeric probabilities are not kept).
func (x *explorer) symBranches(ci int, out []branch, v int, d []spv, at source.Position, cur []int64) ([]branch, error) {
	vr := x.p.m.Vars[v]
	if err := x.fits(int64(len(out))*int64(len(d)), ci, cur); err != nil {
		return nil, err
	}
	var grown []branch
	for _, b := range out {
		for _, o := range d {
			if o.v < vr.Lo || o.v > vr.Hi {
				return nil, x.at(ci, cur, &source.Error{Pos: at, Msg: fmt.Sprintf("the draw can give %s' = %d, outside the range [%d..%d] of %s", vr.Name, o.v, vr.Lo, vr.Hi, vr.Name)})
			}
			nv := append([]int64(nil), b.v...)
			nv[v] = o.v
			f := o.f
			if !b.f.Equal(x.sym.one) {
				var err error
				if f, err = x.sym.p.Limits.RatMul(x.ctx, b.f, o.f); err != nil {
					return nil, x.algebra(ci, err)
				}
			}
			grown = append(grown, branch{v: nv, f: f})
		}
	}
	return grown, nil
}

// atParam says, in a parametric exploration, at which parameter value a
// numeric check failed.
func (x *explorer) atParam() string {
	if x.sym == nil {
		return ""
	}
	return fmt.Sprintf(" at %s = %s", x.sym.p.Name, x.sym.p.At.RatString())
}
