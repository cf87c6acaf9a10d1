package spec

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strings"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/verify"
)

// Limits on what a spec may ask for.
const (
	// MaxPredicateInputs bounds the inputs a neighbour predicate is
	// evaluated over (every pair is tried).
	MaxPredicateInputs = 20000
)

// Options control what a spec may build.
type Options struct {
	// Limits bound the models builders create (builder.DefaultLimits when
	// zero).
	Limits builder.Limits
}

func (o Options) limits() builder.Limits { return o.Limits.WithDefaults() }

// Load parses and checks a .dp file with the default options.
func Load(ctx context.Context, filename, src string) (*Program, error) {
	return Options{}.Load(ctx, filename, src)
}

// Load parses and checks a .dp file. It stops with ctx's error when ctx
// ends.
func (o Options) Load(ctx context.Context, filename, src string) (*Program, error) {
	f, err := Parse(filename, src)
	if err != nil {
		return nil, err
	}
	return o.Check(ctx, f)
}

// Check turns a parsed file into a Program with the default options.
func Check(ctx context.Context, f *File) (*Program, error) { return Options{}.Check(ctx, f) }

// Check turns a parsed file into a Program, reporting every semantic error
// at once as an ErrorList sorted by position. It stops with ctx's error
// when ctx ends.
func (o Options) Check(ctx context.Context, f *File) (*Program, error) {
	c := &checker{ctx: ctx, f: f, file: f.Name, src: f.Src, consts: map[string]*constEntry{}, limits: o.limits()}
	p := c.check(f)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c.errs.Sort()
	if len(c.errs) > 0 {
		return nil, c.errs
	}
	return p, nil
}

type constEntry struct {
	decl  *ConstStmt
	state int // 0 unvisited, 1 in progress, 2 done
	val   value
	ok    bool
}

type checker struct {
	ctx       context.Context
	f         *File
	file, src string
	errs      ErrorList
	consts    map[string]*constEntry
	stack     []string       // constants being evaluated, for cycle messages
	states    map[string]int // declared states and where
	inputList []string       // inputs named in an explicit chain's inputs statement
	limits    builder.Limits
	// bits counts the bits of the numbers kept (constants, probabilities).
	bits         int64
	bitsExceeded bool
}

func (c *checker) errorf(off int, format string, args ...any) {
	c.errs = append(c.errs, &Error{Pos: c.position(off), Msg: fmt.Sprintf(format, args...)})
}

// limitf reports that the file exceeds the resource limit named limit
// (builder.LimitStates, …).
func (c *checker) limitf(off int, limit builder.LimitKind, format string, args ...any) {
	c.errorf(off, format, args...)
	c.errs[len(c.errs)-1].Limit = string(limit)
}

// retain counts the bits of a number the program keeps (a constant, a
// probability) against the bits limit; false once the limit is exceeded.
func (c *checker) retain(off int, x *big.Rat) bool {
	if c.bitsExceeded {
		return false
	}
	c.bits += int64(ratBits(x))
	if c.bits > c.limits.MaxBits {
		c.bitsExceeded = true
		c.limitf(off, builder.LimitBits, "the numbers of this file need more than %s bits in all; the limit is %s bits", thousands(c.limits.MaxBits), thousands(c.limits.MaxBits))
		return false
	}
	return true
}

// position returns the position of a byte offset of the file.
func (c *checker) position(off int) Position { return c.f.Position(off) }

func isKeyword(name string) bool { return slices.Contains(keywords, name) }

func (c *checker) lookupConst(name string) (*constEntry, bool) {
	e, ok := c.consts[name]
	return e, ok
}

// constant evaluates the constant name (used at offset off), detecting
// cycles.
func (c *checker) constant(off int, name string) (value, bool) {
	e, ok := c.consts[name]
	if !ok {
		c.errorf(off, "unknown name %s", name)
		return value{}, false
	}
	switch e.state {
	case 1:
		i := slices.Index(c.stack, name)
		cycle := append(slices.Clone(c.stack[i:]), name)
		c.errorf(e.decl.Start, "constant %s is defined in terms of itself (%s)", name, strings.Join(cycle, " → "))
		return value{}, false
	case 2:
		return e.val, e.ok
	}
	e.state = 1
	c.stack = append(c.stack, name)
	e.val, e.ok = constEval{c}.expr(e.decl.Value)
	if e.ok {
		for _, x := range []*big.Rat{e.val.num, e.val.lk, e.val.lr, e.val.lq} {
			if x != nil && !c.retain(e.decl.Start, x) {
				e.ok = false
			}
		}
	}
	c.stack = c.stack[:len(c.stack)-1]
	e.state = 2
	return e.val, e.ok
}

// MaxStatementText bounds the characters of a statement's quoted text
// (Statement.Text); longer statements are quoted up to it and end in "…".
const MaxStatementText = 500

// text returns a statement in canonical form (as dpcheck fmt writes it),
// on one line and cut to MaxStatementText characters: messages and reports
// quote it, and formatting a file does not change them.
func text(st Stmt) string {
	p := &printer{limit: MaxStatementText}
	p.stmt(st)
	return p.text()
}

// exprText is text for an expression.
func exprText(e *Expr) string {
	p := &printer{limit: MaxStatementText}
	p.expr(e)
	return p.text()
}

func (c *checker) check(f *File) *Program {
	p := &Program{Filename: c.file, Source: c.src}
	var (
		model      *ModelStmt
		chainStmt  *ChainStmt
		inputs     *InputsStmt
		outputs    *OutputsStmt
		observe    *ObserveStmt
		neighbours *NeighboursStmt
		props      []*PropStmt
	)
	conflict := false // a model and a chain: checks that need the chain would only cascade
	line := func(off int) int { return c.position(off).Line }
	seen := map[string]int{} // a kind of statement → where it first appears
	first := func(st Stmt, what string) bool {
		if off, dup := seen[what]; dup {
			c.errorf(st.Bounds().Start, "duplicate %s statement (the first is at line %d)", what, line(off))
			return false
		}
		seen[what] = st.Bounds().Start
		return true
	}
	for _, st := range f.Stmts {
		switch st := st.(type) {
		case *ConstStmt:
			name := st.Name.Name
			if isKeyword(name) {
				c.errorf(st.Name.Off, "%s is a keyword and cannot name a constant", name)
				continue
			}
			if prev, dup := c.consts[name]; dup {
				c.errorf(st.Name.Off, "constant %s is already defined at line %d", name, line(prev.decl.Start))
				continue
			}
			c.consts[name] = &constEntry{decl: st}
		case *ModelStmt:
			if chainStmt != nil {
				c.errorf(st.Start, "a file has either a model or a chain block, not both (the chain is at line %d)", line(chainStmt.Start))
				conflict = true
				continue
			}
			if first(st, "model") {
				model = st
			}
		case *ChainStmt:
			if model != nil {
				c.errorf(st.Start, "a file has either a model or a chain block, not both (the model is at line %d)", line(model.Start))
				conflict = true
				continue
			}
			if first(st, "chain") {
				chainStmt = st
			}
		case *InputsStmt:
			if first(st, "inputs") {
				inputs = st
			}
		case *OutputsStmt:
			if first(st, "outputs") {
				outputs = st
			}
		case *ObserveStmt:
			if first(st, "observe") {
				observe = st
			}
		case *NeighboursStmt:
			if first(st, "neighbours") {
				neighbours = st
			}
		case *PropStmt:
			props = append(props, st)
		}
	}
	if len(f.Stmts) == 0 {
		c.errorf(0, "the file is empty: nothing to check")
		return p
	}
	if len(props) == 0 {
		c.errorf(0, "nothing to check: add a check or query statement (check dp(eps = ln(2)), query eps(delta = 0), …)")
	}
	// Evaluate every constant, so that errors in unused ones are reported.
	names := make([]string, 0, len(c.consts))
	for n := range c.consts {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c.constant(c.consts[n].decl.Start, n)
	}

	var mech *builder.Mechanism
	switch {
	case conflict:
	case model != nil:
		mech, p.Model = c.builderCall(model.Call)
		if inputs != nil {
			c.errorf(inputs.Start, "the model %s defines its own inputs; inputs is only for chain blocks", model.Call.Text)
		}
	case chainStmt != nil:
		p.Model = ModelInfo{Kind: "chain", Note: "explicit chain"}
		if inputs == nil {
			c.errorf(chainStmt.Start, "the chain has no inputs statement: say which states are the databases (inputs a, b or inputs where …)")
		}
		ch := c.chainBlock(chainStmt, inputs)
		if ch != nil {
			mech = &builder.Mechanism{Chain: ch}
		}
	case !onlyEquivalences(props):
		c.errorf(0, "no model: add a model statement (model truncated_geometric(alpha = 1/2, n = 5)) or a chain { … } block")
	}

	if chainStmt != nil && neighbours == nil && !conflict {
		c.errorf(chainStmt.Start, "no neighbours statement: say which inputs are neighbours (neighbours a ~ b, or a predicate such as |d - d'| <= 1)")
	}
	if mech == nil && chainStmt != nil && neighbours != nil && neighbours.Pred == nil {
		c.neighbourNames(neighbours)
	}
	if mech != nil {
		p.Chain = mech.Chain
		p.Output = c.outputs(outputs, mech.Chain)
		switch {
		case neighbours != nil && len(mech.Chain.Inputs()) > 0:
			p.Neighbours = c.neighbours(neighbours, mech.Chain)
		case neighbours == nil && chainStmt == nil:
			p.Neighbours = mech.Neighbours
		}
	}
	var ch *chain.Chain
	var observed []string
	if mech != nil {
		ch = mech.Chain
		if observe != nil {
			observed = c.labelList(observe.Labels, ch)
		}
	}
	for _, st := range props {
		if c.ctx.Err() != nil {
			return p
		}
		if s := c.property(st, ch, observe != nil, observed); s != nil {
			p.Statements = append(p.Statements, s)
		}
	}
	return p
}

func paramNames(d *builder.Def) string {
	var ns []string
	for _, p := range d.Params {
		ns = append(ns, p.Name)
	}
	return strings.Join(ns, ", ")
}

func builderNames() string {
	var ns []string
	for _, d := range builder.Catalog() {
		ns = append(ns, d.Name)
	}
	return strings.Join(ns, ", ")
}

// builderCall checks the arguments of a builder call and builds the chain.
func (c *checker) builderCall(call *Expr) (*builder.Mechanism, ModelInfo) {
	info := ModelInfo{Kind: "builder", Name: call.Text}
	def, ok := builder.Lookup(call.Text)
	if !ok {
		c.errorf(call.Pos(), "unknown model %s (models: %s)", call.Text, builderNames())
		return nil, info
	}
	args := builder.NewArgs()
	argPos := map[string]int{}
	var written []string
	good := true
	named := false
	for i, a := range call.Args {
		name, val := arg(a)
		if name == "" {
			if named {
				c.errorf(a.Pos(), "positional argument after a named one")
				good = false
				continue
			}
			if i >= len(def.Params) {
				c.errorf(a.Pos(), "%s takes %d parameters (%s)", def.Name, len(def.Params), paramNames(def))
				good = false
				continue
			}
			name = def.Params[i].Name
		} else {
			named = true
		}
		param, ok := def.Param(name)
		if !ok {
			c.errorf(a.Pos(), "%s has no parameter %s (parameters: %s)", def.Name, name, paramNames(def))
			good = false
			continue
		}
		if prev, dup := argPos[name]; dup {
			c.errorf(a.Pos(), "parameter %s is given twice (also at line %d)", name, c.position(prev).Line)
			good = false
			continue
		}
		argPos[name] = a.Pos()
		switch param.Kind {
		case builder.Rational:
			x, ok := c.num(val, "parameter "+name)
			if !ok {
				good = false
				continue
			}
			args.SetRat(name, x)
			written = append(written, name+" = "+x.RatString())
		case builder.Integer:
			x, ok := c.integer(val, "parameter "+name, -1<<31, 1<<31)
			if !ok {
				good = false
				continue
			}
			args.SetInt(name, int(x))
			written = append(written, fmt.Sprintf("%s = %d", name, x))
		case builder.Model:
			if val.Op != ECall {
				c.errorf(val.Pos(), "parameter %s must be a model, such as survey()", name)
				good = false
				continue
			}
			m, info := c.builderCall(val)
			if m == nil {
				good = false
				continue
			}
			args.SetModel(name, m)
			written = append(written, name+" = "+info.Call)
		case builder.Choice:
			v, ok := choice(val)
			if !ok || !slices.Contains(param.Choices, v) {
				c.errorf(val.Pos(), "parameter %s must be one of %s", name, quoteAll(param.Choices))
				good = false
				continue
			}
			args.SetChoice(name, v)
			written = append(written, fmt.Sprintf("%s = %q", name, v))
		}
	}
	for _, p := range def.Params {
		if _, given := argPos[p.Name]; !given && p.Default == "" {
			c.errorf(call.Pos(), "%s needs parameter %s (%s)", def.Name, p.Name, p.Doc)
			good = false
		}
	}
	info.Call = def.Name + "(" + strings.Join(written, ", ") + ")"
	if !good {
		return nil, info
	}
	if err := def.WithDefaults(args); err != nil {
		c.errorf(call.Pos(), "%v", err)
		return nil, info
	}
	if err := def.CheckSize(args, c.limits); err != nil {
		if le, ok := err.(*builder.LimitError); ok {
			c.limitf(call.Pos(), le.Limit, "%s", strings.Replace(le.Error(), le.Builder, info.Call, 1))
		} else {
			c.errorf(call.Pos(), "%s", strings.Replace(err.Error(), def.Name, info.Call, 1))
		}
		return nil, info
	}
	if c.ctx.Err() != nil {
		return nil, info
	}
	m, err := def.Build(args)
	if err != nil {
		if le, ok := err.(*builder.LimitError); ok {
			c.limitf(call.Pos(), le.Limit, "%s", strings.Replace(le.Error(), le.Builder, info.Call, 1))
			return nil, info
		}
		if pe, ok := err.(*builder.ParamError); ok {
			at, given := argPos[pe.Param]
			if !given {
				at = call.Pos()
			}
			c.errorf(at, "%s", pe.Error())
		} else {
			c.errorf(call.Pos(), "%s: %v", def.Name, err)
		}
		return nil, info
	}
	info.Note = m.Note
	return m, info
}

// choice reads a choice argument: a string literal or a bare word.
func choice(e *Expr) (string, bool) {
	switch {
	case e.Op == EName && !e.Primed:
		return e.Text, true
	case e.Op == EStr:
		return e.Text, true
	}
	return "", false
}

func quoteAll(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, ", ")
}

func (n Name) String() string { return n.Text }

// chainBlock builds an explicit chain.
func (c *checker) chainBlock(cb *ChainStmt, inputs *InputsStmt) *chain.Chain {
	type stateDecl struct {
		decl *StateDecl
		val  chain.Valuation
	}
	var decls []stateDecl
	ok := true
	if n := len(cb.States) + 1; n > c.limits.MaxStates { // the sink may be added
		c.limitf(cb.Start, builder.LimitStates, "the chain declares %s states; the limit is %s states", thousands(int64(len(cb.States))), thousands(int64(c.limits.MaxStates)))
		return nil
	}
	trans := len(cb.States) + 1 // self-loops of absorbing states and the sink, at most
	for _, r := range cb.Rows {
		trans += len(r.Targets) + 1
	}
	if trans > c.limits.MaxTransitions {
		c.limitf(cb.Start, builder.LimitTransitions, "the chain would have about %s transitions; the limit is %s transitions", thousands(int64(trans)), thousands(int64(c.limits.MaxTransitions)))
		return nil
	}
	c.states = map[string]int{}
	for _, sd := range cb.States {
		name := sd.Name.String()
		if prev, dup := c.states[name]; dup {
			c.errorf(sd.Name.Off, "state %s is already declared at line %d", name, c.position(prev).Line)
			ok = false
			continue
		}
		if !sd.Name.Quoted && isKeyword(name) {
			c.errorf(sd.Name.Off, "%s is a keyword and cannot name a state (quote it: \"%s\")", name, name)
			ok = false
			continue
		}
		if name == chain.SinkName || name == "sink" {
			c.errorf(sd.Name.Off, "the name %s is reserved for the sink state", name)
			ok = false
			continue
		}
		c.states[name] = sd.Name.Off
		var val chain.Valuation
		seen := map[string]bool{}
		for _, a := range sd.Vals {
			if seen[a.Var.Name] {
				c.errorf(a.Var.Off, "variable %s is assigned twice in state %s", a.Var.Name, name)
				ok = false
				continue
			}
			seen[a.Var.Name] = true
			x, good := c.integer(a.Value, "the value of "+a.Var.Name, -(1 << 62), 1<<62)
			if !good {
				ok = false
				continue
			}
			val = append(val, chain.Var{Name: a.Var.Name, Value: x})
		}
		seenLabel := map[string]bool{}
		for _, l := range sd.Labels {
			if seenLabel[l.String()] {
				c.errorf(l.Off, "label %s is listed twice in state %s", l.String(), name)
				ok = false
			}
			seenLabel[l.String()] = true
		}
		decls = append(decls, stateDecl{sd, val})
	}
	type row struct {
		decl *TransDecl
		to   []string
		p    []*big.Rat
		sink bool
	}
	rows := map[string]*row{}
	var order []string
	for i, td := range cb.Rows {
		if i%1024 == 0 && c.ctx.Err() != nil {
			return nil
		}
		from := td.From.String()
		if _, known := c.states[from]; !known {
			c.errorf(td.From.Off, "unknown state %s%s", from, c.suggestState(from))
			ok = false
			continue
		}
		if prev, dup := rows[from]; dup {
			c.errorf(td.From.Off, "state %s already has transitions at line %d: list all of them in one row", from, c.position(prev.decl.Start).Line)
			ok = false
			continue
		}
		r := &row{decl: td}
		rows[from] = r
		order = append(order, from)
		rowOK := true
		seenTo := map[string]int{}
		for _, tg := range td.Targets {
			to := tg.To.String()
			if _, known := c.states[to]; !known {
				c.errorf(tg.To.Off, "unknown state %s%s", to, c.suggestState(to))
				ok, rowOK = false, false
				continue
			}
			if prev, dup := seenTo[to]; dup {
				c.errorf(tg.To.Off, "%s appears twice in the row of %s (also at column %d)", to, from, c.position(prev).Column)
				ok, rowOK = false, false
				continue
			}
			seenTo[to] = tg.To.Off
			x, good := c.num(tg.Prob, "a probability")
			if good && !c.retain(tg.Prob.Pos(), x) {
				return nil
			}
			if !good {
				ok, rowOK = false, false
				continue
			}
			switch {
			case x.Sign() < 0:
				c.errorf(tg.Prob.Pos(), "probability %s is negative", x.RatString())
				ok, rowOK = false, false
				continue
			case x.Cmp(big.NewRat(1, 1)) > 0:
				c.errorf(tg.Prob.Pos(), "probability %s is greater than 1", x.RatString())
				ok, rowOK = false, false
				continue
			}
			r.to = append(r.to, to)
			r.p = append(r.p, x)
		}
		if td.Sink != nil {
			if td.Sink.Name != "sink" && td.Sink.Name != chain.SinkName {
				c.errorf(td.Sink.Off, "else must be followed by sink (or †), found %s", td.Sink.Name)
				ok = false
			}
			r.sink = true
		}
		if rowOK && !c.rowSumOK(from, td.Start, r.p, r.sink) {
			ok = false
		}
	}
	// Input states by name (predicates need the chain, see below); checked
	// even when the chain has errors, so that all of them are reported.
	var inputNames []string
	if inputs != nil && inputs.Where == nil {
		listOK := true
		seen := map[string]bool{}
		for _, n := range inputs.Names {
			name := n.String()
			if _, known := c.states[name]; !known {
				c.errorf(n.Off, "unknown state %s%s", name, c.suggestState(name))
				ok, listOK = false, false
				continue
			}
			if seen[name] {
				c.errorf(n.Off, "%s is listed twice", name)
				continue
			}
			seen[name] = true
			inputNames = append(inputNames, name)
		}
		if listOK {
			c.inputList = inputNames
		}
	}
	if !ok {
		return nil
	}
	build := func(inputs []string) (*chain.Chain, bool) {
		b := chain.NewBuilder()
		for _, d := range decls {
			var labels []string
			for _, l := range d.decl.Labels {
				labels = append(labels, l.String())
			}
			b.AddState(d.decl.Name.String(), d.val, labels...)
		}
		for _, from := range order {
			r := rows[from]
			s, _ := b.Lookup(from)
			for i, to := range r.to {
				t, _ := b.Lookup(to)
				b.AddTransition(s, t, r.p[i])
			}
			if r.sink {
				b.SendRemainderToSink(s)
			}
		}
		for _, n := range inputs {
			s, _ := b.Lookup(n)
			b.MarkInput(s)
		}
		ch, err := b.Build()
		if err != nil {
			list, _ := err.(chain.ErrorList)
			for _, e := range list {
				at := c.states[e.State]
				if r, has := rows[e.State]; has {
					at = r.decl.Start
				}
				c.errorf(at, "%s", e.Error())
			}
			return nil, false
		}
		return ch, true
	}
	if !ok {
		return nil
	}
	if inputs == nil || inputs.Where == nil {
		ch, good := build(inputNames)
		if !good {
			return nil
		}
		return ch
	}
	// inputs where P: evaluate P on the chain, then build again with inputs.
	ch, good := build(nil)
	if !good {
		return nil
	}
	pc := newPredCompiler(c, ch, false)
	f, good := pc.boolExpr(inputs.Where)
	if !good {
		return nil
	}
	var names []string
	for s := range ch.NumStates() {
		if name := ch.Name(s); name == chain.SinkName {
			continue
		}
		v, err := f(s, s)
		if err != nil {
			c.predError(err, inputs.Where.Pos())
			return nil
		}
		if v {
			names = append(names, ch.Name(s))
		}
	}
	if len(names) == 0 {
		c.errorf(inputs.Where.Pos(), "no state satisfies this inputs predicate")
		return nil
	}
	ch, good = build(names)
	if !good {
		return nil
	}
	return ch
}

// rowSumOK checks that a row sums to exactly 1 (at most 1 with a sink).
func (c *checker) rowSumOK(state string, at int, ps []*big.Rat, sink bool) bool {
	var acc chain.Accumulator
	for _, x := range ps {
		acc.Add(x)
	}
	sum := acc.Rat(nil)
	diff := new(big.Rat).Sub(big.NewRat(1, 1), sum)
	switch {
	case diff.Sign() > 0 && !sink:
		c.errorf(at, "the probabilities of %s sum to %s, not 1 (%s is missing; write \"else sink\" to send it to †)", state, sum.RatString(), diff.RatString())
		return false
	case diff.Sign() < 0:
		c.errorf(at, "the probabilities of %s sum to %s, not 1 (%s too much)", state, sum.RatString(), diff.Neg(diff).RatString())
		return false
	}
	return true
}

func (c *checker) predError(err error, at int) {
	if pe, ok := err.(*predErr); ok {
		c.errs = append(c.errs, &Error{Pos: pe.pos, Msg: pe.msg})
		return
	}
	c.errorf(at, "%v", err)
}

// suggestState returns " (did you mean X?)" for a close state name.
func (c *checker) suggestState(name string) string {
	best, bestD := "", 3
	for s := range c.states {
		if d := editDistance(name, s); d < bestD || d == bestD && s < best {
			best, bestD = s, d
		}
	}
	if best == "" {
		return ""
	}
	return " (did you mean " + best + "?)"
}

func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur := make([]int, len(rb)+1)
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(rb)]
}

func (c *checker) outputs(o *OutputsStmt, ch *chain.Chain) verify.Output {
	if o == nil || o.State {
		return verify.FinalState()
	}
	if o.Var != nil {
		if !slices.Contains(ch.Vars(), o.Var.Name) {
			c.errorf(o.Var.Off, "unknown variable %s%s", o.Var.Name, newPredCompiler(c, ch, false).knownVars())
		}
		return verify.FinalVar(o.Var.Name)
	}
	return verify.FinalLabels(c.labelList(o.Labels, ch)...)
}

// labelList checks that every name is a label of the chain.
func (c *checker) labelList(names []Name, ch *chain.Chain) []string {
	var ls []string
	for _, l := range names {
		name := l.String()
		if name == "" || !slices.Contains(ch.LabelNames(), name) {
			c.errorf(l.Off, "unknown label %s%s", displayName(name), newPredCompiler(c, ch, false).knownLabels())
		}
		ls = append(ls, name)
	}
	return ls
}

func (c *checker) stateByName(n Name, ch *chain.Chain) (int, bool) {
	name := n.String()
	s, ok := ch.Lookup(name)
	if !ok {
		if c.states == nil {
			c.states = map[string]int{}
			for i := range ch.NumStates() {
				c.states[ch.Name(i)] = 0
			}
		}
		c.errorf(n.Off, "unknown state %s%s", name, c.suggestState(name))
		return 0, false
	}
	return s, true
}

func (c *checker) inputNames(ch *chain.Chain) string {
	var ns []string
	for _, s := range ch.Inputs() {
		ns = append(ns, ch.Name(s))
	}
	return joinLimited(ns, 8)
}

// neighbourNames checks the names of neighbour pairs against the declared
// states and listed inputs when an explicit chain has errors and cannot be
// built, so that these errors are reported in the same run. (A pair is not
// checked against an inputs list that has errors itself.)
func (c *checker) neighbourNames(n *NeighboursStmt) {
	if c.states == nil {
		return // the chain was refused before its states were read
	}
	listed := map[string]bool{}
	for _, name := range c.inputList {
		listed[name] = true
	}
	for _, pr := range n.Pairs {
		for _, x := range []Name{pr.A, pr.B} {
			name := x.String()
			_, known := c.states[name]
			switch {
			case !known:
				c.errorf(x.Off, "unknown state %s%s", name, c.suggestState(name))
			case len(c.inputList) > 0 && !listed[name]:
				c.errorf(x.Off, "%s is not an input (inputs: %s)", name, joinLimited(c.inputList, 8))
			}
		}
	}
}

func (c *checker) neighbours(n *NeighboursStmt, ch *chain.Chain) [][2]int {
	if n.Pred == nil {
		var pairs [][2]int
		for _, pr := range n.Pairs {
			a, okA := c.stateByName(pr.A, ch)
			b, okB := c.stateByName(pr.B, ch)
			for _, x := range []struct {
				ok bool
				s  int
				n  Name
			}{{okA, a, pr.A}, {okB, b, pr.B}} {
				if x.ok && !ch.IsInput(x.s) {
					c.errorf(x.n.Off, "%s is not an input (inputs: %s)", x.n.String(), c.inputNames(ch))
					okA = false
				}
			}
			if !okA || !okB {
				continue
			}
			if a == b {
				c.errorf(pr.Off, "%s ~ %s relates a state to itself", pr.A.String(), pr.B.String())
				continue
			}
			pairs = append(pairs, [2]int{a, b})
		}
		return pairs
	}
	pc := newPredCompiler(c, ch, true)
	f, ok := pc.boolExpr(n.Pred)
	if !ok {
		return nil
	}
	ins := ch.Inputs()
	// A comparison with a variable a state lacks is false there; for a
	// neighbour relation that would drop pairs silently, so every input
	// must have the variables the predicate reads.
	vars := make([]string, 0, len(pc.reads))
	for v := range pc.reads {
		vars = append(vars, v)
	}
	sort.Slice(vars, func(i, j int) bool { return pc.reads[vars[i]] < pc.reads[vars[j]] })
	for _, v := range vars {
		for _, s := range ins {
			if _, has := ch.Value(s, v); !has {
				c.errorf(pc.reads[v], "input %s has no variable %s; a neighbour predicate may only compare variables every input has", displayName(ch.Name(s)), v)
				return nil
			}
		}
	}
	if len(ins) > MaxPredicateInputs {
		c.errorf(n.Pred.Pos(), "a neighbour predicate over %d inputs would try %d pairs; the limit is %d inputs (list the pairs instead)", len(ins), len(ins)*(len(ins)-1)/2, MaxPredicateInputs)
		return nil
	}
	var pairs [][2]int
	for i, s := range ins {
		if i%64 == 0 && c.ctx.Err() != nil {
			return nil
		}
		for _, t := range ins[i+1:] {
			v, err := f(s, t)
			if err == nil && !v {
				v, err = f(t, s)
			}
			if err != nil {
				c.predError(err, n.Pred.Pos())
				return nil
			}
			if v {
				pairs = append(pairs, [2]int{s, t})
			}
		}
	}
	if len(pairs) == 0 {
		c.errorf(n.Pred.Pos(), "this neighbour predicate relates no two distinct inputs")
	}
	return pairs
}

// property checks a check or query statement. ch is nil when the model
// has errors; observed are the labels of the observe statement.
func (c *checker) property(pr *PropStmt, ch *chain.Chain, hasObserve bool, observed []string) *Statement {
	out := &Statement{Pos: c.position(pr.Start), Text: text(pr)}
	call, name := propertyCall(pr.Body)
	isCheck := !pr.Query
	if pr.Over != nil {
		switch name {
		case "dp", "eps", "delta", "profile":
		default:
			c.errorf(pr.Over.Pos(), "over traces(k) applies to dp, eps, delta and profile; a formula's path already looks at the steps of a run")
			return nil
		}
		if !c.traces(pr.Over, out, hasObserve, observed) {
			return nil
		}
	}
	body := pr.Body.Pos()
	switch name {
	case "equivalent":
		if !isCheck {
			c.errorf(body, "equivalent(…) is a yes/no property: write check equivalent(…)")
			return nil
		}
		if !c.equivalence(call, out) {
			return nil
		}
	case "dp":
		if !isCheck {
			c.errorf(body, "dp(…) is a yes/no property: write check dp(…); the queries are eps(delta = …), delta(eps = …) and profile")
			return nil
		}
		out.Kind = CheckDP
		args, ok := c.propArgs(call, body, "dp", []string{"eps", "delta"}, 1)
		if !ok {
			return nil
		}
		e, ok1 := c.eps(args["eps"], false)
		out.Eps = e
		out.Delta = big.NewRat(0, 1)
		ok2 := true
		if d := args["delta"]; d != nil {
			out.Delta, ok2 = c.delta(d)
		}
		if !ok1 || !ok2 {
			return nil
		}
	case "eps", "delta", "profile":
		if isCheck {
			c.errorf(body, "%s is a query: write query %s", name, strings.TrimPrefix(out.Text, "check "))
			return nil
		}
		switch name {
		case "eps":
			out.Kind = QueryEps
			args, ok := c.propArgs(call, body, "eps", []string{"delta"}, 0)
			if !ok {
				return nil
			}
			out.Delta = big.NewRat(0, 1)
			if d := args["delta"]; d != nil {
				if out.Delta, ok = c.delta(d); !ok {
					return nil
				}
			}
		case "delta":
			out.Kind = QueryDelta
			args, ok := c.propArgs(call, body, "delta", []string{"eps"}, 1)
			if !ok {
				return nil
			}
			if out.Eps, ok = c.eps(args["eps"], false); !ok {
				return nil
			}
		default:
			out.Kind = QueryProfile
			if call != nil && len(call.Args) > 0 {
				c.errorf(call.Pos(), "profile takes no arguments")
				return nil
			}
		}
	default:
		if !c.formulaProperty(pr, out, ch, isCheck) {
			return nil
		}
	}
	if !c.expectation(pr, out, ch) {
		return nil
	}
	return out
}

// onlyEquivalences reports whether every property is check equivalent(…)
// (such a file needs no model of its own).
func onlyEquivalences(props []*PropStmt) bool {
	for _, st := range props {
		if _, name := propertyCall(st.Body); name != "equivalent" {
			return false
		}
	}
	return len(props) > 0
}

// equivalence checks "check equivalent(MODEL, MODEL)".
func (c *checker) equivalence(call *Expr, out *Statement) bool {
	if call == nil || len(call.Args) != 2 || call.Args[0].Op == EArg || call.Args[1].Op == EArg {
		c.errorf(out.Pos.Offset, "equivalent takes two models: check equivalent(yarrow_geometric(…), truncated_geometric(…))")
		return false
	}
	ok := true
	for i, a := range call.Args {
		if a.Op != ECall {
			c.errorf(a.Pos(), "the arguments of equivalent must be models, such as survey()")
			ok = false
			continue
		}
		m, info := c.builderCall(a)
		if m == nil {
			ok = false
			continue
		}
		out.Models[i] = ModelRef{Info: info, Chain: m.Chain}
	}
	out.Kind = CheckEquivalent
	if ok {
		if err := verify.MatchInputs(out.Models[0].Chain, out.Models[1].Chain); err != nil {
			c.errorf(call.Pos(), "%s cannot be compared: %s", exprText(call), strings.TrimPrefix(err.Error(), verify.ErrModel.Error()+": "))
			return false
		}
	}
	return ok
}

// traces checks "over traces(k)".
func (c *checker) traces(over *Expr, out *Statement, hasObserve bool, observed []string) bool {
	if over.Text != "traces" || len(over.Args) != 1 || over.Args[0].Op == EArg {
		c.errorf(over.Pos(), "expected traces(k) after over")
		return false
	}
	k, ok := c.integer(over.Args[0], "the number of steps of a trace", 1, MaxSteps)
	if !ok {
		return false
	}
	if !hasObserve {
		c.errorf(over.Pos(), "over traces(k) needs an observe statement naming the labels a trace shows")
		return false
	}
	o := verify.Traces(int(k), observed...)
	out.Output = &o
	return true
}

// formulaProperty checks a dpCTL check or query: check φ, query P=?[ψ],
// query D{?, δ}[ψ], query D{ε, ?}[ψ].
func (c *checker) formulaProperty(pr *PropStmt, out *Statement, ch *chain.Chain, isCheck bool) bool {
	body := pr.Body
	if ch == nil {
		return false // the model has errors; they are reported
	}
	fc := newFormulaCompiler(c, ch)
	switch {
	case body.Op == EProb && isUnknown(body.Args[0]):
		if isCheck {
			c.errorf(body.Pos(), "P=?[…] is a query: write query P=?[…]")
			return false
		}
		path, ok := fc.pathFormula(body.Args[1])
		out.Kind, out.Path = QueryProb, path
		return ok
	case body.Op == EDP && (isUnknown(body.Args[0]) || isUnknown(body.Args[1])):
		epsArg, deltaArg := body.Args[0], body.Args[1]
		if isCheck {
			c.errorf(body.Pos(), "D{?,…} and D{…,?} are queries: write query …")
			return false
		}
		if isUnknown(epsArg) && isUnknown(deltaArg) {
			c.errorf(body.Pos(), "D{?, ?}: give ε or δ")
			return false
		}
		path, ok := fc.pathFormula(body.Args[2])
		if !ok {
			return false
		}
		out.Path = path
		if isUnknown(epsArg) {
			out.Kind = QueryDEps
			out.Delta, ok = c.delta(deltaArg)
			return ok
		}
		out.Kind = QueryDDelta
		out.Eps, ok = c.eps(epsArg, false)
		return ok
	}
	call, name := propertyCall(body)
	if !isCheck {
		if name != "" {
			c.errorf(body.Pos(), "unknown query %s: expected eps(delta = …), delta(eps = …), profile, P=?[…], D{?, δ}[…] or D{ε, ?}[…]", name)
			return false
		}
		c.errorf(body.Pos(), "a formula is checked, not queried: write check …, or query P=?[…], D{?, δ}[…] or D{ε, ?}[…]")
		return false
	}
	if call != nil {
		c.errorf(body.Pos(), "unknown property %s: expected dp(eps = …, delta = …) or a dpCTL formula", name)
		return false
	}
	f, ok := fc.formula(body, false)
	out.Kind, out.Formula = CheckFormula, f
	return ok
}

// propertyCall returns the call (or bare name) a property's body is.
func propertyCall(e *Expr) (*Expr, string) {
	switch {
	case e.Op == ECall:
		return e, e.Text
	case e.Op == EName && !e.Primed:
		return nil, e.Text
	}
	return nil, ""
}

// propArgs matches a property's arguments, named or positional, to params;
// the first required of them must be present.
func (c *checker) propArgs(call *Expr, at int, name string, params []string, required int) (map[string]*Expr, bool) {
	args := map[string]*Expr{}
	if call == nil {
		if required > 0 {
			c.errorf(at, "%s needs %s (%s(%s = …))", name, params[0], name, params[0])
			return nil, false
		}
		return args, true
	}
	ok := true
	for i, a := range call.Args {
		n, val := arg(a)
		if n == "" {
			if i >= len(params) {
				c.errorf(a.Pos(), "%s takes at most %d arguments (%s)", name, len(params), strings.Join(params, ", "))
				ok = false
				continue
			}
			n = params[i]
		}
		if !slices.Contains(params, n) {
			c.errorf(a.Pos(), "%s has no argument %s (arguments: %s)", name, n, strings.Join(params, ", "))
			ok = false
			continue
		}
		if args[n] != nil {
			c.errorf(a.Pos(), "argument %s is given twice", n)
			ok = false
			continue
		}
		args[n] = val
	}
	for _, p := range params[:required] {
		if ok && args[p] == nil {
			c.errorf(call.Pos(), "%s needs %s (%s(%s = …))", name, p, name, p)
			ok = false
		}
	}
	return args, ok
}

// expectation checks "expect …" against the statement kind.
func (c *checker) expectation(pr *PropStmt, out *Statement, ch *chain.Chain) bool {
	ex := pr.Expect
	isCheck := out.Kind == CheckDP || out.Kind == CheckFormula || out.Kind == CheckEquivalent
	if ex == nil {
		if isCheck {
			out.Expect = Expectation{Kind: ExpectHolds, Text: "holds"}
		}
		return true
	}
	if ex.Outcome != "" {
		if !isCheck {
			c.errorf(ex.Start, "a query expects a value, not %s", ex.Outcome)
			return false
		}
		out.Expect = Expectation{Kind: ExpectHolds, Text: ex.Outcome}
		if ex.Outcome == "violated" {
			out.Expect.Kind = ExpectViolated
		}
		return true
	}
	p := &printer{limit: MaxStatementText}
	p.expect(ex)
	text := p.text()
	if ex.Values != nil && out.Kind != QueryProb {
		c.errorf(ex.Start, "only query P=?[…] expects values of named inputs (NAME: VALUE, …); write one value")
		return false
	}
	switch out.Kind {
	case CheckDP, CheckFormula, CheckEquivalent:
		c.errorf(ex.Start, "a check expects holds or violated, not %s", text)
		return false
	case QueryProb:
		out.Expect = Expectation{Kind: ExpectValue, Text: text}
		if ex.Value != nil {
			v, ok := c.probability(ex.Value, "an expected probability")
			out.Expect.Value = v
			return ok
		}
		ok := true
		seen := map[int]bool{}
		for _, nv := range ex.Values {
			v, good := c.probability(nv.Value, "an expected probability")
			s, found := c.stateByName(nv.Name, ch)
			switch {
			case !found:
				ok = false
			case !ch.IsInput(s):
				c.errorf(nv.Name.Off, "%s is not an input (inputs: %s)", displayName(nv.Name.Text), c.inputNames(ch))
				ok = false
			case seen[s]:
				c.errorf(nv.Name.Off, "%s is listed twice", displayName(nv.Name.Text))
				ok = false
			case good:
				seen[s] = true
				out.Expect.Probs = append(out.Expect.Probs, ExpectedProb{State: s, Name: ch.Name(s), Value: v})
			}
			ok = ok && good
		}
		return ok
	case QueryEps, QueryDEps:
		e, ok := c.eps(ex.Value, true)
		if !ok {
			return false
		}
		out.Expect = Expectation{Kind: ExpectValue, Eps: e, Text: text}
	case QueryDelta, QueryDDelta:
		d, ok := c.delta(ex.Value)
		if !ok {
			return false
		}
		out.Expect = Expectation{Kind: ExpectValue, Value: d, Text: text}
	case QueryProfile:
		c.errorf(ex.Start, "query profile takes no expectation")
		return false
	}
	return true
}

// probability evaluates e as a number in [0, 1].
func (c *checker) probability(e *Expr, what string) (*big.Rat, bool) {
	x, ok := c.num(e, what)
	if !ok {
		return nil, false
	}
	if x.Sign() < 0 || x.Cmp(big.NewRat(1, 1)) > 0 {
		c.errorf(e.Pos(), "%s %s is outside [0, 1]", what, x.RatString())
		return nil, false
	}
	return x, true
}
