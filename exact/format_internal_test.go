package exact

import "testing"

func TestRoundedAndWhole(t *testing.T) {
	for _, c := range []struct {
		f            float64
		round, whole string
	}{
		{0, "0", "0"},
		{44, "44", "44"},
		{72_033_222, "72,000,000", "72,033,222"},
		{7.3e11, "730,000,000,000", "730,000,000,000"},
		{1e11, "100,000,000,000", "100,000,000,000"},
		{1.3e18, "1.3e+18", "1.3e+18"},
	} {
		if got := Rounded(c.f); got != c.round {
			t.Errorf("Rounded(%v) = %s, want %s", c.f, got, c.round)
		}
		if got := Whole(c.f); got != c.whole {
			t.Errorf("Whole(%v) = %s, want %s", c.f, got, c.whole)
		}
	}
}
