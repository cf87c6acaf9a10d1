// Package verify decides differential privacy of finite Markov chains
// exactly: standard (ε,δ)-DP over every event of an output space, its tight
// ε, tight δ and privacy profile, the dpCTL logic of Liu, Wang and Zhang,
// and the equivalence of two chains. Probabilities are exact rationals and
// ε is symbolic, so every verdict and every reported value is exact.
//
// The precise meaning of every result is in docs/semantics.md of the
// repository; its section numbers are cited as §N below.
//
// # Overview
//
// A chain (package chain) has states with names, integer valuations and
// labels, exact rational rows and designated input states. What this package
// adds is the neighbour relation on inputs, what an observer sees, and the
// questions:
//
//   - Analyze prepares a Model — a chain, its neighbour pairs and an Output —
//     by computing the exact output distribution of every compared input
//     once. The Analysis answers any number of questions: DP checks
//     dp(ε, δ) (§2.1), TightEpsilon the least ε at a δ (§2.2), TightDelta
//     the least δ at an ε (§2.3), Profile the whole profile δ(ε) as exact
//     breakpoints; PairDelta and PairProfile give the same of one ordered
//     pair (§2.4). Every result has a String method of a few readable
//     lines (package report renders them as the command does).
//   - NewChecker prepares a chain and its neighbour pairs for dpCTL. Check
//     decides a state formula at every input (§2.5), ProbQuery gives
//     Pr_s(ψ) for every input (§2.7), TightEpsilonD and TightDeltaD the
//     tight values of D{ε,δ}[ψ] (§2.8, §2.9); Sat and Prob return the
//     underlying vectors over all states.
//   - Equivalent compares the final-state distributions of two chains for
//     every input, matching inputs and outputs by valuation, else by name;
//     MatchInputs reports whether the inputs correspond (§2.10); MatchError says why not.
//   - For a chain lumped for an output space (package lump, §4.9),
//     Output.StateKey says what the space observes of each state, and
//     Analysis.Lift turns the analysis of the quotient into that of the
//     original chain.
//
// # Outputs
//
// An Output says what an observer sees (§1.3). FinalState (the zero value)
// observes the absorbing state a run ends in, FinalVar one variable of it and
// FinalLabels some of its labels; mass that is never absorbed is the output
// Never (⊥∞). Traces(k, labels...) observes instead which of the given
// labels the states visited in the first k steps carry: when something
// happens is what leaks in online mechanisms.
//
// # Formulas
//
// dpCTL formulas are built with True, False, Label, Atom, Not, And, Or,
// Next, Until, Eventually, Globally, Prob and DP; a bound below zero makes
// Until, Eventually and Globally unbounded. Every formula is immutable.
// Unsupported returns the part of a path formula the checker cannot compute
// exactly, with the reason (§4.6): an unbounded U, F or G needs state
// formulas as operands, and may stand under X and ! and beside operands
// decided by the step at which it is reached. The checker itself returns
// ErrFormula when its progression meets such a combination, so an answer is
// always exact; Unsupported decides from the formula alone, before any work,
// and says where and why.
//
// # Example
//
// The survey (randomized response) of the paper, built by hand:
//
//	b := chain.NewBuilder()
//	pos := b.AddState("pos", chain.Valuation{{Name: "x", Value: 1}})
//	neg := b.AddState("neg", chain.Valuation{{Name: "x", Value: 0}})
//	yes := b.AddState("yes", nil, "out_Y")
//	no := b.AddState("no", nil, "out_N")
//	b.AddTransition(pos, yes, big.NewRat(3, 4))
//	b.AddTransition(pos, no, big.NewRat(1, 4))
//	b.AddTransition(neg, yes, big.NewRat(1, 4))
//	b.AddTransition(neg, no, big.NewRat(3, 4))
//	b.MarkInput(pos)
//	b.MarkInput(neg)
//	c, err := b.Build()
//	...
//	pairs := [][2]int{{pos, neg}}
//	a, err := verify.Analyze(ctx, &verify.Model{Chain: c, Neighbours: pairs})
//	tight, err := a.TightEpsilon(ctx, new(big.Rat)) // tight.Eps is ln(3)
//	ln2, _ := verify.Ln(big.NewRat(2, 1))
//	res, err := a.DP(ctx, ln2, new(big.Rat))        // violated on {yes}: 3/4 > 2·1/4
//	d, err := a.TightDelta(ctx, ln2)                // d.Delta is 1/4
//
//	m, err := verify.NewChecker(c, pairs)
//	ln3, _ := verify.Ln(big.NewRat(3, 1))
//	f := verify.DP(ln3, new(big.Rat), verify.Next(1, verify.Label("out_Y")))
//	r, err := m.Check(ctx, f) // r.Holds: D{ln(3),0}[X out_Y] at pos and neg
//
// A violated property is a result, not an error: res.Holds is false and
// res.Counterexample names the worst ordered pair, the event E*, both
// probabilities, the bound, the excess and the least ε that would hold.
//
// # Compositions
//
// NewComposition answers the same questions (the Privacy interface) for k
// independent runs of the analysed model, every run's output observed,
// without the product chain of the runs: from each ordered pair's exact
// privacy-loss distribution (Analysis.PairPLD), convolved k times
// (PLD.Compose), §2.11. Its results equal an Analysis of the product chain;
// their events are described by privacy loss (Witness.Loss), and
// Checked.Runs and Checked.LossValues say what was computed:
//
//	c, err := verify.NewComposition(ctx, a, 1000, verify.CompositionOptions{})
//	d, err := c.TightDelta(ctx, ln2) // exact δ of 1000 runs at ε = ln 2
//
// A pair whose distribution over the runs would have more than
// CompositionOptions.MaxLossValues distinct loss values is refused with a
// *LossLimitError that gives the count, and one whose products of masses
// are estimated to take more than CompositionOptions.MaxWork word
// operations with a *WorkLimitError that gives the estimate: both are
// known from the loss values of every step, counted before any mass is
// multiplied.
//
// # Exactness
//
// Probabilities, δ and probability bounds are *big.Rat. An Eps is
// k·ln(r) + q, or +∞, built with Ln, MulLn, Rational, LnPlus or Inf;
// comparisons against c = e^ε are exact: x ≤ r^(p/m) is decided as
// x^m ≤ r^p, and a rational part q ≠ 0 makes e^ε transcendental, so such a
// comparison is never a tie and is decided by certified bounds refined until
// they separate (§3.2). A value that involves an irrational c, such as the
// tight δ, is a Real A + B·e^ε. Floating point is used only by a filter that
// provably cannot change an answer (approx.go, §3.4) and for the decimals
// that Float methods return for display.
//
// Results and the *big.Rat values they hold are read-only: they may be
// shared with the Analysis or the Checker. Copy them (big.Rat.Set) before
// changing them.
//
// # Concurrency
//
// An Analysis is safe for concurrent use, and Eps, Real, Output and Formula
// values are immutable. A Checker is not safe for concurrent use: it
// memoises as it goes; use one per goroutine. Long computations spread the
// ordered pairs over GOMAXPROCS goroutines themselves; a panic in one of
// them is re-raised in the caller's goroutine.
//
// # Cancellation and progress
//
// Every call that can take long takes a context.Context and returns its
// error, unchanged, when it ends: Analyze, the Analysis methods except
// PairProfile, NewComposition and the Composition and PLD methods that
// compute, the Checker methods and Equivalent. WithProgress attaches a
// function that receives Progress reports (a stage, items done, items in
// all); it may be called from several goroutines at once and should be
// cheap. The package never prints.
//
// # Errors
//
// Errors are for what cannot be answered, never for a violated property.
// ErrModel wraps malformed models (a neighbour pair that names a non-input,
// a relation relating no two inputs, too many trace prefixes, runs that may
// never end in a composition, distributions over MaxDistributionBytes), ErrLossValues a composition over its
// limits, ErrParam bad parameters (ε < 0 or infinite, δ outside [0, 1]),
// ErrEps an ε that is malformed or cannot be compared within the precision
// limits, and ErrFormula a formula the checker cannot compute exactly (§5).
package verify
