package spec_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dpcheck/dpcheck/spec"
	"github.com/dpcheck/dpcheck/statespace"
)

const unboundedModule = `module m
  input d : [0..2];
  x : int;
  y : int init 2 - 5;
  b : [0..3] init 1;
  done : bool;
  [] !done -> (x' ~ geometric(1/2, d)) & (y' ~ geometric1(alpha = 1/3, centre = y + d))
            & (b' ~ geometric(1/2, d, 0, 3)) & (done' = true);
endmodule
outputs var x
neighbours |d - d'| <= 1
`

// v : int declares an unbounded integer, and a draw of it without lo and
// hi is untruncated: the model's variable is Unbounded and its noise has
// two arguments, α and the centre.
func TestUnboundedDeclarations(t *testing.T) {
	f, err := spec.Parse("t.dp", unboundedModule)
	if err != nil {
		t.Fatal(err)
	}
	var ints []string
	for _, d := range f.Stmts[0].(*spec.ModuleStmt).Vars {
		if d.Int {
			ints = append(ints, d.Name.Name)
			if d.Lo != nil || d.Hi != nil {
				t.Errorf("%s : int has a range", d.Name.Name)
			}
		}
	}
	if d := cmp.Diff([]string{"x", "y"}, ints); d != "" {
		t.Errorf("int declarations (-want +got):\n%s", d)
	}
	p, err := spec.Load(context.Background(), "t.dp", unboundedModule+"check dp(eps = ln(2))\n")
	if err != nil {
		t.Fatal(err)
	}
	m, ok := p.Model.(*statespace.Model)
	if !ok {
		t.Fatalf("the model is %T, want modules", p.Model)
	}
	if !m.HasUnbounded() {
		t.Error("HasUnbounded is false")
	}
	type v struct {
		Name              string
		Unbounded, Bool   bool
		Lo, Hi            int64
		Init              string
		Line, Col, Module int
	}
	var got []v
	for _, x := range m.Vars {
		init := ""
		if x.Init != nil {
			init = x.Init.Text
		}
		got = append(got, v{x.Name, x.Unbounded, x.Bool, x.Lo, x.Hi, init, x.Pos.Line, x.Pos.Column, x.Module})
	}
	want := []v{
		{Name: "d", Hi: 2, Line: 2, Col: 9},
		{Name: "x", Unbounded: true, Line: 3, Col: 3},
		{Name: "y", Unbounded: true, Init: "2 - 5", Line: 4, Col: 3},
		{Name: "b", Hi: 3, Init: "1", Line: 5, Col: 3},
		{Name: "done", Bool: true, Hi: 1, Line: 6, Col: 3},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("variables (-want +got):\n%s", d)
	}
	type draw struct {
		Var  string
		Kind statespace.NoiseKind
		Args []string
	}
	var draws []draw
	for _, a := range m.Commands[0].Updates[0].Assigns {
		if a.Noise == nil {
			continue
		}
		var args []string
		for _, e := range a.Noise.Args {
			args = append(args, e.Text)
		}
		draws = append(draws, draw{m.Vars[a.Var].Name, a.Noise.Kind, args})
	}
	wantDraws := []draw{
		{"x", statespace.Geometric, []string{"1/2", "d"}},
		{"y", statespace.Geometric1, []string{"1/3", "y + d"}},
		{"b", statespace.Geometric, []string{"1/2", "d", "0", "3"}},
	}
	if d := cmp.Diff(wantDraws, draws); d != "" {
		t.Errorf("draws (-want +got):\n%s", d)
	}
}

// TestUnboundedErrors: an unbounded integer is drawn untruncated and only
// from the geometric distributions, a bounded variable's geometric draw
// names its bounds, and an input has a range; each mistake is reported
// where it is.
func TestUnboundedErrors(t *testing.T) {
	const tail = "neighbours true\nquery eps(delta = 0)\n"
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"unclamped draw of a bounded variable", "module m\n  x : [0..3] init 0;\n  [] x = 0 -> (x' ~ geometric1(1/2, 0));\nendmodule\n",
			[]string{"3:21: geometric1 takes 4 arguments, geometric1(alpha, centre, lo, hi); found 2 (only an unbounded integer, declared x : int, is drawn without lo and hi)"}},
		{"unclamped draw of a bounded variable, named", "module m\n  x : [0..3] init 0;\n  [] x = 0 -> (x' ~ geometric(centre = 1, alpha = 1/2));\nendmodule\n",
			[]string{"3:21: geometric takes 4 arguments, geometric(alpha, centre, lo, hi); found 2 (only an unbounded integer, declared x : int, is drawn without lo and hi)"}},
		{"bounded draw missing hi, named", "module m\n  x : [0..3] init 0;\n  [] x = 0 -> (x' ~ geometric(centre = 1, lo = 0));\nendmodule\n",
			[]string{"3:21: geometric needs alpha (geometric(alpha = …))"}},
		{"clamped draw of an unbounded variable", "module m\n  x : int;\n  [] x = 0 -> (x' ~ geometric(1/2, 0, 0, 3));\nendmodule\n",
			[]string{"3:39: x is an unbounded integer: its draw is untruncated, geometric(alpha, centre), without lo and hi"}},
		{"clamped draw of an unbounded variable, named", "module m\n  x : int;\n  [] x = 0 -> (x' ~ geometric1(alpha = 1/2, centre = 0, lo = 0, hi = 3));\nendmodule\n",
			[]string{"3:57: x is an unbounded integer: its draw is untruncated, geometric1(alpha, centre), without lo and hi"}},
		{"draw of an unbounded variable without its centre", "module m\n  x : int;\n  [] x = 0 -> (x' ~ geometric(1/2));\nendmodule\n",
			[]string{"3:21: geometric takes 2 arguments, geometric(alpha, centre); found 1"}},
		{"uniform into an unbounded variable", "module m\n  x : int;\n  [] x = 0 -> (x' ~ uniform(0, 3));\nendmodule\n",
			[]string{"3:21: x is an unbounded integer: it is drawn from geometric(alpha, centre) or geometric1(alpha, centre), untruncated"}},
		{"bernoulli into an unbounded variable", "module m\n  x : int;\n  [] x = 0 -> (x' ~ bernoulli(1/2));\nendmodule\n",
			[]string{"3:21: x is an unbounded integer: it is drawn from geometric(alpha, centre) or geometric1(alpha, centre), untruncated"}},
		{"unbounded input", "module m\n  input x : int;\nendmodule\n",
			[]string{"2:9: an input variable takes every value of its range: declare input x : [lo..hi]"}},
		{"unbounded input with init", "module m\n  input x : int init 0;\nendmodule\n",
			[]string{"2:9: an input variable takes every value of its range: declare input x : [lo..hi]", "2:22: an input variable takes every value of its range: it has no init"}},
		{"fractional init", "module m\n  x : int init 1/2;\nendmodule\n", []string{"2:16: the initial value of x is 1/2, not an integer"}},
		{"init reads a variable", "module m\n  input d : [0..1];\n  x : int init d;\nendmodule\n", []string{"3:16: the initial value of x reads the variable d: an initial value is a constant expression"}},
		{"int twice", "module m\n  x : int;\n  x : int init 1;\nendmodule\n", []string{"3:3: variable x is already declared at line 2"}},
		{"a type misspelt", "module m\n  x : integer;\nendmodule\n",
			[]string{`2:7: unexpected "integer": a variable's type is a range [lo..hi], bool, or int (an unbounded integer; double has no counterpart)`}},
		{"a range after int", "module m\n  x : int [0..3];\nendmodule\n", []string{`2:11: unexpected "[" (expected ";" ending the declaration)`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, errorsOf(t, tc.src+tail)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// TestFormatUnbounded: dpcheck fmt prints int declarations and draws
// without bounds as written, and its output is a fixed point.
func TestFormatUnbounded(t *testing.T) {
	src := "module m\ninput d:[0..2];x:int;y:int   init 2-5;done:bool;\n[]!done->(x'~geometric(1/2,d))&(y'~geometric1(alpha=1/3,centre=y+d))&(done'=true);\nendmodule\noutputs var x\nneighbours |d-d'|<=1\n"
	want := `module m
  input d : [0..2];
  x : int;
  y : int init 2 - 5;
  done : bool;
  [] !done -> (x' ~ geometric(1/2, d)) & (y' ~ geometric1(alpha = 1/3, centre = y + d))
            & (done' = true);
endmodule
outputs var x
neighbours |d - d'| <= 1
`
	got, err := spec.Format("t.dp", src)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("formatted (-want +got):\n%s", d)
	}
	again, err := spec.Format("t.dp", got)
	if err != nil {
		t.Fatal(err)
	}
	if again != got {
		t.Errorf("formatting is not a fixed point:\n%s", again)
	}
	if again, err := spec.Format("t.dp", unboundedModule); err != nil || again != unboundedModule {
		t.Errorf("the formatted module changes: %v\n%s", err, again)
	}
}
