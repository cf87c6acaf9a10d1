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
		t.Errorf("pictures missing: chain %.20q, profile %.20q, notes %q %q", resp.Chain, resp.Profile, resp.ChainNote, resp.ProfileNote)
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
		want := []engine.Mark{{File: "coin.dp", Line: 1, Column: 13, Msg: `"` + name + `" is outside the files given with coin.dp: a model may only read files below it`}}
		if diff := cmp.Diff(want, resp.Marks); diff != "" {
			t.Errorf("%s: marks (-want +got):\n%s", name, diff)
		}
	}
	resp = check(t, engine.Request{Name: "coin.dp", Source: `model prism("missing.prism")` + "\ncheck dp(eps = ln(2))\n"})
	if len(resp.Marks) != 1 || !strings.Contains(resp.Marks[0].Msg, "cannot read") {
		t.Errorf("a missing file: %+v", resp.Marks)
	}
}

// Errors in a file the source names are marked in that file.
func TestCheckMarksOtherFiles(t *testing.T) {
	resp := check(t, engine.Request{Name: "m/a.dp", Source: "model prism(\"b.prism\")\ncheck dp(eps = ln(2))\n",
		Files: map[string]string{"m/b.prism": "dtmc\nmodule m\n  x : [0..1] init 0;\n  [] x = 0 -> (x' = 2);\nendmodule\n"}})
	if len(resp.Marks) == 0 || resp.Marks[0].File != "m/b.prism" || resp.Marks[0].Line != 4 {
		t.Errorf("marks %+v, want one in m/b.prism at line 4", resp.Marks)
	}
}

// A profile too large to draw in a page says so instead.
func TestCheckProfileTooLarge(t *testing.T) {
	resp := check(t, engine.Request{Source: "model truncated_geometric(alpha = 1/2, n = 1000)\ncheck dp(eps = ln(2))\n", Pictures: true})
	if resp.Profile != "" || !strings.Contains(resp.ProfileNote, "2,000 ordered pairs × 1,001 outputs is more than the 2,000,000") || resp.Chain == "" {
		t.Errorf("profile %d bytes, note %q, chain %d bytes", len(resp.Profile), resp.ProfileNote, len(resp.Chain))
	}
}

// Non-ASCII text before an error: its column counts characters.
func TestCheckMarkColumnCountsCharacters(t *testing.T) {
	resp := check(t, engine.Request{Source: "model truncated_geometric(alpha = 1/2, n = 2) /* εε */ check bogus\n"})
	if len(resp.Marks) != 1 || resp.Marks[0].Column != 62 {
		t.Errorf("marks %+v, want column 62", resp.Marks)
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
