package verify

import (
	"context"
	"fmt"
	"github.com/dpcheck/dpcheck/exact"
	"math/big"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/dpcheck/dpcheck/chain"
)

// refPairLines and refEnvelope are the straightforward profile algorithm:
// every cumulative line of every ordered pair, sorted, then one exact hull
// with big.Rat arithmetic throughout. Profile must give exactly the same
// points.
func refPairLines(a *Analysis, s, t int, sc *scratch) []line {
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

func refEnvelope(lines []line) []ProfilePoint {
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
	cross := func(l1, l2 line) *big.Rat {
		num := new(big.Rat).Sub(l1.A, l2.A)
		return num.Quo(num, new(big.Rat).Sub(l1.B, l2.B))
	}
	var hull []line
	for _, l := range ls {
		for len(hull) >= 2 && cross(hull[len(hull)-2], l).Cmp(cross(hull[len(hull)-2], hull[len(hull)-1])) <= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, l)
	}
	for len(hull) >= 2 && cross(hull[0], hull[1]).Cmp(ratOne) <= 0 {
		hull = hull[1:]
	}
	at := func(l line, c *big.Rat) *big.Rat {
		d := new(big.Rat).Mul(c, l.B)
		d.Sub(l.A, d)
		if d.Sign() < 0 {
			d.SetInt64(0)
		}
		return d
	}
	pts := []ProfilePoint{{C: big.NewRat(1, 1), Eps: exact.Eps{}, Delta: at(hull[0], ratOne)}}
	for i := 1; i < len(hull); i++ {
		c := cross(hull[i-1], hull[i])
		pts = append(pts, ProfilePoint{C: c, Eps: exact.LnOf(c), Delta: at(hull[i], c)})
	}
	return pts
}

func refProfile(a *Analysis) []ProfilePoint {
	var all []line
	var sc scratch
	for k := range a.numOrdered() {
		s, t := a.orderedPair(k)
		all = append(all, refPairLines(a, s, t, &sc)...)
	}
	return refEnvelope(all)
}

func profileDiff(got, want []ProfilePoint) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d points, want %d: %s, want %s", len(got), len(want), showPoints(got), showPoints(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.C.Cmp(w.C) != 0 || g.Delta.Cmp(w.Delta) != 0 || !g.Eps.Equal(w.Eps) {
			return fmt.Sprintf("point %d: %s, want %s", i, showPoints(got[i:i+1]), showPoints(want[i:i+1]))
		}
	}
	return ""
}

func showPoints(ps []ProfilePoint) string {
	s := ""
	for _, p := range ps {
		s += fmt.Sprintf("(c=%s δ=%s ε=%s) ", abbrev(p.C), abbrev(p.Delta), p.Eps)
	}
	return s
}

func abbrev(x *big.Rat) string {
	if s := x.RatString(); len(s) < 60 {
		return s
	}
	return x.FloatString(20) + "…"
}

// randomProfileModel is a one-step chain with nIn inputs over nOut
// outputs and random neighbouring pairs. Weights are drawn by w; each
// input's distribution is its weights normalised.
func randomProfileModel(t *testing.T, rng *rand.Rand, nIn, nOut int, w func() *big.Rat) *Analysis {
	t.Helper()
	b := chain.NewBuilder()
	outs := make([]int, nOut)
	for o := range outs {
		outs[o] = b.AddState(fmt.Sprintf("o%d", o), nil)
	}
	ins := make([]int, nIn)
	for i := range ins {
		ins[i] = b.AddState(fmt.Sprintf("i%d", i), nil)
		b.MarkInput(ins[i])
		ws := make([]*big.Rat, nOut)
		sum := new(big.Rat)
		for sum.Sign() == 0 {
			for o := range ws {
				ws[o] = w()
				sum.Add(sum, ws[o])
			}
		}
		for o := range ws {
			b.AddTransition(ins[i], outs[o], new(big.Rat).Quo(ws[o], sum))
		}
	}
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	var pairs [][2]int
	for i := range ins {
		for j := i + 1; j < len(ins); j++ {
			if rng.IntN(3) > 0 {
				pairs = append(pairs, [2]int{ins[i], ins[j]})
			}
		}
	}
	if len(pairs) == 0 {
		pairs = [][2]int{{ins[0], ins[1]}}
	}
	a, err := Analyze(context.Background(), &Model{Chain: c, Neighbours: pairs})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// checkAgainstRef compares Profile and every PairProfile with the
// reference algorithm.
func checkAgainstRef(t *testing.T, name string, a *Analysis, pairs bool) {
	t.Helper()
	p, err := a.Profile(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if d := profileDiff(p.Points, refProfile(a)); d != "" {
		t.Fatalf("%s: Profile: %s", name, d)
	}
	if !pairs {
		return
	}
	for k := range a.numOrdered() {
		s, u := a.orderedPair(k)
		pp, err := a.PairProfile(context.Background(), s, u)
		if err != nil {
			t.Fatal(err)
		}
		got := pp.Points
		if d := profileDiff(got, refEnvelope(refPairLines(a, s, u, &scratch{}))); d != "" {
			t.Fatalf("%s: PairProfile(%d, %d): %s", name, s, u, d)
		}
	}
}

// TestProfileMatchesReference: Profile and PairProfile against the
// straightforward algorithm on random chains: small integer weights (ties
// and zeros everywhere), powers of 999/1000 (big rationals whose ratios
// nearly tie, and tie exactly), weights 2^70 + small (ratios the filter
// cannot separate), and weights around 2^-1200 (below float64, where the
// filter sees zeros and everything is decided exactly).
func TestProfileMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	alpha := big.NewRat(999, 1000)
	pow := func(k int) *big.Rat {
		x := big.NewRat(1, 1)
		for range k {
			x.Mul(x, alpha)
		}
		return x
	}
	tiny := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), 1200))
	kinds := []struct {
		name string
		w    func() *big.Rat
	}{
		{"small", func() *big.Rat {
			if rng.IntN(4) == 0 {
				return new(big.Rat)
			}
			return big.NewRat(rng.Int64N(5), 1)
		}},
		{"powers", func() *big.Rat {
			if rng.IntN(6) == 0 {
				return new(big.Rat)
			}
			return pow(rng.IntN(4) * 100)
		}},
		{"near", func() *big.Rat {
			if rng.IntN(5) == 0 {
				return new(big.Rat)
			}
			x := new(big.Int).Lsh(big.NewInt(1), 70)
			return new(big.Rat).SetInt(x.Add(x, big.NewInt(rng.Int64N(4))))
		}},
		{"tiny", func() *big.Rat {
			switch rng.IntN(4) {
			case 0:
				return new(big.Rat)
			case 1:
				return big.NewRat(rng.Int64N(3)+1, 1)
			}
			return new(big.Rat).Mul(tiny, big.NewRat(rng.Int64N(4)+1, 1))
		}},
	}
	for _, kind := range kinds {
		for trial := range 40 {
			a := randomProfileModel(t, rng, 2+rng.IntN(5), 2+rng.IntN(5), kind.w)
			checkAgainstRef(t, fmt.Sprintf("%s trial %d", kind.name, trial), a, true)
		}
	}
}

// TestFracAcc: the unreduced sums agree with big.Rat sums, for
// denominators that divide one another, that do not, and that repeat.
func TestFracAcc(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	dens := []int64{1, 2, 3, 4, 6, 7, 12, 1000, 999, 1 << 40, 101, 103, 107, 109, 113, 127, 131, 137, 139}
	var acc fracAcc
	for trial := range 300 {
		acc.reset()
		want := new(big.Rat)
		for range rng.IntN(16) {
			x := big.NewRat(rng.Int64N(50), dens[rng.IntN(len(dens))])
			if rng.IntN(3) == 0 {
				x.Mul(x, x)
				x.Mul(x, x)
			}
			acc.add(fracOf(x))
			want.Add(want, x)
			if got := acc.value().rat(); got.Cmp(want) != 0 {
				t.Fatalf("trial %d: sum %s, want %s", trial, got.RatString(), want.RatString())
			}
		}
	}
}

// TestProfileEnvelopeRandomLines: the envelope of random lines in [0, 1]²
// against the reference hull, with many lines through a few common points
// (exact ties the filter cannot decide), scales far below float64's range,
// and big rationals.
func TestProfileEnvelopeRandomLines(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	scales := []*big.Rat{
		big.NewRat(1, 1),
		new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), 1200)),
		new(big.Rat).SetFrac(new(big.Int).Exp(big.NewInt(999), big.NewInt(300), nil), new(big.Int).Exp(big.NewInt(1000), big.NewInt(300), nil)),
	}
	var sc big.Int
	for trial := range 300 {
		scale := scales[rng.IntN(len(scales))]
		type vertex struct{ c, d *big.Rat }
		var vs []vertex
		for range 1 + rng.IntN(3) {
			vs = append(vs, vertex{big.NewRat(int64(8+rng.IntN(8)), 8), new(big.Rat).Mul(scale, big.NewRat(int64(rng.IntN(3)), 16))})
		}
		var ref []line
		var got []pline
		add := func(A, B *big.Rat) {
			if A.Sign() < 0 || A.Cmp(ratOne) > 0 || B.Cmp(ratOne) > 0 {
				return
			}
			ref = append(ref, line{A, B})
			got = append(got, newPline(fracOf(A), fracOf(B), &sc))
		}
		add(new(big.Rat).Mul(scale, big.NewRat(int64(rng.IntN(3)), 32)), new(big.Rat))
		for range 1 + rng.IntN(30) {
			B := new(big.Rat).Mul(scale, big.NewRat(int64(rng.IntN(17)), 16))
			if v := vs[rng.IntN(len(vs))]; rng.IntN(2) == 0 {
				A := new(big.Rat).Mul(v.c, B)
				add(A.Add(A, v.d), B)
			} else {
				add(new(big.Rat).Mul(scale, big.NewRat(int64(rng.IntN(33)), 32)), B)
			}
		}
		pts, err := profileEnvelope(context.Background(), got)
		if err != nil {
			t.Fatal(err)
		}
		if d := profileDiff(pts, refEnvelope(ref)); d != "" {
			t.Fatalf("trial %d: %s", trial, d)
		}
	}
}
