package verify

import (
	"context"
	"fmt"
	"math/big"
	"sort"
)

// sparse is a sparse vector over column indices. Values are read-only
// (they may be shared).
type sparse map[int]*big.Rat

// solveMMatrix solves A·X = B exactly, where A is a k×k non-singular
// M-matrix given by sparse rows (A = I - Q for the transition matrix Q
// of a transient strongly connected set of states) and B has one sparse row
// per unknown over arbitrary columns. It returns X with one sparse row per
// unknown.
//
// Gaussian elimination needs no pivoting: every Schur complement of a
// non-singular M-matrix is again one, so the pivots stay positive. Rows are
// eliminated in their given order; callers order unknowns so that
// neighbours are close (state order), which keeps banded systems such as
// random walks free of fill-in.
//
// A block whose elimination would fill in (wantsDixon) is solved by p-adic
// lifting instead (solveDixon, which checks its answer exactly), and by
// elimination only if that gives up.
func solveMMatrix(ctx context.Context, a, b []sparse) ([]sparse, error) {
	if wantsDixon(a) {
		x, ok, err := solveDixon(ctx, a, b)
		if err != nil || ok {
			return x, err
		}
	}
	return eliminate(ctx, a, b)
}

// eliminate is solveMMatrix's elimination over the rationals; it
// modifies a and b.
func eliminate(ctx context.Context, a, b []sparse) ([]sparse, error) {
	k := len(a)
	// colRows[c] = rows below the diagonal with a non-zero in column c.
	colRows := make([]map[int]bool, k)
	for i := range colRows {
		colRows[i] = map[int]bool{}
	}
	for i, row := range a {
		for c := range row {
			if c < i {
				colRows[c][i] = true
			}
		}
	}
	tmp := new(big.Rat)
	for i := range k {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		piv := a[i][i]
		if piv == nil || piv.Sign() <= 0 {
			return nil, fmt.Errorf("internal error: non-positive pivot in row %d of an absorption system", i)
		}
		rows := make([]int, 0, len(colRows[i]))
		for j := range colRows[i] {
			rows = append(rows, j)
		}
		sort.Ints(rows)
		for n, j := range rows {
			if n%16 == 15 { // a row of a dense block costs up to k operations
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			if a[j][i] == nil { // cancelled to zero by an earlier step
				continue
			}
			f := new(big.Rat).Quo(a[j][i], piv)
			delete(a[j], i)
			for c, v := range a[i] {
				if c <= i {
					continue
				}
				tmp.Mul(f, v)
				addTo(a[j], c, tmp, -1)
				if c < j { // fill-in below the diagonal
					colRows[c][j] = true
				}
			}
			for c, v := range b[i] {
				tmp.Mul(f, v)
				addTo(b[j], c, tmp, -1)
			}
		}
	}
	// Back substitution.
	x := make([]sparse, k)
	for i := k - 1; i >= 0; i-- {
		if i%16 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		acc := sparse{}
		for c, v := range b[i] {
			acc[c] = v
		}
		for c, v := range a[i] {
			if c <= i {
				continue
			}
			for col, xv := range x[c] {
				tmp.Mul(v, xv)
				addTo(acc, col, tmp, -1)
			}
		}
		piv := a[i][i]
		for col, v := range acc {
			acc[col] = new(big.Rat).Quo(v, piv)
		}
		x[i] = acc
	}
	return x, nil
}

// addTo sets v[c] += sign·x, allocating a fresh value (entries are shared
// and must not be modified in place), and deletes entries that become 0.
func addTo(v sparse, c int, x *big.Rat, sign int) {
	old := v[c]
	var nv *big.Rat
	switch {
	case old == nil && sign > 0:
		nv = new(big.Rat).Set(x)
	case old == nil:
		nv = new(big.Rat).Neg(x)
	case sign > 0:
		nv = new(big.Rat).Add(old, x)
	default:
		nv = new(big.Rat).Sub(old, x)
	}
	if nv.Sign() == 0 {
		delete(v, c)
		return
	}
	v[c] = nv
}
