package expr_test

import (
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/source"
)

// TestValConditions evaluates conditions on valuations (x, y, b, c in
// slots 0 to 3; b and c booleans).
func TestValConditions(t *testing.T) {
	bv := func(name string) *expr.Expr { return lab(name) } // a boolean variable, as a front end writes it
	for _, tc := range []struct {
		name string
		e    *expr.Expr
		vals []int64
		want bool
	}{
		{"true", tru(), []int64{0, 0, 0, 0}, true},
		{"b", bv("b"), []int64{0, 0, 1, 0}, true},
		{"b as a Var", v("b"), []int64{0, 0, 0, 0}, false},
		{"!b", op(expr.Not, bv("b")), []int64{0, 0, 0, 0}, true},
		{"b & c", op(expr.And, bv("b"), bv("c")), []int64{0, 0, 1, 0}, false},
		{"b | c", op(expr.Or, bv("b"), bv("c")), []int64{0, 0, 0, 1}, true},
		{"b | c, neither", op(expr.Or, bv("b"), bv("c")), []int64{0, 0, 0, 0}, false},
		{"x < y", cmpE("<", v("x"), v("y")), []int64{1, 2, 0, 0}, true},
		{"x >= y", cmpE(">=", v("x"), v("y")), []int64{1, 2, 0, 0}, false},
		{"b ? x = 1 : y = 1", ite(bv("b"), cmpE("=", v("x"), n(1)), cmpE("=", v("y"), n(1))), []int64{0, 1, 0, 0}, true},
		{"b ? x = 1 : y = 1, b", ite(bv("b"), cmpE("=", v("x"), n(1)), cmpE("=", v("y"), n(1))), []int64{0, 1, 1, 0}, false},
		{"(b ? c : b) = c", cmpE("=", ite(bv("b"), bv("c"), bv("b")), bv("c")), []int64{0, 0, 1, 1}, true},
		{"a constant condition standing in for k", &expr.Expr{Op: expr.Var, Name: "k", Fallback: tru()}, []int64{0, 0, 0, 0}, true},
		{"k = true, k a constant condition", cmpE("=", &expr.Expr{Op: expr.Var, Name: "k", Fallback: tru()}, tru()), []int64{0, 0, 0, 0}, true},
		{"k + x = 3, k a constant number", cmpE("=", op(expr.Sum, &expr.Expr{Op: expr.Var, Name: "k", Fallback: n(2)}, v("x")), n(3)), []int64{1, 0, 0, 0}, true},
		{"-x = |x|", cmpE("=", op(expr.Neg, v("x")), op(expr.Abs, v("x"))), []int64{-4, 0, 0, 0}, true},
		{"(b ? x : y) = 2", cmpE("=", ite(bv("b"), v("x"), v("y")), n(2)), []int64{1, 2, 0, 0}, true},
		{"floor(7/2) = 3", cmpE("=", op(expr.Floor, q(7, 2)), n(3)), nil, true},
		{"ceil(7/2) = 4", cmpE("=", op(expr.Ceil, q(7, 2)), n(4)), nil, true},
		{"floor(3) = 3", cmpE("=", op(expr.Floor, n(3)), n(3)), nil, true},
	} {
		f, errs := expr.CompileCondition(tc.e, slots{})
		if errs != nil {
			t.Errorf("%s: %v", tc.name, errs)
			continue
		}
		vals := tc.vals
		if vals == nil {
			vals = make([]int64, 4)
		}
		if got, err := f(vals); err != nil || got != tc.want {
			t.Errorf("%s = %v (%v), want %v", tc.name, got, err, tc.want)
		}
	}
}

// TestValErrors: the names and kinds that do not fit a valuation are
// reported, every one, at its position.
func TestValErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		e    *expr.Expr
		cond bool
		want []string
	}{
		{"unknown variable in a condition", at(lab("z"), 2), true, []string{"f.dp:1:2: unknown variable z"}},
		{"unknown variable in a number", at(v("z"), 3), false, []string{"f.dp:1:3: unknown variable z"}},
		{"a number as a condition", at(v("x"), 4), true, []string{"f.dp:1:4: x is a number, not a condition: compare it (x = …)"}},
		{"a boolean as a number", at(v("b"), 5), false, []string{"f.dp:1:5: b is a boolean, not a number"}},
		{"a literal as a condition", at(n(1), 6), true, []string{"f.dp:1:6: expected a condition, found a number"}},
		{"a comparison as a number", at(cmpE("<", v("x"), n(1)), 7), false, []string{"f.dp:1:7: expected a number, found a condition"}},
		{"every error at once", op(expr.And, at(lab("z"), 1), cmpE("<", at(v("w"), 5), at(v("c"), 9))), true, []string{
			"f.dp:1:1: unknown variable z",
			"f.dp:1:5: unknown variable w",
			"f.dp:1:9: c is a boolean, not a number",
		}},
	} {
		var l source.ErrorList
		compiled := false
		if tc.cond {
			f, errs := expr.CompileCondition(tc.e, slots{})
			compiled, l = f != nil, errs
		} else {
			f, errs := expr.CompileNumber(tc.e, slots{})
			compiled, l = f != nil, errs
		}
		if compiled {
			t.Errorf("%s: compiled, want errors", tc.name)
		}
		var errs []string
		for _, e := range l {
			errs = append(errs, e.Error())
		}
		if strings.Join(errs, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s:\n%s\nwant\n%s", tc.name, strings.Join(errs, "\n"), strings.Join(tc.want, "\n"))
		}
	}
}

// TestValEvalErrors: an error computing a number on a valuation stops the
// condition or number, at its position, through every operator.
func TestValEvalErrors(t *testing.T) {
	badN := func() *expr.Expr { return div(n(1), at(sub(v("x"), v("x")), 3)) }
	bad := func() *expr.Expr { return cmpE("=", badN(), n(0)) }
	for _, tc := range []struct {
		name string
		e    *expr.Expr
	}{
		{"=", bad()},
		{"0 = …", cmpE("=", n(0), badN())},
		{"! …", op(expr.Not, bad())},
		{"… & …", op(expr.And, tru(), bad())},
		{"… => b", op(expr.Implies, bad(), lab("b"))},
		{"b <=> …", op(expr.Iff, lab("b"), bad())},
		{"… ? b : c", ite(bad(), lab("b"), lab("c"))},
		{"(…) = b", cmpE("=", bad(), lab("b"))},
		{"b != (…)", cmpE("!=", lab("b"), bad())},
		{"-…", cmpE("=", op(expr.Neg, badN()), n(0))},
		{"|…|", cmpE("=", op(expr.Abs, badN()), n(0))},
		{"… + 1", cmpE("=", op(expr.Sum, badN(), n(1)), n(0))},
		{"1 - …", cmpE("=", sub(n(1), badN()), n(0))},
		{"min(…, 1)", cmpE("=", op(expr.Min, badN(), n(1)), n(0))},
		{"max(1, …)", cmpE("=", op(expr.Max, n(1), badN()), n(0))},
		{"ceil(…)", cmpE("=", op(expr.Ceil, badN()), n(0))},
		{"mod(…, 2)", cmpE("=", op(expr.Mod, badN(), n(2)), n(0))},
		{"pow(2, …)", cmpE("=", op(expr.Pow, n(2), badN()), n(0))},
		{"(… ? 1 : 2)", cmpE("=", ite(bad(), n(1), n(2)), n(0))},
	} {
		f, errs := expr.CompileCondition(tc.e, slots{})
		if errs != nil {
			t.Fatalf("%s: %v", tc.name, errs)
		}
		_, err := f([]int64{4, 0, 1, 0})
		var ee *expr.EvalError
		if !errors.As(err, &ee) || err.Error() != "f.dp:1:3: division by zero" {
			t.Errorf("%s: %v, want f.dp:1:3: division by zero", tc.name, err)
		}
	}
}

// TestPowExact: powers are exact, with negative bases and exponents.
func TestPowExact(t *testing.T) {
	for _, tc := range []struct {
		base *expr.Expr
		exp  int64
		want string
	}{
		{q(-2, 3), 3, "-8/27"},
		{q(-2, 3), -3, "-27/8"},
		{n(-2), -2, "1/4"},
		{n(5), 0, "1"},
		{n(0), 3, "0"},
	} {
		f, errs := expr.CompileNumber(op(expr.Pow, tc.base, n(tc.exp)), slots{})
		if errs != nil {
			t.Fatal(errs)
		}
		got, err := f(make([]int64, 4))
		if err != nil || got.String() != tc.want {
			t.Errorf("pow(%s, %d) = %s (%v), want %s", tc.base.Value.RatString(), tc.exp, got, err, tc.want)
		}
	}
	if got := expr.RatValue(big.NewRat(6, 4)).String(); got != "3/2" {
		t.Errorf("6/4 = %s", got)
	}
}
