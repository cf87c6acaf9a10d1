package exact_test

import (
	"testing"

	"github.com/dpcheck/dpcheck/exact"
)

func TestCmpHolds(t *testing.T) {
	// want[op] is whether op holds for c = -1, 0, 1.
	want := map[string][3]bool{
		"=":  {false, true, false},
		"==": {false, true, false},
		"!=": {true, false, true},
		"<":  {true, false, false},
		"<=": {true, true, false},
		">":  {false, false, true},
		">=": {false, true, true},
		"<>": {false, false, false},
		"":   {false, false, false},
	}
	for op, w := range want {
		for i, c := range []int{-1, 0, 1} {
			if got := exact.CmpHolds(op, c); got != w[i] {
				t.Errorf("CmpHolds(%q, %d) = %v, want %v", op, c, got, w[i])
			}
		}
	}
}
