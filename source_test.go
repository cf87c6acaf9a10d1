package dpcheck_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dpcheck/dpcheck"
)

// TestExpandWalk: a directory walk finds the .dp files below it, sorted;
// it checks a symbolic link to a .dp file inside under its own name, does
// not follow a symbolic link to a directory inside (its files are found
// where they are), and refuses, naming it, a symbolic link to a .dp file
// or a directory outside.
func TestExpandWalk(t *testing.T) {
	top := t.TempDir()
	t.Chdir(top)
	for _, f := range []string{"models/b.dp", "models/a/c.dp", "models/a/notes.txt", "outside/x.dp"} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("model survey()\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, name string) {
		t.Helper()
		if err := os.Symlink(target, name); err != nil {
			t.Fatal(err)
		}
	}
	link("b.dp", "models/alias.dp")
	link("a", "models/again")
	link("../outside/x.dp", "models/readme") // not a .dp name: not ours
	link("missing.dp", "models/gone.dp")     // reading it says it is missing
	link("models", "linked")
	got, err := dpcheck.Expand([]string{"models", "-", "outside/x.dp"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"models/a/c.dp", "models/alias.dp", "models/b.dp", "models/gone.dp", "-", "outside/x.dp"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	// A directory given as a symbolic link is walked.
	if got, err := dpcheck.Expand([]string{"linked"}); err != nil || len(got) != 4 {
		t.Errorf("walking a linked directory: %q, %v", got, err)
	}
	for _, tc := range []struct{ target, name, want string }{
		{"../../outside/x.dp", "models/a/evil.dp", "models/a/evil.dp is a symbolic link to a file outside models: a directory walk does not follow it (name the file itself to check it)"},
		{filepath.Join(top, "outside"), "models/out", "models/out is a symbolic link to a directory outside models: a directory walk does not follow it (name the file itself to check it)"},
		{"/etc/passwd", "models/passwd.dp", "models/passwd.dp is a symbolic link to a file outside models: a directory walk does not follow it (name the file itself to check it)"},
	} {
		link(tc.target, tc.name)
		_, err := dpcheck.Expand([]string{"models"})
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
		os.Remove(tc.name)
	}
}

// TestExpandInputsStdin: "-" is a .dp file alone, and a properties file
// after a PRISM model.
func TestExpandInputsStdin(t *testing.T) {
	got, err := dpcheck.ExpandInputs([]string{"-", "m.prism", "p.pctl", "-"})
	if err != nil {
		t.Fatal(err)
	}
	want := []dpcheck.Input{{File: "-"}, {File: "p.pctl", Model: "m.prism"}, {File: "-", Model: "m.prism"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("inputs (-want +got):\n%s", diff)
	}
}

// TestReadSourceFrom: a reader without a size is read up to the limit,
// and one byte more says it is over.
func TestReadSourceFrom(t *testing.T) {
	src, err := dpcheck.ReadSourceFrom(dpcheck.StdinName, strings.NewReader("model survey()\n"), 15)
	if err != nil || src != "model survey()\n" {
		t.Errorf("%q, %v", src, err)
	}
	_, err = dpcheck.ReadSourceFrom(dpcheck.StdinName, strings.NewReader("model survey()\n\n"), 15)
	var fe *dpcheck.FileSizeError
	if !errors.As(err, &fe) || err.Error() != "<stdin> has more than 15 bytes; the limit is 15 bytes" {
		t.Errorf("%v", err)
	}
	_, err = dpcheck.ReadSourceFrom(dpcheck.StdinName, infinite{}, 1<<20)
	if !errors.As(err, &fe) || fe.Size != 1<<20+1 {
		t.Errorf("an endless reader: %v", err)
	}
}

// infinite is an endless stream of spaces, as /dev/zero is of zeros.
type infinite struct{}

func (infinite) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}
