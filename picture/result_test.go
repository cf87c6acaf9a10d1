package picture

import (
	"context"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/google/go-cmp/cmp"
)

// TestProfileInputs: --profile draws over the output space of the first
// violated dp check (here traces of 5 steps, not the final state), with
// that check's counterexample pair, and marks only the checks over it.
func TestProfileInputs(t *testing.T) {
	ctx := context.Background()
	r, err := dpcheck.CheckFile(ctx, "../models/above_threshold_loop.dp")
	if err != nil {
		t.Fatal(err)
	}
	title, curves, points, err := ProfileOf(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	if want := "above_threshold_loop.dp — privacy profile over traces of {⊤, ⊥} over 5 steps"; title != want {
		t.Errorf("title %q, want %q", title, want)
	}
	var names []string
	for _, c := range curves {
		names = append(names, c.Name)
	}
	if diff := cmp.Diff([]string{"δ(ε), worst pair", "δ(ε), d4_t5 vs d5_t5"}, names); diff != "" {
		t.Errorf("curves (-want +got):\n%s", diff)
	}
	ln16, _ := exact.Ln(big.NewRat(16, 1))
	if len(points) != 1 || !points[0].Eps.Equal(ln16) || points[0].Delta.Sign() != 0 || points[0].Holds {
		t.Errorf("points %+v, want one violated dp(ln(16), 0)", points)
	}
}
