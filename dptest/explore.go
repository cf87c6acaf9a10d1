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
// The runs are explored in passes of iterative deepening on their
// probability: the first pass cuts every branch whose probability is below
// 2^−8, each next pass goes deeper (2^−16, 2^−24, 2^−36, 2^−54, …: the
// exponent grows by at least 8 and by half), down to MinProb when it is
// set. The exploration keeps the last pass that completed within Runs: its
// unexplored mass is exactly the mass of the branches below its threshold
// and of the runs Depth cut. It stops after a pass that cut nothing below
// its threshold (a deeper one would explore the same runs), after the pass
// at MinProb, or when a pass needs more than Runs runs. So the unexplored
// mass — and the bound d of Result.DeltaBound — never rises as Runs grows
// or MinProb falls, and a pass at a threshold t never runs more than 1/t
// runs. A larger Depth explores at least as much at every threshold, but
// when Runs binds its last pass may then stop one threshold earlier.
//
// The sub-samplers marked with Reuse are explored with the same budget,
// each once, separately from the runs that call them: each gets Runs runs
// of its own per pass, its runs are cut at Depth choices of its own, and
// at MinProb. A reused call counts as one choice of the run that makes it,
// so with Reuse the exploration explores all that it explores without (for
// the same Depth and MinProb, as long as Runs does not bind and the
// sub-sampler makes at least one choice), and usually far more.
type Budget struct {
	// Runs is the most runs one pass runs, completed or cut (default
	// 1 << 20). The branches below a pass's threshold are cut without
	// being run: they count in Dist.Cut, not here.
	Runs int64
	// Depth is the most choices one run may make (default 10 000): a run
	// that asks for more is cut there.
	Depth int
	// MinProb, when set, is the threshold of the last pass: every run is
	// cut as soon as its probability falls below it.
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
	// DepthCut counts the runs of Cut that asked for more than Depth
	// choices.
	DepthCut int64
	// Threshold is the probability below which the kept pass cut branches
	// (MinProb, or a step of the deepening; see Budget), nil when it cut
	// none.
	Threshold *big.Rat
	// RunsHit reports that Runs stopped the exploration: the next pass,
	// below Threshold, needed more than Runs runs. When even the first
	// pass did (Threshold is then 2^−8), the runs it did not reach are in
	// Unexplored but in no count.
	RunsHit bool
	// SubRuns counts the runs, completed or cut, of the explorations of
	// the sub-samplers marked with Reuse (of the pass each kept).
	SubRuns int64
}

// NondeterminismError says that a sampler is not a function of its
// choices: after the same choices it asked for another choice than it did
// before, ended after fewer choices, asked for more, or returned another
// output. It reads something besides its Rand: math/rand, the clock, a
// global that changes.
//
// What is caught: every run is re-executed with the choices of its prefix
// forced, so a sampler whose next choice depends on something else is
// caught when a replay asks for another (or none); and the first 64 runs
// of each exploration that complete are run a second time with all their
// choices forced and their outputs compared with ==. What is not caught: a
// sampler that reads something else only for its output (not for which
// choice comes next) on runs after those 64, or whose other source
// happens to give the same values on both executions.
type NondeterminismError struct {
	// Choices are the choices both runs made before they differed.
	Choices string
	// Want is what the sampler asked for the first time ("IntN(6)"), Got
	// what it asked for when replayed; either is "(the end of the run)"
	// when it returned instead. Both are empty when the runs made the
	// same choices and returned different outputs: First and Replayed.
	Want, Got string
	// First and Replayed are the outputs of the same choices, printed with
	// %v, when they differ.
	First, Replayed string
}

// Error says what the sampler asked for, or returned, after which choices.
func (e *NondeterminismError) Error() string {
	if e.Want == "" && e.Got == "" {
		return fmt.Sprintf("the sampler is not deterministic given its choices: after %s it returned %s, and %s when the same choices were replayed (does it read math/rand, the clock or a global?)", e.Choices, e.First, e.Replayed)
	}
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
// the sub-sampler of that key, recovered the panic by which the
// exploration stops a run, or returned an output that cannot be a map key
// (an interface holding a slice, a map or a function).
type MisuseError struct {
	// What the sampler did.
	What string
	// Choices are the choices of the run that did it, when known.
	Choices string
}

// Error says what the sampler did, after which choices.
func (e *MisuseError) Error() string {
	if e.Choices == "" {
		return e.What
	}
	return fmt.Sprintf("%s (after the choices %s)", e.What, e.Choices)
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
	min    prob // the pass's threshold, if hasMin
	hasMin bool
	// belowMin counts the branches cut below min, depthCut the runs cut at
	// the depth.
	belowMin, depthCut int64
	// replays is the number of completed runs still to be run a second
	// time to check that they return the same output; replaying is set
	// during such a run.
	replays   int
	replaying bool
	ran       int64 // the runs run by the pass
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
	return &explorer{sh: sh, depth: sh.b.Depth, where: where}
}

// Explore runs run on every sequence of choices, within the budget, and
// returns the exact distribution it found. It explores in passes of
// iterative deepening on the probability of a run (see Budget), each pass
// depth first; each run is re-executed from the start with the choices of
// its prefix forced, so memory is proportional to the depth of a run (and
// the number of outputs), not to the number of runs. It stops with a
// *NondeterminismError, a *PanicError or a *MisuseError when the sampler
// is not a function of its choices or breaks the rules of its Rand.
//
// It returns ctx's error as soon as ctx ends, even when the sampler is
// stuck in a loop that draws nothing: the run in progress is then
// abandoned, and its goroutine goes on until the sampler returns or draws
// its next choice.
//
// Explore keeps no state between calls: several goroutines may call it at
// once (with samplers that share no mutable state).
func Explore[Out comparable](ctx context.Context, run func(*Rand) Out, b Budget) (*Dist[Out], error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	type result struct {
		d   *Dist[Out]
		err error
	}
	done := make(chan result, 1)
	go func() {
		d, err := exploreAll(ctx, run, b)
		done <- result{d, err}
	}()
	select {
	case r := <-done:
		return r.d, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// exploreAll is Explore on the calling goroutine.
func exploreAll[Out comparable](ctx context.Context, run func(*Rand) Out, b Budget) (*Dist[Out], error) {
	sh := &shared{ctx: ctx, b: b.withDefaults(), reuse: map[any]*reused{}}
	defer sh.done.Store(true)
	p, err := deepen(sh, "", run)
	if err != nil {
		return nil, err
	}
	col := p.col
	d := &Dist[Out]{P: make(map[Out]*big.Rat, len(col.outs)), Runs: p.runs, Cut: p.cuts, DepthCut: p.depthCut, RunsHit: p.runsHit, SubRuns: sh.subRuns}
	if p.belowMin > 0 {
		d.Threshold = p.min.rat()
	}
	ps := col.totals()
	for i, o := range col.outs {
		d.P[o] = ps[i]
	}
	d.Unexplored = rest(ps)
	return d, nil
}

// pass is what one pass of the exploration found.
type pass[Out comparable] struct {
	col                          *collector[Out]
	runs, cuts, depthCut         int64
	belowMin                     int64
	min                          prob
	complete, runsHit, atMinProb bool
}

// replays is how many completed runs of each exploration are run twice.
const replays = 64

// deepen explores the runs of run in passes of iterative deepening on
// their probability (see Budget), and returns the last pass that completed
// within Runs — or the first, cut short, when even it did not.
func deepen[Out comparable](sh *shared, where string, run func(*Rand) Out) (*pass[Out], error) {
	var user prob
	hasUser := sh.b.MinProb != nil && sh.b.MinProb.Sign() > 0
	if hasUser {
		user = ratProb(sh.b.MinProb)
	}
	var kept *pass[Out]
	if where != "" { // a sub-sampler: count the runs of the pass kept
		defer func() {
			if kept != nil {
				sh.subRuns += kept.runs + kept.cuts
			}
		}()
	}
	ran := int64(0) // the runs run by the last pass
	for e := 8; ; {
		s := newExplorer(sh, where)
		s.min, s.hasMin = prob{num: 1, den: 1, exp: e}, true
		last := hasUser && s.min.cmp(user) <= 0
		if last {
			s.min = user
		}
		if kept == nil {
			s.replays = replays
		}
		p := &pass[Out]{col: newCollector[Out](), min: s.min, atMinProb: last}
		var err error
		p.runs, p.cuts, p.complete, err = explore(s, run, p.col)
		if err != nil {
			return nil, err
		}
		p.belowMin, p.depthCut = s.belowMin, s.depthCut
		switch {
		case !p.complete && kept == nil:
			p.runsHit = true
			kept = p
			return p, nil
		case !p.complete:
			kept.runsHit = true
			return kept, nil
		}
		kept = p
		if last || p.belowMin == 0 {
			return kept, nil
		}
		// The next threshold: 2^−8 lower while the passes grow at least
		// twofold (so that the passes together run at most about twice the
		// last), by half its exponent when they grow less (a thin tree of
		// long runs, which would otherwise take many passes).
		if s.ran < 2*ran {
			e += max(8, e/2)
		} else {
			e += 8
		}
		ran = s.ran
	}
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

// add adds the mass p to the output o; it fails when o cannot be a map
// key (an interface holding a slice, a map or a function).
func (c *collector[Out]) add(o Out, p prob) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &MisuseError{What: fmt.Sprintf("the sampler returned %v, of type %T, which cannot be compared (%v): an output must be a comparable value", o, any(o), v)}
		}
	}()
	i, ok := c.idx[o]
	if !ok {
		i = len(c.outs)
		c.idx[o] = i
		c.outs = append(c.outs, o)
		c.accs = append(c.accs, acc{})
	}
	c.accs[i].add(p)
	return nil
}

// explore explores the runs of run with s, one pass, collecting the
// completed ones in col; it returns the numbers of runs completed and cut,
// and whether the pass completed within Runs.
func explore[Out comparable](s *explorer, run func(*Rand) Out, col *collector[Out]) (runs, cuts int64, complete bool, err error) {
	for n := int64(0); n < s.sh.b.Runs; n++ {
		s.ran = n + 1
		if n%1024 == 0 {
			if err := s.sh.ctx.Err(); err != nil {
				return 0, 0, false, err
			}
		}
		out, done, err := runOnce(s, run)
		if err == nil && done {
			runs++
			if err = col.add(out, s.prefix(len(s.trace))); err != nil {
				err.(*MisuseError).Choices = s.describe(len(s.trace))
			} else if s.replays > 0 {
				s.replays--
				err = replay(s, run, out)
			}
		}
		if err != nil {
			return 0, 0, false, err
		}
		if !done {
			cuts++
		}
		if !s.backtrack(&cuts) {
			return runs, cuts, true, nil
		}
	}
	return runs, cuts, false, nil
}

// replay runs the run just completed once more, all its choices forced,
// and checks that it returns the same output.
func replay[Out comparable](s *explorer, run func(*Rand) Out, first Out) error {
	s.forced, s.replaying = len(s.trace), true
	out, _, err := runOnce(s, run)
	s.replaying = false
	if err != nil {
		return err
	}
	if !equal(out, first) {
		return &NondeterminismError{Choices: s.describe(len(s.trace)), First: fmt.Sprint(first), Replayed: fmt.Sprint(out)}
	}
	return nil
}

// equal is a == b, false where comparing them panics.
func equal[T comparable](a, b T) (eq bool) {
	defer func() {
		if recover() != nil {
			eq = false
		}
	}()
	return a == b
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
// says that the run completed (was not cut). A stale Rand's call seen by
// then (shared.misuse) is its error when it has no other.
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
			case *NondeterminismError, *MisuseError:
				err = v.(error)
			case subError:
				err = v.err
			default:
				err = &PanicError{Choices: s.describe(min(s.pos, len(s.trace))), Value: v, Stack: string(debug.Stack())}
			}
		}
		if m := s.sh.misuse.Load(); m != nil && err == nil {
			err = m
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
			below := !c.isUnexplored(b)
			if c.uniform() || c.kind == kindReuse {
				// Every branch left is as likely (IntN, Bit) or less likely
				// (the outcomes of Reuse, in decreasing probability, then
				// its unexplored mass), so cut too.
				n := int64(c.branches() - b)
				*cuts += n
				if below {
					s.belowMin += n
				}
				break
			}
			*cuts++
			if below {
				s.belowMin++
			}
		}
	}
	return false
}

// isUnexplored reports whether branch b of c is the unexplored mass of a
// reused sub-sampler.
func (c *choice) isUnexplored(b int) bool { return c.kind == kindReuse && b == c.u.outcomes }
