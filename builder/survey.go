package builder

import (
	"context"
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/model"
)

// Survey returns randomized response with two coins (seeds 001 and 004):
// with probability theta1 the surveyee answers truthfully, otherwise she
// answers yes with probability theta2. The inputs are "+" (x=1, label
// in_pos) and "-" (x=0, label in_neg), neighbours of each other; the outputs
// are "Y" (y=1, label out_Y) and "N" (y=0, label out_N).
//
// Pr(Y | +) = theta1 + (1-theta1)·theta2 and Pr(Y | -) = (1-theta1)·theta2.
// theta1 = theta2 = 1/2 is the paper's survey (3/4 against 1/4).
func Survey(theta1, theta2 *big.Rat) (*model.Mechanism, error) {
	return survey(context.Background(), theta1, theta2)
}

func survey(ctx context.Context, theta1, theta2 *big.Rat) (*model.Mechanism, error) {
	if err := checkUnit("survey", "theta1", theta1, false); err != nil {
		return nil, err
	}
	if err := checkUnit("survey", "theta2", theta2, false); err != nil {
		return nil, err
	}
	lie := exact.OneMinus(theta1)
	yesIfLie := mul(lie, theta2)
	noIfLie := mul(lie, exact.OneMinus(theta2))
	b := chain.NewBuilder()
	pos := b.AddState("+", chain.Valuation{{Name: "x", Value: 1}}, "in_pos")
	neg := b.AddState("-", chain.Valuation{{Name: "x", Value: 0}}, "in_neg")
	y := b.AddState("Y", chain.Valuation{{Name: "y", Value: 1}}, "out_Y")
	n := b.AddState("N", chain.Valuation{{Name: "y", Value: 0}}, "out_N")
	b.AddTransition(pos, y, add(theta1, yesIfLie))
	b.AddTransition(pos, n, noIfLie)
	b.AddTransition(neg, y, yesIfLie)
	b.AddTransition(neg, n, add(theta1, noIfLie))
	b.MarkInput(pos)
	b.MarkInput(neg)
	c, err := buildChain(ctx, b)
	if err != nil {
		return nil, err
	}
	return &model.Mechanism{
		Chain:      c,
		Neighbours: [][2]int{{pos, neg}},
		Note:       "randomized response: truthful with probability theta1, else yes with probability theta2",
	}, nil
}
