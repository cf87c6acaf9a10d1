package spec_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/spec"
	"github.com/dpcheck/dpcheck/verify"
)

// fuzzOptions keep fuzzed models small, so that the fuzzer spends its time
// on the language rather than on building huge chains.
var fuzzOptions = spec.Options{Limits: model.Limits{MaxStates: 20_000, MaxTransitions: 100_000, MaxBits: 1 << 22}}

// FuzzLoad: no input makes the parser, the checker or Prepare panic (a
// panic fails the fuzz target), every error has a position inside the
// file, and small programs that load also run without errors other than
// cancellation or a model the verifier refuses.
//
//	go test ./spec -run '^$' -fuzz FuzzLoad -fuzztime 60s
func FuzzLoad(f *testing.F) {
	files, _ := filepath.Glob("../models/*.dp")
	for _, p := range files {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(string(src))
		}
	}
	// Small modules, quick to explore, for the fuzzer to vary.
	f.Add("module m\n  input d : [0..2];\n  x : [-1..2] init -1;\n  [] x = -1 -> (x' ~ geometric(1/2, d, 0, 2)) & (d' = 0);\nendmodule\noutputs var x\nneighbours |d - d'| <= 1\nquery eps(delta = 0)\n")
	f.Add("formula f = b ? 1 : 2\nmodule m\n  input a : [0..1];\n  b : bool init true;\n  y : [0..3] init 0;\n  [] b -> 1/3 : (b' = false) & (y' = f) + 2/3 : (y' ~ uniform(a, 3)) & (b' = a = 1 => false);\nendmodule\nlabel \"done\" = !b\nneighbours a != a'\ncheck dp(eps = ln(3))\nquery P=?[F done]\n")
	// Formulas with parameters, called in order, by name and nested; a
	// constant given no value.
	f.Add("const K\nformula clamp(v, lo, hi) = max(lo, min(hi, v))\nformula step(x) = clamp(x + 1, 0, 3)\nmodule m\n  input d : [0..1];\n  x : [0..3] init 0;\n  [] x = 0 & d = 0 -> 1/2 : (x' = step(x)) + 1/2 : (x' = clamp(v = x + 2, hi = 3, lo = 0));\n  [] x = 0 & d = 1 -> (x' = step(step(x)));\nendmodule\noutputs var x\nneighbours |d - d'| <= clamp(1, 0, 1)\nquery eps(delta = 0)\n")
	// Quantifiers and folds over constant ranges.
	f.Add("const K = sum(j in 1..3: j) - 3\nmodule m\n  input a1 : [0..1];\n  input a2 : [0..1];\n  x : [0..6] init 0;\n  [] x = 0 & count(j in 1..K: j > 1) = 2 -> 1/2 : (x' = sum(j in 1..2: j * (j = 1 ? a1 : a2))) + 1/2 : (x' = max(j in 1..2: j + a1));\nendmodule\nneighbours forall j in 1..1: |a1 - a1'| + |a2 - a2'| <= j\noutputs var x\nlabel \"top\" = exists j in 3..4: x = j\nquery eps(delta = 0)\n")
	// NAME = … in a draw's arguments: named for its parameters, a
	// comparison otherwise; a neighbour predicate over a non-input.
	f.Add("module m\n  input d : [0..2];\n  i : [0..1] init 1;\n  y : [-1..2] init -1;\n  [] y = -1 -> (y' ~ geometric(1/2, i = 1 ? d : 0, lo = 0, hi = 2));\nendmodule\noutputs var y\nneighbours |d - d'| <= 1 & i = i'\nquery eps(delta = 0)\n")
	// Unbounded integers: a draw, a comparison of two, a shift, an output.
	f.Add("const K = 3\nformula tot(x) = sum(j in 1..K: x[j])\nmdp module m\n  input a[1..K] : [0..2];\n  f[0..K-1] : bool init false;\n  v[-1..1] : int;\n  i : [0..K+1] init 1;\n  [go] i <= K -> 1/2 : (f[i-1]' = a[i] > 0) & (i' = i + 1) + 1/2 : (v[i-2]' ~ geometric(1/2, a[a[i] + 1])) & (i' = i + 1);\n  [out] i = K + 1 & f[a[1]] -> (i' = 0);\nendmodule\noutputs var f\nlabel \"all\" = forall j in 0..K-1: f[j]\nneighbours linf(a) <= 1 & l1(a) <= 2 & hamming(a) >= tot(a') - tot(a)\nquery eps(delta = 0)\nquery Pmax=?[F \"all\"]\n")
	f.Add("module m\n  input a : [0..1];\n  t : int;\n  v : int init 1;\n  i : [0..2] init 0;\n  b : bool init false;\n  [] i = 0 -> (t' ~ geometric(1/3, a)) & (v' = -v + 2) & (i' = 1);\n  [] i = 1 & v - t >= a -> (b' = true) & (i' = 2);\n  [] i = 1 & !(v - t >= a) -> (v' ~ geometric1(1/2, 0)) & (i' = 2);\nendmodule\noutputs var b, v\nneighbours true\nquery eps(delta = 0)\n")
	f.Fuzz(func(t *testing.T, src string) {
		cfg := dpcheck.Config{Limits: fuzzOptions.Limits}
		p, err := cfg.Load(context.Background(), "f.dp", src)
		if err != nil {
			list, ok := err.(source.ErrorList)
			if !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			lines := strings.Count(src, "\n") + 1
			for _, e := range list {
				if e.Pos.Line < 1 || e.Pos.Line > lines || e.Pos.Column < 1 {
					t.Fatalf("error %q at %d:%d is outside the file (%d lines)", e.Msg, e.Pos.Line, e.Pos.Column, lines)
				}
			}
			_ = list.Pretty(src)
			return
		}
		if p.Chain != nil && p.Chain.NumTransitions() > 2000 {
			return // too big to run here
		}
		// Some legitimate programs are slow (X^100000); bound each run.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		r, err := dpcheck.Run(ctx, p)
		if err != nil && ctx.Err() == nil {
			t.Fatalf("a checked program fails: %v", err)
		}
		if r == nil {
			return
		}
		for _, o := range r.Statements {
			if err := o.Err(); err != nil && ctx.Err() == nil && !errors.Is(err, verify.ErrModel) {
				t.Fatalf("statement %q of a checked program fails: %v", o.Statement().Head().Text, err)
			}
		}
	})
}
