package spec

import (
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

var dpLexer = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Comment", Pattern: `//[^\n]*|/\*([^*]|\*+[^*/])*\*+/`},
	{Name: "Whitespace", Pattern: `[ \t\r\n]+`},
	{Name: "Number", Pattern: `(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?`},
	{Name: "String", Pattern: `"(\\.|[^"\\\n])*"`},
	{Name: "Ident", Pattern: `[A-Za-z_][A-Za-z0-9_]*`},
	{Name: "Punct", Pattern: `->|<=|>=|!=|==|[-+*/^()\[\]{},:~'|&!=<>?]|†`},
	{Name: "Unknown", Pattern: `.`},
})

// Keywords that cannot name a constant, state, variable or label.
var keywords = []string{
	"const", "model", "chain", "state", "else", "inputs", "where", "outputs", "var", "labels",
	"observe", "neighbours", "neighbors", "check", "query", "over", "expect", "holds", "violated",
	"X", "F", "G", "U", "P", "D",
}

func newParser() *participle.Parser[File] {
	return participle.MustBuild[File](
		participle.Lexer(dpLexer),
		participle.Elide("Comment", "Whitespace"),
		participle.Unquote("String"),
		participle.UseLookahead(4),
	)
}

// Grammar returns the grammar of the .dp language in EBNF, as participle
// derives it from the AST (the README quotes it; a test keeps them equal).
func Grammar() string { return newParser().String() }

// Parse parses a .dp file. A syntax error is returned as an ErrorList with
// one positioned error. Parse never panics.
func Parse(filename, src string) (f *File, err error) {
	defer func() {
		if r := recover(); r != nil { // participle should not panic; never let it escape
			f, err = nil, ErrorList{{Pos: Position{Filename: filename, Line: 1, Column: 1}, Msg: "internal parser error"}}
		}
	}()
	if msg := notText(src); msg != "" {
		return nil, ErrorList{{Pos: Position{Filename: filename, Line: 1, Column: 1}, Msg: msg}}
	}
	f, err = newParser().ParseString(filename, src)
	if err != nil {
		var perr participle.Error
		if errors.As(err, &perr) {
			return nil, ErrorList{{Pos: pos(perr.Position()), Msg: friendly(perr.Message())}}
		}
		return nil, ErrorList{{Pos: Position{Filename: filename, Line: 1, Column: 1}, Msg: err.Error()}}
	}
	return f, nil
}

// friendly rewords participle's messages: the grammar fragments it lists
// after "expected" are replaced by words, or dropped.
func friendly(msg string) string {
	msg = strings.ReplaceAll(msg, `unexpected token "<EOF>"`, "unexpected end of file")
	msg = strings.ReplaceAll(msg, "invalid input text", "unexpected character")
	i := strings.Index(msg, " (expected ")
	if i < 0 || !strings.HasSuffix(msg, ")") {
		return msg
	}
	want := msg[i+len(" (expected ") : len(msg)-1]
	if w, ok := expectedWords[want]; ok {
		return msg[:i] + " (expected " + w + ")"
	}
	if strings.HasPrefix(want, `"`) && strings.HasSuffix(want, `"`) && strings.Count(want, `"`) == 2 {
		return msg // a single token: clear as it is
	}
	return msg[:i]
}

var expectedWords = map[string]string{
	"Call":                          "a call such as survey(theta1 = 1/2)",
	"Expr":                          "an expression",
	"Name":                          "a state name",
	"Word":                          "a name",
	"Target":                        "a transition TARGET : PROBABILITY",
	"Expect":                        "holds, violated or a value",
	"SinkRef":                       "sink",
	"Assign":                        "VARIABLE = VALUE",
	"NotExpr":                       "an expression",
	"Sum":                           "a number",
	"Unary":                         "a number",
	"((Pair (\",\" Pair)*) | Expr)": "pairs A ~ B (quote names such as \"+\") or a predicate",
}

// notText explains why src is not a .dp text, or returns "".
func notText(s string) string {
	if strings.IndexByte(s, 0) >= 0 {
		return "the file contains NUL bytes: it is not a .dp text file"
	}
	if !utf8.ValidString(s) {
		return "the file is not valid UTF-8 text"
	}
	return ""
}
