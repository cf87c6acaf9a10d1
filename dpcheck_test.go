package dpcheck_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck"
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

// countdown is a context that is cancelled after its Err has been asked
// n times: it ends a computation at a chosen point, with no clock.
type countdown struct {
	context.Context
	n int
}

func (c *countdown) Err() error {
	if c.n--; c.n < 0 {
		return context.Canceled
	}
	return nil
}

// TestCheckSourceStopsDuringLoad: a context that ends while the file is
// being loaded (here, among the rows of an explicit chain) ends
// CheckSource with the context's error, before any statement runs.
func TestCheckSourceStopsDuringLoad(t *testing.T) {
	var b strings.Builder
	b.WriteString("chain {\n")
	for i := range 5000 {
		fmt.Fprintf(&b, "  state s%d (x = %d)\n", i, i)
	}
	for i := range 4999 {
		fmt.Fprintf(&b, "  s%d -> s%d : 1\n", i, i+1)
	}
	b.WriteString("}\ninputs s0, s1\nneighbours s0 ~ s1\ncheck dp(eps = 1)\n")
	for _, n := range []int{0, 1, 2, 3} {
		ctx := &countdown{Context: context.Background(), n: n}
		res, err := dpcheck.CheckSource(ctx, "big.dp", b.String())
		if !errors.Is(err, context.Canceled) || res != nil {
			t.Errorf("cancelled after %d checks: result %v, error %v; want none and context.Canceled", n, res, err)
		}
	}
	// And it does load and pass when nothing cancels it.
	if res, err := dpcheck.CheckSource(context.Background(), "big.dp", b.String()); err != nil || !res.Pass() {
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
