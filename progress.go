package dpcheck

import (
	"context"
	"fmt"

	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/verify"
)

// The runner's stages, reported through verify.WithProgress's reporter
// (a terminal's progress line shows them): loading the file, building its
// model, and each statement, whose own reports (distributions, pairs)
// are prefixed with its line.

// reportStage reports a stage without counts.
func reportStage(ctx context.Context, stage string) {
	if report := verify.ProgressReporter(ctx); report != nil {
		report(verify.Progress{Stage: stage})
	}
}

// buildStage names the building of a program's model.
func buildStage(p *property.Program) string {
	if p.Model == nil {
		return "preparing the statements"
	}
	switch p.Model.Info().Kind {
	case "modules", "prism":
		return "building the model: exploring its states"
	}
	return "building the model"
}

// statementProgress reports that st is evaluated and returns ctx with the
// verifier's reports prefixed by st's line: "line 7 (check dp): ordered
// pairs (dp)".
func statementProgress(ctx context.Context, st property.Statement) context.Context {
	report := verify.ProgressReporter(ctx)
	if report == nil {
		return ctx
	}
	stage := fmt.Sprintf("line %d (%s)", st.Head().Pos.Line, st.Kind())
	report(verify.Progress{Stage: stage})
	return verify.WithProgress(ctx, func(p verify.Progress) {
		p.Stage = stage + ": " + p.Stage
		report(p)
	})
}
