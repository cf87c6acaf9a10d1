package dptest

import (
	"context"
	"fmt"
	"math/big"
	"runtime/debug"
)

// Budget bounds the exploration of one sampler's runs. Zero fields take
// the defaults. Runs that end with probability 1 but not surely (rejection
// sampling) have infinitely many paths: the budget cuts them, and the
// exploration keeps the exact mass of what it cut (Dist.Unexplored).
type Budget struct {
	// Runs is the most runs explored, completed or cut (default 1 << 20).
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
	// Runs counts the runs completed, Cut those cut by the budget.
	Runs, Cut int64
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

func (e *NondeterminismError) Error() string {
	return fmt.Sprintf("the sampler is not deterministic given its choices: after %s it asked for %s, and for %s when the same choices were replayed (does it read math/rand, the clock or a global?)", e.Choices, e.Want, e.Got)
}

// PanicError is a panic of the sampler, with the choices that led to it.
type PanicError struct {
	Choices string
	Value   any
	Stack   string
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("the sampler panicked after the choices %s: %v", e.Choices, e.Value)
}

// Explore runs run on every sequence of choices, depth first, within the
// budget, and returns the exact distribution it found. Each run is
// re-executed from the start with the choices of its prefix forced, so
// memory is proportional to the depth of a run, not to the number of runs.
// It stops with ctx's error when ctx ends, and with a *NondeterminismError
// or a *PanicError when the sampler is not a function of its choices.
func Explore[Out comparable](ctx context.Context, run func(*Rand) Out, b Budget) (*Dist[Out], error) {
	b = b.withDefaults()
	r := &Rand{b: b}
	d := &Dist[Out]{P: map[Out]*big.Rat{}, Unexplored: new(big.Rat)}
	for n := int64(0); n < b.Runs; n++ {
		if n%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		var out Out
		cutRun := false
		if k := r.forced; k > 0 && b.MinProb != nil && r.probs[k-1].Cmp(b.MinProb) < 0 {
			cutRun = true // the forced prefix alone is less likely than MinProb
		} else {
			var err error
			if out, cutRun, err = runOnce(r, run); err != nil {
				return nil, err
			}
		}
		mass := ratOne
		if k := len(r.trace); k > 0 {
			mass = r.probs[k-1]
		}
		if cutRun {
			d.Cut++
		} else {
			d.Runs++
			if p, ok := d.P[out]; ok {
				p.Add(p, mass)
			} else {
				d.P[out] = new(big.Rat).Set(mass)
			}
		}
		if !r.backtrack() {
			break
		}
	}
	// What was not explored: the cut runs and those never reached.
	for _, p := range d.P {
		d.Unexplored.Add(d.Unexplored, p)
	}
	d.Unexplored.Sub(ratOne, d.Unexplored)
	return d, nil
}

// runOnce runs the sampler once on the forced prefix of r's trace; cutRun
// says that the budget cut it.
func runOnce[Out comparable](r *Rand, f func(*Rand) Out) (out Out, cutRun bool, err error) {
	r.pos = 0
	defer func() {
		v := recover()
		switch v := v.(type) {
		case nil:
		case cut:
			cutRun = true
		case *NondeterminismError:
			err = v
		default:
			err = &PanicError{Choices: r.describe(len(r.trace)), Value: v, Stack: string(debug.Stack())}
		}
	}()
	out = f(r)
	if r.pos < r.forced {
		return out, false, &NondeterminismError{Choices: r.describe(r.pos), Want: r.trace[r.pos].ask(), Got: "(the end of the run)"}
	}
	return out, false, nil
}

// backtrack makes the next run's forced prefix: the last choice of this
// run that has another branch of positive probability takes it, and the
// choices after it are dropped. It reports false when no run is left.
func (r *Rand) backtrack() bool {
	for i := len(r.trace) - 1; i >= 0; i-- {
		c := r.trace[i]
		nb := r.nextBranch(c, c.branch)
		if nb < 0 {
			continue
		}
		c.branch = nb
		r.trace = r.trace[:i+1]
		r.trace[i] = c
		r.probs = r.probs[:i+1]
		r.probs[i] = r.pathProb(i, r.branchProb(c, nb))
		r.forced = i + 1
		return true
	}
	return false
}
