package spec

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// Format returns a .dp file in canonical form: one statement per line,
// chain items indented by two spaces, single spaces around binary
// operators (none around * / and ^), parentheses exactly where the source
// has them, and every comment kept — a comment inside a statement moves to
// the end of the statement's line. Single blank lines between statements
// are kept. Formatting is idempotent, and the result parses to the same
// program. It fails only when src does not parse.
func Format(filename, src string) (string, error) {
	f, err := Parse(filename, src)
	if err != nil {
		return "", err
	}
	comments, err := commentsOf(filename, src)
	if err != nil {
		return "", err
	}
	p := &printer{comments: comments}
	for _, st := range f.Statements {
		p.node(st.Tokens, func() { p.stmt(st) })
	}
	p.rest()
	return alignComments(strings.TrimLeft(p.b.String(), "\n")), nil
}

// commentMark separates a line's code from its trailing comment until
// alignComments replaces it.
const commentMark = "\x00"

// alignComments lines up the trailing comments of consecutive lines, as
// gofmt does: one space after the longest code of the run.
func alignComments(text string) string {
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); {
		if !strings.Contains(lines[i], commentMark) {
			i++
			continue
		}
		j, width := i, 0
		for ; j < len(lines) && strings.Contains(lines[j], commentMark); j++ {
			code, _, _ := strings.Cut(lines[j], commentMark)
			width = max(width, utf8.RuneCountInString(code))
		}
		for k := i; k < j; k++ {
			code, c, _ := strings.Cut(lines[k], commentMark)
			lines[k] = code + strings.Repeat(" ", width-utf8.RuneCountInString(code)+1) + c
		}
		i = j
	}
	return strings.Join(lines, "\n")
}

type comment struct {
	line int
	text string
}

// commentsOf lists the comments of src in order.
func commentsOf(filename, src string) ([]comment, error) {
	lex, err := dpLexer.LexString(filename, src)
	if err != nil {
		return nil, err
	}
	kind := dpLexer.Symbols()["Comment"]
	var out []comment
	for {
		t, err := lex.Next()
		if err != nil {
			return nil, err
		}
		if t.EOF() {
			break
		}
		if t.Type == kind {
			out = append(out, comment{line: t.Pos.Line, text: strings.TrimRight(t.Value, " \t")})
		}
	}
	return out, nil
}

type printer struct {
	b        strings.Builder
	comments []comment
	next     int // first comment not yet printed
	lastLine int // last source line printed
	indent   string
}

// lastLine returns the first and last source lines of a node's own tokens
// (participle also records the comments and white space before them).
func lastLine(toks []lexer.Token) (first, last int) {
	syms := dpLexer.Symbols()
	skip := map[lexer.TokenType]bool{syms["Comment"]: true, syms["Whitespace"]: true}
	var own []lexer.Token
	for _, t := range toks {
		if !skip[t.Type] {
			own = append(own, t)
		}
	}
	if len(own) == 0 {
		return 0, 0
	}
	t := own[len(own)-1]
	return own[0].Pos.Line, t.Pos.Line + strings.Count(t.Value, "\n")
}

// gap writes a blank line when the source has one before line.
func (p *printer) gap(line int) {
	if p.lastLine > 0 && line > p.lastLine+1 {
		p.b.WriteString("\n")
	}
}

// node prints the comments before a node, the node, and the comments on
// or inside its lines at the end of its last line.
func (p *printer) node(toks []lexer.Token, print func()) {
	first, last := lastLine(toks)
	for p.next < len(p.comments) && p.comments[p.next].line < first {
		c := p.comments[p.next]
		p.gap(c.line)
		p.b.WriteString(p.indent + c.text + "\n")
		p.lastLine = c.line + strings.Count(c.text, "\n")
		p.next++
	}
	p.gap(first)
	p.b.WriteString(p.indent)
	print()
	var trailing []string
	for p.next < len(p.comments) && p.comments[p.next].line <= last {
		trailing = append(trailing, p.comments[p.next].text)
		p.next++
	}
	sep := commentMark
	for _, t := range trailing {
		if strings.Contains(t, "\n") { // a block comment spanning lines: its own line
			p.b.WriteString("\n" + p.indent + t)
			sep = commentMark
			continue
		}
		p.b.WriteString(sep + t)
		sep = " "
	}
	p.b.WriteString("\n")
	p.lastLine = last
}

// rest prints the comments after the last statement.
func (p *printer) rest() {
	for ; p.next < len(p.comments); p.next++ {
		c := p.comments[p.next]
		p.gap(c.line)
		p.b.WriteString(c.text + "\n")
		p.lastLine = c.line + strings.Count(c.text, "\n")
	}
}

func (p *printer) w(s ...string) {
	for _, x := range s {
		p.b.WriteString(x)
	}
}

func (p *printer) stmt(st *Stmt) {
	switch {
	case st.Const != nil:
		p.w("const ", st.Const.Name.Name, " = ")
		p.expr(st.Const.Value)
	case st.Model != nil:
		p.w("model ")
		p.call(st.Model.Call)
	case st.Chain != nil:
		p.w("chain {\n")
		p.lastLine, _ = lastLine(st.Tokens)
		outer := p.indent
		p.indent += "  "
		for _, it := range st.Chain.Items {
			p.node(it.Tokens, func() { p.item(it) })
		}
		// Comments inside the block after its last item stay inside it.
		_, end := lastLine(st.Tokens)
		for p.next < len(p.comments) && p.comments[p.next].line < end {
			c := p.comments[p.next]
			p.gap(c.line)
			p.w(p.indent, c.text, "\n")
			p.lastLine = c.line
			p.next++
		}
		p.indent = outer
		p.w(p.indent, "}")
	case st.Inputs != nil:
		p.w("inputs ")
		if st.Inputs.Where != nil {
			p.w("where ")
			p.expr(st.Inputs.Where)
		} else {
			p.names(st.Inputs.Names)
		}
	case st.Outputs != nil:
		o := st.Outputs
		switch {
		case o.State:
			p.w("outputs state")
		case o.Var != nil:
			p.w("outputs var ", o.Var.Name)
		default:
			p.w("outputs labels ")
			p.names(o.Labels)
		}
	case st.Observe != nil:
		p.w("observe ")
		p.names(st.Observe.Labels)
	case st.Neighbours != nil:
		p.w("neighbours ")
		if st.Neighbours.Pred != nil {
			p.expr(st.Neighbours.Pred)
			break
		}
		for i, pr := range st.Neighbours.Pairs {
			if i > 0 {
				p.w(", ")
			}
			p.name(pr.A)
			p.w(" ~ ")
			p.name(pr.B)
		}
	case st.Property != nil:
		pr := st.Property
		p.w(pr.Kind, " ")
		p.expr(pr.Body)
		if pr.Over != nil {
			p.w(" over ")
			p.call(pr.Over)
		}
		if ex := pr.Expect; ex != nil {
			p.w(" expect ")
			if ex.Outcome != "" {
				p.w(ex.Outcome)
			} else {
				p.expr(ex.Value)
			}
		}
	}
}

func (p *printer) item(it *ChainItem) {
	if sd := it.State; sd != nil {
		p.w("state ")
		p.name(sd.Name)
		if len(sd.Vals) > 0 {
			p.w(" (")
			for i, a := range sd.Vals {
				if i > 0 {
					p.w(", ")
				}
				p.w(a.Var.Name, " = ")
				p.expr(a.Value)
			}
			p.w(")")
		}
		if sd.Labels != nil {
			p.w(" [")
			p.names(sd.Labels)
			p.w("]")
		}
		return
	}
	td := it.Trans
	p.name(td.From)
	p.w(" -> ")
	for i, t := range td.Targets {
		if i > 0 {
			p.w(", ")
		}
		p.name(t.To)
		p.w(" : ")
		p.expr(t.Prob)
	}
	if td.Sink != nil {
		p.w(" else ", td.Sink.Name)
	}
}

func (p *printer) name(n *Name) {
	if n.Quoted != "" || n.Ident == "" {
		p.w(strconv.Quote(n.Quoted))
		return
	}
	p.w(n.Ident)
}

func (p *printer) names(ns []*Name) {
	for i, n := range ns {
		if i > 0 {
			p.w(", ")
		}
		p.name(n)
	}
}

func (p *printer) call(c *Call) {
	p.w(c.Name, "(")
	for i, a := range c.Args {
		if i > 0 {
			p.w(", ")
		}
		if a.Name != "" {
			p.w(a.Name, " = ")
		}
		p.expr(a.Value)
	}
	p.w(")")
}

func (p *printer) expr(e *Expr) {
	for i, t := range e.Terms {
		if i > 0 {
			p.w(" | ")
		}
		for j, u := range t.Terms {
			if j > 0 {
				p.w(" & ")
			}
			p.not(u.Left)
			if u.Until != nil {
				p.w(" U")
				if u.Until.Bound != nil {
					p.w("<=")
					p.sum(u.Until.Bound)
				}
				p.w(" ")
				p.not(u.Until.Right)
			}
		}
	}
}

func (p *printer) not(n *NotExpr) {
	switch {
	case n.Not != nil:
		p.w("!")
		p.not(n.Not)
	case n.Temp != nil:
		t := n.Temp
		p.w(t.Op)
		if t.Power != nil {
			p.w("^")
			p.unary(t.Power)
		}
		if t.Bound != nil {
			p.w("<=")
			p.sum(t.Bound)
		}
		p.w(" ")
		p.not(t.Operand)
	default:
		p.sum(n.Cmp.Left)
		if n.Cmp.Op != "" {
			p.w(" ", n.Cmp.Op, " ")
			p.sum(n.Cmp.Right)
		}
	}
}

func (p *printer) sum(s *Sum) {
	p.term(s.Left)
	for _, op := range s.Rest {
		p.w(" ", op.Op, " ")
		p.term(op.Term)
	}
}

func (p *printer) term(t *Term) {
	p.unary(t.Left)
	for _, op := range t.Rest {
		p.w(op.Op)
		p.unary(op.Right)
	}
}

func (p *printer) unary(u *Unary) {
	if u.Neg != nil {
		p.w("-")
		p.unary(u.Neg)
		return
	}
	p.primary(u.Power.Base)
	if u.Power.Exp != nil {
		p.w("^")
		p.unary(u.Power.Exp)
	}
}

func (p *printer) primary(x *Primary) {
	switch {
	case x.Number != "":
		p.w(x.Number)
	case x.Paren != nil:
		p.w("(")
		p.expr(x.Paren)
		p.w(")")
	case x.Abs != nil:
		p.w("|")
		p.sum(x.Abs)
		p.w("|")
	case x.Prob != nil:
		p.w("P", x.Prob.Op)
		if x.Prob.Query {
			p.w("?")
		} else {
			p.sum(x.Prob.Bound)
		}
		p.w("[")
		p.expr(x.Prob.Path)
		p.w("]")
	case x.DP != nil:
		p.w("D{")
		p.expr(x.DP.Eps)
		p.w(", ")
		p.expr(x.DP.Delta)
		p.w("}[")
		p.expr(x.DP.Path)
		p.w("]")
	case x.Call != nil:
		p.call(x.Call)
	case x.Unknown:
		p.w("?")
	case x.Var != nil:
		p.w(x.Var.Name)
		if x.Var.Primed {
			p.w("'")
		}
	default:
		p.w(strconv.Quote(x.String))
	}
}
