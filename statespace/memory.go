package statespace

import (
	"fmt"
	"math"
	"math/big"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/source"
)

// Memory. Exploration estimates the bytes it holds — and those the chain
// (or MDP) built from it will hold, since both are alive while it is
// built — and compares them with Limits.MaxMemory as it goes: at every
// new state, after every state's row, and before a command's outcomes,
// a product of draws or the combinations of synchronised commands are
// enumerated. So the limit speaks before the process holds much more
// than it, whatever the model; the states and transitions limits speak
// first for models of few variables at the default limits.
//
// The costs below are measured (TestMemoryEstimate compares them with
// what the Go heap holds after a build) and rounded up.
const (
	// stateBytes is the cost of a state besides its variables: the
	// explorer's index slot (up to 16 bytes just after the index grows)
	// and row start (8); the chain's name (24), index entry (about 64),
	// valuation, labels and row headers (24 each), flags, and its share
	// of the slices' growth.
	stateBytes = 320
	// varBytes is the cost of a variable of a state: the explorer's value
	// (8) and the chain's (a name and a value, 24), with growth.
	varBytes = 48
	// transBytes is the cost of a transition: the explorer's successor
	// (16) and the chain's target and probability (16), with growth.
	transBytes = 48
	// choiceBytes is the cost of a choice of an MDP besides its
	// transitions (its name, successors and probabilities headers, twice:
	// the explorer's and the MDP's); mdpTransBytes that of one of its
	// transitions (a target of 4 and 8 bytes, a probability).
	choiceBytes   = 160
	mdpTransBytes = 32
	// branchBytes is the cost of an outcome of a command being expanded
	// besides its valuation (a branch of 48 bytes, its probability — a
	// product of draws is a new big.Rat of about 100 — and the slice
	// holding it, which is copied as it doubles: old and new are alive
	// together); branchVarBytes that of a variable of its valuation (the
	// outcome and its copy, with the allocator's rounding). Measured: seven
	// draws of uniform(0, 9) in one update, 10^7 outcomes of 9 variables,
	// held 4 GB while their slice grew, 400 bytes an outcome; at 192 and 16
	// they were priced at 3.4 GB and got past a limit of 4 GiB.
	branchBytes    = 384
	branchVarBytes = 24
	// labelBytes1 is the cost of a label a state carries: its name in the
	// state's labels (16), the chain's index of the label's states (8) and
	// the growth of both (measured: the watch of the process's memory saw
	// 1.1 GiB when 16 a label was counted).
	labelBytes1 = 48
)

// held estimates the bytes the exploration holds, with the chain to be
// built from it.
func (x *explorer) held() int64 {
	n, nv := int64(x.n), int64(x.nv)
	bytes := n*(stateBytes+nv*varBytes) + x.extra + x.pending
	if x.p.m.MDP {
		return bytes + int64(x.nchoices)*choiceBytes + int64(x.trans)*mdpTransBytes
	}
	return bytes + int64(x.trans)*transBytes
}

// stateBytes is the cost of one more state.
func (x *explorer) stateBytes() int64 { return stateBytes + int64(x.nv)*varBytes }

// outcomesBytes is the cost of n outcomes of a command being expanded.
func (x *explorer) outcomesBytes(n float64) float64 {
	return n * float64(branchBytes+int64(x.nv)*branchVarBytes)
}

// memoryFor returns a memory-limit error unless what is held and more
// bytes fit within Limits.MaxMemory.
func (x *explorer) memoryFor(more int64) error {
	need := x.held() + more
	if need <= x.limits.MaxMemory {
		return nil
	}
	return x.limitError(model.LimitMemory, fmt.Sprintf("exploring the model would need more than %s of memory (%s states and %s transitions so far, with the chain built from them); the limit is %s",
		model.Bytes(x.limits.MaxMemory), exact.Thousands(int64(x.n)), exact.Thousands(int64(x.trans)), model.Bytes(x.limits.MaxMemory)))
}

// outcomesFit returns a limit error, at command ci, unless n more
// outcomes of a command at the state cur (its updates, a product of
// draws, the combinations of synchronised commands), and bytes more
// besides them, fit within the transitions limit and the memory limit;
// what says what they are, its %s the count ("this command has %s
// outcomes"). It is called before they are enumerated. When they are
// few and what is held already fills the memory, the error is the
// exploration's.
func (x *explorer) outcomesFit(n, bytes float64, ci int, cur []int64, what string) error {
	if n <= 0 {
		return nil
	}
	if n > float64(x.limits.MaxTransitions) {
		return source.ErrorList{{Pos: x.p.m.Commands[ci].Pos, Limit: string(model.LimitTransitions),
			Msg: fmt.Sprintf(what+" at %s, more than the limit of %s transitions", thousands(n), x.describe(cur), exact.Thousands(int64(x.limits.MaxTransitions)))}}
	}
	if n > float64(x.limits.MaxTransitions-x.trans) {
		return x.transitionsError()
	}
	more := x.outcomesBytes(n) + bytes
	need := float64(x.held()) + more
	switch {
	case need <= float64(x.limits.MaxMemory):
		return nil
	case more <= float64(x.limits.MaxMemory/4):
		return x.memoryFor(int64(more))
	}
	return source.ErrorList{{Pos: x.p.m.Commands[ci].Pos, Limit: string(model.LimitMemory),
		Msg: fmt.Sprintf(what+" at %s, which would need about %s of memory; the limit is %s", thousands(n), x.describe(cur), model.Bytes(int64(math.Min(need, math.MaxInt64/2))), model.Bytes(x.limits.MaxMemory))}}
}

// reserve counts n outcomes of the state being explored, and bytes more
// besides them, as held until its row is made.
func (x *explorer) reserve(n int, bytes float64) {
	x.pending += int64(x.outcomesBytes(float64(n)) + bytes)
}

// fits is outcomesFit for n outcomes of command ci.
func (x *explorer) fits(n int64, ci int, cur []int64) error {
	return x.outcomesFit(float64(n), 0, ci, cur, "this command has %s outcomes")
}

// thousands writes a count that may be beyond int64.
func thousands(n float64) string {
	if n >= 1e18 {
		return fmt.Sprintf("%.3g", n)
	}
	return exact.Thousands(int64(n))
}

// ratBytes is the cost of a rational: its two big.Int and their words.
func ratBytes(p *big.Rat) int64 {
	return 64 + 8*int64(len(p.Num().Bits())+len(p.Denom().Bits()))
}
