package dpcheck_test

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/property"
	"github.com/google/go-cmp/cmp"
)

// binomialPLD is the privacy-loss distribution of k runs of a mechanism
// whose one run has two loss values, ratio r with probability p under the
// first input (and p/r under the second), and 1/r with probability 1-p:
// j runs of ratio r give ratio r^(2j-k), probability C(k,j)·p^j·(1-p)^(k-j).
// In decreasing order of ratio (r > 1).
type atom struct{ ratio, A, B *big.Rat }

func binomialPLD(r, p *big.Rat, k int) []atom {
	one := big.NewRat(1, 1)
	q := new(big.Rat).Sub(one, p)
	pt := new(big.Rat).Quo(p, r)
	qt := new(big.Rat).Sub(one, pt)
	var out []atom
	for j := k; j >= 0; j-- {
		c := new(big.Rat).SetInt(new(big.Int).Binomial(int64(k), int64(j)))
		A := new(big.Rat).Mul(c, new(big.Rat).Mul(exact.Pow(p, int64(j)), exact.Pow(q, int64(k-j))))
		B := new(big.Rat).Mul(c, new(big.Rat).Mul(exact.Pow(pt, int64(j)), exact.Pow(qt, int64(k-j))))
		out = append(out, atom{exact.Pow(r, int64(2*j-k)), A, B})
	}
	return out
}

// deltaAt is Σ over the atoms of ratio above c = e^ε of A − c·B.
func deltaAt(t *testing.T, atoms []atom, e exact.Eps) exact.Real {
	t.Helper()
	A, B := new(big.Rat), new(big.Rat)
	for _, a := range atoms {
		s, err := e.CmpC(a.ratio)
		if err != nil {
			t.Fatal(err)
		}
		if s > 0 {
			A.Add(A, a.A)
			B.Add(B, a.B)
		}
	}
	return exact.Affine(A, B.Neg(B), e)
}

// tightC is the least c ≥ 1 with δ(c) ≤ δ (δ > 0), by trying every piece:
// with the first m atoms, c = (A_m − δ)/B_m if it lies between the ratios
// of atoms m and m−1.
func tightC(atoms []atom, delta *big.Rat) *big.Rat {
	A, B := new(big.Rat), new(big.Rat)
	one := big.NewRat(1, 1)
	for m := 0; m <= len(atoms); m++ {
		lo, hi := one, (*big.Rat)(nil)
		if m < len(atoms) && atoms[m].ratio.Cmp(one) > 0 {
			lo = atoms[m].ratio
		}
		if m > 0 {
			hi = atoms[m-1].ratio
		}
		if B.Sign() > 0 {
			c := new(big.Rat).Sub(A, delta)
			c.Quo(c, B)
			if c.Cmp(lo) >= 0 && (hi == nil || c.Cmp(hi) <= 0) {
				return c
			}
		}
		if lo == one {
			return one
		}
		A.Add(A, atoms[m].A)
		B.Add(B, atoms[m].B)
	}
	return one
}

// TestCompositionModels cross-checks the composition models against the
// binomial sums they stand for, computed here without privacy-loss
// distributions: every pair of the survey and of the geometric mechanism
// has two loss values, ±ln 3 (probability 3/4 for +ln 3) and ±ln 2
// (probability 2/3 for +ln 2).
func TestCompositionModels(t *testing.T) {
	for _, m := range []struct {
		file  string
		atoms []atom
	}{
		{"models/composition_survey.dp", binomialPLD(big.NewRat(3, 1), big.NewRat(3, 4), 10)},
		{"models/composition_large.dp", binomialPLD(big.NewRat(2, 1), big.NewRat(2, 3), 1000)},
	} {
		res, err := dpcheck.CheckFile(context.Background(), m.file)
		if err != nil {
			t.Fatal(err)
		}
		if res.Prepared.Chain != nil || res.Prepared.Composition == nil {
			t.Errorf("%s: the product chain was built", m.file)
		}
		checked := 0
		for _, o := range res.Statements {
			h := o.Statement().Head()
			at := fmt.Sprintf("%s:%d: %s", m.file, h.Pos.Line, h.Text)
			if !o.Pass() {
				t.Errorf("%s: did not pass: %v", at, o.Err())
				continue
			}
			switch o := o.(type) {
			case *property.DPOutcome:
				s := o.Statement().(*property.DPCheck)
				d, err := deltaAt(t, m.atoms, s.Eps).Sub(exact.RatReal(s.Delta)).Sign()
				if err != nil {
					t.Fatal(err)
				}
				if o.Result.Holds != (d <= 0) {
					t.Errorf("%s: %v, the binomial sum says %v", at, o.Result.Holds, d <= 0)
				}
			case *property.DeltaOutcome:
				want := deltaAt(t, m.atoms, o.Result.Eps)
				if diff := cmp.Diff(want.String(), o.Result.Delta.String()); diff != "" {
					t.Errorf("%s: δ differs from the binomial sum (-binomial +dpcheck):\n%s", at, diff)
				}
			case *property.EpsOutcome:
				want := exact.LnOf(m.atoms[0].ratio)
				if d := o.Result.Delta; d.Sign() > 0 {
					want = exact.LnOf(tightC(m.atoms, d))
				}
				if !o.Result.Eps.Equal(want) {
					t.Errorf("%s: ε = %s, the binomial sum gives %s", at, o.Result.Eps, want)
				}
			case *property.ProfileOutcome:
				// Breakpoints at c = 1 and at every ratio above 1, δ there
				// the binomial sum.
				var want []string
				for i := len(m.atoms) - 1; i >= 0; i-- {
					a := m.atoms[i]
					if a.ratio.Cmp(big.NewRat(1, 1)) < 0 {
						continue
					}
					c := a.ratio
					if len(want) == 0 && c.Cmp(big.NewRat(1, 1)) > 0 {
						want = append(want, "1: "+deltaAt(t, m.atoms, exact.Eps{}).String())
					}
					want = append(want, c.RatString()+": "+deltaAt(t, m.atoms, exact.LnOf(c)).String())
				}
				var got []string
				for _, p := range o.Result.Points {
					got = append(got, p.C.RatString()+": "+p.Delta.RatString())
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s: profile differs from the binomial sums (-binomial +dpcheck):\n%s", at, diff)
				}
			default:
				continue
			}
			checked++
		}
		if checked < 5 {
			t.Errorf("%s: only %d statements cross-checked", m.file, checked)
		}
	}
}

// TestCompositionProductOnlyWhenNeeded: dp statements need no product
// chain; a formula or P=? builds it, within the limits, or the file is
// refused at the compose call naming the statement.
func TestCompositionProductOnlyWhenNeeded(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		src     string
		product bool
		err     string
	}{
		{"model compose(k = 3, model = survey())\nquery delta(eps = 0) expect 11/16\n", false, ""},
		{"model compose(k = 3, model = survey())\nquery delta(eps = 0) expect 11/16\nquery P=?[F out_Y_3]\n", true, ""},
		{"model compose(k = 3, model = survey())\nneighbours \"+\" ~ \"-\"\nquery delta(eps = 0) expect 11/16\n", false, ""},
		{"model compose(k = 3, model = survey())\nneighbours \"+\" ~ \"-\"\nquery delta(eps = 0) expect 11/16\ncheck D{ln(27), 0}[F out_Y_1]\n", true, ""},
		{"model compose(k = 40, model = survey())\nquery delta(eps = 0)\nquery P=?[F out_Y_3]\n", false,
			"t.dp:1:7: compose(k = 40, model = survey()) would have about 5,497,558,138,880 states; the limit is 10,000,000 states; line 3 (query P=?[F out_Y_3]) needs the chain of the runs (dp, eps, delta and profile over their final outputs do not)"},
	} {
		res, err := dpcheck.CheckSource(ctx, "t.dp", c.src)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%q: error %v, want %s", c.src, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", c.src, err)
		}
		if built := res.Prepared.Chain != nil; built != c.product {
			t.Errorf("%q: product built %v, want %v", c.src, built, c.product)
		}
		for _, o := range res.Statements {
			if !o.Pass() {
				t.Errorf("%q: %s: %s %v", c.src, o.Statement().Head().Text, o.Value(), o.Err())
			}
		}
		d := res.Statements[0].(*property.DeltaOutcome).Result
		if d.Runs != 3 || d.LossValues != 4 || d.Witness.Loss == nil || d.Witness.From.Name != "+" {
			t.Errorf("%q: δ computed over %d runs, %d loss values, witness %+v", c.src, d.Runs, d.LossValues, d.Witness)
		}
	}
}
