package prism_test

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/model"
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

// FuzzTranslate: any model and properties text is parsed, translated,
// explored (within small limits) and checked without a panic: the result
// is a program's outcomes or errors positioned inside their file. The
// undefined constants of the model get the value 2.
//
//	go test ./prism -run '^$' -fuzz FuzzTranslate -fuzztime 3m -fuzzminimizetime 0x
func FuzzTranslate(f *testing.F) {
	for _, s := range [][2]string{
		{"dtmc\nconst double p = 0.75;\nmodule m\n  s : [0..3] init 0;\n  [] s=0 -> p : (s'=1) + 1-p : (s'=2);\n  [] s=1 -> (s'=3);\nendmodule\nlabel \"done\" = s>=2;\n", "P=? [ F \"done\" ]\nD{1, 0} [ X s=1 ]\nD{?, 0} [ F s=3 ]\n"},
		{"dtmc\nconst int N;\nglobal g : [0..N];\nmodule a\n  x : [0..N];\n  [go] x<N -> 1/2 : (x'=x+1) + 1/2 : true;\n  [] g<N -> (g'=g+1);\nendmodule\nmodule b = a [x=y] endmodule\ninit x=0 & y<=1 & g=0 endinit\n", "filter(forall, g<=N)\nP>=1/2 [ F<=3 x=N ]\nfilter(print, P=? [ x=0 U y=1 ], \"init\")\n"},
		{"dtmc\nformula f = mod(s, 2) = 0 ? floor(s/2) : ceil(s/3);\nmodule m\n  s : [0..9];\n  b : bool;\n  [] s<9 -> (s'=min(9, f+s+1)) & (b'=!b);\nendmodule\n", "P=? [ X X X b ]\n\"q\": P<0.5 [ G<=4 !b ]\n\"q\" | \"deadlock\"\n"},
		{"dtmc\nconst double e = log(2, 10);\nmodule m\n  s : [0..1];\n  [] s=0 -> pow(2, 0.5) : (s'=1);\nendmodule\n", "R=? [ F s=1 ]\n"},
		{"dtmc\nmodule m\n  s : [0..3];\n  [a] s<3 -> 1/2 : (s'=s+1) + 1/2 : (s'=0);\n  [b] s=3 -> (s'=1);\nendmodule\nrewards\n  [a] true : 1;\n  s=2 : 2;\nendrewards\n", "P=? [ G F s=1 ]\nP>=0.5 [ F (s=1 & (X s=2)) ]\nE [ (G F s=0) & (F G s!=3) ]\nA [ G (s=3 => (X s=1)) ]\nR=? [ F (s=1 & (X (s=2 U s=3))) ]\nfilter(forall, E [ F s=3 ], true)\n"},
		{"mdp\nmodule m\n  s : [0..2];\n  [a] s<2 -> 1/2 : (s'=s+1) + 1/2 : (s'=0);\n  [b] s<2 -> (s'=s);\nendmodule\nrewards\n  [a] true : 1;\n  s=1 : 1/2;\nendrewards\n", "Pmax=? [ F (s=1 & (X s=2)) ]\nPmin=? [ G (s=1 => (X s!=0)) ]\nRmax=? [ C ]\nRmin=? [ C ]\nRmin=? [ F (s=1 & (X s=2)) ]\nE [ G F s=1 ]\nA [ F s=2 ]\n"},
		// An undefined double constant p is a parameter over (0, 1).
		{"dtmc\nconst double p;\nmodule m\n  s : [0..3];\n  [] s=0 -> p : (s'=1) + 1-p : (s'=2);\n  [] s=1 -> p*p : (s'=0) + 1-p*p : (s'=3);\nendmodule\ninit s<2 endinit\n", "P=? [ F s=3 ]\nP>1/2 [ s<2 U s=3 ]\nD{?, 0} [ G s!=2 ]\nD{?, 1/4} [ F s=2 ]\nS=? [ s=3 ]\n"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, text, props string) {
		consts := map[string]prism.Value{}
		var par *prism.Param
		if m, err := prism.ParseModel("m.pm", text); err == nil {
			for _, c := range m.Consts {
				if c.Value == nil && c.Name.Name == "p" && c.Type == prism.ConstDouble {
					par, _ = prism.ParseParam("p=(0,1)")
					continue
				}
				if c.Value == nil {
					consts[c.Name.Name] = prism.Value{Num: big.NewRat(2, 1)}
					if c.Type == prism.ConstBool {
						consts[c.Name.Name] = prism.Value{Bool: true}
					}
				}
			}
		}
		cfg := files(map[string]string{"m.pm": text, "p.pctl": props})
		cfg.Limits = model.Limits{MaxStates: 2000, MaxTransitions: 10000, MaxBits: 1 << 20}
		cfg.PRISMParam = par
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		res, err := cfg.CheckPRISM(ctx, "m.pm", "p.pctl", consts)
		var internal *dpcheck.InternalError
		var list source.ErrorList
		var ce *prism.ConstError
		switch {
		case errors.As(err, &internal):
			t.Fatalf("internal error: %v\n%s", internal, internal.Stack)
		case errors.As(err, &list):
			for _, e := range list {
				src := map[string]string{"m.pm": text, "p.pctl": props}[e.Pos.Filename]
				lines := strings.Count(src, "\n") + 1
				if e.Pos.Line < 1 || e.Pos.Line > lines || e.Pos.Offset < 0 || e.Pos.Offset > len(src) || e.Msg == "" {
					t.Fatalf("error %q at %s is outside its file", e.Msg, e.Pos)
				}
			}
		case errors.As(err, &ce), errors.Is(err, context.DeadlineExceeded):
		case err != nil:
			t.Fatalf("error of type %T: %v", err, err)
		case len(res.Statements) == 0:
			t.Fatal("a program without statements loaded")
		}
	})
}
