package picture

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/verify"
)

// What to draw of a checked file: its first counterexample in the chain,
// and the privacy profile of the output space its dp checks are about.

// HighlightOf returns the first counterexample of a result with a pair to
// show: a violated dp check's pair and worst event, or a failing formula's
// pair (or state).
func HighlightOf(r *dpcheck.Result) Highlight {
	c := r.Prepared.Chain
	for _, o := range r.Statements {
		h := o.Statement().Head()
		title := fmt.Sprintf("counterexample to line %d: %s", h.Pos.Line, h.Text)
		switch o := o.(type) {
		case *property.DPOutcome:
			if o.Result == nil || o.Result.Counterexample == nil {
				continue
			}
			cx := o.Result.Counterexample
			hl := Highlight{From: cx.From.ID, To: cx.To.ID, Title: title}
			if cx.Loss != nil {
				// A composition's pair is named by one run's states; the
				// product chain's inputs have the same names. Its event is
				// a set of loss values, not of states.
				hl.From, hl.To = lookup(c, cx.From.Name), lookup(c, cx.To.Name)
				return hl
			}
			for _, name := range cx.Event {
				if s, ok := c.Lookup(name); ok && c.IsAbsorbing(s) {
					hl.Event = append(hl.Event, s)
				}
			}
			return hl
		case *property.FormulaOutcome:
			if o.Result == nil || o.Result.Counterexample == nil {
				continue
			}
			if d := firstDP(o.Result.Counterexample); d != nil {
				return Highlight{From: d.From.ID, To: d.To.ID, Title: title}
			}
			return Highlight{From: o.Result.Counterexample.State.ID, To: -1, Title: title}
		}
	}
	return NoHighlight
}

// lookup returns the state named name, or -1.
func lookup(c *chain.Chain, name string) int {
	if s, ok := c.Lookup(name); ok {
		return s
	}
	return -1
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

// ProfileOf chooses what a profile plot of a result shows. The output space
// is that of the first violated dp check, else of the first dp check, else
// the file's (a check may say "over traces(k)"). Over that space it draws
// the worst pair's profile and the first counterexample pair's, and marks
// every dp check over the same space. The distributions are the result's
// own (computed once for its statements).
func ProfileOf(ctx context.Context, r *dpcheck.Result) (title string, curves []Curve, points []Point, err error) {
	var dps []*property.DPOutcome
	for _, o := range r.Statements {
		if o, ok := o.(*property.DPOutcome); ok && o.Result != nil {
			dps = append(dps, o)
		}
	}
	out := r.Prepared.Output
	if len(dps) > 0 {
		first := dps[0]
		for _, o := range dps {
			if !o.Result.Holds {
				first = o
				break
			}
		}
		out = first.Statement().(*property.DPCheck).Output()
	}
	a, err := r.Privacy(ctx, out)
	if err != nil {
		return "", nil, nil, err
	}
	whole, err := a.Profile(ctx)
	if err != nil {
		return "", nil, nil, err
	}
	curves = []Curve{{Name: "δ(ε), worst pair", Profile: whole}}
	pairAdded := false
	for _, o := range dps {
		s := o.Statement().(*property.DPCheck)
		if s.Output().String() != out.String() {
			continue
		}
		points = append(points, Point{Eps: s.Eps, Delta: s.Delta, Holds: o.Result.Holds})
		if cx := o.Result.Counterexample; cx != nil && !pairAdded {
			pp, err := a.PairProfile(ctx, cx.From.ID, cx.To.ID)
			if err != nil {
				return "", nil, nil, err
			}
			curves = append(curves, Curve{Name: fmt.Sprintf("δ(ε), %s vs %s", cx.From.Name, cx.To.Name), Profile: pp})
			pairAdded = true
		}
	}
	over := out.String()
	if c := r.Prepared.Composition; c != nil && over == verify.FinalState().String() {
		over = fmt.Sprintf("the final states of %d runs", c.Runs)
	}
	return fmt.Sprintf("%s — privacy profile over %s", filepath.Base(r.File), over), curves, points, nil
}

// Draw writes the pictures of a checked file: its chain in DOT to the file
// dot, rendered to SVG in svg, and its privacy profile to prof (.png or
// .svg) — each only when its path is not empty.
func Draw(ctx context.Context, r *dpcheck.Result, dot, svg, prof string) error {
	if r.Prepared.Chain == nil && (dot != "" || svg != "" || r.Prepared.Composition == nil) {
		if c := r.Prepared.Composition; c != nil {
			return fmt.Errorf("%s: the chain of the %d runs was not built (no statement needed it), so it cannot be drawn", r.File, c.Runs)
		}
		return fmt.Errorf("%s has no model of its own to draw", r.File)
	}
	if dot != "" || svg != "" {
		src, err := DOT(r.Prepared.Chain, HighlightOf(r))
		switch {
		case err != nil:
			return err
		case dot != "":
			if err := os.WriteFile(dot, src, 0o644); err != nil {
				return err
			}
		}
		if svg != "" {
			if err := SVG(ctx, src, svg); err != nil {
				return err
			}
		}
	}
	if prof == "" {
		return nil
	}
	title, curves, points, err := ProfileOf(ctx, r)
	if err != nil {
		return err
	}
	return ProfilePlot(prof, title, curves, points)
}
