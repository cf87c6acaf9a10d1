package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/prism"
)

// TestFlagErrors: a limit below 1 is a usage error naming only the flags
// given wrongly; a --root that is not a directory is a usage error naming
// --root; so are a --param that is no interval, a second --param, and
// --param with a .dp file or with --const of the same name.
func TestFlagErrors(t *testing.T) {
	rr, rrp := "../../models/prism/randomized_response.prism", "../../models/prism/randomized_response.pctl"
	_, err := prism.ParseParam("p=0:1e999999")
	if err == nil {
		t.Fatal("p=0:1e999999 is read")
	}
	numberErr := strings.TrimPrefix(err.Error(), "p: ")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--max-states", "-1", "testdata/pass.dp"}, "dpcheck: --max-states must be positive\n"},
		{[]string{"--max-memory", "0", "testdata/pass.dp"}, "dpcheck: --max-memory must be positive\n"},
		{[]string{"--max-horizon", "0", "--max-bits", "-5", "--max-search-work", "0", "testdata/pass.dp"},
			"dpcheck: --max-bits, --max-horizon and --max-search-work must be positive\n"},
		{[]string{"--root", "/nonexistent-dpcheck-root", "testdata/pass.dp"},
			"dpcheck: --root /nonexistent-dpcheck-root is not a directory: give the directory below which the files a model names may lie\n"},
		{[]string{"--root", "testdata/pass.dp", "testdata/pass.dp"},
			"dpcheck: --root testdata/pass.dp is not a directory: give the directory below which the files a model names may lie\n"},
		{[]string{"--root", "bad\x1b[2Jroot", "testdata/pass.dp"},
			"dpcheck: --root bad\\x1b[2Jroot is not a directory: give the directory below which the files a model names may lie\n"},
		{[]string{"--param", "p=1:0", rr, rrp},
			"dpcheck: invalid value \"p=1:0\" for flag -param: p: the interval [1, 0] is empty or a point: its low end must be below its high end\nRun dpcheck --help for the flags.\n"},
		{[]string{"--param", "p=(0,1", rr, rrp},
			"dpcheck: invalid value \"p=(0,1\" for flag -param: p: \"(0,1\" is not an interval LO:HI or (LO,HI)\nRun dpcheck --help for the flags.\n"},
		{[]string{"--param", "p\x1b[2J=0:1", rr, rrp},
			"dpcheck: invalid value \"p\\x1b[2J=0:1\" for flag -param: \"p\\x1b[2J=0:1\" is not a parameter NAME=LO:HI or NAME=(LO,HI) (such as p=0:1 or p=(0,1))\nRun dpcheck --help for the flags.\n"},
		{[]string{"--param", "p=0:1e999999", rr, rrp},
			"dpcheck: invalid value \"p=0:1e999999\" for flag -param: p: " + numberErr + "\nRun dpcheck --help for the flags.\n"},
		{[]string{"--param", "p=0:1", "--param", "q=0:1", rr, rrp},
			"dpcheck: invalid value \"q=0:1\" for flag -param: one --param only: dpcheck decides for every value of one parameter\nRun dpcheck --help for the flags.\n"},
		{[]string{"--param", "p=(0,1)", "testdata/pass.dp"},
			"dpcheck: --param is for PRISM models; testdata/pass.dp is a .dp file, which names its parameter itself (param p in (0, 1))\n"},
		{[]string{"--param", "p=(0,1)", "--const", "p=1/2", rr, rrp},
			"dpcheck: --param p and --const p: p is either a parameter or given a value, not both\n"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), tt.args, &stdout, &stderr); code != exitInvalid || stderr.String() != tt.want || stdout.Len() > 0 {
			t.Errorf("dpcheck %q: exit %d, stderr %q, stdout %q; want exit 2 and %q", tt.args, code, stderr.String(), stdout.String(), tt.want)
		}
	}
	// A --root that is a directory, or the default, is accepted.
	for _, args := range [][]string{{"--root", ".", "testdata/pass.dp"}, {"--root", "testdata/", "testdata/pass.dp"}} {
		if code := run(context.Background(), args, &bytes.Buffer{}, &bytes.Buffer{}); code != exitPass {
			t.Errorf("dpcheck %q: exit %d, want 0", args, code)
		}
	}
}
