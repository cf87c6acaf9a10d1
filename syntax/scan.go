// Package syntax is what the two front ends' hand-written parsers share: a
// scanner driven by a description of the language (its operators, what a
// number and a string are, the messages for characters it refuses) and the
// core of an expression parser (the current token and the one after it,
// syntax errors at a byte offset, binary operators by precedence level
// from a table, and limits on nesting and size whose messages name them).
// It knows neither .dp nor PRISM: package spec and package prism describe
// their languages to it.
package syntax

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/runenames"
)

// Kind is the kind of a token.
type Kind uint8

// The kinds of tokens.
const (
	EOF    Kind = iota
	Ident       // a name or keyword: [A-Za-z_][A-Za-z0-9_]*
	Primed      // a primed name x' (no space before '), with Lang.Primes; its text is the name without '
	Int         // an integer literal 0 or [1-9][0-9]*, with Lang.Ints
	Number      // any other numeric literal: 3, 0.75, .2, 1e-3
	String      // a quoted name on one line; its text is its value
	Op          // an operator or punctuation mark
)

// Token is one token: its kind, its text and the byte offsets where it
// starts and ends.
type Token struct {
	Kind     Kind
	Text     string
	Off, End int
}

// Error is a lexical or syntax error at a byte offset.
type Error struct {
	Off int
	Msg string
}

// Comment is a // or /* */ comment, kept when a Scanner is asked to.
type Comment struct {
	Off  int
	Text string
}

// Lang describes a language to the Scanner: where .dp and PRISM disagree.
type Lang struct {
	// File names a file of the language in messages ("a PRISM file").
	File string
	// Operators are the operators and punctuation marks; the longest
	// that matches is taken.
	Operators []string
	// Primes scans x' as one Primed token.
	Primes bool
	// Ints tells integer literals (Int) from the others (Number), and
	// refuses a number with nothing after its decimal point or exponent.
	Ints bool
	// Escapes reads a string as a Go string literal (\" and \\);
	// otherwise a string has no escapes and ends on its line (\r too).
	Escapes bool
	// Refused holds the message for an ASCII character that starts no
	// token, when it is more helpful than "unexpected character".
	Refused map[byte]string
	// Runes are non-ASCII characters read as a token: its kind and text.
	Runes map[rune]Token
	// Lookalikes are characters easy to type by accident for the ASCII
	// text they map to: the message says which was meant.
	Lookalikes map[rune]string
	// Letter is the message for a non-ASCII letter r, named name.
	Letter func(r rune, name string) string
}

// Scanner turns source into tokens one at a time, as go/scanner does:
// nothing is kept beyond the current token, so memory does not grow with
// the number of tokens. Lexical problems are reported at their exact byte
// offset, with what to write instead.
type Scanner struct {
	Src string
	// Off is where the next token is looked for.
	Off int
	// Comments are the comments passed so far, when kept.
	Comments []Comment
	keep     bool
	lang     *Lang
}

// NewScanner returns a scanner of src in lang, keeping its comments when
// keep is set. A byte-order mark at the start is skipped.
func NewScanner(lang *Lang, src string, keep bool) *Scanner {
	s := &Scanner{Src: src, lang: lang, keep: keep}
	if strings.HasPrefix(src, "\uFEFF") { // a byte-order mark at the start is harmless
		s.Off = len("\uFEFF")
	}
	return s
}

// At returns a scanner of src in lang that starts at off and keeps no
// comments: a value, for a look ahead that allocates nothing.
func At(lang *Lang, src string, off int) Scanner {
	return Scanner{Src: src, Off: off, lang: lang}
}

// Next returns the next token, or an Error.
func (s *Scanner) Next() (Token, *Error) {
	if err := s.skip(); err != nil {
		return Token{}, err
	}
	src, start, l := s.Src, s.Off, s.lang
	if start >= len(src) {
		return Token{Kind: EOF, Off: len(src), End: len(src)}, nil
	}
	c := src[start]
	switch {
	case IsLetter(c):
		i := start + 1
		for i < len(src) && (IsLetter(src[i]) || IsDigit(src[i])) {
			i++
		}
		if l.Primes && i < len(src) && src[i] == '\'' {
			return s.tok(Primed, src[start:i], i+1), nil
		}
		return s.tok(Ident, src[start:i], i), nil
	case IsDigit(c) || c == '.' && start+1 < len(src) && IsDigit(src[start+1]):
		return s.number(start)
	case c == '"':
		return s.str(start)
	case c < utf8.RuneSelf:
		if op := s.operator(start); op != "" {
			return s.tok(Op, op, start+len(op)), nil
		}
		if msg, ok := l.Refused[c]; ok {
			return Token{}, &Error{start, msg}
		}
		if c < ' ' || c == 0x7f {
			return Token{}, &Error{start, fmt.Sprintf("unexpected control character %U", rune(c))}
		}
		return Token{}, &Error{start, fmt.Sprintf("unexpected character %q", string(c))}
	}
	r, size := utf8.DecodeRuneInString(src[start:])
	if t, ok := l.Runes[r]; ok {
		return s.tok(t.Kind, t.Text, start+size), nil
	}
	return Token{}, &Error{start, s.describe(src[start:])}
}

// operator returns the longest operator at src[i], or "".
func (s *Scanner) operator(i int) string {
	best := ""
	for _, op := range s.lang.Operators {
		if op[0] == s.Src[i] && len(op) > len(best) && strings.HasPrefix(s.Src[i:], op) {
			best = op
		}
	}
	return best
}

func (s *Scanner) tok(k Kind, text string, end int) Token {
	t := Token{Kind: k, Text: text, Off: s.Off, End: end}
	s.Off = end
	return t
}

// NumberEnd returns the end of the decimal literal at src[i]: digits, an
// optional fraction and an optional exponent, as long as they are well
// formed. "0..5" stops before "..".
func NumberEnd(src string, i int) int {
	end, _ := numberEnd(src, i, false)
	return end
}

// numberEnd returns the end of the number at src[i]; strict, it refuses a
// decimal point or an exponent with no digits after it.
func numberEnd(src string, start int, strict bool) (int, string) {
	i := start
	for i < len(src) && IsDigit(src[i]) {
		i++
	}
	if i < len(src) && src[i] == '.' && !(i+1 < len(src) && src[i+1] == '.') {
		if strict && (i+1 >= len(src) || !IsDigit(src[i+1])) {
			return i, fmt.Sprintf("malformed number %q: write digits after the decimal point (%s0)", src[start:i+1], src[start:i+1])
		}
		i++
		for i < len(src) && IsDigit(src[i]) {
			i++
		}
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		j := i + 1
		if j < len(src) && (src[j] == '+' || src[j] == '-') {
			j++
		}
		if j < len(src) && IsDigit(src[j]) {
			for j < len(src) && IsDigit(src[j]) {
				j++
			}
			i = j
		} else if strict {
			return i, fmt.Sprintf("malformed number %q: an exponent needs digits (1e-3)", src[start:j])
		}
	}
	return i, ""
}

// number scans the numeric literal at start. The literal is kept as
// text: never a float.
func (s *Scanner) number(start int) (Token, *Error) {
	end, msg := numberEnd(s.Src, start, s.lang.Ints)
	if msg != "" {
		return Token{}, &Error{start, msg}
	}
	text, kind := s.Src[start:end], Number
	if s.lang.Ints && (text == "0" || text[0] != '0' && IsDigits(text)) {
		kind = Int
	}
	return s.tok(kind, text, end), nil
}

// str scans a quoted string; it ends on its own line.
func (s *Scanner) str(start int) (Token, *Error) {
	src, esc := s.Src, s.lang.Escapes
	i := start + 1
	for i < len(src) && src[i] != '"' && src[i] != '\n' && (esc || src[i] != '\r') {
		if esc && src[i] == '\\' && i+1 < len(src) && src[i+1] != '\n' {
			i++
		}
		i++
	}
	if i >= len(src) || src[i] != '"' {
		return Token{}, &Error{start, `string not terminated: a quoted name ends with " on the same line`}
	}
	if !esc {
		return s.tok(String, src[start+1:i], i+1), nil
	}
	raw := src[start : i+1]
	val, err := strconv.Unquote(raw)
	if err != nil {
		return Token{}, &Error{start, fmt.Sprintf("invalid escape in the string %s (write \\\" for a quote and \\\\ for a backslash)", raw)}
	}
	return s.tok(String, val, i+1), nil
}

// skip passes white space and comments: // to the end of the line, and
// /* … */.
func (s *Scanner) skip() *Error {
	src := s.Src
	for s.Off < len(src) {
		c := src[s.Off]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			s.Off++
		case c == '/' && s.Off+1 < len(src) && src[s.Off+1] == '/':
			end := strings.IndexByte(src[s.Off:], '\n')
			if end < 0 {
				end = len(src) - s.Off
			}
			s.comment(s.Off + end)
		case c == '/' && s.Off+1 < len(src) && src[s.Off+1] == '*':
			end := strings.Index(src[s.Off+2:], "*/")
			if end < 0 {
				return &Error{s.Off, "comment not terminated: /* has no matching */"}
			}
			s.comment(s.Off + 2 + end + 2)
		case c >= utf8.RuneSelf:
			if r, _ := utf8.DecodeRuneInString(src[s.Off:]); r != utf8.RuneError && !unicode.IsSpace(r) && r != '\uFEFF' {
				return nil
			}
			return &Error{s.Off, s.describe(src[s.Off:])}
		default:
			return nil
		}
	}
	return nil
}

// comment passes the comment from s.Off to to, keeping it if asked.
func (s *Scanner) comment(to int) {
	if s.keep {
		s.Comments = append(s.Comments, Comment{Off: s.Off, Text: strings.TrimRight(s.Src[s.Off:to], " \t\r")})
	}
	s.Off = to
}

// describe explains why the character at the start of src cannot appear
// in a file of the language, and what was probably meant.
func (s *Scanner) describe(src string) string {
	r, size := utf8.DecodeRuneInString(src)
	if r == utf8.RuneError && size <= 1 {
		return fmt.Sprintf("invalid UTF-8 (byte 0x%02x): %s must be UTF-8 text", src[0], s.lang.File)
	}
	name := fmt.Sprintf("%U", r)
	if n := runenames.Name(r); n != "" {
		name += " " + n
	}
	switch alike := s.lang.Lookalikes[r]; {
	case r == '\uFEFF':
		return fmt.Sprintf("unexpected byte-order mark (%s): only the start of a file may have one", name)
	case unicode.IsSpace(r):
		return fmt.Sprintf("unexpected %s: use an ordinary space", name)
	case alike != "":
		return fmt.Sprintf("unexpected %q (%s): it looks like %q — write %s", string(r), name, alike, alike)
	case unicode.IsLetter(r):
		return s.lang.Letter(r, name)
	case unicode.IsControl(r):
		return fmt.Sprintf("unexpected control character %s", name)
	}
	return fmt.Sprintf("unexpected %q (%s)", string(r), name)
}

// IsLetter reports whether c may start a name: an ASCII letter or _.
func IsLetter(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// IsDigit reports whether c is an ASCII digit.
func IsDigit(c byte) bool { return c >= '0' && c <= '9' }

// IsDigits reports whether s is one or more ASCII digits.
func IsDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !IsDigit(s[i]) {
			return false
		}
	}
	return len(s) > 0
}

// IsIdent reports whether s is a name: [A-Za-z_][A-Za-z0-9_]*.
func IsIdent(s string) bool {
	if s == "" || !IsLetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !IsLetter(s[i]) && !IsDigit(s[i]) {
			return false
		}
	}
	return true
}

// Lookalikes returns the characters both languages read as easy to type by
// accident for an ASCII text (dashes, comparison signs, curly quotes,
// logical signs, Cyrillic and Greek letters shaped like Latin ones), with
// extra's added: a language's Lang.Lookalikes.
func Lookalikes(extra map[rune]string) map[rune]string {
	m := map[rune]string{
		'–': "-", '—': "-", '≤': "<=", '≥': ">=", '≠': "!=", '“': `"`, '”': `"`, '‘': "'", '’': "'",
		'∗': "*", '⁄': "/", '∣': "|", '¬': "!", '∧': "&", '∨': "|", '→': "->",
		'а': "a", 'е': "e", 'о': "o", 'р': "p", 'с': "c", 'у': "y", 'х': "x", 'і': "i",
		'А': "A", 'В': "B", 'Е': "E", 'К': "K", 'М': "M", 'Н': "H", 'О': "O", 'Р': "P", 'С': "C", 'Т': "T", 'Х': "X",
		'ο': "o", 'ν': "v", 'ρ': "p", 'ι': "i", 'κ': "k", 'τ': "t", 'υ': "u",
		'Α': "A", 'Β': "B", 'Ε': "E", 'Ζ': "Z", 'Η': "H", 'Ι': "I", 'Κ': "K", 'Μ': "M", 'Ν': "N", 'Ο': "O", 'Ρ': "P", 'Τ': "T", 'Χ': "X", 'Υ': "Y",
	}
	for r, s := range extra {
		m[r] = s
	}
	return m
}
