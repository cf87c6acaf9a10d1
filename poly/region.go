package poly

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
)

// Rel is a comparison of a function with 0.
type Rel int

// The relations of Where.
const (
	GT Rel = iota // f > 0
	GE            // f ≥ 0
	EQ            // f = 0
	NE            // f ≠ 0
	LT            // f < 0
	LE            // f ≤ 0
)

// String returns the relation's symbol: ">", "≥", "=", "≠", "<" or "≤".
func (r Rel) String() string { return [...]string{">", "≥", "=", "≠", "<", "≤"}[r] }

func (r Rel) holds(sign int) bool {
	switch r {
	case GT:
		return sign > 0
	case GE:
		return sign >= 0
	case EQ:
		return sign == 0
	case NE:
		return sign != 0
	case LT:
		return sign < 0
	}
	return sign <= 0
}

// Part is one maximal interval of a Region: from Lo to Hi, each end open or
// closed; Lo = Hi (both closed) for an isolated point.
type Part struct {
	Lo, Hi         Algebraic
	LoOpen, HiOpen bool
	point          bool
}

// IsPoint reports whether the part is a single point.
func (p Part) IsPoint() bool { return p.point }

// Region is a subset of a domain Interval: a union of disjoint, non-adjacent
// parts (intervals with algebraic ends), ascending. Values are immutable.
type Region struct {
	dom   Interval
	parts []Part
}

// Domain returns the interval the region is a subset of.
func (r Region) Domain() Interval { return r.dom }

// Parts returns the maximal intervals of the region, ascending.
func (r Region) Parts() []Part { return append([]Part(nil), r.parts...) }

// IsEmpty reports whether the region is empty.
func (r Region) IsEmpty() bool { return len(r.parts) == 0 }

// cell is a piece of a decomposition of a domain: a point, or the open gap
// between two consecutive points.
type cell struct {
	point  bool
	lo, hi Algebraic // lo = hi for a point
	at     Algebraic // the point
	sign   int
	pole   bool
}

// cells decomposes in at the roots of num·den (den zero means 1) and gives
// the sign of num/den on every cell (pole where den vanishes).
func (l Limits) cells(ctx context.Context, op string, num, den Poly, in Interval) ([]cell, error) {
	if den.IsZero() {
		den = FromInts(1)
	}
	signAt := func(x Algebraic) (int, bool, error) {
		sd, err := x.SignOf(ctx, den)
		if err != nil || sd == 0 {
			return 0, sd == 0, err
		}
		sn, err := x.SignOf(ctx, num)
		return sn * sd, false, err
	}
	lo, hi := ratAlg(in.Lo, l), ratAlg(in.Hi, l)
	if in.Lo.Cmp(in.Hi) == 0 {
		s, pole, err := signAt(lo)
		return []cell{{point: true, lo: lo, hi: lo, at: lo, sign: s, pole: pole}}, err
	}
	prod := num.Mul(den)
	var roots []Algebraic
	if !prod.IsZero() {
		s, err := l.prepare(ctx, op, prod)
		if err != nil {
			return nil, err
		}
		roots, err = l.rootsSeq(ctx, s, Open(in.Lo, in.Hi))
		if err != nil {
			return nil, err
		}
	}
	pts := append(append([]Algebraic{lo}, roots...), hi)
	var out []cell
	for i, e := range pts {
		if i > 0 {
			m, err := between(ctx, pts[i-1], e)
			if err != nil {
				return nil, err
			}
			c := cell{lo: pts[i-1], hi: e, sign: num.Eval(m).Sign() * den.Eval(m).Sign()}
			out = append(out, c)
		}
		if i == 0 && in.LoOpen || i == len(pts)-1 && in.HiOpen {
			continue
		}
		s, pole, err := signAt(e)
		if err != nil {
			return nil, err
		}
		out = append(out, cell{point: true, lo: e, hi: e, at: e, sign: s, pole: pole})
	}
	return out, nil
}

// between returns a simple rational strictly between a < b.
func between(ctx context.Context, a, b Algebraic) (*big.Rat, error) {
	for {
		// A rational end is excluded; an end of an isolating interval is
		// not the root, so it may be taken.
		lb, lIncl := a.Rat(), false
		if !a.IsRational() {
			lb, lIncl = a.hi, true
		}
		rb, rIncl := b.Rat(), false
		if !b.IsRational() {
			rb, rIncl = b.lo, true
		}
		c := lb.Cmp(rb)
		if c < 0 || c == 0 && lIncl && rIncl {
			return Simplest(Interval{Lo: lb, Hi: rb, LoOpen: !lIncl, HiOpen: !rIncl}), nil
		}
		if err := cancelled(ctx, "between"); err != nil {
			return nil, err
		}
		a, b = a.refine1(), b.refine1()
	}
}

// assemble merges runs of included cells into parts.
func assemble(dom Interval, cs []cell, in []bool) Region {
	r := Region{dom: dom}
	for i := 0; i < len(cs); {
		if !in[i] {
			i++
			continue
		}
		j := i
		for j+1 < len(cs) && in[j+1] {
			j++
		}
		r.parts = append(r.parts, Part{Lo: cs[i].lo, Hi: cs[j].hi, LoOpen: !cs[i].point, HiOpen: !cs[j].point, point: i == j && cs[i].point})
		i = j + 1
	}
	return r
}

// Where returns the region {α ∈ in : p(α) rel 0}. It isolates the roots of p
// in the interval (Roots), and decides p's sign on each gap between them by
// its exact value at one rational point. A zero p satisfies EQ, GE and LE
// everywhere.
func (l Limits) Where(ctx context.Context, p Poly, rel Rel, in Interval) (Region, error) {
	return l.WhereRat(ctx, FromPoly(p), rel, in)
}

// WhereRat returns the region {α ∈ in : f(α) rel 0} for a rational function
// f = P/Q in canonical form: its sign is sign(P)·sign(Q). The poles of f
// (roots of Q) are excluded from the region whatever the relation, since f
// is undefined there; so the region of NE is not the complement of that of
// EQ when f has a pole in the interval.
func (l Limits) WhereRat(ctx context.Context, f RatFunc, rel Rel, in Interval) (Region, error) {
	if err := in.Validate(); err != nil {
		return Region{}, err
	}
	if f.Num().IsZero() {
		if rel.holds(0) {
			return Whole(in), nil
		}
		return Region{dom: in}, nil
	}
	cs, err := l.cells(ctx, "Where", f.Num(), f.Den(), in)
	if err != nil {
		return Region{}, err
	}
	inc := make([]bool, len(cs))
	for i, c := range cs {
		inc[i] = !c.pole && rel.holds(c.sign)
	}
	return assemble(in, cs, inc), nil
}

// Whole returns the region made of all of in (which must be valid).
func Whole(in Interval) Region {
	lo, hi := Rational(in.Lo), Rational(in.Hi)
	return Region{dom: in, parts: []Part{{Lo: lo, Hi: hi, LoOpen: in.LoOpen, HiOpen: in.HiOpen, point: in.Lo.Cmp(in.Hi) == 0}}}
}

// ErrDomain is returned when combining regions of different domains.
var ErrDomain = errors.New("poly: regions of different domains")

// Intersect returns a ∩ b; both must have the same domain.
func (l Limits) Intersect(ctx context.Context, a, b Region) (Region, error) {
	return l.combine(ctx, a, b, func(x, y bool) bool { return x && y })
}

// Union returns a ∪ b; both must have the same domain.
func (l Limits) Union(ctx context.Context, a, b Region) (Region, error) {
	return l.combine(ctx, a, b, func(x, y bool) bool { return x || y })
}

// Complement returns the points of a's domain outside a.
func (l Limits) Complement(ctx context.Context, a Region) (Region, error) {
	return l.combine(ctx, a, a, func(x, _ bool) bool { return !x })
}

func sameInterval(a, b Interval) bool {
	return a.Lo.Cmp(b.Lo) == 0 && a.Hi.Cmp(b.Hi) == 0 && a.LoOpen == b.LoOpen && a.HiOpen == b.HiOpen
}

// ends returns the domain's ends and the ends of the parts, ascending with
// repetitions.
func (r Region) ends() []Algebraic {
	e := []Algebraic{Rational(r.dom.Lo)}
	for _, p := range r.parts {
		e = append(e, p.Lo, p.Hi)
	}
	return append(e, Rational(r.dom.Hi))
}

func (l Limits) combine(ctx context.Context, a, b Region, f func(x, y bool) bool) (Region, error) {
	if !sameInterval(a.dom, b.dom) {
		return Region{}, fmt.Errorf("%w: %s and %s", ErrDomain, a.dom, b.dom)
	}
	// Merge the ends, ascending and distinct.
	var pts []Algebraic
	add := func(x Algebraic) error {
		if len(pts) > 0 {
			c, err := pts[len(pts)-1].Cmp(ctx, x)
			if err != nil {
				return err
			}
			if c == 0 {
				return nil
			}
		}
		pts = append(pts, x)
		return nil
	}
	ea, eb := a.ends(), b.ends()
	for i, j := 0, 0; i < len(ea) || j < len(eb); {
		take := 0
		if i < len(ea) && j < len(eb) {
			c, err := ea[i].Cmp(ctx, eb[j])
			if err != nil {
				return Region{}, err
			}
			if c > 0 {
				take = 1
			}
		} else if j < len(eb) {
			take = 1
		}
		var err error
		if take == 0 {
			err = add(ea[i])
			i++
		} else {
			err = add(eb[j])
			j++
		}
		if err != nil {
			return Region{}, err
		}
	}
	var cs []cell
	for i, e := range pts {
		if i > 0 {
			cs = append(cs, cell{lo: pts[i-1], hi: e})
		}
		if i == 0 && a.dom.LoOpen || i == len(pts)-1 && a.dom.HiOpen {
			continue
		}
		cs = append(cs, cell{point: true, lo: e, hi: e, at: e})
	}
	inc := make([]bool, len(cs))
	for i, c := range cs {
		x, err := a.holds(ctx, c)
		if err != nil {
			return Region{}, err
		}
		y, err := b.holds(ctx, c)
		if err != nil {
			return Region{}, err
		}
		inc[i] = f(x, y)
	}
	return assemble(a.dom, cs, inc), nil
}

// holds reports whether the cell (a point, or a gap holding no end of r)
// lies in r.
func (r Region) holds(ctx context.Context, c cell) (bool, error) {
	for _, p := range r.parts {
		cl, err := p.Lo.Cmp(ctx, c.lo)
		if err != nil {
			return false, err
		}
		ch, err := p.Hi.Cmp(ctx, c.hi)
		if err != nil {
			return false, err
		}
		if c.point {
			if (cl < 0 || cl == 0 && !p.LoOpen) && (ch > 0 || ch == 0 && !p.HiOpen) {
				return true, nil
			}
		} else if cl <= 0 && ch >= 0 {
			return true, nil
		}
	}
	return false, nil
}

// Contains reports whether x lies in r.
func (r Region) Contains(ctx context.Context, x Algebraic) (bool, error) {
	return r.holds(ctx, cell{point: true, lo: x, hi: x, at: x})
}

// Witness returns a point of r's domain outside r, and false when r is the
// whole domain. The point is rational whenever the complement holds a
// rational (it fails to only when it is made of irrational points), and
// then it is the simplest such rational (smallest denominator, then
// smallest absolute numerator) — the exact "violated at α = 1/3" witness.
func (l Limits) Witness(ctx context.Context, r Region) (Algebraic, bool, error) {
	comp, err := l.Complement(ctx, r)
	if err != nil {
		return Algebraic{}, false, err
	}
	var best *big.Rat
	var irr []Algebraic
	for _, p := range comp.parts {
		if p.point {
			if p.Lo.IsRational() {
				best = simpler(best, p.Lo.Rat())
			} else {
				irr = append(irr, p.Lo)
			}
			continue
		}
		q, err := simplestIn(ctx, p)
		if err != nil {
			return Algebraic{}, false, err
		}
		best = simpler(best, q)
	}
	switch {
	case best != nil:
		return ratAlg(best, l), true, nil
	case len(irr) > 0:
		return irr[0], true, nil
	}
	return Algebraic{}, false, nil
}

func simpler(a, b *big.Rat) *big.Rat {
	if a == nil {
		return b
	}
	if c := a.Denom().Cmp(b.Denom()); c != 0 {
		if c < 0 {
			return a
		}
		return b
	}
	if new(big.Int).Abs(b.Num()).Cmp(new(big.Int).Abs(a.Num())) < 0 {
		return b
	}
	return a
}

// simplestIn returns the simplest rational in a part with nonempty interior.
// The simplest rational of a wider interval with rational ends that is also
// in the part is the part's simplest; the algebraic ends are refined until
// that happens.
func simplestIn(ctx context.Context, p Part) (*big.Rat, error) {
	lo, hi := p.Lo, p.Hi
	for {
		in := Interval{LoOpen: true, HiOpen: true}
		if lo.IsRational() {
			in.Lo, in.LoOpen = lo.Rat(), p.LoOpen
		} else {
			in.Lo = lo.lo
		}
		if hi.IsRational() {
			in.Hi, in.HiOpen = hi.Rat(), p.HiOpen
		} else {
			in.Hi = hi.hi
		}
		q := Simplest(in)
		cl, ch := lo.CmpRat(q), hi.CmpRat(q)
		if (cl < 0 || cl == 0 && !p.LoOpen) && (ch > 0 || ch == 0 && !p.HiOpen) {
			return q, nil
		}
		if err := cancelled(ctx, "Witness"); err != nil {
			return nil, err
		}
		lo, hi = lo.refine1(), hi.refine1()
	}
}

// Simplest returns the simplest rational number in the (valid) interval:
// the one with the smallest denominator, and among those the smallest
// absolute value. It follows the continued fraction expansion of the ends
// (a walk down the Stern–Brocot tree): the smallest integer in the interval
// if there is one, otherwise ⌊lo⌋ + 1/y with y the simplest rational in the
// reciprocal interval.
func Simplest(in Interval) *big.Rat {
	return simplest(in.Lo, in.Hi, in.LoOpen, in.HiOpen)
}

// simplest: hi == nil means +∞ (open).
func simplest(lo, hi *big.Rat, loOpen, hiOpen bool) *big.Rat {
	zeroIn := (lo.Sign() < 0 || lo.Sign() == 0 && !loOpen) && (hi == nil || hi.Sign() > 0 || hi.Sign() == 0 && !hiOpen)
	if zeroIn {
		return new(big.Rat)
	}
	if hi != nil && hi.Sign() <= 0 {
		r := simplest(new(big.Rat).Neg(hi), new(big.Rat).Neg(lo), hiOpen, loOpen)
		return r.Neg(r)
	}
	fl := floor(lo)
	if lo.IsInt() && !loOpen {
		return new(big.Rat).Set(lo)
	}
	n := new(big.Rat).SetInt(new(big.Int).Add(fl, big.NewInt(1)))
	if hi == nil || n.Cmp(hi) < 0 || n.Cmp(hi) == 0 && !hiOpen {
		return n
	}
	f := new(big.Rat).SetInt(fl)
	nlo := new(big.Rat).Sub(hi, f)
	nlo.Inv(nlo)
	var nhi *big.Rat
	if lo.Cmp(f) != 0 {
		nhi = new(big.Rat).Sub(lo, f)
		nhi.Inv(nhi)
	}
	y := simplest(nlo, nhi, hiOpen, loOpen)
	return y.Add(f, y.Inv(y))
}

func floor(r *big.Rat) *big.Int {
	q := new(big.Int)
	m := new(big.Int)
	q.DivMod(r.Num(), r.Denom(), m) // Euclidean: m ≥ 0, so q = ⌊r⌋ for d > 0
	return q
}

// String formats the region exactly, as "[0, the root of α^2 + 2·α − 1 in
// (0, 1/2)) ∪ {1}"; "∅" when empty.
func (r Region) String() string { return r.Format("α") }

// Format formats the region exactly, with the variable named v in the
// defining polynomials of irrational ends.
func (r Region) Format(v string) string {
	s, _ := r.format(func(x Algebraic) (string, error) { return x.Format(v), nil })
	return s
}

// Decimal formats the region with its ends rounded to digits decimals, as
// "[0, 0.41421) ∪ {1}"; rational ends print exactly rounded too.
func (r Region) Decimal(ctx context.Context, digits int) (string, error) {
	return r.format(func(x Algebraic) (string, error) { return x.Decimal(ctx, digits) })
}

func (r Region) format(f func(Algebraic) (string, error)) (string, error) {
	if len(r.parts) == 0 {
		return "∅", nil
	}
	var b []string
	for _, p := range r.parts {
		lo, err := f(p.Lo)
		if err != nil {
			return "", err
		}
		if p.point {
			b = append(b, "{"+lo+"}")
			continue
		}
		hi, err := f(p.Hi)
		if err != nil {
			return "", err
		}
		l, rr := "[", "]"
		if p.LoOpen {
			l = "("
		}
		if p.HiOpen {
			rr = ")"
		}
		b = append(b, l+lo+", "+hi+rr)
	}
	return strings.Join(b, " ∪ "), nil
}
