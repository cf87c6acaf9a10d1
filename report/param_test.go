package report

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/dpcheck/dpcheck"
)

// paramEntries are files with a parameter: every kind of statement for
// every parameter value, passing and failing.
func paramEntries(t *testing.T) []Entry {
	t.Helper()
	srcs := []struct{ name, src string }{
		{"geometric_param.dp", "param alpha in (0, 1)\nmodel truncated_geometric(alpha = alpha, n = 5)\n" +
			"check dp(eps = -ln(alpha), delta = 0) for alpha\n" +
			"check dp(eps = ln(3)) for alpha\n" + // fails its expectation (holds)
			"check dp(eps = ln(1/alpha)) for alpha expect violated\n" + // fails its expectation (violated)
			"query eps(delta = 0) for alpha\n" +
			"query eps(delta = 0) for alpha expect -ln(alpha)\n" +
			"query eps(delta = 0) for alpha expect ln(2)\n" + // fails: the tight ε is ln(1/alpha)
			"query delta(eps = ln(2)) for alpha\n" +
			"query delta(eps = ln(2)) for alpha expect 0\n"}, // fails: two pieces
		{"survey_theta2_param.dp", "param theta2 in (0, 1)\nmodel survey(theta1 = 1/2, theta2 = theta2)\n" +
			"query eps(delta = 0) for theta2\n" +
			"check dp(eps = ln(3)) for theta2 expect violated\n"},
		{"cutoff_param.dp", "param alpha in (0, 1)\nmodel cutoff_decision(alpha = alpha, m = 3, hi = 5)\n" +
			"check dp(eps = -ln(alpha), delta = 0) for alpha expect violated\n"},
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

// TestParamGolden: every rendering of the statements for every parameter
// value, in testdata/golden/param_FORMAT.txt (-update rewrites them).
func TestParamGolden(t *testing.T) {
	entries := stopClocks(paramEntries(t))
	for _, format := range Formats() {
		var b bytes.Buffer
		if err := Write(&b, format, entries, "test"); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", "golden", "param_"+format+".txt")
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
