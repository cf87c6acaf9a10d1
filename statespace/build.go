package statespace

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/mdp"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
)

// MaxInitValuations bounds the valuations tried for the initial states
// (input variables' ranges, or every valuation against Init).
const MaxInitValuations = 10_000_000

// Info describes the model for reports.
func (m *Model) Info() property.ModelInfo {
	return property.ModelInfo{Kind: "modules", Name: m.Name, Call: m.Name}
}

// newExplorer compiles the model and returns an explorer of it within l
// (its zero fields the defaults).
func (m *Model) newExplorer(ctx context.Context, l model.Limits) (*explorer, error) {
	p, errs := m.compile()
	if errs != nil {
		return nil, errs
	}
	l = l.WithDefaults()
	return &explorer{p: p, nv: len(m.Vars), table: make([]int32, 1024), start: []int{0}, one: big.NewRat(1, 1), limits: l, ctx: ctx, rats: map[string]*big.Rat{}, small: map[[2]uint64]*big.Rat{}, noise: map[string][]outcome[*big.Rat]{}, geo: map[string]*geoTable[*big.Rat]{}, shared: map[*big.Rat]bool{}}, nil
}

// run explores from the initial states with the rationals and returns
// the chain (an MDP's frame).
func (x *explorer) run() (*chain.Chain, error) {
	row := x.successors
	if x.p.m.MDP {
		row = x.mdpRow
	}
	if x.newRewards(); x.rew != nil {
		base := row
		row = func(cs []choice[*big.Rat]) error {
			if err := x.rewardRow(cs); err != nil {
				return err
			}
			return base(cs)
		}
	}
	return (&expander[*big.Rat]{x, rats{x: x}}).run(row)
}

// run explores from the initial states, row making the row of every state
// explored from its choices, and returns the chain.
func (x *expander[T]) run(row func([]choice[T]) error) (*chain.Chain, error) {
	if err := x.initial(); err != nil {
		return nil, err
	}
	if err := x.explore(row); err != nil {
		return nil, err
	}
	return x.chain()
}

// Build explores the model within the limits on states and transitions.
// Errors about the model are a source.ErrorList; Build stops with ctx's
// error when ctx ends.
func (m *Model) Build(ctx context.Context, l model.Limits) (*model.Mechanism, error) {
	if m.HasUnbounded() {
		if len(m.Rewards) > 0 {
			return nil, source.ErrorList{{Pos: m.Rewards[0].Pos, Msg: "reward structures are not supported with unbounded integers"}}
		}
		return m.buildUnbounded(ctx, l)
	}
	x, err := m.newExplorer(ctx, l)
	if err != nil {
		return nil, err
	}
	c, err := x.run()
	if err != nil {
		return nil, err
	}
	note := fmt.Sprintf("%d states explored from %d inputs", c.NumStates(), len(c.Inputs()))
	var md *mdp.MDP
	if m.MDP {
		if md, err = x.buildMDP(c); err != nil {
			return nil, err
		}
		nc, nt := md.NumChoices(), md.NumTransitions()
		note = fmt.Sprintf("an MDP: %d states, %d choices, %d transitions, explored from %d inputs", c.NumStates(), nc, nt, len(c.Inputs()))
	}
	if x.deadlocks > 0 {
		note += fmt.Sprintf("; %d deadlock states got a self-loop, as PRISM does", x.deadlocks)
	}
	// Every two inputs are neighbours: PRISM's dpCTL convention, and a
	// default that a neighbours statement replaces.
	mech := &model.Mechanism{Chain: c, MDP: md, AllPairs: true, Note: note}
	if x.rew != nil {
		mech.Rewards = x.rew.out
	}
	return mech, nil
}

// slots maps the model's variables to their slots.
type slots struct{ m *Model }

func (s slots) Slot(name string) (int, bool, bool) {
	for i, v := range s.m.Vars {
		if v.Name == name {
			return i, v.Bool, true
		}
	}
	return 0, false, false
}

// noSlots is for constant expressions.
type noSlots struct{}

func (noSlots) Slot(string) (int, bool, bool) { return 0, false, false }

// compiled is the model with its expressions compiled.
type compiled struct {
	m        *Model
	init     []int64
	guards   []expr.ValCond
	updates  [][]cupdate
	labels   []expr.ValCond
	where    expr.ValCond
	initCond expr.ValCond
	// actions lists, for each action, the modules that have it.
	actions map[string][]int
	// index is each command's 1-based index within its module; writes
	// lists the variables each command assigns.
	index  []int
	writes [][]int
	// rewards are the reward structures' items (reward.go).
	rewards [][]crewItem
}

type cupdate struct {
	prob    expr.ValNum // nil: 1
	assigns []cassign
}

type cassign struct {
	v     int
	num   expr.ValNum
	cond  expr.ValCond
	noise *cnoise
	pos   source.Position
}

type cnoise struct {
	src  *Noise
	kind NoiseKind
	args []expr.ValNum
	pos  source.Position
}

// initReads rewrites the errors ce of v's initial value where it names
// another variable: an initial value is a constant.
func (m *Model) initReads(v Var, ce source.ErrorList) source.ErrorList {
	for i, e := range ce {
		name, ok := strings.CutPrefix(e.Msg, "unknown variable ")
		if !ok || !slices.ContainsFunc(m.Vars, func(w Var) bool { return w.Name == name }) {
			continue
		}
		c := *e
		c.Msg = fmt.Sprintf("the initial value of %s reads the variable %s: an initial value is a constant expression", v.Name, name)
		ce[i] = &c
	}
	return ce
}

func (m *Model) compile() (*compiled, source.ErrorList) {
	var errs source.ErrorList
	add := func(e source.ErrorList) { errs = append(errs, e...) }
	sl := slots{m}
	p := &compiled{m: m, actions: map[string][]int{}}
	perModule := map[int]int{}
	for _, v := range m.Vars {
		x := v.Lo
		if v.Init != nil {
			var f expr.ValNum
			var ce source.ErrorList
			if v.Bool {
				var c expr.ValCond
				if c, ce = expr.CompileCondition(v.Init, noSlots{}); ce == nil {
					b, err := c(nil)
					if err != nil {
						ce = source.ErrorList{errEval(err, v.Init.Pos)}
					}
					x = b2i(b)
				}
			} else if f, ce = expr.CompileNumber(v.Init, noSlots{}); ce == nil {
				val, err := f(nil)
				i, isInt := val.Int()
				switch {
				case err != nil:
					ce = source.ErrorList{errEval(err, v.Init.Pos)}
				case !isInt && val.Rat().IsInt() && v.Unbounded:
					ce = source.ErrorList{{Pos: v.Init.Pos, Msg: fmt.Sprintf("the initial value %s of %s is beyond ±2^40", val, v.Name)}}
				case !isInt && val.Rat().IsInt():
					ce = source.ErrorList{{Pos: v.Init.Pos, Msg: fmt.Sprintf("the initial value %s of %s is outside its range [%d..%d]", val, v.Name, v.Lo, v.Hi)}}
				case !isInt:
					ce = source.ErrorList{{Pos: v.Init.Pos, Msg: fmt.Sprintf("the initial value of %s is %s, not an integer", v.Name, val)}}
				}
				x = i
			}
			add(m.initReads(v, ce))
			if ce == nil && !v.Unbounded && (x < v.Lo || x > v.Hi) {
				errs = append(errs, &source.Error{Pos: v.Init.Pos, Msg: fmt.Sprintf("the initial value %d of %s is outside its range [%d..%d]", x, v.Name, v.Lo, v.Hi)})
			}
		}
		if v.Lo > v.Hi {
			errs = append(errs, &source.Error{Pos: v.Pos, Msg: fmt.Sprintf("the range [%d..%d] of %s is empty", v.Lo, v.Hi, v.Name)})
		}
		p.init = append(p.init, x)
	}
	for _, c := range m.Commands {
		g, ce := expr.CompileCondition(c.Guard, sl)
		add(ce)
		p.guards = append(p.guards, g)
		var us []cupdate
		for _, u := range c.Updates {
			var cu cupdate
			if u.Prob != nil {
				cu.prob, ce = expr.CompileNumber(u.Prob, sl)
				add(ce)
			}
			for _, a := range u.Assigns {
				ca := cassign{v: a.Var, pos: a.Pos}
				v := m.Vars[a.Var]
				switch {
				case a.Noise != nil:
					cn := &cnoise{src: a.Noise, kind: a.Noise.Kind, pos: a.Noise.Pos}
					for _, arg := range a.Noise.Args {
						f, ce := expr.CompileNumber(arg, sl)
						add(ce)
						cn.args = append(cn.args, f)
					}
					ca.noise = cn
					if v.Bool && a.Noise.Kind != Bernoulli {
						errs = append(errs, &source.Error{Pos: a.Pos, Msg: fmt.Sprintf("%s is a boolean: only bernoulli(p) can draw it", v.Name)})
					}
				case v.Bool:
					ca.cond, ce = expr.CompileCondition(a.Value, sl)
					add(ce)
				default:
					ca.num, ce = expr.CompileNumber(a.Value, sl)
					add(ce)
				}
				cu.assigns = append(cu.assigns, ca)
			}
			us = append(us, cu)
		}
		p.updates = append(p.updates, us)
		if c.Action != "" && !slices.Contains(p.actions[c.Action], c.Module) {
			p.actions[c.Action] = append(p.actions[c.Action], c.Module)
		}
		perModule[c.Module]++
		if c.Number > 0 {
			perModule[c.Module] = c.Number
		}
		p.index = append(p.index, perModule[c.Module])
		if m.MDP && m.Semantics == DP && c.Action == "" {
			errs = append(errs, &source.Error{Pos: c.Pos, Msg: "a command of an mdp module names its action, the choice it is: write [a] guard -> …"})
		}
	}
	for _, mods := range p.actions {
		sort.Ints(mods) // synchronised commands combine module by module
	}
	for ci := range m.Commands {
		p.writes = append(p.writes, p.writesOf(ci))
	}
	for _, lb := range m.Labels {
		f, ce := expr.CompileCondition(lb.Cond, sl)
		add(ce)
		p.labels = append(p.labels, f)
	}
	if m.InputsWhere != nil {
		var ce source.ErrorList
		p.where, ce = expr.CompileCondition(m.InputsWhere, sl)
		add(ce)
	}
	if m.Init != nil {
		var ce source.ErrorList
		p.initCond, ce = expr.CompileCondition(m.Init, sl)
		add(ce)
	}
	var ce source.ErrorList
	p.rewards, ce = m.compileRewards(sl)
	add(ce)
	if errs != nil {
		errs.Sort()
		return nil, errs.Dedup()
	}
	return p, nil
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// errEval positions an error of evaluating an expression.
func errEval(err error, at source.Position) *source.Error {
	var ee *expr.EvalError
	if errors.As(err, &ee) {
		return &source.Error{Pos: ee.Pos, Msg: ee.Msg}
	}
	return &source.Error{Pos: at, Msg: err.Error()}
}

type explorer struct {
	p    *compiled
	nv   int
	n    int     // the states found
	vals []int64 // state i's valuation is vals[i*nv : (i+1)*nv]
	// table indexes the states by their valuation: open addressing, a
	// slot holding a state's number plus one (0: empty), at most half
	// full.
	table []int32
	// The rows of a Markov chain's states, in the order they are
	// explored: state s's successors are succs[start[s]:start[s+1]].
	start  []int
	succs  []succ[*big.Rat]
	inputs int
	limits model.Limits
	ctx    context.Context
	// trans counts the transitions of the states explored (at least one
	// each), nchoices the choices of an MDP's.
	trans, nchoices int
	// extra counts the bytes held besides states, transitions and
	// choices: cached distributions, shared probabilities, geometric
	// tables (memory.go); pending those of the outcomes of the state
	// being explored, while it is.
	extra, pending int64
	// rats shares equal probabilities, small holds those whose numerator
	// and denominator fit in a word (and products of them, while
	// smallProducts is below maxSmallProducts); noise caches
	// distributions.
	rats          map[string]*big.Rat
	small         map[[2]uint64]*big.Rat
	smallProducts int
	noise         map[string][]outcome[*big.Rat]
	// geo holds the geometric tables by α; shared marks the probabilities
	// already shared (those of the cached distributions).
	geo    map[string]*geoTable[*big.Rat]
	shared map[*big.Rat]bool
	// bits counts the bits of the geometric tables against Limits.MaxBits.
	bits      int64
	deadlocks int
	// paramDeadlock reports, in a parametric exploration, whether state
	// s had no enabled command (its row is kept by the symbolic algebra).
	paramDeadlock func(s int) bool
	scratch       []int64
	// mdp holds the choices of every state explored (an MDP's).
	mdp [][]mchoice
	// rew holds the reward structures' values (reward.go), nil without.
	rew *rewardsOf
	// param is BuildParam's parameter (param.go), nil in Build.
	param *Param
	// one is the probability 1 (shared, never modified); acc sums the
	// probabilities of a command's updates.
	one *big.Rat
	acc chain.Accumulator
}

func (x *explorer) state(i int) []int64 { return x.vals[i*x.nv : (i+1)*x.nv] }

func hash(v []int64) uint64 {
	h := uint64(14695981039346656037)
	for _, x := range v {
		h ^= uint64(x)
		h *= 1099511628211
		h ^= h >> 29
	}
	return h ^ h>>32
}

// find returns the state of valuation v, adding it when new, within the
// limits on states and memory.
func (x *explorer) find(v []int64) (int, bool, error) {
	mask := len(x.table) - 1
	i := int(hash(v)) & mask
	for ; x.table[i] != 0; i = (i + 1) & mask {
		if s := int(x.table[i]) - 1; slices.Equal(x.state(s), v) {
			return s, false, nil
		}
	}
	n := x.n
	if n >= x.limits.MaxStates || n >= math.MaxInt32-1 {
		return 0, false, x.limitError(model.LimitStates, fmt.Sprintf("the model has more than %s reachable states; the limit is %s states", exact.Thousands(int64(x.limits.MaxStates)), exact.Thousands(int64(x.limits.MaxStates))))
	}
	if err := x.memoryFor(x.stateBytes()); err != nil {
		return 0, false, err
	}
	x.vals = append(x.vals, v...)
	x.n++
	x.table[i] = int32(n + 1)
	if 2*x.n > len(x.table) {
		x.rehash()
	}
	return n, true, nil
}

// rehash doubles the index.
func (x *explorer) rehash() {
	t := make([]int32, 2*len(x.table))
	mask := len(t) - 1
	for s := range x.n {
		i := int(hash(x.state(s))) & mask
		for t[i] != 0 {
			i = (i + 1) & mask
		}
		t[i] = int32(s + 1)
	}
	x.table = t
}

// The built-in labels of PRISM's semantics, in chain.
const (
	labelInit     = -1
	labelDeadlock = -2
)

// maxDescribe bounds the text of a state in messages.
const maxDescribe = 2000

func (x *explorer) limitError(kind model.LimitKind, msg string) error {
	return source.ErrorList{{Pos: x.p.m.Pos, Msg: msg, Limit: string(kind)}}
}

// describe writes a state's valuation: "(d=1, t=2)", cut after about
// maxDescribe bytes.
func (x *explorer) describe(v []int64) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, val := range v {
		if i > 0 {
			b.WriteString(", ")
		}
		if b.Len() > maxDescribe {
			fmt.Fprintf(&b, "… %d variables in all", len(v))
			break
		}
		b.WriteString(x.p.m.Vars[i].Name)
		b.WriteByte('=')
		if x.p.m.Vars[i].Bool {
			b.WriteString(strconv.FormatBool(val != 0))
		} else {
			b.WriteString(strconv.FormatInt(val, 10))
		}
	}
	b.WriteByte(')')
	return b.String()
}

// initial adds the initial states.
func (x *explorer) initial() error {
	m := x.p.m
	var free []int // the variables the initial states range over
	for i, v := range m.Vars {
		if v.Input || m.Init != nil {
			free = append(free, i)
		}
	}
	filtered := m.InputsWhere != nil || m.Init != nil
	lo, hi := m.initialBox(m.InputsWhere, m.Init)
	total := int64(1)
	for _, i := range free {
		if lo[i] > hi[i] {
			total = 0 // no value of the variable satisfies the conditions
			break
		}
		// total <= MaxInitValuations here, so the product cannot overflow
		// once the range is known to be below the bound.
		size := uint64(hi[i]-lo[i]) + 1
		if size > MaxInitValuations {
			total = MaxInitValuations + 1
		} else {
			total *= int64(size)
		}
		switch {
		case !filtered && total > int64(x.limits.MaxStates):
			// every valuation is an initial state
			return x.limitError(model.LimitStates, fmt.Sprintf("the input variables have more than %s valuations, each an initial state; the limit is %s states", exact.Thousands(int64(x.limits.MaxStates)), exact.Thousands(int64(x.limits.MaxStates))))
		case total > MaxInitValuations:
			return source.ErrorList{{Pos: m.Pos, Msg: fmt.Sprintf("the initial states would be chosen among more than %s valuations, the most dpcheck tries: narrow the variables' ranges", exact.Thousands(MaxInitValuations))}}
		}
	}
	v := append([]int64(nil), x.p.init...)
	for _, i := range free {
		v[i] = lo[i]
	}
	for n := int64(0); n < total; n++ {
		if n%4096 == 0 && x.ctx.Err() != nil {
			return x.ctx.Err()
		}
		ok := true
		for _, f := range []expr.ValCond{x.p.where, x.p.initCond} {
			if f == nil || !ok {
				continue
			}
			b, err := f(v)
			if err != nil {
				e := errEval(err, m.Pos)
				e.Msg += " (at " + x.describe(v) + ")"
				return source.ErrorList{e}
			}
			ok = b
		}
		if ok {
			if _, _, err := x.find(v); err != nil {
				return err
			}
		}
		// the next valuation, the last free variable fastest
		for j := len(free) - 1; j >= 0; j-- {
			i := free[j]
			if v[i] < hi[i] {
				v[i]++
				break
			}
			v[i] = lo[i]
		}
	}
	x.inputs = x.n
	if x.inputs == 0 {
		at := m.Pos
		if m.InputsWhere != nil {
			at = m.InputsWhere.Pos
		} else if m.Init != nil {
			at = m.InitPos
		}
		return source.ErrorList{{Pos: at, Msg: "no state satisfies the conditions on the initial states"}}
	}
	return nil
}

// explore visits every reachable state, breadth-first, making each one's
// row from its choices.
func (x *expander[T]) explore(row func([]choice[T]) error) error {
	for s := 0; s < x.n; s++ {
		if s%16 == 0 && x.ctx.Err() != nil {
			return x.ctx.Err()
		}
		x.pending = 0
		cs, err := x.choices(s)
		if err != nil {
			return err
		}
		if err := row(cs); err != nil {
			return err
		}
		if x.trans > x.limits.MaxTransitions {
			return x.transitionsError()
		}
		x.pending = 0
		if err := x.memoryFor(0); err != nil {
			return err
		}
	}
	return nil
}

// choices returns the choices of state s under the model's semantics,
// every enabled command's updates expanded. A state with no choice is
// absorbing (under PRISM's semantics, a deadlock, counted).
func (x *expander[T]) choices(s int) ([]choice[T], error) {
	m := x.p.m
	cur := append([]int64(nil), x.state(s)...)
	var enabled []int
	for ci, g := range x.p.guards {
		if ci%1024 == 1023 && x.ctx.Err() != nil {
			return nil, x.ctx.Err()
		}
		b, err := g(cur)
		if err != nil {
			return nil, x.at(ci, cur, errEval(err, m.Commands[ci].Pos))
		}
		if b {
			enabled = append(enabled, ci)
		}
	}
	var choices []choice[T]
	switch {
	case m.Semantics == DP && m.MDP:
		first := map[string]int{}
		for _, ci := range enabled {
			c := m.Commands[ci]
			if prev, dup := first[c.Action]; dup {
				return nil, source.ErrorList{{Pos: c.Pos, Msg: fmt.Sprintf("this command and the one at line %d are both enabled at %s with action [%s]: a state of an MDP has at most one choice per action (make the guards exclusive, or name different actions)", m.Commands[prev].Pos.Line, x.describe(cur), c.Action)}}
			}
			first[c.Action] = ci
			bs, err := x.command(ci, cur)
			if err != nil {
				return nil, err
			}
			choices = append(choices, choice[T]{action: c.Action, cmds: []int{ci}, bs: bs})
		}
	case m.Semantics == DP:
		if len(enabled) > 1 {
			a, b := m.Commands[enabled[0]], m.Commands[enabled[1]]
			return nil, source.ErrorList{{Pos: b.Pos, Msg: fmt.Sprintf("this command and the one at line %d are both enabled at %s: a mechanism must not choose between commands (make the guards exclusive)", a.Pos.Line, x.describe(cur))}}
		}
		if len(enabled) == 1 {
			bs, err := x.command(enabled[0], cur)
			if err != nil {
				return nil, err
			}
			choices = append(choices, choice[T]{cmds: enabled, bs: bs})
		}
	case m.Semantics == PRISM:
		var err error
		if choices, err = x.prismChoices(enabled, cur); err != nil {
			return nil, err
		}
	}
	if len(choices) == 0 && m.Semantics == PRISM {
		x.deadlocks++
	}
	return choices, nil
}

// successors appends the row of a state of a Markov chain to x.succs, a
// uniform choice among its choices (none: absorbing, the chain gives it
// a self-loop).
func (x *explorer) successors(choices []choice[*big.Rat]) error {
	var share *big.Rat
	var shared map[*big.Rat]*big.Rat // p·share by p (probabilities are shared)
	if len(choices) > 1 {
		share = big.NewRat(1, int64(len(choices)))
		shared = map[*big.Rat]*big.Rat{}
	}
	n := 0
	for i, c := range choices {
		if i%1024 == 1023 && x.ctx.Err() != nil {
			return x.ctx.Err()
		}
		for _, b := range c.bs {
			t, _, err := x.find(b.v)
			if err != nil {
				return err
			}
			p := b.p
			if share != nil {
				q, ok := shared[p]
				if !ok {
					q = x.share(exact.Mul(p, share))
					shared[p] = q
				}
				p = q
			} else {
				p = x.share(p)
			}
			x.succs = append(x.succs, succ[*big.Rat]{to: int32(t), p: p})
			n++
		}
	}
	x.start = append(x.start, len(x.succs))
	x.trans += max(1, n)
	return nil
}

// at adds the state and command to an error.
func (x *explorer) at(ci int, v []int64, e *source.Error) error {
	e.Msg += fmt.Sprintf(" (command at line %d, at %s)", x.p.m.Commands[ci].Pos.Line, x.describe(v))
	return source.ErrorList{e}
}

// keepSmall records p as the shared value of the word-sized rational
// k = (numerator, denominator), counting its bytes, and returns it.
func (x *explorer) keepSmall(k [2]uint64, p *big.Rat) *big.Rat {
	x.small[k] = p
	x.extra += ratBytes(p) + 48
	return p
}

// share returns one *big.Rat per distinct probability.
func (x *explorer) share(p *big.Rat) *big.Rat {
	if x.shared[p] || p.IsInt() || exact.Bits(p) > 256 {
		return p
	}
	if n, d := p.Num(), p.Denom(); n.Sign() > 0 && n.IsUint64() && d.IsUint64() {
		k := [2]uint64{n.Uint64(), d.Uint64()}
		if q, ok := x.small[k]; ok {
			return q
		}
		return x.keepSmall(k, p)
	}
	k := p.RatString()
	if q, ok := x.rats[k]; ok {
		return q
	}
	x.rats[k] = p
	x.extra += ratBytes(p) + int64(len(k)) + 48
	return p
}

// prismChoices are the choices of PRISM's DTMC semantics at cur.
func (x *expander[T]) prismChoices(enabled []int, cur []int64) ([]choice[T], error) {
	m := x.p.m
	var choices []choice[T]
	var byAction map[string]map[int][]int // action → module → enabled commands
	var expanded map[int][]branch[T]      // the branches of the synchronised commands
	for _, ci := range enabled {
		c := m.Commands[ci]
		if c.Action == "" {
			bs, err := x.command(ci, cur)
			if err != nil {
				return nil, err
			}
			choices = append(choices, choice[T]{cmds: []int{ci}, bs: bs})
			continue
		}
		if byAction == nil {
			byAction, expanded = map[string]map[int][]int{}, map[int][]branch[T]{}
		}
		if byAction[c.Action] == nil {
			byAction[c.Action] = map[int][]int{}
		}
		byAction[c.Action][c.Module] = append(byAction[c.Action][c.Module], ci)
	}
	actions := make([]string, 0, len(byAction))
	for a := range byAction {
		actions = append(actions, a)
	}
	sort.Strings(actions)
	for _, a := range actions {
		mods := x.p.actions[a]
		ready := true
		for _, mod := range mods {
			if len(byAction[a][mod]) == 0 {
				ready = false // a module with the action blocks it
			}
		}
		if !ready {
			continue
		}
		// Every combination of one enabled command per module, counted
		// (with their outcomes) before they are enumerated.
		combos, outcomes := 1.0, 1.0
		for _, mod := range mods {
			cmds := byAction[a][mod]
			n := 0
			for _, ci := range cmds {
				bs, err := x.commandOnce(ci, cur, expanded)
				if err != nil {
					return nil, err
				}
				n += len(bs)
			}
			combos *= float64(len(cmds))
			outcomes *= float64(n)
		}
		what := fmt.Sprintf("the commands synchronised on [%s] have %%s outcomes (%s combinations of one enabled command per module)", a, thousands(combos))
		if err := x.outcomesFit(outcomes, combos*float64(64+8*len(mods)), byAction[a][mods[0]][0], cur, what); err != nil {
			return nil, err
		}
		x.reserve(int(outcomes), combos*float64(64+8*len(mods)))
		pick := make([]int, len(mods)) // the combination, as an index per module
		for n := 0; ; n++ {
			if n%1024 == 1023 && x.ctx.Err() != nil {
				return nil, x.ctx.Err()
			}
			cmb := make([]int, len(mods))
			for i, mod := range mods {
				cmb[i] = byAction[a][mod][pick[i]]
			}
			bs, err := x.synchronise(cmb, cur, expanded)
			if err != nil {
				return nil, err
			}
			choices = append(choices, choice[T]{action: a, cmds: cmb, bs: bs})
			if !nextPick(pick, func(i int) int { return len(byAction[a][mods[i]]) }) {
				break
			}
		}
	}
	return choices, nil
}

// commandOnce is command, computed once per state: expanded holds the
// branches of the commands expanded at cur.
func (x *expander[T]) commandOnce(ci int, cur []int64, expanded map[int][]branch[T]) ([]branch[T], error) {
	if bs, ok := expanded[ci]; ok {
		return bs, nil
	}
	bs, err := x.command(ci, cur)
	if err != nil {
		return nil, err
	}
	expanded[ci] = bs
	return bs, nil
}

// synchronise combines commands of different modules on one action: the
// product of their distributions, each branch applying every command's
// assignments to the variables it writes (counted by the caller before
// it is enumerated).
func (x *expander[T]) synchronise(cmds []int, cur []int64, expanded map[int][]branch[T]) ([]branch[T], error) {
	parts := make([][]branch[T], len(cmds))
	n := int64(1)
	for i, ci := range cmds {
		bs, err := x.commandOnce(ci, cur, expanded)
		if err != nil {
			return nil, err
		}
		parts[i] = bs
		if n *= int64(len(bs)); n > int64(x.limits.MaxTransitions) || n == 0 {
			if err := x.fits(n, ci, cur); err != nil || n == 0 {
				return nil, err
			}
		}
	}
	out := make([]branch[T], 0, n)
	pick := make([]int, len(cmds)) // a branch of each command
	// prefix[i] is the product of the probabilities of the branches picked
	// at places before i, valid up to place from: the last place moves
	// fastest, so a combination costs about one product, not one per
	// command.
	prefix := make([]T, len(cmds)+1)
	prefix[0] = x.alg.one()
	from := 0
	for {
		for i := from; i < len(cmds); i++ {
			p, bp := prefix[i], parts[i][pick[i]].p
			switch {
			case x.alg.isOne(bp):
			case x.alg.isOne(p):
				p = bp
			default:
				var err error
				if p, err = x.alg.Mul(p, bp); err != nil {
					return nil, x.algebra(cmds[i], err)
				}
			}
			prefix[i+1] = p
		}
		v := append([]int64(nil), cur...)
		for i, ci := range cmds {
			b := parts[i][pick[i]]
			for _, w := range x.p.writes[ci] {
				v[w] = b.v[w]
			}
		}
		out = append(out, branch[T]{v: v, p: prefix[len(cmds)]})
		if from = movePick(pick, func(i int) int { return len(parts[i]) }); from < 0 {
			return out, nil
		}
	}
}

// nextPick moves pick, an index below size(i) at each place i, to the
// next combination, the last place fastest; it reports false after the
// last.
func nextPick(pick []int, size func(i int) int) bool {
	return movePick(pick, size) >= 0
}

// movePick is nextPick returning the first place that changed, or -1
// after the last combination.
func movePick(pick []int, size func(i int) int) int {
	for i := len(pick) - 1; i >= 0; i-- {
		if pick[i]++; pick[i] < size(i) {
			return i
		}
		pick[i] = 0
	}
	return -1
}

func (x *explorer) transitionsError() error {
	max := exact.Thousands(int64(x.limits.MaxTransitions))
	return x.limitError(model.LimitTransitions, fmt.Sprintf("the model has more than %s transitions; the limit is %s transitions", max, max))
}

// writes lists the variables command ci assigns.
func (p *compiled) writesOf(ci int) []int {
	var out []int
	for _, u := range p.updates[ci] {
		for _, a := range u.assigns {
			if !slices.Contains(out, a.v) {
				out = append(out, a.v)
			}
		}
	}
	return out
}

// chain builds the explored chain: every state's valuation cut from one
// array, every row from two, each row sorted by target (so that the
// chain's builder keeps it in place), the explorer's rows released as
// they are copied. Labels are counted against the memory limit as they
// are evaluated.
func (x *explorer) chain() (*chain.Chain, error) {
	m := x.p.m
	b := chain.NewBuilder()
	for _, l := range m.Labels {
		b.DeclareLabel(l.Name) // a label that holds nowhere is still the model's
	}
	n := x.n
	b.Grow(n)
	vars := make([]chain.Var, n*x.nv)
	dtmc := !m.MDP && x.param == nil
	var to []int
	var ps []*big.Rat
	if dtmc {
		to, ps = make([]int, len(x.succs)), make([]*big.Rat, len(x.succs))
	}
	// The labels in the order of their names, so that every state's
	// are sorted as the chain keeps them.
	type label struct {
		name string
		li   int // the label's index, or labelInit, labelDeadlock
	}
	order := make([]label, 0, len(m.Labels)+2)
	for li, l := range m.Labels {
		order = append(order, label{l.Name, li})
	}
	if m.Semantics == PRISM {
		order = append(order, label{"init", labelInit}, label{"deadlock", labelDeadlock})
	}
	slices.SortStableFunc(order, func(a, b label) int { return strings.Compare(a.name, b.name) })
	var labelBytes int64
	var scratch []string
	for s := range n {
		if s%256 == 0 && x.ctx.Err() != nil {
			return nil, x.ctx.Err()
		}
		if err := x.memoryFor(labelBytes); err != nil {
			return nil, err
		}
		v := x.state(s)
		val := chain.Valuation(vars[s*x.nv : (s+1)*x.nv : (s+1)*x.nv])
		for i, y := range v {
			val[i] = chain.Var{Name: m.Vars[i].Name, Value: y}
		}
		labels := scratch[:0]
		for i, l := range order {
			if i%1024 == 1023 && x.ctx.Err() != nil {
				return nil, x.ctx.Err()
			}
			var ok bool
			switch l.li {
			case labelInit:
				ok = s < x.inputs
			case labelDeadlock:
				ok = dtmc && x.start[s] == x.start[s+1] || m.MDP && len(x.mdp[s]) == 0 || x.paramDeadlock != nil && x.paramDeadlock(s)
			default:
				var err error
				if ok, err = x.p.labels[l.li](v); err != nil {
					e := errEval(err, m.Labels[l.li].Pos)
					e.Msg += fmt.Sprintf(" (label %q, at %s)", m.Labels[l.li].Name, x.describe(v))
					return nil, source.ErrorList{e}
				}
			}
			if ok {
				labels = append(labels, l.name)
			}
		}
		scratch = labels
		labels = slices.Clone(labels) // exactly its size
		labelBytes += int64(len(labels)) * labelBytes1
		b.AddStateOwned("s"+strconv.Itoa(s), val, labels)
		if s < x.inputs {
			b.MarkInput(s)
		}
	}
	if dtmc {
		for s := range n {
			lo, hi := x.start[s], x.start[s+1]
			row := x.succs[lo:hi]
			slices.SortStableFunc(row, func(a, b succ[*big.Rat]) int { return cmp.Compare(a.to, b.to) })
			for i, t := range row {
				to[lo+i], ps[lo+i] = int(t.to), t.p
			}
			if hi > lo {
				b.AddRow(s, to[lo:hi:hi], ps[lo:hi:hi])
			}
		}
		x.succs, x.start = nil, nil
	}
	c, err := b.BuildContext(x.ctx)
	if err := x.ctx.Err(); err != nil {
		return nil, err
	}
	if err != nil {
		return nil, source.ErrorList{{Pos: m.Pos, Msg: err.Error()}}
	}
	return c, nil
}
