package syntax

import (
	"strings"
	"testing"
)

// testLang is a small language: a few operators, primes, integers, a
// refused # and one rune read as an operator.
var testLang = Lang{
	File:       "a test file",
	Operators:  []string{"<=", "<", "+", "-", "*", "/", "(", ")", "..", "'"},
	Primes:     true,
	Ints:       true,
	Refused:    map[byte]string{'#': "no # here"},
	Runes:      map[rune]Token{'·': {Kind: Op, Text: "*"}},
	Lookalikes: map[rune]string{'≤': "<="},
	Letter:     func(r rune, name string) string { return "letter " + name },
}

func TestScannerTokens(t *testing.T) {
	src := "\uFEFFx' <= 12 // c\n/* d */ 0.5·a..b 007 \"q\""
	want := []Token{
		{Primed, "x", 3, 5}, {Op, "<=", 6, 8}, {Int, "12", 9, 11},
		{Number, "0.5", 25, 28}, {Op, "*", 28, 30}, {Ident, "a", 30, 31}, {Op, "..", 31, 33}, {Ident, "b", 33, 34},
		{Number, "007", 35, 38}, {String, "q", 39, 42}, {EOF, "", 42, 42},
	}
	s := NewScanner(&testLang, src, true)
	for i, w := range want {
		got, err := s.Next()
		if err != nil || got != w {
			t.Fatalf("token %d: got %+v, %v; want %+v", i, got, err, w)
		}
	}
	if len(s.Comments) != 2 || s.Comments[0] != (Comment{12, "// c"}) || s.Comments[1] != (Comment{17, "/* d */"}) {
		t.Errorf("comments %+v", s.Comments)
	}
}

func TestScannerErrors(t *testing.T) {
	for _, c := range []struct {
		src string
		off int
		msg string
	}{
		{"a #", 2, "no # here"},
		{"1.", 0, `malformed number "1.": write digits after the decimal point (1.0)`},
		{"1e+", 0, `malformed number "1e+": an exponent needs digits (1e-3)`},
		{`x "ab`, 2, `string not terminated: a quoted name ends with " on the same line`},
		{"/* x", 0, "comment not terminated: /* has no matching */"},
		{"a ≤ b", 2, `unexpected "≤" (U+2264 LESS-THAN OR EQUAL TO): it looks like "<=" — write <=`},
		{"é", 0, "letter U+00E9 LATIN SMALL LETTER E WITH ACUTE"},
		{"a \xff", 2, "invalid UTF-8 (byte 0xff): a test file must be UTF-8 text"},
		{"\x01", 0, "unexpected control character U+0001"},
		{"@", 0, `unexpected character "@"`},
		{"a\u00a0", 1, "unexpected U+00A0 NO-BREAK SPACE: use an ordinary space"},
	} {
		s := NewScanner(&testLang, c.src, false)
		var err *Error
		for err == nil {
			var tok Token
			if tok, err = s.Next(); tok.Kind == EOF && err == nil {
				break
			}
		}
		if err == nil || *err != (Error{c.off, c.msg}) {
			t.Errorf("%q: got %+v, want %d: %s", c.src, err, c.off, c.msg)
		}
	}
}

// calc evaluates integer expressions with the two precedence levels: a
// product binds tighter than a sum, both left to right.
type calc struct{ Parser }

func (p *calc) sum() int {
	return Signed(&p.Parser, "+", "-", p.term, func(e int, neg bool, off int) {}, func(_ int, terms []int) int {
		return terms[0] + len(terms) - 1 // how many operators, for the test
	})
}

func (p *calc) term() int {
	return Left(&p.Parser, []string{"*", "/"}, 3, p.unary, func(l, r int, op Token) int {
		if op.Text == "*" {
			return l * r
		}
		return l / r
	})
}

func (p *calc) unary() int {
	if p.IsOp("(") {
		p.Nest(p.Tok.Off, 3)
		p.Advance()
		defer p.Unnest()
		v := p.term()
		if !p.IsOp(")") {
			p.Fail(p.Tok.Off, "want )")
		}
		p.Advance()
		return v
	}
	v := 0
	for _, c := range p.Tok.Text {
		v = 10*v + int(c-'0')
	}
	p.Advance()
	return v
}

func parseCalc(src string) (v int, err *Error) {
	p := &calc{}
	defer func() {
		if r := recover(); r != nil {
			err = Catch(r)
		}
	}()
	if err := p.Start(NewScanner(&testLang, src, false)); err != nil {
		return 0, err
	}
	return p.sum(), nil
}

func TestPrecedence(t *testing.T) {
	if v, err := parseCalc("2*3/2"); err != nil || v != 3 {
		t.Errorf("2*3/2: %d, %v", v, err)
	}
	if v, err := parseCalc("7 + 2*3 - 1"); err != nil || v != 9 { // 7, then 2 operators
		t.Errorf("sum: %d, %v", v, err)
	}
}

func TestDepthLimit(t *testing.T) {
	if _, err := parseCalc("(((1)))"); err != nil {
		t.Fatalf("depth 3: %v", err)
	}
	src := strings.Repeat("(", 100000) + "1"
	_, err := parseCalc(src)
	if err == nil || err.Off != 3 || err.Msg != "expression nested deeper than 3 levels" {
		t.Errorf("got %+v", err)
	}
	if _, err := parseCalc("1*1*1*1*1"); err == nil || err.Off != 7 || !strings.Contains(err.Msg, "3 levels") {
		t.Errorf("chain of operators: got %+v", err)
	}
}
