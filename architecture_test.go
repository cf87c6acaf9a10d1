package dpcheck_test

import (
	"fmt"
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

// rule is what one package may depend on. A package reaches another when
// it imports it, directly or through packages it imports; "" is the root,
// and "*" in never stands for every package of the module.
type rule struct {
	// only, when not nil, lists every package it may reach: anything else
	// it reaches breaks the rule. It keeps the low packages low.
	only []string
	// never lists packages it must not reach, directly or not.
	never []string
	// direct lists packages it must not import itself, though it may
	// reach them through the packages it imports.
	direct []string
	// through maps a package to the packages every path to it passes
	// through: with those taken out of the graph, it is out of reach.
	through map[string][]string
}

// importRules are the rules of docs/architecture.md, one per package of
// the module.
func importRules() map[string]rule {
	front := []string{"spec", "prism", "statespace"}
	top := []string{"report", "picture", "cmd/dpcheck", "dptest"}
	return map[string]rule{
		"source":                       {never: []string{"*"}},
		"exact":                        {never: []string{"*"}},
		"syntax":                       {never: []string{"*"}},
		"internal/reference":           {never: []string{"*"}},
		"chain":                        {only: []string{"exact"}},
		"poly":                         {only: []string{"exact"}},
		"geosum":                       {only: []string{"exact"}},
		"lump":                         {only: []string{"chain", "exact"}},
		"verify":                       {only: []string{"chain", "exact"}},
		"mdp":                          {only: []string{"chain", "exact", "verify"}},
		"model":                        {only: []string{"chain", "exact", "mdp", "verify"}},
		"builder":                      {only: []string{"chain", "exact", "geosum", "mdp", "model", "poly", "verify"}},
		"expr":                         {only: []string{"chain", "exact", "source"}},
		"param":                        {only: []string{"builder", "chain", "exact", "geosum", "mdp", "model", "poly", "verify"}},
		"property":                     {only: []string{"builder", "chain", "exact", "expr", "geosum", "lump", "mdp", "model", "param", "poly", "source", "verify"}},
		"statespace":                   {never: append([]string{"spec", "prism", "", "outcome"}, top...), direct: []string{"verify"}},
		"prism":                        {never: append([]string{"spec", "", "outcome"}, top...)},
		"spec":                         {never: append([]string{"", "outcome"}, top...)},
		"outcome":                      {never: append(append([]string{""}, front...), top...)},
		"":                             {never: top},
		"report":                       {never: append(append([]string{""}, front...), "picture", "cmd/dpcheck", "dptest", "playground"), direct: []string{"builder"}},
		"picture":                      {never: append(append([]string{""}, front...), "report", "cmd/dpcheck", "dptest"), direct: []string{"builder"}},
		"dptest":                       {never: []string{"picture", "cmd/dpcheck"}, direct: []string{"spec", "prism", "statespace", "expr", "mdp", "lump", "param", "poly", "source"}},
		"playground/engine":            {never: []string{"cmd/dpcheck", "dptest", "playground", "playground/wasm"}},
		"playground/wasm":              {never: []string{"cmd/dpcheck", "dptest", "playground"}},
		"playground/internal/assets":   {never: append([]string{"", "outcome", "playground", "playground/engine", "playground/wasm"}, top...)},
		"playground/internal/generate": {never: append([]string{"", "outcome", "playground", "playground/engine", "playground/wasm"}, top...)},
		"playground":                   {never: []string{"*"}},
		"cmd/dpcheck": {never: []string{"dptest"}, direct: []string{"builder"},
			through: map[string][]string{"builder": {"", "property", "spec", "param"}}},
	}
}

// reach returns every package pkg reaches in the import map deps,
// leaving out the packages in skip (they are not entered).
func reach(deps map[string][]string, pkg string, skip []string) map[string]bool {
	seen := map[string]bool{}
	todo := []string{pkg}
	for len(todo) > 0 {
		p := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, d := range deps[p] {
			if !seen[d] && !slices.Contains(skip, d) {
				seen[d] = true
				todo = append(todo, d)
			}
		}
	}
	return seen
}

// breaches returns how the import map deps breaks rules, one line per
// broken rule, sorted.
func breaches(deps map[string][]string, rules map[string]rule) []string {
	var out []string
	for pkg := range deps {
		r, ok := rules[pkg]
		if !ok {
			out = append(out, fmt.Sprintf("package %q has no rule", pkg))
			continue
		}
		reached := reach(deps, pkg, nil)
		for dep := range reached {
			switch {
			case r.only != nil && !slices.Contains(r.only, dep):
				out = append(out, fmt.Sprintf("package %q reaches %q, outside the packages it may reach", pkg, dep))
			case slices.Contains(r.never, "*") || slices.Contains(r.never, dep):
				out = append(out, fmt.Sprintf("package %q reaches %q, which it must never reach", pkg, dep))
			}
		}
		for _, dep := range deps[pkg] {
			if slices.Contains(r.direct, dep) {
				out = append(out, fmt.Sprintf("package %q imports %q directly", pkg, dep))
			}
		}
		for dep, via := range r.through {
			if reach(deps, pkg, via)[dep] {
				out = append(out, fmt.Sprintf("package %q reaches %q other than through %q", pkg, dep, via))
			}
		}
	}
	for pkg := range rules {
		if _, ok := deps[pkg]; !ok {
			out = append(out, fmt.Sprintf("package %q not found: its rule would pass vacuously", pkg))
		}
	}
	slices.Sort(out)
	return out
}

// TestImportRules keeps the layering of docs/architecture.md: it fails
// when a package reaches one it must not, directly or through others, or
// when a package of the module has no rule.
func TestImportRules(t *testing.T) {
	for _, b := range breaches(imports(t), importRules()) {
		t.Error(b)
	}
}

// TestImportRulesCanFail feeds the checker import maps that break each
// kind of rule, so that TestImportRules passing means something.
func TestImportRulesCanFail(t *testing.T) {
	rules := map[string]rule{
		"source":      {never: []string{"*"}},
		"chain":       {only: []string{"exact"}},
		"exact":       {never: []string{"*"}},
		"report":      {never: []string{"spec"}, direct: []string{"builder"}},
		"spec":        {},
		"builder":     {},
		"property":    {},
		"cmd/dpcheck": {through: map[string][]string{"builder": {"property"}}},
	}
	for _, tc := range []struct {
		name string
		deps map[string][]string
		want string
	}{
		{"only, through another package", map[string][]string{"chain": {"exact"}, "exact": {"source"}}, `package "chain" reaches "source", outside the packages it may reach`},
		{"never, everything", map[string][]string{"exact": {"chain"}, "chain": nil}, `package "exact" reaches "chain", which it must never reach`},
		{"never, transitively", map[string][]string{"report": {"property"}, "property": {"spec"}, "spec": nil}, `package "report" reaches "spec", which it must never reach`},
		{"direct", map[string][]string{"report": {"builder"}, "builder": nil}, `package "report" imports "builder" directly`},
		{"through", map[string][]string{"cmd/dpcheck": {"property", "report"}, "property": {"builder"}, "report": {"builder"}, "builder": nil}, `package "cmd/dpcheck" reaches "builder" other than through ["property"]`},
		{"no rule", map[string][]string{"chain": {"newpkg"}, "newpkg": nil}, `package "newpkg" has no rule`},
		{"vacuous rule", map[string][]string{}, `package "source" not found: its rule would pass vacuously`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := breaches(tc.deps, rules); !slices.Contains(got, tc.want) {
				t.Errorf("breaches = %q, want it to contain %q", got, tc.want)
			}
		})
	}
	ok := map[string][]string{"cmd/dpcheck": {"property"}, "property": {"builder"}, "builder": nil, "report": nil, "spec": nil, "source": nil, "exact": nil, "chain": {"exact"}}
	if got := breaches(ok, rules); len(got) != 0 {
		t.Errorf("a map that keeps the rules breaks them: %q", got)
	}
}

// diagram returns the packages of docs/architecture.md's package diagram,
// in the order it lists them ("" for the root, "dpcheck" in the diagram),
// the line of each, and the imports it lists for each: the last
// parenthesised list of its entry, "nothing of ours" for none.
func diagram(t *testing.T) (pkgs []string, line map[string]int, listed map[string][]string) {
	t.Helper()
	doc, err := os.ReadFile("docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	line, listed = map[string]int{}, map[string][]string{}
	text := map[string]string{}
	in, cur := false, ""
	for i, l := range strings.Split(string(doc), "\n") {
		if strings.HasPrefix(l, "```") {
			if in {
				break // the first block is the diagram
			}
			in = true
			continue
		}
		if !in || l == "" {
			continue
		}
		if strings.HasPrefix(l, " ") {
			text[cur] += " " + strings.TrimSpace(l)
			continue
		}
		cur = strings.TrimSuffix(strings.Fields(l)[0], "/")
		if cur == "dpcheck" {
			cur = ""
		}
		pkgs = append(pkgs, cur)
		line[cur] = i + 1
		text[cur] = l
	}
	for p, s := range text {
		open := strings.LastIndex(s, "(")
		end := strings.LastIndex(s, ")")
		if open < 0 || end < open {
			continue
		}
		list := []string{}
		if in := s[open+1 : end]; in != "nothing of ours" {
			for _, d := range strings.Split(in, ",") {
				d = strings.TrimSpace(d)
				if d == "dpcheck" {
					d = ""
				}
				list = append(list, d)
			}
		}
		listed[p] = list
	}
	return pkgs, line, listed
}

// TestArchitectureDiagram: the diagram of docs/architecture.md lists
// every package of the module once, lowest first — every package it
// lists imports only packages listed above it — with the packages each
// imports.
func TestArchitectureDiagram(t *testing.T) {
	deps := imports(t)
	pkgs, line, listed := diagram(t)
	seen := map[string]bool{}
	for _, p := range pkgs {
		if seen[p] {
			t.Errorf("docs/architecture.md lists package %q twice", p)
		}
		seen[p] = true
		if _, ok := deps[p]; !ok {
			t.Errorf("docs/architecture.md:%d lists package %q, which the module does not have", line[p], p)
		}
	}
	for p := range deps {
		if !seen[p] {
			t.Errorf("docs/architecture.md's diagram does not list package %q", p)
			continue
		}
		for _, d := range deps[p] {
			if seen[d] && line[d] > line[p] {
				t.Errorf("docs/architecture.md:%d lists %q above %q, which it imports", line[p], p, d)
			}
		}
		want := slices.Sorted(slices.Values(deps[p]))
		if got := slices.Sorted(slices.Values(listed[p])); !slices.Equal(got, want) {
			t.Errorf("docs/architecture.md:%d says %q imports %q; it imports %q", line[p], p, got, want)
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
