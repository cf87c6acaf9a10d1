package dpcheck_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/dpcheck/dpcheck"

// imports returns, for every package of the module, the module's packages
// its non-test files import ("" is the root).
func imports(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != "." || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(path))
		if pkg == "." {
			pkg = ""
		}
		if _, ok := out[pkg]; !ok {
			out[pkg] = nil
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if p == module || strings.HasPrefix(p, module+"/") {
				dep := strings.TrimPrefix(strings.TrimPrefix(p, module), "/")
				if !slices.Contains(out[pkg], dep) {
					out[pkg] = append(out[pkg], dep)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestImportRules keeps the layering of docs/architecture.md: it fails
// when a package imports one it must not.
func TestImportRules(t *testing.T) {
	deps := imports(t)
	for _, p := range []string{"", "source", "exact", "chain", "lump", "mdp", "builder", "verify", "expr", "property", "spec", "prism", "statespace", "report", "picture", "cmd/dpcheck", "poly", "param", "dptest", "model"} {
		if _, ok := deps[p]; !ok {
			t.Errorf("package %q not found: the rules below would pass vacuously", p)
		}
	}
	never := map[string][]string{
		"source":      {"*"},
		"exact":       {"*"},
		"chain":       {"source", "lump", "mdp", "builder", "model", "verify", "expr", "property", "spec", "prism", "statespace", "", "report", "picture", "cmd/dpcheck", "poly", "param", "dptest"},
		"model":       {"source", "lump", "builder", "verify", "expr", "property", "spec", "prism", "statespace", "", "report", "picture", "cmd/dpcheck", "poly", "param", "dptest"},
		"lump":        {"source", "builder", "verify", "expr", "property", "spec", "prism", "statespace", "", "report", "picture", "cmd/dpcheck", "dptest"},
		"mdp":         {"property", "expr", "spec", "prism", "statespace", "", "report", "picture", "cmd/dpcheck", "builder", "lump", "dptest"},
		"builder":     {"property", "expr", "spec", "prism", "statespace", "", "report", "picture", "cmd/dpcheck", "dptest"},
		"verify":      {"property", "expr", "spec", "prism", "statespace", "", "report", "picture", "cmd/dpcheck", "builder", "dptest"},
		"expr":        {"property", "spec", "prism", "statespace", "", "report", "picture", "cmd/dpcheck", "builder", "verify", "dptest"},
		"property":    {"spec", "prism", "statespace", "", "report", "picture", "cmd/dpcheck", "dptest"},
		"statespace":  {"spec", "prism", "", "report", "picture", "cmd/dpcheck", "verify", "dptest"},
		"spec":        {"", "report", "picture", "cmd/dpcheck", "dptest"},
		"prism":       {"spec", "", "report", "picture", "cmd/dpcheck", "dptest"},
		"":            {"report", "picture", "cmd/dpcheck", "dptest"},
		"report":      {"spec", "prism", "statespace", "picture", "cmd/dpcheck", "builder", "dptest"},
		"picture":     {"spec", "prism", "statespace", "report", "cmd/dpcheck", "builder", "dptest"},
		"cmd/dpcheck": {"builder", "dptest"},
		"poly":        {"", "source", "chain", "lump", "mdp", "builder", "verify", "expr", "property", "spec", "prism", "statespace", "report", "picture", "cmd/dpcheck", "dptest"},
		"param":       {"", "source", "lump", "mdp", "expr", "property", "spec", "prism", "statespace", "report", "picture", "cmd/dpcheck", "dptest"},
		"dptest":      {"cmd/dpcheck", "picture", "prism", "statespace", "lump", "mdp", "expr", "param", "poly", "source"},
	}
	for pkg, bad := range never {
		for _, dep := range deps[pkg] {
			if slices.Contains(bad, "*") || slices.Contains(bad, dep) {
				t.Errorf("package %q imports %q, which docs/architecture.md forbids", pkg, dep)
			}
		}
	}
}

// TestNoFlagsInLibraries: no message of a library package names a command
// line flag (a Go caller never passed one); only cmd/dpcheck may.
func TestNoFlagsInLibraries(t *testing.T) {
	flags := []string{"--const", "--format", "--timeout", "--max-states", "--max-transitions", "--max-bits", "--max-file-size", "--root", "--dot", "--svg", "--profile", "--lump", "--help", "--version"}
	for pkg := range imports(t) {
		if pkg == "cmd/dpcheck" {
			continue
		}
		dir := pkg
		if dir == "" {
			dir = "."
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for i, line := range strings.Split(string(src), "\n") {
				if strings.HasPrefix(strings.TrimSpace(line), "//") {
					continue // comments may mention the command
				}
				for _, fl := range flags {
					if strings.Contains(line, fl) {
						t.Errorf("%s:%d names the flag %s", f, i+1, fl)
					}
				}
			}
		}
	}
}
