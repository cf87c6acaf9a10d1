package outcome_test

import (
	"context"
	"errors"
	"testing"

	"github.com/dpcheck/dpcheck/outcome"
	"github.com/dpcheck/dpcheck/property"
)

// stmt is an outcome of a test's own making.
type stmt struct{ pass bool }

func (s stmt) Statement() property.Statement { return nil }
func (s stmt) Pass() bool                    { return s.pass }
func (s stmt) Err() error                    { return nil }
func (s stmt) Value() string                 { return "" }

func TestPass(t *testing.T) {
	for _, tc := range []struct {
		name string
		sts  []property.Outcome
		want bool
	}{
		{"no statement", nil, true},
		{"all pass", []property.Outcome{stmt{true}, stmt{true}}, true},
		{"one fails", []property.Outcome{stmt{true}, stmt{false}}, false},
	} {
		if got := (&outcome.Result{Statements: tc.sts}).Pass(); got != tc.want {
			t.Errorf("%s: Pass() = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestErrors(t *testing.T) {
	if got, want := (&outcome.InternalError{Value: "boom"}).Error(), "internal error: boom"; got != want {
		t.Errorf("InternalError = %q, want %q", got, want)
	}
	me := &outcome.MemoryError{Held: 5 << 30, Limit: 4 << 30}
	if got, want := me.Error(), "the check held 5 GiB of memory; the limit is 4 GiB"; got != want {
		t.Errorf("MemoryError = %q, want %q", got, want)
	}
	me.Hint = "raise it with --max-memory"
	if got, want := me.Error(), "the check held 5 GiB of memory; the limit is 4 GiB (raise it with --max-memory)"; got != want {
		t.Errorf("MemoryError = %q, want %q", got, want)
	}
	if !errors.Is(me, context.Canceled) {
		t.Error("a MemoryError is not a cancellation")
	}
}
