package prism

import (
	"fmt"

	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/syntax"
)

// The AST of a PRISM model file and of a PRISM properties file. Every node
// records byte offsets into the source (File.Position turns one into a
// line and column, File.Source quotes a span). Expressions are compact:
// one node per operator or operand, sums, products, conjunctions and
// disjunctions n-ary, so that memory stays proportional to the source and
// the depth of a tree stays bounded by MaxNesting.

// File is the source of a parsed file; ModelFile and PropertiesFile embed
// it.
type File struct {
	Name string // the file name, for positions
	Src  string // the whole source text
	src  *source.File
}

// Position returns the position (line, column in characters) of byte
// offset off.
func (f *File) Position(off int) source.Position {
	if f.src == nil {
		f.src = source.NewFile(f.Name, f.Src)
	}
	return f.src.Position(off)
}

// Line returns the line of byte offset off (for messages such as "the
// command at line 12").
func (f *File) Line(off int) int { return f.Position(off).Line }

// Source returns the text of s as written.
func (f *File) Source(s Span) string {
	start, end := max(0, min(s.Start, len(f.Src))), max(0, min(s.End, len(f.Src)))
	if end < start {
		return ""
	}
	return f.Src[start:end]
}

// Errorf returns a source.ErrorList with one error at byte offset off: the
// form in which a translator reports what it finds in the AST, as the
// parser does.
func (f *File) Errorf(off int, format string, args ...any) source.ErrorList {
	return source.ErrorList{{Pos: f.Position(off), Msg: fmt.Sprintf(format, args...)}}
}

// Span is a node's extent: the byte offsets of its first character and
// just after its last.
type Span struct{ Start, End int }

// Bounds returns the span.
func (s Span) Bounds() Span { return s }

// Ident is a name at a byte offset. For a quoted name ("done") Off is the
// offset of the opening quote and Name the text between the quotes.
type Ident struct {
	Off  int
	Name string
}

// ModelType is the type a model file declares.
type ModelType uint8

// The model types the parser accepts. Without a type keyword PRISM takes
// a model to be an mdp; the parser records TypeNone and leaves that
// decision to the translator.
const (
	TypeNone ModelType = iota // no model type keyword
	DTMC                      // dtmc or probabilistic
	MDP                       // mdp or nondeterministic
)

// String returns "dtmc", "mdp" or "".
func (t ModelType) String() string {
	switch t {
	case DTMC:
		return "dtmc"
	case MDP:
		return "mdp"
	}
	return ""
}

// ModelFile is a parsed PRISM model file (.prism, .pm, .nm). The slices
// hold each kind of declaration in source order.
type ModelFile struct {
	File
	Type ModelType
	// TypeWord is the keyword as written (dtmc, probabilistic, mdp,
	// nondeterministic) at offset TypeOff; "" and -1 without one.
	TypeWord string
	TypeOff  int
	Consts   []*Const
	Formulas []*Formula
	Labels   []*Label
	Globals  []*Var
	// Modules are the modules in source order, renamed ones included (a
	// renamed module has Base set).
	Modules []*Module
	// Init is the init … endinit block, or nil.
	Init *Init
	// Rewards are the reward structures: parsed, but dpcheck computes
	// probabilities only, so a translator refuses or ignores them; each
	// records where it is.
	Rewards []*Rewards
}

// ConstType is the type of a constant.
type ConstType uint8

// The constant types.
const (
	ConstInt    ConstType = iota + 1 // int, or no type (PRISM's default)
	ConstDouble                      // double, or the old keyword prob
	ConstBool                        // bool
)

// String returns "int", "double" or "bool".
func (t ConstType) String() string {
	switch t {
	case ConstInt:
		return "int"
	case ConstDouble:
		return "double"
	case ConstBool:
		return "bool"
	}
	return ""
}

// Const is "const TYPE NAME = VALUE;" or "const TYPE NAME;" (a constant
// left undefined, to be given from outside); the old form "prob NAME = …;"
// is a double constant.
type Const struct {
	Span
	Type ConstType
	// TypeWord is the type as written: "int", "double", "bool", "prob" or
	// "" when omitted.
	TypeWord string
	Name     Ident
	// Value is nil for an undefined constant.
	Value *Expr
}

// Formula is "formula NAME = EXPR;": a macro, expanded where its name
// appears.
type Formula struct {
	Span
	Name  Ident
	Value *Expr
}

// Label is `label "NAME" = EXPR;`. Name.Off is the offset of the opening
// quote.
type Label struct {
	Span
	Name  Ident
	Value *Expr
}

// Var is a variable declaration "NAME : [LOW..HIGH] init E;" or
// "NAME : bool init E;" (init optional), in a module or after global.
type Var struct {
	Span
	Name Ident
	// Bool is set for a bool variable; Low and High are the bounds of an
	// integer range, nil for a bool.
	Bool      bool
	Low, High *Expr
	// Init is the initial value, nil when none is given (PRISM then takes
	// the low bound, or false).
	Init   *Expr
	Global bool
}

// Module is "module NAME VARS COMMANDS endmodule", or a renamed copy
// "module NAME = BASE [a=b, …] endmodule" (then Base is set, Renames lists
// the substitutions, and Vars and Commands are empty).
type Module struct {
	Span
	Name     Ident
	Vars     []*Var
	Commands []*Command
	Base     *Ident
	Renames  []Rename
}

// Renamed reports whether the module is a renamed copy of another.
func (m *Module) Renamed() bool { return m.Base != nil }

// Rename is "FROM=TO" in a renamed module: every occurrence of the
// variable, constant, formula, action or module-local name FROM becomes TO.
type Rename struct {
	From, To Ident
}

// Command is "[ACTION] GUARD -> UPDATES;". Its Span covers the whole
// command, from [ to ;.
type Command struct {
	Span
	// Action is the synchronising action, nil for [].
	Action *Ident
	Guard  *Expr
	// Arrow is the offset of ->.
	Arrow   int
	Updates []*Update
}

// Update is one branch of a command: "PROB : (x'=e) & (y'=f)", or
// "(x'=e) & …" alone (Prob nil, probability 1), or "true" (no assignment).
type Update struct {
	Span
	Prob    *Expr
	Assigns []*Assign
	// True is set for the update "true", which changes nothing.
	True bool
}

// Assign is "(x'=e)"; its Span covers the parentheses.
type Assign struct {
	Span
	Var   Ident // the name without the prime; Off is the name's offset
	Value *Expr
}

// Init is "init EXPR endinit": the initial states are those satisfying
// Cond.
type Init struct {
	Span
	Cond *Expr
}

// Rewards is `rewards "NAME" ITEMS endrewards` (the name optional).
type Rewards struct {
	Span
	Name  *Ident
	Items []*RewardItem
}

// RewardItem is "GUARD : VALUE;" (a state reward) or "[ACTION] GUARD :
// VALUE;" (a transition reward; Action nil for []).
type RewardItem struct {
	Span
	Transition bool
	Action     *Ident
	Guard      *Expr
	Value      *Expr
}

// PropertiesFile is a parsed PRISM properties file (.pctl, .props).
type PropertiesFile struct {
	File
	Consts   []*Const
	Labels   []*Label
	Formulas []*Formula
	Props    []*Property
}

// Property is one property, optionally named: `"name": P=? [F "done"]`.
// Its Span covers the name and the formula, not a trailing ;.
type Property struct {
	Span
	// Name is nil for an unnamed property; Name.Off is the offset of the
	// opening quote.
	Name *Ident
	Expr *Expr
	// Refused, when set, says why dpcheck does not check the property (an
	// operator it does not support, at Refused.Off: Expr's first
	// EUnsupported node).
	Refused *syntax.Error
}

// Op is the kind of an expression node.
type Op uint8

// The expression nodes. Args lists the operands (a nil operand means "not
// written"); Text holds a literal as written, a name, a function name or
// an operator.
const (
	EInt     Op = iota + 1 // an integer literal, Text as written (0 or [1-9][0-9]*)
	EDouble                // another numeric literal, Text as written (0.75, .2, 1e-3): exact text, never a float
	EBool                  // true or false (Text)
	EName                  // a constant, variable or formula name (Text)
	ELabel                 // a quoted label "Text" (properties only)
	EParen                 // ( Args[0] )
	ENeg                   // -Args[0]
	ENot                   // !Args[0]
	ESum                   // Args[0] ± Args[1] ± …: an operand with Minus is subtracted
	EProd                  // Args[0] */ Args[1] …: an operand with Minus divides
	ECmp                   // Args[0] Text Args[1], Text one of = != < <= > >=
	EAnd                   // Args[0] & Args[1] & …
	EOr                    // Args[0] | Args[1] | …
	EIff                   // Args[0] <=> Args[1] (left associative: a<=>b<=>c nests in Args[0])
	EImplies               // Args[0] => Args[1] (left associative)
	EITE                   // Args[0] ? Args[1] : Args[2]
	ECall                  // Text(Args...): min, max, floor, ceil, round, pow, mod, log; OldStyle for func(Text, Args...); a^b is pow(a, b) with OpOff the offset of ^
	EUnknown               // ? (the ε or δ asked for in D{?, δ}[…])
	// Properties only.
	EProb        // P Text Args[0] [ Args[1] Args[2] ]: Text "<", "<=", ">", ">=" with the bound Args[0]; "=" for P=?, "min=" for Pmin=?, "max=" for Pmax=? (Args[0] nil); Args[2] the old-style filter (EOldFilter) or nil
	EDP          // D{Args[0], Args[1]}[Args[2]]: the dpCTL operator, ε and δ numeric (or EUnknown)
	EFilter      // filter(Text, Args[0], Args[1]): Text the operator (forall, print, first, min, +, &, …), Args[1] the states or nil; OpOff is the operator's offset
	EOldFilter   // {Args[0]}{min}{max} inside P[…], S[…] or R[…]: Text "", "min", "max" or "min,max" (each kind as often as written)
	ETemporal    // Text ∈ {X, F, G}: Args[0] the operand, Args[1] the time bound (ETimeBound) or nil
	EUntil       // Args[0] U Args[1] (Text "", or "W" weak until, "R" release), Args[2] the time bound (ETimeBound) or nil; OpOff is the offset of the operator
	EUnsupported // a construct dpcheck does not check (multi, C, I outside R), read to its end: Text says why
	ESteady      // S Text [ Args[1] ]: Text "=" for S=? (Args[0] nil), else "<", "<=", ">", ">=" with the bound Args[0]
	EReward      // R Text [ Args[1] ]: Text as for EProb ("=", "min=", "max=", or a comparison with the bound Args[0]); Args[2] the old-style filter or nil; Args[3] the structure ({"name"}: an ELabel; {expr}: its index) or nil
	ERewardPath  // the path of R: Text "C<=" or "I=" with the steps Args[0], "C" or "S"
	ETimeBound   // the time bound of F, G or U: Text ∈ {"<=", "<", ">=", ">", "="} with Args[0], or "[]" with Args[0], Args[1] (F[a,b])
	EPathQuant   // Text [ Args[0] ]: Text "E" (some path satisfies the path formula Args[0]) or "A" (every path does)
)

var opNames = [...]string{
	EInt: "Int", EDouble: "Double", EBool: "Bool", EName: "Name", ELabel: "Label", EParen: "Paren",
	ENeg: "Neg", ENot: "Not", ESum: "Sum", EProd: "Prod", ECmp: "Cmp", EAnd: "And", EOr: "Or",
	EIff: "Iff", EImplies: "Implies", EITE: "ITE", ECall: "Call", EUnknown: "Unknown", EProb: "Prob",
	EDP: "DP", EFilter: "Filter", EOldFilter: "OldFilter", ETemporal: "Temporal", EUntil: "Until",
	ETimeBound: "TimeBound", EReward: "Reward", ERewardPath: "RewardPath", ESteady: "Steady", EUnsupported: "Unsupported",
	EPathQuant: "PathQuant",
}

// String returns the name of the operator ("Sum", "Prob", …).
func (o Op) String() string {
	if int(o) < len(opNames) && opNames[o] != "" {
		return opNames[o]
	}
	return fmt.Sprintf("Op(%d)", uint8(o))
}

// Expr is an expression node: a numeric, boolean or (in properties) path
// expression. Which one a context needs is for the translator to check.
type Expr struct {
	// Off and End are the byte offsets of the node's first character and
	// just after its last.
	Off, End int32
	// OpOff is the offset of the operator written before an operand of
	// Sum or Prod, of the operator of Cmp, Iff, Implies and Until, and of
	// the operator of a Filter.
	OpOff int32
	Op    Op
	// Minus marks an operand of Sum that is subtracted, or of Prod that
	// divides.
	Minus bool
	// OldStyle marks a Call written func(name, …).
	OldStyle bool
	Text     string
	Args     []*Expr
}

// Span returns the node's extent.
func (e *Expr) Span() Span { return Span{int(e.Off), int(e.End)} }

// Pos returns the offset where the expression starts.
func (e *Expr) Pos() int { return int(e.Off) }

// Unparen strips parentheses.
func (e *Expr) Unparen() *Expr {
	for e != nil && e.Op == EParen {
		e = e.Args[0]
	}
	return e
}

// Walk calls fn on e and then, when fn returns true, on its operands (nil
// ones skipped), depth first. The depth of a tree is bounded by the
// parser's nesting limit.
func (e *Expr) Walk(fn func(*Expr) bool) {
	if e == nil || !fn(e) {
		return
	}
	for _, a := range e.Args {
		a.Walk(fn)
	}
}
