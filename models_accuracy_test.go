package dpcheck_test

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/internal/reference"
	"github.com/dpcheck/dpcheck/property"
)

// The accuracy models (expected(f)) against the independent encodings of
// internal/reference: every input's expected value recomputed from the
// reference's output distribution.

// expectedOutcomes runs a model file and returns its expected(f)
// outcomes, in order.
func expectedOutcomes(t *testing.T, file string) ([]*property.ExpectedOutcome, []*property.ParamExpectedOutcome) {
	t.Helper()
	res, err := dpcheck.CheckFile(context.Background(), file)
	if err != nil {
		t.Fatal(err)
	}
	var plain []*property.ExpectedOutcome
	var param []*property.ParamExpectedOutcome
	for _, o := range res.Statements {
		if o.Err() != nil {
			t.Fatalf("line %d: %v", o.Statement().Head().Pos.Line, o.Err())
		}
		switch o := o.(type) {
		case *property.ExpectedOutcome:
			plain = append(plain, o)
		case *property.ParamExpectedOutcome:
			param = append(param, o)
		}
	}
	return plain, param
}

// geometricAccuracy is E|out − in| and Pr(out = in) of the truncated
// α-geometric mechanism over {0..n} at input x, from the reference's row.
func geometricAccuracy(alpha *big.Rat, n, x int) (absErr, exact *big.Rat) {
	row := reference.TruncatedGeometric(alpha, n, x)
	absErr, exact = new(big.Rat), new(big.Rat)
	for i, p := range row.P {
		z := row.Lo + i
		d := z - x
		if d < 0 {
			d = -d
		}
		absErr.Add(absErr, new(big.Rat).Mul(p, big.NewRat(int64(d), 1)))
		if z == x {
			exact.Set(p)
		}
	}
	return absErr, exact
}

func TestGeometricAccuracyAgainstReference(t *testing.T) {
	plain, _ := expectedOutcomes(t, "models/geometric_accuracy.dp")
	if len(plain) != 4 {
		t.Fatalf("%d expected(f) statements, want 4", len(plain))
	}
	half := big.NewRat(1, 2)
	for _, o := range plain {
		exactAnswer := o.Statement().Head().Pos.Line == 14
		for _, v := range o.Values {
			x, _ := v.State.Valuation.Get("in")
			absErr, exact := geometricAccuracy(half, 5, int(x))
			want := absErr
			if exactAnswer {
				want = exact
			}
			if v.Value.Cmp(want) != 0 {
				t.Errorf("line %d, in=%d: %s, the reference gives %s", o.Statement().Head().Pos.Line, x, v.Value.RatString(), want.RatString())
			}
		}
	}
}

func TestGeometricAccuracyParamAgainstReference(t *testing.T) {
	_, param := expectedOutcomes(t, "models/geometric_accuracy_param.dp")
	if len(param) != 4 {
		t.Fatalf("%d expected(f) statements for every alpha, want 4", len(param))
	}
	compared := 0
	for _, o := range param {
		exactAnswer := o.Statement().Head().Pos.Line == 14
		for _, v := range o.Values {
			x, _ := v.State.Valuation.Get("in")
			for _, a := range []*big.Rat{big.NewRat(1, 7), big.NewRat(1, 2), big.NewRat(2, 3), big.NewRat(99, 100)} {
				got, err := v.F.Eval(a)
				if err != nil {
					t.Fatal(err)
				}
				absErr, exact := geometricAccuracy(a, 5, int(x))
				want := absErr
				if exactAnswer {
					want = exact
				}
				if got.Cmp(want) != 0 {
					t.Errorf("line %d, in=%d, alpha=%s: %s, the reference gives %s", o.Statement().Head().Pos.Line, x, a.RatString(), got.RatString(), want.RatString())
				}
				compared++
			}
		}
	}
	if compared != 4*6*4 {
		t.Errorf("%d values compared", compared)
	}
}

func TestNoisyMaxAccuracyAgainstReference(t *testing.T) {
	plain, _ := expectedOutcomes(t, "models/noisy_max_accuracy.dp")
	if len(plain) != 5 {
		t.Fatalf("%d expected(f) statements, want 5", len(plain))
	}
	for _, o := range plain {
		line := o.Statement().Head().Pos.Line
		gap := line < 30 // the gap statements come first, then Pr(maximal)
		if len(o.Values) != 27 {
			t.Fatalf("line %d: %d inputs", line, len(o.Values))
		}
		for _, v := range o.Values {
			a := make([]int, 3)
			for i := range a {
				x, _ := v.State.Valuation.Get(fmt.Sprintf("a%d", i+1))
				a[i] = int(x)
			}
			top := max(a[0], a[1], a[2])
			want := new(big.Rat)
			for out, p := range reference.NoisyMax(big.NewRat(1, 2), -3, 5, a, false) {
				var i int
				if _, err := fmt.Sscanf(out, "i=%d", &i); err != nil {
					t.Fatal(err)
				}
				switch {
				case gap:
					want.Add(want, new(big.Rat).Mul(p, big.NewRat(int64(top-a[i-1]), 1)))
				case a[i-1] == top:
					want.Add(want, p)
				}
			}
			if v.Value.Cmp(want) != 0 {
				t.Errorf("line %d, a=%v: %s, the reference gives %s", line, a, v.Value.RatString(), want.RatString())
			}
		}
	}
}

// TestExpectedRefusedOnMergedTails: expected(f) that reads an unbounded
// output is refused on its own line, since the merged tails stand for
// infinitely many of its values (a reviewer found them read at the
// input's value); f reading only the input is computed.
func TestExpectedRefusedOnMergedTails(t *testing.T) {
	src := `module geometric
  input a : [0..4];
  out : int;
  done : bool init false;
  [] !done -> (out' ~ geometric(1/2, a)) & (done' = true);
endmodule
outputs var out
neighbours |a - a'| <= 1
query expected(abs(out - a))
query expected(a)
`
	res, err := dpcheck.CheckSource(context.Background(), "u.dp", src)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Statements) != 2 {
		t.Fatalf("%d statements", len(res.Statements))
	}
	want := "u.dp:9:20: expected(f) reads out, which the end state out≥5 lacks: it stands for many values of out (the merged tail of an unbounded output), and expected values over such tails are not supported"
	if err := res.Statements[0].Err(); err == nil || err.Error() != want {
		t.Errorf("expected(abs(out - a)): %v, want %s", err, want)
	}
	if o := res.Statements[1]; !o.Pass() {
		t.Errorf("expected(a): %s %v", o.Value(), o.Err())
	}
}
