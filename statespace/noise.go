package statespace

import (
	"fmt"
	"math"
	"math/big"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/source"
)

// MaxDrawValues bounds the values one draw may take (the width of its
// range).
const MaxDrawValues = 1 << 20

// draw evaluates a distribution's arguments at cur and returns its exact
// distribution for variable v, cached by its arguments (so that the same
// draw from many states shares its probabilities). Its values must lie in
// v's range, and its probabilities within the bits limit, both checked
// before they are computed.
func (x *explorer) draw(n *cnoise, cur []int64, v *Var) ([]pv, *source.Error) {
	args := make([]*big.Rat, len(n.args))
	for i, f := range n.args {
		val, err := f(cur)
		if err != nil {
			return nil, errEval(err, n.pos)
		}
		args[i] = val.Rat()
	}
	key := fmt.Sprint(n.kind)
	for _, a := range args {
		key += " " + a.RatString()
	}
	if d, ok := x.noise[key]; ok {
		return d, nil
	}
	d, err := x.distribution(n.kind, args, n.pos, v)
	if err != nil {
		return nil, err
	}
	for i := range d {
		d[i].p = x.share(d[i].p)
		x.shared[d[i].p] = true
	}
	x.noise[key] = d
	x.extra += int64(len(d))*16 + int64(len(key)) + 64
	return d, nil
}

// support checks that a draw's possible values [lo, hi] lie in v's range
// and are not too many.
func support(lo, hi int64, v *Var, at source.Position) *source.Error {
	switch {
	case lo > hi:
		return &source.Error{Pos: at, Msg: fmt.Sprintf("the range [%d..%d] of the draw is empty", lo, hi)}
	case lo < v.Lo:
		return outside(lo, v, at)
	case hi > v.Hi:
		return outside(hi, v, at)
	case hi-lo >= MaxDrawValues: // both within ±2^62: no overflow
		return &source.Error{Pos: at, Msg: fmt.Sprintf("the draw would take %s values; the limit is %s", exact.Thousands(hi-lo+1), exact.Thousands(MaxDrawValues))}
	}
	return nil
}

func outside(val int64, v *Var, at source.Position) *source.Error {
	return &source.Error{Pos: at, Msg: fmt.Sprintf("the draw can give %s' = %d, outside the range [%d..%d] of %s", v.Name, val, v.Lo, v.Hi, v.Name)}
}

// budget refuses a draw whose probabilities would take about est more
// bits than the limit leaves.
func (x *explorer) budget(est float64, at source.Position) *source.Error {
	if left := float64(x.limits.MaxBits - x.bits); est <= left {
		return nil
	}
	return &source.Error{Pos: at, Limit: string(model.LimitBits),
		Msg: fmt.Sprintf("the draw's exact probabilities would take about %s bits, more than the %s left of the limit of %s bits", exact.Thousands(int64(math.Min(est, 1e18))), exact.Thousands(max(0, x.limits.MaxBits-x.bits)), exact.Thousands(x.limits.MaxBits))}
}

// integers reads integer arguments.
func integers(args []*big.Rat, names []string, at source.Position) ([]int64, *source.Error) {
	out := make([]int64, len(args))
	for i, a := range args {
		if !a.IsInt() || !a.Num().IsInt64() {
			return nil, &source.Error{Pos: at, Msg: fmt.Sprintf("the %s of the draw must be an integer, found %s", names[i], a.RatString())}
		}
		out[i] = a.Num().Int64()
	}
	return out, nil
}

// distribution computes a draw's exact distribution for variable v;
// geometric draws take their probabilities from the tables of their α,
// shared by every draw with that α.
func (x *explorer) distribution(kind NoiseKind, args []*big.Rat, at source.Position, v *Var) ([]pv, *source.Error) {
	switch kind {
	case Geometric, Geometric1:
		alpha := args[0]
		if alpha.Sign() <= 0 || alpha.Cmp(big.NewRat(1, 1)) >= 0 {
			return nil, &source.Error{Pos: at, Msg: fmt.Sprintf("the α of a geometric draw must be in (0, 1), found %s", alpha.RatString())}
		}
		iv, err := integers(args[1:], []string{"centre", "lower end", "upper end"}, at)
		if err != nil {
			return nil, err
		}
		c, lo, hi := iv[0], iv[1], iv[2]
		from := lo // the least value of positive probability
		if kind == Geometric1 {
			from = max(lo, min(c, hi))
		}
		if err := support(from, hi, v, at); err != nil {
			return nil, err
		}
		// Every probability is about α^k with k up to the centre's
		// distance to the far end (a float estimate, deciding nothing but
		// whether to compute).
		dist := math.Max(math.Abs(float64(c)-float64(lo)), math.Abs(float64(hi)-float64(c))) + 2
		if err := x.budget(float64(hi-from+1)*dist*float64(exact.Bits(alpha)+2), at); err != nil {
			return nil, err
		}
		t := x.geoTable(alpha)
		if kind == Geometric {
			return t.twoSided(c, lo, hi), nil
		}
		return t.oneSided(c, lo, hi), nil
	case Uniform:
		iv, err := integers(args, []string{"lower end", "upper end"}, at)
		if err != nil {
			return nil, err
		}
		lo, hi := iv[0], iv[1]
		if err := support(lo, hi, v, at); err != nil {
			return nil, err
		}
		p := big.NewRat(1, hi-lo+1)
		d := make([]pv, 0, hi-lo+1)
		for v := lo; v <= hi; v++ {
			d = append(d, pv{v, p})
		}
		return d, nil
	case Bernoulli:
		p := args[0]
		if p.Sign() < 0 || p.Cmp(big.NewRat(1, 1)) > 0 {
			return nil, &source.Error{Pos: at, Msg: fmt.Sprintf("the probability of a bernoulli draw must be in [0, 1], found %s", p.RatString())}
		}
		var d []pv
		if q := exact.OneMinus(p); q.Sign() > 0 {
			d = append(d, pv{0, q})
		}
		if p.Sign() > 0 {
			d = append(d, pv{1, new(big.Rat).Set(p)})
		}
		for _, o := range d {
			if err := support(o.v, o.v, v, at); err != nil {
				return nil, err
			}
		}
		return d, nil
	}
	return nil, &source.Error{Pos: at, Msg: "unknown distribution"}
}

// geoTable holds the probabilities of the geometric noises of one α, each
// computed once, when first needed: α^k, and for the two-sided noise
// point[k] = P(Z = k) = (1−α)/(1+α)·α^k, above[k] = P(Z ≥ k) = α^k/(1+α)
// (k ≥ 1) and below[k] = P(Z ≥ −k) = 1 − α^(k+1)/(1+α) (k ≥ 0); for the
// one-sided noise point1[k] = (1−α)·α^k and atMost1[k] = P(Z ≤ k) =
// 1 − α^(k+1). bits counts the bits of the numbers it holds.
type geoTable struct {
	alpha, inv, mid, one                     *big.Rat
	pw, point, above, below, point1, atMost1 map[int64]*big.Rat
	// bits and bytes count what the table holds, in the explorer.
	bits, bytes *int64
}

func (x *explorer) geoTable(alpha *big.Rat) *geoTable {
	key := alpha.RatString()
	if t, ok := x.geo[key]; ok {
		return t
	}
	inv := new(big.Rat).Inv(new(big.Rat).Add(alpha, big.NewRat(1, 1))) // 1/(1+α)
	one := exact.OneMinus(alpha)
	t := &geoTable{alpha: alpha, inv: inv, mid: exact.Mul(one, inv), one: one, bits: &x.bits, bytes: &x.extra,
		pw: map[int64]*big.Rat{0: big.NewRat(1, 1)}, point: map[int64]*big.Rat{}, above: map[int64]*big.Rat{},
		below: map[int64]*big.Rat{}, point1: map[int64]*big.Rat{}, atMost1: map[int64]*big.Rat{}}
	x.geo[key] = t
	return t
}

// memo returns m[k], computing it with f the first time.
func (t *geoTable) memo(m map[int64]*big.Rat, k int64, f func() *big.Rat) *big.Rat {
	if p, ok := m[k]; ok {
		return p
	}
	p := f()
	m[k] = p
	*t.bits += int64(exact.Bits(p))
	*t.bytes += ratBytes(p) + 48
	return p
}

// power returns α^k (k ≥ 0): from α^(k−1) when known, else directly.
func (t *geoTable) power(k int64) *big.Rat {
	return t.memo(t.pw, k, func() *big.Rat {
		if q, ok := t.pw[k-1]; ok {
			return exact.Mul(q, t.alpha)
		}
		e := big.NewInt(k)
		return new(big.Rat).SetFrac(new(big.Int).Exp(t.alpha.Num(), e, nil), new(big.Int).Exp(t.alpha.Denom(), e, nil))
	})
}

// atLeast returns P(Z ≥ k) of the two-sided noise, for any integer k.
func (t *geoTable) atLeast(k int64) *big.Rat {
	if k > 0 {
		return t.memo(t.above, k, func() *big.Rat { return exact.Mul(t.power(k), t.inv) })
	}
	return t.memo(t.below, -k, func() *big.Rat { return exact.OneMinus(exact.Mul(t.power(1-k), t.inv)) })
}

// twoSided is centre c plus the two-sided geometric noise, clamped to
// [lo, hi]: P(Z = z) = (1−α)/(1+α)·α^|z|, so P(Z ≤ −k) = P(Z ≥ k) =
// α^k/(1+α) for k ≥ 1. The caller has bounded |c − lo| and |hi − c|.
func (t *geoTable) twoSided(c, lo, hi int64) []pv {
	if lo == hi {
		return []pv{{lo, big.NewRat(1, 1)}}
	}
	d := make([]pv, 0, hi-lo+1)
	d = append(d, pv{lo, t.atLeast(c - lo)}) // P(c+Z ≤ lo) = P(Z ≥ c−lo) by symmetry
	for v := lo + 1; v < hi; v++ {
		k := abs(v - c)
		d = append(d, pv{v, t.memo(t.point, k, func() *big.Rat { return exact.Mul(t.mid, t.power(k)) })})
	}
	d = append(d, pv{hi, t.atLeast(hi - c)})
	return nonzero(d)
}

// oneSided is c plus the one-sided geometric noise Z ≥ 0, P(Z = z) =
// (1−α)·α^z (P(Z ≥ k) = α^k), clamped to [lo, hi].
func (t *geoTable) oneSided(c, lo, hi int64) []pv {
	if c >= hi || lo == hi {
		return []pv{{hi, big.NewRat(1, 1)}}
	}
	var d []pv
	if c < lo {
		k := lo - c
		d = append(d, pv{lo, t.memo(t.atMost1, k, func() *big.Rat { return exact.OneMinus(t.power(k + 1)) })}) // P(Z ≤ lo−c)
	}
	for v := max(lo, c); v < hi; v++ {
		if v == lo && c < lo {
			continue
		}
		k := v - c
		d = append(d, pv{v, t.memo(t.point1, k, func() *big.Rat { return exact.Mul(t.one, t.power(k)) })})
	}
	d = append(d, pv{hi, t.power(hi - c)}) // P(Z ≥ hi−c)
	return nonzero(d)
}

func nonzero(d []pv) []pv {
	out := d[:0]
	for _, x := range d {
		if x.p.Sign() > 0 {
			out = append(out, x)
		}
	}
	return out
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
