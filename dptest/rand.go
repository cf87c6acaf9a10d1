package dptest

import (
	"fmt"
	"math/big"
	"math/bits"
	"strings"
)

// Rand is the randomness of a sampler under exploration: every value it
// returns is a choice that the exploration makes every way it can, each
// with its exact probability. Production code written against a small
// interface — interface{ Bit() bool }, interface{ IntN(int) int } — runs
// unchanged with a *Rand.
//
// A Rand is made by Explore (or Reuse) for one run of a sampler: the
// sampler must use only the Rand it is given, only until it returns (not
// keep it, nor hand it to a goroutine that outlives the run), and must be
// deterministic given the choices it gets: it may not read math/rand, the
// clock or state that changes between runs. The exploration checks this
// (NondeterminismError, MisuseError) where it can do so cheaply.
type Rand struct {
	s   *explorer
	gen uint64 // the run of s this Rand was made for
}

// The states of explorer.gen besides the generation of the run in
// progress (a Rand whose gen differs from it is stale).
const (
	// genSuspended is or-ed to the run's generation while the run waits
	// for the exploration of a sub-sampler (Reuse).
	genSuspended = 1 << 63
	// genStopped is or-ed to the run's generation once the exploration
	// stopped the run (a cut or an error) by a panic.
	genStopped = 1 << 62
)

// choiceKind says which method asked for a choice.
type choiceKind uint8

const (
	kindBit choiceKind = iota
	kindIntN
	kindBernoulli
	kindReuse
)

// choice is one choice of a run: what asked for it, and the branch taken.
type choice struct {
	kind   choiceKind
	branch int
	n      int        // IntN's n; the number of branches of Reuse
	bern   *bernoulli // Bernoulli's p
	u      *reused    // Reuse's sub-sampler
}

// bernoulli is the p of a Bernoulli choice: a copy of the sampler's, with
// the probabilities of its branches.
type bernoulli struct {
	p      *big.Rat
	pn, pd uint64 // p = pn/pd when both fit in a word (pd > 0), else pd = 0
	t, f   prob   // the probabilities of true and false
}

// newBernoulli is the choice Bernoulli(p), 0 <= p <= 1.
func newBernoulli(p *big.Rat) *bernoulli {
	b := &bernoulli{p: new(big.Rat).Set(p)}
	if n, d, ok := smallRat(p); ok {
		b.pn, b.pd = n, d
		b.t, b.f = smallProb(n, d, 0), smallProb(d-n, d, 0)
	} else {
		b.t = ratProb(b.p)
		b.f = ratProb(new(big.Rat).Sub(ratOne, b.p))
	}
	return b
}

// is reports whether p equals b's p.
func (b *bernoulli) is(p *big.Rat) bool {
	if b.pd != 0 {
		n, d, ok := smallRat(p)
		return ok && n == b.pn && d == b.pd
	}
	// Both are normalised: compare their parts, without allocating.
	return b.p.Num().Cmp(p.Num()) == 0 && !p.IsInt() && b.p.Denom().Cmp(p.Denom()) == 0
}

// String describes the choice as the sampler asked for it, with the branch
// taken: "Bit()=1", "IntN(6)=4", "Bernoulli(1/3)=true", "Reuse(k)=v".
func (c *choice) String() string {
	switch c.kind {
	case kindBit:
		return fmt.Sprintf("Bit()=%d", c.branch)
	case kindIntN:
		return fmt.Sprintf("IntN(%d)=%d", c.n, c.branch)
	case kindBernoulli:
		return fmt.Sprintf("Bernoulli(%s)=%t", c.bern.p.RatString(), c.branch == 0)
	}
	if c.unexplored() {
		return fmt.Sprintf("Reuse(%v)=(unexplored)", c.u.key)
	}
	return fmt.Sprintf("Reuse(%v)=%v", c.u.key, c.u.outcome(c.branch))
}

// ask describes what the sampler asked for, without the branch: "IntN(6)".
func (c *choice) ask() string {
	if c.kind == kindBernoulli {
		return ask(c, c.bern.p)
	}
	return ask(c, nil)
}

// ask describes the choice c asks for, with Bernoulli's p.
func ask(c *choice, p *big.Rat) string {
	switch c.kind {
	case kindBit:
		return "Bit()"
	case kindIntN:
		return fmt.Sprintf("IntN(%d)", c.n)
	case kindBernoulli:
		return fmt.Sprintf("Bernoulli(%s)", p.RatString())
	}
	return fmt.Sprintf("Reuse(%v)", c.u.key)
}

// same reports whether d, as asked for (with Bernoulli's p), is the same
// choice as c (the branch aside).
func (c *choice) same(d *choice, p *big.Rat) bool {
	switch {
	case c.kind != d.kind:
		return false
	case c.kind == kindIntN:
		return c.n == d.n
	case c.kind == kindBernoulli:
		return c.bern.is(p)
	case c.kind == kindReuse:
		return c.u == d.u
	}
	return true
}

// uniform reports whether all branches of c have the same probability.
func (c *choice) uniform() bool { return c.kind == kindBit || c.kind == kindIntN }

// branches is the number of branches of c.
func (c *choice) branches() int {
	switch c.kind {
	case kindIntN, kindReuse:
		return c.n
	}
	return 2
}

// firstBranch is the first branch of c with a positive probability.
func (c *choice) firstBranch() int {
	if c.kind == kindBernoulli && c.bern.t.sign() == 0 {
		return 1
	}
	return 0
}

// nextBranch is the first branch of c after b with a positive probability,
// or -1. (Only a Bernoulli choice has branches of probability 0.)
func (c *choice) nextBranch(b int) int {
	b++
	if b >= c.branches() || c.kind == kindBernoulli && c.bern.f.sign() == 0 {
		return -1
	}
	return b
}

// unexplored reports whether c is a Reuse choice that took the branch of
// its sub-sampler's unexplored mass.
func (c *choice) unexplored() bool { return c.kind == kindReuse && c.branch == c.u.outcomes }

// prob is the probability of branch b of c.
func (c *choice) prob(b int) prob {
	switch c.kind {
	case kindBit:
		return prob{num: 1, den: 1, exp: 1}
	case kindIntN:
		n := uint64(c.n)
		t := bits.TrailingZeros64(n)
		return prob{num: 1, den: n >> t, exp: t}
	case kindBernoulli:
		if b == 0 {
			return c.bern.t
		}
		return c.bern.f
	}
	return c.u.probs[b]
}

// cut stops a run that the budget does not allow to go on; the
// exploration recovers it.
type cut struct{}

func (cut) String() string { return "dptest: the run was cut by the budget" }

// Bit returns false or true, each with probability 1/2.
func (r *Rand) Bit() bool {
	if s := r.s; s != nil && r.gen == s.gen.Load() && s.pos < s.forced {
		if c := &s.trace[s.pos]; c.kind == kindBit {
			s.pos++
			return c.branch == 1
		}
	}
	return r.choose(choice{kind: kindBit}, nil) == 1
}

// IntN returns a uniform integer in [0, n), as math/rand/v2's IntN; it
// panics if n <= 0.
func (r *Rand) IntN(n int) int {
	if s := r.s; s != nil && r.gen == s.gen.Load() && s.pos < s.forced {
		if c := &s.trace[s.pos]; c.kind == kindIntN && c.n == n {
			s.pos++
			return c.branch
		}
	}
	if n <= 0 {
		panic(fmt.Sprintf("dptest: IntN(%d): n must be positive", n))
	}
	return r.choose(choice{kind: kindIntN, n: n}, nil)
}

// Bernoulli returns true with probability p, as one exact choice; it panics
// unless 0 <= p <= 1. The exploration keeps a copy of p: the sampler may
// change p afterwards.
func (r *Rand) Bernoulli(p *big.Rat) bool {
	if p == nil {
		panic("dptest: Bernoulli(nil): p must be a *big.Rat in [0, 1]")
	}
	if s := r.s; s != nil && r.gen == s.gen.Load() && s.pos < s.forced {
		if c := &s.trace[s.pos]; c.kind == kindBernoulli && c.bern.is(p) {
			s.pos++
			return c.branch == 0
		}
	}
	if n, d, ok := smallRat(p); ok && n > d || !ok && (p.Sign() < 0 || p.Cmp(ratOne) > 0) {
		panic(fmt.Sprintf("dptest: Bernoulli(%s): p must be in [0, 1]", p.RatString()))
	}
	return r.choose(choice{kind: kindBernoulli}, p) == 0
}

// choose makes the run's next choice c (with p, for Bernoulli): the
// recorded one while the run replays its forced prefix (checking that the
// sampler asks for the same choice), else the first branch with a positive
// probability.
func (r *Rand) choose(c choice, p *big.Rat) int {
	s := r.s
	if s == nil || r.gen != s.gen.Load() {
		return r.stale()
	}
	i := s.pos
	s.pos++
	if i < s.forced {
		rec := &s.trace[i]
		if !rec.same(&c, p) {
			s.stop(&NondeterminismError{Choices: s.describe(i), Want: rec.ask(), Got: ask(&c, p)})
		}
		if rec.unexplored() {
			s.stop(cut{}) // not reached: backtrack skips these branches
		}
		return rec.branch
	}
	return s.extend(c, p)
}

// stale handles a call on a Rand that is not the one of the run in
// progress: it panics where the caller is the sampler's own run (or no
// exploration is left to report to), and otherwise records the misuse for
// the exploration to report, returning branch 0 without recording it.
func (r *Rand) stale() int {
	s := r.s
	if s == nil {
		panic("dptest: this Rand was not made by Explore")
	}
	switch s.gen.Load() {
	case r.gen | genStopped:
		panic(&MisuseError{
			What:    fmt.Sprintf("the sampler recovered the panic by which the exploration stops a run (%v) and went on", s.abort),
			Choices: s.describe(min(s.pos, len(s.trace))),
		})
	case r.gen | genSuspended:
		panic(&MisuseError{
			What:    "the sampler used its own Rand inside a sub-sampler of Reuse, which must use only the Rand it is given",
			Choices: s.describe(s.pos),
		})
	}
	err := &MisuseError{What: "a Rand was used after its run had returned (does the sampler keep its Rand, or hand it to a goroutine?)"}
	if s.sh.done.Load() {
		panic(err)
	}
	s.sh.misuse.CompareAndSwap(nil, err)
	return 0
}

// describe lists the run's first n choices: "Bit()=1, IntN(6)=4"; for a
// sub-sampler's exploration, after where the outer run called Reuse.
func (s *explorer) describe(n int) string {
	var b strings.Builder
	b.WriteString(s.where)
	for i := range s.trace[:n] {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(s.trace[i].String())
	}
	if n == 0 {
		b.WriteString("(none)")
	}
	return b.String()
}

// extend appends a new choice to the run (with p, for Bernoulli), or cuts
// the run when the budget does not allow it.
func (s *explorer) extend(c choice, p *big.Rat) int {
	i := len(s.trace)
	if s.replaying {
		s.stop(&NondeterminismError{Choices: s.describe(i), Want: "(the end of the run)", Got: ask(&c, p)})
	}
	if i >= s.depth {
		s.depthCut++
		s.stop(cut{})
	}
	if c.kind == kindBernoulli {
		// The choice that was at position i before the last backtrack
		// likely asked for the same p: share its copy.
		if i < cap(s.trace) {
			if old := s.trace[:i+1][i]; old.kind == kindBernoulli && old.bern.is(p) {
				c.bern = old.bern
			}
		}
		if c.bern == nil {
			c.bern = newBernoulli(p)
		}
	}
	c.branch = c.firstBranch()
	pp := s.prefix(i).mul(c.prob(c.branch))
	s.trace = append(s.trace, c)
	s.probs = append(s.probs, pp)
	if c.unexplored() {
		s.stop(cut{})
	}
	if s.hasMin && pp.cmp(s.min) < 0 {
		s.belowMin++
		s.stop(cut{})
	}
	return c.branch
}

// prefix is the probability of the run's first i choices.
func (s *explorer) prefix(i int) prob {
	if i == 0 {
		return probOne
	}
	return s.probs[i-1]
}

// stop ends the run in progress with the panic v (a cut or an error),
// which the exploration recovers.
func (s *explorer) stop(v any) {
	s.abort = v
	s.gen.Store(s.cur | genStopped)
	panic(v)
}

var ratOne = big.NewRat(1, 1)
