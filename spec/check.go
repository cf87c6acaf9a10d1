package spec

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"math/big"
	"slices"
	"sort"
	"strings"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/statespace"
)

// Options control a load.
type Options struct {
	// Limits bound what a file may hold: the states and transitions of an
	// explicit chain, and the bits of the numbers it keeps (the zero value
	// means model.Limits' defaults). Builders are checked against them
	// when the program is prepared.
	Limits model.Limits
	// ReadFile reads the files a model names (model prism("m.pm"), model
	// explicit("m.tra", …)), by their paths relative to the directory of
	// the .dp file, once they are confined below Root; nil refuses such a
	// model.
	ReadFile func(path string) (string, error)
	// Root is the directory every file a model names must lie below; ""
	// is the directory of the .dp file itself. A path that leads outside
	// it — absolute, through "..", or through a symbolic link — and
	// anything but a regular file are refused at the path, before
	// ReadFile is called (source.Confine); an error about a path outside
	// has Limit LimitRoot.
	Root string
	// FS, when set, holds the files a model names, in place of the disk:
	// a path is relative to the .dp file's directory within FS (the file's
	// name is a slash-separated path in it), one that leaves FS — absolute,
	// or through ".." — is refused at the path with Limit LimitRoot, and
	// the path is read through ReadFile when it is set (given the path in
	// FS), else with fs.ReadFile; Root is not used. A page that checks a
	// text with the files that came with it reads no disk.
	FS fs.FS
	// Consts give the file's constants values from outside, by name: a
	// constant declared without one (const K) takes it, and one defined
	// in the file is overridden. A name the file does not declare is an
	// error.
	Consts map[string]*big.Rat
	// ConstHint says how a caller gives a constant its value ("give it
	// with --const K=…"), for the error of a constant without one; nil
	// says Options.Consts.
	ConstHint func(name string) string
}

// LimitRoot is the Limit of an error about a file a model names outside
// Options.Root: a caller can say how to give another root.
const LimitRoot = "root"

// Load parses and checks a .dp file with the default options.
func Load(ctx context.Context, filename, src string) (*property.Program, error) {
	return Options{}.Load(ctx, filename, src)
}

// Load parses and checks a .dp file into a program; see Check.
func (o Options) Load(ctx context.Context, filename, src string) (*property.Program, error) {
	f, err := parse(filename, src, false, &loading{ctx: ctx, limits: o.Limits.WithDefaults()})
	if err != nil {
		return nil, err
	}
	return o.Check(ctx, f)
}

// Check turns a parsed file into a program, reporting every error it finds
// at once, sorted by position, as a source.ErrorList. Builders are not
// run: property.Prepare builds the model. Check stops with ctx's error when
// ctx ends.
//
// When there are errors but the model itself checked, Check returns the
// rest of the program with them, so that a caller can prepare it to report
// also the errors that need the built model (unknown labels, say) in the
// same run; such a program must not be evaluated.
func (o Options) Check(ctx context.Context, f *File) (*property.Program, error) {
	c := &checker{ctx: ctx, f: f, src: f.Src, consts: map[string]*constEntry{}, limits: o.Limits.WithDefaults(), readFile: o.ReadFile, root: o.Root, fsys: o.FS,
		formulas: map[string]*FormulaStmt{}, expanding: map[string]bool{}, cyclic: map[string]bool{}, given: o.Consts, constHint: o.ConstHint}
	if o.FS != nil && o.ReadFile == nil {
		c.readFile = func(p string) (string, error) {
			b, err := fs.ReadFile(o.FS, p)
			return string(b), err
		}
	}
	p, modelOK := c.check()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c.errs.Sort()
	if len(c.errs) > 0 {
		if !modelOK {
			p = nil
		}
		return p, c.errs
	}
	return p, nil
}

type constEntry struct {
	decl  *ConstStmt
	state int // 0 unvisited, 1 in progress, 2 done
	val   value
	ok    bool
}

type checker struct {
	ctx    context.Context
	f      *File
	src    string
	errs   source.ErrorList
	consts map[string]*constEntry
	stack  []string // constants being evaluated, for cycle messages
	// block is an explicit chain's block, once checked; declared says
	// where each of its names is declared as a state (-1: it is not), and
	// stateNames are the declared names, sorted (for suggestions).
	block      *chainData
	declared   []int32
	stateNames []string
	// acc sums the rows of an explicit chain; unit is 1.
	acc    chain.Accumulator
	unit   *big.Rat
	limits model.Limits
	// bits counts the bits of the numbers kept (constants, probabilities).
	bits         int64
	bitsExceeded bool
	// observe is the observe statement, if any.
	observe *ObserveStmt
	// vars are the modules' variables (their index in the model), and
	// inputVars those declared input; formulas the formulas, expanded
	// where used.
	vars      map[string]int
	inputVars map[string]bool
	// arrays are the modules' arrays (their elements are in vars).
	arrays map[string]*array
	// intVars are the unbounded integers (v : int).
	intVars   map[string]bool
	formulas  map[string]*FormulaStmt
	expanding map[string]bool
	// given are the constants' values from outside (Options.Consts), and
	// constHint says how to give one.
	cyclic map[string]bool // formulas defined in terms of themselves (refused)
	// written counts what quantifiers, folds and formulas with parameters
	// wrote out (MaxWrittenOut); writtenExceeded, that the error is said.
	written         int64
	writtenExceeded bool
	given           map[string]*big.Rat
	constHint       func(name string) string
	// expanded counts the expression nodes of the modules (MaxExpandedNodes),
	// depth the nesting of the one being translated (MaxExpandedDepth);
	// depthExceeded is set once the depth is reported.
	expanded      int
	depth         int
	depthExceeded bool
	// model is the file's own model, once checked (check equivalent(model, …)).
	model property.Model
	// readFile reads a file a model statement names, below root
	// (Options.Root; "" for the .dp file's directory).
	readFile func(path string) (string, error)
	root     string
	fsys     fs.FS // Options.FS
	// kind says whether the file's model is an MDP, once known.
	kind modelKind
	// param is the file's parameter, if any.
	param *paramInfo
	// paramUsed is set once the model (a chain block or modules) mentions
	// the parameter.
	paramUsed bool
}

// modelKind is what kind of model a file has, for the statements that
// apply to one kind only.
type modelKind int

const (
	kindUnknown modelKind = iota // no model, or one with errors
	kindChain                    // a Markov chain
	kindMDP                      // a Markov decision process
)

// mdpModel is a model that may be an MDP (modules, a PRISM model).
type mdpModel interface{ IsMDP() bool }

// kindOf says what kind of model m is (nil: unknown).
func kindOf(m property.Model) modelKind {
	if m == nil {
		return kindUnknown
	}
	if x, ok := m.(mdpModel); ok && x.IsMDP() {
		return kindMDP
	}
	return kindChain
}

// position returns the position of a byte offset of the file.
func (c *checker) position(off int) source.Position { return c.f.Position(off) }

// retain counts the bits of a number the program keeps (a constant, a
// probability) against the bits limit; false once the limit is exceeded.
func (c *checker) retain(off int, x *big.Rat) bool {
	if c.countBits(x) {
		c.limitf(off, model.LimitBits, "%s", c.bitsMessage())
	}
	return !c.bitsExceeded
}

// countBits counts the bits of x against the bits limit, unless it is
// exceeded already; true when x is the number that exceeds it.
func (c *checker) countBits(x *big.Rat) bool {
	if c.bitsExceeded {
		return false
	}
	c.bits += int64(exact.Bits(x))
	c.bitsExceeded = c.bits > c.limits.MaxBits
	return c.bitsExceeded
}

// bitsMessage says that the numbers exceed the bits limit.
func (c *checker) bitsMessage() string {
	return fmt.Sprintf("the numbers of this file need more than %s bits in all; the limit is %s bits", exact.Thousands(c.limits.MaxBits), exact.Thousands(c.limits.MaxBits))
}

func isKeyword(name string) bool { return slices.Contains(keywords, name) }

// constNames lists the constants names (in the file's order), or says
// there are none.
func constNames(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// constant evaluates the constant name (used at offset off), detecting
// cycles.
func (c *checker) constant(off int, name string) (value, bool) {
	e, ok := c.consts[name]
	if !ok && c.param != nil && name == c.param.name {
		c.errParamUse(off)
		return value{}, false
	}
	if !ok {
		c.errorf(off, "unknown name %s", name)
		return value{}, false
	}
	switch e.state {
	case 1:
		i := slices.Index(c.stack, name)
		cycle := append(slices.Clone(c.stack[i:]), name)
		c.errorf(e.decl.Start, "constant %s is defined in terms of itself (%s)", name, strings.Join(cycle, " → "))
		return value{}, false
	case 2:
		return e.val, e.ok
	}
	if len(c.stack) >= MaxExpandedDepth {
		c.errorf(off, "constant %s is reached through a chain of more than %s constants, each defined by the next; the limit is %s: simplify the definitions", name, exact.Thousands(MaxExpandedDepth), exact.Thousands(MaxExpandedDepth))
		return value{}, false
	}
	e.state = 1
	c.stack = append(c.stack, name)
	if v, given := c.given[name]; given {
		e.val, e.ok = value{k: kNum, num: v}, true
	} else if e.decl.Value == nil {
		hint := "give it a value from outside"
		if c.constHint != nil {
			hint = c.constHint(name)
		}
		c.errorf(e.decl.Name.Off, "constant %s has no value: %s", name, hint)
	} else {
		e.val, e.ok = constEval{c}.expr(e.decl.Value)
	}
	if e.ok && e.val.k == kNum && !c.retain(e.decl.Start, e.val.num) {
		e.ok = false
	}
	c.stack = c.stack[:len(c.stack)-1]
	e.state = 2
	return e.val, e.ok
}

// statements are a file's statements by kind.
type statements struct {
	model      *ModelStmt
	chain      *ChainStmt
	inputs     *InputsStmt
	outputs    *OutputsStmt
	observe    *ObserveStmt
	neighbours *NeighboursStmt
	props      []*PropStmt
	param      *ParamStmt
	modules    []*ModuleStmt
	labels     []*LabelStmt
	conflict   bool // two kinds of model: what needs the model would only cascade
}

// collect sorts the statements by kind, reporting duplicates, and declares
// the constants.
func (c *checker) collect() *statements {
	var s statements
	seen := map[string]int{} // a kind of statement → where it first appears
	first := func(st Stmt, what string) bool {
		if off, dup := seen[what]; dup {
			c.errDuplicateStatement(st.Bounds().Start, what, off)
			return false
		}
		seen[what] = st.Bounds().Start
		return true
	}
	for _, st := range c.f.Stmts {
		switch st := st.(type) {
		case *ConstStmt:
			name := st.Name.Name
			if isKeyword(name) {
				c.errKeyword(st.Name.Off, name, "a constant")
				continue
			}
			if prev, dup := c.consts[name]; dup {
				c.errorf(st.Name.Off, "constant %s is already defined at line %d", name, c.position(prev.decl.Start).Line)
				continue
			}
			c.consts[name] = &constEntry{decl: st}
		case *ModelStmt:
			if c.otherModel(&s, st, "model") {
				continue
			}
			if first(st, "model") {
				s.model = st
			}
		case *ChainStmt:
			if c.otherModel(&s, st, "chain") {
				continue
			}
			if first(st, "chain") {
				s.chain = st
			}
		case *ModuleStmt:
			if c.otherModel(&s, st, "module") {
				continue
			}
			s.modules = append(s.modules, st)
		case *FormulaStmt:
			name := st.Name.Name
			switch {
			case isKeyword(name):
				c.errKeyword(st.Name.Off, name, "a formula")
			case c.formulas[name] != nil:
				c.errorf(st.Name.Off, "formula %s is already defined at line %d", name, c.position(c.formulas[name].Start).Line)
			default:
				c.formulas[name] = st
				for i, p := range st.Params {
					if slices.ContainsFunc(st.Params[:i], func(q Word) bool { return q.Name == p.Name }) {
						c.errorf(p.Off, "formula %s names its parameter %s twice", name, p.Name)
						c.cyclic[name] = true // refused: its calls say nothing more
					}
				}
			}
		case *LabelStmt:
			s.labels = append(s.labels, st)
		case *InputsStmt:
			if first(st, "inputs") {
				s.inputs = st
			}
		case *OutputsStmt:
			if first(st, "outputs") {
				s.outputs = st
			}
		case *ObserveStmt:
			if first(st, "observe") {
				s.observe = st
			}
		case *NeighboursStmt:
			if first(st, "neighbours") {
				s.neighbours = st
			}
		case *PropStmt:
			s.props = append(s.props, st)
		case *ParamStmt:
			if off, dup := seen["param"]; dup {
				c.errorf(st.Start, "a file has one parameter for now (the first is at line %d)", c.position(off).Line)
				continue
			}
			seen["param"] = st.Start
			s.param = st
		}
	}
	var formulas []*FormulaStmt
	for _, st := range c.f.Stmts {
		if f, ok := st.(*FormulaStmt); ok && c.formulas[f.Name.Name] == f {
			formulas = append(formulas, f)
		}
	}
	c.checkFormulaCycles(formulas)
	return &s
}

// otherModel reports (and returns true) when a file gives a second kind of
// model: a builder call, a chain block and modules exclude each other.
func (c *checker) otherModel(s *statements, st Stmt, kind string) bool {
	var other Stmt
	var what string
	switch {
	case s.model != nil && kind != "model":
		other, what = s.model, "the model"
	case s.chain != nil && kind != "chain":
		other, what = s.chain, "the chain"
	case len(s.modules) > 0 && kind != "module":
		other, what = s.modules[0], "the first module"
	}
	if other == nil {
		return false
	}
	c.errorf(st.Bounds().Start, "a file has one model: a model statement, a chain block or modules, not two of them (%s is at line %d)", what, c.position(other.Bounds().Start).Line)
	s.conflict = true
	return true
}

// check checks the file. It returns the program and whether its model (and
// what the model needs) checked.
func (c *checker) check() (*property.Program, bool) {
	p := &property.Program{File: source.NewFile(c.f.Name, c.f.Src)}
	if len(c.f.Stmts) == 0 {
		c.errorf(0, "the file is empty: nothing to check")
		return p, false
	}
	s := c.collect()
	if len(s.props) == 0 {
		c.errorf(0, "nothing to check: add a check or query statement (check dp(eps = ln(2)), query eps(delta = 0), …)")
	}
	if s.param != nil {
		c.declareParam(s.param)
	}
	// Evaluate every constant, so that errors in unused ones are reported,
	// in the order of the file: a constant defined by the previous one is
	// then evaluated in one step, however long the chain.
	names := make([]string, 0, len(c.consts))
	for n := range c.consts {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return c.consts[names[i]].decl.Start < c.consts[names[j]].decl.Start })
	for _, n := range names {
		c.constant(c.consts[n].decl.Start, n)
	}
	given := slices.Sorted(maps.Keys(c.given))
	for _, n := range given {
		if c.consts[n] == nil {
			c.errorf(0, "a value is given for %s, which is no constant of the file (its constants: %s)", n, constNames(names))
		}
	}
	before := len(c.errs)
	switch {
	case s.conflict:
	case c.param != nil && s.model == nil && s.chain == nil && len(s.modules) == 0 && onlyEquivalences(s.props):
		// check equivalent(…) for NAME builds its own models.
	case c.param != nil && s.model != nil && s.model.Call.Text == "explicit":
		c.errorf(s.model.Start, "with a parameter the model must be a builder (%s), a PRISM model, a chain block or modules (explicit files hold numbers, not functions of a parameter)", builder.ParamBuilders())
	case c.param != nil && s.model != nil && s.model.Call.Text == "prism":
		c.paramPRISM(p, s)
	case c.param != nil && s.model == nil && (s.chain != nil || len(s.modules) > 0):
		c.paramModel(p, s)
	case c.param != nil && s.model == nil:
		c.errorf(0, "no model: add a model statement (model truncated_geometric(alpha = %s, n = 5)), a chain { … } block or modules using the parameter %s", c.param.name, c.param.name)
	case c.param != nil:
		if m := c.builderCall(s.model.Call); m != nil {
			switch {
			case c.param.bad:
			case c.param.arg == "":
				c.errorf(s.model.Call.Pos(), "the model does not use the parameter %s: write it as the argument, such as %s", c.param.name, "truncated_geometric(alpha = "+c.param.name+", n = 5)")
			default:
				p.Model = &property.ParamModel{Builder: m, Param: c.param.name, Arg: c.param.arg, Interval: c.param.in, IntervalText: c.param.text, Pos: c.position(s.model.Call.Pos())}
			}
		}
	case s.model != nil:
		if m := c.modelCall(s.model.Call); m != nil {
			p.Model = m
		}
		switch {
		case s.inputs == nil:
		case s.model.Call.Text == "prism":
			c.errorf(s.inputs.Start, "a PRISM model's inputs are its initial states; inputs is only for chain blocks")
		case s.model.Call.Text == "explicit":
			c.errorf(s.inputs.Start, "the inputs of PRISM's explicit files are the states labelled \"init\"; inputs is only for chain blocks")
		case s.inputs.Names != nil:
			c.errorf(s.inputs.Start, "the model %s defines its own inputs: write inputs where … to keep some of them", s.model.Call.Text)
		}
	case s.chain != nil:
		if s.inputs == nil {
			c.errorf(s.chain.Start, "the chain has no inputs statement: say which states are the databases (inputs a, b or inputs where …)")
		}
		if s.neighbours == nil {
			c.errorf(s.chain.Start, "no neighbours statement: say which inputs are neighbours (neighbours a ~ b, or a predicate such as |d - d'| <= 1)")
		}
		if ch := c.chainBlock(s.chain, s.inputs); ch != nil {
			p.Model = &property.ChainModel{Chain: ch}
		} else if s.neighbours != nil && s.neighbours.Pred == nil {
			c.neighbourNames(s.neighbours, s.inputs)
		}
	case len(s.modules) > 0:
		if s.neighbours == nil {
			c.errorf(s.modules[0].Start, "no neighbours statement: say which inputs are neighbours (a predicate such as |d - d'| <= 1)")
		}
		if s.inputs != nil && s.inputs.Names != nil {
			c.errorf(s.inputs.Start, "the inputs of modules are the valuations of their input variables: write inputs where … to keep some of them")
		}
		if m := c.modules(s.modules, s.inputs); m != nil {
			p.Model = m
		}
	case !onlyEquivalences(s.props):
		c.errorf(0, "no model: add a model statement (model truncated_geometric(alpha = 1/2, n = 5)), a chain { … } block or modules")
	}
	if len(s.labels) > 0 && len(s.modules) == 0 {
		c.errorf(s.labels[0].Start, "label statements name conditions on the states of modules; a chain's states list their labels, and a builder's are its own")
	}
	if s.inputs != nil && s.inputs.Where != nil && len(s.modules) == 0 {
		p.Inputs = &property.Inputs{Pos: c.position(s.inputs.Start), Where: c.condition(s.inputs.Where, false)}
	}
	if s.neighbours != nil {
		p.Neighbours = c.neighbours(s.neighbours)
		if len(s.modules) > 0 && s.neighbours.Pred != nil && !s.conflict {
			c.neighbourReadsInputs(s.neighbours.Pred, s.labels)
		}
	}
	p.Output = c.outputs(s.outputs)
	var sm *statespace.Model
	switch m := p.Model.(type) {
	case *statespace.Model:
		sm = m
	case *statespace.ParamModules:
		sm = m.Model
	}
	if sm != nil {
		sm.ObservedPos = p.Output.Pos
		for _, v := range p.Output.Vars {
			sm.Observed = append(sm.Observed, v.Name)
		}
	}
	if s.observe != nil {
		c.observe = s.observe
		p.Observe = refs(c, s.observe.Labels)
	}
	c.kind = kindOf(p.Model)
	if len(s.modules) > 0 && !s.conflict {
		// Known from the syntax even when the modules have errors.
		c.kind = kindChain
		for _, mod := range s.modules {
			if mod.MDP {
				c.kind = kindMDP
			}
		}
	}
	modelOK := len(c.errs) == before && p.Model != nil
	if modelOK {
		c.model = p.Model
	}
	for _, st := range s.props {
		if c.ctx.Err() != nil {
			return p, false
		}
		var x property.Statement
		if c.param != nil || st.For != nil {
			x = c.paramProperty(st, property.Header{Pos: c.position(st.Start), Text: text(st)}, propName(st), propCallOf(st))
		} else {
			x = c.property(st)
		}
		if x != nil {
			p.Statements = append(p.Statements, x)
		}
	}
	before = len(c.errs)
	c.unboundedOnlyOutputs(s, p)
	return p, modelOK && len(c.errs) == before
}

// unboundedOnlyOutputs refuses, in a file whose modules have unbounded
// integers, what reads more of the chain than its outputs: dpcheck sums a
// run's unbounded values in closed form, so the chain goes from each input
// straight to its outputs, and its steps, labels and final states are not
// the program's.
func (c *checker) unboundedOnlyOutputs(s *statements, p *property.Program) {
	intVar := ""
	for _, mod := range s.modules {
		for _, d := range mod.Vars {
			if d.Int && intVar == "" {
				intVar = d.Name.Name
			}
		}
	}
	if intVar == "" {
		return
	}
	why := fmt.Sprintf("with an unbounded integer (%s): its values are summed in closed form and the chain goes from each input straight to its outputs", intVar)
	for _, lb := range s.labels {
		c.errorf(lb.Start, "labels are not available %s: observe variables, outputs var …", why)
	}
	if s.outputs != nil && s.outputs.Labels != nil {
		c.errorf(s.outputs.Start, "outputs labels is not available %s: observe variables, outputs var …", why)
	}
	if s.observe != nil {
		c.errorf(s.observe.Start, "observe (traces) is not available %s: observe the final values, outputs var …", why)
	}
	for _, st := range s.props {
		if st.Over != nil {
			c.errorf(st.Over.Pos(), "over traces(k) is not available %s", why)
		}
	}
	if sm, ok := p.Model.(*statespace.Model); ok {
		tailRatios(sm, p.Statements)
	}
	for _, x := range p.Statements {
		h := x.Head()
		switch x.(type) {
		case *property.FormulaCheck, *property.ProbQuery, *property.DEpsQuery, *property.DDeltaQuery:
			c.errorf(h.Pos.Offset, "formulas over the steps of a run are not available %s: check dp, and query eps, delta and profile, over outputs var …", why)
		case *property.EquivalenceCheck:
			c.errorf(h.Pos.Offset, "equivalent compares final states, which are not available %s", why)
		}
	}
}

// tailRatios tells m the values c = e^ε its statements compare outputs at
// (dp and δ at an ε with e^ε rational), so that an observed tail whose
// likelihood ratios vary is listed as far as they need; the statements
// that need another ε are refused on their own as the program is
// prepared.
func tailRatios(m *statespace.Model, sts []property.Statement) {
	seen := map[string]bool{}
	for _, x := range sts {
		var eps exact.Eps
		switch s := x.(type) {
		case *property.DPCheck:
			eps = s.Eps
		case *property.DeltaQuery:
			eps = s.Eps
		default:
			continue
		}
		if c, ok := eps.C(); ok && !seen[c.RatString()] {
			seen[c.RatString()] = true
			m.Ratios = append(m.Ratios, c)
		}
	}
}

func refs(c *checker, names []Name) []property.Ref {
	out := make([]property.Ref, len(names))
	for i, n := range names {
		out[i] = property.Ref{Name: n.Text, Pos: c.position(n.Off)}
	}
	return out
}

func (c *checker) outputs(o *OutputsStmt) property.OutputSpec {
	switch {
	case o == nil || o.State:
		return property.OutputSpec{}
	case o.Vars != nil:
		spec := property.OutputSpec{Pos: c.position(o.Start)}
		for i, v := range o.Vars {
			if x := o.Index[i]; x != nil { // an element
				e := &Expr{Off: int32(v.Off), End: x.End + 1, Op: EIndex, Args: []*Expr{{Off: int32(v.Off), End: int32(v.Off + len(v.Name)), Op: EName, Text: v.Name}, x}}
				if c.arrays == nil {
					c.errorf(v.Off, "%s[…] is an array's element, and the model declares no array", v.Name)
					continue
				}
				if !c.constIndex(x) {
					c.errorf(x.Pos(), "the index of an output must be constant: outputs var %s", exprText(e))
					continue
				}
				if _, elems, _, ok := c.element(e); ok {
					spec.Vars = append(spec.Vars, property.Ref{Name: elems[0].Text, Pos: c.position(v.Off)})
				}
				continue
			}
			if arr := c.arrays[v.Name]; arr != nil { // every element
				for k := arr.first; k <= arr.last; k++ {
					spec.Vars = append(spec.Vars, property.Ref{Name: elementName(v.Name, k), Pos: c.position(v.Off)})
				}
				continue
			}
			spec.Vars = append(spec.Vars, property.Ref{Name: v.Name, Pos: c.position(v.Off)})
		}
		return spec
	}
	return property.OutputSpec{Labels: refs(c, o.Labels), Pos: c.position(o.Start)}
}

// neighbours checks a neighbours statement; names are resolved when the
// program is prepared.
func (c *checker) neighbours(n *NeighboursStmt) *property.Neighbours {
	out := &property.Neighbours{Pos: c.position(n.Start)}
	if n.Pred != nil {
		out.Pred = c.condition(n.Pred, true)
		return out
	}
	for _, pr := range n.Pairs {
		out.Pairs = append(out.Pairs, property.Pair{
			A:   property.Ref{Name: pr.A.Text, Pos: c.position(pr.A.Off)},
			B:   property.Ref{Name: pr.B.Text, Pos: c.position(pr.B.Off)},
			Pos: c.position(pr.Off),
		})
	}
	return out
}

// neighbourNames checks the names of neighbour pairs against the declared
// states and listed inputs when an explicit chain has errors and cannot be
// built, so that these errors are reported in the same run. (A pair is not
// checked against an inputs list that has errors itself.)
func (c *checker) neighbourNames(n *NeighboursStmt, inputs *InputsStmt) {
	if c.block == nil {
		return // the chain was refused before its states were read
	}
	listed := map[string]bool{}
	var list []string
	if inputs != nil {
		for _, in := range inputs.Names {
			if _, known := c.stateSym(in.Text); !known {
				return
			}
			listed[in.Text] = true
			list = append(list, in.Text)
		}
	}
	for _, pr := range n.Pairs {
		for _, x := range []Name{pr.A, pr.B} {
			_, known := c.stateSym(x.Text)
			switch {
			case !known:
				c.errUnknownState(x)
			case len(list) > 0 && !listed[x.Text]:
				c.errNotInput(x, list)
			}
		}
	}
}

// propName is the name of a property's call ("dp", "eps").
func propName(pr *PropStmt) string { _, n := propertyCall(pr.Body); return n }

// propCallOf is a property's call, or nil.
func propCallOf(pr *PropStmt) *Expr { c, _ := propertyCall(pr.Body); return c }
