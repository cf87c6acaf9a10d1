package syntax

import (
	"fmt"
	"slices"
)

// Limits of the parsers built on Parser.
const (
	// MaxNesting bounds how deeply expressions nest (Nest): deeper input
	// is refused before the parser recurses further, so no input can
	// exhaust the stack. It is 1000, or 200 in a WebAssembly build for a
	// browser (maxNesting), whose stack is the browser's and fixed.
	MaxNesting = maxNesting
	// MaxNodes bounds the nodes a parser counts (Parser.Nodes), so that
	// the memory a file takes is bounded whatever its size.
	MaxNodes = 1 << 23
	// MaxFileSize bounds the source a parser accepts (offsets are kept
	// in 32 bits).
	MaxFileSize = 1<<31 - 1
)

// SizeError refuses a source larger than MaxFileSize: the message, or ""
// when src is within the limit.
func SizeError(src string) string {
	if len(src) > MaxFileSize {
		return fmt.Sprintf("the file has %d bytes; the parser reads at most %d", len(src), MaxFileSize)
	}
	return ""
}

// Parser is the core of a hand-written recursive-descent parser: the
// current token and the one after it, the end of the last token consumed,
// and the counts that bound the work of hostile input. A syntax error
// panics with an Error, which Catch turns back into a value; the parsers
// built on it recurse only through Nest, so a deep nesting fails with a
// positioned error that names the limit instead of exhausting the stack.
type Parser struct {
	Sc        *Scanner
	Tok, Peek Token  // the current token and the one after it
	PeekErr   *Error // why the token after the current one could not be read
	LastEnd   int    // the end of the last token consumed
	Depth     int    // the nesting of the expression being parsed (Nest)
	Nodes     int    // the nodes counted so far, for the parser's size limit
}

// Start sets p to parse with sc from its first token, or returns why that
// token cannot be read.
func (p *Parser) Start(sc *Scanner) *Error {
	p.Sc = sc
	var err *Error
	if p.Tok, err = sc.Next(); err != nil {
		return err
	}
	p.Peek, p.PeekErr = sc.Next()
	return nil
}

// Advance moves to the next token. A token the scanner could not read
// fails the parse when the parser reaches it.
func (p *Parser) Advance() {
	p.LastEnd = p.Tok.End
	if p.PeekErr != nil {
		panic(*p.PeekErr)
	}
	p.Tok = p.Peek
	if p.Tok.Kind != EOF {
		p.Peek, p.PeekErr = p.Sc.Next()
	}
}

// Fail stops the parse with an error at the byte offset off.
func (p *Parser) Fail(off int, format string, args ...any) {
	panic(Error{off, fmt.Sprintf(format, args...)})
}

// Catch returns the syntax error a parse stopped with, given what it
// recovered; anything else is a bug and panics again.
func Catch(r any) *Error {
	e, ok := r.(Error)
	if !ok {
		panic(r)
	}
	return &e
}

// Is reports whether the current token is the operator or keyword text.
func (p *Parser) Is(text string) bool {
	return (p.Tok.Kind == Op || p.Tok.Kind == Ident) && p.Tok.Text == text
}

// IsOp reports whether the current token is the operator text.
func (p *Parser) IsOp(text string) bool { return p.Tok.Kind == Op && p.Tok.Text == text }

// PeekIsOp reports whether the token after the current one is the
// operator text.
func (p *Parser) PeekIsOp(text string) bool { return p.Peek.Kind == Op && p.Peek.Text == text }

// Nest enters one level of nesting, failing at off when that is deeper
// than max.
func (p *Parser) Nest(off, max int) {
	p.Depth++
	if p.Depth > max {
		p.Fail(off, "expression nested deeper than %d levels", max)
	}
}

// Unnest leaves a level of nesting.
func (p *Parser) Unnest() { p.Depth-- }

// Signed parses a level of two operators of equal precedence, left to
// right, as one node: operand ((plus | minus) operand)*, joined as Join
// says. Each operand after the first is marked with whether minus
// precedes it and where its operator is (a sum's terms, a product's
// factors).
func Signed[E any](p *Parser, plus, minus string, operand func() E, mark func(e E, minus bool, off int), join func(start int, args []E) E) E {
	start := p.Tok.Off
	args := []E{operand()}
	for p.IsOp(plus) || p.IsOp(minus) {
		neg, off := p.Tok.Text == minus, p.Tok.Off
		p.Advance()
		e := operand()
		mark(e, neg, off)
		args = append(args, e)
	}
	return Join(start, args, join)
}

// Nary parses a level of one associative operator as one node:
// operand (op operand)*, joined as Join says.
func Nary[E any](p *Parser, op string, operand func() E, join func(start int, args []E) E) E {
	start := p.Tok.Off
	return Join(start, List(p, op, operand), join)
}

// Left parses a level of binary operators ops, left associative:
// operand (op operand)*, joining two operands with join. Each operator
// nests one level deeper (max), as the tree it builds does.
func Left[E any](p *Parser, ops []string, max int, operand func() E, join func(l, r E, op Token) E) E {
	l := operand()
	links := 0
	for p.Tok.Kind == Op && slices.Contains(ops, p.Tok.Text) {
		op := p.Tok
		p.Nest(op.Off, max)
		p.Advance()
		links++
		l = join(l, operand(), op)
	}
	p.Depth -= links
	return l
}

// List parses a level of one associative operator as a list:
// operand (op operand)*.
func List[E any](p *Parser, op string, operand func() E) []E {
	var args []E
	Each(p, op, func() { args = append(args, operand()) })
	return args
}

// Each parses item (op item)*, item consuming each.
func Each(p *Parser, op string, item func()) {
	item()
	for p.IsOp(op) {
		p.Advance()
		item()
	}
}

// Describe names a token in a message: "end of file", or its text in
// quotes.
func Describe(t Token) string {
	if t.Kind == EOF {
		return "end of file"
	}
	return `"` + t.Text + `"`
}

// Join is the node of a level that starts at the offset start: its only
// operand, or join(start, args) when it has more.
func Join[E any](start int, args []E, join func(start int, args []E) E) E {
	if len(args) == 1 {
		return args[0]
	}
	return join(start, args)
}

// CutShort reports whether the current token runs into something the
// scanner cannot read (a Greek letter inside a name, say).
func (p *Parser) CutShort() bool { return p.PeekErr != nil && p.PeekErr.Off == p.Tok.End }

// Unexpected fails at the current token, named what in the message,
// saying what was expected (when not ""). A token cut short fails with
// the scanner's error instead: that is the real problem.
func (p *Parser) Unexpected(what, expected string) {
	if p.CutShort() {
		panic(*p.PeekErr)
	}
	msg := "unexpected " + what
	if expected != "" {
		msg += " (expected " + expected + ")"
	}
	p.Fail(p.Tok.Off, "%s", msg)
}
