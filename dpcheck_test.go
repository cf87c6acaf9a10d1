package dpcheck_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/dpcheck/dpcheck"
)

// TestModels runs every example model: each states its expected outcomes
// with "expect", and every statement must meet them.
func TestModels(t *testing.T) {
	files, err := filepath.Glob("models/*.dp")
	if err != nil || len(files) == 0 {
		t.Fatalf("no models: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			res, err := dpcheck.CheckFile(context.Background(), f)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Statements) == 0 {
				t.Fatal("the model checks nothing")
			}
			for _, o := range res.Statements {
				if !o.Pass {
					t.Errorf("line %d: %s: got %s (error: %v), expected %s", o.Statement.Pos.Line, o.Statement.Text, o.Value(), o.Err, o.Statement.Expect.Text)
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
		fmt.Printf("line %d: %s -> %s (pass: %v)\n", o.Statement.Pos.Line, o.Statement.Text, o.Value(), o.Pass)
	}
	cx := res.Statements[0].DP.Counterexample
	fmt.Printf("counterexample: %s vs %s on %v: %s > %s\n", cx.From, cx.To, cx.Event, cx.PrFrom.RatString(), cx.Bound)
	// Output:
	// line 3: check dp(eps = ln(3/2)) expect violated -> violated (pass: true)
	// line 4: query eps(delta = 0) -> ln(2) (pass: true)
	// counterexample: s0 (in=0) vs s1 (in=1) on [t0]: 2/3 > 1/2
}

// TestCheckSourceStopsDuringLoad: a deadline that passes while the chain is
// being built ends CheckSource with the context's error.
func TestCheckSourceStopsDuringLoad(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	_, err := dpcheck.CheckSource(ctx, "big.dp", "model truncated_geometric(alpha = 1/2, n = 1000)\ncheck dp(eps = ln(2))\n")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v, want context.DeadlineExceeded", err)
	}
}
