package picture

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/outcome"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/verify"
)

// What to draw of a checked file: its first counterexample in the chain,
// and the privacy profile of the output space its dp checks are about.

// HighlightOf returns the first counterexample of a result with a pair to
// show: a violated dp check's pair and worst event, or a failing formula's
// pair (or state).
func HighlightOf(r *outcome.Result) Highlight {
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
			hl := Highlight{From: cx.From.ID, To: cx.To.ID, Title: title, PrFrom: cx.PrFrom.RatString(), PrTo: cx.PrTo.RatString()}
			if cx.Loss != nil {
				// A composition's pair is named by one run's states; the
				// product chain's inputs have the same names. Its event is
				// a set of loss values, not of states.
				hl.From, hl.To = lookup(c, cx.From.Name), lookup(c, cx.To.Name)
				hl.PrFrom, hl.PrTo = "", ""
				return hl
			}
			hl.EventNames = cx.Event
			hl.Event = eventStates(c, o.Statement().(*property.DPCheck).Output(), cx.Event)
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

// eventStates returns the absorbing states whose output (over out) is one
// of the event's: the states themselves for final states; for "outputs
// var y" every final state whose y is one of the event's values (an
// output named "y=2"). Over traces it returns none: a trace is not a
// state.
func eventStates(c *chain.Chain, out verify.Output, event []string) []int {
	if !out.Final() {
		return nil
	}
	names := map[string]bool{}
	for _, e := range event {
		names[e] = true
	}
	var states []int
	for s := 0; s < c.NumStates(); s++ {
		if c.IsAbsorbing(s) && names[out.KeyName(c.Name(s), out.StateKey(c, s))] {
			states = append(states, s)
		}
	}
	return states
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
func ProfileOf(ctx context.Context, r *outcome.Result) (title string, curves []Curve, points []Point, err error) {
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
			curves = append(curves, Curve{Name: fmt.Sprintf("δ(ε), %s vs %s", shown(cx.From.Name), shown(cx.To.Name)), Profile: pp})
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
// .svg) — each only when its path is not empty. A picture that cannot be
// drawn does not keep the others from being written: Draw returns the
// error of each that failed (a chain too large to draw whole is drawn as
// a summary, and said so by Summarized). Pictures decide nothing.
func Draw(ctx context.Context, r *outcome.Result, dot, svg, prof string) []error {
	var errs []error
	if dot != "" || svg != "" {
		if err := drawChain(ctx, r, dot, svg); err != nil {
			errs = append(errs, err)
		}
	}
	if prof != "" {
		if err := plotProfile(ctx, r, prof); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// drawChain writes the chain's DOT to dot and its SVG to svg.
func drawChain(ctx context.Context, r *outcome.Result, dot, svg string) error {
	src, err := ChainDOT(r)
	if err != nil {
		return err
	}
	var errs []error
	if dot != "" {
		if err := os.WriteFile(dot, src, 0o644); err != nil {
			errs = append(errs, err)
		}
	}
	if svg != "" {
		if err := SVG(ctx, src, svg); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// plotProfile plots the privacy profile to prof.
func plotProfile(ctx context.Context, r *outcome.Result, prof string) error {
	title, curves, points, err := profileOf(ctx, r)
	if err != nil {
		return err
	}
	return ProfilePlot(prof, title, curves, points)
}

// profileOf is ProfileOf for a result that may have no chain to plot.
func profileOf(ctx context.Context, r *outcome.Result) (title string, curves []Curve, points []Point, err error) {
	if r.Prepared.Chain == nil && r.Prepared.Composition == nil {
		return "", nil, nil, noChain(r)
	}
	return ProfileOf(ctx, r)
}

// ChainDOT returns the chain of a checked file in DOT, its first
// counterexample highlighted (see Draw), for a caller that renders it
// itself.
func ChainDOT(r *outcome.Result) ([]byte, error) {
	if r.Prepared.Chain == nil {
		return nil, noChain(r)
	}
	return DOT(r.Prepared.Chain, HighlightOf(r))
}

// ProfileSVG returns the privacy profile of a checked file as an SVG
// document (see Draw).
func ProfileSVG(ctx context.Context, r *outcome.Result) ([]byte, error) {
	title, curves, points, err := profileOf(ctx, r)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := WriteProfile(&b, "svg", title, curves, points); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Undrawable says why nothing of a result can be drawn — it was not
// checked, its model is an MDP or has a parameter — or returns "".
func Undrawable(r *outcome.Result) string {
	switch {
	case r == nil || r.Prepared == nil:
		return "it was not checked"
	case r.Prepared.IsMDP():
		return "its model is an MDP (pictures of MDPs are not drawn yet)"
	case r.Prepared.IsParam():
		return "its model has a parameter (pictures of parametric chains are not drawn yet)"
	}
	return ""
}

// NoProfile says why the privacy profile of a drawable result cannot be
// drawn, or returns "".
func NoProfile(r *outcome.Result) string {
	if r.Prepared.ExactAt != nil {
		return "its model's tails were merged for the ε of its statements only (see the model line), so δ between them is not computed"
	}
	return ""
}

// noChain says why a result has no chain to draw.
func noChain(r *outcome.Result) error {
	if c := r.Prepared.Composition; c != nil {
		return fmt.Errorf("%s: the chain of the %d runs was not built (no statement needed it), so it cannot be drawn", r.File, c.Runs)
	}
	return fmt.Errorf("%s has no model of its own to draw", r.File)
}
