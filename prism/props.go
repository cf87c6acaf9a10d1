package prism

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dpcheck/dpcheck/syntax"
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
	for p.Tok.Kind != tEOF {
		switch {
		case p.IsOp(";"):
			p.Advance()
		case p.Is("const") || p.Is("rate") || p.Is("prob"):
			p.prop = false
			f.Consts = append(f.Consts, p.constDecl())
		case p.Is("label"):
			p.prop = false
			f.Labels = append(f.Labels, p.labelDecl())
		case p.Is("formula"):
			p.prop = false
			f.Formulas = append(f.Formulas, p.formulaDecl())
		case p.Tok.Kind == tIdent && keywords[p.Tok.Text] && !startsProperty[p.Tok.Text]:
			p.unexpected("a property, const, label or formula")
		default:
			p.prop, p.path = true, false
			f.Props = append(f.Props, p.propertyOrRefused())
		}
	}
}

// startsProperty are the keywords a property may start with.
var startsProperty = map[string]bool{
	"true": true, "false": true, "min": true, "max": true, "func": true, "P": true, "Pmin": true, "Pmax": true,
	"filter": true, "R": true, "Rmin": true, "Rmax": true, "S": true, "E": true, "A": true, "C": true, "I": true,
	"X": true, "F": true, "G": true, "U": true, "W": true,
}

// propertyOrRefused parses `("NAME":)? EXPR`. A property that uses an
// operator dpcheck does not support parses all the same (its construct
// read to its end, an EUnsupported node) and is kept refused, with its
// name: Refused is the first such node's reason. A syntax error, inside
// such a construct too, stops the file as every syntax error does.
func (p *parser) propertyOrRefused() *Property {
	start := p.Tok.Off
	p.count(start)
	pr := &Property{}
	if p.Tok.Kind == tString && p.PeekIsOp(":") {
		n := p.quoted("", "property")
		pr.Name = &n
		p.Advance() // :
	}
	pr.Expr = p.exprExpect("a property, const, label or formula")
	pr.Span = Span{start, p.LastEnd}
	if u := firstUnsupported(pr.Expr); u != nil {
		pr.Refused = &syntax.Error{Off: int(u.Off), Msg: u.Text}
	}
	return pr
}

// firstUnsupported returns the first EUnsupported node of e, or nil.
func firstUnsupported(e *Expr) *Expr {
	if e == nil {
		return nil
	}
	if e.Op == EUnsupported {
		return e
	}
	for _, a := range e.Args {
		if u := firstUnsupported(a); u != nil {
			return u
		}
	}
	return nil
}

// unsupported reads the construct dpcheck does not check that starts at
// the current token (a keyword) and returns it as an EUnsupported node
// saying why: for R, its {…}, its relation and its […]; for E and A their
// […]; for multi its (…); for C and I a bound. Its brackets must match.
func (p *parser) unsupported(why string) *Expr {
	start, w := p.Tok.Off, p.Tok.Text
	p.enter()
	defer p.Unnest()
	switch w {
	case "R", "Rmin", "Rmax":
		if p.IsOp("{") {
			p.balanced()
		}
		if p.Is("min") || p.Is("max") {
			p.Advance()
		}
		p.probRelation(w, "ρ", "the expected reward")
		p.balancedOpen("[")
	case "multi":
		p.balancedOpen("(")
	case "C", "I":
		if p.Tok.Kind == tOp && (slices.Contains(relOps, p.Tok.Text) || p.Tok.Text == "=") {
			p.Advance()
			p.sub(false, false, "a time bound")
		}
	}
	return p.node(EUnsupported, start, why)
}

// balancedOpen reads a bracketed group that must start here with open.
func (p *parser) balancedOpen(open string) {
	if !p.IsOp(open) {
		p.expect(open, "")
	}
	p.balanced()
}

// balanced reads the bracketed group that starts at the current token,
// (…), […] or {…}, its brackets matched (at most MaxNesting deep).
func (p *parser) balanced() {
	closer := map[string]string{"(": ")", "[": "]", "{": "}"}
	var want []string
	for {
		switch {
		case p.Tok.Kind == tEOF:
			p.unexpected(`"` + want[len(want)-1] + `"`)
		case p.Tok.Kind == tOp && closer[p.Tok.Text] != "":
			if len(want) >= MaxNesting {
				p.Fail(p.Tok.Off, "brackets nested deeper than %d levels", MaxNesting)
			}
			want = append(want, closer[p.Tok.Text])
		case p.Tok.Kind == tOp && (p.Tok.Text == ")" || p.Tok.Text == "]" || p.Tok.Text == "}"):
			if p.Tok.Text != want[len(want)-1] {
				p.unexpected(`"` + want[len(want)-1] + `"`)
			}
			want = want[:len(want)-1]
			if len(want) == 0 {
				p.Advance()
				return
			}
		}
		p.Advance()
	}
}

// property parses an expression that starts with a property keyword (P,
// Pmin, Pmax, filter) and refuses the unsupported ones.
func (p *parser) property() *Expr {
	start, w := p.Tok.Off, p.Tok.Text
	switch w {
	case "P", "Pmin", "Pmax":
		return p.prob()
	case "filter":
		return p.filter()
	case "R", "Rmin", "Rmax":
		return p.reward()
	case "S":
		return p.steady()
	case "E", "A":
		return p.quantifier()
	case "C", "I":
		p.Fail(start, "%s is a path of a reward property: write R=? [%s]", w, map[string]string{"C": "C<=k", "I": "I=k"}[w])
	case "W":
		p.Fail(start, "W (weak until) is an infix operator: a W b, which dpcheck does not support (it checks X, U, F and G)")
	}
	p.unexpected("an expression")
	return nil
}

// probRelation parses what follows P or S (op): "=?" (rel "=", no bound) or
// a comparison and its bound; arg names the operand in messages, value
// what "=?" asks for.
func (p *parser) probRelation(op, arg, value string) (rel string, bound *Expr) {
	switch {
	case p.Tok.Kind == tOp && slices.Contains(relOps, p.Tok.Text):
		rel = p.Tok.Text
		p.Advance()
		return rel, p.sub(false, false, "a probability bound")
	case p.IsOp("="):
		p.Advance()
		if !p.IsOp("?") {
			p.Fail(p.Tok.Off, "%s=p is not a PRISM property: write %s=? [%s] for %s, or a bound such as %s>=p [%s]", op, op, arg, value, op, arg)
		}
		p.Advance()
		return "=", nil
	}
	p.unexpected(fmt.Sprintf(`"=?" or a bound such as ">=0.5" after %s: %s=? [%s], %s>=0.5 [%s]`, op, op, arg, op, arg))
	return "", nil
}

// reward parses R{"name"}=? [ρ], R{"name"}min=? [ρ], Rmin=? [ρ], R~r [ρ]
// (the structure {"name"} or {index} optional), ρ one of F φ, C<=k, I=k,
// C, S, or another path formula (refused in translation), and an
// old-style filter before the ].
func (p *parser) reward() *Expr {
	start, w := p.Tok.Off, p.Tok.Text
	p.enter()
	defer p.Unnest()
	var which *Expr
	if p.IsOp("{") {
		p.Advance()
		if p.Tok.Kind == tString {
			off := p.Tok.Off
			n := p.quoted("", "reward structure")
			which = &Expr{Off: int32(off), End: int32(p.LastEnd), Op: ELabel, Text: n.Name}
			p.count(off)
		} else {
			which = p.sub(false, false, `a reward structure: {"name"} or its index {1}`)
		}
		p.expect("}", "")
	}
	var rel string
	var bound *Expr
	kind := strings.TrimPrefix(w, "R")
	if kind == "" && (p.Is("min") || p.Is("max")) {
		kind = p.Tok.Text
		p.Advance()
	}
	if kind != "" {
		p.expect("=", `"=?"`)
		if !p.IsOp("?") {
			p.Fail(p.Tok.Off, "R%s=r is not a PRISM property: write R%s=? [ρ]", kind, kind)
		}
		p.Advance()
		rel = kind + "="
	} else {
		rel, bound = p.probRelation("R", "ρ", "the expected reward")
	}
	p.expect("[", "")
	path := p.rewardPath()
	var filter *Expr
	if p.IsOp("{") {
		filter = p.oldFilter()
	}
	p.expect("]", "")
	return p.node(EReward, start, rel, bound, path, filter, which)
}

// rewardPath parses the path of R: C<=k, C, I=k, S (ERewardPath, Text
// "C<=", "C", "I=", "S", the bound in Args[0]), or a path formula (F φ).
func (p *parser) rewardPath() *Expr {
	start := p.Tok.Off
	switch {
	case p.Is("C"):
		p.Advance()
		if p.IsOp("<=") {
			p.Advance()
			return p.node(ERewardPath, start, "C<=", p.sub(false, false, "a time bound"))
		}
		return p.node(ERewardPath, start, "C")
	case p.Is("I"):
		p.Advance()
		p.expect("=", `"=" and a time: I=k`)
		return p.node(ERewardPath, start, "I=", p.sub(false, false, "a time"))
	case p.Is("S") && (p.PeekIsOp("]") || p.PeekIsOp("{")): // R [S] or R [S {…}]
		p.Advance()
		return p.node(ERewardPath, start, "S")
	}
	return p.sub(true, true, "a reward path: F φ, C<=k, I=k, C or S")
}

// steady parses S=? [φ] and S~p [φ] (the long-run probability of φ).
func (p *parser) steady() *Expr {
	start := p.Tok.Off
	p.enter() // past S
	defer p.Unnest()
	rel, bound := p.probRelation("S", "φ", "the long-run probability")
	p.expect("[", "")
	phi := p.sub(true, false, "a state formula")
	var filter *Expr
	if p.IsOp("{") {
		filter = p.oldFilter()
	}
	p.expect("]", "")
	return p.node(ESteady, start, rel, bound, phi, filter)
}

// quantifier parses E [ψ] and A [ψ].
func (p *parser) quantifier() *Expr {
	start, w := p.Tok.Off, p.Tok.Text
	p.enter() // past E or A
	defer p.Unnest()
	p.expect("[", "")
	path := p.sub(true, true, "a path formula")
	p.expect("]", "")
	return p.node(EPathQuant, start, w, path)
}

// prob parses P~p [ψ], P=? [ψ], Pmin=? [ψ], Pmax=? [ψ] (also P min=?).
func (p *parser) prob() *Expr {
	start, w := p.Tok.Off, p.Tok.Text
	p.enter()
	defer p.Unnest()
	var bound *Expr
	var rel string
	query := func(kind string) {
		p.expect("=", `"=?"`)
		if !p.IsOp("?") {
			p.Fail(p.Tok.Off, "P%s=p is not a PRISM property: write P%s=? [ψ]", kind, kind)
		}
		p.Advance()
		rel = kind + "="
	}
	switch {
	case w == "Pmin":
		query("min")
	case w == "Pmax":
		query("max")
	case p.Is("min") || p.Is("max"):
		kind := p.Tok.Text
		p.Advance()
		query(kind)
	default:
		rel, bound = p.probRelation("P", "ψ", "the probability")
	}
	p.expect("[", "")
	path := p.sub(true, true, "a path formula")
	var filter *Expr
	if p.IsOp("{") {
		filter = p.oldFilter()
	}
	p.expect("]", "")
	return p.node(EProb, start, rel, bound, path, filter)
}

// oldFilter parses the old-style filter {STATES}{min}{max} inside P[…],
// S[…] or R[…].
func (p *parser) oldFilter() *Expr {
	start := p.Tok.Off
	p.enter()
	defer p.Unnest()
	states := p.sub(true, false, "the states of the filter {…}")
	p.expect("}", "")
	var kinds []string
	for p.IsOp("{") {
		p.Advance()
		if !p.Is("min") && !p.Is("max") {
			p.unexpected(`min or max: {min}, {max}`)
		}
		kinds = append(kinds, p.Tok.Text)
		p.Advance()
		p.expect("}", "")
	}
	return p.node(EOldFilter, start, strings.Join(kinds, ","), states)
}

// dp parses the dpCTL operator D{ε, δ}[ψ]; ε or δ may be ?.
func (p *parser) dp() *Expr {
	start := p.Tok.Off
	p.enter()   // D
	p.Advance() // {
	defer p.Unnest()
	eps := p.dpParam("ε")
	if p.IsOp("}") {
		p.Fail(p.Tok.Off, "D needs both ε and δ: write D{ε, δ}[ψ], e.g. D{1, 0}[X \"out\"]")
	}
	p.expect(",", `"," and δ: D{ε, δ}[ψ]`)
	delta := p.dpParam("δ")
	p.expect("}", "")
	p.expect("[", "")
	path := p.sub(true, true, "a path formula")
	p.expect("]", "")
	return p.node(EDP, start, "", eps, delta, path)
}

func (p *parser) dpParam(what string) *Expr {
	if p.IsOp("?") {
		start := p.Tok.Off
		p.Advance()
		return p.node(EUnknown, start, "")
	}
	return p.sub(false, false, what+" (a number, or ?)")
}

// filterOps are the operators of filter(…).
var filterOps = []string{"min", "max", "argmin", "argmax", "count", "sum", "+", "avg", "first", "range",
	"forall", "&", "exists", "|", "print", "printall", "state"}

// filter parses filter(OP, φ, STATES?).
func (p *parser) filter() *Expr {
	start := p.Tok.Off
	p.enter()
	p.expect("(", `"(": filter(op, φ, states)`)
	defer p.Unnest()
	op, opOff := p.Tok.Text, p.Tok.Off
	if p.Tok.Kind != tIdent && !(p.Tok.Kind == tOp && (op == "+" || op == "&" || op == "|")) || !slices.Contains(filterOps, op) {
		if p.Tok.Kind == tIdent {
			p.Fail(opOff, "unknown filter operator %s (filter operators: %s)", op, strings.Join(filterOps, ", "))
		}
		p.unexpected("a filter operator such as forall, print or first")
	}
	p.Advance()
	p.expect(",", `"," and the formula: filter(op, φ, states)`)
	phi := p.exprExpect("the formula to filter")
	var states *Expr
	if p.IsOp(",") {
		p.Advance()
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
	start := p.Tok.Off
	l := p.temporal()
	if p.Tok.Kind != tIdent {
		return l
	}
	op := p.Tok.Text
	switch op {
	case "U", "W", "R":
	default:
		return l
	}
	uOff := p.Tok.Off
	p.Advance()
	bound := p.bound()
	r := p.temporal()
	e := p.node(EUntil, start, op, l, r, bound)
	e.OpOff = int32(uOff)
	if p.Is("U") || p.Is("W") || p.Is("R") {
		p.Fail(p.Tok.Off, "%s does not chain: add parentheses, e.g. a %s (b %s c)", p.Tok.Text, p.Tok.Text, p.Tok.Text)
	}
	return e
}

// temporal parses X ψ, F ψ, G ψ (with a time bound for F and G) or an
// expression.
func (p *parser) temporal() *Expr {
	if p.Tok.Kind != tIdent || p.Tok.Text != "X" && p.Tok.Text != "F" && p.Tok.Text != "G" {
		return p.ite()
	}
	start, op := p.Tok.Off, p.Tok.Text
	p.enter()
	defer p.Unnest()
	var bound *Expr
	if op == "X" {
		if p.Tok.Kind == tOp && (slices.Contains(relOps, p.Tok.Text) || p.Tok.Text == "[" || p.Tok.Text == "=") {
			p.Fail(p.Tok.Off, "X takes no time bound: write X X … for several steps")
		}
	} else {
		bound = p.bound()
	}
	if !p.startsExpr() {
		p.unexpected("the operand of " + op)
	}
	return p.node(ETemporal, start, op, p.temporal(), bound)
}

// bound parses the time bound after F, G or U: <=k, <k, >=k, >k, =k or
// [a,b], an ETimeBound node, or nil. As in PRISM, a name followed by ( is
// the bound alone (F<=t (b) is F<=t applied to (b)).
func (p *parser) bound() *Expr {
	if p.Tok.Kind != tOp {
		return nil
	}
	start, rel := p.Tok.Off, p.Tok.Text
	switch rel {
	case "<=", "<", ">=", ">", "=":
		p.Advance()
		return p.node(ETimeBound, start, rel, p.boundValue())
	case "[":
		p.Advance()
		a := p.boundValue()
		p.expect(",", `"," and the upper bound: [a,b]`)
		b := p.boundValue()
		p.expect("]", "")
		return p.node(ETimeBound, start, "[]", a, b)
	}
	return nil
}

// boundValue parses one end of a time bound.
func (p *parser) boundValue() *Expr {
	if p.Tok.Kind == tIdent && p.PeekIsOp("(") && !keywords[p.Tok.Text] {
		if _, ok := functions[p.Tok.Text]; !ok {
			start, name := p.Tok.Off, p.Tok.Text
			p.Advance()
			return p.node(EName, start, name)
		}
	}
	return p.sub(false, false, "a time bound")
}
