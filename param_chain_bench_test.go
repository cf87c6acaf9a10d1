package dpcheck_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/param"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/spec"
)

// BenchmarkParamModuleGeometric measures preparing the α-geometric
// mechanism written as a module with the parameter (exploration with
// rational-function branches, then param.New's validation), against the
// same mechanism from the builder (param.FromBuilder's truncated_geometric and
// param.New).
func BenchmarkParamModuleGeometric(b *testing.B) {
	for _, n := range []int{20, 50} {
		for _, form := range []string{"module", "builder"} {
			src := fmt.Sprintf("param alpha in (0, 1)\nmodel truncated_geometric(alpha = alpha, n = %d)\noutputs var out\nquery eps(delta = 0) for alpha\n", n)
			if form == "module" {
				src = fmt.Sprintf("param alpha in (0, 1)\nconst n = %d\nmodule geometric\n  input in : [0..n];\n  out : [-1..n] init -1;\n"+
					"  [] out = -1 -> (out' ~ geometric(alpha, in, 0, n)) & (in' = 0);\nendmodule\noutputs var out\nneighbours |in - in'| <= 1\nquery eps(delta = 0) for alpha\n", n)
			}
			b.Run(fmt.Sprintf("%s/n=%d", form, n), func(b *testing.B) {
				ctx := context.Background()
				b.ReportAllocs()
				for b.Loop() {
					prog, err := spec.Load(ctx, "bench.dp", src)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := property.Prepare(ctx, prog, model.Limits{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkNoisyMaxParam measures report-noisy-max over three queries for
// every alpha (models/noisy_max_param.dp, the index only;
// noisy_max_value_param.dp, index and value): preparing the model
// (exploration, validation), its output distributions, and the tight ε at
// δ = 0 (643 and 123 candidate ratios, 2 kept).
func BenchmarkNoisyMaxParam(b *testing.B) {
	ctx := context.Background()
	for _, c := range []struct{ name, path, out string }{
		{"index", "models/noisy_max_param.dp", "best"},
		{"value", "models/noisy_max_value_param.dp", "out"},
	} {
		var pc *param.Chain
		b.Run(c.name+"/prepare", func(b *testing.B) {
			for b.Loop() {
				pc = prepareParamFile(b, c.path)
			}
		})
		var a *param.Analysis
		b.Run(c.name+"/distributions", func(b *testing.B) {
			for b.Loop() {
				var err error
				if a, err = param.AnalyzeVar(ctx, pc, c.out); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/tight-eps", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := a.TightEpsilon(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
