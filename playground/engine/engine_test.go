package engine_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/playground/engine"
)

const geometric = `model truncated_geometric(alpha = 1/2, n = 2)
check dp(eps = ln(2))
check dp(eps = ln(3/2)) expect violated
`

func check(t *testing.T, req engine.Request) *engine.Response {
	t.Helper()
	resp, err := engine.Check(context.Background(), dpcheck.Config{}, req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func TestCheckPass(t *testing.T) {
	resp := check(t, engine.Request{Name: "g.dp", Source: geometric, Pictures: true})
	if resp.Status != "pass" {
		t.Fatalf("status %q, want pass:\n%s", resp.Status, resp.Text)
	}
	var doc struct {
		Pass  bool `json:"pass"`
		Files []struct {
			File   string `json:"file"`
			Status string `json:"status"`
		} `json:"files"`
	}
	if err := json.Unmarshal([]byte(resp.JSON), &doc); err != nil {
		t.Fatal(err)
	}
	if !doc.Pass || len(doc.Files) != 1 || doc.Files[0].File != "g.dp" || doc.Files[0].Status != "pass" {
		t.Errorf("JSON report: %+v", doc)
	}
	for _, want := range []string{"PASS  line 2  check dp(eps = ln(2))", "counterexample: s0 (in=0) vs s1 (in=1)"} {
		if !strings.Contains(resp.Text, want) {
			t.Errorf("the text report has no %q:\n%s", want, resp.Text)
		}
	}
	if !strings.HasPrefix(resp.Chain, "digraph") || !strings.Contains(resp.Profile, "<svg") {
		t.Errorf("pictures missing: chain %.20q, profile %.20q, notes %q", resp.Chain, resp.Profile, resp.Notes)
	}
}

func TestCheckMarksErrors(t *testing.T) {
	src := "model truncated_geometric(alpha = 1/2, n = 2)\ncheck dp(eps = ln(2)\n"
	resp := check(t, engine.Request{Source: src})
	if resp.Status != "invalid" {
		t.Fatalf("status %q, want invalid", resp.Status)
	}
	if len(resp.Marks) == 0 || resp.Marks[0].Line != 3 && resp.Marks[0].Line != 2 {
		t.Fatalf("marks %+v, want one on line 2 or 3", resp.Marks)
	}
	if !strings.Contains(resp.Text, engine.DefaultName+":") {
		t.Errorf("the text report does not name %s:\n%s", engine.DefaultName, resp.Text)
	}
}

// The files a source names come from the request, relative to its name,
// and nothing outside them is read.
func TestCheckFiles(t *testing.T) {
	prismModel := `dtmc
module m
  x : [0..2] init 0;
  [] x = 0 -> 1/2 : (x' = 1) + 1/2 : (x' = 2);
endmodule
`
	src := `model prism("../chains/coin.prism")
query expected((x = 1) ? 1 : 0) expect 1/2
`
	resp := check(t, engine.Request{Name: "dp/coin.dp", Source: src, Files: map[string]string{"chains/coin.prism": prismModel}})
	if resp.Status != "pass" {
		t.Fatalf("status %q:\n%s", resp.Status, resp.Text)
	}
	for _, name := range []string{"../../etc/passwd", "/etc/passwd"} {
		src := `model prism("` + name + `")` + "\ncheck dp(eps = ln(2))\n"
		resp := check(t, engine.Request{Name: "coin.dp", Source: src})
		want := []engine.Mark{{Line: 1, Column: 13, Msg: `"` + name + `" is outside the files given with coin.dp: a model may only read files below it`}}
		if diff := cmp.Diff(want, resp.Marks); diff != "" {
			t.Errorf("%s: marks (-want +got):\n%s", name, diff)
		}
	}
	resp = check(t, engine.Request{Name: "coin.dp", Source: `model prism("missing.prism")` + "\ncheck dp(eps = ln(2))\n"})
	if len(resp.Marks) != 1 || !strings.Contains(resp.Marks[0].Msg, "cannot read") {
		t.Errorf("a missing file: %+v", resp.Marks)
	}
}

func TestCheckSizeLimit(t *testing.T) {
	resp, err := engine.Check(context.Background(), dpcheck.Config{MaxFileSize: 10}, engine.Request{Source: geometric})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != "invalid" || !strings.Contains(resp.Text, "10") {
		t.Errorf("status %q, text %q", resp.Status, resp.Text)
	}
}

func TestCheckCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	resp, err := engine.Check(ctx, dpcheck.Config{}, engine.Request{Source: geometric})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != "aborted" {
		t.Errorf("status %q, want aborted", resp.Status)
	}
}
