package report_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/report"
)

// TestEquivalenceNamesAChainModel: an explicit chain compared with a
// builder is named in the report (it has no call text; its line was
// empty).
func TestEquivalenceNamesAChainModel(t *testing.T) {
	const src = "chain {\n  state a (x = 1) [in_a]\n  state b (x = 0) [in_b]\n  state y (y = 1)\n  state n (y = 0)\n  a -> y : 3/4, n : 1/4\n  b -> y : 1/4, n : 3/4\n}\ninputs a, b\nneighbours a ~ b\ncheck equivalent(model, survey())\n"
	r, err := dpcheck.CheckSource(context.Background(), "c.dp", src)
	if err != nil {
		t.Fatal(err)
	}
	var text, js bytes.Buffer
	entries := []report.Entry{{File: "c.dp", Source: src, Result: r}}
	report.Text(&text, entries)
	if err := report.JSON(&js, entries, "test"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "\n          explicit chain\n          survey()\n") {
		t.Errorf("text:\n%s", text.String())
	}
	if !strings.Contains(js.String(), `"explicit chain",`) {
		t.Errorf("json:\n%s", js.String())
	}
}
