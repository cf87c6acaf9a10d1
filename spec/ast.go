package spec

import "github.com/alecthomas/participle/v2/lexer"

// The AST of a .dp file. Every node records its position; statements also
// record where they end, so that results can quote their source text.
//
// One expression grammar serves arithmetic (probabilities, parameters, ε
// and δ), predicates over states (neighbours, inputs), and dpCTL formulas:
// the temporal operators X, F, G and U and the operators P…[…] and D{…}[…]
// are part of it, and the checker decides from the context which kind of
// expression a statement needs.

// File is a whole .dp file.
type File struct {
	Pos        lexer.Position
	Statements []*Stmt `parser:"@@*"`
}

// Stmt is one top-level statement. Exactly one field is set.
type Stmt struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Tokens []lexer.Token

	Const      *Const      `parser:"  @@"`
	Model      *ModelStmt  `parser:"| @@"`
	Chain      *ChainBlock `parser:"| @@"`
	Inputs     *Inputs     `parser:"| @@"`
	Outputs    *Outputs    `parser:"| @@"`
	Observe    *Observe    `parser:"| @@"`
	Neighbours *Neighbours `parser:"| @@"`
	Property   *PropStmt   `parser:"| @@"`
}

// Const is "const NAME = EXPR".
type Const struct {
	Pos   lexer.Position
	Name  *Word `parser:"'const' @@"`
	Value *Expr `parser:"'=' @@"`
}

// ModelStmt is "model BUILDER(ARGS)".
type ModelStmt struct {
	Pos  lexer.Position
	Call *Call `parser:"'model' @@"`
}

// ChainBlock is "chain { ... }": explicit states and transitions.
type ChainBlock struct {
	Pos   lexer.Position
	Items []*ChainItem `parser:"'chain' '{' @@* '}'"`
}

// ChainItem is a state declaration or a row of transitions.
type ChainItem struct {
	Pos    lexer.Position
	Tokens []lexer.Token
	State  *StateDecl `parser:"  @@"`
	Trans  *TransDecl `parser:"| @@"`
}

// StateDecl is "state NAME (VAR = EXPR, ...) [LABEL, ...]".
type StateDecl struct {
	Pos    lexer.Position
	Name   *Name     `parser:"'state' @@"`
	Vals   []*Assign `parser:"( '(' @@ ( ',' @@ )* ')' )?"`
	Labels []*Name   `parser:"( '[' ( @@ ( ',' @@ )* )? ']' )?"`
}

// Assign is "VAR = EXPR".
type Assign struct {
	Pos   lexer.Position
	Var   *Word `parser:"@@ '='"`
	Value *Expr `parser:"@@"`
}

// TransDecl is "FROM -> TO : P, TO : P [else sink]".
type TransDecl struct {
	Pos     lexer.Position
	From    *Name     `parser:"@@ '->'"`
	Targets []*Target `parser:"@@ ( ',' @@ )*"`
	Sink    *SinkRef  `parser:"( 'else' @@ )?"`
}

// SinkRef is the target of "else": "sink" or "†".
type SinkRef struct {
	Pos  lexer.Position
	Name string `parser:"@( Ident | '†' )"`
}

// Target is "TO : P".
type Target struct {
	Pos  lexer.Position
	To   *Name `parser:"@@ ':'"`
	Prob *Expr `parser:"@@"`
}

// Inputs is "inputs NAME, ..." or "inputs where PREDICATE".
type Inputs struct {
	Pos   lexer.Position
	Where *Expr   `parser:"'inputs' ( 'where' @@"`
	Names []*Name `parser:"| @@ ( ',' @@ )* )"`
}

// Outputs is "outputs state", "outputs var NAME" or "outputs labels L, ...".
type Outputs struct {
	Pos    lexer.Position
	State  bool    `parser:"'outputs' ( @'state'"`
	Var    *Word   `parser:"| 'var' @@"`
	Labels []*Name `parser:"| 'labels' @@ ( ',' @@ )* )"`
}

// Observe is "observe L, ...": the labels a trace output shows.
type Observe struct {
	Pos    lexer.Position
	Labels []*Name `parser:"'observe' @@ ( ',' @@ )*"`
}

// Neighbours is "neighbours A ~ B, ..." or "neighbours PREDICATE".
type Neighbours struct {
	Pos   lexer.Position
	Pairs []*Pair `parser:"( 'neighbours' | 'neighbors' ) ( @@ ( ',' @@ )*"`
	Pred  *Expr   `parser:"| @@ )"`
}

// Pair is "A ~ B".
type Pair struct {
	Pos lexer.Position
	A   *Name `parser:"@@ '~'"`
	B   *Name `parser:"@@"`
}

// PropStmt is "check EXPR [over traces(K)] [expect ...]" or the same with
// "query".
type PropStmt struct {
	Pos    lexer.Position
	Kind   string  `parser:"@( 'check' | 'query' )"`
	Body   *Expr   `parser:"@@"`
	Over   *Call   `parser:"( 'over' @@ )?"`
	Expect *Expect `parser:"( 'expect' @@ )?"`
}

// Expect is "holds", "violated" or a value.
type Expect struct {
	Pos     lexer.Position
	Outcome string `parser:"  @( 'holds' | 'violated' )"`
	Value   *Expr  `parser:"| @@"`
}

// Word is an identifier.
type Word struct {
	Pos  lexer.Position
	Name string `parser:"@Ident"`
}

// Name is a state or label name: an identifier or a quoted string ("+", "⊤").
type Name struct {
	Pos    lexer.Position
	Ident  string `parser:"  @Ident"`
	Quoted string `parser:"| @String"`
}

// Expr is a disjunction: A | B | ...
type Expr struct {
	Pos   lexer.Position
	Terms []*AndExpr `parser:"@@ ( '|' @@ )*"`
}

// AndExpr is a conjunction: A & B & ...
type AndExpr struct {
	Pos   lexer.Position
	Terms []*UntilExpr `parser:"@@ ( '&' @@ )*"`
}

// UntilExpr is "A U B" or "A U<=K B", or just A.
type UntilExpr struct {
	Pos   lexer.Position
	Left  *NotExpr `parser:"@@"`
	Until *Until   `parser:"@@?"`
}

// Until is the right-hand side of an until.
type Until struct {
	Pos   lexer.Position
	Bound *Sum     `parser:"'U' ( '<=' @@ )?"`
	Right *NotExpr `parser:"@@"`
}

// NotExpr is "!A", a temporal operator applied to an operand, or a
// comparison.
type NotExpr struct {
	Pos  lexer.Position
	Not  *NotExpr  `parser:"  '!' @@"`
	Temp *Temporal `parser:"| @@"`
	Cmp  *CmpExpr  `parser:"| @@"`
}

// Temporal is "X A", "X^K A", "F A", "F<=K A", "G A" or "G<=K A".
type Temporal struct {
	Pos     lexer.Position
	Op      string   `parser:"@( 'X' | 'F' | 'G' )"`
	Power   *Unary   `parser:"( '^' @@ )?"`
	Bound   *Sum     `parser:"( '<=' @@ )?"`
	Operand *NotExpr `parser:"@@"`
}

// CmpExpr is "A op B" with op in = != < <= > >=, or just A.
type CmpExpr struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Left   *Sum   `parser:"@@"`
	Op     string `parser:"( @( '<=' | '>=' | '!=' | '==' | '=' | '<' | '>' )"`
	Right  *Sum   `parser:"  @@ )?"`
}

// Sum is "A + B - C ...".
type Sum struct {
	Pos  lexer.Position
	Left *Term    `parser:"@@"`
	Rest []*SumOp `parser:"@@*"`
}

// SumOp is one "+ B" or "- B".
type SumOp struct {
	Pos  lexer.Position
	Op   string `parser:"@( '+' | '-' )"`
	Term *Term  `parser:"@@"`
}

// Term is "A * B / C ...".
type Term struct {
	Pos  lexer.Position
	Left *Unary    `parser:"@@"`
	Rest []*TermOp `parser:"@@*"`
}

// TermOp is one "* B" or "/ B".
type TermOp struct {
	Pos   lexer.Position
	Op    string `parser:"@( '*' | '/' )"`
	Right *Unary `parser:"@@"`
}

// Unary is "-A" or a power.
type Unary struct {
	Pos   lexer.Position
	Neg   *Unary `parser:"  '-' @@"`
	Power *Power `parser:"| @@"`
}

// Power is "A ^ B" (B an integer) or just A.
type Power struct {
	Pos  lexer.Position
	Base *Primary `parser:"@@"`
	Exp  *Unary   `parser:"( '^' @@ )?"`
}

// Primary is an operand.
type Primary struct {
	Pos     lexer.Position
	Number  string  `parser:"  @Number"`
	String  string  `parser:"| @String"`
	Paren   *Expr   `parser:"| '(' @@ ')'"`
	Abs     *Sum    `parser:"| '|' @@ '|'"`
	Prob    *ProbOp `parser:"| @@"`
	DP      *DPOp   `parser:"| @@"`
	Call    *Call   `parser:"| @@"`
	Unknown bool    `parser:"| @'?'"`
	Var     *VarRef `parser:"| @@"`
}

// ProbOp is "P ~ B [ PATH ]" or "P = ? [ PATH ]".
type ProbOp struct {
	Pos   lexer.Position
	Op    string `parser:"'P' @( '<=' | '>=' | '<' | '>' | '=' )"`
	Query bool   `parser:"( @'?'"`
	Bound *Sum   `parser:"| @@ )"`
	Path  *Expr  `parser:"'[' @@ ']'"`
}

// DPOp is "D{EPS, DELTA}[ PATH ]"; EPS or DELTA may be "?".
type DPOp struct {
	Pos   lexer.Position
	Eps   *Expr `parser:"'D' '{' @@"`
	Delta *Expr `parser:"',' @@ '}'"`
	Path  *Expr `parser:"'[' @@ ']'"`
}

// Call is "NAME(ARG, ...)".
type Call struct {
	Pos  lexer.Position
	Name string `parser:"@Ident '('"`
	Args []*Arg `parser:"( @@ ( ',' @@ )* )? ')'"`
}

// Arg is "[NAME =] EXPR".
type Arg struct {
	Pos   lexer.Position
	Name  string `parser:"( @Ident '=' (?! '=') )?"`
	Value *Expr  `parser:"@@"`
}

// VarRef is a variable, constant or label, primed in neighbour predicates.
type VarRef struct {
	Pos    lexer.Position
	Name   string `parser:"@Ident"`
	Primed bool   `parser:"@\"'\"?"`
}
