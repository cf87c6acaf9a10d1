package verify

import "github.com/dpcheck/dpcheck/exact"

// The hockey-stick sum H = Σ_o max(0, μs(o) - c·μt(o)) is approximated term
// by term with the certified approximations of package exact (whose error
// model is proved in exact/approx.go) as s̃·(1 - ρ̃) where ρ̃ ≈ c·μt(o)/μs(o);
// each term's absolute error (including the terms whose sign the filter got
// wrong, which are then within 16u·μs(o) of 0) is at most 16u·μs(o) +
// 2^-1074, and summing m non-negative float64 terms adds at most m·u·H̃. As
// Σ_o μs(o) ≤ 1,
//
//	|H̃ - H| ≤ (16 + m·H̃)·u + m·2^-1074 + O(u²),
//
// and hErr returns twice that bound.

// unit is u = 2^-53, the unit roundoff of float64.
const unit = 0x1p-53

// hTerm approximates max(0, s - c·t) for s, c·t given as exact.Approx values;
// see the file comment for its error.
func hTerm(s, ct exact.Approx) float64 {
	if s.Cmp(ct) <= 0 {
		return 0
	}
	if ct.IsZero() {
		return s.Float()
	}
	rho := ct.Div(s) // in (0, 1)
	return s.Float() * (1 - rho.Float())
}

// hErr is a certified bound on |H̃ - H| for a hockey-stick sum of m terms
// approximated as H̃ (twice the bound derived in the file comment).
func hErr(h float64, m int) float64 {
	return 2 * ((16+float64(m)*h)*unit + float64(m)*0x1p-1074)
}
