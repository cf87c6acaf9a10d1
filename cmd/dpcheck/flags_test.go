package main

import (
	"bytes"
	"context"
	"testing"
)

// TestFlagErrors: a limit below 1 is a usage error naming only the flags
// given wrongly; a --root that is not a directory is a usage error naming
// --root.
func TestFlagErrors(t *testing.T) {
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
