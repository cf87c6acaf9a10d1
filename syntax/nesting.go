//go:build !js

package syntax

// maxNesting is MaxNesting where Go's stacks grow as they need.
const maxNesting = 1000
