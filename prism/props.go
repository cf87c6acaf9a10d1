package prism

import (
	"slices"
	"strings"
)

// ParseProperties parses a PRISM properties file (.pctl, .props): a
// sequence of properties, each optionally named ("name": …) and
// optionally ended by ;, with const, label and formula declarations among
// them. A syntax error or an unsupported operator (R, S, E, A, multi, W,
// lower time bounds) is returned as a source.ErrorList with one
// positioned error. Memory is proportional to the size of src.
func ParseProperties(filename, src string) (*PropertiesFile, error) {
	f := &PropertiesFile{File: File{Name: filename, Src: src}}
	if err := run(&f.File, true, func(p *parser) { p.propertiesFile(f) }); err != nil {
		return nil, err
	}
	return f, nil
}

func (p *parser) propertiesFile(f *PropertiesFile) {
	for p.tok.kind != tEOF {
		switch {
		case p.isOp(";"):
			p.advance()
		case p.is("const") || p.is("rate") || p.is("prob"):
			p.prop = false
			f.Consts = append(f.Consts, p.constDecl())
		case p.is("label"):
			p.prop = false
			f.Labels = append(f.Labels, p.labelDecl())
		case p.is("formula"):
			p.prop = false
			f.Formulas = append(f.Formulas, p.formulaDecl())
		case p.tok.kind == tIdent && keywords[p.tok.text] && !startsProperty[p.tok.text]:
			p.unexpected("a property, const, label or formula")
		default:
			p.prop, p.path = true, false
			f.Props = append(f.Props, p.oneProperty())
		}
	}
}

// startsProperty are the keywords a property may start with.
var startsProperty = map[string]bool{
	"true": true, "false": true, "min": true, "max": true, "func": true, "P": true, "Pmin": true, "Pmax": true,
	"filter": true, "R": true, "Rmin": true, "Rmax": true, "S": true, "E": true, "A": true, "C": true, "I": true,
	"X": true, "F": true, "G": true, "U": true, "W": true,
}

// oneProperty parses `("NAME":)? EXPR`.
func (p *parser) oneProperty() *Property {
	start := p.tok.off
	p.count(start)
	pr := &Property{}
	if p.tok.kind == tString && p.peekIsOp(":") {
		n := p.quoted("", "property")
		pr.Name = &n
		p.advance() // :
	}
	pr.Expr = p.exprExpect("a property, const, label or formula")
	pr.Span = Span{start, p.lastEnd}
	return pr
}

// property parses an expression that starts with a property keyword (P,
// Pmin, Pmax, filter) and refuses the unsupported ones.
func (p *parser) property() *Expr {
	start, w := p.tok.off, p.tok.text
	switch w {
	case "P", "Pmin", "Pmax":
		return p.prob()
	case "filter":
		return p.filter()
	case "R", "Rmin", "Rmax":
		p.fail(start, "%s (reward) properties: rewards are not supported yet; dpcheck computes probabilities exactly (P, D, filter)", w)
	case "S":
		p.fail(start, "S (steady-state) properties are not supported: dpcheck computes probabilities of paths exactly (P, D, filter)")
	case "E":
		p.fail(start, "E (CTL exists) is not supported: write P>0 [ψ]")
	case "A":
		p.fail(start, "A (CTL for all) is not supported: write P>=1 [ψ]")
	case "C", "I":
		p.fail(start, "%s belongs to reward properties (R): rewards are not supported yet; dpcheck computes probabilities exactly", w)
	case "W":
		p.fail(start, "W (weak until) is not supported: dpcheck checks X, U, F and G")
	}
	p.unexpected("an expression")
	return nil
}

// prob parses P~p [ψ], P=? [ψ], Pmin=? [ψ], Pmax=? [ψ] (also P min=?).
func (p *parser) prob() *Expr {
	start, w := p.tok.off, p.tok.text
	p.nest(start)
	p.advance()
	defer p.unnest()
	var bound *Expr
	var rel string
	query := func(kind string) {
		p.expect("=", `"=?"`)
		if !p.isOp("?") {
			p.fail(p.tok.off, "P%s=p is not a PRISM property: write P%s=? [ψ]", kind, kind)
		}
		p.advance()
		rel = kind + "="
	}
	switch {
	case w == "Pmin":
		query("min")
	case w == "Pmax":
		query("max")
	case p.is("min") || p.is("max"):
		kind := p.tok.text
		p.advance()
		query(kind)
	case p.tok.kind == tOp && slices.Contains(relOps, p.tok.text):
		rel = p.tok.text
		p.advance()
		bound = p.sub(false, false, "a probability bound")
	case p.isOp("="):
		p.advance()
		if !p.isOp("?") {
			p.fail(p.tok.off, "P=p is not a PRISM property: write P=? [ψ] for the probability, or a bound such as P>=p [ψ]")
		}
		p.advance()
		rel = "="
	default:
		p.unexpected(`"=?" or a bound such as ">=0.5" after P: P=? [ψ], P>=0.5 [ψ]`)
	}
	p.expect("[", "")
	saveProp, savePath := p.prop, p.path
	p.prop, p.path = true, true
	path := p.exprExpect("a path formula")
	var filter *Expr
	if p.isOp("{") {
		filter = p.oldFilter()
	}
	p.prop, p.path = saveProp, savePath
	p.expect("]", "")
	return p.node(EProb, start, rel, bound, path, filter)
}

// oldFilter parses the old-style filter {STATES}{min}{max} inside P[…].
func (p *parser) oldFilter() *Expr {
	start := p.tok.off
	p.nest(start)
	p.advance()
	defer p.unnest()
	states := p.sub(true, false, "the states of the filter {…}")
	p.expect("}", "")
	var kinds []string
	for p.isOp("{") {
		p.advance()
		if !p.is("min") && !p.is("max") {
			p.unexpected(`min or max: {min}, {max}`)
		}
		kinds = append(kinds, p.tok.text)
		p.advance()
		p.expect("}", "")
	}
	return p.node(EOldFilter, start, strings.Join(kinds, ","), states)
}

// dp parses the dpCTL operator D{ε, δ}[ψ]; ε or δ may be ?.
func (p *parser) dp() *Expr {
	start := p.tok.off
	p.nest(start)
	p.advance() // D
	p.advance() // {
	defer p.unnest()
	eps := p.dpParam("ε")
	if p.isOp("}") {
		p.fail(p.tok.off, "D needs both ε and δ: write D{ε, δ}[ψ], e.g. D{1, 0}[X \"out\"]")
	}
	p.expect(",", `"," and δ: D{ε, δ}[ψ]`)
	delta := p.dpParam("δ")
	p.expect("}", "")
	p.expect("[", "")
	saveProp, savePath := p.prop, p.path
	p.prop, p.path = true, true
	path := p.exprExpect("a path formula")
	p.prop, p.path = saveProp, savePath
	p.expect("]", "")
	return p.node(EDP, start, "", eps, delta, path)
}

func (p *parser) dpParam(what string) *Expr {
	if p.isOp("?") {
		start := p.tok.off
		p.advance()
		return p.node(EUnknown, start, "")
	}
	return p.sub(false, false, what+" (a number, or ?)")
}

// filterOps are the operators of filter(…).
var filterOps = []string{"min", "max", "argmin", "argmax", "count", "sum", "+", "avg", "first", "range",
	"forall", "&", "exists", "|", "print", "printall", "state"}

// filter parses filter(OP, φ, STATES?).
func (p *parser) filter() *Expr {
	start := p.tok.off
	p.nest(start)
	p.advance()
	p.expect("(", `"(": filter(op, φ, states)`)
	defer p.unnest()
	op, opOff := p.tok.text, p.tok.off
	if p.tok.kind != tIdent && !(p.tok.kind == tOp && (op == "+" || op == "&" || op == "|")) || !slices.Contains(filterOps, op) {
		if p.tok.kind == tIdent {
			p.fail(opOff, "unknown filter operator %s (filter operators: %s)", op, strings.Join(filterOps, ", "))
		}
		p.unexpected("a filter operator such as forall, print or first")
	}
	p.advance()
	p.expect(",", `"," and the formula: filter(op, φ, states)`)
	phi := p.exprExpect("the formula to filter")
	var states *Expr
	if p.isOp(",") {
		p.advance()
		states = p.exprExpect("the states to filter by")
	}
	p.expect(")", `"," or ")"`)
	e := p.node(EFilter, start, op, phi, states)
	e.OpOff = int32(opOff)
	return e
}

// until parses a path formula: "a U b" (U binds loosest), its operands
// temporal.
func (p *parser) until() *Expr {
	start := p.tok.off
	l := p.temporal()
	if p.tok.kind != tIdent {
		return l
	}
	switch p.tok.text {
	case "W":
		p.fail(p.tok.off, "W (weak until) is not supported: dpcheck checks X, U, F and G")
	case "R":
		p.fail(p.tok.off, "R (release) is not supported: dpcheck checks X, U, F and G")
	case "U":
	default:
		return l
	}
	uOff := p.tok.off
	p.advance()
	bound, strict := p.bound("U")
	r := p.temporal()
	e := p.node(EUntil, start, "", l, r, bound)
	e.OpOff, e.Strict = int32(uOff), strict
	if p.is("U") {
		p.fail(p.tok.off, "U does not chain: add parentheses, e.g. a U (b U c)")
	}
	return e
}

// temporal parses X ψ, F ψ, G ψ (with a time bound for F and G) or an
// expression.
func (p *parser) temporal() *Expr {
	if p.tok.kind != tIdent || p.tok.text != "X" && p.tok.text != "F" && p.tok.text != "G" {
		return p.ite()
	}
	start, op := p.tok.off, p.tok.text
	p.nest(start)
	p.advance()
	defer p.unnest()
	var bound *Expr
	var strict bool
	if op == "X" {
		if p.tok.kind == tOp && (slices.Contains(relOps, p.tok.text) || p.tok.text == "[" || p.tok.text == "=") {
			p.fail(p.tok.off, "X takes no time bound: write X X … for several steps")
		}
	} else {
		bound, strict = p.bound(op)
	}
	if !p.startsExpr() {
		p.unexpected("the operand of " + op)
	}
	e := p.node(ETemporal, start, op, p.temporal(), bound)
	e.Strict = strict
	return e
}

// bound parses the time bound after F, G or U: <=k or <k. As in PRISM, a
// name followed by ( is the bound alone (F<=t (b) is F<=t applied to (b)).
func (p *parser) bound(op string) (*Expr, bool) {
	if p.tok.kind != tOp {
		return nil, false
	}
	switch p.tok.text {
	case "<=", "<":
		strict := p.tok.text == "<"
		p.advance()
		if p.tok.kind == tIdent && p.peekIsOp("(") && !keywords[p.tok.text] {
			if _, ok := functions[p.tok.text]; !ok {
				start, name := p.tok.off, p.tok.text
				p.advance()
				return p.node(EName, start, name), strict
			}
		}
		return p.sub(false, false, "a time bound"), strict
	case ">=", ">", "=", "[":
		p.fail(p.tok.off, "lower and interval time bounds (%s%s…) are not supported: write %s<=k or %s<k", op, p.tok.text, op, op)
	}
	return nil, false
}
