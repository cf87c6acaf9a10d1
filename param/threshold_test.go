package param

import (
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/poly"
)

// TestAboveThresholdQInstances checks that the parametric above threshold
// is builder.AboveThreshold at every rational α_q tried: the same states,
// valuations, labels, inputs, rows and neighbours.
func TestAboveThresholdQInstances(t *testing.T) {
	for _, cmp := range []builder.Comparison{builder.AtLeast, builder.Above} {
		for _, nk := range [][2]int{{1, 1}, {2, 2}, {3, 2}, {2, 3}} {
			n, k := nk[0], nk[1]
			at := r(1, 4)
			pc, err := AboveThresholdQ(ctx, poly.Limits{}, at, n, k, cmp)
			if err != nil {
				t.Fatal(err)
			}
			if pc.Param != "alpha_q" {
				t.Fatalf("parameter %q", pc.Param)
			}
			want := (n+1)*(n+1)*(1+(n+1)*k) + k + 1
			if pc.Frame.NumStates() != want {
				t.Fatalf("n = %d, k = %d: %d states, want %d", n, k, pc.Frame.NumStates(), want)
			}
			for _, a := range []*big.Rat{r(1, 2), r(1, 3), r(2, 7), r(9, 10)} {
				ch, err := pc.Instantiate(a)
				if err != nil {
					t.Fatal(err)
				}
				m, err := builder.AboveThreshold(at, a, n, k, cmp)
				if err != nil {
					t.Fatal(err)
				}
				sameChain(t, ch, m.Chain)
				samePairs(t, pc.Neighbours, m.Neighbours)
			}
		}
	}
}

// TestAboveThresholdQRows checks two rows by hand: n = 1, k = 1, cmp ">=".
// From d1_t0_T1_q1 the noisy answer of d = 1 is 1 with 1/(1+α): halt_1
// with 1/(1+α), never with α/(1+α). From d0_t0_T0_q1 every answer is
// ≥ 0: halt_1 with 1 and no transition to never.
func TestAboveThresholdQRows(t *testing.T) {
	pc, err := AboveThresholdQ(ctx, poly.Limits{}, r(1, 4), 1, 1, builder.AtLeast)
	if err != nil {
		t.Fatal(err)
	}
	row := func(name string) []Trans {
		s, ok := pc.Frame.Lookup(name)
		if !ok {
			t.Fatalf("no state %s", name)
		}
		return pc.Rows[s]
	}
	halt, _ := pc.Frame.Lookup("halt_1")
	never, _ := pc.Frame.Lookup("never")
	r1 := row("d1_t0_T1_q1")
	if len(r1) != 2 || r1[0].To != halt || !r1[0].P.Equal(rf(t, []int64{1}, []int64{1, 1})) ||
		r1[1].To != never || !r1[1].P.Equal(rf(t, []int64{0, 1}, []int64{1, 1})) {
		t.Fatalf("d1_t0_T1_q1: %v", r1)
	}
	r0 := row("d0_t0_T0_q1")
	if len(r0) != 1 || r0[0].To != halt || !r0[0].P.Equal(konst(t, 1)) {
		t.Fatalf("d0_t0_T0_q1: %v", r0)
	}
	// Threshold noise from d0_t0: T = 0 with 1/(1+1/4) = 4/5, T = 1 with 1/5.
	in := row("d0_t0")
	if len(in) != 2 || !in[0].P.Equal(rf(t, []int64{4}, []int64{5})) || !in[1].P.Equal(rf(t, []int64{1}, []int64{5})) {
		t.Fatalf("d0_t0: %v", in)
	}
}

func TestAboveThresholdQRefuses(t *testing.T) {
	for _, c := range []struct {
		at   *big.Rat
		n, k int
	}{{r(0, 1), 2, 1}, {r(1, 1), 2, 1}, {nil, 2, 1}, {r(1, 4), 0, 1}, {r(1, 4), 2, 0}, {r(1, 4), 100, 100}} {
		if _, err := AboveThresholdQ(ctx, poly.Limits{}, c.at, c.n, c.k, builder.AtLeast); err == nil {
			t.Errorf("alpha_t %v, n %d, k %d: no error", c.at, c.n, c.k)
		}
	}
}
