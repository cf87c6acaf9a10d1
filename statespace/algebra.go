package statespace

import (
	"cmp"
	"context"
	"fmt"
	"math/big"
	"slices"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/source"
)

// The probability algebra of an exploration, written once over a field
// (exact.Field). The explorer — states, limits, memory — evaluates every
// expression numerically and checks the numbers; an expander expands a
// state's commands into branches whose probabilities are in an algebra:
// Build's are the exact rationals (rats below), BuildParam's the rational
// functions of the parameter (symbolic, param.go). Both expand updates
// and draws, multiply the probabilities of a product of draws or of
// synchronised commands, merge the branches reaching one state, and take
// geometric and bernoulli draws from the same tables and formulas.

// outcome is a value of a draw and its probability.
type outcome[T any] struct {
	v int64
	p T
}

// branch is a successor valuation and its probability, before the
// successor is looked up.
type branch[T any] struct {
	v []int64
	p T
}

// choice is one way a state may move: the commands that make it (one
// unlabelled command, or one command per module that synchronises on
// action) and its branches.
type choice[T any] struct {
	action string
	cmds   []int
	bs     []branch[T]
}

// succ is a successor of a state and its probability.
type succ[T any] struct {
	to int32
	p  T
}

// algebra is a field of probabilities with what expanding commands in it
// needs besides. Its operations may fail (the rationals' do not).
type algebra[T any] interface {
	exact.Field[T]
	// one returns 1 (shared: never modified); isOne says whether p is 1,
	// fast.
	one() T
	isOne(p T) bool
	// oneMinus returns 1 − p.
	oneMinus(p T) (T, error)
	// power returns a^k directly when the field has a faster way than
	// multiplying up from a^(k−1); ok is false when it has not.
	power(a T, k int64) (p T, ok bool)
	// kept is told of every number a geometric table keeps.
	kept(p T)
	// update returns the probability of update ui of command ci at the
	// state cur, whose value there is p (checked by the caller).
	update(ci, ui int, cur []int64, p *big.Rat) (T, error)
	// draw returns the distribution of the draw a of command ci at cur,
	// its errors positioned.
	draw(ci int, a cassign, cur []int64) ([]outcome[T], error)
}

// rats is Build's algebra: the exact rationals, the numbers the explorer
// evaluates, the fast exact.Mul and exact.OneMinus; its geometric tables
// count their bits and bytes against the limits.
type rats struct {
	exact.Rats
	x *explorer
}

func (r rats) one() *big.Rat { return r.x.one }

// maxSmallProducts bounds the products Mul keeps for reuse: the
// probabilities of synchronised commands are often few (1/2^k), and a
// product found again costs a lookup instead of a new value.
const maxSmallProducts = 1 << 16

// Mul returns a·b; products of small rationals are shared (the explorer's
// probabilities are never modified).
func (r rats) Mul(a, b *big.Rat) (*big.Rat, error) {
	n, d, ok := exact.MulWords(a, b)
	if !ok {
		return exact.Mul(a, b), nil
	}
	x := r.x
	k := [2]uint64{n, d}
	if q, ok := x.small[k]; ok {
		return q, nil
	}
	q := exact.FromWords(n, d)
	if x.smallProducts < maxSmallProducts && n > 0 {
		x.smallProducts++
		x.keepSmall(k, q)
	}
	return q, nil
}

func (rats) isOne(p *big.Rat) bool { return p.IsInt() && p.Num().IsInt64() && p.Num().Int64() == 1 }

func (rats) oneMinus(p *big.Rat) (*big.Rat, error) { return exact.OneMinus(p), nil }

// power returns a^k, the powers of a's numerator and denominator.
func (rats) power(a *big.Rat, k int64) (*big.Rat, bool) {
	e := big.NewInt(k)
	return new(big.Rat).SetFrac(new(big.Int).Exp(a.Num(), e, nil), new(big.Int).Exp(a.Denom(), e, nil)), true
}

func (r rats) kept(p *big.Rat) {
	r.x.bits += int64(exact.Bits(p))
	r.x.extra += ratBytes(p) + 48
}

func (rats) update(_, _ int, _ []int64, p *big.Rat) (*big.Rat, error) { return p, nil }

func (r rats) draw(ci int, a cassign, cur []int64) ([]outcome[*big.Rat], error) {
	return r.x.draw(ci, a, cur)
}

// expander expands the commands of the explorer's states into branches
// whose probabilities are in the algebra alg.
type expander[T any] struct {
	*explorer
	alg algebra[T]
}

// command expands the updates of command ci at valuation cur. Their
// numeric probabilities must lie in [0, 1] and sum to 1; in BuildParam
// their functions must sum to 1 too.
func (x *expander[T]) command(ci int, cur []int64) ([]branch[T], error) {
	m := x.p.m
	c := m.Commands[ci]
	var out []branch[T]
	acc := &x.acc
	acc.Reset()
	var sum T // the sum in the algebra (BuildParam)
	if x.param != nil {
		sum = x.alg.Const(new(big.Rat))
	}
	for ui, u := range x.p.updates[ci] {
		p, q := x.one, x.alg.one()
		if u.prob != nil {
			v, err := u.prob(cur)
			if err != nil {
				return nil, x.at(ci, cur, errEval(err, c.Updates[ui].Pos))
			}
			p = v.Rat()
			if q, err = x.alg.update(ci, ui, cur, p); err != nil {
				return nil, err
			}
			if p.Sign() < 0 || p.Cmp(x.one) > 0 {
				return nil, x.at(ci, cur, &source.Error{Pos: c.Updates[ui].Pos, Msg: fmt.Sprintf("the probability %s is outside [0, 1]%s", p.RatString(), x.atParam())})
			}
			if x.alg.IsZero(q) {
				continue
			}
		}
		acc.Add(p)
		if x.param != nil {
			var err error
			if sum, err = x.alg.Add(sum, q); err != nil {
				return nil, x.algebra(ci, err)
			}
		}
		bs, err := x.update(ci, ui, cur, q)
		if err != nil {
			return nil, err
		}
		if err := x.fits(int64(len(out)+len(bs)), ci, cur); err != nil {
			return nil, err
		}
		out = append(out, bs...)
	}
	if x.param != nil && !x.alg.isOne(sum) {
		return nil, x.at(ci, cur, &source.Error{Pos: c.Pos, Msg: fmt.Sprintf("the probabilities of the updates sum to %s, not 1", x.alg.Format(sum, x.param.Name))})
	}
	if acc.Cmp(x.one) != 0 {
		return nil, x.at(ci, cur, &source.Error{Pos: c.Pos, Msg: fmt.Sprintf("the probabilities of the updates sum to %s, not 1%s", acc.Rat(nil).RatString(), x.atParam())})
	}
	x.reserve(len(out), 0)
	return out, nil
}

// update applies update ui of command ci to cur, with probability p:
// every deterministic assignment, and each draw expanded into branches.
func (x *expander[T]) update(ci, ui int, cur []int64, p T) ([]branch[T], error) {
	m := x.p.m
	next := append([]int64(nil), cur...)
	type draw struct {
		v    int
		dist []outcome[T]
		pos  source.Position
	}
	var draws []draw
	for _, a := range x.p.updates[ci][ui].assigns {
		v := m.Vars[a.v]
		switch {
		case a.noise != nil:
			d, err := x.alg.draw(ci, a, cur)
			if err != nil {
				return nil, err
			}
			draws = append(draws, draw{a.v, d, a.pos})
			continue
		case a.cond != nil:
			b, err := a.cond(cur)
			if err != nil {
				return nil, x.at(ci, cur, errEval(err, a.pos))
			}
			next[a.v] = b2i(b)
		default:
			val, err := a.num(cur)
			if err != nil {
				return nil, x.at(ci, cur, errEval(err, a.pos))
			}
			i, ok := val.Int()
			switch {
			case !ok && val.Rat().IsInt():
				return nil, x.at(ci, cur, &source.Error{Pos: a.pos, Msg: fmt.Sprintf("%s' = %s is outside the range [%d..%d] of %s", v.Name, val, v.Lo, v.Hi, v.Name)})
			case !ok:
				return nil, x.at(ci, cur, &source.Error{Pos: a.pos, Msg: fmt.Sprintf("%s' = %s is not an integer", v.Name, val)})
			}
			next[a.v] = i
		}
		if next[a.v] < v.Lo || next[a.v] > v.Hi {
			return nil, x.at(ci, cur, &source.Error{Pos: a.pos, Msg: fmt.Sprintf("%s' = %d is outside the range [%d..%d] of %s", v.Name, next[a.v], v.Lo, v.Hi, v.Name)})
		}
	}
	out := []branch[T]{{v: next, p: p}}
	if len(draws) > 1 {
		// The product of the draws, counted before it is enumerated.
		total := 1.0
		for _, d := range draws {
			total *= float64(len(d.dist))
		}
		if err := x.outcomesFit(total, 0, ci, cur, "the draws of this update have %s outcomes together"); err != nil {
			return nil, err
		}
	}
	for _, d := range draws {
		v := m.Vars[d.v]
		if err := x.fits(int64(len(out))*int64(len(d.dist)), ci, cur); err != nil {
			return nil, err
		}
		var grown []branch[T]
		for _, b := range out {
			for _, o := range d.dist {
				if o.v < v.Lo || o.v > v.Hi {
					return nil, x.at(ci, cur, &source.Error{Pos: d.pos, Msg: fmt.Sprintf("the draw can give %s' = %d, outside the range [%d..%d] of %s", v.Name, o.v, v.Lo, v.Hi, v.Name)})
				}
				nv := append([]int64(nil), b.v...)
				nv[d.v] = o.v
				q := o.p
				if !x.alg.isOne(b.p) {
					var err error
					if q, err = x.alg.Mul(b.p, o.p); err != nil {
						return nil, x.algebra(ci, err)
					}
				}
				grown = append(grown, branch[T]{v: nv, p: q})
			}
		}
		out = grown
	}
	return out, nil
}

// merge looks up the successors of a choice's branches and adds the
// probabilities of those reaching one state: each target once, ascending.
func merge[T any](x *explorer, f exact.Field[T], c choice[T]) ([]succ[T], error) {
	at := map[int32]int{}
	var out []succ[T]
	for _, b := range c.bs {
		t, _, err := x.find(b.v)
		if err != nil {
			return nil, err
		}
		to := int32(t)
		if i, seen := at[to]; seen {
			if out[i].p, err = f.Add(out[i].p, b.p); err != nil {
				return nil, x.algebra(c.cmds[0], err)
			}
			continue
		}
		at[to] = len(out)
		out = append(out, succ[T]{to, b.p})
	}
	slices.SortFunc(out, func(a, b succ[T]) int { return cmp.Compare(a.to, b.to) })
	return out, nil
}

// geoTable holds the probabilities of the geometric draws of one α, each
// computed once, when first needed: α^k, and for the two-sided noise
// point[k] = P(Z = k) = (1−α)/(1+α)·α^k, above[k] = P(Z ≥ k) = α^k/(1+α)
// (k ≥ 1) and below[k] = P(Z ≥ −k) = 1 − α^(k+1)/(1+α) (k ≥ 0); for the
// one-sided noise point1[k] = (1−α)·α^k and atMost1[k] = P(Z ≤ k) =
// 1 − α^(k+1). The first error of its algebra (a limit, the context's
// end) is kept in err: what it computes then is not kept, and the draw
// being computed fails.
type geoTable[T any] struct {
	f   algebra[T]
	ctx context.Context
	err error
	// inv is 1/(1+α), mid (1−α)/(1+α), oneMinus 1−α.
	alpha, inv, mid, oneMinus                T
	pw, point, above, below, point1, atMost1 map[int64]T
}

// tableOf returns the table of α = a among tables, made when first
// needed (failed, when its first numbers fail).
func tableOf[T any](ctx context.Context, f algebra[T], tables map[string]*geoTable[T], a T) *geoTable[T] {
	key := f.Format(a, "x")
	if t, ok := tables[key]; ok {
		return t
	}
	t := &geoTable[T]{f: f, ctx: ctx, alpha: a, pw: map[int64]T{0: f.one()}, point: map[int64]T{}, above: map[int64]T{},
		below: map[int64]T{}, point1: map[int64]T{}, atMost1: map[int64]T{}}
	t.inv = t.check(f.Quo(f.one(), t.check(f.Add(f.one(), a))))
	t.oneMinus = t.check(f.oneMinus(a))
	t.mid = t.mul(t.oneMinus, t.inv)
	tables[key] = t
	return t
}

// check keeps the first error and returns p.
func (t *geoTable[T]) check(p T, err error) T {
	t.err = cmp.Or(t.err, err)
	return p
}

func (t *geoTable[T]) mul(a, b T) T { return t.check(t.f.Mul(a, b)) }

// memo returns m[k], computing it with f the first time (nothing once
// the table has failed).
func (t *geoTable[T]) memo(m map[int64]T, k int64, f func() T) T {
	if p, ok := m[k]; ok || t.err != nil {
		return p
	}
	p := f()
	if t.err == nil {
		m[k] = p
		t.f.kept(p)
	}
	return p
}

// power returns α^k (k ≥ 0): from α^(k−1) when known, else directly when
// the field can, else multiplying up from the highest power known (the
// functions' powers are known from α^0 up, without a gap).
func (t *geoTable[T]) power(k int64) T {
	if p, ok := t.pw[k]; ok {
		return p
	}
	if q, ok := t.pw[k-1]; ok {
		return t.memo(t.pw, k, func() T { return t.mul(q, t.alpha) })
	}
	if p, ok := t.f.power(t.alpha, k); ok {
		return t.memo(t.pw, k, func() T { return p })
	}
	for j := int64(len(t.pw)); j <= k && t.err == nil; j++ {
		t.err = t.ctx.Err()
		t.memo(t.pw, j, func() T { return t.mul(t.pw[j-1], t.alpha) })
	}
	return t.pw[k]
}

// atLeast returns P(Z ≥ k) of the two-sided noise, for any integer k.
func (t *geoTable[T]) atLeast(k int64) T {
	if k > 0 {
		return t.memo(t.above, k, func() T { return t.mul(t.power(k), t.inv) })
	}
	return t.memo(t.below, -k, func() T { return t.check(t.f.oneMinus(t.mul(t.power(1-k), t.inv))) })
}

// geometric is centre c plus the geometric noise of kind (Geometric:
// two-sided, Geometric1: one-sided) clamped to [lo, hi]; the caller has
// bounded |c − lo| and |hi − c|.
func (t *geoTable[T]) geometric(kind NoiseKind, c, lo, hi int64) ([]outcome[T], error) {
	var d []outcome[T]
	switch {
	case kind == Geometric && lo == hi:
		return []outcome[T]{{lo, t.f.one()}}, nil
	case kind == Geometric:
		// P(Z = z) = (1−α)/(1+α)·α^|z|, so P(Z ≤ −k) = P(Z ≥ k) =
		// α^k/(1+α) for k ≥ 1.
		d = make([]outcome[T], 0, hi-lo+1)
		d = append(d, outcome[T]{lo, t.atLeast(c - lo)}) // P(c+Z ≤ lo) = P(Z ≥ c−lo) by symmetry
		for v := lo + 1; v < hi && t.err == nil; v++ {
			k := abs(v - c)
			d = append(d, outcome[T]{v, t.memo(t.point, k, func() T { return t.mul(t.mid, t.power(k)) })})
		}
		d = append(d, outcome[T]{hi, t.atLeast(hi - c)})
	case c >= hi || lo == hi:
		return []outcome[T]{{hi, t.f.one()}}, nil
	default:
		// One-sided: Z ≥ 0, P(Z = z) = (1−α)·α^z (P(Z ≥ k) = α^k).
		if c < lo {
			k := lo - c
			d = append(d, outcome[T]{lo, t.memo(t.atMost1, k, func() T { return t.check(t.f.oneMinus(t.power(k + 1))) })}) // P(Z ≤ lo−c)
		}
		for v := max(lo, c); v < hi && t.err == nil; v++ {
			if v == lo && c < lo {
				continue
			}
			k := v - c
			d = append(d, outcome[T]{v, t.memo(t.point1, k, func() T { return t.mul(t.oneMinus, t.power(k)) })})
		}
		d = append(d, outcome[T]{hi, t.power(hi - c)}) // P(Z ≥ hi−c)
	}
	if t.err != nil {
		return nil, t.err
	}
	return nonzero(t.f, d), nil
}

// bernoulli is the draw of 1 with probability p, else 0.
func bernoulli[T any](f algebra[T], p T) ([]outcome[T], error) {
	q, err := f.oneMinus(p)
	if err != nil {
		return nil, err
	}
	return nonzero(f, []outcome[T]{{0, q}, {1, p}}), nil
}

// nonzero drops the outcomes of probability 0.
func nonzero[T any](f exact.Field[T], d []outcome[T]) []outcome[T] {
	out := d[:0]
	for _, o := range d {
		if !f.IsZero(o.p) {
			out = append(out, o)
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
