//go:build js

package syntax

// maxNesting is MaxNesting in a browser (GOOS=js): WebAssembly runs Go's
// calls on the browser's own stack, whose size is fixed, and 600 levels
// of parentheses already overflow Chromium's.
const maxNesting = 200
