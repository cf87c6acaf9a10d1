package spec

import (
	"context"
	"math/big"
	"slices"

	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/syntax"
)

// Loading explicit chains. Generated models are large — hundreds of
// thousands of transitions, megabytes of rationals — so when a file is
// loaded (Options.Load) rather than parsed for the formatter (Parse,
// Format), a chain block is not kept as an AST: the parser reads it into
// chainData, compact records of its states, rows and transitions, in which
// every state name and every probability literal is stored once, and the
// checker (model.go) builds the chain from them. A probability written as
// a number or a fraction of two numbers — what generators write — is read
// without building an expression; any other expression is parsed as
// usual and evaluated with the file's constants.
//
// Counting goes on while the block is read: once it declares more states
// or transitions than the limits allow, nothing more is kept, and the
// checker reports the limit with the block's totals, as it does for a
// parsed block. The parser checks the context every 1024 items.

// loading is what the parser needs when it loads a file.
type loading struct {
	ctx    context.Context
	limits model.Limits
	// maxNodes replaces MaxNodes when positive (for tests).
	maxNodes int
}

// cancelled carries the context's error out of the recursive descent.
type cancelled struct{ err error }

// chainData is a chain block as loading keeps it. Offsets are byte offsets
// in the file (the parser accepts at most MaxFileSize bytes, so they fit in
// 32 bits).
type chainData struct {
	// names are the state names by symbol; syms maps a name to its
	// symbol. A symbol exists for every name written, declared or not.
	names []string
	syms  map[string]int32
	// states are the state declarations in the order written.
	states []stateRec
	vals   []valRec   // the valuations of the states, one after another
	labels []labelRec // the labels of the states, one after another
	// words are the names of variables and labels, wordIndex finds one.
	words     []string
	wordIndex map[string]int32
	// rows are the rows in the order written, targets their transitions
	// one after another.
	rows    []rowRec
	targets []targetRec
	// lits are the distinct probability literals, litIndex finds one by
	// its text.
	lits     []litRec
	litIndex map[string]int32
	// exprs are the values that are not literals; probs the distinct
	// probabilities that are not literals, probIndex finds one by its text.
	exprs     []*Expr
	probs     []probRec
	probIndex map[string]int32
	// nStates counts the states declared and nRowTrans the transitions
	// the rows may give (each row's targets, and one for its sink or its
	// absorbing self-loop) — also after over is set.
	nStates, nRowTrans int
	// over is set once the block is over a limit: nothing more is kept.
	over bool
	// items counts the states and rows read, to check the context.
	items int
}

// stateRec is "state NAME (VAR = VALUE, …) [LABEL, …]".
type stateRec struct {
	sym          int32
	off          int32 // of the name
	quoted       bool
	valLo, valHi int32 // its valuation: vals[valLo:valHi]
	labLo, labHi int32 // its labels: labels[labLo:labHi]
}

// valRec is "VAR = VALUE", the variable words[word]: an integer literal
// (expr < 0) or exprs[expr].
type valRec struct {
	word  int32
	off   int32 // of the variable
	expr  int32
	value int64
}

// labelRec is a label of a state, words[word].
type labelRec struct {
	word int32
	off  int32
}

// rowRec is "FROM -> TO : P, … [else sink]".
type rowRec struct {
	from     int32 // symbol
	fromOff  int32
	start    int32
	tLo, tHi int32 // its transitions: targets[tLo:tHi]
	sinkOff  int32 // of the word after else; -1 without else
	sinkLen  int32 // its length
}

// targetRec is "TO : P". prob ≥ 0 is a literal (lits[prob]); prob < 0 is
// the expression probs[-prob-1].
type targetRec struct {
	to      int32 // symbol
	off     int32 // of the name
	probOff int32
	prob    int32
}

// litRec is a probability literal: a number, or num/den. Its value is
// computed once, when the checker first needs it; err (at errRel bytes
// from the literal's start) when it has none.
type litRec struct {
	num, den         string // den is "" for a number
	slashRel, denRel int32  // offsets of "/" and den from the start
	done             bool
	val              *big.Rat
	err              string
	errRel           int32
}

// probRec is a probability written as an expression. Written again with
// the same text, it has the same value — an expression over constants —
// and the same errors at the same places relative to its start: the
// checker evaluates it once (errs are its errors, their offsets relative
// to its start) and repeats the outcome.
type probRec struct {
	expr     *Expr
	done, ok bool
	val      *big.Rat
	errs     []relError
}

// relError is an error at rel bytes from the start of an expression.
type relError struct {
	rel   int32
	msg   string
	limit string
}

// push appends x to s, doubling its capacity when it is full (append grows
// large slices by a quarter, which copies a block's records five times
// over as they accumulate).
func push[T any](s []T, x T) []T {
	if len(s) == cap(s) {
		t := make([]T, len(s), max(16, 2*cap(s)))
		copy(t, s)
		s = t
	}
	return append(s, x)
}

func newChainData() *chainData {
	return &chainData{syms: map[string]int32{}, wordIndex: map[string]int32{}, litIndex: map[string]int32{}, probIndex: map[string]int32{}}
}

// intern returns the index in list of the record of key (index maps the
// keys), appending x as its record when key is new, and whether it was
// there.
func intern[T any](list *[]T, index map[string]int32, key string, x T) (int32, bool) {
	if i, ok := index[key]; ok {
		return i, true
	}
	i := int32(len(*list))
	*list = push(*list, x)
	index[key] = i
	return i, false
}

// word returns the number of a variable or label name, adding it when it
// is new.
func (d *chainData) word(name string) int32 {
	w, _ := intern(&d.words, d.wordIndex, name, name)
	return w
}

// prob keeps a probability written as an expression, once per text, and
// returns its index in probs, and whether the text was seen before.
func (d *chainData) prob(text string, e *Expr) (i int32, seen bool) {
	return intern(&d.probs, d.probIndex, text, probRec{expr: e})
}

// sym returns the symbol of a state name, adding it when it is new.
func (d *chainData) sym(name string) int32 {
	s, _ := intern(&d.names, d.syms, name, name)
	return s
}

// lookup returns the symbol of a state name, if it was written.
func (d *chainData) lookup(name string) (int32, bool) {
	s, ok := d.syms[name]
	return s, ok
}

// expr keeps a parsed expression and returns its index.
func (d *chainData) expr(e *Expr) int32 {
	d.exprs = append(d.exprs, e)
	return int32(len(d.exprs) - 1)
}

// overLimits reports whether the counts so far exceed the limits (the
// checker's tests, in chainBlock, on the totals).
func (d *chainData) overLimits(l model.Limits) bool {
	return d.nStates+1 > l.MaxStates || d.nStates+1+d.nRowTrans > l.MaxTransitions
}

// drop stops keeping the block: it is over a limit.
func (d *chainData) drop() {
	d.over = true
	d.names, d.syms, d.states, d.vals, d.labels, d.rows, d.targets = nil, nil, nil, nil, nil, nil, nil
	d.words, d.wordIndex = nil, nil
	d.lits, d.litIndex, d.exprs, d.probs, d.probIndex = nil, nil, nil, nil, nil
}

// loadChain parses "{ … }" after "chain" into chainData (the grammar is
// chain()'s).
func (p *parser) loadChain() *ChainStmt {
	s := &ChainStmt{}
	d := newChainData()
	s.data = d
	p.expect("{")
	for !p.IsOp("}") {
		if d.items%1024 == 0 {
			if err := p.ld.ctx.Err(); err != nil {
				panic(cancelled{err})
			}
		}
		d.items++
		if p.Is("state") {
			p.loadState(d)
		} else {
			p.loadRow(d)
		}
		if !d.over && d.overLimits(p.ld.limits) {
			d.drop()
		}
	}
	p.Advance()
	return s
}

// loadState reads "state NAME (VAR = VALUE, …) [LABEL, …]".
func (p *parser) loadState(d *chainData) {
	p.Advance()
	n := p.name("a state name")
	d.nStates++
	keep := !d.over
	var st stateRec
	if keep {
		st = stateRec{sym: d.sym(n.Text), off: int32(n.Off), quoted: n.Quoted, valLo: int32(len(d.vals)), labLo: int32(len(d.labels))}
	}
	if p.IsOp("(") {
		p.Advance()
		syntax.Each(&p.Parser, ",", func() {
			w := p.word("VARIABLE = VALUE")
			p.expect("=")
			v := valRec{off: int32(w.Off), expr: -1}
			if x, ok := p.intLiteral(); ok {
				v.value = x
			} else if n, e := p.Nodes, p.expr(); keep {
				v.expr = d.expr(e)
			} else {
				p.Nodes = n // not kept
			}
			if keep {
				v.word = d.word(w.Name)
				d.vals = push(d.vals, v)
			}
		})
		p.expect(")")
	}
	if p.IsOp("[") {
		p.Advance()
		if !p.IsOp("]") {
			syntax.Each(&p.Parser, ",", func() {
				l := p.name("a label")
				if keep {
					d.labels = push(d.labels, labelRec{word: d.word(l.Text), off: int32(l.Off)})
				}
			})
		}
		p.expect("]")
	}
	if keep {
		st.valHi, st.labHi = int32(len(d.vals)), int32(len(d.labels))
		d.states = push(d.states, st)
	}
}

// loadRow reads "FROM -> TO : P, … [else sink]".
func (p *parser) loadRow(d *chainData) {
	start := p.Tok.Off
	if p.Tok.Kind != tIdent && p.Tok.Kind != tString {
		p.unexpected(`"}", a state or a row FROM -> TO : PROBABILITY`)
	}
	from := p.name("a state name")
	p.rowArrow()
	keep := !d.over
	r := rowRec{fromOff: int32(from.Off), start: int32(start), sinkOff: -1}
	if keep {
		r.from = d.sym(from.Text)
		r.tLo = int32(len(d.targets))
	}
	n := 0
	syntax.Each(&p.Parser, ",", func() {
		to := p.name("a transition TARGET : PROBABILITY")
		p.rowColon(to)
		n++
		t := targetRec{off: int32(to.Off), probOff: int32(p.Tok.Off)}
		if lit, ok := p.probLiteral(d, keep); ok {
			t.prob = lit
		} else if pr, ok := p.probSeen(d, keep); ok {
			t.prob = -pr - 1
		} else if n, e := p.Nodes, p.expr(); !keep {
			p.Nodes = n // not kept
		} else {
			pr, seen := d.prob(p.f.Src[t.probOff:p.LastEnd], e)
			if seen {
				p.Nodes = n // the text's first expression is kept instead
			}
			t.prob = -pr - 1
		}
		if keep {
			t.to = d.sym(to.Text)
			d.targets = push(d.targets, t)
		}
	})
	d.nRowTrans += n + 1
	if p.Is("else") {
		p.Advance()
		switch {
		case p.Tok.Kind == tIdent, p.IsOp("†"):
			r.sinkOff, r.sinkLen = int32(p.Tok.Off), int32(p.Tok.End-p.Tok.Off)
			p.Advance()
		default:
			p.unexpected("sink")
		}
	}
	if keep {
		r.tHi = int32(len(d.targets))
		d.rows = push(d.rows, r)
	}
}

// continuesExpr reports whether the token t continues an expression
// after an operand: a binary or postfix operator of the grammar (^ * / +
// - comparisons & | U => ?).
func continuesExpr(t token) bool {
	switch t.Kind {
	case tOp:
		switch t.Text {
		case "^", "*", "/", "+", "-", "<=", ">=", "!=", "==", "=", "<", ">", "&", "|", "=>", "?":
			return true
		}
	case tIdent:
		return t.Text == "U"
	}
	return false
}

// probLiteral reads a probability written as a number or as NUMBER /
// NUMBER and returns its literal, kept once per text (when keep is set).
// For anything else it consumes nothing and returns false: the caller
// parses the expression. It consumes tokens exactly as expr() would, so
// a token the scanner cannot read fails at the same place.
func (p *parser) probLiteral(d *chainData, keep bool) (int32, bool) {
	if p.Tok.Kind != tNumber {
		return 0, false
	}
	m := p.mark()
	start, num := p.Tok.Off, p.Tok.Text
	p.Advance()
	l := litRec{num: num}
	if continuesExpr(p.Tok) {
		if !p.IsOp("/") {
			p.reset(m)
			return 0, false
		}
		l.slashRel = int32(p.Tok.Off - start)
		p.Advance()
		if p.Tok.Kind != tNumber {
			p.reset(m)
			return 0, false
		}
		l.den, l.denRel = p.Tok.Text, int32(p.Tok.Off-start)
		p.Advance()
		if continuesExpr(p.Tok) {
			p.reset(m)
			return 0, false
		}
	}
	if !keep {
		return 0, true
	}
	i, _ := intern(&d.lits, d.litIndex, p.f.Src[start:p.LastEnd], l)
	return i, true
}

// probSeen skips a probability whose text was read before in the block:
// the expression written from the current token to the end of its line, or
// to the next "," or "}" outside brackets. Its parse is that of the first
// time, provided the token after it cannot continue it (nor make its last
// name a call, a primed name or an operator P or D), so it is not parsed
// again; the checker repeats its value and errors. Otherwise probSeen
// consumes nothing and returns false.
func (p *parser) probSeen(d *chainData, keep bool) (int32, bool) {
	if !keep || len(d.probs) == 0 {
		return 0, false
	}
	src, start := p.f.Src, p.Tok.Off
	end := candidateEnd(src, start)
	if end <= start {
		return 0, false
	}
	i, ok := d.probIndex[src[start:end]]
	if !ok {
		return 0, false
	}
	sc := syntax.At(&dpLang, src, end)
	next, err := sc.Next()
	if err != nil {
		return 0, false
	}
	if continuesExpr(next) || next.Kind == tOp && slices.Contains([]string{"(", "{", "[", "'"}, next.Text) {
		return 0, false
	}
	p.LastEnd = end
	p.Sc.Off = sc.Off
	p.Tok, p.Peek, p.PeekErr = next, token{}, nil
	if next.Kind != tEOF {
		p.Peek, p.PeekErr = p.Sc.Next()
	}
	return i, true
}

// candidateEnd returns where an expression starting at src[start] ends if
// it ends where generators end them: before a "," or "}" outside brackets,
// or at the end of the line, without trailing blanks. It returns -1 when a
// comment or a string comes first.
func candidateEnd(src string, start int) int {
	depth, j := 0, start
scan:
	for ; j < len(src); j++ {
		switch src[j] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				break scan
			}
			depth--
		case ',':
			if depth == 0 {
				break scan
			}
		case '\n':
			break scan
		case '"':
			return -1
		case '/':
			if j+1 < len(src) && (src[j+1] == '/' || src[j+1] == '*') {
				return -1
			}
		}
	}
	for j > start && (src[j-1] == ' ' || src[j-1] == '\t' || src[j-1] == '\r') {
		j--
	}
	return j
}

// intLiteral reads a value written as an integer literal of at most 18
// digits, or minus one, followed by "," or ")"; otherwise it consumes
// nothing and returns false.
func (p *parser) intLiteral() (int64, bool) {
	neg := p.IsOp("-")
	t := p.Tok
	if neg {
		t = p.Peek
	}
	if t.Kind != tNumber || len(t.Text) > 18 || !syntax.IsDigits(t.Text) {
		return 0, false
	}
	m := p.mark()
	if neg {
		p.Advance()
	}
	p.Advance()
	if !p.IsOp(",") && !p.IsOp(")") {
		p.reset(m)
		return 0, false
	}
	x := int64(parseSmall(t.Text))
	if neg {
		x = -x
	}
	return x, true
}

// astChain turns a parsed chain block (the formatter's AST) of the file
// src into chainData, so that one checker serves both; a block over the
// limits is only counted.
func astChain(cb *ChainStmt, src string, l model.Limits) *chainData {
	d := newChainData()
	d.nStates = len(cb.States)
	for _, r := range cb.Rows {
		d.nRowTrans += len(r.Targets) + 1
	}
	if d.overLimits(l) {
		d.drop()
		return d
	}
	for _, sd := range cb.States {
		st := stateRec{sym: d.sym(sd.Name.Text), off: int32(sd.Name.Off), quoted: sd.Name.Quoted, valLo: int32(len(d.vals)), labLo: int32(len(d.labels))}
		for _, a := range sd.Vals {
			d.vals = append(d.vals, valRec{word: d.word(a.Var.Name), off: int32(a.Var.Off), expr: d.expr(a.Value)})
		}
		for _, lb := range sd.Labels {
			d.labels = append(d.labels, labelRec{word: d.word(lb.Text), off: int32(lb.Off)})
		}
		st.valHi, st.labHi = int32(len(d.vals)), int32(len(d.labels))
		d.states = push(d.states, st)
	}
	for _, td := range cb.Rows {
		r := rowRec{from: d.sym(td.From.Text), fromOff: int32(td.From.Off), start: int32(td.Start), tLo: int32(len(d.targets)), sinkOff: -1}
		for _, tg := range td.Targets {
			pr, _ := d.prob(src[tg.Prob.Off:tg.Prob.End], tg.Prob)
			d.targets = append(d.targets, targetRec{to: d.sym(tg.To.Text), off: int32(tg.To.Off), probOff: int32(tg.Prob.Pos()), prob: -pr - 1})
		}
		r.tHi = int32(len(d.targets))
		if td.Sink != nil {
			r.sinkOff, r.sinkLen = int32(td.Sink.Off), int32(len(td.Sink.Name))
		}
		d.rows = push(d.rows, r)
	}
	return d
}
