package statespace

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/geosum"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/poly"
	"github.com/dpcheck/dpcheck/source"
)

// Programs with unbounded variables (docs/semantics.md, "Unbounded
// variables") are not explored state by state: a run's bounded part is
// followed exactly, and the values of its unbounded variables are carried
// as one weight over all of them (package geosum) that guards cut and
// draws, assignments and the end of the run sum in closed form. The
// result is a chain from each input straight to its outputs, with exact
// probabilities: an output is the final values of the bounded variables
// and of the observed unbounded one — each value of it where the inputs'
// likelihood ratios vary, and one merged output for each tail where they
// are provably constant.

// HasUnbounded reports whether the model has an unbounded variable.
func (m *Model) HasUnbounded() bool {
	for _, v := range m.Vars {
		if v.Unbounded {
			return true
		}
	}
	return false
}

// maxTerms bounds the terms of the weight of a run's unbounded variables:
// a fiftieth of the transitions a model may have (200 000 by default).
func maxTerms(l model.Limits) int { return l.MaxTransitions / 50 }

// uassign is an assignment to an unbounded variable.
type uassign struct {
	u        int // the unbounded variable
	draw     bool
	oneSided bool
	alpha    cassign // the draw's α, compiled as a number
	noise    *Noise
	lin      ulin // the value assigned, or the draw's centre

	pos source.Position
}

// uprog is a model with unbounded variables, compiled.
type uprog struct {
	slot     []int // Vars index → unbounded index or −1
	vars     []int // unbounded index → Vars index
	guards   []*ucond
	assigns  [][][]uassign // per command, per update
	observed int           // the observed unbounded variable, or −1
}

func (m *Model) classify(p *compiled) (*uprog, source.ErrorList) {
	k := &classifier{m: m}
	u := &uprog{observed: -1}
	for i, v := range m.Vars {
		k.slot = append(k.slot, -1)
		if v.Unbounded {
			k.slot[i] = len(u.vars)
			u.vars = append(u.vars, i)
			if x := p.init[i]; x > geosum.MaxConst || x < -geosum.MaxConst {
				at := v.Pos
				if v.Init != nil {
					at = v.Init.Pos
				}
				k.errorf(at, "the initial value %d of %s is beyond ±2^40", x, v.Name)
			}
		}
	}
	u.slot = k.slot
	switch {
	case m.MDP:
		k.errorf(m.Pos, "unbounded variables are decided in .dp modules of Markov chains, not in MDPs")
	case m.Semantics != DP:
		k.errorf(m.Pos, "unbounded variables are decided in .dp modules, not in PRISM models")
	case m.Observed == nil:
		v := m.Vars[u.vars[0]]
		k.errorf(v.Pos, "%s is an unbounded integer: a program with one says which variables it outputs (outputs var …), and the others are summed out", v.Name)
	}
	for _, name := range m.Observed {
		for i, v := range m.Vars {
			if v.Name == name && v.Unbounded {
				if u.observed >= 0 {
					k.errorf(m.ObservedPos, "the outputs name two unbounded integers, %s and %s: dpcheck observes at most one", m.Vars[u.vars[u.observed]].Name, name)
				}
				u.observed = k.slot[i]
			}
		}
	}
	for _, lb := range m.Labels {
		k.bounded(lb.Cond, "the label "+lb.Name)
	}
	k.bounded(m.InputsWhere, "the condition on the inputs")
	for ci, c := range m.Commands {
		u.guards = append(u.guards, k.cond(c.Guard))
		var ups [][]uassign
		for ui, up := range c.Updates {
			k.bounded(up.Prob, "the probability of an update")
			var as []uassign
			var keep []cassign
			assigned := map[int]bool{}
			for _, a := range up.Assigns {
				if k.slot[a.Var] >= 0 {
					assigned[k.slot[a.Var]] = true
				}
			}
			for ai, a := range up.Assigns {
				ca := p.updates[ci][ui].assigns[ai]
				v := m.Vars[a.Var]
				if !v.Unbounded {
					if a.Noise != nil {
						for _, arg := range a.Noise.Args {
							k.bounded(arg, "the draw of the bounded variable "+v.Name)
						}
					} else {
						k.bounded(a.Value, "the value of the bounded variable "+v.Name)
					}
					keep = append(keep, ca)
					continue
				}
				ua := uassign{u: k.slot[a.Var], pos: a.Pos}
				switch {
				case a.Noise != nil && (a.Noise.Kind == Geometric || a.Noise.Kind == Geometric1) && len(a.Noise.Args) == 2:
					ua.draw, ua.oneSided = true, a.Noise.Kind == Geometric1
					k.bounded(a.Noise.Args[0], "the α of the draw of "+v.Name)
					ua.alpha = cassign{num: ca.noise.args[0], pos: a.Noise.Pos}
					ua.noise = a.Noise
					// The centre: bounded, or another unbounded variable,
					// negated or not, plus a bounded value.
					centre := a.Noise.Args[1]
					l, ok := k.lin(centre, 1)
					switch {
					case ok && len(l.terms) == 1 && l.terms[0].u == ua.u:
						k.errorf(centre.Pos, "the draw of %s is centred on %s itself: draw it around another variable or a bounded value", v.Name, v.Name)
					case ok && len(l.terms) == 1 && assigned[l.terms[0].u]:
						k.errorf(centre.Pos, "the draw of %s is centred on %s, which the same update assigns: write the two in two commands", v.Name, k.name(l.terms[0].u))
					}
					ua.lin = l
				case a.Noise != nil:
					k.errorf(a.Noise.Pos, "the unbounded variable %s is drawn from geometric(α, centre) or geometric1(α, centre), untruncated", v.Name)
				default:
					l, ok := k.lin(a.Value, 1)
					if ok && len(l.terms) == 1 && l.terms[0].u != ua.u && assigned[l.terms[0].u] {
						k.errorf(a.Value.Pos, "%s' = %s reads %s, which the same update assigns: write the two assignments in two commands", v.Name, a.Value.Text, k.name(l.terms[0].u))
					}
					ua.lin = l
				}
				as = append(as, ua)
			}
			p.updates[ci][ui].assigns = keep
			ups = append(ups, as)
		}
		u.assigns = append(u.assigns, ups)
	}
	if k.errs != nil {
		k.errs.Sort()
		return nil, k.errs
	}
	return u, nil
}

// ucfg[T] is a configuration of a run: the bounded variables' values (the
// unbounded variables' slots 0) and the weight of the unbounded ones.
type ucfg[T any] struct {
	v  []int64
	w  geosum.Weight[T]
	by int // the command that made it, −1 for a run's start
}

// urun explores a model with unbounded variables.
type urun[T any] struct {
	x   *explorer
	u   *uprog
	s   *geosum.Summer[T]
	ex  *expander[T]
	alg algebra[T]
	// alpha is a draw's α, checked in (0, 1).
	alpha func(ci int, a uassign, v []int64) (T, error)
	// outs are the outputs' valuations and labels, rows the inputs'.
	outs   map[string]int
	states []ustate
	rows   []map[int]T
	// trans counts the rows' entries, held within Limits.MaxTransitions.
	trans int64
	// live says which unbounded variables may be read from a bounded
	// state on (unbounded_live.go).
	live liveness
	// keep, when set, keeps a merged tail whose ratios vary (from at, in
	// the direction dir, named name, its values named by value) for the
	// supremum of its ratios (unbounded_sup.go).
	keep func(ws map[int]geosum.Weight[T], ins []int, at, dir int64, name string, value func(int64) string) error
	// spread, when set, is how many values past the start at of a tail
	// whose ratios vary (direction dir) to list one by one for the
	// statements' ε (unbounded_tails.go), at most limit; nil refuses such
	// a tail.
	spread func(ws map[int]geosum.Weight[T], ins []int, at, dir, limit int64) (int64, error)
}

// ustate is an output state.
type ustate struct {
	val  chain.Valuation
	name string // a merged tail's, else ""
	// varies marks a merged tail whose likelihood ratios vary: merged for
	// the statements' ε only (unbounded_tails.go).
	varies bool
}

func key(v []int64) string {
	var b strings.Builder
	for _, x := range v {
		b.WriteString(strconv.FormatInt(x, 10))
		b.WriteByte(',')
	}
	return b.String()
}

// buildUnbounded builds the chain of a model with unbounded variables:
// each input's row goes to its outputs.
func (m *Model) buildUnbounded(ctx context.Context, l model.Limits) (*model.Mechanism, error) {
	x, u, err := m.unboundedExplorer(ctx, l)
	if err != nil {
		return nil, err
	}
	r := &urun[*big.Rat]{x: x, u: u, alg: rats{x: x}, s: geosum.NewSummer[*big.Rat](ctx, exact.Rats{}, maxTerms(x.limits))}
	// One power may take a 4096th of the bits the model may hold (2^20
	// bits by default, the limit on a power written in an expression):
	// the gcds of exact arithmetic on numbers much larger take minutes.
	r.s.PowBits, r.s.MaxPowBits = exact.PowBits, x.limits.MaxBits/4096
	// A weight may take a sixteenth of them (2^28 bits, 32 MiB, by
	// default); the weights of one level of runs are held together.
	r.s.Bits, r.s.MaxBits = func(q *big.Rat) int64 { return int64(exact.Bits(q)) }, x.limits.MaxBits/16
	r.alpha = func(ci int, a uassign, v []int64) (*big.Rat, error) { return constAlpha(x, ci, a, v) }
	r.spread = func(ws map[int]geosum.Weight[*big.Rat], ins []int, at, dir, limit int64) (int64, error) {
		if len(m.Ratios) == 0 {
			return 0, nil
		}
		forms, err := r.tailForms(ws, ins, at, dir)
		if err != nil {
			return 0, err
		}
		return signSteps(ctx, forms, ins, m.Ratios, limit, r.s.MaxPowBits)
	}
	var tails []*varyingTail
	r.keep = func(ws map[int]geosum.Weight[*big.Rat], ins []int, at, dir int64, name string, value func(int64) string) error {
		forms, err := r.tailForms(ws, ins, at, dir)
		if err != nil {
			return err
		}
		tails = append(tails, &varyingTail{forms: forms, at: at, dir: dir, name: name, value: value})
		return nil
	}
	if err := r.explore(); err != nil {
		return nil, err
	}
	b := r.frame()
	for in, row := range r.rows {
		to := sortedKeys(row)
		ps := make([]*big.Rat, len(to))
		for i, s := range to {
			ps[i] = row[s]
		}
		b.AddRow(in, to, ps)
	}
	c, err := r.build(b)
	if err != nil {
		return nil, err
	}
	mech := &model.Mechanism{Chain: c, AllPairs: true, Note: r.note()}
	for _, st := range r.states {
		if st.varies {
			// Non-nil even without Ratios: exact at no ε.
			mech.ExactAt = append([]*big.Rat{}, m.Ratios...)
		}
	}
	if len(tails) > 0 {
		limit, maxPowBits := maxSpread(x.limits), r.s.MaxPowBits
		mech.TailRatio = func(ctx context.Context, from, to string) (*model.TailSup, error) {
			i, j := inputIndex(from), inputIndex(to)
			if i < 0 || j < 0 {
				return nil, fmt.Errorf("internal error: %q and %q are not inputs of the model", from, to)
			}
			var best *model.TailSup
			for _, t := range tails {
				s, err := t.sup(ctx, i, j, limit, maxPowBits)
				if err != nil {
					if _, long := err.(errTooLong); long {
						return nil, fmt.Errorf("the ratio of %s to %s along the tail %s settles only more than %s values past its start, the limit for a tail (a 5000th of the limit on states)", from, to, t.name, exact.Thousands(limit))
					}
					return nil, err
				}
				if s != nil && s.Exceeds(best) {
					best = s
				}
			}
			return best, nil
		}
	}
	return mech, nil
}

// inputIndex is the index of the input named "s<i>" (frame), or −1.
func inputIndex(name string) int {
	i, err := strconv.Atoi(strings.TrimPrefix(name, "s"))
	if err != nil || !strings.HasPrefix(name, "s") {
		return -1
	}
	return i
}

// unboundedExplorer compiles a model with unbounded variables and finds
// its inputs.
func (m *Model) unboundedExplorer(ctx context.Context, l model.Limits) (*explorer, *uprog, error) {
	x, err := m.newExplorer(ctx, l)
	if err != nil {
		return nil, nil, err
	}
	u, errs := m.classify(x.p)
	if errs != nil {
		return nil, nil, errs
	}
	if err := x.initial(); err != nil {
		return nil, nil, err
	}
	return x, u, nil
}

func sortedKeys[T any](row map[int]T) []int {
	to := make([]int, 0, len(row))
	for s := range row {
		to = append(to, s)
	}
	sort.Ints(to)
	return to
}

func (r *urun[T]) note() string {
	n := fmt.Sprintf("%d inputs, %d outputs; unbounded variables summed exactly", r.x.inputs, len(r.states))
	var constant, varies []string
	for _, st := range r.states {
		switch {
		case st.varies:
			varies = append(varies, st.name)
		case st.name != "":
			constant = append(constant, st.name)
		}
	}
	n += tailsNote(constant, "every likelihood ratio is constant on %s")
	if len(varies) > 0 {
		cs := make([]string, len(r.x.p.m.Ratios))
		for i, c := range r.x.p.m.Ratios {
			cs[i] = exact.Short(c)
		}
		why := "the likelihood ratios vary on %s: the tight ε at δ = 0 is exact (through the supremum of the ratios along each), dp and δ at no ε"
		if len(cs) > 0 {
			why = "the likelihood ratios vary on %s, and at e^ε = " + strings.Join(cs, ", ") + " every two inputs compare one way on each: dp and δ at those ε, and the tight ε at δ = 0, are exact"
		}
		n += tailsNote(varies, why)
	}
	return n
}

// tailsNote says that the tails are one output each, and why.
func tailsNote(tails []string, why string) string {
	switch {
	case len(tails) > 4:
		return fmt.Sprintf("; %d tails, %s, …, are one output each (%s)", len(tails), strings.Join(tails[:2], ", "), fmt.Sprintf(why, "them"))
	case len(tails) == 1:
		return fmt.Sprintf("; the tail %s is one output (%s)", tails[0], fmt.Sprintf(why, "it"))
	case len(tails) > 0:
		return fmt.Sprintf("; the tails %s are one output each (%s)", strings.Join(tails, " and "), fmt.Sprintf(why, "them"))
	}
	return ""
}

// frame returns a chain builder with the inputs and the outputs.
func (r *urun[T]) frame() *chain.Builder {
	b := chain.NewBuilder()
	for in := 0; in < r.x.inputs; in++ {
		b.AddState("s"+strconv.Itoa(in), r.valuation(r.x.state(in)))
		b.MarkInput(in)
	}
	for i, st := range r.states {
		name := st.name
		if name == "" {
			name = "s" + strconv.Itoa(r.x.inputs+i)
		}
		b.AddState(name, st.val)
	}
	return b
}

func (r *urun[T]) build(b *chain.Builder) (*chain.Chain, error) {
	c, err := b.BuildContext(r.x.ctx)
	if err != nil {
		if r.x.ctx.Err() != nil {
			return nil, r.x.ctx.Err()
		}
		return nil, source.ErrorList{{Pos: r.x.p.m.Pos, Msg: err.Error()}}
	}
	return c, nil
}

// explore follows every input's runs and fills the outputs and rows; each
// row must sum to exactly 1.
func (r *urun[T]) explore() error {
	x, u := r.x, r.u
	r.ex = &expander[T]{x, r.alg}
	r.outs = map[string]int{}
	n := len(u.vars)
	var finals []final[T]
	r.live = r.liveness()
	for in := 0; in < x.inputs; in++ {
		v := append([]int64(nil), x.state(in)...)
		at := make([]int64, n)
		for j, vi := range u.vars {
			at[j] = v[vi]
			v[vi] = 0
		}
		ends, err := r.run(ucfg[T]{v: v, w: r.s.Point(at, r.alg.one()), by: -1})
		if err != nil {
			return err
		}
		for _, e := range ends {
			finals = append(finals, final[T]{in, e})
		}
	}
	r.rows = make([]map[int]T, x.inputs)
	for i := range r.rows {
		r.rows[i] = map[int]T{}
	}
	if u.observed < 0 {
		for _, f := range finals {
			p, err := r.s.Total(f.cfg.w)
			if err != nil {
				return r.failed(err)
			}
			if err := r.add(f.in, f.cfg.v, nil, "", p); err != nil {
				return err
			}
		}
	} else if err := r.observe(finals); err != nil {
		return err
	}
	for in, row := range r.rows {
		sum := r.alg.Const(new(big.Rat))
		for _, p := range row {
			var err error
			if sum, err = r.alg.Add(sum, p); err != nil {
				return r.failed(err)
			}
		}
		if !r.alg.isOne(sum) {
			return fmt.Errorf("internal error: the outputs of input %s have probability %s in all, not 1", x.describe(x.state(in)), r.alg.Format(sum, "x"))
		}
	}
	return nil
}

// final is where a run of input in ends.
type final[T any] struct {
	in  int
	cfg ucfg[T]
}

// failed turns an error of the sums into the model's, at the model.
func (r *urun[T]) failed(err error) error { return r.failedAt(err, r.x.p.m.Pos) }

// failedAt turns an error of the sums into the model's, at pos.
func (r *urun[T]) failedAt(err error, pos source.Position) error {
	kind := model.LimitKind("")
	if le, ok := err.(*geosum.LimitError); ok {
		kind = model.LimitTransitions
		if le.Bits > 0 {
			kind = model.LimitBits
		}
	}
	if _, ok := err.(*geosum.PowError); ok {
		kind = model.LimitBits
	}
	switch {
	case kind != "":
		return source.ErrorList{{Pos: pos, Msg: err.Error(), Limit: string(kind)}}
	case r.x.ctx.Err() != nil:
		return r.x.ctx.Err()
	}
	if errors.Is(err, geosum.ErrNotGeometric) {
		if d := r.drawAround(); d != nil {
			// The likely cause: a sum of α^z·α^(−z) over a range.
			return source.ErrorList{{Pos: d.noise.Pos, Msg: err.Error() + ": a variable drawn around another one's value and with the same α as that one's noise has terms z·α^z once the other is summed out, outside the class dpcheck decides exactly (give the two draws different α)"}}
		}
	}
	return source.ErrorList{{Pos: pos, Msg: err.Error() + ": the program is outside the class dpcheck decides exactly"}}
}

// drawAround returns the first draw centred on another unbounded
// variable, or nil.
func (r *urun[T]) drawAround() *uassign {
	for _, ups := range r.u.assigns {
		for _, as := range ups {
			for i := range as {
				if as[i].draw && len(as[i].lin.terms) == 1 {
					return &as[i]
				}
			}
		}
	}
	return nil
}

// witness writes a point of region over the unbounded variables it
// constrains: "t=0, v=1".
func (r *urun[T]) witness(region geosum.Oct) string {
	pt := region.Point()
	var parts []string
	for j, vi := range r.u.vars {
		if region.Constrains(j) {
			parts = append(parts, r.x.p.m.Vars[vi].Name+"="+strconv.FormatInt(pt[j], 10))
		}
	}
	return strings.Join(parts, ", ")
}

// describe writes the bounded variables of v: "(a=0, i=1)".
func (r *urun[T]) describe(v []int64) string {
	var parts []string
	for i, y := range v {
		if vr := r.x.p.m.Vars[i]; !vr.Unbounded {
			val := strconv.FormatInt(y, 10)
			if vr.Bool {
				val = strconv.FormatBool(y != 0)
			}
			parts = append(parts, vr.Name+"="+val)
		}
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// run follows one input's runs level by level, merging configurations
// with the same bounded values, and returns the ends.
func (r *urun[T]) run(start ucfg[T]) ([]ucfg[T], error) {
	level := map[string]*ucfg[T]{key(start.v): &start}
	var ends []ucfg[T]
	seen := map[string]bool{}
	for steps := 0; len(level) > 0; steps++ {
		if err := r.x.ctx.Err(); err != nil {
			return nil, err
		}
		for k := range level {
			seen[k] = true
		}
		keys := make([]string, 0, len(level))
		for k := range level {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if steps > len(seen) {
			c := level[keys[0]]
			return nil, source.ErrorList{{Pos: r.x.p.m.Commands[c.by].Pos, Msg: fmt.Sprintf("this command returns a run to %s: with unbounded integers, every run must end after a bounded number of steps, never revisiting the values of its bounded variables", r.describe(c.v))}}
		}
		next := map[string]*ucfg[T]{}
		for _, k := range keys {
			c := level[k]
			end, succ, err := r.step(*c)
			if err != nil {
				return nil, err
			}
			if len(end.w.Pieces) > 0 {
				ends = append(ends, end)
			}
			for _, s := range succ {
				sk := key(s.v)
				if old, ok := next[sk]; ok {
					old.w = geosum.Add(old.w, s.w)
					if old.w, err = r.s.Tidy(old.w); err != nil {
						return nil, r.failed(err)
					}
					continue
				}
				sc := s
				next[sk] = &sc
			}
		}
		for _, c := range next {
			if err := r.forget(r.live, c); err != nil {
				return nil, err
			}
		}
		level = next
	}
	return ends, nil
}

// step applies the command enabled at c: its configurations after the
// command, and the part of c where no command is enabled (the run ends).
func (r *urun[T]) step(c ucfg[T]) (end ucfg[T], next []ucfg[T], err error) {
	x := r.x
	end = ucfg[T]{v: c.v}
	rest := c.w // where no command is enabled yet
	type enabled struct {
		ci int
		w  geosum.Weight[T]
	}
	var on []enabled
	for ci := range x.p.m.Commands {
		cubes, err := r.cubes(ci, r.u.guards[ci], c.v, true)
		if err != nil {
			return end, nil, err
		}
		w := r.restrict(c.w, cubes)
		if len(w.Pieces) == 0 {
			continue
		}
		for _, o := range on {
			both, err := r.cubes(o.ci, r.u.guards[o.ci], c.v, true)
			if err != nil {
				return end, nil, err
			}
			if overlap := r.restrict(w, both); len(overlap.Pieces) > 0 {
				cmds := x.p.m.Commands
				return end, nil, source.ErrorList{{Pos: cmds[ci].Pos, Msg: fmt.Sprintf("two commands are enabled at once at %s, for example when %s: this one and the one at line %d", r.describe(c.v), r.witness(overlap.Pieces[0].Region), cmds[o.ci].Pos.Line)}}
			}
		}
		on = append(on, enabled{ci, w})
		not, err := r.cubes(ci, r.u.guards[ci], c.v, false)
		if err != nil {
			return end, nil, err
		}
		rest = r.restrict(rest, not)
	}
	end.w = rest
	for _, e := range on {
		ns, err := r.command(e.ci, c.v, e.w)
		if err != nil {
			return end, nil, err
		}
		next = append(next, ns...)
	}
	return end, next, nil
}

// command applies command ci at bounded values v to the weight w on which
// it is enabled: each update's bounded branches, and its assignments to
// unbounded variables on the weight.
func (r *urun[T]) command(ci int, v []int64, w geosum.Weight[T]) ([]ucfg[T], error) {
	x := r.x
	c := x.p.m.Commands[ci]
	sum := new(big.Rat)
	fsum := r.alg.Const(new(big.Rat)) // the sum as the field has it
	var out []ucfg[T]
	for ui, up := range x.p.updates[ci] {
		p := big.NewRat(1, 1)
		if up.prob != nil {
			val, err := up.prob(v)
			if err != nil {
				return nil, x.at(ci, v, errEval(err, c.Updates[ui].Pos))
			}
			p = val.Rat()
			if p.Sign() < 0 || p.Cmp(big.NewRat(1, 1)) > 0 {
				return nil, x.at(ci, v, &source.Error{Pos: c.Updates[ui].Pos, Msg: fmt.Sprintf("the probability %s is outside [0, 1]", p.RatString())})
			}
		}
		sum.Add(sum, p)
		if p.Sign() == 0 && x.param == nil {
			continue
		}
		q := r.alg.one()
		if up.prob != nil {
			var err error
			if q, err = r.alg.update(ci, ui, v, p); err != nil {
				return nil, err
			}
		}
		var err error
		if fsum, err = r.alg.Add(fsum, q); err != nil {
			return nil, r.failed(err)
		}
		if r.alg.IsZero(q) {
			continue
		}
		uw := w
		for _, a := range r.u.assigns[ci][ui] {
			var err error
			if uw, err = r.assign(ci, v, uw, a); err != nil {
				return nil, err
			}
		}
		bs, err := r.ex.update(ci, ui, v, q)
		if err != nil {
			return nil, err
		}
		for _, b := range bs {
			bw, err := r.s.Scale(uw, b.p)
			if err != nil {
				return nil, r.failed(err)
			}
			if len(bw.Pieces) > 0 {
				out = append(out, ucfg[T]{v: b.v, w: bw, by: ci})
			}
		}
	}
	if sum.Cmp(big.NewRat(1, 1)) != 0 {
		return nil, x.at(ci, v, &source.Error{Pos: c.Pos, Msg: fmt.Sprintf("the probabilities of the updates sum to %s, not 1%s", sum.RatString(), x.atParam())})
	}
	if !r.alg.isOne(fsum) {
		return nil, x.at(ci, v, &source.Error{Pos: c.Pos, Msg: fmt.Sprintf("the probabilities of the updates sum to %s, not 1", r.alg.Format(fsum, x.param.Name))})
	}
	return out, nil
}

// assign applies an assignment to an unbounded variable.
func (r *urun[T]) assign(ci int, v []int64, w geosum.Weight[T], a uassign) (geosum.Weight[T], error) {
	x := r.x
	integer := func(f cassign, what string) (int64, error) {
		val, err := f.num(v)
		if err != nil {
			return 0, x.at(ci, v, errEval(err, f.pos))
		}
		q := val.Rat()
		if !q.IsInt() || q.Num().CmpAbs(big.NewInt(geosum.MaxConst)) > 0 {
			return 0, x.at(ci, v, &source.Error{Pos: f.pos, Msg: fmt.Sprintf("the %s %s is not an integer within ±2^40", what, q.RatString())})
		}
		return q.Num().Int64(), nil
	}
	var out geosum.Weight[T]
	var err error
	switch {
	case a.draw:
		var c int64
		if a.lin.rest != nil {
			if c, err = integer(cassign{num: a.lin.rest, pos: a.noise.Pos}, "centre"); err != nil {
				return out, err
			}
		}
		centre := geosum.Const(c)
		if len(a.lin.terms) == 1 {
			centre = geosum.Var(a.lin.terms[0].u, a.lin.terms[0].s, c)
		}
		f, e := r.alpha(ci, a, v)
		if e != nil {
			return out, e
		}
		out, err = r.s.GeometricAround(w, a.u, f, centre, a.oneSided)
	default:
		var k int64
		if a.lin.rest != nil {
			if k, err = integer(cassign{num: a.lin.rest, pos: a.pos}, "value"); err != nil {
				return out, err
			}
		}
		switch {
		case len(a.lin.terms) == 0:
			out, err = r.s.Set(w, a.u, geosum.Const(k))
		case a.lin.terms[0].u == a.u:
			out, err = r.s.Shift(w, a.u, a.lin.terms[0].s, k)
		default:
			out, err = r.s.Set(w, a.u, geosum.Var(a.lin.terms[0].u, a.lin.terms[0].s, k))
		}
	}
	if err != nil {
		return out, r.failedAt(err, a.pos)
	}
	return out, nil
}

// unbounded is BuildParam for a model with unbounded variables: the
// rows of its inputs as functions of the parameter.
// constAlpha is the α of the draw a at v, which reads no parameter,
// checked in (0, 1).
func constAlpha(x *explorer, ci int, a uassign, v []int64) (*big.Rat, error) {
	val, err := a.alpha.num(v)
	if err != nil {
		return nil, x.at(ci, v, errEval(err, a.alpha.pos))
	}
	alpha := val.Rat()
	if alpha.Sign() <= 0 || alpha.Cmp(big.NewRat(1, 1)) >= 0 {
		return nil, x.at(ci, v, &source.Error{Pos: a.alpha.pos, Msg: fmt.Sprintf("the α of a geometric draw must be in (0, 1), found %s", alpha.RatString())})
	}
	return alpha, nil
}

func (s *symbolic) unbounded(m *Model) (*ParamChain, error) {
	x := s.x
	u, errs := m.classify(x.p)
	if errs != nil {
		return nil, errs
	}
	if err := x.initial(); err != nil {
		return nil, err
	}
	r := &urun[poly.RatFunc]{x: x, u: u, alg: s, s: geosum.NewSummer[poly.RatFunc](x.ctx, s, maxTerms(x.limits))}
	r.alpha = func(ci int, a uassign, v []int64) (poly.RatFunc, error) {
		e := a.noise.Args[0]
		if !s.mentions(e) {
			alpha, err := constAlpha(x, ci, a, v)
			if err != nil {
				return poly.RatFunc{}, err
			}
			return s.Const(alpha), nil
		}
		f, err := s.rat(e, v)
		if err != nil {
			return f, x.atErr(ci, v, err)
		}
		if err := s.positive(f, true, "the α %s of the draw", a.noise.Pos); err != nil {
			return f, x.atErr(ci, v, err)
		}
		return f, nil
	}
	if err := r.explore(); err != nil {
		return nil, err
	}
	c, err := r.build(r.frame())
	if err != nil {
		return nil, err
	}
	rows := make([][]ParamTrans, c.NumStates())
	for in, row := range r.rows {
		for _, t := range sortedKeys(row) {
			rows[in] = append(rows[in], ParamTrans{To: t, P: row[t]})
		}
	}
	pairs, err := model.AllPairs(c.Inputs(), x.limits.MaxMemory)
	if err != nil {
		return nil, source.ErrorList{{Pos: m.Pos, Msg: err.Error(), Limit: string(model.LimitMemory)}}
	}
	return &ParamChain{Frame: c, Rows: rows, Neighbours: pairs, Note: r.note()}, nil
}
