package expr

import (
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/source"
)

// Expressions over a valuation: the guards, probabilities and updates of
// guarded commands are evaluated on the vector of a state's variable
// values, each variable in its slot. Booleans are kept as 0 and 1.

// Slots says where each variable of a valuation is, and whether it is a
// boolean.
type Slots interface {
	Slot(name string) (slot int, isBool, ok bool)
}

// Value is an exact rational computed by an expression: an int64 while it
// is small, a big.Rat beyond.
type Value struct{ q qv }

// Int returns v as an int64 when it is an integer that fits.
func (v Value) Int() (int64, bool) {
	if v.q.r == nil {
		return v.q.i, true
	}
	if v.q.r.IsInt() && v.q.r.Num().IsInt64() {
		return v.q.r.Num().Int64(), true
	}
	return 0, false
}

// Rat returns v as a rational (a new one for small values; read-only
// otherwise).
func (v Value) Rat() *big.Rat { return v.q.rat() }

// String writes v exactly.
func (v Value) String() string { return v.q.rat().RatString() }

// brief is v for a message: its first digits when it is long.
func (v Value) brief() string {
	s := v.String()
	if r := []rune(s); len(r) > 24 {
		return string(r[:20]) + "…"
	}
	return s
}

// IntValue returns the Value of an integer.
func IntValue(i int64) Value { return Value{qv{i: i}} }

// RatValue returns the Value of a rational (not copied).
func RatValue(r *big.Rat) Value { return Value{small(r)} }

func small(r *big.Rat) qv {
	if r.IsInt() && r.Num().IsInt64() {
		return qv{i: r.Num().Int64()}
	}
	return qv{r: r}
}

// ValCond decides a condition on a valuation.
type ValCond func(vals []int64) (bool, error)

// ValNum computes a number on a valuation.
type ValNum func(vals []int64) (Value, error)

// CompileCondition compiles a condition over valuations; every error is
// reported at its position.
func CompileCondition(e *Expr, s Slots) (ValCond, source.ErrorList) {
	k := &valCompiler{s: s}
	f := compileCond[[]int64](k, e)
	if k.errs != nil {
		return nil, k.errs
	}
	return f, nil
}

// CompileNumber compiles a number over valuations.
func CompileNumber(e *Expr, s Slots) (ValNum, source.ErrorList) {
	k := &valCompiler{s: s}
	f := compileNum[[]int64](k, e)
	if k.errs != nil {
		return nil, k.errs
	}
	return func(v []int64) (Value, error) { q, err := f(v); return Value{q}, err }, nil
}

type valCompiler struct {
	s    Slots
	errs source.ErrorList
}

func (k *valCompiler) errorf(p source.Position, format string, args ...any) {
	k.errs = append(k.errs, &source.Error{Pos: p, Msg: fmt.Sprintf(format, args...)})
}

// condLeaf compiles a boolean variable, a comparison of two conditions
// (= or !=: their truth values), or reports a number where a condition is
// expected.
func (k *valCompiler) condLeaf(e *Expr) func([]int64) (bool, error) {
	switch e.Op {
	case Var, Label:
		slot, isBool, ok := k.s.Slot(e.Name)
		switch {
		case !ok && e.Fallback != nil:
			return compileCond[[]int64](k, e.Fallback)
		case !ok:
			k.errorf(e.Pos, "unknown variable %s", e.Name)
			return never[[]int64]
		case !isBool:
			k.errorf(e.Pos, "%s is a number, not a condition: compare it (%s = …)", e.Name, e.Name)
			return never[[]int64]
		}
		return func(v []int64) (bool, error) { return v[slot] != 0, nil }
	case Cmp:
		if !k.isCond(e.Args[0]) || !k.isCond(e.Args[1]) || e.CmpOp != "=" && e.CmpOp != "==" && e.CmpOp != "!=" {
			return nil
		}
		l, r := compileCond[[]int64](k, e.Args[0]), compileCond[[]int64](k, e.Args[1])
		ne := e.CmpOp == "!="
		return func(v []int64) (bool, error) {
			a, err := l(v)
			if err != nil {
				return false, err
			}
			b, err := r(v)
			return (a == b) != ne, err
		}
	}
	k.errorf(e.Pos, "expected a condition, found a number")
	return never[[]int64]
}

// isCond reports whether e is a condition, a boolean variable included
// (so that b = false and b != c compare truth values).
func (k *valCompiler) isCond(e *Expr) bool {
	switch e.Op {
	case Var, Label:
		if _, isBool, ok := k.s.Slot(e.Name); ok {
			return isBool
		}
		return e.Fallback != nil && k.isCond(e.Fallback)
	case Ite:
		return k.isCond(e.Args[1])
	case Index:
		return k.isCond(e.Args[2])
	}
	return e.IsCondition()
}

// numLeaf compiles a number variable, or reports a condition where a
// number is expected.
func (k *valCompiler) numLeaf(e *Expr) func([]int64) (qv, error) {
	if e.Op == Var || e.Op == Label {
		slot, isBool, ok := k.s.Slot(e.Name)
		switch {
		case !ok && e.Fallback != nil:
			return compileNum[[]int64](k, e.Fallback)
		case !ok:
			k.errorf(e.Pos, "unknown variable %s", e.Name)
			return zero[[]int64]
		case isBool:
			k.errorf(e.Pos, "%s is a boolean, not a number", e.Name)
			return zero[[]int64]
		}
		return func(v []int64) (qv, error) { return qv{i: v[slot]}, nil }
	}
	k.errorf(e.Pos, "expected a number, found a condition")
	return zero[[]int64]
}

// qround is floor(x), or ceil(x) when ceil is set.
func qround(x qv, ceil bool) qv {
	if x.r == nil || x.r.IsInt() {
		return x
	}
	q := new(big.Int).Div(x.r.Num(), x.r.Denom()) // Euclidean: floor for a positive denominator
	if ceil {
		q.Add(q, big.NewInt(1))
	}
	return small(new(big.Rat).SetInt(q))
}

// binaryOp is the function of a Mod or Pow node, its errors at e's
// position.
func binaryOp(e *Expr) func(x, y qv) (qv, error) {
	at := e.Pos
	if e.Op == Mod {
		return func(x, y qv) (qv, error) {
			xi, ok1 := Value{x}.Int()
			yi, ok2 := Value{y}.Int()
			switch {
			case !ok1 || !ok2:
				return qv{}, &EvalError{Pos: at, Msg: fmt.Sprintf("mod(%s, %s) needs integers", Value{x}.brief(), Value{y}.brief())}
			case yi <= 0:
				return qv{}, &EvalError{Pos: at, Msg: fmt.Sprintf("mod(%d, %d) needs a positive divisor", xi, yi)}
			}
			m := xi % yi
			if m < 0 {
				m += yi
			}
			return qv{i: m}, nil
		}
	}
	// A base that is a constant or a parameter (a name standing for a
	// number) is named: a parameter's number is only a stand-in.
	named := ""
	if a := e.Args[0]; a.Op == Var && a.Fallback != nil && a.Fallback.Op == Num {
		named = a.Name
	}
	brief := func(x qv) string {
		if named != "" {
			return named
		}
		return Value{x}.brief()
	}
	return func(x, y qv) (qv, error) {
		n, ok := Value{y}.Int()
		switch {
		case !ok:
			return qv{}, &EvalError{Pos: at, Msg: fmt.Sprintf("pow(%s, %s): the exponent is not an integer, and dpcheck computes only exact powers", brief(x), Value{y}.brief())}
		case n > MaxPowExponent || n < -MaxPowExponent:
			return qv{}, &EvalError{Pos: at, Msg: fmt.Sprintf("pow(%s, %d): the exponent is beyond ±%d", brief(x), n, MaxPowExponent)}
		case e.IntPow && n < 0:
			return qv{}, &EvalError{Pos: at, Msg: negativeIntPow(Value{x}.brief(), n)}
		case x.rat().Sign() == 0 && n < 0:
			return qv{}, &EvalError{Pos: at, Msg: fmt.Sprintf("division by zero: pow(0, %d)", n)}
		}
		r := x.rat()
		// PowBits is at most 2 bits above the power's size (not the
		// product of the exponent and the base's size, twice it for 2^k).
		if bits := exact.PowBits(r, n); bits > MaxPowBits+2 {
			return qv{}, &EvalError{Pos: at, Msg: fmt.Sprintf("pow(%s, %d) would have about %s bits; the limit is %s", Value{x}.brief(), n, exact.Thousands(bits), exact.Thousands(MaxPowBits))}
		}
		pw := ratPow(r, n)
		if bits := int64(exact.Bits(pw)); bits > MaxPowBits {
			return qv{}, &EvalError{Pos: at, Msg: fmt.Sprintf("pow(%s, %d) would have %s bits; the limit is %s", Value{x}.brief(), n, exact.Thousands(bits), exact.Thousands(MaxPowBits))}
		}
		return small(pw), nil
	}
}

// negativeIntPow is the error of pow(base, n), n < 0, both arguments
// integers: its value would not be one.
func negativeIntPow(base string, n int64) string {
	return fmt.Sprintf("pow(%s, %d): a power of two ints is an int, and a negative exponent would make it a fraction (PRISM refuses it too); write pow(%s.0, %d) for a double", base, n, base, n)
}

// NegativeIntPow is the error of pow(base, n), n < 0, both arguments
// integers, for a front end that evaluates the power itself.
func NegativeIntPow(base string, n int64) string { return negativeIntPow(base, n) }

// MaxPowBits bounds the size of a power computed on a state, in bits.
const MaxPowBits = 1 << 20

// MaxPowExponent bounds the exponent of a power computed on a state.
const MaxPowExponent = 1 << 16

func ratPow(x *big.Rat, n int64) *big.Rat {
	neg := n < 0
	if neg {
		n = -n
	}
	num := new(big.Int).Exp(x.Num(), big.NewInt(n), nil)
	den := new(big.Int).Exp(x.Denom(), big.NewInt(n), nil)
	if neg {
		num, den = den, num
	}
	if den.Sign() < 0 {
		num.Neg(num)
		den.Neg(den)
	}
	return new(big.Rat).SetFrac(num, den)
}
