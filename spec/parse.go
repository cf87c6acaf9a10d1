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
)

// Limits of the parser.
const (
	// MaxNesting bounds how deeply expressions nest: parentheses, prefix
	// operators (-, !, X, F, G), powers, calls and the brackets of P and D
	// each add a level. Deeper input is refused before the parser recurses
	// further, so no input can exhaust the stack.
	MaxNesting = 1000
	// MaxNodes bounds the operators and operands of the expressions a file
	// holds — about 100 bytes each, with their evaluation — so that the
	// memory a file takes is bounded whatever its size: 2^23 is a 16 MB
	// line of 1+1+…, about 0.8 GB. An explicit chain's probabilities that
	// are numbers or fractions, or repeat an expression written before,
	// count none.
	MaxNodes = 1 << 23
	// MaxFileSize bounds the source the parser accepts (offsets are kept
	// in 32 bits).
	MaxFileSize = 1<<31 - 1
)

// Keywords that cannot name a constant, state, variable or label.
var keywords = []string{
	"const", "model", "chain", "state", "else", "inputs", "where", "outputs", "var", "labels",
	"module", "endmodule", "formula", "label", "input", "init", "bool",
	"observe", "neighbours", "neighbors", "param", "check", "query", "over", "for", "expect", "holds", "violated", "unknown",
	"X", "F", "G", "U", "P", "D", "Pmin", "Pmax",
}

// Parse parses a .dp file. A syntax error is returned as a source.ErrorList with
// one positioned error. Memory is proportional to the size of src.
func Parse(filename, src string) (*File, error) { return parse(filename, src, false, nil) }

// parse parses src, keeping its comments when keep is set. With ld, it
// loads the file: chain blocks are read into chainData (load.go), and the
// parse stops with the context's error when the context ends.
func parse(filename, src string, keep bool, ld *loading) (f *File, err error) {
	f = &File{Name: filename, Src: src}
	if len(src) > MaxFileSize {
		return nil, source.ErrorList{{Pos: source.Position{Filename: filename, Line: 1, Column: 1}, Msg: fmt.Sprintf("the file has %d bytes; the parser reads at most %d", len(src), MaxFileSize)}}
	}
	if i := strings.IndexByte(src, 0); i >= 0 {
		return nil, source.ErrorList{{Pos: f.Position(i), Msg: "the file contains NUL bytes: it is not a .dp text file"}}
	}
	p := &parser{f: f, sc: newScanner(src, keep), ld: ld, maxNodes: MaxNodes}
	if ld != nil && ld.maxNodes > 0 {
		p.maxNodes = ld.maxNodes
	}
	defer func() {
		if r := recover(); r != nil {
			if c, ok := r.(cancelled); ok {
				f, err = nil, c.err
				return
			}
			b, ok := r.(bailout)
			if !ok {
				panic(r) // a bug: dpcheck.CheckSource reports it as an InternalError
			}
			f, err = nil, source.ErrorList{{Pos: f.Position(b.off), Msg: b.msg}}
		}
	}()
	var serr *scanError
	if p.tok, serr = p.sc.next(); serr != nil {
		return nil, source.ErrorList{{Pos: f.Position(serr.Off), Msg: serr.Msg}}
	}
	p.peek, p.peekErr = p.sc.next()
	for p.tok.kind != tEOF {
		f.Stmts = append(f.Stmts, p.statement())
	}
	f.comments = p.sc.Comments
	return f, nil
}

// bailout carries a syntax error out of the recursive descent.
type bailout struct {
	off int
	msg string
}

type parser struct {
	f        *File
	sc       scanner
	tok      token // the current token
	peek     token // the one after it
	peekErr  *scanError
	lastEnd  int // end of the last token consumed
	depth    int
	nodes    int      // expression nodes kept
	maxNodes int      // MaxNodes
	stmtKind string   // the statement being parsed, for messages
	ld       *loading // set when the file is loaded rather than parsed
	inModule bool     // inside module … endmodule, where ; ends items
}

// advance moves to the next token. A token the scanner could not read
// fails the parse when the parser reaches it.
func (p *parser) advance() {
	p.lastEnd = p.tok.end
	if p.peekErr != nil {
		panic(bailout{p.peekErr.Off, p.peekErr.Msg})
	}
	p.tok = p.peek
	if p.tok.kind != tEOF {
		p.peek, p.peekErr = p.sc.next()
	}
}

func (p *parser) fail(off int, format string, args ...any) {
	panic(bailout{off, fmt.Sprintf(format, args...)})
}

// describe names a token in a message.
func describe(t token) string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tString:
		return fmt.Sprintf("%q", t.text)
	}
	return `"` + t.text + `"`
}

// unexpected fails at the current token, saying what was expected.
func (p *parser) unexpected(expected string) {
	if p.peekErr != nil && p.peekErr.Off == p.tok.end {
		// The token runs into something the scanner cannot read (a Greek
		// letter inside a keyword, say): that is the real problem.
		panic(bailout{p.peekErr.Off, p.peekErr.Msg})
	}
	msg := "unexpected " + describe(p.tok)
	if p.tok.kind == tOp && p.tok.text == ";" && !p.inModule {
		msg += ": .dp needs no ; (statements end by themselves; remove it)"
	} else if expected != "" {
		msg += " (expected " + expected + ")"
	}
	p.fail(p.tok.off, "%s", msg)
}

// misspelt fails at the current token when it is a word close to one of
// words (property.Suggest: at most two edits), saying which was meant,
// with hint after it.
func (p *parser) misspelt(words []string, hint string) {
	if p.tok.kind != tIdent || slices.Contains(words, p.tok.text) || len(p.tok.text) < 3 ||
		p.peekErr != nil && p.peekErr.Off == p.tok.end { // a word cut short by a character the scanner refuses
		return
	}
	if sg := didYouMean(p.tok.text, words); sg != "" {
		p.fail(p.tok.off, "unexpected %s%s%s", describe(p.tok), sg, hint)
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
	if p.isOp(";") {
		p.advance()
		return
	}
	if p.peekErr != nil && p.peekErr.Off == p.tok.end || p.tok.kind == tEOF {
		p.unexpected(`";"`)
	}
	if strings.Contains(p.f.Src[p.lastEnd:p.tok.off], "\n") {
		p.fail(p.lastEnd, "missing ; at the end of this %s (inside a module, declarations and commands end with ;)", what)
	}
	p.unexpected(`";" ending the ` + what)
}

func (p *parser) is(text string) bool {
	return (p.tok.kind == tOp || p.tok.kind == tIdent) && p.tok.text == text
}

func (p *parser) isOp(text string) bool { return p.tok.kind == tOp && p.tok.text == text }

// expect consumes the operator text or fails.
func (p *parser) expect(text string) token {
	if !p.isOp(text) {
		p.unexpected(`"` + text + `"`)
	}
	t := p.tok
	p.advance()
	return t
}

// expectWord consumes the keyword text or fails.
func (p *parser) expectWord(text, expected string) {
	if p.tok.kind != tIdent || p.tok.text != text {
		p.unexpected(expected)
	}
	p.advance()
}

func (p *parser) word(expected string) Word {
	if p.tok.kind != tIdent {
		p.unexpected(expected)
	}
	w := Word{Off: p.tok.off, Name: p.tok.text}
	p.advance()
	return w
}

func (p *parser) name(expected string) Name {
	switch p.tok.kind {
	case tIdent:
		n := Name{Off: p.tok.off, Text: p.tok.text}
		p.advance()
		return n
	case tString:
		n := Name{Off: p.tok.off, Text: p.tok.text, Quoted: true}
		p.advance()
		return n
	}
	p.unexpected(expected)
	return Name{}
}

func (p *parser) names(expected string) []Name {
	ns := []Name{p.name(expected)}
	for p.isOp(",") {
		p.advance()
		ns = append(ns, p.name(expected))
	}
	return ns
}

const statementWords = "a statement: const, model, chain, module, mdp module, formula, label, inputs, outputs, observe, neighbours, param, check or query"

// statementKeywords are the words that start a statement.
var statementKeywords = []string{"const", "model", "chain", "module", "formula", "label", "inputs", "outputs", "observe", "neighbours", "param", "check", "query"}

func (p *parser) statement() Stmt {
	start := p.tok.off
	span := func() Span { return Span{start, p.lastEnd} }
	if p.tok.kind != tIdent {
		p.unexpected(statementWords)
	}
	switch p.tok.text {
	case "const":
		p.advance()
		s := &ConstStmt{Name: p.word("a name")}
		p.expect("=")
		s.Value = p.expr()
		s.Span = span()
		return s
	case "model":
		p.advance()
		s := &ModelStmt{Call: p.call("a call such as survey(theta1 = 1/2)")}
		s.Span = span()
		return s
	case "chain":
		p.advance()
		s := p.chain()
		s.Span = span()
		return s
	case "module":
		p.advance()
		s := p.module()
		s.Span = span()
		return s
	case "mdp":
		if p.peek.kind != tIdent || p.peek.text != "module" {
			p.advance()
			p.unexpected(`"module": an MDP's module is written mdp module NAME … endmodule`)
		}
		p.advance()
		p.advance()
		s := p.module()
		s.MDP = true
		s.Span = span()
		return s
	case "formula":
		p.advance()
		s := &FormulaStmt{Name: p.word("a name")}
		p.expect("=")
		s.Value = p.expr()
		s.Span = span()
		return s
	case "label":
		p.advance()
		s := &LabelStmt{Name: p.name("a label name")}
		p.expect("=")
		s.Value = p.expr()
		s.Span = span()
		return s
	case "inputs":
		p.advance()
		s := &InputsStmt{}
		if p.is("where") {
			p.advance()
			s.Where = p.expr()
		} else {
			s.Names = p.names("state names or where …")
		}
		s.Span = span()
		return s
	case "outputs":
		p.advance()
		s := &OutputsStmt{}
		switch {
		case p.is("state"):
			p.advance()
			s.State = true
		case p.is("var"):
			p.advance()
			s.Vars = append(s.Vars, p.word("a variable"))
			for p.isOp(",") {
				p.advance()
				s.Vars = append(s.Vars, p.word("a variable"))
			}
		case p.is("labels"):
			p.advance()
			s.Labels = p.names("a label")
		default:
			p.misspelt([]string{"state", "var", "labels"}, " (outputs state, outputs var NAME or outputs labels L, …)")
			p.unexpected("state, var NAME or labels L, …")
		}
		s.Span = span()
		return s
	case "observe":
		p.advance()
		s := &ObserveStmt{Labels: p.names("a label")}
		s.Span = span()
		return s
	case "neighbours", "neighbors":
		p.advance()
		s := &NeighboursStmt{}
		if (p.tok.kind == tIdent || p.tok.kind == tString) && p.peek.kind == tOp && p.peek.text == "~" {
			for {
				off := p.tok.off
				pr := Pair{Off: off, A: p.name("a state name")}
				p.expect("~")
				pr.B = p.name(`a state name (quote names such as "+")`)
				s.Pairs = append(s.Pairs, pr)
				if !p.isOp(",") {
					break
				}
				p.advance()
			}
		} else {
			if p.tok.kind == tOp && p.tok.text != "(" && p.tok.text != "|" && p.tok.text != "!" && p.tok.text != "-" {
				p.unexpected(`pairs A ~ B (quote names such as "+") or a predicate`)
			}
			s.Pred = p.expr()
		}
		s.Span = span()
		return s
	case "param":
		p.advance()
		s := &ParamStmt{Name: p.word("the parameter's name")}
		p.expectWord("in", `in, as in param alpha in (0, 1)`)
		switch {
		case p.isOp("("):
			s.LoOpen = true
		case p.isOp("["):
		default:
			p.unexpected(`an interval such as (0, 1), [0, 1], (0, 1] or [0, 1)`)
		}
		p.advance()
		s.Lo = p.sum()
		p.expect(",")
		s.Hi = p.sum()
		switch {
		case p.isOp(")"):
			s.HiOpen = true
		case p.isOp("]"):
		default:
			p.unexpected(`) or ] closing the interval`)
		}
		p.advance()
		s.Span = span()
		return s
	case "check", "query":
		s := &PropStmt{Query: p.tok.text == "query"}
		p.advance()
		s.Body = p.expr()
		if p.is("for") {
			p.advance()
			w := p.word("the parameter's name")
			s.For = &w
		}
		if p.is("over") {
			p.advance()
			s.Over = p.call("traces(k)")
		}
		if p.is("expect") {
			ex := &Expect{Span: Span{Start: p.tok.end}}
			p.advance()
			ex.Start = p.tok.off
			switch {
			case p.is("holds") || p.is("violated") || p.is("unknown"):
				ex.Outcome = p.tok.text
				p.advance()
			case (p.tok.kind == tIdent || p.tok.kind == tString) && p.peek.kind == tOp && p.peek.text == ":":
				for {
					nv := NamedValue{Name: p.name("an input")}
					p.expect(":")
					nv.Value = p.expr()
					ex.Values = append(ex.Values, nv)
					if !p.isOp(",") {
						break
					}
					p.advance()
				}
			default:
				ex.Value = p.expr()
			}
			ex.End = p.lastEnd
			s.Expect = ex
		}
		s.Span = span()
		return s
	}
	p.notAStatement()
	return nil
}

// notAStatement fails at a word that starts no statement: a property
// without check or query, or a misspelt statement word.
func (p *parser) notAStatement() {
	switch p.tok.text {
	case "input":
		p.fail(p.tok.off, `unexpected "input" (did you mean inputs? input declares an input variable inside a module: input d : [lo..hi];)`)
	case "endmodule":
		p.fail(p.tok.off, `unexpected "endmodule": no module is open (a module is module NAME … endmodule)`)
	case "dtmc", "probabilistic", "ctmc", "nondeterministic":
		p.fail(p.tok.off, `unexpected %q: a .dp file has no model type (its modules are a Markov chain; write mdp module for an MDP; a PRISM model is read as it is: model prism("m.prism"))`, p.tok.text)
	}
	if w := p.tok.text; p.tok.kind == tIdent && p.peek.kind == tOp && p.peek.text == "(" {
		verb := "check"
		if slices.Contains([]string{"eps", "delta", "profile"}, w) {
			verb = "query"
		}
		p.fail(p.tok.off, "unexpected %s: a property is written after check or query: %s %s(…)", describe(p.tok), verb, w)
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
	for !p.isOp("}") {
		start := p.tok.off
		if p.is("state") {
			p.advance()
			d := &StateDecl{Name: p.name("a state name")}
			if p.isOp("(") {
				p.advance()
				for {
					a := Assign{Var: p.word("VARIABLE = VALUE")}
					p.expect("=")
					a.Value = p.expr()
					d.Vals = append(d.Vals, a)
					if !p.isOp(",") {
						break
					}
					p.advance()
				}
				p.expect(")")
			}
			if p.isOp("[") {
				p.advance()
				d.HasLabels = true
				if !p.isOp("]") {
					d.Labels = p.names("a label")
				}
				p.expect("]")
			}
			d.Span = Span{start, p.lastEnd}
			s.States = append(s.States, d)
			s.Items = append(s.Items, d)
			continue
		}
		if p.tok.kind != tIdent && p.tok.kind != tString {
			p.unexpected(`"}", a state or a row FROM -> TO : PROBABILITY`)
		}
		r := &TransDecl{From: p.name("a state name")}
		p.rowArrow()
		for {
			tg := Target{To: p.name("a transition TARGET : PROBABILITY")}
			p.rowColon(tg.To)
			tg.Prob = p.expr()
			r.Targets = append(r.Targets, tg)
			if !p.isOp(",") {
				break
			}
			p.advance()
		}
		if p.is("else") {
			p.advance()
			switch {
			case p.tok.kind == tIdent, p.isOp("†"):
				r.Sink = &Word{Off: p.tok.off, Name: p.tok.text}
				p.advance()
			default:
				p.unexpected("sink")
			}
		}
		r.Span = Span{start, p.lastEnd}
		s.Rows = append(s.Rows, r)
		s.Items = append(s.Items, r)
	}
	p.advance()
	return s
}

// rowArrow consumes the -> of a chain's row.
func (p *parser) rowArrow() {
	if !p.isOp("->") {
		p.unexpected(`"->": a row is FROM -> TO : PROBABILITY, TO : PROBABILITY …`)
	}
	p.advance()
}

// rowColon consumes the : between a row's target to and its probability.
func (p *parser) rowColon(to Name) {
	if !p.isOp(":") {
		p.unexpected(`":" between the target and its probability: ` + expr.DisplayName(to.Text) + ` : PROBABILITY`)
	}
	p.advance()
}

// call parses NAME(ARGS) as an ECall.
func (p *parser) call(expected string) *Expr {
	if p.tok.kind != tIdent || p.peek.kind != tOp || p.peek.text != "(" {
		p.unexpected(expected)
	}
	return p.primary()
}

// nest enters one level of nesting.
func (p *parser) nest() {
	p.depth++
	if p.depth > MaxNesting {
		p.fail(p.tok.off, "expression nested deeper than %d levels", MaxNesting)
	}
}

func (p *parser) unnest() { p.depth-- }

func (p *parser) node(op ExprOp, start int, text string, args ...*Expr) *Expr {
	if p.nodes++; p.nodes > p.maxNodes {
		p.fail(start, "the expressions of this file have more than %s operators and operands; the limit is %s (an explicit chain's numbers and fractions count none)",
			exact.Thousands(int64(p.maxNodes)), exact.Thousands(int64(p.maxNodes)))
	}
	return &Expr{Off: int32(start), End: int32(p.lastEnd), Op: op, Text: text, Args: args}
}

// expr parses a conditional expression "c ? a : b": the loosest.
func (p *parser) expr() *Expr {
	start := p.tok.off
	c := p.implies()
	if !p.isOp("?") {
		return c
	}
	p.advance()
	p.nest()
	defer p.unnest()
	a := p.expr()
	p.expect(":")
	b := p.expr()
	return p.node(EIte, start, "", c, a, b)
}

// implies parses "a => b" (right associative).
func (p *parser) implies() *Expr {
	start := p.tok.off
	l := p.or()
	if !p.isOp("=>") {
		return l
	}
	p.advance()
	p.nest()
	defer p.unnest()
	r := p.implies()
	return p.node(EImplies, start, "", l, r)
}

// or parses a disjunction.
func (p *parser) or() *Expr {
	start := p.tok.off
	e := p.and()
	if !p.isOp("|") {
		return e
	}
	args := []*Expr{e}
	for p.isOp("|") {
		p.advance()
		args = append(args, p.and())
	}
	return p.node(EOr, start, "", args...)
}

func (p *parser) and() *Expr {
	start := p.tok.off
	e := p.until()
	if !p.isOp("&") {
		return e
	}
	args := []*Expr{e}
	for p.isOp("&") {
		p.advance()
		args = append(args, p.until())
	}
	return p.node(EAnd, start, "", args...)
}

func (p *parser) until() *Expr {
	start := p.tok.off
	l := p.not()
	if p.tok.kind != tIdent || p.tok.text != "U" {
		return l
	}
	uOff := p.tok.off
	p.advance()
	var bound *Expr
	if p.isOp("<=") {
		p.advance()
		bound = p.sum()
	}
	r := p.not()
	e := p.node(EUntil, start, "", l, r, bound)
	e.OpOff = int32(uOff)
	return e
}

func (p *parser) not() *Expr {
	start := p.tok.off
	switch {
	case p.isOp("!"):
		p.advance()
		p.nest()
		defer p.unnest()
		return p.node(ENot, start, "", p.not())
	case p.tok.kind == tIdent && (p.tok.text == "X" || p.tok.text == "F" || p.tok.text == "G"):
		op := p.tok.text
		p.advance()
		p.nest()
		defer p.unnest()
		var pow, bound *Expr
		if p.isOp("^") {
			p.advance()
			pow = p.unary()
		}
		if p.isOp("<=") {
			p.advance()
			bound = p.sum()
		}
		operand := p.not()
		return p.node(ETemporal, start, op, operand, pow, bound)
	}
	return p.cmp()
}

var cmpOps = []string{"<=", ">=", "!=", "==", "=", "<", ">"}

func (p *parser) cmp() *Expr {
	start := p.tok.off
	l := p.sum()
	if p.tok.kind != tOp || !slices.Contains(cmpOps, p.tok.text) {
		return l
	}
	op := p.tok.text
	p.advance()
	r := p.sum()
	return p.node(ECmp, start, op, l, r)
}

func (p *parser) sum() *Expr {
	start := p.tok.off
	e := p.term()
	if !p.isOp("+") && !p.isOp("-") {
		return e
	}
	args := []*Expr{e}
	for p.isOp("+") || p.isOp("-") {
		minus, off := p.tok.text == "-", p.tok.off
		p.advance()
		t := p.term()
		t.Minus, t.OpOff = minus, int32(off)
		args = append(args, t)
	}
	return p.node(ESum, start, "", args...)
}

func (p *parser) term() *Expr {
	start := p.tok.off
	e := p.unary()
	if !p.isOp("*") && !p.isOp("/") {
		return e
	}
	args := []*Expr{e}
	for p.isOp("*") || p.isOp("/") {
		div, off := p.tok.text == "/", p.tok.off
		p.advance()
		u := p.unary()
		u.Minus, u.OpOff = div, int32(off)
		args = append(args, u)
	}
	return p.node(EProd, start, "", args...)
}

func (p *parser) unary() *Expr {
	start := p.tok.off
	if p.isOp("-") {
		p.advance()
		p.nest()
		defer p.unnest()
		return p.node(ENeg, start, "", p.unary())
	}
	base := p.primary()
	if !p.isOp("^") {
		return base
	}
	p.advance()
	p.nest()
	defer p.unnest()
	return p.node(EPow, start, "", base, p.unary())
}

// functions are the names that must be followed by parentheses.
var functions = []string{"ln", "abs", "min", "max", "floor", "ceil", "mod", "pow"}

func (p *parser) primary() *Expr {
	start := p.tok.off
	t := p.tok
	switch t.kind {
	case tNumber:
		p.advance()
		return p.node(ENum, start, t.text)
	case tString:
		p.advance()
		return p.node(EStr, start, t.text)
	case tOp:
		switch t.text {
		case "(":
			p.advance()
			p.nest()
			defer p.unnest()
			e := p.expr()
			p.expect(")")
			return p.node(EParen, start, "", e)
		case "|":
			p.advance()
			p.nest()
			defer p.unnest()
			e := p.sum()
			p.expect("|")
			return p.node(EAbs, start, "", e)
		case "?":
			p.advance()
			return p.node(EUnknown, start, "")
		}
	case tIdent:
		switch {
		case t.text == "P" && p.peek.kind == tOp && slices.Contains([]string{"<=", ">=", "<", ">", "="}, p.peek.text):
			return p.prob()
		case (t.text == "Pmin" || t.text == "Pmax") && p.peek.kind == tOp && p.peek.text == "=":
			return p.prob()
		case t.text == "D" && p.peek.kind == tOp && p.peek.text == "{":
			return p.dp()
		case p.peek.kind == tOp && p.peek.text == "(":
			return p.callExpr()
		case slices.Contains(functions, t.text):
			p.advance()
			p.fail(start, "%s needs parentheses: %s(…)", t.text, t.text)
		}
		p.advance()
		e := p.node(EName, start, t.text)
		if p.isOp("'") {
			p.advance()
			e.Primed = true
			e.End = int32(p.lastEnd)
		}
		return e
	}
	p.unexpected("an expression")
	return nil
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
	start := p.tok.off
	name := p.tok.text
	params := callParams(name)
	p.advance()
	p.expect("(")
	p.nest()
	defer p.unnest()
	var args []*Expr
	for !p.isOp(")") {
		if len(args) > 0 {
			if !p.isOp(",") {
				p.unexpected(`"," or ")"`)
			}
			p.advance()
		}
		if !p.startsExpr() {
			p.unexpected(`an argument or ")"`)
		}
		named := p.tok.kind == tIdent && (params == nil || slices.Contains(params, p.tok.text))
		if named && p.peek.kind == tOp && p.peek.text == "==" {
			p.fail(p.peek.off, "a named argument is written with one =: %s = …", p.tok.text)
		}
		if named && p.peek.kind == tOp && p.peek.text == "=" {
			as := p.tok.off
			n := p.tok.text
			p.advance()
			p.advance()
			v := p.expr()
			args = append(args, p.node(EArg, as, n, v))
			continue
		}
		args = append(args, p.expr())
	}
	p.advance()
	return p.node(ECall, start, name, args...)
}

// startsExpr reports whether the current token can start an expression.
func (p *parser) startsExpr() bool {
	switch p.tok.kind {
	case tIdent, tNumber, tString:
		return true
	case tOp:
		return slices.Contains([]string{"(", "|", "?", "!", "-"}, p.tok.text)
	}
	return false
}

func (p *parser) prob() *Expr {
	start := p.tok.off
	extreme := strings.TrimPrefix(p.tok.text, "P") // "min", "max" or ""
	p.advance()
	op := extreme + p.tok.text
	p.advance()
	p.nest()
	defer p.unnest()
	var bound *Expr
	if extreme != "" && !p.isOp("?") {
		p.fail(p.tok.off, "P%s= asks for a probability: write P%s=?[ψ] (bounds such as P>=p[ψ] hold for every scheduler)", extreme, extreme)
	}
	if p.isOp("?") {
		bound = p.node(EUnknown, p.tok.off, "")
		p.advance()
		bound.End = int32(p.lastEnd)
	} else {
		bound = p.sum()
	}
	p.expect("[")
	path := p.expr()
	p.expect("]")
	return p.node(EProb, start, op, bound, path)
}

func (p *parser) dp() *Expr {
	start := p.tok.off
	p.advance()
	p.advance()
	p.nest()
	defer p.unnest()
	eps := p.expr()
	if p.isOp("}") {
		p.fail(p.tok.off, "D needs both ε and δ: write D{ε, δ}[ψ], e.g. D{ln(3), 0}[X out_Y]")
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
	peekErr                *scanError
}

func (p *parser) mark() mark {
	return mark{p.sc.Off, p.lastEnd, len(p.sc.Comments), p.tok, p.peek, p.peekErr}
}

func (p *parser) reset(m mark) {
	p.sc.Off, p.lastEnd, p.tok, p.peek, p.peekErr = m.off, m.lastEnd, m.tok, m.peek, m.peekErr
	p.sc.Comments = p.sc.Comments[:m.comments]
}

// module parses "module NAME … endmodule".
func (p *parser) module() *ModuleStmt {
	at := p.tok.off
	s := &ModuleStmt{Name: p.word("a module name")}
	p.inModule = true
	defer func() { p.inModule = false }()
	for !p.is("endmodule") {
		start := p.tok.off
		if p.is("inputs") && p.peek.kind == tIdent && p.colonAfterPeek() {
			p.fail(p.tok.off, `unexpected "inputs" (did you mean input? an input variable is declared input d : [lo..hi];)`)
		}
		if p.tok.kind == tEOF || p.tok.kind == tIdent && (isStatementWord(p.tok.text) || p.tok.text == "mdp" && p.peek.kind == tIdent && p.peek.text == "module") && p.peek.kind != tOp {
			p.fail(p.tok.off, "unexpected %s: module %s (line %d) has no endmodule before it", describe(p.tok), s.Name.Name, strings.Count(p.f.Src[:at], "\n")+1)
		}
		if p.isOp("[") {
			c := p.command()
			c.Span = Span{start, p.lastEnd}
			s.Commands = append(s.Commands, c)
			s.Items = append(s.Items, c)
			continue
		}
		if !(p.peek.kind == tOp && p.peek.text == ":") {
			// Not a declaration: a misspelt endmodule, or a command
			// without its brackets.
			p.misspelt([]string{"endmodule"}, "")
			if p.tok.kind == tIdent && p.peek.kind == tOp && slices.Contains([]string{"=", "==", "!=", "<", "<=", ">", ">=", "&", "|", "->"}, p.peek.text) {
				p.fail(p.tok.off, "a command starts with [] (or [action] in an mdp module): [] guard -> updates;")
			}
		}
		d := &VarDecl{}
		if p.is("input") && p.peek.kind == tIdent {
			d.Input = true
			p.advance()
		}
		d.Name = p.word(`a variable declaration "x : [lo..hi] init e;", or a command "[] guard -> updates;"`)
		if !p.isOp(":") {
			p.unexpected(`":" after the variable's name: ` + d.Name.Name + ` : [lo..hi] init e;`)
		}
		p.advance()
		switch {
		case p.is("bool"):
			p.advance()
		case p.tok.kind == tIdent:
			p.misspelt([]string{"bool"}, " (a variable's type is a range [lo..hi] or bool)")
			p.fail(p.tok.off, "unexpected %s: a variable's type is a range [lo..hi] or bool (PRISM's int is written as its range, double has no counterpart)", describe(p.tok))
		default:
			p.expect("[")
			d.Lo = p.expr()
			if !p.isOp("..") {
				p.unexpected(`"..": a range is [lo..hi]`)
			}
			p.advance()
			if p.tok.kind == tNumber && strings.HasPrefix(p.tok.text, ".") {
				p.fail(p.tok.off-2, "a range is written with two dots: [lo..hi]")
			}
			d.Hi = p.expr()
			p.expect("]")
		}
		if p.is("init") {
			p.advance()
			d.Init = p.expr()
		} else if !p.isOp(";") {
			p.misspelt([]string{"init"}, " (an initial value is written init e)")
		}
		p.expectSemicolon("declaration")
		d.Span = Span{start, p.lastEnd}
		s.Vars = append(s.Vars, d)
		s.Items = append(s.Items, d)
	}
	p.advance()
	return s
}

// colonAfterPeek reports whether ":" follows the next token.
func (p *parser) colonAfterPeek() bool {
	m := p.mark()
	defer p.reset(m)
	p.advance()
	return p.peek.kind == tOp && p.peek.text == ":"
}

// command parses "[ACTION] GUARD -> UPDATES;".
func (p *parser) command() *CommandDecl {
	c := &CommandDecl{}
	p.expect("[")
	if p.tok.kind == tIdent {
		w := p.word("an action")
		c.Action = &w
	}
	p.expect("]")
	c.Guard = p.expr()
	if !p.isOp("->") {
		p.unexpected(`"->" between the guard and the updates: [] guard -> updates;`)
	}
	p.advance()
	if p.is("true") && !(p.peek.kind == tOp && p.peek.text == ":") {
		p.advance()
	} else {
		for {
			c.Updates = append(c.Updates, p.update())
			if p.isOp(":") {
				p.fail(p.tok.off, "the probability comes before its update: P : (x' = …) + …")
			}
			if !p.isOp("+") {
				break
			}
			p.advance()
		}
	}
	p.expectSemicolon("command")
	return c
}

// update parses "[P :] (x' = E) & …" or "[P :] true".
func (p *parser) update() *UpdateDecl {
	u := &UpdateDecl{Span: Span{Start: p.tok.off}}
	switch {
	case p.is("true") && !(p.peek.kind == tOp && p.peek.text == ":"):
	case p.assignmentAhead():
	default:
		// (x = 1) is a probability only when ":" follows; otherwise it is an
		// assignment without its prime.
		unprimed, name := p.unprimedAhead(), p.peek
		u.Prob = p.expr()
		if unprimed && !p.isOp(":") {
			p.fail(name.off, "an update names the next value of a variable with a prime: (%s' = …)", name.text)
		}
		if e := u.Prob; e.Op == ECmp && (e.Text == "=" || e.Text == "==") && e.Args[0].Op == EName && e.Args[0].Primed {
			p.fail(e.Pos(), "an update is written in parentheses: (%s' = …)", e.Args[0].Text)
		}
		if !p.isOp(":") {
			p.unexpected(`":" between the probability and its update: P : (x' = …)`)
		}
		p.advance()
	}
	if p.is("true") {
		p.advance()
		u.End = p.lastEnd
		return u
	}
	for {
		u.Assigns = append(u.Assigns, p.assignment())
		if !p.isOp("&") {
			break
		}
		p.advance()
	}
	u.End = p.lastEnd
	return u
}

// isStatementWord reports whether a word starts a statement outside
// modules.
func isStatementWord(w string) bool {
	switch w {
	case "const", "model", "chain", "module", "formula", "label", "inputs", "outputs", "observe", "neighbours", "neighbors", "param", "check", "query":
		return true
	}
	return false
}

// unprimedAhead reports whether "(NAME =" comes next: an assignment
// without its prime.
func (p *parser) unprimedAhead() bool {
	if !p.isOp("(") || p.peek.kind != tIdent {
		return false
	}
	m := p.mark()
	defer p.reset(m)
	p.advance()
	return p.peek.kind == tOp && (p.peek.text == "=" || p.peek.text == "~")
}

// assignmentAhead reports whether "(NAME '" comes next.
func (p *parser) assignmentAhead() bool {
	if !p.isOp("(") || p.peek.kind != tIdent {
		return false
	}
	m := p.mark()
	defer p.reset(m)
	p.advance()
	return p.peek.kind == tOp && p.peek.text == "'"
}

// assignment parses "(x' = E)" or "(x' ~ DIST(…))".
func (p *parser) assignment() AssignDecl {
	a := AssignDecl{Span: Span{Start: p.tok.off}}
	p.expect("(")
	a.Var = p.word("a variable")
	p.expect("'")
	switch {
	case p.isOp("="):
		p.advance()
		a.Value = p.expr()
	case p.isOp("~"):
		p.advance()
		a.Draw = p.call("a distribution such as geometric(alpha, centre, lo, hi)")
	case p.isOp("==") || p.isOp(":") && p.peek.kind == tOp && p.peek.text == "=":
		p.fail(p.tok.off, "an update assigns with one =: (%s' = …)", a.Var.Name)
	default:
		p.unexpected(`"=" or "~"`)
	}
	p.expect(")")
	a.End = p.lastEnd
	return a
}
