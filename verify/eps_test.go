package verify_test

import (
	"errors"
	"math"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/verify"
)

// e^(1/10) to 70 digits (from the series; checked against two independent
// computations).
const e01 = "1.1051709180756476248117078264902466682245471947375187187928632894409679"

func TestCmpCWhereFloatIsWrong(t *testing.T) {
	e := verify.Rational(big.NewRat(1, 10))
	f := math.Exp(0.1)
	ref := r(e01)
	// x1 is the float64 closest to e^0.1, read exactly; x2 lies 10^-30 above
	// e^0.1. float64 cannot tell either from e^0.1.
	x1 := new(big.Rat).SetFloat64(f)
	x2 := new(big.Rat).Add(ref, r("1/1000000000000000000000000000000"))
	x2f, _ := x2.Float64()
	if x2f != f {
		t.Fatalf("test premise: float64(x2) = %v, want %v", x2f, f)
	}
	for _, tc := range []struct {
		name string
		x    *big.Rat
		want int
	}{
		{"float64 nearest e^0.1", x1, x1.Cmp(ref)}, // ref is within 10^-70, far closer than x1
		{"10^-30 above e^0.1", x2, 1},
		{"10^-30 below e^0.1", new(big.Rat).Sub(ref, r("1/1000000000000000000000000000000")), -1},
	} {
		got, err := e.CmpC(tc.x)
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("%s: CmpC = %d, want %d", tc.name, got, tc.want)
		}
		xf, _ := tc.x.Float64()
		if floatSays := cmpFloat(xf, f); floatSays == tc.want {
			t.Errorf("%s: float64 comparison gives the right answer %d; the case does not test anything", tc.name, floatSays)
		}
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func TestCmpCAlgebraic(t *testing.T) {
	// ε = 1/2·ln(2): c = √2, compared as x² ? 2.
	e, err := verify.MulLn(big.NewRat(1, 2), big.NewRat(2, 1))
	if err != nil {
		t.Fatal(err)
	}
	sqrt2 := r("1.41421356237309504880168872420969807856967187537694")
	for _, tc := range []struct {
		x    *big.Rat
		want int
	}{
		{new(big.Rat).SetFloat64(math.Sqrt2), 1}, // the float64 √2 is above √2
		{sqrt2, -1},                              // truncated decimal is below
		{r("3/2"), 1},
		{r("7/5"), -1},
	} {
		got, err := e.CmpC(tc.x)
		if err != nil || got != tc.want {
			t.Errorf("CmpC(%s) = %d, %v; want %d", tc.x.RatString(), got, err, tc.want)
		}
	}
}

func TestEpsCmp(t *testing.T) {
	four, _ := verify.MulLn(big.NewRat(4, 1), big.NewRat(2, 1))
	half3, _ := verify.MulLn(big.NewRat(1, 2), big.NewRat(3, 1))
	tests := []struct {
		a, b verify.Eps
		want int
	}{
		{ln("16"), four, 0},
		{ln("2"), verify.Rational(r("7/10")), -1}, // ln 2 ≈ 0.6931
		{ln("2"), verify.Rational(r("69/100")), 1},
		{half3, ln("2"), -1},                       // ln √3 ≈ 0.549
		{half3, verify.Rational(r("549/1000")), 1}, // 0.5493 > 0.549
		{verify.Inf(), ln("1000"), 1},
		{verify.Eps{}, verify.Rational(r("0")), 0},
		{ln("1"), verify.Eps{}, 0},
		{ln("1/2"), verify.Eps{}, -1},
	}
	for _, tc := range tests {
		got, err := tc.a.Cmp(tc.b)
		if err != nil || got != tc.want {
			t.Errorf("Cmp(%s, %s) = %d, %v; want %d", tc.a, tc.b, got, err, tc.want)
		}
	}
}

func TestEpsString(t *testing.T) {
	four, _ := verify.MulLn(big.NewRat(4, 1), big.NewRat(2, 1))
	half3, _ := verify.MulLn(big.NewRat(1, 2), big.NewRat(3, 1))
	big100, _ := verify.MulLn(big.NewRat(100, 1), big.NewRat(2, 1))
	for _, tc := range []struct {
		e        verify.Eps
		str, alt string
	}{
		{verify.Eps{}, "0", ""},
		{ln("3"), "ln(3)", ""},
		{four, "ln(16)", "4·ln(2)"},
		{ln("9/4"), "ln(9/4)", "2·ln(3/2)"},
		{half3, "1/2·ln(3)", ""},
		{big100, "100·ln(2)", "ln(1267650600228229401496703205376)"},
		{verify.Rational(r("1/10")), "1/10", ""},
		{verify.Inf(), "∞", ""},
	} {
		if got := tc.e.String(); got != tc.str {
			t.Errorf("String() = %q, want %q", got, tc.str)
		}
		if got := tc.e.Alternate(); got != tc.alt {
			t.Errorf("%s: Alternate() = %q, want %q", tc.str, got, tc.alt)
		}
	}
}

func TestEpsErrors(t *testing.T) {
	for _, tc := range []struct {
		k, r string
		msg  string
	}{
		{"1", "0", "invalid epsilon: ln(0) needs a positive argument"},
		{"1", "-2", "invalid epsilon: ln(-2) needs a positive argument"},
		{"100000", "2", "invalid epsilon: the coefficient 100000 of ln is above 65536"},
		{"1/100", "2", "invalid epsilon: the coefficient 1/100 of ln must have a numerator of at most 65536 and a denominator of at most 64"},
	} {
		_, err := verify.MulLn(r(tc.k), r(tc.r))
		if err == nil || err.Error() != tc.msg || !errors.Is(err, verify.ErrEps) {
			t.Errorf("MulLn(%s, %s) error = %v, want %q", tc.k, tc.r, err, tc.msg)
		}
	}
}

func TestEpsSignAndBounds(t *testing.T) {
	neg, _ := verify.Ln(r("1/2"))
	if neg.Sign() != -1 || ln("2").Sign() != 1 || (verify.Eps{}).Sign() != 0 {
		t.Errorf("signs: %d %d %d", neg.Sign(), ln("2").Sign(), (verify.Eps{}).Sign())
	}
	// The true value lies in [ref, ref + 10^-60] (references to 61 digits).
	ulp := r("1/1000000000000000000000000000000000000000000000000000000000000")
	for _, tc := range []struct{ q, ref string }{
		{"1", "2.718281828459045235360287471352662497757247093699959574966967"},
		{"-3/2", "0.223130160148429828933280470764012521342171629361079328743835"},
		{"1/10", "1.105170918075647624811707826490246668224547194737518718792863"},
	} {
		lo, hi := verify.Rational(r(tc.q)).Bounds()
		refLo := r(tc.ref)
		refHi := new(big.Rat).Add(refLo, ulp)
		if lo.Cmp(refHi) > 0 || hi.Cmp(refLo) < 0 {
			t.Errorf("e^%s: bounds [%s, %s] exclude the true value", tc.q, lo.FloatString(40), hi.FloatString(40))
		}
		if w := new(big.Rat).Sub(hi, lo); w.Sign() < 0 || w.Cmp(r("1/1000000000000000000")) > 0 {
			t.Errorf("e^%s: bounds width %s", tc.q, w.FloatString(30))
		}
	}
}

// TestMixedEps: ε = k·ln(r) + q, as in ln(2) - 1/1000, compared exactly.
func TestMixedEps(t *testing.T) {
	mixed := func(k, x, q string) verify.Eps {
		e, err := verify.LnPlus(r(k), r(x), r(q))
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	e := mixed("1", "2", "-1/1000") // c = 2·e^(-1/1000) = 1.998001...
	if got, want := e.String(), "ln(2) - 1/1000"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	for _, tc := range []struct {
		x    string
		want int
	}{
		{"2", 1}, {"1998/1000", -1}, {"1999/1000", 1},
		// 2·e^(-1/1000) = 1.998000999666749983336... (Python's decimal, 40 digits)
		{"1.99800099966674998333", -1}, {"1.99800099966674998334", 1},
	} {
		got, err := e.CmpC(r(tc.x))
		if err != nil || got != tc.want {
			t.Errorf("CmpC(%s) = %d, %v; want %d", tc.x, got, err, tc.want)
		}
	}
	for _, tc := range []struct {
		a, b verify.Eps
		want int
	}{
		{e, ln("2"), -1},
		{mixed("1", "2", "1/10"), verify.Rational(r("793/1000")), 1},    // 0.79314...
		{mixed("1", "2", "1/10"), verify.Rational(r("7932/10000")), -1}, // 0.79315 > 0.79314
		{mixed("2", "2", "0"), ln("4"), 0},
		{mixed("1/2", "4", "1/3"), mixed("1", "2", "1/3"), 0},
		{mixed("1/2", "3", "1/7"), mixed("1/3", "5", "1/7"), 1}, // √3 > ∛5
		{mixed("-1", "2", "1"), verify.Eps{}, 1},                // 1 - ln 2 > 0
	} {
		got, err := tc.a.Cmp(tc.b)
		if err != nil || got != tc.want {
			t.Errorf("Cmp(%s, %s) = %d, %v; want %d", tc.a, tc.b, got, err, tc.want)
		}
	}
	if neg := mixed("1", "2", "-1"); neg.Sign() != -1 { // ln 2 - 1 < 0
		t.Errorf("sign of ln(2) - 1 = %d", neg.Sign())
	}
	lo, hi := e.Bounds()
	ref := r("1.998000999666749983336110714335311949405") // within 10^-39
	if lo.Cmp(new(big.Rat).Add(ref, r("1/1000000000000000000000000000000000000000"))) > 0 || hi.Cmp(new(big.Rat).Sub(ref, r("1/1000000000000000000000000000000000000000"))) < 0 {
		t.Errorf("bounds [%s, %s]", lo.FloatString(20), hi.FloatString(20))
	}
}
