package dptest

import (
	"context"
	"fmt"
	"math/big"
	"runtime/debug"
	"sync/atomic"
)

// Budget bounds the exploration of one sampler's runs. Zero fields take
// the defaults. Runs that end with probability 1 but not surely (rejection
// sampling) have infinitely many paths: the budget cuts them, and the
// exploration keeps the exact mass of what it cut (Dist.Unexplored).
//
// The sub-samplers marked with Reuse are explored with the same budget,
// each once, separately from the runs that call them: each gets Runs runs
// of its own (so one Explore makes at most (1 + the number of Reuse keys)
// × Runs runs), its runs are cut at Depth choices of its own, and at
// MinProb. A reused call counts as one choice of the run that makes it, so
// with Reuse the exploration explores all that it explores without (for
// the same Depth and MinProb, as long as Runs does not bind and the
// sub-sampler makes at least one choice), and usually far more.
type Budget struct {
	// Runs is the most runs run, completed or cut (default 1 << 20). The
	// branches below MinProb are cut without being run: they count in
	// Dist.Cut, not here.
	Runs int64
	// Depth is the most choices one run may make (default 10 000): a run
	// that asks for more is cut there.
	Depth int
	// MinProb, when set, cuts every run as soon as its probability falls
	// below it.
	MinProb *big.Rat
}

// withDefaults fills the zero fields of b.
func (b Budget) withDefaults() Budget {
	if b.Runs <= 0 {
		b.Runs = 1 << 20
	}
	if b.Depth <= 0 {
		b.Depth = 10_000
	}
	return b
}

// Dist is what exploring a sampler's runs found: exact lower bounds on the
// probability of each output, and the exact mass of the runs the budget
// cut. The masses of P and Unexplored sum to exactly 1.
type Dist[Out comparable] struct {
	// P maps each output to the probability of the explored runs that
	// return it.
	P map[Out]*big.Rat
	// Unexplored is the probability of the runs the budget cut, or did not
	// reach: where they end is not known.
	Unexplored *big.Rat
	// Runs counts the runs completed, Cut those cut by the budget (with
	// the branches cut without being run — below MinProb, or the
	// unexplored mass of a reused sub-sampler — as one run each).
	Runs, Cut int64
	// SubRuns counts the runs, completed or cut, of the explorations of
	// the sub-samplers marked with Reuse.
	SubRuns int64
}

// NondeterminismError says that a sampler asked for another choice than it
// did before after the same choices — it reads something besides its Rand
// (math/rand, the clock, a global that changes) — or ended after fewer
// choices than before.
type NondeterminismError struct {
	// Choices are the choices both runs made before they differed.
	Choices string
	// Want is what the sampler asked for the first time ("IntN(6)"), Got
	// what it asked for when replayed; Got is "(the end of the run)" when
	// it returned instead.
	Want, Got string
}

// Error says what the sampler asked for, after which choices.
func (e *NondeterminismError) Error() string {
	return fmt.Sprintf("the sampler is not deterministic given its choices: after %s it asked for %s, and for %s when the same choices were replayed (does it read math/rand, the clock or a global?)", e.Choices, e.Want, e.Got)
}

// PanicError is a panic of the sampler, with the choices that led to it.
type PanicError struct {
	// Choices are the choices the run made before it panicked.
	Choices string
	// Value is the value the sampler panicked with, Stack where.
	Value any
	Stack string
}

// Error gives the panic's value and the choices that led to it.
func (e *PanicError) Error() string {
	return fmt.Sprintf("the sampler panicked after the choices %s: %v", e.Choices, e.Value)
}

// MisuseError says that a sampler broke the rules of its Rand: it used a
// Rand after the run it was made for had returned (it kept it, or handed it
// to a goroutine), used its own Rand inside a sub-sampler of Reuse or
// another exploration (caught when that Rand's run is cut), called
// Reuse with one key for sub-samplers of different types or from within
// the sub-sampler of that key, or recovered the panic by which the
// exploration stops a run.
type MisuseError struct {
	// What the sampler did.
	What string
	// Choices are the choices of the run that did it, when known.
	Choices string
}

// Error says what the sampler did, after which choices.
func (e *MisuseError) Error() string {
	if e.Choices == "" {
		return "dptest: " + e.What
	}
	return fmt.Sprintf("dptest: %s (after the choices %s)", e.What, e.Choices)
}

// shared is the state of one Explore call, shared by the explorations of
// its sub-samplers.
type shared struct {
	ctx   context.Context
	b     Budget
	reuse map[any]*reused // the sub-samplers explored, by key
	// misuse is a stale Rand's call seen while exploring; done is set when
	// Explore has returned.
	misuse  atomic.Pointer[MisuseError]
	done    atomic.Bool
	subRuns int64
}

// explorer explores the runs of one sampler: the trace of the run in
// progress, its forced prefix, and the probabilities of its prefixes.
type explorer struct {
	trace  []choice
	probs  []prob // probs[i] is the probability of the first i+1 choices
	forced int    // the run replays trace[:forced], then makes new choices
	pos    int    // the position of the run's next choice
	depth  int
	min    prob // Budget.MinProb, if hasMin
	hasMin bool
	// gen is the generation of the run in progress (cur), with
	// genSuspended or genStopped or-ed to it, or 0 between runs: a Rand
	// whose gen is not it is stale. Another goroutine may read it.
	gen     atomic.Uint64
	cur     uint64
	handles []Rand // Rands made ahead, for the next runs
	abort   any    // the panic by which the exploration stopped the run
	sh      *shared
	where   string // for a sub-sampler: where the outer run called Reuse
	// lastReuse is the sub-sampler of the last Reuse call, to spare a
	// look-up of its key when the next call has the same.
	lastReuse *reused
}

func newExplorer(sh *shared, where string) *explorer {
	s := &explorer{sh: sh, depth: sh.b.Depth, where: where}
	if m := sh.b.MinProb; m != nil && m.Sign() > 0 {
		s.min, s.hasMin = ratProb(m), true
	}
	return s
}

// Explore runs run on every sequence of choices, depth first, within the
// budget, and returns the exact distribution it found. Each run is
// re-executed from the start with the choices of its prefix forced, so
// memory is proportional to the depth of a run, not to the number of runs.
// It stops with ctx's error when ctx ends, and with a *NondeterminismError,
// a *PanicError or a *MisuseError when the sampler is not a function of
// its choices or breaks the rules of its Rand.
//
// Explore keeps no state between calls: several goroutines may call it at
// once (with samplers that share no mutable state).
func Explore[Out comparable](ctx context.Context, run func(*Rand) Out, b Budget) (*Dist[Out], error) {
	sh := &shared{ctx: ctx, b: b.withDefaults(), reuse: map[any]*reused{}}
	defer sh.done.Store(true)
	col := newCollector[Out]()
	runs, cut, err := explore(newExplorer(sh, ""), run, col)
	if err != nil {
		return nil, err
	}
	d := &Dist[Out]{P: make(map[Out]*big.Rat, len(col.outs)), Runs: runs, Cut: cut, SubRuns: sh.subRuns}
	ps := col.totals()
	for i, o := range col.outs {
		d.P[o] = ps[i]
	}
	d.Unexplored = rest(ps)
	return d, nil
}

// collector collects the outputs of the completed runs, in the order
// first found.
type collector[Out comparable] struct {
	idx  map[Out]int
	outs []Out
	accs []acc
}

func newCollector[Out comparable]() *collector[Out] {
	return &collector[Out]{idx: map[Out]int{}}
}

// totals are the masses of the outputs, in the order of outs.
func (c *collector[Out]) totals() []*big.Rat {
	ps := make([]*big.Rat, len(c.accs))
	for i := range c.accs {
		ps[i] = c.accs[i].total()
	}
	return ps
}

// rest is 1 − Σ ps: the mass the outputs do not account for. The sum goes
// through an acc, so that it normalises once where the denominators divide
// one another (a dyadic sampler's, all powers of 2, always do) instead of
// once per output: a normalisation is a gcd, quadratic in the size of
// numbers that reach tens of thousands of bits.
func rest(ps []*big.Rat) *big.Rat {
	var a acc
	for _, p := range ps {
		if p.Sign() > 0 {
			a.addBig(p.Num(), p.Denom())
		}
	}
	if a.bd != nil && a.sum == nil {
		// One big partial sum bn/bd: 1 − bn/bd = (bd − bn)/bd, without
		// normalising bn/bd first.
		return fracRat(new(big.Int).Sub(a.bd, a.bn), a.bd)
	}
	return new(big.Rat).Sub(ratOne, a.total())
}

func (c *collector[Out]) add(o Out, p prob) {
	i, ok := c.idx[o]
	if !ok {
		i = len(c.outs)
		c.idx[o] = i
		c.outs = append(c.outs, o)
		c.accs = append(c.accs, acc{})
	}
	c.accs[i].add(p)
}

// explore explores the runs of run with s, collecting the completed ones
// in col; it returns the numbers of runs completed and cut.
func explore[Out comparable](s *explorer, run func(*Rand) Out, col *collector[Out]) (runs, cuts int64, err error) {
	for n := int64(0); n < s.sh.b.Runs; n++ {
		if n%1024 == 0 {
			if err := s.sh.ctx.Err(); err != nil {
				return 0, 0, err
			}
		}
		out, done, err := runOnce(s, run)
		if err == nil {
			if m := s.sh.misuse.Load(); m != nil {
				err = m
			}
		}
		if err != nil {
			return 0, 0, err
		}
		if done {
			runs++
			col.add(out, s.prefix(len(s.trace)))
		} else {
			cuts++
		}
		if !s.backtrack(&cuts) {
			break
		}
	}
	return runs, cuts, nil
}

// begin starts a run: a new Rand for it, and the replay of the forced
// prefix from the start.
func (s *explorer) begin() *Rand {
	s.cur++
	s.pos = 0
	s.abort = nil
	if len(s.handles) == 0 {
		s.handles = make([]Rand, 128)
	}
	r := &s.handles[0]
	s.handles = s.handles[1:]
	*r = Rand{s: s, gen: s.cur}
	s.gen.Store(s.cur)
	return r
}

// subError carries the error of a sub-sampler's exploration out of the
// run that called Reuse.
type subError struct{ err error }

// runOnce runs the sampler once on the forced prefix of s's trace; done
// says that the run completed (was not cut).
func runOnce[Out comparable](s *explorer, run func(*Rand) Out) (out Out, done bool, err error) {
	defer func() {
		s.gen.Store(0)
		if v := recover(); v != nil {
			done = false
			switch v := v.(type) {
			case cut:
				if s.abort == nil { // not this exploration's
					err = &MisuseError{What: "the sampler used the Rand of another exploration", Choices: s.describe(min(s.pos, len(s.trace)))}
				}
			case *NondeterminismError:
				err = v
			case *MisuseError:
				err = v
			case subError:
				err = v.err
			default:
				err = &PanicError{Choices: s.describe(min(s.pos, len(s.trace))), Value: v, Stack: string(debug.Stack())}
			}
		}
	}()
	out = run(s.begin())
	if s.abort != nil {
		return out, false, &MisuseError{What: fmt.Sprintf("the sampler recovered the panic by which the exploration stops a run (%v)", s.abort), Choices: s.describe(len(s.trace))}
	}
	if s.pos < s.forced {
		return out, false, &NondeterminismError{Choices: s.describe(s.pos), Want: s.trace[s.pos].ask(), Got: "(the end of the run)"}
	}
	return out, true, nil
}

// backtrack makes the next run's forced prefix: the last choice of this
// run that has another branch of positive probability takes it, and the
// choices after it are dropped. A branch that the budget cuts at once (its
// probability is below MinProb, or it is the unexplored mass of a reused
// sub-sampler) is not run, but counted in cuts. It reports false when no
// run is left.
func (s *explorer) backtrack(cuts *int64) bool {
	for i := len(s.trace) - 1; i >= 0; i-- {
		c := &s.trace[i]
		for b := c.nextBranch(c.branch); b >= 0; b = c.nextBranch(b) {
			p := s.prefix(i).mul(c.prob(b))
			if !c.isUnexplored(b) && !(s.hasMin && p.cmp(s.min) < 0) {
				c.branch = b
				s.trace = s.trace[:i+1]
				s.probs = s.probs[:i+1]
				s.probs[i] = p
				s.forced = i + 1
				return true
			}
			if c.uniform() || c.kind == kindReuse {
				// Every branch left is as likely (IntN, Bit) or less likely
				// (the outcomes of Reuse, in decreasing probability, then
				// its unexplored mass), so cut too.
				*cuts += int64(c.branches() - b)
				break
			}
			*cuts++
		}
	}
	return false
}

// isUnexplored reports whether branch b of c is the unexplored mass of a
// reused sub-sampler.
func (c *choice) isUnexplored(b int) bool { return c.kind == kindReuse && b == c.u.outcomes }
