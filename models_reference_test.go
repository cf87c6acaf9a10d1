package dpcheck_test

import (
	"context"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/internal/reference"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/spec"
	"github.com/dpcheck/dpcheck/verify"
)

// referenceCase ties a model of models/ to an independent encoding of the
// same mechanism in internal/reference: how its inputs and outputs are
// keyed there.
type referenceCase struct {
	file   string
	model  func() reference.Model
	input  func(chain.Valuation) string
	output func(map[string]int) string
}

func vector(names ...string) func(chain.Valuation) string {
	return func(v chain.Valuation) string {
		xs := make([]int, len(names))
		for i, n := range names {
			x, ok := v.Get(n)
			if !ok {
				return "missing " + n
			}
			xs[i] = int(x)
		}
		return reference.VectorKey(xs)
	}
}

// svtOutput keys "top = i" (and the value out) as the reference's answer
// strings: ⊥ for each query below the threshold, then ⊤ (or the value).
func svtOutput(k int, value bool) func(map[string]int) string {
	return func(o map[string]int) string {
		top := o["top"]
		if top == 0 {
			return strings.Repeat(reference.Bottom, k)
		}
		if value {
			return strings.Repeat(reference.Bottom, top-1) + strconv.Itoa(o["out"])
		}
		return strings.Repeat(reference.Bottom, top-1) + reference.Top
	}
}

func referenceCases() []referenceCase {
	svt := reference.SVTParams{AlphaT: big.NewRat(1, 4), AlphaQ: big.NewRat(1, 2), T: 1, Lo: -4, Hi: 6}
	half := big.NewRat(1, 2)
	return []referenceCase{
		{"sparse_vector.dp", func() reference.Model { return reference.SparseVectorModel(reference.SVTAlg1, svt, 3, 0, 2) },
			vector("a1", "a2", "a3"), svtOutput(3, false)},
		{"sparse_vector_alg3.dp", func() reference.Model { return reference.SparseVectorModel(reference.SVTAlg3, svt, 5, 0, 1) },
			vector("a1", "a2", "a3", "a4", "a5"), svtOutput(5, true)},
		{"sparse_vector_alg5.dp", func() reference.Model { return reference.SparseVectorModel(reference.SVTAlg5, svt, 3, 0, 2) },
			vector("a1", "a2", "a3"), svtOutput(3, false)},
		{"noisy_max.dp", func() reference.Model { return reference.NoisyMaxModel(half, -3, 5, 3, 0, 2, false) },
			vector("a1", "a2", "a3"), func(o map[string]int) string { return fmt.Sprintf("i=%d", o["best"]) }},
		{"noisy_max_value.dp", func() reference.Model { return reference.NoisyMaxModel(half, -3, 5, 3, 0, 2, true) },
			vector("a1", "a2", "a3"), func(o map[string]int) string { return fmt.Sprintf("i=%d,v=%d", o["best"], o["top"]) }},
		{"histogram.dp", func() reference.Model { return reference.HistogramModel(half, 3, 2) },
			vector("h1", "h2"), func(o map[string]int) string { return fmt.Sprintf("%d,%d", o["o1"], o["o2"]) }},
		{"above_threshold_module.dp", func() reference.Model { return reference.AboveThresholdModel(big.NewRat(1, 4), half, 5, 4) },
			func(v chain.Valuation) string {
				d, _ := v.Get("d")
				t, _ := v.Get("t")
				return reference.AboveThresholdKey(int(d), int(t))
			},
			func(o map[string]int) string {
				if o["q"] == 0 {
					return "never"
				}
				return fmt.Sprintf("halt_%d", o["q"])
			}},
		{"geometric_module.dp", func() reference.Model { return reference.TruncatedGeometricModel(half, 5) },
			vector("in"), func(o map[string]int) string { return strconv.Itoa(o["out"]) }},
	}
}

// parseOutput reads an output name such as "top=3" or "(top=3, out=-1)".
func parseOutput(t *testing.T, name string) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, part := range strings.Split(strings.Trim(name, "()"), ", ") {
		k, v, ok := strings.Cut(part, "=")
		x, err := strconv.Atoi(v)
		if !ok || err != nil {
			t.Fatalf("output %q is not a valuation", name)
		}
		out[k] = x
	}
	return out
}

// analyzeModel loads models/file, its constants given values by consts,
// and analyses its chain.
func analyzeModel(t *testing.T, file string, consts map[string]*big.Rat) (*property.Prepared, *verify.Analysis) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join("models", file)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := spec.Options{Consts: consts}.Load(ctx, path, string(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := property.Prepare(ctx, prog, model.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	a, err := verify.Analyze(ctx, &verify.Model{Chain: p.Chain, Neighbours: p.Neighbours, Output: p.Output})
	if err != nil {
		t.Fatal(err)
	}
	return p, a
}

// TestModelsAgainstReference cross-checks the modules of models/ against
// internal/reference, which computes the same mechanisms by direct
// enumeration, without chains: every input's whole output distribution,
// the neighbour relation, the tight ε at δ = 0 and the tight δ at ε = 0.
func TestModelsAgainstReference(t *testing.T) {
	for _, rc := range referenceCases() {
		t.Run(rc.file, func(t *testing.T) {
			p, a := analyzeModel(t, rc.file, nil)
			compareWithReference(t, p, a, rc)
		})
	}
}

// compareWithReference compares the chain p and its analysis a with the
// reference encoding of rc: the output distribution of every input, the
// neighbours, the tight ε at δ = 0 and the tight δ at ε = 0.
func compareWithReference(t *testing.T, p *property.Prepared, a *verify.Analysis, rc referenceCase) {
	t.Helper()
	ctx := context.Background()
	ratCmp := cmp.Comparer(func(a, b *big.Rat) bool { return a.Cmp(b) == 0 })
	{
		{
			ref := rc.model()
			key := map[int]string{}
			got := map[string]reference.Dist{}
			for _, s := range p.Chain.Inputs() {
				k := rc.input(p.Chain.Valuation(s))
				key[s] = k
				names, ps, ok := a.Distribution(s)
				if !ok {
					t.Fatalf("input %s has no distribution", k)
				}
				d := reference.Dist{}
				for i, n := range names {
					d[rc.output(parseOutput(t, n))] = ps[i]
				}
				got[k] = d
			}
			if diff := cmp.Diff(ref.Dist, got, ratCmp); diff != "" {
				t.Errorf("output distributions (-reference +model):\n%s", diff)
			}
			var gotPairs, wantPairs []string
			for _, pr := range p.Neighbours {
				a, b := key[pr[0]], key[pr[1]]
				if a > b {
					a, b = b, a
				}
				gotPairs = append(gotPairs, a+" ~ "+b)
			}
			for _, pr := range ref.Pairs {
				a, b := pr.A, pr.B
				if a > b {
					a, b = b, a
				}
				wantPairs = append(wantPairs, a+" ~ "+b)
			}
			sort.Strings(gotPairs)
			sort.Strings(wantPairs)
			if diff := cmp.Diff(wantPairs, gotPairs); diff != "" {
				t.Errorf("neighbours (-reference +model):\n%s", diff)
			}
			eps, err := a.TightEpsilon(ctx, new(big.Rat))
			if err != nil {
				t.Fatal(err)
			}
			re := ref.TightEps()
			if re.Infinite != eps.Eps.IsInf() || (!re.Infinite && !eps.Eps.Equal(exact.LnOf(re.Ratio))) {
				t.Errorf("tight ε at δ = 0: %s, reference %v", eps.Eps, re)
			}
			delta, err := a.TightDelta(ctx, exact.Eps{})
			if err != nil {
				t.Fatal(err)
			}
			if d, ok := delta.Delta.Rat(); !ok || d.Cmp(ref.TV().Delta) != 0 {
				t.Errorf("tight δ at ε = 0: %s, reference %v", delta.Delta, ref.TV())
			}
		}
	}
}

// arrayVector keys the elements name[1..k] of an input as the
// reference's vectors.
func arrayVector(name string, k int) func(chain.Valuation) string {
	names := make([]string, k)
	for i := range names {
		names[i] = fmt.Sprintf("%s[%d]", name, i+1)
	}
	return vector(names...)
}

// TestArrayModelsAgainstReference: the models written once for every K
// with arrays (models/*_k.dp), run with K = 1..5 given from outside (1..4
// for the histogram, whose chain has 1.4 million states at K = 5), agree
// with the reference encodings for that K in every output distribution,
// the neighbours, ε and δ — the values the files they generalise state for
// K = 3 (and 5) included.
func TestArrayModelsAgainstReference(t *testing.T) {
	svt := reference.SVTParams{AlphaT: big.NewRat(1, 4), AlphaQ: big.NewRat(1, 2), T: 1, Lo: -4, Hi: 6}
	half := big.NewRat(1, 2)
	for k := 1; k <= 5; k++ {
		cases := []referenceCase{
			{"sparse_vector_k.dp", func() reference.Model { return reference.SparseVectorModel(reference.SVTAlg1, svt, k, 0, 2) },
				arrayVector("a", k), svtOutput(k, false)},
			{"sparse_vector_alg3_k.dp", func() reference.Model { return reference.SparseVectorModel(reference.SVTAlg3, svt, k, 0, 1) },
				arrayVector("a", k), svtOutput(k, true)},
			{"sparse_vector_alg5_k.dp", func() reference.Model { return reference.SparseVectorModel(reference.SVTAlg5, svt, k, 0, 2) },
				arrayVector("a", k), svtOutput(k, false)},
			{"noisy_max_k.dp", func() reference.Model { return reference.NoisyMaxModel(half, -3, 5, k, 0, 2, false) },
				arrayVector("a", k), func(o map[string]int) string { return fmt.Sprintf("i=%d", o["best"]) }},
		}
		if k <= 4 {
			cases = append(cases, referenceCase{"histogram_k.dp", func() reference.Model { return reference.HistogramModel(half, 3, k) },
				arrayVector("h", k), func(o map[string]int) string {
					xs := make([]string, k)
					for i := range xs {
						xs[i] = strconv.Itoa(o[fmt.Sprintf("o[%d]", i+1)])
					}
					return strings.Join(xs, ",")
				}})
		}
		for _, rc := range cases {
			t.Run(fmt.Sprintf("%s K=%d", rc.file, k), func(t *testing.T) {
				p, a := analyzeModel(t, rc.file, map[string]*big.Rat{"K": big.NewRat(int64(k), 1)})
				compareWithReference(t, p, a, rc)
			})
		}
	}
}
