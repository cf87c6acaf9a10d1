package dptest

import (
	"fmt"
	"math/big"
	"reflect"
	"sort"
)

// Reuse marks a pure sub-sampler: it returns sub(r') for a Rand r' of its
// own, with the distribution of sub, but explores that distribution only
// once per exploration. The first call with a key explores sub's runs
// (with the budget of the exploration: see Budget); from then on every
// call with the key is ONE exact choice over the outcomes found, each with
// its explored probability (tried in decreasing probability), plus, when the budget cut some of sub's runs,
// one more branch with their unexplored mass, which cuts the run that
// takes it. The explored distribution stays exact and sound: the runs that
// call sub k times no longer multiply its numbers of paths k times, they
// add them.
//
// The key names the sub-sampler within one exploration (any comparable
// value: a string, or a struct of the sub-sampler's parameters). Calls
// with the same key MUST pass the same sub-sampler: the key alone is
// looked up, so a second, different sub-sampler of the same result type
// under a key already explored is silently drawn from the first one's
// distribution — a wrong verdict, not an error. Give each sub-sampler (and
// each set of its parameters) a key of its own; only a different result
// type under one key is caught (a *MisuseError). The sub-sampler must be a function of its own Rand's choices only:
// it may not use the Rand of the run that calls it, nor state of that run.
// Its choices appear in errors after the run's, and the reused choice in
// a run's choices as "Reuse(key)=outcome".
func Reuse[T comparable](r *Rand, key any, sub func(*Rand) T) T {
	s := r.s
	if s == nil || r.gen != s.gen.Load() {
		r.stale()
		var zero T
		return zero
	}
	var u *reused
	if s.pos < s.forced && s.trace[s.pos].kind == kindReuse && s.trace[s.pos].u.key == key {
		u = s.trace[s.pos].u // replaying: no need to look the key up
	} else if s.lastReuse != nil && s.lastReuse.key == key {
		u = s.lastReuse
	} else if u = s.sh.reuse[key]; u == nil {
		u = exploreSub(s, key, sub)
	}
	s.lastReuse = u
	if u.exploring {
		s.stop(&MisuseError{What: fmt.Sprintf("Reuse(%v) was called within its own sub-sampler", key), Choices: s.describe(s.pos)})
	}
	vals, ok := u.vals.([]T)
	if !ok {
		s.stop(&MisuseError{What: fmt.Sprintf("Reuse(%v) was called for sub-samplers of types %s and %s", key, u.typ, reflect.TypeFor[T]()), Choices: s.describe(s.pos)})
	}
	return vals[r.choose(choice{kind: kindReuse, n: len(u.probs), u: u}, nil)]
}

// reused is the explored distribution of a sub-sampler (Reuse).
type reused struct {
	key       any
	exploring bool   // while its runs are explored
	vals      any    // []T: the outcomes, in decreasing probability
	typ       string // T, for messages
	outcome   func(b int) any
	outcomes  int // the number of outcomes (the branch of the unexplored mass)
	// probs are the probabilities of the outcomes, then of the unexplored
	// mass when it is positive.
	probs []prob
}

// exploreSub explores the runs of the sub-sampler of key, called by the
// run in progress of s, which waits for it.
func exploreSub[T comparable](s *explorer, key any, sub func(*Rand) T) *reused {
	u := &reused{key: key, exploring: true, typ: reflect.TypeFor[T]().String()}
	s.sh.reuse[key] = u
	where := fmt.Sprintf("%s, then in the sub-sampler of Reuse(%v): ", s.describe(s.pos), key)
	if s.pos == 0 {
		where = fmt.Sprintf("in the sub-sampler of Reuse(%v): ", key)
	}
	s.gen.Store(s.cur | genSuspended)
	p, err := deepen(s.sh, where, sub)
	s.gen.Store(s.cur)
	if err != nil {
		s.stop(subError{err})
	}
	col := p.col
	// The outcomes in decreasing probability (then in the order found),
	// so that once one is below MinProb, so are the others.
	type outcome struct {
		val T
		p   *big.Rat
	}
	outs := make([]outcome, len(col.outs))
	ps := col.totals()
	for i, v := range col.outs {
		outs[i] = outcome{v, ps[i]}
	}
	rest := rest(ps)
	sort.SliceStable(outs, func(i, j int) bool { return outs[i].p.Cmp(outs[j].p) > 0 })
	vals := make([]T, len(outs))
	for i, o := range outs {
		vals[i] = o.val
		u.probs = append(u.probs, ratProb(o.p))
	}
	u.vals, u.outcomes = vals, len(vals)
	u.outcome = func(b int) any { return vals[b] }
	if rest.Sign() > 0 {
		u.probs = append(u.probs, ratProb(rest))
	}
	u.exploring = false
	return u
}
