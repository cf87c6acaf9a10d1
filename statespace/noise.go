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

// draw evaluates the arguments of the draw a of command ci at cur and
// returns its exact distribution, cached by its arguments (so that the
// same draw from many states shares its probabilities). Its values must
// lie in the range of a's variable, and its probabilities within the bits
// limit, both checked before they are computed.
func (x *explorer) draw(ci int, a cassign, cur []int64) ([]outcome[*big.Rat], error) {
	n := a.noise
	args := make([]*big.Rat, len(n.args))
	for i, f := range n.args {
		val, err := f(cur)
		if err != nil {
			return nil, x.at(ci, cur, errEval(err, n.pos))
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
	d, err := x.distribution(n.kind, args, n.pos, &x.p.m.Vars[a.v])
	if err != nil {
		return nil, x.at(ci, cur, err)
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
func (x *explorer) distribution(kind NoiseKind, args []*big.Rat, at source.Position, v *Var) ([]outcome[*big.Rat], *source.Error) {
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
		d, e := tableOf(x.ctx, rats{x: x}, x.geo, alpha).geometric(kind, c, lo, hi)
		if e != nil { // the rationals' operations do not fail
			return nil, &source.Error{Pos: at, Msg: e.Error()}
		}
		return d, nil
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
		d := make([]outcome[*big.Rat], 0, hi-lo+1)
		for v := lo; v <= hi; v++ {
			d = append(d, outcome[*big.Rat]{v, p})
		}
		return d, nil
	case Bernoulli:
		p := args[0]
		if p.Sign() < 0 || p.Cmp(big.NewRat(1, 1)) > 0 {
			return nil, &source.Error{Pos: at, Msg: fmt.Sprintf("the probability of a bernoulli draw must be in [0, 1], found %s", p.RatString())}
		}
		d, _ := bernoulli(rats{x: x}, new(big.Rat).Set(p)) // the rationals' never fail
		for _, o := range d {
			if err := support(o.v, o.v, v, at); err != nil {
				return nil, err
			}
		}
		return d, nil
	}
	return nil, &source.Error{Pos: at, Msg: "unknown distribution"}
}
