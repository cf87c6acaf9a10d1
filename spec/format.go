package spec

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Format returns a .dp file in canonical form: one statement per line,
// chain items indented by two spaces, single spaces around binary
// operators (none around * / and ^), parentheses exactly where the source
// has them, and every comment kept — a comment inside a statement moves to
// the end of the statement's line. Single blank lines between statements
// are kept. Formatting is idempotent, and the result parses to the same
// program. It fails only when src does not parse.
func Format(filename, src string) (string, error) {
	f, err := parse(filename, src, true, nil)
	if err != nil {
		return "", err
	}
	p := &printer{f: f}
	for _, c := range f.comments {
		p.comments = append(p.comments, fcomment{line: f.Position(c.Off).Line, text: c.Text})
	}
	for _, st := range f.Stmts {
		p.node(st.Bounds(), func() { p.stmt(st) })
	}
	p.leading(math.MaxInt)
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

// fcomment is a comment and the line it starts on.
type fcomment struct {
	line int
	text string
}

type printer struct {
	f        *File
	limit    int // stop after about this many bytes (0: no limit)
	b        strings.Builder
	comments []fcomment
	next     int // first comment not yet printed
	lastLine int // last source line printed
	indent   string
}

// lines returns the first and last source lines of a span.
func (p *printer) lines(sp Span) (first, last int) {
	return p.f.Position(sp.Start).Line, p.f.Position(max(sp.Start, sp.End-1)).Line
}

// gap writes a blank line when the source has one before line.
func (p *printer) gap(line int) {
	if p.lastLine > 0 && line > p.lastLine+1 {
		p.b.WriteString("\n")
	}
}

// node prints the comments before a node, the node, and the comments on
// or inside its lines at the end of its last line.
func (p *printer) node(sp Span, print func()) {
	first, last := p.lines(sp)
	p.leading(first)
	p.gap(first)
	p.b.WriteString(p.indent)
	print()
	var trailing []string
	for p.next < len(p.comments) && p.comments[p.next].line <= last {
		trailing = append(trailing, p.comments[p.next].text)
		p.next++
	}
	sep := commentMark
	afterLine := false // a // comment was written: the rest on lines of their own
	for _, t := range trailing {
		switch {
		case afterLine: // its own line, as the next format reads it
			p.b.WriteString("\n" + p.indent + t)
		case strings.Contains(t, "\n"): // a block comment spanning lines: its own line
			p.b.WriteString("\n" + p.indent + t)
			sep = commentMark
			continue
		default:
			p.b.WriteString(sep + t)
			sep = " "
		}
		afterLine = afterLine || strings.HasPrefix(t, "//")
	}
	p.b.WriteString("\n")
	p.lastLine = last
}

// headComments ends the opening line of a block (line), with the
// one-line comments written on it.
func (p *printer) headComments(line int) {
	sep := commentMark
	for p.next < len(p.comments) && p.comments[p.next].line == line && !strings.Contains(p.comments[p.next].text, "\n") {
		p.w(sep, p.comments[p.next].text)
		sep = " "
		p.next++
	}
	p.w("\n")
}

// leading prints the comments not yet printed that start before line,
// each on lines of its own, indented, after a blank line where the source
// has one.
func (p *printer) leading(line int) {
	for ; p.next < len(p.comments) && p.comments[p.next].line < line; p.next++ {
		c := p.comments[p.next]
		p.gap(c.line)
		p.w(p.indent, c.text, "\n")
		p.lastLine = c.line + strings.Count(c.text, "\n")
	}
}

// block ends the opening line of a chain or module block, prints its items
// one level deeper with the comments inside it, and closes it with end.
func (p *printer) block(sp Span, items []ChainItem, item func(ChainItem), end string) {
	first, last := p.lines(sp)
	p.lastLine = first
	p.headComments(first)
	outer := p.indent
	p.indent += "  "
	for _, it := range items {
		p.node(it.Bounds(), func() { item(it) })
	}
	// Comments inside the block after its last item stay inside it.
	p.leading(last)
	p.indent = outer
	p.w(p.indent, end)
}

func (p *printer) w(s ...string) {
	for _, x := range s {
		if p.limit > 0 && p.b.Len() > p.limit {
			return
		}
		p.b.WriteString(x)
	}
}

// text returns what the printer wrote, cut at its limit with "…".
func (p *printer) text() string {
	s := p.b.String()
	if p.limit > 0 && len(s) > p.limit {
		cut := p.limit
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + " …"
	}
	return s
}

func (p *printer) stmt(st Stmt) {
	switch st := st.(type) {
	case *ConstStmt:
		if st.Value == nil {
			p.seq("const ", st.Name.Name)
			break
		}
		p.seq("const ", st.Name.Name, " = ", st.Value)
	case *ModelStmt:
		p.seq("model ", st.Call)
	case *ChainStmt:
		p.w("chain {")
		p.block(st.Span, st.Items, p.item, "}")
	case *ModuleStmt:
		if st.MDP {
			p.w("mdp ")
		}
		p.w("module ", st.Name.Name)
		p.block(st.Span, st.Items, p.moduleItem, "endmodule")
	case *FormulaStmt:
		p.w("formula " + st.Name.Name)
		for i, w := range st.Params {
			p.w(map[bool]string{true: "(", false: ", "}[i == 0] + w.Name)
		}
		if len(st.Params) > 0 {
			p.w(")")
		}
		p.seq(" = ", st.Value)
	case *LabelStmt:
		p.seq("label ", st.Name, " = ", st.Value)
	case *InputsStmt:
		p.w("inputs ")
		if st.Where != nil {
			p.seq("where ", st.Where)
		} else {
			p.names(st.Names)
		}
	case *OutputsStmt:
		switch {
		case st.State:
			p.w("outputs state")
		case st.Vars != nil:
			p.w("outputs var ")
			p.list(len(st.Vars), func(i int) {
				p.w(st.Vars[i].Name)
				if x := st.Index[i]; x != nil {
					p.seq("[", x, "]")
				}
			})
		default:
			p.w("outputs labels ")
			p.names(st.Labels)
		}
	case *ObserveStmt:
		p.w("observe ")
		p.names(st.Labels)
	case *NeighboursStmt:
		p.w("neighbours ")
		if st.Pred != nil {
			p.expr(st.Pred)
			break
		}
		p.list(len(st.Pairs), func(i int) { p.seq(st.Pairs[i].A, " ~ ", st.Pairs[i].B) })
	case *ParamStmt:
		p.w("param " + st.Name.Name + " in ")
		if st.LoOpen {
			p.w("(")
		} else {
			p.w("[")
		}
		p.seq(st.Lo, ", ", st.Hi)
		if st.HiOpen {
			p.w(")")
		} else {
			p.w("]")
		}
	case *PropStmt:
		if st.Query {
			p.w("query ")
		} else {
			p.w("check ")
		}
		p.expr(st.Body)
		if st.For != nil {
			p.w(" for " + st.For.Name)
		}
		if st.Over != nil {
			p.seq(" over ", st.Over)
		}
		if ex := st.Expect; ex != nil {
			p.w(" expect ")
			p.expect(ex)
		}
	}
}

func (p *printer) expect(ex *Expect) {
	switch {
	case ex.Outcome != "":
		p.w(ex.Outcome)
	case ex.Value != nil:
		p.expr(ex.Value)
	default:
		p.list(len(ex.Values), func(i int) { p.seq(ex.Values[i].Name, ": ", ex.Values[i].Value) })
	}
}

func (p *printer) item(it ChainItem) {
	switch it := it.(type) {
	case *StateDecl:
		p.seq("state ", it.Name)
		if len(it.Vals) > 0 {
			p.w(" (")
			p.list(len(it.Vals), func(i int) { p.seq(it.Vals[i].Var.Name, " = ", it.Vals[i].Value) })
			p.w(")")
		}
		if it.HasLabels {
			p.w(" [")
			p.names(it.Labels)
			p.w("]")
		}
	case *TransDecl:
		p.seq(it.From, " -> ")
		p.list(len(it.Targets), func(i int) { p.seq(it.Targets[i].To, " : ", it.Targets[i].Prob) })
		if it.Sink != nil {
			p.w(" else ", it.Sink.Name)
		}
	}
}

func (p *printer) moduleItem(it ChainItem) {
	switch it := it.(type) {
	case *VarDecl:
		if it.Input {
			p.w("input ")
		}
		p.w(it.Name.Name)
		if it.First != nil {
			p.seq("[", it.First, "..", it.Last, "]")
		}
		p.w(" : ")
		switch {
		case it.Int:
			p.w("int")
		case it.Lo == nil:
			p.w("bool")
		default:
			p.seq("[", it.Lo, "..", it.Hi, "]")
		}
		if it.Init != nil {
			p.seq(" init ", it.Init)
		}
		p.w(";")
	case *CommandDecl:
		p.command(it)
	}
}

// commandWidth is the width a command is wrapped at, between its
// assignments and updates.
const commandWidth = 100

// command prints "[a] guard -> p : (x' = e) & … + …;", wrapped before a
// " & " or " + " where a line would pass commandWidth, the continuation
// lines aligned under the first update.
func (p *printer) command(c *CommandDecl) {
	sub := func(f func(q *printer)) string {
		q := &printer{f: p.f}
		f(q)
		return q.b.String()
	}
	head := sub(func(q *printer) {
		q.w("[")
		if c.Action != nil {
			q.w(c.Action.Name)
		}
		q.seq("] ", c.Guard, " -> ")
	})
	var seps, pieces []string
	if c.Updates == nil {
		seps, pieces = append(seps, ""), append(pieces, "true")
	}
	for i, u := range c.Updates {
		sep := " + "
		if i == 0 {
			sep = ""
		}
		prob := ""
		if u.Prob != nil {
			prob = sub(func(q *printer) { q.seq(u.Prob, " : ") })
		}
		if u.Assigns == nil {
			seps, pieces = append(seps, sep), append(pieces, prob+"true")
		}
		for j, a := range u.Assigns {
			text := sub(func(q *printer) {
				q.w("(", a.Var.Name)
				if a.Index != nil {
					q.seq("[", a.Index, "]")
				}
				q.w("'")
				if a.Value != nil {
					q.seq(" = ", a.Value)
				} else {
					q.seq(" ~ ", a.Draw)
				}
				q.w(")")
			})
			if j == 0 {
				seps, pieces = append(seps, sep), append(pieces, prob+text)
			} else {
				seps, pieces = append(seps, " & "), append(pieces, text)
			}
		}
	}
	out := p.b.String()
	col := len([]rune(out[strings.LastIndexByte(out, '\n')+1:])) + len([]rune(head))
	p.w(head)
	width := col
	for i, piece := range pieces {
		n := len([]rune(seps[i])) + len([]rune(piece))
		if i > 0 && width+n > commandWidth {
			p.w("\n", strings.Repeat(" ", max(0, col-2)), strings.TrimLeft(seps[i], " "), piece)
			width = max(0, col-2) + n - 1
			continue
		}
		p.w(seps[i], piece)
		width += n
	}
	p.w(";")
}

// list prints n elements with ", " between them; past the printer's
// limit it stops.
func (p *printer) list(n int, elem func(i int)) {
	for i := range n {
		if p.full() {
			return
		}
		if i > 0 {
			p.w(", ")
		}
		elem(i)
	}
}

func (p *printer) name(n Name) {
	if n.Quoted {
		p.w(strconv.Quote(n.Text))
		return
	}
	p.w(n.Text)
}

func (p *printer) names(ns []Name) {
	p.list(len(ns), func(i int) { p.name(ns[i]) })
}

// binary prints the two operands of e with op between them.
func (p *printer) binary(e *Expr, op string) { p.seq(e.Args[0], op, e.Args[1]) }

// seq prints its parts in order: each a string, a Name or an expression.
func (p *printer) seq(parts ...any) {
	for _, x := range parts {
		switch x := x.(type) {
		case string:
			p.w(x)
		case Name:
			p.name(x)
		case *Expr:
			p.expr(x)
		default:
			panic("spec: printer.seq: a part of unexpected type")
		}
	}
}

// full reports whether the printer has written its limit: what follows
// is not printed, nor walked.
func (p *printer) full() bool { return p.limit > 0 && p.b.Len() > p.limit }

// expr prints an expression: single spaces around binary operators but
// none around *, / and ^; parentheses exactly as written. Past the
// printer's limit it returns at once, so that the text of a node costs
// about the limit, not the node's size.
func (p *printer) expr(e *Expr) {
	if e == nil || p.full() {
		return
	}
	switch e.Op {
	case ENum:
		p.w(e.Text)
	case EStr:
		p.w(strconv.Quote(e.Text))
	case EName:
		p.w(e.Text)
		if e.Primed {
			p.w("'")
		}
	case EIndex:
		p.seq(e.Args[0], "[", e.Args[1], "]")
		if e.Primed {
			p.w("'")
		}
	case EUnknown:
		p.w("?")
	case EParen:
		p.seq("(", e.Args[0], ")")
	case EAbs:
		p.seq("|", e.Args[0], "|")
	case ECall:
		p.w(e.Text, "(")
		p.list(len(e.Args), func(i int) { p.expr(e.Args[i]) })
		p.w(")")
	case EArg:
		p.seq(e.Text, " = ", e.Args[0])
	case EQuant:
		if e.Text == "forall" || e.Text == "exists" {
			p.seq(e.Text+" ", e.Args[0], " in ", e.Args[1], "..", e.Args[2], ": ", e.Args[3])
			break
		}
		p.seq(e.Text+"(", e.Args[0], " in ", e.Args[1], "..", e.Args[2], ": ", e.Args[3], ")")
	case ENeg:
		p.seq("-", e.Args[0])
	case ENot:
		p.seq("!", e.Args[0])
	case EPow:
		p.binary(e, "^")
	case ESum, EProd, EAnd, EOr:
		for i, a := range e.Args {
			if p.full() {
				return
			}
			if i > 0 {
				switch {
				case e.Op == EAnd:
					p.w(" & ")
				case e.Op == EOr:
					p.w(" | ")
				case e.Op == ESum && a.Minus:
					p.w(" - ")
				case e.Op == ESum:
					p.w(" + ")
				case a.Minus:
					p.w("/")
				default:
					p.w("*")
				}
			}
			p.expr(a)
		}
	case ECmp:
		p.binary(e, " "+e.Text+" ")
	case EImplies:
		p.binary(e, " => ")
	case EIte:
		p.seq(e.Args[0], " ? ", e.Args[1], " : ", e.Args[2])
	case ETemporal:
		p.w(e.Text)
		if e.Args[1] != nil {
			p.seq("^", e.Args[1])
		}
		if e.Args[2] != nil {
			p.seq("<=", e.Args[2])
		}
		p.seq(" ", e.Args[0])
	case EUntil:
		p.seq(e.Args[0], " U")
		if e.Args[2] != nil {
			p.seq("<=", e.Args[2])
		}
		p.seq(" ", e.Args[1])
	case EProb:
		p.seq("P", e.Text, e.Args[0], "[", e.Args[1], "]")
	case EDP:
		p.seq("D{", e.Args[0], ", ", e.Args[1], "}[", e.Args[2], "]")
	}
}
