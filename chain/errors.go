package chain

import (
	"fmt"
	"math/big"
	"strings"
)

// ErrorKind classifies a construction error.
type ErrorKind int

// The kinds of construction error.
const (
	// DuplicateState: two states share a name.
	DuplicateState ErrorKind = iota + 1
	// UnknownState: a transition or input names a state that does not exist.
	UnknownState
	// NegativeProbability: a transition probability is below 0.
	NegativeProbability
	// ProbabilityAboveOne: a transition probability is above 1.
	ProbabilityAboveOne
	// RowSum: a row does not sum to exactly 1.
	RowSum
	// BadName: a state or label name is empty or reserved.
	BadName
	// NilProbability: a transition has no probability value.
	NilProbability
)

// Error is one construction error. State is the name of the state whose row
// (or declaration) is at fault; To is the target state of the offending
// transition, when there is one. Index is the position of the offending
// transition in the order the transitions were added to the state, or -1.
// For RowSum errors, Sum is the exact sum of the row.
type Error struct {
	Kind  ErrorKind
	State string
	To    string
	Index int
	Sum   *big.Rat
	Msg   string
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "state %q", e.State)
	if e.To != "" {
		fmt.Fprintf(&b, ", transition to %q", e.To)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// ErrorList is a list of construction errors, in the order they were found.
// It implements error; a nil or empty list means no error.
type ErrorList []*Error

func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Err returns l as an error, or nil when l is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}
