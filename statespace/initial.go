package statespace

import (
	"math/big"

	"github.com/dpcheck/dpcheck/expr"
)

// initialBox returns the ranges [lo[i], hi[i]] the initial states' free
// variables are enumerated over: each variable's declared range, narrowed
// by the conjuncts of the conditions that compare it with a constant
// (x = 3, x <= 5, 2 < x, a boolean b or !b), so that a condition that pins
// most variables (PRISM's init … endinit, .dp's inputs where) is not
// evaluated over the product of every range. It only skips valuations the
// conditions are false at — every enumerated one is still tested — so the
// initial states and their order are those of the whole product. A
// conjunct of another form narrows nothing.
func (m *Model) initialBox(conds ...*expr.Expr) (lo, hi []int64) {
	lo, hi = make([]int64, len(m.Vars)), make([]int64, len(m.Vars))
	index := map[string]int{}
	for i, v := range m.Vars {
		lo[i], hi[i] = v.Lo, v.Hi
		index[v.Name] = i
	}
	var walk func(e *expr.Expr)
	walk = func(e *expr.Expr) {
		if e == nil {
			return
		}
		switch e.Op {
		case expr.And:
			for _, a := range e.Args {
				walk(a)
			}
		case expr.Var:
			if i, ok := index[e.Name]; ok && !e.Primed && m.Vars[i].Bool {
				lo[i] = max(lo[i], 1)
			}
		case expr.Not:
			if a := e.Args[0]; a.Op == expr.Var && !a.Primed {
				if i, ok := index[a.Name]; ok && m.Vars[i].Bool {
					hi[i] = min(hi[i], 0)
				}
			}
		case expr.Cmp:
			narrowCmp(e, index, lo, hi)
		}
	}
	for _, c := range conds {
		walk(c)
	}
	return lo, hi
}

// narrowCmp narrows the range of the variable a comparison with a constant
// bounds: x op c, or c op x read as x op' c.
func narrowCmp(e *expr.Expr, index map[string]int, lo, hi []int64) {
	a, b, op := e.Args[0], e.Args[1], e.CmpOp
	if a.Op != expr.Var {
		a, b = b, a
		op = map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "=", "==": "==", "!=": "!="}[op]
	}
	i, ok := index[a.Name]
	if a.Op != expr.Var || a.Primed || !ok {
		return
	}
	var c *big.Rat
	switch b.Op {
	case expr.Num:
		c = b.Value
	case expr.Bool:
		c = new(big.Rat)
		if b.Truth {
			c.SetInt64(1)
		}
	default:
		return
	}
	// floor and ceil of c, clamped to the int64 range the bounds live in.
	fl, ce := floorCeil(c)
	switch op {
	case "=", "==":
		if !c.IsInt() {
			lo[i], hi[i] = 1, 0 // no integer equals c
			return
		}
		lo[i], hi[i] = max(lo[i], fl), min(hi[i], fl)
	case "<=":
		hi[i] = min(hi[i], fl)
	case "<":
		hi[i] = min(hi[i], ce-1)
	case ">=":
		lo[i] = max(lo[i], ce)
	case ">":
		lo[i] = max(lo[i], fl+1)
	}
}

// floorCeil returns ⌊c⌋ and ⌈c⌉, clamped to ±2^62 (beyond every range a
// variable may have, and far from overflow when 1 is added or taken).
func floorCeil(c *big.Rat) (fl, ce int64) {
	const bound = 1 << 62
	q, r := new(big.Int).DivMod(c.Num(), c.Denom(), new(big.Int)) // q = ⌊c⌋ (Euclidean, the denominator positive)
	clamp := func(x *big.Int) int64 {
		switch {
		case x.Cmp(big.NewInt(bound)) > 0:
			return bound
		case x.Cmp(big.NewInt(-bound)) < 0:
			return -bound
		}
		return x.Int64()
	}
	fl = clamp(q)
	if r.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	return fl, clamp(q)
}
