package param

import (
	"context"
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/poly"
)

// YarrowGeometric returns yarrow's sampler for the geometric mechanism
// (the Harvard Privacy Tools notes Geometric Mechanism, Algorithm 2; builder.YarrowGeometric) for every α in (0, 1),
// with the same states (in the same order), names, valuations, labels,
// inputs and neighbours as builder.YarrowGeometric(α, countMin, countMax,
// bits) and its rows as rational functions of α: from input "s<v>" to
// "k<v>_zero" with (1−α)/(1+α) and to "k<v>_plus" and "k<v>_minus" with
// α/(1+α) each; "k<v>_zero" goes to "t<v>"; bit j ("k<v>_<dir>_bit<j>") is
// 1 with probability 1−α (output clip(v ± j)) and otherwise, with α, the
// next bit is drawn, the last bit going to clip(v ± bits) with 1; once
// v ± j is clipped, bit j is the state "max_bit<j>" ("min_bit<j>") shared
// by every input. bits = 0
// is the notes' budget countMax − countMin. The range countMax − countMin
// and the budget are at most MaxRange. The parameter is named "alpha".
func YarrowGeometric(ctx context.Context, lim poly.Limits, countMin, countMax, bits int) (*Chain, error) {
	r := countMax - countMin
	if bits == 0 {
		bits = r
	}
	if r < 1 || r > MaxRange || bits < 1 || bits > MaxRange || countMin < -MaxRange || countMin > MaxRange {
		return nil, fmt.Errorf("%w: yarrow geometric: counts %d..%d with %d bits: need 1 ≤ count_max − count_min ≤ %d, |count_min| ≤ %d and 1 ≤ bits ≤ %d",
			ErrParam, countMin, countMax, bits, MaxRange, MaxRange, MaxRange)
	}
	var names []string
	var vals []chain.Valuation
	var labels [][]string
	var inputs []int
	var rows [][]Trans
	add := func(name string, v chain.Valuation, label string) int {
		names = append(names, name)
		vals = append(vals, v)
		var ls []string
		if label != "" {
			ls = []string{label}
		}
		labels = append(labels, ls)
		rows = append(rows, nil)
		return len(names) - 1
	}
	out := map[int]int{}
	for l := countMin; l <= countMax; l++ {
		out[l] = add(fmt.Sprintf("t%d", l), chain.Valuation{{Name: "out", Value: int64(l)}}, fmt.Sprintf("out_%d", l))
	}
	one := poly.FromPoly(poly.FromInts(1))
	alpha := poly.FromPoly(poly.X())
	hit := poly.FromPoly(poly.FromInts(1, -1)) // a bit is 1: 1 − α
	pZero, err := lim.RatFunc(ctx, poly.FromInts(1, -1), poly.FromInts(1, 1))
	if err != nil {
		return nil, err
	}
	pSign, err := lim.RatFunc(ctx, poly.X(), poly.FromInts(1, 1))
	if err != nil {
		return nil, err
	}
	clip := func(v int) int { return max(countMin, min(v, countMax)) }
	// sat[i][j] (+1) is the draw of bit j once the result is clipped to
	// count_max (i = 0) or count_min (i = 1), shared by every input, as in
	// the builder: the missing draws j.. are made on first use, then
	// their rows.
	sat := [2][]int{make([]int, bits+1), make([]int, bits+1)}
	satDraw := func(i, j int) int {
		if sat[i][j] > 0 {
			return sat[i][j] - 1
		}
		bound, dir := countMax, "max"
		if i == 1 {
			bound, dir = countMin, "min"
		}
		last := j
		for last <= bits && sat[i][last] == 0 {
			sat[i][last] = add(fmt.Sprintf("%s_bit%d", dir, last), nil, "") + 1
			last++
		}
		for l := j; l < last; l++ {
			draw := sat[i][l] - 1
			if l < bits {
				rows[draw] = []Trans{{To: out[bound], P: hit}, {To: sat[i][l+1] - 1, P: alpha}}
			} else {
				rows[draw] = []Trans{{To: out[bound], P: one}}
			}
		}
		return sat[i][j] - 1
	}
	in := map[int]int{}
	for v := countMin; v <= countMax; v++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s := add(fmt.Sprintf("s%d", v), chain.Valuation{{Name: "in", Value: int64(v)}}, fmt.Sprintf("in_%d", v))
		in[v] = s
		inputs = append(inputs, s)
		zero := add(fmt.Sprintf("k%d_zero", v), nil, "")
		rows[s] = append(rows[s], Trans{To: zero, P: pZero})
		rows[zero] = []Trans{{To: out[v], P: one}}
		for _, sign := range []int{1, -1} {
			dir := "plus"
			if sign < 0 {
				dir = "minus"
			}
			st := add(fmt.Sprintf("k%d_%s", v, dir), nil, "")
			rows[s] = append(rows[s], Trans{To: st, P: pSign})
			prev, prevP := st, one
			for j := 1; j <= bits; j++ {
				if v+sign*j >= countMax || v+sign*j <= countMin {
					rows[prev] = append(rows[prev], Trans{To: satDraw((1-sign)/2, j), P: prevP})
					break
				}
				draw := add(fmt.Sprintf("k%d_%s_bit%d", v, dir, j), nil, "")
				rows[prev] = append(rows[prev], Trans{To: draw, P: prevP})
				if j < bits {
					rows[draw] = append(rows[draw], Trans{To: out[clip(v+sign*j)], P: hit}) // bit j is 1: g = j
				} else {
					rows[draw] = append(rows[draw], Trans{To: out[clip(v+sign*j)], P: one}) // budget spent: g = bits
				}
				prev, prevP = draw, alpha
			}
		}
	}
	frame, err := Frame(names, vals, labels, inputs)
	if err != nil {
		return nil, err
	}
	var pairs [][2]int
	for v := countMin; v < countMax; v++ {
		pairs = append(pairs, [2]int{in[v], in[v+1]})
	}
	return New(ctx, lim, frame, "alpha", poly.Open(new(big.Rat), big.NewRat(1, 1)), rows, pairs)
}
