package param

import (
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/poly"
)

// TestYarrowInstances: instantiated at rationals, the parametric sampler
// is builder.YarrowGeometric's chain exactly (states, rows, neighbours).
func TestYarrowInstances(t *testing.T) {
	for _, c := range []struct{ lo, hi, bits int }{{0, 1, 0}, {0, 5, 0}, {-2, 3, 0}, {0, 5, 4}, {0, 3, 7}, {2, 4, 1}} {
		pc, err := YarrowGeometric(ctx, poly.Limits{}, c.lo, c.hi, c.bits)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range []*big.Rat{r(1, 2), r(1, 3), r(2, 7), r(99, 100), r(1, 1000)} {
			ch, err := pc.Instantiate(a)
			if err != nil {
				t.Fatal(err)
			}
			m, err := builder.YarrowGeometric(a, c.lo, c.hi, c.bits)
			if err != nil {
				t.Fatal(err)
			}
			sameChain(t, ch, m.Chain)
			samePairs(t, pc.Neighbours, m.Neighbours)
		}
	}
}

// TestYarrowDistribution: with one bit over {0..2}, from s0 the output t0
// has 1/(1+α) (zero noise, or the minus sign clipped), t1 α/(1+α) (the
// plus sign, whose only bit ends the draw) and t2 nothing — by hand.
func TestYarrowDistribution(t *testing.T) {
	pc, err := YarrowGeometric(ctx, poly.Limits{}, 0, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	a := mustAnalyze(t, pc)
	d, ok := a.Distribution(3) // s0: after t0, t1, t2
	if !ok || pc.Frame.Name(3) != "s0" {
		t.Fatalf("no distribution of s0 (state 3 is %s)", pc.Frame.Name(3))
	}
	want := map[string]poly.RatFunc{"t0": rf(t, []int64{1}, []int64{1, 1}), "t1": rf(t, []int64{0, 1}, []int64{1, 1})}
	if len(d.Out) != len(want) {
		t.Fatalf("%d outputs, want %d", len(d.Out), len(want))
	}
	for i, o := range d.Out {
		if w, ok := want[a.OutputName(o)]; !ok || !d.P[i].Equal(w) {
			t.Errorf("Pr[%s | s0] = %s, want %s", a.OutputName(o), d.P[i], w)
		}
	}
}

func TestYarrowRefuses(t *testing.T) {
	for _, c := range []struct{ lo, hi, bits int }{{0, 0, 0}, {3, 2, 0}, {0, 501, 0}, {0, 5, -1}, {0, 5, 501}, {-600, -590, 0}} {
		if _, err := YarrowGeometric(ctx, poly.Limits{}, c.lo, c.hi, c.bits); err == nil {
			t.Errorf("counts %d..%d, %d bits: no error", c.lo, c.hi, c.bits)
		}
	}
}
