package source

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Names, labels, file names and messages come from the files dpcheck
// reads, which an attacker may have written; every rendering shows them
// through an escaping of its own kind, built on these two functions.

// Unsafe reports whether r must not reach an output as it is: a control
// character (C0 — line ends and tabs included —, DEL, C1), a line or
// paragraph separator (U+2028, U+2029), or a character that changes the
// direction of text (U+061C, U+200E, U+200F, U+202A–U+202E,
// U+2066–U+2069). Such a character can end a line, move a terminal's
// cursor, clear its screen, make a CI log read a workflow command, or
// show a text in another order than it is stored.
func Unsafe(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x2028, r == 0x2029, r == 0x061c, r == 0x200e, r == 0x200f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// Escape returns s with every unsafe character (see Unsafe) and every
// byte that is not UTF-8 written as a Go escape: \n, \r, \t, \x1b, \x00,
// \u202e, \xff. Other characters, ⊤, ε and Greek letters included, are
// kept, and a string without unsafe characters is returned as it is. A
// backslash is kept too, so that Escape(Escape(s)) == Escape(s): a
// rendering may escape a text that already is.
func Escape(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80 && Unsafe(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case Unsafe(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func needsEscape(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 || Unsafe(r) {
			return true
		}
		i += size
	}
	return false
}
