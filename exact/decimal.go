package exact

// This file prints exact values as decimals that are correctly rounded:
// the digits shown are those of the exact value rounded (halves away from
// zero) to that many significant digits. A rational is rounded exactly; an
// irrational value (ln of a rational, e^q, A + B·e^ε) is enclosed in
// certified rational bounds, refined until both bounds round to the same
// digits. An irrational value is never on a rounding boundary (a rational),
// so the refinement ends; maxDecimalPrec caps it for values that would
// need absurd precision (closer than 2^-maxDecimalPrec, relatively, to a
// boundary), which then print the lower bound's digits.

import (
	"math/big"
	"strconv"
	"strings"
)

// maxDecimalPrec is the most bits of precision the bounds of an irrational
// value are refined to when rounding it to decimals.
const maxDecimalPrec = 1 << 14

// Decimal is a style of correctly rounded decimals: its methods Rat, Eps
// and Real format an exact value in it.
type Decimal struct {
	// Digits is the number of significant digits (at least 1).
	Digits int
	// ExpLow and ExpHigh choose the notation: the exponent form d.ddde±XX
	// when the decimal exponent is below ExpLow or at least ExpHigh, the
	// positional form otherwise.
	ExpLow, ExpHigh int
	// JSON writes exponents as JSON numbers do without padding ("e-7",
	// "e+21"); otherwise they have at least two digits ("e-07"), as %g.
	JSON bool
}

// textStyle is the style of the text report: six significant digits, as %.6g
// would print the exact value.
var textStyle = Decimal{Digits: 6, ExpLow: -4, ExpHigh: 6}

// jsonStyle is the style of the JSON report: 17 significant digits (enough
// to name any float64), positional between 1e-6 and 1e21 as JSON encoders
// do.
var jsonStyle = Decimal{Digits: 17, ExpLow: -6, ExpHigh: 21, JSON: true}

// TextDecimal returns the style of a text report: six significant digits,
// notation as %.6g.
func TextDecimal() Decimal { return textStyle }

// JSONDecimal returns the style of the JSON report: 17 significant digits,
// a valid JSON number.
func JSONDecimal() Decimal { return jsonStyle }

// sigDigits rounds x ≠ 0 to n significant digits, halves away from zero:
// |x| ≈ digits[0].digits[1:] × 10^exp with len(digits) == n.
func sigDigits(x *big.Rat, n int) (neg bool, digits string, exp int) {
	neg = x.Sign() < 0
	num := new(big.Int).Abs(x.Num())
	den := x.Denom()
	// 10^e <= |x| < 10^(e+1); estimate from the bit lengths, then fix.
	bits := num.BitLen() - den.BitLen()
	e := int(float64(bits) * 0.30102999566398120) // display only: an estimate of the exponent that cmp10 corrects exactly below
	ten := big.NewInt(10)
	pow := func(k int) *big.Int { return new(big.Int).Exp(ten, big.NewInt(int64(k)), nil) }
	// cmp10 returns sign(|x| - 10^k).
	cmp10 := func(k int) int {
		if k >= 0 {
			return num.Cmp(new(big.Int).Mul(den, pow(k)))
		}
		return new(big.Int).Mul(num, pow(-k)).Cmp(den)
	}
	for cmp10(e) < 0 {
		e--
	}
	for cmp10(e+1) >= 0 {
		e++
	}
	// N = round(|x|·10^(n-1-e)), in [10^(n-1), 10^n].
	s := n - 1 - e
	a, b := new(big.Int).Set(num), new(big.Int).Set(den)
	if s >= 0 {
		a.Mul(a, pow(s))
	} else {
		b.Mul(b, pow(-s))
	}
	q, r := new(big.Int).QuoRem(a, b, new(big.Int))
	if r.Lsh(r, 1).Cmp(b) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	digits = q.String()
	if len(digits) > n { // rounded up to 10^n
		digits, e = digits[:n], e+1
	}
	return neg, digits, e
}

// format writes ±d.ddd×10^exp in the style, trailing zeros of the
// fraction dropped.
func (st Decimal) format(neg bool, digits string, exp int) string {
	var sb strings.Builder
	if neg {
		sb.WriteByte('-')
	}
	if exp < st.ExpLow || exp >= st.ExpHigh {
		frac := strings.TrimRight(digits[1:], "0")
		sb.WriteString(digits[:1])
		if frac != "" {
			sb.WriteString("." + frac)
		}
		sb.WriteByte('e')
		if exp < 0 {
			sb.WriteByte('-')
		} else {
			sb.WriteByte('+')
		}
		x := strconv.Itoa(max(exp, -exp))
		if !st.JSON && len(x) < 2 {
			x = "0" + x
		}
		sb.WriteString(x)
		return sb.String()
	}
	var intPart, frac string
	switch {
	case exp < 0:
		intPart, frac = "0", strings.Repeat("0", -exp-1)+digits
	case exp+1 >= len(digits):
		intPart = digits + strings.Repeat("0", exp+1-len(digits))
	default:
		intPart, frac = digits[:exp+1], digits[exp+1:]
	}
	sb.WriteString(intPart)
	if frac = strings.TrimRight(frac, "0"); frac != "" {
		sb.WriteString("." + frac)
	}
	return sb.String()
}

// Rat formats the rational x in the style, correctly rounded.
func (st Decimal) Rat(x *big.Rat) string {
	if x.Sign() == 0 {
		return "0"
	}
	return st.format(sigDigits(x, max(st.Digits, 1)))
}

// bounded formats a value known through bounds(prec) = lo <= v <= hi,
// refining until lo and hi round to the same digits.
func (st Decimal) bounded(bounds func(prec uint) (lo, hi *big.Rat)) string {
	n := max(st.Digits, 1)
	prec := uint(16 + 4*n) // enough unless the value is very near a rounding boundary: then refined
	for {
		lo, hi := bounds(prec)
		if lo.Sign() == hi.Sign() && lo.Sign() != 0 {
			n1, d1, e1 := sigDigits(lo, n)
			n2, d2, e2 := sigDigits(hi, n)
			if (n1 == n2 && d1 == d2 && e1 == e2) || prec >= maxDecimalPrec {
				return st.format(n1, d1, e1)
			}
		} else if prec >= maxDecimalPrec {
			return st.Rat(lo)
		}
		prec *= 2
	}
}

// Eps formats ε in the style, correctly rounded ("∞" for +∞).
func (st Decimal) Eps(e Eps) string {
	switch {
	case e.IsZero():
		return "0"
	case e.IsInf():
		return "∞"
	}
	if e.d.k == nil {
		return st.Rat(e.d.q)
	}
	// Most values are decided by float64 bounds with a proven error
	// (approxBounds), in a microsecond; the others exactly.
	if lo, hi, ok := e.approxBounds(); ok && lo.Sign() == hi.Sign() && lo.Sign() != 0 {
		n := max(st.Digits, 1)
		n1, d1, e1 := sigDigits(lo, n)
		n2, d2, e2 := sigDigits(hi, n)
		if n1 == n2 && d1 == d2 && e1 == e2 {
			return st.format(n1, d1, e1)
		}
	}
	return st.bounded(e.bounds)
}

// Real formats r in the style, correctly rounded.
func (st Decimal) Real(r Real) string {
	if x, ok := r.Rat(); ok {
		return st.Rat(x)
	}
	return st.bounded(func(prec uint) (lo, hi *big.Rat) {
		// |B|·c is known to a relative 2^-prec; add bits for the size
		// of B·c against A, so that cancellation is covered by refining.
		clo, chi := r.E.boundsAt(prec)
		lo = new(big.Rat).Mul(r.B, clo)
		hi = new(big.Rat).Mul(r.B, chi)
		if r.B.Sign() < 0 {
			lo, hi = hi, lo
		}
		return lo.Add(lo, r.A), hi.Add(hi, r.A)
	})
}

// bounds returns lo <= ε <= hi for a finite ε with a log part, with
// hi - lo at most about 2^-prec·(1 + |k|).
func (e Eps) bounds(prec uint) (lo, hi *big.Rat) {
	d := e.d
	llo, lhi := lnBounds(d.r, prec)
	lo, hi = new(big.Rat).Mul(d.k, llo), new(big.Rat).Mul(d.k, lhi)
	if d.k.Sign() < 0 {
		lo, hi = hi, lo
	}
	if d.q != nil {
		lo.Add(lo, d.q)
		hi.Add(hi, d.q)
	}
	return lo, hi
}

// LnBounds returns certified rationals lo <= ln(r) <= hi for r > 0 with
// hi - lo at most about 2^-prec. It works for rationals of any size: r is
// split into 2^e·m with 1/2 < m < 2, and ln(r) = e·ln(2) + 2·atanh(t) with
// t = (m-1)/(m+1), |t| < 1/3, each series summed with directed rounding and
// its remainder bounded explicitly.
func LnBounds(r *big.Rat, prec uint) (lo, hi *big.Rat) {
	return lnBounds(r, prec)
}

func lnBounds(r *big.Rat, prec uint) (lo, hi *big.Rat) {
	if r.Cmp(ratOne) == 0 {
		return new(big.Rat), new(big.Rat)
	}
	e := int64(r.Num().BitLen() - r.Denom().BitLen()) // 2^(e-1) < r < 2^(e+1)
	// m = a/b = r/2^e, and t = (m-1)/(m+1) = (a-b)/(a+b), bounded in
	// floating point with directed rounding: no greatest common divisor
	// of r's (possibly millions of bits long) numerator and denominator.
	// Everything below rounds towards the bound it computes, and only the
	// two results become rationals.
	a, b := r.Num(), r.Denom()
	if e > 0 {
		b = new(big.Int).Lsh(b, uint(e))
	} else if e < 0 {
		a = new(big.Int).Lsh(a, uint(-e))
	}
	wp := prec + uint(big.NewInt(abs64(e)).BitLen()) + 16
	down := func() *big.Float { return new(big.Float).SetPrec(wp).SetMode(big.ToNegativeInf) }
	up := func() *big.Float { return new(big.Float).SetPrec(wp).SetMode(big.ToPositiveInf) }
	u := new(big.Int).Sub(a, b) // t's numerator
	v := new(big.Int).Add(a, b) // t's denominator, > 0
	tLo, tHi := down(), up()
	if u.Sign() != 0 {
		uLo, uHi := down().SetInt(u), up().SetInt(u)
		vLo, vHi := down().SetInt(v), up().SetInt(v)
		if u.Sign() > 0 {
			tLo.Quo(uLo, vHi)
			tHi.Quo(uHi, vLo)
		} else {
			tLo.Quo(uLo, vLo)
			tHi.Quo(uHi, vHi)
		}
	}
	// atanh is increasing: atanh(tLo) <= atanh(t) <= atanh(tHi); doubling
	// is exact.
	loF := atanhBound(tLo, wp, false)
	hiF := atanhBound(tHi, wp, true)
	loF.SetMantExp(loF, 1)
	hiF.SetMantExp(hiF, 1)
	if e != 0 {
		l2lo, l2hi := ln2FloatBounds(wp)
		ke := new(big.Float).SetInt64(e) // exact: |e| < 2^63 needs at most 64 bits
		if e < 0 {
			l2lo, l2hi = l2hi, l2lo
		}
		loF.Add(loF, down().Mul(ke, l2lo))
		hiF.Add(hiF, up().Mul(ke, l2hi))
	}
	lo, _ = loF.Rat(nil)
	hi, _ = hiF.Rat(nil)
	return lo, hi
}

// ln2Bounds returns lo <= ln(2) <= hi: ln(2) = 2·atanh(1/3).
func ln2Bounds(wp uint) (lo, hi *big.Rat) {
	l, h := ln2FloatBounds(wp)
	lo, _ = l.Rat(nil)
	hi, _ = h.Rat(nil)
	return lo, hi
}

// ln2FloatBounds returns lo <= ln(2) <= hi with wp bits, rounded down and
// up: from the constant ln2Floor when it has the bits, else the series.
func ln2FloatBounds(wp uint) (lo, hi *big.Float) {
	lo = new(big.Float).SetPrec(wp).SetMode(big.ToNegativeInf)
	hi = new(big.Float).SetPrec(wp).SetMode(big.ToPositiveInf)
	if wp <= ln2Bits-16 {
		// ⌊ln 2·2^n⌋/2^n ≤ ln 2 < (⌊…⌋ + 1)/2^n, rounded outwards
		x, _ := new(big.Int).SetString(ln2Floor, 16)
		xf := new(big.Float).SetInt(x) // exact
		lo.Set(xf)                     // rounds down to wp bits
		hi.Set(xf.SetInt(x.Add(x, big.NewInt(1))))
		// (SetMantExp(z, …) with z itself keeps z's precision)
		return lo.SetMantExp(lo, -ln2Bits), hi.SetMantExp(hi, -ln2Bits)
	}
	third := new(big.Float).SetPrec(wp + 8).SetMode(big.ToNegativeInf).SetRat(big.NewRat(1, 3))
	l := atanhBound(third, wp, false)
	third = new(big.Float).SetPrec(wp + 8).SetMode(big.ToPositiveInf).SetRat(big.NewRat(1, 3))
	h := atanhBound(third, wp, true)
	lo.Set(l)
	hi.Set(h)
	return lo.SetMantExp(lo, 1), hi.SetMantExp(hi, 1)
}

// ln2Floor is ⌊ln 2·2^ln2Bits⌋ in hexadecimal (TestLn2Constant checks it
// against the series ln 2 = 2·atanh(1/3)): the bounds of ln 2 that most
// decimals need, without summing a series each time.
const (
	ln2Bits  = 1100
	ln2Floor = "b17217f7d1cf79abc9e3b39803f2f6af40f343267298b62d8a0d175b8baafa2be7b876206debac98559552fb4afa1b10ed2eae35c138214427573b291169b8253e96ca16224ae8c51acbda11317c387eb9ea9bc3b136603b256fa0ec7657f74b72ce87b19d6548caf5dfa6bd38303248655fa1872f20e3a2da2d97c50f3fd5c607f4ca11fb5bfb90610"
)

// atanhBounds returns lo <= atanh(t) <= hi for |t| <= 1/3, with hi - lo at
// most about 2^-wp (see atanhBound).
func atanhBounds(t *big.Rat, wp uint) (lo, hi *big.Rat) {
	tLo := new(big.Float).SetPrec(wp + 8).SetMode(big.ToNegativeInf).SetRat(t)
	tHi := new(big.Float).SetPrec(wp + 8).SetMode(big.ToPositiveInf).SetRat(t)
	lo, _ = atanhBound(tLo, wp, false).Rat(nil)
	hi, _ = atanhBound(tHi, wp, true).Rat(nil)
	return lo, hi
}

// atanhBound returns a lower bound of atanh(t) (an upper one when upper
// is set) for |t| <= 1/3, within about 2^-wp of it: atanh(t) =
// Σ t^(2j+1)/(2j+1). For t >= 0 every term is positive and increasing in
// t, so summing terms rounded down gives a lower bound; the upper bound
// rounds up and adds the remainder after term j, at most p_j·t²/(1-t²) <=
// p_j/8 with p_j = t^(2j+1) (t² <= 1/9). For t < 0, atanh(t) =
// -atanh(-t) with the directions swapped.
func atanhBound(t *big.Float, wp uint, upper bool) *big.Float {
	mode := big.ToNegativeInf
	if upper {
		mode = big.ToPositiveInf
	}
	f := func() *big.Float { return new(big.Float).SetPrec(wp).SetMode(mode) }
	switch t.Sign() {
	case 0:
		return f()
	case -1:
		b := atanhBound(new(big.Float).Neg(t), wp, !upper)
		return b.Neg(b)
	}
	p := f().Set(t)
	t2 := f().Mul(t, t)
	sum, term := f(), f()
	odd := new(big.Float).SetPrec(64) // 2j+1, exact
	eps := new(big.Float).SetMantExp(big.NewFloat(1), -int(wp)-8)
	for j := int64(0); ; j++ {
		odd.SetInt64(2*j + 1)
		sum.Add(sum, term.Quo(p, odd))
		p.Mul(p, t2)
		if p.Cmp(eps) < 0 {
			if upper {
				// Remainder: Σ_{i>j} p_i/(2i+1) <= p_{j+1}·1/(1-t²) <= p_{j+1}·9/8.
				sum.Add(sum, term.Mul(p, f().SetFloat64(1.125)))
			}
			return sum
		}
	}
}
