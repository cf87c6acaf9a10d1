package spec

import (
	"fmt"

	"github.com/dpcheck/dpcheck/syntax"
)

// The scanner is package syntax's, told what .dp is by dpLang. It reports
// lexical problems at their exact position and says what to write instead.

type tokKind = syntax.Kind

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

// scanError is a lexical error at a byte offset.
type scanError = syntax.Error

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
	Lookalikes: map[rune]string{
		'–': "-", '—': "-", '≤': "<=", '≥': ">=", '≠': "!=", '“': `"`, '”': `"`, '‘': "'", '’': "'",
		'∗': "*", '⁄': "/", '∣': "|", '¬': "!", '∧': "&", '∨': "|", '→': "->",
		'а': "a", 'е': "e", 'о': "o", 'р': "p", 'с': "c", 'у': "y", 'х': "x", 'і': "i", 'ј': "j", 'ѕ': "s",
		'А': "A", 'В': "B", 'Е': "E", 'К': "K", 'М': "M", 'Н': "H", 'О': "O", 'Р': "P", 'С': "C", 'Т': "T", 'Х': "X",
		'ο': "o", 'α': "a", 'ν': "v", 'ρ': "p", 'ι': "i", 'κ': "k", 'τ': "t", 'υ': "u",
		'Α': "A", 'Β': "B", 'Ε': "E", 'Ζ': "Z", 'Η': "H", 'Ι': "I", 'Κ': "K", 'Μ': "M", 'Ν': "N", 'Ο': "O", 'Ρ': "P", 'Τ': "T", 'Χ': "X", 'Υ': "Y",
	},
	Letter: func(r rune, name string) string {
		if r == 'ε' || r == 'δ' {
			return fmt.Sprintf("unexpected %q (%s): write the value itself, e.g. dp(eps = ln(2), delta = 0)", string(r), name)
		}
		return fmt.Sprintf("unexpected %q (%s): names are made of ASCII letters, digits and _; quote other names (\"%s\")", string(r), name, string(r))
	},
}
