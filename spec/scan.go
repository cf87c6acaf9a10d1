package spec

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/runenames"
)

// The scanner turns .dp source into tokens one at a time, as go/scanner
// does: nothing is materialised beyond the current token, so memory does
// not grow with the number of tokens. It reports lexical problems at their
// exact position and says what to write instead.

type tokKind uint8

const (
	tEOF    tokKind = iota
	tIdent          // a name or keyword: [A-Za-z_][A-Za-z0-9_]*
	tNumber         // a decimal literal: 3, 0.75, 1e-3
	tString         // a quoted name; text is its value
	tOp             // an operator or punctuation mark
)

// token is one token: its kind, its text (the value of a string) and the
// byte offsets where it starts and ends.
type token struct {
	kind     tokKind
	text     string
	off, end int
}

// comment is a // or /* */ comment, kept only for the formatter.
type comment struct {
	off  int
	text string
}

// aliases are characters accepted for the ASCII operator they mean, so
// that a value copied from a paper or from dpcheck's own output reads back.
var aliases = map[rune]string{'·': "*", '×': "*", '−': "-"}

// lookalikes are characters that are easy to type by accident for an ASCII
// one: the error says which was meant.
var lookalikes = map[rune]string{
	'–': "-", '—': "-", '≤': "<=", '≥': ">=", '≠': "!=", '“': `"`, '”': `"`, '‘': "'", '’': "'",
	'∗': "*", '⁄': "/", '∣': "|", '¬': "!", '∧': "&", '∨': "|", '→': "->",
	'а': "a", 'е': "e", 'о': "o", 'р': "p", 'с': "c", 'у': "y", 'х': "x", 'і': "i", 'ј': "j", 'ѕ': "s",
	'А': "A", 'В': "B", 'Е': "E", 'К': "K", 'М': "M", 'Н': "H", 'О': "O", 'Р': "P", 'С': "C", 'Т': "T", 'Х': "X",
	'ο': "o", 'α': "a", 'ν': "v", 'ρ': "p", 'ι': "i", 'κ': "k", 'τ': "t", 'υ': "u",
	'Α': "A", 'Β': "B", 'Ε': "E", 'Ζ': "Z", 'Η': "H", 'Ι': "I", 'Κ': "K", 'Μ': "M", 'Ν': "N", 'Ο': "O", 'Ρ': "P", 'Τ': "T", 'Χ': "X", 'Υ': "Y",
}

// scanError is a lexical error at a byte offset.
type scanError struct {
	off int
	msg string
}

type scanner struct {
	src      string
	off      int
	keep     bool // record comments
	comments []comment
}

func newScanner(src string, keepComments bool) *scanner {
	s := &scanner{src: src, keep: keepComments}
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
		return s.tok(tIdent, src[start:i], i), nil
	case isDigit(c) || c == '.' && start+1 < len(src) && isDigit(src[start+1]):
		return s.tok(tNumber, src[start:s.number(start)], s.number(start)), nil
	case c == '"':
		return s.str(start)
	case c < utf8.RuneSelf:
		if n := operatorLen(src, start); n > 0 {
			return s.tok(tOp, src[start:start+n], start+n), nil
		}
		if c == '#' {
			return token{}, &scanError{start, `# does not start a comment in .dp: write // …`}
		}
		if c < ' ' || c == 0x7f {
			return token{}, &scanError{start, fmt.Sprintf("unexpected control character %U", rune(c))}
		}
		return token{}, &scanError{start, fmt.Sprintf("unexpected character %q", string(c))}
	}
	r, size := utf8.DecodeRuneInString(src[start:])
	switch {
	case r == '†':
		return s.tok(tOp, "†", start+size), nil
	case r == '∞':
		return s.tok(tIdent, "inf", start+size), nil
	case aliases[r] != "":
		return s.tok(tOp, aliases[r], start+size), nil
	}
	return token{}, &scanError{start, describeRune(src[start:])}
}

func (s *scanner) tok(k tokKind, text string, end int) token {
	t := token{kind: k, text: text, off: s.off, end: end}
	s.off = end
	return t
}

// number returns the end of the decimal literal at i: digits, an optional
// fraction and an optional exponent. "0..5" stops before "..".
func (s *scanner) number(i int) int {
	src := s.src
	for i < len(src) && isDigit(src[i]) {
		i++
	}
	if i < len(src) && src[i] == '.' && !(i+1 < len(src) && src[i+1] == '.') {
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
		if j < len(src) && isDigit(src[j]) {
			for j < len(src) && isDigit(src[j]) {
				j++
			}
			i = j
		}
	}
	return i
}

// str scans a quoted string; it ends on its own line.
func (s *scanner) str(start int) (token, *scanError) {
	src := s.src
	i := start + 1
	for i < len(src) && src[i] != '"' && src[i] != '\n' {
		if src[i] == '\\' && i+1 < len(src) && src[i+1] != '\n' {
			i++
		}
		i++
	}
	if i >= len(src) || src[i] != '"' {
		return token{}, &scanError{start, "string not terminated: a quoted name ends with \" on the same line"}
	}
	raw := src[start : i+1]
	val, err := strconv.Unquote(raw)
	if err != nil {
		return token{}, &scanError{start, fmt.Sprintf("invalid escape in the string %s (write \\\" for a quote and \\\\ for a backslash)", raw)}
	}
	return s.tok(tString, val, i+1), nil
}

// skip passes white space and comments.
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
			s.comment(s.off, s.off+end)
		case c == '/' && s.off+1 < len(src) && src[s.off+1] == '*':
			end := strings.Index(src[s.off+2:], "*/")
			if end < 0 {
				return &scanError{s.off, "comment not terminated: /* has no matching */"}
			}
			s.comment(s.off, s.off+2+end+2)
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(src[s.off:])
			if r == utf8.RuneError && size <= 1 {
				return &scanError{s.off, fmt.Sprintf("invalid UTF-8 (byte 0x%02x): a .dp file must be UTF-8 text", src[s.off])}
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

func (s *scanner) comment(from, to int) {
	if s.keep {
		s.comments = append(s.comments, comment{off: from, text: strings.TrimRight(s.src[from:to], " \t\r")})
	}
	s.off = to
}

// describeRune explains why the character at the start of src cannot
// appear in a .dp file, and what was probably meant.
func describeRune(src string) string {
	r, size := utf8.DecodeRuneInString(src)
	if r == utf8.RuneError && size <= 1 {
		return fmt.Sprintf("invalid UTF-8 (byte 0x%02x): a .dp file must be UTF-8 text", src[0])
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
	case r == 'ε' || r == 'δ':
		return fmt.Sprintf("unexpected %q (%s): write the value itself, e.g. dp(eps = ln(2), delta = 0)", string(r), name)
	case unicode.IsLetter(r):
		return fmt.Sprintf("unexpected %q (%s): names are made of ASCII letters, digits and _; quote other names (\"%s\")", string(r), name, string(r))
	case unicode.IsControl(r):
		return fmt.Sprintf("unexpected control character %s", name)
	}
	return fmt.Sprintf("unexpected %q (%s)", string(r), name)
}

// operatorLen returns the length of the ASCII operator or punctuation
// mark at src[i], the longest that matches ("->" rather than "-"), or 0.
// The operators are -> <= >= != == => .. and + - * / ^ ( ) [ ] { } , : ~
// ' | & ! = < > ? ; (and †, which is not ASCII: see next).
func operatorLen(src string, i int) int {
	var next byte
	if i+1 < len(src) {
		next = src[i+1]
	}
	switch src[i] {
	case '-':
		if next == '>' {
			return 2
		}
		return 1
	case '<', '>', '!':
		if next == '=' {
			return 2
		}
		return 1
	case '=':
		if next == '=' || next == '>' {
			return 2
		}
		return 1
	case '.':
		if next == '.' {
			return 2
		}
	case '+', '*', '/', '^', '(', ')', '[', ']', '{', '}', ',', ':', '~', '\'', '|', '&', '?', ';':
		return 1
	}
	return 0
}

func isLetter(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
