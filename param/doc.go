// Package param verifies differential privacy for every value of one
// parameter: a Markov chain whose transition probabilities are rational
// functions of α (poly.RatFunc) over an interval I with rational ends, and a
// claim dp(ε(α), δ(α)) decided exactly for all α ∈ I at once — holds
// everywhere, or the exact region where it holds with a rational α where it
// fails and verify's counterexample on the chain instantiated there.
//
// The model. A Chain is a frame (a *chain.Chain holding the states: names,
// valuations, labels, inputs) with parametric sparse rows and unordered
// neighbour pairs of inputs. New checks that every row sums to the constant
// 1 as a rational function and that every probability is positive on the
// whole of I (poly.WhereRat and poly.Limits.Witness: the error names the
// state, the target and an exact α where the probability is ≤ 0). So the
// graph of the chain is the same for every α ∈ I, and Instantiate(α) is an
// ordinary chain for verify.
//
// Output distributions (Analyze). Outputs are the absorbing states (as
// verify.FinalState observes them), or with AnalyzeVar a variable's final
// value (as verify.FinalVar: states with the same value are one output).
// From each input of a pair: when the
// reachable states are acyclic but for self-loops, the mass is propagated
// in topological order (one product and sum of rational functions per
// transition, a self-loop of probability q divided out: the mass moves on
// in proportion to p(u,t)/(1 − q), 1 − q positive on I as the sum of the
// other probabilities), for any number of states; otherwise
// state elimination over rational functions removes every transient state
// u, p(v,w) += p(v,u)·p(u,w)/(1 − p(u,u)), for at most
// MaxEliminationStates reachable states and within Chain.MaxEliminationWork. Every reachable state must reach
// an absorbing state.
//
// DP for every α. With c(α) = e^ε > 0 on I (−ln α is c = 1/α, ln 3 is
// c = 3) and δ(α) ≥ 0, the claim is Σ_o max(0, g_o) ≤ δ for every ordered
// pair (s, t), g_o = Pr_s(o) − c·Pr_t(o). I is cut at the real roots of the
// g_o: of the polynomials Ns·Dt·Dc − Nc·Nt·Ds (numerators N, denominators
// D; the denominators have no root in I, which Analyze and DP check, so g_o
// has that polynomial's sign up to a constant one), with their factor α^k
// taken out and equal ones isolated once (Sturm sequences and root
// isolation in poly); on
// each open gap between cuts the set E = {o : g_o > 0} is constant, found at
// one rational point of the gap, and the hockey-stick is the rational
// function Σ_{o∈E} g_o. Since the hockey-stick is continuous and every such
// sum is below it, it equals the largest of the gap sums at every α of I,
// cut points included; so the claim holds exactly on the intersection over
// pairs and distinct gap sets E of {α : Σ_{o∈E} g_o − δ ≤ 0}, a poly.Region
// with algebraic ends (printed exactly or in decimals). Its witness is the
// simplest rational outside (poly.Limits.Witness), checked by verify at
// ε = ln c(α_w) (exact.Ln) when c(α_w) ≥ 1.
//
// Tight ε and δ. At δ = 0 the tight e^ε is the largest ratio
// Pr_s(o)/Pr_t(o); the distinct ratios' upper envelope is computed by a
// sweep (the largest ratio at a rational point stays largest up to its
// nearest roots of its differences with the others), after dropping the
// ratios that another exceeds on the whole interval (prune.go); pieces
// with the same function merge, so one ratio that dominates everywhere is
// one piece (ε = ln(1/α) for the geometric mechanism). An output reached
// from s but not t gives ε = +∞ on all of I (supports do not depend on α).
// The tight δ at a given c is the envelope of all gap sums (and 0).
//
// Limits and cost. Every long loop takes a context.Context. The polynomial
// algebra is bounded by the chain's poly.Limits (degree and coefficient
// bits, *poly.LimitError); MaxEliminationStates bounds cyclic chains, and
// Chain.MaxEliminationWork the coefficient operations their elimination
// is estimated to take, from every input, before any is made
// (*EliminationLimitError; the estimate follows the elimination on the
// graph with bounds on the degrees, within twice the work on random walks).
// An envelope takes any number of candidate functions: prune keeps those
// that no "champion" (a largest one at one of 16 rational points) exceeds
// everywhere, proved by Descartes' rule of signs on their difference
// rather than by root isolation, and the sweep skips the isolation the same
// way for differences without a root (report-noisy-max over three queries
// has 643 ratios at δ = 0 and keeps 2, whose envelope takes a few
// milliseconds; 1881 ratios over four answers keep 2). For the truncated
// geometric mechanism over {0..n} (degree n + 1, 2n ordered pairs of n + 1
// outputs) the cost grows about as n², the number of probabilities: each is
// α^k·(1 − α)/(1 + α), two coefficients in poly's representation whatever
// k is; a gap's set E is read from the signs of the short sign polynomials
// and of the denominators at its rational point, cached by polynomial and
// point, never by evaluating a probability; gap sums add their numerators
// into one accumulator (poly.Sum); and a ratio whose sides differ by a
// constant and a power of α needs no GCD. At n = 20, 100, 500 building
// (validation) takes 2 ms, 25 ms, 0.4 s, dp(ln 3, 0) for every α 9 ms,
// 0.15 s, 3.0 s and the tight ε 3 ms, 81 ms, 1.5 s (bench_test.go, one
// core). Root isolation and regions are a few per cent: the α^k factoring
// leaves a handful of distinct sign polynomials.
//
// FromBuilder makes a catalogue builder's model for every value of one of
// its arguments (builder.Def.ParamArgs): the builder writes its rows once,
// generic over the number field, and they are made here over the rational
// functions of the parameter, so that the parametric chain is the
// builder's chain at every parameter value.
//
// Equivalence for every α (Equivalent): two chains have the same output
// distributions at every α of the interval exactly when, input by input and
// output by output (matched as verify.Equivalent matches them), their
// probabilities are the same rational function — two rational functions
// equal at infinitely many points are equal identically, and the canonical
// reduced form decides that. When they differ, the simplest rational of
// the interval that is not a root of the difference is a value where the
// models differ. Constant makes an ordinary chain a parametric one, to
// compare a model without the parameter.
//
// The package has no state and prints nothing.
package param
