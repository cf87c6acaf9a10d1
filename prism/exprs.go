package prism

import (
	"fmt"
	"maps"
	"math/big"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
)

// Expressions: PRISM's types (int, double, bool) checked as PRISM checks
// them, constants folded exactly, formulas expanded, and the result an
// expr.Expr that statespace evaluates on each state.

// Limits of the translation. Formulas are written out where they are
// used, and named properties where they are referred to, so that a few
// lines can stand for an expression of any size or depth (a formula that
// uses the previous one twice doubles at each line; a chain of a million
// formulas, each the negation of the previous one, nests a million
// levels): both are bounded as the translation goes, before it builds
// more.
const (
	// MaxExpandedNodes bounds the expression nodes the translation of a
	// model and its properties visits, formulas and named properties
	// written out wherever they are used.
	MaxExpandedNodes = 1_000_000
	// MaxExpandedDepth bounds how deeply the expressions nest once
	// formulas, constants, labels and named properties are written out,
	// so that no translated expression can exhaust the stack of what
	// walks it (the translation itself, exploration, evaluation).
	MaxExpandedDepth = 10_000
)

// enter counts the translation of e (a node of an expression or a
// formula) against MaxExpandedNodes and MaxExpandedDepth, and checks the
// context every few thousand nodes. It returns false when a limit is
// reached (reported once, at the node where it is) or the context has
// ended; the caller then fails without a message of its own. Every
// enter that returns true is matched by a leave.
func (t *translator) enter(sc *scope, e *Expr) bool {
	if t.stopped {
		return false
	}
	t.nodes++
	switch {
	case t.nodes > MaxExpandedNodes:
		t.stopped = true
		t.errAt(sc, e, "the expressions expand to more than %s nodes here, every formula written out where it is used and every named property where it is referred to; the limit is %s nodes: simplify them", exact.Thousands(MaxExpandedNodes), exact.Thousands(MaxExpandedNodes))
		return false
	case t.depth >= MaxExpandedDepth:
		t.stopped = true
		t.errAt(sc, e, "the expression nests more than %s levels deep here, every formula, constant and label written out where it is used; the limit is %s levels: simplify it", exact.Thousands(MaxExpandedDepth), exact.Thousands(MaxExpandedDepth))
		return false
	case t.nodes%4096 == 0 && t.opt.Context != nil && t.opt.Context.Err() != nil:
		t.stopped = true
		t.ctxErr = t.opt.Context.Err()
		return false
	}
	t.depth++
	return true
}

// leave ends the translation of the node entered last.
func (t *translator) leave() { t.depth-- }

// scope is where an expression is translated.
type scope struct {
	f *File
	// rename is a renamed module's substitution of names.
	rename map[string]string
	// where is added to messages about a renamed module's text.
	where string
	// konst is set in constant expressions (no variables); what says what
	// the expression is, for messages ("the value of N").
	konst bool
	what  string
}

func (sc *scope) in(f *File) *scope {
	c := *sc
	c.f = f
	return &c
}

// val is a translated expression: its node, its type and, when it does not
// depend on the state, its value.
type val struct {
	n     *expr.Expr
	t     typ
	konst bool
	num   *big.Rat // a constant number
	b     bool     // a constant truth value
}

func (v val) numeric() bool { return v.t == tyInt || v.t == tyDouble }

// describe says what a value is: "an int", "the boolean true".
func (v val) describe() string {
	if v.konst && v.t == tyBool {
		return fmt.Sprintf("the boolean %v", v.b)
	}
	return v.t.String()
}

func (t *translator) errAt(sc *scope, e *Expr, format string, args ...any) {
	t.errorf(sc.f, int(e.Off), "%s%s", fmt.Sprintf(format, args...), sc.where)
}

// unsupportedAt refuses the property being translated at e: it uses what
// dpcheck does not support (translator.unsupported).
func (t *translator) unsupportedAt(sc *scope, e *Expr, format string, args ...any) {
	t.unsupported = append(t.unsupported, &source.Error{Pos: sc.f.Position(int(e.Off)), Msg: fmt.Sprintf(format, args...) + sc.where})
}

func (t *translator) node(sc *scope, e *Expr, op expr.Op, args ...*expr.Expr) *expr.Expr {
	return &expr.Expr{Op: op, Pos: sc.f.Position(int(e.Off)), Text: t.text(sc.f, e.Span()), Args: args}
}

// spanKey names the text of a span of a file.
type spanKey struct {
	f *File
	s Span
}

// text is clipText of a span of f: the source itself when it is already
// on one line, else computed once per span (a formula written out many
// times shares its texts).
func (t *translator) text(f *File, s Span) string {
	src := f.Source(s)
	if plainLine(src) {
		return src
	}
	k := spanKey{f, s}
	if x, ok := t.texts[k]; ok {
		return x
	}
	x := clipText(src)
	t.texts[k] = x
	return x
}

// numVal is a number the translation has just computed (folding
// constants): its bits are counted against Limits.MaxBits, with those of
// every other number computed, since the translated expressions may keep
// them all.
func (t *translator) numVal(sc *scope, e *Expr, x *big.Rat, ty typ) (val, bool) {
	if !sized(x) {
		t.errAt(sc, e, "this value would have about %s bits; the limit is %s", exact.Thousands(int64(exact.Bits(x))), exact.Thousands(MaxValueBits))
		return val{}, false
	}
	if t.bits += int64(exact.Bits(x)); t.bits > t.limits.MaxBits {
		if !t.stopped {
			t.stopped = true
			t.errs = append(t.errs, &source.Error{Pos: sc.f.Position(int(e.Off)), Limit: string(model.LimitBits),
				Msg: fmt.Sprintf("the numbers computed from constants come to more than %s bits here; the limit is %s bits%s", exact.Thousands(t.limits.MaxBits), exact.Thousands(t.limits.MaxBits), sc.where)})
		}
		return val{}, false
	}
	return t.numNode(sc, e, x, ty), true
}

// numNode is a constant number that is not new (a constant's value,
// shared by every use).
func (t *translator) numNode(sc *scope, e *Expr, x *big.Rat, ty typ) val {
	n := t.node(sc, e, expr.Num)
	n.Value = x
	return val{n: n, t: ty, konst: true, num: x}
}

func (t *translator) boolVal(sc *scope, e *Expr, b bool) val {
	n := t.node(sc, e, expr.Bool)
	n.Truth = b
	return val{n: n, t: tyBool, konst: true, b: b}
}

// clipText is an expression's source on one line, for messages: its
// runs of white space folded into one space, cut after 200 characters
// with "…". It reads at most maxClipScan bytes of s, so that the text of
// every node of a long expression costs little; a source already on one
// line is returned as it is (no copy).
func clipText(s string) string {
	if plainLine(s) {
		return s
	}
	var b strings.Builder
	n, space := 0, false
	for i, r := range s {
		if i >= maxClipScan {
			return b.String() + "…"
		}
		if unicode.IsSpace(r) {
			space = n > 0
			continue
		}
		if space && n < clipRunes {
			b.WriteByte(' ')
			n++
		}
		space = false
		if n == clipRunes {
			return b.String() + "…"
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

const (
	// clipRunes is the length of an expression's text in messages.
	clipRunes = 200
	// maxClipScan bounds the bytes of source clipText reads.
	maxClipScan = 1 << 16
)

// plainLine reports whether s is already as clipText would write it:
// ASCII, at most clipRunes long, single spaces between words.
func plainLine(s string) bool {
	if len(s) > clipRunes || s == "" || s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || c < ' ' || c == ' ' && s[i+1] == ' ' {
			return false
		}
	}
	return true
}

// number translates an expression that must be a number.
func (t *translator) number(sc *scope, e *Expr, what string) (val, bool) {
	v, ok := t.expr(sc, e)
	if ok && !v.numeric() {
		t.errAt(sc, e, "%s must be a number, found %s", what, v.describe())
		return v, false
	}
	return v, ok
}

// condition translates an expression that must be a boolean.
func (t *translator) condition(sc *scope, e *Expr, what string) (val, bool) {
	v, ok := t.expr(sc, e)
	if ok && v.t != tyBool {
		t.errAt(sc, e, "%s must be a boolean (a condition), found %s", what, v.describe())
		return v, false
	}
	return v, ok
}

// expr translates an expression. It reports every error it finds (once)
// and returns false when the expression has one.
func (t *translator) expr(sc *scope, e *Expr) (val, bool) {
	if !t.enter(sc, e) {
		return val{}, false
	}
	defer t.leave()
	switch e.Op {
	case EInt, EDouble:
		x, err := parseNumber(e.Text)
		if err != nil {
			t.errAt(sc, e, "%v", err)
			return val{}, false
		}
		ty := tyInt
		if e.Op == EDouble {
			ty = tyDouble
		}
		return t.numVal(sc, e, x, ty)
	case EBool:
		return t.boolVal(sc, e, e.Text == "true"), true
	case EName:
		return t.name(sc, e)
	case ELabel:
		return t.labelExpr(sc, e)
	case EParen:
		return t.expr(sc, e.Args[0])
	case ENeg:
		a, ok := t.number(sc, e.Args[0], "the operand of -")
		if !ok {
			return val{}, false
		}
		if a.konst {
			return t.numVal(sc, e, new(big.Rat).Neg(a.num), a.t)
		}
		return val{n: t.node(sc, e, expr.Neg, a.n), t: a.t}, true
	case ENot:
		a, ok := t.condition(sc, e.Args[0], "the operand of !")
		if !ok {
			return val{}, false
		}
		if a.konst {
			return t.boolVal(sc, e, !a.b), true
		}
		return val{n: t.node(sc, e, expr.Not, a.n), t: tyBool}, true
	case ESum, EProd:
		return t.arith(sc, e)
	case ECmp:
		return t.cmp(sc, e)
	case EAnd, EOr:
		return t.andOr(sc, e)
	case EIff, EImplies:
		a, ok1 := t.condition(sc, e.Args[0], "the left operand of "+map[Op]string{EIff: "<=>", EImplies: "=>"}[e.Op])
		b, ok2 := t.condition(sc, e.Args[1], "the right operand of "+map[Op]string{EIff: "<=>", EImplies: "=>"}[e.Op])
		if !ok1 || !ok2 {
			return val{}, false
		}
		if a.konst && b.konst {
			if e.Op == EIff {
				return t.boolVal(sc, e, a.b == b.b), true
			}
			return t.boolVal(sc, e, !a.b || b.b), true
		}
		n := t.node(sc, e, expr.Iff, a.n, b.n)
		if e.Op == EImplies {
			n.Op = expr.Implies
		}
		return val{n: n, t: tyBool}, true
	case EITE:
		return t.ite(sc, e)
	case ECall:
		return t.call(sc, e)
	case EUnknown:
		t.errAt(sc, e, `"?" stands for ε or δ in D{?, δ}[ψ] and D{ε, ?}[ψ] only`)
	case EProb:
		t.errAt(sc, e, "P…[…] is a property: it cannot appear in a model, or inside a number")
	case ESteady:
		t.errAt(sc, e, "S…[…] is a property: it cannot appear in a model, or inside a number")
	case EPathQuant:
		t.errAt(sc, e, "%s[…] is a property: it cannot appear in a model, or inside a number", e.Text)
	case EReward:
		t.errAt(sc, e, "R…[…] is a property: it cannot appear in a model, or inside a number")
	case EDP:
		t.errAt(sc, e, "D{…}[…] is a property: it cannot appear in a model, or inside a number")
	case EFilter:
		t.errAt(sc, e, "filter(…) stands for a whole property only")
	case ETemporal, EUntil:
		t.errAt(sc, e, "a path operator (X, F, G, U) can only appear inside P…[…] or D{…}[…]")
	default:
		t.errAt(sc, e, "unexpected %s", e.Op)
	}
	return val{}, false
}

// name resolves a name: a formula (expanded before a module's renaming, as
// PRISM does), a variable, or a constant (folded).
func (t *translator) name(sc *scope, e *Expr) (val, bool) {
	name := e.Text
	if f := t.formulas[name]; f != nil {
		return t.formulaRef(sc, e, f)
	}
	if r, ok := sc.rename[name]; ok {
		name = r
		if f := t.formulas[name]; f != nil {
			return t.formulaRef(sc, e, f)
		}
	}
	if i, ok := t.vars[name]; ok && t.space != nil {
		v := t.space.Vars[i]
		if sc.konst {
			t.errAt(sc, e, "%s cannot depend on the variable %s: it must be constant", sc.what, name)
			return val{}, false
		}
		n := t.node(sc, e, expr.Var)
		n.Name = name
		ty := tyInt
		if v.Bool {
			ty = tyBool
		}
		return val{n: n, t: ty}, true
	}
	if c := t.consts[name]; c != nil {
		v, ok := t.constant(c)
		if !ok {
			return val{}, false // reported at the constant
		}
		if !v.konst && c.decl.Value == nil { // the parameter
			return val{n: withPos(v.n, t.node(sc, e, 0)), t: v.t}, true
		}
		if !v.konst {
			// A constant defined from the parameter is written out where
			// it is used, as a formula is, so that what it expands to
			// counts against MaxExpandedNodes.
			x, ok := t.expr(sc.in(c.f), c.decl.Value)
			if !ok {
				return val{}, false
			}
			return val{n: withPos(x.n, t.node(sc, e, 0)), t: v.t}, true
		}
		if v.t == tyBool {
			return t.boolVal(sc, e, v.b), true
		}
		return t.numNode(sc, e, v.num, v.t), true
	}
	t.errAt(sc, e, "unknown name %s%s", name, t.suggest(name))
	return val{}, false
}

// maxSuggested bounds the unknown names given suggestions.
const maxSuggested = 20

// suggest lists the names an unknown one may have meant (for the first
// maxSuggested unknown names).
func (t *translator) suggest(name string) string {
	if t.suggested++; t.suggested > maxSuggested {
		return ""
	}
	var names []string
	for n := range t.vars {
		names = append(names, n)
	}
	for n := range t.consts {
		names = append(names, n)
	}
	for n := range t.formulas {
		names = append(names, n)
	}
	if s := property.Suggest(name, names); s != "" {
		return s
	}
	var vars []string
	for n := range t.vars {
		vars = append(vars, n)
	}
	if len(vars) == 0 {
		return ""
	}
	sort.Strings(vars)
	return " (variables: " + expr.JoinLimited(vars, 8) + ")"
}

// formulaRef expands a formula where it is used.
func (t *translator) formulaRef(sc *scope, e *Expr, f *formulaInfo) (val, bool) {
	name := f.decl.Name.Name
	if t.expanding[name] {
		t.errAt(sc, e, "formula %s is defined in terms of itself", name)
		return val{}, false
	}
	t.expanding[name] = true
	defer delete(t.expanding, name)
	v, ok := t.expr(sc.in(f.f), f.decl.Value)
	if ok && !v.konst {
		// The expansion's nodes point into the formula; the whole stands
		// where the formula is used.
		v.n = withPos(v.n, t.node(sc, e, 0))
	}
	return v, ok
}

// withPos returns n positioned and described as at.
func withPos(n, at *expr.Expr) *expr.Expr {
	c := *n
	c.Pos, c.Text = at.Pos, at.Text
	return &c
}

// constant evaluates a constant, once, detecting cycles.
func (t *translator) constant(c *constInfo) (val, bool) {
	name := c.decl.Name.Name
	switch c.state {
	case 1:
		t.errorf(c.f, c.decl.Name.Off, "constant %s is defined in terms of itself", name)
		c.ok = false
		return val{}, false
	case 2:
		return c.val, c.ok
	}
	c.state = 1
	defer func() { c.state = 2 }()
	want := constType(c.decl.Type)
	if c.decl.Value == nil && t.opt.Param != nil && t.opt.Param.Name == name {
		if want != tyDouble {
			t.errorf(c.f, c.decl.Name.Off, "the parameter %s is a constant of type %s: a parameter is a probability, declared const double %s;", name, c.decl.Type, name)
			return val{}, false
		}
		t.consumed[name] = true
		sc := &scope{f: c.f}
		n := t.node(sc, &Expr{Off: int32(c.decl.Name.Off), End: int32(c.decl.Name.Off + len(name))}, expr.Var)
		n.Name, n.Text = name, name
		n.Fallback = &expr.Expr{Op: expr.Num, Pos: n.Pos, Text: n.Text, Value: t.opt.Param.At}
		c.val, c.ok = val{n: n, t: tyDouble}, true
		return c.val, true
	}
	if c.decl.Value == nil {
		c.val, c.ok = t.given(c, want)
		return c.val, c.ok
	}
	sc := &scope{f: c.f, konst: true, what: "the value of constant " + name}
	v, ok := t.expr(sc, c.decl.Value)
	if !ok {
		return val{}, false
	}
	if !v.konst { // it reads the parameter (Options.Param)
		if want != tyDouble {
			t.errorf(c.f, int(c.decl.Value.Off), "%s is a constant of type %s, and its value depends on the parameter %s: only a double constant may (a probability)", name, c.decl.Type, t.opt.Param.Name)
			return val{}, false
		}
		c.val, c.ok = val{n: v.n, t: tyDouble}, true
		return c.val, true
	}
	switch {
	case want == tyBool && v.t != tyBool, want != tyBool && !v.numeric():
		t.errorf(c.f, int(c.decl.Value.Off), "%s is a %s constant: its value must be %s, found %s", name, c.decl.Type, want, v.describe())
		return val{}, false
	case want == tyInt && v.t == tyDouble && !v.num.IsInt():
		t.errorf(c.f, int(c.decl.Value.Off), "%s is an int constant: its value %s is not an integer (declare it const double)", name, v.num.RatString())
		return val{}, false
	case want == tyInt && v.t == tyDouble:
		t.errorf(c.f, int(c.decl.Value.Off), "%s is an int constant, and its value is a double (PRISM refuses it): declare it const double, or write an int", name)
		return val{}, false
	}
	v.t = want
	c.val, c.ok = v, true
	return v, true
}

// given is the value given from outside to an undefined constant.
func (t *translator) given(c *constInfo, want typ) (val, bool) {
	name := c.decl.Name.Name
	g, ok := t.opt.Consts[name]
	if !ok {
		hint := fmt.Sprintf("give it a value (%s = …) when loading the model", name)
		if t.opt.ConstHint != nil {
			hint = t.opt.ConstHint(name)
		}
		t.errorf(c.f, c.decl.Name.Off, "the %s constant %s has no value: %s", c.decl.Type, name, hint)
		return val{}, false
	}
	t.consumed[name] = true
	bad := func(format string, args ...any) (val, bool) {
		msg := fmt.Sprintf(format, args...)
		if g.Pos.Line > 0 {
			t.errs = append(t.errs, errAtPos(g.Pos, msg))
		} else {
			t.errorf(c.f, c.decl.Name.Off, "%s", msg)
		}
		return val{}, false
	}
	switch {
	case want == tyBool && g.Num != nil:
		return bad("%s is a bool constant: the value given, %s, is not true or false", name, g)
	case want != tyBool && g.Num == nil:
		return bad("%s is a %s constant: the value given, %s, is not a number", name, c.decl.Type, g)
	case want == tyInt && !g.Num.IsInt():
		return bad("%s is an int constant: the value given, %s, is not an integer", name, g)
	case want != tyBool && !sized(g.Num):
		return bad("the value given for %s has about %s bits; the limit is %s", name, exact.Thousands(int64(exact.Bits(g.Num))), exact.Thousands(MaxValueBits))
	}
	sc := &scope{f: c.f}
	if want == tyBool {
		return t.boolVal(sc, &Expr{Off: int32(c.decl.Name.Off)}, g.Bool), true
	}
	return t.numVal(sc, &Expr{Off: int32(c.decl.Name.Off)}, new(big.Rat).Set(g.Num), want)
}

// labelExpr is a label used inside an expression: a user label stands for
// its condition; the built-in ones are not conditions on a valuation.
func (t *translator) labelExpr(sc *scope, e *Expr) (val, bool) {
	l := t.labels[e.Text]
	if l == nil {
		if e.Text == "init" || e.Text == "deadlock" {
			t.errAt(sc, e, "the built-in label \"%s\" can be tested by itself or combined with !, & and |, not inside a number", e.Text)
		} else {
			t.errAt(sc, e, "unknown label \"%s\"%s", e.Text, t.knownLabels())
		}
		return val{}, false
	}
	key := "\"" + e.Text + "\""
	if t.expanding[key] {
		t.errAt(sc, e, "label \"%s\" is defined in terms of itself", e.Text)
		return val{}, false
	}
	t.expanding[key] = true
	defer delete(t.expanding, key)
	return t.condition(sc.in(l.f), l.decl.Value, "the condition of label \""+e.Text+"\"")
}

func (t *translator) knownLabels() string {
	names := slices.AppendSeq([]string{"init", "deadlock"}, maps.Keys(t.labels))
	slices.Sort(names)
	for i, n := range names {
		names[i] = "\"" + n + "\""
	}
	return " (labels: " + expr.JoinLimited(names, 8) + ")"
}

// arith translates + - * /: int when every operand is an int and nothing
// divides (/ is exact division, a double in PRISM), double otherwise.
func (t *translator) arith(sc *scope, e *Expr) (val, bool) {
	sum := e.Op == ESum
	ty, konst, ok := tyInt, true, true
	args := make([]val, len(e.Args))
	for i, a := range e.Args {
		what := "an operand of +"
		switch {
		case sum && a.Minus:
			what = "an operand of -"
		case !sum && a.Minus:
			what, ty = "a divisor", tyDouble
		case !sum:
			what = "an operand of *"
		}
		v, good := t.number(sc, a, what)
		if !good {
			ok = false
			continue
		}
		args[i] = v
		if v.t == tyDouble {
			ty = tyDouble
		}
		konst = konst && v.konst
	}
	if !ok {
		return val{}, false
	}
	if konst {
		acc := new(big.Rat).Set(args[0].num)
		for i, a := range e.Args[1:] {
			x := args[i+1].num
			switch {
			case sum && a.Minus:
				acc.Sub(acc, x)
			case sum:
				acc.Add(acc, x)
			case a.Minus && x.Sign() == 0:
				t.errAt(sc, a, "division by zero")
				return val{}, false
			case a.Minus:
				acc.Quo(acc, x)
			default:
				acc.Mul(acc, x)
			}
			if !sized(acc) {
				return t.numVal(sc, e, acc, ty) // reports the size
			}
		}
		return t.numVal(sc, e, acc, ty)
	}
	n := t.node(sc, e, expr.Sum)
	if !sum {
		n.Op = expr.Prod
	}
	for i, a := range e.Args {
		x := args[i].n
		if !sum && a.Minus {
			x = withPos(x, t.node(sc, a, 0))
		}
		n.Args = append(n.Args, x)
		n.Inv = append(n.Inv, a.Minus)
	}
	return val{n: n, t: ty}, true
}

// cmp translates = != < <= > >=: = and != compare two numbers or two
// booleans, the others two numbers.
func (t *translator) cmp(sc *scope, e *Expr) (val, bool) {
	l, ok1 := t.expr(sc, e.Args[0])
	r, ok2 := t.expr(sc, e.Args[1])
	if !ok1 || !ok2 {
		return val{}, false
	}
	op := e.Text
	eq := op == "=" || op == "!="
	switch {
	case eq && l.t == tyBool && r.t == tyBool:
		if l.konst && r.konst {
			return t.boolVal(sc, e, (l.b == r.b) == (op == "=")), true
		}
		n := t.node(sc, e, expr.Iff, l.n, r.n)
		if op == "!=" {
			n = t.node(sc, e, expr.Not, n)
		}
		return val{n: n, t: tyBool}, true
	case !l.numeric() || !r.numeric():
		want := "two numbers"
		if eq {
			want = "two numbers or two booleans"
		}
		t.errorf(sc.f, int(e.OpOff), "%s compares %s, found %s and %s%s", op, want, l.describe(), r.describe(), sc.where)
		return val{}, false
	}
	if l.konst && r.konst {
		return t.boolVal(sc, e, exact.CmpHolds(op, l.num.Cmp(r.num))), true
	}
	n := t.node(sc, e, expr.Cmp, l.n, r.n)
	n.CmpOp = op
	return val{n: n, t: tyBool}, true
}

func (t *translator) andOr(sc *scope, e *Expr) (val, bool) {
	and := e.Op == EAnd
	what := map[bool]string{true: "an operand of &", false: "an operand of |"}[and]
	ok := true
	var args []val
	for _, a := range e.Args {
		v, good := t.condition(sc, a, what)
		ok = ok && good
		args = append(args, v)
	}
	if !ok {
		return val{}, false
	}
	// Constant operands decide the whole or drop out.
	var rest []*expr.Expr
	for _, v := range args {
		switch {
		case !v.konst:
			rest = append(rest, v.n)
		case v.b != and: // false in a conjunction, true in a disjunction
			return t.boolVal(sc, e, v.b), true
		}
	}
	switch len(rest) {
	case 0:
		return t.boolVal(sc, e, and), true
	case 1:
		return val{n: rest[0], t: tyBool}, true
	}
	n := t.node(sc, e, expr.And, rest...)
	if !and {
		n.Op = expr.Or
	}
	return val{n: n, t: tyBool}, true
}

func (t *translator) ite(sc *scope, e *Expr) (val, bool) {
	c, ok0 := t.condition(sc, e.Args[0], "the condition of ? :")
	a, ok1 := t.expr(sc, e.Args[1])
	b, ok2 := t.expr(sc, e.Args[2])
	if !ok0 || !ok1 || !ok2 {
		return val{}, false
	}
	var ty typ
	switch {
	case a.t == tyBool && b.t == tyBool:
		ty = tyBool
	case a.numeric() && b.numeric():
		ty = tyInt
		if a.t == tyDouble || b.t == tyDouble {
			ty = tyDouble
		}
	default:
		t.errAt(sc, e.Args[2], "the two branches of ? : must both be numbers or both be booleans, found %s and %s", a.describe(), b.describe())
		return val{}, false
	}
	if c.konst {
		v := b
		if c.b {
			v = a
		}
		v.t = ty
		return v, true
	}
	return val{n: t.node(sc, e, expr.Ite, c.n, a.n, b.n), t: ty}, true
}

// call translates PRISM's functions. log is refused: its values are
// irrational; pow needs an integer exponent; round(x) is floor(x + 1/2),
// as Java's Math.round, which PRISM uses.
func (t *translator) call(sc *scope, e *Expr) (val, bool) {
	var args []val
	ok := true
	for _, a := range e.Args {
		v, good := t.expr(sc, a)
		ok = ok && good
		args = append(args, v)
	}
	name := e.Text
	if name == "log" {
		t.errAt(sc, e, "log is not supported: a logarithm is irrational for almost every argument, and dpcheck computes with exact rationals only (write the value as a rational constant)")
		return val{}, false
	}
	if !ok {
		return val{}, false
	}
	for i, a := range args {
		if !a.numeric() {
			t.errAt(sc, e.Args[i], "the arguments of %s must be numbers, found %s", name, a.describe())
			return val{}, false
		}
	}
	allInt, konst := true, true
	for _, a := range args {
		allInt = allInt && a.t == tyInt
		konst = konst && a.konst
	}
	switch name {
	case "min", "max":
		ty := tyDouble
		if allInt {
			ty = tyInt
		}
		if konst {
			best := args[0].num
			for _, a := range args[1:] {
				if c := a.num.Cmp(best); name == "min" && c < 0 || name == "max" && c > 0 {
					best = a.num
				}
			}
			return t.numNode(sc, e, best, ty), true
		}
		n := t.node(sc, e, expr.Min)
		if name == "max" {
			n.Op = expr.Max
		}
		for _, a := range args {
			n.Args = append(n.Args, a.n)
		}
		return val{n: n, t: ty}, true
	case "floor", "ceil", "round":
		x := args[0]
		if name == "round" { // floor(x + 1/2)
			if x.konst {
				x.num = new(big.Rat).Add(x.num, big.NewRat(1, 2))
			} else {
				half := t.node(sc, e, expr.Num)
				half.Value = big.NewRat(1, 2)
				s := t.node(sc, e, expr.Sum)
				s.Args, s.Inv = []*expr.Expr{x.n, half}, []bool{false, false}
				x.n = s
			}
		}
		if x.konst {
			return t.numVal(sc, e, floorCeil(x.num, name == "ceil"), tyInt)
		}
		n := t.node(sc, e, expr.Floor, x.n)
		if name == "ceil" {
			n.Op = expr.Ceil
		}
		return val{n: n, t: tyInt}, true
	case "mod":
		for i, a := range args {
			if a.t != tyInt {
				t.errAt(sc, e.Args[i], "mod(i, n) takes two ints, found %s", a.describe())
				return val{}, false
			}
		}
		if konst {
			n := args[1].num.Num()
			if n.Sign() <= 0 {
				t.errAt(sc, e.Args[1], "mod(%s, %s) needs a positive divisor", args[0].num.RatString(), args[1].num.RatString())
				return val{}, false
			}
			m := new(big.Int).Mod(args[0].num.Num(), n) // Euclidean: never negative
			return t.numVal(sc, e, new(big.Rat).SetInt(m), tyInt)
		}
		return val{n: t.node(sc, e, expr.Mod, args[0].n, args[1].n), t: tyInt}, true
	case "pow":
		base, ex := args[0], args[1]
		ty := tyDouble
		if allInt {
			ty = tyInt
		}
		if ex.konst && !ex.num.IsInt() {
			if konst {
				if r, ok := rationalPow(base.num, ex.num); ok {
					return t.numVal(sc, e, r, tyDouble)
				}
			}
			t.errAt(sc, e, "pow(x, y) with the exponent y = %s, not an integer: x^y is irrational here (or in general, when x is not a constant), and dpcheck computes with exact rationals only", ex.num.RatString())
			return val{}, false
		}
		if !ex.konst && ex.t == tyDouble {
			t.errAt(sc, e.Args[1], "the exponent of pow is a double: dpcheck computes powers with integer exponents only (x^y is irrational in general)")
			return val{}, false
		}
		if ex.konst && (!ex.num.Num().IsInt64() || abs64(ex.num.Num().Int64()) > expr.MaxPowExponent) {
			t.errAt(sc, e.Args[1], "the exponent %s is too large; the limit is %d", ex.num.RatString(), expr.MaxPowExponent)
			return val{}, false
		}
		if konst {
			k := ex.num.Num().Int64()
			bits := exact.PowBits(base.num, k) // at most 2 bits over
			switch {
			case bits > MaxValueBits:
				t.errAt(sc, e, "pow(%s, %d) would have about %s bits; the limit is %s", exact.Short(base.num), k, exact.Thousands(bits), exact.Thousands(MaxValueBits))
				return val{}, false
			case allInt && k < 0:
				t.errAt(sc, e, "%s", expr.NegativeIntPow(base.num.RatString(), k))
				return val{}, false
			case base.num.Sign() == 0 && k < 0:
				t.errAt(sc, e, "division by zero: pow(0, %d)", k)
				return val{}, false
			}
			return t.numVal(sc, e, exact.Pow(base.num, k), ty)
		}
		n := t.node(sc, e, expr.Pow, base.n, ex.n)
		n.IntPow = allInt
		return val{n: n, t: ty}, true
	}
	t.errAt(sc, e, "unknown function %s", name)
	return val{}, false
}

// rationalPow is x^(p/q) when it is rational: x ≥ 0 and x^p a q-th power
// of a rational, with q and |p| at most 64 and x small enough
// (pow(1/4, 1/2) = 1/2, pow(8, 2/3) = 4); false otherwise.
func rationalPow(x, y *big.Rat) (*big.Rat, bool) {
	p, q := y.Num(), y.Denom()
	if x.Sign() < 0 || !p.IsInt64() || !q.IsInt64() || q.Int64() > 64 || abs64(p.Int64()) > 64 || exact.Bits(x) > 4096 {
		return nil, false
	}
	if x.Sign() == 0 {
		return new(big.Rat), p.Sign() > 0
	}
	num, okN := intRoot(x.Num(), q.Int64())
	den, okD := intRoot(x.Denom(), q.Int64())
	if !okN || !okD {
		return nil, false
	}
	return exact.Pow(new(big.Rat).SetFrac(num, den), p.Int64()), true
}

// intRoot is the q-th root of n > 0 when n is a q-th power.
func intRoot(n *big.Int, q int64) (*big.Int, bool) {
	lo, hi := big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), uint(n.BitLen()/int(q)+1))
	e := big.NewInt(q)
	for lo.Cmp(hi) < 0 { // the least r in [lo, hi] with r^q ≥ n
		mid := new(big.Int).Rsh(new(big.Int).Add(lo, hi), 1)
		if new(big.Int).Exp(mid, e, nil).Cmp(n) >= 0 {
			hi = mid
		} else {
			lo = mid.Add(mid, big.NewInt(1))
		}
	}
	return lo, new(big.Int).Exp(lo, e, nil).Cmp(n) == 0
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

func floorCeil(x *big.Rat, ceil bool) *big.Rat {
	if x.IsInt() {
		return new(big.Rat).Set(x)
	}
	q := new(big.Int).Div(x.Num(), x.Denom()) // Euclidean, denominator positive: the floor
	if ceil {
		q.Add(q, big.NewInt(1))
	}
	return new(big.Rat).SetInt(q)
}

// intConst evaluates a constant int expression within [lo, hi].
func (t *translator) intConst(sc *scope, e *Expr, what string, lo, hi int64) (int64, bool) {
	c := *sc
	c.konst, c.what = true, what
	v, ok := t.expr(&c, e)
	if !ok || !t.isConstant(sc, e, v, what) {
		return 0, false
	}
	if v.t != tyInt {
		t.errAt(sc, e, "%s must be an int, found %s", what, v.describe())
		return 0, false
	}
	if !v.num.IsInt() || !v.num.Num().IsInt64() || v.num.Num().Int64() < lo || v.num.Num().Int64() > hi {
		t.errAt(sc, e, "%s is %s, outside [%d, %d]", what, exact.Short(v.num), lo, hi)
		return 0, false
	}
	return v.num.Num().Int64(), true
}

// isConstant reports whether v, the value of e, is constant, and reports
// it when it depends on the parameter instead.
func (t *translator) isConstant(sc *scope, e *Expr, v val, what string) bool {
	if v.konst {
		return true
	}
	name := "the parameter"
	if t.opt.Param != nil {
		name += " " + t.opt.Param.Name
	}
	if t.pf != nil && sc.f == &t.pf.File { // in a property: refused on its own
		t.unsupportedAt(sc, e, "%s depends on %s: for every value, a bound, ε or δ must be a number", what, name)
		return false
	}
	t.errAt(sc, e, "%s must be constant, and it depends on %s: the chain's graph must be the same for every value", what, name)
	return false
}

// ratConst evaluates a constant number.
func (t *translator) ratConst(sc *scope, e *Expr, what string) (*big.Rat, bool) {
	c := *sc
	c.konst, c.what = true, what
	v, ok := t.expr(&c, e)
	if !ok || !t.isConstant(sc, e, v, what) {
		return nil, false
	}
	if !v.numeric() {
		t.errAt(sc, e, "%s must be a number, found %s", what, v.describe())
		return nil, false
	}
	return v.num, true
}
