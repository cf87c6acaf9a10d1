package spec

import (
	"fmt"

	"github.com/dpcheck/dpcheck/syntax"
)

// The scanner is package syntax's, told what .dp is by dpLang. It reports
// lexical problems at their exact position and says what to write instead.

// The kinds of .dp tokens: a number is always tNumber.
const (
	tEOF    = syntax.EOF
	tIdent  = syntax.Ident
	tNumber = syntax.Number
	tString = syntax.String
	tOp     = syntax.Op
)

// token is one token: its kind, its text (the value of a string) and the
// byte offsets where it starts and ends.
type token = syntax.Token

// comment is a // or /* */ comment, kept only for the formatter.
type comment = syntax.Comment

// dpLang describes .dp to the scanner. Its operators are -> <= >= != == =>
// .. and + - * / ^ ( ) [ ] { } , : ~ ' | & ! = < > ? ; and †. The
// characters ·, × and − are read as the ASCII operator they mean, so that
// a value copied from a paper or from dpcheck's own output reads back.
var dpLang = syntax.Lang{
	File: "a .dp file",
	Operators: []string{"->", "<=", ">=", "!=", "==", "=>", "..", "+", "-", "*", "/", "^", "(", ")", "[", "]", "{", "}",
		",", ":", "~", "'", "|", "&", "!", "=", "<", ">", "?", ";"},
	Escapes: true,
	Refused: map[byte]string{'#': `# does not start a comment in .dp: write // …`},
	Runes: map[rune]syntax.Token{'†': {Kind: tOp, Text: "†"}, '∞': {Kind: tIdent, Text: "inf"},
		'·': {Kind: tOp, Text: "*"}, '×': {Kind: tOp, Text: "*"}, '−': {Kind: tOp, Text: "-"}},
	Lookalikes: syntax.Lookalikes(map[rune]string{'ј': "j", 'ѕ': "s", 'α': "a"}),
	Letter: func(r rune, name string) string {
		if r == 'ε' || r == 'δ' {
			return fmt.Sprintf("unexpected %q (%s): write the value itself, e.g. dp(eps = ln(2), delta = 0)", string(r), name)
		}
		return fmt.Sprintf("unexpected %q (%s): names are made of ASCII letters, digits and _; quote other names (\"%s\")", string(r), name, string(r))
	},
}
