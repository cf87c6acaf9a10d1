package prism

import (
	"fmt"

	"github.com/dpcheck/dpcheck/syntax"
)

// The scanner is package syntax's, told what PRISM is by prismLang. Token
// texts are slices of the source. Lexical problems are reported at their
// exact byte offset.

// The kinds of PRISM tokens.
const (
	tEOF    = syntax.EOF
	tIdent  = syntax.Ident
	tPrimed = syntax.Primed // a primed name x'; text is the name without '
	tInt    = syntax.Int    // an integer literal: 0 or [1-9][0-9]*
	tDouble = syntax.Number // another numeric literal: 0.75, .2, 1e-3, 007
	tString = syntax.String // "…" on one line; text is what is between the quotes
	tOp     = syntax.Op
)

// token is one token: its kind, its text and the byte offsets where it
// starts and ends.
type token = syntax.Token

// prismLang describes PRISM to the scanner: its numbers are REG_INT and
// REG_DOUBLE, its strings (labels) have no escapes.
var prismLang = syntax.Lang{
	File: "a PRISM file",
	Operators: []string{"<=>", "<=", "<", "=>", "=", "->", "-", ">=", ">", "!=", "!", "..",
		"&", "|", ":", ";", ",", "(", ")", "[", "]", "{", "}", "+", "*", "/", "'", "?", "^"},
	Primes: true,
	Ints:   true,
	Refused: map[byte]string{
		'#': "# starts a PRISM preprocessor directive, which dpcheck does not support: expand the file first (prismpp), and write comments as // …",
		'.': `unexpected "." (a range is written [lo..hi], a decimal 0.5)`,
	},
	Lookalikes: syntax.Lookalikes(map[rune]string{'−': "-", '·': "*", '×': "*", '⇒': "=>", '⇔': "<=>"}),
	Letter: func(r rune, name string) string {
		return fmt.Sprintf("unexpected %q (%s): PRISM names are made of ASCII letters, digits and _", string(r), name)
	},
}
