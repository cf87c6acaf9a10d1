package mdp

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/verify"
)

// answer is what solve found.
type answer struct {
	sr       *search
	exact    bool
	bisim    bool
	reason   string
	sufOnly  bool // decided by Proposition 2 alone, without a search
	upper    *exact.Real
	upperC   *big.Rat // ε mode; nil with upperInf false: not computed
	upperInf bool
	hasUpper bool
}

// query is what is asked: the tight δ at ε (deltaMode), or the tight ε at
// δ; check also gives the other parameter of a check.
type query struct {
	deltaMode bool
	eps       exact.Eps
	delta     *big.Rat
	check     bool
}

func solve(ctx context.Context, p *problem, path *verify.Formula, q query, o Options) (*answer, error) {
	maxH := o.MaxHorizon
	if maxH <= 0 {
		maxH = DefaultMaxHorizon
	}
	sr := newSearch(p, o)
	sr.deltaMode = q.deltaMode
	if q.deltaMode {
		sr.cv = newCval(q.eps)
		p.pairCV = sr.cv
	} else {
		sr.delta = q.delta
	}
	ans := &answer{sr: sr}
	bounded, H := false, 0
	switch p.kind {
	case kindD:
		H = p.f.horizon(p.psi)
		bounded = H >= 0
	case kindTraces:
		bounded, H = true, p.k
	}
	if bounded {
		if err := sr.run(H); err != nil {
			return nil, err
		}
		ex, err := sr.exact()
		if err != nil {
			return nil, err
		}
		ans.exact = ex
		ans.reason = fmt.Sprintf("every sequence of %s explored", plural(H, "action"))
		if p.kind == kindD {
			if err := ans.prop2(ctx, p, path, q); err != nil {
				if _, ok := err.(*unsupportedError); !ok {
					return nil, err
				}
			}
		}
		return ans, nil
	}
	// (a) Bisimilar inputs: every query scheduler gives them equal
	// distributions.
	if bis, err := p.bisimilar(); err != nil {
		return nil, err
	} else if bis {
		ans.exact, ans.bisim = true, true
		ans.reason = "the inputs are bisimilar: every query scheduler gives them the same distributions (no sequence explored, horizon 0)"
		return ans, nil
	}
	// (b) A reactive acyclic reachable part: the search ends.
	if d, ok := p.acyclicDepth(); ok && d <= maxH {
		if err := sr.run(d); err != nil {
			return nil, err
		}
		ex, err := sr.exact()
		if err != nil {
			return nil, err
		}
		if ex {
			ans.exact = true
			ans.reason = fmt.Sprintf("every sequence of %s explored (the reachable part is reactive and acyclic)", plural(d, "action"))
			return ans, nil
		}
	}
	// (c) Proposition 2, then a search for a real violation.
	if err := ans.prop2(ctx, p, path, q); err != nil {
		if _, ok := err.(*unsupportedError); !ok {
			return nil, err
		}
	}
	if q.check && q.deltaMode && ans.upper != nil {
		c, err := ans.upper.Cmp(exact.RatReal(q.delta))
		if err != nil {
			return nil, err
		}
		if c <= 0 {
			ans.sufOnly = true
			ans.reason = "Proposition 2"
			return ans, nil
		}
	}
	sr.everyGap = true
	for h := 1; h <= maxH; h++ {
		if err := sr.run(h); err != nil {
			var lim *LimitError
			if !errors.As(err, &lim) {
				return nil, err
			}
			// The search for a violation is optional: at the limit the
			// answer keeps what it proved (the gaps found are real) and
			// says where it stopped.
			ans.reason = fmt.Sprintf("sequences of up to %s searched; the search stopped at horizon %d, at %s", plural(h-1, "action"), h, lim.at)
			if ans.hasUpper {
				ans.reason = "Proposition 2; " + ans.reason
			}
			return ans, nil
		}
		ex, err := sr.exact()
		if err != nil {
			return nil, err
		}
		if ex {
			ans.exact = true
			ans.reason = fmt.Sprintf("every sequence explored up to %s (the rest decided or bounded)", plural(h, "action"))
			return ans, nil
		}
		if done, err := ans.settled(q); err != nil || done {
			return ans, err
		}
	}
	ans.reason = fmt.Sprintf("sequences of up to %s searched", plural(maxH, "action"))
	if ans.hasUpper {
		ans.reason = "Proposition 2; " + ans.reason
	}
	return ans, nil
}

// settled reports whether the search may stop: a check has a proven
// violation, or the best lower bound reaches Proposition 2's bound.
func (ans *answer) settled(q query) (bool, error) {
	sr := ans.sr
	if !sr.have {
		return false, nil
	}
	if q.deltaMode {
		violated := false
		if q.check {
			c, err := sr.best.Cmp(exact.RatReal(q.delta))
			if err != nil {
				return false, err
			}
			violated = c > 0
		}
		reached := false
		if ans.upper != nil {
			c, err := sr.best.Cmp(*ans.upper)
			if err == nil && c < 0 { // the tight δ is at least 0
				c, err = exact.RatReal(new(big.Rat)).Cmp(*ans.upper)
			}
			if err != nil {
				return false, err
			}
			reached = c >= 0
		}
		switch {
		case violated && reached:
			ans.exact = true
			ans.reason = fmt.Sprintf("a violation proven at horizon %d, reaching Proposition 2's bound", sr.reached)
		case violated:
			ans.reason = fmt.Sprintf("a violation proven at horizon %d: the gap exceeds δ whatever follows", sr.reached)
		case reached:
			ans.exact = true
			ans.reason = "the violation found reaches Proposition 2's bound"
		}
		return violated || reached, nil
	}
	if !ans.hasUpper {
		return false, nil
	}
	if sr.bestInf || (!ans.upperInf && sr.bestCOrOne().Cmp(ans.upperC) >= 0) {
		ans.exact = true
		ans.reason = "the violation found reaches Proposition 2's bound"
		return true, nil
	}
	return false, nil
}

func plural(n int, w string) string {
	if n == 1 {
		return "1 " + w
	}
	return strconv.Itoa(n) + " " + w + "s"
}

type unsupportedError struct{ error }

// prop2 computes Proposition 2's bound.
func (ans *answer) prop2(ctx context.Context, p *problem, path *verify.Formula, q query) error {
	terms, err := p.prop2Terms(ctx, path)
	if err != nil {
		return err
	}
	ans.hasUpper = true
	if q.deltaMode {
		cv := newCval(q.eps)
		u := exact.RatReal(new(big.Rat))
		for _, ts := range terms {
			A, B := new(big.Rat), new(big.Rat)
			for _, t := range ts {
				if ok, err := cv.above(t.a, t.b); err != nil {
					return err
				} else if ok {
					A.Add(A, t.a)
					B.Add(B, t.b)
				}
			}
			v := cv.real(A, B)
			if c, err := v.Cmp(u); err != nil {
				return err
			} else if c > 0 {
				u = v
			}
		}
		// A tight δ never exceeds 1: the bound is capped there (for dp
		// the sum over the outputs and ⊥∞ may reach 2).
		if c, err := u.Cmp(exact.RatReal(ratOne)); err != nil {
			return err
		} else if c > 0 {
			u = exact.RatReal(big.NewRat(1, 1))
		}
		ans.upper = &u
		return nil
	}
	ans.upperC = big.NewRat(1, 1)
	for _, ts := range terms {
		c, inf := solveC(ts, new(big.Rat), q.delta)
		if inf {
			ans.upperInf = true
			return nil
		}
		if c.Cmp(ans.upperC) > 0 {
			ans.upperC = c
		}
	}
	return nil
}

// prop2Terms returns, for every direction (s, t), the terms of
// Proposition 2: (max_S Pr_s(ψ), min_S Pr_t(ψ)) for D; for final outputs
// (max_S Pr_s(F o), min_S Pr_t(F o)) for every output o and ⊥∞. The
// schedulers may also stay where an action is disabled.
func (p *problem) prop2Terms(ctx context.Context, path *verify.Formula) ([][]term, error) {
	sc := newSched(p.m, true)
	terms := make([][]term, len(p.dirs))
	if p.kind == kindD && p.f != nil && p.f.horizon(p.psi) >= 0 {
		// A bounded ψ: the extremes by backward induction over (residual,
		// state), which takes every formula the search takes.
		hi, lo := map[int]*big.Rat{}, map[int]*big.Rat{}
		for _, s := range p.inputs {
			hi[s], lo[s] = p.startValues(s)
		}
		for i, d := range p.dirs {
			terms[i] = []term{{hi[p.inputs[d[0]]], lo[p.inputs[d[1]]]}}
		}
		return terms, nil
	}
	if p.kind == kindD {
		hi, err := p.m.extreme(ctx, sc, path, true)
		if err != nil {
			return nil, &unsupportedError{err}
		}
		lo, err := p.m.extreme(ctx, sc, path, false)
		if err != nil {
			return nil, &unsupportedError{err}
		}
		for i, d := range p.dirs {
			terms[i] = []term{{hi[p.inputs[d[0]]], lo[p.inputs[d[1]]]}}
		}
		return terms, nil
	}
	if p.kind != kindFinal {
		return nil, &unsupportedError{fmt.Errorf("mdp: Proposition 2 is computed for final outputs only")}
	}
	n := p.m.NumStates()
	reach := p.reachable()
	present := map[int]bool{}
	for s := range n {
		if reach[s] && p.absorb[s] {
			present[p.outID[s]] = true
		}
	}
	cand := make([]bool, n)
	all := make([]bool, n)
	for s := range n {
		cand[s] = !p.absorb[s]
		all[s] = p.absorb[s]
	}
	add := func(hi, lo []*big.Rat) {
		for i, d := range p.dirs {
			terms[i] = append(terms[i], term{hi[p.inputs[d[0]]], lo[p.inputs[d[1]]]})
		}
	}
	for o := range p.outNames {
		if !present[o] {
			continue
		}
		yes := make([]bool, n)
		for s := range n {
			yes[s] = p.absorb[s] && p.outID[s] == o
		}
		hi, err := sc.reach(ctx, yes, cand, true)
		if err != nil {
			return nil, err
		}
		lo, err := sc.reach(ctx, yes, cand, false)
		if err != nil {
			return nil, err
		}
		add(hi, lo)
	}
	// ⊥∞: never absorbed.
	hiAbs, err := sc.reach(ctx, all, cand, true)
	if err != nil {
		return nil, err
	}
	loAbs, err := sc.reach(ctx, all, cand, false)
	if err != nil {
		return nil, err
	}
	hi, lo := make([]*big.Rat, n), make([]*big.Rat, n)
	for s := range n {
		hi[s] = new(big.Rat).Sub(ratOne, loAbs[s])
		lo[s] = new(big.Rat).Sub(ratOne, hiAbs[s])
	}
	add(hi, lo)
	return terms, nil
}

// startValues returns max_S Pr_s(ψ) and min_S Pr_s(ψ) over the schedulers
// that pick an enabled choice or stay where an action is disabled, for a
// bounded ψ (values).
func (p *problem) startValues(s int) (hi, lo *big.Rat) {
	d := p.start(s)
	hi, lo = new(big.Rat).Set(get(d.done, 0)), new(big.Rat).Set(get(d.done, 0))
	t := new(big.Rat)
	for k, x := range d.live {
		h, l := p.values(k)
		hi.Add(hi, t.Mul(x, h))
		lo.Add(lo, t.Mul(x, l))
	}
	return hi, lo
}

// reachable returns the states reachable from the inputs by any choice.
func (p *problem) reachable() []bool {
	seen := make([]bool, p.m.NumStates())
	var stack []int
	for _, s := range p.inputs {
		if !seen[s] {
			seen[s] = true
			stack = append(stack, s)
		}
	}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, c := range p.m.Choices[s] {
			for _, t := range c.To {
				if !seen[t] {
					seen[t] = true
					stack = append(stack, t)
				}
			}
		}
	}
	return seen
}

// acyclicDepth returns the longest number of steps before absorption when
// the part reachable from the inputs is reactive (every non-absorbing
// state enables every action) and acyclic apart from absorbing
// self-loops.
func (p *problem) acyclicDepth() (int, bool) {
	reach := p.reachable()
	for s, r := range reach {
		if r && !p.absorb[s] && !p.m.enablesAll(s) {
			return 0, false
		}
	}
	const (
		white = iota
		grey
		black
	)
	color := make([]int8, len(reach))
	depth := make([]int, len(reach))
	var visit func(s int) bool
	visit = func(s int) bool {
		if p.absorb[s] {
			color[s] = black
			return true
		}
		color[s] = grey
		d := 0
		for _, c := range p.m.Choices[s] {
			for _, t := range c.To {
				switch color[t] {
				case grey:
					return false
				case white:
					if !visit(t) {
						return false
					}
				}
				d = max(d, depth[t]+1)
			}
		}
		color[s], depth[s] = black, d
		return true
	}
	D := 0
	for _, s := range p.inputs {
		if color[s] == white && !visit(s) {
			return 0, false
		}
		D = max(D, depth[s])
	}
	return D, true
}

// bisimilar reports whether every pair's inputs are bisimilar: the
// coarsest partition of the reachable states, refined from what is
// observed (the truth of ψ's atoms; the output of absorbing states), in
// which equivalent states move, for every action, with the same
// probability into every block (a state that does not enable the action
// stays in its own block).
func (p *problem) bisimilar() (bool, error) {
	reach := p.reachable()
	var states []int
	for s, r := range reach {
		if r {
			states = append(states, s)
		}
	}
	block := make([]int, p.m.NumStates())
	ids := map[string]int{}
	intern := func(k string) int {
		if id, ok := ids[k]; ok {
			return id
		}
		ids[k] = len(ids)
		return ids[k]
	}
	var leaves []int
	if p.kind == kindD {
		lv := map[int]bool{}
		p.f.leaves(p.psi, lv)
		for l := range lv {
			leaves = append(leaves, l)
		}
	}
	for _, s := range states {
		var b strings.Builder
		switch p.kind {
		case kindD:
			for _, l := range leaves {
				if p.f.sat[l][s] {
					b.WriteByte('1')
				} else {
					b.WriteByte('0')
				}
			}
		case kindFinal:
			if p.absorb[s] {
				b.WriteString("a" + strconv.Itoa(p.outID[s]))
			} else {
				b.WriteString("n")
			}
		}
		block[s] = intern(b.String())
	}
	count := len(ids)
	for {
		if err := p.ctx.Err(); err != nil {
			return false, err
		}
		ids = map[string]int{}
		next := make([]int, len(block))
		for _, s := range states {
			var b strings.Builder
			b.WriteString(strconv.Itoa(block[s]))
			for a := range p.m.Actions {
				b.WriteByte('|')
				c := p.m.choice(s, a)
				if c == nil || p.absorb[s] {
					b.WriteString(strconv.Itoa(block[s]))
					b.WriteString(":1,")
					continue
				}
				agg := map[int]*big.Rat{}
				for i, t := range c.To {
					x, ok := agg[block[t]]
					if !ok {
						x = new(big.Rat)
						agg[block[t]] = x
					}
					x.Add(x, c.P[i])
				}
				ks := make([]int, 0, len(agg))
				for k := range agg {
					ks = append(ks, k)
				}
				slices.Sort(ks)
				for _, k := range ks {
					b.WriteString(strconv.Itoa(k))
					b.WriteByte(':')
					b.WriteString(agg[k].RatString())
					b.WriteByte(',')
				}
			}
			next[s] = intern(b.String())
		}
		block = next
		if len(ids) == count {
			break
		}
		count = len(ids)
	}
	for _, d := range p.dirs {
		if block[p.inputs[d[0]]] != block[p.inputs[d[1]]] {
			return false, nil
		}
	}
	return true, nil
}
