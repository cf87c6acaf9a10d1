package prism_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/prism"
	"github.com/dpcheck/dpcheck/source"
)

// sexpr prints an expression as an S-expression, so that tests can state
// the tree the parser built (precedence, associativity, operands).
func sexpr(e *prism.Expr) string {
	if e == nil {
		return "nil"
	}
	var b strings.Builder
	write(&b, e)
	return b.String()
}

func write(b *strings.Builder, e *prism.Expr) {
	if e == nil {
		b.WriteString("nil")
		return
	}
	list := func(head string, args ...*prism.Expr) {
		b.WriteString("(" + head)
		for _, a := range args {
			b.WriteByte(' ')
			if a != nil && a.Minus {
				if e.Op == prism.EProd {
					b.WriteByte('/')
				} else {
					b.WriteByte('-')
				}
			}
			write(b, a)
		}
		b.WriteByte(')')
	}
	switch e.Op {
	case prism.EInt, prism.EDouble, prism.EBool, prism.EName:
		b.WriteString(e.Text)
	case prism.ELabel:
		b.WriteString(`"` + e.Text + `"`)
	case prism.EUnknown:
		b.WriteString("?")
	case prism.EParen:
		list("paren", e.Args...)
	case prism.ENeg:
		list("neg", e.Args...)
	case prism.ENot:
		list("!", e.Args...)
	case prism.ESum:
		list("+", e.Args...)
	case prism.EProd:
		list("*", e.Args...)
	case prism.ECmp:
		list(e.Text, e.Args...)
	case prism.EAnd:
		list("&", e.Args...)
	case prism.EOr:
		list("|", e.Args...)
	case prism.EIff:
		list("<=>", e.Args...)
	case prism.EImplies:
		list("=>", e.Args...)
	case prism.EITE:
		list("?", e.Args...)
	case prism.ECall:
		head := e.Text
		if e.OldStyle {
			head = "func:" + head
		}
		list(head, e.Args...)
	case prism.EProb:
		head, args := "P"+e.Text, e.Args
		if args[2] == nil { // no old-style filter
			args = args[:2]
		}
		if args[0] == nil {
			head += "?"
			args = args[1:]
		}
		list(head, args...)
	case prism.EDP:
		list("D", e.Args...)
	case prism.EFilter:
		list("filter:"+e.Text, e.Args...)
	case prism.EOldFilter:
		list("{}"+e.Text, e.Args...)
	case prism.ETemporal, prism.EUntil:
		head := e.Text
		if e.Op == prism.EUntil {
			head = "U"
		}
		if bound := e.Args[len(e.Args)-1]; bound != nil {
			if bound.Text == "[]" {
				head += "[" + sexpr(bound.Args[0]) + "," + sexpr(bound.Args[1]) + "]"
			} else {
				head += bound.Text + sexpr(bound.Args[0])
			}
		}
		list(head, e.Args[:len(e.Args)-1]...)
	default:
		b.WriteString("<" + e.Op.String() + ">")
	}
}

// modelExprs lists every expression of a model file.
func modelExprs(m *prism.ModelFile) []*prism.Expr {
	var out []*prism.Expr
	add := func(es ...*prism.Expr) {
		for _, e := range es {
			if e != nil {
				out = append(out, e)
			}
		}
	}
	for _, c := range m.Consts {
		add(c.Value)
	}
	for _, f := range m.Formulas {
		add(f.Value)
	}
	for _, l := range m.Labels {
		add(l.Value)
	}
	vars := func(vs []*prism.Var) {
		for _, v := range vs {
			add(v.Low, v.High, v.Init)
		}
	}
	vars(m.Globals)
	for _, mod := range m.Modules {
		vars(mod.Vars)
		for _, c := range mod.Commands {
			add(c.Guard)
			for _, u := range c.Updates {
				add(u.Prob)
				for _, a := range u.Assigns {
					add(a.Value)
				}
			}
		}
	}
	if m.Init != nil {
		add(m.Init.Cond)
	}
	for _, r := range m.Rewards {
		for _, it := range r.Items {
			add(it.Guard, it.Value)
		}
	}
	return out
}

// propExprs lists every expression of a properties file.
func propExprs(f *prism.PropertiesFile) []*prism.Expr {
	var out []*prism.Expr
	for _, c := range f.Consts {
		if c.Value != nil {
			out = append(out, c.Value)
		}
	}
	for _, l := range f.Labels {
		out = append(out, l.Value)
	}
	for _, fo := range f.Formulas {
		out = append(out, fo.Value)
	}
	for _, p := range f.Props {
		if p.Expr != nil { // nil: refused
			out = append(out, p.Expr)
		}
	}
	return out
}

// checkSpans fails when a node's offsets are outside the source or do not
// contain its operands'.
func checkSpans(t testing.TB, src string, es []*prism.Expr) {
	t.Helper()
	for _, root := range es {
		root.Walk(func(e *prism.Expr) bool {
			if e.Off < 0 || e.Off > e.End || int(e.End) > len(src) {
				t.Fatalf("%s node at [%d, %d) is outside the source (%d bytes)", e.Op, e.Off, e.End, len(src))
			}
			for _, a := range e.Args {
				if a != nil && (a.Off < e.Off || a.End > e.End) {
					t.Fatalf("%s node [%d, %d) does not contain its operand %s [%d, %d)", e.Op, e.Off, e.End, a.Op, a.Off, a.End)
				}
			}
			return true
		})
	}
}

// errorOf returns the single error of err as "line:col: message".
func errorOf(t testing.TB, name string, err error) string {
	t.Helper()
	var list source.ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error is %T, want source.ErrorList: %v", err, err)
	}
	if len(list) != 1 {
		t.Fatalf("%d errors, want 1: %v", len(list), err)
	}
	if list[0].Pos.Filename != name {
		t.Errorf("error %q has file %q, want %q", list[0].Msg, list[0].Pos.Filename, name)
	}
	return strings.TrimPrefix(list[0].Error(), name+":")
}
