package verify_test

import (
	"context"
	"errors"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/verify"
)

// TestProfileReferenceModels: Profile against the reference algorithm on
// the builders' mechanisms, and the geometric n = 5 profile by value.
func TestProfileReferenceModels(t *testing.T) {
	r := func(s string) *big.Rat {
		x, ok := new(big.Rat).SetString(s)
		if !ok {
			t.Fatalf("bad rational %q", s)
		}
		return x
	}
	geo, err := builder.TruncatedGeometric(r("1/2"), 5)
	if err != nil {
		t.Fatal(err)
	}
	survey, err := builder.Survey(r("1/2"), r("1/2"))
	if err != nil {
		t.Fatal(err)
	}
	models := []struct {
		name  string
		build func() (*model.Mechanism, error)
	}{
		{"geometric(1/2, 5)", func() (*model.Mechanism, error) { return geo, nil }},
		{"geometric(1/3, 30)", func() (*model.Mechanism, error) { return builder.TruncatedGeometric(r("1/3"), 30) }},
		{"geometric(1/2, 10, sens 3)", func() (*model.Mechanism, error) { return builder.TruncatedGeometricSensitivity(r("1/2"), 10, 3) }},
		{"laplace_decision(999/1000, 60, 0..120)", func() (*model.Mechanism, error) {
			return builder.LaplaceDecision(r("999/1000"), 60, 0, 120)
		}},
		{"laplace_decision(1/2, 5, 0..10)", func() (*model.Mechanism, error) { return builder.LaplaceDecision(r("1/2"), 5, 0, 10) }},
		{"cutoff_decision(9/10, 10, 0..20)", func() (*model.Mechanism, error) { return builder.CutoffDecision(r("9/10"), 10, 0, 20) }},
		{"generalized_decision(9/10, 1/100, 10, 0..20)", func() (*model.Mechanism, error) {
			return builder.GeneralizedDecision(r("9/10"), r("1/100"), 10, 0, 20)
		}},
		{"survey(1/2, 1/2)", func() (*model.Mechanism, error) { return survey, nil }},
		{"survey(1/3, 3/4)", func() (*model.Mechanism, error) { return builder.Survey(r("1/3"), r("3/4")) }},
		{"rr_k(1/2, 4)", func() (*model.Mechanism, error) { return builder.RandomizedResponseK(r("1/2"), 4) }},
		{"above_threshold(1/4, 1/2, 3, 2, >=)", func() (*model.Mechanism, error) {
			return builder.AboveThreshold(r("1/4"), r("1/2"), 3, 2, builder.AtLeast)
		}},
		{"compose(3, survey)", func() (*model.Mechanism, error) { return builder.Compose(3, survey) }},
	}
	for _, m := range models {
		mech, err := m.build()
		if err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		a, err := verify.Analyze(context.Background(), &verify.Model{Chain: mech.Chain, Neighbours: mech.Neighbours})
		if err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		verify.CheckProfileAgainstRef(t, m.name, a, len(mech.Neighbours) <= 40)
	}

	a, err := verify.Analyze(context.Background(), &verify.Model{Chain: geo.Chain, Neighbours: geo.Neighbours})
	if err != nil {
		t.Fatal(err)
	}
	p, err := a.Profile(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, cd := range [][2]string{{"1", "1/3"}, {"5/4", "1/4"}, {"3/2", "1/6"}, {"7/4", "1/12"}, {"2", "0"}, {"3", "0"}} {
		if got := p.DeltaAt(r(cd[0])); got.Cmp(r(cd[1])) != 0 {
			t.Errorf("geometric n=5: δ at c = %s is %s, want %s", cd[0], got.RatString(), cd[1])
		}
	}
}

// TestProfileCancelled: every stage of Profile stops on a cancelled
// context, including a cancellation during the pairs.
func TestProfileCancelled(t *testing.T) {
	m, err := builder.LaplaceDecision(big.NewRat(99, 100), 200, 0, 400)
	if err != nil {
		t.Fatal(err)
	}
	a, err := verify.Analyze(context.Background(), &verify.Model{Chain: m.Chain, Neighbours: m.Neighbours})
	if err != nil {
		t.Fatal(err)
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := a.Profile(done); !errors.Is(err, context.Canceled) {
		t.Errorf("Profile on a cancelled context: %v", err)
	}
	ctx, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	ctx = verify.WithProgress(ctx, func(p verify.Progress) {
		if p.Done >= 10 {
			cancel2()
		}
	})
	if _, err := a.Profile(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Profile cancelled during the pairs: %v", err)
	}

	verify.CheckProfileStagesCancelled(t, a, done)
}
