package source

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Confinement: the files a source names (a PRISM model, PRISM's explicit
// files) are read only from below a root directory — by default the
// directory of the naming file — so that a file written by someone else
// (a pull request checked in CI) cannot make dpcheck read, and quote in
// its errors, a file elsewhere on the machine: /etc/passwd, a CI secret,
// /proc/self/environ through a symbolic link.

// Why a path may not be read (ConfineError.Reason).
const (
	// Outside: the path, as written, leads outside the root (an absolute
	// path elsewhere, or ".." too many times).
	Outside = iota + 1
	// ThroughLink: the path is below the root as written, but a symbolic
	// link on it leads outside.
	ThroughLink
	// NotRegular: the path is a directory, a device, a pipe or a socket.
	NotRegular
	// Unresolved: the path could not be resolved (a loop of symbolic
	// links, a component that is not a directory, no permission); Err says
	// why.
	Unresolved
)

// A ConfineError says why a path a source names may not be read.
type ConfineError struct {
	Name   string // the path as the source writes it
	Root   string // the directory it must lie below
	Reason int    // Outside, ThroughLink, NotRegular or Unresolved
	// Dir is set for NotRegular when the path is a directory.
	Dir bool
	Err error // for Unresolved
}

func (e *ConfineError) Error() string {
	switch e.Reason {
	case Outside:
		return fmt.Sprintf("%s is outside %s", Quote(e.Name), e.Root)
	case ThroughLink:
		return fmt.Sprintf("%s leads outside %s through a symbolic link", Quote(e.Name), e.Root)
	case NotRegular:
		if e.Dir {
			return fmt.Sprintf("%s is a directory, not a file", Quote(e.Name))
		}
		return fmt.Sprintf("%s is a device, pipe or socket, not a regular file", Quote(e.Name))
	}
	return fmt.Sprintf("cannot resolve %s: %s", Quote(e.Name), Reason(e.Err))
}

func (e *ConfineError) Unwrap() error { return e.Err }

// Confine resolves name — a path written in a source file whose
// directory is dir — and checks that it may be read from below root: it
// returns the path to read, dir joined with name (an absolute name as it
// is), or a *ConfineError.
//
// The path must lie below root as written (after "." and ".." are
// resolved), and, with every symbolic link on it resolved as far as it
// exists on disk, below root with its symbolic links resolved; where it
// exists it must be a regular file. A path that does not exist on disk
// (below root) is returned as written: reading it says it is missing — or,
// for a caller that reads its files from elsewhere than the disk, finds
// it there.
func Confine(root, dir, name string) (string, error) {
	full := name
	if !filepath.IsAbs(name) {
		full = filepath.Join(dir, name)
	}
	fail := func(reason int, err error) (string, error) {
		return "", &ConfineError{Name: name, Root: root, Reason: reason, Err: err}
	}
	if !Within(root, full) {
		return fail(Outside, nil)
	}
	real, err := resolve(full, 0)
	if err != nil {
		return fail(Unresolved, err)
	}
	realRoot, err := resolve(root, 0)
	if err != nil || !Within(realRoot, real) {
		return fail(ThroughLink, nil)
	}
	info, err := os.Stat(real)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return full, nil
	case err != nil:
		return fail(Unresolved, err)
	case !info.Mode().IsRegular():
		return "", &ConfineError{Name: name, Root: root, Reason: NotRegular, Dir: info.IsDir()}
	}
	return full, nil
}

// maxLinks bounds the symbolic links resolve follows, as the kernel does.
const maxLinks = 40

// resolve returns p with every symbolic link on it resolved, as far as it
// exists: the real path of its deepest existing part (a dangling link
// followed to where it points) joined with the rest. So a path that
// leads outside is found to, whether or not what it names exists there:
// a source cannot learn which files exist outside its root.
func resolve(p string, links int) (string, error) {
	real, err := filepath.EvalSymlinks(p)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return real, err
	}
	parent := filepath.Dir(p)
	if parent == p {
		return "", err
	}
	rp, err := resolve(parent, links)
	if err != nil {
		return "", err
	}
	last := filepath.Join(rp, filepath.Base(p))
	info, err := os.Lstat(last)
	if err != nil || info.Mode()&fs.ModeSymlink == 0 {
		return last, nil // missing from here on
	}
	if links >= maxLinks {
		return "", fmt.Errorf("%w: too many levels of symbolic links", fs.ErrInvalid)
	}
	target, err := os.Readlink(last)
	if err != nil {
		return "", err
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(rp, target) // rp has no link: ".." is its parent
	}
	return resolve(target, links+1)
}

// Within reports whether path lies below the directory root (or is root),
// as written: both are made absolute against the working directory and
// cleaned, and no symbolic link is resolved.
func Within(root, path string) bool {
	r, err1 := filepath.Abs(root)
	p, err2 := filepath.Abs(path)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(r, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// Reason is what an error of the file system says without the path it
// names (which may be long, or absolute and revealing where the files
// are): "no such file", "permission denied", "too many levels of symbolic
// links".
func Reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		err = le.Err
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	}
	return err.Error()
}
