// Package spec is the .dp language: a participle grammar, an AST with
// positions, and the semantic checks that turn a file into a Program (a
// chain, its neighbour relation, what is observed, and the properties to
// check).
//
// Check reports every semantic error at once, as an ErrorList of
// "file:line:col: message" errors; ErrorList.Pretty adds the source line and
// a caret. Parse and Check never panic on any input.
//
// spec imports chain, builder and verify; they never import spec.
package spec
