// Package poly is exact algebra in one real parameter α: it decides claims
// "for every α in an interval" about polynomials and rational functions of α
// with rational coefficients, exactly, and describes where they hold.
//
// What it decides. For a polynomial p and an interval I with rational ends
// (each open or closed): how many distinct real roots p has in I
// (CountRoots); the sign of p on I — positive, negative, identically zero,
// ≥ 0 or ≤ 0 touching zero at roots, or mixed — with the roots (SignOn);
// every root in I, exactly (Roots); and the region {α ∈ I : f(α) rel 0} for
// rel among >, ≥, =, ≠, <, ≤ and f a polynomial or a rational function
// (Where, WhereRat), a union of disjoint intervals with algebraic ends, with
// intersection, union and complement, and a witness: the simplest rational
// point of I outside a region (Witness), the exact "violated at α = 1/3".
//
// How. Nothing is approximated on a decision path: coefficients are
// big.Rat, and the long algorithms work on primitive integer polynomials
// (coprime integer coefficients, a positive multiple of the rational one, so
// with the same roots and signs), evaluating signs exactly by the
// homogenized Horner scheme. A Poly holds α^k times its coefficients from
// α^k up, so the powers of α that mechanisms' probabilities are made of
// (α^|i−j|·(1 − α)) take a few coefficients, not |i − j| + 2; GCDs take the
// common power of α out first.
//
//   - GCD is the primitive polynomial remainder sequence over Z: each
//     pseudo-remainder is divided by its content, which keeps coefficients
//     small (Euclid over Q makes them explode). The square-free part is
//     p / gcd(p, p′).
//   - Root counting is Sturm's theorem on the square-free part: with V(x)
//     the sign variations of the Sturm sequence at x, p has V(a) − V(b)
//     distinct roots in (a, b]; roots at the ends are found by evaluation.
//     The Sturm sequence is built from pseudo-remainders with their signs
//     corrected and contents divided out.
//   - Root isolation is Sturm bisection: an interval holding more than one
//     root is cut at its midpoint (a midpoint that is a root is a rational
//     root), until every root has an isolating interval (lo, hi) with
//     rational ends that are not roots. A root is recognized as rational by
//     the rational root theorem: its denominator divides the leading
//     coefficient L of the primitive polynomial, so narrowing the interval
//     below 1/L leaves one candidate to test.
//   - An Algebraic is a rational, or an irrational root given by its
//     square-free defining polynomial and isolating interval, refinable to
//     any width by bisection (the polynomial changes sign across the
//     interval). Two are compared exactly: disjoint intervals decide; when
//     they overlap, the numbers are equal exactly when the GCD of the
//     defining polynomials has a root in the overlap; otherwise bisection
//     separates them. The sign of a polynomial q at an Algebraic x is 0 when
//     gcd(q, defining polynomial) vanishes at x, and otherwise q's sign on
//     an interval around x refined until q has no root in it. Decimal
//     rounds correctly: it refines until both ends round alike.
//   - Regions decompose I at the roots of the numerator times the
//     denominator into points and open gaps; the sign on each gap is that at
//     one rational point of it, the sign at a root is decided exactly, and
//     poles (roots of the denominator) are excluded from every region.
//     Simplest finds the rational with the least denominator in an interval
//     by continued fractions (the Stern–Brocot tree).
//
// Limits. The intervals are bounded. Every long operation takes a
// context.Context, checked in its loops, and is a method of Limits, which
// bounds the degree (MaxDegree, default 1000) and the coefficient size
// (MaxBits, numerator plus denominator bits, default 65536) of its inputs
// and of every intermediate remainder, failing with a *LimitError (wrapping
// ErrLimit) that names the operation, the quantity and the limit. The
// arithmetic of Poly (Add, Mul, DivMod, …) is unbounded and cheap. Root
// isolation and rational-root recognition take about as many bisections as
// the bits separating the roots plus the bits of the leading coefficient,
// each costing one evaluation of the Sturm sequence; building the Sturm
// sequence dominates (bench_test.go measures GCD, isolation and regions at
// degrees 20, 50 and 100).
//
// Values (Poly, RatFunc, Algebraic, Region) are immutable and safe to share
// between goroutines. The package has no state and prints nothing.
package poly
