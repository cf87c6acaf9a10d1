package spec_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/spec"
	"github.com/dpcheck/dpcheck/verify"
)

// fuzzOptions keep fuzzed models small, so that the fuzzer spends its time
// on the language rather than on building huge chains.
var fuzzOptions = spec.Options{Limits: builder.Limits{MaxStates: 20_000, MaxTransitions: 100_000, MaxBits: 1 << 22}}

// FuzzLoad: no input makes the parser or the checker panic (they recover
// internally and would report an "internal" error, which fails here), every
// error has a position inside the file, and small programs that load also
// run.
//
//	go test ./spec -run '^$' -fuzz FuzzLoad -fuzztime 60s
func FuzzLoad(f *testing.F) {
	files, _ := filepath.Glob("../models/*.dp")
	for _, p := range files {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(string(src))
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		p, err := fuzzOptions.Load(context.Background(), "f.dp", src)
		if err != nil {
			list, ok := err.(spec.ErrorList)
			if !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			lines := strings.Count(src, "\n") + 1
			for _, e := range list {
				if strings.Contains(e.Msg, "internal") {
					t.Fatalf("internal error on %q: %v", src, e)
				}
				if e.Pos.Line < 1 || e.Pos.Line > lines || e.Pos.Column < 1 {
					t.Fatalf("error %q at %d:%d is outside the file (%d lines)", e.Msg, e.Pos.Line, e.Pos.Column, lines)
				}
			}
			_ = list.Pretty(src)
			return
		}
		if p.Chain == nil || p.Chain.NumTransitions() > 2000 {
			return // a file of equivalence checks only, or too big to run here
		}
		// Some legitimate programs are slow (X^100000); bound each run.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		m, err := verify.NewChecker(p.Chain, p.Neighbours)
		if err != nil {
			return // e.g. no two distinct inputs related: reported by the runner
		}
		for _, st := range p.Statements {
			var err error
			switch st.Kind {
			case spec.CheckFormula:
				_, err = m.Check(ctx, st.Formula)
			case spec.QueryProb:
				_, err = m.ProbQuery(ctx, st.Path)
			case spec.QueryDEps:
				_, err = m.TightEpsilonD(ctx, st.Path, st.Delta)
			case spec.QueryDDelta:
				_, err = m.TightDeltaD(ctx, st.Path, st.Eps)
			default:
				var a *verify.Analysis
				a, err = verify.Analyze(ctx, &verify.Model{Chain: p.Chain, Neighbours: p.Neighbours, Output: p.OutputFor(st)})
				if err != nil {
					break
				}
				switch st.Kind {
				case spec.CheckDP:
					_, err = a.DP(ctx, st.Eps, st.Delta)
				case spec.QueryEps:
					_, err = a.TightEpsilon(ctx, st.Delta)
				case spec.QueryDelta:
					_, err = a.TightDelta(ctx, st.Eps)
				case spec.QueryProfile:
					_, err = a.Profile(ctx)
				}
			}
			if err != nil && ctx.Err() == nil && !errors.Is(err, verify.ErrFormula) && !errors.Is(err, verify.ErrModel) {
				t.Fatalf("statement %q of a checked program fails: %v", st.Text, err)
			}
		}
	})
}
