package statespace

import (
	"math/big"
	"testing"
)

func q(a, b int64) *big.Rat { return big.NewRat(a, b) }

// TestStableFrom: the first step from which a sum of geometric terms keeps
// the sign of its dominant term, against the sums themselves.
func TestStableFrom(t *testing.T) {
	for _, tc := range []struct {
		name string
		d    []tailTerm
		want int64
	}{
		// (1/2)^m − 8·(1/4)^m: −7, −3/2, −1/4, 0, then positive; 1 > 8·(1/2)^m from m = 4.
		{"crossing", []tailTerm{{q(1, 1), q(1, 2)}, {q(-8, 1), q(1, 4)}}, 4},
		{"one term", []tailTerm{{q(-3, 1), q(1, 3)}}, 0},
		{"dominant at once", []tailTerm{{q(5, 1), q(1, 2)}, {q(-1, 1), q(1, 4)}, {q(3, 1), q(1, 8)}}, 0},
		// 1·(9/10)^m − 100·(1/2)^m: 100·(5/9)^m < 1 from m = 8.
		{"slow", []tailTerm{{q(1, 1), q(9, 10)}, {q(-100, 1), q(1, 2)}}, 8},
	} {
		got, ok := stableFrom(tc.d, 1000, 1<<20)
		if !ok || got != tc.want {
			t.Errorf("%s: %d, %v; want %d", tc.name, got, ok, tc.want)
		}
		// From there on the sum has the dominant term's sign.
		for m := got; m < got+20; m++ {
			sum := new(big.Rat)
			for _, x := range tc.d {
				p := new(big.Rat).SetInt64(1)
				for range m {
					p.Mul(p, x.gamma)
				}
				sum.Add(sum, p.Mul(p, x.value))
			}
			if sum.Sign() != tc.d[0].value.Sign() {
				t.Errorf("%s: at m = %d the sum %s has not the sign of %s", tc.name, m, sum.RatString(), tc.d[0].value.RatString())
			}
		}
	}
	// Beyond the limit, or a power too large: not found.
	slow := []tailTerm{{q(1, 1000000), q(999, 1000)}, {q(-1, 1), q(1, 2)}}
	if m, ok := stableFrom(slow, 10, 1<<20); ok {
		t.Errorf("limit 10: %d, found", m)
	}
	if m, ok := stableFrom(slow, 1000000, 64); ok {
		t.Errorf("64 bits a power: %d, found", m)
	}
}

// TestDifference: P_i − c·P_j (c·P_j given) by factor, largest first,
// zeros dropped.
func TestDifference(t *testing.T) {
	f := &tailForms{gammas: []*big.Rat{q(1, 2), q(1, 3), q(1, 4)}, values: map[int][]*big.Rat{
		0: {q(1, 2), nil, q(1, 4)},
		1: {q(1, 4), q(1, 3), nil},
	}}
	d := f.difference(nil, f.values[0], []*big.Rat{q(1, 2), q(2, 3), nil}) // c = 2
	want := []tailTerm{{q(-2, 3), q(1, 3)}, {q(1, 4), q(1, 4)}}            // 1/2 − 2·1/4 = 0 dropped
	if len(d) != len(want) {
		t.Fatalf("%d terms, want %d", len(d), len(want))
	}
	for i := range d {
		if d[i].value.Cmp(want[i].value) != 0 || d[i].gamma.Cmp(want[i].gamma) != 0 {
			t.Errorf("term %d: %s·(%s)^m, want %s·(%s)^m", i, d[i].value.RatString(), d[i].gamma.RatString(), want[i].value.RatString(), want[i].gamma.RatString())
		}
	}
	// The values the forms hold are not changed.
	if f.values[0][0].Cmp(q(1, 2)) != 0 || f.values[1][0].Cmp(q(1, 4)) != 0 {
		t.Errorf("the forms changed: %v", f.values)
	}
}
