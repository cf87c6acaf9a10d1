package dptest

import (
	"cmp"
	"math/big"
	"math/bits"
)

// prob is an exact probability, kept in machine words while it fits:
// num / (den · 2^exp) when bd is nil, else bn / bd, not reduced (big.Rat
// would reduce every product, by a gcd that costs more than the product).
// Runs of Bit and IntN choices (and Bernoulli choices of small rationals,
// until the product overflows) thus need no big numbers per choice.
type prob struct {
	num, den uint64 // den > 0; the factors 2 of both are in exp
	exp      int
	bn, bd   *big.Int
}

// probOne is the probability 1.
var probOne = prob{num: 1, den: 1}

// smallProb is n / (d · 2^e), with the factors 2 of n and d moved to e.
func smallProb(n, d uint64, e int) prob {
	if n == 0 {
		return prob{den: 1}
	}
	t := bits.TrailingZeros64(n)
	n >>= t
	e -= t
	t = bits.TrailingZeros64(d)
	d >>= t
	e += t
	return prob{num: n, den: d, exp: e}
}

// ratProb is x (not negative) as a prob, in machine words if it fits.
func ratProb(x *big.Rat) prob {
	if n, d, ok := smallRat(x); ok {
		return smallProb(n, d, 0)
	}
	return prob{bn: new(big.Int).Set(x.Num()), bd: new(big.Int).Set(x.Denom())}
}

// smallRat is x = n/d (reduced) when x is not negative and both fit in a
// uint64; it does not allocate.
func smallRat(x *big.Rat) (n, d uint64, ok bool) {
	num := x.Num()
	if num.Sign() < 0 || !num.IsUint64() {
		return 0, 0, false
	}
	if x.IsInt() {
		return num.Uint64(), 1, true
	}
	den := x.Denom()
	if !den.IsUint64() {
		return 0, 0, false
	}
	return num.Uint64(), den.Uint64(), true
}

// parts is p = n/d as big numbers; they may be p's own, so callers must
// not change them.
func (p prob) parts() (n, d *big.Int) {
	if p.bd != nil {
		return p.bn, p.bd
	}
	n = new(big.Int).SetUint64(p.num)
	d = new(big.Int).SetUint64(p.den)
	if p.exp >= 0 {
		d.Lsh(d, uint(p.exp))
	} else {
		n.Lsh(n, uint(-p.exp))
	}
	return n, d
}

// rat is p as a new big.Rat.
func (p prob) rat() *big.Rat {
	n, d := p.parts()
	return fracRat(n, d)
}

// fracRat is n/d (n ≥ 0, d > 0, neither changed) as a new big.Rat. It is
// SetFrac, without its gcd when d is a power of 2 — the denominator of
// every run of a sampler of bits: the common factors are then the trailing
// zero bits, and the reduced parts are written into the Rat through Num
// and Denom, which are references to its parts (as math/big documents).
// SetFrac's gcd is quadratic in the size of the numbers, which reach tens
// of thousands of bits in the sums of long runs.
func fracRat(n, d *big.Int) *big.Rat {
	if n.Sign() <= 0 || d.BitLen() <= 64 || d.TrailingZeroBits() != uint(d.BitLen()-1) {
		return new(big.Rat).SetFrac(n, d)
	}
	k := min(n.TrailingZeroBits(), d.TrailingZeroBits())
	r := big.NewRat(1, 3) // a fraction: Denom is a reference to its denominator
	r.Num().Rsh(n, k)
	r.Denom().Rsh(d, k)
	return r
}

// sign is 0 if p is 0, else 1.
func (p prob) sign() int {
	if p.bd != nil {
		return p.bn.Sign()
	}
	if p.num == 0 {
		return 0
	}
	return 1
}

// mul is p·q.
func (p prob) mul(q prob) prob {
	if p.bd == nil && q.bd == nil {
		if r, ok := mulSmall(p, q); ok {
			return r
		}
	}
	pn, pd := p.parts()
	qn, qd := q.parts()
	return prob{bn: new(big.Int).Mul(pn, qn), bd: new(big.Int).Mul(pd, qd)}
}

// mulSmall is p·q in machine words, if it fits once the common factors
// are cancelled.
func mulSmall(p, q prob) (prob, bool) {
	hn, ln := bits.Mul64(p.num, q.num)
	hd, ld := bits.Mul64(p.den, q.den)
	if hn|hd == 0 {
		return prob{num: ln, den: ld, exp: p.exp + q.exp}, true
	}
	p, q = p.reduced(), q.reduced()
	g := gcd(p.num, q.den)
	h := gcd(q.num, p.den)
	hn, ln = bits.Mul64(p.num/g, q.num/h)
	hd, ld = bits.Mul64(p.den/h, q.den/g)
	if hn|hd == 0 {
		return prob{num: ln, den: ld, exp: p.exp + q.exp}, true
	}
	return prob{}, false
}

// reduced is p with num and den coprime.
func (p prob) reduced() prob {
	if g := gcd(p.num, p.den); g > 1 {
		p.num /= g
		p.den /= g
	}
	return p
}

// gcd is the greatest common divisor of a and b (b > 0).
func gcd(a, b uint64) uint64 {
	for a != 0 {
		a, b = b%a, a
	}
	return b
}

// cmp compares p and q: -1, 0 or +1.
func (p prob) cmp(q prob) int {
	if p.bd != nil || q.bd != nil {
		pn, pd := p.parts()
		qn, qd := q.parts()
		return new(big.Int).Mul(pn, qd).Cmp(new(big.Int).Mul(qn, pd))
	}
	// p < q ⇔ p.num·q.den·2^q.exp < q.num·p.den·2^p.exp
	var x, y u128
	x.hi, x.lo = bits.Mul64(p.num, q.den)
	y.hi, y.lo = bits.Mul64(q.num, p.den)
	return cmpShifted(x, y, p.exp-q.exp)
}

// u128 is an unsigned integer of 128 bits.
type u128 struct{ hi, lo uint64 }

func (x u128) len() int {
	if x.hi != 0 {
		return 64 + bits.Len64(x.hi)
	}
	return bits.Len64(x.lo)
}

// cmpShifted is the sign of x − y·2^d.
func cmpShifted(x, y u128, d int) int {
	if d < 0 {
		return -cmpShifted(y, x, -d)
	}
	lx, ly := x.len(), y.len()
	switch {
	case ly == 0 && lx == 0:
		return 0
	case ly == 0:
		return 1
	case lx == 0:
		return -1
	case lx != ly+d:
		return cmp.Compare(lx, ly+d)
	}
	// Both have lx <= 128 bits, so the shift keeps every bit of y.
	if d >= 64 {
		y = u128{hi: y.lo << (d - 64)}
	} else if d > 0 {
		y = u128{hi: y.hi<<d | y.lo>>(64-d), lo: y.lo << d}
	}
	if x.hi != y.hi {
		return cmp.Compare(x.hi, y.hi)
	}
	return cmp.Compare(x.lo, y.lo)
}

// acc sums probabilities exactly. Terms of the same odd denominator are
// added in machine words, so that summing the runs of Bit and IntN
// samplers needs no big numbers per run; big terms are added without a
// gcd while one's denominator divides the other's (as a run's denominator
// divides those of the runs that extend it).
type acc struct {
	sum    *big.Rat
	ent    [4]accEntry
	next   int
	bn, bd *big.Int // the partial sum bn/bd of big terms; bd == nil if none
}

// accEntry is the partial sum num / (den · 2^exp); num == 0 when unused.
type accEntry struct {
	num, den uint64
	exp      int
}

// add adds p.
func (a *acc) add(p prob) {
	if p.bd != nil {
		a.addBig(p.bn, p.bd)
		return
	}
	if p.num == 0 {
		return
	}
	for i := range a.ent {
		e := &a.ent[i]
		if e.num != 0 && e.den == p.den && e.add(p.num, p.exp) {
			return
		}
	}
	e := &a.ent[a.next]
	a.next = (a.next + 1) % len(a.ent)
	a.flush(e)
	*e = accEntry{num: p.num, den: p.den, exp: p.exp}
}

// add adds n / (e.den · 2^exp) to e if the sum fits.
func (e *accEntry) add(n uint64, exp int) bool {
	m := e.num
	switch {
	case exp > e.exp:
		d := exp - e.exp
		if d >= 64 || bits.LeadingZeros64(m) < d {
			return false
		}
		m <<= d
	case exp < e.exp:
		d := e.exp - exp
		if d >= 64 || bits.LeadingZeros64(n) < d {
			return false
		}
		n <<= d
		exp = e.exp
	}
	s, carry := bits.Add64(m, n, 0)
	if carry != 0 {
		return false
	}
	e.num, e.exp = s, exp
	return true
}

// addBig adds n/d (which it does not change).
func (a *acc) addBig(n, d *big.Int) {
	switch {
	case a.bd == nil:
		a.bn, a.bd = new(big.Int).Set(n), d
		return
	case a.bd.Cmp(d) == 0:
		a.bn.Add(a.bn, n)
		return
	}
	var q, r big.Int
	if d.BitLen() >= a.bd.BitLen() {
		if q.QuoRem(d, a.bd, &r); r.Sign() == 0 { // bn/bd = bn·q/d
			a.bn.Add(a.bn.Mul(a.bn, &q), n)
			a.bd = d
			return
		}
	} else if q.QuoRem(a.bd, d, &r); r.Sign() == 0 { // n/d = n·q/bd
		a.bn.Add(a.bn, q.Mul(n, &q))
		return
	}
	a.flushBig()
	a.bn, a.bd = new(big.Int).Set(n), d
}

// flushBig moves the partial sum of big terms into a.sum.
func (a *acc) flushBig() {
	if a.bd != nil {
		a.addRat(fracRat(a.bn, a.bd))
		a.bn, a.bd = nil, nil
	}
}

// addRat adds x, which it may keep: the caller must not change it.
func (a *acc) addRat(x *big.Rat) {
	if a.sum == nil {
		a.sum = x // no addition to 0: Add would normalise x again
		return
	}
	a.sum.Add(a.sum, x)
}

// flush moves e's partial sum into a.sum and empties e.
func (a *acc) flush(e *accEntry) {
	if e.num != 0 {
		a.addRat(prob{num: e.num, den: e.den, exp: e.exp}.rat())
		*e = accEntry{}
	}
}

// total is the sum, as a new big.Rat.
func (a *acc) total() *big.Rat {
	for i := range a.ent {
		a.flush(&a.ent[i])
	}
	a.flushBig()
	if a.sum == nil {
		return new(big.Rat)
	}
	return new(big.Rat).Set(a.sum)
}
