package statespace

import (
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/mdp"
	"github.com/dpcheck/dpcheck/source"
)

// The MDP semantics (Model.MDP). A state's choices are those of its
// semantics — under DP, one per enabled command, each named by its action;
// under PRISM, the enabled unlabelled commands and the synchronised
// combinations — kept apart instead of mixed uniformly. The frame is the
// chain of the states, every one absorbing; the MDP's moves are its
// choices.
//
// Choice names (the actions a query scheduler picks), PRISM semantics: a
// synchronised combination is named by its action, an unlabelled
// command's choice by its module. When two choices of one state would get
// the same name, each of them gets "#" and the 1-based index of its
// command within its module ("crypt1#2"), or for a synchronised
// combination the indices of its commands, module by module, joined by "."
// ("go#1.2"); should that still repeat, "#" and a count follow.

// mchoice is an explored choice of an MDP: its name and its distribution,
// targets ascending, each once (its Action is set when the MDP is made).
type mchoice struct {
	name string
	mdp.Choice
}

// mdpRow names the choices of a state and keeps them, their successors
// looked up.
func (x *explorer) mdpRow(cs []choice[*big.Rat]) error {
	names := x.choiceNames(cs)
	row := make([]mchoice, 0, len(cs))
	n := 0
	for i, c := range cs {
		ss, err := merge(x, exact.Rats{}, c)
		if err != nil {
			return err
		}
		mc := mchoice{name: names[i], Choice: mdp.Choice{To: make([]int, len(ss)), P: make([]*big.Rat, len(ss))}}
		for j, s := range ss {
			mc.To[j], mc.P[j] = int(s.to), x.share(s.p)
		}
		row = append(row, mc)
		n += len(ss)
	}
	x.mdp = append(x.mdp, row)
	x.trans += max(1, n)
	x.nchoices += len(row)
	return nil
}

// choiceNames names the choices of one state, uniquely.
func (x *explorer) choiceNames(cs []choice[*big.Rat]) []string {
	m := x.p.m
	names := make([]string, len(cs))
	count := map[string]int{}
	for i, c := range cs {
		switch {
		case c.action != "":
			names[i] = c.action
		case len(c.cmds) == 1:
			names[i] = m.Modules[m.Commands[c.cmds[0]].Module]
		}
		count[names[i]]++
	}
	if len(count) == len(cs) {
		return names
	}
	for i, c := range cs {
		if count[names[i]] < 2 {
			continue
		}
		idx := make([]string, len(c.cmds))
		for j, ci := range c.cmds {
			idx[j] = strconv.Itoa(x.p.index[ci])
		}
		names[i] += "#" + strings.Join(idx, ".")
	}
	// Unique still? A module and an action of the same name could meet.
	seen := map[string]bool{}
	for i := range names {
		base := names[i]
		for k := 2; seen[names[i]]; k++ {
			names[i] = base + "#" + strconv.Itoa(k)
		}
		seen[names[i]] = true
	}
	return names
}

// buildMDP makes the MDP of the explored choices over the frame c.
func (x *explorer) buildMDP(c *chain.Chain) (*mdp.MDP, error) {
	set := map[string]bool{}
	for _, cs := range x.mdp {
		for _, mc := range cs {
			set[mc.name] = true
		}
	}
	actions := make([]string, 0, len(set))
	for a := range set {
		actions = append(actions, a)
	}
	sort.Strings(actions)
	index := make(map[string]int, len(actions))
	for i, a := range actions {
		index[a] = i
	}
	choices := make([][]mdp.Choice, len(x.mdp))
	for s, cs := range x.mdp {
		if s%4096 == 0 && x.ctx.Err() != nil {
			return nil, x.ctx.Err()
		}
		if len(cs) == 0 {
			continue
		}
		row := make([]mdp.Choice, len(cs))
		for i, mc := range cs {
			row[i] = mc.Choice
			row[i].Action = index[mc.name]
		}
		choices[s] = row
	}
	md, err := mdp.New(c, actions, choices)
	if err != nil {
		return nil, source.ErrorList{{Pos: x.p.m.Pos, Msg: err.Error()}}
	}
	return md, nil
}
