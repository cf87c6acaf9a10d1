package expr_test

import (
	"errors"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/source"
)

// testChain has three states, each looping on itself:
//
//	s0 (x=0, y=1)   labels a
//	s1 (x=2, y=-1)  labels b
//	s2 (x=5)        labels a, b   (no y: a comparison reading y is false there)
func testChain(t *testing.T) *chain.Chain {
	t.Helper()
	b := chain.NewBuilder()
	s0 := b.AddState("s0", chain.Valuation{{Name: "x", Value: 0}, {Name: "y", Value: 1}}, "a")
	s1 := b.AddState("s1", chain.Valuation{{Name: "x", Value: 2}, {Name: "y", Value: -1}}, "b")
	s2 := b.AddState("s2", chain.Valuation{{Name: "x", Value: 5}}, "a", "b")
	for _, s := range []int{s0, s1, s2} {
		b.AddTransition(s, s, big.NewRat(1, 1))
	}
	b.MarkInput(s0)
	b.MarkInput(s1)
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// at places e at line 1, column col of f.dp (offset col−1).
func at(e *expr.Expr, col int) *expr.Expr {
	e.Pos = source.Position{Filename: "f.dp", Offset: col - 1, Line: 1, Column: col}
	return e
}

func lab(name string) *expr.Expr { return &expr.Expr{Op: expr.Label, Name: name} }

func primed(e *expr.Expr) *expr.Expr { e.Primed = true; return e }

func tru() *expr.Expr { return &expr.Expr{Op: expr.Bool, Truth: true} }

func ite(c, a, b *expr.Expr) *expr.Expr { return op(expr.Ite, c, a, b) }

// TestCompileConditions evaluates conditions on the states of a chain:
// at (s, t), t being the state a primed name reads.
func TestCompileConditions(t *testing.T) {
	c := testChain(t)
	eq := func(a, b *expr.Expr) *expr.Expr { return cmpE("=", a, b) }
	for _, tc := range []struct {
		name string
		e    *expr.Expr
		s, t int
		want bool
	}{
		{"true", tru(), 0, 0, true},
		{"false", &expr.Expr{Op: expr.Bool}, 0, 0, false},
		{"label a at s0", lab("a"), 0, 0, true},
		{"label a at s1", lab("a"), 1, 1, false},
		{"primed label b' at (s0, s1)", primed(lab("b")), 0, 1, true},
		{"primed label b' at (s1, s0)", primed(lab("b")), 1, 0, false},
		{"x = 0 at s0", eq(v("x"), n(0)), 0, 0, true},
		{"x == 2 at s1", cmpE("==", v("x"), n(2)), 1, 1, true},
		{"x != 2 at s1", cmpE("!=", v("x"), n(2)), 1, 1, false},
		{"x < 2 at s1", cmpE("<", v("x"), n(2)), 1, 1, false},
		{"x <= 2 at s1", cmpE("<=", v("x"), n(2)), 1, 1, true},
		{"x > 2 at s1", cmpE(">", v("x"), n(2)), 1, 1, false},
		{"x >= 2 at s1", cmpE(">=", v("x"), n(2)), 1, 1, true},
		{"an unknown operator holds nowhere", cmpE("~", v("x"), n(2)), 1, 1, false},
		{"x' > x at (s0, s1)", cmpE(">", primed(v("x")), v("x")), 0, 1, true},
		{"x' > x at (s1, s0)", cmpE(">", primed(v("x")), v("x")), 1, 0, false},
		{"y < 0 at s2, which has no y", cmpE("<", v("y"), n(0)), 2, 2, false},
		{"y >= 0 at s2, which has no y", cmpE(">=", v("y"), n(0)), 2, 2, false},
		{"!(y < 0) at s2", op(expr.Not, cmpE("<", v("y"), n(0))), 2, 2, true},
		{"y' = 1 at (s0, s2)", eq(primed(v("y")), n(1)), 0, 2, false},
		{"a & b at s2", op(expr.And, lab("a"), lab("b")), 2, 2, true},
		{"a & b at s0", op(expr.And, lab("a"), lab("b")), 0, 0, false},
		{"a | b at s1", op(expr.Or, lab("a"), lab("b")), 1, 1, true},
		{"a | x = 5 at s1", op(expr.Or, lab("a"), eq(v("x"), n(5))), 1, 1, false},
		{"a => b at s0", op(expr.Implies, lab("a"), lab("b")), 0, 0, false},
		{"a => b at s1", op(expr.Implies, lab("a"), lab("b")), 1, 1, true},
		{"a <=> b at s2", op(expr.Iff, lab("a"), lab("b")), 2, 2, true},
		{"a <=> b at s0", op(expr.Iff, lab("a"), lab("b")), 0, 0, false},
		{"a ? x = 0 : x = 2 at s1", ite(lab("a"), eq(v("x"), n(0)), eq(v("x"), n(2))), 1, 1, true},
		{"a ? x = 0 : x = 2 at s2", ite(lab("a"), eq(v("x"), n(0)), eq(v("x"), n(2))), 2, 2, false},
		{"-x = -2 at s1", eq(op(expr.Neg, v("x")), n(-2)), 1, 1, true},
		{"|y| = 1 at s1", eq(op(expr.Abs, v("y")), n(1)), 1, 1, true},
		{"|y| = 1 at s0", eq(op(expr.Abs, v("y")), n(1)), 0, 0, true},
		{"x + y - 1 = 0 at s0", eq(sub(op(expr.Sum, v("x"), v("y")), n(1)), n(0)), 0, 0, true},
		{"x * y / 2 = -1 at s1", eq(div(op(expr.Prod, v("x"), v("y")), n(2)), n(-1)), 1, 1, true},
		{"x / 4 = 1/2 at s1", eq(div(v("x"), n(4)), q(1, 2)), 1, 1, true},
		{"x / 3 < 1 at s1", cmpE("<", div(v("x"), n(3)), n(1)), 1, 1, true},
		{"min(x, y, 3) = -1 at s1", eq(op(expr.Min, v("x"), v("y"), n(3)), n(-1)), 1, 1, true},
		{"max(x, y, 3) = 3 at s1", eq(op(expr.Max, v("x"), v("y"), n(3)), n(3)), 1, 1, true},
		{"floor(x / 4) = 0 at s1", eq(op(expr.Floor, div(v("x"), n(4))), n(0)), 1, 1, true},
		{"ceil(x / 4) = 1 at s1", eq(op(expr.Ceil, div(v("x"), n(4))), n(1)), 1, 1, true},
		{"ceil(-x / 4) = 0 at s1", eq(op(expr.Ceil, div(op(expr.Neg, v("x")), n(4))), n(0)), 1, 1, true},
		{"mod(x, 3) = 2 at s2", eq(op(expr.Mod, v("x"), n(3)), n(2)), 2, 2, true},
		{"pow(x, 3) = 8 at s1", eq(op(expr.Pow, v("x"), n(3)), n(8)), 1, 1, true},
		{"(a ? x : y) = -1 at s1", eq(ite(lab("a"), v("x"), v("y")), n(-1)), 1, 1, true},
		{"(a ? x : y) = 0 at s0", eq(ite(lab("a"), v("x"), v("y")), n(0)), 0, 0, true},
		{"2^40 · 2^40 = 2^80, past int64", eq(op(expr.Prod, n(1<<40), n(1<<40)), &expr.Expr{Op: expr.Num, Value: new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), 80))}), 0, 0, true},
		{"2^62 + 2^62 > 2^62, past int64", cmpE(">", op(expr.Sum, n(1<<62), n(1<<62)), n(1<<62)), 0, 0, true},
		{"a constant k standing in for a variable", eq(&expr.Expr{Op: expr.Var, Name: "k", Fallback: n(7)}, n(7)), 0, 0, true},
		{"a constant standing in for a label", &expr.Expr{Op: expr.Label, Name: "flag", Fallback: tru()}, 0, 0, true},
	} {
		f, errs := expr.Compile(tc.e, c, true)
		if errs != nil {
			t.Errorf("%s: %v", tc.name, errs)
			continue
		}
		got, err := f.Eval(tc.s, tc.t)
		if err != nil || got != tc.want {
			t.Errorf("%s = %v (%v), want %v", tc.name, got, err, tc.want)
		}
	}
}

// TestCompileErrors: every unknown or misused name is reported, at its
// position, each unknown name once.
func TestCompileErrors(t *testing.T) {
	c := testChain(t)
	for _, tc := range []struct {
		name   string
		e      *expr.Expr
		primes bool
		want   []string
	}{
		{"unknown label", at(lab("c"), 5), false, []string{"f.dp:1:5: unknown label c (labels: a, b)"}},
		{"unknown label that is no identifier", at(lab("-"), 2), false, []string{`f.dp:1:2: unknown label "-" (labels: a, b)`}},
		{"unknown variable", cmpE("=", at(v("z"), 3), n(0)), false, []string{"f.dp:1:3: unknown variable z (variables: x, y)"}},
		{"a variable as a condition", at(lab("x"), 4), false, []string{"f.dp:1:4: x is a variable, not a condition: compare it (x = …)"}},
		{"a label as a number", cmpE("=", at(v("a"), 6), n(0)), false, []string{"f.dp:1:6: a is a label, not a number"}},
		{"a primed label outside a neighbour predicate", at(primed(lab("a")), 7), false, []string{"f.dp:1:7: a' (a primed name) only makes sense in a neighbour predicate"}},
		{"a primed variable outside a neighbour predicate", cmpE("=", at(primed(v("x")), 8), n(0)), false, []string{"f.dp:1:8: x' (a primed name) only makes sense in a neighbour predicate"}},
		{"a constant that cannot stand for a label", at(&expr.Expr{Op: expr.Label, Name: "k", FallbackErr: "k is a number, not a condition"}, 9), false, []string{"f.dp:1:9: k is a number, not a condition"}},
		{"a constant that cannot stand for a variable", cmpE("=", at(&expr.Expr{Op: expr.Var, Name: "k", FallbackErr: "k is not an integer here"}, 10), n(0)), false, []string{"f.dp:1:10: k is not an integer here"}},
		{"a number as a condition", at(n(1), 11), false, []string{"f.dp:1:11: expected a condition (a comparison or a label), found a number"}},
		{"a condition as a number", cmpE("=", at(lab("a"), 12), n(0)), false, []string{"f.dp:1:12: expected a number, found a condition"}},
		{"one unknown name, reported once", op(expr.And, at(lab("c"), 1), at(lab("c"), 6)), false, []string{"f.dp:1:1: unknown label c (labels: a, b)"}},
		{"every error at once", op(expr.Or, at(lab("c"), 1), cmpE("<", at(v("z"), 6), n(1)), op(expr.Not, at(primed(lab("b")), 13))), false, []string{
			"f.dp:1:1: unknown label c (labels: a, b)",
			"f.dp:1:6: unknown variable z (variables: x, y)",
			"f.dp:1:13: b' (a primed name) only makes sense in a neighbour predicate",
		}},
		{"errors inside numbers", cmpE("=", op(expr.Min, op(expr.Abs, at(v("u"), 2)), op(expr.Floor, at(v("w"), 9))), op(expr.Mod, n(1), at(lab("b"), 15))), false, []string{
			"f.dp:1:2: unknown variable u (variables: x, y)",
			"f.dp:1:9: unknown variable w (variables: x, y)",
			"f.dp:1:15: expected a number, found a condition",
		}},
		{"errors inside ite and =>", op(expr.Implies, ite(at(v("x"), 1), tru(), tru()), cmpE("=", ite(tru(), n(1), at(lab("q"), 20)), n(0))), true, []string{
			"f.dp:1:1: expected a condition (a comparison or a label), found a number",
			"f.dp:1:20: expected a number, found a condition",
		}},
	} {
		f, errs := expr.Compile(tc.e, c, tc.primes)
		if f != nil {
			t.Errorf("%s: compiled, want errors", tc.name)
			continue
		}
		var got []string
		for _, e := range errs {
			got = append(got, e.Error())
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s:\n%s\nwant\n%s", tc.name, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
}

// TestCompileReads: the variables a condition reads, once each, where
// they are first read, in the order of the source.
func TestCompileReads(t *testing.T) {
	c := testChain(t)
	e := op(expr.And, cmpE("=", at(v("y"), 1), n(1)), cmpE("=", at(v("x"), 9), n(0)), cmpE("=", at(v("y"), 17), n(2)), at(lab("a"), 25))
	f, errs := expr.Compile(e, c, false)
	if errs != nil {
		t.Fatal(errs)
	}
	var got []string
	for _, r := range f.Reads {
		got = append(got, r.Name+"@"+r.Pos.String())
	}
	if want := "y@f.dp:1:1 x@f.dp:1:9"; strings.Join(got, " ") != want {
		t.Errorf("Reads = %q, want %s", got, want)
	}
}

// TestCompileEvalErrors: an error computing a number at a state stops
// the condition, with its position; every operator passes it on.
func TestCompileEvalErrors(t *testing.T) {
	c := testChain(t)
	// 1 / (x − x): division by zero, at the divisor (column 3).
	badN := func() *expr.Expr { return div(n(1), at(sub(v("x"), v("x")), 3)) }
	bad := func() *expr.Expr { return cmpE("=", badN(), n(0)) }
	for _, tc := range []struct {
		name string
		e    *expr.Expr
	}{
		{"=", bad()},
		{"! …", op(expr.Not, bad())},
		{"… & …", op(expr.And, tru(), bad())},
		{"… | …", op(expr.Or, &expr.Expr{Op: expr.Bool}, bad())},
		{"… => a", op(expr.Implies, bad(), lab("a"))},
		{"a <=> …", op(expr.Iff, lab("a"), bad())},
		{"… ? a : b", ite(bad(), lab("a"), lab("b"))},
		{"-…", cmpE("=", op(expr.Neg, badN()), n(0))},
		{"|…|", cmpE("=", op(expr.Abs, badN()), n(0))},
		{"… + 1", cmpE("=", op(expr.Sum, badN(), n(1)), n(0))},
		{"1 + …", cmpE("=", op(expr.Sum, n(1), badN()), n(0))},
		{"min(…, 1)", cmpE("=", op(expr.Min, badN(), n(1)), n(0))},
		{"max(1, …)", cmpE("=", op(expr.Max, n(1), badN()), n(0))},
		{"floor(…)", cmpE("=", op(expr.Floor, badN()), n(0))},
		{"mod(…, 2)", cmpE("=", op(expr.Mod, badN(), n(2)), n(0))},
		{"pow(2, …)", cmpE("=", op(expr.Pow, n(2), badN()), n(0))},
		{"(… ? 1 : 2)", cmpE("=", ite(bad(), n(1), n(2)), n(0))},
		{"0 = …", cmpE("=", n(0), badN())},
	} {
		f, errs := expr.Compile(tc.e, c, false)
		if errs != nil {
			t.Fatalf("%s: %v", tc.name, errs)
		}
		_, err := f.Eval(1, 1)
		var ee *expr.EvalError
		if !errors.As(err, &ee) || err.Error() != "f.dp:1:3: division by zero" {
			t.Errorf("%s: %v, want f.dp:1:3: division by zero", tc.name, err)
		}
	}
}

// TestMessages: the lists of names messages show, and names quoted when
// they are no identifiers.
func TestMessages(t *testing.T) {
	b := chain.NewBuilder()
	s := b.AddState("s", nil)
	b.AddTransition(s, s, big.NewRat(1, 1))
	b.MarkInput(s)
	bare, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	c := testChain(t)
	for _, tc := range []struct{ got, want string }{
		{expr.KnownLabels(bare), " (the chain has no labels)"},
		{expr.KnownVars(bare), " (the chain has no variables)"},
		{expr.KnownLabels(c), " (labels: a, b)"},
		{expr.KnownVars(c), " (variables: x, y)"},
		{expr.JoinLimited(nil, 8), ""},
		{expr.JoinLimited([]string{"a", "b", "c"}, 3), "a, b, c"},
		{expr.JoinLimited([]string{"a", "b", "c", "d"}, 2), "a, b, … (4 in all)"},
		{expr.DisplayName("x1"), "x1"},
		{expr.DisplayName("_a"), "_a"},
		{expr.DisplayName("1x"), `"1x"`},
		{expr.DisplayName("a-b"), `"a-b"`},
		{expr.DisplayName(""), `""`},
		{expr.DisplayName("true"), `"true"`},
		{expr.DisplayName("false"), `"false"`},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	if _, errs := expr.Compile(lab("a"), bare, false); errs == nil || errs[0].Msg != "unknown label a (the chain has no labels)" {
		t.Errorf("label on a chain without labels: %v", errs)
	}
}

// TestIsCondition: which nodes are conditions.
func TestIsCondition(t *testing.T) {
	for _, tc := range []struct {
		name string
		e    *expr.Expr
		want bool
	}{
		{"true", tru(), true},
		{"a label", lab("a"), true},
		{"a comparison", cmpE("<", v("x"), n(1)), true},
		{"!", op(expr.Not, lab("a")), true},
		{"&", op(expr.And, lab("a"), lab("b")), true},
		{"|", op(expr.Or, lab("a"), lab("b")), true},
		{"=>", op(expr.Implies, lab("a"), lab("b")), true},
		{"<=>", op(expr.Iff, lab("a"), lab("b")), true},
		{"a ? b : c", ite(lab("a"), lab("b"), lab("c")), true},
		{"a ? 1 : 2", ite(lab("a"), n(1), n(2)), false},
		{"a number", n(1), false},
		{"a variable", v("x"), false},
		{"a sum", op(expr.Sum, n(1), n(2)), false},
	} {
		if got := tc.e.IsCondition(); got != tc.want {
			t.Errorf("IsCondition(%s) = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestValue: a Value as an integer, a rational and a string, small or not.
func TestValue(t *testing.T) {
	if i, ok := expr.IntValue(-3).Int(); !ok || i != -3 {
		t.Errorf("IntValue(-3).Int() = %d, %v", i, ok)
	}
	if r := expr.IntValue(-3).Rat(); r.Cmp(big.NewRat(-3, 1)) != 0 {
		t.Errorf("IntValue(-3).Rat() = %s", r)
	}
	half := expr.RatValue(big.NewRat(1, 2))
	if _, ok := half.Int(); ok {
		t.Error("1/2 is an integer")
	}
	if half.String() != "1/2" || half.Rat().Cmp(big.NewRat(1, 2)) != 0 {
		t.Errorf("1/2 = %s, %s", half, half.Rat())
	}
	huge := expr.RatValue(new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), 70)))
	if _, ok := huge.Int(); ok || huge.String() != "1180591620717411303424" {
		t.Errorf("2^70 = %s, an int64: %v", huge, ok)
	}
	// x + x − x with x = MaxInt64 goes past int64 and comes back: an
	// integer held as a rational, which Int still returns.
	f, errs := expr.CompileNumber(sub(op(expr.Sum, v("x"), v("x")), v("x")), slots{})
	if errs != nil {
		t.Fatal(errs)
	}
	got, err := f([]int64{math.MaxInt64, 0, 0, 0})
	if i, ok := got.Int(); err != nil || !ok || i != math.MaxInt64 {
		t.Errorf("x + x − x = %s (%v), Int() = %d, %v", got, err, i, ok)
	}
}
