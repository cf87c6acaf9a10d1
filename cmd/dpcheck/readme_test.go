package main

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeOutputs keeps the README's sample outputs true: every block
// marked <!-- output: dpcheck ARGS --> must be what dpcheck ARGS prints,
// run from the repository root.
func TestReadmeOutputs(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir("../..")
	re := regexp.MustCompile("(?s)<!-- output: dpcheck ([^>]*) -->\n```\n(.*?)```\n")
	blocks := re.FindAllStringSubmatch(string(readme), -1)
	if len(blocks) < 3 {
		t.Fatalf("found %d sample outputs in README.md, want at least 3", len(blocks))
	}
	for _, b := range blocks {
		var stdout bytes.Buffer
		run(context.Background(), strings.Fields(b[1]), &stdout, &bytes.Buffer{})
		if got, want := strings.TrimRight(stdout.String(), "\n"), strings.TrimRight(b[2], "\n"); got != want {
			t.Errorf("README sample for dpcheck %s is stale; dpcheck now prints:\n%s", b[1], got)
		}
	}
}
