package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/report"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// junitTimes are the time attributes of a JUnit report.
var junitTimes = regexp.MustCompile(`time="[0-9]+\.[0-9]{3}"`)

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
		{"junit", []string{"--format", "junit", "testdata/pass.dp", "testdata/violated.dp", "testdata/errors.dp"}},
		{"github", []string{"--format", "github", "testdata/pass.dp", "testdata/violated.dp", "testdata/errors.dp"}},
		{"too_big", []string{"--max-transitions", "30", "testdata/pass.dp", "../../models/geometric.dp"}},
		{"pictures_of_two_files", []string{"--dot", "x.dot", "testdata/pass.dp", "testdata/violated.dp"}},
		{"fmt_check", []string{"fmt", "--check", "testdata/unformatted.dp", "testdata/pass.dp"}},
		{"fmt_print", []string{"fmt", "testdata/unformatted.dp"}},
		{"fmt_error", []string{"fmt", "testdata/broken.dp"}},
		{"dpctl_json", []string{"--format", "json", "testdata/dpctl.dp"}},
		{"lump_text", []string{"--lump", "testdata/violated.dp", "testdata/dpctl.dp", "../../models/sparse_vector.dp"}},
		{"lump_json", []string{"--lump", "--format", "json", "testdata/dpctl.dp"}},
		{"help", []string{"--help"}},
		{"version", []string{"--version"}},
		{"no_files", nil},
		{"bad_format", []string{"--format", "xml", "testdata/pass.dp"}},
		{"bad_flag", []string{"--frobnicate", "testdata/pass.dp"}},
		{"missing_file", []string{"testdata/nope.dp"}},
		{"prism_text", []string{"--const", "p=1/2", "../../models/prism/randomized_response.prism", "../../models/prism/randomized_response.pctl"}},
		{"prism_json", []string{"--format", "json", "--const", "p=1/2", "../../models/prism/randomized_response.prism", "../../models/prism/randomized_response.pctl"}},
		{"prism_in_dp", []string{"../../models/prism/randomized_response.dp"}},
		{"prism_errors_text", []string{"testdata/prism_errors.prism", "testdata/prism_errors.pctl"}},
		{"prism_errors_json", []string{"--format", "json", "testdata/prism_errors.prism", "testdata/prism_errors.pctl"}},
		{"prism_errors_github", []string{"--format", "github", "testdata/prism_errors.prism", "testdata/prism_errors.pctl"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), tt.args, &stdout, &stderr)
			got := fmt.Sprintf("exit %d\n-- stdout --\n%s-- stderr --\n%s", code, stdout.String(), stderr.String())
			got = junitTimes.ReplaceAllString(got, `time="T"`) // measured: not golden
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
		// PRISM: a model with each properties file after it.
		{[]string{"--const", "p=1/2", "../../models/prism/randomized_response.prism", "../../models/prism/randomized_response.pctl", "testdata/pass.dp"}, 0},
		{[]string{"../../models/prism/randomized_response.prism", "../../models/prism/randomized_response.pctl", "--const", "p=1/2,q=1"}, 2},
		{[]string{"testdata/prism_errors.prism", "testdata/prism_errors.pctl"}, 2},
		{[]string{"../../models/prism/randomized_response.prism"}, 2},
	} {
		if got := run(context.Background(), tc.args, &bytes.Buffer{}, &bytes.Buffer{}); got != tc.want {
			t.Errorf("dpcheck %s: exit %d, want %d", strings.Join(tc.args, " "), got, tc.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	if got := run(ctx, []string{"testdata/pass.dp"}, &stdout, &stderr); got != 3 || !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("cancelled run: exit %d, stderr %q; want 3 and a message", got, stderr.String())
	}
	if want := "testdata/pass.dp: stopped: interrupted before its checks ran\n\n1 file, 0 statements: 0 passed, 0 failed, 1 file stopped before checking\n"; stdout.String() != want {
		t.Errorf("cancelled run: stdout %q, want %q", stdout.String(), want)
	}
	stderr.Reset()
	if got := run(context.Background(), []string{"--timeout", "-1s", "testdata/pass.dp"}, &bytes.Buffer{}, &stderr); got != 2 || stderr.String() != "dpcheck: --timeout must not be negative, got -1s\n" {
		t.Errorf("negative timeout: exit %d, stderr %q", got, stderr.String())
	}
}

// TestDirectoryRecursion: a directory argument means every .dp file below
// it, at any depth, in lexical order; other files are ignored.
func TestDirectoryRecursion(t *testing.T) {
	dir := t.TempDir()
	pass, err := os.ReadFile("testdata/pass.dp")
	if err != nil {
		t.Fatal(err)
	}
	violated, err := os.ReadFile("testdata/violated.dp")
	if err != nil {
		t.Fatal(err)
	}
	for name, src := range map[string][]byte{
		"a.dp":              pass,
		"sub/deeper/b.dp":   violated,
		"sub/c.dp":          pass,
		"sub/notes.txt":     []byte("not a model"),
		"sub/deeper/d.dp.x": []byte("not a model either"),
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var stdout bytes.Buffer
	if got := run(context.Background(), []string{"--format", "json", dir}, &stdout, &bytes.Buffer{}); got != 1 {
		t.Errorf("exit %d, want 1 (one file violated)", got)
	}
	var doc report.Document
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range doc.Files {
		rel, _ := filepath.Rel(dir, f.File)
		got = append(got, filepath.ToSlash(rel)+":"+f.Status)
	}
	if diff := cmp.Diff([]string{"a.dp:pass", "sub/c.dp:pass", "sub/deeper/b.dp:fail"}, got); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
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

func TestTimeout(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"--timeout", "1ns", "testdata/pass.dp"}, &stdout, &stderr)
	if code != 3 || stderr.String() != "dpcheck: stopped after 1ns (--timeout)\n" {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}

func TestFmtWrite(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("testdata/unformatted.dp")
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(dir, "m.dp")
	if err := os.WriteFile(f, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if code := run(context.Background(), []string{"fmt", "-w", dir}, &bytes.Buffer{}, &bytes.Buffer{}); code != 0 {
		t.Fatalf("fmt -w: exit %d", code)
	}
	var stdout bytes.Buffer
	if code := run(context.Background(), []string{"fmt", "--check", f}, &stdout, &bytes.Buffer{}); code != 0 || stdout.Len() != 0 {
		t.Errorf("after fmt -w, fmt --check: exit %d, output %q", code, stdout.String())
	}
	// The rewritten file still checks the same way.
	if code := run(context.Background(), []string{f}, &bytes.Buffer{}, &bytes.Buffer{}); code != 0 {
		t.Errorf("the formatted file: exit %d", code)
	}
}

func TestPictures(t *testing.T) {
	dir := t.TempDir()
	dot := filepath.Join(dir, "m.dot")
	png := filepath.Join(dir, "p.png")
	var stderr bytes.Buffer
	if code := run(context.Background(), []string{"--dot", dot, "--profile", png, "testdata/violated.dp"}, &bytes.Buffer{}, &stderr); code != 1 {
		t.Fatalf("exit %d, want 1 (the file has failing statements): %s", code, stderr.String())
	}
	got, err := os.ReadFile(dot)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/golden/violated.dot")
	if *update {
		os.WriteFile("testdata/golden/violated.dot", got, 0o644)
	} else if err != nil || string(got) != string(want) {
		t.Errorf("DOT differs from testdata/golden/violated.dot (-update rewrites it):\n%s", got)
	}
	img, err := os.ReadFile(png)
	if err != nil || len(img) < 1000 || string(img[1:4]) != "PNG" {
		t.Errorf("--profile wrote %d bytes (%v), not a PNG", len(img), err)
	}
	svg := filepath.Join(dir, "m.svg")
	code := run(context.Background(), []string{"--svg", svg, "testdata/violated.dp"}, &bytes.Buffer{}, &stderr)
	if _, err := exec.LookPath("dot"); err != nil {
		// A picture never changes the exit status: the checks' is 1.
		if code != 1 || !strings.Contains(stderr.String(), "dpcheck: warning: no SVG: Graphviz") {
			t.Errorf("--svg without Graphviz: exit %d, %q", code, stderr.String())
		}
		return
	}
	if b, err := os.ReadFile(svg); err != nil || !strings.Contains(string(b), "<svg") {
		t.Errorf("--svg wrote no SVG: %v", err)
	}
	// A .gif is a usage error, found before anything is checked.
	stderr.Reset()
	if code := run(context.Background(), []string{"--profile", filepath.Join(dir, "p.gif"), "testdata/violated.dp"}, &bytes.Buffer{}, &stderr); code != 2 || !strings.HasPrefix(stderr.String(), "dpcheck: --profile draws to a .png or .svg file") {
		t.Errorf("--profile with a .gif: exit %d, want 2: %s", code, stderr.String())
	}
}

// panicWriter fails as a bug would, the first time it is written to.
type panicWriter struct{}

func (panicWriter) Write([]byte) (int, error) { panic("a bug while writing the report") }

// TestInternalErrorExit: a bug anywhere in the command exits 4 with a
// request to report it, not with a Go crash.
func TestInternalErrorExit(t *testing.T) {
	var stderr bytes.Buffer
	code := run(context.Background(), []string{"testdata/pass.dp"}, panicWriter{}, &stderr)
	if code != 4 || !strings.HasPrefix(stderr.String(), "dpcheck: internal error — please report it, with the file that caused it: internal error: a bug while writing the report") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}

// TestFlagsAnywhere: flags may come after and between the file names;
// after "--" everything is a file.
func TestFlagsAnywhere(t *testing.T) {
	for _, args := range [][]string{
		{"testdata/pass.dp", "--format", "json"},
		{"--format=json", "testdata/pass.dp"},
		{"testdata/pass.dp", "--format", "json", "testdata/pass.dp"},
	} {
		var stdout bytes.Buffer
		if code := run(context.Background(), args, &stdout, &bytes.Buffer{}); code != 0 || !strings.HasPrefix(stdout.String(), "{") {
			t.Errorf("dpcheck %s: exit %d, output %.40q", strings.Join(args, " "), code, stdout.String())
		}
	}
	var stdout bytes.Buffer
	if code := run(context.Background(), []string{"--", "--format"}, &stdout, &bytes.Buffer{}); code != 2 || !strings.Contains(stdout.String(), "--format: error: cannot read --format: no such file") {
		t.Errorf("dpcheck -- --format: exit %d, %q", code, stdout.String())
	}
}

// TestNoProfileOfMergedTails: --profile does not draw a model whose
// tails were merged for its statements' ε only (its δ between them is a
// lower bound): it warns, writes no picture, and the exit status is the
// checks'; --dot still draws the chain.
func TestNoProfileOfMergedTails(t *testing.T) {
	dir := t.TempDir()
	prof, dot := filepath.Join(dir, "p.png"), filepath.Join(dir, "m.dot")
	var stderr bytes.Buffer
	if code := run(context.Background(), []string{"--profile", prof, "--dot", dot, "../../models/noisy_max_value_untruncated.dp"}, &bytes.Buffer{}, &stderr); code != 0 {
		t.Fatalf("exit %d, want 0: %s", code, stderr.String())
	}
	want := "dpcheck: warning: no profile of ../../models/noisy_max_value_untruncated.dp: its model's tails were merged for the ε of its statements only (see the model line), so δ between them is not computed\n"
	if got := stderr.String(); !strings.HasPrefix(got, want) {
		t.Errorf("stderr %q, want it to start %q", got, want)
	}
	if _, err := os.Stat(prof); err == nil {
		t.Error("a profile was drawn")
	}
	if _, err := os.Stat(dot); err != nil {
		t.Errorf("no DOT file: %v", err)
	}
}

// TestPicturesOfAParametricChain: --dot does not draw a model with a
// parameter (its frame's rows are not the chain's): it warns, writes
// nothing, and the exit status is the checks'.
func TestPicturesOfAParametricChain(t *testing.T) {
	dot := filepath.Join(t.TempDir(), "m.dot")
	var stderr bytes.Buffer
	if code := run(context.Background(), []string{"--dot", dot, "../../models/survey_param.dp"}, &bytes.Buffer{}, &stderr); code != 0 {
		t.Fatalf("exit %d, want 0: %s", code, stderr.String())
	}
	want := "dpcheck: warning: no picture of ../../models/survey_param.dp: --dot, --svg and --profile draw a Markov chain, and its model has a parameter (pictures of parametric chains are not drawn yet)\n"
	if got := stderr.String(); got != want {
		t.Errorf("stderr %q, want %q", got, want)
	}
	if _, err := os.Stat(dot); err == nil {
		t.Error("a DOT file was written")
	}
}

// TestSweep: a sweep gives each file the values of the constants it
// declares — one run per distinct combination, named with them — and a
// name no file declares is a usage error.
func TestSweep(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	k := write("k.dp", "const K\nmodel truncated_geometric(alpha = 1/2, n = K)\nquery eps(delta = 0) expect ln(2)\n")
	p := write("p.dp", "const p = 1/2\nmodel survey(theta1 = p, theta2 = 1/2)\ncheck dp(eps = ln(4))\n")
	var stdout, stderr bytes.Buffer
	if got := run(context.Background(), []string{"--const", "K=1..2,p=1/4:1/4:1/2", k, p}, &stdout, &stderr); got != 0 {
		t.Fatalf("exit %d, stderr %s\n%s", got, stderr.String(), stdout.String())
	}
	var heads []string
	for _, l := range strings.Split(stdout.String(), "\n") {
		if strings.HasPrefix(l, dir) {
			heads = append(heads, strings.TrimPrefix(l, dir+string(filepath.Separator)))
		}
	}
	want := []string{"k.dp (K=1)", "k.dp (K=2)", "p.dp (p=1/4)", "p.dp (p=1/2)"}
	if d := cmp.Diff(want, heads); d != "" {
		t.Errorf("runs (-want +got):\n%s", d)
	}
	if !strings.HasSuffix(stdout.String(), "2 files in 4 runs, 4 statements: 4 passed, 0 failed\n") {
		t.Errorf("tally: %q", stdout.String()[max(0, stdout.Len()-80):])
	}
	stderr.Reset()
	if got := run(context.Background(), []string{"--const", "Z=3", k}, &bytes.Buffer{}, &stderr); got != 2 || stderr.String() != "dpcheck: --const: no file given declares a constant Z\n" {
		t.Errorf("unknown name: exit %d, stderr %q", got, stderr.String())
	}
}
