package report

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/dpcheck/dpcheck"
)

// paramEquivEntries are files with check equivalent(…) for every
// parameter value: holding, violated, each as expected or not, and a model
// without the parameter.
func paramEquivEntries(t *testing.T) []Entry {
	t.Helper()
	const y5, g5 = "yarrow_geometric(alpha = alpha, count_max = 5", "truncated_geometric(alpha = alpha, n = 5)"
	srcs := []struct{ name, src string }{
		{"yarrow_param.dp", "param alpha in (0, 1)\nmodel " + y5 + ")\n" +
			"check equivalent(model, " + g5 + ") for alpha\n" +
			"check equivalent(" + y5 + ", bits = 4), " + g5 + ") for alpha expect violated\n" +
			"check equivalent(" + y5 + ", bits = 4), " + g5 + ") for alpha\n" + // fails its expectation (holds)
			"check equivalent(" + y5 + "), " + g5 + ") for alpha expect violated\n"}, // fails its expectation (violated)
		{"mixed_param.dp", "param alpha in [1/4, 3/4]\n" +
			"check equivalent(truncated_geometric(alpha = 1/2, n = 3), yarrow_geometric(alpha = alpha, count_max = 3)) for alpha expect violated\n"},
	}
	var entries []Entry
	for _, s := range srcs {
		res, err := dpcheck.CheckSource(context.Background(), s.name, s.src)
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, Entry{File: s.name, Source: s.src, Result: res})
	}
	return entries
}

// TestParamEquivGolden: every rendering of check equivalent(…) for every
// parameter value, in testdata/golden/param_equiv_FORMAT.txt (-update
// rewrites them).
func TestParamEquivGolden(t *testing.T) {
	entries := stopClocks(paramEquivEntries(t))
	for _, format := range Formats() {
		var b bytes.Buffer
		if err := Write(&b, format, entries, "test"); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", "golden", "param_equiv_"+format+".txt")
		if *update {
			if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (-update writes it)", err)
		}
		if got := b.String(); got != string(want) {
			t.Errorf("%s differs from %s (-update rewrites it):\n%s", format, path, got)
		}
	}
}
