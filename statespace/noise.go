package statespace

import (
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/source"
)

// MaxDrawValues bounds the values one draw may take (the width of its
// range).
const MaxDrawValues = 1 << 20

// draw evaluates a distribution's arguments at cur and returns its exact
// distribution, cached by its arguments (so that the same draw from many
// states shares its probabilities).
func (x *explorer) draw(n *cnoise, cur []int64) ([]pv, *source.Error) {
	args := make([]*big.Rat, len(n.args))
	for i, f := range n.args {
		v, err := f(cur)
		if err != nil {
			return nil, errEval(err, n.pos)
		}
		args[i] = v.Rat()
	}
	key := fmt.Sprint(n.kind)
	for _, a := range args {
		key += " " + a.RatString()
	}
	if d, ok := x.noise[key]; ok {
		return d, nil
	}
	d, err := x.distribution(n.kind, args, n.pos)
	if err != nil {
		return nil, err
	}
	for i := range d {
		d[i].p = x.share(d[i].p)
		x.shared[d[i].p] = true
	}
	x.noise[key] = d
	return d, nil
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

// distribution computes a draw's exact distribution; geometric draws
// take their probabilities from the tables of their α, shared by every
// draw with that α.
func (x *explorer) distribution(kind NoiseKind, args []*big.Rat, at source.Position) ([]pv, *source.Error) {
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
		if err := width(lo, hi, at); err != nil {
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
		if err := width(lo, hi, at); err != nil {
			return nil, err
		}
		p := big.NewRat(1, hi-lo+1)
		var d []pv
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
		if q := chain.OneMinus(p); q.Sign() > 0 {
			d = append(d, pv{0, q})
		}
		if p.Sign() > 0 {
			d = append(d, pv{1, new(big.Rat).Set(p)})
		}
		return d, nil
	}
	return nil, &source.Error{Pos: at, Msg: "unknown distribution"}
}

func width(lo, hi int64, at source.Position) *source.Error {
	switch {
	case lo > hi:
		return &source.Error{Pos: at, Msg: fmt.Sprintf("the range [%d..%d] of the draw is empty", lo, hi)}
	case hi-lo >= MaxDrawValues:
		return &source.Error{Pos: at, Msg: fmt.Sprintf("the draw would take %s values; the limit is %s", exact.Thousands(hi-lo+1), exact.Thousands(MaxDrawValues))}
	}
	return nil
}

// geoTable holds the probabilities of the geometric noises of one α,
// each computed once and grown on demand: pw[k] = α^k, and for the
// two-sided noise point[k] = P(Z = k) = (1−α)/(1+α)·α^k, above[k] =
// P(Z ≥ k) = α^k/(1+α) and below[k] = P(Z ≥ −k) = 1 − α^(k+1)/(1+α) (k ≥ 0);
// for the one-sided noise point1[k] = (1−α)·α^k and atMost1[k] =
// P(Z ≤ k) = 1 − α^(k+1).
type geoTable struct {
	alpha, inv, mid, one                     *big.Rat
	pw, point, above, below, point1, atMost1 []*big.Rat
}

func (x *explorer) geoTable(alpha *big.Rat) *geoTable {
	key := alpha.RatString()
	if t, ok := x.geo[key]; ok {
		return t
	}
	inv := new(big.Rat).Inv(new(big.Rat).Add(alpha, big.NewRat(1, 1))) // 1/(1+α)
	one := chain.OneMinus(alpha)
	t := &geoTable{alpha: alpha, inv: inv, mid: chain.Mul(one, inv), one: one, pw: []*big.Rat{big.NewRat(1, 1)}}
	x.geo[key] = t
	return t
}

// power returns α^k, extending the table.
func (t *geoTable) power(k int64) *big.Rat {
	for int64(len(t.pw)) <= k {
		t.pw = append(t.pw, chain.Mul(t.pw[len(t.pw)-1], t.alpha))
	}
	return t.pw[k]
}

// grow extends table tab to index k with f.
func grow(tab *[]*big.Rat, k int64, f func(i int64) *big.Rat) *big.Rat {
	for i := int64(len(*tab)); i <= k; i++ {
		*tab = append(*tab, f(i))
	}
	return (*tab)[k]
}

// atLeast returns P(Z ≥ k) of the two-sided noise, for any integer k.
func (t *geoTable) atLeast(k int64) *big.Rat {
	if k > 0 {
		return grow(&t.above, k, func(i int64) *big.Rat { return chain.Mul(t.power(i), t.inv) })
	}
	return grow(&t.below, -k, func(i int64) *big.Rat { return chain.OneMinus(chain.Mul(t.power(i+1), t.inv)) })
}

// twoSided is centre c plus the two-sided geometric noise, clamped to
// [lo, hi]: P(Z = z) = (1−α)/(1+α)·α^|z|, so P(Z ≤ −k) = P(Z ≥ k) =
// α^k/(1+α) for k ≥ 1.
func (t *geoTable) twoSided(c, lo, hi int64) []pv {
	if lo == hi {
		return []pv{{lo, big.NewRat(1, 1)}}
	}
	d := make([]pv, 0, hi-lo+1)
	d = append(d, pv{lo, t.atLeast(c - lo)}) // P(c+Z ≤ lo) = P(Z ≥ c−lo) by symmetry
	for v := lo + 1; v < hi; v++ {
		d = append(d, pv{v, grow(&t.point, abs(v-c), func(i int64) *big.Rat { return chain.Mul(t.mid, t.power(i)) })})
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
		d = append(d, pv{lo, grow(&t.atMost1, lo-c, func(i int64) *big.Rat { return chain.OneMinus(t.power(i + 1)) })}) // P(Z ≤ lo−c)
	}
	for v := max(lo, c); v < hi; v++ {
		if v == lo && c < lo {
			continue
		}
		d = append(d, pv{v, grow(&t.point1, v-c, func(i int64) *big.Rat { return chain.Mul(t.one, t.power(i)) })})
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
