package builder

import (
	"context"
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/poly"
)

// YarrowGeometric returns yarrow's sampling algorithm for the geometric
// mechanism (the Harvard Privacy Tools notes Geometric Mechanism, Algorithm 2) as a chain, step by step:
//
//  1. u ← Unif(0,1); if u < (1-α)/(1+α) return f(D)          (state "k<v>_zero")
//  2. s ← ±1 with probability 1/2 each                       ("k<v>_plus", "k<v>_minus")
//  3. g ← bits drawn one at a time, each 1 with probability 1-α, until a 1
//     or until the bit budget runs out; g = the number of bits drawn
//     ("k<v>_plus_bit<j>": about to draw bit j)
//  4. return max(count_min, min(f(D) + s·g, count_max))
//
// Once f(D) + s·j is clipped to count_max (count_min), every later bit
// leads there too, whatever f(D): these draws are the states
// "max_bit<j>" ("min_bit<j>"), shared by every input.
//
// Inputs "s<v>" (in=v) for v in {count_min..count_max}, outputs "t<l>"
// (out=l), as for TruncatedGeometric, so the two can be compared with
// equivalent(…). bits is the budget; 0 means the notes' choice
// count_max - count_min, with which the output equals the truncated
// α-geometric mechanism exactly. A smaller budget caps the noise: the
// untruncated draw of the seed's Algorithm 1 run with too few bits.
// Neighbours: |v - v'| <= 1.
func YarrowGeometric(alpha *big.Rat, countMin, countMax, bits int) (*model.Mechanism, error) {
	return yarrowGeometric(context.Background(), alpha, countMin, countMax, bits)
}

func yarrowGeometric(ctx context.Context, alpha *big.Rat, countMin, countMax, bits int) (*model.Mechanism, error) {
	const name = "yarrow_geometric"
	if err := firstError(
		checkUnit(name, "alpha", alpha, true),
		checkRange(name, "count_min", countMin, -MaxRange, MaxRange),
		checkRange(name, "count_max", countMax, countMin+1, countMin+MaxRange),
	); err != nil {
		return nil, err
	}
	r := countMax - countMin
	if bits == 0 {
		bits = r
	}
	if err := checkRange(name, "bits", bits, 1, MaxRange); err != nil {
		return nil, err
	}
	note := fmt.Sprintf("yarrow's %s-geometric sampler over {%d..%d} with a budget of %d bits", alpha.RatString(), countMin, countMax, bits)
	return rats(ctx, note, func(s Sink[*big.Rat]) ([][2]int, error) {
		return yarrowRows(ctx, exact.Rats{}, alpha, countMin, countMax, bits, s)
	})
}

// yarrowRows writes YarrowGeometric (bits already the budget) into b and
// returns its neighbours.
func yarrowRows[T any](ctx context.Context, F exact.Field[T], alpha T, countMin, countMax, bits int, b Sink[T]) ([][2]int, error) {
	o := &ops[T]{F: F}
	one := o.one()
	onePlus := o.add(one, alpha)
	hit := o.sub(one, alpha)       // a bit is 1
	pZero := o.quo(hit, onePlus)   // return f(D)
	pSign := o.quo(alpha, onePlus) // noise, then this sign: 2α/(1+α)·1/2
	if o.err != nil {
		return nil, o.err
	}
	out := map[int]int{}
	for l := countMin; l <= countMax; l++ {
		out[l] = b.AddState(fmt.Sprintf("t%d", l), chain.Valuation{{Name: "out", Value: int64(l)}}, fmt.Sprintf("out_%d", l))
	}
	clip := func(v int) int { return max(countMin, min(v, countMax)) }
	// sat[i][j] is the shared draw of bit j once the result is clipped to
	// count_max (i = 0) or count_min (i = 1).
	sat := [2][]int{make([]int, bits+1), make([]int, bits+1)}
	satDraw := func(i, j int) int {
		if sat[i][j] > 0 {
			return sat[i][j] - 1
		}
		bound, dir := countMax, "max"
		if i == 1 {
			bound, dir = countMin, "min"
		}
		// Create the draws j.. that are missing, then their rows.
		last := j
		for last <= bits && sat[i][last] == 0 {
			sat[i][last] = b.AddState(fmt.Sprintf("%s_bit%d", dir, last), nil) + 1
			last++
		}
		for l := j; l < last; l++ {
			draw := sat[i][l] - 1
			if l < bits {
				b.AddTransition(draw, out[bound], hit)
				b.AddTransition(draw, sat[i][l+1]-1, alpha)
			} else {
				b.AddTransition(draw, out[bound], one)
			}
		}
		return sat[i][j] - 1
	}
	in := map[int]int{}
	for v := countMin; v <= countMax; v++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s := b.AddState(fmt.Sprintf("s%d", v), chain.Valuation{{Name: "in", Value: int64(v)}}, fmt.Sprintf("in_%d", v))
		in[v] = s
		b.MarkInput(s)
		zero := b.AddState(fmt.Sprintf("k%d_zero", v), nil)
		b.AddTransition(s, zero, pZero)
		b.AddTransition(zero, out[v], one)
		for _, sign := range []int{1, -1} {
			dir := "plus"
			if sign < 0 {
				dir = "minus"
			}
			st := b.AddState(fmt.Sprintf("k%d_%s", v, dir), nil)
			b.AddTransition(s, st, pSign)
			prev := st
			prevP := one
			for j := 1; j <= bits; j++ {
				if v+sign*j >= countMax || v+sign*j <= countMin {
					b.AddTransition(prev, satDraw((1-sign)/2, j), prevP)
					break
				}
				draw := b.AddState(fmt.Sprintf("k%d_%s_bit%d", v, dir, j), nil)
				b.AddTransition(prev, draw, prevP)
				if j < bits {
					b.AddTransition(draw, out[clip(v+sign*j)], hit) // bit j is 1: g = j
				} else {
					b.AddTransition(draw, out[clip(v+sign*j)], one) // budget spent: g = bits
				}
				prev, prevP = draw, alpha
			}
		}
	}
	var pairs [][2]int
	for v := countMin; v < countMax; v++ {
		pairs = append(pairs, [2]int{in[v], in[v+1]})
	}
	return pairs, nil
}

// paramYarrow is yarrow_geometric for every value of its alpha.
func paramYarrow(ctx context.Context, a *Args, p Parametric) (*Table[poly.RatFunc], error) {
	countMin, countMax, bits := a.Int("count_min"), a.Int("count_max"), a.Int("bits")
	r := countMax - countMin
	if bits == 0 {
		bits = r
	}
	if r < 1 || r > maxParamRange || bits < 1 || bits > maxParamRange || countMin < -maxParamRange || countMin > maxParamRange {
		return nil, fmt.Errorf("yarrow geometric: counts %d..%d with %d bits: need 1 ≤ count_max − count_min ≤ %d, |count_min| ≤ %d and 1 ≤ bits ≤ %d",
			countMin, countMax, bits, maxParamRange, maxParamRange, maxParamRange)
	}
	return p.table(func(s Sink[poly.RatFunc]) ([][2]int, error) {
		return yarrowRows(ctx, p.Field, p.Field.X(), countMin, countMax, bits, s)
	})
}
