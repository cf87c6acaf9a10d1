package builder

import (
	"context"
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/model"
)

// StreamingSum is the block sum of Composition Theorem for streaming CW-privacy, Theorem 1, given the
// auxiliary information: the private row x_i is +1 or -1 (the neighbours
// X and X', inputs "plus" and "minus", x = ±1), the other rows-1 rows of
// its block are drawn one at a time, +1 with probability p and -1
// otherwise, and the output is the block sum y (absorbing states "y<v>",
// y = v; the known sum of the auxiliary blocks is a constant shift and is
// left out). States "r<j>_y<v>": j rows drawn, and the private row plus
// their sum is v. The two inputs share these states: what follows depends
// on j and v only.
func StreamingSum(rows int, p *big.Rat) (*model.Mechanism, error) {
	return streamingSum(context.Background(), rows, p)
}

func streamingSum(ctx context.Context, rows int, p *big.Rat) (*model.Mechanism, error) {
	const name = "streaming_sum"
	if err := firstError(checkRange(name, "rows", rows, 2, 2000), checkUnit(name, "p", p, true)); err != nil {
		return nil, err
	}
	note := fmt.Sprintf("block sum of %d rows (p = %s) with the private row +1 or -1", rows, p.RatString())
	return rats(ctx, note, func(s Sink[*big.Rat]) ([][2]int, error) {
		return streamingSumRows(ctx, exact.Rats{}, rows, p, s)
	})
}

// streamingSumRows writes StreamingSum into b and returns its neighbours.
func streamingSumRows[T any](ctx context.Context, F exact.Field[T], rows int, p T, b Sink[T]) ([][2]int, error) {
	q, err := F.Sub(F.Const(one), p)
	if err != nil {
		return nil, err
	}
	outs := map[int]int{}
	output := func(v int) int {
		if id, ok := outs[v]; ok {
			return id
		}
		outs[v] = b.AddState(fmt.Sprintf("y%d", v), chain.Valuation{{Name: "y", Value: int64(v)}})
		return outs[v]
	}
	m := rows - 1
	in := map[int]int{}
	// inner[j][v] is the state after j rows with running sum v (private row
	// included), shared by both inputs.
	inner := make([]map[int]int, m)
	for _, x := range []int{1, -1} {
		label := map[int]string{1: "plus", -1: "minus"}[x]
		s := b.AddState(label, chain.Valuation{{Name: "x", Value: int64(x)}}, "in_"+label)
		in[x] = s
		b.MarkInput(s)
		// layer[s] = state with partial sum s after j rows; fresh[s] when
		// this input created it (its row is to be built).
		layer := map[int]int{0: s}
		var fresh map[int]bool
		for j := 1; j <= m; j++ {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			next := map[int]int{}
			made := map[int]bool{} // states of this layer new with this input
			get := func(sum int) int {
				if id, ok := next[sum]; ok {
					return id
				}
				v := sum + x
				if j == m {
					next[sum] = output(v)
				} else if id, ok := inner[j][v]; ok {
					next[sum] = id
				} else {
					if inner[j] == nil {
						inner[j] = map[int]int{}
					}
					next[sum] = b.AddState(fmt.Sprintf("r%d_y%d", j, v), nil)
					inner[j][v] = next[sum]
					made[sum] = true
				}
				return next[sum]
			}
			for sum := -(j - 1); sum <= j-1; sum += 2 {
				from, ok := layer[sum]
				if !ok || (j > 1 && !fresh[sum]) {
					continue // the other input built this state's row
				}
				b.AddTransition(from, get(sum+1), p)
				b.AddTransition(from, get(sum-1), q)
			}
			layer, fresh = next, made
		}
	}
	return [][2]int{{in[1], in[-1]}}, nil
}
