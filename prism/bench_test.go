package prism_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/prism"
)

// BenchmarkCrowds loads Storm's crowds-5-5.pm (parse, translate) and
// explores its 8 607 states and 15 113 transitions exactly.
//
//	go test ./prism -run '^$' -bench Crowds -benchmem
func BenchmarkCrowds(b *testing.B) {
	path := filepath.Join(externalModels, "storm_crowds", "crowds-5-5.pm")
	src, err := os.ReadFile(path)
	if err != nil {
		b.Skipf("SKIP: the external models are not available (%v; set DPCHECK_EXTERNAL_MODELS)", err)
	}
	ctx := context.Background()
	for b.Loop() {
		mf, err := prism.ParseModel(path, string(src))
		if err != nil {
			b.Fatal(err)
		}
		m, err := prism.NewModel(mf, prism.Options{})
		if err != nil {
			b.Fatal(err)
		}
		mech, err := m.Build(ctx, model.Limits{})
		if err != nil {
			b.Fatal(err)
		}
		if c := mech.Chain; c.NumStates() != 8607 || c.NumTransitions() != 15113 {
			b.Fatalf("%d states, %d transitions", c.NumStates(), c.NumTransitions())
		}
	}
}
