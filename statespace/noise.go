package statespace

import (
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
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
	d, err := distribution(n.kind, args, n.pos)
	if err != nil {
		return nil, err
	}
	for i := range d {
		d[i].p = x.share(d[i].p)
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

// distribution computes a draw's exact distribution.
func distribution(kind NoiseKind, args []*big.Rat, at source.Position) ([]pv, *source.Error) {
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
		if kind == Geometric {
			return geometric(alpha, c, lo, hi), nil
		}
		return geometric1(alpha, c, lo, hi), nil
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
		return &source.Error{Pos: at, Msg: fmt.Sprintf("the draw would take %d values; the limit is %d", hi-lo+1, MaxDrawValues)}
	}
	return nil
}

// powers returns α^0 … α^n.
func powers(alpha *big.Rat, n int64) []*big.Rat {
	out := make([]*big.Rat, n+1)
	out[0] = big.NewRat(1, 1)
	for i := int64(1); i <= n; i++ {
		out[i] = chain.Mul(out[i-1], alpha)
	}
	return out
}

// geometric is centre c plus the two-sided geometric noise, clamped to
// [lo, hi]: P(Z = z) = (1−α)/(1+α)·α^|z|, so P(Z ≤ −k) = P(Z ≥ k) =
// α^k/(1+α) for k ≥ 0.
func geometric(alpha *big.Rat, c, lo, hi int64) []pv {
	if lo == hi {
		return []pv{{lo, big.NewRat(1, 1)}}
	}
	onePlus := new(big.Rat).Add(alpha, big.NewRat(1, 1))
	inv := new(big.Rat).Inv(onePlus)                 // 1/(1+α)
	mid := chain.Mul(chain.OneMinus(alpha), inv)     // (1−α)/(1+α)
	pw := powers(alpha, max(abs(c-lo), abs(hi-c))+1) // α^k up to the largest |z| needed
	tail := func(k int64) *big.Rat {                 // P(Z ≥ k) for any integer k
		if k <= 0 {
			return chain.OneMinus(chain.Mul(pw[-k+1], inv)) // 1 − P(Z ≤ k−1) = 1 − α^(1−k)/(1+α)
		}
		return chain.Mul(pw[k], inv)
	}
	var d []pv
	d = append(d, pv{lo, tail(c - lo)}) // P(c+Z ≤ lo) = P(Z ≥ c−lo) by symmetry
	for v := lo + 1; v < hi; v++ {
		d = append(d, pv{v, chain.Mul(mid, pw[abs(v-c)])})
	}
	d = append(d, pv{hi, tail(hi - c)})
	return nonzero(d)
}

// geometric1 is c plus the one-sided geometric noise Z ≥ 0, P(Z = z) =
// (1−α)·α^z (P(Z ≥ k) = α^k), clamped to [lo, hi].
func geometric1(alpha *big.Rat, c, lo, hi int64) []pv {
	if c >= hi || lo == hi {
		return []pv{{hi, big.NewRat(1, 1)}}
	}
	pw := powers(alpha, hi-min(c, lo)+1)
	one := chain.OneMinus(alpha)
	var d []pv
	if c < lo {
		d = append(d, pv{lo, chain.OneMinus(pw[lo-c+1])}) // P(Z ≤ lo−c)
	}
	for v := max(lo, c); v < hi; v++ {
		if v == lo && c < lo {
			continue
		}
		d = append(d, pv{v, chain.Mul(one, pw[v-c])})
	}
	d = append(d, pv{hi, pw[hi-c]}) // P(Z ≥ hi−c)
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
