package dpcheck

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dpcheck/dpcheck/exact"

	"github.com/dpcheck/dpcheck/source"
)

// DefaultMaxFileSize is the largest source file read by default (256 MiB).
// Loading keeps about a file's size: its text (for error messages) and,
// for an explicit chain, records and a chain smaller than the text; the
// expressions a file keeps are bounded apart (spec.MaxNodes).
const DefaultMaxFileSize = 256 << 20

// FileSizeError says that a file is larger than the limit on source files.
type FileSizeError struct {
	Path  string
	Size  int64 // at least this many bytes
	Limit int64
}

func (e *FileSizeError) Error() string {
	if e.Size == e.Limit+1 { // reading stopped there: it may have more
		return fmt.Sprintf("%s has more than %s bytes; the limit is %s bytes", e.Path, exact.Thousands(e.Limit), exact.Thousands(e.Limit))
	}
	return fmt.Sprintf("%s has %s bytes; the limit is %s bytes", e.Path, exact.Thousands(e.Size), exact.Thousands(e.Limit))
}

// LimitKind names the limit the error reports, as source.Error.Limit
// does: "file size".
func (e *FileSizeError) LimitKind() string { return "file size" }

// ErrNotRegular is wrapped by the error for a path that is not a regular
// file (a directory, a device such as /dev/zero, a pipe, a socket).
var ErrNotRegular = errors.New("not a regular file")

// ReadSource reads a source file of at most limit bytes (DefaultMaxFileSize
// when limit ≤ 0). It refuses anything but a regular file before reading,
// and a file over the limit without reading more than the limit.
func ReadSource(path string, limit int64) (string, error) {
	if limit <= 0 {
		limit = DefaultMaxFileSize
	}
	info, err := os.Stat(path) // before opening: opening a named pipe blocks
	if err != nil {
		return "", &readError{path, err}
	}
	if !info.Mode().IsRegular() {
		what := "a device, pipe or socket"
		if info.IsDir() {
			what = "a directory"
		}
		return "", fmt.Errorf("%s is %s: %w of .dp source", path, what, ErrNotRegular)
	}
	if info.Size() > limit {
		return "", &FileSizeError{Path: path, Size: info.Size(), Limit: limit}
	}
	f, err := os.Open(path)
	if err != nil {
		return "", &readError{path, err}
	}
	defer f.Close()
	// Read into a string of the file's size: no buffer to copy from, no
	// growing, so that a large file costs its size once.
	var b strings.Builder
	b.Grow(int(min(info.Size(), limit)) + 1)
	n, err := io.Copy(&b, io.LimitReader(f, limit+1))
	if err != nil {
		return "", &readError{path, err}
	}
	if n > limit { // the file grew while it was read
		return "", &FileSizeError{Path: path, Size: n, Limit: limit}
	}
	return b.String(), nil
}

// ReadSourceFS reads a source file of at most limit bytes
// (DefaultMaxFileSize when limit ≤ 0) from fsys, as ReadSource reads one
// from the disk: anything but a regular file is refused, and a file over
// the limit is not read beyond it.
func ReadSourceFS(fsys fs.FS, path string, limit int64) (string, error) {
	if limit <= 0 {
		limit = DefaultMaxFileSize
	}
	f, err := fsys.Open(path)
	if err != nil {
		return "", &readError{path, err}
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", &readError{path, err}
	}
	if !info.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file: %w of .dp source", path, ErrNotRegular)
	}
	return ReadSourceFrom(path, f, limit)
}

// readError says that a source file could not be read, in the words of
// the other errors about files: "cannot read m.dp: no such file" (not the
// file system's "stat m.dp: no such file or directory"). It wraps the
// file system's error.
type readError struct {
	path string
	err  error
}

func (e *readError) Error() string { return "cannot read " + e.path + ": " + source.Reason(e.err) }

func (e *readError) Unwrap() error { return e.err }

// StdinName is the name standard input ("-" among the paths) has in
// positions and reports.
const StdinName = "<stdin>"

// ReadSourceFrom reads a source of at most limit bytes
// (DefaultMaxFileSize when limit ≤ 0) from r — standard input, say, which
// has no size to check first — counting the bytes as they are read: it
// reads at most limit+1 of them, and more than limit is a *FileSizeError
// naming name.
func ReadSourceFrom(name string, r io.Reader, limit int64) (string, error) {
	if limit <= 0 {
		limit = DefaultMaxFileSize
	}
	var b strings.Builder
	n, err := io.Copy(&b, io.LimitReader(r, limit+1))
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", name, err)
	}
	if n > limit {
		return "", &FileSizeError{Path: name, Size: n, Limit: limit}
	}
	return b.String(), nil
}

// Expand turns paths into .dp files: a directory stands for every .dp
// file below it, in lexical order; a directory without any is an error.
// "-" (standard input) is kept as it is, and so is a path that does not
// exist (reading it says so).
//
// A walk never leaves the directory walked: a symbolic link below it that
// leads outside — to a .dp file or to a directory — is an error naming
// it, not skipped, so that a run that was meant to check a directory does
// not check less, or something else, without saying so. A symbolic link
// to a .dp file inside is checked under its own name; a symbolic link to
// a directory inside is not followed (what it holds is walked where it
// is). Expand returns the first such error; ExpandInputs keeps each with
// its path (Input.Err), so that the other files are checked.
func Expand(args []string) ([]string, error) {
	var files []string
	for _, a := range args {
		found, err := expand(a)
		if err != nil {
			return nil, err
		}
		for _, in := range found {
			if in.Err != nil {
				return nil, in.Err
			}
			files = append(files, in.File)
		}
	}
	return files, nil
}

// expand is Expand of one path, with the errors of the paths a walk met
// kept in their Input; the error is the path's own (a directory without
// .dp files).
func expand(a string) ([]Input, error) {
	info, err := os.Stat(a)
	if a == "-" || err != nil || !info.IsDir() {
		return []Input{{File: a}}, nil
	}
	found, err := walk(a)
	if err == nil && len(found) == 0 {
		err = fmt.Errorf("no .dp files in %s", source.Escape(a))
	}
	return found, err
}

// walk returns the .dp files below the directory dir, sorted, and the
// paths below it that are not walked, with their errors (see Expand).
func walk(dir string) ([]Input, error) {
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, &readError{dir, err}
	}
	var found []Input
	// With a separator at its end, a directory given as a symbolic link
	// is walked, not reported as the link.
	err = filepath.WalkDir(strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator), func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil: // a directory that cannot be read, say
			found = append(found, Input{File: p, Err: &readError{source.Escape(p), err}})
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
		case d.Type()&fs.ModeSymlink != 0:
			if in, ok := walkLink(root, dir, p); ok {
				found = append(found, in)
			}
		case !d.IsDir() && strings.HasSuffix(p, ".dp"):
			found = append(found, Input{File: p})
		}
		return nil
	})
	sort.SliceStable(found, func(i, j int) bool { return found[i].File < found[j].File })
	return found, err
}

// walkLink decides on the symbolic link p met while walking dir (root
// resolved): see Expand. ok is false when the link is not walked and not
// an error (a link to a file that is not a .dp file, a link to a
// directory inside).
func walkLink(root, dir, p string) (in Input, ok bool) {
	isDP := strings.HasSuffix(p, ".dp")
	target, err := filepath.EvalSymlinks(p)
	if err != nil {
		return Input{File: p}, isDP // reading it says what is wrong
	}
	info, err := os.Stat(target)
	if err != nil {
		return Input{File: p, Err: &readError{source.Escape(p), err}}, true
	}
	switch {
	case !info.IsDir() && !isDP:
		return Input{}, false // not a .dp file
	case !source.Within(root, target):
		what := "a file"
		if info.IsDir() {
			what = "a directory"
		}
		return Input{File: p, Err: fmt.Errorf("%s is a symbolic link to %s outside %s: a directory walk does not follow it (name the file itself to check it)", source.Escape(p), what, source.Escape(dir))}, true
	case isDP && !info.IsDir():
		return Input{File: p}, true
	}
	return Input{}, false
}

// Input is what one entry of a run checks: a .dp file, or a PRISM
// properties file with the model it is about.
type Input struct {
	// File is the .dp file, or the PRISM properties file.
	File string
	// Model is the PRISM model file of the properties; "" for a .dp file.
	Model string
	// Err, when set, is why File is not read: a path a directory walk
	// does not follow (a symbolic link out of the directory). It is the
	// file's error, as an error reading it would be; the other files are
	// checked.
	Err error
}

// IsPRISMModel reports whether path names a PRISM model file (.prism,
// .pm, .nm).
func IsPRISMModel(path string) bool { return roleOf(path) == rolePRISMModel }

// IsPRISMProperties reports whether path names a PRISM properties file
// (.pctl, .props).
func IsPRISMProperties(path string) bool { return roleOf(path) == rolePRISMProps }

// ExpandInputs turns paths into what to check: a directory stands for
// every .dp file below it (as in Expand); a PRISM model file (.prism, .pm,
// .nm) is checked against each properties file (.pctl, .props) that
// follows it — "-" (standard input) among them is a properties file too;
// PRISM's explicit files (.tra, .lab, .sta) are read through a .dp file
// that names them, so one given here is an error that says so; any other
// file is a .dp file, "-" included. A model without a properties
// file after it has nothing to check, and a properties file without a
// model before it nothing to check against: both are errors, as is a
// directory without .dp files; a path a walk does not follow is an Input
// with its Err.
func ExpandInputs(args []string) ([]Input, error) {
	var out []Input
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch roleOf(a) {
		case rolePRISMModel:
			n := 0
			for i+1 < len(args) && (roleOf(args[i+1]) == rolePRISMProps || args[i+1] == "-") {
				i++
				out = append(out, Input{File: args[i], Model: a})
				n++
			}
			if n == 0 {
				return nil, fmt.Errorf("%s is a PRISM model: nothing to check; give a properties file (.pctl or .props) after it", a)
			}
		case rolePRISMProps:
			return nil, fmt.Errorf("%s is a PRISM properties file: give the model file (.prism, .pm or .nm) before it", a)
		case roleExplicit:
			return nil, fmt.Errorf("%s is one of PRISM's explicit model files, which are checked through a .dp file that names them: write model explicit(\"m.tra\", \"m.lab\") and the statements in a .dp file, and check that", a)
		default:
			found, err := expand(a)
			if err != nil {
				return nil, err
			}
			out = append(out, found...)
		}
	}
	return out, nil
}
