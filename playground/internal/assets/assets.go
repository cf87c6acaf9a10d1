// Package assets makes the generated files of the playground's page: the
// WebAssembly module (gzipped), Go's wasm_exec.js that runs it, the
// examples from models/, and a manifest that records what they were made
// from, so that a test can tell when they are stale.
package assets

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dpcheck/dpcheck/spec"
)

// The generated files, in the playground's static directory.
const (
	WASM     = "dpcheck.wasm.gz"
	WASMExec = "wasm_exec.js"
	Examples = "examples.json"
	Manifest = "manifest.json"
	Viz      = "viz-global.js.gz"
)

// VizVersion is the release of Viz.js (Graphviz compiled to WebAssembly,
// from the npm package @viz-js/viz) the page draws chains with.
const VizVersion = "3.31.0"

// VizJS returns Viz.js's viz-global.js, gzipped, from the npm registry
// the machine's npm is configured with.
func VizJS(ctx context.Context) ([]byte, error) {
	tmp, err := os.MkdirTemp("", "dpcheck-viz")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	cmd := exec.CommandContext(ctx, "npm", "pack", "--silent", "@viz-js/viz@"+VizVersion)
	cmd.Dir = tmp
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("npm pack @viz-js/viz@%s: %v", VizVersion, err)
	}
	tgz := filepath.Join(tmp, strings.TrimSpace(string(out)))
	cmd = exec.CommandContext(ctx, "tar", "-xzf", tgz, "-C", tmp, "package/dist/viz-global.js")
	if b, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("tar: %v: %s", err, b)
	}
	raw, err := os.ReadFile(filepath.Join(tmp, "package", "dist", "viz-global.js"))
	if err != nil {
		return nil, err
	}
	return gzipped(raw)
}

// gzipped compresses b, the same bytes every time (no name, no time).
func gzipped(raw []byte) ([]byte, error) {
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(raw); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WASMPackage is the package compiled to WebAssembly.
const WASMPackage = "./playground/wasm"

// A ManifestDoc records what the generated files were made from.
type ManifestDoc struct {
	// Go is the Go release that built the module (and whose wasm_exec.js
	// runs it).
	Go string `json:"go"`
	// Sources is the SHA-256 of the module's Go sources and go.sum
	// (SourcesHash): the module is stale when they change.
	Sources string `json:"sources"`
	// WASM is the SHA-256 of the gzipped module, and its sizes in bytes.
	WASM      string `json:"wasm"`
	WASMBytes int    `json:"wasm_bytes"`
	GzipBytes int    `json:"gzip_bytes"`
	// Viz is the release of Viz.js in viz-global.js.gz (VizVersion).
	Viz string `json:"viz"`
}

// An ExamplesDoc is the page's examples: every file below models/ by its
// path, and the .dp files among them, the menu's entries, in order.
type ExamplesDoc struct {
	Examples []string          `json:"examples"`
	Files    map[string]string `json:"files"`
	// Keywords are the .dp language's, for the editor to highlight.
	Keywords []string `json:"keywords"`
}

// maxExample bounds the size of a file the examples carry.
const maxExample = 1 << 20

// ExamplesJSON returns examples.json for the models below root/models.
func ExamplesJSON(root string) ([]byte, error) {
	doc := ExamplesDoc{Files: map[string]string{}, Keywords: spec.Keywords()}
	err := filepath.WalkDir(filepath.Join(root, "models"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if len(b) > maxExample {
			return fmt.Errorf("%s: %d bytes, over the %d an example may have", rel, len(b), maxExample)
		}
		doc.Files[rel] = string(b)
		if path.Ext(rel) == ".dp" {
			doc.Examples = append(doc.Examples, rel)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(doc.Examples)
	return json.MarshalIndent(doc, "", " ")
}

// goCmd runs the go command in dir with GOOS=js GOARCH=wasm.
func goCmd(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return out, nil
}

// SourcesHash returns the SHA-256 of what the module is built from: the
// non-test Go files (and embedded files) of every package of this module
// it imports, by path and content, and go.sum, which pins the others.
func SourcesHash(ctx context.Context, root string) (string, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	out, err := goCmd(ctx, root, "list", "-deps", "-f",
		`{{if not .Standard}}{{.Module.Path}}{{range .GoFiles}} {{$.Dir}}/{{.}}{{end}}{{range .EmbedFiles}} {{$.Dir}}/{{.}}{{end}}{{end}}`, WASMPackage)
	if err != nil {
		return "", err
	}
	var files []string
	for _, line := range strings.Split(string(out), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 || fields[0] != "github.com/dpcheck/dpcheck" {
			continue // another module: go.sum pins it
		}
		files = append(files, fields[1:]...)
	}
	files = append(files, filepath.Join(root, "go.sum"), filepath.Join(root, "go.mod"))
	h := sha256.New()
	for _, f := range files {
		rel, err := filepath.Rel(root, f)
		if err != nil {
			return "", err
		}
		b, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", filepath.ToSlash(rel), len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Build compiles the module and returns it gzipped, with its manifest.
func Build(ctx context.Context, root string) (gz []byte, m ManifestDoc, err error) {
	tmp, err := os.MkdirTemp("", "dpcheck-wasm")
	if err != nil {
		return nil, m, err
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, "dpcheck.wasm")
	if _, err := goCmd(ctx, root, "build", "-trimpath", "-ldflags=-s -w", "-o", out, WASMPackage); err != nil {
		return nil, m, err
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		return nil, m, err
	}
	gz, err = gzipped(raw)
	if err != nil {
		return nil, m, err
	}
	version, err := goCmd(ctx, root, "env", "GOVERSION")
	if err != nil {
		return nil, m, err
	}
	sources, err := SourcesHash(ctx, root)
	if err != nil {
		return nil, m, err
	}
	sum := sha256.Sum256(gz)
	m = ManifestDoc{Go: strings.TrimSpace(string(version)), Sources: sources, WASM: hex.EncodeToString(sum[:]), WASMBytes: len(raw), GzipBytes: len(gz), Viz: VizVersion}
	return gz, m, nil
}

// WASMExecJS returns the wasm_exec.js of the Go release that builds.
func WASMExecJS(ctx context.Context, root string) ([]byte, error) {
	goroot, err := goCmd(ctx, root, "env", "GOROOT")
	if err != nil {
		return nil, err
	}
	dir := strings.TrimSpace(string(goroot))
	for _, p := range []string{"lib/wasm/wasm_exec.js", "misc/wasm/wasm_exec.js"} {
		if b, err := os.ReadFile(filepath.Join(dir, p)); err == nil {
			return b, nil
		}
	}
	return nil, fmt.Errorf("no wasm_exec.js in %s", dir)
}
