// Package chain is dpcheck's exact discrete-time Markov chain.
//
// A Chain has a finite set of states. Every state has a unique name, an
// optional valuation of integer variables (like PRISM's "d=3, t=2") and a
// set of labels. Transitions are stored as sparse rows of exact
// non-negative rationals (*big.Rat) and every row sums to exactly 1. Some
// states are marked as inputs: they stand for the databases a
// differential-privacy property compares.
//
// Chains are built with a Builder, which validates everything at once and
// returns an ErrorList rather than panicking on bad data: negative
// probabilities, probabilities above 1, rows that do not sum to exactly 1,
// duplicate state names and transitions to unknown states. A row that sums
// to less than 1 may send its remainder to the sink state "†" (a state with a
// self-loop, as the paper does for missing transitions); a state with no
// transitions at all is absorbing and gets a self-loop of probability 1.
//
// A built Chain is immutable and safe for concurrent use. The *big.Rat values
// it hands out are shared and read-only: callers must not modify them.
//
// Graph returns a view of the chain implementing gonum's graph.Directed,
// self-loops included, so that gonum's SCC and topological algorithms apply
// directly.
//
// This package imports no other dpcheck package.
package chain
