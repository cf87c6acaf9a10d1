package dpcheck_test

import (
	"context"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck"
)

// TestExpandInputsExplicit: an explicit file given alone is not checked
// as a .dp file; the error says how to check it.
func TestExpandInputsExplicit(t *testing.T) {
	for _, f := range []string{"m.tra", "m.LAB", "m.sta"} {
		_, err := dpcheck.ExpandInputs([]string{f})
		if err == nil || !strings.Contains(err.Error(), f+" is one of PRISM's explicit model files") || !strings.Contains(err.Error(), `model explicit("m.tra", "m.lab")`) {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestCheckInputStdin: "-" is read with Config.Stdin and named
// dpcheck.StdinName; a path a walk does not follow is its Err.
func TestCheckInputStdin(t *testing.T) {
	c := dpcheck.Config{Stdin: func() (string, error) { return "model {\n", nil }}
	src, r, err := c.CheckInput(context.Background(), dpcheck.Input{File: "-"}, nil)
	if src != "model {\n" || r != nil || err == nil || !strings.HasPrefix(err.Error(), dpcheck.StdinName+":") {
		t.Errorf("got %q, %v, %v", src, r, err)
	}
	c = dpcheck.Config{Stdin: func() (string, error) { return "P=? [F true]", nil }}
	src, _, err = c.CheckInput(context.Background(), dpcheck.Input{File: "-", Model: "testdata/none.prism"}, nil)
	if src != "P=? [F true]" || err == nil {
		t.Errorf("properties from standard input: got %q, %v", src, err)
	}
}
