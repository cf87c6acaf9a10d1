package dpcheck_test

import (
	"context"
	"testing"

	"github.com/dpcheck/dpcheck"
)

// BenchmarkCheckUntruncatedSVT checks every statement of sparse vector
// (Algorithm 1) with untruncated noise over three and five queries, load
// and exact sums included (targets: under 1 s and under 10 s), and of the
// models that release an unbounded value (Algorithm 3's answer, the gap,
// noisy max's value), their tails listed for the statements' ε.
func BenchmarkCheckUntruncatedSVT(b *testing.B) {
	for _, f := range []struct{ name, file string }{
		{"K3", "models/sparse_vector_untruncated.dp"},
		{"K5", "models/sparse_vector_untruncated_k5.dp"},
		{"Alg3", "models/sparse_vector_alg3_untruncated.dp"},
		{"Gap", "models/sparse_vector_gap_untruncated.dp"},
		{"NoisyMaxValue", "models/noisy_max_value_untruncated.dp"},
	} {
		b.Run(f.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res, err := dpcheck.CheckFile(context.Background(), f.file)
				if err != nil {
					b.Fatal(err)
				}
				for _, o := range res.Statements {
					if !o.Pass() {
						b.Fatalf("%s: a statement failed", f.file)
					}
				}
			}
		})
	}
}
