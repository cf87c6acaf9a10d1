package spec

import (
	"io/fs"
	"path"
	"path/filepath"

	"github.com/dpcheck/dpcheck/source"
)

// readNamed reads the file a model names, the string a: confined below
// the root (Options.Root, or the directory of the .dp file) and read
// through Options.ReadFile. It returns the path read and the file's text,
// or reports at a why it cannot and returns false.
func (c *checker) readNamed(a *Expr, what string) (string, string, bool) {
	if c.fsys != nil {
		return c.readNamedFS(a, what)
	}
	dir := filepath.Dir(c.f.Name)
	root := c.root
	if root == "" {
		root = dir
	}
	full, err := source.Confine(root, dir, a.Text)
	if err == nil {
		var src string
		if src, err = c.readFile(full); err == nil {
			return full, src, true
		}
	}
	c.errNamedFile(a.Pos(), what, a.Text, err)
	return "", "", false
}

// readNamedFS is readNamed from Options.FS: the path is resolved against
// the .dp file's directory in FS and must stay within FS.
func (c *checker) readNamedFS(a *Expr, what string) (string, string, bool) {
	full := path.Join(path.Dir(filepath.ToSlash(c.f.Name)), a.Text)
	if path.IsAbs(a.Text) || !fs.ValidPath(full) {
		c.errNamedFile(a.Pos(), what, a.Text, &source.ConfineError{Name: a.Text, Reason: source.Outside})
		return "", "", false
	}
	src, err := c.readFile(full)
	if err != nil {
		c.errNamedFile(a.Pos(), what, a.Text, err)
		return "", "", false
	}
	return full, src, true
}

// rootName names the directory the files a model names must lie below,
// for messages.
func (c *checker) rootName() string {
	switch {
	case c.fsys != nil:
		return "the files given with " + c.f.Name
	}
	switch c.root {
	case "":
		return "the directory of " + c.f.Name
	case ".":
		return "the working directory"
	}
	return "the root directory " + c.root
}

// limitKind is implemented by an error that reports a limit (a file over
// the size limit): its kind, as source.Error.Limit names it.
type limitKind interface{ LimitKind() string }
