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
// MDPs: "mdp module NAME … endmodule" declares a module of a Markov
// decision process (every module of the file is then one); each of its
// commands names its action, the choice it is ([low] x = 0 -> …), and a
// state enables at most one command per action (statespace checks it
// while exploring). The model is a statespace.Model with MDP set.
// "query Pmin=?[ψ]" and "query Pmax=?[ψ]" set property.ProbQuery.Extreme
// ("min", "max"; only on an MDP: on a Markov chain they are an error at
// the statement); "check … expect unknown" sets property.ExpectUnknown
// (an error on a Markov chain, whose checks are decided exactly). Pmin,
// Pmax and unknown are reserved words; mdp is one only before module.
//
// Unbounded integers (modules.go): "NAME : int [init E];" declares a
// variable with no range (statespace.Var.Unbounded; never an input), drawn
// only untruncated, "geometric(alpha, centre)" or "geometric1(alpha,
// centre)" (a statespace.Noise of two arguments); a bounded variable's
// geometric draw names lo and hi. The chain of such a program goes from
// each input straight to its outputs, so what reads its steps, labels or
// final states is an error (check.go, unboundedOnlyOutputs). int is a
// word only as a variable's type.
//
// For every parameter value (param.go): "param NAME in (LO, HI)" (either
// end open or closed, written with parentheses or brackets) declares the
// file's one parameter; its name may be one argument of the builders
// builder.Def.ParamArgs lists (the model is then a
// property.ParamModel), it may appear in the probabilities of a chain
// block and in the update probabilities and draws' first arguments of
// modules (paramchain.go: the model is then a property.ParamSource built
// from the block, or explored by statespace.Model.BuildParam; anywhere
// else in modules it is an error at its position), and "check dp(…) for
// NAME", "query eps(delta = 0)
// for NAME" and "query delta(eps = …) for NAME" become
// property.ParamDPCheck, ParamEpsQuery and ParamDeltaQuery, with ε
// (k·ln(R)) and δ evaluated into poly.RatFunc by a small evaluator over
// the AST (numbers and constants, the parameter, + − * /, ^ with an
// integer exponent). Every other use of the parameter, a statement
// without "for NAME" in such a file, and "for NAME" without a parameter
// are errors at their positions. param and for are reserved words.
// "check equivalent(M1, M2) for NAME" (param_equiv.go) is
// property.ParamEquivalenceCheck: each model a builder call that may take
// the parameter (a ParamModel), model, or a model without it; at least one
// must use it, and a file of such checks needs no model of its own.
//
// spec imports property, expr, exact, source, builder (the catalog), chain,
// verify (formula operators), statespace and prism (the models of modules
// and PRISM files), mdp (an explicit MDP) and poly (ε and δ as functions
// of a parameter); none of them imports spec.
package spec
