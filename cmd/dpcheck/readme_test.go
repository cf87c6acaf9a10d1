package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/spec"
)

// docFiles are the documents whose code blocks the tests keep true: the
// README and the pages of docs/, relative to the repository root.
func docFiles(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(pages) < 5 {
		t.Fatalf("docs/*.md: %d pages, %v", len(pages), err)
	}
	files := []string{"README.md"}
	for _, p := range pages {
		files = append(files, filepath.ToSlash(strings.TrimPrefix(p, "../../")))
	}
	return files
}

// TestReadmeOutputs keeps the sample outputs of the README and the docs
// true: every block marked <!-- output: dpcheck ARGS --> must be what
// dpcheck ARGS prints, run from the repository root.
func TestReadmeOutputs(t *testing.T) {
	files := docFiles(t)
	t.Chdir("../..")
	re := regexp.MustCompile("(?s)<!-- output: dpcheck ([^>]*) -->\n```\n(.*?)```\n")
	n := 0
	for _, f := range files {
		doc, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range re.FindAllStringSubmatch(string(doc), -1) {
			n++
			var stdout bytes.Buffer
			run(context.Background(), shellFields(b[1]), &stdout, &bytes.Buffer{})
			if got, want := strings.TrimRight(stdout.String(), "\n"), strings.TrimRight(b[2], "\n"); got != want {
				t.Errorf("%s: the sample for dpcheck %s is stale; dpcheck now prints:\n%s", f, b[1], got)
			}
		}
	}
	if n < 3 {
		t.Fatalf("found %d sample outputs, want at least 3", n)
	}
}

// TestReadmeExampleOutputs keeps the docs' samples of Go output true: a
// block after <!-- output: PKG.ExampleName --> is the "// Output:" of that
// runnable example in package PKG, which go test checks.
func TestReadmeExampleOutputs(t *testing.T) {
	files := docFiles(t)
	t.Chdir("../..")
	re := regexp.MustCompile("(?s)<!-- output: ([a-z]+)\\.(Example\\w*) -->\n```\n(.*?)```\n")
	n := 0
	for _, f := range files {
		doc, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range re.FindAllStringSubmatch(string(doc), -1) {
			n++
			want, ok := exampleOutput(t, b[1], b[2])
			if !ok {
				t.Errorf("%s: no example %s in package %s with an // Output: comment", f, b[2], b[1])
				continue
			}
			if got := strings.TrimRight(b[3], "\n"); got != want {
				t.Errorf("%s: the sample of %s.%s is stale; the example's output is:\n%s", f, b[1], b[2], want)
			}
		}
	}
	if n == 0 {
		t.Fatal("found no sample of an example's output")
	}
}

// exampleOutput is the "// Output:" comment of func name() in one of
// package dir's test files.
func exampleOutput(t *testing.T, dir, name string) (string, bool) {
	files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		_, body, ok := strings.Cut(string(src), "\nfunc "+name+"() {\n")
		if !ok {
			continue
		}
		body, _, _ = strings.Cut(body, "\n}\n")
		_, out, ok := strings.Cut(body, "\t// Output:\n")
		if !ok {
			return "", false
		}
		var lines []string
		for _, l := range strings.Split(out, "\n") {
			l = strings.TrimPrefix(strings.TrimPrefix(l, "\t//"), " ")
			lines = append(lines, l)
		}
		return strings.Join(lines, "\n"), true
	}
	return "", false
}

// block is a fenced code block of a document.
type block struct {
	file   string // the document, relative to the repository root
	info   string // the info string: sh, go, dp, yaml, ebnf or ""
	marker string // a <!-- readme-test: … --> comment just before it
	text   string
	line   int
}

func readmeBlocks(t *testing.T, file string) []block {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("../..", file))
	if err != nil {
		t.Fatal(err)
	}
	var out []block
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "```") {
			continue
		}
		b := block{file: file, info: strings.TrimPrefix(lines[i], "```"), line: i + 1}
		if i > 0 && strings.HasPrefix(lines[i-1], "<!-- readme-test:") {
			b.marker = strings.TrimSuffix(strings.TrimPrefix(lines[i-1], "<!-- readme-test: "), " -->")
		}
		var body []string
		for i++; i < len(lines) && lines[i] != "```"; i++ {
			body = append(body, lines[i])
		}
		b.text = strings.Join(body, "\n")
		out = append(out, b)
	}
	return out
}

// TestReadmeCodeBlocks keeps every other code block of the docs true:
// shell commands run (dpcheck) or name what exists (packages, fuzz targets,
// benchmarks); .dp files load and pass (fragments marked "parse" parse); Go
// snippets are quoted from compiled, tested files; the workflow's dpcheck
// steps run; the JSON schema names only fields the report has.
func TestReadmeCodeBlocks(t *testing.T) {
	var blocks []block
	for _, f := range docFiles(t) {
		blocks = append(blocks, readmeBlocks(t, f)...)
	}
	t.Chdir("../..")
	seen := map[string]int{}
	for _, b := range blocks {
		seen[b.info]++
		switch b.info {
		case "sh":
			for _, l := range strings.Split(b.text, "\n") {
				checkCommand(t, b.at(), l)
			}
		case "dp":
			checkDP(t, b)
		case "go":
			checkGoQuoted(t, b)
		case "yaml":
			for _, l := range strings.Split(b.text, "\n") {
				if cmd, ok := strings.CutPrefix(strings.TrimSpace(l), "run: "); ok && strings.HasPrefix(cmd, "dpcheck ") {
					checkCommand(t, b.at(), strings.TrimSuffix(cmd, " || true"))
				}
			}
		case "ebnf": // spec.TestGrammarInReadme
		case "":
			if strings.Contains(b.text, `"schema": 1`) {
				checkSchema(t, b)
			} // other plain blocks are outputs: TestReadmeOutputs
		default:
			t.Errorf("%s: a code block of unknown kind %q", b.at(), b.info)
		}
	}
	for _, kind := range []string{"sh", "dp", "go", "yaml", "ebnf"} {
		if seen[kind] == 0 {
			t.Errorf("the docs have no %s block; the test expects the ones it documents", kind)
		}
	}
}

// at is where the block starts: "docs/cli.md:12".
func (b block) at() string { return fmt.Sprintf("%s:%d", b.file, b.line) }

// shellFields splits a command line, honouring single quotes, and drops a
// trailing # comment.
func shellFields(line string) []string {
	var out []string
	var cur strings.Builder
	in, any := false, false
	for _, r := range line {
		switch {
		case r == '\'':
			in, any = !in, true
		case !in && r == '#' && cur.Len() == 0:
			return out
		case !in && (r == ' ' || r == '\t'):
			if cur.Len() > 0 || any {
				out = append(out, cur.String())
				cur.Reset()
				any = false
			}
		default:
			cur.WriteRune(r)
		}
	}
	if cur.Len() > 0 || any {
		out = append(out, cur.String())
	}
	return out
}

func flagValue(args []string, name string) string {
	for i, a := range args {
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

// checkCommand checks one command of the docs.
func checkCommand(t *testing.T, at string, line string) {
	t.Helper()
	f := shellFields(line)
	for len(f) > 0 && regexp.MustCompile(`^[A-Z_]+=`).MatchString(f[0]) {
		f = f[1:] // an environment variable for the command
	}
	switch {
	case len(f) == 0:
	case len(f) >= 3 && f[0] == "go" && f[1] == "run" && f[2] == "./cmd/dpcheck":
		runDpcheck(t, at, f[3:])
	case f[0] == "dpcheck":
		runDpcheck(t, at, f[1:])
	case len(f) >= 2 && f[0] == "go" && (f[1] == "install" || f[1] == "generate"):
		mustExist(t, at, f[2])
	case len(f) == 2 && f[0] == "go" && f[1] == "test" || len(f) == 3 && f[2] == "./...":
		// the test command itself
	case len(f) >= 3 && f[0] == "go" && f[1] == "test":
		pkg := f[2]
		if pkg == "-c" {
			pkg = f[len(f)-1]
		}
		mustExist(t, at, pkg)
		if name := flagValue(f, "-fuzz"); name != "" {
			mustDefine(t, at, pkg, `func `+name+`\(`)
		}
		if re := flagValue(f, "-bench"); re != "" {
			mustBench(t, at, pkg, re)
		}
		if name := flagValue(f, "-run"); regexp.MustCompile(`^[A-Za-z]+$`).MatchString(name) {
			if !strings.HasPrefix(name, "Test") {
				name = "Test" + name
			}
			mustDefine(t, at, pkg, `func `+name+`\(`)
		}
	case f[0] == "/usr/bin/time" && len(f) > 3 && f[3] == "dpcheck":
		// measures dpcheck on a file an earlier command generates
	case f[0] == "/usr/bin/time" && len(f) > 3:
		// measures a test binary, go test -c -o /tmp/PKG.test ./PKG
		pkg := "./" + strings.TrimSuffix(filepath.Base(f[3]), ".test")
		if re := flagValue(f, "-test.bench"); re != "" {
			mustBench(t, at, pkg, re)
		}
	default:
		t.Errorf("%s: a command this test does not know how to check: %s", at, line)
	}
}

func runDpcheck(t *testing.T, at string, args []string) {
	t.Helper()
	var clean []string
	for i, a := range args {
		if a == ">" { // a redirection ends the arguments
			break
		}
		if strings.ContainsAny(a, "|…") || a == "FILE" || a == "DIR" {
			return // a usage pattern, not a command
		}
		// Files the command writes go to a temporary directory.
		if filepath.Ext(a) == ".png" || filepath.Ext(a) == ".svg" || i > 0 && slices.Contains([]string{"--dot", "--junit", "--json", "--markdown"}, args[i-1]) {
			a = filepath.Join(t.TempDir(), filepath.Base(strings.Trim(a, `"$`)))
		}
		clean = append(clean, a)
	}
	ctx := context.Background()
	if len(clean) > 0 && clean[0] == "serve" {
		// The server runs until it is stopped: on a free port, for a moment.
		clean = append(slices.DeleteFunc(clean, func(a string) bool { return strings.HasPrefix(a, "--addr") }), "--addr", "127.0.0.1:0")
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 300*time.Millisecond)
		defer cancel()
	}
	var stdout, stderr bytes.Buffer
	if code := run(ctx, clean, &stdout, &stderr); code != 0 {
		t.Errorf("%s: dpcheck %s exits %d: %s", at, strings.Join(args, " "), code, stderr.String())
	}
	if clean[0] == "serve" && !strings.Contains(stdout.String(), "the playground is at http://127.0.0.1:") {
		t.Errorf("%s: dpcheck %s did not serve: %s%s", at, strings.Join(args, " "), stdout.String(), stderr.String())
	}
}

func mustExist(t *testing.T, at string, pkg string) {
	t.Helper()
	if _, err := os.Stat(strings.TrimSuffix(pkg, "/...")); err != nil {
		t.Errorf("%s: %s does not exist", at, pkg)
	}
}

// mustBench checks that a -bench pattern selects a benchmark of pkg the
// way the testing package does: the pattern is split at each "/" outside
// parentheses and brackets, and the first part is matched, unanchored,
// against the function's name, Benchmark included.
func mustBench(t *testing.T, at string, pkg, pattern string) {
	t.Helper()
	var names []string
	files, _ := filepath.Glob(filepath.Join(pkg, "*_test.go"))
	for _, f := range files {
		if src, err := os.ReadFile(f); err == nil {
			for _, m := range regexp.MustCompile(`(?m)^func (Benchmark\w*)\(`).FindAllSubmatch(src, -1) {
				names = append(names, string(m[1]))
			}
		}
	}
	parts := splitBench(pattern)
	for _, p := range parts {
		if _, err := regexp.Compile(p); err != nil {
			t.Errorf("%s: -bench %s: %v", at, pattern, err)
			return
		}
	}
	re := regexp.MustCompile(parts[0])
	if !slices.ContainsFunc(names, re.MatchString) {
		t.Errorf("%s: -bench %s: %q selects no benchmark of %s (it has %v)", at, pattern, parts[0], pkg, names)
	}
}

// splitBench splits a -bench pattern as the testing package does: at each
// "/" outside parentheses and brackets.
func splitBench(pattern string) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(pattern); i++ {
		switch pattern[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case '/':
			if depth == 0 {
				parts = append(parts, pattern[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, pattern[start:])
}

// mustDefine checks that a test file of pkg matches the pattern.
func mustDefine(t *testing.T, at string, pkg, pattern string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(pkg, "*_test.go"))
	re := regexp.MustCompile(pattern)
	for _, f := range files {
		if src, err := os.ReadFile(f); err == nil && re.Match(src) {
			return
		}
	}
	t.Errorf("%s: no test file of %s defines %s", at, pkg, pattern)
}

// checkDP loads a .dp block: every statement must pass; a fragment marked
// "parse" must parse.
func checkDP(t *testing.T, b block) {
	t.Helper()
	if b.marker == "parse" {
		if _, err := spec.Parse(b.file, b.text); err != nil {
			t.Errorf("%s: the .dp fragment does not parse: %v", b.at(), err)
		}
		return
	}
	// A block that names a file of models/ in its first line quotes it.
	if name, ok := strings.CutPrefix(strings.SplitN(b.text, "\n", 2)[0], "// models/"); ok {
		name, _, _ = strings.Cut(name, " ")
		file, err := os.ReadFile(filepath.Join("models", name))
		if err != nil {
			t.Errorf("%s: the block quotes models/%s: %v", b.at(), name, err)
		} else if strings.TrimRight(string(file), "\n") != b.text {
			t.Errorf("%s: the block differs from models/%s, which it quotes", b.at(), name)
		}
	}
	// The files a block names are relative to the repository's root, as
	// the commands of the docs are run from it.
	res, err := dpcheck.CheckSource(context.Background(), filepath.Base(b.file), b.text)
	if err != nil {
		t.Errorf("%s: the .dp example does not load: %v", b.at(), err)
		return
	}
	if !res.Pass() {
		t.Errorf("%s: a statement of the .dp example fails", b.at())
	}
}

// codeLines are a Go snippet's lines without comments and spacing.
func codeLines(src string) []string {
	var out []string
	for _, l := range strings.Split(src, "\n") {
		if i := strings.Index(l, "//"); i >= 0 {
			l = l[:i]
		}
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// checkGoQuoted: the snippet's code lines appear, in order, in one Go test
// file of the module (which compiles and runs).
func checkGoQuoted(t *testing.T, b block) {
	t.Helper()
	want := codeLines(b.text)
	var files []string
	filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, "_test.go") {
			files = append(files, p)
		}
		return nil
	})
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		have := codeLines(string(src))
		i := 0
		for _, l := range have {
			if i < len(want) && l == want[i] {
				i++
			}
		}
		if i == len(want) {
			return
		}
	}
	t.Errorf("%s: the Go snippet is not quoted from any test file:\n%s", b.at(), b.text)
}

// checkSchema: every field the JSON schema block names is a JSON field of
// the report's documents.
func checkSchema(t *testing.T, b block) {
	t.Helper()
	var src strings.Builder
	files, _ := filepath.Glob("report/*.go")
	for _, f := range files {
		data, _ := os.ReadFile(f)
		src.Write(data)
	}
	tags := src.String()
	for _, m := range regexp.MustCompile(`"([a-z_]+)":`).FindAllStringSubmatch(b.text, -1) {
		if !strings.Contains(tags, `json:"`+m[1]) {
			t.Errorf("%s: the JSON schema names %q, which the report has no field for", b.at(), m[1])
		}
	}
}
