package prism

import (
	"strings"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/syntax"
)

// keywords are PRISM's reserved words: none can name a constant, variable,
// formula, module or action.
var keywords = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`A bool clock const ctmc C double dtmc E endinit endinvariant
		endmodule endobservables endplayer endrewards endsystem false formula filter func F global G
		init invariant I int label lts max mdp min module X nondeterministic observable observables
		Pmax Pmin P player pomdp popta probabilistic prob pta rate rewards Rmax Rmin R S stochastic
		system true U W`) {
		keywords[k] = true
	}
}

// IsKeyword reports whether name is a PRISM keyword.
func IsKeyword(name string) bool { return keywords[name] }

// functions are PRISM's built-in functions with their least and greatest
// number of arguments (-1: any) and how they are called.
var functions = map[string]struct {
	min, max int
	usage    string
}{
	"min":   {1, -1, "min(a, b, …)"},
	"max":   {1, -1, "max(a, b, …)"},
	"floor": {1, 1, "floor(x)"},
	"ceil":  {1, 1, "ceil(x)"},
	"round": {1, 1, "round(x)"},
	"pow":   {2, 2, "pow(x, y)"},
	"mod":   {2, 2, "mod(i, n)"},
	"log":   {2, 2, "log(x, b)"},
}

const functionList = "ceil, floor, log, max, min, mod, pow, round"

// Refused model types, with why.
var refusedTypes = map[string]string{
	"ctmc":       "ctmc models are not supported: dpcheck checks discrete-time chains exactly",
	"stochastic": "stochastic (ctmc) models are not supported: dpcheck checks discrete-time chains exactly",
	"ctmdp":      "ctmdp models are not supported: dpcheck checks discrete-time chains exactly",
	"pta":        "pta models (probabilistic timed automata) are not supported: dpcheck checks discrete-time chains exactly",
	"pomdp":      "pomdp models are not supported: dpcheck checks fully observable discrete-time models",
	"popta":      "popta models are not supported: dpcheck checks fully observable discrete-time models",
	"lts":        "lts models are not supported: dpcheck checks probabilistic models (dtmc, mdp)",
	"smg":        "smg models (stochastic games) are not supported: dpcheck checks dtmc and mdp models",
	"csg":        "csg models (stochastic games) are not supported: dpcheck checks dtmc and mdp models",
	"tsg":        "tsg models (stochastic games) are not supported: dpcheck checks dtmc and mdp models",
}

const (
	msgRate        = "rate constants are for ctmc models, which are not supported: dpcheck checks discrete-time chains exactly"
	msgSystem      = "system … endsystem is not supported: dpcheck composes all modules in parallel, synchronising on shared actions (PRISM's default without it)"
	msgObservables = "observables (pomdp) are not supported: dpcheck checks fully observable discrete-time models"
	msgPlayer      = "player … endplayer (stochastic games) is not supported: dpcheck checks dtmc and mdp models"
	msgClock       = "clock variables (pta) are not supported: dpcheck checks discrete-time chains exactly"
	msgInvariant   = "invariant … endinvariant (pta) is not supported: dpcheck checks discrete-time chains exactly"
)

// ParseModel parses a PRISM model file. A syntax error, or a construct
// outside the supported subset (see the package documentation), is
// returned as a source.ErrorList with one positioned error: parsing stops
// at the first. Memory is proportional to the size of src.
func ParseModel(filename, src string) (*ModelFile, error) {
	m := &ModelFile{File: File{Name: filename, Src: src}, TypeOff: -1}
	if err := run(&m.File, false, func(p *parser) { p.modelFile(m) }); err != nil {
		return nil, err
	}
	return m, nil
}

// run parses f.Src with body, turning the first error into an ErrorList.
func run(f *File, prop bool, body func(*parser)) (err error) {
	if msg := syntax.SizeError(f.Src); msg != "" {
		return source.ErrorList{{Pos: source.Position{Filename: f.Name, Line: 1, Column: 1}, Msg: msg}}
	}
	if i := strings.IndexByte(f.Src, 0); i >= 0 {
		return f.Errorf(i, "the file contains NUL bytes: it is not a PRISM text file")
	}
	p := &parser{prop: prop}
	defer func() {
		if r := recover(); r != nil {
			b := syntax.Catch(r)
			err = f.Errorf(b.Off, "%s", b.Msg)
		}
	}()
	if serr := p.Start(syntax.NewScanner(&prismLang, f.Src, false)); serr != nil {
		return f.Errorf(serr.Off, "%s", serr.Msg)
	}
	body(p)
	return nil
}

type parser struct {
	syntax.Parser // Nodes counts the expression nodes made (MaxNodes)
	// prop is set where property operators (P, D, filter, labels) may
	// appear, path where path operators (X, F, G, U) may.
	prop, path bool
}

// describe names a token in a message: a quoted name or a primed name
// as such.
func describe(t token) string {
	switch t.Kind {
	case tString:
		return `quoted name "` + t.Text + `"`
	case tPrimed:
		return `"` + t.Text + `'"`
	}
	return syntax.Describe(t)
}

// unexpected fails at the current token, saying what was expected.
func (p *parser) unexpected(expected string) { p.Unexpected(describe(p.Tok), expected) }

// expect consumes the operator text or fails, saying what was expected
// (the operator itself when expected is empty).
func (p *parser) expect(text, expected string) {
	if !p.IsOp(text) {
		if expected == "" {
			expected = `"` + text + `"`
		}
		p.unexpected(expected)
	}
	p.Advance()
}

// expectWord consumes the keyword text or fails.
func (p *parser) expectWord(text, expected string) {
	if p.Tok.Kind != tIdent || p.Tok.Text != text {
		p.unexpected(expected)
	}
	p.Advance()
}

// name consumes a name that is not a keyword; what says what it names.
func (p *parser) name(expected, what string) Ident {
	if p.Tok.Kind != tIdent {
		if p.Tok.Kind == tPrimed {
			p.Fail(p.Tok.Off, "%s' (a primed variable) only appears on the left of an update: (%s'=…)", p.Tok.Text, p.Tok.Text)
		}
		p.unexpected(expected)
	}
	if keywords[p.Tok.Text] {
		p.Fail(p.Tok.Off, "%s is a PRISM keyword and cannot name %s", p.Tok.Text, what)
	}
	id := Ident{Off: p.Tok.Off, Name: p.Tok.Text}
	p.Advance()
	return id
}

// quoted consumes a quoted name ("done"), which must be an identifier.
func (p *parser) quoted(expected, what string) Ident {
	if p.Tok.Kind != tString {
		p.unexpected(expected)
	}
	if !syntax.IsIdent(p.Tok.Text) {
		p.Fail(p.Tok.Off, "\"%s\" is not a valid %s name: write an identifier in double quotes, such as \"done\"", p.Tok.Text, what)
	}
	id := Ident{Off: p.Tok.Off, Name: p.Tok.Text}
	p.Advance()
	return id
}

// semi consumes the ; that ends a declaration.
func (p *parser) semi(what string) {
	p.expect(";", `";" to end the `+what)
}

const topWords = "a model type (dtmc, mdp), const, formula, label, global, module, rewards or init"

func (p *parser) modelFile(m *ModelFile) {
	for p.Tok.Kind != tEOF {
		if p.Tok.Kind != tIdent {
			p.unexpected(topWords)
		}
		start := p.Tok.Off
		switch w := p.Tok.Text; w {
		case "dtmc", "probabilistic", "mdp", "nondeterministic":
			if m.Type != TypeNone {
				p.Fail(start, "a second model type: the file already declares %s at line %d", m.TypeWord, m.Line(m.TypeOff))
			}
			m.Type, m.TypeWord, m.TypeOff = DTMC, w, start
			if w == "mdp" || w == "nondeterministic" {
				m.Type = MDP
			}
			p.Advance()
		case "const", "rate", "prob":
			m.Consts = append(m.Consts, p.constDecl())
		case "formula":
			m.Formulas = append(m.Formulas, p.formulaDecl())
		case "label":
			m.Labels = append(m.Labels, p.labelDecl())
		case "global":
			p.Advance()
			v := p.varDecl(start)
			v.Global = true
			m.Globals = append(m.Globals, v)
		case "module":
			m.Modules = append(m.Modules, p.module())
		case "rewards":
			m.Rewards = append(m.Rewards, p.rewards())
		case "init":
			if m.Init != nil {
				p.Fail(start, "a second init … endinit block: the first is at line %d", m.Line(m.Init.Start))
			}
			p.Advance()
			in := &Init{Cond: p.exprExpect("the condition on the initial states")}
			p.expectWord("endinit", `"endinit"`)
			in.Span = Span{start, p.LastEnd}
			m.Init = in
		case "system":
			p.Fail(start, "%s", msgSystem)
		case "observables", "observable":
			p.Fail(start, "%s", msgObservables)
		case "player":
			p.Fail(start, "%s", msgPlayer)
		default:
			if msg, ok := refusedTypes[w]; ok {
				p.Fail(start, "%s", msg)
			}
			if !keywords[w] && p.PeekIsOp(":") {
				p.Fail(start, "the variable %s is declared outside a module: declare it inside module … endmodule, or as global %s : …", w, w)
			}
			p.unexpected(topWords)
		}
	}
}

// constDecl parses "const TYPE? NAME (= EXPR)? ;" or "prob NAME …".
func (p *parser) constDecl() *Const {
	start := p.Tok.Off
	p.count(start)
	c := &Const{Type: ConstInt}
	switch p.Tok.Text {
	case "rate":
		p.Fail(start, "%s", msgRate)
	case "prob":
		c.Type, c.TypeWord = ConstDouble, "prob"
		p.Advance()
	default: // const
		p.Advance()
		if p.Tok.Kind == tIdent {
			switch p.Tok.Text {
			case "int":
				c.Type, c.TypeWord = ConstInt, "int"
				p.Advance()
			case "double":
				c.Type, c.TypeWord = ConstDouble, "double"
				p.Advance()
			case "bool":
				c.Type, c.TypeWord = ConstBool, "bool"
				p.Advance()
			case "rate":
				p.Fail(p.Tok.Off, "%s", msgRate)
			}
		}
	}
	c.Name = p.name("a constant name", "a constant")
	c.Value = p.optional("=", "the value of the constant", "the constant")
	c.Span = Span{start, p.LastEnd}
	return c
}

// formulaDecl parses "formula NAME = EXPR ;".
func (p *parser) formulaDecl() *Formula {
	start := p.Tok.Off
	p.count(start)
	p.Advance()
	f := &Formula{Name: p.name("a formula name", "a formula")}
	p.expect("=", "")
	f.Value = p.exprExpect("the expression of the formula")
	p.semi("formula")
	f.Span = Span{start, p.LastEnd}
	return f
}

// labelDecl parses `label "NAME" = EXPR ;`.
func (p *parser) labelDecl() *Label {
	start := p.Tok.Off
	p.count(start)
	p.Advance()
	if p.Tok.Kind == tIdent {
		p.Fail(p.Tok.Off, "label names are written in double quotes: label \"%s\" = …", p.Tok.Text)
	}
	l := &Label{Name: p.quoted(`a label name in double quotes`, "label")}
	p.expect("=", "")
	l.Value = p.exprExpect("the condition of the label")
	p.semi("label")
	l.Span = Span{start, p.LastEnd}
	return l
}

// varDecl parses "NAME : [LOW..HIGH] (init E)? ;" or "NAME : bool (init
// E)? ;"; start is where the declaration starts (at global, if any).
func (p *parser) varDecl(start int) *Var {
	p.count(start)
	v := &Var{Name: p.name("a variable name", "a variable")}
	p.expect(":", "")
	switch {
	case p.IsOp("["):
		p.Advance()
		v.Low = p.exprExpect("the low bound of the range [lo..hi]")
		p.expect("..", `".." (a range is written [lo..hi])`)
		v.High = p.exprExpect("the high bound of the range [lo..hi]")
		p.expect("]", `"]" to end the range [lo..hi]`)
	case p.Is("bool"):
		v.Bool = true
		p.Advance()
	case p.Is("clock"):
		p.Fail(p.Tok.Off, "%s", msgClock)
	case p.Is("int") || p.Is("double"):
		p.Fail(p.Tok.Off, "unbounded variables (%s : %s) are not supported: give a range, %s : [lo..hi]", v.Name.Name, p.Tok.Text, v.Name.Name)
	default:
		p.unexpected("a type: [lo..hi] or bool")
	}
	v.Init = p.optional("init", "the initial value", "the declaration")
	v.Span = Span{start, p.LastEnd}
	return v
}

// optional parses the end of a declaration, "(word EXPR)? ;" (EXPR is
// what, for messages; the declaration is ended), and returns EXPR or nil.
func (p *parser) optional(word, what, ended string) *Expr {
	var e *Expr
	if p.Is(word) {
		p.Advance()
		e = p.exprExpect(what)
	}
	if !p.IsOp(";") {
		if e == nil {
			p.unexpected(`"` + word + `" or ";"`)
		}
		p.unexpected(`";" to end ` + ended)
	}
	p.Advance()
	return e
}

// module parses "module NAME VARS COMMANDS endmodule" or a renamed module.
func (p *parser) module() *Module {
	start := p.Tok.Off
	p.count(start)
	p.Advance()
	m := &Module{Name: p.name("a module name", "a module")}
	if p.IsOp("=") {
		p.Advance()
		base := p.name("the name of the module to copy", "a module")
		m.Base = &base
		p.expect("[", `"[" and the renamings, e.g. [x1=x2, a1=a2]`)
		m.Renames = syntax.List(&p.Parser, ",", func() Rename {
			p.count(p.Tok.Off)
			r := Rename{From: p.renamed()}
			p.expect("=", "")
			r.To = p.renamed()
			return r
		})
		p.expect("]", `"," or "]"`)
		p.expectWord("endmodule", `"endmodule"`)
		m.Span = Span{start, p.LastEnd}
		return m
	}
	for p.Tok.Kind == tIdent && p.PeekIsOp(":") {
		m.Vars = append(m.Vars, p.varDecl(p.Tok.Off))
	}
	if p.Is("invariant") {
		p.Fail(p.Tok.Off, "%s", msgInvariant)
	}
	for p.IsOp("[") {
		m.Commands = append(m.Commands, p.command())
	}
	if !p.Is("endmodule") {
		if p.Tok.Kind == tIdent && p.PeekIsOp(":") {
			p.Fail(p.Tok.Off, "the variable %s is declared after a command: declare the variables of a module before its commands", p.Tok.Text)
		}
		if p.Is("invariant") {
			p.Fail(p.Tok.Off, "%s", msgInvariant)
		}
		p.unexpected(`a command "[action] guard -> updates;" or "endmodule"`)
	}
	p.Advance()
	m.Span = Span{start, p.LastEnd}
	return m
}

// renamed consumes a name in a renaming: an identifier, or min or max
// (which PRISM lets a renaming replace).
func (p *parser) renamed() Ident {
	if p.Is("min") || p.Is("max") {
		id := Ident{Off: p.Tok.Off, Name: p.Tok.Text}
		p.Advance()
		return id
	}
	return p.name("a name", "a renamed name")
}

// command parses "[ACTION] GUARD -> UPDATES ;".
func (p *parser) command() *Command {
	start := p.Tok.Off
	p.count(start)
	p.Advance() // [
	c := &Command{}
	if p.Tok.Kind == tIdent {
		a := p.name("an action", "an action")
		c.Action = &a
	}
	p.expect("]", `"]" (a command starts with [] or [action])`)
	c.Guard = p.exprExpect("a guard")
	if !p.IsOp("->") {
		p.unexpected(`"->" after the guard`)
	}
	c.Arrow = p.Tok.Off
	p.Advance()
	if p.Is("true") || p.IsOp("(") && p.Peek.Kind == tPrimed {
		c.Updates = []*Update{p.update(p.Tok.Off)}
		if p.IsOp("+") {
			p.Fail(p.Tok.Off, `unexpected "+": an update without a probability stands alone; give each update a probability, p : (x'=…) + q : (x'=…)`)
		}
		p.expect(";", `"&" or ";"`)
	} else {
		c.Updates = syntax.List(&p.Parser, "+", func() *Update {
			ustart := p.Tok.Off
			prob := p.exprExpect(`the updates: p : (x'=…) + …, (x'=…) or true`)
			p.expect(":", `":" after the probability of an update`)
			u := p.update(ustart)
			u.Prob = prob
			return u
		})
		p.expect(";", `"&", "+" or ";"`)
	}
	c.Span = Span{start, p.LastEnd}
	return c
}

// update parses "true" or "(x'=e) & (y'=f) …"; start is where the update
// (with its probability) starts.
func (p *parser) update(start int) *Update {
	p.count(start)
	u := &Update{}
	if p.Is("true") {
		p.Advance()
		u.True = true
		u.Span = Span{start, p.LastEnd}
		return u
	}
	expected := `an update (x'=…) or true`
	u.Assigns = syntax.List(&p.Parser, "&", func() *Assign {
		if !p.IsOp("(") {
			if p.Tok.Kind == tPrimed {
				p.Fail(p.Tok.Off, "an update is written in parentheses: (%s'=…)", p.Tok.Text)
			}
			p.unexpected(expected)
		}
		expected = `an update (x'=…)`
		p.count(p.Tok.Off)
		a := &Assign{Span: Span{Start: p.Tok.Off}}
		p.Advance()
		if p.Tok.Kind != tPrimed {
			if p.Tok.Kind == tIdent && p.PeekIsOp("=") {
				p.Fail(p.Tok.Off, "the variable of an update is primed: write (%s'=…)", p.Tok.Text)
			}
			p.unexpected(`a primed variable: (x'=…)`)
		}
		if keywords[p.Tok.Text] {
			p.Fail(p.Tok.Off, "%s is a PRISM keyword and cannot name a variable", p.Tok.Text)
		}
		a.Var = Ident{Off: p.Tok.Off, Name: p.Tok.Text}
		p.Advance()
		p.expect("=", "")
		a.Value = p.exprExpect("the new value")
		p.expect(")", "")
		a.End = p.LastEnd
		return a
	})
	u.Span = Span{start, p.LastEnd}
	return u
}

// rewards parses `rewards "NAME"? ITEMS endrewards`.
func (p *parser) rewards() *Rewards {
	start := p.Tok.Off
	p.Advance()
	r := &Rewards{}
	if p.Tok.Kind == tString {
		n := p.quoted("", "reward structure")
		r.Name = &n
	}
	for !p.Is("endrewards") {
		p.count(p.Tok.Off)
		it := &RewardItem{Span: Span{Start: p.Tok.Off}}
		if p.IsOp("[") {
			it.Transition = true
			p.Advance()
			if p.Tok.Kind == tIdent {
				a := p.name("an action", "an action")
				it.Action = &a
			}
			p.expect("]", "")
		}
		it.Guard = p.exprExpect(`a reward item "guard : reward;" or "endrewards"`)
		p.expect(":", `":" after the guard of a reward item`)
		it.Value = p.exprExpect("the reward")
		p.semi("reward item")
		it.End = p.LastEnd
		r.Items = append(r.Items, it)
	}
	p.Advance()
	r.Span = Span{start, p.LastEnd}
	return r
}

// enter consumes an operator that opens a level of nesting, counted at
// the operator (Unnest leaves it).
func (p *parser) enter() {
	p.Nest(p.Tok.Off, MaxNesting)
	p.Advance()
}

// joined returns what makes the operands of a level one node of the kind
// op (syntax.Join).
func (p *parser) joined(op Op) func(start int, args []*Expr) *Expr {
	return func(start int, args []*Expr) *Expr { return p.node(op, start, "", args...) }
}

// markOp marks an operand of a sum or product with the operator before it.
func markOp(e *Expr, minus bool, off int) { e.Minus, e.OpOff = minus, int32(off) }

// node makes an expression node, counted against MaxNodes.
func (p *parser) node(op Op, start int, text string, args ...*Expr) *Expr {
	p.count(start)
	return &Expr{Off: int32(start), End: int32(p.LastEnd), Op: op, Text: text, Args: args}
}

// count counts an expression node, declaration, command, update or
// property at offset off against MaxNodes.
func (p *parser) count(off int) {
	if p.Nodes++; p.Nodes > MaxNodes {
		p.Fail(off, "this file has more than %s operators, operands, declarations, commands and updates; the limit is %s", exact.Thousands(MaxNodes), exact.Thousands(MaxNodes))
	}
}

// startsExpr reports whether the current token can start an expression.
func (p *parser) startsExpr() bool {
	switch p.Tok.Kind {
	case tIdent, tPrimed, tInt, tDouble, tString:
		return true
	case tOp:
		return p.Tok.Text == "(" || p.Tok.Text == "!" || p.Tok.Text == "-"
	}
	return false
}

// exprExpect parses an expression, failing with expected when none starts
// here.
func (p *parser) exprExpect(expected string) *Expr {
	if !p.startsExpr() {
		p.unexpected(expected)
	}
	return p.expr()
}

// expr parses an expression: in a path formula (p.path) the temporal
// operators bind loosest, as in PRISM; elsewhere it is c ? a : b.
func (p *parser) expr() *Expr {
	if p.path {
		return p.until()
	}
	return p.ite()
}

// sub parses an expression with prop and path set as given, restoring
// them afterwards.
func (p *parser) sub(prop, path bool, expected string) *Expr {
	saveProp, savePath := p.prop, p.path
	p.prop, p.path = prop, path
	e := p.exprExpect(expected)
	p.prop, p.path = saveProp, savePath
	return e
}

func (p *parser) ite() *Expr {
	start := p.Tok.Off
	c := p.implies()
	if !p.IsOp("?") {
		return c
	}
	p.enter()
	defer p.Unnest()
	a := p.implies()
	p.expect(":", `":" of c ? a : b`)
	b := p.ite()
	return p.node(EITE, start, "", c, a, b)
}

// binary parses a left-associative chain of the operators ops over next;
// each link of the chain counts as a level of nesting.
func (p *parser) binary(op Op, ops []string, next func() *Expr) *Expr {
	start := p.Tok.Off
	return syntax.Left(&p.Parser, ops, MaxNesting, next, func(l, r *Expr, t token) *Expr {
		e := p.node(op, start, t.Text, l, r)
		e.OpOff = int32(t.Off)
		return e
	})
}

var (
	impliesOps  = []string{"=>"}
	iffOps      = []string{"<=>"}
	equalityOps = []string{"=", "!="}
	relOps      = []string{"<", "<=", ">", ">="}
)

func (p *parser) implies() *Expr { return p.binary(EImplies, impliesOps, p.iff) }

func (p *parser) iff() *Expr { return p.binary(EIff, iffOps, p.or) }

func (p *parser) or() *Expr  { return syntax.Nary(&p.Parser, "|", p.and, p.joined(EOr)) }
func (p *parser) and() *Expr { return syntax.Nary(&p.Parser, "&", p.not, p.joined(EAnd)) }

func (p *parser) not() *Expr { return p.prefix("!", ENot, p.not, p.equality) }

func (p *parser) equality() *Expr { return p.binary(ECmp, equalityOps, p.relation) }

func (p *parser) relation() *Expr { return p.binary(ECmp, relOps, p.sum) }

// sum and term parse a sum (+ and -) and a product (* and /) as one node
// whose operands after the first say which operator precedes them.
func (p *parser) sum() *Expr {
	return syntax.Signed(&p.Parser, "+", "-", p.term, markOp, p.joined(ESum))
}
func (p *parser) term() *Expr {
	return syntax.Signed(&p.Parser, "*", "/", p.unary, markOp, p.joined(EProd))
}

func (p *parser) unary() *Expr {
	e := p.prefix("-", ENeg, p.unary, p.power)
	if e.Op == ENeg && isPower(e.Args[0]) {
		p.Fail(int(e.Off), "write -(a^b) or (-a)^b: dpcheck does not guess which a minus before a power means")
	}
	return e
}

// power parses a^b, PRISM's pow(a, b): one power, its exponent a unary
// expression. A chain a^b^c is refused (its grouping is written out).
func (p *parser) power() *Expr {
	start := p.Tok.Off
	base := p.basic()
	if !p.IsOp("^") {
		return base
	}
	off := p.Tok.Off
	p.enter() // past ^
	defer p.Unnest()
	exp := p.unary()
	if p.IsOp("^") || isPower(exp) {
		p.Fail(off, "write (a^b)^c or a^(b^c): dpcheck does not guess how a chain of powers groups")
	}
	e := p.node(ECall, start, "pow", base, exp)
	e.OpOff = int32(off)
	return e
}

// isPower reports whether e is a^b as written (not pow(a, b), not in
// parentheses).
func isPower(e *Expr) bool { return e.Op == ECall && e.Text == "pow" && e.OpOff > 0 }

// prefix parses the prefix operator text (a level of nesting) and its
// operand, or else what next parses.
func (p *parser) prefix(text string, op Op, operand, next func() *Expr) *Expr {
	if !p.IsOp(text) {
		return next()
	}
	start := p.Tok.Off
	p.enter()
	defer p.Unnest()
	return p.node(op, start, "", operand())
}

// basic parses a literal, a name, a call, a parenthesised expression and,
// in properties, a label, P, D or filter.
func (p *parser) basic() *Expr {
	start := p.Tok.Off
	t := p.Tok
	switch t.Kind {
	case tInt:
		p.Advance()
		return p.node(EInt, start, t.Text)
	case tDouble:
		p.Advance()
		return p.node(EDouble, start, t.Text)
	case tString:
		if !p.prop {
			p.Fail(start, "a quoted label (\"%s\") only appears in properties", t.Text)
		}
		if !syntax.IsIdent(t.Text) {
			p.Fail(start, "\"%s\" is not a valid label name: write an identifier in double quotes, such as \"done\"", t.Text)
		}
		p.Advance()
		return p.node(ELabel, start, t.Text)
	case tPrimed:
		p.Fail(start, "%s' (a primed variable) only appears on the left of an update: (%s'=…)", t.Text, t.Text)
	case tOp:
		if t.Text == "(" {
			p.enter()
			defer p.Unnest()
			e := p.exprExpect("an expression")
			p.expect(")", "")
			return p.node(EParen, start, "", e)
		}
		if t.Text == "?" && p.prop {
			p.Fail(start, `unexpected "?": "=?" follows P (P=? [ψ]), or stands for ε or δ in D{?, δ}[ψ]`)
		}
	case tIdent:
		return p.word()
	}
	p.unexpected("an expression")
	return nil
}

// word parses an expression that starts with an identifier or keyword.
func (p *parser) word() *Expr {
	start := p.Tok.Off
	t := p.Tok
	switch t.Text {
	case "true", "false":
		p.Advance()
		return p.node(EBool, start, t.Text)
	case "func":
		return p.oldCall()
	case "min", "max":
		if !p.PeekIsOp("(") {
			p.Fail(start, "%s is a function: %s", t.Text, functions[t.Text].usage)
		}
		return p.call()
	case "X", "F", "G":
		if p.path {
			p.Fail(start, "%s must be parenthesised here: a path operator takes everything after it, so write e.g. (%s a) & (%s b)", t.Text, t.Text, t.Text)
		}
		p.Fail(start, "%s is a path operator: it can only appear inside P…[…] or D{…}[…] in a property", t.Text)
	case "P", "Pmin", "Pmax", "filter", "R", "Rmin", "Rmax", "S", "E", "A", "C", "I", "W", "U":
		if p.prop {
			return p.property()
		}
		if t.Text != "U" && t.Text != "W" {
			p.Fail(start, "%s is a property operator: it cannot appear in a model", t.Text)
		}
	case "D":
		if p.prop && p.PeekIsOp("{") {
			return p.dp()
		}
	case "multi":
		if p.prop && p.PeekIsOp("(") {
			return p.unsupported("multi-objective properties (multi) are not supported: dpcheck checks P, R, S, D and filter properties one by one")
		}
	}
	if keywords[t.Text] {
		p.unexpected("an expression")
	}
	if p.PeekIsOp("(") {
		return p.call()
	}
	p.Advance()
	return p.node(EName, start, t.Text)
}

// call parses NAME(ARGS) for a built-in function.
func (p *parser) call() *Expr {
	start := p.Tok.Off
	name := p.Tok.Text
	if _, ok := functions[name]; !ok {
		p.Fail(start, "unknown function %s (PRISM's functions: %s)", name, functionList)
	}
	p.enter()
	p.Advance() // (
	defer p.Unnest()
	args := p.args()
	e := p.node(ECall, start, name, args...)
	p.arity(e)
	return e
}

// oldCall parses func(NAME, ARGS).
func (p *parser) oldCall() *Expr {
	start := p.Tok.Off
	p.enter()
	p.expect("(", `"(": func(name, arguments…)`)
	defer p.Unnest()
	if p.Tok.Kind != tIdent {
		p.unexpected("a function name")
	}
	name, off := p.Tok.Text, p.Tok.Off
	if _, ok := functions[name]; !ok {
		p.Fail(off, "unknown function %s (PRISM's functions: %s)", name, functionList)
	}
	p.Advance()
	p.expect(",", `"," and the arguments: func(name, arguments…)`)
	args := p.args()
	e := p.node(ECall, start, name, args...)
	e.OldStyle = true
	p.arity(e)
	return e
}

// args parses the arguments of a call up to and including ")".
func (p *parser) args() []*Expr {
	args := syntax.List(&p.Parser, ",", func() *Expr { return p.exprExpect("an argument") })
	p.expect(")", `"," or ")"`)
	return args
}

// arity checks the number of arguments of a call.
func (p *parser) arity(e *Expr) {
	f := functions[e.Text]
	n := len(e.Args)
	switch {
	case f.max < 0 && n < f.min:
		p.Fail(int(e.Off), "%s takes at least %d arguments, %s; found %d", e.Text, f.min, f.usage, n)
	case f.max >= 0 && n != f.min:
		plural := "s"
		if f.min == 1 {
			plural = ""
		}
		p.Fail(int(e.Off), "%s takes %d argument%s, %s; found %d", e.Text, f.min, plural, f.usage, n)
	}
}
