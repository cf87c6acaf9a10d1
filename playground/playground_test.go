package playground_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path"
	"strconv"
	"testing"

	"github.com/dpcheck/dpcheck/playground"
	"github.com/dpcheck/dpcheck/playground/internal/assets"
)

// The generated files must be what go generate ./playground makes from
// the sources as they are: a change to the engine, the front ends or the
// models without regenerating fails here.
func TestGeneratedFilesAreFresh(t *testing.T) {
	var m assets.ManifestDoc
	b, err := playground.ReadFile(assets.Manifest)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	const regenerate = "run go generate ./playground and commit playground/static"
	sources, err := assets.SourcesHash(context.Background(), "..")
	if err != nil {
		t.Fatal(err)
	}
	if sources != m.Sources {
		t.Errorf("dpcheck.wasm.gz is stale: the Go sources it is built from changed since it was generated (%s)", regenerate)
	}
	gz, err := playground.ReadFile(assets.WASM)
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(gz); hex.EncodeToString(sum[:]) != m.WASM || len(gz) != m.GzipBytes {
		t.Errorf("dpcheck.wasm.gz is not the module manifest.json records (%s)", regenerate)
	}
	examples, err := assets.ExamplesJSON("..")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := playground.ReadFile(assets.Examples); !bytes.Equal(got, append(examples, '\n')) {
		t.Errorf("examples.json is stale: models/ or the language's keywords changed (%s)", regenerate)
	}
	if m.Viz != assets.VizVersion {
		t.Errorf("viz-global.js.gz is Viz.js %s, want %s (%s)", m.Viz, assets.VizVersion, regenerate)
	}
	for _, name := range []string{"index.html", "app.js", "worker.js", "style.css", "favicon.svg", assets.WASMExec, assets.Viz} {
		if _, err := playground.ReadFile(name); err != nil {
			t.Errorf("the page has no %s: %v", name, err)
		}
	}
}

func get(t *testing.T, h http.Handler, method, path string, header map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, path, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

func TestHandler(t *testing.T) {
	h := playground.Handler()
	gz, _ := playground.ReadFile(assets.WASM)

	w := get(t, h, "GET", "/dpcheck.wasm", map[string]string{"Accept-Encoding": "gzip, deflate"})
	if w.Code != 200 || w.Header().Get("Content-Encoding") != "gzip" || w.Header().Get("Content-Type") != "application/wasm" || !bytes.Equal(w.Body.Bytes(), gz) {
		t.Errorf("the module, gzipped: %d %v (%d bytes)", w.Code, w.Header(), w.Body.Len())
	}
	for _, enc := range []string{"GZIP", "br, gzip;q=0.5", "*"} {
		if w := get(t, h, "HEAD", "/dpcheck.wasm", map[string]string{"Accept-Encoding": enc}); w.Header().Get("Content-Encoding") != "gzip" {
			t.Errorf("Accept-Encoding %q: not gzipped", enc)
		}
	}
	for _, enc := range []string{"gzip;q=0", "gzip; q=0.000", "deflate", "", "*;q=1, gzip;q=0"} {
		if w := get(t, h, "HEAD", "/dpcheck.wasm", map[string]string{"Accept-Encoding": enc}); w.Header().Get("Content-Encoding") != "" {
			t.Errorf("Accept-Encoding %q: gzipped", enc)
		}
	}
	w = get(t, h, "GET", "/dpcheck.wasm", map[string]string{"Accept-Encoding": "gzip;q=0"})
	zr, _ := gzip.NewReader(bytes.NewReader(gz))
	raw, _ := io.ReadAll(zr)
	if w.Code != 200 || w.Header().Get("Content-Encoding") != "" || !bytes.Equal(w.Body.Bytes(), raw) || !bytes.HasPrefix(raw, []byte("\x00asm")) {
		t.Errorf("the module, inflated: %d %v (%d bytes)", w.Code, w.Header(), w.Body.Len())
	}
	for _, enc := range []string{"gzip", ""} {
		w := get(t, h, "GET", "/dpcheck.wasm", map[string]string{"Accept-Encoding": enc})
		if w.Header().Get("Content-Length") != strconv.Itoa(w.Body.Len()) {
			t.Errorf("Accept-Encoding %q: Content-Length %q for %d bytes", enc, w.Header().Get("Content-Length"), w.Body.Len())
		}
		tag := w.Header().Get("ETag")
		for _, inm := range []string{tag, "W/" + tag, `"x", ` + tag} {
			if w := get(t, h, "GET", "/dpcheck.wasm", map[string]string{"Accept-Encoding": enc, "If-None-Match": inm}); w.Code != http.StatusNotModified {
				t.Errorf("Accept-Encoding %q, If-None-Match %s: %d, want 304", enc, inm, w.Code)
			}
		}
	}
	w = get(t, h, "GET", "/", nil)
	if w.Code != 200 || !bytes.Contains(w.Body.Bytes(), []byte("<title>dpcheck playground</title>")) || w.Header().Get("Content-Security-Policy") == "" {
		t.Errorf("the page: %d %v", w.Code, w.Header())
	}
	etag := w.Header().Get("ETag")
	if w := get(t, h, "GET", "/index.html", map[string]string{"If-None-Match": etag}); w.Code != http.StatusNotModified {
		t.Errorf("If-None-Match: %d, want 304", w.Code)
	}
	if w := get(t, h, "HEAD", "/app.js", nil); w.Code != 200 || w.Body.Len() != 0 {
		t.Errorf("HEAD: %d, %d bytes", w.Code, w.Body.Len())
	}
	if w := get(t, h, "POST", "/", nil); w.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d, want 405", w.Code)
	}
	for _, p := range []string{"/dpcheck.wasm.gz", "/../go.mod", "/%2e%2e/go.mod", "/static/index.html", "/nothing"} {
		if w := get(t, h, "GET", p, nil); w.Code != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", p, w.Code)
		}
	}
}

// FuzzHandler: whatever the path, the handler answers with one of the
// page's files or an error, and never with anything else.
func FuzzHandler(f *testing.F) {
	for _, p := range []string{"/", "/index.html", "/dpcheck.wasm", "/dpcheck.wasm.gz", "/../go.mod", "/a/../app.js", "//x", "/%00"} {
		f.Add(p)
	}
	h := playground.Handler()
	files := map[string]bool{}
	for _, name := range []string{"index.html", "app.js", "worker.js", "style.css", "favicon.svg", "examples.json", "manifest.json", "wasm_exec.js", "dpcheck.wasm", "viz-global.js"} {
		files[name] = true
	}
	f.Fuzz(func(t *testing.T, p string) {
		req, err := http.NewRequest("GET", "http://localhost/", nil)
		if err != nil {
			t.Skip()
		}
		req.URL.Path = p
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != 200 {
			return
		}
		clean := path.Clean("/" + p)
		if clean == "/" {
			clean = "/index.html"
		}
		if !files[clean[1:]] {
			t.Errorf("%q served (as %q), which is not one of the page's files", p, clean)
		}
	})
}
