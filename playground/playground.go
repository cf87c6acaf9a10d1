// Package playground serves dpcheck's playground: a page that checks .dp
// files in the browser, with dpcheck itself compiled to WebAssembly
// (package playground/wasm) running in a Web Worker. Everything the page
// needs is embedded here — the page, the module, Go's wasm_exec.js and
// the examples from models/ — so a server is one http.Handler and builds
// nothing; no request leaves the machine it is served from.
//
// The generated files are refreshed with go generate ./playground; a test
// fails when they are stale.
package playground

//go:generate go run ./internal/generate

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"
)

//go:embed static
var static embed.FS

// Files returns the page's files, the module gzipped (dpcheck.wasm.gz).
func Files() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // the embedded directory is there by construction
	}
	return sub
}

// ReadFile returns one of the page's files (as Files holds it).
func ReadFile(name string) ([]byte, error) { return fs.ReadFile(Files(), name) }

// The page's content security policy: its own scripts, the module
// compiled (wasm-unsafe-eval), pictures from data and blob URLs, and no
// connection anywhere but its own origin.
const csp = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; " +
	"worker-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'"

// Handler serves the page. The large files — the module and Graphviz —
// are kept gzipped, sent so to a browser that accepts it (every current
// one) and inflated for one that does not; every file carries an ETag of
// its content.
func Handler() http.Handler {
	files := Files()
	// Every file's entity tag, computed once: the module is megabytes.
	tags := map[string]string{}
	fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, err := fs.ReadFile(files, p); err == nil {
				sum := sha256.Sum256(b)
				tags[p] = hex.EncodeToString(sum[:16])
			}
		}
		return nil
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "only GET and HEAD", http.StatusMethodNotAllowed)
			return
		}
		name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		if name == "" {
			name = "index.html"
		}
		// A large file is kept gzipped (name.gz) and served as name.
		gz, stored := false, name
		b, err := fs.ReadFile(files, name+".gz")
		if err == nil {
			gz, stored = true, name+".gz"
		} else if strings.HasSuffix(name, ".gz") {
			err = fs.ErrNotExist
		} else {
			b, err = fs.ReadFile(files, name)
		}
		if err != nil {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		// Cross-origin isolated: the page may share memory with its
		// worker, which is how Stop reaches a check under way.
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Embedder-Policy", "require-corp")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		h.Set("Cache-Control", "no-cache")
		ctype := mime.TypeByExtension(path.Ext(name))
		if path.Ext(name) == ".wasm" {
			ctype = "application/wasm"
		}
		if ctype == "" {
			ctype = "application/octet-stream"
		}
		h.Set("Content-Type", ctype)
		etag := tags[stored]
		if !gz {
			h.Set("ETag", `"`+etag+`"`)
			http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(b))
			return
		}
		h.Set("Vary", "Accept-Encoding")
		if acceptsGzip(r) {
			h.Set("Content-Encoding", "gzip")
			etag += "-gzip"
		} else {
			// A client that takes no gzip gets the file inflated.
			zr, err := gzip.NewReader(bytes.NewReader(b))
			if err == nil {
				b, err = io.ReadAll(zr)
			}
			if err != nil {
				http.Error(w, "the file is damaged", http.StatusInternalServerError)
				return
			}
		}
		h.Set("ETag", `"`+etag+`"`)
		if inm := r.Header.Get("If-None-Match"); inm != "" && matchesETag(inm, etag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		// ServeContent leaves out the length of an encoded body.
		h.Set("Content-Length", strconv.Itoa(len(b)))
		if r.Method == http.MethodGet {
			w.Write(b)
		}
	})
}

// matchesETag reports whether an If-None-Match header names the entity
// tag (weakly: W/ is ignored), or is *.
func matchesETag(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == `"`+etag+`"` {
			return true
		}
	}
	return false
}

// acceptsGzip reports whether the request accepts a gzipped body: gzip
// (in any case) or *, with a quality above 0.
func acceptsGzip(r *http.Request) bool {
	gzipQ, anyQ := -1.0, -1.0 // -1: not named
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		enc, params, _ := strings.Cut(part, ";")
		enc = strings.ToLower(strings.TrimSpace(enc))
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			if k, v, ok := strings.Cut(strings.TrimSpace(p), "="); ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		switch enc {
		case "gzip", "x-gzip":
			gzipQ = max(gzipQ, q)
		case "*":
			anyQ = max(anyQ, q)
		}
	}
	if gzipQ >= 0 { // named: its own quality decides, whatever * says
		return gzipQ > 0
	}
	return anyQ > 0
}
