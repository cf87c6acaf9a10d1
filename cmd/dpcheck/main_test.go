package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/report"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestGolden runs the command on fixed inputs and compares its exit status,
// standard output and standard error with testdata/golden/NAME.txt.
func TestGolden(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"pass_text", []string{"testdata/pass.dp"}},
		{"pass_json", []string{"--format", "json", "testdata/pass.dp"}},
		{"violated_text", []string{"testdata/violated.dp"}},
		{"violated_json", []string{"--format=json", "testdata/violated.dp"}},
		{"errors_text", []string{"testdata/errors.dp"}},
		{"errors_json", []string{"--format", "json", "testdata/errors.dp"}},
		{"several_files", []string{"testdata/pass.dp", "testdata/errors.dp", "testdata/violated.dp"}},
		{"dpctl_text", []string{"testdata/dpctl.dp"}},
		{"dpctl_json", []string{"--format", "json", "testdata/dpctl.dp"}},
		{"help", []string{"--help"}},
		{"version", []string{"--version"}},
		{"no_files", nil},
		{"bad_format", []string{"--format", "xml", "testdata/pass.dp"}},
		{"bad_flag", []string{"--frobnicate", "testdata/pass.dp"}},
		{"missing_file", []string{"testdata/nope.dp"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), tt.args, &stdout, &stderr)
			got := fmt.Sprintf("exit %d\n-- stdout --\n%s-- stderr --\n%s", code, stdout.String(), stderr.String())
			path := filepath.Join("testdata", "golden", tt.name+".txt")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./cmd/dpcheck -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s (go test ./cmd/dpcheck -update rewrites it):\n--- got ---\n%s\n--- want ---\n%s", path, got, want)
			}
		})
	}
}

func TestExitCodes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"testdata/pass.dp"}, 0},
		{[]string{"testdata/violated.dp"}, 1},
		{[]string{"testdata/errors.dp"}, 2},
		{[]string{"testdata/pass.dp", "testdata/violated.dp"}, 1},
		{[]string{"testdata/violated.dp", "testdata/errors.dp"}, 2},
		{[]string{"../../models"}, 0},
		{nil, 2},
	} {
		if got := run(context.Background(), tc.args, &bytes.Buffer{}, &bytes.Buffer{}); got != tc.want {
			t.Errorf("dpcheck %s: exit %d, want %d", strings.Join(tc.args, " "), got, tc.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stderr bytes.Buffer
	if got := run(ctx, []string{"testdata/pass.dp"}, &bytes.Buffer{}, &stderr); got != 3 || !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("cancelled run: exit %d, stderr %q; want 3 and a message", got, stderr.String())
	}
}

// TestJSONSchema decodes the JSON output into the documented types, so a
// change of shape breaks this test.
func TestJSONSchema(t *testing.T) {
	var stdout bytes.Buffer
	run(context.Background(), []string{"--format", "json", "testdata/pass.dp", "testdata/violated.dp", "testdata/errors.dp"}, &stdout, &bytes.Buffer{})
	dec := json.NewDecoder(&stdout)
	dec.DisallowUnknownFields()
	var doc report.Document
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if doc.Schema != report.SchemaVersion || doc.Pass || len(doc.Files) != 3 {
		t.Fatalf("document: schema %d, pass %v, %d files", doc.Schema, doc.Pass, len(doc.Files))
	}
	if got := []string{doc.Files[0].Status, doc.Files[1].Status, doc.Files[2].Status}; strings.Join(got, ",") != "pass,fail,invalid" {
		t.Errorf("statuses %v", got)
	}
	cx := doc.Files[1].Statements[0].Counterexample
	if cx == nil || cx.From.Name != "pos" || cx.PrFrom.Exact != "3/4" || cx.Excess.Exact != "1/4" || cx.LeastEps.Exact != "ln(3)" {
		t.Errorf("counterexample %+v", cx)
	}
	if got := len(doc.Files[2].Errors); got != 4 {
		t.Errorf("%d errors in errors.dp, want 4", got)
	}
}
