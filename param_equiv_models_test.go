package dpcheck_test

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/property"
	"github.com/google/go-cmp/cmp"
)

// TestYarrowParam: the outcomes of models/yarrow_param.dp, exactly. By
// hand: with 4 bits over {0..5}, from in=0 the plus sign (α/(1+α)) then
// three 0 bits (α³) end the draw at g = 4, so Pr[out=4] = α⁴/(1+α), where
// the geometric mechanism has (1−α)·α⁴/(1+α); outputs 0..3 agree. The
// difference α⁵/(1+α) has no root in (0, 1), so the witness is the
// simplest rational there, 1/2: 1/24 vs 1/48.
func TestYarrowParam(t *testing.T) {
	out := checkParamFile(t, "models/yarrow_param.dp")
	if len(out) != 7 {
		t.Fatalf("%d outcomes, want 7", len(out))
	}
	for i, n := range []int{6, 6, 9} {
		r := out[i].(*property.ParamEquivalenceOutcome).Result
		if !r.Equal || r.Inputs != n || r.Outputs != n || !cmp.Equal(r.InputVars, []string{"in"}) || !cmp.Equal(r.OutputVars, []string{"out"}) {
			t.Errorf("statement %d: %+v, want equal over %d inputs and outputs matched on in and out", i, r, n)
		}
	}
	r := out[3].(*property.ParamEquivalenceOutcome).Result
	d := r.Counterexample
	if r.Equal || d == nil {
		t.Fatalf("bits = 4: %+v, want a difference", r)
	}
	got := []string{d.Input, d.Output, d.PrA.Format("alpha"), d.PrB.Format("alpha"),
		d.Witness.RatString(), d.WitnessA.RatString(), d.WitnessB.RatString()}
	want := []string{"in=0", "out=4", "alpha^4/(alpha + 1)", "(alpha^4 − alpha^5)/(alpha + 1)", "1/2", "1/24", "1/48"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("bits = 4 (-want +got):\n%s", diff)
	}
	if o := out[5].(*property.ParamDPOutcome); o.Result.Holds || o.Region != "[1/3, 1)" || o.Result.Witness.Rat().Cmp(big.NewRat(1, 4)) != 0 {
		t.Errorf("dp(ln 3): holds %v on %s at %s, want violated, [1/3, 1), witness 1/4", o.Result.Holds, o.Region, o.Result.Witness)
	}
	if diff := cmp.Diff([]string{"ln(1/alpha) for alpha in (0, 1)"}, out[6].(*property.ParamEpsOutcome).Pieces); diff != "" {
		t.Errorf("tight ε (-want +got):\n%s", diff)
	}
}

// TestYarrowParamAgreesWithInstances: at rational points the parametric
// verdicts and values are the ordinary ones of builder.YarrowGeometric
// (dpcheck on the instance written with the number): the equivalences
// hold, the budget of 4 bits differs at in=0, out=4 by the two functions'
// values there, and the tight ε is ln(1/α). models/yarrow.dp checks the
// same equivalences at its points; its verdicts are the parametric ones.
func TestYarrowParamAgreesWithInstances(t *testing.T) {
	ctx := context.Background()
	out := checkParamFile(t, "models/yarrow_param.dp")
	d := out[3].(*property.ParamEquivalenceOutcome).Result.Counterexample
	eps := out[6].(*property.ParamEpsOutcome).Result
	for _, a := range []*big.Rat{big.NewRat(1, 4), big.NewRat(1, 2), big.NewRat(2, 3), big.NewRat(99, 100)} {
		x := a.RatString()
		src := fmt.Sprintf("model yarrow_geometric(alpha = %s, count_max = 5)\n"+
			"check equivalent(yarrow_geometric(alpha = %s, count_max = 8), truncated_geometric(alpha = %s, n = 8))\n"+
			"check equivalent(model, truncated_geometric(alpha = %s, n = 5))\n"+
			"check equivalent(yarrow_geometric(alpha = %s, count_max = 5, bits = 4), truncated_geometric(alpha = %s, n = 5)) expect violated\n"+
			"query eps(delta = 0)\n", x, x, x, x, x, x)
		res, err := dpcheck.CheckSource(ctx, "point.dp", src)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range res.Statements {
			if !o.Pass() {
				t.Errorf("at %s: %s: %s", x, o.Statement().Head().Text, o.Value())
			}
		}
		cx := res.Statements[2].(*property.EquivalenceOutcome).Result.Counterexample
		pa, err := d.PrA.Eval(a)
		if err != nil {
			t.Fatal(err)
		}
		pb, err := d.PrB.Eval(a)
		if err != nil {
			t.Fatal(err)
		}
		if cx == nil || cx.Input != "in=0" || cx.Output != "out=4" || cx.PrA.Cmp(pa) != 0 || cx.PrB.Cmp(pb) != 0 {
			t.Errorf("at %s: instance counterexample %+v, want in=0 out=4 with %s vs %s", x, cx, pa.RatString(), pb.RatString())
		}
		got, err := eps.Eps(a)
		if err != nil {
			t.Fatal(err)
		}
		if n, err := got.Cmp(res.Statements[3].(*property.EpsOutcome).Result.Eps); err != nil || n != 0 {
			t.Errorf("at %s: tight ε %s, the instance's %s", x, got, res.Statements[3].(*property.EpsOutcome).Result.Eps)
		}
	}
	// models/yarrow.dp: the same equivalences at fixed α, decided by the
	// ordinary check; every verdict there is the parametric one.
	res, err := dpcheck.CheckFile(ctx, "models/yarrow.dp")
	if err != nil {
		t.Fatal(err)
	}
	var verdicts []string
	for _, o := range res.Statements {
		verdicts = append(verdicts, o.Value())
	}
	if diff := cmp.Diff([]string{"holds", "holds", "holds", "holds", "violated"}, verdicts); diff != "" {
		t.Errorf("models/yarrow.dp (-want +got):\n%s", diff)
	}
	cx := res.Statements[4].(*property.EquivalenceOutcome).Result.Counterexample
	if cx.Input != d.Input || cx.Output != d.Output || cx.PrA.Cmp(d.WitnessA) != 0 || cx.PrB.Cmp(d.WitnessB) != 0 {
		t.Errorf("models/yarrow.dp at 1/2: %+v, want the parametric witness's %s %s %s vs %s", cx, d.Input, d.Output, d.WitnessA, d.WitnessB)
	}
}

// TestParamEquivalenceWithoutModel: a file of equivalences with a
// parameter needs no model of its own; a model without the parameter is
// the same chain for every value, so the geometric mechanism at α = 1/2
// equals yarrow's sampler only at 1/2 — at in=0, out=0, 2/3 against
// 1/(1+α), whose simplest other value in [1/4, 3/4] is 1/3 (3/4).
func TestParamEquivalenceWithoutModel(t *testing.T) {
	src := "param alpha in [1/4, 3/4]\n" +
		"check equivalent(yarrow_geometric(alpha = alpha, count_max = 3), truncated_geometric(alpha = alpha, n = 3)) for alpha\n" +
		"check equivalent(truncated_geometric(alpha = 1/2, n = 3), yarrow_geometric(alpha = alpha, count_max = 3)) for alpha expect violated\n"
	res, err := dpcheck.CheckSource(context.Background(), "mixed.dp", src)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Statements) != 2 || !res.Statements[0].Pass() || !res.Statements[1].Pass() {
		t.Fatalf("outcomes %v, want 2 passing", res.Statements)
	}
	o := res.Statements[1].(*property.ParamEquivalenceOutcome)
	if c := o.Statement().(*property.ParamEquivalenceCheck).Constant(); c != [2]bool{true, false} {
		t.Errorf("constant %v, want the first model only", c)
	}
	d := o.Result.Counterexample
	got := []string{d.Input, d.Output, d.PrA.Format("alpha"), d.PrB.Format("alpha"),
		d.Witness.RatString(), d.WitnessA.RatString(), d.WitnessB.RatString()}
	want := []string{"in=0", "out=0", "2/3", "1/(alpha + 1)", "1/3", "2/3", "3/4"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("difference (-want +got):\n%s", diff)
	}
}

// TestParamEquivalenceChainModel: a chain block with the parameter uses it,
// so check equivalent(model, survey()) for alpha compares it with the
// survey for every alpha (it was refused: "neither model uses the
// parameter"). The chain answers Y with alpha from both inputs: at x=0,
// y=0 it gives 1 − alpha against survey()'s 3/4, first different at the
// simplest rational 1/2 (1/2 against 3/4); model against itself holds.
func TestParamEquivalenceChainModel(t *testing.T) {
	src := "param alpha in (0, 1)\nchain {\n  state p0 (x = 0) [in_0]\n  state p1 (x = 1) [in_1]\n  state Y (y = 1)\n  state N (y = 0)\n" +
		"  p0 -> Y : alpha, N : 1 - alpha\n  p1 -> Y : alpha, N : 1 - alpha\n}\ninputs p0, p1\nneighbours p0 ~ p1\n" +
		"check equivalent(model, survey()) for alpha expect violated\ncheck equivalent(model, model) for alpha expect holds\n"
	res, err := dpcheck.CheckSource(context.Background(), "chain.dp", src)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Statements) != 2 || !res.Statements[0].Pass() || !res.Statements[1].Pass() {
		t.Fatalf("outcomes %v, want 2 passing", res.Statements)
	}
	o := res.Statements[0].(*property.ParamEquivalenceOutcome)
	if c := o.Statement().(*property.ParamEquivalenceCheck).Constant(); c != [2]bool{false, true} {
		t.Errorf("constant %v, want the second model only", c)
	}
	d := o.Result.Counterexample
	got := []string{d.Input, d.Output, d.PrA.Format("alpha"), d.PrB.Format("alpha"),
		d.Witness.RatString(), d.WitnessA.RatString(), d.WitnessB.RatString()}
	want := []string{"x=0", "y=0", "1 − alpha", "3/4", "1/2", "1/2", "3/4"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("difference (-want +got):\n%s", diff)
	}
}
