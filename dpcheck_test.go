package dpcheck_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/prism"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
)

// TestModels runs every example model: each states its expected outcomes
// with "expect", and every statement must meet them.
func TestModels(t *testing.T) {
	files, err := filepath.Glob("models/*.dp")
	more, _ := filepath.Glob("models/*/*.dp")
	files = append(files, more...)
	if err != nil || len(files) == 0 || len(more) == 0 {
		t.Fatalf("no models: %v", err)
	}
	for _, f := range files {
		t.Run(strings.TrimPrefix(f, "models/"), func(t *testing.T) {
			res, err := dpcheck.CheckFile(context.Background(), f)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Statements) == 0 {
				t.Fatal("the model checks nothing")
			}
			for _, o := range res.Statements {
				if h := o.Statement().Head(); !o.Pass() {
					t.Errorf("line %d: %s: got %s (error: %v), expected %s", h.Pos.Line, h.Text, o.Value(), o.Err(), h.Expect.Text)
				}
			}
		})
	}
}

func ExampleCheckSource() {
	src := `
model truncated_geometric(alpha = 1/2, n = 5)
check dp(eps = ln(3/2)) expect violated
query eps(delta = 0)
`
	res, err := dpcheck.CheckSource(context.Background(), "example.dp", src)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range res.Statements {
		h := o.Statement().Head()
		fmt.Printf("line %d: %s -> %s (pass: %v)\n", h.Pos.Line, h.Text, o.Value(), o.Pass())
	}
	cx := res.Statements[0].(*property.DPOutcome).Result.Counterexample
	fmt.Printf("counterexample: %s vs %s on %v: %s > %s\n", cx.From, cx.To, cx.Event, cx.PrFrom.RatString(), cx.Bound)
	// Output:
	// line 3: check dp(eps = ln(3/2)) expect violated -> violated (pass: true)
	// line 4: query eps(delta = 0) -> ln(2) (pass: true)
	// counterexample: s0 (in=0) vs s1 (in=1) on [t0]: 2/3 > 1/2
}

// The files a .dp file names can come from any fs.FS instead of the
// disk: here a PRISM model held in memory.
func ExampleConfig_CheckSource_files() {
	files := fstest.MapFS{"mechanisms/coin.prism": {Data: []byte(`dtmc
module coin
  x : [0..2] init 0;
  [] x = 0 -> 1/4 : (x' = 1) + 3/4 : (x' = 2);
endmodule
`)}}
	src := `model prism("../mechanisms/coin.prism")
check P>=1/4 [F x = 1]
`
	res, err := dpcheck.Config{FS: files}.CheckSource(context.Background(), "checks/coin.dp", src)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Statements[0].Value())
	_, err = dpcheck.Config{FS: files}.CheckSource(context.Background(), "coin.dp", `model prism("/etc/passwd")
query P=?[F x = 1]
`)
	fmt.Println(err)
	// Output:
	// holds
	// coin.dp:1:13: "/etc/passwd" is outside the files given with coin.dp: a model may only read files below it
}

// A PRISM model's undefined double constant read as a parameter, as
// PRISM's -param does: P=? is a rational function of it at each initial
// state, D{?, δ} the least ε as a function of it.
func ExampleConfig_CheckPRISM_param() {
	files := map[string]string{
		"coin.prism": `dtmc
const double p;
module coin
  x : [0..3];
  [] x = 0 -> p : (x' = 1) + 1 - p : (x' = 3);
  [] x = 1 -> p : (x' = 2) + 1 - p : (x' = 0);
endmodule
init x < 2 endinit
`,
		"coin.pctl": "P=? [ F x = 2 ]\nD{?, 0} [ F x = 2 ]\n",
	}
	par, err := prism.ParseParam("p=(0,1)")
	if err != nil {
		fmt.Println(err)
		return
	}
	cfg := dpcheck.Config{PRISMParam: par, ReadFile: func(path string) (string, error) { return files[path], nil }}
	res, err := cfg.CheckPRISM(context.Background(), "coin.prism", "coin.pctl", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range res.Statements {
		switch o := o.(type) {
		case *property.ParamExpectedOutcome:
			for _, v := range o.Values {
				fmt.Printf("Pr(F x = 2) from %s: %s\n", v.State, v.F.Format("p"))
			}
		case *property.ParamEpsOutcome:
			fmt.Println("ε:", o.Value())
		}
	}
	// Output:
	// Pr(F x = 2) from s0 (x=0): p^2/(p^2 − p + 1)
	// Pr(F x = 2) from s1 (x=1): p/(p^2 − p + 1)
	// ε: ln(1/p) for p in (0, 1)
}

// TestCheckSourceStopsDuringLoad: a context that ends while the file is
// being loaded (here, once the PRISM model it names has been read) ends
// CheckSource with the context's error, before any statement runs.
func TestCheckSourceStopsDuringLoad(t *testing.T) {
	const model = "dtmc\nmodule m\n  s : [0..3] init 0;\n  [] s<3 -> 1/2 : (s'=s+1) + 1/2 : (s'=3);\nendmodule\n"
	src := "model prism(\"m.prism\")\nquery P=?[F s = 3]\n"
	ctx, cancel := context.WithCancel(context.Background())
	read := func(string) (string, error) {
		cancel()
		return model, nil
	}
	res, err := dpcheck.Config{ReadFile: read}.CheckSource(ctx, "m.dp", src)
	if !errors.Is(err, context.Canceled) || res != nil {
		t.Errorf("result %v, error %v; want none and context.Canceled", res, err)
	}
	// And it does load and pass when nothing cancels it.
	read = func(string) (string, error) { return model, nil }
	if res, err := (dpcheck.Config{ReadFile: read}).CheckSource(context.Background(), "m.dp", src); err != nil || !res.Pass() {
		t.Errorf("uncancelled: %v", err)
	}
}

// TestInternalError: a bug in dpcheck (here, a prepared program whose
// statement needs a chain it lacks — something Prepare never produces)
// comes back as an InternalError with its stack, not as a crash.
func TestInternalError(t *testing.T) {
	p := &property.Program{File: source.NewFile("broken.dp", ""), Statements: []property.Statement{&property.FormulaCheck{}}}
	_, err := dpcheck.Run(context.Background(), &property.Prepared{Program: p})
	var ie *dpcheck.InternalError
	if !errors.As(err, &ie) || !strings.Contains(ie.Stack, "goroutine") {
		t.Fatalf("error %v (%T), want an InternalError with a stack", err, err)
	}
}
