package builder

import (
	"context"
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/model"
)

// MaxCategories bounds k in RandomizedResponseK.
const MaxCategories = 1000

// RandomizedResponseK returns k-ary randomized response: with probability
// theta1 the answer is the true value in {0..k-1}, otherwise a uniform
// random value. Inputs "v<i>" (v=i, label in_<i>), outputs "a<j>" (a=j,
// label out_<j>); every two inputs are neighbours. The tight ε is
// ln((theta1 + (1-theta1)/k) / ((1-theta1)/k)).
func RandomizedResponseK(theta1 *big.Rat, k int) (*model.Mechanism, error) {
	return randomizedResponseK(context.Background(), theta1, k)
}

func randomizedResponseK(ctx context.Context, theta1 *big.Rat, k int) (*model.Mechanism, error) {
	const name = "randomized_response"
	if err := firstError(checkUnit(name, "theta1", theta1, false), checkRange(name, "k", k, 2, MaxCategories)); err != nil {
		return nil, err
	}
	note := fmt.Sprintf("%d-ary randomized response: truthful with probability %s, else uniform", k, theta1.RatString())
	return rats(ctx, note, func(s Sink[*big.Rat]) ([][2]int, error) {
		return randomizedResponseRows(ctx, exact.Rats{}, theta1, k, s)
	})
}

// randomizedResponseRows writes RandomizedResponseK into b and returns its
// neighbours.
func randomizedResponseRows[T any](ctx context.Context, F exact.Field[T], theta1 T, k int, b Sink[T]) ([][2]int, error) {
	o := &ops[T]{F: F}
	other := o.quo(o.sub(o.one(), theta1), o.num(int64(k), 1))
	same := o.add(theta1, other)
	if o.err != nil {
		return nil, o.err
	}
	in := make([]int, k)
	out := make([]int, k)
	for i := range k {
		in[i] = b.AddState(fmt.Sprintf("v%d", i), chain.Valuation{{Name: "v", Value: int64(i)}}, fmt.Sprintf("in_%d", i))
		b.MarkInput(in[i])
	}
	for j := range k {
		out[j] = b.AddState(fmt.Sprintf("a%d", j), chain.Valuation{{Name: "a", Value: int64(j)}}, fmt.Sprintf("out_%d", j))
	}
	for i := range k {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for j := range k {
			if i == j {
				b.AddTransition(in[i], out[j], same)
			} else {
				b.AddTransition(in[i], out[j], other)
			}
		}
	}
	var pairs [][2]int
	for i := range k {
		for j := i + 1; j < k; j++ {
			pairs = append(pairs, [2]int{in[i], in[j]})
		}
	}
	return pairs, nil
}
