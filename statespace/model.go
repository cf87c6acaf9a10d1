// Package statespace builds the exact Markov chain of a program of guarded
// commands — PRISM's modules, as the .dp language and PRISM files write
// them — by exploring every state reachable from the initial ones,
// breadth-first, with exact rational probabilities.
//
// A Model is language-neutral: front ends (spec for .dp modules, prism for
// PRISM files) build it with constants folded and formulas expanded, its
// expressions in package expr. Build explores it under a context and
// within the limits on states, transitions and memory (memory.go: the
// memory is estimated as states are found, and a command's outcomes, a
// product of draws and the combinations of synchronised commands are
// counted before they are enumerated), and reports what is wrong
// with it — a guard that does not evaluate, an update out of a variable's
// range, a row that does not sum to exactly 1, two commands enabled at once
// in a .dp module — at the position of the command, naming the state.
//
// Semantics (docs/semantics.md §1.6):
//   - The state is the valuation of every variable. States are keyed by it.
//   - Initial states: every valuation of the input variables (their whole
//     range), the others at their initial values, kept when InputsWhere
//     holds; or, with Init (PRISM's init … endinit), every valuation of all
//     variables that satisfies it; otherwise the one valuation of the
//     initial values. The initial states are the chain's inputs.
//   - A command is enabled at a state when its guard holds there. Each
//     update is chosen with its probability; its assignments are
//     simultaneous (right-hand sides read the old state); a variable not
//     assigned keeps its value. An assignment x' ~ dist(…) draws x from a
//     distribution, expanded exactly into branches, independently of the
//     command's other draws.
//   - DP semantics (.dp modules): at most one command may be enabled at a
//     state (two enabled commands are an error: a specification of a
//     mechanism must not choose silently); a state with none is absorbing.
//   - PRISM semantics (DTMC): the choices are the enabled unlabelled
//     commands and, for each action, the combinations of one enabled
//     command per module that has the action (they synchronise: their
//     probabilities multiply and their assignments combine); the chain
//     picks uniformly among the choices. A state with no choice is a
//     deadlock and gets a self-loop, as PRISM does by default; Build counts
//     them.
//   - MDPs (Model.MDP): the same choices are kept apart, each a choice of
//     the MDP, instead of a uniform mix. Under the DP semantics every
//     command names its action ([a] guard -> …) and a state enables at
//     most one command per action (two are an error naming the state and
//     both commands); under PRISM's, a state's choices are its enabled
//     unlabelled commands (each its own) and, per action, every
//     combination of one enabled command per module having the action. A
//     state with no choice is absorbing (under PRISM's semantics, a
//     deadlock, labelled and counted). Build returns the MDP (package mdp)
//     over a frame chain of the same states, every one absorbing; mdp.go
//     says how choices are named.
//
// Unbounded integers (unbounded.go): a model with a Var marked Unbounded
// is not explored state by state; each run's bounded part is followed and
// its unbounded values carried as one weight (package geosum) that guards
// cut and draws and assignments sum in closed form, within the class
// unbounded_class.go enforces; the chain goes from each input straight to
// its outputs (unbounded_output.go).
//
// For every value of a parameter (param.go): BuildParam explores a .dp
// model whose update probabilities and draw parameters are rational
// functions of one parameter, once, at a rational point of its interval,
// every branch carrying its probability as a poly.RatFunc (parallel
// branches to one state added); it returns the frame and the parametric
// rows, which package param validates and analyses.
package statespace

import (
	"math/big"

	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/source"
)

// Semantics is how commands are combined.
type Semantics int

// The semantics.
const (
	// DP: at most one enabled command; none means absorbing.
	DP Semantics = iota
	// PRISM: uniform choice among enabled commands, synchronisation on
	// actions, deadlocks get a self-loop.
	PRISM
)

// Model is a program of guarded commands.
type Model struct {
	// Name describes the model in reports ("module sparse_vector",
	// "prism(\"dice.pm\")").
	Name string
	Vars []Var
	// Modules are the modules' names, in order (Command.Module indexes it).
	Modules  []string
	Commands []Command
	Labels   []Label
	// InputsWhere, when set, keeps only the initial states where it holds.
	InputsWhere *expr.Expr
	// Init, when set, makes every valuation satisfying it initial (PRISM).
	Init      *expr.Expr
	InitPos   source.Position
	Semantics Semantics
	// MDP makes the model a Markov decision process: a state's choices
	// are kept apart (see the package doc) rather than mixed uniformly.
	MDP bool
	// Observed names the variables an observer sees at the end of a run,
	// when the program says (.dp: outputs var …); a model with unbounded
	// variables needs it: those it does not name are summed out.
	Observed []string
	// ObservedPos is where the outputs are stated.
	ObservedPos source.Position
	// Ratios lists the values c = e^ε (rationals) at which the program's
	// statements compare outputs (dp(ε, δ), δ at ε). An observed unbounded
	// variable whose tail's likelihood ratios vary is then listed value by
	// value until, for each c, every two inputs compare the same way on
	// the rest, which is merged (unbounded_tails.go); the mechanism is
	// exact at those ε only (model.Mechanism.ExactAt, empty without
	// Ratios), and a statement at another ε is refused on its own. For
	// every value of a parameter such a tail is refused.
	Ratios []*big.Rat
	// Pos is where the model is declared, for errors about it as a whole.
	Pos source.Position
	// Rewards are reward structures (reward.go): Build evaluates them on
	// every state explored (model.Mechanism.Rewards, in this order).
	Rewards []Reward
}

// Var is an integer or boolean variable, bounded unless Unbounded.
type Var struct {
	Name string
	Pos  source.Position
	// Lo and Hi bound its values (0 and 1 for a boolean); unused when
	// Unbounded.
	Lo, Hi int64
	Bool   bool
	// Unbounded marks an integer with no range (".dp": v : int): its
	// values range over all the integers; see unbounded.go for the
	// programs such variables may appear in.
	Unbounded bool
	// Init is its initial value (a constant expression), nil for Lo (false).
	Init *expr.Expr
	// Input marks an input variable: every value of its range starts a run.
	Input bool
	// Module is the index of its module, -1 for a global variable.
	Module int
}

// Command is "[action] guard -> updates".
type Command struct {
	Module int
	Action string // "" when unlabelled
	Guard  *expr.Expr
	// Updates are the probabilistic branches; one branch with Prob nil
	// has probability 1.
	Updates []Update
	Pos     source.Position
	// Text is the command as written (for messages).
	Text string
	// Number is the command's place among its module's commands as
	// written, 1 for the first, when a front end wrote one command as
	// several (each then says the number of the one written); 0: the
	// command's place in Commands.
	Number int
}

// Update is one branch "p : (x'=e) & (y' ~ geometric(…))".
type Update struct {
	Prob    *expr.Expr // nil: 1
	Assigns []Assign
	Pos     source.Position
}

// Assign is "x' = e" or "x' ~ dist(…)".
type Assign struct {
	// Var indexes Model.Vars.
	Var   int
	Value *expr.Expr
	Noise *Noise
	Pos   source.Position
}

// NoiseKind is a distribution a variable may be drawn from.
type NoiseKind int

// The distributions.
const (
	// Geometric(α, centre, lo, hi): centre + Z clamped to [lo, hi], Z the
	// two-sided geometric noise, P(Z = z) = (1−α)/(1+α)·α^|z|. With two
	// arguments, Geometric(α, centre) is centre + Z unclamped, drawn into
	// an unbounded variable.
	Geometric NoiseKind = iota + 1
	// Geometric1(α, centre, lo, hi): centre + Z clamped to [lo, hi], Z ≥ 0
	// one-sided, P(Z = z) = (1−α)·α^z; with two arguments, unclamped.
	Geometric1
	// Uniform(lo, hi): every integer of [lo, hi] equally likely.
	Uniform
	// Bernoulli(p): 1 with probability p, else 0.
	Bernoulli
)

// Noise is a draw from a distribution, its arguments evaluated on the
// state.
type Noise struct {
	Kind NoiseKind
	Args []*expr.Expr
	Pos  source.Position
}

// Label is a named condition on states; the chain's states carry the
// labels that hold there.
type Label struct {
	Name string
	Cond *expr.Expr
	Pos  source.Position
}

// IsMDP reports whether the model is a Markov decision process.
func (m *Model) IsMDP() bool { return m.MDP }
