// Package model holds what every way of making a mechanism produces and
// what bounds it: the built Mechanism (a chain or an MDP with its
// neighbouring inputs), the Limits on its size, and the LimitError that
// says which limit a model would exceed. The builders, the module
// explorer and the front ends all import it, so none of them imports
// another only to name the result.
package model
