package spec

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/syntax"
)

// The model of a file: a builder call (its arguments checked here, the
// model built by property.Prepare) or an explicit chain (built here: it is
// the file's own data, and its errors are the file's).

// builderCall checks the arguments of a builder call and builds the chain.
func (c *checker) builderCall(call *Expr) *property.BuilderModel {
	def, ok := builder.Lookup(call.Text)
	if !ok {
		c.errorf(call.Pos(), "unknown model %s%s (models: %s)", call.Text, didYouMean(call.Text, builderNameList()), builderNames())
		return nil
	}
	args := builder.NewArgs()
	argPos := map[string]int{}
	var written []string
	good := true
	named := false
	for i, a := range call.Args {
		name, val := arg(a)
		if bad := misnamedArg(a, c.constOrParam); bad != "" {
			c.errorf(a.Pos(), "%s has no parameter %s%s (parameters: %s)", def.Name, bad, didYouMean(bad, paramNameList(def)), paramNames(def))
			good = false
			continue
		}
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
			c.errorf(a.Pos(), "%s has no parameter %s%s (parameters: %s)", def.Name, name, didYouMean(name, paramNameList(def)), paramNames(def))
			good = false
			continue
		}
		if prev, dup := argPos[name]; dup {
			c.errorf(a.Pos(), "parameter %s is given twice (also at line %d)", name, c.position(prev).Line)
			good = false
			continue
		}
		argPos[name] = a.Pos()
		if c.isParam(val) {
			if param.Kind != builder.Rational || !def.ParamArg(name) || c.param.arg != "" {
				c.errParamUse(val.Pos())
				good = false
				continue
			}
			c.param.arg = name
			args.SetRat(name, big.NewRat(1, 2)) // a value inside (0, 1), so that the other arguments are checked
			written = append(written, name+" = "+c.param.name)
			continue
		}
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
			lo, hi := param.Range()
			x, ok := c.integer(val, def.Name+": parameter "+name, int64(lo), int64(hi))
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
			// A model argument (compose's) is built now: its size decides
			// the size of the model that uses it.
			m := c.builderCall(val)
			if m == nil {
				good = false
				continue
			}
			mech, err := m.Build(c.ctx, c.limits)
			if err != nil {
				if list, ok := err.(source.ErrorList); ok {
					c.errs = append(c.errs, list...)
				}
				good = false
				continue
			}
			args.SetModel(name, mech)
			written = append(written, name+" = "+m.Call)
		case builder.Choice:
			v, ok := choice(val)
			if !ok || !slices.Contains(param.Choices, v) {
				c.errorf(val.Pos(), "%s: parameter %s must be one of %s", def.Name, name, quoteAll(param.Choices))
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
	m := &property.BuilderModel{Def: def, Args: args, Call: def.Name + "(" + strings.Join(written, ", ") + ")", Pos: c.position(call.Pos()), ArgPos: map[string]source.Position{}}
	for name, off := range argPos {
		m.ArgPos[name] = c.position(off)
	}
	if !good {
		return nil
	}
	if err := def.WithDefaults(args); err != nil {
		c.errorf(call.Pos(), "%v", err)
		return nil
	}
	// The size is checked here too, so that a model over the limits is
	// reported with the file's other errors; property.Prepare builds it.
	if err := def.CheckSize(args, c.limits); err != nil {
		if le, ok := err.(*model.LimitError); ok {
			named := *le
			named.Builder = m.Call
			c.limitf(call.Pos(), le.Limit, "%s", named.Error())
		} else {
			c.errorf(call.Pos(), "%v", err)
		}
		return nil
	}
	return m
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

func paramNames(d *builder.Def) string { return strings.Join(paramNameList(d), ", ") }

func paramNameList(d *builder.Def) []string {
	var ns []string
	for _, p := range d.Params {
		ns = append(ns, p.Name)
	}
	return ns
}

func builderNames() string { return strings.Join(builderNameList(), ", ") }

func builderNameList() []string {
	var ns []string
	for _, d := range builder.Catalog() {
		ns = append(ns, d.Name)
	}
	return ns
}

// misnamedArg returns NAME when the argument a is written NAME = … with a
// NAME that is not a parameter of its call (the parser then reads the
// comparison NAME = …) and that known does not know either: a misspelt
// parameter rather than a comparison. Otherwise "".
func misnamedArg(a *Expr, known func(string) bool) string {
	if a.Op == ECmp && a.Text == "=" && a.Args[0].Op == EName && !a.Args[0].Primed && !known(a.Args[0].Text) {
		return a.Args[0].Text
	}
	return ""
}

// constOrParam reports whether name is a constant or the parameter.
func (c *checker) constOrParam(name string) bool {
	return c.consts[name] != nil || c.param != nil && name == c.param.name
}
func quoteAll(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, ", ")
}

// chainBlock builds an explicit chain, its inputs those named by an
// inputs statement. It reads the block as loading keeps it (chainData,
// load.go); a parsed block is converted first.
func (c *checker) chainBlock(cb *ChainStmt, inputs *InputsStmt) *chain.Chain {
	d := c.blockData(cb, 1) // the sink may be added
	if d == nil {
		return nil
	}
	id, kept, vals, ok := c.blockStates(d)
	// The chain is built as the rows are checked, while everything checks.
	var b *chain.Builder
	if ok {
		b = chain.NewBuilder()
		b.Grow(len(kept))
		allLabels := make([]string, 0, len(d.labels))
		for k, i := range kept {
			sd := d.states[i]
			lo := len(allLabels)
			for _, l := range d.labels[sd.labLo:sd.labHi] {
				allLabels = append(allLabels, d.words[l.word])
			}
			b.AddStateOwned(d.names[sd.sym], vals[k], allLabels[lo:])
		}
	}
	vals = nil
	rowAt, rowsOK, stop := c.blockRows(d, b, id)
	if stop {
		return nil
	}
	ok = ok && rowsOK
	// Input states by name (predicates need the chain, see below); checked
	// even when the chain has errors, so that all of them are reported.
	inputIDs, inputsOK := c.blockInputs(inputs, id)
	if !ok || !inputsOK || c.ctx.Err() != nil {
		return nil
	}
	for _, s := range inputIDs {
		b.MarkInput(s)
	}
	ch, err := b.Build()
	if err != nil {
		list, _ := err.(chain.ErrorList)
		for _, e := range list {
			s, _ := c.stateSym(e.State)
			at := c.declared[s]
			if rowAt[s] >= 0 {
				at = rowAt[s]
			}
			c.errorf(int(at), "%s", e.Error())
		}
		return nil
	}
	return ch
}

// blockData returns the data of a chain block (a parsed block converted
// first) and makes it the checker's block, or reports that the chain is
// over the limits on states and transitions and returns nil; extra counts
// the states the chain may add (the sink).
func (c *checker) blockData(cb *ChainStmt, extra int) *chainData {
	d := cb.data
	if d == nil {
		d = astChain(cb, c.src, c.limits)
	}
	if n := d.nStates + extra; n > c.limits.MaxStates {
		c.limitf(cb.Start, model.LimitStates, "the chain declares %s states; the limit is %s states", exact.Thousands(int64(d.nStates)), exact.Thousands(int64(c.limits.MaxStates)))
		return nil
	}
	if trans := d.nStates + extra + d.nRowTrans; trans > c.limits.MaxTransitions { // self-loops of absorbing states (and the sink), at most
		c.limitf(cb.Start, model.LimitTransitions, "the chain would have about %s transitions; the limit is %s transitions", exact.Thousands(int64(trans)), exact.Thousands(int64(c.limits.MaxTransitions)))
		return nil
	}
	c.block = d
	c.declared = make([]int32, len(d.names)) // where each symbol's state is declared, -1 if not
	for i := range c.declared {
		c.declared[i] = -1
	}
	return d
}

// blockInputs returns the chain's numbers of the input states an inputs
// statement names (none for inputs where …), and whether every name is a
// state of the block; a name listed twice is reported and counted once.
func (c *checker) blockInputs(inputs *InputsStmt, id []int32) ([]int, bool) {
	if inputs == nil || inputs.Where != nil {
		return nil, true
	}
	var ins []int
	ok := true
	seen := map[string]bool{}
	for _, n := range inputs.Names {
		name := n.String()
		s, known := c.stateSym(name)
		switch {
		case !known:
			c.errUnknownState(n)
			ok = false
		case seen[name]:
			c.errListedTwice(n)
		default:
			seen[name] = true
			ins = append(ins, int(id[s]))
		}
	}
	return ins, ok
}

// blockStates checks the state declarations of a chain block, recording
// in c.declared where each state is declared. It returns each declared
// state's number in the chain (by symbol), the declarations that check
// (whose states the chain has, in order) with their valuations, and
// whether all of them check.
func (c *checker) blockStates(d *chainData) (id, kept []int32, vals []chain.Valuation, ok bool) {
	ok = true
	id = make([]int32, len(d.names))
	allVars := make([]chain.Var, 0, len(d.vals)) // the valuations are cut out of one array
	for i, sd := range d.states {
		name := d.names[sd.sym]
		if prev := c.declared[sd.sym]; prev >= 0 {
			c.errorf(int(sd.off), "state %s is already declared at line %d", name, c.position(int(prev)).Line)
			ok = false
			continue
		}
		if !sd.quoted && isKeyword(name) {
			c.errKeyword(int(sd.off), name, fmt.Sprintf("a state (quote it: %q)", name))
			ok = false
			continue
		}
		if name == chain.SinkName || name == "sink" {
			c.errorf(int(sd.off), "the name %s is reserved for the sink state", name)
			ok = false
			continue
		}
		c.declared[sd.sym] = sd.off
		id[sd.sym] = int32(len(kept))
		kept = append(kept, int32(i))
		lo := len(allVars)
		for j := sd.valLo; j < sd.valHi; j++ {
			a := d.vals[j]
			vname := d.words[a.word]
			if slices.ContainsFunc(d.vals[sd.valLo:j], func(v valRec) bool { return v.word == a.word }) {
				c.errorf(int(a.off), "variable %s is assigned twice in state %s", vname, name)
				ok = false
				continue
			}
			x := a.value
			if a.expr >= 0 {
				var good bool
				if x, good = c.integer(d.exprs[a.expr], "the value of "+vname, -(1 << 62), 1<<62); !good {
					ok = false
					continue
				}
			}
			allVars = append(allVars, chain.Var{Name: vname, Value: x})
		}
		var val chain.Valuation
		if len(allVars) > lo {
			val = allVars[lo:len(allVars):len(allVars)]
		}
		vals = append(vals, val)
		for j := sd.labLo; j < sd.labHi; j++ {
			if l := d.labels[j]; slices.ContainsFunc(d.labels[sd.labLo:j], func(m labelRec) bool { return m.word == l.word }) {
				c.errorf(int(l.off), "label %s is listed twice in state %s", d.words[l.word], name)
				ok = false
			}
		}
	}
	return id, kept, vals, ok
}

// blockRows checks the rows of a chain block and, while every row checks,
// hands them to b (nil when the states did not check). It returns where
// each state's row starts (by symbol, -1 without one), whether all rows
// check, and stop when the check ends early: the context ended, or the
// numbers are over the bits limit (reported).
func (c *checker) blockRows(d *chainData, b *chain.Builder, id []int32) (rowAt []int32, ok, stop bool) {
	ok = b != nil
	allOK := true
	rowAt = make([]int32, len(d.names))
	for i := range rowAt {
		rowAt[i] = -1
	}
	// seenIn[sym] is 1 + the row where the state was last a target, and
	// seenAt[sym] the target's offset there.
	seenIn := make([]int32, len(d.names))
	seenAt := make([]int32, len(d.names))
	// The rows that check are cut out of one array each for targets and
	// probabilities, handed to the builder row by row.
	var tos []int
	var ps []*big.Rat
	if ok {
		tos, ps = make([]int, 0, len(d.targets)), make([]*big.Rat, 0, len(d.targets))
	}
	fail := func() { ok, allOK = false, false }
	for i, r := range d.rows {
		if i%1024 == 0 && c.ctx.Err() != nil {
			return nil, false, true
		}
		from := d.names[r.from]
		if c.declared[r.from] < 0 {
			c.errUnknownState(Name{Off: int(r.fromOff), Text: from})
			fail()
			continue
		}
		if prev := rowAt[r.from]; prev >= 0 {
			c.errorf(int(r.fromOff), "state %s already has transitions at line %d: list all of them in one row", from, c.position(int(prev)).Line)
			fail()
			continue
		}
		rowAt[r.from] = r.start
		rowOK := true
		if !ok { // nothing is built: the arrays only hold the row
			tos, ps = tos[:0], ps[:0]
		}
		lo := len(ps)
		for _, t := range d.targets[r.tLo:r.tHi] {
			to := d.names[t.to]
			if c.declared[t.to] < 0 {
				c.errUnknownState(Name{Off: int(t.off), Text: to})
				fail()
				rowOK = false
				continue
			}
			if seenIn[t.to] == int32(i)+1 {
				c.errorf(int(t.off), "%s appears twice in the row of %s (also at column %d)", to, from, c.position(int(seenAt[t.to])).Column)
				fail()
				rowOK = false
				continue
			}
			seenIn[t.to], seenAt[t.to] = int32(i)+1, t.off
			x, good := c.transitionProb(d, t)
			if good && !c.retain(int(t.probOff), x) {
				return nil, false, true
			}
			switch {
			case !good:
			case x.Sign() < 0:
				c.errorf(int(t.probOff), "probability %s is negative", x.RatString())
			case x.Num().Cmp(x.Denom()) > 0: // x > 1
				c.errorf(int(t.probOff), "probability %s is greater than 1", x.RatString())
			default:
				tos, ps = append(tos, int(id[t.to])), append(ps, x)
				continue
			}
			fail()
			rowOK = false
		}
		sink := r.sinkOff >= 0
		if sink {
			if word := c.src[r.sinkOff : r.sinkOff+r.sinkLen]; word != "sink" && word != chain.SinkName {
				c.errorf(int(r.sinkOff), "else must be followed by sink (or †), found %s", word)
				fail()
			}
		}
		if rowOK && !c.rowSumOK(from, int(r.start), ps[lo:], sink) {
			fail()
		}
		if ok {
			b.AddRow(int(id[r.from]), tos[lo:], ps[lo:])
			if sink {
				b.SendRemainderToSink(int(id[r.from]))
			}
		}
	}
	return rowAt, allOK, false
}

// stateSym returns the symbol of a state the explicit chain declares.
func (c *checker) stateSym(name string) (int32, bool) {
	if c.block == nil {
		return 0, false
	}
	s, ok := c.block.lookup(name)
	if !ok || c.declared[s] < 0 {
		return 0, false
	}
	return s, true
}

// transitionProb evaluates the probability of a transition: a literal once
// for all its occurrences, an expression each time.
func (c *checker) transitionProb(d *chainData, t targetRec) (*big.Rat, bool) {
	if t.prob < 0 {
		pr := &d.probs[-t.prob-1]
		if !pr.done {
			// The expression kept is the text's first occurrence, which
			// need not be this one (its row may have been refused): its
			// errors are moved here.
			n := len(c.errs)
			pr.val, pr.ok = c.num(pr.expr, "a probability")
			for _, e := range c.errs[n:] {
				pr.errs = append(pr.errs, relError{rel: int32(e.Pos.Offset) - pr.expr.Off, msg: e.Msg, limit: e.Limit})
			}
			c.errs = c.errs[:n]
			pr.done, pr.expr = true, nil
		}
		for _, e := range pr.errs {
			c.errorf(int(t.probOff+e.rel), "%s", e.msg)
			c.errs[len(c.errs)-1].Limit = e.limit
		}
		return pr.val, pr.ok
	}
	return c.literal(d, t)
}

// literal is the value of t's probability written as a number, evaluated
// once per distinct text; an error is reported at its place.
func (c *checker) literal(d *chainData, t targetRec) (*big.Rat, bool) {
	l := &d.lits[t.prob]
	if !l.done {
		l.val, l.err, l.errRel = evalLiteral(l)
		l.done = true
	}
	if l.err != "" {
		c.errorf(int(t.probOff+l.errRel), "%s", l.err)
		return nil, false
	}
	return l.val, true
}

// parseSmall reads at most 18 decimal digits.
func parseSmall(digits string) uint64 {
	var n uint64
	for i := 0; i < len(digits); i++ {
		n = n*10 + uint64(digits[i]-'0')
	}
	return n
}

// evalLiteral computes a literal as constEval computes the expression it
// is (a number, or a quotient of two), with the same errors.
func evalLiteral(l *litRec) (*big.Rat, string, int32) {
	if len(l.num) <= 18 && len(l.den) <= 18 && syntax.IsDigits(l.num) && syntax.IsDigits(l.den) { // a fraction of small integers
		a, b := parseSmall(l.num), parseSmall(l.den)
		if b == 0 {
			return nil, "division by zero", l.slashRel
		}
		return syntax.SmallRat(a, b), "", 0
	}
	a, err := parseNumber(l.num)
	if err != nil {
		return nil, err.Error(), 0
	}
	if l.den == "" {
		return a, "", 0
	}
	b, err := parseNumber(l.den)
	if err != nil {
		return nil, err.Error(), l.denRel
	}
	if b.Sign() == 0 {
		return nil, "division by zero", l.slashRel
	}
	x := new(big.Rat).Quo(a, b)
	if bits := exact.Bits(x); bits > MaxPowerBits {
		return nil, fmt.Sprintf("this result would have %s bits; the limit is %s", exact.Thousands(int64(bits)), exact.Thousands(MaxPowerBits)), l.slashRel
	}
	return x, "", 0
}

// rowSumOK checks that a row sums to exactly 1 (at most 1 with a sink).
func (c *checker) rowSumOK(state string, at int, ps []*big.Rat, sink bool) bool {
	acc := &c.acc
	acc.Reset()
	for _, x := range ps {
		acc.Add(x)
	}
	if c.unit == nil {
		c.unit = big.NewRat(1, 1)
	}
	if cmp := acc.Cmp(c.unit); cmp == 0 || cmp < 0 && sink {
		return true
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
