package dptest

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/verify"
)

// Verdict is the answer of a check: the property is proved, refuted, or
// neither within the exploration budget of a sampler.
type Verdict int

const (
	// Unknown: the property holds for some ways the unexplored mass of a
	// sampler could fall and fails for others; a larger Budget may decide.
	Unknown Verdict = iota
	// Holds: the property holds, for every way the unexplored mass could
	// fall.
	Holds
	// Violated: the property fails, whatever the unexplored mass does.
	Violated
)

// String is "holds", "violated" or "unknown".
func (v Verdict) String() string {
	switch v {
	case Holds:
		return "holds"
	case Violated:
		return "violated"
	}
	return "unknown"
}

// Exploration says what a verdict on a sampler rests on: the runs its
// exploration completed and cut, and the largest unexplored mass of an
// input.
type Exploration struct {
	// Budget is the budget each input was explored with, as given (zero
	// fields took the defaults).
	Budget Budget
	// Runs and Cut count the runs completed and those the budget cut, over
	// all inputs.
	Runs, Cut int64
	// Unexplored is the largest unexplored mass of one input, and Input
	// that input (printed with %v).
	Unexplored *big.Rat
	Input      string
	// DepthCut counts the runs of Cut that asked for more than Depth
	// choices; RunsHit says that Runs stopped the exploration of some input
	// (a deeper pass needed more runs: see Budget); MinProbCut that some
	// input's runs were cut at MinProb.
	DepthCut   int64
	RunsHit    bool
	MinProbCut bool
}

// PairBounds bounds the least δ of one ordered pair of neighbours at an ε:
// it lies between Low and High, whatever the unexplored mass does.
type PairBounds struct {
	From, To  string
	Low, High exact.Real
}

// Result is the verdict of (ε, δ)-DP on a Model.
//
// For inputs x and y, let L_x(o) be the explored mass of output o under x,
// u_x the unexplored mass of x and c = e^ε; the true hockey-stick
// divergence H(x‖y) satisfies
//
//	H(L_x‖L_y) − c·u_y  ≤  H(x‖y)  ≤  H(L_x‖L_y) + u_x
//
// (y's unexplored mass may all fall on the worst event, x's all where y
// has none). The property holds when every ordered pair's upper bound is at
// most δ, is violated when some pair's lower bound exceeds δ, and is
// unknown otherwise. Without unexplored mass both bounds are the exact
// value.
type Result struct {
	Eps     exact.Eps
	Delta   *big.Rat
	Verdict Verdict
	// DeltaBound is d in what is proved: "ε-DP with δ ≤ d". It is the
	// largest H(L_x‖L_y) + u_x over ordered pairs: each input's unexplored
	// mass counted against it, plus the excess the explored runs already
	// show (at the edge of the explored runs one input's mass of an output
	// may be more complete than its neighbour's), so it is in general
	// larger than the unexplored mass; it never rises as Runs grows or
	// MinProb falls (see Budget).
	// Without unexplored mass it is the tight δ at ε.
	DeltaBound exact.Real
	// DeltaLow is a lower bound of the tight δ at ε: the largest
	// H(L_x‖L_y) − c·u_y, at least 0.
	DeltaLow exact.Real
	// Counterexample is set when the property is violated. With
	// unexplored mass (Bounded) its probabilities are bounds:
	// Pr[E* | From] is at least PrFrom (the explored runs alone) and
	// Pr[E* | To] at most PrTo (To's explored runs and all its unexplored
	// mass), so the excess is at least Excess; the least ε that holds lies
	// between LeastEpsLow and Counterexample.LeastEps.
	Counterexample *verify.Counterexample
	Bounded        bool
	LeastEpsLow    exact.Eps
	// Worst is the ordered pair with the largest upper bound, with its
	// bounds (with unexplored mass only).
	Worst *PairBounds
	verify.Checked
	// Exploration is set for a sampler.
	Exploration *Exploration
}

// EpsResult bounds the least ε for which (ε, δ)-DP holds: it lies between
// Low and High (equal without unexplored mass), whatever the unexplored
// mass does; High is +∞ when no finite ε is proved.
type EpsResult struct {
	Delta     *big.Rat
	Low, High exact.Eps
	// Witness is where the tight ε is attained (without unexplored mass).
	Witness *verify.Witness
	verify.Checked
	Exploration *Exploration
}

// Exact reports whether the bounds meet: the tight ε is known.
func (r *EpsResult) Exact() bool {
	c, err := r.Low.Cmp(r.High)
	return err == nil && c == 0
}

// DeltaResult bounds the least δ for which (ε, δ)-DP holds: it lies
// between Low and High (equal without unexplored mass). High is d of
// Result.DeltaBound.
type DeltaResult struct {
	Eps       exact.Eps
	Low, High exact.Real
	// Witness is where the tight δ is attained (without unexplored mass);
	// Worst the ordered pair with the largest upper bound (with it).
	Witness *verify.Witness
	Worst   *PairBounds
	verify.Checked
	Exploration *Exploration
}

// Exact reports whether the bounds meet: the tight δ is known.
func (r *DeltaResult) Exact() bool {
	c, err := r.Low.Cmp(r.High)
	return err == nil && c == 0
}

// CheckDP checks (ε, δ)-differential privacy of m over every event of its
// outputs (a nil delta is δ = 0). A violated property is a Result, not an
// error; errors are for a model that cannot be checked (an invalid
// distribution, a sampler that is not deterministic, no pair of
// neighbours), invalid ε or δ, and ctx's end.
func CheckDP(ctx context.Context, m Model, eps exact.Eps, delta *big.Rat) (*Result, error) {
	delta, md, a, err := preparedAt(ctx, m, delta)
	if err != nil {
		return nil, err
	}
	if !md.bounded() {
		return md.exactDP(ctx, a, eps, delta)
	}
	pbs, hi, lo, err := md.extremes(ctx, a, eps)
	if err != nil {
		return nil, err
	}
	r := &Result{
		Eps: eps, Delta: delta, Bounded: true,
		DeltaBound: pbs[hi].upper, DeltaLow: pbs[lo].low,
		Worst:       md.pairBoundsOf(pbs[hi]),
		Checked:     md.checked(),
		Exploration: md.exploration(),
	}
	dr := exact.RatReal(delta)
	above, err := r.DeltaBound.Cmp(dr)
	if err != nil {
		return nil, err
	}
	refuted, err := pbs[lo].lower.Cmp(dr)
	if err != nil {
		return nil, err
	}
	switch {
	case above <= 0:
		r.Verdict = Holds
	case refuted > 0:
		r.Verdict = Violated
		if r.Counterexample, r.LeastEpsLow, err = md.boundedCounterexample(ctx, a, pbs[lo], eps, delta); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// TightEpsilon bounds the least ε for which (ε, δ)-DP holds (a nil delta
// is δ = 0). Without unexplored mass the bounds are the exact value; with
// it, a sampler's tight ε at δ = 0 is never proved finite (its unexplored
// mass may fall where a neighbour has none).
func TightEpsilon(ctx context.Context, m Model, delta *big.Rat) (*EpsResult, error) {
	delta, md, a, err := preparedAt(ctx, m, delta)
	if err != nil {
		return nil, err
	}
	// The analysed chain of a sampler counts each input's unexplored mass
	// against it: its tight ε is a sound upper bound.
	e, err := a.TightEpsilon(ctx, delta)
	if err != nil {
		return nil, err
	}
	r := &EpsResult{Delta: delta, Low: e.Eps, High: e.Eps, Checked: md.checked(), Exploration: md.exploration()}
	if !md.bounded() {
		r.Witness = md.witness(e.Witness)
		return r, nil
	}
	if r.Low, err = md.leastEpsLow(ctx, a, delta); err != nil {
		return nil, err
	}
	return r, nil
}

// TightDelta bounds the least δ for which (ε, δ)-DP holds: without
// unexplored mass exactly; with it, between the largest lower bound of an
// ordered pair and d, the largest upper bound (Result.DeltaBound).
func TightDelta(ctx context.Context, m Model, eps exact.Eps) (*DeltaResult, error) {
	md, a, err := prepared(ctx, m)
	if err != nil {
		return nil, err
	}
	if !md.bounded() {
		d, err := a.TightDelta(ctx, eps)
		if err != nil {
			return nil, err
		}
		return &DeltaResult{Eps: eps, Low: d.Delta, High: d.Delta, Witness: md.witness(d.Witness), Checked: md.checked(), Exploration: md.exploration()}, nil
	}
	pbs, hi, lo, err := md.extremes(ctx, a, eps)
	if err != nil {
		return nil, err
	}
	return &DeltaResult{
		Eps: eps, Low: pbs[lo].low, High: pbs[hi].upper,
		Worst: md.pairBoundsOf(pbs[hi]), Checked: md.checked(), Exploration: md.exploration(),
	}, nil
}

// prepared prepares m and its analysis.
func prepared(ctx context.Context, m Model) (*mdl, *verify.Analysis, error) {
	if m == nil {
		return nil, nil, fmt.Errorf("dptest: no model")
	}
	md, err := m.prepare(ctx, true)
	if err != nil {
		return nil, nil, err
	}
	a, err := md.analysis(ctx)
	if err != nil {
		return nil, nil, err
	}
	return md, a, nil
}

// preparedAt is prepared for a check or query at δ = d (nil: 0): it
// returns d copied, or an error when it is outside [0, 1].
func preparedAt(ctx context.Context, m Model, d *big.Rat) (*big.Rat, *mdl, *verify.Analysis, error) {
	if d == nil {
		d = new(big.Rat)
	}
	if d.Sign() < 0 || d.Cmp(ratOne) > 0 {
		return nil, nil, nil, fmt.Errorf("%w: δ = %s is outside [0, 1]", verify.ErrParam, d.RatString())
	}
	md, a, err := prepared(ctx, m)
	return new(big.Rat).Set(d), md, a, err
}

// exactDP is CheckDP without unexplored mass: verify's verdict, with the
// model's names.
func (m *mdl) exactDP(ctx context.Context, a *verify.Analysis, eps exact.Eps, delta *big.Rat) (*Result, error) {
	res, err := a.DP(ctx, eps, delta)
	if err != nil {
		return nil, err
	}
	tight, err := a.TightDelta(ctx, eps)
	if err != nil {
		return nil, err
	}
	r := &Result{Eps: eps, Delta: delta, Verdict: Holds, DeltaBound: tight.Delta, DeltaLow: tight.Delta, Checked: m.checked(), Exploration: m.exploration()}
	if !res.Holds {
		r.Verdict = Violated
		cx := *res.Counterexample
		cx.Witness = *m.witness(&cx.Witness)
		if m.display != nil {
			cx.WorstOutput = m.outputName(cx.WorstOutput)
			cx.Path, cx.PathPr = nil, nil // a Go mechanism's run is one step
		}
		r.Counterexample = &cx
		r.LeastEpsLow = cx.LeastEps
	}
	return r, nil
}

// pairBound is what the explored runs say of one ordered pair (x, y) at ε:
// the upper bound H(L_x‖L_y) + u_x (verify's δ of the pair in the
// analysed chain) and the lower bound H(L_x‖L_y) − c·u_y, with the
// explored part of the worst event E* and its masses: A = L_x(E*) and
// B' = L_y(E*) + u_y.
type pairBound struct {
	from, to     int // inputs
	upper, lower exact.Real
	low          exact.Real // max(lower, 0)
	event        []string
	A, B         *big.Rat
}

// pairBounds bounds every ordered pair of neighbours at ε.
func (m *mdl) pairBounds(ctx context.Context, a *verify.Analysis, eps exact.Eps) ([]pairBound, error) {
	var out []pairBound
	for _, p := range m.pairs {
		for _, o := range [][2]int{p, {p[1], p[0]}} {
			x, y := o[0], o[1]
			d, err := a.PairDelta(ctx, m.state[x], m.state[y], eps)
			if err != nil {
				return nil, err
			}
			ux, uy := m.inputs[x].u, m.inputs[y].u
			A := new(big.Rat).Sub(d.Witness.PrFrom, ux) // E* holds "unexplored by x" when u_x > 0
			B := new(big.Rat).Add(d.Witness.PrTo, uy)
			pb := pairBound{
				from: x, to: y, upper: d.Delta,
				lower: exact.Affine(A, new(big.Rat).Neg(B), eps),
				event: m.witness(d.Witness).Event,
				A:     A, B: B,
			}
			pb.low = pb.lower
			if s, err := pb.lower.Sign(); err != nil {
				return nil, err
			} else if s < 0 {
				pb.low = exact.RatReal(new(big.Rat))
			}
			out = append(out, pb)
		}
	}
	return out, nil
}

// extremes bounds every ordered pair of neighbours at ε (pairBounds) and
// returns the pairs with the largest upper and lower bounds (the first on
// ties).
func (m *mdl) extremes(ctx context.Context, a *verify.Analysis, eps exact.Eps) (pbs []pairBound, hi, lo int, err error) {
	if pbs, err = m.pairBounds(ctx, a, eps); err != nil {
		return nil, 0, 0, err
	}
	for k := 1; k < len(pbs); k++ {
		c, err := pbs[k].upper.Cmp(pbs[hi].upper)
		if err != nil {
			return nil, 0, 0, err
		}
		if c > 0 {
			hi = k
		}
		if c, err = pbs[k].lower.Cmp(pbs[lo].lower); err != nil {
			return nil, 0, 0, err
		}
		if c > 0 {
			lo = k
		}
	}
	return pbs, hi, lo, nil
}

func (m *mdl) pairBoundsOf(p pairBound) *PairBounds {
	return &PairBounds{From: m.inputs[p.from].name, To: m.inputs[p.to].name, Low: p.low, High: p.upper}
}

// boundedCounterexample is the counterexample of a violation proved with
// unexplored mass, on the pair p whose lower bound exceeds δ the most: on
// the explored part of its E*, x's explored runs alone already exceed
// e^ε times y's explored runs and all y's unexplored mass, plus δ. It
// returns the bounds of the least ε too.
func (m *mdl) boundedCounterexample(ctx context.Context, a *verify.Analysis, p pairBound, eps exact.Eps, delta *big.Rat) (*verify.Counterexample, exact.Eps, error) {
	x, y := m.inputs[p.from], m.inputs[p.to]
	cx := &verify.Counterexample{
		Witness: verify.Witness{
			From: verify.StateInfo{ID: m.state[p.from], Name: x.name}, To: verify.StateInfo{ID: m.state[p.to], Name: y.name},
			Event: p.event, PrFrom: p.A, PrTo: p.B,
		},
		Bound:  exact.Affine(delta, p.B, eps),
		Excess: exact.Affine(new(big.Rat).Sub(p.A, delta), new(big.Rat).Neg(p.B), eps),
	}
	// The worst output: the largest ratio of x's explored mass to y's
	// explored mass with all y's unexplored mass.
	best := -1
	var bestTo *big.Rat
	for j := range m.outputs {
		px := x.p[j]
		if px == nil {
			continue
		}
		to := new(big.Rat).Set(y.u)
		if py := y.p[j]; py != nil {
			to.Add(to, py)
		}
		if best < 0 || better(px, to, x.p[best], bestTo) {
			best, bestTo = j, to
		}
	}
	if best >= 0 {
		cx.WorstOutput, cx.WorstFrom, cx.WorstTo = m.outputs[best], x.p[best], bestTo
	}
	hi, err := a.TightEpsilon(ctx, delta)
	if err != nil {
		return nil, exact.Eps{}, err
	}
	cx.LeastEps = hi.Eps
	lo, err := m.leastEpsLow(ctx, a, delta)
	return cx, lo, err
}

// better reports whether p1/q1 > p2/q2, with q = 0 an infinite ratio.
func better(p1, q1, p2, q2 *big.Rat) bool {
	switch {
	case q2.Sign() == 0:
		return false
	case q1.Sign() == 0:
		return true
	}
	l := new(big.Rat).Mul(p1, q2)
	return l.Cmp(new(big.Rat).Mul(p2, q1)) > 0
}

// leastEpsLow is a lower bound of the least ε for which (ε, δ)-DP holds,
// whatever the unexplored mass does: the least c = e^ε at which every
// ordered pair's lower bound H(L_x‖L_y)(c) − c·u_y is at most δ. Each
// pair's H(L_x‖L_y)(c) + u_x is verify's exact pair profile on the
// analysed chain: convex, piecewise linear and decreasing in c, so the
// crossing is rational and exact.
func (m *mdl) leastEpsLow(ctx context.Context, a *verify.Analysis, delta *big.Rat) (exact.Eps, error) {
	cmax := big.NewRat(1, 1)
	for _, p := range m.pairs {
		for _, o := range [][2]int{p, {p[1], p[0]}} {
			prof, err := a.PairProfile(ctx, m.state[o[0]], m.state[o[1]])
			if err != nil {
				return exact.Eps{}, err
			}
			c := crossing(prof.Points, m.inputs[o[0]].u, m.inputs[o[1]].u, delta)
			if c == nil {
				return exact.Inf(), nil
			}
			if c.Cmp(cmax) > 0 {
				cmax = c
			}
		}
	}
	return exact.LnOf(cmax), nil
}

// crossing is the least c ≥ 1 with g(c) = D(c) − ux − c·uy − δ ≤ 0, where
// D is the profile through pts (linear between them, constant after the
// last), or nil when there is none.
func crossing(pts []verify.ProfilePoint, ux, uy, delta *big.Rat) *big.Rat {
	g := func(c, d *big.Rat) *big.Rat {
		v := new(big.Rat).Sub(d, ux)
		v.Sub(v, new(big.Rat).Mul(c, uy))
		return v.Sub(v, delta)
	}
	if len(pts) == 0 || g(pts[0].C, pts[0].Delta).Sign() <= 0 {
		return big.NewRat(1, 1)
	}
	for i := 1; i < len(pts); i++ {
		if g(pts[i].C, pts[i].Delta).Sign() > 0 {
			continue
		}
		// On [C0, C1], D(c) = D0 + s·(c − C0) with slope s ≤ 0, so
		// g(c) = 0 at c = (δ + ux − D0 + s·C0) / (s − uy); s − uy < 0, as g
		// falls from above 0 to at most 0 on the segment.
		p0, p1 := pts[i-1], pts[i]
		s := new(big.Rat).Sub(p1.Delta, p0.Delta)
		s.Quo(s, new(big.Rat).Sub(p1.C, p0.C))
		num := new(big.Rat).Add(delta, ux)
		num.Sub(num, p0.Delta)
		num.Add(num, new(big.Rat).Mul(s, p0.C))
		return num.Quo(num, new(big.Rat).Sub(s, uy))
	}
	// After the last point D is constant: g(c) = D − ux − δ − c·uy.
	if uy.Sign() == 0 {
		return nil
	}
	last := pts[len(pts)-1]
	c := new(big.Rat).Sub(last.Delta, ux)
	c.Sub(c, delta)
	return c.Quo(c, uy)
}

// checked says what a result covered: the model's ordered pairs and
// outputs (the unexplored masses are not outputs).
func (m *mdl) checked() verify.Checked {
	if m.a != nil && m.display == nil {
		return verify.Checked{OrderedPairs: 2 * m.a.NumPairs(), Outputs: m.a.NumOutputs()}
	}
	return verify.Checked{OrderedPairs: 2 * len(m.pairs), Outputs: len(m.outputs)}
}

// exploration summarises a sampler's exploration (nil for other models).
func (m *mdl) exploration() *Exploration {
	if !m.sampler {
		return nil
	}
	e := &Exploration{Budget: m.budget, Unexplored: new(big.Rat)}
	for _, in := range m.inputs {
		e.Runs += in.runs
		e.Cut += in.cut
		e.DepthCut += in.depthCut
		e.RunsHit = e.RunsHit || in.runsHit
		if m := m.budget.MinProb; m != nil && in.threshold != nil && in.threshold.Cmp(m) == 0 {
			e.MinProbCut = true
		}
		if in.u.Cmp(e.Unexplored) > 0 || e.Input == "" {
			e.Unexplored, e.Input = in.u, in.name
		}
	}
	return e
}

// DistResult compares two models' output distributions, input by input.
//
// For one input, let L_g, L_w be the explored masses of the two models
// and u_g, u_w their unexplored masses; with H = Σ_o max(0, L_g(o) −
// L_w(o)), the total-variation distance of the true distributions lies
// between max(0, H − u_w) and H + u_g. The distributions are proved
// different when the lower bound is positive for some input — an output
// of which one model's explored runs alone give more than the other can
// have with all its unexplored mass — and equal only without unexplored
// mass; otherwise they are equal within the unexplored mass: no explored
// output contradicts, and the distance is at most TVHigh.
type DistResult struct {
	// Verdict is Holds (equal), Violated (proved different) or Unknown
	// (equal within the unexplored mass).
	Verdict Verdict
	// Inputs is the number of inputs compared.
	Inputs int
	// Input is the input where the distributions differ most: the largest
	// lower bound of the distance when they are different, else the
	// largest upper bound. The distance there is between TVLow and TVHigh.
	Input         string
	TVLow, TVHigh *big.Rat
	// Output is the output of Input whose explored masses differ most, Got
	// and Want those masses.
	Output    string
	Got, Want *big.Rat
	// UnexploredGot and UnexploredWant are the unexplored masses at Input.
	UnexploredGot, UnexploredWant *big.Rat
}

// SameDist compares the output distribution of got with that of want for
// every input of got. Inputs are matched on how they print — a Go input
// by %v, an input state of a chain by its valuation on the variables
// that differ between inputs ("x=1": a module's input variables, not its
// state variables, which every input starts alike), else its name — and
// so are outputs: a Go output by %v; a chain's by what it observes — a
// final state's name for Builder and Chain models observed by their final
// states ("a0" for builder.RandomizedResponseK), the output variable's
// valuation ("out=2") for a .dp model that declares "outputs var out". Give a Go type a
// String method to match a chain's names. Every input of got needs a
// counterpart in want; want may have more. Two distinct values of one
// model that print alike are an error, and so are two models no output
// of which prints as an output of the other.
//
//	r, err := dptest.SameDist(ctx, dptest.Sampler(fdr6, dptest.Budget{}), dptest.Exact(uniform6))
func SameDist(ctx context.Context, got, want Model) (*DistResult, error) {
	var sides [2]*mdl
	for i, m := range []Model{got, want} {
		if m == nil {
			return nil, fmt.Errorf("dptest: no model")
		}
		md, err := m.prepare(ctx, false)
		if err != nil {
			return nil, err
		}
		if err := md.fillDists(ctx); err != nil {
			return nil, err
		}
		if err := md.uniqueKeys(); err != nil {
			return nil, err
		}
		sides[i] = md
	}
	g, w := sides[0], sides[1]
	byKey := map[string]*modelInput{}
	for _, in := range w.inputs {
		byKey[in.key] = in
	}
	// The distance of two distributions is their hockey-stick divergence
	// at ε = 0, so the bounds are those of CheckDP: on a model whose pairs
	// are each input of got and its counterpart in want, the ordered pair
	// (got, want) has H(L_g‖L_w) + u_g = the upper bound of the distance
	// and H(L_g‖L_w) − u_w the lower one.
	both := &mdl{}
	index := map[string]int{}
	add := func(side *mdl, in *modelInput) {
		c := &modelInput{name: in.name, key: in.key, u: in.u, p: make(map[int]*big.Rat, len(in.p))}
		for j, name := range side.outputs { // in order: ties go to the first
			p := in.p[j]
			if p == nil {
				continue
			}
			k, ok := index[name]
			if !ok {
				k = len(both.outputs)
				index[name] = k
				both.outputs = append(both.outputs, name)
			}
			c.p[k] = p
		}
		both.inputs = append(both.inputs, c)
	}
	for _, in := range g.inputs {
		other, ok := byKey[in.key]
		if !ok {
			keys := make([]string, len(w.inputs))
			for i, in := range w.inputs {
				keys[i] = in.key
			}
			return nil, fmt.Errorf("dptest: input %s has no counterpart in the model compared with, whose inputs print as %s", in.key, namesText(keys, 3, "; ", "input"))
		}
		add(g, in)
		add(w, other)
		n := len(both.inputs)
		both.pairs = append(both.pairs, [2]int{n - 2, n - 1})
	}
	if !shareOutput(g.outputs, w.outputs) {
		return nil, fmt.Errorf("dptest: no output of the one model prints as an output of the other, so every distribution would differ wholly: SameDist matches outputs on how they print; the outputs of the first print as %s, those of the second as %s", namesText(g.outputs, 4, ", ", "output"), namesText(w.outputs, 4, ", ", "output"))
	}
	a, err := both.analysis(ctx)
	if err != nil {
		return nil, err
	}
	pbs, err := both.pairBounds(ctx, a, exact.Eps{})
	if err != nil {
		return nil, err
	}
	r := &DistResult{Verdict: Holds, Inputs: len(g.inputs)}
	var worst *inputGap
	for i := range g.inputs {
		pb := pbs[2*i] // (got, want); pbs[2*i+1] is the reverse
		high, _ := pb.upper.Rat()
		low, _ := pb.low.Rat()
		gap := &inputGap{in: both.inputs[2*i], other: both.inputs[2*i+1], low: low, high: high}
		switch {
		case low.Sign() > 0:
			if r.Verdict != Violated || low.Cmp(worst.low) > 0 {
				worst = gap
			}
			r.Verdict = Violated
		case r.Verdict == Violated:
		case high.Sign() > 0:
			r.Verdict = Unknown
			if worst == nil || high.Cmp(worst.high) > 0 {
				worst = gap
			}
		case worst == nil:
			worst = gap
		}
	}
	worst.mostDifferent(both.outputs)
	r.Input, r.TVLow, r.TVHigh = worst.in.name, worst.low, worst.high
	r.Output, r.Got, r.Want = worst.output, worst.got, worst.want
	r.UnexploredGot, r.UnexploredWant = worst.in.u, worst.other.u
	return r, nil
}

// inputGap is the comparison of one input's distributions: the bounds
// of their distance, and the output whose explored masses differ most.
type inputGap struct {
	in, other *modelInput
	low, high *big.Rat
	output    string
	got, want *big.Rat
}

// mostDifferent finds the output whose explored masses differ most (the
// first in output order on ties).
func (gap *inputGap) mostDifferent(outputs []string) {
	var best *big.Rat
	for j, name := range outputs {
		pg, pw := orZero(gap.in.p[j]), orZero(gap.other.p[j])
		if pg.Sign() == 0 && pw.Sign() == 0 {
			continue
		}
		d := new(big.Rat).Sub(pg, pw)
		if d.Abs(d); best == nil || d.Cmp(best) > 0 {
			best, gap.output, gap.got, gap.want = d, name, pg, pw
		}
	}
}

// shareOutput reports whether some output name is in both a and b, or
// either is empty (all of a sampler's mass unexplored).
func shareOutput(a, b []string) bool {
	if len(a) == 0 || len(b) == 0 {
		return true
	}
	in := make(map[string]bool, len(a))
	for _, o := range a {
		in[o] = true
	}
	return slices.ContainsFunc(b, func(o string) bool { return in[o] })
}

// namesText lists the first names, at most limit, with sep between them:
// "0, 1, 2, … (6 outputs)".
func namesText(names []string, limit int, sep, noun string) string {
	var b strings.Builder
	for i, n := range names {
		if i == limit {
			fmt.Fprintf(&b, "%s… (%d %ss)", sep, len(names), noun)
			break
		}
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(n)
	}
	return b.String()
}

func orZero(x *big.Rat) *big.Rat {
	if x == nil {
		return new(big.Rat)
	}
	return x
}

// uniqueKeys checks that the model's inputs, and its outputs, print
// differently: SameDist matches them on how they print.
func (m *mdl) uniqueKeys() error {
	seen := map[string]bool{}
	for _, in := range m.inputs {
		if seen[in.key] {
			return fmt.Errorf("dptest: two inputs print as %s: SameDist matches inputs on how they print; give the type a String method", in.key)
		}
		seen[in.key] = true
	}
	seen = map[string]bool{}
	for _, o := range m.outputs {
		if seen[o] {
			return fmt.Errorf("dptest: two outputs print as %s: SameDist matches outputs on how they print; give the type a String method", o)
		}
		seen[o] = true
	}
	return nil
}
