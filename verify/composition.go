package verify

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"sync"

	"github.com/dpcheck/dpcheck/exact"
)

// Privacy answers the questions of standard (ε,δ)-differential privacy
// over an output space: an *Analysis over a chain's own outputs, a
// *Composition over the outputs of independent runs.
type Privacy interface {
	DP(ctx context.Context, eps exact.Eps, delta *big.Rat) (*DPResult, error)
	TightEpsilon(ctx context.Context, delta *big.Rat) (*EpsResult, error)
	TightDelta(ctx context.Context, eps exact.Eps) (*DeltaResult, error)
	Profile(ctx context.Context) (*Profile, error)
	PairProfile(ctx context.Context, from, to int) (*Profile, error)
}

var (
	_ Privacy = (*Analysis)(nil)
	_ Privacy = (*Composition)(nil)
)

// LossEvent describes an event of a composition by its privacy loss
// ln(Pr_From(o)/Pr_To(o)), o a tuple of the runs' outputs.
type LossEvent struct {
	// Runs is the number of runs; the event is a set of Runs-tuples.
	Runs int
	// Op is ">" (the tuples whose loss exceeds Loss), "≥" (whose loss is
	// at least Loss: the largest loss, for the tight ε at δ = 0) or "∞"
	// (the tuples impossible under To: infinite loss; Loss is unused).
	// The tuples of infinite loss belong to every event ">" and "≥".
	Op   string
	Loss exact.Eps
	// Values is the number of distinct finite loss values in the event.
	Values int
	// Infinite says whether the event has tuples of infinite loss (with
	// positive probability under From).
	Infinite bool
}

// String writes the event: "privacy loss > ln(2)", "privacy loss = ∞".
func (e *LossEvent) String() string {
	if e.Op == "∞" {
		return "privacy loss = ∞"
	}
	return "privacy loss " + e.Op + " " + e.Loss.String()
}

// CompositionOptions bound the work of a Composition.
type CompositionOptions struct {
	// MaxLossValues bounds the distinct finite loss values of an ordered
	// pair over all runs (DefaultMaxLossValues when zero).
	MaxLossValues int
	// MaxWork bounds the word operations the products of a pair's masses
	// over all runs are estimated to take (DefaultMaxWork when zero): a
	// pair over it is refused with a *WorkLimitError before they are made.
	MaxWork float64
}

// withDefaults returns o with every zero field replaced by its default.
func (o CompositionOptions) withDefaults() CompositionOptions {
	if o.MaxLossValues <= 0 {
		o.MaxLossValues = DefaultMaxLossValues
	}
	if o.MaxWork <= 0 {
		o.MaxWork = DefaultMaxWork
	}
	return o
}

// powerError turns what lossDist.power refuses into the public error of
// the pair (from, to) over runs runs.
func (o CompositionOptions) powerError(err error, from, to StateInfo, runs int) error {
	var tm *tooMany
	var tw *tooMuchWork
	switch {
	case errors.As(err, &tm):
		return &LossLimitError{From: from, To: to, Runs: runs, AtRuns: tm.runs, Count: tm.count, Max: o.MaxLossValues}
	case errors.As(err, &tw):
		return &WorkLimitError{From: from, To: to, Runs: runs, Values: tw.values, Bits: tw.bits, Work: tw.work, Max: o.MaxWork}
	}
	return err
}

// Composition answers dp, the tight ε and δ and the privacy profile for
// Runs independent runs of the analysed model on the same input, every
// run's output observed (the outputs are Runs-tuples), without the product
// of the runs: from the exact privacy-loss distribution of every ordered
// pair, convolved Runs times (docs/semantics.md §2.11). Its results equal
// those of an Analysis of the product chain; their events are described
// by privacy loss. It is safe for concurrent use.
type Composition struct {
	a    *Analysis
	runs int
	opts CompositionOptions
	base []*sortedDist // one run's distribution per ordered pair
	// first[k] is the first ordered pair with the same one-run
	// distribution as pair k (the pairs share their powers).
	first []int

	mu       sync.Mutex
	composed []*sortedDist // per ordered pair, once computed
	err      error         // a limit error, kept
}

// NewComposition prepares runs independent runs of the model a analyses.
// Every compared input must end its run with probability 1: a run that
// never ends has no output after which the next could start.
func NewComposition(ctx context.Context, a *Analysis, runs int, opts CompositionOptions) (*Composition, error) {
	if runs < 1 {
		return nil, fmt.Errorf("%w: %d runs; a composition needs at least one", ErrParam, runs)
	}
	opts = opts.withDefaults()
	for _, s := range pairInputs(a.pairs) {
		ds := a.dist[s]
		for i, o := range ds.out {
			if a.outputs[o] == Never {
				return nil, fmt.Errorf("%w: from %s the run never ends with probability %s; runs that may not end cannot be composed",
					ErrModel, a.stateInfo(s), ds.p[i].RatString())
			}
		}
	}
	n := a.numOrdered()
	c := &Composition{a: a, runs: runs, opts: opts, base: make([]*sortedDist, n), first: make([]int, n)}
	prints := make([]string, n)
	err := parallel(ctx, "ordered pairs (loss distributions)", n, func(sc *scratch, k int) error {
		s, t := a.orderedPair(k)
		gs := a.groups(s, t, sc)
		prints[k] = fingerprint(gs)
		d, err := newLossDist(ctx, gs)
		if err != nil {
			return err
		}
		c.base[k], err = d.sorted(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	seen := map[string]int{}
	for k, p := range prints {
		if f, ok := seen[p]; ok {
			c.first[k] = f
			c.base[k] = c.base[f]
		} else {
			seen[p] = k
			c.first[k] = k
		}
	}
	return c, nil
}

// pairInputs returns the inputs in some pair, in the order first seen.
func pairInputs(pairs [][2]int) []int {
	var ins []int
	seen := map[int]bool{}
	for _, p := range pairs {
		for _, s := range p {
			if !seen[s] {
				seen[s] = true
				ins = append(ins, s)
			}
		}
	}
	return ins
}

// fingerprint identifies a pair's one-run distribution.
func fingerprint(gs []group) string {
	var b strings.Builder
	for _, g := range gs {
		if g.ratio == nil {
			b.WriteString("inf")
		} else {
			b.WriteString(g.ratio.RatString())
		}
		b.WriteByte(':')
		b.WriteString(g.A.RatString())
		b.WriteByte(';')
	}
	return b.String()
}

// Runs returns the number of runs.
func (c *Composition) Runs() int { return c.runs }

// Analysis returns the analysis of one run.
func (c *Composition) Analysis() *Analysis { return c.a }

// ensure computes every ordered pair's distribution over all runs, once.
func (c *Composition) ensure(ctx context.Context) ([]*sortedDist, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.composed != nil || c.err != nil {
		return c.composed, c.err
	}
	var uniq []int
	for k, f := range c.first {
		if f == k {
			uniq = append(uniq, k)
		}
	}
	out := make([]*sortedDist, len(c.first))
	err := parallel(ctx, "ordered pairs (composition)", len(uniq), func(_ *scratch, i int) error {
		k := uniq[i]
		p, err := c.base[k].lossDist.power(ctx, c.runs, c.opts.MaxLossValues, c.opts.MaxWork)
		if err != nil {
			s, t := c.a.orderedPair(k)
			return c.opts.powerError(err, c.a.stateInfo(s), c.a.stateInfo(t), c.runs)
		}
		out[k], err = p.sorted(ctx)
		return err
	})
	if err != nil {
		if errors.Is(err, ErrLossValues) {
			c.err = err
		}
		return nil, err
	}
	for k, f := range c.first {
		out[k] = out[f]
	}
	c.composed = out
	return out, nil
}

// checked says what a result covers; values is the largest number of
// loss values of a pair (0: one run's distributions were enough).
func (c *Composition) checked(composed []*sortedDist) Checked {
	ch := c.a.checked()
	ch.Runs = c.runs
	for _, d := range composed {
		n := d.len()
		if d.inf.Sign() > 0 {
			n++ // the infinite loss
		}
		ch.LossValues = max(ch.LossValues, n)
	}
	return ch
}

// witness describes the first k atoms of pair pk's distribution over all
// runs, and its infinite loss when inf, as an event.
func (c *Composition) witness(pk int, op string, loss exact.Eps, k int, inf bool, A, B *big.Rat) *Witness {
	s, t := c.a.orderedPair(pk)
	return &Witness{From: c.a.stateInfo(s), To: c.a.stateInfo(t),
		Loss: &LossEvent{Runs: c.runs, Op: op, Loss: loss, Values: k, Infinite: inf || op == "∞"}, PrFrom: A, PrTo: B}
}

// pairH is the hockey-stick divergence of one pair at c.
type pairH struct {
	k    int
	A, B *big.Rat
	H    exact.Real
}

// divergences returns H_c of every ordered pair (pairs with the same
// distribution share it).
func (c *Composition) divergences(ctx context.Context, composed []*sortedDist, eps exact.Eps) ([]pairH, error) {
	ci := newCinfo(eps)
	hs := make([]pairH, len(composed))
	err := parallel(ctx, "", len(composed), func(_ *scratch, k int) error {
		if c.first[k] != k {
			return nil
		}
		n, A, B, err := composed[k].hockey(&ci)
		hs[k] = pairH{n, A, B, exact.Affine(A, new(big.Rat).Neg(B), eps)}
		return err
	})
	if err != nil {
		return nil, err
	}
	for k, f := range c.first {
		hs[k] = hs[f]
	}
	return hs, nil
}

// worst returns the pair with the largest H among ks (the first on ties).
func (c *Composition) worst(hs []pairH, ks []int) (int, error) {
	best := ks[0]
	for _, k := range ks[1:] {
		if c.first[k] == c.first[best] {
			continue // the same distribution
		}
		c, err := hs[k].H.Cmp(hs[best].H)
		if err != nil {
			return 0, err
		}
		if c > 0 {
			best = k
		}
	}
	return best, nil
}

// DP checks standard (ε,δ)-differential privacy over all events of the
// runs' outputs (see Analysis.DP). For δ = 0 a property that holds needs
// one run only: the largest loss over the runs is Runs times one run's.
func (c *Composition) DP(ctx context.Context, eps exact.Eps, delta *big.Rat) (*DPResult, error) {
	if err := checkEps(eps); err != nil {
		return nil, err
	}
	if err := checkDelta(delta); err != nil {
		return nil, err
	}
	res := &DPResult{Eps: eps, Delta: new(big.Rat).Set(delta), Holds: true, Checked: c.checked(nil)}
	if delta.Sign() == 0 {
		top, err := c.pureTop(ctx)
		if err != nil {
			return nil, err
		}
		if top.inf < 0 && (top.r == nil || top.cmp(eps) <= 0) {
			return res, nil
		}
	}
	composed, err := c.ensure(ctx)
	if err != nil {
		return nil, err
	}
	res.Checked = c.checked(composed)
	hs, err := c.divergences(ctx, composed, eps)
	if err != nil {
		return nil, err
	}
	var bad []int
	for k := range hs {
		sign, err := hs[k].H.Sub(exact.RatReal(delta)).Sign()
		if err != nil {
			return nil, err
		}
		if sign > 0 {
			bad = append(bad, k)
		}
	}
	if len(bad) == 0 {
		return res, nil
	}
	res.Holds = false
	k, err := c.worst(hs, bad)
	if err != nil {
		return nil, err
	}
	h := hs[k]
	cx := &Counterexample{
		Witness: *c.witness(k, ">", eps, h.k, composed[k].inf.Sign() > 0, h.A, h.B),
		Bound:   exact.Affine(new(big.Rat).Set(delta), h.B, eps),
		Excess:  exact.Affine(new(big.Rat).Sub(h.A, delta), new(big.Rat).Neg(h.B), eps),
	}
	c.worstOutput(k, cx)
	least, err := c.TightEpsilon(ctx, delta)
	if err != nil {
		return nil, err
	}
	cx.LeastEps = least.Eps
	res.Counterexample = cx
	return res, nil
}

// maxTupleBits bounds the size of the probabilities of the worst tuple a
// counterexample shows.
const maxTupleBits = 1 << 22

// worstOutput sets the tuple with the largest ratio: one run's worst
// output in every run.
func (c *Composition) worstOutput(k int, cx *Counterexample) {
	s, t := c.a.orderedPair(k)
	name, ps, pt := c.a.worstOutput(s, t, &scratch{})
	if name == "" || int64(exact.Bits(ps)+exact.Bits(pt))*int64(c.runs) > maxTupleBits {
		return
	}
	cx.WorstOutput = tupleName(name, c.runs)
	cx.WorstFrom, cx.WorstTo = exact.Pow(ps, int64(c.runs)), exact.Pow(pt, int64(c.runs))
}

// tupleName names the tuple of n copies of an output, as the product
// chain names its outputs when there are few.
func tupleName(o string, n int) string {
	if strings.ContainsAny(o, ",|\"") {
		o = fmt.Sprintf("%q", o)
	}
	if n <= 4 {
		return strings.Repeat(o+",", n-1) + o
	}
	return fmt.Sprintf("%s,%s,…,%s (%s in all %d runs)", o, o, o, o, n)
}

// pureFact is the largest loss of the runs over all ordered pairs: an
// infinite loss (inf ≥ 0, the pair) or the largest ratio r of one run
// (r^Runs over all runs), attained by pair k; r == nil when no pair has a
// ratio above 1.
type pureFact struct {
	inf, k int
	r      *big.Rat
	runs   int
}

// cmp compares the largest loss Runs·ln(r) with ε.
func (f pureFact) cmp(eps exact.Eps) int {
	c, err := eps.CmpC(exact.Pow(f.r, int64(f.runs)))
	if err != nil {
		return 1 // undecidable within the limits: the general path decides
	}
	return c
}

// pureTop finds the largest loss of one run over all pairs.
func (c *Composition) pureTop(ctx context.Context) (pureFact, error) {
	f := pureFact{inf: -1, runs: c.runs}
	for k, d := range c.base {
		if err := ctx.Err(); err != nil {
			return f, err
		}
		if c.first[k] != k {
			continue
		}
		if d.inf.Sign() > 0 {
			f.inf = k
			return f, nil
		}
		if d.len() == 0 || d.cmpOne(0) <= 0 {
			continue
		}
		if r := d.ratio(0); f.r == nil || r.Cmp(f.r) > 0 {
			f.r, f.k = r, k
		}
	}
	return f, nil
}

// TightEpsilon returns the least ε for which dp(ε, δ) holds over all runs
// (see Analysis.TightEpsilon). For δ = 0 it is Runs times one run's, or
// ∞, and needs one run only; its witness is the event of the largest loss.
func (c *Composition) TightEpsilon(ctx context.Context, delta *big.Rat) (*EpsResult, error) {
	if err := checkDelta(delta); err != nil {
		return nil, err
	}
	out := &EpsResult{Delta: new(big.Rat).Set(delta), Checked: c.checked(nil)}
	if delta.Sign() == 0 {
		f, err := c.pureTop(ctx)
		if err != nil {
			return nil, err
		}
		n := int64(c.runs)
		switch {
		case f.inf >= 0:
			d := c.base[f.inf]
			fin := new(big.Rat).SetFrac(sum(d.s), d.ds)
			z := new(big.Rat).Sub(ratOne, exact.Pow(fin, n))
			out.Eps = exact.Inf()
			out.Witness = c.witness(f.inf, "∞", exact.Eps{}, 0, true, z, new(big.Rat))
		case f.r != nil:
			d := c.base[f.k]
			A, B := new(big.Rat).SetFrac(d.s[0], d.ds), new(big.Rat).SetFrac(d.t[0], d.dt)
			out.Eps = exact.LnOf(exact.Pow(f.r, n))
			out.Witness = c.witness(f.k, "≥", out.Eps, 1, false, exact.Pow(A, n), exact.Pow(B, n))
		}
		return out, nil
	}
	composed, err := c.ensure(ctx)
	if err != nil {
		return nil, err
	}
	out.Checked = c.checked(composed)
	type star struct {
		c    *big.Rat
		k    int
		A, B *big.Rat
	}
	stars := make([]star, len(composed))
	err = parallel(ctx, "", len(composed), func(_ *scratch, k int) error {
		if c.first[k] == k {
			cs, n, A, B := composed[k].cStar(delta)
			stars[k] = star{cs, n, A, B}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	bk := -1
	for k, f := range c.first {
		if f != k {
			continue
		}
		switch {
		case bk < 0:
			bk = k
		case stars[bk].c == nil:
		case stars[k].c == nil || stars[k].c.Cmp(stars[bk].c) > 0:
			bk = k
		}
	}
	b := stars[bk]
	out.Eps = epsOf(b.c)
	switch {
	case b.c == nil:
		out.Witness = c.witness(bk, "∞", exact.Eps{}, 0, true, b.A, b.B)
	case b.c.Cmp(ratOne) > 0:
		out.Witness = c.witness(bk, ">", out.Eps, b.k, composed[bk].inf.Sign() > 0, b.A, b.B)
	}
	return out, nil
}

// TightDelta returns the least δ for which dp(ε, δ) holds over all runs:
// the largest hockey-stick divergence over ordered pairs, exactly.
func (c *Composition) TightDelta(ctx context.Context, eps exact.Eps) (*DeltaResult, error) {
	if err := checkEps(eps); err != nil {
		return nil, err
	}
	composed, err := c.ensure(ctx)
	if err != nil {
		return nil, err
	}
	hs, err := c.divergences(ctx, composed, eps)
	if err != nil {
		return nil, err
	}
	all := make([]int, len(hs))
	for k := range all {
		all[k] = k
	}
	k, err := c.worst(hs, all)
	if err != nil {
		return nil, err
	}
	h := hs[k]
	return &DeltaResult{Eps: eps, Delta: h.H, Witness: c.witness(k, ">", eps, h.k, composed[k].inf.Sign() > 0, h.A, h.B), Checked: c.checked(composed)}, nil
}

// lines returns the lines δ = A − c·B of a distribution whose envelope on
// c ≥ 1 is its H_c: the infinite loss alone, and the first k atoms for
// every k up to the atoms of ratio above 1.
func (d *sortedDist) lines(sc *big.Int) []pline {
	ls := []pline{newPline(frac{d.prefS[0], d.ds}, fracZero, sc)}
	for k := 1; k <= d.len() && d.cmpOne(k-1) > 0; k++ {
		ls = append(ls, newPline(frac{d.prefS[k], d.ds}, frac{d.prefT[k], d.dt}, sc))
	}
	return ls
}

// Profile returns the exact privacy profile of the runs (see
// Analysis.Profile).
func (c *Composition) Profile(ctx context.Context) (*Profile, error) {
	composed, err := c.ensure(ctx)
	if err != nil {
		return nil, err
	}
	var sc big.Int
	var all []pline
	for k, f := range c.first {
		if f == k {
			all = append(all, composed[k].lines(&sc)...)
		}
	}
	pts, err := profileEnvelope(ctx, all)
	if err != nil {
		return nil, err
	}
	return &Profile{Points: pts, Checked: c.checked(composed)}, nil
}

// PairProfile returns the privacy profile of the runs for the ordered
// pair (from, to) (an empty profile when it is not a compared pair).
func (c *Composition) PairProfile(ctx context.Context, from, to int) (*Profile, error) {
	for k := range c.first {
		if s, t := c.a.orderedPair(k); s != from || t != to {
			continue
		}
		composed, err := c.ensure(ctx)
		if err != nil {
			return nil, err
		}
		var sc big.Int
		pts, err := profileEnvelope(ctx, composed[k].lines(&sc))
		if err != nil {
			return nil, err
		}
		ch := c.checked(composed[k : k+1])
		ch.OrderedPairs = 1
		return &Profile{Points: pts, Checked: ch}, nil
	}
	return &Profile{}, nil
}

// PairPLD returns the exact privacy-loss distribution of one run for the
// ordered pair (from, to) of compared inputs (docs/semantics.md §2.11).
func (a *Analysis) PairPLD(ctx context.Context, from, to int) (*PLD, error) {
	if a.dist[from] == nil || a.dist[to] == nil {
		return nil, fmt.Errorf("%w: %s and %s are not both compared inputs", ErrParam, a.stateInfo(from), a.stateInfo(to))
	}
	d, err := newLossDist(ctx, a.groups(from, to, &scratch{}))
	if err != nil {
		return nil, err
	}
	sd, err := d.sorted(ctx)
	if err != nil {
		return nil, err
	}
	return &PLD{From: a.stateInfo(from), To: a.stateInfo(to), d: sd}, nil
}

// PLD is the exact privacy-loss distribution of an ordered pair (From, To)
// over one or more independent runs: its finite loss values ln(r), each
// with the probabilities under From and To of the outputs (tuples, over
// several runs) that have it, and the probability under From of the
// outputs To cannot produce (infinite loss). Outputs From cannot produce
// are left out. It is immutable.
type PLD struct {
	From, To StateInfo
	d        *sortedDist
}

// LossAtom is one finite loss value ln(Ratio) of a PLD with the
// probabilities of its outputs: PrFrom = Ratio·PrTo.
type LossAtom struct {
	Ratio, PrFrom, PrTo *big.Rat
}

// Runs returns the number of runs the distribution is over.
func (p *PLD) Runs() int { return p.d.runs }

// Len returns the number of distinct finite loss values.
func (p *PLD) Len() int { return p.d.len() }

// Atom returns the i-th finite loss value, in decreasing order of loss.
func (p *PLD) Atom(i int) LossAtom {
	A := new(big.Rat).SetFrac(p.d.s[i], p.d.ds)
	B := new(big.Rat).SetFrac(p.d.t[i], p.d.dt)
	return LossAtom{Ratio: p.d.ratio(i), PrFrom: A, PrTo: B}
}

// Infinite returns the probability under From of the outputs To cannot
// produce.
func (p *PLD) Infinite() *big.Rat { return new(big.Rat).SetFrac(p.d.inf, p.d.ds) }

// Compose returns the distribution of k independent repetitions of p's
// runs: its k-fold convolution with equal losses merged, by repeated
// squaring. It refuses with a *LossLimitError when the result would have
// more than maxValues distinct finite loss values (DefaultMaxLossValues
// when maxValues ≤ 0), and with a *WorkLimitError when it would take more
// than DefaultMaxWork word operations (ComposeWithin sets both).
func (p *PLD) Compose(ctx context.Context, k, maxValues int) (*PLD, error) {
	return p.ComposeWithin(ctx, k, CompositionOptions{MaxLossValues: maxValues})
}

// ComposeWithin is Compose within the limits of opts (their defaults when
// zero).
func (p *PLD) ComposeWithin(ctx context.Context, k int, opts CompositionOptions) (*PLD, error) {
	if k < 1 {
		return nil, fmt.Errorf("%w: %d repetitions; at least one is needed", ErrParam, k)
	}
	opts = opts.withDefaults()
	q, err := p.d.lossDist.power(ctx, k, opts.MaxLossValues, opts.MaxWork)
	if err != nil {
		return nil, opts.powerError(err, p.From, p.To, k*p.d.runs)
	}
	sd, err := q.sorted(ctx)
	if err != nil {
		return nil, err
	}
	return &PLD{From: p.From, To: p.To, d: sd}, nil
}

// Delta returns the hockey-stick divergence H_c(From‖To) at c = e^ε:
// the least δ of dp(ε, δ) for this pair, a rational when c is rational,
// else A − B·e^ε.
func (p *PLD) Delta(eps exact.Eps) (exact.Real, error) {
	if err := checkEps(eps); err != nil {
		return exact.Real{}, err
	}
	ci := newCinfo(eps)
	_, A, B, err := p.d.hockey(&ci)
	if err != nil {
		return exact.Real{}, err
	}
	return exact.Affine(A, new(big.Rat).Neg(B), eps), nil
}

// TightEpsilon returns the least ε with H_c(From‖To) ≤ δ: ln of a
// rational, 0, or +∞.
func (p *PLD) TightEpsilon(delta *big.Rat) (exact.Eps, error) {
	if err := checkDelta(delta); err != nil {
		return exact.Eps{}, err
	}
	if delta.Sign() == 0 {
		switch {
		case p.d.inf.Sign() > 0:
			return exact.Inf(), nil
		case p.d.len() == 0 || p.d.cmpOne(0) <= 0:
			return exact.Eps{}, nil
		}
		return exact.LnOf(p.d.ratio(0)), nil
	}
	c, _, _, _ := p.d.cStar(delta)
	return epsOf(c), nil
}

// Profile returns the pair's exact privacy profile.
func (p *PLD) Profile(ctx context.Context) (*Profile, error) {
	var sc big.Int
	pts, err := profileEnvelope(ctx, p.d.lines(&sc))
	if err != nil {
		return nil, err
	}
	ch := Checked{OrderedPairs: 1, Runs: p.d.runs, LossValues: p.d.len()}
	if p.d.inf.Sign() > 0 {
		ch.LossValues++
	}
	return &Profile{Points: pts, Checked: ch}, nil
}
