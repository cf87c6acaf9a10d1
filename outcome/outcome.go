// Package outcome holds what a run of a checked file produced — the
// Result with its Size, and the errors a run ends with that are not about
// the input (InternalError, MemoryError) — apart from the runner that
// produces it and the front ends that load files. The renderings of a
// result (package report, package picture) import it, and so reach
// neither the .dp parser nor the PRISM one; package dpcheck (the runner)
// fills it and names its types through aliases.
package outcome

import (
	"context"
	"fmt"
	"time"

	"github.com/dpcheck/dpcheck/mdp"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/verify"
)

// Size describes the checked model.
type Size struct {
	States, Transitions, Inputs int
	// Pairs is the number of unordered neighbouring pairs; every check
	// examines both directions of each.
	Pairs int
	// Outputs is the number of distinct outputs (0 when no statement needed
	// the distributions).
	Outputs int
	// Runs is set for a composition whose product chain was not built
	// (no statement needed it): the sizes are then those of one run.
	Runs int
	// MDP is set when the model is a Markov decision process: States are
	// its states, Choices its enabled (state, action) choices,
	// Transitions the successors of all choices, Actions its action names.
	MDP              bool
	Choices, Actions int
}

// Result is the outcome of one .dp file.
type Result struct {
	File     string
	Prepared *property.Prepared
	Model    property.ModelInfo
	Size     Size
	// OutputSpace says what an observer sees ("final state", ...).
	OutputSpace string
	Statements  []property.Outcome
	// Lumped lists the lumpings the statements were evaluated on
	// (dpcheck.Config.Lump), with the chain's size before and after each.
	Lumped []property.Lumped
	// Times[i] is how long Statements[i] took to evaluate; Elapsed is how
	// long the whole file took: loading, building and every statement
	// (Run alone: every statement). They are for reports (a JUnit test
	// case's time) and never decide anything.
	Times   []time.Duration
	Elapsed time.Duration
	env     *property.Env
}

// New returns the result of evaluating a prepared program in env, before
// any statement: its file, model, output space and Size (but Size.Outputs,
// known once the statements have run).
func New(p *property.Prepared, env *property.Env) *Result {
	r := &Result{File: p.Program.File.Name, Prepared: p, Model: p.Model, OutputSpace: p.Output.String(), env: env}
	if m := p.MDP; m != nil {
		r.Size = mdpSize(m)
		r.Size.Inputs, r.Size.Pairs = len(p.Chain.Inputs()), p.NumPairs()
	} else if c := p.Chain; c != nil { // nil in a file of equivalence checks only
		r.Size = Size{States: c.NumStates(), Transitions: c.NumTransitions(), Inputs: len(c.Inputs()), Pairs: p.NumPairs()}
		if pc := p.Param; pc != nil { // the frame's rows are not the parametric chain's
			r.Size.Transitions = 0
			for _, row := range pc.Rows {
				r.Size.Transitions += max(len(row), 1) // an absorbing state's self-loop, as chains count it
			}
		}
	} else if comp := p.Composition; comp != nil {
		c := comp.Run
		r.Size = Size{States: c.NumStates(), Transitions: c.NumTransitions(), Inputs: len(c.Inputs()), Pairs: len(comp.Neighbours), Runs: comp.Runs}
	}
	return r
}

// mdpSize counts an MDP's states, choices, transitions and actions.
func mdpSize(m *mdp.MDP) Size {
	return Size{MDP: true, States: m.NumStates(), Actions: len(m.Actions), Choices: m.NumChoices(), Transitions: m.NumTransitions()}
}

// Pass reports whether every statement met its expectation.
func (r *Result) Pass() bool {
	for _, o := range r.Statements {
		if !o.Pass() {
			return false
		}
	}
	return true
}

// Analysis returns the model's distributions over an output space,
// computed once for the whole result (a picture of the result uses it).
func (r *Result) Analysis(ctx context.Context, out verify.Output) (*verify.Analysis, error) {
	return r.env.Analysis(ctx, out)
}

// Privacy returns what the result's dp statements over an output space
// were computed with, computed once: the model's distributions, or for a
// composition over its final outputs the runs' privacy-loss distributions.
func (r *Result) Privacy(ctx context.Context, out verify.Output) (verify.Privacy, error) {
	return r.env.Privacy(ctx, out)
}

// InternalError is a bug in dpcheck, caught where the library returns: a
// panic, with its value and the stack where it happened. It never stands
// for a problem of the input; please report it.
type InternalError struct {
	Value any
	Stack string
}

func (e *InternalError) Error() string { return fmt.Sprintf("internal error: %v", e.Value) }

// MemoryError says that a check was stopped because the process held more
// memory than the limit (dpcheck.Config.Limits.MaxMemory): what it needed could
// not be estimated before it was allocated, and the watch on the process's
// memory stopped it. It counts as a stopped run, like a timeout: errors.Is
// reports it as context.Canceled.
type MemoryError struct {
	// Held is the live memory measured after a garbage collection, at
	// least Limit.
	Held, Limit int64
	// Hint says how to raise the limit (dpcheck.Config.LimitHint), or is empty.
	Hint string
}

func (e *MemoryError) Error() string {
	s := fmt.Sprintf("the check held %s of memory; the limit is %s", model.Bytes(e.Held), model.Bytes(e.Limit))
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	return s
}

// Unwrap makes a MemoryError a cancellation: the run was stopped.
func (e *MemoryError) Unwrap() error { return context.Canceled }
