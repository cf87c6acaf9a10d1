package statespace

import (
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/geosum"
	"github.com/dpcheck/dpcheck/source"
)

// Guards over unbounded integers, as disjoint unions of cubes: conjunctions
// of octagonal atoms f ≤ g, which cut a run's weight.

// restrict returns w on the union of disjoint cubes.
func (r *urun[T]) restrict(w geosum.Weight[T], cubes [][]atom) geosum.Weight[T] {
	var out geosum.Weight[T]
	for _, cube := range cubes {
		part := w
		for _, a := range cube {
			part = r.s.Restrict(part, a.f, a.g)
		}
		out = geosum.Add(out, part)
	}
	return out
}

// atom is f ≤ g.
type atom struct{ f, g geosum.Form }

// cubes returns the guard (its negation when !pos) at bounded values v as
// disjoint conjunctions of atoms.
func (r *urun[T]) cubes(ci int, c *ucond, v []int64, pos bool) ([][]atom, error) {
	switch c.kind {
	case uBounded:
		b, err := c.b(v)
		if err != nil {
			return nil, r.x.at(ci, v, errEval(err, c.pos))
		}
		if b == pos {
			return [][]atom{nil}, nil
		}
		return nil, nil
	case uNot:
		return r.cubes(ci, c.kids[0], v, !pos)
	case uAnd, uOr:
		if (c.kind == uAnd) == pos { // a conjunction
			out := [][]atom{nil}
			for _, k := range c.kids {
				ks, err := r.cubes(ci, k, v, pos)
				if err != nil {
					return nil, err
				}
				if out = product(out, ks); len(out) == 0 {
					return nil, nil // false: the rest is not evaluated
				}
			}
			return out, nil
		}
		// A disjunction a | b | …: a, then !a & b, then !a & !b & c, ….
		var out [][]atom
		before := [][]atom{nil} // the cubes where no earlier disjunct holds
		for _, k := range c.kids {
			yes, err := r.cubes(ci, k, v, pos)
			if err != nil {
				return nil, err
			}
			no, err := r.cubes(ci, k, v, !pos)
			if err != nil {
				return nil, err
			}
			out = append(out, product(before, yes)...)
			before = product(before, no)
		}
		return out, nil
	}
	// An atom: Σ s·x + rest op 0.
	rest := new(big.Rat)
	if c.lin.rest != nil {
		val, err := c.lin.rest(v)
		if err != nil {
			return nil, r.x.at(ci, v, errEval(err, c.pos))
		}
		rest = val.Rat()
		// Every constant of a comparison stays within ±2^40, so that the
		// octagons' sums of a few never overflow (one beyond is refused,
		// not clamped: clamping would change the comparison).
		if new(big.Int).Quo(rest.Num(), rest.Denom()).CmpAbs(big.NewInt(geosum.MaxConst-2)) > 0 {
			return nil, r.x.at(ci, v, &source.Error{Pos: c.pos, Msg: fmt.Sprintf("the comparison's bounded part is %s, beyond ±2^40", rest.RatString())})
		}
	}
	op := c.op
	if !pos {
		op = map[string]string{"<": ">=", "<=": ">", ">": "<=", ">=": "<", "=": "!=", "==": "!=", "!=": "="}[op]
	}
	// L = Σ s·x (two variables at most) compared with −rest.
	var lf, lg geosum.Form // L = lf − lg
	switch len(c.lin.terms) {
	case 0:
		lf, lg = geosum.Const(0), geosum.Const(0)
	case 1:
		t := c.lin.terms[0]
		lf, lg = geosum.Var(t.u, t.s, 0), geosum.Const(0)
	default:
		t, w := c.lin.terms[0], c.lin.terms[1]
		lf, lg = geosum.Var(t.u, t.s, 0), geosum.Var(w.u, -w.s, 0)
	}
	neg := new(big.Rat).Neg(rest)
	le := func(k *big.Rat) atom { // L ≤ k: lf ≤ lg + floor(k)
		g := lg
		g.C += floorRat(k)
		return atom{lf, g}
	}
	ge := func(k *big.Rat) atom { // L ≥ k: lg + ceil(k) ≤ lf
		g := lg
		g.C += ceilRat(k)
		return atom{g, lf}
	}
	one := big.NewRat(1, 1)
	switch op {
	case "<=":
		return [][]atom{{le(neg)}}, nil
	case ">=":
		return [][]atom{{ge(neg)}}, nil
	case "<": // L ≤ ceil(k) − 1
		return [][]atom{{le(new(big.Rat).Sub(new(big.Rat).SetInt64(ceilRat(neg)), one))}}, nil
	case ">":
		return [][]atom{{ge(new(big.Rat).Add(new(big.Rat).SetInt64(floorRat(neg)), one))}}, nil
	case "=", "==":
		if !neg.IsInt() {
			return nil, nil
		}
		return [][]atom{{le(neg), ge(neg)}}, nil
	default: // !=
		if !neg.IsInt() {
			return [][]atom{nil}, nil
		}
		return [][]atom{{le(new(big.Rat).Sub(neg, one))}, {ge(new(big.Rat).Add(neg, one))}}, nil
	}
}

func product(a, b [][]atom) [][]atom {
	var out [][]atom
	for _, x := range a {
		for _, y := range b {
			out = append(out, append(append([]atom(nil), x...), y...))
		}
	}
	return out
}

// floorRat is ⌊k⌋ for k within ±2^40 (cubes checks it).
func floorRat(k *big.Rat) int64 {
	return new(big.Int).Div(k.Num(), k.Denom()).Int64() // Euclidean: floor for a positive divisor
}

func ceilRat(k *big.Rat) int64 {
	return -floorRat(new(big.Rat).Neg(k))
}
