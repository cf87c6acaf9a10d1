// Package prism is dpcheck's PRISM front end: a scanner and a
// recursive-descent parser for the subset of the PRISM modelling language
// that describes discrete-time models, and for PRISM properties files with
// the dpCTL operator D{ε,δ}[ψ]; and the translation of what it parses into
// a checked program.
//
// The parser produces an AST with byte offsets (ast.go) and reports every
// problem as a source.ErrorList holding one positioned error: parsing
// stops at the first, saying what was expected.
//
// The translation (Program, NewModel) gives the AST its meaning: a
// statespace.Model with PRISM's semantics — for a dtmc, a uniform choice
// among the enabled commands; for an mdp (nondeterministic, or no type at
// all, as PRISM reads it), an MDP whose choices are kept apart (each
// enabled unlabelled command, and per action each combination of one
// enabled command per module having it, named as package statespace
// says); synchronisation on actions, a self-loop on deadlock states —
// every constant folded to an exact rational, formulas expanded, renamed
// modules copied, and every expression type-checked as PRISM does (int,
// double, bool); and one property statement per property. It reports
// every error of both files at once, and refuses what dpcheck cannot
// compute exactly (log, pow with a non-integer exponent) or does not
// support yet (multi, R of paths that are not co-safe, S on an MDP),
// property by property. Old-style filters, P=? [ψ {φ}{min}], become the
// filter(op, …) PRISM reads them as. Pmin=? [ψ] and Pmax=? [ψ] set property.ProbQuery.Extreme on an
// MDP (on a DTMC they are P=?); P=? [ψ], P~p [ψ] and D{ε,δ}[ψ] are
// translated as written, and the statements decide what they mean on an
// MDP. docs/semantics.md §6
// says what a PRISM model and its properties mean to dpcheck.
//
// Like the .dp parser, it reads one token at a time (memory proportional
// to the input, at most MaxNodes expression nodes and declarations),
// keeps numeric literals as their exact text (never a float), and bounds
// the nesting of expressions (MaxNesting). The translation writes
// formulas (and named properties) out where they are used, within
// MaxExpandedNodes nodes and MaxExpandedDepth levels counted as it goes,
// and counts the bits of the numbers it folds against Limits.MaxBits
// (Options): so that no input can exhaust the stack or the memory,
// however its formulas nest or double.
//
// # Model files (.prism, .pm, .nm)
//
// Accepted, as PRISM's grammar (PrismParser.jj) reads them:
//
//	Model    = ( Type | Const | Formula | Label | Global | Module | Renamed | Rewards | Init )* .
//	Type     = "dtmc" | "probabilistic" | "mdp" | "nondeterministic" .
//	Const    = ( "const" ( "int" | "double" | "bool" )? | "prob" ) Ident ( "=" Expr )? ";" .
//	Formula  = "formula" Ident "=" Expr ";" .
//	Label    = "label" QuotedIdent "=" Expr ";" .
//	Global   = "global" Var .
//	Var      = Ident ":" ( "[" Expr ".." Expr "]" | "bool" ) ( "init" Expr )? ";" .
//	Module   = "module" Ident Var* Command* "endmodule" .
//	Renamed  = "module" Ident "=" Ident "[" Name "=" Name ( "," Name "=" Name )* "]" "endmodule" .
//	Command  = "[" Ident? "]" Expr "->" Updates ";" .
//	Updates  = Update | Expr ":" Update ( "+" Expr ":" Update )* .
//	Update   = "true" | "(" Ident "'" "=" Expr ")" ( "&" "(" Ident "'" "=" Expr ")" )* .
//	Rewards  = "rewards" QuotedIdent? ( ( "[" Ident? "]" )? Expr ":" Expr ";" )* "endrewards" .
//	Init     = "init" Expr "endinit" .
//
// Comments are // to the end of the line and /* … */; line ends may be LF
// or CRLF. Reward structures are parsed and recorded (ModelFile.Rewards):
// dpcheck computes probabilities only, and the translator ignores them
// (the report says so), while an R property is refused. Refused with a positioned error naming the
// construct: the model types ctmc, stochastic, ctmdp, pta, pomdp, popta,
// lts, smg, csg and tsg; rate constants; clock variables; unbounded
// variables (x : int); invariant … endinvariant; system … endsystem;
// observables; player; the preprocessor (#…#).
//
// # Expressions
//
// From the loosest: c ? a : b (right associative), =>, <=>, |, &, !, = and
// !=, < <= > >=, + and -, * and /, unary -, then literals (integers,
// decimals such as 0.75, .2 and 1e-3, true, false), names, parentheses and
// the functions min(a, b, …), max(a, b, …), floor(x), ceil(x), round(x),
// pow(x, y), mod(i, n), log(x, b), also written old-style as func(name,
// args…). Primed names (x') appear only on the left of an update.
//
// # Properties files (.pctl, .props)
//
//	Props    = ( Property ";"* | Const | Label | Formula | ";" )* .
//	Property = ( QuotedIdent ":" )? Expr .
//
// A property is a state formula: the expressions above over variables,
// constants and labels ("done", "init"), with
//
//	P ( "<" | "<=" | ">" | ">=" ) Expr "[" Path OldFilter? "]"
//	P "=?" "[" … "]",  Pmin "=?" "[" … "]",  Pmax "=?" "[" … "]"
//	D "{" ( Expr | "?" ) "," ( Expr | "?" ) "}" "[" Path "]"     the dpCTL operator
//	filter "(" Op "," Expr ( "," Expr )? ")"                         forall, print, first, …
//
// where, as in PRISM, path operators bind loosest inside the brackets:
//
//	Path     = Temporal ( "U" Bound? Temporal )? .
//	Temporal = ( "X" | ( "F" | "G" ) Bound? ) Temporal | Expr .
//	Bound    = ( "<=" | "<" ) Expr .
//	OldFilter = "{" Expr "}" ( "{" ( "min" | "max" ) "}" )* .
//
// so F a & b is F (a & b), and a | b U c is (a | b) U c; X X X a nests.
// Refused with a positioned error naming them: the operators R (rewards),
// S (steady state), E and A (CTL), multi(…), W (weak until), R (release),
// and lower or interval time bounds (F>=k, F[a,b]).
package prism
