package dpcheck_test

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dpcheck/dpcheck/internal/reference"
)

// untruncatedCase ties a model of models/ with untruncated noise to the
// reference's three encodings of the same mechanism (internal/reference,
// untruncated.go): clamped to a window, partial sums with a proved bound,
// and closed form.
type untruncatedCase struct {
	file    string
	inputs  []string
	clamped func(a []int, lo, hi int) reference.Dist
	escape  func(a []int, lo, hi int) *big.Rat
	partial func(a []int, n int) reference.Bounds
	exact   func(a []int) reference.Dist
	// output keys the model's output (its name, parsed) as the reference.
	output func(name string) string
}

func svtCase(file string, alg reference.SVTAlg, k int) untruncatedCase {
	names := make([]string, k)
	for i := range names {
		names[i] = fmt.Sprintf("a%d", i+1)
	}
	return untruncatedCase{file: file, inputs: names,
		clamped: func(a []int, lo, hi int) reference.Dist { return alg.Clamped(lo, hi, a) },
		escape:  func(a []int, lo, hi int) *big.Rat { return alg.Escape(lo, hi, a) },
		partial: func(a []int, n int) reference.Bounds { return alg.Partial(n, a) },
		exact:   func(a []int) reference.Dist { return alg.Exact(a, 0, 0) },
		output: func(name string) string {
			o := parseOutputMap(name)
			if top, ok := o["top"]; ok {
				return strconv.Itoa(top)
			}
			return fmt.Sprintf("%d,%d,%d", o["b1"], o["b2"], o["b3"])
		}}
}

// thresholdCase is the builder above_threshold_untruncated with threshold
// noise 1/4 and answer noise 1/2 (Lyu1's) and k queries: sparse vector with
// every answer d and the threshold t of the input (d, t).
func thresholdCase(file string, k int) untruncatedCase {
	alg := func(a []int) (reference.SVTAlg, []int) {
		s := reference.Lyu1()
		s.T = a[1]
		answers := make([]int, k)
		for i := range answers {
			answers[i] = a[0]
		}
		return s, answers
	}
	return untruncatedCase{file: file, inputs: []string{"d", "t"},
		clamped: func(a []int, lo, hi int) reference.Dist { s, q := alg(a); return s.Clamped(lo, hi, q) },
		escape:  func(a []int, lo, hi int) *big.Rat { s, q := alg(a); return s.Escape(lo, hi, q) },
		partial: func(a []int, n int) reference.Bounds { s, q := alg(a); return s.Partial(n, q) },
		exact:   func(a []int) reference.Dist { s, q := alg(a); return s.Exact(q, 0, 0) },
		output: func(name string) string {
			if name == "never" {
				return "0"
			}
			return strings.TrimPrefix(name, "halt_")
		}}
}

func untruncatedCases() []untruncatedCase {
	half := reference.NoisyMaxAlpha()
	return []untruncatedCase{
		{file: "geometric_untruncated.dp", inputs: []string{"a"},
			clamped: func(a []int, lo, hi int) reference.Dist { return reference.GeometricClamped(half, a[0], lo, hi) },
			escape:  func(a []int, lo, hi int) *big.Rat { return reference.EscapeBound(half, lo, hi, a[0]) },
			partial: func(a []int, n int) reference.Bounds { return reference.GeometricBounds(half, a[0], n) },
			exact:   func(a []int) reference.Dist { return reference.GeometricExact(half, a[0], -1, 4) },
			output: func(name string) string {
				switch name {
				case "out≥5":
					return reference.AboveKey
				case "out≤-2":
					return reference.BelowKey
				}
				return strconv.Itoa(parseOutputMap(name)["out"])
			}},
		svtCase("sparse_vector_untruncated.dp", reference.Lyu1(), 3),
		svtCase("sparse_vector_alg4_untruncated.dp", reference.Lyu4(), 3),
		svtCase("sparse_vector_alg5_untruncated.dp", reference.Lyu5(), 3),
		svtCase("sparse_vector_alg6_untruncated.dp", reference.Lyu6(), 3),
		{file: "geometric_untruncated_builder.dp", inputs: []string{"in"},
			clamped: func(a []int, lo, hi int) reference.Dist { return reference.GeometricClamped(half, a[0], lo, hi) },
			escape:  func(a []int, lo, hi int) *big.Rat { return reference.EscapeBound(half, lo, hi, a[0]) },
			partial: func(a []int, n int) reference.Bounds { return reference.GeometricBounds(half, a[0], n) },
			exact:   func(a []int) reference.Dist { return reference.GeometricExact(half, a[0], 0, 4) },
			output: func(name string) string {
				switch name {
				case "out≥5":
					return reference.AboveKey
				case "out≤-1":
					return reference.BelowKey
				}
				return strings.TrimPrefix(name, "t") // the output state t<l>
			}},
		thresholdCase("above_threshold_untruncated.dp", 4),
		{file: "noisy_max_untruncated.dp", inputs: []string{"a1", "a2", "a3"},
			clamped: func(a []int, lo, hi int) reference.Dist { return reference.NoisyMaxClamped(half, lo, hi, a, false) },
			escape:  func(a []int, lo, hi int) *big.Rat { return reference.EscapeBound(half, lo, hi, a...) },
			partial: func(a []int, n int) reference.Bounds { return reference.NoisyMaxBounds(half, n, a, false) },
			exact:   func(a []int) reference.Dist { return reference.NoisyMaxExact(half, a, false, 0, 0) },
			output:  func(name string) string { return strconv.Itoa(parseOutputMap(name)["best"]) }},
	}
}

// parseOutputMap reads "top=3" or "(b1=0, b2=1, b3=0)".
func parseOutputMap(name string) map[string]int {
	out := map[string]int{}
	for _, part := range strings.Split(strings.Trim(name, "()"), ", ") {
		k, v, _ := strings.Cut(part, "=")
		x, _ := strconv.Atoi(v)
		out[k] = x
	}
	return out
}

// TestUntruncatedAgainstReference cross-checks the models with untruncated
// noise, whose every probability dpcheck computes as an exact infinite sum
// (package geosum), with internal/reference, which knows nothing of those
// sums: every input's output distribution must equal the reference's
// closed form exactly; lie, with the noise clamped to windows of
// half-width 10, 20 and 40, within the window's escape bound of the clamped
// distribution (a run differs only when a draw leaves the window), and so
// converge to it; and lie in the partial sums' intervals [S, S + Tail] over
// |z| ≤ 40.
func TestUntruncatedAgainstReference(t *testing.T) {
	ratCmp := cmp.Comparer(func(a, b *big.Rat) bool { return a.Cmp(b) == 0 })
	for _, uc := range untruncatedCases() {
		t.Run(uc.file, func(t *testing.T) {
			p, a := analyzeModel(t, uc.file)
			moved := false // some clamped probability differs from the exact one
			for _, s := range p.Chain.Inputs() {
				val := p.Chain.Valuation(s)
				answers := make([]int, len(uc.inputs))
				for i, n := range uc.inputs {
					x, _ := val.Get(n)
					answers[i] = int(x)
				}
				names, ps, _ := a.Distribution(s)
				got := reference.Dist{}
				for i, n := range names {
					got[uc.output(n)] = ps[i]
				}
				if diff := cmp.Diff(uc.exact(answers), got, ratCmp); diff != "" {
					t.Errorf("input %v: output distribution (-closed form +model):\n%s", answers, diff)
				}
				if strings.HasPrefix(uc.file, "geometric") {
					continue // its merged tails have no clamped counterpart: the closed form checked them
				}
				for _, w := range []int{10, 20, 40} {
					bound := uc.escape(answers, -w, w)
					ref := uc.clamped(answers, -w, w)
					for _, o := range unionKeys(got, ref) {
						d := new(big.Rat).Sub(got.At(o), ref.At(o))
						moved = moved || d.Sign() != 0
						if d.Abs(d).Cmp(bound) > 0 {
							t.Errorf("input %v, output %s, window ±%d: exact %s, clamped %s, apart by more than %s", answers, o, w, got.At(o).FloatString(20), ref.At(o).FloatString(20), bound.FloatString(30))
						}
					}
				}
				b := uc.partial(answers, 40)
				for _, o := range got.Outputs() {
					if !b.Contains(o, got.At(o)) {
						lo, hi := b.Interval(o)
						t.Errorf("input %v, output %s: exact %s outside the partial sums' [%s, %s]", answers, o, got.At(o).RatString(), lo.FloatString(30), hi.FloatString(30))
					}
				}
			}
			if !moved && !strings.HasPrefix(uc.file, "geometric") && !strings.Contains(uc.file, "alg5") {
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

// TestAlg3ClampedReportAgainstReference: models/sparse_vector_alg3_untruncated.dp
// releases Algorithm 3's noisy answer clamped to [LO, HI] = [−3, 5]. Against
// internal/reference's closed forms (Lyu3, the value of the ⊤ unclamped;
// Lyu1, the same noise, the index only): every output strictly inside the
// clamp equals the reference's (i, v) exactly; the clamp's two ends and
// "none" sum with them to the reference's Pr[⊤ at i] exactly; each end lies
// within the partial sums over 40 values beyond it, plus what their
// geometric decay leaves (bounded by the mass of the window's escape).
// The counterexample pair's probabilities are the reference's.
func TestAlg3ClampedReportAgainstReference(t *testing.T) {
	const lo, hi, w = -3, 5, 40
	p, a := analyzeModel(t, "sparse_vector_alg3_untruncated.dp")
	value, index := reference.Lyu3(), reference.Lyu1()
	for _, s := range p.Chain.Inputs() {
		val := p.Chain.Valuation(s)
		answers := make([]int, 5)
		for i := range answers {
			x, _ := val.Get(fmt.Sprintf("a%d", i+1))
			answers[i] = int(x)
		}
		names, ps, _ := a.Distribution(s)
		got := map[[2]int]*big.Rat{}
		for i, n := range names {
			o := parseOutputMap(n)
			got[[2]int{o["top"], o["out"]}] = ps[i]
		}
		at := func(k [2]int) *big.Rat {
			if x := got[k]; x != nil {
				return x
			}
			return new(big.Rat)
		}
		ref := value.Exact(answers, lo-w, hi+w)
		tops := index.Exact(answers, 0, 0)
		// The escape bound of the window [lo−w, hi+w] bounds the mass of
		// every value outside it.
		escape := value.Escape(lo-w, hi+w, answers)
		for i := 1; i <= 5; i++ {
			sum := new(big.Rat)
			for v := lo + 1; v < hi; v++ {
				want := ref.At(fmt.Sprintf("%d,%d", i, v))
				if at([2]int{i, v}).Cmp(want) != 0 {
					t.Errorf("a = %v, (top=%d, out=%d): %s, reference %s", answers, i, v, at([2]int{i, v}).RatString(), want.RatString())
				}
				sum.Add(sum, want)
			}
			for _, end := range []struct{ out, from, to int }{{lo, lo - w, lo}, {hi, hi, hi + w}} {
				part := new(big.Rat)
				for v := end.from; v <= end.to; v++ {
					part.Add(part, ref.At(fmt.Sprintf("%d,%d", i, v)))
				}
				got := at([2]int{i, end.out})
				if got.Cmp(part) < 0 || new(big.Rat).Sub(got, part).Cmp(escape) > 0 {
					t.Errorf("a = %v, (top=%d, out=%d): %s, not within [%s, + %s]", answers, i, end.out, got.FloatString(30), part.FloatString(30), escape.FloatString(30))
				}
				sum.Add(sum, got)
			}
			if want := tops.At(fmt.Sprintf("%d", i)); sum.Cmp(want) != 0 {
				t.Errorf("a = %v: Pr[⊤ at %d] = %s from the clamped outputs, reference %s", answers, i, sum.RatString(), want.RatString())
			}
		}
		// The counterexample: (top = 5, out = 1) has 1024/25515 at
		// (0,0,0,0,1) and 32/25515 at (1,1,1,1,0).
		wantAt := map[string]*big.Rat{"[0 0 0 0 1]": big.NewRat(1024, 25515), "[1 1 1 1 0]": big.NewRat(32, 25515)}
		if want, ok := wantAt[fmt.Sprint(answers)]; ok && ref.At("5,1").Cmp(want) != 0 {
			t.Errorf("a = %v: reference Pr[(5, 1)] = %s, the report's counterexample says %s", answers, ref.At("5,1").RatString(), want.RatString())
		}
	}
}
