package geosum

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/exact"
)

// ErrNotGeometric is returned when a sum is not a geometric series the
// package can close: a term that does not decay along an unbounded
// direction (the weight was not a probability), or a ratio exactly 1
// between two bounds in different variables (the sum would be a
// polynomial in them, not geometric).
var ErrNotGeometric = errors.New("the sum is not geometric")

// Term is Coef·Π Base[i]^{x_i}; a nil Base[i] is 1.
type Term[T any] struct {
	Coef T
	Base []*T
}

// Piece is a weight on the integer points of Region.
type Piece[T any] struct {
	Region Oct
	Terms  []Term[T]
}

// Weight is a finite sum of pieces: a function from integer vectors to
// the field, zero outside the pieces' regions.
type Weight[T any] struct {
	Pieces []Piece[T]
}

// Summer does the arithmetic of sums in the field f, within a limit on
// the terms it holds.
type Summer[T any] struct {
	F   exact.Field[T]
	Ctx context.Context
	// MaxTerms bounds the terms of a weight (0: unlimited).
	MaxTerms int
	// PowBits, when set, estimates the bits of b^k before it is
	// computed, so that no power beyond MaxPowBits is attempted: a base of
	// 1 585 bits (3^1000) to the power 100 000 would take minutes and
	// gigabytes to write down.
	PowBits    func(b T, k int64) int64
	MaxPowBits int64
	// Bits, when set, sizes a number; a weight whose coefficients and
	// bases take more than MaxBits bits in all is refused (LimitError).
	Bits    func(T) int64
	MaxBits int64
	one     T
}

// PowError says a power would exceed the limit on one number.
type PowError struct{ Bits, Max int64 }

func (e *PowError) Error() string {
	return fmt.Sprintf("a power of a noise's α would have about %s bits, more than the limit of %s for one number", thousands(e.Bits), thousands(e.Max))
}

func thousands(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// NewSummer returns a Summer over f.
func NewSummer[T any](ctx context.Context, f exact.Field[T], maxTerms int) *Summer[T] {
	return &Summer[T]{F: f, Ctx: ctx, MaxTerms: maxTerms, one: f.Const(big.NewRat(1, 1))}
}

// LimitError says a weight grew past MaxTerms terms, or MaxBits bits when
// Bits is set.
type LimitError struct {
	Terms, Max int
	Bits       int64 // > 0: the bits exceeded MaxBits (Max is then unused)
	MaxBits    int64
}

func (e *LimitError) Error() string {
	if e.Bits > 0 {
		return fmt.Sprintf("a weight over the unbounded variables holds numbers of %s bits in all, more than the limit of %s", thousands(e.Bits), thousands(e.MaxBits))
	}
	return fmt.Sprintf("a weight over the unbounded variables has %d terms, more than the limit of %d", e.Terms, e.Max)
}

// Point returns the weight c on the single point x.
func (s *Summer[T]) Point(x []int64, c T) Weight[T] {
	o := Universe(len(x))
	for i, v := range x {
		o.unary(i, 1, v)
		o.unary(i, -1, -v)
	}
	o.close()
	return Weight[T]{Pieces: []Piece[T]{{Region: o, Terms: []Term[T]{{Coef: c, Base: make([]*T, len(x))}}}}}
}

// Scale returns w·c.
func (s *Summer[T]) Scale(w Weight[T], c T) (Weight[T], error) {
	var out Weight[T]
	for _, p := range w.Pieces {
		q := Piece[T]{Region: p.Region}
		for _, t := range p.Terms {
			k, err := s.F.Mul(t.Coef, c)
			if err != nil {
				return out, err
			}
			if !s.F.IsZero(k) {
				q.Terms = append(q.Terms, Term[T]{Coef: k, Base: t.Base})
			}
		}
		if len(q.Terms) > 0 {
			out.Pieces = append(out.Pieces, q)
		}
	}
	return out, nil
}

// Add returns w + v.
func Add[T any](w, v Weight[T]) Weight[T] {
	return Weight[T]{Pieces: append(append([]Piece[T](nil), w.Pieces...), v.Pieces...)}
}

// Restrict returns w restricted to f ≤ g.
func (s *Summer[T]) Restrict(w Weight[T], f, g Form) Weight[T] {
	var out Weight[T]
	for _, p := range w.Pieces {
		if o, ok := p.Region.LessEq(f, g); ok {
			out.Pieces = append(out.Pieces, Piece[T]{Region: o, Terms: p.Terms})
		}
	}
	return out
}

// pow returns b^k for an integer k.
func (s *Summer[T]) pow(b *T, k int64) (T, error) {
	if b == nil || k == 0 {
		return s.one, nil
	}
	if k > MaxConst || -k > MaxConst {
		return s.one, fmt.Errorf("a power %d is beyond %d", k, int64(MaxConst))
	}
	x := *b
	if s.PowBits != nil {
		if bits := s.PowBits(x, k); bits > s.MaxPowBits {
			return s.one, &PowError{Bits: bits, Max: s.MaxPowBits}
		}
	}
	if k < 0 {
		var err error
		if x, err = s.F.Quo(s.one, x); err != nil {
			return x, err
		}
		k = -k
	}
	r := s.one
	for k > 0 {
		var err error
		if k&1 == 1 {
			if r, err = s.F.Mul(r, x); err != nil {
				return r, err
			}
		}
		if k >>= 1; k > 0 {
			if x, err = s.F.Mul(x, x); err != nil {
				return r, err
			}
		}
	}
	return r, nil
}

// mulBase returns base·b^s (nil for 1).
func (s *Summer[T]) mulBase(base *T, b *T, sign int) (*T, error) {
	if b == nil {
		return base, nil
	}
	f, err := s.pow(b, int64(sign))
	if err != nil {
		return nil, err
	}
	if base != nil {
		if f, err = s.F.Mul(*base, f); err != nil {
			return nil, err
		}
	}
	if s.F.Equal(f, s.one) {
		return nil, nil
	}
	return &f, nil
}

// power multiplies t by b^f (b^(S·x_V + C)): its coefficient by b^C and
// its base of x_V by b^S.
func (s *Summer[T]) power(t Term[T], b *T, f Form) (Term[T], error) {
	c, err := s.pow(b, f.C)
	if err != nil {
		return t, err
	}
	if c, err = s.F.Mul(t.Coef, c); err != nil {
		return t, err
	}
	out := Term[T]{Coef: c, Base: append([]*T(nil), t.Base...)}
	if f.V >= 0 {
		if out.Base[f.V], err = s.mulBase(out.Base[f.V], b, f.S); err != nil {
			return t, err
		}
	}
	return out, nil
}

// SumOut returns the weight of the other variables: w summed over every
// value of x_v. The result does not constrain x_v and its terms do not
// depend on it. A piece that neither constrains x_v nor depends on it is
// kept as it is: x_v is free there, already summed out.
func (s *Summer[T]) SumOut(w Weight[T], v int) (Weight[T], error) {
	var out Weight[T]
	for _, p := range w.Pieces {
		if err := s.Ctx.Err(); err != nil {
			return out, err
		}
		los, his := p.Region.bounds(v)
		if len(los) == 0 && len(his) == 0 && constantIn(p.Terms, v) {
			// x_v is free: the weight does not depend on it (it was summed
			// out before), so there is nothing to sum.
			out.Pieces = append(out.Pieces, p)
			continue
		}
		rest := p.Region.Forget(v)
		for a := -1; a < len(los); a++ {
			if a < 0 && len(los) > 0 {
				continue
			}
			ra := rest
			ok := true
			if a >= 0 {
				ra, ok = largest(rest, los, a, false)
			}
			if !ok {
				continue
			}
			for b := -1; b < len(his); b++ {
				if b < 0 && len(his) > 0 {
					continue
				}
				rb := ra
				if b >= 0 {
					if rb, ok = largest(ra, his, b, true); !ok {
						continue
					}
				}
				subs, err := s.counted(rb, p.Terms, v, los, his, a, b)
				if err != nil {
					return out, err
				}
				for _, sub := range subs {
					q := Piece[T]{Region: sub.o}
					for _, t := range p.Terms {
						ts, err := s.sum(t, v, los, his, a, b, sub.n)
						if err != nil {
							return out, err
						}
						q.Terms = append(q.Terms, ts...)
					}
					out.Pieces = append(out.Pieces, q)
				}
			}
		}
	}
	return s.tidy(out)
}

// MaxSplit bounds the pieces a region is cut into so that the number of
// values of a variable is constant on each.
const MaxSplit = 100_000

type region struct {
	o Oct
	n int64 // the values of the summed variable, −1 if not constant
}

// counted returns o, or, when a term of ts is constant in x_v, o cut into
// regions where the number of values of x_v between lo = los[a] and
// hi = his[b] is constant: by the value d of hi − lo, from its least to
// its greatest on o. A term constant in x_v on a region where hi − lo is
// unbounded is not a geometric sum (ErrNotGeometric).
func (s *Summer[T]) counted(o Oct, ts []Term[T], v int, los, his []Form, a, b int) ([]region, error) {
	constant := false
	for _, t := range ts {
		constant = constant || t.Base[v] == nil
	}
	if !constant || a < 0 || b < 0 {
		return []region{{o, -1}}, nil
	}
	lo, hi := los[a], his[b]
	if (lo.V < 0 && hi.V < 0) || (lo.V == hi.V && lo.S == hi.S) {
		return []region{{o, hi.C - lo.C + 1}}, nil
	}
	dmax, ok := o.maxDiff(hi, lo)
	if !ok {
		return nil, fmt.Errorf("%w: a term is constant in a variable whose range grows without bound", ErrNotGeometric)
	}
	dmin, _ := o.maxDiff(lo, hi)
	dmin = -dmin
	if dmin < 0 {
		dmin = 0
	}
	if dmax-dmin >= MaxSplit {
		return nil, fmt.Errorf("a region would be cut into %d pieces, more than the limit of %d", dmax-dmin+1, MaxSplit)
	}
	var out []region
	for d := dmin; d <= dmax; d++ {
		l := lo
		l.C += d
		p, ok := o.LessEq(hi, l)
		if ok {
			p, ok = p.LessEq(l, hi)
		}
		if ok {
			out = append(out, region{p, d + 1})
		}
	}
	return out, nil
}

func constantIn[T any](ts []Term[T], v int) bool {
	for _, t := range ts {
		if t.Base[v] != nil {
			return false
		}
	}
	return true
}

// largest returns o restricted to where fs[a] is the largest of fs (the
// smallest when smallest), ties going to the first.
func largest(o Oct, fs []Form, a int, smallest bool) (Oct, bool) {
	ok := true
	for b := range fs {
		if b == a {
			continue
		}
		// fs[b] ≤ fs[a] (or fs[b] ≤ fs[a] − 1 before a: strict).
		f, g := fs[b], fs[a]
		if b < a {
			g.C--
		}
		if smallest {
			// fs[a] ≤ fs[b] (strict before a).
			f, g = fs[a], fs[b]
			if b < a {
				g.C--
			}
		}
		if o, ok = o.LessEq(f, g); !ok {
			return o, false
		}
	}
	return o, ok
}

// sum returns Σ_{x_v = lo}^{hi} t for lo = los[a], hi = his[b] (a or b
// −1: unbounded on that side).
//
// A term constant in x_v contributes n times itself: n is the number of
// values of x_v, constant on the region (counted finds it), or −1.
func (s *Summer[T]) sum(t Term[T], v int, los, his []Form, a, b int, n int64) ([]Term[T], error) {
	r := t.Base[v]
	base := append([]*T(nil), t.Base...)
	base[v] = nil
	t = Term[T]{Coef: t.Coef, Base: base}
	if r == nil {
		if a < 0 || b < 0 {
			return nil, fmt.Errorf("%w: a term does not decay as a variable grows without bound", ErrNotGeometric)
		}
		if n < 0 {
			return nil, fmt.Errorf("%w: a term is constant between bounds in two variables", ErrNotGeometric)
		}
		c, err := s.F.Mul(t.Coef, s.F.Const(big.NewRat(n, 1)))
		if err != nil {
			return nil, err
		}
		return []Term[T]{{Coef: c, Base: base}}, nil
	}
	// 1 − r, and whether r < 1.
	d, err := s.F.Sub(s.one, *r)
	if err != nil {
		return nil, err
	}
	below, _, err := s.F.Positive(d)
	if err != nil {
		return nil, err
	}
	if (b < 0 && !below) || (a < 0 && below) {
		return nil, fmt.Errorf("%w: a term does not decay as a variable grows without bound", ErrNotGeometric)
	}
	var out []Term[T]
	if a >= 0 { // + r^lo/(1−r)
		u, err := s.power(t, r, los[a])
		if err != nil {
			return nil, err
		}
		if u.Coef, err = s.F.Quo(u.Coef, d); err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	if b >= 0 { // − r^(hi+1)/(1−r)
		hi := his[b]
		hi.C++
		u, err := s.power(t, r, hi)
		if err != nil {
			return nil, err
		}
		if u.Coef, err = s.F.Quo(u.Coef, d); err != nil {
			return nil, err
		}
		if u.Coef, err = s.F.Sub(s.F.Const(new(big.Rat)), u.Coef); err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, nil
}

// tidy merges pieces on equal regions and terms with equal bases, drops
// zero terms and empty pieces, and enforces MaxTerms.
func (s *Summer[T]) tidy(w Weight[T]) (Weight[T], error) {
	var out Weight[T]
	n := 0
	at := make(map[string]int, len(w.Pieces)) // a region's piece, by its constraints
	for _, p := range w.Pieces {
		k := p.Region.key()
		i, ok := at[k]
		if !ok {
			out.Pieces = append(out.Pieces, Piece[T]{Region: p.Region})
			i = len(out.Pieces) - 1
			at[k] = i
		}
		q := &out.Pieces[i]
	terms:
		for _, t := range p.Terms {
			for k := range q.Terms {
				if s.sameBase(q.Terms[k].Base, t.Base) {
					c, err := s.F.Add(q.Terms[k].Coef, t.Coef)
					if err != nil {
						return out, err
					}
					q.Terms[k].Coef = c
					continue terms
				}
			}
			q.Terms = append(q.Terms, t)
		}
	}
	kept := out.Pieces[:0]
	for _, p := range out.Pieces {
		ts := p.Terms[:0]
		for _, t := range p.Terms {
			if !s.F.IsZero(t.Coef) {
				ts = append(ts, t)
			}
		}
		if len(ts) > 0 {
			p.Terms = ts
			kept = append(kept, p)
			n += len(ts)
		}
	}
	out.Pieces = kept
	if s.MaxTerms > 0 && n > s.MaxTerms {
		return out, &LimitError{Terms: n, Max: s.MaxTerms}
	}
	if s.Bits != nil {
		var bits int64
		for _, p := range out.Pieces {
			for _, t := range p.Terms {
				bits += s.Bits(t.Coef)
				for _, b := range t.Base {
					if b != nil {
						bits += s.Bits(*b)
					}
				}
			}
		}
		if bits > s.MaxBits {
			return out, &LimitError{Bits: bits, MaxBits: s.MaxBits}
		}
	}
	return out, nil
}

func (s *Summer[T]) sameBase(a, b []*T) bool {
	for i := range a {
		switch {
		case a[i] == nil && b[i] == nil:
		case a[i] == nil || b[i] == nil:
			return false
		case !s.F.Equal(*a[i], *b[i]):
			return false
		}
	}
	return true
}

// Tidy merges w's pieces on equal regions and its terms with equal bases.
func (s *Summer[T]) Tidy(w Weight[T]) (Weight[T], error) { return s.tidy(w) }

// Shift returns the weight after x_v := sign·x_v + c: w'(x') = w(x)
// where x'_v = sign·x_v + c.
func (s *Summer[T]) Shift(w Weight[T], v, sign int, c int64) (Weight[T], error) {
	var out Weight[T]
	for _, p := range w.Pieces {
		q := Piece[T]{Region: p.Region.Shift(v, sign, c)}
		for _, t := range p.Terms {
			// b^{x_v} with x_v = sign·(x'_v − c) = b^{−sign·c}·(b^sign)^{x'_v}.
			u := Term[T]{Coef: t.Coef, Base: append([]*T(nil), t.Base...)}
			u.Base[v] = nil
			u, err := s.power(u, t.Base[v], Var(v, sign, -int64(sign)*c))
			if err != nil {
				return out, err
			}
			q.Terms = append(q.Terms, u)
		}
		out.Pieces = append(out.Pieces, q)
	}
	return out, nil
}

// Set returns the weight after x_v := f (f a constant or a form in
// another variable): w summed over x_v, then x_v tied to f.
func (s *Summer[T]) Set(w Weight[T], v int, f Form) (Weight[T], error) {
	w, err := s.SumOut(w, v)
	if err != nil {
		return w, err
	}
	w = s.Restrict(w, Var(v, 1, 0), f)
	return s.Restrict(w, f, Var(v, 1, 0)), nil
}

// Geometric returns the weight after x_v is drawn as centre + Z: w summed
// over x_v, times Pr[Z = x_v − centre] for two-sided geometric noise
// (Pr[Z = z] = (1−α)/(1+α)·α^|z|) or, when oneSided, (1−α)·α^z on z ≥ 0.
func (s *Summer[T]) Geometric(w Weight[T], v int, alpha T, centre int64, oneSided bool) (Weight[T], error) {
	return s.GeometricAround(w, v, alpha, Const(centre), oneSided)
}

// GeometricAround is Geometric around the centre c, a constant or the
// form ±x_u + k of another variable (u ≠ v): the draw's weight
// α^|x_v − c| cuts the pieces along x_v − c = 0, an octagonal line.
func (s *Summer[T]) GeometricAround(w Weight[T], v int, alpha T, c Form, oneSided bool) (Weight[T], error) {
	if c.V == v {
		return w, fmt.Errorf("geosum: a draw of x_%d around itself", v)
	}
	w, err := s.SumOut(w, v)
	if err != nil {
		return w, err
	}
	oma, err := s.F.Sub(s.one, alpha)
	if err != nil {
		return w, err
	}
	k := oma
	if !oneSided {
		opa, err := s.F.Add(s.one, alpha)
		if err != nil {
			return w, err
		}
		if k, err = s.F.Quo(oma, opa); err != nil {
			return w, err
		}
	}
	inv, err := s.F.Quo(s.one, alpha)
	if err != nil {
		return w, err
	}
	var out Weight[T]
	// x_v ≥ c: K·α^{x_v−c}; x_v < c: K·(1/α)^{x_v−c}, c = S·x_u + C.
	below := c
	below.C--
	sides := []struct {
		b *T
		f Form
		g Form
	}{{&alpha, c, Var(v, 1, 0)}, {&inv, Var(v, 1, 0), below}}
	if oneSided {
		sides = sides[:1]
	}
	for _, side := range sides {
		part := s.Restrict(w, side.f, side.g)
		for i := range part.Pieces {
			p := &part.Pieces[i]
			ts := make([]Term[T], len(p.Terms))
			for j, t := range p.Terms {
				u := Term[T]{Coef: t.Coef, Base: append([]*T(nil), t.Base...)}
				if u.Coef, err = s.F.Mul(u.Coef, k); err != nil {
					return out, err
				}
				if ts[j], err = s.power(u, side.b, Var(v, 1, -c.C)); err != nil {
					return out, err
				}
				if c.V >= 0 {
					if ts[j], err = s.power(ts[j], side.b, Var(c.V, -c.S, 0)); err != nil {
						return out, err
					}
				}
			}
			p.Terms = ts
		}
		out = Add(out, part)
	}
	return s.tidy(out)
}

// SumOutAll sums every variable of vs out of w, in an order that keeps
// each sum geometric: a variable drawn around another, x_1 around x_0
// say, cancels x_0's factor on some piece, so x_0 summed first would sum a
// constant between x_1 and a bound (a polynomial, ErrNotGeometric), where
// x_1 summed first leaves a constant. A variable whose sum is not
// geometric is tried again after the others; the error stands only when
// none of those left can be summed.
func (s *Summer[T]) SumOutAll(w Weight[T], vs []int) (Weight[T], error) {
	pending := vs
	for len(pending) > 0 {
		var stuck []int
		var notGeometric error
		for _, v := range pending {
			nw, err := s.SumOut(w, v)
			switch {
			case errors.Is(err, ErrNotGeometric):
				stuck, notGeometric = append(stuck, v), err
			case err != nil:
				return w, err
			default:
				w = nw
			}
		}
		if len(stuck) == len(pending) {
			return w, notGeometric
		}
		pending = stuck
	}
	return w, nil
}

// Total returns the sum of w over every integer vector.
func (s *Summer[T]) Total(w Weight[T]) (T, error) {
	zero := s.F.Const(new(big.Rat))
	n := 0
	if len(w.Pieces) > 0 {
		n = w.Pieces[0].Region.n
	}
	all := make([]int, n)
	for v := range all {
		all[v] = v
	}
	w, err := s.SumOutAll(w, all)
	if err != nil {
		return zero, err
	}
	sum := zero
	for _, p := range w.Pieces {
		for _, t := range p.Terms {
			if sum, err = s.F.Add(sum, t.Coef); err != nil {
				return zero, err
			}
		}
	}
	return sum, nil
}

// Eval returns w at the integer point x.
func (s *Summer[T]) Eval(w Weight[T], x []int64) (T, error) {
	sum := s.F.Const(new(big.Rat))
	for _, p := range w.Pieces {
		if !p.Region.Contains(x) {
			continue
		}
		for _, t := range p.Terms {
			c := t.Coef
			for i, b := range t.Base {
				f, err := s.pow(b, x[i])
				if err != nil {
					return sum, err
				}
				if c, err = s.F.Mul(c, f); err != nil {
					return sum, err
				}
			}
			var err error
			if sum, err = s.F.Add(sum, c); err != nil {
				return sum, err
			}
		}
	}
	return sum, nil
}
