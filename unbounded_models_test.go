package dpcheck_test

import (
	"context"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/internal/reference"
	"github.com/dpcheck/dpcheck/verify"
)

// untruncatedCase ties a model of models/ with untruncated noise to the
// reference's encoding of the same mechanism over a window [lo, hi] of
// noisy values: clamped (the mass beyond folded onto the ends) or dropped
// (partial sums).
type untruncatedCase struct {
	file string
	// dist is the reference's distribution over the window, clamped or
	// dropped; draws are the draws a run of the input makes, for the
	// bound on what the window changes.
	dist   func(answers []int, lo, hi int, drop bool) reference.Dist
	draws  func(answers []int) []reference.Draw
	inputs []string
	output func(map[string]int) string
}

func svtCase(file string, v reference.SVTVariant, alphaT, alphaQ *big.Rat, k int, outputs []string) untruncatedCase {
	out := svtOutput(k, false)
	if v == reference.SVTAlg6 {
		out = func(o map[string]int) string {
			var b strings.Builder
			for _, n := range outputs {
				if o[n] == 1 {
					b.WriteString(reference.Top)
				} else {
					b.WriteString(reference.Bottom)
				}
			}
			return b.String()
		}
	}
	return untruncatedCase{
		file: file,
		dist: func(a []int, lo, hi int, drop bool) reference.Dist {
			return reference.SparseVector(v, reference.SVTParams{AlphaT: alphaT, AlphaQ: alphaQ, T: 1, Lo: lo, Hi: hi, Drop: drop}, a)
		},
		draws: func(a []int) []reference.Draw {
			ds := []reference.Draw{{Alpha: alphaT, Centre: 1}}
			if v != reference.SVTAlg5 {
				for _, x := range a {
					ds = append(ds, reference.Draw{Alpha: alphaQ, Centre: x})
				}
			}
			return ds
		},
		inputs: []string{"a1", "a2", "a3"},
		output: out,
	}
}

func untruncatedCases() []untruncatedCase {
	q, h, e := big.NewRat(1, 4), big.NewRat(1, 2), big.NewRat(1, 8)
	return []untruncatedCase{
		svtCase("sparse_vector_untruncated.dp", reference.SVTAlg1, q, h, 3, nil),
		svtCase("sparse_vector_alg4_untruncated.dp", reference.SVTAlg4, h, e, 3, nil),
		svtCase("sparse_vector_alg5_untruncated.dp", reference.SVTAlg5, q, nil, 3, nil),
		svtCase("sparse_vector_alg6_untruncated.dp", reference.SVTAlg6, q, q, 3, []string{"b1", "b2", "b3"}),
		{
			file: "noisy_max_untruncated.dp",
			dist: func(a []int, lo, hi int, drop bool) reference.Dist {
				if drop {
					return reference.NoisyMaxPartial(h, lo, hi, a, false)
				}
				return reference.NoisyMax(h, lo, hi, a, false)
			},
			draws: func(a []int) []reference.Draw {
				var ds []reference.Draw
				for _, x := range a {
					ds = append(ds, reference.Draw{Alpha: h, Centre: x})
				}
				return ds
			},
			inputs: []string{"a1", "a2", "a3"},
			output: func(o map[string]int) string { return fmt.Sprintf("i=%d", o["best"]) },
		},
	}
}

// TestUntruncatedAgainstWindows cross-checks the models with untruncated
// noise, whose every probability dpcheck computes as an exact infinite
// sum, with two computations over a window of noisy values in the
// reference, which knows nothing of dpcheck's sums: (a) the noise clamped
// to windows of half-width 10, 20 and 40 must lie within the window's
// bound of the exact value (a run differs only when a draw leaves the
// window), and so converge to it; (b) partial sums over the half-width-40
// window must be at most the exact value and short of it by at most the
// same bound — at that width below 10^-20.
func TestUntruncatedAgainstWindows(t *testing.T) {
	ctx := context.Background()
	for _, uc := range untruncatedCases() {
		t.Run(uc.file, func(t *testing.T) {
			path := filepath.Join("models", uc.file)
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			p, err := dpcheck.Config{}.Load(ctx, path, string(src))
			if err != nil {
				t.Fatal(err)
			}
			a, err := verify.Analyze(ctx, &verify.Model{Chain: p.Chain, Neighbours: p.Neighbours, Output: p.Output})
			if err != nil {
				t.Fatal(err)
			}
			moved := false // some clamped value differs from the exact one
			for _, s := range p.Chain.Inputs() {
				val := p.Chain.Valuation(s)
				answers := make([]int, len(uc.inputs))
				for i, n := range uc.inputs {
					x, _ := val.Get(n)
					answers[i] = int(x)
				}
				names, ps, _ := a.Distribution(s)
				exact := reference.Dist{}
				for i, n := range names {
					exact[uc.output(parseOutput(t, n))] = ps[i]
				}
				for _, w := range []int{10, 20, 40} {
					bound := reference.PartialBound(-w, w, uc.draws(answers)...)
					for _, drop := range []bool{false, true} {
						if drop && w != 40 {
							continue
						}
						ref := uc.dist(answers, -w, w, drop)
						for _, o := range unionKeys(exact, ref) {
							d := new(big.Rat).Sub(exact.At(o), ref.At(o))
							switch {
							case drop && d.Sign() < 0:
								t.Errorf("input %v, output %s: the partial sum %s exceeds the exact %s", answers, o, ref.At(o).FloatString(30), exact.At(o).RatString())
							case new(big.Rat).Abs(d).Cmp(bound) > 0:
								t.Errorf("input %v, output %s, window ±%d (dropped %v): exact %s, window %s: apart by more than the bound %s", answers, o, w, drop, exact.At(o).FloatString(20), ref.At(o).FloatString(20), bound.FloatString(30))
							}
							moved = moved || !drop && d.Sign() != 0
						}
					}
				}
			}
			if !moved && !strings.Contains(uc.file, "alg5") {
				t.Errorf("clamping never changed a probability: the comparison tells nothing")
			}
		})
	}
}

func unionKeys(a, b reference.Dist) []string {
	seen := map[string]bool{}
	var out []string
	for _, d := range []reference.Dist{a, b} {
		for _, k := range d.Outputs() {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}
