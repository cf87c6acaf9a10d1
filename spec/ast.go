package spec

import "github.com/dpcheck/dpcheck/source"

// The AST of a .dp file. Nodes record byte offsets (File.Position turns
// one into a line and column); statements and chain items record where
// they end, so that results can quote their source text.
//
// One expression type serves arithmetic (probabilities, parameters, ε and
// δ), predicates over states (neighbours, inputs) and dpCTL formulas: the
// temporal operators X, F, G and U and the operators P…[…] and D{…}[…] are
// part of it, and the checker decides from the context which kind of
// expression a statement needs. Expressions are compact (one node per
// operator or operand, sums and products n-ary), so that memory stays
// proportional to the source.

// File is a parsed .dp file.
type File struct {
	Name  string
	Src   string
	Stmts []Stmt
	// comments are kept only when the file is parsed for formatting.
	comments []comment
	src      *source.File
}

// Position returns the position of byte offset off.
func (f *File) Position(off int) source.Position {
	if f.src == nil {
		f.src = source.NewFile(f.Name, f.Src)
	}
	return f.src.Position(off)
}

// Span is a node's extent: byte offsets of its first character and just
// after its last.
type Span struct{ Start, End int }

// Bounds returns the span.
func (s Span) Bounds() Span { return s }

// setBounds sets the span (the parser, once a node is read).
func (s *Span) setBounds(v Span) { *s = v }

// Stmt is a top-level statement: *ConstStmt, *ModelStmt, *ChainStmt,
// *ModuleStmt, *FormulaStmt, *LabelStmt, *InputsStmt, *OutputsStmt,
// *ObserveStmt, *NeighboursStmt, *ParamStmt or *PropStmt.
type Stmt interface {
	Bounds() Span
	stmt()
}

// Word is an identifier at an offset.
type Word struct {
	Off  int
	Name string
}

// Name is a state or label name: an identifier, or a quoted string ("+",
// "⊤").
type Name struct {
	Off    int
	Text   string
	Quoted bool
}

// ConstStmt is "const NAME = EXPR", or "const NAME" (Value nil) for a
// constant given from outside (Options.Consts).
type ConstStmt struct {
	Span
	Name  Word
	Value *Expr
}

// ModelStmt is "model BUILDER(ARGS)"; Call is an ECall.
type ModelStmt struct {
	Span
	Call *Expr
}

// ChainStmt is "chain { ... }": explicit states and transitions.
type ChainStmt struct {
	Span
	States []*StateDecl
	Rows   []*TransDecl
	// Items are the states and rows in source order (for the formatter).
	Items []ChainItem
	// data is the block as loading reads it (States, Rows and Items are
	// then empty); nil when the file was parsed.
	data *chainData
}

// ChainItem is a *StateDecl or a *TransDecl.
type ChainItem interface{ Bounds() Span }

// StateDecl is "state NAME (VAR = EXPR, ...) [LABEL, ...]".
type StateDecl struct {
	Span
	Name Name
	Vals []Assign
	// Labels are the listed labels; HasLabels is set when brackets are
	// written, even empty ones.
	Labels    []Name
	HasLabels bool
}

// Assign is "VAR = EXPR".
type Assign struct {
	Var   Word
	Value *Expr
}

// TransDecl is "FROM -> TO : P, TO : P [else sink]".
type TransDecl struct {
	Span
	From    Name
	Targets []Target
	// Sink is the word after else ("sink" or "†"), nil without else.
	Sink *Word
}

// Target is "TO : P".
type Target struct {
	To   Name
	Prob *Expr
}

// InputsStmt is "inputs NAME, ..." or "inputs where PREDICATE".
type InputsStmt struct {
	Span
	Where *Expr
	Names []Name
}

// OutputsStmt is "outputs state", "outputs var NAME, …" (a NAME may be
// an array's element, v[2]) or "outputs labels L, ...".
type OutputsStmt struct {
	Span
	State bool
	Vars  []Word
	// Index holds the index of an array's element among Vars, by its
	// place (outputs var v[2], top).
	Index  map[int]*Expr
	Labels []Name
}

// ModuleStmt is "module NAME … endmodule" or "mdp module NAME …
// endmodule": variables and guarded commands.
type ModuleStmt struct {
	Span
	// MDP marks an MDP's module (mdp module): its commands name actions.
	MDP      bool
	Name     Word
	Vars     []*VarDecl
	Commands []*CommandDecl
	// Items are the variables and commands in source order (for the
	// formatter).
	Items []ChainItem
}

// VarDecl is "[input] NAME : [LO..HI] [init E];", "[input] NAME : bool
// [init E];" or "NAME : int [init E];" (an unbounded integer); an array
// of such variables is "[input] NAME[FIRST..LAST] : …", each element
// with the same range and initial value.
type VarDecl struct {
	Span
	Input bool
	Name  Word
	// First and Last are the indices of an array (NAME[First..Last] :
	// …), nil for a single variable.
	First, Last *Expr
	Lo, Hi      *Expr // nil for a boolean or an int
	Int         bool  // an unbounded integer
	Init        *Expr
}

// CommandDecl is "[ACTION] GUARD -> UPDATES;".
type CommandDecl struct {
	Span
	Action  *Word
	Guard   *Expr
	Updates []*UpdateDecl // nil for "true"
}

// UpdateDecl is "[P :] (x' = E) & (y' ~ DIST(…)) & …", or "true" (no
// assignment).
type UpdateDecl struct {
	Span
	Prob    *Expr
	Assigns []AssignDecl
}

// AssignDecl is "(x' = E)" or "(x' ~ DIST(…))", or the same for an
// element of an array, "(v[I]' = E)".
type AssignDecl struct {
	Span
	Var   Word
	Index *Expr // nil but for an array's element
	Value *Expr // x' = Value
	Draw  *Expr // x' ~ Draw, an ECall
}

// FormulaStmt is "formula NAME = EXPR", or "formula NAME(P, …) = EXPR"
// with parameters: a name for an expression over the variables of
// modules, expanded where it is used (NAME(ARG, …) with an argument per
// parameter).
type FormulaStmt struct {
	Span
	Name   Word
	Params []Word
	Value  *Expr
}

// LabelStmt is "label NAME = CONDITION": states where the condition holds
// carry the label.
type LabelStmt struct {
	Span
	Name  Name
	Value *Expr
}

// ObserveStmt is "observe L, ...": the labels a trace output shows.
type ObserveStmt struct {
	Span
	Labels []Name
}

// NeighboursStmt is "neighbours A ~ B, ..." or "neighbours PREDICATE".
type NeighboursStmt struct {
	Span
	Pairs []Pair
	Pred  *Expr
}

// Pair is "A ~ B".
type Pair struct {
	Off  int
	A, B Name
}

// ParamStmt is "param NAME in (LO, HI)": the file's one parameter and
// its interval, each end open (a parenthesis) or closed (a bracket).
type ParamStmt struct {
	Span
	Name           Word
	LoOpen, HiOpen bool
	Lo, Hi         *Expr
}

// PropStmt is "check EXPR [over traces(K)] [expect ...]" or the same with
// "query".
type PropStmt struct {
	Span
	Query bool
	Body  *Expr
	// Over is the call after over (an ECall), or nil.
	Over *Expr
	// For is the parameter after for ("check dp(…) for alpha"), or nil.
	For    *Word
	Expect *Expect
}

// Expect is "holds", "violated", a value, or values for named inputs
// ("a: 1/3, b: 2/3", for query P=?[…]).
type Expect struct {
	Span
	Outcome string // "holds", "violated" or "unknown"; "" for a value
	Value   *Expr
	Values  []NamedValue
}

// NamedValue is "NAME: VALUE" in an expectation.
type NamedValue struct {
	Name  Name
	Value *Expr
}

func (*ConstStmt) stmt()      {}
func (*ModelStmt) stmt()      {}
func (*ChainStmt) stmt()      {}
func (*InputsStmt) stmt()     {}
func (*OutputsStmt) stmt()    {}
func (*ObserveStmt) stmt()    {}
func (*NeighboursStmt) stmt() {}
func (*PropStmt) stmt()       {}
func (*ParamStmt) stmt()      {}
func (*ModuleStmt) stmt()     {}
func (*FormulaStmt) stmt()    {}
func (*LabelStmt) stmt()      {}

// ExprOp is the kind of an expression node.
type ExprOp uint8

// The expression nodes. Args lists the operands; Text holds a literal, a
// name, a function name or an operator.
const (
	ENum      ExprOp = iota + 1 // a number literal (Text)
	EStr                        // a quoted string (Text is its value)
	EName                       // a name (Text), primed when Primed
	EUnknown                    // ?
	EParen                      // ( Args[0] )
	EAbs                        // | Args[0] |
	ECall                       // Text(Args...); a named argument is an EArg
	EArg                        // Text = Args[0], a named argument of a call
	ENeg                        // -Args[0]
	ENot                        // !Args[0]
	EPow                        // Args[0] ^ Args[1]
	ESum                        // Args[0] ± Args[1] ± …: an operand with Minus is subtracted
	EProd                       // Args[0] */ Args[1] …: an operand with Minus divides
	ECmp                        // Args[0] Text Args[1], Text one of = == != < <= > >=
	EAnd                        // Args[0] & Args[1] & …
	EOr                         // Args[0] | Args[1] | …
	ETemporal                   // Text ∈ {X, F, G}: Args[0] the operand, Args[1] the power (X^k) or nil, Args[2] the bound (F<=k) or nil
	EUntil                      // Args[0] U Args[1], Args[2] the bound or nil
	EProb                       // P Text Args[0] [Args[1]]; Args[0] is EUnknown for P=?; Text is "min=" or "max=" for Pmin=? and Pmax=?
	EDP                         // D{Args[0], Args[1]}[Args[2]]
	EIte                        // Args[0] ? Args[1] : Args[2]
	EImplies                    // Args[0] => Args[1]
	// EQuant is a quantifier or fold over a constant range: Text is
	// forall, exists (forall j in lo..hi: body), sum, count, max or min
	// (sum(j in lo..hi: body)); Args[0] is the bound name (an EName),
	// Args[1] and Args[2] the range's ends, Args[3] the body.
	EQuant
	// EIndex is an element of an array, Args[0][Args[1]]: Args[0] is the
	// array's name (an EName), Args[1] the index; Primed marks a[i]'.
	EIndex
)

// Expr is an expression node.
type Expr struct {
	Off, End int32
	// OpOff is the offset of the operator written before an operand of
	// ESum or EProd, and of U in EUntil.
	OpOff int32
	Op    ExprOp
	// Minus marks an operand of ESum that is subtracted, or of EProd that
	// divides.
	Minus bool
	// Primed marks a primed name (x'), in neighbour predicates.
	Primed bool
	Text   string
	Args   []*Expr
}

// Pos returns the offset where the expression starts.
func (e *Expr) Pos() int { return int(e.Off) }

// unparen strips parentheses.
func (e *Expr) unparen() *Expr {
	for e.Op == EParen {
		e = e.Args[0]
	}
	return e
}

// arg returns a call argument's name ("" when positional) and value.
func arg(a *Expr) (string, *Expr) {
	if a.Op == EArg {
		return a.Text, a.Args[0]
	}
	return "", a
}

// String returns the name.
func (n Name) String() string { return n.Text }
