package reference

import (
	"fmt"
	"math/big"
	"sort"
)

// Pair is an unordered pair of neighbouring inputs (by key); both ordered
// pairs (A, B) and (B, A) are examined.
type Pair struct{ A, B string }

// Model is a mechanism over a finite set of inputs: the exact output
// distribution of every input, and the neighbour relation.
type Model struct {
	Inputs []string        // input keys, in a fixed order
	Dist   map[string]Dist // output distribution of each input
	Pairs  []Pair          // unordered neighbouring pairs
}

// EpsResult is the tight ε at δ = 0: ε = ln(Ratio), or ∞ when Infinite.
type EpsResult struct {
	// Ratio is max Pr_From(o)/Pr_To(o) over ordered pairs and outputs with
	// Pr_To(o) > 0, at least 1 (ε = 0); nil when Infinite.
	Ratio *big.Rat
	// Infinite: some output has Pr_From(o) > 0 = Pr_To(o).
	Infinite bool
	// The witness: the first ordered pair (in pair order, A→B before B→A)
	// and output (in sorted order) attaining the maximum; empty when no
	// output has a ratio above 1.
	From, To, Output string
	PFrom, PTo       *big.Rat
	// Ties is the number of (ordered pair, output) attaining the maximum
	// (for Infinite: with Pr_From(o) > 0 = Pr_To(o)); 0 when Ratio is 1.
	Ties int
}

func (r EpsResult) String() string {
	if r.Infinite {
		return fmt.Sprintf("ratio ∞ (ε = ∞): %s vs %s on %q: %s vs 0 (%d such)", r.From, r.To, r.Output, r.PFrom.RatString(), r.Ties)
	}
	if r.From == "" {
		return "ratio 1 (ε = 0)"
	}
	return fmt.Sprintf("ratio %s (ε = ln(%s)): %s vs %s on %q: %s vs %s (%d ties)",
		r.Ratio.RatString(), r.Ratio.RatString(), r.From, r.To, r.Output, r.PFrom.RatString(), r.PTo.RatString(), r.Ties)
}

// DeltaResult is the tight δ at a given c = e^ε: the largest hockey-stick
// divergence H_c(From‖To) = Σ_o max(0, Pr_From(o) − c·Pr_To(o)) over ordered
// pairs, attained on Event = {o : Pr_From(o) > c·Pr_To(o)}.
type DeltaResult struct {
	Delta      *big.Rat
	From, To   string   // the first ordered pair attaining it (empty when Delta = 0)
	Event      []string // sorted
	PFrom, PTo *big.Rat // Pr_From(Event), Pr_To(Event)
	Ties       int      // the number of ordered pairs attaining Delta (0 when it is 0)
}

func (r DeltaResult) String() string {
	if r.From == "" {
		return "δ = 0"
	}
	return fmt.Sprintf("δ = %s: %s vs %s on %v: %s vs %s (%d ties)", r.Delta.RatString(), r.From, r.To, r.Event, r.PFrom.RatString(), r.PTo.RatString(), r.Ties)
}

func sortedKeys(d Dist) []string {
	ks := make([]string, 0, len(d))
	for k := range d {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func (m Model) ordered() [][2]string {
	var out [][2]string
	for _, p := range m.Pairs {
		if p.A == p.B {
			continue
		}
		out = append(out, [2]string{p.A, p.B}, [2]string{p.B, p.A})
	}
	return out
}

func (m Model) dist(k string) Dist {
	d, ok := m.Dist[k]
	if !ok {
		panic(fmt.Sprintf("reference: no distribution for input %q", k))
	}
	return d
}

// TightEps is the tight ε at δ = 0 over the model's neighbour pairs.
func (m Model) TightEps() EpsResult {
	return TightEps(m.Dist, m.Pairs)
}

// TightEps is the exact tight ε at δ = 0: the largest ratio
// Pr_s(o)/Pr_t(o) over the ordered pairs of pairs and the outputs, with its
// witness; Infinite when some Pr_s(o) > 0 = Pr_t(o).
func TightEps(dists map[string]Dist, pairs []Pair) EpsResult {
	m := Model{Dist: dists, Pairs: pairs}
	res := EpsResult{Ratio: rat(1, 1)}
	var inf EpsResult
	for _, st := range m.ordered() {
		ds, dt := m.dist(st[0]), m.dist(st[1])
		for _, o := range sortedKeys(ds) {
			ps := ds[o]
			if ps.Sign() == 0 {
				continue
			}
			pt := dt.At(o)
			if pt.Sign() == 0 {
				if !inf.Infinite {
					inf = EpsResult{Infinite: true, From: st[0], To: st[1], Output: o, PFrom: ps, PTo: pt}
				}
				inf.Ties++
				continue
			}
			r := new(big.Rat).Quo(ps, pt)
			switch c := r.Cmp(res.Ratio); {
			case c > 0:
				res = EpsResult{Ratio: r, From: st[0], To: st[1], Output: o, PFrom: ps, PTo: pt, Ties: 1}
			case c == 0 && res.Ties > 0:
				res.Ties++
			}
		}
	}
	if inf.Infinite {
		return inf
	}
	return res
}

// TightDelta is the tight δ at c = e^ε (c ≥ 1 rational) over the model's
// neighbour pairs.
func (m Model) TightDelta(c *big.Rat) DeltaResult {
	return TightDelta(m.Dist, m.Pairs, c)
}

// TV is the tight δ at ε = 0: the largest total variation distance between
// neighbours.
func (m Model) TV() DeltaResult { return TightDelta(m.Dist, m.Pairs, rat(1, 1)) }

// TightDelta is the exact tight δ at c = e^ε: the largest H_c over the
// ordered pairs of pairs, with the first pair attaining it.
func TightDelta(dists map[string]Dist, pairs []Pair, c *big.Rat) DeltaResult {
	m := Model{Dist: dists, Pairs: pairs}
	res := DeltaResult{Delta: new(big.Rat)}
	for _, st := range m.ordered() {
		ds, dt := m.dist(st[0]), m.dist(st[1])
		h, a, b := new(big.Rat), new(big.Rat), new(big.Rat)
		var ev []string
		for _, o := range sortedKeys(ds) {
			ps, pt := ds[o], dt.At(o)
			x := new(big.Rat).Mul(c, pt)
			if ps.Cmp(x) > 0 {
				h.Add(h, x.Sub(ps, x))
				a.Add(a, ps)
				b.Add(b, pt)
				ev = append(ev, o)
			}
		}
		switch c := h.Cmp(res.Delta); {
		case c > 0:
			res = DeltaResult{Delta: h, From: st[0], To: st[1], Event: ev, PFrom: a, PTo: b, Ties: 1}
		case c == 0 && res.Ties > 0:
			res.Ties++
		}
	}
	return res
}
