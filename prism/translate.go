package prism

import (
	"context"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/poly"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/statespace"
	"github.com/dpcheck/dpcheck/verify"
)

// The translation of a parsed model (and properties) file into what
// dpcheck checks: the model becomes a statespace.Model of guarded commands
// with PRISM's semantics (a DTMC's; an MDP's for mdp, nondeterministic and
// untyped models, its choices kept apart), every constant folded to an
// exact rational, every formula expanded, every expression type-checked as
// PRISM does (int, double, bool); the properties become property
// statements. What dpcheck cannot compute exactly (log, powers with a
// non-integer exponent) and what it does not support is
// refused at its position, every error of a file at once.

// Neighbours describes the neighbour relation of a PRISM model without a
// neighbours statement: the convention of the dpCTL plug-in of ePMC.
const Neighbours = "every two initial states are neighbours (the dpCTL plug-in's convention)"

// Options control a translation.
type Options struct {
	// Consts are the values of the files' undefined constants
	// ("const int k;").
	Consts map[string]Value
	// ConstHint says how the caller gives a value to the undefined
	// constant name, for the error about a constant without one; nil
	// says it neutrally.
	ConstHint func(name string) string
	// Call names the model in reports; prism("FILE") when empty.
	Call string
	// Pos is where the model is named (a .dp file's prism(…) call), for
	// errors about the given values; the zero Position otherwise.
	Pos source.Position
	// Context, when set, stops the translation when it ends: Program and
	// NewModel then return its error.
	Context context.Context
	// Limits bound the translation (MaxBits: the bits of the numbers it
	// computes from constants, in all); zero fields are the defaults.
	Limits model.Limits
	// Param, when set, names an undefined double constant that stays a
	// parameter: each use is the variable of its name, which no state
	// has, with At as its value where one number is needed
	// (statespace.Model.BuildParam). Constants defined from it are
	// expressions in it.
	Param *Param
}

// Param is an undefined constant read as the parameter of a parametric
// model.
type Param struct {
	Name string
	// At is a value of its interval (the model's graph is explored there).
	At *big.Rat
	// Interval is the parameter's values, for Program (NewModel's caller
	// builds the parametric chain itself).
	Interval poly.Interval
}

// Model is a translated PRISM model: a property.Model whose Build explores
// its state space with PRISM's semantics (a DTMC's, or an MDP's).
type Model struct {
	// Space is the model of guarded commands.
	Space *statespace.Model
	// File is the model file's name.
	File string
	call string
	// foreign describes the first write of another module's variable,
	// which PRISM refuses and dpcheck allows in unsynchronised commands.
	foreign       string
	foreignWrites int
	// untyped marks a model that declares no type (read as an MDP).
	untyped bool
}

// IsMDP reports whether the model is an MDP (mdp, nondeterministic, or no
// type at all, as PRISM reads it).
func (m *Model) IsMDP() bool { return m.Space.MDP }

// Info describes the model: kind "prism", the file, and the dpCTL
// neighbour convention.
func (m *Model) Info() property.ModelInfo {
	return property.ModelInfo{Kind: "prism", Name: m.File, Call: m.call, Neighbours: Neighbours}
}

// Build explores the model within the limits. Its initial states are the
// inputs; every two of them are neighbours; deadlock states get a
// self-loop and the label "deadlock", as PRISM does. An MDP's mechanism
// has the MDP (Mechanism.MDP) and its frame (Mechanism.Chain, every state
// absorbing).
func (m *Model) Build(ctx context.Context, l model.Limits) (*model.Mechanism, error) {
	mech, err := m.Space.Build(ctx, l)
	if err != nil {
		return nil, err
	}
	c := mech.Chain
	deadlocks := 0
	for s := range c.NumStates() {
		if c.HasLabel(s, "deadlock") {
			deadlocks++
		}
	}
	ins := len(c.Inputs())
	note := fmt.Sprintf("%s explored from %s (the inputs)", plural(c.NumStates(), "state"), plural(ins, "initial state"))
	if mech.MDP != nil {
		nc, nt := mech.MDP.NumChoices(), mech.MDP.NumTransitions()
		note = fmt.Sprintf("an MDP: %s, %s, %s, explored from %s (the inputs)", plural(c.NumStates(), "state"), plural(nc, "choice"), plural(nt, "transition"), plural(ins, "initial state"))
		if m.untyped {
			note += "; the model declares no type, and is read as an MDP, as PRISM does"
		}
	}
	if deadlocks > 0 {
		note += fmt.Sprintf("; %s got a self-loop (as PRISM does)", plural(deadlocks, "deadlock state"))
	}
	if m.foreignWrites > 0 {
		more := ""
		if m.foreignWrites > 1 {
			more = fmt.Sprintf(" and %d more such updates", m.foreignWrites-1)
		}
		note += fmt.Sprintf("; %s%s, which PRISM refuses (dpcheck allows it in unsynchronised commands, as the dpCTL plug-in's examples need)", m.foreign, more)
	}
	mech.Note = note
	return mech, nil
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// NewModel translates a parsed model file on its own (the model of a .dp
// file's prism(…) call). Errors are a source.ErrorList, every one found.
func NewModel(mf *ModelFile, opt Options) (*Model, error) {
	t := newTranslator(mf, nil, opt)
	m := t.model()
	if err := t.failure(); err != nil {
		return nil, err
	}
	return m, nil
}

// failure returns why the translation fails: the context ended, a
// constant given a value no file declares, or the errors found, sorted.
func (t *translator) failure() error {
	if t.ctxErr != nil {
		return t.ctxErr
	}
	if err := t.givenUnused(); err != nil {
		return err
	}
	if len(t.errs) > 0 {
		t.errs.Sort()
		return t.errs
	}
	return nil
}

// Program translates a model file and a properties file into a checked
// program: the model (with the properties' labels, and one hidden label
// per condition a property tests), and one statement per property —
// P=? [ψ] a query of Pr(ψ) at every initial state, a state formula
// (P~p [ψ], D{ε,δ}[ψ], …) a check that it holds at every initial state,
// D{?,δ}[ψ] and D{ε,?}[ψ] the least ε or δ. Errors of both files are a
// source.ErrorList, every one found.
func Program(mf *ModelFile, pf *PropertiesFile, opt Options) (*property.Program, error) {
	t := newTranslator(mf, pf, opt)
	m := t.model()
	var stmts []property.Statement
	if m != nil {
		stmts = t.properties()
	}
	var pm property.Model
	if m != nil {
		pm = m
		if opt.Param != nil {
			pm, stmts = t.parametric(m, stmts)
		}
	}
	if err := t.failure(); err != nil {
		// The model's errors first, then the properties'.
		sort.SliceStable(t.errs, func(i, j int) bool {
			return t.errs[i].Pos.Filename == mf.Name && t.errs[j].Pos.Filename != mf.Name
		})
		return nil, err
	}
	return &property.Program{File: source.NewFile(pf.Name, pf.Src), Model: pm, Statements: stmts}, nil
}

// parametric makes the model of Program with Options.Param the same
// modules for every value of the parameter, and each property one for
// every value: P=? [ψ] and P~b [ψ] with ψ a property.ParamPath, the
// others refused on their own line.
func (t *translator) parametric(m *Model, stmts []property.Statement) (property.Model, []property.Statement) {
	p := t.opt.Param
	c := t.consts[p.Name]
	switch {
	case c == nil || c.decl.Value != nil:
		what := "is not a constant of " + t.mf.Name
		if c != nil {
			what = fmt.Sprintf("is defined at line %d of %s", c.f.Line(c.decl.Start), c.f.Name)
		}
		t.errs = append(t.errs, &source.Error{Pos: m.Space.Pos, Msg: fmt.Sprintf("the parameter %s %s: a parameter is an undefined constant of the model (const double %s;)", p.Name, what, p.Name)})
		return m, nil
	case m.IsMDP():
		t.errs = append(t.errs, &source.Error{Pos: m.Space.Pos, Msg: fmt.Sprintf("the model is an MDP (mdp, or no model type, which PRISM reads as an MDP); with the parameter %s it must be a DTMC, declared dtmc", p.Name)})
		return m, nil
	}
	info := m.Info()
	pm := &statespace.ParamModules{Model: m.Space, Name: p.Name, Interval: p.Interval, Limits: t.opt.Limits, Describe: &info}
	hint := t.oneValueHint(p.Name)
	out := make([]property.Statement, len(stmts))
	for i, st := range stmts {
		h := *st.Head()
		switch st := st.(type) {
		case *property.Refused:
			out[i] = st
			continue
		case *property.ProbQuery:
			if st.Extreme == "" && property.ParamPath(st.Path) {
				out[i] = property.NewParamProbQuery(h, p.Name, st.Path, "", nil)
				continue
			}
		case *property.FormulaCheck:
			if f := st.Formula; f.Op == verify.OpProb && property.ParamPath(f.Args[0]) {
				out[i] = property.NewParamProbQuery(h, p.Name, f.Args[0], f.Cmp, f.Bound)
				continue
			}
		case *property.DEpsQuery:
			if property.ParamPath(st.Path) && st.Expect.Kind != property.ExpectValue {
				out[i] = property.NewParamDEpsQuery(h, p.Name, st.Path, st.Delta)
				continue
			}
		}
		note := ""
		switch st := st.(type) {
		case *property.DDeltaQuery:
			note = " (D{ε, ?} compares with e^ε, irrational: the dpCTL plug-in's ε is ε itself)"
		case *property.FormulaCheck:
			if st.Formula.Op == verify.OpDP {
				note = " (D{ε, δ} compares with e^ε, irrational: the dpCTL plug-in's ε is ε itself)"
			}
		}
		why := fmt.Sprintf("for every value of the parameter %s, dpcheck computes P=? [ψ], P~b [ψ] and D{?, δ}[ψ] with ψ an F, U or G without time bounds over conditions%s; %s", p.Name, note, hint)
		out[i] = &property.Refused{Header: h, Of: "refused", Why: source.ErrorList{{Pos: h.Pos, Msg: why}}}
	}
	return pm, out
}

// typ is the type of an expression, as PRISM types it.
type typ uint8

const (
	tyInt typ = iota + 1
	tyDouble
	tyBool
)

func (t typ) String() string {
	switch t {
	case tyInt:
		return "an int"
	case tyDouble:
		return "a double"
	case tyBool:
		return "a boolean"
	}
	return "?"
}

func constType(c ConstType) typ {
	switch c {
	case ConstDouble:
		return tyDouble
	case ConstBool:
		return tyBool
	}
	return tyInt
}

// translator holds what a translation knows about the names of both files.
type translator struct {
	opt  Options
	mf   *ModelFile
	pf   *PropertiesFile
	errs source.ErrorList
	// rewardDef are the model's reward structures translated (rewards.go);
	// rewardUsed maps one a property uses to its index in the state
	// space's.
	rewardDef  []statespace.Reward
	rewardUsed map[int]int
	// rewardIndex is, for each structure of the state space, its 1-based
	// place in the model file.
	rewardIndex []int
	// unsupported collects what the property being translated uses that
	// dpcheck does not support: the property is then refused on its own.
	unsupported source.ErrorList
	// consts, formulas and labels of both files, by name.
	consts    map[string]*constInfo
	formulas  map[string]*formulaInfo
	labels    map[string]*labelInfo
	expanding map[string]bool
	// space is the model being built; vars index its variables.
	space  *statespace.Model
	vars   map[string]int
	global map[string]bool
	// modules are the module names, by name → index.
	modules map[string]int
	// atoms name the hidden labels of the conditions properties test.
	atoms map[string]string
	// named are the named properties, for references "name".
	named    map[string]*namedProp
	consumed map[string]bool // given values used by a constant
	// foreign describes the first write of another module's variable (by
	// an unsynchronised command), foreignWrites counts them.
	foreign       string
	foreignWrites int
	// refused are the variables whose declaration is refused.
	refused map[string]bool
	// nodes counts the expression nodes translated, depth the nesting of
	// the one being translated (enter); stopped is set once a limit is
	// reached or the context has ended (ctxErr), and fails every further
	// expression.
	nodes, depth int
	stopped      bool
	ctxErr       error
	// limits are opt.Limits with defaults; bits counts the bits of the
	// numbers computed (numVal), against limits.MaxBits.
	limits model.Limits
	bits   int64
	// tooMany is set once MaxErrors errors are reported; suggested counts
	// the unknown names given suggestions (maxSuggested at most: each
	// compares the name with every other).
	tooMany   bool
	suggested int
	// texts are the texts of spans (text); purity the judgements of pure,
	// pureDepth its nesting.
	texts     map[spanKey]string
	purity    map[*Expr]bool
	pureDepth int
	// atomSpans names the hidden label of each span a property tests;
	// atomNames are the names of atoms.
	atomSpans map[spanKey]string
	atomNames map[string]bool
}

type constInfo struct {
	decl  *Const
	f     *File
	state int // 0 unvisited, 1 in progress, 2 done
	val   val
	ok    bool
}

type formulaInfo struct {
	decl *Formula
	f    *File
}

type labelInfo struct {
	decl *Label
	f    *File
	idx  int // its index in space.Labels, -1 before it is added
}

func newTranslator(mf *ModelFile, pf *PropertiesFile, opt Options) *translator {
	return &translator{opt: opt, limits: opt.Limits.WithDefaults(), mf: mf, pf: pf, consts: map[string]*constInfo{}, formulas: map[string]*formulaInfo{},
		labels: map[string]*labelInfo{}, expanding: map[string]bool{}, vars: map[string]int{}, global: map[string]bool{},
		modules: map[string]int{}, atoms: map[string]string{}, named: map[string]*namedProp{}, consumed: map[string]bool{}, refused: map[string]bool{},
		texts: map[spanKey]string{}, purity: map[*Expr]bool{}, atomSpans: map[spanKey]string{}, atomNames: map[string]bool{}, rewardUsed: map[int]int{}}
}

// MaxErrors bounds the errors a translation reports: past it, it stops,
// saying so (a file can have as many mistakes as it has lines).
const MaxErrors = 1000

// errorf reports an error at byte offset off of file f.
func (t *translator) errorf(f *File, off int, format string, args ...any) {
	if len(t.errs) >= MaxErrors {
		if !t.tooMany {
			t.tooMany, t.stopped = true, true
			t.errs = append(t.errs, &source.Error{Pos: f.Position(off), Msg: fmt.Sprintf("more than %s errors: the translation stops here", exact.Thousands(MaxErrors))})
		}
		return
	}
	t.errs = append(t.errs, &source.Error{Pos: f.Position(off), Msg: fmt.Sprintf(format, args...)})
}

// declareNames declares the constants, formulas and labels of a file,
// reporting names declared twice (in either file).
func (t *translator) declareNames(f *File, consts []*Const, formulas []*Formula, labels []*Label) {
	for _, c := range consts {
		if t.taken(f, c.Name) {
			continue
		}
		t.consts[c.Name.Name] = &constInfo{decl: c, f: f}
	}
	for _, fm := range formulas {
		if t.taken(f, fm.Name) {
			continue
		}
		t.formulas[fm.Name.Name] = &formulaInfo{decl: fm, f: f}
	}
	for _, l := range labels {
		switch name := l.Name.Name; {
		case name == "init" || name == "deadlock":
			t.errorf(f, l.Name.Off, "\"%s\" is a built-in label (the %s states): it cannot be defined", name, map[string]string{"init": "initial", "deadlock": "deadlock"}[name])
		case t.labels[name] != nil:
			prev := t.labels[name]
			t.errorf(f, l.Name.Off, "label \"%s\" is already defined at %s", name, prev.f.Position(prev.decl.Name.Off))
		default:
			t.labels[name] = &labelInfo{decl: l, f: f, idx: -1}
		}
	}
}

// taken reports (and says why) a name already declared as a constant,
// formula or variable.
func (t *translator) taken(f *File, id Ident) bool {
	name := id.Name
	var at source.Position
	var what string
	switch {
	case t.consts[name] != nil:
		c := t.consts[name]
		at, what = c.f.Position(c.decl.Name.Off), "a constant"
	case t.formulas[name] != nil:
		fm := t.formulas[name]
		at, what = fm.f.Position(fm.decl.Name.Off), "a formula"
	case t.space != nil && hasVar(t.vars, name):
		at, what = t.space.Vars[t.vars[name]].Pos, "a variable"
	default:
		return false
	}
	t.errorf(f, id.Off, "%s is already declared as %s at %s", name, what, shortPos(f, at))
	return true
}

func errAtPos(p source.Position, msg string) *source.Error { return &source.Error{Pos: p, Msg: msg} }

func hasVar(m map[string]int, name string) bool {
	_, ok := m[name]
	return ok
}

// shortPos writes a position as "line N" in the same file, else file:line.
func shortPos(f *File, p source.Position) string {
	if p.Filename == f.Name {
		return "line " + strconv.Itoa(p.Line)
	}
	return fmt.Sprintf("%s:%d", p.Filename, p.Line)
}

// ConstError is an error about the values given to constants from outside
// the files, when they are not written in a file (so have no position):
// a value for a name that is not an undefined constant.
type ConstError struct{ Msg string }

// Error returns the message.
func (e *ConstError) Error() string { return e.Msg }

// givenUnused reports values given for names that are not undefined
// constants of the files: at their position when they have one (added to
// the errors), otherwise as the returned *ConstError.
func (t *translator) givenUnused() error {
	names := slices.Sorted(maps.Keys(t.opt.Consts))
	var undefined []string
	for n, c := range t.consts {
		if c.decl.Value == nil {
			undefined = append(undefined, n)
		}
	}
	sort.Strings(undefined)
	files := t.mf.Name
	if t.pf != nil {
		files += " or " + t.pf.Name
	}
	var plain []string
	for _, n := range names {
		if t.consumed[n] {
			continue
		}
		v := t.opt.Consts[n]
		var msg string
		if c := t.consts[n]; c != nil {
			msg = fmt.Sprintf("a value is given for %s, which %s defines at line %d: only undefined constants (const … %s;) take a value", n, c.f.Name, c.f.Line(c.decl.Start), n)
		} else {
			msg = fmt.Sprintf("a value is given for %s, which is not a constant of %s", n, files)
			if len(undefined) > 0 {
				msg += " (undefined constants: " + strings.Join(undefined, ", ") + ")"
			} else {
				msg += " (no constant is left undefined)"
			}
		}
		if v.Pos.Line > 0 {
			t.errs = append(t.errs, &source.Error{Pos: v.Pos, Msg: msg})
		} else {
			plain = append(plain, msg)
		}
	}
	if len(plain) > 0 {
		return &ConstError{Msg: strings.Join(plain, "; ")}
	}
	return nil
}

// oneValueHint says how to check a property refused for every value of
// the parameter name at one value instead.
func (t *translator) oneValueHint(name string) string {
	if t.opt.ConstHint != nil {
		return fmt.Sprintf("to check this property at one value of %s, %s", name, t.opt.ConstHint(name))
	}
	return fmt.Sprintf("to check this property at one value of %s, give it a value (%s = …) when loading the model", name, name)
}
