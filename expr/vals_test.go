package expr_test

import (
	"math"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/expr"
)

// slots: x and y are integers (slots 0 and 1), b and c booleans (2, 3).
type slots struct{}

func (slots) Slot(name string) (int, bool, bool) {
	switch name {
	case "x":
		return 0, false, true
	case "y":
		return 1, false, true
	case "b":
		return 2, true, true
	case "c":
		return 3, true, true
	}
	return 0, false, false
}

func n(v int64) *expr.Expr { return &expr.Expr{Op: expr.Num, Value: big.NewRat(v, 1)} }

func q(a, b int64) *expr.Expr { return &expr.Expr{Op: expr.Num, Value: big.NewRat(a, b)} }

func v(name string) *expr.Expr { return &expr.Expr{Op: expr.Var, Name: name} }

func op(o expr.Op, args ...*expr.Expr) *expr.Expr {
	e := &expr.Expr{Op: o, Args: args}
	if o == expr.Sum || o == expr.Prod {
		e.Inv = make([]bool, len(args))
	}
	return e
}

func div(a, b *expr.Expr) *expr.Expr {
	return &expr.Expr{Op: expr.Prod, Args: []*expr.Expr{a, b}, Inv: []bool{false, true}}
}

func sub(a, b *expr.Expr) *expr.Expr {
	return &expr.Expr{Op: expr.Sum, Args: []*expr.Expr{a, b}, Inv: []bool{false, true}}
}

func cmpE(o string, a, b *expr.Expr) *expr.Expr {
	return &expr.Expr{Op: expr.Cmp, CmpOp: o, Args: []*expr.Expr{a, b}}
}

func TestNumbers(t *testing.T) {
	for _, tc := range []struct {
		name string
		e    *expr.Expr
		vals []int64
		want string
	}{
		{"MinInt64 / -1 is 2^63", div(v("x"), v("y")), []int64{math.MinInt64, -1, 0, 0}, "9223372036854775808"},
		{"sum past int64", op(expr.Sum, v("x"), v("x")), []int64{math.MaxInt64, 0, 0, 0}, "18446744073709551614"},
		{"product past int64", op(expr.Prod, v("x"), v("x")), []int64{1 << 40, 0, 0, 0}, "1208925819614629174706176"},
		{"exact division", div(v("x"), n(4)), []int64{6, 0, 0, 0}, "3/2"},
		{"floor of a negative", op(expr.Floor, div(v("x"), n(2))), []int64{-3, 0, 0, 0}, "-2"},
		{"ceil of a negative", op(expr.Ceil, div(v("x"), n(2))), []int64{-3, 0, 0, 0}, "-1"},
		{"mod of a negative", op(expr.Mod, v("x"), n(4)), []int64{-3, 0, 0, 0}, "1"},
		{"pow with a negative exponent", op(expr.Pow, q(2, 3), n(-2)), nil, "9/4"},
		{"min of three", op(expr.Min, v("x"), n(2), v("y")), []int64{5, -7, 0, 0}, "-7"},
		{"max of three", op(expr.Max, v("x"), n(2), v("y")), []int64{5, -7, 0, 0}, "5"},
		{"ite", op(expr.Ite, v("b"), v("x"), v("y")), []int64{1, 2, 0, 0}, "2"},
	} {
		f, errs := expr.CompileNumber(tc.e, slots{})
		if errs != nil {
			t.Fatalf("%s: %v", tc.name, errs)
		}
		vals := tc.vals
		if vals == nil {
			vals = make([]int64, 4)
		}
		got, err := f(vals)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got.String() != tc.want {
			t.Errorf("%s = %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestNumberErrors(t *testing.T) {
	zero := sub(op(expr.Sum, div(v("x"), n(2)), div(v("x"), n(2))), v("x")) // 0, held as a rational
	for _, tc := range []struct {
		name string
		e    *expr.Expr
		want string
	}{
		{"pow of a rational zero", op(expr.Pow, zero, n(-1)), "division by zero: pow(0, -1)"},
		{"division by zero", div(n(1), sub(v("x"), v("x"))), "division by zero"},
		{"mod by zero", op(expr.Mod, v("x"), n(0)), "mod(3, 0) needs a positive divisor"},
		{"mod of a fraction", op(expr.Mod, div(v("x"), n(2)), n(2)), "mod(3/2, 2) needs integers"},
		{"fractional power", op(expr.Pow, n(2), q(1, 2)), "pow(2, 1/2): the exponent is not an integer, and dpcheck computes only exact powers"},
		{"huge exponent", op(expr.Pow, n(2), n(-100000)), "pow(2, -100000): the exponent is beyond ±65536"},
		// A parameter's number is a stand-in: the message names it.
		{"huge exponent of a parameter", op(expr.Pow, &expr.Expr{Op: expr.Var, Name: "alpha", Fallback: q(1, 2)}, n(1000000)), "pow(alpha, 1000000): the exponent is beyond ±65536"},
		{"negative exponent of an int power", &expr.Expr{Op: expr.Pow, Args: []*expr.Expr{n(2), sub(n(0), v("x"))}, IntPow: true},
			"pow(2, -3): a power of two ints is an int, and a negative exponent would make it a fraction (PRISM refuses it too); write pow(2.0, -3) for a double"},
		{"huge power", op(expr.Pow, op(expr.Pow, n(3), n(60000)), n(60000)), "pow(18848777148474786945…, 60000) would have about 5,705,865,004 bits; the limit is 1,048,576"},
	} {
		f, errs := expr.CompileNumber(tc.e, slots{})
		if errs != nil {
			t.Fatalf("%s: %v", tc.name, errs)
		}
		_, err := f([]int64{3, 0, 0, 0})
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if got := err.(*expr.EvalError).Msg; got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// Booleans compare as truth values: b = false, b != c, b = (x = 1).
func TestBooleans(t *testing.T) {
	for _, tc := range []struct {
		name string
		e    *expr.Expr
		vals []int64
		want bool
	}{
		{"b = false", cmpE("=", v("b"), &expr.Expr{Op: expr.Bool}), []int64{0, 0, 0, 0}, true},
		{"b != c", cmpE("!=", v("b"), v("c")), []int64{0, 0, 1, 0}, true},
		{"b = (x = 1)", cmpE("=", v("b"), cmpE("=", v("x"), n(1))), []int64{1, 0, 1, 0}, true},
		{"b => c", op(expr.Implies, v("b"), v("c")), []int64{0, 0, 1, 0}, false},
		{"b <=> c", op(expr.Iff, v("b"), v("c")), []int64{0, 0, 0, 0}, true},
	} {
		f, errs := expr.CompileCondition(tc.e, slots{})
		if errs != nil {
			t.Fatalf("%s: %v", tc.name, errs)
		}
		if got, err := f(tc.vals); err != nil || got != tc.want {
			t.Errorf("%s = %v (%v), want %v", tc.name, got, err, tc.want)
		}
	}
	if _, errs := expr.CompileNumber(op(expr.Sum, v("b"), n(1)), slots{}); errs == nil || errs[0].Msg != "b is a boolean, not a number" {
		t.Errorf("b + 1: %v, want b is a boolean, not a number", errs)
	}
}
