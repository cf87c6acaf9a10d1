package verify

// Privacy-loss distributions (docs/semantics.md §2.11).
//
// For an ordered pair (s, t) the privacy loss of an output o is
// ℓ(o) = ln(Pr_s(o)/Pr_t(o)); its distribution under s is the pair's
// privacy-loss distribution (PLD). The outputs with Pr_t(o) = 0 form the
// infinite-loss atom; the outputs with Pr_s(o) = 0 carry no mass under s and
// never belong to E*, so they are left out. Outputs with the same loss are
// one atom: its ratio r = e^ℓ, its mass A = Pr_s and B = Pr_t = A/r. The
// hockey-stick divergence depends on the PLD only:
//
//	H_c(s‖t) = Z + Σ_{r > c} (A_r − c·B_r),   Z the infinite-loss mass.
//
// Runs of k independent copies: the output is a k-tuple, its probability
// the product, its loss the sum of the runs' losses. So the PLD of k runs
// is the k-fold convolution of one run's, with equal losses merged, and
// H_c of the product follows exactly without the |O|^k outputs.
//
// Representation. The ratios of one run are factored over a coprime basis
// b_1 … b_d of their numerators and denominators (pairwise coprime integers
// > 1, so that a ratio Π b_j^e_j determines its exponent vector e), and e
// is written in a basis of the lattice the ratios' vectors generate (as
// many coordinates as independent ratios): an atom is keyed by these
// coordinates, and a product of atoms adds them, with no gcd of big
// numbers. Ratio comparisons use the certified filter of package exact,
// with exact integer products when it cannot tell. Masses are integer numerators over a common denominator per
// side (A = s/ds, B = t/dt): a product multiplies numerators and
// denominators, and merging adds numerators. Nothing is reduced until a
// value is reported.

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"slices"
	"sort"

	"github.com/dpcheck/dpcheck/exact"
)

// DefaultMaxLossValues bounds the distinct finite loss values of a
// privacy-loss distribution of several runs when no other bound is given:
// one squaring of a distribution of n values costs n²/2 products of big
// numerators.
const DefaultMaxLossValues = 10_000

// MaxLossBasis bounds the number of pairwise coprime factors (the dimension
// of the loss lattice) one run's loss ratios may need.
const MaxLossBasis = 256

// denseVolume bounds the box of exponent vectors that a convolution indexes
// directly (an array) instead of through a map.
const denseVolume = 1 << 22

// ctxWords is about how many word operations a convolution makes between
// looks at its context.
const ctxWords = 1 << 20

// maxExponent bounds the exponents of the loss lattice, so that sums of
// two never overflow.
const maxExponent = 1 << 60

// lossDist is the privacy-loss distribution of an ordered pair over some
// runs: n atoms, atom i with key key(i) (its coordinates in the loss
// lattice, see newLossDist), mass s[i]/ds under the first input and
// t[i]/dt under the second, and the infinite-loss mass inf/ds.
type lossDist struct {
	runs   int
	d      int // the lattice's rank: the length of a key
	n      int // the number of atoms
	exp    []int64
	s, t   []*big.Int
	ds, dt *big.Int
	inf    *big.Int
	// keysOnly: only the keys are kept (s, t, ds, dt, inf are nil), to
	// count the atoms of a power cheaply.
	keysOnly bool
}

func (p *lossDist) len() int { return p.n }

func (p *lossDist) dim() int { return p.d }

// key returns the lattice coordinates of atom i (read-only).
func (p *lossDist) key(i int) []int64 {
	return p.exp[i*p.d : (i+1)*p.d]
}

// newLossDist returns one run's distribution from the pair's groups of
// equal ratio (groups' order: the infinite group first, then decreasing
// ratio). Each ratio is factored over a coprime basis of the ratios'
// numerators and denominators, and the exponent vectors are then written
// in a basis of the lattice they generate (an echelon form): the keys are
// as short as the number of independent ratios, which keeps the box of
// the keys of many runs small enough to index directly.
func newLossDist(ctx context.Context, gs []group) (*lossDist, error) {
	p := &lossDist{runs: 1, ds: big.NewInt(1), dt: big.NewInt(1), inf: new(big.Int)}
	var nums []*big.Int
	for _, g := range gs {
		lcm(p.ds, g.A.Denom())
		if g.ratio == nil {
			continue
		}
		lcm(p.dt, g.B.Denom())
		nums = append(nums, g.ratio.Num(), g.ratio.Denom())
	}
	basis, err := coprimeBasis(ctx, nums)
	if err != nil {
		return nil, err
	}
	num := func(x *big.Rat, d *big.Int) *big.Int {
		n := new(big.Int).Quo(d, x.Denom())
		return n.Mul(n, x.Num())
	}
	var rows [][]*big.Int
	for _, g := range gs {
		if g.ratio == nil {
			p.inf = num(g.A, p.ds)
			continue
		}
		e, ok := factor(g.ratio, basis)
		if !ok {
			return nil, fmt.Errorf("internal error: %s does not factor over its own coprime basis", g.ratio.RatString())
		}
		rows = append(rows, e)
		p.s = append(p.s, num(g.A, p.ds))
		p.t = append(p.t, num(g.B, p.dt))
	}
	ech := echelon(rows)
	p.d, p.n = len(ech), len(rows)
	for _, r := range rows {
		c, ok := coordinates(r, ech)
		if !ok {
			return nil, fmt.Errorf("%w: a loss exponent is beyond ±2^60", ErrLossValues)
		}
		p.exp = append(p.exp, c...)
	}
	return p, nil
}

// echelon returns a basis of the lattice generated by rows, in echelon
// form (each row's first nonzero column strictly right of the previous
// row's), by Euclid's algorithm on the rows column by column: only
// unimodular row operations, so the lattice stays the same.
func echelon(rows [][]*big.Int) [][]*big.Int {
	active := make([][]*big.Int, 0, len(rows))
	for _, r := range rows {
		active = append(active, cloneInts(r))
	}
	var ech [][]*big.Int
	var q, t big.Int
	for col := 0; len(active) > 0 && col < len(active[0]); col++ {
		for {
			p := -1
			for i, r := range active {
				if r[col].Sign() != 0 && (p < 0 || r[col].CmpAbs(active[p][col]) < 0) {
					p = i
				}
			}
			if p < 0 {
				break
			}
			done := true
			for i, r := range active {
				if i == p || r[col].Sign() == 0 {
					continue
				}
				q.Quo(r[col], active[p][col])
				for j := col; j < len(r); j++ {
					r[j].Sub(r[j], t.Mul(&q, active[p][j]))
				}
				if r[col].Sign() != 0 {
					done = false
				}
			}
			if done {
				ech = append(ech, active[p])
				active = append(active[:p], active[p+1:]...)
				break
			}
		}
		kept := active[:0]
		for _, r := range active {
			for _, x := range r {
				if x.Sign() != 0 {
					kept = append(kept, r)
					break
				}
			}
		}
		active = kept
	}
	return ech
}

func cloneInts(xs []*big.Int) []*big.Int {
	out := make([]*big.Int, len(xs))
	for i, x := range xs {
		out[i] = new(big.Int).Set(x)
	}
	return out
}

// coordinates writes v, a vector of the lattice, in the echelon basis ech.
func coordinates(v []*big.Int, ech [][]*big.Int) ([]int64, bool) {
	v = cloneInts(v)
	c := make([]int64, len(ech))
	var x, t big.Int
	for i, e := range ech {
		pc := 0
		for e[pc].Sign() == 0 {
			pc++
		}
		x.Quo(v[pc], e[pc]) // exact: v is in the lattice
		if !x.IsInt64() || x.Int64() > maxExponent || x.Int64() < -maxExponent {
			return nil, false
		}
		c[i] = x.Int64()
		for j := pc; j < len(v); j++ {
			v[j].Sub(v[j], t.Mul(&x, e[j]))
		}
	}
	return c, true
}

// lcm sets x to lcm(x, y) for positive x, y.
func lcm(x, y *big.Int) {
	if y.Cmp(x) == 0 || y.BitLen() == 1 {
		return
	}
	g := new(big.Int).GCD(nil, nil, x, y)
	x.Mul(x, new(big.Int).Quo(y, g))
}

// coprimeBasis returns pairwise coprime integers > 1, in increasing order,
// of which every x in xs is a product of powers. It splits two numbers
// with a common factor g into their cofactors and g until none is left:
// the product of all the numbers decreases at every split, so it ends.
func coprimeBasis(ctx context.Context, xs []*big.Int) ([]*big.Int, error) {
	var basis []*big.Int
	var work []*big.Int
	for _, x := range xs {
		if x.Cmp(intOne) > 0 {
			work = append(work, x)
		}
	}
	g := new(big.Int)
	for steps := 0; len(work) > 0; steps++ {
		if steps%64 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		x := work[len(work)-1]
		work = work[:len(work)-1]
		split := false
		for i, b := range basis {
			if b.Cmp(x) == 0 {
				split = true
				break
			}
			if g.GCD(nil, nil, x, b); g.Cmp(intOne) == 0 {
				continue
			}
			basis = append(basis[:i], basis[i+1:]...)
			for _, y := range []*big.Int{new(big.Int).Quo(x, g), new(big.Int).Quo(b, g), new(big.Int).Set(g)} {
				if y.Cmp(intOne) > 0 {
					work = append(work, y)
				}
			}
			split = true
			break
		}
		if !split {
			basis = append(basis, x)
			if len(basis) > MaxLossBasis {
				return nil, fmt.Errorf("%w: the loss ratios of one run need more than %d coprime factors", ErrLossValues, MaxLossBasis)
			}
		}
	}
	slices.SortFunc(basis, func(a, b *big.Int) int { return a.Cmp(b) })
	return basis, nil
}

var intOne = big.NewInt(1)

// factor returns the exponents of r over the basis, and false when r is
// not a product of its powers.
func factor(r *big.Rat, basis []*big.Int) ([]*big.Int, bool) {
	num, den := new(big.Int).Set(r.Num()), new(big.Int).Set(r.Denom())
	e := make([]*big.Int, len(basis))
	for j, b := range basis {
		e[j] = big.NewInt(valuation(num, b) - valuation(den, b))
	}
	return e, num.Cmp(intOne) == 0 && den.Cmp(intOne) == 0
}

// valuation divides x by the largest power b^v of b > 1 that divides it
// and returns v. It tries b^(2^i) from the largest that fits downwards, so
// it needs O(log v) divisions.
func valuation(x, b *big.Int) int64 {
	pows := []*big.Int{b}
	for {
		last := pows[len(pows)-1]
		if 2*last.BitLen()-1 > x.BitLen() {
			break
		}
		pows = append(pows, new(big.Int).Mul(last, last))
	}
	var v int64
	var q, r big.Int
	for i := len(pows) - 1; i >= 0; i-- {
		if q.QuoRem(x, pows[i], &r); r.Sign() == 0 {
			x.Set(&q)
			v += 1 << i
		}
	}
	return v
}

// ErrLossValues is wrapped by the errors of a composition whose
// privacy-loss distribution is over its limits (a *LossLimitError for the
// number of distinct loss values).
var ErrLossValues = fmt.Errorf("privacy-loss distribution too large")

// LossLimitError says that the privacy-loss distribution of an ordered
// pair over Runs runs has more distinct finite loss values than Max: Count
// of them when AtRuns == Runs, else Count already for AtRuns < Runs runs
// (and more for Runs).
type LossLimitError struct {
	From, To     StateInfo
	Runs, AtRuns int
	Count, Max   int
}

// Error says which pair, how many runs and values, and the limit.
func (e *LossLimitError) Error() string {
	pair := e.From.Name + " vs " + e.To.Name
	if e.AtRuns == e.Runs {
		return fmt.Sprintf("the privacy-loss distribution of %d runs for %s has %s distinct loss values; the limit is %s",
			e.Runs, pair, exact.Thousands(int64(e.Count)), exact.Thousands(int64(e.Max)))
	}
	return fmt.Sprintf("the privacy-loss distribution of %d runs for %s has more than %s distinct loss values (%s already for %d runs); the limit is %s",
		e.Runs, pair, exact.Thousands(int64(e.Max)), exact.Thousands(int64(e.Count)), e.AtRuns, exact.Thousands(int64(e.Max)))
}

// Unwrap makes a LossLimitError an ErrLossValues.
func (e *LossLimitError) Unwrap() error { return ErrLossValues }

// DefaultMaxWork bounds the estimated arithmetic of a privacy-loss
// distribution of several runs when no other bound is given: 10^11 word
// operations, some tens of seconds on one core. The estimate (made from
// the loss values of every step before any mass is multiplied) counts the
// products of the masses' numerators word by word: 1000 runs of the
// 1/2-geometric mechanism over {0..5} need about 10^8 (computed in 0.05 s),
// 4000 runs of the survey 3.4·10^10 (11 s), 9999 runs 7.3·10^11.
const DefaultMaxWork = 1e11

// WorkLimitError says that computing the privacy-loss distribution of
// Runs runs for the ordered pair (From, To) would take about Work word
// operations, more than Max: Values distinct loss values with masses of
// up to Bits bits. It is refused before the masses are multiplied.
type WorkLimitError struct {
	From, To StateInfo
	Runs     int
	Values   int
	Bits     int64
	Work     float64
	Max      float64
}

// Error says which pair, how many runs, the estimate and the limit.
func (e *WorkLimitError) Error() string {
	return fmt.Sprintf("the privacy-loss distribution of %d runs for %s vs %s would take about %s word operations to compute (%s loss values, probabilities of up to %s bits); the limit is %s",
		e.Runs, e.From.Name, e.To.Name, exact.Rounded(e.Work), exact.Thousands(int64(e.Values)), exact.Thousands(e.Bits), exact.Whole(e.Max))
}

// LimitKind names the limit: "composition work".
func (e *WorkLimitError) LimitKind() string { return "composition work" }

// Unwrap makes a WorkLimitError an ErrLossValues.
func (e *WorkLimitError) Unwrap() error { return ErrLossValues }

// tooMany is what convolve reports when the product has more than the
// allowed number of atoms.
type tooMany struct{ count, runs int }

func (t *tooMany) Error() string { return fmt.Sprintf("%d loss values for %d runs", t.count, t.runs) }

// power returns the distribution of k repetitions of p's runs by
// repeated squaring: the product of p^(2^i) over the binary digits of k.
// It counts the atoms of every step from the keys alone first, so that a
// power with more than limit atoms, or whose products of masses would take
// more than maxWork word operations (see mulWork), is refused before any
// mass is multiplied (the masses' numerators grow with the runs, and their
// products are most of the work).
func (p *lossDist) power(ctx context.Context, k, limit int, maxWork float64) (*lossDist, error) {
	keys := &lossDist{runs: p.runs, d: p.d, n: p.n, exp: p.exp, keysOnly: true}
	work := 0.0
	res, err := keys.powerOf(ctx, k, limit, func(x, y *lossDist) { work += p.mulWork(x, y) })
	if err != nil {
		return nil, err
	}
	if work > maxWork {
		return nil, &tooMuchWork{work: work, values: res.len(), bits: p.massBits(res.runs)}
	}
	return p.powerOf(ctx, k, limit, nil)
}

// massBits bounds the bits of the numerators of the masses of runs runs
// of p's distribution: those of its common denominators, p.ds and p.dt
// raised to runs/p.runs (a mass is at most 1).
func (p *lossDist) massBits(runs int) int64 {
	return int64(math.Ceil(float64(runs/p.runs) * max(log2(p.ds), log2(p.dt))))
}

// log2 returns log₂ x for x ≥ 1.
func log2(x *big.Int) float64 {
	if n := x.BitLen(); n > 1000 {
		return float64(n)
	}
	f, _ := new(big.Float).SetInt(x).Float64()
	return math.Log2(f)
}

// mulWork estimates the word operations of convolving x and y, powers of
// p, with their masses: every product of atoms multiplies two numerators
// on each side, of at most the bits of the common denominators (p.ds and
// p.dt to the power of the runs over p's), word by word. An atom of a
// square stands for two products, made once.
func (p *lossDist) mulWork(x, y *lossDist) float64 {
	products := float64(x.len()) * float64(y.len())
	if x == y {
		products = float64(x.len()) * float64(x.len()+1) / 2
	}
	words := func(runs int, d *big.Int) float64 {
		return math.Ceil(float64(runs/p.runs) * log2(d) / 64)
	}
	return products * (words(x.runs, p.ds)*words(y.runs, p.ds) + words(x.runs, p.dt)*words(y.runs, p.dt))
}

// tooMuchWork is what power reports when the products of the masses would
// take more than the allowed word operations: the estimate, the loss
// values of the result and the bits of its masses' numerators.
type tooMuchWork struct {
	work   float64
	values int
	bits   int64
}

func (t *tooMuchWork) Error() string {
	return fmt.Sprintf("about %.3g word operations for %d loss values", t.work, t.values)
}

// powerOf is power without the count first. Every intermediate
// distribution has at most as many atoms as the result (a sum set is at
// least as large as each summand), so it stops as soon as one has more
// than limit. each, when not nil, is called with the operands of every
// convolution once it is made.
func (p *lossDist) powerOf(ctx context.Context, k, limit int, each func(x, y *lossDist)) (*lossDist, error) {
	var res *lossDist
	base := p
	conv := func(x, y *lossDist) (*lossDist, error) {
		z, err := convolve(ctx, x, y, limit)
		if err == nil && each != nil {
			each(x, y)
		}
		return z, err
	}
	for e := k; ; {
		if e&1 == 1 {
			if res == nil {
				res = base
			} else {
				var err error
				if res, err = conv(res, base); err != nil {
					return nil, err
				}
			}
		}
		e >>= 1
		if e == 0 {
			break
		}
		var err error
		if base, err = conv(base, base); err != nil {
			return nil, err
		}
	}
	if res.len() > limit {
		return nil, &tooMany{res.len(), res.runs}
	}
	return res, nil
}

// box returns the least and greatest value of each coordinate.
func (p *lossDist) box() (lo, hi []int64) {
	d := p.dim()
	lo, hi = make([]int64, d), make([]int64, d)
	for i := range p.len() {
		for j, e := range p.key(i) {
			if i == 0 || e < lo[j] {
				lo[j] = e
			}
			if i == 0 || e > hi[j] {
				hi[j] = e
			}
		}
	}
	return lo, hi
}

// convolve returns the distribution of the runs of x followed by the runs
// of y (x == y squares), merging equal losses. When the product has more
// than limit atoms it stops multiplying, counts the rest, and returns a
// *tooMany with the count.
func convolve(ctx context.Context, x, y *lossDist, limit int) (*lossDist, error) {
	d := x.dim()
	square := x == y
	n, m := x.len(), y.len()
	z := &lossDist{runs: x.runs + y.runs, d: d, keysOnly: x.keysOnly}
	if !z.keysOnly {
		z.ds, z.dt = new(big.Int).Mul(x.ds, y.ds), new(big.Int).Mul(x.dt, y.dt)
		// Infinite loss: one run of infinite loss suffices.
		fx, fy := sum(x.s), sum(y.s)
		tot := new(big.Int).Add(fy, y.inf)
		z.inf = new(big.Int).Mul(x.inf, tot)
		z.inf.Add(z.inf, new(big.Int).Mul(fx, y.inf))
	}
	if n == 0 || m == 0 {
		return z, nil
	}
	// An atom of the product is found by its key: through its index in
	// the box of the product's keys (an array when the box is small and
	// at most 8 times the number of products, a map when the index fits in
	// an int64), else through the key's bytes.
	xlo, xhi := x.box()
	ylo, yhi := y.box()
	stride := make([]int64, d)
	volume := int64(1)
	indexed := true
	for j := d - 1; j >= 0; j-- {
		for _, e := range []int64{xlo[j], xhi[j], ylo[j], yhi[j]} {
			if e > maxExponent || e < -maxExponent {
				return nil, fmt.Errorf("%w: a loss exponent is beyond ±2^60", ErrLossValues)
			}
		}
		size := xhi[j] + yhi[j] - xlo[j] - ylo[j] + 1
		stride[j] = volume
		if indexed && volume > (1<<62)/size {
			indexed = false
		}
		if indexed {
			volume *= size
		}
	}
	offsets := func(p *lossDist, plo []int64) []int64 {
		o := make([]int64, p.len())
		for i := range o {
			for j, e := range p.key(i) {
				o[i] += (e - plo[j]) * stride[j]
			}
		}
		return o
	}
	var ox, oy []int64
	if indexed {
		ox, oy = offsets(x, xlo), offsets(y, ylo)
	}
	var slot []int32
	var ids map[int64]int32
	var byKey map[string]int32
	switch {
	case indexed && volume <= denseVolume && volume <= 8*int64(n)*int64(m):
		slot = make([]int32, volume)
		for i := range slot {
			slot[i] = -1
		}
	case indexed:
		ids = map[int64]int32{}
	default:
		byKey = map[string]int32{}
	}
	buf := make([]byte, 8*d)
	// find returns the atom of the product of x's atom i and y's atom j,
	// and false when it is new; add records a new atom.
	find := func(i, j int) (int32, bool) {
		switch {
		case slot != nil:
			k := slot[ox[i]+oy[j]]
			return k, k >= 0
		case ids != nil:
			k, ok := ids[ox[i]+oy[j]]
			return k, ok
		}
		kx, ky := x.key(i), y.key(j)
		for l := range d {
			binary.LittleEndian.PutUint64(buf[8*l:], uint64(kx[l]+ky[l]))
		}
		k, ok := byKey[string(buf)]
		return k, ok
	}
	add := func(i, j int, k int32) {
		switch {
		case slot != nil:
			slot[ox[i]+oy[j]] = k
		case ids != nil:
			ids[ox[i]+oy[j]] = k
		default:
			byKey[string(buf)] = k // buf holds the key find wrote
		}
	}
	count := 0
	var ps, pt big.Int
	// The context is looked at every ctxWords word operations or so: a
	// product of two masses of many runs multiplies thousands of words.
	words := 8 // a product of keys is a look-up
	if !z.keysOnly {
		words = (1 + max(x.ds.BitLen(), x.dt.BitLen())/64) * (1 + max(y.ds.BitLen(), y.dt.BitLen())/64)
	}
	work := 0
	for i := range n {
		j0 := 0
		if square {
			j0 = i // in a square the product i < j stands for (i, j) and (j, i)
		}
		for j := j0; j < m; j++ {
			if work += words; work >= ctxWords {
				work = 0
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			k, ok := find(i, j)
			if !ok {
				k = int32(count)
				add(i, j, k)
				count++
				if count <= limit {
					kx, ky := x.key(i), y.key(j)
					for l := range d {
						z.exp = append(z.exp, kx[l]+ky[l])
					}
					if !z.keysOnly {
						z.s = append(z.s, new(big.Int))
						z.t = append(z.t, new(big.Int))
					}
				}
			}
			if count > limit || z.keysOnly {
				continue // only counting
			}
			ps.Mul(x.s[i], y.s[j])
			pt.Mul(x.t[i], y.t[j])
			if square && j != i {
				ps.Lsh(&ps, 1)
				pt.Lsh(&pt, 1)
			}
			z.s[k].Add(z.s[k], &ps)
			z.t[k].Add(z.t[k], &pt)
		}
	}
	if count > limit {
		return nil, &tooMany{count, z.runs}
	}
	z.n = count
	return z, nil
}

func sum(xs []*big.Int) *big.Int {
	s := new(big.Int)
	for _, x := range xs {
		s.Add(s, x)
	}
	return s
}

// sortedDist is a distribution with its atoms in decreasing order of
// ratio, and the prefix sums of its numerators: the first p atoms have
// mass (prefS[p] + inf)/ds under s, counting the infinite loss, and
// prefT[p]/dt under t.
type sortedDist struct {
	*lossDist
	prefS, prefT []*big.Int
	ap           []exact.Approx // ≈ s[i]/t[i], the ratio up to the factor dt/ds
	scale        exact.Approx   // ≈ dt/ds
}

// sorted orders the atoms by decreasing ratio. Distinct exponent vectors
// are distinct ratios, so there are no ties; the filter orders the ratios
// it can separate, and the others are compared exactly.
func (p *lossDist) sorted(ctx context.Context) (*sortedDist, error) {
	n := p.len()
	var sc big.Int
	ap := make([]exact.Approx, n)
	for i := range n {
		ap[i] = exact.ApproxInt(p.s[i], &sc).Div(exact.ApproxInt(p.t[i], &sc))
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	var t1, t2 big.Int
	steps := 0
	var stopped error
	sort.Slice(idx, func(a, b int) bool {
		if steps++; steps%4096 == 0 && stopped == nil {
			stopped = ctx.Err()
		}
		i, j := idx[a], idx[b]
		if f := exact.CmpFilter(ap[i], ap[j]); f != 0 {
			return f > 0
		}
		t1.Mul(p.s[i], p.t[j])
		t2.Mul(p.s[j], p.t[i])
		return t1.Cmp(&t2) > 0
	})
	if stopped != nil {
		return nil, stopped
	}
	d := p.dim()
	q := &lossDist{runs: p.runs, d: p.d, n: n, ds: p.ds, dt: p.dt, inf: p.inf,
		exp: make([]int64, 0, len(p.exp)), s: make([]*big.Int, n), t: make([]*big.Int, n)}
	sd := &sortedDist{lossDist: q, ap: make([]exact.Approx, n)}
	for k, i := range idx {
		q.exp = append(q.exp, p.exp[i*d:(i+1)*d]...)
		q.s[k], q.t[k], sd.ap[k] = p.s[i], p.t[i], ap[i]
	}
	sd.prefS, sd.prefT = make([]*big.Int, n+1), make([]*big.Int, n+1)
	sd.prefS[0], sd.prefT[0] = new(big.Int).Set(q.inf), new(big.Int)
	for k := range n {
		sd.prefS[k+1] = new(big.Int).Add(sd.prefS[k], q.s[k])
		sd.prefT[k+1] = new(big.Int).Add(sd.prefT[k], q.t[k])
	}
	sd.scale = exact.ApproxInt(q.dt, &sc).Div(exact.ApproxInt(q.ds, &sc))
	return sd, nil
}

// ratio returns the exact ratio Pr_s/Pr_t of atom i.
func (p *sortedDist) ratio(i int) *big.Rat {
	num := new(big.Int).Mul(p.s[i], p.dt)
	den := new(big.Int).Mul(p.t[i], p.ds)
	return new(big.Rat).SetFrac(num, den)
}

// cmpC returns the sign of r_i − c, exactly.
func (p *sortedDist) cmpC(i int, ci *cinfo) (int, error) {
	if f := exact.CmpFilter(p.ap[i].Mul(p.scale), ci.ap); f != 0 {
		return f, nil
	}
	if ci.c != nil {
		var a, b big.Int
		a.Mul(p.s[i], p.dt)
		a.Mul(&a, ci.c.Denom())
		b.Mul(p.t[i], p.ds)
		b.Mul(&b, ci.c.Num())
		return a.Cmp(&b), nil
	}
	return ci.eps.CmpC(p.ratio(i))
}

// cmpOne returns the sign of r_i − 1.
func (p *sortedDist) cmpOne(i int) int {
	var a, b big.Int
	a.Mul(p.s[i], p.dt)
	b.Mul(p.t[i], p.ds)
	return a.Cmp(&b)
}

// above returns the number of atoms whose ratio exceeds c: they are the
// first ones.
func (p *sortedDist) above(ci *cinfo) (int, error) {
	var err error
	k := sort.Search(p.len(), func(i int) bool {
		if err != nil {
			return true
		}
		var c int
		c, err = p.cmpC(i, ci)
		return c <= 0
	})
	return k, err
}

// masses returns the probabilities under s and t of the first k atoms and
// the infinite loss.
func (p *sortedDist) masses(k int) (A, B *big.Rat) {
	return new(big.Rat).SetFrac(p.prefS[k], p.ds), new(big.Rat).SetFrac(p.prefT[k], p.dt)
}

// hockey returns H_c = A − c·B with the number k of atoms of E* (besides
// the infinite loss) and A, B.
func (p *sortedDist) hockey(ci *cinfo) (k int, A, B *big.Rat, err error) {
	if k, err = p.above(ci); err != nil {
		return 0, nil, nil, err
	}
	A, B = p.masses(k)
	return k, A, B, nil
}

// excessAt reports the sign of H(r_k) − δ where H(r_k) = A_k − r_k·B_k is
// the divergence at the ratio of atom k, from the first k atoms:
// ((prefS_k)·t_k − s_k·prefT_k)/(ds·t_k) against δ, in integers.
func (p *sortedDist) excessAt(k int, delta *big.Rat) int {
	var h, x, rhs big.Int
	h.Mul(p.prefS[k], p.t[k])
	x.Mul(p.s[k], p.prefT[k])
	h.Sub(&h, &x)
	h.Mul(&h, delta.Denom())
	rhs.Mul(p.ds, p.t[k])
	rhs.Mul(&rhs, delta.Num())
	return h.Cmp(&rhs)
}

// cStar returns the least c ≥ 1 with H_c ≤ δ for δ > 0 (nil for +∞) and
// the number k of atoms of E* there (E* = the loss above ln c*, with the
// infinite loss), with its probabilities A, B: A − c*·B = δ unless c* = 1.
// H is continuous and non-increasing in c, linear between ratios, so the
// crossing lies on the piece below the last atom k where H(r_k) ≥ δ.
func (p *sortedDist) cStar(delta *big.Rat) (cstar *big.Rat, k int, A, B *big.Rat) {
	zA, _ := p.masses(0)
	if zA.Cmp(delta) > 0 {
		return nil, 0, zA, new(big.Rat)
	}
	// The atoms of ratio > 1 are the first m.
	m := sort.Search(p.len(), func(i int) bool { return p.cmpOne(i) <= 0 })
	// H(r_i) ≥ δ is monotone in i: H grows as c = r_i decreases.
	k = sort.Search(m, func(i int) bool { return p.excessAt(i, delta) >= 0 })
	// H(r_{k-1}) < δ (or k = 0) and H(r_k) ≥ δ (or k = m: then H(1) decides).
	A, B = p.masses(k)
	if k == m {
		h := new(big.Rat).Sub(A, B)
		if h.Cmp(delta) <= 0 {
			return big.NewRat(1, 1), k, A, B
		}
	}
	if B.Sign() == 0 { // k = 0 and H = Z = δ up to r_0
		return p.ratio(0), 0, A, B
	}
	c := new(big.Rat).Sub(A, delta)
	c.Quo(c, B)
	return c, k, A, B
}
