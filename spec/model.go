package spec

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
)

// The model of a file: a builder call (its arguments checked here, the
// model built by property.Prepare) or an explicit chain (built here: it is
// the file's own data, and its errors are the file's).

// builderCall checks the arguments of a builder call and builds the chain.
func (c *checker) builderCall(call *Expr) *property.BuilderModel {
	def, ok := builder.Lookup(call.Text)
	if !ok {
		c.errorf(call.Pos(), "unknown model %s (models: %s)", call.Text, builderNames())
		return nil
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
		if le, ok := err.(*builder.LimitError); ok {
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
func quoteAll(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, ", ")
}

// chainBlock builds an explicit chain, its inputs those named by an
// inputs statement.
// chainBlock builds an explicit chain.
func (c *checker) chainBlock(cb *ChainStmt, inputs *InputsStmt) *chain.Chain {
	type stateDecl struct {
		decl *StateDecl
		val  chain.Valuation
	}
	var decls []stateDecl
	ok := true
	if n := len(cb.States) + 1; n > c.limits.MaxStates { // the sink may be added
		c.limitf(cb.Start, builder.LimitStates, "the chain declares %s states; the limit is %s states", exact.Thousands(int64(len(cb.States))), exact.Thousands(int64(c.limits.MaxStates)))
		return nil
	}
	trans := len(cb.States) + 1 // self-loops of absorbing states and the sink, at most
	for _, r := range cb.Rows {
		trans += len(r.Targets) + 1
	}
	if trans > c.limits.MaxTransitions {
		c.limitf(cb.Start, builder.LimitTransitions, "the chain would have about %s transitions; the limit is %s transitions", exact.Thousands(int64(trans)), exact.Thousands(int64(c.limits.MaxTransitions)))
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
			c.errKeyword(sd.Name.Off, name, fmt.Sprintf("a state (quote it: %q)", name))
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
			c.errUnknownState(td.From)
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
				c.errUnknownState(tg.To)
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
		seen := map[string]bool{}
		for _, n := range inputs.Names {
			name := n.String()
			if _, known := c.states[name]; !known {
				c.errUnknownState(n)
				ok = false
				continue
			}
			if seen[name] {
				c.errListedTwice(n)
				continue
			}
			seen[name] = true
			inputNames = append(inputNames, name)
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
	if !ok || c.ctx.Err() != nil {
		return nil
	}
	ch, good := build(inputNames)
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
