package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/picture"
	"github.com/dpcheck/dpcheck/spec"
	"github.com/dpcheck/dpcheck/verify"
)

// drawPictures writes --dot, --svg and --profile for one checked file.
func drawPictures(ctx context.Context, r *dpcheck.Result, o options) error {
	p := r.Program
	if p.Chain == nil {
		return fmt.Errorf("%s has no model of its own to draw", r.File)
	}
	if o.dot != "" || o.svg != "" {
		src, err := picture.DOT(p.Chain, highlight(r))
		if err != nil {
			return err
		}
		if o.dot != "" {
			if err := os.WriteFile(o.dot, src, 0o644); err != nil {
				return err
			}
		}
		if o.svg != "" {
			err := picture.SVG(ctx, src, o.svg)
			switch {
			case errors.Is(err, context.DeadlineExceeded):
				return fmt.Errorf("--svg: Graphviz's dot stopped after %s (--timeout)", o.timeout)
			case errors.Is(err, context.Canceled):
				return errors.New("--svg: Graphviz's dot interrupted")
			case errors.Is(err, picture.ErrNoGraphviz):
				return fmt.Errorf("%v; --dot writes the DOT file to render elsewhere", err)
			case err != nil:
				return err
			}
		}
	}
	if o.profile != "" {
		return profile(ctx, r, o.profile)
	}
	return nil
}

// highlight finds the first violated check with a pair to show.
func highlight(r *dpcheck.Result) picture.Highlight {
	c := r.Program.Chain
	for _, o := range r.Statements {
		title := fmt.Sprintf("counterexample to line %d: %s", o.Statement.Pos.Line, o.Statement.Text)
		switch {
		case o.DP != nil && o.DP.Counterexample != nil:
			cx := o.DP.Counterexample
			h := picture.Highlight{From: cx.From.ID, To: cx.To.ID, Title: title}
			for _, name := range cx.Event {
				if s, ok := c.Lookup(name); ok && c.IsAbsorbing(s) {
					h.Event = append(h.Event, s)
				}
			}
			return h
		case o.Formula != nil && o.Formula.Counterexample != nil:
			if d := firstDP(o.Formula.Counterexample); d != nil {
				return picture.Highlight{From: d.From.ID, To: d.To.ID, Title: title}
			}
			s := o.Formula.Counterexample.State.ID
			return picture.Highlight{From: s, To: -1, Title: title}
		}
	}
	return picture.NoHighlight
}

func firstDP(e *verify.Explanation) *verify.DPViolation {
	if e.DP != nil {
		return e.DP
	}
	for _, c := range e.Causes {
		if d := firstDP(c); d != nil {
			return d
		}
	}
	return nil
}

// profile plots the model's privacy profile (see profileInputs).
func profile(ctx context.Context, r *dpcheck.Result, path string) error {
	title, curves, points, err := profileInputs(ctx, r)
	if err != nil {
		return err
	}
	return picture.ProfilePlot(path, title, curves, points)
}

// profileInputs chooses what --profile draws. The output space is that of
// the first violated dp check, else of the first dp check, else the file's
// (a check may say "over traces(k)"). Over that space it draws the worst
// pair's profile and the first counterexample pair's, and marks every dp
// check over the same space.
func profileInputs(ctx context.Context, r *dpcheck.Result) (string, []picture.Curve, []picture.Point, error) {
	p := r.Program
	var dps []*dpcheck.Outcome
	for _, o := range r.Statements {
		if o.Statement.Kind == spec.CheckDP && o.DP != nil {
			dps = append(dps, o)
		}
	}
	out := p.Output
	if len(dps) > 0 {
		first := dps[0]
		for _, o := range dps {
			if !o.DP.Holds {
				first = o
				break
			}
		}
		out = p.OutputFor(first.Statement)
	}
	a, err := verify.Analyze(ctx, &verify.Model{Chain: p.Chain, Neighbours: p.Neighbours, Output: out})
	if err != nil {
		return "", nil, nil, err
	}
	whole, err := a.Profile(ctx)
	if err != nil {
		return "", nil, nil, err
	}
	curves := []picture.Curve{{Name: "δ(ε), worst pair", Profile: whole}}
	var points []picture.Point
	pairAdded := false
	for _, o := range dps {
		if p.OutputFor(o.Statement).String() != out.String() {
			continue
		}
		points = append(points, picture.Point{Eps: o.DP.Eps, Delta: o.DP.Delta, Holds: o.DP.Holds})
		if cx := o.DP.Counterexample; cx != nil && !pairAdded {
			curves = append(curves, picture.Curve{Name: fmt.Sprintf("δ(ε), %s vs %s", cx.From.Name, cx.To.Name), Profile: a.PairProfile(cx.From.ID, cx.To.ID)})
			pairAdded = true
		}
	}
	return fmt.Sprintf("%s — privacy profile over %s", filepath.Base(r.File), out), curves, points, nil
}
