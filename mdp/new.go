package mdp

import (
	"fmt"
	"math/big"
)

var ratOne = big.NewRat(1, 1)

// validate checks an MDP's choices against its frame and actions.
func validate(m *MDP) error {
	if m.Frame == nil {
		return fmt.Errorf("mdp: no frame")
	}
	n := m.Frame.NumStates()
	if len(m.Choices) != n {
		return fmt.Errorf("mdp: %d rows of choices for %d states", len(m.Choices), n)
	}
	for s, cs := range m.Choices {
		seen := make(map[int]bool, len(cs))
		for _, c := range cs {
			if c.Action < 0 || c.Action >= len(m.Actions) {
				return fmt.Errorf("mdp: state %s: action index %d out of range (%d actions)", m.Frame.Name(s), c.Action, len(m.Actions))
			}
			an := m.Actions[c.Action]
			if seen[c.Action] {
				return fmt.Errorf("mdp: state %s: more than one choice for action %s", m.Frame.Name(s), an)
			}
			seen[c.Action] = true
			if len(c.To) != len(c.P) {
				return fmt.Errorf("mdp: state %s, action %s: %d targets but %d probabilities", m.Frame.Name(s), an, len(c.To), len(c.P))
			}
			if len(c.To) == 0 {
				return fmt.Errorf("mdp: state %s, action %s: no successor", m.Frame.Name(s), an)
			}
			sum := new(big.Rat)
			for i, t := range c.To {
				if t < 0 || t >= n {
					return fmt.Errorf("mdp: state %s, action %s: target %d is not a state (%d states)", m.Frame.Name(s), an, t, n)
				}
				if c.P[i] == nil || c.P[i].Sign() <= 0 {
					return fmt.Errorf("mdp: state %s, action %s: the probability to %s is not positive", m.Frame.Name(s), an, m.Frame.Name(t))
				}
				sum.Add(sum, c.P[i])
			}
			if sum.Cmp(ratOne) != 0 {
				return fmt.Errorf("mdp: state %s, action %s: the probabilities sum to %s, not 1", m.Frame.Name(s), an, sum.RatString())
			}
		}
	}
	return nil
}

// NumChoices returns the number of choices over all states, a state
// without one counting its staying where it is as one (PRISM counts a
// deadlock's self-loop so).
func (m *MDP) NumChoices() int {
	k := 0
	for _, cs := range m.Choices {
		k += max(len(cs), 1)
	}
	return k
}

// NumTransitions returns the number of transitions over all choices, a
// state without a choice counting its self-loop.
func (m *MDP) NumTransitions() int {
	k := 0
	for _, cs := range m.Choices {
		if len(cs) == 0 {
			k++
		}
		for _, c := range cs {
			k += len(c.To)
		}
	}
	return k
}

// IsAbsorbing reports whether state s never leaves: it has no choice, or
// every choice is a probability-1 self-loop (PRISM's synchronised [done]
// self-loops).
func (m *MDP) IsAbsorbing(s int) bool {
	for _, c := range m.Choices[s] {
		for _, t := range c.To {
			if t != s {
				return false
			}
		}
	}
	return true
}

// choice returns s's choice for action a, or nil when s does not enable a.
func (m *MDP) choice(s, a int) *Choice {
	cs := m.Choices[s]
	for i := range cs {
		if cs[i].Action == a {
			return &cs[i]
		}
	}
	return nil
}

// enablesAll reports whether s enables every action.
func (m *MDP) enablesAll(s int) bool { return len(m.Choices[s]) == len(m.Actions) }
