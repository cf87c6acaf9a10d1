package exact_test

import (
	"errors"
	"github.com/dpcheck/dpcheck/exact"
	"math"
	"math/big"
	"strings"
	"testing"
)

// e^(1/10) to 70 digits (from the series; checked against two independent
// computations).
const e01 = "1.1051709180756476248117078264902466682245471947375187187928632894409679"

func TestCmpCWhereFloatIsWrong(t *testing.T) {
	e := rational(big.NewRat(1, 10))
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
	e, err := exact.MulLn(big.NewRat(1, 2), big.NewRat(2, 1))
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
	four, _ := exact.MulLn(big.NewRat(4, 1), big.NewRat(2, 1))
	half3, _ := exact.MulLn(big.NewRat(1, 2), big.NewRat(3, 1))
	tests := []struct {
		a, b exact.Eps
		want int
	}{
		{ln("16"), four, 0},
		{ln("2"), rational(r("7/10")), -1}, // ln 2 ≈ 0.6931
		{ln("2"), rational(r("69/100")), 1},
		{half3, ln("2"), -1},                // ln √3 ≈ 0.549
		{half3, rational(r("549/1000")), 1}, // 0.5493 > 0.549
		{exact.Inf(), ln("1000"), 1},
		{exact.Eps{}, rational(r("0")), 0},
		{ln("1"), exact.Eps{}, 0},
		{ln("1/2"), exact.Eps{}, -1},
	}
	for _, tc := range tests {
		got, err := tc.a.Cmp(tc.b)
		if err != nil || got != tc.want {
			t.Errorf("Cmp(%s, %s) = %d, %v; want %d", tc.a, tc.b, got, err, tc.want)
		}
	}
}

func TestEpsString(t *testing.T) {
	four, _ := exact.MulLn(big.NewRat(4, 1), big.NewRat(2, 1))
	half3, _ := exact.MulLn(big.NewRat(1, 2), big.NewRat(3, 1))
	big100, _ := exact.MulLn(big.NewRat(100, 1), big.NewRat(2, 1))
	for _, tc := range []struct {
		e        exact.Eps
		str, alt string
	}{
		{exact.Eps{}, "0", ""},
		{ln("3"), "ln(3)", ""},
		{four, "4·ln(2)", "ln(16)"},
		{ln("16"), "4·ln(2)", "ln(16)"},
		{ln("9/4"), "2·ln(3/2)", "ln(9/4)"},
		{half3, "1/2·ln(3)", ""},
		{big100, "100·ln(2)", "ln(1267650600228229401496703205376)"},
		{mulLn("1/2", "4"), "ln(2)", ""},
		{mulLn("1/3", "1/8"), "ln(1/2)", ""},
		{mulLn("1/2", "1/2"), "-1/2·ln(2)", ""},
		{mulLn("1/4", "9"), "1/2·ln(3)", ""},
		{rational(r("1/10")), "1/10", ""},
		{exact.Inf(), "∞", ""},
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
		_, err := exact.MulLn(r(tc.k), r(tc.r))
		if err == nil || err.Error() != tc.msg || !errors.Is(err, exact.ErrEps) {
			t.Errorf("exact.MulLn(%s, %s) error = %v, want %q", tc.k, tc.r, err, tc.msg)
		}
	}
}

// TestEpsLimits: values of ε too large to handle exactly are refused with an
// error, never a panic or a guess (e^(2·10^9) overflowed big.Float once).
func TestEpsLimits(t *testing.T) {
	for _, q := range []string{"2000000000", "-65537", "131073/2"} {
		_, err := exact.Rational(r(q))
		want := "invalid epsilon: the rational part " + r(q).RatString() + " is above 65536 in absolute value"
		if err == nil || err.Error() != want || !errors.Is(err, exact.ErrEps) {
			t.Errorf("exact.Rational(%s) error = %v, want %q", q, err, want)
		}
	}
	if _, err := exact.Rational(r("-65536")); err != nil {
		t.Errorf("exact.Rational(-65536): %v", err)
	}
	// The largest values still compare, by magnitude when e^z is huge:
	// c1 = 2^(1/64)·e^65536 against c2 = 3^(1/63)·e^-65536 needs
	// e^(65536·(63+64)) on a common root of degree 4032.
	big1, err := exact.LnPlus(r("1/64"), r("2"), r("65536"))
	if err != nil {
		t.Fatal(err)
	}
	small, err := exact.LnPlus(r("1/63"), r("3"), r("-65536"))
	if err != nil {
		t.Fatal(err)
	}
	if c, err := big1.Cmp(small); err != nil || c != 1 {
		t.Errorf("Cmp = %d, %v; want 1", c, err)
	}
	if c, err := small.Cmp(big1); err != nil || c != -1 {
		t.Errorf("Cmp = %d, %v; want -1", c, err)
	}
	// Between the magnitude test and the refinement: e^60 = 2^86.56...,
	// e^-60 = 2^-86.56...
	pow2 := func(n int) *big.Rat {
		if n < 0 {
			return new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), uint(-n)))
		}
		return new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(n)))
	}
	for _, tc := range []struct {
		q    string
		x    int
		want int
	}{
		{"60", 86, -1}, {"60", 87, 1}, {"60", 200, 1}, {"60", 10, -1},
		{"-60", -87, -1}, {"-60", -86, 1}, {"-60", -200, -1}, {"-60", 0, 1},
	} {
		if c, err := rational(r(tc.q)).CmpC(pow2(tc.x)); err != nil || c != tc.want {
			t.Errorf("2^%d vs e^%s: %d, %v; want %d", tc.x, tc.q, c, err, tc.want)
		}
	}
}

// TestRootBounds: c = (r·e^z)^(1/m) for a large r is bracketed tightly, in
// few bisection steps: ε = 1/3·ln(10^300) + 1/10, c = 10^100·e^(1/10).
func TestRootBounds(t *testing.T) {
	r300 := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(300), nil))
	e, err := exact.LnPlus(r("1/3"), r300, r("1/10"))
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := e.Bounds()
	// c = 10^100·e^(1/10), e^(1/10) in [1.10517091807, 1.10517091808].
	p100 := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(100), nil))
	refLo := new(big.Rat).Mul(p100, r("1.10517091807"))
	refHi := new(big.Rat).Mul(p100, r("1.10517091808"))
	if lo.Cmp(refHi) > 0 || hi.Cmp(refLo) < 0 || lo.Cmp(hi) > 0 {
		t.Errorf("bounds [%s, %s] exclude c", lo.FloatString(3), hi.FloatString(3))
	}
	gap := new(big.Rat).Quo(new(big.Rat).Sub(hi, lo), hi)
	if gap.Cmp(new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), 64))) > 0 {
		t.Errorf("relative gap %s is above 2^-64", gap.FloatString(30))
	}
	lo2, hi2 := e.Bounds()
	if lo2 != lo || hi2 != hi {
		t.Error("Bounds is not cached")
	}
}

func TestEpsSignAndBounds(t *testing.T) {
	neg, _ := exact.Ln(r("1/2"))
	if neg.Sign() != -1 || ln("2").Sign() != 1 || (exact.Eps{}).Sign() != 0 {
		t.Errorf("signs: %d %d %d", neg.Sign(), ln("2").Sign(), (exact.Eps{}).Sign())
	}
	// The true value lies in [ref, ref + 10^-60] (references to 61 digits).
	ulp := r("1/1000000000000000000000000000000000000000000000000000000000000")
	for _, tc := range []struct{ q, ref string }{
		{"1", "2.718281828459045235360287471352662497757247093699959574966967"},
		{"-3/2", "0.223130160148429828933280470764012521342171629361079328743835"},
		{"1/10", "1.105170918075647624811707826490246668224547194737518718792863"},
	} {
		lo, hi := rational(r(tc.q)).Bounds()
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
	mixed := func(k, x, q string) exact.Eps {
		e, err := exact.LnPlus(r(k), r(x), r(q))
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
		a, b exact.Eps
		want int
	}{
		{e, ln("2"), -1},
		{mixed("1", "2", "1/10"), rational(r("793/1000")), 1},    // 0.79314...
		{mixed("1", "2", "1/10"), rational(r("7932/10000")), -1}, // 0.79315 > 0.79314
		{mixed("2", "2", "0"), ln("4"), 0},
		{mixed("1/2", "4", "1/3"), mixed("1", "2", "1/3"), 0},
		{mixed("1/2", "3", "1/7"), mixed("1/3", "5", "1/7"), 1}, // √3 > ∛5
		{mixed("-1", "2", "1"), exact.Eps{}, 1},                 // 1 - ln 2 > 0
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

func TestEpsArithmetic(t *testing.T) {
	must := func(e exact.Eps, err error) exact.Eps {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	three := ln("3")
	for _, tc := range []struct {
		got  exact.Eps
		want string
	}{
		{must(three.MulRat(r("2"))), "2·ln(3)"},
		{must(three.MulRat(r("1/2"))), "1/2·ln(3)"},
		{must(three.Add(ln("2"))), "ln(6)"},
		{must(must(three.Neg()).Add(ln("2"))), "ln(2/3)"},
		{must(three.AddRat(r("-1/10"))), "ln(3) - 1/10"},
		{must(must(three.MulRat(r("1/2"))).Add(must(three.MulRat(r("1/2"))))), "ln(3)"},
		{must(exact.Inf().Add(three)), "∞"},
		{must(exact.Inf().MulRat(r("2"))), "∞"},
	} {
		if s := tc.got.String(); s != tc.want {
			t.Errorf("got %s, want %s", s, tc.want)
		}
	}
	if _, err := must(three.MulRat(r("1/2"))).Add(must(ln("2").MulRat(r("1/3")))); err == nil || !errors.Is(err, exact.ErrEps) {
		t.Errorf("1/2·ln(3) + 1/3·ln(2): error %v", err)
	}
	if _, err := exact.Inf().Neg(); err == nil {
		t.Error("-∞ accepted")
	}
	if _, err := three.MulRat(r("100000")); err == nil || err.Error() != "invalid epsilon: the coefficient 100000 of ln is above 65536" {
		t.Errorf("100000·ln(3): %v", err)
	}
}

func mulLn(k, x string) exact.Eps {
	e, err := exact.MulLn(r(k), r(x))
	if err != nil {
		panic(err)
	}
	return e
}

// TestEpsCanonicalC checks that e^ε is recognised rational whenever it is,
// however ε was written.
func TestEpsCanonicalC(t *testing.T) {
	for _, tc := range []struct {
		e    exact.Eps
		c    string // "" when irrational
		name string
	}{
		{mulLn("1/2", "4"), "2", "ln(4)/2"},
		{mulLn("3/2", "4"), "8", "3/2·ln(4)"},
		{mulLn("2/3", "1/27"), "1/9", "2/3·ln(1/27)"},
		{mulLn("1/2", "2"), "", "1/2·ln(2)"},
		{mulLn("1/2", "8"), "", "1/2·ln(8)"},
		{mulLn("1/6", "64"), "2", "1/6·ln(64)"},
	} {
		c, ok := tc.e.C()
		switch {
		case tc.c == "" && ok:
			t.Errorf("%s: C() = %s, want irrational", tc.name, c.RatString())
		case tc.c != "" && (!ok || c.Cmp(r(tc.c)) != 0):
			t.Errorf("%s: C() = %v, %v; want %s", tc.name, c, ok, tc.c)
		}
	}
}

// TestEpsStringLargePowers: a perfect power of thousands of bits is
// recognised (and one that is not is not mistaken for one), quickly.
func TestEpsStringLargePowers(t *testing.T) {
	p := exact.Pow(big.NewRat(3, 7), 1000) // 2808 and 1585 bits
	if got := exact.LnOf(p).String(); got != "1000·ln(3/7)" {
		t.Errorf("ln((3/7)^1000) = %s", got)
	}
	q := new(big.Rat).Add(exact.Pow(big.NewRat(7, 3), 1000), big.NewRat(1, 1))
	if got := exact.LnOf(q).String(); !strings.HasPrefix(got, "ln(") {
		t.Errorf("ln((7/3)^1000 + 1) = %.40s…", got)
	}
	sq := exact.Pow(big.NewRat(6, 1), 2*3*5*7) // 6^210: the largest exponent is 210
	if got := exact.LnOf(sq).String(); got != "210·ln(6)" {
		t.Errorf("ln(6^210) = %s", got)
	}
}

// TestMustConstructors: LnInt, LnFrac and Must give the ε of Ln, and panic
// where Ln would return an error or ε would be negative.
func TestMustConstructors(t *testing.T) {
	ln3, _ := exact.Ln(big.NewRat(3, 1))
	ln32, _ := exact.Ln(big.NewRat(3, 2))
	half, _ := exact.Rational(big.NewRat(1, 2))
	for _, c := range []struct {
		got, want exact.Eps
	}{
		{exact.LnInt(3), ln3},
		{exact.LnInt(1), exact.Eps{}},
		{exact.LnFrac(3, 2), ln32},
		{exact.LnFrac(6, 4), ln32},
		{exact.Must(exact.Rational(big.NewRat(1, 2))), half},
	} {
		if !c.got.Equal(c.want) {
			t.Errorf("got %s, want %s", c.got, c.want)
		}
	}
	for name, f := range map[string]func(){
		"LnInt(0)":       func() { exact.LnInt(0) },
		"LnFrac(1, 2)":   func() { exact.LnFrac(1, 2) },
		"LnFrac(1, 0)":   func() { exact.LnFrac(1, 0) },
		"Must(Ln(-1))":   func() { exact.Must(exact.Ln(big.NewRat(-1, 1))) },
		"Must(Rational)": func() { exact.Must(exact.Rational(big.NewRat(1<<20, 1))) },
	} {
		func() {
			defer func() {
				if v := recover(); v == nil {
					t.Errorf("%s did not panic", name)
				} else if err, ok := v.(error); !ok || !errors.Is(err, exact.ErrEps) {
					t.Errorf("%s panicked with %v, want an ErrEps", name, v)
				}
			}()
			f()
		}()
	}
}
