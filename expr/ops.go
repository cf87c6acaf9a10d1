package expr

import (
	"fmt"

	"github.com/dpcheck/dpcheck/exact"
)

// The operators are compiled once for both compilers, over what a compiled
// expression reads, E: a pair of states of a chain (Compile) or a
// valuation (CompileCondition, CompileNumber). Each compiler compiles its
// names, and reports a node that is not of the kind expected.

// leaves compiles what the shared operators leave to a compiler.
type leaves[E any] interface {
	// condLeaf compiles a condition that is not an operator (a name, or a
	// number where a condition is expected); for a comparison, it
	// returns the compiler's own or nil for a comparison of numbers.
	condLeaf(e *Expr) func(E) (bool, error)
	// numLeaf compiles a number that is not an operator.
	numLeaf(e *Expr) func(E) (qv, error)
}

// never is the function of a condition that has errors.
func never[E any](E) (bool, error) { return false, nil }

// zero is the function of a number that has errors.
func zero[E any](E) (qv, error) { return qv{}, nil }

// compileCond compiles the condition e, k compiling its leaves.
func compileCond[E any](k leaves[E], e *Expr) func(E) (bool, error) {
	switch e.Op {
	case Bool:
		b := e.Truth
		return func(E) (bool, error) { return b, nil }
	case Not:
		f := compileCond(k, e.Args[0])
		return func(x E) (bool, error) { b, err := f(x); return !b, err }
	case And, Or:
		fs := make([]func(E) (bool, error), len(e.Args))
		for i, a := range e.Args {
			fs[i] = compileCond(k, a)
		}
		stop := e.Op == Or // the value that decides the whole
		return func(x E) (bool, error) {
			for _, f := range fs {
				if b, err := f(x); err != nil || b == stop {
					return b, err
				}
			}
			return !stop, nil
		}
	case Implies, Iff:
		l, r := compileCond(k, e.Args[0]), compileCond(k, e.Args[1])
		iff := e.Op == Iff
		return func(x E) (bool, error) {
			a, err := l(x)
			if err != nil {
				return false, err
			}
			b, err := r(x)
			if iff {
				return a == b, err
			}
			return !a || b, err
		}
	case Cmp:
		if f := k.condLeaf(e); f != nil {
			return f
		}
		l, r := compileNum(k, e.Args[0]), compileNum(k, e.Args[1])
		op := e.CmpOp
		return func(x E) (bool, error) {
			a, err := l(x)
			if err == nil {
				var b qv
				if b, err = r(x); err == nil {
					return exact.CmpHolds(op, qcmp(a, b)), nil
				}
			}
			if _, ok := err.(missing); ok {
				return false, nil // a variable the state lacks: false there
			}
			return false, err
		}
	case Ite:
		return ite(compileCond(k, e.Args[0]), compileCond(k, e.Args[1]), compileCond(k, e.Args[2]))
	case Index:
		fs := make([]func(E) (bool, error), len(e.Args)-2)
		for i, a := range e.Args[2:] {
			fs[i] = compileCond(k, a)
		}
		return index(e, compileNum(k, e.Args[0]), fs)
	}
	return k.condLeaf(e)
}

// ite is the function of if c then a else b.
func ite[E, R any](c func(E) (bool, error), a, b func(E) (R, error)) func(E) (R, error) {
	return func(x E) (R, error) {
		y, err := c(x)
		if err != nil {
			var z R
			return z, err
		}
		if y {
			return a(x)
		}
		return b(x)
	}
}

// compileNum compiles the number e, k compiling its leaves.
func compileNum[E any](k leaves[E], e *Expr) func(E) (qv, error) {
	switch e.Op {
	case Num:
		q := small(e.Value)
		return func(E) (qv, error) { return q, nil }
	case Neg:
		f := compileNum(k, e.Args[0])
		return func(x E) (qv, error) {
			v, err := f(x)
			return qsub(qv{}, v), err
		}
	case Abs:
		f := compileNum(k, e.Args[0])
		return func(x E) (qv, error) {
			v, err := f(x)
			if err == nil && qcmp(v, qv{}) < 0 {
				v = qsub(qv{}, v)
			}
			return v, err
		}
	case Sum, Prod:
		fs := make([]func(E) (qv, error), len(e.Args))
		for i, a := range e.Args {
			fs[i] = compileNum(k, a)
		}
		inv, sum, pos := e.Inv, e.Op == Sum, e.Args
		return func(x E) (qv, error) {
			acc, err := fs[0](x)
			if err != nil {
				return acc, err
			}
			for i, f := range fs[1:] {
				y, err := f(x)
				if err != nil {
					return y, err
				}
				switch {
				case sum && !inv[i+1]:
					acc = qadd(acc, y)
				case sum:
					acc = qsub(acc, y)
				case !inv[i+1]:
					acc = qmul(acc, y)
				default:
					if acc, err = qdiv(pos[i+1].Pos)(acc, y); err != nil {
						return acc, err
					}
				}
			}
			return acc, nil
		}
	case Min, Max:
		fs := make([]func(E) (qv, error), len(e.Args))
		for i, a := range e.Args {
			fs[i] = compileNum(k, a)
		}
		want := 1
		if e.Op == Min {
			want = -1
		}
		return func(x E) (qv, error) {
			best, err := fs[0](x)
			for _, f := range fs[1:] {
				if err != nil {
					return best, err
				}
				var y qv
				if y, err = f(x); qcmp(y, best) == want {
					best = y
				}
			}
			return best, err
		}
	case Floor, Ceil:
		f, ceil := compileNum(k, e.Args[0]), e.Op == Ceil
		return func(x E) (qv, error) {
			y, err := f(x)
			if err != nil {
				return y, err
			}
			return qround(y, ceil), nil
		}
	case Mod, Pow:
		a, b := compileNum(k, e.Args[0]), compileNum(k, e.Args[1])
		op := binaryOp(e)
		return func(x E) (qv, error) {
			y, err := a(x)
			if err != nil {
				return y, err
			}
			z, err := b(x)
			if err != nil {
				return z, err
			}
			return op(y, z)
		}
	case Ite:
		return ite(compileCond(k, e.Args[0]), compileNum(k, e.Args[1]), compileNum(k, e.Args[2]))
	case Index:
		fs := make([]func(E) (qv, error), len(e.Args)-2)
		for i, a := range e.Args[2:] {
			fs[i] = compileNum(k, a)
		}
		return index(e, compileNum(k, e.Args[0]), fs)
	}
	return k.numLeaf(e)
}

// index is the function of the array read e, its index computed by at and
// its elements by elems.
func index[E, R any](e *Expr, at func(E) (qv, error), elems []func(E) (R, error)) func(E) (R, error) {
	first, _ := Value{small(e.Args[1].Value)}.Int()
	last := first + int64(len(elems)) - 1 // arrays are short: no overflow
	pos, text := e.Pos, e.Text
	return func(x E) (R, error) {
		var zero R
		v, err := at(x)
		if err != nil {
			return zero, err
		}
		i, ok := Value{v}.Int()
		switch {
		case !ok && !v.rat().IsInt():
			return zero, &EvalError{Pos: pos, Msg: fmt.Sprintf("the index of %s is %s, not an integer", text, Value{v}.brief())}
		case !ok || i < first || i > last:
			return zero, &EvalError{Pos: pos, Msg: fmt.Sprintf("the index of %s is %s, outside the array's indices %d..%d", text, Value{v}.brief(), first, last)}
		}
		return elems[i-first](x)
	}
}
