package poly

import (
	"context"
	"errors"
	"fmt"
	"math/big"
)

// Interval is an interval of the real line with rational ends, each open or
// closed. Lo < Hi, or Lo = Hi with both ends closed (a single point).
type Interval struct {
	Lo, Hi         *big.Rat
	LoOpen, HiOpen bool
}

// Closed returns [lo, hi].
func Closed(lo, hi *big.Rat) Interval { return Interval{Lo: lo, Hi: hi} }

// Open returns (lo, hi).
func Open(lo, hi *big.Rat) Interval { return Interval{Lo: lo, Hi: hi, LoOpen: true, HiOpen: true} }

// ErrInterval is returned for an interval that is not well formed.
var ErrInterval = errors.New("poly: invalid interval")

// Validate returns an error wrapping ErrInterval unless the interval is well
// formed and nonempty.
func (in Interval) Validate() error {
	if in.Lo == nil || in.Hi == nil {
		return fmt.Errorf("%w: a missing end (intervals are bounded)", ErrInterval)
	}
	switch c := in.Lo.Cmp(in.Hi); {
	case c > 0:
		return fmt.Errorf("%w: %s > %s", ErrInterval, in.Lo.RatString(), in.Hi.RatString())
	case c == 0 && (in.LoOpen || in.HiOpen):
		return fmt.Errorf("%w: %s is empty", ErrInterval, in)
	}
	return nil
}

// Contains reports whether r lies in the interval.
func (in Interval) Contains(r *big.Rat) bool {
	c := r.Cmp(in.Lo)
	if c < 0 || c == 0 && in.LoOpen {
		return false
	}
	c = r.Cmp(in.Hi)
	return !(c > 0 || c == 0 && in.HiOpen)
}

// String formats the interval as "[0, 1/2)".
func (in Interval) String() string {
	l, r := "[", "]"
	if in.LoOpen {
		l = "("
	}
	if in.HiOpen {
		r = ")"
	}
	return l + ratStr(in.Lo) + ", " + ratStr(in.Hi) + r
}

func ratStr(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	return r.RatString()
}

// sturmSeq is the Sturm sequence of a square-free integer polynomial, each
// member a positive multiple of the classical one (so the sign variations
// are the same) with coprime integer coefficients.
type sturmSeq []zpoly

func (l Limits) sturmZ(ctx context.Context, op string, p zpoly) (sturmSeq, error) {
	seq := sturmSeq{p}
	if len(p) <= 1 {
		return seq, nil
	}
	seq = append(seq, primZ(derivZ(p)))
	for {
		if err := cancelled(ctx, op); err != nil {
			return nil, err
		}
		a, b := seq[len(seq)-2], seq[len(seq)-1]
		if len(b) <= 1 {
			return seq, nil
		}
		r, k := premZ(a, b)
		if len(r) == 0 {
			return seq, nil // p was not square-free; the last member is the gcd
		}
		// next = −rem(a, b) = −r / lc(b)^k: a positive multiple of −r·sign(lc b)^k.
		neg := true
		if b[len(b)-1].Sign() < 0 && k%2 == 1 {
			neg = false
		}
		if neg {
			for _, x := range r {
				x.Neg(x)
			}
		}
		r = primZ(r)
		if err := l.checkZ(op, r); err != nil {
			return nil, err
		}
		seq = append(seq, r)
	}
}

// variations returns the number of sign changes of the sequence at r,
// zeros ignored.
func (s sturmSeq) variations(r *big.Rat) int {
	return signChanges(len(s), func(i int) int { return signAtZ(s[i], r) })
}

// countOpen returns the number of roots of the square-free s[0] in the open
// interval (a, b), a < b: V(a) − V(b) counts those in (a, b].
func (s sturmSeq) countOpen(a, b *big.Rat) int {
	n := s.variations(a) - s.variations(b)
	if signAtZ(s[0], b) == 0 {
		n--
	}
	return n
}

// SturmSequence returns the Sturm sequence p0 = p, p1 = p′, p(i+1) = −rem(p(i−1), p(i))
// of the square-free part of p, each member scaled by a positive rational to
// have coprime integer coefficients (which leaves the sign variations, and
// so the root counts, unchanged). p must not be zero.
func (l Limits) SturmSequence(ctx context.Context, p Poly) ([]Poly, error) {
	s, err := l.prepare(ctx, "SturmSequence", p)
	if err != nil {
		return nil, err
	}
	out := make([]Poly, len(s))
	for i, x := range s {
		out[i] = fromZ(x)
	}
	return out, nil
}

// ErrZeroPolynomial is returned where a nonzero polynomial is required.
var ErrZeroPolynomial = errors.New("poly: the zero polynomial has every number as a root")

func (l Limits) prepare(ctx context.Context, op string, p Poly) (sturmSeq, error) {
	if p.IsZero() {
		return nil, fmt.Errorf("%s: %w", op, ErrZeroPolynomial)
	}
	if err := l.Check(op, p); err != nil {
		return nil, err
	}
	return l.sturmSF(ctx, op, toZ(p))
}

// sturmSF returns the Sturm sequence of the square-free part of the
// primitive p. The Sturm sequence of p itself ends with gcd(p, p′), so it is
// computed first: when that ends in a constant, p is square-free and the
// sequence is the answer (one remainder sequence instead of two); otherwise
// the sequence of p / gcd(p, p′) is computed.
func (l Limits) sturmSF(ctx context.Context, op string, p zpoly) (sturmSeq, error) {
	s, err := l.sturmZ(ctx, op, p)
	if err != nil {
		return nil, err
	}
	if g := s[len(s)-1]; len(s) > 1 && len(g) > 1 {
		return l.sturmZ(ctx, op, exactQuoZ(p, g))
	}
	return s, nil
}

// CountRoots returns the number of distinct real roots of p in the
// interval, by Sturm's theorem on the square-free part of p: V(a) − V(b)
// roots lie in (a, b], and roots at the ends are detected by exact
// evaluation. p must not be zero.
func (l Limits) CountRoots(ctx context.Context, p Poly, in Interval) (int, error) {
	if err := in.Validate(); err != nil {
		return 0, err
	}
	s, err := l.prepare(ctx, "CountRoots", p)
	if err != nil {
		return 0, err
	}
	return s.count(in), nil
}

func (s sturmSeq) count(in Interval) int {
	if in.Lo.Cmp(in.Hi) == 0 {
		if signAtZ(s[0], in.Lo) == 0 {
			return 1
		}
		return 0
	}
	n := s.countOpen(in.Lo, in.Hi)
	if !in.LoOpen && signAtZ(s[0], in.Lo) == 0 {
		n++
	}
	if !in.HiOpen && signAtZ(s[0], in.Hi) == 0 {
		n++
	}
	return n
}

// Roots returns the distinct real roots of p in the interval, ascending.
// Each root is exact: a rational number when it is one, otherwise its
// square-free defining polynomial with an isolating open interval (lo, hi)
// holding no other root, lo and hi not roots. Isolation is by Sturm
// bisection: an interval with n > 1 roots (counted by the Sturm sequence) is
// split at its midpoint; a midpoint that is a root is a rational root. The
// isolating intervals of distinct roots are disjoint. A root is recognized as
// rational by the rational root theorem: its denominator divides the leading
// coefficient L of the primitive defining polynomial, so once the isolating
// interval is narrower than 1/L at most one candidate k/L lies in it, and
// exact evaluation decides it. p must not be zero.
func (l Limits) Roots(ctx context.Context, p Poly, in Interval) ([]Algebraic, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	s, err := l.prepare(ctx, "Roots", p)
	if err != nil {
		return nil, err
	}
	return l.rootsSeq(ctx, s, in)
}

func (l Limits) rootsSeq(ctx context.Context, s sturmSeq, in Interval) ([]Algebraic, error) {
	p := s[0]
	var out []Algebraic
	if in.Lo.Cmp(in.Hi) == 0 {
		if signAtZ(p, in.Lo) == 0 {
			out = append(out, ratAlg(in.Lo, l))
		}
		return out, nil
	}
	if !in.LoOpen && signAtZ(p, in.Lo) == 0 {
		out = append(out, ratAlg(in.Lo, l))
	}
	var rec func(a, b *big.Rat, n int) error
	rec = func(a, b *big.Rat, n int) error {
		if n == 0 {
			return nil
		}
		if err := cancelled(ctx, "Roots"); err != nil {
			return err
		}
		if n == 1 && signAtZ(p, a) != 0 && signAtZ(p, b) != 0 {
			x, err := l.newIsolated(ctx, p, a, b)
			if err != nil {
				return err
			}
			out = append(out, x)
			return nil
		}
		m := new(big.Rat).Add(a, b)
		m.Quo(m, big.NewRat(2, 1))
		atM := 0
		if signAtZ(p, m) == 0 {
			atM = 1
		}
		nl := s.countOpen(a, m)
		if err := rec(a, m, nl); err != nil {
			return err
		}
		if atM == 1 {
			out = append(out, ratAlg(m, l))
		}
		return rec(m, b, n-nl-atM)
	}
	if err := rec(in.Lo, in.Hi, s.countOpen(in.Lo, in.Hi)); err != nil {
		return nil, err
	}
	if !in.HiOpen && signAtZ(p, in.Hi) == 0 {
		out = append(out, ratAlg(in.Hi, l))
	}
	return out, nil
}

// SignKind classifies the sign of a polynomial on an interval.
type SignKind int

// The kinds of SignOn.
const (
	// Zero: the polynomial is identically zero.
	Zero SignKind = iota
	// Positive: p > 0 at every point of the interval.
	Positive
	// Negative: p < 0 at every point of the interval.
	Negative
	// NonNegative: p ≥ 0 on the interval, with roots in it (where p touches 0).
	NonNegative
	// NonPositive: p ≤ 0 on the interval, with roots in it.
	NonPositive
	// Mixed: p takes both signs on the interval.
	Mixed
)

// String returns "0", "+", "−", "≥ 0", "≤ 0" or "mixed".
func (k SignKind) String() string {
	return [...]string{"0", "+", "−", "≥ 0", "≤ 0", "mixed"}[k]
}

// SignOn returns the sign of p on the interval and, unless p is zero, the
// distinct roots of p in it (ascending, as Roots returns them). The sign is
// decided exactly: by the sign of p at one rational point of every gap
// between consecutive roots.
func (l Limits) SignOn(ctx context.Context, p Poly, in Interval) (SignKind, []Algebraic, error) {
	if err := in.Validate(); err != nil {
		return 0, nil, err
	}
	if p.IsZero() {
		return Zero, nil, nil
	}
	cells, err := l.cells(ctx, "SignOn", p, Poly{}, in)
	if err != nil {
		return 0, nil, err
	}
	pos, neg := false, false
	var roots []Algebraic
	for _, c := range cells {
		switch c.sign {
		case 1:
			pos = true
		case -1:
			neg = true
		}
		if c.point && c.sign == 0 {
			roots = append(roots, c.at)
		}
	}
	switch {
	case pos && neg:
		return Mixed, roots, nil
	case pos && len(roots) > 0:
		return NonNegative, roots, nil
	case pos:
		return Positive, nil, nil
	case neg && len(roots) > 0:
		return NonPositive, roots, nil
	case neg:
		return Negative, nil, nil
	}
	// Only roots: the interval is a single point and a root.
	return NonNegative, roots, nil
}
