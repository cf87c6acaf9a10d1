package prism_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/prism"
	"github.com/dpcheck/dpcheck/source"
)

// FuzzParse: no input makes either parser panic or recurse without
// bound; every error is one positioned error inside the file whose
// rendering works; every parsed node lies inside the source and contains
// its operands.
//
//	go test ./prism -run '^$' -fuzz FuzzParse -fuzztime 3m
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"dtmc\nconst double p = 0.25;\nmodule m\n  s : [0..2] init 0;\n  [] s=0 -> p : (s'=1) + 1-p : (s'=2);\n  [] s>0 -> true;\nendmodule\nlabel \"one\" = s=1;\n",
		"mdp\nglobal g : bool;\nmodule a\n  x : [0..1];\n  [go] !g -> (x'=1) & (g'=true);\nendmodule\nmodule b = a [x=y, go=stop] endmodule\ninit !g endinit\n",
		"const int k;\n\"q\": P=? [ F<=k \"one\" ];\nD{1, 0}[X X s=2]\nfilter(print, P>=0.5 [ s=0 U s=1 ], \"init\")\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		m, err := prism.ParseModel("f.pm", src)
		if err != nil {
			checkError(t, src, err)
		} else {
			checkSpans(t, src, modelExprs(m))
		}
		p, err := prism.ParseProperties("f.pctl", src)
		if err != nil {
			checkError(t, src, err)
		} else {
			checkSpans(t, src, propExprs(p))
		}
	})
}

func checkError(t *testing.T, src string, err error) {
	t.Helper()
	var list source.ErrorList
	if !errors.As(err, &list) || len(list) != 1 {
		t.Fatalf("error of type %T (%v), want a source.ErrorList of one error", err, err)
	}
	e := list[0]
	lines := strings.Count(src, "\n") + 1
	if e.Pos.Line < 1 || e.Pos.Line > lines || e.Pos.Column < 1 || e.Pos.Offset < 0 || e.Pos.Offset > len(src) || e.Msg == "" {
		t.Fatalf("error %q at %d:%d (offset %d) is outside the file (%d lines, %d bytes)", e.Msg, e.Pos.Line, e.Pos.Column, e.Pos.Offset, lines, len(src))
	}
	_ = list.Pretty(src)
}
