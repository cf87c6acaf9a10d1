package spec

import (
	"context"
	"fmt"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/param"
	"github.com/dpcheck/dpcheck/poly"
	"github.com/dpcheck/dpcheck/prism"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/statespace"
)

// Explicit chains and modules with the parameter (docs/semantics.md, "For
// every parameter value"). A chain block's probabilities may be rational
// functions of the parameter: the checker builds the frame (states,
// valuations, labels, inputs) as for an ordinary block, evaluates each
// distinct probability once as a poly.RatFunc, checks it positive on the
// whole interval (an error at the probability names an exact value where
// it is not) and each row's sum equal to 1 (at the row), and keeps the
// rows for param.New. Modules may write the parameter in update
// probabilities and in the first argument of a draw (geometric's α,
// bernoulli's p); statespace.Model.BuildParam explores them (its doc says
// how), when the program is prepared.

// paramChain is an explicit chain block with the parameter.
type paramChain struct {
	frame *chain.Chain
	rows  [][]param.Trans
	name  string
	in    poly.Interval
	pos   source.Position
}

// Info describes the chain.
func (m *paramChain) Info() property.ModelInfo {
	return property.ModelInfo{Kind: "chain", Note: fmt.Sprintf("for every %s in %s", m.name, m.in)}
}

// Position is where the chain block starts.
func (m *paramChain) Position() source.Position { return m.pos }

// Build refuses: the chain is built by BuildParam.
func (m *paramChain) Build(ctx context.Context, l model.Limits) (*model.Mechanism, error) {
	return nil, property.ErrParamBuild
}

// BuildParam validates the chain with param.New (its neighbours are the
// program's, resolved when it is prepared).
func (m *paramChain) BuildParam(ctx context.Context, lim poly.Limits) (*param.Chain, error) {
	pc, err := param.New(ctx, lim, m.frame, m.name, m.in, m.rows, nil)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, source.ErrorList{{Pos: m.pos, Msg: err.Error()}}
	}
	return pc, nil
}

// paramPRISM makes the program's model the PRISM model of s's model
// statement, its undefined double constant named after the parameter
// left symbolic.
func (c *checker) paramPRISM(p *property.Program, s *statements) {
	if s.inputs != nil {
		c.errorf(s.inputs.Start, "a PRISM model's inputs are its initial states; inputs is only for chain blocks")
	}
	if c.param.bad {
		return
	}
	if m := c.paramPRISMModel(s.model.Call, false); m != nil {
		p.Model = m
	}
}

// paramPRISMModel reads the PRISM model of call with its undefined double
// constant named after the parameter left symbolic; optional reads a
// model without that constant as it is (the same chain for every value).
// It returns nil after reporting an error.
func (c *checker) paramPRISMModel(call *Expr, optional bool) property.Model {
	m, uses := c.prismModel(call, &prism.Param{Name: c.param.name, At: poly.Simplest(c.param.in)}, optional)
	switch {
	case m == nil:
		return nil
	case !uses:
		return m
	case m.IsMDP():
		c.errorf(call.Pos(), "the PRISM model is an MDP (mdp, or no model type, which PRISM reads as an MDP); with the parameter %s it must be a DTMC, declared dtmc (for every %s the model is a Markov chain)", c.param.name, c.param.name)
		return nil
	}
	info := m.Info()
	return &statespace.ParamModules{Model: m.Space, Name: c.param.name, Interval: c.param.in, Limits: c.limits, Describe: &info}
}

// paramChainBlock builds a chain block whose probabilities may mention the
// parameter, its inputs those named by an inputs statement.
func (c *checker) paramChainBlock(cb *ChainStmt, inputs *InputsStmt) *paramChain {
	d := c.blockData(cb, 0)
	if d == nil {
		return nil
	}
	id, kept, vals, ok := c.blockStates(d)
	if !ok {
		return nil
	}
	names := make([]string, len(kept))
	labels := make([][]string, len(kept))
	for k, i := range kept {
		sd := d.states[i]
		names[k] = d.names[sd.sym]
		for _, l := range d.labels[sd.labLo:sd.labHi] {
			labels[k] = append(labels[k], d.words[l.word])
		}
	}
	ins, insOK := c.blockInputs(inputs, id)
	rows, rowsOK := c.paramRows(d, id, len(kept))
	if !ok || !insOK || !rowsOK || c.ctx.Err() != nil {
		return nil
	}
	frame, err := param.Frame(names, vals, labels, ins)
	if err != nil {
		c.errorf(cb.Start, "%v", err)
		return nil
	}
	return &paramChain{frame: frame, rows: rows, name: c.param.name, in: c.param.in, pos: c.position(cb.Start)}
}

// paramRows checks the rows of a chain block with the parameter: each
// distinct probability a rational function positive on the whole
// interval, each row summing to 1. A row that is only a self-loop of
// probability 1 is an absorbing state's (no transitions).
func (c *checker) paramRows(d *chainData, id []int32, n int) ([][]param.Trans, bool) {
	ok := true
	rows := make([][]param.Trans, n)
	rowAt := make([]int32, len(d.names))
	for i := range rowAt {
		rowAt[i] = -1
	}
	seenIn := make([]int32, len(d.names))
	seenAt := make([]int32, len(d.names))
	type val struct {
		f  poly.RatFunc
		ok bool
	}
	exprs := map[int32]val{} // by probability (targetRec.prob)
	one := poly.FromPoly(poly.FromInts(1))
	var lim poly.Limits
	for i, r := range d.rows {
		if i%64 == 0 && c.ctx.Err() != nil {
			return nil, false
		}
		from := d.names[r.from]
		if c.declared[r.from] < 0 {
			c.errUnknownState(Name{Off: int(r.fromOff), Text: from})
			ok = false
			continue
		}
		if prev := rowAt[r.from]; prev >= 0 {
			c.errorf(int(r.fromOff), "state %s already has transitions at line %d: list all of them in one row", from, c.position(int(prev)).Line)
			ok = false
			continue
		}
		rowAt[r.from] = r.start
		if r.sinkOff >= 0 {
			c.errorf(int(r.sinkOff), "else sink is not supported with the parameter %s: write the remainder's probability to a state", c.param.name)
			ok = false
			continue
		}
		rowOK := true
		var row []param.Trans
		var sum poly.RatFunc
		for _, t := range d.targets[r.tLo:r.tHi] {
			to := d.names[t.to]
			if c.declared[t.to] < 0 {
				c.errUnknownState(Name{Off: int(t.off), Text: to})
				rowOK = false
				continue
			}
			if seenIn[t.to] == int32(i)+1 {
				c.errorf(int(t.off), "%s appears twice in the row of %s (also at column %d)", to, from, c.position(int(seenAt[t.to])).Column)
				rowOK = false
				continue
			}
			seenIn[t.to], seenAt[t.to] = int32(i)+1, t.off
			v, done := exprs[t.prob]
			if !done {
				v.f, v.ok = c.paramProb(d, t)
				exprs[t.prob] = v
			}
			if !v.ok {
				rowOK = false
				continue
			}
			var err error
			if sum, err = lim.RatAdd(c.ctx, sum, v.f); err != nil {
				c.errorf(int(t.probOff), "%v", err)
				rowOK = false
				continue
			}
			row = append(row, param.Trans{To: int(id[t.to]), P: v.f})
		}
		if rowOK && !sum.Equal(one) {
			c.errorf(int(r.start), "the probabilities of %s sum to %s, not 1 for every %s", from, sum.Format(c.param.name), c.param.name)
			rowOK = false
		}
		if !rowOK {
			ok = false
			continue
		}
		if len(row) == 1 && row[0].To == int(id[r.from]) {
			row = nil // a self-loop of probability 1: absorbing
		}
		rows[id[r.from]] = row
	}
	return rows, ok
}

// paramProb evaluates a transition's probability as a rational function
// of the parameter and checks it positive on the whole interval.
func (c *checker) paramProb(d *chainData, t targetRec) (poly.RatFunc, bool) {
	if t.prob >= 0 {
		val, ok := c.literal(d, t)
		if !ok {
			return poly.RatFunc{}, false
		}
		if val.Sign() <= 0 {
			c.errorf(int(t.probOff), "probability %s is not positive", val.RatString())
			return poly.RatFunc{}, false
		}
		return poly.FromPoly(poly.Const(val)), true
	}
	e := d.probs[-t.prob-1].expr
	c.paramUsed = c.paramUsed || c.mentionsParam(e)
	f, ok := c.ratFunc(e, "a probability")
	if !ok || c.param.bad { // a bad interval is reported at the param statement
		return f, false
	}
	var lim poly.Limits
	reg, err := lim.WhereRat(c.ctx, f, poly.GT, c.param.in)
	if err != nil {
		c.errorf(int(t.probOff), "a probability: %v", err)
		return f, false
	}
	w, bad, err := lim.Witness(c.ctx, reg)
	if err != nil {
		c.errorf(int(t.probOff), "a probability: %v", err)
		return f, false
	}
	if bad {
		how := "is not positive at %s = %s: it must be"
		if s, err := w.SignOf(c.ctx, f.Den()); err == nil && s == 0 {
			how = "has a pole at %s = %s: it must be positive" // undefined there
		}
		c.errorf(int(t.probOff), "the probability %s "+how+" for every %s in %s (the chain's graph must be the same for every %s)",
			exprText(e), c.param.name, w.Format(c.param.name), c.param.name, c.param.text, c.param.name)
		return f, false
	}
	return f, true
}

// paramModel checks a chain block or modules in a file with the parameter.
func (c *checker) paramModel(p *property.Program, s *statements) {
	if s.chain != nil {
		if s.inputs == nil {
			c.errorf(s.chain.Start, "the chain has no inputs statement: say which states are the databases (inputs a, b or inputs where …)")
		}
		if s.neighbours == nil {
			c.errorf(s.chain.Start, "no neighbours statement: say which inputs are neighbours (neighbours a ~ b, or a predicate such as |d - d'| <= 1)")
		}
		m := c.paramChainBlock(s.chain, s.inputs)
		switch {
		case m == nil && s.neighbours != nil && s.neighbours.Pred == nil:
			c.neighbourNames(s.neighbours, s.inputs)
		case m == nil || c.param.bad:
		case !c.paramUsed:
			c.errorf(s.chain.Start, "the chain does not use the parameter %s: write it in a probability, such as a -> b : %s, c : 1 - %s", c.param.name, c.param.name, c.param.name)
		default:
			p.Model = m
		}
		return
	}
	if s.neighbours == nil {
		c.errorf(s.modules[0].Start, "no neighbours statement: say which inputs are neighbours (a predicate such as |d - d'| <= 1)")
	}
	if s.inputs != nil && s.inputs.Names != nil {
		c.errorf(s.inputs.Start, "the inputs of modules are the valuations of their input variables: write inputs where … to keep some of them")
	}
	for _, mod := range s.modules {
		if mod.MDP {
			c.errorf(mod.Start, "an mdp module with the parameter %s is not supported: for every %s the model is a Markov chain", c.param.name, c.param.name)
			return
		}
	}
	m := c.modules(s.modules, s.inputs)
	switch {
	case m == nil || c.param.bad:
	case !c.paramUsed:
		c.errorf(s.modules[0].Start, "the modules do not use the parameter %s: write it in an update's probability or a draw's first argument, such as %s : (x' = 1) + 1 - %s : (x' = 0) or (y' ~ geometric(%s, x, 0, n))", c.param.name, c.param.name, c.param.name, c.param.name)
	default:
		p.Model = &statespace.ParamModules{Model: m, Name: c.param.name, Interval: c.param.in, Limits: c.limits}
	}
}

// moduleParam translates the parameter in a module's expression: where it
// may stand (an update's probability, a draw's first argument) it is the
// variable named after it, which no state has, with the simplest rational
// of the interval as its fallback value (statespace.Model.BuildParam).
func (t *translator) moduleParam(e *Expr) *expr.Expr {
	c := t.c
	if !t.paramOK {
		role := t.role
		if role == "" {
			role = "this expression"
		}
		return t.fail(e, "%s must not depend on the parameter %s: the chain's graph must be the same for every %s (it may appear in an update's probability and a draw's first argument)", role, c.param.name, c.param.name)
	}
	if c.param.bad {
		t.failed = true
		return t.node(expr.Bool, e)
	}
	c.paramUsed = true
	n := t.node(expr.Var, e)
	n.Name = c.param.name
	n.Fallback = &expr.Expr{Op: expr.Num, Pos: n.Pos, Text: n.Text, Value: poly.Simplest(c.param.in)}
	return n
}
