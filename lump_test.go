package dpcheck_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/lump"
	"github.com/dpcheck/dpcheck/prism"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/report"
	"github.com/dpcheck/dpcheck/verify"
	"github.com/google/go-cmp/cmp"
)

// sameOutcomes compares outcomes exactly, unexported fields included:
// rationals by value, ε and reals by their exact value, errors by their
// message; the statements themselves and their resolved formulas (which
// hold functions) are not compared.
var sameOutcomes = cmp.Options{
	cmp.Exporter(func(reflect.Type) bool { return true }),
	cmp.Comparer(func(x, y *big.Rat) bool { return x == nil && y == nil || x != nil && y != nil && x.Cmp(y) == 0 }),
	cmp.Comparer(func(x, y exact.Eps) bool { return x.Equal(y) }),
	cmp.Comparer(func(x, y exact.Real) bool { return x.String() == y.String() }),
	cmp.Comparer(func(x, y error) bool { return x == nil && y == nil || x != nil && y != nil && x.Error() == y.Error() }),
	cmp.FilterPath(func(p cmp.Path) bool {
		t := p.Last().Type()
		return t == reflect.TypeFor[*verify.Formula]() || t == reflect.TypeFor[property.Statement]()
	}, cmp.Ignore()),
}

// run is one file checked with and without lumping.
type run struct {
	name string
	res  [2]*dpcheck.Result
	err  [2]error
}

// checkBoth checks a .dp file, or a PRISM model (model) against its
// properties, without and with lumping.
func checkBoth(t *testing.T, file, model string, consts map[string]prism.Value) run {
	t.Helper()
	r := run{name: file}
	for i, lump := range []bool{false, true} {
		cfg := dpcheck.Config{Lump: lump}
		if model != "" {
			r.res[i], r.err[i] = cfg.CheckPRISM(context.Background(), model, file, consts)
		} else {
			r.res[i], r.err[i] = cfg.CheckFile(context.Background(), file)
		}
	}
	return r
}

// reports renders a result as text and JSON, without what lumping adds.
func reports(t *testing.T, file string, res *dpcheck.Result) (string, string) {
	t.Helper()
	src, _ := os.ReadFile(file)
	e := []report.Entry{{File: file, Source: string(src), Result: res}}
	var text, js bytes.Buffer
	report.Text(&text, e)
	if err := report.JSON(&js, e, dpcheck.Version); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(text.String(), "\n") {
		if !strings.HasPrefix(l, "  lumped ") {
			lines = append(lines, l)
		}
	}
	var doc report.Document
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for i := range doc.Files {
		doc.Files[i].Lumped = nil
	}
	out, _ := json.MarshalIndent(doc, "", " ")
	return strings.Join(lines, "\n"), string(out)
}

// same fails unless both runs have the same outcomes and reports.
func same(t *testing.T, r run) {
	t.Helper()
	if (r.err[0] == nil) != (r.err[1] == nil) || r.err[0] != nil && r.err[0].Error() != r.err[1].Error() {
		t.Fatalf("errors differ: %v; lumped: %v", r.err[0], r.err[1])
	}
	if r.err[0] != nil {
		return
	}
	plain, lumped := r.res[0], r.res[1]
	if diff := cmp.Diff(plain.Statements, lumped.Statements, sameOutcomes); diff != "" {
		t.Errorf("outcomes differ (-plain +lumped):\n%s", diff)
	}
	pt, pj := reports(t, r.name, plain)
	lt, lj := reports(t, r.name, lumped)
	if diff := cmp.Diff(pt, lt); diff != "" {
		t.Errorf("text reports differ (-plain +lumped):\n%s", diff)
	}
	if diff := cmp.Diff(pj, lj); diff != "" {
		t.Errorf("JSON reports differ (-plain +lumped):\n%s", diff)
	}
	if len(plain.Lumped) != 0 {
		t.Errorf("lumped without Config.Lump: %v", plain.Lumped)
	}
}

// TestLumpingKeepsEveryResult: every model of models/ has the same
// verdicts, exact values, witnesses and counterexamples (likeliest runs
// included) with lumping as without, and the same reports but for the
// lines that say how much lumping shrank the chain.
func TestLumpingKeepsEveryResult(t *testing.T) {
	files, _ := filepath.Glob("models/*.dp")
	more, _ := filepath.Glob("models/*/*.dp")
	files = append(files, more...)
	if len(files) < 30 {
		t.Fatalf("%d models", len(files))
	}
	lumped := map[string][]property.Lumped{}
	for _, f := range files {
		t.Run(strings.TrimPrefix(f, "models/"), func(t *testing.T) {
			r := checkBoth(t, f, "", nil)
			same(t, r)
			if r.res[1] != nil {
				lumped[f] = r.res[1].Lumped
			}
		})
	}
	t.Run("prism/randomized_response.pctl", func(t *testing.T) {
		consts, err := prism.ParseConsts("p=1/2")
		if err != nil {
			t.Fatal(err)
		}
		r := checkBoth(t, "models/prism/randomized_response.pctl", "models/prism/randomized_response.prism", consts)
		same(t, r)
		lumped["prism"] = r.res[1].Lumped
	})
	// What the lumpings were for, and how much the step-by-step sparse
	// vector shrinks.
	want := map[string][]property.Lumped{
		"models/sparse_vector.dp": {{For: []string{"final value of top"}, Before: lumpSize(18738, 51678), After: lumpSize(366, 900)}},
		"models/survey.dp": {
			{For: []string{"final state"}, Before: lumpSize(4, 6), After: lumpSize(4, 6)},
			{For: []string{property.ForFormulas}, Before: lumpSize(4, 6), After: lumpSize(4, 6)},
		},
	}
	for f, w := range want {
		if diff := cmp.Diff(w, lumped[f]); diff != "" {
			t.Errorf("%s: lumpings (-want +got):\n%s", f, diff)
		}
	}
	if len(lumped["models/yarrow.dp"]) != 0 {
		t.Errorf("models/yarrow.dp (equivalence checks only) was lumped: %v", lumped["models/yarrow.dp"])
	}
}

func lumpSize(states, transitions int) lump.Size {
	return lump.Size{States: states, Transitions: transitions}
}

// TestLumpingAtomThatFails: a comparison that cannot be evaluated at some
// state fails the same way with lumping as without (the formulas are then
// checked on the chain itself), and the output spaces are still lumped.
func TestLumpingAtomThatFails(t *testing.T) {
	src := `chain {
  state a (x = 1, y = 1)
  state b (x = 2, y = 0)
  state c (x = 1, y = 1)
  state d (x = 1, y = 1) [out]
  state e (x = 1, y = 1) [out]
  a -> c : 1/2, d : 1/2
  b -> c : 1/2, e : 1/2
  c -> d : 1/3, e : 2/3
}
inputs a, b
neighbours a ~ b
outputs labels out
query eps(delta = 0)
query P=?[F x/y >= 1]
`
	var res [2]*dpcheck.Result
	for i, lump := range []bool{false, true} {
		r, err := dpcheck.Config{Lump: lump}.CheckSource(context.Background(), "atom.dp", src)
		if err != nil {
			t.Fatal(err)
		}
		res[i] = r
	}
	if diff := cmp.Diff(res[0].Statements, res[1].Statements, sameOutcomes); diff != "" {
		t.Errorf("outcomes differ (-plain +lumped):\n%s", diff)
	}
	if err := res[1].Statements[1].Err(); err == nil || !strings.Contains(err.Error(), "division by zero") {
		t.Errorf("P=?[F x/y >= 1]: error %v, want division by zero", err)
	}
	want := []property.Lumped{{For: []string{"final labels {out}"}, Before: lumpSize(5, 8), After: lumpSize(4, 6)}}
	if diff := cmp.Diff(want, res[1].Lumped); diff != "" {
		t.Errorf("lumpings (-want +got):\n%s", diff)
	}
}

// BenchmarkRun evaluates the statements of prepared models (the model is
// built once, outside the loop), without and with lumping.
func BenchmarkRun(b *testing.B) {
	for _, name := range []string{"sparse_vector", "sparse_vector_alg3", "noisy_max", "laplace_decision"} {
		path := "models/" + name + ".dp"
		src, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		for _, lump := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/lump=%v", name, lump), func(b *testing.B) {
				ctx := context.Background()
				cfg := dpcheck.Config{Lump: lump}
				p, err := cfg.Load(ctx, path, string(src))
				if err != nil {
					b.Fatal(err)
				}
				for b.Loop() {
					if _, err := cfg.Run(ctx, p); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestLumpingExternalPRISM: third-party PRISM models (read in place from
// $DPCHECK_EXTERNAL_MODELS or ../shared/external_models, never copied
// here) give the same results with lumping: Storm's crowds-5-5 (8 607
// states → 300), Knuth's two dice, the dpCTL plug-in's above threshold.
func TestLumpingExternalPRISM(t *testing.T) {
	dir := os.Getenv("DPCHECK_EXTERNAL_MODELS")
	if dir == "" {
		dir = filepath.Join("..", "shared", "external_models")
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("SKIP: the external models are not available (%s is absent; set DPCHECK_EXTERNAL_MODELS)", dir)
	}
	for _, c := range []struct {
		model, props string
		after        lump.Size
	}{
		{"storm_crowds/crowds-5-5.pm", "P=? [ F \"observeIGreater1\" ]\nP=? [ F \"observeOnlyTrueSender\" ]\nP=? [ F<=10 \"observe0Greater1\" ]\n", lumpSize(300, 504)},
		{"prism_dice/two_dice_knuth.pm", "P=? [ F s=34 & d=7 ]\nP=? [ F s=34 & d=2 ]\n", lumpSize(25, 47)},
		{"dpctl_epmc/Abovethreshold.prism", "", lumpSize(18, 58)},
	} {
		t.Run(c.model, func(t *testing.T) {
			props := filepath.Join(dir, strings.TrimSuffix(c.model, filepath.Ext(c.model))+".pctl")
			if c.props != "" {
				props = filepath.Join(t.TempDir(), "p.pctl")
				if err := os.WriteFile(props, []byte(c.props), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			r := checkBoth(t, props, filepath.Join(dir, c.model), nil)
			same(t, r)
			if r.err[1] != nil {
				return
			}
			if l := r.res[1].Lumped; len(l) != 1 || l[0].After != c.after {
				t.Errorf("lumpings %v, want one to %v", l, c.after)
			}
		})
	}
}
