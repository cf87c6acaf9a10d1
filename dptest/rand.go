package dptest

import (
	"fmt"
	"math/big"
)

// Rand is the randomness of a sampler under exploration: every value it
// returns is a choice that the exploration makes every way it can, each
// with its exact probability. Production code written against a small
// interface — interface{ Bit() bool }, interface{ IntN(int) int } — runs
// unchanged with a *Rand.
//
// A Rand belongs to one exploration (Explore); a sampler must use only the
// Rand it is given, and must be deterministic given the choices it gets:
// it may not read math/rand, the clock or state that changes between runs.
// The exploration checks this (NondeterminismError).
type Rand struct {
	// trace are the choices of the current run; the first forced of them
	// are replayed from the previous run, the others are new.
	trace  []choice
	forced int
	pos    int // the position of the run's next choice
	// probs[i] is the probability of the run's first i+1 choices.
	probs []*big.Rat
	b     Budget
	// reuse are the explored distributions of the sub-samplers of this
	// exploration (Reuse), by key.
	reuse map[any]*reused
}

// choiceKind says which method asked for a choice.
type choiceKind uint8

const (
	kindBit choiceKind = iota
	kindIntN
	kindBernoulli
	kindReuse
)

func (k choiceKind) String() string {
	return [...]string{"Bit()", "IntN", "Bernoulli", "Reuse"}[k]
}

// choice is one choice of a run: what asked for it, and the branch taken.
type choice struct {
	kind   choiceKind
	n      int      // IntN's n; the number of branches of a reused sub-sampler
	p      *big.Rat // Bernoulli's p
	key    any      // Reuse's key
	branch int
}

// String describes the choice as the sampler asked for it, with the branch
// taken: "Bit()=1", "IntN(6)=4", "Bernoulli(1/3)=true".
func (c choice) String() string {
	switch c.kind {
	case kindBit:
		return fmt.Sprintf("Bit()=%d", c.branch)
	case kindIntN:
		return fmt.Sprintf("IntN(%d)=%d", c.n, c.branch)
	case kindBernoulli:
		return fmt.Sprintf("Bernoulli(%s)=%t", c.p.RatString(), c.branch == 0)
	}
	return fmt.Sprintf("Reuse(%v)=#%d", c.key, c.branch)
}

// ask describes what the sampler asked for, without the branch: "IntN(6)".
func (c choice) ask() string {
	switch c.kind {
	case kindBit:
		return "Bit()"
	case kindIntN:
		return fmt.Sprintf("IntN(%d)", c.n)
	case kindBernoulli:
		return fmt.Sprintf("Bernoulli(%s)", c.p.RatString())
	}
	return fmt.Sprintf("Reuse(%v)", c.key)
}

// same reports whether d asks for the same choice as c (the branch aside).
func (c choice) same(d choice) bool {
	switch {
	case c.kind != d.kind:
		return false
	case c.kind == kindIntN:
		return c.n == d.n
	case c.kind == kindBernoulli:
		return c.p.Cmp(d.p) == 0
	case c.kind == kindReuse:
		return c.key == d.key
	}
	return true
}

// branches is the number of branches of the choice.
func (c choice) branches() int {
	switch c.kind {
	case kindIntN, kindReuse:
		return c.n
	}
	return 2
}

// cut stops a run that the budget does not allow to go on; the
// exploration recovers it.
type cut struct{}

// Bit returns false or true, each with probability 1/2.
func (r *Rand) Bit() bool { return r.choose(choice{kind: kindBit}) == 1 }

// IntN returns a uniform integer in [0, n), as math/rand/v2's IntN; it
// panics if n <= 0.
func (r *Rand) IntN(n int) int {
	if n <= 0 {
		panic(fmt.Sprintf("dptest: IntN(%d): n must be positive", n))
	}
	return r.choose(choice{kind: kindIntN, n: n})
}

// Bernoulli returns true with probability p, as one exact choice; it panics
// unless 0 <= p <= 1.
func (r *Rand) Bernoulli(p *big.Rat) bool {
	if p.Sign() < 0 || p.Cmp(ratOne) > 0 {
		panic(fmt.Sprintf("dptest: Bernoulli(%s): p must be in [0, 1]", p.RatString()))
	}
	return r.choose(choice{kind: kindBernoulli, p: new(big.Rat).Set(p)}) == 0
}

// branchProb is the probability of branch b of choice c.
func (r *Rand) branchProb(c choice, b int) *big.Rat {
	switch c.kind {
	case kindBit:
		return ratHalf
	case kindIntN:
		return big.NewRat(1, int64(c.n))
	case kindBernoulli:
		if b == 0 {
			return c.p
		}
		return new(big.Rat).Sub(ratOne, c.p)
	}
	return r.reuse[c.key].branchProb(b)
}

// firstBranch is the first branch of c with a positive probability, or -1.
func (r *Rand) firstBranch(c choice) int { return r.nextBranch(c, -1) }

// nextBranch is the first branch of c after b with a positive probability,
// or -1.
func (r *Rand) nextBranch(c choice, b int) int {
	for b++; b < c.branches(); b++ {
		if r.branchProb(c, b).Sign() > 0 {
			return b
		}
	}
	return -1
}

// choose makes the run's next choice: the recorded one while the run
// replays its forced prefix (checking that the sampler asks for the same
// choice), else the first branch with a positive probability.
func (r *Rand) choose(c choice) int {
	i := r.pos
	r.pos++
	if i < r.forced {
		if rec := r.trace[i]; rec.same(c) {
			return rec.branch
		}
		panic(&NondeterminismError{Choices: r.describe(i), Want: r.trace[i].ask(), Got: c.ask()})
	}
	return r.extend(c)
}

// describe lists the run's first n choices: "Bit()=1, IntN(6)=4".
func (r *Rand) describe(n int) string {
	s := ""
	for i, c := range r.trace[:n] {
		if i > 0 {
			s += ", "
		}
		s += c.String()
	}
	if s == "" {
		return "(none)"
	}
	return s
}

// extend appends a new choice to the run, or cuts the run when the budget
// does not allow it.
func (r *Rand) extend(c choice) int {
	i := len(r.trace)
	if i >= r.b.Depth {
		panic(cut{})
	}
	b := r.firstBranch(c)
	if b < 0 {
		panic(fmt.Sprintf("dptest: %s has no outcome of positive probability", c))
	}
	c.branch = b
	p := r.pathProb(i, r.branchProb(c, b))
	r.trace = append(r.trace, c)
	r.probs = append(r.probs, p)
	if r.b.MinProb != nil && p.Cmp(r.b.MinProb) < 0 {
		panic(cut{})
	}
	return b
}

// pathProb is the probability of the run's first i choices times p.
func (r *Rand) pathProb(i int, p *big.Rat) *big.Rat {
	if i == 0 {
		return new(big.Rat).Set(p)
	}
	return new(big.Rat).Mul(r.probs[i-1], p)
}

var (
	ratOne  = big.NewRat(1, 1)
	ratHalf = big.NewRat(1, 2)
)
