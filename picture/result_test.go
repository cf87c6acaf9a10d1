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

// TestLumpedPictures: with lumping, the chain drawn is the model's own
// and its highlight, the profile's curves and points are the same.
func TestLumpedPictures(t *testing.T) {
	ctx := context.Background()
	ratCmp := cmp.Comparer(func(x, y *big.Rat) bool { return x.Cmp(y) == 0 })
	epsCmp := cmp.Comparer(func(x, y exact.Eps) bool { return x.Equal(y) })
	for _, f := range []string{"../models/above_threshold_k5.dp", "../models/above_threshold_loop.dp", "../models/survey_bug.dp"} {
		var hl [2]Highlight
		var curves [2][]Curve
		var points [2][]Point
		for i, lump := range []bool{false, true} {
			r, err := dpcheck.Config{Lump: lump}.CheckFile(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			if lump && len(r.Lumped) == 0 {
				t.Errorf("%s: not lumped", f)
			}
			hl[i] = HighlightOf(r)
			if _, curves[i], points[i], err = ProfileOf(ctx, r); err != nil {
				t.Fatal(err)
			}
		}
		if diff := cmp.Diff(hl[0], hl[1]); diff != "" {
			t.Errorf("%s: highlights differ (-plain +lumped):\n%s", f, diff)
		}
		if diff := cmp.Diff(curves[0], curves[1], ratCmp, epsCmp); diff != "" {
			t.Errorf("%s: profile curves differ (-plain +lumped):\n%s", f, diff)
		}
		if diff := cmp.Diff(points[0], points[1], ratCmp, epsCmp); diff != "" {
			t.Errorf("%s: profile points differ (-plain +lumped):\n%s", f, diff)
		}
	}
}
