package dpcheck

import (
	"context"
	"fmt"
	"maps"
	"math/big"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dpcheck/dpcheck/prism"
	"github.com/dpcheck/dpcheck/spec"
)

// A FrontEnd is a language dpcheck reads: it checks one Input of its
// kind, reading the Input's files through the Config.
type FrontEnd interface {
	// Check checks in, whose File is called name in messages (StdinName
	// for "-"), and returns the text of that file, for the excerpts of
	// its errors.
	Check(ctx context.Context, c Config, in Input, name string, consts map[string]prism.Value) (src string, r *Result, err error)
}

// The roles a file's name gives it (roleOf).
const (
	roleDP         = iota // a .dp file: any other name, and "-"
	rolePRISMModel        // .prism, .pm, .nm
	rolePRISMProps        // .pctl, .props
	roleExplicit          // PRISM's explicit files .tra, .lab, .sta, read from a .dp file
)

// roleOf says what the file path is, by its extension in any case.
func roleOf(path string) int {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".prism", ".pm", ".nm":
		return rolePRISMModel
	case ".pctl", ".props":
		return rolePRISMProps
	case ".tra", ".lab", ".sta":
		return roleExplicit
	}
	return roleDP
}

// FrontEndOf returns the front end that checks in: PRISM's for a
// properties file with its model, .dp's (package spec) for any other.
func FrontEndOf(in Input) FrontEnd {
	if in.Model != "" {
		return prismFrontEnd{}
	}
	return dpFrontEnd{}
}

// CheckInput checks one Input of ExpandInputs with the front end of its
// file's name: it returns the text of the Input's file (for the excerpts
// of its errors) and the result, or the error that stopped it (Input.Err
// for a path that is not read). Standard input ("-") is read with Stdin,
// and the files it names are confined below the working directory unless
// Root says otherwise.
func (c Config) CheckInput(ctx context.Context, in Input, consts map[string]prism.Value) (src string, r *Result, err error) {
	if in.Err != nil {
		return "", nil, in.Err
	}
	name := in.File
	if in.File == "-" {
		name = StdinName
		if c.Root == "" {
			c.Root = "." // what standard input names is below the working directory
		}
	}
	return FrontEndOf(in).Check(ctx, c, in, name, consts)
}

// stdin reads standard input through the Stdin hook.
func (c Config) stdin() (string, error) {
	if c.Stdin == nil {
		return "", fmt.Errorf("%s: no standard input to read", StdinName)
	}
	return c.Stdin()
}

// dpFrontEnd checks a .dp file (package spec).
type dpFrontEnd struct{}

// Check reads the .dp file and checks it.
func (dpFrontEnd) Check(ctx context.Context, c Config, in Input, name string, consts map[string]prism.Value) (string, *Result, error) {
	read := func() (string, error) { return ReadSource(in.File, c.MaxFileSize) }
	if in.File == "-" {
		read = c.stdin
	}
	src, err := read()
	if err != nil {
		return src, nil, err
	}
	var nums map[string]*big.Rat
	for _, k := range slices.Sorted(maps.Keys(consts)) {
		if consts[k].Num == nil {
			return src, nil, fmt.Errorf("the value given for %s is a truth value; a .dp file's constants are numbers", k)
		}
		if nums == nil {
			nums = map[string]*big.Rat{}
		}
		nums[k] = consts[k].Num
	}
	r, err := c.checkSource(ctx, name, src, nums)
	return src, r, err
}

// prismFrontEnd checks a PRISM properties file against its model
// (package prism).
type prismFrontEnd struct{}

// Check checks the properties file with its model, read through c's
// ReadFile.
func (prismFrontEnd) Check(ctx context.Context, c Config, in Input, name string, consts map[string]prism.Value) (src string, r *Result, err error) {
	read := c.readFile
	if in.File == "-" {
		src, _ = c.stdin() // its error is the properties file's, when it is read
	}
	c.ReadFile = func(path string) (string, error) {
		if in.File == "-" && path == name { // the properties
			return c.stdin()
		}
		text, err := read(path)
		if err == nil && path == name {
			src = text
		}
		return text, err
	}
	r, err = c.CheckPRISM(ctx, in.Model, name, consts)
	return src, r, err
}

// ConstNames returns the names of the constants the input's files declare
// — a .dp file's, or a PRISM model's and its properties file's — for a
// caller that gives values to several files at once (a sweep gives each
// file the values of its own constants). ok is false when a file cannot
// be read or parsed: checking it will say why.
func (c Config) ConstNames(in Input) (names []string, ok bool) {
	if in.Err != nil {
		return nil, false
	}
	read := func(path string) (string, error) {
		if path == "-" {
			return c.stdin()
		}
		return ReadSource(path, c.MaxFileSize)
	}
	if in.Model == "" {
		src, err := read(in.File)
		if err != nil {
			return nil, false
		}
		f, err := spec.Parse(in.File, src)
		if err != nil {
			return nil, false
		}
		for _, st := range f.Stmts {
			if cs, isConst := st.(*spec.ConstStmt); isConst {
				names = append(names, cs.Name.Name)
			}
		}
		return names, true
	}
	msrc, err := read(in.Model)
	if err != nil {
		return nil, false
	}
	m, err := prism.ParseModel(in.Model, msrc)
	if err != nil {
		return nil, false
	}
	psrc, err := read(in.File)
	if err != nil {
		return nil, false
	}
	p, err := prism.ParseProperties(in.File, psrc)
	if err != nil {
		return nil, false
	}
	for _, k := range append(slices.Clone(m.Consts), p.Consts...) {
		names = append(names, k.Name.Name)
	}
	return names, true
}
