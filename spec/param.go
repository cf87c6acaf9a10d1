package spec

import (
	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/poly"
	"github.com/dpcheck/dpcheck/property"
)

// A file's parameter ("param alpha in (0, 1)"): the builder argument it
// stands for, and ε and δ of its statements as rational functions of it
// (docs/semantics.md, "For every parameter value").

// paramInfo is the file's parameter, once its statement checked.
type paramInfo struct {
	stmt *ParamStmt
	name string
	in   poly.Interval
	text string // the interval, canonically: "(0, 1)"
	// arg is the builder argument the parameter stands for ("" until the
	// model is checked).
	arg string
	// bad is set when the interval has errors (the name is still known).
	bad bool
}

// paramUses says where a parameter may appear now.
func paramUses() string {
	return "as an argument of " + builder.ParamBuilders() + ", in the probabilities of a chain block, in the update probabilities and the first argument of draws (geometric's alpha, bernoulli's p) of modules, and in ε and δ of check dp, query eps and query delta … for it"
}

// declareParam checks the parameter statement.
func (c *checker) declareParam(ps *ParamStmt) {
	name := ps.Name.Name
	switch {
	case isKeyword(name):
		c.errKeyword(ps.Name.Off, name, "a parameter")
		return
	case c.consts[name] != nil:
		c.errorf(ps.Name.Off, "%s is already a constant (line %d); the parameter needs its own name", name, c.position(c.consts[name].decl.Start).Line)
		return
	}
	c.param = &paramInfo{stmt: ps, name: name, bad: true}
	lo, ok1 := c.num(ps.Lo, "the interval's lower end")
	hi, ok2 := c.num(ps.Hi, "the interval's upper end")
	if !ok1 || !ok2 {
		return
	}
	if lo.Cmp(hi) >= 0 {
		c.errorf(ps.Lo.Pos(), "the interval of %s is empty: %s is not below %s", name, lo.RatString(), hi.RatString())
		return
	}
	in := poly.Interval{Lo: lo, Hi: hi, LoOpen: ps.LoOpen, HiOpen: ps.HiOpen}
	l, r := "[", "]"
	if ps.LoOpen {
		l = "("
	}
	if ps.HiOpen {
		r = ")"
	}
	c.param.in, c.param.text, c.param.bad = in, l+lo.RatString()+", "+hi.RatString()+r, false
}

// isParam reports whether e is the parameter's name.
func (c *checker) isParam(e *Expr) bool {
	e = e.unparen()
	return c.param != nil && e.Op == EName && !e.Primed && e.Text == c.param.name
}

// errParamUse reports a use of the parameter where it is not supported.
func (c *checker) errParamUse(off int) {
	c.errorf(off, "the parameter %s can be used only %s for now", c.param.name, paramUses())
}

// mentionsParam reports whether e mentions the parameter.
func (c *checker) mentionsParam(e *Expr) bool {
	if e == nil || c.param == nil {
		return false
	}
	if e.Op == EName && !e.Primed && e.Text == c.param.name {
		return true
	}
	for _, a := range e.Args {
		if c.mentionsParam(a) {
			return true
		}
	}
	return false
}

// maxParamPower bounds the exponents of the parameter in ε and δ.
const maxParamPower = 64

// ratFunc evaluates e as a rational function of the parameter: numbers
// and constants, the parameter, + − * / and ^ with an integer exponent.
func (c *checker) ratFunc(e *Expr, what string) (poly.RatFunc, bool) {
	if !c.mentionsParam(e) {
		x, ok := c.num(e, what)
		if !ok {
			return poly.RatFunc{}, false
		}
		return poly.FromPoly(poly.Const(x)), true
	}
	var lim poly.Limits
	fail := func(err error) (poly.RatFunc, bool) {
		c.errorf(e.Pos(), "%s: %v", what, err)
		return poly.RatFunc{}, false
	}
	switch e.Op {
	case EName:
		return poly.FromPoly(poly.X()), true
	case EParen:
		return c.ratFunc(e.Args[0], what)
	case ENeg:
		f, ok := c.ratFunc(e.Args[0], what)
		if !ok {
			return f, false
		}
		g, err := lim.RatSub(c.ctx, poly.RatFunc{}, f)
		if err != nil {
			return fail(err)
		}
		return g, true
	case ESum, EProd:
		var acc poly.RatFunc
		for i, a := range e.Args {
			f, ok := c.ratFunc(a, what)
			if !ok {
				return f, false
			}
			var err error
			switch {
			case i == 0 && e.Op == ESum && !a.Minus, i == 0 && e.Op == EProd && !a.Minus:
				acc = f
				continue
			case i == 0 && e.Op == ESum:
				acc, err = lim.RatSub(c.ctx, poly.RatFunc{}, f)
			case i == 0:
				acc, err = lim.RatDiv(c.ctx, poly.FromPoly(poly.FromInts(1)), f)
			case e.Op == ESum && a.Minus:
				acc, err = lim.RatSub(c.ctx, acc, f)
			case e.Op == ESum:
				acc, err = lim.RatAdd(c.ctx, acc, f)
			case a.Minus:
				acc, err = lim.RatDiv(c.ctx, acc, f)
			default:
				acc, err = lim.RatMul(c.ctx, acc, f)
			}
			if err != nil {
				c.errorf(a.Pos(), "%s: %v", what, err)
				return poly.RatFunc{}, false
			}
		}
		return acc, true
	case EPow:
		if c.mentionsParam(e.Args[1]) {
			c.errorf(e.Args[1].Pos(), "%s: the exponent must be an integer, not a function of %s", what, c.param.name)
			return poly.RatFunc{}, false
		}
		k, ok := c.integer(e.Args[1], "the exponent", -maxParamPower, maxParamPower)
		if !ok {
			return poly.RatFunc{}, false
		}
		f, ok := c.ratFunc(e.Args[0], what)
		if !ok {
			return f, false
		}
		return c.ratPow(e, f, k, what)
	}
	c.errorf(e.Pos(), "%s must be a rational function of %s (numbers, %s, + - * / and ^ with an integer exponent)", what, c.param.name, c.param.name)
	return poly.RatFunc{}, false
}

// ratPow raises f to the integer power k.
func (c *checker) ratPow(at *Expr, f poly.RatFunc, k int64, what string) (poly.RatFunc, bool) {
	var lim poly.Limits
	acc := poly.FromPoly(poly.FromInts(1))
	n := k
	if n < 0 {
		n = -n
	}
	var err error
	for range n {
		if acc, err = lim.RatMul(c.ctx, acc, f); err != nil {
			c.errorf(at.Pos(), "%s: %v", what, err)
			return poly.RatFunc{}, false
		}
	}
	if k < 0 {
		if acc, err = lim.RatDiv(c.ctx, poly.FromPoly(poly.FromInts(1)), acc); err != nil {
			c.errorf(at.Pos(), "%s: %v", what, err)
			return poly.RatFunc{}, false
		}
	}
	return acc, true
}

// expOfEps evaluates ε as e^ε, a rational function of the parameter:
// ε = k·ln(R) (or ln(R)·k, −ln(R), ln(R)/k is refused) with R a rational
// function and k an integer, or 0.
func (c *checker) expOfEps(e *Expr) (poly.RatFunc, bool) {
	const form = "ε for every %s must be k·ln(R) with R a rational function of %s (or a number) and k an integer, such as -ln(%s) or ln(3)"
	e = e.unparen()
	bad := func() (poly.RatFunc, bool) {
		c.errorf(e.Pos(), form, c.param.name, c.param.name, c.param.name)
		return poly.RatFunc{}, false
	}
	switch {
	case e.Op == ENum && !c.mentionsParam(e):
		x, ok := c.num(e, "ε")
		if !ok {
			return poly.RatFunc{}, false
		}
		if x.Sign() != 0 {
			return bad()
		}
		return poly.FromPoly(poly.FromInts(1)), true
	case e.Op == ECall && e.Text == "ln" && len(e.Args) == 1 && e.Args[0].Op != EArg:
		return c.ratFunc(e.Args[0], "the argument of ln")
	case e.Op == ENeg:
		f, ok := c.expOfEps(e.Args[0])
		if !ok {
			return f, false
		}
		return c.ratPow(e, f, -1, "ε")
	case e.Op == EProd && len(e.Args) == 2:
		k, l := e.Args[0], e.Args[1]
		if k.Minus || l.Minus {
			return bad()
		}
		if c.mentionsParam(k) || k.unparen().Op == ECall {
			k, l = l, k
		}
		if c.mentionsParam(k) {
			return bad()
		}
		n, ok := c.integer(k, "the factor of ln", -maxParamPower, maxParamPower)
		if !ok {
			return poly.RatFunc{}, false
		}
		f, ok := c.expOfEps(l)
		if !ok {
			return f, false
		}
		return c.ratPow(e, f, n, "ε")
	}
	return bad()
}

// nonNegative reports an error at e when f(x) < lo for some x of the
// interval (f ≥ lo must hold everywhere): ε ≥ 0 is e^ε ≥ 1, and δ ≥ 0. A
// function that cannot be decided here (a pole) is left to the
// evaluation, which refuses it with its own message.
func (c *checker) nonNegative(e *Expr, f poly.RatFunc, lo int64, what string) bool {
	if c.param.bad {
		return true
	}
	var lim poly.Limits
	g, err := lim.RatSub(c.ctx, f, poly.FromPoly(poly.FromInts(lo)))
	if err != nil {
		return true
	}
	r, err := lim.WhereRat(c.ctx, g, poly.GE, c.param.in)
	if err != nil {
		return true
	}
	w, outside, err := lim.Witness(c.ctx, r)
	if err != nil || !outside {
		return true
	}
	how := "is negative"
	if s, err := w.SignOf(c.ctx, f.Den()); err == nil && s == 0 {
		how = "has a pole" // undefined there, not negative
	}
	c.errorf(e.Pos(), "%s = %s %s at %s = %s: it must be ≥ 0 for every %s in %s", what, exprText(e), how, c.param.name, w.Format(c.param.name), c.param.name, c.param.text)
	return false
}

// paramProperty checks a statement of a file with a parameter, or one
// with "for NAME".
func (c *checker) paramProperty(pr *PropStmt, h property.Header, name string, call *Expr) property.Statement {
	switch {
	case c.param == nil && pr.For != nil:
		c.errorf(pr.For.Off, "for %s needs a parameter: declare it with param %s in (0, 1) and use it as a builder argument", pr.For.Name, pr.For.Name)
		return nil
	case c.param != nil && pr.For == nil:
		c.errorf(pr.Start, "the file has a parameter: add for %s to decide this statement for every %s in %s", c.param.name, c.param.name, c.param.text)
		return nil
	case pr.For.Name != c.param.name:
		c.errorf(pr.For.Off, "unknown parameter %s: the file's parameter is %s", pr.For.Name, c.param.name)
		return nil
	case pr.Over != nil:
		c.errorf(pr.Over.Pos(), "over traces(k) is not supported with a parameter yet")
		return nil
	}
	body := pr.Body.Pos()
	isCheck := !pr.Query
	var st property.Statement
	switch {
	case name == "dp" && isCheck:
		args, ok := c.propArgs(call, body, "dp", []string{"eps", "delta"}, 1)
		if !ok {
			return nil
		}
		cf, ok1 := c.expOfEps(args["eps"])
		ok1 = ok1 && c.nonNegative(args["eps"], cf, 1, "ε")
		d, ok2 := poly.RatFunc{}, true
		dText := "0"
		if x := args["delta"]; x != nil {
			d, ok2 = c.ratFunc(x, "δ")
			ok2 = ok2 && c.nonNegative(x, d, 0, "δ")
			dText = exprText(x)
		}
		if !ok1 || !ok2 {
			return nil
		}
		st = property.NewParamDPCheck(h, c.param.name, cf, d, exprText(args["eps"]), dText)
	case name == "eps" && !isCheck:
		args, ok := c.propArgs(call, body, "eps", []string{"delta"}, 0)
		if !ok {
			return nil
		}
		d, dText := poly.RatFunc{}, "0"
		if x := args["delta"]; x != nil {
			var ok bool
			if d, ok = c.ratFunc(x, "δ"); !ok || !c.nonNegative(x, d, 0, "δ") {
				return nil
			}
			dText = exprText(x)
		}
		st = property.NewParamEpsQuery(h, c.param.name, d, dText)
	case name == "delta" && !isCheck:
		args, ok := c.propArgs(call, body, "delta", []string{"eps"}, 1)
		if !ok {
			return nil
		}
		cf, ok := c.expOfEps(args["eps"])
		if !ok || !c.nonNegative(args["eps"], cf, 1, "ε") {
			return nil
		}
		st = property.NewParamDeltaQuery(h, c.param.name, cf, exprText(args["eps"]))
	case name == "equivalent":
		if !isCheck {
			c.errYesNo(body, "equivalent")
			return nil
		}
		if st = c.paramEquivalence(call, h); st == nil {
			return nil
		}
	case isExpected(pr.Body):
		f, cmp, bound, ok := c.expectedParts(pr, isCheck)
		if !ok {
			return nil
		}
		st = property.NewParamExpectedQuery(h, c.param.name, f, cmp, bound)
	default:
		c.errorf(body, "for every %s only check dp(…), check equivalent(…), query eps(delta = 0), query delta(eps = …) and expected(f) are supported for now", c.param.name)
		return nil
	}
	if ex := pr.Expect; ex != nil {
		hd := st.Head()
		hd.Expect.Pos = c.position(ex.Start)
		switch q := st.(type) {
		case *property.ParamExpectedQuery:
			if q.Bound == nil || ex.Outcome != "holds" && ex.Outcome != "violated" {
				c.errorf(ex.Start, "for every %s, check expected(f) … expects holds or violated, and query expected(f) no expectation", c.param.name)
				return nil
			}
			hd.Expect.Kind, hd.Expect.Text = property.ExpectHolds, ex.Outcome
			if ex.Outcome == "violated" {
				hd.Expect.Kind = property.ExpectViolated
			}
		case *property.ParamDPCheck, *property.ParamEquivalenceCheck:
			if ex.Outcome != "holds" && ex.Outcome != "violated" {
				c.errorf(ex.Start, "a check expects holds or violated")
				return nil
			}
			hd.Expect.Kind, hd.Expect.Text = property.ExpectHolds, ex.Outcome
			if ex.Outcome == "violated" {
				hd.Expect.Kind = property.ExpectViolated
			}
		case *property.ParamEpsQuery, *property.ParamDeltaQuery:
			if ex.Value == nil {
				c.errorf(ex.Start, "for every %s a query expects one function of %s over the whole interval (query eps(delta = 0) for %s expect -ln(%s)), not %s", c.param.name, c.param.name, c.param.name, c.param.name, exprOrOutcome(ex))
				return nil
			}
			var f poly.RatFunc
			var ok bool
			if eq, isEps := q.(*property.ParamEpsQuery); isEps {
				if f, ok = c.expOfEps(ex.Value); ok {
					eq.SetExpected(f)
				}
			} else if f, ok = c.ratFunc(ex.Value, "δ"); ok {
				q.(*property.ParamDeltaQuery).SetExpected(f)
			}
			if !ok {
				return nil
			}
			hd.Expect.Kind, hd.Expect.Text = property.ExpectValue, exprText(ex.Value)
		}
	} else if isCheck {
		st.Head().Expect = property.Expectation{Kind: property.ExpectHolds, Text: "holds"}
	}
	return st
}

// exprOrOutcome is an expectation as written.
func exprOrOutcome(ex *Expect) string {
	if ex.Outcome != "" {
		return ex.Outcome
	}
	p := &printer{limit: MaxStatementText}
	p.expect(ex)
	return p.text()
}
