package spec

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/syntax"
)

// Limits of the parser (package syntax's, which says why).
const (
	// MaxNesting bounds how deeply expressions nest: parentheses, prefix
	// operators (-, !, X, F, G), powers, calls and the brackets of P and D
	// each add a level.
	MaxNesting = syntax.MaxNesting
	// MaxNodes bounds the operators and operands of the expressions a file
	// holds, about 100 bytes each with their evaluation: 2^23 is a 16 MB
	// line of 1+1+…, about 0.8 GB. An explicit chain's probabilities that
	// are numbers or fractions, or repeat an expression written before,
	// count none.
	MaxNodes = syntax.MaxNodes
	// MaxFileSize bounds the source the parser accepts.
	MaxFileSize = syntax.MaxFileSize
)

// Keywords that cannot name a constant, state, variable or label.
var keywords = []string{
	"const", "model", "chain", "state", "else", "inputs", "where", "outputs", "var", "labels",
	"module", "endmodule", "formula", "label", "input", "init", "bool",
	"observe", "neighbours", "neighbors", "param", "check", "query", "over", "for", "expect", "holds", "violated", "unknown",
	"X", "F", "G", "U", "P", "D", "Pmin", "Pmax",
}

// Keywords returns the words of the .dp language that cannot name a
// constant, state, variable or label (an editor highlights them).
func Keywords() []string { return slices.Clone(keywords) }

// Parse parses a .dp file. A syntax error is returned as a source.ErrorList with
// one positioned error. Memory is proportional to the size of src.
func Parse(filename, src string) (*File, error) { return parse(filename, src, false, nil) }

// parse parses src, keeping its comments when keep is set. With ld, it
// loads the file: chain blocks are read into chainData (load.go), and the
// parse stops with the context's error when the context ends.
func parse(filename, src string, keep bool, ld *loading) (f *File, err error) {
	f = &File{Name: filename, Src: src}
	if msg := syntax.SizeError(src); msg != "" {
		return nil, source.ErrorList{{Pos: source.Position{Filename: filename, Line: 1, Column: 1}, Msg: msg}}
	}
	if i := strings.IndexByte(src, 0); i >= 0 {
		return nil, source.ErrorList{{Pos: f.Position(i), Msg: "the file contains NUL bytes: it is not a .dp text file"}}
	}
	p := &parser{f: f, ld: ld, maxNodes: MaxNodes}
	if ld != nil && ld.maxNodes > 0 {
		p.maxNodes = ld.maxNodes
	}
	defer func() {
		if r := recover(); r != nil {
			if c, ok := r.(cancelled); ok {
				f, err = nil, c.err
				return
			}
			b := syntax.Catch(r) // anything else is a bug: dpcheck.CheckSource reports it as an InternalError
			f, err = nil, source.ErrorList{{Pos: f.Position(b.Off), Msg: b.Msg}}
		}
	}()
	if serr := p.Start(syntax.NewScanner(&dpLang, src, keep)); serr != nil {
		return nil, source.ErrorList{{Pos: f.Position(serr.Off), Msg: serr.Msg}}
	}
	for p.Tok.Kind != tEOF {
		f.Stmts = append(f.Stmts, p.statement())
	}
	f.comments = p.Sc.Comments
	return f, nil
}

type parser struct {
	syntax.Parser // Nodes counts the expression nodes kept
	f             *File
	maxNodes      int      // MaxNodes
	stmtKind      string   // the statement being parsed, for messages
	ld            *loading // set when the file is loaded rather than parsed
	inModule      bool     // inside module … endmodule, where ; ends items
	// noIndex is set while the bound of P~b[…] is read: the bracket
	// after it opens the path formula, not an index.
	noIndex bool
}

// describe names a token in a message: a string in Go's quotes.
func describe(t token) string {
	if t.Kind == tString {
		return fmt.Sprintf("%q", t.Text)
	}
	return syntax.Describe(t)
}

// unexpected fails at the current token, saying what was expected.
func (p *parser) unexpected(expected string) {
	if p.IsOp(";") && !p.inModule && !p.CutShort() {
		p.Fail(p.Tok.Off, "unexpected %s: .dp needs no ; (statements end by themselves; remove it)", describe(p.Tok))
	}
	p.Unexpected(describe(p.Tok), expected)
}

// misspelt fails at the current token when it is a word close to one of
// words (property.Suggest: at most two edits), saying which was meant,
// with hint after it.
func (p *parser) misspelt(words []string, hint string) {
	if p.Tok.Kind != tIdent || slices.Contains(words, p.Tok.Text) || len(p.Tok.Text) < 3 ||
		p.CutShort() { // a word cut short by a character the scanner refuses
		return
	}
	if sg := didYouMean(p.Tok.Text, words); sg != "" {
		p.Fail(p.Tok.Off, "unexpected %s%s%s", describe(p.Tok), sg, hint)
	}
}

// didYouMean returns " (did you mean X?)", or " (did you mean X or Y?)"
// when two words are as close, for the words closest to name (at most two
// edits: property.Suggestions), or "".
func didYouMean(name string, words []string) string {
	best := property.Suggestions(name, words)
	switch len(best) {
	case 0:
		return ""
	case 1:
		return " (did you mean " + best[0] + "?)"
	}
	return " (did you mean " + strings.Join(best[:len(best)-1], ", ") + " or " + best[len(best)-1] + "?)"
}

// expectSemicolon consumes the ; that ends a declaration or command of a
// module. When the next token is on a later line, the ; is missing at the
// end of the item: the error points there.
func (p *parser) expectSemicolon(what string) {
	if p.IsOp(";") {
		p.Advance()
		return
	}
	if p.CutShort() || p.Tok.Kind == tEOF {
		p.unexpected(`";"`)
	}
	if strings.Contains(p.f.Src[p.LastEnd:p.Tok.Off], "\n") {
		p.Fail(p.LastEnd, "missing ; at the end of this %s (inside a module, declarations and commands end with ;)", what)
	}
	p.unexpected(`";" ending the ` + what)
}

// expect consumes the operator text or fails.
func (p *parser) expect(text string) token {
	if !p.IsOp(text) {
		p.unexpected(`"` + text + `"`)
	}
	t := p.Tok
	p.Advance()
	return t
}

func (p *parser) word(expected string) Word {
	if p.Tok.Kind != tIdent {
		p.unexpected(expected)
	}
	w := Word{Off: p.Tok.Off, Name: p.Tok.Text}
	p.Advance()
	return w
}

func (p *parser) name(expected string) Name {
	switch p.Tok.Kind {
	case tIdent:
		n := Name{Off: p.Tok.Off, Text: p.Tok.Text}
		p.Advance()
		return n
	case tString:
		n := Name{Off: p.Tok.Off, Text: p.Tok.Text, Quoted: true}
		p.Advance()
		return n
	}
	p.unexpected(expected)
	return Name{}
}

func (p *parser) names(expected string) []Name {
	return syntax.List(&p.Parser, ",", func() Name { return p.name(expected) })
}

const statementWords = "a statement: const, model, chain, module, mdp module, formula, label, inputs, outputs, observe, neighbours, param, check or query"

// statementKeywords are the words that start a statement.
var statementKeywords = []string{"const", "model", "chain", "module", "formula", "label", "inputs", "outputs", "observe", "neighbours", "param", "check", "query"}

func (p *parser) statement() Stmt {
	start := p.Tok.Off
	s := p.stmt()
	s.(interface{ setBounds(Span) }).setBounds(Span{start, p.LastEnd})
	return s
}

// stmt reads a statement; statement sets its span.
func (p *parser) stmt() Stmt {
	if p.Tok.Kind != tIdent {
		p.unexpected(statementWords)
	}
	switch p.Tok.Text {
	case "const":
		p.Advance()
		s := &ConstStmt{Name: p.word("a name")}
		if p.IsOp("=") {
			s.Value = p.definition()
		}
		return s
	case "model":
		p.Advance()
		return &ModelStmt{Call: p.call("a call such as survey(theta1 = 1/2)")}
	case "chain":
		p.Advance()
		return p.chain()
	case "module":
		p.Advance()
		return p.module()
	case "mdp":
		if p.Peek.Kind != tIdent || p.Peek.Text != "module" {
			p.Advance()
			p.unexpected(`"module": an MDP's module is written mdp module NAME … endmodule`)
		}
		p.Advance()
		p.Advance()
		s := p.module()
		s.MDP = true
		return s
	case "formula":
		p.Advance()
		s := &FormulaStmt{Name: p.word("a name")}
		if p.IsOp("(") {
			p.Advance()
			for {
				s.Params = append(s.Params, p.word("a parameter's name"))
				if !p.IsOp(",") {
					break
				}
				p.Advance()
			}
			p.expect(")")
		}
		s.Value = p.definition()
		return s
	case "label":
		p.Advance()
		return &LabelStmt{Name: p.name("a label name"), Value: p.definition()}
	case "inputs":
		p.Advance()
		s := &InputsStmt{}
		if p.Is("where") {
			p.Advance()
			s.Where = p.expr()
		} else {
			s.Names = p.names("state names or where …")
		}
		return s
	case "outputs":
		p.Advance()
		s := &OutputsStmt{}
		switch {
		case p.Is("state"):
			p.Advance()
			s.State = true
		case p.Is("var"):
			p.Advance()
			s.Vars = syntax.List(&p.Parser, ",", func() Word {
				w := p.word("a variable")
				if p.IsOp("[") { // an array's element
					p.enter()
					i := p.expr()
					p.expect("]")
					p.Unnest()
					if s.Index == nil {
						s.Index = map[int]*Expr{}
					}
					s.Index[len(s.Vars)] = i
				}
				return w
			})
		case p.Is("labels"):
			p.Advance()
			s.Labels = p.names("a label")
		default:
			p.misspelt([]string{"state", "var", "labels"}, " (outputs state, outputs var NAME or outputs labels L, …)")
			p.unexpected("state, var NAME or labels L, …")
		}
		return s
	case "observe":
		p.Advance()
		return &ObserveStmt{Labels: p.names("a label")}
	case "neighbours", "neighbors":
		p.Advance()
		s := &NeighboursStmt{}
		if (p.Tok.Kind == tIdent || p.Tok.Kind == tString) && p.PeekIsOp("~") {
			s.Pairs = syntax.List(&p.Parser, ",", func() Pair {
				off := p.Tok.Off // before name reads the token
				pr := Pair{Off: off, A: p.name("a state name")}
				p.expect("~")
				pr.B = p.name(`a state name (quote names such as "+")`)
				return pr
			})
		} else {
			if p.Tok.Kind == tOp && p.Tok.Text != "(" && p.Tok.Text != "|" && p.Tok.Text != "!" && p.Tok.Text != "-" {
				p.unexpected(`pairs A ~ B (quote names such as "+") or a predicate`)
			}
			s.Pred = p.expr()
		}
		return s
	case "param":
		p.Advance()
		s := &ParamStmt{Name: p.word("the parameter's name")}
		if p.Tok.Kind != tIdent || p.Tok.Text != "in" {
			p.unexpected(`in, as in param alpha in (0, 1)`)
		}
		p.Advance()
		switch {
		case p.IsOp("("):
			s.LoOpen = true
		case p.IsOp("["):
		default:
			p.unexpected(`an interval such as (0, 1), [0, 1], (0, 1] or [0, 1)`)
		}
		p.Advance()
		s.Lo = p.sum()
		p.expect(",")
		s.Hi = p.sum()
		switch {
		case p.IsOp(")"):
			s.HiOpen = true
		case p.IsOp("]"):
		default:
			p.unexpected(`) or ] closing the interval`)
		}
		p.Advance()
		return s
	case "check", "query":
		s := &PropStmt{Query: p.Tok.Text == "query"}
		p.Advance()
		s.Body = p.expr()
		if p.Is("for") {
			p.Advance()
			w := p.word("the parameter's name")
			s.For = &w
		}
		if p.Is("over") {
			p.Advance()
			s.Over = p.call("traces(k)")
		}
		if p.Is("expect") {
			ex := &Expect{Span: Span{Start: p.Tok.End}}
			p.Advance()
			ex.Start = p.Tok.Off
			switch {
			case p.Is("holds") || p.Is("violated") || p.Is("unknown"):
				ex.Outcome = p.Tok.Text
				p.Advance()
			case (p.Tok.Kind == tIdent || p.Tok.Kind == tString) && p.PeekIsOp(":"):
				ex.Values = syntax.List(&p.Parser, ",", func() NamedValue {
					nv := NamedValue{Name: p.name("an input")}
					p.expect(":")
					nv.Value = p.expr()
					return nv
				})
			default:
				ex.Value = p.expr()
			}
			ex.End = p.LastEnd
			s.Expect = ex
		}
		return s
	}
	p.notAStatement()
	return nil
}

// definition parses "= EXPR", the end of a const, formula or label, and
// returns EXPR.
func (p *parser) definition() *Expr {
	p.expect("=")
	return p.expr()
}

// notAStatement fails at a word that starts no statement: a property
// without check or query, or a misspelt statement word.
func (p *parser) notAStatement() {
	switch p.Tok.Text {
	case "input":
		p.Fail(p.Tok.Off, `unexpected "input" (did you mean inputs? input declares an input variable inside a module: input d : [lo..hi];)`)
	case "endmodule":
		p.Fail(p.Tok.Off, `unexpected "endmodule": no module is open (a module is module NAME … endmodule)`)
	case "dtmc", "probabilistic", "ctmc", "nondeterministic":
		p.Fail(p.Tok.Off, `unexpected %q: a .dp file has no model type (its modules are a Markov chain; write mdp module for an MDP; a PRISM model is read as it is: model prism("m.prism"))`, p.Tok.Text)
	}
	if w := p.Tok.Text; p.Tok.Kind == tIdent && p.PeekIsOp("(") {
		verb := "check"
		if slices.Contains([]string{"eps", "delta", "profile"}, w) {
			verb = "query"
		}
		p.Fail(p.Tok.Off, "unexpected %s: a property is written after check or query: %s %s(…)", describe(p.Tok), verb, w)
	}
	p.misspelt(statementKeywords, "")
	p.unexpected(statementWords)
}

func (p *parser) chain() *ChainStmt {
	if p.ld != nil {
		return p.loadChain()
	}
	s := &ChainStmt{}
	p.expect("{")
	for !p.IsOp("}") {
		start := p.Tok.Off
		if p.Is("state") {
			p.Advance()
			d := &StateDecl{Name: p.name("a state name")}
			if p.IsOp("(") {
				p.Advance()
				d.Vals = syntax.List(&p.Parser, ",", func() Assign {
					a := Assign{Var: p.word("VARIABLE = VALUE")}
					p.expect("=")
					a.Value = p.expr()
					return a
				})
				p.expect(")")
			}
			if p.IsOp("[") {
				p.Advance()
				d.HasLabels = true
				if !p.IsOp("]") {
					d.Labels = p.names("a label")
				}
				p.expect("]")
			}
			d.Span = Span{start, p.LastEnd}
			s.States = append(s.States, d)
			s.Items = append(s.Items, d)
			continue
		}
		if p.Tok.Kind != tIdent && p.Tok.Kind != tString {
			p.unexpected(`"}", a state or a row FROM -> TO : PROBABILITY`)
		}
		r := &TransDecl{From: p.name("a state name")}
		p.rowArrow()
		r.Targets = syntax.List(&p.Parser, ",", func() Target {
			tg := Target{To: p.name("a transition TARGET : PROBABILITY")}
			p.rowColon(tg.To)
			tg.Prob = p.expr()
			return tg
		})
		if p.Is("else") {
			p.Advance()
			switch {
			case p.Tok.Kind == tIdent, p.IsOp("†"):
				r.Sink = &Word{Off: p.Tok.Off, Name: p.Tok.Text}
				p.Advance()
			default:
				p.unexpected("sink")
			}
		}
		r.Span = Span{start, p.LastEnd}
		s.Rows = append(s.Rows, r)
		s.Items = append(s.Items, r)
	}
	p.Advance()
	return s
}

// rowArrow consumes the -> of a chain's row.
func (p *parser) rowArrow() {
	if !p.IsOp("->") {
		p.unexpected(`"->": a row is FROM -> TO : PROBABILITY, TO : PROBABILITY …`)
	}
	p.Advance()
}

// rowColon consumes the : between a row's target to and its probability.
func (p *parser) rowColon(to Name) {
	if !p.IsOp(":") {
		p.unexpected(`":" between the target and its probability: ` + expr.DisplayName(to.Text) + ` : PROBABILITY`)
	}
	p.Advance()
}

// call parses NAME(ARGS) as an ECall.
func (p *parser) call(expected string) *Expr {
	if p.Tok.Kind != tIdent || p.Peek.Kind != tOp || p.Peek.Text != "(" {
		p.unexpected(expected)
	}
	return p.primary()
}

// enter consumes an operator that opens a level of nesting, counted at
// the token after it (Unnest leaves it).
func (p *parser) enter() {
	p.Advance()
	p.Nest(p.Tok.Off, MaxNesting)
}

func (p *parser) node(op ExprOp, start int, text string, args ...*Expr) *Expr {
	if p.Nodes++; p.Nodes > p.maxNodes {
		p.Fail(start, "the expressions of this file have more than %s operators and operands; the limit is %s (an explicit chain's numbers and fractions count none)",
			exact.Thousands(int64(p.maxNodes)), exact.Thousands(int64(p.maxNodes)))
	}
	return &Expr{Off: int32(start), End: int32(p.LastEnd), Op: op, Text: text, Args: args}
}

// expr parses a conditional expression "c ? a : b": the loosest.
func (p *parser) expr() *Expr {
	return p.loose(EIte, "?", p.implies, func() []*Expr {
		a := p.expr()
		p.expect(":")
		return []*Expr{a, p.expr()}
	})
}

// implies parses "a => b" (right associative).
func (p *parser) implies() *Expr {
	return p.loose(EImplies, "=>", p.or, func() []*Expr { return []*Expr{p.implies()} })
}

// loose parses one of the loosest levels, right associative: first and,
// when the operator op follows, the operands rest parses after it (a
// level of nesting), all of them one node of the kind given.
func (p *parser) loose(kind ExprOp, op string, first func() *Expr, rest func() []*Expr) *Expr {
	start := p.Tok.Off
	l := first()
	if !p.IsOp(op) {
		return l
	}
	p.enter()
	defer p.Unnest()
	return p.node(kind, start, "", append([]*Expr{l}, rest()...)...)
}

// or parses a disjunction.
func (p *parser) or() *Expr { return syntax.Nary(&p.Parser, "|", p.and, p.joined(EOr)) }

func (p *parser) and() *Expr { return syntax.Nary(&p.Parser, "&", p.until, p.joined(EAnd)) }

// joined returns what makes the operands of a level one node of the kind
// op (syntax.Join).
func (p *parser) joined(op ExprOp) func(start int, args []*Expr) *Expr {
	return func(start int, args []*Expr) *Expr { return p.node(op, start, "", args...) }
}

func (p *parser) until() *Expr {
	start := p.Tok.Off
	l := p.not()
	if p.Tok.Kind != tIdent || p.Tok.Text != "U" {
		return l
	}
	uOff := p.Tok.Off
	p.Advance()
	var bound *Expr
	if p.IsOp("<=") {
		p.Advance()
		bound = p.sum()
	}
	r := p.not()
	e := p.node(EUntil, start, "", l, r, bound)
	e.OpOff = int32(uOff)
	return e
}

func (p *parser) not() *Expr {
	start := p.Tok.Off
	switch {
	case p.IsOp("!"):
		p.enter()
		defer p.Unnest()
		return p.node(ENot, start, "", p.not())
	case p.Tok.Kind == tIdent && (p.Tok.Text == "X" || p.Tok.Text == "F" || p.Tok.Text == "G"):
		op := p.Tok.Text
		p.enter()
		defer p.Unnest()
		var pow, bound *Expr
		if p.IsOp("^") {
			p.Advance()
			pow = p.unary()
		}
		if p.IsOp("<=") {
			p.Advance()
			bound = p.sum()
		}
		operand := p.not()
		return p.node(ETemporal, start, op, operand, pow, bound)
	}
	return p.cmp()
}

var cmpOps = []string{"<=", ">=", "!=", "==", "=", "<", ">"}

func (p *parser) cmp() *Expr {
	start := p.Tok.Off
	l := p.sum()
	if p.Tok.Kind != tOp || !slices.Contains(cmpOps, p.Tok.Text) {
		return l
	}
	op := p.Tok.Text
	p.Advance()
	r := p.sum()
	return p.node(ECmp, start, op, l, r)
}

// sum and term parse a sum (+ and -) and a product (* and /) as one node
// whose operands after the first say which operator precedes them.
func (p *parser) sum() *Expr {
	return syntax.Signed(&p.Parser, "+", "-", p.term, markOp, p.joined(ESum))
}
func (p *parser) term() *Expr {
	return syntax.Signed(&p.Parser, "*", "/", p.unary, markOp, p.joined(EProd))
}

// markOp marks an operand of a sum or product with the operator before it.
func markOp(e *Expr, minus bool, off int) { e.Minus, e.OpOff = minus, int32(off) }

func (p *parser) unary() *Expr {
	start := p.Tok.Off
	if p.IsOp("-") {
		p.enter()
		defer p.Unnest()
		return p.node(ENeg, start, "", p.unary())
	}
	base := p.primary()
	if !p.IsOp("^") {
		return base
	}
	p.enter()
	defer p.Unnest()
	return p.node(EPow, start, "", base, p.unary())
}

// functions are the names that must be followed by parentheses.
var functions = []string{"ln", "abs", "min", "max", "floor", "ceil", "mod", "pow"}

func (p *parser) primary() *Expr {
	start := p.Tok.Off
	t := p.Tok
	switch t.Kind {
	case tNumber:
		return p.leaf(ENum)
	case tString:
		return p.leaf(EStr)
	case tOp:
		switch t.Text {
		case "(":
			return p.enclosed(EParen, p.expr, ")")
		case "|":
			return p.enclosed(EAbs, p.sum, "|")
		case "?":
			p.Advance()
			return p.node(EUnknown, start, "")
		}
	case tIdent:
		switch {
		case (t.Text == "forall" || t.Text == "exists") && p.Peek.Kind == tIdent:
			return p.quantifier()
		case t.Text == "P" && p.Peek.Kind == tOp && slices.Contains([]string{"<=", ">=", "<", ">", "="}, p.Peek.Text):
			return p.prob()
		case (t.Text == "Pmin" || t.Text == "Pmax") && p.PeekIsOp("="):
			return p.prob()
		case t.Text == "D" && p.PeekIsOp("{"):
			return p.dp()
		case p.PeekIsOp("("):
			return p.callExpr()
		case slices.Contains(functions, t.Text):
			p.Advance()
			p.Fail(start, "%s needs parentheses: %s(…)", t.Text, t.Text)
		}
		e := p.leaf(EName)
		if p.IsOp("[") && !p.noIndex {
			p.enter()
			i := p.expr()
			p.expect("]")
			p.Unnest()
			e = p.node(EIndex, start, "", e, i)
		}
		if p.IsOp("'") {
			p.Advance()
			e.Primed = true
			e.End = int32(p.LastEnd)
		}
		return e
	}
	p.unexpected("an expression")
	return nil
}

// leaf consumes the current token as a node of the kind op with its text.
func (p *parser) leaf(op ExprOp) *Expr {
	t := p.Tok
	p.Advance()
	return p.node(op, t.Off, t.Text)
}

// enclosed parses an opening bracket, what inner parses (a level of
// nesting) and the closing bracket close, as a node of the kind op.
func (p *parser) enclosed(op ExprOp, inner func() *Expr, close string) *Expr {
	start := p.Tok.Off
	p.enter()
	defer p.Unnest()
	e := inner()
	p.expect(close)
	return p.node(op, start, "", e)
}

// callParams returns the names that NAME = … gives as a named argument
// of a call of name: a draw's or a builder's parameters, where anything
// else written NAME = … is the comparison it looks like (geometric(1/2,
// i = 1 ? a : b, 0, n)); nil for the other calls (prism's constants, dp,
// eps, delta), where any name is one.
func callParams(name string) []string {
	if d, ok := draws[name]; ok {
		return d.params
	}
	if def, ok := builder.Lookup(name); ok {
		names := make([]string, len(def.Params))
		for i, p := range def.Params {
			names[i] = p.Name
		}
		return names
	}
	return nil
}

func (p *parser) callExpr() *Expr {
	start := p.Tok.Off
	name := p.Tok.Text
	params := callParams(name)
	p.Advance()
	p.expect("(")
	if slices.Contains(folds, name) && p.Tok.Kind == tIdent && p.Peek.Kind == tIdent && p.Peek.Text == "in" {
		p.Nest(p.Tok.Off, MaxNesting)
		defer p.Unnest()
		v, lo, hi := p.binder()
		body := p.expr()
		p.expect(")")
		return p.node(EQuant, start, name, v, lo, hi, body)
	}
	p.Nest(p.Tok.Off, MaxNesting)
	defer p.Unnest()
	var args []*Expr
	for !p.IsOp(")") {
		if len(args) > 0 {
			if !p.IsOp(",") {
				p.unexpected(`"," or ")"`)
			}
			p.Advance()
		}
		if !p.startsExpr() {
			p.unexpected(`an argument or ")"`)
		}
		named := p.Tok.Kind == tIdent && (params == nil || slices.Contains(params, p.Tok.Text))
		if named && p.PeekIsOp("==") {
			p.Fail(p.Peek.Off, "a named argument is written with one =: %s = …", p.Tok.Text)
		}
		if named && p.PeekIsOp("=") {
			as := p.Tok.Off
			n := p.Tok.Text
			p.Advance()
			p.Advance()
			v := p.expr()
			args = append(args, p.node(EArg, as, n, v))
			continue
		}
		args = append(args, p.expr())
	}
	p.Advance()
	return p.node(ECall, start, name, args...)
}

// startsExpr reports whether the current token can start an expression.
func (p *parser) startsExpr() bool {
	switch p.Tok.Kind {
	case tIdent, tNumber, tString:
		return true
	case tOp:
		return slices.Contains([]string{"(", "|", "?", "!", "-"}, p.Tok.Text)
	}
	return false
}

// folds are the calls that may fold a body over a range: sum(j in 1..K: …).
var folds = []string{"sum", "count", "max", "min"}

// quantifier parses forall j in lo..hi: body, or exists; the body extends
// as far as an expression can.
func (p *parser) quantifier() *Expr {
	start, name := p.Tok.Off, p.Tok.Text
	p.enter() // past forall or exists
	defer p.Unnest()
	v, lo, hi := p.binder()
	return p.node(EQuant, start, name, v, lo, hi, p.expr())
}

// binder parses "j in lo..hi:", the bound name and the range of a
// quantifier or fold.
func (p *parser) binder() (v, lo, hi *Expr) {
	v = p.leaf(EName)
	if p.Tok.Kind != tIdent || p.Tok.Text != "in" {
		p.unexpected(`"in" and a range, such as j in 1..K:`)
	}
	p.Advance()
	lo = p.sum()
	p.expect("..")
	hi = p.sum()
	p.expect(":")
	return v, lo, hi
}

func (p *parser) prob() *Expr {
	start := p.Tok.Off
	extreme := strings.TrimPrefix(p.Tok.Text, "P") // "min", "max" or ""
	p.Advance()
	op := extreme + p.Tok.Text
	p.enter()
	defer p.Unnest()
	var bound *Expr
	if extreme != "" && !p.IsOp("?") {
		p.Fail(p.Tok.Off, "P%s= asks for a probability: write P%s=?[ψ] (bounds such as P>=p[ψ] hold for every scheduler)", extreme, extreme)
	}
	if p.IsOp("?") {
		bound = p.node(EUnknown, p.Tok.Off, "")
		p.Advance()
		bound.End = int32(p.LastEnd)
	} else {
		p.noIndex = true
		bound = p.sum()
		p.noIndex = false
	}
	p.expect("[")
	path := p.expr()
	p.expect("]")
	return p.node(EProb, start, op, bound, path)
}

func (p *parser) dp() *Expr {
	start := p.Tok.Off
	p.Advance()
	p.enter()
	defer p.Unnest()
	eps := p.expr()
	if p.IsOp("}") {
		p.Fail(p.Tok.Off, "D needs both ε and δ: write D{ε, δ}[ψ], e.g. D{ln(3), 0}[X out_Y]")
	}
	p.expect(",")
	delta := p.expr()
	p.expect("}")
	p.expect("[")
	path := p.expr()
	p.expect("]")
	return p.node(EDP, start, "", eps, delta, path)
}

// mark is a point of the parse to come back to (a bounded lookahead).
type mark struct {
	off, lastEnd, comments int
	tok, peek              token
	peekErr                *syntax.Error
}

func (p *parser) mark() mark {
	return mark{p.Sc.Off, p.LastEnd, len(p.Sc.Comments), p.Tok, p.Peek, p.PeekErr}
}

func (p *parser) reset(m mark) {
	p.Sc.Off, p.LastEnd, p.Tok, p.Peek, p.PeekErr = m.off, m.lastEnd, m.tok, m.peek, m.peekErr
	p.Sc.Comments = p.Sc.Comments[:m.comments]
}

// module parses "module NAME … endmodule".
func (p *parser) module() *ModuleStmt {
	at := p.Tok.Off
	s := &ModuleStmt{Name: p.word("a module name")}
	p.inModule = true
	defer func() { p.inModule = false }()
	for !p.Is("endmodule") {
		start := p.Tok.Off
		if p.Is("inputs") && p.Peek.Kind == tIdent && p.afterPeek(":") {
			p.Fail(p.Tok.Off, `unexpected "inputs" (did you mean input? an input variable is declared input d : [lo..hi];)`)
		}
		if p.Tok.Kind == tEOF || p.Tok.Kind == tIdent && (isStatementWord(p.Tok.Text) || p.Tok.Text == "mdp" && p.Peek.Kind == tIdent && p.Peek.Text == "module") && p.Peek.Kind != tOp {
			p.Fail(p.Tok.Off, "unexpected %s: module %s (line %d) has no endmodule before it", describe(p.Tok), s.Name.Name, strings.Count(p.f.Src[:at], "\n")+1)
		}
		if p.IsOp("[") {
			c := p.command()
			c.Span = Span{start, p.LastEnd}
			s.Commands = append(s.Commands, c)
			s.Items = append(s.Items, c)
			continue
		}
		if !p.PeekIsOp(":") && !p.PeekIsOp("[") {
			// Not a declaration: a misspelt endmodule, or a command
			// without its brackets.
			p.misspelt([]string{"endmodule"}, "")
			if p.Tok.Kind == tIdent && p.Peek.Kind == tOp && slices.Contains([]string{"=", "==", "!=", "<", "<=", ">", ">=", "&", "|", "->"}, p.Peek.Text) {
				p.Fail(p.Tok.Off, "a command starts with [] (or [action] in an mdp module): [] guard -> updates;")
			}
		}
		d := &VarDecl{}
		if p.Is("input") && p.Peek.Kind == tIdent {
			d.Input = true
			p.Advance()
		}
		d.Name = p.word(`a variable declaration "x : [lo..hi] init e;", or a command "[] guard -> updates;"`)
		if p.IsOp("[") {
			at := p.Tok.Off
			p.Advance()
			d.First, d.Last = p.rangeEnds(`"..": an array's indices are [first..last], as in a[1..K] : [0..2];`)
			if !p.IsOp(":") { // y [0..1] init 0;: the colon forgotten
				p.Fail(at, `unexpected "[" (expected ":" after the variable's name: %s : [lo..hi] init e; an array of variables is declared %s[first..last] : [lo..hi];)`, d.Name.Name, d.Name.Name)
			}
		}
		if !p.IsOp(":") {
			p.unexpected(`":" after the variable's name: ` + d.Name.Name + ` : [lo..hi] init e;`)
		}
		p.Advance()
		switch {
		case p.Is("bool"):
			p.Advance()
		case p.Is("int"):
			d.Int = true
			p.Advance()
		case p.Tok.Kind == tIdent:
			p.misspelt([]string{"bool", "int"}, " (a variable's type is a range [lo..hi], bool or int)")
			p.Fail(p.Tok.Off, "unexpected %s: a variable's type is a range [lo..hi], bool, or int (an unbounded integer; double has no counterpart)", describe(p.Tok))
		default:
			p.expect("[")
			d.Lo, d.Hi = p.rangeEnds(`"..": a range is [lo..hi]`)
		}
		if p.Is("init") {
			p.Advance()
			d.Init = p.expr()
		} else if !p.IsOp(";") {
			p.misspelt([]string{"init"}, " (an initial value is written init e)")
		}
		p.expectSemicolon("declaration")
		d.Span = Span{start, p.LastEnd}
		s.Vars = append(s.Vars, d)
		s.Items = append(s.Items, d)
	}
	p.Advance()
	return s
}

// rangeEnds parses "lo..hi]", after its opening bracket; expected says
// what the missing ".." should have been.
func (p *parser) rangeEnds(expected string) (lo, hi *Expr) {
	lo = p.expr()
	if !p.IsOp("..") {
		p.unexpected(expected)
	}
	p.Advance()
	if p.Tok.Kind == tNumber && strings.HasPrefix(p.Tok.Text, ".") {
		p.Fail(p.Tok.Off-2, "a range is written with two dots: [lo..hi]")
	}
	hi = p.expr()
	p.expect("]")
	return lo, hi
}

// afterPeek reports whether the token after the next is one of the
// operators ops.
func (p *parser) afterPeek(ops ...string) bool {
	m := p.mark()
	defer p.reset(m)
	p.Advance()
	return p.Peek.Kind == tOp && slices.Contains(ops, p.Peek.Text)
}

// command parses "[ACTION] GUARD -> UPDATES;".
func (p *parser) command() *CommandDecl {
	c := &CommandDecl{}
	p.expect("[")
	if p.Tok.Kind == tIdent {
		w := p.word("an action")
		c.Action = &w
	}
	p.expect("]")
	c.Guard = p.expr()
	if !p.IsOp("->") {
		p.unexpected(`"->" between the guard and the updates: [] guard -> updates;`)
	}
	p.Advance()
	if p.Is("true") && !p.PeekIsOp(":") {
		p.Advance()
	} else {
		c.Updates = syntax.List(&p.Parser, "+", func() *UpdateDecl {
			u := p.update()
			if p.IsOp(":") {
				p.Fail(p.Tok.Off, "the probability comes before its update: P : (x' = …) + …")
			}
			return u
		})
	}
	p.expectSemicolon("command")
	return c
}

// update parses "[P :] (x' = E) & …" or "[P :] true".
func (p *parser) update() *UpdateDecl {
	u := &UpdateDecl{Span: Span{Start: p.Tok.Off}}
	switch {
	case p.Is("true") && !p.PeekIsOp(":"):
	case p.parenNameThen("'") || p.parenIndexedThen("'"): // an assignment (x' = …) or (v[i]' = …)
	default:
		// (x = 1) is a probability only when ":" follows; otherwise it is an
		// assignment without its prime.
		unprimed, name := p.parenNameThen("=", "~") || p.parenIndexedThen("=", "~"), p.Peek
		u.Prob = p.expr()
		if unprimed && !p.IsOp(":") {
			target := name.Text
			if e := u.Prob.unparen(); e.Op == ECmp && e.Args[0].Op == EIndex {
				target = exprText(e.Args[0]) // (v[1] = 9): (v[1]' = …)
			}
			p.Fail(name.Off, "an update names the next value of a variable with a prime: (%s' = …)", target)
		}
		if e := u.Prob; e.Op == ECmp && (e.Text == "=" || e.Text == "==") && e.Args[0].Op == EName && e.Args[0].Primed {
			p.Fail(e.Pos(), "an update is written in parentheses: (%s' = …)", e.Args[0].Text)
		}
		if !p.IsOp(":") {
			p.unexpected(`":" between the probability and its update: P : (x' = …)`)
		}
		p.Advance()
	}
	if p.Is("true") {
		p.Advance()
		u.End = p.LastEnd
		return u
	}
	u.Assigns = syntax.List(&p.Parser, "&", p.assignment)
	u.End = p.LastEnd
	return u
}

// isStatementWord reports whether a word starts a statement outside
// modules.
func isStatementWord(w string) bool { return w == "neighbors" || slices.Contains(statementKeywords, w) }

// parenNameThen reports whether "(NAME" comes next, followed by one of
// the operators ops.
func (p *parser) parenNameThen(ops ...string) bool {
	return p.IsOp("(") && p.Peek.Kind == tIdent && p.afterPeek(ops...)
}

// parenIndexedThen reports whether "(NAME[…]" comes next, followed by one
// of the operators ops.
func (p *parser) parenIndexedThen(ops ...string) bool {
	if !p.IsOp("(") || p.Peek.Kind != tIdent {
		return false
	}
	m := p.mark()
	defer p.reset(m)
	p.Advance()
	p.Advance()
	if !p.IsOp("[") {
		return false
	}
	for depth := 0; p.Tok.Kind != tEOF; p.Advance() {
		switch {
		case p.IsOp("["):
			depth++
		case p.IsOp("]"):
			if depth--; depth == 0 {
				p.Advance()
				return p.Tok.Kind == tOp && slices.Contains(ops, p.Tok.Text)
			}
		case p.IsOp(";"):
			return false
		}
	}
	return false
}

// assignment parses "(x' = E)" or "(x' ~ DIST(…))".
func (p *parser) assignment() AssignDecl {
	a := AssignDecl{Span: Span{Start: p.Tok.Off}}
	p.expect("(")
	a.Var = p.word("a variable")
	if p.IsOp("[") {
		p.enter()
		a.Index = p.expr()
		p.expect("]")
		p.Unnest()
	}
	p.expect("'")
	switch {
	case p.IsOp("="):
		p.Advance()
		a.Value = p.expr()
	case p.IsOp("~"):
		p.Advance()
		a.Draw = p.call("a distribution such as geometric(alpha, centre, lo, hi)")
	case p.IsOp("==") || p.IsOp(":") && p.PeekIsOp("="):
		p.Fail(p.Tok.Off, "an update assigns with one =: (%s' = …)", a.Var.Name)
	default:
		p.unexpected(`"=" or "~"`)
	}
	p.expect(")")
	a.End = p.LastEnd
	return a
}
