package exact_test

import (
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/exact"
)

// The reference digits below were computed independently with Python's
// decimal module at 2200 digits of precision.

func TestDecimalRational(t *testing.T) {
	third := exact.Pow(big.NewRat(1, 3), 1000)
	for _, tc := range []struct {
		x          *big.Rat
		text, json string
	}{
		{r("0"), "0", "0"},
		{r("1/8"), "0.125", "0.125"},
		{r("-1/8"), "-0.125", "-0.125"},
		{r("1/3"), "0.333333", "0.33333333333333333"},
		{r("2/3"), "0.666667", "0.66666666666666667"},
		// exactly on a rounding boundary: halves away from zero
		{r("9999995/10000000"), "1", "0.9999995"},
		{r("1234565/10"), "123457", "123456.5"},
		{r("1234567"), "1.23457e+06", "1234567"},
		{r("12345/100000000"), "0.00012345", "0.00012345"},
		{r("12345/1000000000"), "1.2345e-05", "0.000012345"},
		{r("12345/10000000000"), "1.2345e-06", "0.0000012345"},
		{r("12345/100000000000"), "1.2345e-07", "1.2345e-7"},
		{r("1/1000000000000000000000000000000"), "1e-30", "1e-30"},
		{new(big.Rat).Sub(r("1"), r("1/1000000000000000000000000000000")), "1", "1"},
		// (1/3)^1000 underflows float64: it must not print as 0
		{third, "7.56389e-478", "7.5638913231040998e-478"},
		{r("123456789012345678901234567890"), "1.23457e+29", "1.2345678901234568e+29"},
	} {
		if got := exact.TextDecimal().Rat(tc.x); got != tc.text {
			t.Errorf("text %s = %q, want %q", short(tc.x), got, tc.text)
		}
		if got := exact.JSONDecimal().Rat(tc.x); got != tc.json {
			t.Errorf("json %s = %q, want %q", short(tc.x), got, tc.json)
		}
	}
}

func short(x *big.Rat) string {
	s := x.RatString()
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

func pow10(n int64) *big.Rat {
	return new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(n), nil))
}

// TestDecimalEps checks ε values whose float64 approximation (ln of the
// numerator minus ln of the denominator) prints wrong digits.
func TestDecimalEps(t *testing.T) {
	e18 := pow10(1000)
	nearOne := new(big.Rat).Quo(new(big.Rat).Add(e18, r("1")), e18) // 1 + 10^-1000
	big7 := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(7), big.NewInt(1183), nil))
	big3 := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(3), big.NewInt(2096), nil))
	huge := new(big.Rat).Quo(big7, big3) // 1000-digit numerator, 1001-digit denominator
	mixed, err := exact.LnPlus(r("1/3"), r("2"), r("-1/1000"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name       string
		e          exact.Eps
		text, json string
	}{
		{"ln(21374156/3056137)", ln("21374156/3056137"), "1.94503", "1.9450308285207602"},
		{"ln(1+10^-1000)", exact.LnOf(nearOne), "1e-1000", "1e-1000"},
		{"ln(7^1183/3^2096)", ln(huge.RatString()), "-0.679651", "-0.67965071592227322"},
		{"ln(2)/3 - 1/1000", mixed, "0.230049", "0.23004906018664844"},
		{"ln(16)", ln("16"), "2.77259", "2.7725887222397812"},
		{"1/10", rational(r("1/10")), "0.1", "0.1"},
		{"0", exact.Eps{}, "0", "0"},
		{"∞", exact.Inf(), "∞", "∞"},
	} {
		if got := exact.TextDecimal().Eps(tc.e); got != tc.text {
			t.Errorf("text %s = %q, want %q", tc.name, got, tc.text)
		}
		if got := exact.JSONDecimal().Eps(tc.e); got != tc.json {
			t.Errorf("json %s = %q, want %q", tc.name, got, tc.json)
		}
	}
}

func TestDecimalReal(t *testing.T) {
	tiny := rational(new(big.Rat).Inv(pow10(20)))
	tenth := rational(r("1/10"))
	for _, tc := range []struct {
		name       string
		x          exact.Real
		text, json string
	}{
		// 1 - e^(10^-20) cancels: a float64 gives 0
		{"1 - e^(1e-20)", exact.Affine(r("1"), r("-1"), tiny), "-1e-20", "-1e-20"},
		{"1/2 - 1/4·e^(1/10)", exact.Affine(r("1/2"), r("-1/4"), tenth), "0.223707", "0.22370727048108809"},
		{"rational", exact.RatReal(r("1/3")), "0.333333", "0.33333333333333333"},
	} {
		if got := exact.TextDecimal().Real(tc.x); got != tc.text {
			t.Errorf("text %s = %q, want %q", tc.name, got, tc.text)
		}
		if got := exact.JSONDecimal().Real(tc.x); got != tc.json {
			t.Errorf("json %s = %q, want %q", tc.name, got, tc.json)
		}
	}
}

// TestDecimalHugeLn: ln of a rational of 6.3 million bits (as
// 65536·ln(12345678901234567890123456789/2) expands) is rounded from
// bounds on t = (m − 1)/(m + 1) taken in floating point, without reducing
// fractions of that size (printing took 4 minutes, now milliseconds:
// BenchmarkDecimal/ln6Mbits). The digits are 65536·ln(r) by Python's
// decimal module at 60 digits: 4193645.78561811981298181933106….
func TestDecimalHugeLn(t *testing.T) {
	c := hugePower()
	if got, want := exact.TextDecimal().Eps(exact.LnOf(c)), "4.19365e+06"; got != want {
		t.Errorf("text = %q, want %q", got, want)
	}
	if got, want := exact.JSONDecimal().Eps(exact.LnOf(c)), "4193645.7856181198"; got != want {
		t.Errorf("json = %q, want %q", got, want)
	}
	lo, hi := exact.LnBounds(c, 100)
	ref := r("4193645.78561811981298181933106407965504265059123651815506341")
	slack := r("1/1000000000000000000000000000000000000000000000000000")
	if new(big.Rat).Sub(lo, slack).Cmp(ref) > 0 || new(big.Rat).Add(hi, slack).Cmp(ref) < 0 {
		t.Errorf("[%s, %s] misses 65536·ln(r)", lo.FloatString(30), hi.FloatString(30))
	}
}

// hugePower returns (12345678901234567890123456789/2)^65536.
func hugePower() *big.Rat {
	c := r("12345678901234567890123456789/2")
	for range 16 {
		c.Mul(c, c)
	}
	return c
}

// TestLnBounds checks that the bounds enclose ln(r) (against the reference
// digits) and shrink with the precision.
func TestLnBounds(t *testing.T) {
	ref := r("1.94503082852076019518587406609640058791214091718095634326")
	for _, prec := range []uint{8, 64, 200} {
		lo, hi := exact.LnBounds(r("21374156/3056137"), prec)
		gap := new(big.Rat).Sub(hi, lo)
		if lo.Cmp(hi) > 0 || gap.Cmp(new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), prec))) > 0 {
			t.Errorf("prec %d: gap %s too wide", prec, gap.FloatString(70))
		}
		slack := r("1/100000000000000000000000000000000000000000000000000000")
		if new(big.Rat).Sub(lo, slack).Cmp(ref) > 0 || new(big.Rat).Add(hi, slack).Cmp(ref) < 0 {
			t.Errorf("prec %d: [%s, %s] misses ln", prec, lo.FloatString(60), hi.FloatString(60))
		}
	}
	lo, hi := exact.LnBounds(r("1/2"), 100)
	l2 := r("-0.69314718055994530941723212145817656807550013436025525412068")
	if lo.Cmp(new(big.Rat).Add(l2, r("1/10000000000000000000000000000000000000000000000000000000000"))) > 0 || hi.Cmp(new(big.Rat).Sub(l2, r("1/10000000000000000000000000000000000000000000000000000000000"))) < 0 {
		t.Errorf("ln(1/2) in [%s, %s]", lo.FloatString(40), hi.FloatString(40))
	}
}

// BenchmarkDecimal measures printing one value correctly rounded: a
// rational, ln of a ratio of 55-digit integers (the ε), ln of a
// 1000-digit fraction, an irrational tight δ and ln of a 6-million-bit
// fraction.
//
//	go test ./exact -run '^$' -bench Decimal -benchmem
func BenchmarkDecimal(b *testing.B) {
	window := ln("8002625270779791616834608979854227593943071887355740160/1999518142376025408355077999068176509912266806607478787")
	big7 := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(7), big.NewInt(1183), nil))
	big3 := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(3), big.NewInt(2096), nil))
	huge := exact.LnOf(new(big.Rat).Quo(big7, big3))
	delta := exact.Affine(r("1/2"), r("-1/4"), rational(r("1/10")))
	hugeLn := exact.LnOf(hugePower())
	for _, bc := range []struct {
		name string
		f    func() string
	}{
		{"rat/text", func() string { return exact.TextDecimal().Rat(r("67907779/849346560")) }},
		{"rat/json", func() string { return exact.JSONDecimal().Rat(r("67907779/849346560")) }},
		{"ln55digits/json", func() string { return exact.JSONDecimal().Eps(window) }},
		{"ln1000digits/json", func() string { return exact.JSONDecimal().Eps(huge) }},
		{"real/json", func() string { return exact.JSONDecimal().Real(delta) }},
		{"ln6Mbits/json", func() string { return exact.JSONDecimal().Eps(hugeLn) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				bc.f()
			}
		})
	}
}

// BenchmarkEpsStringLarge measures the canonical form of ln of a fraction
// of two 8000-bit integers that is no perfect power (every prime exponent
// up to 8000 is ruled out).
//
//	go test ./exact -run '^$' -bench EpsStringLarge -benchmem
func BenchmarkEpsStringLarge(b *testing.B) {
	n := new(big.Int).Lsh(big.NewInt(1), 8000)
	n.Add(n, big.NewInt(12345))
	d := new(big.Int).Lsh(big.NewInt(1), 7997)
	d.Add(d, big.NewInt(777))
	r := new(big.Rat).SetFrac(n, d)
	for b.Loop() {
		_ = exact.LnOf(r).String()
	}
}
