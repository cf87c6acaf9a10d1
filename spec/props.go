package spec

import (
	"math/big"
	"slices"
	"strings"

	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/property"
)

// MaxStatementText bounds the characters of a statement's quoted text
// (property.Header.Text); longer statements are quoted up to it and end in
// "…".
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

// property checks a check or query statement and returns it, or nil after
// reporting its errors.
func (c *checker) property(pr *PropStmt) property.Statement {
	h := property.Header{Pos: c.position(pr.Start), Text: text(pr)}
	call, name := propertyCall(pr.Body)
	isCheck := !pr.Query
	var over *property.OutputSpec
	if pr.Over != nil {
		switch name {
		case "dp", "eps", "delta", "profile":
		default:
			c.errorf(pr.Over.Pos(), "over traces(k) applies to dp, eps, delta and profile; a formula's path already looks at the steps of a run")
			return nil
		}
		if over = c.traces(pr.Over); over == nil {
			return nil
		}
	}
	body := pr.Body.Pos()
	var st property.Statement
	if isExpected(pr.Body) {
		name = "expected"
	}
	switch name {
	case "expected":
		st = c.expected(pr, h, isCheck)
	case "equivalent":
		if !isCheck {
			c.errYesNo(body, "equivalent")
			return nil
		}
		st = c.equivalence(call, h)
	case "dp":
		if !isCheck {
			c.errorf(body, "dp(…) is a yes/no property: write check dp(…); the queries are eps(delta = …), delta(eps = …) and profile")
			return nil
		}
		args, ok := c.propArgs(call, body, "dp", []string{"eps", "delta"}, 1)
		if !ok {
			return nil
		}
		e, ok1 := c.eps(args["eps"], false)
		d, ok2 := big.NewRat(0, 1), true
		if x := args["delta"]; x != nil {
			d, ok2 = c.delta(x)
		}
		if ok1 && ok2 {
			s := &property.DPCheck{Header: h, Eps: e, Delta: d}
			s.Over = over
			st = s
		}
	case "eps", "delta", "profile":
		if isCheck {
			c.errorf(body, "%s is a query: write query %s", name, strings.TrimPrefix(h.Text, "check "))
			return nil
		}
		st = c.dpQuery(name, call, body, h, over)
	default:
		st = c.formulaProperty(pr, h, isCheck)
	}
	if st == nil || !c.expectation(pr, st) {
		return nil
	}
	return st
}

// isExpected reports whether a property's body is expected(f) or a
// comparison of it.
func isExpected(body *Expr) bool {
	if body.Op == ECmp && len(body.Args) == 2 {
		body = body.Args[0]
	}
	_, n := propertyCall(body)
	return n == "expected"
}

// expected checks "query expected(f)" and "check expected(f) ~ b".
func (c *checker) expected(pr *PropStmt, h property.Header, isCheck bool) property.Statement {
	f, cmp, bound, ok := c.expectedParts(pr, isCheck)
	if !ok {
		return nil
	}
	return &property.ExpectedQuery{Header: h, Expr: f, Cmp: cmp, Bound: bound}
}

// expectedParts checks the body of query expected(f) and check
// expected(f) ~ b: f, and the comparison and bound of a check.
func (c *checker) expectedParts(pr *PropStmt, isCheck bool) (f *expr.Expr, cmp string, bound *big.Rat, ok bool) {
	call, cmpExpr := pr.Body, (*Expr)(nil)
	if call.Op == ECmp {
		call, cmpExpr = call.Args[0], call
	}
	switch {
	case isCheck && cmpExpr == nil:
		c.errorf(call.Pos(), "expected(f) is a value: write query expected(f), or check expected(f) <= b")
		return nil, "", nil, false
	case !isCheck && cmpExpr != nil:
		c.errorf(cmpExpr.Pos(), "query expected(f) asks for the value: write check %s to compare it", exprText(cmpExpr))
		return nil, "", nil, false
	case call.Op == ECall && len(call.Args) == 1 && call.Args[0].Op == EArg:
		c.errorf(call.Args[0].Pos(), "expected(%s = …) reads as a named argument: put the comparison in parentheses, such as expected((out = in) ? 1 : 0)", call.Args[0].Text)
		return nil, "", nil, false
	case call.Op != ECall || len(call.Args) != 1:
		c.errorf(call.Pos(), "expected takes one expression: the number whose expected value is asked, such as expected(abs(out - in))")
		return nil, "", nil, false
	}
	switch a := call.Args[0]; a.Op {
	case ECmp, EAnd, EOr, ENot:
		c.errorf(a.Pos(), "expected(f) takes a number, and this is a condition: for its probability write expected((%s) ? 1 : 0)", exprText(a))
		return nil, "", nil, false
	}
	if f = c.number(call.Args[0]); f == nil {
		return nil, "", nil, false
	}
	if cmpExpr != nil {
		switch cmpExpr.Text {
		case "<", "<=", ">", ">=":
		default:
			c.errorf(cmpExpr.Pos(), "compare expected(f) with <, <=, > or >=, not %s", cmpExpr.Text)
			return nil, "", nil, false
		}
		if bound, ok = c.num(cmpExpr.Args[1], "the bound of expected(f)"); !ok {
			return nil, "", nil, false
		}
		cmp = cmpExpr.Text
	}
	return f, cmp, bound, true
}

// dpQuery checks query eps(…), delta(…) and profile.
func (c *checker) dpQuery(name string, call *Expr, at int, h property.Header, over *property.OutputSpec) property.Statement {
	switch name {
	case "eps":
		args, ok := c.propArgs(call, at, "eps", []string{"delta"}, 0)
		if !ok {
			return nil
		}
		s := &property.EpsQuery{Header: h, Delta: big.NewRat(0, 1)}
		s.Over = over
		if d := args["delta"]; d != nil {
			if s.Delta, ok = c.delta(d); !ok {
				return nil
			}
		}
		return s
	case "delta":
		args, ok := c.propArgs(call, at, "delta", []string{"eps"}, 1)
		if !ok {
			return nil
		}
		s := &property.DeltaQuery{Header: h}
		s.Over = over
		if s.Eps, ok = c.eps(args["eps"], false); !ok {
			return nil
		}
		return s
	}
	if call != nil && len(call.Args) > 0 {
		c.errorf(call.Pos(), "profile takes no arguments")
		return nil
	}
	s := &property.ProfileQuery{Header: h}
	s.Over = over
	return s
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
func (c *checker) equivalence(call *Expr, h property.Header) property.Statement {
	if call == nil || len(call.Args) != 2 || call.Args[0].Op == EArg || call.Args[1].Op == EArg {
		c.errorf(h.Pos.Offset, "equivalent takes two models: check equivalent(yarrow_geometric(…), truncated_geometric(…))")
		return nil
	}
	s := &property.EquivalenceCheck{Header: h, CallPos: c.position(call.Pos()), CallText: exprText(call)}
	ok := true
	for i, a := range call.Args {
		if a.Op == EName && a.Text == "model" {
			if c.model == nil {
				c.errorf(a.Pos(), "model stands for the file's own model, and this file has none (or it has errors)")
				ok = false
				continue
			}
			s.Models[i] = c.model
			continue
		}
		if a.Op != ECall {
			c.errorf(a.Pos(), "the arguments of equivalent must be models, such as survey(), or model for the file's own")
			ok = false
			continue
		}
		m := c.modelCall(a)
		if m == nil {
			ok = false
			continue
		}
		s.Models[i] = m
	}
	if !ok {
		return nil
	}
	return s
}

// traces checks "over traces(k)".
func (c *checker) traces(over *Expr) *property.OutputSpec {
	if over.Text != "traces" || len(over.Args) != 1 || over.Args[0].Op == EArg {
		c.errorf(over.Pos(), "expected traces(k) after over")
		return nil
	}
	k, ok := c.integer(over.Args[0], "the number of steps of a trace", 1, MaxSteps)
	if !ok {
		return nil
	}
	if c.observe == nil {
		c.errorf(over.Pos(), "over traces(k) needs an observe statement naming the labels a trace shows")
		return nil
	}
	return &property.OutputSpec{Steps: int(k), Pos: c.position(over.Pos())}
}

// formulaProperty checks a dpCTL check or query: check φ, query P=?[ψ],
// query D{?, δ}[ψ], query D{ε, ?}[ψ].
func (c *checker) formulaProperty(pr *PropStmt, h property.Header, isCheck bool) property.Statement {
	body := pr.Body
	switch {
	case body.Op == EProb && isUnknown(body.Args[0]):
		if isCheck {
			c.errorf(body.Pos(), "P%s?[…] is a query: write query P%s?[…]", body.Text, body.Text)
			return nil
		}
		extreme := strings.TrimSuffix(body.Text, "=")
		if extreme != "" && c.kind == kindChain {
			c.errorf(body.Pos(), "P%s=?[…] is the %simum over the schedulers of an MDP, and this model is a Markov chain: write P=?[…]", extreme, extreme)
			return nil
		}
		path := c.pathFormula(body.Args[1])
		if path == nil {
			return nil
		}
		return &property.ProbQuery{Header: h, Path: path, Extreme: extreme}
	case body.Op == EDP && (isUnknown(body.Args[0]) || isUnknown(body.Args[1])):
		epsArg, deltaArg := body.Args[0], body.Args[1]
		if isCheck {
			c.errorf(body.Pos(), "D{?,…} and D{…,?} are queries: write query …")
			return nil
		}
		if isUnknown(epsArg) && isUnknown(deltaArg) {
			c.errorf(body.Pos(), "D{?, ?}: give ε or δ")
			return nil
		}
		path := c.pathFormula(body.Args[2])
		if path == nil {
			return nil
		}
		if isUnknown(epsArg) {
			d, ok := c.delta(deltaArg)
			if !ok {
				return nil
			}
			return &property.DEpsQuery{Header: h, Path: path, Delta: d}
		}
		e, ok := c.eps(epsArg, false)
		if !ok {
			return nil
		}
		return &property.DDeltaQuery{Header: h, Path: path, Eps: e}
	}
	call, name := propertyCall(body)
	if !isCheck {
		if name != "" {
			c.errorf(body.Pos(), "unknown query %s: expected eps(delta = …), delta(eps = …), profile, P=?[…], D{?, δ}[…] or D{ε, ?}[…]", name)
			return nil
		}
		c.errorf(body.Pos(), "a formula is checked, not queried: write check …, or query P=?[…], D{?, δ}[…] or D{ε, ?}[…]")
		return nil
	}
	if call != nil {
		c.errorf(body.Pos(), "unknown property %s: expected dp(eps = …, delta = …) or a dpCTL formula", name)
		return nil
	}
	f := c.formula(body, false)
	if f == nil {
		return nil
	}
	return &property.FormulaCheck{Header: h, Formula: f}
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
			c.errMissingArg(at, name, params[0])
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
			c.errorf(a.Pos(), "%s has no argument %s%s (arguments: %s)", name, n, didYouMean(n, params), strings.Join(params, ", "))
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
			c.errMissingArg(call.Pos(), name, p)
			ok = false
		}
	}
	return args, ok
}

// expectation checks "expect …" against the statement kind.
func (c *checker) expectation(pr *PropStmt, st property.Statement) bool {
	ex := pr.Expect
	h := st.Head()
	var isCheck bool
	switch s := st.(type) {
	case *property.DPCheck, *property.FormulaCheck, *property.EquivalenceCheck:
		isCheck = true
	case *property.ExpectedQuery:
		isCheck = s.Bound != nil
	}
	if ex == nil {
		if isCheck {
			h.Expect = property.Expectation{Kind: property.ExpectHolds, Text: "holds"}
		}
		return true
	}
	h.Expect.Pos = c.position(ex.Start)
	if ex.Outcome != "" {
		if !isCheck {
			c.errorf(ex.Start, "a query expects a value, not %s", ex.Outcome)
			return false
		}
		h.Expect.Kind, h.Expect.Text = property.ExpectHolds, ex.Outcome
		switch ex.Outcome {
		case "violated":
			h.Expect.Kind = property.ExpectViolated
		case "unknown":
			_, equiv := st.(*property.EquivalenceCheck)
			if c.kind == kindChain || equiv {
				c.errorf(ex.Start, "expect unknown is for a check on an MDP that may be neither proved nor refuted; %s is decided exactly: expect holds or violated", map[bool]string{true: "an equivalence", false: "a check on a Markov chain"}[equiv])
				return false
			}
			h.Expect.Kind = property.ExpectUnknown
		}
		return true
	}
	p := &printer{limit: MaxStatementText}
	p.expect(ex)
	h.Expect.Kind, h.Expect.Text = property.ExpectValue, p.text()
	_, isProb := st.(*property.ProbQuery)
	_, isExpected := st.(*property.ExpectedQuery)
	if ex.Values != nil && !isProb && !isExpected {
		c.errorf(ex.Start, "only query P=?[…] expects values of named inputs (NAME: VALUE, …); write one value")
		return false
	}
	var ok bool
	switch s := st.(type) {
	case *property.DPCheck, *property.FormulaCheck, *property.EquivalenceCheck:
		c.errorf(ex.Start, "a check expects holds or violated, not %s%s", h.Expect.Text, didYouMean(h.Expect.Text, []string{"holds", "violated"}))
	case *property.ProfileQuery:
		c.errorf(ex.Start, "query profile takes no expectation")
	case *property.EpsQuery:
		s.Expected, ok = c.eps(ex.Value, true)
	case *property.DEpsQuery:
		s.Expected, ok = c.eps(ex.Value, true)
	case *property.DeltaQuery:
		s.Expected, s.ExpectedReal, ok = c.expectedDelta(ex.Value, s.Eps)
	case *property.DDeltaQuery:
		s.Expected, s.ExpectedReal, ok = c.expectedDelta(ex.Value, s.Eps)
	case *property.ProbQuery:
		ok = c.probExpectation(ex, s)
	case *property.ExpectedQuery:
		if s.Bound != nil {
			c.errorf(ex.Start, "a check expects holds or violated, not %s", h.Expect.Text)
			return false
		}
		ok = c.valueExpectation(ex, &s.ExpectAll, &s.ExpectInputs, c.num, "an expected value")
	}
	return ok
}

// probExpectation checks what a query P=?[…] expects: one probability for
// every input, or those of named inputs (resolved when prepared).
func (c *checker) probExpectation(ex *Expect, s *property.ProbQuery) bool {
	return c.valueExpectation(ex, &s.ExpectAll, &s.ExpectInputs, c.probability, "an expected probability")
}

// valueExpectation checks what a query P=?[…] or expected(f) expects: one
// value for every input, or those of named inputs, each read by read.
func (c *checker) valueExpectation(ex *Expect, all **big.Rat, named *[]property.ExpectedProb, read func(*Expr, string) (*big.Rat, bool), what string) bool {
	if ex.Value != nil {
		v, ok := read(ex.Value, what)
		*all = v
		return ok
	}
	ok := true
	for _, nv := range ex.Values {
		v, good := read(nv.Value, what)
		if !good {
			ok = false
			continue
		}
		*named = append(*named, property.ExpectedProb{Input: property.Ref{Name: nv.Name.Text, Pos: c.position(nv.Name.Off)}, Value: v})
	}
	return ok
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
