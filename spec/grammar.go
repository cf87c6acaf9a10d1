package spec

// grammar is the .dp language in EBNF, as the parser in parse.go reads it
// (docs/language.md quotes it; TestGrammarInReadme keeps them equal, and the
// parser's tests exercise every production).
const grammar = `File = Stmt* .
Stmt = Const | Model | Chain | Module | Formula | Label | Inputs | Outputs | Observe | Neighbours | Param | Property .
Const = "const" Ident ("=" Expr)? .
Model = "model" Call .
Chain = "chain" "{" (StateDecl | Row)* "}" .
StateDecl = "state" Name ("(" Assign ("," Assign)* ")")? ("[" (Name ("," Name)*)? "]")? .
Assign = Ident "=" Expr .
Row = Name "->" Name ":" Expr ("," Name ":" Expr)* ("else" ("sink" | "†"))? .
Module = "mdp"? "module" Ident (VarDecl | Command)* "endmodule" .
VarDecl = "input"? Ident ("[" Expr ".." Expr "]")? ":" ("bool" | "int" | "[" Expr ".." Expr "]") ("init" Expr)? ";" .
Command = "[" Ident? "]" Expr "->" (Update ("+" Update)* | "true") ";" .
Update = (Expr ":")? (Next ("&" Next)* | "true") .
Next = "(" Ident ("[" Expr "]")? "'" ("=" Expr | "~" Call) ")" .
Formula = "formula" Ident ("(" Ident ("," Ident)* ")")? "=" Expr .
Label = "label" Name "=" Expr .
Inputs = "inputs" ("where" Expr | Name ("," Name)*) .
Outputs = "outputs" ("state" | "var" Element ("," Element)* | "labels" Name ("," Name)*) .
Element = Ident ("[" Expr "]")? .
Observe = "observe" Name ("," Name)* .
Neighbours = ("neighbours" | "neighbors") (Name "~" Name ("," Name "~" Name)* | Expr) .
Param = "param" Ident "in" ("(" | "[") Sum "," Sum (")" | "]") .
Property = ("check" | "query") Expr ("for" Ident)? ("over" Call)? ("expect" Expectation)? .
Expectation = "holds" | "violated" | "unknown" | Expr | Name ":" Expr ("," Name ":" Expr)* .
Name = Ident | String .
Expr = Implies ("?" Expr ":" Expr)? .
Implies = Or ("=>" Implies)? .
Or = And ("|" And)* .
And = Until ("&" Until)* .
Until = Not ("U" ("<=" Sum)? Not)? .
Not = "!" Not | ("X" | "F" | "G") ("^" Unary)? ("<=" Sum)? Not | Cmp .
Cmp = Sum (("<=" | ">=" | "!=" | "==" | "=" | "<" | ">") Sum)? .
Sum = Term (("+" | "-") Term)* .
Term = Unary (("*" | "/") Unary)* .
Unary = "-" Unary | Primary ("^" Unary)? .
Primary = Number | String | "(" Expr ")" | "|" Sum "|" | "?" | Prob | DP | Quant | Fold | Call | Ident ("[" Expr "]")? "'"? .
Quant = ("forall" | "exists") Ident "in" Sum ".." Sum ":" Expr .
Fold = ("sum" | "count" | "max" | "min") "(" Ident "in" Sum ".." Sum ":" Expr ")" .
Prob = ("P" ("<=" | ">=" | "<" | ">" | "=") ("?" | Sum) | ("Pmin" | "Pmax") "=" "?") "[" Expr "]" .
DP = "D" "{" Expr "," Expr "}" "[" Expr "]" .
Call = Ident "(" (Arg ("," Arg)*)? ")" .
Arg = (Ident "=")? Expr .`

// Grammar returns the grammar of the .dp language in EBNF.
func Grammar() string { return grammar }
