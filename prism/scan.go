package prism

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/runenames"
)

// The scanner turns PRISM source into tokens one at a time, as go/scanner
// does: nothing is kept beyond the current token, so memory does not grow
// with the number of tokens. Token texts are slices of the source. Lexical
// problems are reported at their exact byte offset.

type tokKind uint8

const (
	tEOF    tokKind = iota
	tIdent          // a name or keyword: [A-Za-z_][A-Za-z0-9_]*
	tPrimed         // a primed name x' (no space before '); text is the name without '
	tInt            // an integer literal: 0 or [1-9][0-9]*
	tDouble         // another numeric literal: 0.75, .2, 1e-3, 007
	tString         // "…" on one line; text is what is between the quotes
	tOp             // an operator or punctuation mark
)

// token is one token: its kind, its text and the byte offsets where it
// starts and ends.
type token struct {
	kind     tokKind
	text     string
	off, end int
}

// scanError is a lexical error at a byte offset.
type scanError struct {
	off int
	msg string
}

type scanner struct {
	src string
	off int
}

func newScanner(src string) *scanner {
	s := &scanner{src: src}
	if strings.HasPrefix(src, "\uFEFF") { // a byte-order mark at the start is harmless
		s.off = len("\uFEFF")
	}
	return s
}

// next returns the next token, or a scanError.
func (s *scanner) next() (token, *scanError) {
	if err := s.skip(); err != nil {
		return token{}, err
	}
	src, start := s.src, s.off
	if start >= len(src) {
		return token{kind: tEOF, off: len(src), end: len(src)}, nil
	}
	c := src[start]
	switch {
	case isLetter(c):
		i := start + 1
		for i < len(src) && (isLetter(src[i]) || isDigit(src[i])) {
			i++
		}
		if i < len(src) && src[i] == '\'' {
			return s.tok(tPrimed, src[start:i], i+1), nil
		}
		return s.tok(tIdent, src[start:i], i), nil
	case isDigit(c) || c == '.' && start+1 < len(src) && isDigit(src[start+1]):
		return s.number(start)
	case c == '"':
		return s.str(start)
	case c == '#':
		return token{}, &scanError{start, "# starts a PRISM preprocessor directive, which dpcheck does not support: expand the file first (prismpp), and write comments as // …"}
	}
	if op := operator(src[start:]); op != "" {
		return s.tok(tOp, op, start+len(op)), nil
	}
	switch {
	case c == '.':
		return token{}, &scanError{start, `unexpected "." (a range is written [lo..hi], a decimal 0.5)`}
	case c < ' ' || c == 0x7f:
		return token{}, &scanError{start, fmt.Sprintf("unexpected control character %U", rune(c))}
	case c < utf8.RuneSelf:
		return token{}, &scanError{start, fmt.Sprintf("unexpected character %q", string(c))}
	}
	return token{}, &scanError{start, describeRune(src[start:])}
}

// operator returns the operator at the start of src, longest first, or "".
func operator(src string) string {
	switch src[0] {
	case '<':
		switch {
		case strings.HasPrefix(src, "<=>"):
			return "<=>"
		case strings.HasPrefix(src, "<="):
			return "<="
		}
		return "<"
	case '=':
		if strings.HasPrefix(src, "=>") {
			return "=>"
		}
		return "="
	case '-':
		if strings.HasPrefix(src, "->") {
			return "->"
		}
		return "-"
	case '>':
		if strings.HasPrefix(src, ">=") {
			return ">="
		}
		return ">"
	case '!':
		if strings.HasPrefix(src, "!=") {
			return "!="
		}
		return "!"
	case '.':
		if strings.HasPrefix(src, "..") {
			return ".."
		}
		return ""
	case '&', '|', ':', ';', ',', '(', ')', '[', ']', '{', '}', '+', '*', '/', '\'', '?':
		return src[:1]
	}
	return ""
}

func (s *scanner) tok(k tokKind, text string, end int) token {
	t := token{kind: k, text: text, off: s.off, end: end}
	s.off = end
	return t
}

// number scans the numeric literal at start, as PRISM's REG_INT and
// REG_DOUBLE: digits, an optional fraction and an optional exponent. "0..5"
// stops before "..". The literal is kept as text: never a float.
func (s *scanner) number(start int) (token, *scanError) {
	src := s.src
	i := start
	for i < len(src) && isDigit(src[i]) {
		i++
	}
	if i < len(src) && src[i] == '.' && !(i+1 < len(src) && src[i+1] == '.') {
		if i+1 >= len(src) || !isDigit(src[i+1]) {
			return token{}, &scanError{start, fmt.Sprintf("malformed number %q: write digits after the decimal point (%s0)", src[start:i+1], src[start:i+1])}
		}
		i++
		for i < len(src) && isDigit(src[i]) {
			i++
		}
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		j := i + 1
		if j < len(src) && (src[j] == '+' || src[j] == '-') {
			j++
		}
		if j >= len(src) || !isDigit(src[j]) {
			return token{}, &scanError{start, fmt.Sprintf("malformed number %q: an exponent needs digits (1e-3)", src[start:j])}
		}
		for j < len(src) && isDigit(src[j]) {
			j++
		}
		i = j
	}
	text := src[start:i]
	kind := tDouble
	if text == "0" || text[0] != '0' && isDigits(text) {
		kind = tInt
	}
	return s.tok(kind, text, i), nil
}

// str scans a quoted name (a label); it ends on its own line. PRISM has no
// escapes.
func (s *scanner) str(start int) (token, *scanError) {
	src := s.src
	i := start + 1
	for i < len(src) && src[i] != '"' && src[i] != '\n' && src[i] != '\r' {
		i++
	}
	if i >= len(src) || src[i] != '"' {
		return token{}, &scanError{start, `string not terminated: a quoted name ends with " on the same line`}
	}
	return s.tok(tString, src[start+1:i], i+1), nil
}

// skip passes white space and comments: // to the end of the line, and
// /* … */.
func (s *scanner) skip() *scanError {
	src := s.src
	for s.off < len(src) {
		c := src[s.off]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			s.off++
		case c == '/' && s.off+1 < len(src) && src[s.off+1] == '/':
			end := strings.IndexByte(src[s.off:], '\n')
			if end < 0 {
				end = len(src) - s.off
			}
			s.off += end
		case c == '/' && s.off+1 < len(src) && src[s.off+1] == '*':
			end := strings.Index(src[s.off+2:], "*/")
			if end < 0 {
				return &scanError{s.off, "comment not terminated: /* has no matching */"}
			}
			s.off += 2 + end + 2
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(src[s.off:])
			if r == utf8.RuneError && size <= 1 {
				return &scanError{s.off, fmt.Sprintf("invalid UTF-8 (byte 0x%02x): a PRISM file must be UTF-8 text", src[s.off])}
			}
			if !unicode.IsSpace(r) && r != '\uFEFF' {
				return nil
			}
			return &scanError{s.off, describeRune(src[s.off:])}
		default:
			return nil
		}
	}
	return nil
}

// lookalikes are characters easy to type by accident for an ASCII one.
var lookalikes = map[rune]string{
	'−': "-", '–': "-", '—': "-", '≤': "<=", '≥': ">=", '≠': "!=", '“': `"`, '”': `"`, '‘': "'", '’': "'",
	'∗': "*", '·': "*", '×': "*", '⁄': "/", '∣': "|", '¬': "!", '∧': "&", '∨': "|", '→': "->", '⇒': "=>", '⇔': "<=>",
	'а': "a", 'е': "e", 'о': "o", 'р': "p", 'с': "c", 'у': "y", 'х': "x", 'і': "i",
	'А': "A", 'В': "B", 'Е': "E", 'К': "K", 'М': "M", 'Н': "H", 'О': "O", 'Р': "P", 'С': "C", 'Т': "T", 'Х': "X",
	'ο': "o", 'ν': "v", 'ρ': "p", 'ι': "i", 'κ': "k", 'τ': "t", 'υ': "u",
	'Α': "A", 'Β': "B", 'Ε': "E", 'Ζ': "Z", 'Η': "H", 'Ι': "I", 'Κ': "K", 'Μ': "M", 'Ν': "N", 'Ο': "O", 'Ρ': "P", 'Τ': "T", 'Χ': "X", 'Υ': "Y",
}

// describeRune explains why the character at the start of src cannot
// appear in a PRISM file, and what was probably meant.
func describeRune(src string) string {
	r, size := utf8.DecodeRuneInString(src)
	if r == utf8.RuneError && size <= 1 {
		return fmt.Sprintf("invalid UTF-8 (byte 0x%02x): a PRISM file must be UTF-8 text", src[0])
	}
	name := fmt.Sprintf("%U", r)
	if n := runenames.Name(r); n != "" {
		name += " " + n
	}
	switch {
	case r == '\uFEFF':
		return fmt.Sprintf("unexpected byte-order mark (%s): only the start of a file may have one", name)
	case unicode.IsSpace(r):
		return fmt.Sprintf("unexpected %s: use an ordinary space", name)
	case lookalikes[r] != "":
		return fmt.Sprintf("unexpected %q (%s): it looks like %q — write %s", string(r), name, lookalikes[r], lookalikes[r])
	case unicode.IsLetter(r):
		return fmt.Sprintf("unexpected %q (%s): PRISM names are made of ASCII letters, digits and _", string(r), name)
	case unicode.IsControl(r):
		return fmt.Sprintf("unexpected control character %s", name)
	}
	return fmt.Sprintf("unexpected %q (%s)", string(r), name)
}

func isLetter(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return len(s) > 0
}

// isIdent reports whether s is an identifier.
func isIdent(s string) bool {
	if s == "" || !isLetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isLetter(s[i]) && !isDigit(s[i]) {
			return false
		}
	}
	return true
}
