// Package spec is the .dp front end: a scanner and recursive-descent parser
// that read one token at a time and bound the nesting of expressions
// (parse.go, scan.go; the grammar is Grammar()), a compact AST with
// positions (ast.go), the semantic checks that turn a file into a
// property.Program (check.go, model.go, props.go, formula.go, pred.go), and
// the formatter behind dpcheck fmt (format.go).
//
// Load does not keep an explicit chain's block as an AST: it reads it into
// compact records, every state name and probability text stored once, a
// probability that is a number or a fraction read without an expression,
// within the limits and under the context (load.go). Parse, for the
// formatter, builds the whole AST; Check accepts both.
//
// Check reports every error at once, as a source.ErrorList of
// "file:line:col: message" errors, through one helper per kind of error
// (errors.go). It does not build builder models — property.Prepare does,
// under a context — but it builds an explicit chain, which is the file's
// own data.
//
// spec imports property, expr, exact, source, builder (the catalog), chain
// and verify (formula operators); none of them imports spec.
package spec
