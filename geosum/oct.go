// Package geosum sums products of geometric sequences exactly over the
// integer points of octagons: sets of integer vectors given by
// constraints ±x_i ± x_j ≤ c. It is the arithmetic behind unbounded
// variables in guarded-command programs: a variable drawn from untruncated
// two-sided geometric noise has the weight K·α^|x−c|, a product of two
// geometric sequences on two half-lines; comparing variables cuts their
// joint weight along octagonal lines; forgetting a variable sums it out in
// closed form. Every result is exact, over any exact.Field (the rationals
// for one parameter value, the rational functions of a parameter for every
// value at once).
//
// A Weight is a finite sum of Pieces; a Piece is an Oct (the region) with
// Terms c·Π b_i^{x_i} (the weight on it). Summing a variable out of a
// piece splits it by which lower bound is the largest and which upper
// bound the smallest — comparisons of octagonal forms, so the pieces stay
// octagons — and replaces each term by its geometric sum
// (b^lo − b^(hi+1))/(1 − b), whose powers b^(±x_j + c) are again
// geometric in the remaining variables. Integer octagons are kept tightly
// closed (Bagnara, Hill and Zaffanella, "An improved tight closure
// algorithm for integer octagonal constraints"), which decides whether a
// region has integer points and makes projection exact.
package geosum

import (
	"encoding/binary"
	"math"
)

// inf is the absent bound.
const inf = math.MaxInt64

// MaxConst bounds the constants of constraints (in absolute value), so
// that sums of a few never overflow.
const MaxConst = 1 << 40

// Oct is an integer octagon over the variables x_0 … x_{n−1}, kept in
// Miné's difference-bound form over the 2n signed variables
// V_{2i} = x_i, V_{2i+1} = −x_i: m[a·2n+b] bounds V_b − V_a. A zero Oct
// with n = 0 is the whole of the 0-dimensional space. Octs are values:
// the methods return new ones.
type Oct struct {
	n int
	m []int64
}

// Universe returns the octagon of every integer vector of length n.
func Universe(n int) Oct {
	o := Oct{n: n, m: make([]int64, 4*n*n)}
	for i := range o.m {
		o.m[i] = inf
	}
	for a := 0; a < 2*n; a++ {
		o.m[a*2*n+a] = 0
	}
	return o
}

func (o Oct) at(a, b int) int64 { return o.m[a*2*o.n+b] }

func (o Oct) set(a, b int, c int64) {
	if c < o.m[a*2*o.n+b] {
		o.m[a*2*o.n+b] = c
	}
}

func (o Oct) clone() Oct { return Oct{n: o.n, m: append([]int64(nil), o.m...)} }

// key identifies o's constraints (o closed), for maps.
func (o Oct) key() string {
	b := make([]byte, 0, 8*len(o.m))
	for _, x := range o.m {
		b = binary.LittleEndian.AppendUint64(b, uint64(x))
	}
	return string(b)
}

func add(a, b int64) int64 {
	if a == inf || b == inf {
		return inf
	}
	return a + b
}

func floorDiv2(a int64) int64 {
	if a == inf {
		return inf
	}
	if a >= 0 {
		return a / 2
	}
	return -((-a + 1) / 2)
}

// node is the signed variable s·x_v.
func node(v, s int) int {
	if s > 0 {
		return 2 * v
	}
	return 2*v + 1
}

// Form is the linear form S·x_V + C, or the constant C when V < 0.
type Form struct {
	V int
	S int // +1 or −1
	C int64
}

// Const returns the constant form c.
func Const(c int64) Form { return Form{V: -1, C: c} }

// Var returns the form s·x_v + c.
func Var(v, s int, c int64) Form { return Form{V: v, S: s, C: c} }

// LessEq returns o ∩ {f ≤ g}, closed, and whether it has integer points.
func (o Oct) LessEq(f, g Form) (Oct, bool) {
	// f − g ≤ 0: s_f x_f − s_g x_g ≤ g.C − f.C.
	c := g.C - f.C
	p := o.clone()
	switch {
	case f.V < 0 && g.V < 0:
		return p, c >= 0
	case f.V < 0:
		p.unary(g.V, -g.S, c)
	case g.V < 0:
		p.unary(f.V, f.S, c)
	case f.V == g.V && f.S == g.S:
		return p, c >= 0
	case f.V == g.V:
		// 2·s_f·x ≤ c.
		p.unary(f.V, f.S, floorDiv2(c))
	default:
		p.binary(f.V, f.S, g.V, -g.S, c)
	}
	return p, p.close()
}

// unary adds s·x_v ≤ c.
func (o Oct) unary(v, s int, c int64) {
	o.set(node(v, -s), node(v, s), 2*c)
}

// binary adds s·x_v + t·x_w ≤ c (v ≠ w).
func (o Oct) binary(v, s, w, t int, c int64) {
	// V_{node(v,s)} − V_{node(w,−t)} ≤ c and its coherent twin.
	a, b := node(w, -t), node(v, s)
	o.set(a, b, c)
	o.set(b^1, a^1, c)
}

// close makes o tightly closed and reports whether it has integer
// points.
func (o Oct) close() bool {
	n2 := 2 * o.n
	m := o.m
	for k := 0; k < n2; k++ {
		for i := 0; i < n2; i++ {
			ik := m[i*n2+k]
			if ik == inf {
				continue
			}
			for j := 0; j < n2; j++ {
				if s := add(ik, m[k*n2+j]); s < m[i*n2+j] {
					m[i*n2+j] = s
				}
			}
		}
	}
	for i := 0; i < n2; i++ {
		if m[i*n2+i] < 0 {
			return false
		}
	}
	for i := 0; i < n2; i++ {
		if v := m[i*n2+(i^1)]; v != inf {
			m[i*n2+(i^1)] = 2 * floorDiv2(v)
		}
	}
	for i := 0; i < n2; i++ {
		if add(m[i*n2+(i^1)], m[(i^1)*n2+i]) < 0 {
			return false
		}
	}
	for i := 0; i < n2; i++ {
		for j := 0; j < n2; j++ {
			a, b := m[i*n2+(i^1)], m[(j^1)*n2+j]
			if a == inf || b == inf {
				continue
			}
			if s := (a + b) / 2; s < m[i*n2+j] {
				m[i*n2+j] = s
			}
		}
	}
	for i := 0; i < n2; i++ {
		m[i*n2+i] = 0
	}
	return true
}

// Forget returns o without any constraint on x_v (its projection, exact
// for a tightly closed integer octagon).
func (o Oct) Forget(v int) Oct {
	p := o.clone()
	n2 := 2 * o.n
	for _, a := range []int{2 * v, 2*v + 1} {
		for b := 0; b < n2; b++ {
			if a != b {
				p.m[a*n2+b] = inf
				p.m[b*n2+a] = inf
			}
		}
	}
	return p
}

// Shift returns the image of o under x_v := s·x_v + c.
func (o Oct) Shift(v, s int, c int64) Oct {
	n2 := 2 * o.n
	p := Oct{n: o.n, m: make([]int64, len(o.m))}
	// The new signed variables: V'_{2v} = s·V_{2v} + c. Old node a maps
	// to new node perm(a) with V_a = V'_{perm a} − d(perm a).
	perm := func(a int) int {
		if s < 0 && a/2 == v {
			return a ^ 1
		}
		return a
	}
	d := func(a int) int64 { // V'_a = V_{perm⁻¹ a} + d(a)
		switch a {
		case 2 * v:
			return c
		case 2*v + 1:
			return -c
		}
		return 0
	}
	for a := 0; a < n2; a++ {
		for b := 0; b < n2; b++ {
			x := o.m[a*n2+b]
			na, nb := perm(a), perm(b)
			if x != inf {
				x += d(nb) - d(na)
			}
			p.m[na*n2+nb] = x
		}
	}
	return p
}

// bounds returns the lower and upper bounds of x_v in o (closed): each a
// form in one other variable or a constant.
func (o Oct) bounds(v int) (lo, hi []Form) {
	n2 := 2 * o.n
	if c := o.m[(2*v)*n2+2*v+1]; c != inf { // −x_v ≤ c/2
		lo = append(lo, Const(-c/2))
	}
	if c := o.m[(2*v+1)*n2+2*v]; c != inf { // x_v ≤ c/2
		hi = append(hi, Const(c/2))
	}
	// A bound in x_j that the unary bounds of x_v and x_j imply is never
	// the only largest (smallest) one: it is left out, so that
	// independent variables do not cut each other's sums into pieces.
	vlo, vHasLo, vhi, vHasHi := o.Interval(v)
	for j := 0; j < o.n; j++ {
		if j == v {
			continue
		}
		jlo, jHasLo, jhi, jHasHi := o.Interval(j)
		for _, s := range []int{1, -1} {
			a := node(j, s) // V_a = s·x_j
			// The least of s·x_j, when bounded.
			least, hasLeast := jlo, jHasLo
			if s < 0 {
				least, hasLeast = -jhi, jHasHi
			}
			if c := o.m[a*n2+2*v+1]; c != inf {
				// −x_v ≤ V_a + c: x_v ≥ −s·x_j − c, implied when
				// x_v ≥ vlo ≥ greatest of −s·x_j − c.
				if !(vHasLo && hasLeast && vlo >= -least-c) {
					lo = append(lo, Var(j, -s, -c))
				}
			}
			if c := o.m[a*n2+2*v]; c != inf {
				// x_v ≤ V_a + c = s·x_j + c, implied when x_v ≤ vhi ≤
				// least of s·x_j + c.
				if !(vHasHi && hasLeast && vhi <= least+c) {
					hi = append(hi, Var(j, s, c))
				}
			}
		}
	}
	return lo, hi
}

// Interval returns x_v's constant bounds in o (closed), ok false for an
// absent side.
func (o Oct) Interval(v int) (lo int64, hasLo bool, hi int64, hasHi bool) {
	n2 := 2 * o.n
	if c := o.m[(2*v)*n2+2*v+1]; c != inf {
		lo, hasLo = -c/2, true
	}
	if c := o.m[(2*v+1)*n2+2*v]; c != inf {
		hi, hasHi = c/2, true
	}
	return
}

// Contains says whether the integer point x lies in o.
func (o Oct) Contains(x []int64) bool {
	n2 := 2 * o.n
	val := func(a int) int64 {
		if a%2 == 0 {
			return x[a/2]
		}
		return -x[a/2]
	}
	for a := 0; a < n2; a++ {
		for b := 0; b < n2; b++ {
			if c := o.m[a*n2+b]; c != inf && val(b)-val(a) > c {
				return false
			}
		}
	}
	return true
}

// maxDiff returns the greatest value of f − g on o (closed), false when
// it is unbounded.
func (o Oct) maxDiff(f, g Form) (int64, bool) {
	c := f.C - g.C
	var m int64
	half := false
	switch {
	case f.V < 0 && g.V < 0, f.V == g.V && f.S == g.S:
		return c, true
	case f.V < 0: // −s_g·x_g ≤ m/2
		m, half = o.at(node(g.V, g.S), node(g.V, -g.S)), true
	case g.V < 0: // s_f·x_f ≤ m/2
		m, half = o.at(node(f.V, -f.S), node(f.V, f.S)), true
	case f.V == g.V: // 2·s_f·x ≤ m
		m = o.at(node(f.V, -f.S), node(f.V, f.S))
	default: // s_f·x_f − s_g·x_g = V_{node(f)} − V_{node(g)} ≤ m
		m = o.at(node(g.V, g.S), node(f.V, f.S))
	}
	if m == inf {
		return 0, false
	}
	if half {
		m /= 2
	}
	return m + c, true
}

// Point returns an integer point of o (closed, with points): each variable
// in turn at its least value, or its greatest, or 0 when it has neither,
// given the ones before — a tightly closed integer octagon always extends
// such a choice.
func (o Oct) Point() []int64 {
	x := make([]int64, o.n)
	p := o
	for v := range x {
		lo, hasLo, hi, hasHi := p.Interval(v)
		switch {
		case hasLo:
			x[v] = lo
		case hasHi:
			x[v] = hi
		}
		q, ok := p.LessEq(Var(v, 1, 0), Const(x[v]))
		if ok {
			q, ok = q.LessEq(Const(x[v]), Var(v, 1, 0))
		}
		if !ok {
			return x // not reached for a closed octagon with points
		}
		p = q
	}
	return x
}

// Constrains says whether some constraint of o (closed) involves x_v.
func (o Oct) Constrains(v int) bool {
	n2 := 2 * o.n
	for _, a := range []int{2 * v, 2*v + 1} {
		for b := 0; b < n2; b++ {
			if a != b && (o.m[a*n2+b] != inf || o.m[b*n2+a] != inf) {
				return true
			}
		}
	}
	return false
}
