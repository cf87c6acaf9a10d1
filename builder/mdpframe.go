package builder

import (
	"context"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/mdp"
	"github.com/dpcheck/dpcheck/model"
)

// mdpFrame collects the states of an MDP, each absorbing in the frame
// (the chain of its states), and their choices.
type mdpFrame struct {
	b       *chain.Builder
	choices [][]mdp.Choice
}

func newMDPFrame() *mdpFrame { return &mdpFrame{b: chain.NewBuilder()} }

// add adds a state, absorbing in the frame and with no choice yet.
func (f *mdpFrame) add(name string, val chain.Valuation, labels ...string) int {
	s := f.b.AddState(name, val, labels...)
	f.b.AddTransition(s, s, one)
	f.choices = append(f.choices, nil)
	return s
}

// mechanism builds the frame and the MDP whose actions are named by
// actions, with the neighbours pairs and the note.
func (f *mdpFrame) mechanism(ctx context.Context, actions []string, pairs [][2]int, note string) (*model.Mechanism, error) {
	frame, err := buildChain(ctx, f.b)
	if err != nil {
		return nil, err
	}
	m, err := mdp.New(frame, actions, f.choices)
	if err != nil {
		return nil, err
	}
	return &model.Mechanism{Chain: frame, MDP: m, Neighbours: pairs, Note: note}, nil
}
