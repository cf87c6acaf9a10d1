// Package builder turns the classic differential-privacy mechanisms into
// exact Markov chains.
//
// Every builder returns a Mechanism: a *chain.Chain whose input states stand
// for the databases, whose absorbing states are the outputs, and the
// mechanism's natural neighbour relation. All probabilities are exact
// rationals and states carry the variables a user would name in a spec
// (in, out, d, t, ...). Parameters are validated and a bad parameter is an
// error, never a panic.
//
// The Catalog describes every builder by name with typed, documented
// parameters; the spec language and the command line use it to check and
// call builders, and the table of mechanisms in docs/language.md is generated from it.
// A Def's Build takes a context and stops with the context's error,
// unwrapped, soon after it ends; the exported functions build under
// context.Background().
//
// Mechanisms an analyst drives (interactive_survey, above_threshold_mdp)
// are Markov decision processes: Mechanism.MDP holds the moves, one
// choice per action, and Mechanism.Chain is its frame (every state, its
// name, valuation, labels and the inputs; every state absorbing there).
//
// A mechanism's rows are written once, generic over the number field
// (exact.Field) and into a Sink: its Build makes them over the rationals
// (exact.Rats into a chain.Builder), and, for the arguments a Def lists in
// ParamArgs, its Parametric makes them over the rational functions of the
// parameter (poly.Field into a Table), which package param turns into a
// parametric chain (param.FromBuilder). A builder with a form for every
// parameter value is thus one rows function, its Def, and its Parametric
// (the parametric form's own bounds).
//
// This package imports chain, exact, mdp, model and poly.
package builder
