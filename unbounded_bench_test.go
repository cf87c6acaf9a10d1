package dpcheck_test

import (
	"context"
	"testing"

	"github.com/dpcheck/dpcheck"
)

// BenchmarkCheckUntruncatedSVT checks every statement of sparse vector
// (Algorithm 1) with untruncated noise over three and five queries, load
// and exact sums included (targets: under 1 s and under 10 s).
func BenchmarkCheckUntruncatedSVT(b *testing.B) {
	for _, f := range []struct{ name, file string }{
		{"K3", "models/sparse_vector_untruncated.dp"},
		{"K5", "models/sparse_vector_untruncated_k5.dp"},
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
