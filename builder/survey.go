package builder

import (
	"context"
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/poly"
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
	if err := firstError(checkUnit("survey", "theta1", theta1, false), checkUnit("survey", "theta2", theta2, false)); err != nil {
		return nil, err
	}
	note := "randomized response: truthful with probability theta1, else yes with probability theta2"
	return rats(ctx, note, func(s Sink[*big.Rat]) ([][2]int, error) {
		return surveyRows(exact.Rats{}, theta1, theta2, s)
	})
}

// surveyRows writes Survey into s and returns its neighbours.
func surveyRows[T any](F exact.Field[T], theta1, theta2 T, s Sink[T]) ([][2]int, error) {
	o := &ops[T]{F: F}
	lie := o.sub(o.one(), theta1)
	yesIfLie := o.mul(lie, theta2)
	noIfLie := o.mul(lie, o.sub(o.one(), theta2))
	pos := s.AddState("+", chain.Valuation{{Name: "x", Value: 1}}, "in_pos")
	neg := s.AddState("-", chain.Valuation{{Name: "x", Value: 0}}, "in_neg")
	y := s.AddState("Y", chain.Valuation{{Name: "y", Value: 1}}, "out_Y")
	n := s.AddState("N", chain.Valuation{{Name: "y", Value: 0}}, "out_N")
	if o.err == nil {
		s.AddTransition(pos, y, o.add(theta1, yesIfLie))
		s.AddTransition(pos, n, noIfLie)
		s.AddTransition(neg, y, yesIfLie)
		s.AddTransition(neg, n, o.add(theta1, noIfLie))
	}
	s.MarkInput(pos)
	s.MarkInput(neg)
	return [][2]int{{pos, neg}}, o.err
}

// paramSurvey is survey for every value of theta1 or theta2.
func paramSurvey(_ context.Context, a *Args, p Parametric) (*Table[poly.RatFunc], error) {
	return p.table(func(s Sink[poly.RatFunc]) ([][2]int, error) {
		return surveyRows(p.Field, p.Rat(a, "theta1"), p.Rat(a, "theta2"), s)
	})
}
