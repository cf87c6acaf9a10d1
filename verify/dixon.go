package verify

import (
	"context"
	"math/big"
	"math/bits"
	"runtime"
	"slices"
	"sync"
)

// Dense systems by p-adic lifting.
//
// solveMMatrix's rational elimination is fast while the elimination keeps
// the rows sparse; on a block where every state reaches most others in
// a few steps (Herman's ring, a random walk on a hypercube) the rows fill
// in, and each of the k³/3 operations is then on rationals of thousands of
// bits. Dixon's algorithm ("Exact solution of linear equations using
// P-adic expansions") does the same work once in word arithmetic modulo a
// prime p: A's rows are made integer, A = LU mod p is factored once
// (dense), and the solution's p-adic digits are lifted one at a time,
// each a solve with the factors and an exact update of the integer
// residual. The rationals are read back from enough digits by rational
// reconstruction (a half extended Euclid) and the result is checked
// against the equations exactly — A·X = B in integers — before it is
// used, so the answer never rests on a bound or on the prime: what is
// returned is the unique solution, or nothing (and the caller eliminates
// over the rationals).

// dixonMinStates and dixonMaxStates bound the blocks solved by lifting:
// smaller ones are cheap either way; larger ones would hold a dense k×k
// factorisation (8·k² bytes: 134 MB at the bound).
const (
	dixonMinStates = 48
	dixonMaxStates = 4096
)

// dixonPrimes are primes below 2²⁰: a product of two residues is below
// 2⁴⁰, so the factorisation adds up to 2²³ of them to an entry before it
// must reduce it — more than the dixonMaxStates it may get. A
// factorisation that meets a zero pivot modulo one (the determinant
// divisible by it) takes the next.
var dixonPrimes = [...]uint64{1048573, 1048571, 1048559, 1048549, 1048517}

// LiftingMinStates is the least number of unknowns SolveLifted
// considers: below it, elimination is cheap either way.
const LiftingMinStates = dixonMinStates

// SolveLifted solves A·x = b exactly by p-adic lifting (docs/semantics.md
// §4.1), for a solver of its own (an MDP's policy iteration) whose
// elimination of A's rows, in their order, would fill in. rows[i] maps a
// column to A's entry; neither rows nor b is modified. ok is false when
// lifting does not apply (few unknowns, little fill-in, more than 4 096
// unknowns) or gives up; the caller then eliminates.
func SolveLifted(ctx context.Context, rows []map[int]*big.Rat, b []*big.Rat) (x []*big.Rat, ok bool, err error) {
	a := make([]sparse, len(rows))
	for i, r := range rows {
		a[i] = sparse(r)
	}
	if !wantsDixon(a) {
		return nil, false, nil
	}
	bs := make([]sparse, len(b))
	for i, v := range b {
		bs[i] = sparse{}
		if v.Sign() != 0 {
			bs[i][0] = v
		}
	}
	sol, ok, err := solveDixon(ctx, a, bs)
	if err != nil || !ok {
		return nil, false, err
	}
	x = make([]*big.Rat, len(sol))
	for i, r := range sol {
		if x[i] = r[0]; x[i] == nil {
			x[i] = new(big.Rat)
		}
	}
	return x, true, nil
}

// wantsDixon reports whether the system with rows a is better solved by
// lifting: its elimination in the given order, bounded by the matrix's
// envelope (every fill-in of elimination without pivoting lies between a
// row's first entry and the diagonal, and likewise in a column), would
// take more than a hundredth of the k³/3 operations of dense
// factorisation — each rational operation costs far more than a hundred
// word operations once the rows fill in.
func wantsDixon(a []sparse) bool {
	k := len(a)
	if k < dixonMinStates || k > dixonMaxStates {
		return false
	}
	first := make([]int, k) // the first row with an entry in column c
	for c := range first {
		first[c] = c
	}
	rowFirst := make([]int, k)
	for i, row := range a {
		rowFirst[i] = i
		for c := range row {
			if c < rowFirst[i] {
				rowFirst[i] = c
			}
			if c > i && i < first[c] {
				first[c] = i
			}
		}
	}
	// A float estimate only chooses the solver: both give the same exact
	// values (lifting's are checked), so it cannot change a verdict.
	var env float64 // Σ_i (row width)·(column height), at most k³/3
	for i := range k {
		env += float64(i-rowFirst[i]) * float64(i-first[i])
	}
	kk := float64(k)
	return env > kk*kk*kk/3/100
}

// modPrime is arithmetic modulo a prime p < 2²⁰, reducing with Barrett's
// method (a multiplication by ⌊(2⁶⁴−1)/p⌋ instead of a division).
type modPrime struct {
	p, mu uint64
}

func newModPrime(p uint64) modPrime { return modPrime{p: p, mu: ^uint64(0) / p} }

// red returns x mod p.
func (m modPrime) red(x uint64) uint64 {
	q, _ := bits.Mul64(x, m.mu)
	r := x - q*m.p
	for r >= m.p {
		r -= m.p
	}
	return r
}

// axpy sets dst[c] += f·src[c] for src[c] < p and f < p, without reducing:
// the inner loop of the factorisation.
func axpy(dst, src []uint64, f uint64) {
	dst = dst[:len(src)]
	for c, v := range src {
		dst[c] += f * v
	}
}

// inv returns x⁻¹ mod p (x ≠ 0), by Fermat: x^(p−2).
func (m modPrime) inv(x uint64) uint64 {
	r, b, e := uint64(1), x, m.p-2
	for e > 0 {
		if e&1 == 1 {
			r = m.red(r * b)
		}
		b, e = m.red(b*b), e>>1
	}
	return r
}

// luMod is a dense factorisation P·A = L·U modulo a prime: rows[i] holds
// U from the diagonal on and L (unit diagonal) before it, every entry
// reduced; row i of the factors is row perm[i] of A.
type luMod struct {
	m    modPrime
	rows [][]uint64
	perm []int
	inv  []uint64 // the inverses of U's diagonal
}

// factorMod factors the integer matrix a (rows of (column, value)) modulo
// m; ok is false when it is singular there. The rows below the pivot
// take their updates unreduced (dixonPrimes says why that cannot
// overflow) and are reduced where read: an entry of the pivot column
// when the pivot is sought, a row when it becomes the pivot row.
func factorMod(ctx context.Context, a [][]intEntry, m modPrime) (lu *luMod, ok bool, err error) {
	k := len(a)
	back := make([]uint64, k*k)
	rows := make([][]uint64, k)
	perm := make([]int, k)
	var t big.Int
	pb := new(big.Int).SetUint64(m.p)
	workers := runtime.GOMAXPROCS(0)
	var below [][]uint64
	for i, row := range a {
		rows[i], perm[i] = back[i*k:(i+1)*k:(i+1)*k], i
		for _, e := range row {
			rows[i][e.c] = t.Mod(e.v, pb).Uint64()
		}
	}
	for i := range k {
		if i%32 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, false, err
			}
		}
		below = below[:0]
		piv := -1
		for j := i; j < k; j++ {
			if rows[j][i] = m.red(rows[j][i]); rows[j][i] == 0 {
				continue
			}
			if piv < 0 {
				piv = j
			} else {
				below = append(below, rows[j])
			}
		}
		if piv < 0 {
			return nil, false, nil
		}
		if piv != i {
			// Row i, now below, has a zero in the pivot column: it needs
			// no update.
			rows[i], rows[piv] = rows[piv], rows[i]
			perm[i], perm[piv] = perm[piv], perm[i]
		}
		ri := rows[i][i+1:]
		for c, v := range ri {
			ri[c] = m.red(v)
		}
		inv := m.inv(rows[i][i])
		update := func(rj []uint64) {
			f := m.red(rj[i] * inv)
			rj[i] = f
			axpy(rj[i+1:], ri, m.p-f)
		}
		// The rows below are independent: on a large step, each worker
		// takes a share of them.
		if workers > 1 && len(below)*len(ri) >= 1<<16 {
			var wg sync.WaitGroup
			for w := range workers {
				wg.Go(func() {
					for j := w; j < len(below); j += workers {
						update(below[j])
					}
				})
			}
			wg.Wait()
			continue
		}
		for _, rj := range below {
			update(rj)
		}
	}
	inv := make([]uint64, k)
	for i, row := range rows {
		inv[i] = m.inv(row[i])
	}
	return &luMod{m: m, rows: rows, perm: perm, inv: inv}, true, nil
}

// solve overwrites v (residues of the right-hand side, in A's row order)
// with A⁻¹·v mod p.
func (lu *luMod) solve(v, tmp []uint64) {
	m, k := lu.m, len(lu.rows)
	for i, r := range lu.perm {
		tmp[i] = v[r]
	}
	for i := range k { // L·y = P·v
		acc := tmp[i]
		row := lu.rows[i][:i]
		for l, f := range row {
			if f != 0 {
				acc = m.red(acc + (m.p-f)*tmp[l])
			}
		}
		tmp[i] = acc
	}
	for i := k - 1; i >= 0; i-- { // U·x = y
		acc := tmp[i]
		row := lu.rows[i]
		for l := i + 1; l < k; l++ {
			if f := row[l]; f != 0 {
				acc = m.red(acc + (m.p-f)*tmp[l])
			}
		}
		tmp[i] = m.red(acc * lu.inv[i])
	}
	copy(v, tmp)
}

// intEntry is an entry of an integer matrix.
type intEntry struct {
	c int
	v *big.Int
}

// solveDixon solves A·X = B as solveMMatrix does (a, b are not modified),
// by p-adic lifting. ok is false when it gives up — the matrix singular
// modulo every prime tried, or no solution checked within the digits
// Hadamard's bound says suffice — and the caller then eliminates over
// the rationals.
func solveDixon(ctx context.Context, a, b []sparse) (x []sparse, ok bool, err error) {
	k := len(a)
	// A's rows made integer: row i times the lcm of its denominators,
	// Â = D·A, and B̃ = D·B.
	ai := make([][]intEntry, k)
	scale := make([]*big.Int, k)
	var hadamard int // log₂ of Hadamard's bound on det Â, rounded up
	for i, row := range a {
		l := big.NewInt(1)
		for _, v := range row {
			lcm(l, v.Denom())
		}
		scale[i] = l
		var norm big.Int
		for c, v := range row {
			e := new(big.Int).Quo(new(big.Int).Mul(v.Num(), l), v.Denom())
			ai[i] = append(ai[i], intEntry{c, e})
			norm.Add(&norm, new(big.Int).Abs(e))
		}
		slices.SortFunc(ai[i], func(x, y intEntry) int { return x.c - y.c })
		hadamard += norm.BitLen()
	}
	var cols []int
	colOf := map[int]int{}
	for _, row := range b {
		for c := range row {
			if _, seen := colOf[c]; !seen {
				colOf[c] = 0
				cols = append(cols, c)
			}
		}
	}
	slices.Sort(cols)
	for j, c := range cols {
		colOf[c] = j
	}
	nc := len(cols)
	// The residual R = B̃ − Â·(the digits so far), divided by p after each
	// digit, is kept entry by entry as num/den over B̃'s denominator, which
	// never changes. colBits bounds the bits of B̃'s column j over one
	// denominator (Σ of the distinct denominators' bits, and the largest
	// numerator), for the bound on the solution's size.
	resid := make([]residue, k*nc)
	colBits := make([]int, nc)
	numBits := make([]int, nc) // the largest numerator of column j
	dens := make([]map[string]bool, nc)
	for i, row := range b {
		for c, v := range row {
			j := colOf[c]
			e := &resid[i*nc+j]
			bt := new(big.Rat).Mul(v, new(big.Rat).SetInt(scale[i]))
			e.target = bt
			e.num.Set(bt.Num())
			if !bt.IsInt() {
				e.den = bt.Denom()
				if dens[j] == nil {
					dens[j] = map[string]bool{}
				}
				if key := string(e.den.Bytes()); !dens[j][key] {
					dens[j][key] = true
					colBits[j] += e.den.BitLen()
				}
			}
			numBits[j] = max(numBits[j], e.num.BitLen())
		}
	}
	// Every solution entry is n/d with |n|, d < 2^size (Cramer's rule over
	// B̃'s common denominators), and M = p^steps > 2·max(|n|, d)² suffices.
	size := hadamard + bits.Len(uint(k)) + 1
	if nc > 0 {
		most := 0
		for j := range nc {
			most = max(most, colBits[j]+numBits[j])
		}
		size += most
	}
	capBits := 2*size + 64

	lu, err := factorAny(ctx, ai, resid)
	if err != nil || lu == nil {
		return nil, false, err
	}
	m := lu.m
	pb := new(big.Int).SetUint64(m.p)
	acc := make([]big.Int, k*nc) // Σ digits·p^i
	pow := big.NewInt(1)         // p^steps
	v, tmp := make([]uint64, k), make([]uint64, k)
	y := make([]uint64, k*nc)
	sum := make([]big.Int, nc)
	var t, rem big.Int
	check := 8
	for steps := 1; ; steps++ {
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
		for j := range nc {
			for i := range k {
				v[i] = resid[i*nc+j].mod(m, pb, &t)
			}
			lu.solve(v, tmp)
			for i := range k {
				y[i*nc+j] = v[i]
			}
		}
		// acc += y·p^(steps−1); R = (R − Â·y)/p.
		for e, d := range y {
			if d != 0 {
				acc[e].Add(&acc[e], t.Mul(t.SetUint64(d), pow))
			}
		}
		pow.Mul(pow, pb)
		for i, row := range ai {
			for j := range sum {
				sum[j].SetInt64(0)
			}
			for _, en := range row {
				for j := range nc {
					if d := y[en.c*nc+j]; d != 0 {
						sum[j].Add(&sum[j], t.Mul(en.v, t.SetUint64(d)))
					}
				}
			}
			for j := range nc {
				r := &resid[i*nc+j]
				if r.den != nil {
					sum[j].Mul(&sum[j], r.den)
				}
				r.num.Sub(&r.num, &sum[j])
				if r.num.QuoRem(&r.num, pb, &rem); rem.Sign() != 0 {
					return nil, false, nil // cannot happen: Â·y ≡ R (mod p)
				}
			}
		}
		if steps < check && pow.BitLen() < capBits {
			continue
		}
		check = max(steps+8, steps*3/2)
		x, ok, err := reconstruct(ctx, ai, resid, acc, pow, cols, k, nc)
		if err != nil || ok {
			return x, ok, err
		}
		if pow.BitLen() >= capBits {
			return nil, false, nil
		}
	}
}

// residue is an entry of the lifting's residual, num/den (den nil: 1),
// with its inverse modulo the prime, and the entry of B̃ it started as.
type residue struct {
	num    big.Int
	den    *big.Int
	dinv   uint64
	target *big.Rat
}

// mod returns the residue modulo m.
func (r *residue) mod(m modPrime, pb, t *big.Int) uint64 {
	v := t.Mod(&r.num, pb).Uint64()
	if r.den == nil {
		return v
	}
	return m.red(v * r.dinv)
}

// factorAny factors Â modulo the first of dixonPrimes that divides
// neither det Â nor a denominator of the residual (whose inverses it
// sets); nil when every one does.
func factorAny(ctx context.Context, ai [][]intEntry, resid []residue) (*luMod, error) {
	var t big.Int
next:
	for _, p := range dixonPrimes {
		m := newModPrime(p)
		pb := new(big.Int).SetUint64(p)
		for e := range resid {
			if d := resid[e].den; d != nil {
				dm := t.Mod(d, pb).Uint64()
				if dm == 0 {
					continue next
				}
				resid[e].dinv = m.inv(dm)
			}
		}
		lu, ok, err := factorMod(ctx, ai, m)
		if err != nil {
			return nil, err
		}
		if ok {
			return lu, nil
		}
	}
	return nil, nil
}

// reconstruct reads the rational solution X of Â·X = B̃ from its residues
// acc modulo M, with a common denominator, and checks Â·X = B̃ exactly;
// ok is false when the digits do not yet determine it.
func reconstruct(ctx context.Context, ai [][]intEntry, resid []residue, acc []big.Int, M *big.Int, cols []int, k, nc int) ([]sparse, bool, error) {
	half := new(big.Int).Rsh(M, 1)
	bound := new(big.Int).Sqrt(half) // |n|, d ≤ √(M/2)
	den := big.NewInt(1)
	nums := make([]big.Int, k*nc) // X = nums/den once den is final
	dens := make([]*big.Int, k*nc)
	var t big.Int
	for e := range acc {
		if e%64 == 63 {
			if err := ctx.Err(); err != nil {
				return nil, false, err
			}
		}
		if acc[e].Sign() == 0 {
			continue
		}
		t.Mul(&acc[e], den)
		t.Mod(&t, M)
		if t.Cmp(half) > 0 {
			t.Sub(&t, M)
		}
		if t.CmpAbs(bound) <= 0 {
			nums[e].Set(&t)
			dens[e] = den
			continue
		}
		n, d, ok := ratRecon(&acc[e], M, bound)
		if !ok {
			return nil, false, nil
		}
		nums[e].Set(n)
		dens[e] = d
		den = new(big.Int).Set(den) // earlier entries keep the old one
		lcm(den, d)
	}
	// Bring every numerator to den, then check Â·nums = den·B̃ row by row.
	for e := range nums {
		if dens[e] != nil && dens[e].Cmp(den) != 0 {
			nums[e].Mul(&nums[e], t.Quo(den, dens[e]))
		}
	}
	var sum, rhs big.Int
	for i, row := range ai {
		for j := range nc {
			sum.SetInt64(0)
			for _, en := range row {
				if n := &nums[en.c*nc+j]; n.Sign() != 0 {
					sum.Add(&sum, t.Mul(en.v, n))
				}
			}
			// Σ = den·num/d: Σ·d = den·num.
			rhs.SetInt64(0)
			if bt := resid[i*nc+j].target; bt != nil {
				rhs.Mul(bt.Num(), den)
				sum.Mul(&sum, bt.Denom())
			}
			if sum.Cmp(&rhs) != 0 {
				return nil, false, nil
			}
		}
	}
	x := make([]sparse, k)
	for i := range k {
		x[i] = sparse{}
		for j := range nc {
			if n := &nums[i*nc+j]; n.Sign() != 0 {
				x[i][cols[j]] = new(big.Rat).SetFrac(new(big.Int).Set(n), den)
			}
		}
	}
	return x, true, nil
}

// ratRecon finds n/d ≡ u (mod M) with |n| ≤ bound and 0 < d ≤ bound, by
// the extended Euclidean algorithm stopped halfway (Wang's rational
// reconstruction); ok is false when there is none.
func ratRecon(u, M, bound *big.Int) (n, d *big.Int, ok bool) {
	r0, r1 := new(big.Int).Set(M), new(big.Int).Mod(u, M)
	t0, t1 := new(big.Int), big.NewInt(1)
	var q, tmp big.Int
	for r1.CmpAbs(bound) > 0 {
		q.Quo(r0, r1)
		tmp.Mul(&q, r1)
		r0.Sub(r0, &tmp)
		r0, r1 = r1, r0
		tmp.Mul(&q, t1)
		t0.Sub(t0, &tmp)
		t0, t1 = t1, t0
	}
	if t1.Sign() == 0 || t1.CmpAbs(bound) > 0 {
		return nil, nil, false
	}
	if t1.Sign() < 0 {
		t1.Neg(t1)
		r1.Neg(r1)
	}
	if new(big.Int).GCD(nil, nil, new(big.Int).Abs(r1), t1).Cmp(intOne) != 0 {
		return nil, nil, false
	}
	return r1, t1, true
}
