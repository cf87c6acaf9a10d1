package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestCompositionGolden keeps the report of a composition computed by
// privacy-loss distributions — its size line, the events described by
// privacy loss, what was convolved — in text and JSON.
func TestCompositionGolden(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"composition_text", []string{"testdata/composition.dp"}},
		{"composition_json", []string{"--format", "json", "testdata/composition.dp"}},
	} {
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
