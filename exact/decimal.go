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
	prec := uint(64 + 4*n)
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
	a, b := r.Num(), r.Denom()
	if e > 0 {
		b = new(big.Int).Lsh(b, uint(e))
	} else if e < 0 {
		a = new(big.Int).Lsh(a, uint(-e))
	}
	wp := prec + uint(big.NewInt(abs64(e)).BitLen()) + 16
	u := new(big.Int).Sub(a, b) // t's numerator
	v := new(big.Int).Add(a, b) // t's denominator, > 0
	tLo, tHi := new(big.Rat), new(big.Rat)
	if u.Sign() != 0 {
		down := func() *big.Float { return new(big.Float).SetPrec(wp).SetMode(big.ToNegativeInf) }
		up := func() *big.Float { return new(big.Float).SetPrec(wp).SetMode(big.ToPositiveInf) }
		uLo, uHi := down().SetInt(u), up().SetInt(u)
		vLo, vHi := down().SetInt(v), up().SetInt(v)
		if u.Sign() > 0 {
			down().Quo(uLo, vHi).Rat(tLo)
			up().Quo(uHi, vLo).Rat(tHi)
		} else {
			down().Quo(uLo, vLo).Rat(tLo)
			up().Quo(uHi, vHi).Rat(tHi)
		}
	}
	// atanh is increasing: atanh(tLo) <= atanh(t) <= atanh(tHi).
	alo, _ := atanhBounds(tLo, wp)
	_, ahi := atanhBounds(tHi, wp)
	lo = new(big.Rat).Add(alo, alo)
	hi = new(big.Rat).Add(ahi, ahi)
	if e != 0 {
		l2lo, l2hi := ln2Bounds(wp)
		ke := big.NewRat(e, 1)
		a, b := new(big.Rat).Mul(ke, l2lo), new(big.Rat).Mul(ke, l2hi)
		if e < 0 {
			a, b = b, a
		}
		lo.Add(lo, a)
		hi.Add(hi, b)
	}
	return lo, hi
}

// ln2Bounds returns lo <= ln(2) <= hi: ln(2) = 2·atanh(1/3).
func ln2Bounds(wp uint) (lo, hi *big.Rat) {
	a, b := atanhBounds(big.NewRat(1, 3), wp)
	return a.Add(a, a), b.Add(b, b)
}

// atanhBounds returns lo <= atanh(t) <= hi for |t| <= 1/3, with hi - lo at
// most about 2^-wp: atanh(t) = Σ t^(2j+1)/(2j+1). For t >= 0 every term is
// positive and increasing in t, so summing down-rounded terms of a lower
// bound of t gives a lower bound; the upper bound adds the remainder after
// term j, at most p_j·t²/(1-t²) <= p_j/8 with p_j = t^(2j+1) (t² <= 1/9).
func atanhBounds(t *big.Rat, wp uint) (lo, hi *big.Rat) {
	switch t.Sign() {
	case 0:
		return new(big.Rat), new(big.Rat)
	case -1:
		l, h := atanhBounds(new(big.Rat).Neg(t), wp)
		return h.Neg(h), l.Neg(l)
	}
	down := func() *big.Float { return new(big.Float).SetPrec(wp).SetMode(big.ToNegativeInf) }
	up := func() *big.Float { return new(big.Float).SetPrec(wp).SetMode(big.ToPositiveInf) }
	tLo, tHi := down().SetRat(t), up().SetRat(t)
	t2Lo, t2Hi := down().Mul(tLo, tLo), up().Mul(tHi, tHi)
	pLo, pHi := down().Set(tLo), up().Set(tHi)
	sumLo, sumHi := down(), up()
	eps := new(big.Float).SetMantExp(big.NewFloat(1), -int(wp)-8)
	for j := int64(0); ; j++ {
		sumLo.Add(sumLo, down().Quo(pLo, down().SetInt64(2*j+1)))
		sumHi.Add(sumHi, up().Quo(pHi, up().SetInt64(2*j+1)))
		pLo.Mul(pLo, t2Lo)
		pHi.Mul(pHi, t2Hi)
		if pHi.Cmp(eps) < 0 {
			// Remainder: Σ_{i>j} p_i/(2i+1) <= p_{j+1}·1/(1-t²) <= p_{j+1}·9/8.
			rem := up().Mul(pHi, up().SetFloat64(1.125))
			sumHi.Add(sumHi, rem)
			break
		}
	}
	lo, _ = sumLo.Rat(nil)
	hi, _ = sumHi.Rat(nil)
	return lo, hi
}
