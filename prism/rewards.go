package prism

import (
	"strings"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/statespace"
	"github.com/dpcheck/dpcheck/verify"
)

// Reward structures and the R operator. Every structure of the model file
// is translated (its errors reported, as PRISM does); the state space
// evaluates only those a property uses.

// rewardDefs translates the model's reward structures.
func (t *translator) rewardDefs() {
	f := &t.mf.File
	sc := &scope{f: f}
	for _, r := range t.mf.Rewards {
		def := statespace.Reward{Pos: f.Position(r.Start)}
		if r.Name != nil {
			def.Name = r.Name.Name
		}
		for _, it := range r.Items {
			item := statespace.RewardItem{Pos: f.Position(it.Start), Trans: it.Transition}
			if it.Action != nil {
				item.Action = it.Action.Name
			}
			g, ok1 := t.condition(sc, it.Guard, "the guard of a reward item")
			v, ok2 := t.number(sc, it.Value, "a reward")
			if ok2 && v.konst && v.num.Sign() < 0 {
				t.errAt(sc, it.Value, "the reward %s is negative: rewards are at least 0, as in PRISM", exact.Short(v.num))
				ok2 = false
			}
			if ok1 && ok2 {
				item.Guard, item.Value = g.n, v.n
				def.Items = append(def.Items, item)
			}
		}
		t.rewardDef = append(t.rewardDef, def)
	}
}

// rewardStructure returns the index in the state space's reward
// structures of the one which selects (nil: the first; {"name"}; {i},
// 1-based), adding it on first use, and its name; ok false after an error.
func (t *translator) rewardStructure(sc *scope, e, which *Expr) (int, string, bool) {
	rs := t.mf.Rewards
	i := 0
	switch {
	case len(rs) == 0:
		t.errAt(sc, e, "the model has no reward structure (rewards … endrewards)")
		return 0, "", false
	case which == nil:
	case which.Op == ELabel:
		i = -1
		for j, r := range rs {
			if r.Name != nil && r.Name.Name == which.Text {
				i = j
			}
		}
		if i < 0 {
			t.errAt(sc, which, "the model has no reward structure named \"%s\"", which.Text)
			return 0, "", false
		}
	default:
		k, ok := t.intConst(sc, which, "the index of a reward structure", 1, int64(len(rs)))
		if !ok {
			return 0, "", false
		}
		i = int(k) - 1
	}
	if i >= len(t.rewardDef) {
		return 0, "", false // its items had errors
	}
	def := t.rewardDef[i]
	if j, ok := t.rewardUsed[i]; ok {
		return j, def.Name, true
	}
	t.rewardUsed[i] = len(t.space.Rewards)
	t.rewardIndex = append(t.rewardIndex, i+1)
	t.space.Rewards = append(t.space.Rewards, def)
	return t.rewardUsed[i], def.Name, true
}

// rewardQuery translates R=? [ρ], Rmin=? [ρ], Rmax=? [ρ] and R~r [ρ] (an
// old-style filter is rewritten before, by oldStyleFilter).
func (t *translator) rewardQuery(sc *scope, e *Expr, h property.Header) property.Statement {
	rel, boundExpr, path, which := e.Text, e.Args[0], e.Args[1], e.Args[3]
	if boundExpr != nil && e.Args[2] != nil {
		t.unsupportedAt(sc, e.Args[2], "R~r [ρ {φ}] (the bound at every state of φ) is not supported: ask R=? [ρ {φ}{max}] (or {min}) and compare it with the bound")
		return nil
	}
	if t.nestedFilter(sc, e) {
		return nil
	}
	idx, name, ok := t.rewardStructure(sc, e, which)
	q := &property.RewardQuery{Header: h, Reward: idx, Name: name}
	if ok {
		q.Index = t.rewardIndex[idx]
	}
	if kind, isExtreme := strings.CutSuffix(rel, "="); isExtreme && kind != "" && t.space.MDP {
		q.Extreme = kind
	}
	if boundExpr != nil {
		b, good := t.ratConst(sc, boundExpr, "a reward bound")
		ok = ok && good
		q.Cmp, q.Bound = rel, b
		h.Expect = holds()
		q.Header = h
	}
	p := path.Unparen()
	switch {
	case p.Op == ERewardPath && (p.Text == "C<=" || p.Text == "I="):
		k, good := t.intConst(sc, p.Args[0], "a time bound", 0, MaxSteps)
		ok = ok && good
		q.Op, q.K = verify.RewardCumulative, int(k)
		if p.Text == "I=" {
			q.Op = verify.RewardInstant
		}
	case p.Op == ERewardPath && p.Text == "C":
		q.Op = verify.RewardTotal
	case p.Op == ERewardPath:
		q.Op = verify.RewardLongRun
	case p.Op == ETemporal && p.Text == "F" && p.Args[1] == nil && !hasPath(p.Args[0]):
		q.Op = verify.RewardReach
		if q.Target = t.formula(sc, p.Args[0], false); q.Target == nil {
			return nil
		}
	default:
		// A co-safe LTL path: the reward earned until it is first met.
		q.Op = verify.RewardCoSafe
		if q.Target = t.formula(sc, p, true); q.Target == nil {
			return nil
		}
	}
	if !ok {
		return nil
	}
	return q
}

// hasPath reports whether e has a path operator (X, F, G, U) outside P,
// S and R.
func hasPath(e *Expr) bool {
	if e == nil {
		return false
	}
	switch e.Op {
	case ETemporal, EUntil:
		return true
	case EProb, ESteady, EReward, EDP, EFilter, EPathQuant:
		return false
	}
	for _, a := range e.Args {
		if hasPath(a) {
			return true
		}
	}
	return false
}
