package property

import (
	"context"
	"errors"

	"github.com/dpcheck/dpcheck/source"
)

// Refused is a statement dpcheck cannot check on its model: a property
// kind it does not support (a PRISM reward property, say), or an ε at
// which the model's merged tails are not exact. Its outcome is the
// refusal, an error; the program's other statements are checked. A front
// end makes one for a property it reads but cannot translate; Prepare
// makes one for a statement its model cannot answer.
type Refused struct {
	Header
	// Of is the kind of the statement refused ("query eps"), or "refused"
	// for a property of a kind dpcheck does not check.
	Of string
	// Why is the refusal, positioned (at the construct refused).
	Why source.ErrorList
}

// Kind returns the kind of the statement refused.
func (s *Refused) Kind() string { return s.Of }

// Describe says that the statement is not checked, and why.
func (s *Refused) Describe() string { return "not checked: " + s.Why.Error() }

// Evaluate returns the refusal as the outcome's error, a *RefusalError.
func (s *Refused) Evaluate(context.Context, *Env) Outcome {
	return &refusedOutcome{base{st: s, err: &RefusalError{Why: s.Why}}}
}

func (s *Refused) prepare(context.Context, *Prepared) source.ErrorList { return nil }

type refusedOutcome struct{ base }

func (o *refusedOutcome) Value() string { return "error" }

// RefusalError is the error of a refused statement's outcome: its
// positioned reasons. A report counts the file as one with errors, as for
// errors found when it was read, though its other statements ran.
type RefusalError struct{ Why source.ErrorList }

func (e *RefusalError) Error() string { return e.Why.Error() }

// Unwrap returns the positioned reasons.
func (e *RefusalError) Unwrap() error { return e.Why }

// IsRefusal reports whether err is a refused statement's.
func IsRefusal(err error) bool {
	var r *RefusalError
	return errors.As(err, &r)
}
