// Package engine is the check the playground runs in the browser: one
// .dp source text, with the files it names, checked under a context, and
// returned as the command line's reports — the JSON document of
// --format json, the text a terminal shows — with the positions of its
// errors and, on request, its pictures.
//
// It reads no disk: the files a source names come with the request
// (dpcheck.Config.FS). Package playground/wasm exposes Check to the page's
// JavaScript; it is plain Go, tested here as any other package.
package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"testing/fstest"
	"time"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/picture"
	"github.com/dpcheck/dpcheck/report"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/verify"
)

// A Request is one check: a .dp source and the files it may name.
type Request struct {
	// Name is the source's path among Files ("models/geometric.dp"): the
	// files it names are found relative to its directory. "" is
	// "playground.dp".
	Name string `json:"name"`
	// Source is the .dp text checked.
	Source string `json:"source"`
	// Files are the other files, by slash-separated path ("models/prism/
	// randomized_response.prism"), that the source may name.
	Files map[string]string `json:"files,omitempty"`
	// Pictures asks for the chain in DOT and the privacy profile in SVG.
	Pictures bool `json:"pictures,omitempty"`
}

// A Response is what a check found: the reports, the errors by position,
// and the pictures asked for.
type Response struct {
	// Status is the file's: pass, fail, invalid, aborted or internal
	// (report.Status).
	Status string `json:"status"`
	// JSON is the report of --format json.
	JSON string `json:"json"`
	// Text is the report a terminal shows.
	Text string `json:"text"`
	// Marks are the errors by position: in the source, and in the files
	// it names (a PRISM model).
	Marks []Mark `json:"marks,omitempty"`
	// Chain is the chain in DOT, its first counterexample highlighted;
	// Summarized says it is a summary of a chain too large to draw whole.
	Chain      string `json:"chain,omitempty"`
	Summarized bool   `json:"summarized,omitempty"`
	// Profile is the privacy profile, an SVG document.
	Profile string `json:"profile,omitempty"`
	// ChainNote and ProfileNote say why a picture asked for is missing.
	ChainNote   string `json:"chain_note,omitempty"`
	ProfileNote string `json:"profile_note,omitempty"`
	// Millis is how long the check took, in milliseconds.
	Millis int64 `json:"millis"`
}

// A Mark is an error at a position of a file: the request's Name or one
// of its Files. Line and column count from 1, the column in characters
// (Unicode code points) as the reports' do.
type Mark struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Msg    string `json:"msg"`
}

// MaxProfileWork bounds the ordered pairs × outputs of a model whose
// privacy profile Check draws: a profile costs about that many exact
// comparisons at each of its breakpoints, and a page should not wait
// minutes for a picture no one asked for by name.
const MaxProfileWork = 2_000_000

// DefaultName is the name of a source given without one.
const DefaultName = "playground.dp"

// Check checks the request's source under ctx with cfg's limits (its FS
// is the request's files). Progress is reported through ctx
// (verify.WithProgress). A source the check refuses is a Response with
// status invalid and its errors, not an error: Check fails only when a
// report cannot be written.
func Check(ctx context.Context, cfg dpcheck.Config, req Request) (*Response, error) {
	start := time.Now()
	name := req.Name
	if name == "" {
		name = DefaultName
	}
	files := fstest.MapFS{}
	for p, text := range req.Files {
		if fs.ValidPath(p) && p != name {
			files[p] = &fstest.MapFile{Data: []byte(text)}
		}
	}
	cfg.FS = files
	if cfg.ConstHint == nil {
		cfg.ConstHint = func(name string) string { return "give it a value in the file: const " + name + " = …" }
	}
	e := report.Entry{File: name, Source: req.Source}
	if limit := maxFileSize(cfg); int64(len(req.Source)) > limit {
		e.Err = &dpcheck.FileSizeError{Path: name, Size: int64(len(req.Source)), Limit: limit}
	} else {
		e.Result, e.Err = cfg.CheckSource(ctx, name, req.Source)
		e.Sources = read(files, e.Err)
	}
	e.Elapsed = time.Since(start)
	resp := &Response{Status: report.StatusOf(e).String(), Marks: marks(e.Err)}
	var js, text bytes.Buffer
	if err := report.Write(&js, "json", []report.Entry{e}, dpcheck.Version); err != nil {
		return nil, err
	}
	if err := report.Write(&text, "text", []report.Entry{e}, dpcheck.Version); err != nil {
		return nil, err
	}
	resp.JSON, resp.Text = js.String(), text.String()
	if req.Pictures && e.Err == nil {
		resp.pictures(ctx, e)
	}
	resp.Millis = time.Since(start).Milliseconds()
	return resp, nil
}

// maxFileSize is the bound on the source's bytes.
func maxFileSize(cfg dpcheck.Config) int64 {
	if cfg.MaxFileSize > 0 {
		return cfg.MaxFileSize
	}
	return dpcheck.DefaultMaxFileSize
}

// read returns the texts of the other files an error is about, for the
// report to quote their lines.
func read(files fstest.MapFS, err error) map[string]string {
	var list source.ErrorList
	if !errors.As(err, &list) {
		return nil
	}
	texts := map[string]string{}
	for _, e := range list {
		p := path.Clean(e.Pos.Filename)
		if f, ok := files[p]; ok {
			texts[e.Pos.Filename] = string(f.Data)
		}
	}
	return texts
}

// marks returns the positioned errors of err.
func marks(err error) []Mark {
	var list source.ErrorList
	if !errors.As(err, &list) {
		return nil
	}
	var ms []Mark
	for _, e := range list {
		if e.Pos.Line > 0 {
			ms = append(ms, Mark{File: e.Pos.Filename, Line: e.Pos.Line, Column: max(e.Pos.Column, 1), Msg: e.Msg})
		}
	}
	return ms
}

// pictures draws the entry's chain and profile into the response, or says
// why it cannot.
func (resp *Response) pictures(ctx context.Context, e report.Entry) {
	r := e.Result
	if why := picture.Undrawable(r); why != "" {
		resp.ChainNote, resp.ProfileNote = "No chain: "+why+".", "No profile: "+why+"."
		return
	}
	if dot, err := picture.ChainDOT(r); err != nil {
		resp.ChainNote = fmt.Sprintf("No chain: %v.", strings.TrimPrefix(err.Error(), r.File+": "))
	} else {
		resp.Chain, resp.Summarized = string(dot), picture.Summarized(r.Prepared.Chain)
	}
	if why := picture.NoProfile(r); why != "" {
		resp.ProfileNote = "No profile: " + why + "."
		return
	}
	if work := 2 * r.Size.Pairs * r.Size.Outputs; work > MaxProfileWork {
		resp.ProfileNote = fmt.Sprintf("No profile: %s ordered pairs × %s outputs is more than the %s a profile is drawn for here; the command line draws it.",
			thousands(2*r.Size.Pairs), thousands(r.Size.Outputs), thousands(MaxProfileWork))
		return
	}
	if show := verify.ProgressReporter(ctx); show != nil {
		ctx = verify.WithProgress(ctx, func(p verify.Progress) {
			p.Stage = "drawing the privacy profile: " + p.Stage
			show(p)
		})
	}
	svg, err := picture.ProfileSVG(ctx, r)
	switch {
	case ctx.Err() != nil:
		resp.ProfileNote = "No profile: the check was stopped before it was drawn."
	case err != nil:
		resp.ProfileNote = fmt.Sprintf("No profile: %v.", err)
	default:
		resp.Profile = string(svg)
	}
}

// thousands writes n with commas between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
