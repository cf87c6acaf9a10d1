package dpcheck_test

import (
	"context"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/internal/reference"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/report"
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
	// consts are the values given to the file's constants, if any.
	consts map[string]*big.Rat
}

// svtArrayCase is svtCase for a file written with arrays, a[1..K], run
// with K = k.
func svtArrayCase(file string, alg reference.SVTAlg, k int) untruncatedCase {
	c := svtCase(file, alg, k)
	for i := range c.inputs {
		c.inputs[i] = fmt.Sprintf("a[%d]", i+1)
	}
	c.consts = map[string]*big.Rat{"K": big.NewRat(int64(k), 1)}
	c.output = func(name string) string {
		o := parseOutputMap(name)
		if top, ok := o["top"]; ok {
			return strconv.Itoa(top)
		}
		bs := make([]string, k) // Algorithm 6's answers, b[1..K]
		for i := range bs {
			bs[i] = strconv.Itoa(o[fmt.Sprintf("b[%d]", i+1)])
		}
		return strings.Join(bs, ",")
	}
	return c
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
		svtArrayCase("sparse_vector_untruncated_k.dp", reference.Lyu1(), 1),
		svtArrayCase("sparse_vector_untruncated_k.dp", reference.Lyu1(), 2),
		svtArrayCase("sparse_vector_untruncated_k.dp", reference.Lyu1(), 3),
		svtArrayCase("sparse_vector_untruncated_k.dp", reference.Lyu1(), 4),
		svtArrayCase("sparse_vector_untruncated_k.dp", reference.Lyu1(), 5),
		svtCase("sparse_vector_alg4_untruncated.dp", reference.Lyu4(), 3),
		svtArrayCase("sparse_vector_alg4_untruncated_k.dp", reference.Lyu4(), 1),
		svtArrayCase("sparse_vector_alg4_untruncated_k.dp", reference.Lyu4(), 2),
		svtArrayCase("sparse_vector_alg4_untruncated_k.dp", reference.Lyu4(), 4),
		svtArrayCase("sparse_vector_alg5_untruncated_k.dp", reference.Lyu5(), 1),
		svtArrayCase("sparse_vector_alg5_untruncated_k.dp", reference.Lyu5(), 4),
		svtArrayCase("sparse_vector_alg6_untruncated_k.dp", reference.Lyu6(), 1),
		svtArrayCase("sparse_vector_alg6_untruncated_k.dp", reference.Lyu6(), 4),
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

// inputValues reads the values of the named input variables.
func inputValues(val chain.Valuation, names []string) []int {
	out := make([]int, len(names))
	for i, n := range names {
		x, _ := val.Get(n)
		out[i] = int(x)
	}
	return out
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
		name := uc.file
		if k := uc.consts["K"]; k != nil {
			name += " K=" + k.RatString()
		}
		t.Run(name, func(t *testing.T) {
			p, a := analyzeModel(t, uc.file, uc.consts)
			moved := false // some clamped probability differs from the exact one
			for _, s := range p.Chain.Inputs() {
				answers := inputValues(p.Chain.Valuation(s), uc.inputs)
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

// valueOutput reads an output that carries an unbounded value: "(top=5,
// out=1)" → (5, 1, ""), "(top=2, out≥4)" → (2, 4, "≥"); index names the
// bounded variable, value the unbounded one.
func valueOutput(t *testing.T, name, index, value string) (i, v int, tail string) {
	t.Helper()
	for _, part := range strings.Split(strings.Trim(name, "()"), ", ") {
		for _, op := range []string{"=", "≥", "≤"} {
			k, x, ok := strings.Cut(part, op)
			if !ok {
				continue
			}
			n, err := strconv.Atoi(x)
			if err != nil {
				t.Fatalf("output %q: %v", name, err)
			}
			switch k {
			case index:
				i = n
			case value:
				v = n
				if op != "=" {
					tail = op
				}
			}
			break
		}
	}
	return i, v, tail
}

// TestVaryingTailsAgainstReference: models whose observed unbounded value
// has tails with varying likelihood ratios (Algorithm 3's released answer,
// sparse vector's gap, noisy max's value), listed as far as their
// statements' ε need and the rest merged, against internal/reference's
// closed forms (no geosum): every listed output equals the reference
// exactly, and its clamped copies at half-widths 10, 20, 40 within the
// chance that a noisy value leaves the window; each merged tail lies
// in the reference's partial sums over w further values plus what lies
// beyond them (the escape bound of that window); each index's total is
// the reference's exactly. And what makes the merged tails exact at the
// statements' ε: for every ordered neighbouring pair and every such c,
// P − c·P' has, on each of the w values past a merged tail's start (from
// the reference), the sign its merged total has, or is 0.
func TestVaryingTailsAgainstReference(t *testing.T) {
	const w = 40
	half := reference.NoisyMaxAlpha()
	for _, tc := range []struct {
		file, index, value string
		inputs             []string
		ratios             []*big.Rat
		exact              func(a []int, lo, hi int) reference.Dist // keys "i,v" in [lo, hi], "0" for none
		totals             func(a []int) reference.Dist             // keys "i"
		escape             func(a []int, lo, hi int) *big.Rat
		// clamped is the mechanism with every noisy value clamped to
		// [lo, hi], keys as exact; clampEscape bounds the chance that a
		// noisy value leaves [lo, hi], the most any output moves.
		clamped     func(a []int, lo, hi int) reference.Dist
		clampEscape func(a []int, lo, hi int) *big.Rat
		// consts are the values given to the file's constants (K), if any.
		consts map[string]*big.Rat
	}{
		{"sparse_vector_alg3_untruncated.dp", "top", "out", []string{"a1", "a2", "a3", "a4", "a5"}, []*big.Rat{big.NewRat(16, 1), big.NewRat(32, 1)},
			func(a []int, lo, hi int) reference.Dist { return reference.Lyu3().Exact(a, lo, hi) },
			func(a []int) reference.Dist { return reference.Lyu1().Exact(a, 0, 0) },
			func(a []int, lo, hi int) *big.Rat { return reference.Lyu3().Escape(lo, hi, a) },
			func(a []int, lo, hi int) reference.Dist { return reference.Lyu3().Clamped(lo, hi, a) },
			func(a []int, lo, hi int) *big.Rat { return reference.Lyu3().Escape(lo, hi, a) }, nil},
		{"sparse_vector_alg3_untruncated_k.dp", "top", "out", []string{"a[1]", "a[2]", "a[3]", "a[4]", "a[5]"}, []*big.Rat{big.NewRat(32, 1)},
			func(a []int, lo, hi int) reference.Dist { return reference.Lyu3().Exact(a, lo, hi) },
			func(a []int) reference.Dist { return reference.Lyu1().Exact(a, 0, 0) },
			func(a []int, lo, hi int) *big.Rat { return reference.Lyu3().Escape(lo, hi, a) },
			func(a []int, lo, hi int) reference.Dist { return reference.Lyu3().Clamped(lo, hi, a) },
			func(a []int, lo, hi int) *big.Rat { return reference.Lyu3().Escape(lo, hi, a) }, map[string]*big.Rat{"K": big.NewRat(5, 1)}},
		{"sparse_vector_gap_untruncated.dp", "top", "gap", []string{"a1", "a2", "a3"}, []*big.Rat{big.NewRat(16, 1), big.NewRat(8, 1), big.NewRat(7, 1)},
			func(a []int, lo, hi int) reference.Dist { return reference.GapSVT().Exact(a, lo, hi) },
			func(a []int) reference.Dist { return reference.Lyu1().Exact(a, 0, 0) },
			// A gap beyond hi needs the threshold or an answer beyond hi/2.
			func(a []int, lo, hi int) *big.Rat { return reference.GapSVT().Escape(-hi/2, hi/2, a) },
			func(a []int, lo, hi int) reference.Dist { return reference.GapSVT().Clamped(lo, hi, a) },
			func(a []int, lo, hi int) *big.Rat { return reference.GapSVT().Escape(lo, hi, a) }, nil},
		{"sparse_vector_gap_untruncated_k.dp", "top", "gap", []string{"a[1]", "a[2]", "a[3]"}, []*big.Rat{big.NewRat(16, 1)},
			func(a []int, lo, hi int) reference.Dist { return reference.GapSVT().Exact(a, lo, hi) },
			func(a []int) reference.Dist { return reference.Lyu1().Exact(a, 0, 0) },
			func(a []int, lo, hi int) *big.Rat { return reference.GapSVT().Escape(-hi/2, hi/2, a) },
			func(a []int, lo, hi int) reference.Dist { return reference.GapSVT().Clamped(lo, hi, a) },
			func(a []int, lo, hi int) *big.Rat { return reference.GapSVT().Escape(lo, hi, a) }, map[string]*big.Rat{"K": big.NewRat(3, 1)}},
		{"noisy_max_value_untruncated.dp", "best", "top", []string{"a1", "a2", "a3"}, []*big.Rat{big.NewRat(1, 1), big.NewRat(4, 1), big.NewRat(8, 1), big.NewRat(101, 100)},
			func(a []int, lo, hi int) reference.Dist { return reference.NoisyMaxExact(half, a, true, lo, hi) },
			func(a []int) reference.Dist { return reference.NoisyMaxExact(half, a, false, 0, 0) },
			func(a []int, lo, hi int) *big.Rat { return reference.EscapeBound(half, lo, hi, a...) },
			func(a []int, lo, hi int) reference.Dist { return reference.NoisyMaxClamped(half, lo, hi, a, true) },
			func(a []int, lo, hi int) *big.Rat { return reference.EscapeBound(half, lo, hi, a...) }, nil},
	} {
		t.Run(tc.file, func(t *testing.T) {
			p, a := analyzeModel(t, tc.file, tc.consts)
			moved := false // some clamped probability differs from the exact one
			type tailAt struct {
				i, v int
				dir  int
			}
			merged := map[tailAt]bool{}
			refs := map[int]reference.Dist{} // by input state
			rows := map[int]map[string]*big.Rat{}
			for _, s := range p.Chain.Inputs() {
				answers := inputValues(p.Chain.Valuation(s), tc.inputs)
				names, ps, _ := a.Distribution(s)
				ref := tc.exact(answers, -60, 60)
				refs[s], rows[s] = ref, map[string]*big.Rat{}
				clamped := map[int]reference.Dist{} // by half-width, made once
				sums := map[int]*big.Rat{}
				for k, n := range names {
					i, v, tail := valueOutput(t, n, tc.index, tc.value)
					rows[s][n] = ps[k]
					if sums[i] == nil {
						sums[i] = new(big.Rat)
					}
					sums[i].Add(sums[i], ps[k])
					if i == 0 {
						continue // none: checked by the totals
					}
					if tail == "" {
						key := fmt.Sprintf("%d,%d", i, v)
						if want := ref.At(key); want.Cmp(ps[k]) != 0 {
							t.Errorf("a = %v, %s: %s, reference %s", answers, n, ps[k].RatString(), want.RatString())
						}
						// Clamped to windows of half-width 10, 20 and 40,
						// within what a noisy value leaving them moves.
						for _, cw := range []int{10, 20, 40} {
							if clamped[cw] == nil {
								clamped[cw] = tc.clamped(answers, -cw, cw)
							}
							d := new(big.Rat).Sub(ps[k], clamped[cw].At(key))
							moved = moved || d.Sign() != 0
							if bound := tc.clampEscape(answers, -cw, cw); d.Abs(d).Cmp(bound) > 0 {
								t.Errorf("a = %v, %s, window ±%d: exact and clamped apart by %s, more than %s", answers, n, cw, d.FloatString(30), bound.FloatString(30))
							}
						}
						continue
					}
					dir := 1
					if tail == "≤" {
						dir = -1
					}
					merged[tailAt{i, v, dir}] = true
					part := new(big.Rat)
					for x := v; x != v+dir*(w+1); x += dir {
						part.Add(part, ref.At(fmt.Sprintf("%d,%d", i, x)))
					}
					lo, hi := min(v, v+dir*w), max(v, v+dir*w)
					if bound := tc.escape(answers, lo, hi); ps[k].Cmp(part) < 0 || new(big.Rat).Sub(ps[k], part).Cmp(bound) > 0 {
						t.Errorf("a = %v, %s: %s, not within [%s, + %s]", answers, n, ps[k].FloatString(30), part.FloatString(30), bound.FloatString(30))
					}
				}
				for i, want := range tc.totals(answers) {
					n, _ := strconv.Atoi(i)
					if got := sums[n]; got == nil || got.Cmp(want) != 0 {
						t.Errorf("a = %v: Pr[%s = %d] = %v summed over the model's outputs, reference %s", answers, tc.index, n, got, want.RatString())
					}
				}
			}
			if len(merged) == 0 {
				t.Fatal("no merged tail")
			}
			// Noisy max's outputs inside the window are exactly the same
			// clamped: a noisy value is compared with one inside it.
			if !moved && !strings.HasPrefix(tc.file, "noisy_max") {
				t.Error("clamping never changed a probability: the comparison tells nothing")
			}
			// The sign of P − c·P' on every value of a merged tail.
			pairs, err := p.Pairs()
			if err != nil {
				t.Fatal(err)
			}
			signs := 0
			for _, pr := range pairs {
				for _, ord := range [][2]int{{pr[0], pr[1]}, {pr[1], pr[0]}} {
					for _, cr := range tc.ratios {
						for m := range merged {
							name := func() string {
								for n := range rows[ord[0]] {
									if i, v, tail := valueOutput(t, n, tc.index, tc.value); i == m.i && v == m.v && tail != "" {
										return n
									}
								}
								for n := range rows[ord[1]] {
									if i, v, tail := valueOutput(t, n, tc.index, tc.value); i == m.i && v == m.v && tail != "" {
										return n
									}
								}
								return ""
							}()
							at := func(s int) *big.Rat {
								if x := rows[s][name]; x != nil {
									return x
								}
								return new(big.Rat)
							}
							want := new(big.Rat).Sub(at(ord[0]), new(big.Rat).Mul(cr, at(ord[1]))).Sign()
							for x := m.v; x != m.v+m.dir*w; x += m.dir {
								k := fmt.Sprintf("%d,%d", m.i, x)
								d := new(big.Rat).Sub(refs[ord[0]].At(k), new(big.Rat).Mul(cr, refs[ord[1]].At(k)))
								if d.Sign() != 0 && d.Sign() != want {
									t.Fatalf("c = %s, %s vs %s, %s = %d: P − c·P' = %s, the merged tail's sign %d", cr.RatString(), p.Chain.Name(ord[0]), p.Chain.Name(ord[1]), tc.value, x, d.FloatString(20), want)
								}
								signs++
							}
						}
					}
				}
			}
			if signs == 0 {
				t.Error("no sign compared")
			}
			// δ at each c: the reference's hockey-stick divergence over the
			// outputs with values in [−60, 60], the worst ordered pair, and
			// at most the mass beyond them more.
			for _, cr := range tc.ratios {
				eps := exact.LnOf(cr)
				got, err := a.TightDelta(context.Background(), eps)
				if err != nil {
					t.Fatal(err)
				}
				gotR, ok := got.Delta.Rat()
				if !ok {
					t.Fatalf("δ at c = %s is not rational: %s", cr.RatString(), got.Delta)
				}
				worst, slack := new(big.Rat), new(big.Rat)
				for _, pr := range pairs {
					for _, ord := range [][2]int{{pr[0], pr[1]}, {pr[1], pr[0]}} {
						d := new(big.Rat)
						for _, o := range unionKeys(refs[ord[0]], refs[ord[1]]) {
							if x := new(big.Rat).Sub(refs[ord[0]].At(o), new(big.Rat).Mul(cr, refs[ord[1]].At(o))); x.Sign() > 0 {
								d.Add(d, x)
							}
						}
						if d.Cmp(worst) > 0 {
							worst = d
						}
					}
				}
				for _, s := range p.Chain.Inputs() {
					answers := inputValues(p.Chain.Valuation(s), tc.inputs)
					if e := tc.escape(answers, -60, 60); e.Cmp(slack) > 0 {
						slack = e
					}
				}
				if gotR.Cmp(worst) < 0 || new(big.Rat).Sub(gotR, worst).Cmp(slack) > 0 {
					t.Errorf("δ at c = %s: %s, the reference's %s (+ at most %s)", cr.RatString(), gotR.RatString(), worst.FloatString(30), slack.FloatString(40))
				}
			}
			tailEpsAgainstReference(t, tc.file, p, refs, pairs, tc.index, tc.value)
		})
	}
}

// tailEpsAgainstReference checks the tight ε at δ = 0 of a model whose
// tails' ratios vary against the reference's probabilities of the values
// in [−60, 60] (refs, by input state): no value's ratio exceeds e^ε; the
// witness's value, when one attains it, has exactly that ratio; when it is
// approached along a tail, the ratios of its values come within a
// millionth of it.
func tailEpsAgainstReference(t *testing.T, file string, p *property.Prepared, refs map[int]reference.Dist, pairs [][2]int, index, value string) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("models", file))
	if err != nil {
		t.Fatal(err)
	}
	r, err := dpcheck.CheckSource(context.Background(), file, string(src)+"query eps(delta = 0)\n")
	if err != nil {
		t.Fatal(err)
	}
	o, ok := r.Statements[len(r.Statements)-1].(*property.EpsOutcome)
	if !ok || o.Err() != nil {
		t.Fatalf("query eps: %T, %v", r.Statements[len(r.Statements)-1], r.Statements[len(r.Statements)-1].Err())
	}
	c, ok := o.Result.Eps.C()
	if !ok {
		t.Fatalf("tight ε %s: not ln of a rational", o.Result.Eps)
	}
	ratio := func(from, to int, key string) *big.Rat {
		q := refs[to].At(key)
		if q.Sign() == 0 {
			return nil
		}
		return new(big.Rat).Quo(refs[from].At(key), q)
	}
	best := new(big.Rat)
	for _, pr := range pairs {
		for _, ord := range [][2]int{{pr[0], pr[1]}, {pr[1], pr[0]}} {
			for _, k := range unionKeys(refs[ord[0]], refs[ord[1]]) {
				x := ratio(ord[0], ord[1], k)
				if x == nil {
					if refs[ord[0]].At(k).Sign() > 0 {
						t.Fatalf("%s vs %s, %s: the reference's ratio is infinite, dpcheck's e^ε %s", p.Chain.Name(ord[0]), p.Chain.Name(ord[1]), k, c.RatString())
					}
					continue
				}
				if x.Cmp(best) > 0 {
					best = x
				}
			}
		}
	}
	if best.Cmp(c) > 0 {
		t.Fatalf("a value's ratio %s exceeds e^ε = %s", best.FloatString(20), c.RatString())
	}
	w := o.Result.Witness
	if w == nil || len(w.Event) != 1 {
		t.Fatalf("witness %+v, want one output", w)
	}
	i, v, tail := valueOutput(t, w.Event[0], index, value)
	from, to := w.From.ID, w.To.ID
	if p.Chain.Name(from) != w.From.Name || p.Chain.Name(to) != w.To.Name {
		t.Fatalf("witness %s vs %s, the chain's %s vs %s", w.From.Name, w.To.Name, p.Chain.Name(from), p.Chain.Name(to))
	}
	switch {
	case !w.Approached && tail == "":
		if got := ratio(from, to, fmt.Sprintf("%d,%d", i, v)); got == nil || got.Cmp(c) != 0 || best.Cmp(c) != 0 {
			t.Errorf("e^ε = %s attained on %s: the reference's ratio there %v, its largest %s", c.RatString(), w.Event[0], got, best.RatString())
		}
	case w.Approached:
		dir := 1
		if tail == "≤" {
			dir = -1
		}
		near := new(big.Rat)
		for x := v; x >= -60 && x <= 60; x += dir {
			if got := ratio(from, to, fmt.Sprintf("%d,%d", i, x)); got != nil && got.Cmp(near) > 0 {
				near = got
			}
		}
		gap := new(big.Rat).Sub(c, near)
		if gap.Sign() <= 0 || gap.Cmp(new(big.Rat).Quo(c, big.NewRat(1_000_000, 1))) > 0 {
			t.Errorf("e^ε = %s approached along %s: the reference's ratios there reach %s", c.RatString(), w.Event[0], near.FloatString(20))
		}
	default:
		t.Errorf("witness %s: a merged tail, not approached", w.Event[0])
	}
}

// TestRefusedStatementsAlone: on a model whose merged tails are exact at
// the ε of its dp checks and δ queries (and for the tight ε at δ = 0)
// only, a tight ε at δ > 0 and a dp check at an irrational e^ε are refused
// each on its own line, positioned at the statement; the other statements
// are checked, and the file counts as one with errors.
func TestRefusedStatementsAlone(t *testing.T) {
	src, err := os.ReadFile("models/noisy_max_value_untruncated.dp")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Count(string(src), "\n")
	text := string(src) + "query eps(delta = 1/10)\ncheck dp(eps = 1/2)\nquery eps(delta = 0)\n"
	r, err := dpcheck.CheckSource(context.Background(), "m.dp", text)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range r.Statements {
		h := o.Statement().Head()
		switch {
		case o.Err() != nil:
			if !property.IsRefusal(o.Err()) {
				t.Errorf("line %d: error %v is not a refusal", h.Pos.Line, o.Err())
			}
			got = append(got, o.Err().Error())
		case !o.Pass():
			t.Errorf("line %d: %s fails", h.Pos.Line, h.Text)
		}
	}
	merged := "the model's tails whose likelihood ratios vary were merged for the ε of its dp checks and δ queries with e^ε rational only (see the model line)"
	want := []string{
		fmt.Sprintf("m.dp:%d:1: query eps(delta = 1/10) needs the outputs at every ε, and %s: ask for dp or δ at given ε or the tight ε at δ = 0, or observe a bounded function of the unbounded variable", lines+1, merged),
		fmt.Sprintf("m.dp:%d:1: check dp(eps = 1/2) compares the outputs at e^ε = e^(1/2), which is irrational, and %s: ask at an ε whose e^ε is rational, such as ln(2)", lines+2, merged),
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("refusals (-want +got):\n%s", d)
	}
	statements := 3 // appended
	for _, l := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(l, "check ") || strings.HasPrefix(l, "query ") {
			statements++
		}
	}
	if len(r.Statements) != statements {
		t.Errorf("%d statements, want %d", len(r.Statements), statements)
	}
	if s := report.StatusOf(report.Entry{File: "m.dp", Result: r}); s != report.Invalid {
		t.Errorf("status %v, want Invalid", s)
	}
}
