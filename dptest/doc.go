// Package dptest checks the differential privacy of mechanisms written in
// Go — exact distribution functions, or samplers whose every random choice
// it explores — with exact verdicts, in tests of a few lines, in the spirit
// of net/http/httptest and testing/fstest.
package dptest
