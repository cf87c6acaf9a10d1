package source_test

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/dpcheck/dpcheck/source"
)

// TestConfine: what a file in models/ may name, with models/ as the root
// and with the directory above it; symbolic links resolved.
func TestConfine(t *testing.T) {
	top := t.TempDir()
	t.Chdir(top)
	for _, d := range []string{"models/sub", "data", "outside"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"models/m.tra", "models/sub/n.tra", "data/d.tra", "outside/secret.txt"} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	abs := func(p string) string { return filepath.Join(top, p) }
	links := map[string]string{
		"models/in.tra":     "m.tra",                 // inside, relative
		"models/inabs.tra":  abs("models/sub/n.tra"), // inside, absolute
		"models/out.tra":    "../outside/secret.txt",
		"models/outdir":     abs("outside"),
		"models/chain1":     "chain2",
		"models/chain2":     "../outside/secret.txt",
		"models/env":        "/proc/self/environ",
		"models/dangling":   "../outside/none",
		"models/danglingin": "sub/none",
		"models/loop":       "loop",
		"models/data":       "../data",
	}
	for name, target := range links {
		if err := os.Symlink(target, name); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo("models/pipe", 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		root, name string
		reason     int    // 0: allowed
		path       string // the path returned when allowed
	}{
		{"models", "m.tra", 0, "models/m.tra"},
		{"models", "sub/n.tra", 0, "models/sub/n.tra"},
		{"models", "sub/../m.tra", 0, "models/m.tra"},
		{"models", "in.tra", 0, "models/in.tra"},
		{"models", "inabs.tra", 0, "models/inabs.tra"},
		{"models", abs("models/m.tra"), 0, abs("models/m.tra")},
		{"models", "missing.tra", 0, "models/missing.tra"},
		{"models", "dangling", source.ThroughLink, ""},
		{"models", "danglingin", 0, "models/danglingin"},
		{"models", "outdir/missing", source.ThroughLink, ""},
		{"models", "nodir/missing", 0, "models/nodir/missing"},
		{"models", "/etc/passwd", source.Outside, ""},
		{"models", "../outside/secret.txt", source.Outside, ""},
		{"models", "sub/../../outside/secret.txt", source.Outside, ""},
		{"models", "..", source.Outside, ""},
		{"models", "out.tra", source.ThroughLink, ""},
		{"models", "outdir/secret.txt", source.ThroughLink, ""},
		{"models", "chain1", source.ThroughLink, ""},
		{"models", "env", source.ThroughLink, ""},
		{"models", "data/d.tra", source.ThroughLink, ""},
		{"models", "sub", source.NotRegular, ""},
		{"models", ".", source.NotRegular, ""},
		{"models", "pipe", source.NotRegular, ""},
		{"models", "loop", source.Unresolved, ""},
		{".", "data/d.tra", 0, "models/data/d.tra"},
		{".", "../data/d.tra", 0, "data/d.tra"},
		{".", "out.tra", 0, "models/out.tra"},
		{".", "env", source.ThroughLink, ""},
		{".", "../../x", source.Outside, ""},
	} {
		path, err := source.Confine(tc.root, "models", tc.name)
		var ce *source.ConfineError
		switch {
		case tc.reason == 0 && (err != nil || path != tc.path):
			t.Errorf("root %s, %s: %q, %v; want %q", tc.root, tc.name, path, err, tc.path)
		case tc.reason != 0 && !errors.As(err, &ce):
			t.Errorf("root %s, %s: %q, %v; want reason %d", tc.root, tc.name, path, err, tc.reason)
		case tc.reason != 0 && (ce.Reason != tc.reason || ce.Name != tc.name || path != ""):
			t.Errorf("root %s, %s: %q, reason %d (%v); want reason %d", tc.root, tc.name, path, ce.Reason, err, tc.reason)
		}
	}
}

// TestWithin: lexical containment, the root itself included.
func TestWithin(t *testing.T) {
	for _, tc := range []struct {
		root, path string
		want       bool
	}{
		{"a", "a/b", true}, {"a", "a", true}, {"a", "a/../b", false}, {"a", "ab", false},
		{"a", "..a", false}, {"a/b", "a/b/../b/c", true}, {"/", "/etc", true}, {".", "..", false}, {".", "..x", true},
	} {
		if got := source.Within(tc.root, tc.path); got != tc.want {
			t.Errorf("Within(%q, %q) = %v, want %v", tc.root, tc.path, got, tc.want)
		}
	}
}

// TestReason: a file system error without its path.
func TestReason(t *testing.T) {
	_, err := os.Open("/nonexistent/dir/file")
	if got := source.Reason(err); got != "no such file" {
		t.Errorf("Reason = %q", got)
	}
}
