// Package exact holds dpcheck's exact numbers, used by every package that
// decides or reports a value.
//
// An Eps is a privacy parameter ε = k·ln(r) + q with rationals k, q and
// r > 0, or +∞. Comparisons against c = e^ε are exact: with k = p/m a
// comparison x ≤ r^k is decided as x^m ≤ r^p, and a rational part q ≠ 0 makes
// c transcendental (Lindemann–Weierstrass), so x ≤ e^q is never a tie and is
// decided by certified rational bounds on e^q (directed-rounding big.Float
// with an explicit Taylor remainder), refined until they separate. Values
// are bounded so that every comparison stays affordable: see LnPlus.
//
// A Real is A − B·e^ε (or A + B·e^ε) with rationals A, B: the exact value of
// a hockey-stick divergence at an irrational c.
//
// An Approx is a float64 mantissa with a separate int64 exponent and a
// proven relative error bound; CmpFilter decides a comparison from
// approximations only when the bound shows the exact answer cannot differ,
// and otherwise says so, so that the caller falls back to exact arithmetic.
// This filter is the only floating point allowed near a verdict; the proof
// of its bounds is in approx.go. Float, LnFloat and RatFloat give float64
// approximations, for search heuristics and plots, never for printed
// digits: Decimal (TextDecimal, JSONDecimal) prints exact values correctly
// rounded, from exact rationals or certified bounds (LnBounds, and the
// bounds on e^ε above).
//
// Exactness and the limits are described in docs/semantics.md.
package exact
