package dptest

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// Mechanism is a mechanism written in Go over the user's own input and
// output types: either an exact distribution function (Dist) or a sampler
// (Run), whose every random choice is explored. It is a Model: every
// assertion and check of this package takes it.
//
//	m := dptest.Mechanism[int, int]{
//		Inputs:     []int{0, 1, 2},
//		Neighbours: dptest.Within(1),
//		Run:        func(x int, r *dptest.Rand) int { return x + noise(r) },
//	}
//	dptest.AssertDP(t, m, exact.LnInt(3), nil)
type Mechanism[In, Out comparable] struct {
	// Inputs are the inputs compared, in the order results list them;
	// each is printed with %v.
	Inputs []In
	// Neighbours says which inputs are neighbours; it is called on every
	// two distinct inputs, both ways round, and two inputs are neighbours
	// when either call says so. Nil: every two distinct inputs are. See
	// Within, OnePosition and AddRemoveOne for the common relations.
	Neighbours func(a, b In) bool
	// Dist is the mechanism's exact output distribution on an input: the
	// probabilities must be non-negative and sum to exactly 1 (outputs of
	// probability 0 may be left out).
	Dist func(In) map[Out]*big.Rat
	// Run is the mechanism as a sampler: it draws every random choice from
	// r, and must be deterministic given them. Each input's runs are
	// explored (Explore) within Budget, inputs in parallel.
	Run func(x In, r *Rand) Out
	// Budget bounds the exploration of each input's runs (Run only); the
	// zero Budget takes the defaults.
	Budget Budget
}

// Sampler returns the mechanism of one sampler without an input, for the
// sampler-correctness checks (SameDist, AssertSameDist): its only input
// is struct{}{}.
func Sampler[Out comparable](run func(*Rand) Out, b Budget) Mechanism[struct{}, Out] {
	return Mechanism[struct{}, Out]{
		Inputs: []struct{}{{}},
		Run:    func(_ struct{}, r *Rand) Out { return run(r) },
		Budget: b,
	}
}

// Exact returns the mechanism of one exact distribution without an
// input: what Sampler's distribution should be.
func Exact[Out comparable](dist map[Out]*big.Rat) Mechanism[struct{}, Out] {
	return Mechanism[struct{}, Out]{
		Inputs: []struct{}{{}},
		Dist:   func(struct{}) map[Out]*big.Rat { return dist },
	}
}

// prepare computes every input's distribution: exactly from Dist, or
// explored from Run.
func (m Mechanism[In, Out]) prepare(ctx context.Context, needPairs bool) (*mdl, error) {
	switch {
	case m.Dist != nil && m.Run != nil:
		return nil, errors.New("dptest: the mechanism has both Dist and Run: give one")
	case m.Dist == nil && m.Run == nil:
		return nil, errors.New("dptest: the mechanism has neither Dist nor Run: give one")
	case len(m.Inputs) == 0:
		return nil, errors.New("dptest: the mechanism has no Inputs")
	}
	if err := checkInputs(m.Inputs); err != nil {
		return nil, err
	}
	var pairs [][2]int
	for i := range m.Inputs {
		for j := i + 1; j < len(m.Inputs); j++ {
			if m.neighbours(m.Inputs[i], m.Inputs[j]) {
				pairs = append(pairs, [2]int{i, j})
			}
		}
	}
	if needPairs && len(pairs) == 0 && m.Run != nil { // before exploring (Dist's rows are checked first)
		return nil, errNoPairs
	}
	var dists []*Dist[Out]
	var err error
	if m.Dist != nil {
		dists, err = m.exactDists(ctx)
	} else {
		dists, err = m.explore(ctx)
	}
	if err != nil {
		return nil, err
	}
	md := &mdl{sampler: m.Run != nil, budget: m.Budget}
	// The outputs, in their natural order (numbers numerically, arrays
	// and structs field by field), so that results do not depend on the
	// order of a map.
	index := map[Out]int{}
	var outs []Out
	for _, d := range dists {
		for o := range d.P {
			if _, ok := index[o]; !ok {
				index[o] = 0
				outs = append(outs, o)
			}
		}
	}
	slices.SortStableFunc(outs, func(a, b Out) int { return compareValues(a, b) })
	printed := map[string]Out{}
	for j, o := range outs {
		index[o] = j
		name := fmt.Sprint(o)
		if other, dup := printed[name]; dup {
			return nil, fmt.Errorf("dptest: two distinct outputs, %#v and %#v, both print as %q: outputs are shown and matched by how they print (%%v); give the type a String method that tells them apart", other, o, name)
		}
		printed[name] = o
		md.outputs = append(md.outputs, name)
	}
	for i, x := range m.Inputs {
		d := dists[i]
		in := &modelInput{name: fmt.Sprint(x), p: make(map[int]*big.Rat, len(d.P)), u: d.Unexplored, runs: d.Runs, cut: d.Cut, depthCut: d.DepthCut, runsHit: d.RunsHit, threshold: d.Threshold}
		for o, p := range d.P {
			in.p[index[o]] = p
		}
		in.key = in.name
		md.inputs = append(md.inputs, in)
	}
	md.pairs = pairs
	return md, nil
}

// errNoPairs says that a model has no pair of neighbours to compare.
var errNoPairs = errors.New("dptest: no two inputs are neighbours: there is nothing to compare")

// checkInputs checks that the inputs can be compared, are listed once
// each, and print differently.
func checkInputs[In comparable](inputs []In) (err error) {
	i := 0
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("dptest: input %v (at %d), of type %T, cannot be compared (%v): an input must be a comparable value", inputs[i], i, any(inputs[i]), v)
		}
	}()
	seen := make(map[In]int, len(inputs))
	printed := make(map[string]int, len(inputs))
	for i = range inputs {
		x := inputs[i]
		if j, dup := seen[x]; dup {
			return fmt.Errorf("dptest: input %v is listed twice in Inputs (at %d and %d)", x, j, i)
		}
		seen[x] = i
		name := fmt.Sprint(x)
		if j, dup := printed[name]; dup {
			return fmt.Errorf("dptest: two distinct inputs, %#v (at %d) and %#v (at %d), both print as %q: inputs are shown and matched by how they print (%%v); give the type a String method that tells them apart", inputs[j], j, x, i, name)
		}
		printed[name] = i
	}
	return nil
}

func (m Mechanism[In, Out]) neighbours(a, b In) bool {
	if m.Neighbours == nil {
		return true
	}
	return m.Neighbours(a, b) || m.Neighbours(b, a)
}

// exactDists calls Dist on every input and checks each row: no nil or
// negative probability, a sum of exactly 1. The rows are copied.
func (m Mechanism[In, Out]) exactDists(ctx context.Context) ([]*Dist[Out], error) {
	out := make([]*Dist[Out], len(m.Inputs))
	for i, x := range m.Inputs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		row, err := callDist(m.Dist, x)
		if err != nil {
			return nil, err
		}
		d := &Dist[Out]{P: make(map[Out]*big.Rat, len(row)), Unexplored: new(big.Rat)}
		sum := new(big.Rat)
		for o, p := range row {
			switch {
			case p == nil:
				return nil, fmt.Errorf("dptest: Dist(%v) gives output %v a nil probability", x, o)
			case p.Sign() < 0:
				return nil, fmt.Errorf("dptest: Dist(%v) gives output %v the negative probability %s", x, o, p.RatString())
			case p.Sign() > 0:
				d.P[o] = new(big.Rat).Set(p)
				sum.Add(sum, p)
			}
		}
		if sum.Cmp(ratOne) != 0 {
			return nil, fmt.Errorf("dptest: the probabilities of Dist(%v) sum to %s, not 1", x, sum.RatString())
		}
		out[i] = d
	}
	return out, nil
}

// callDist calls dist(x), turning a panic into an error that names x.
func callDist[In, Out comparable](dist func(In) map[Out]*big.Rat, x In) (row map[Out]*big.Rat, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("dptest: Dist(%v) panicked: %v", x, v)
		}
	}()
	return dist(x), nil
}

// explore explores every input's runs, inputs in parallel (GOMAXPROCS
// workers). The first error, in the order of the inputs, is returned,
// naming its input: an error cancels only the inputs after it, so the
// error reported does not depend on which worker was faster.
func (m Mechanism[In, Out]) explore(ctx context.Context) ([]*Dist[Out], error) {
	n := len(m.Inputs)
	dists := make([]*Dist[Out], n)
	errs := make([]error, n)
	var mu sync.Mutex
	first := n // the lowest input that failed
	cancels := make([]context.CancelFunc, n)
	start := func(i int) (context.Context, bool) {
		mu.Lock()
		defer mu.Unlock()
		if i >= n || i > first {
			return nil, false
		}
		c, cancel := context.WithCancel(ctx)
		cancels[i] = cancel
		return c, true
	}
	fail := func(i int, err error) {
		mu.Lock()
		defer mu.Unlock()
		errs[i] = err
		if i < first {
			first = i
			for _, cancel := range cancels[i+1:] {
				if cancel != nil {
					cancel()
				}
			}
		}
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				inner, ok := start(i)
				if !ok || inner.Err() != nil {
					return
				}
				x := m.Inputs[i]
				d, err := Explore(inner, func(r *Rand) Out { return m.Run(x, r) }, m.Budget)
				cancels[i]()
				if err != nil {
					fail(i, err)
					return
				}
				dists[i] = d
			}
		}()
	}
	wg.Wait() // Explore returns when ctx ends, even with a sampler stuck
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for i, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return nil, &InputError{Input: fmt.Sprint(m.Inputs[i]), Err: err}
		}
	}
	return dists, nil
}

// InputError is an error of a sampler on one input: a
// *NondeterminismError, a *PanicError, or an invalid choice.
type InputError struct {
	Input string // the input, printed with %v
	Err   error
}

// Error says which input, and what went wrong there.
func (e *InputError) Error() string { return fmt.Sprintf("dptest: input %s: %v", e.Input, e.Err) }

// Unwrap returns the sampler's error.
func (e *InputError) Unwrap() error { return e.Err }
