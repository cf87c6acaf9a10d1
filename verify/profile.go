package verify

import (
	"context"
	"math/big"
	"sort"
)

// line is δ = A - c·B.
type line struct{ A, B *big.Rat }

// pairLines returns the lines whose maximum is H_c(s‖t) for c ≥ 0: after
// the outputs of the first j ratio groups, A and B are their cumulative
// probabilities. The first line (B = 0) is the mass no c can cover.
func (a *Analysis) pairLines(s, t int, sc *scratch) []line {
	gs := a.groups(s, t, sc)
	A, B := new(big.Rat), new(big.Rat)
	j := 0
	if len(gs) > 0 && gs[0].ratio == nil {
		A.Set(gs[0].A)
		j = 1
	}
	lines := []line{{A, B}}
	for ; j < len(gs); j++ {
		A = new(big.Rat).Add(A, gs[j].A)
		B = new(big.Rat).Add(B, gs[j].B)
		lines = append(lines, line{A, B})
	}
	return lines
}

// Profile returns the exact privacy profile ε ↦ δ(ε) for ε ≥ 0: the upper
// envelope, over all ordered pairs, of their hockey-stick divergences as
// functions of c = e^ε.
func (a *Analysis) Profile(ctx context.Context) (*Profile, error) {
	n := a.numOrdered()
	per := make([][]line, n)
	err := parallel(ctx, "ordered pairs (profile)", n, func(sc *scratch, k int) error {
		s, t := a.orderedPair(k)
		per[k] = a.pairLines(s, t, sc)
		return nil
	})
	if err != nil {
		return nil, err
	}
	var all []line
	for _, ls := range per {
		all = append(all, ls...)
	}
	return &Profile{Points: envelope(all), Checked: a.checked()}, nil
}

// PairProfile returns the privacy profile of the single ordered pair
// (from, to), both compared inputs.
func (a *Analysis) PairProfile(from, to int) *Profile {
	if a.dist[from] == nil || a.dist[to] == nil {
		return &Profile{}
	}
	return &Profile{Points: envelope(a.pairLines(from, to, &scratch{})), Checked: Checked{OrderedPairs: 1, Outputs: len(a.outputs)}}
}

// envelope returns the breakpoints on c ≥ 1 of the upper envelope of lines
// δ = A - c·B (which include a line with B = 0).
func envelope(lines []line) []ProfilePoint {
	// Sort by B descending; for equal B keep the largest A.
	sort.Slice(lines, func(i, j int) bool {
		if c := lines[i].B.Cmp(lines[j].B); c != 0 {
			return c > 0
		}
		return lines[i].A.Cmp(lines[j].A) > 0
	})
	var ls []line
	for i, l := range lines {
		if i > 0 && l.B.Cmp(lines[i-1].B) == 0 {
			continue
		}
		ls = append(ls, l)
	}
	// cross(l1, l2) is where l1 (steeper) and l2 meet: c = (A1-A2)/(B1-B2).
	cross := func(l1, l2 line) *big.Rat {
		num := new(big.Rat).Sub(l1.A, l2.A)
		return num.Quo(num, new(big.Rat).Sub(l1.B, l2.B))
	}
	// Upper hull for c increasing: lines by decreasing B.
	var hull []line
	for _, l := range ls {
		for len(hull) >= 2 && cross(hull[len(hull)-2], l).Cmp(cross(hull[len(hull)-2], hull[len(hull)-1])) <= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, l)
	}
	// Drop hull lines that only matter below c = 1.
	for len(hull) >= 2 && cross(hull[0], hull[1]).Cmp(ratOne) <= 0 {
		hull = hull[1:]
	}
	at := func(l line, c *big.Rat) *big.Rat {
		d := new(big.Rat).Mul(c, l.B)
		d.Sub(l.A, d)
		if d.Sign() < 0 { // H ≥ 0 always; guards lines of a single pair
			d.SetInt64(0)
		}
		return d
	}
	pts := []ProfilePoint{{C: big.NewRat(1, 1), Eps: Eps{}, Delta: at(hull[0], ratOne)}}
	for i := 1; i < len(hull); i++ {
		c := cross(hull[i-1], hull[i])
		pts = append(pts, ProfilePoint{C: c, Eps: lnOf(c), Delta: at(hull[i], c)})
	}
	return pts
}
