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
)

// DefaultMaxFileSize is the largest source file read by default (64 MiB).
const DefaultMaxFileSize = 64 << 20

// FileSizeError says that a file is larger than the limit on source files.
type FileSizeError struct {
	Path  string
	Size  int64 // at least this many bytes
	Limit int64
}

func (e *FileSizeError) Error() string {
	return fmt.Sprintf("%s has %s bytes; the limit is %s bytes", e.Path, thousands(e.Size), thousands(e.Limit))
}

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
		return "", err
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
		return "", err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return "", err
	}
	if int64(len(data)) > limit { // the file grew while it was read
		return "", &FileSizeError{Path: path, Size: int64(len(data)), Limit: limit}
	}
	return string(data), nil
}

// thousands writes n with thousands separators: 67,108,864.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// Expand turns paths into .dp files: a directory stands for every .dp
// file below it, in lexical order; a directory without any is an error.
func Expand(args []string) ([]string, error) {
	var files []string
	for _, a := range args {
		info, err := os.Stat(a)
		if err != nil || !info.IsDir() {
			files = append(files, a)
			if err != nil {
				return nil, err
			}
			continue
		}
		var found []string
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".dp") {
				found = append(found, p)
			}
			return err
		})
		if err == nil && len(found) == 0 {
			err = fmt.Errorf("no .dp files in %s", a)
		}
		if err != nil {
			return nil, err
		}
		sort.Strings(found)
		files = append(files, found...)
	}
	return files, nil
}
