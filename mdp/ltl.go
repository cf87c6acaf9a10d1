package mdp

import (
	"context"
	"fmt"
	"math/big"
	"slices"

	"github.com/dpcheck/dpcheck/verify"
)

// LTL path formulas on MDPs (temporal operators nested in one another):
// the product of the MDP with the formula's deterministic automaton
// (verify.Automaton), whose extreme probability of reaching the automaton's
// true (co-safe formulas) or false (safe ones) is the formula's, since the
// automaton is deterministic: a scheduler of the product is one of the MDP
// that also sees the automaton's state, and such schedulers attain the
// extremes of reaching a set.

// simplePath reports whether Prob computes path without a product: a
// state formula, X^k φ, φ U ψ with its bounds, and their negations, with
// propositional operands.
func simplePath(path *verify.Formula) bool {
	switch path.Op {
	case verify.OpNot:
		return simplePath(path.Args[0])
	case verify.OpNext, verify.OpUntil:
		for _, a := range path.Args {
			if !isPropositional(a) {
				return false
			}
		}
		return true
	}
	return path.IsState()
}

// automaton returns the automaton of path over m's states.
func (m *MDP) automaton(ctx context.Context, path *verify.Formula) (*verify.Automaton, error) {
	if verify.NeedsSplit(path) {
		return nil, fmt.Errorf("mdp: %s is not supported on MDPs: dpcheck checks the LTL formulas that are co-safe (U, F, X and bounded operators once negations are pushed inward) or safe (G, R, W, X and bounded operators) there; G F φ and F G φ need both", path.Text(verify.MaxFormulaText))
	}
	return verify.NewAutomaton(ctx, path, m.NumStates(), func(g *verify.Formula) ([]bool, error) { return m.Sat(ctx, g) })
}

// product returns the product of m with a: the choices of every pair
// (s, q) are those of s, each leading to the successors' pairs. A state
// without a choice stays where it is (as Prob's schedulers do) through a
// choice of its own, so that the automaton reads it again at each step.
func (m *MDP) product(ctx context.Context, a *verify.Automaton) (*verify.Product, *MDP, error) {
	succ := func(s int) []int {
		if len(m.Choices[s]) == 0 {
			return []int{s}
		}
		var out []int
		for _, c := range m.Choices[s] {
			out = append(out, c.To...)
		}
		return out
	}
	p, err := verify.NewProduct(ctx, a, m.NumStates(), succ)
	if err != nil {
		return nil, nil, err
	}
	frame, err := p.Builder().BuildContext(ctx)
	if err != nil {
		return nil, nil, err
	}
	stay := len(m.Actions)
	actions := append(m.Actions[:stay:stay], "ltl:stay")
	choices := make([][]Choice, len(p.Pairs))
	for i, sq := range p.Pairs {
		s := int(sq[0])
		if len(m.Choices[s]) == 0 {
			k, err := p.Next(i, s)
			if err != nil {
				return nil, nil, err
			}
			choices[i] = []Choice{{Action: stay, To: []int{int(k)}, P: []*big.Rat{ratOne}}}
			continue
		}
		for _, c := range m.Choices[s] {
			to := make([]int, len(c.To))
			for j, t := range c.To {
				k, err := p.Next(i, t)
				if err != nil {
					return nil, nil, err
				}
				to[j] = int(k)
			}
			choices[i] = append(choices[i], Choice{Action: c.Action, To: to, P: c.P})
		}
	}
	pm, err := New(frame, actions, choices)
	if err != nil {
		return nil, nil, err
	}
	return p, pm, nil
}

// ltlProb is Prob of a path formula through the product.
func (m *MDP) ltlProb(ctx context.Context, path *verify.Formula, max bool) ([]*big.Rat, error) {
	a, err := m.automaton(ctx, path)
	if err != nil {
		return nil, err
	}
	p, pm, err := m.product(ctx, a)
	if err != nil {
		return nil, err
	}
	target := verify.AcceptLabel
	if !a.CoSafe { // a safe formula: one minus the opposite extreme of reaching false
		target, max = verify.RejectLabel, !max
	}
	v, err := pm.Prob(ctx, verify.Eventually(verify.Label(target), -1), max)
	if err != nil {
		return nil, err
	}
	out := make([]*big.Rat, m.NumStates())
	for s := range out {
		out[s] = v[p.Start[s]]
		if !a.CoSafe {
			out[s] = new(big.Rat).Sub(ratOne, out[s])
		}
	}
	return out, nil
}

// coSafeRewards is Rewards of the reward earned until the co-safe path
// formula path is first satisfied (PRISM's R[ψ] of co-safe LTL).
func (m *MDP) coSafeRewards(ctx context.Context, r Reward, path *verify.Formula, max bool) ([]*big.Rat, error) {
	a, err := m.automaton(ctx, path)
	if err != nil {
		return nil, err
	}
	if !a.CoSafe {
		return nil, verify.ErrNotCoSafe(path)
	}
	p, pm, err := m.product(ctx, a)
	if err != nil {
		return nil, err
	}
	lifted := Reward{State: make([]*big.Rat, len(p.Pairs)), Choice: make([][]*big.Rat, len(p.Pairs))}
	for i, sq := range p.Pairs {
		s := sq[0]
		lifted.State[i] = r.State[s]
		if len(m.Choices[s]) > 0 {
			lifted.Choice[i] = r.Choice[s]
		}
	}
	v, err := pm.Rewards(ctx, lifted, verify.RewardPath{Op: verify.RewardReach, Target: verify.Label(verify.AcceptLabel)}, max)
	if err != nil {
		return nil, err
	}
	out := make([]*big.Rat, m.NumStates())
	for s := range out {
		out[s] = v[p.Start[s]]
	}
	return out, nil
}

// Sat decides the propositional state formula f (labels, atoms, !, &, |,
// and E[ψ] and A[ψ] over the MDP's transition graph: the union of its
// choices, a state without a choice staying where it is) at every state.
// P and D inside are refused.
func (m *MDP) Sat(ctx context.Context, f *verify.Formula) ([]bool, error) {
	if !isPropositional(f) {
		return nil, errUnsupported(f, "the state formulas of a path formula must be propositional (labels, atoms, !, &, |, E[…], A[…]) on MDPs")
	}
	ch, err := verify.NewChecker(m.Frame, nil)
	if err != nil {
		return nil, err
	}
	return m.sat(ctx, ch, f)
}

func (m *MDP) sat(ctx context.Context, ch *verify.Checker, f *verify.Formula) ([]bool, error) {
	if !f.Uses(verify.OpExists) && !f.Uses(verify.OpForall) {
		return ch.Sat(ctx, f)
	}
	n := m.NumStates()
	args := make([][]bool, len(f.Args))
	if f.Op == verify.OpNot || f.Op == verify.OpAnd || f.Op == verify.OpOr {
		for i, g := range f.Args {
			var err error
			if args[i], err = m.sat(ctx, ch, g); err != nil {
				return nil, err
			}
		}
	}
	out := make([]bool, n)
	switch f.Op {
	case verify.OpNot:
		for s := range out {
			out[s] = !args[0][s]
		}
	case verify.OpAnd, verify.OpOr:
		for s := range out {
			out[s] = f.Op == verify.OpAnd
			for _, a := range args {
				if f.Op == verify.OpAnd {
					out[s] = out[s] && a[s]
				} else {
					out[s] = out[s] || a[s]
				}
			}
		}
	case verify.OpExists, verify.OpForall:
		path := f.Args[0]
		if f.Op == verify.OpForall {
			path = verify.Not(path)
		}
		succ := func(s int) []int {
			if len(m.Choices[s]) == 0 {
				return []int{s}
			}
			var to []int
			for _, c := range m.Choices[s] {
				for _, t := range c.To {
					if !slices.Contains(to, t) {
						to = append(to, t)
					}
				}
			}
			return to
		}
		e, err := verify.ExistsPath(ctx, n, succ, path, func(g *verify.Formula) ([]bool, error) { return m.sat(ctx, ch, g) })
		if err != nil {
			return nil, err
		}
		for s := range out {
			out[s] = e[s] != (f.Op == verify.OpForall)
		}
	}
	return out, nil
}
