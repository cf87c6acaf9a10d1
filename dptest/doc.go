// Package dptest checks the differential privacy of mechanisms written in
// Go — exact distribution functions, or samplers whose every random choice
// it explores — with exact verdicts, in tests of a few lines, in the spirit
// of net/http/httptest and testing/fstest: one import, one call per
// property. A failing test prints the counterexample the dpcheck command
// prints.
//
// # A mechanism in Go
//
// A Mechanism is over your own comparable input and output types. Give its
// inputs, which of them are neighbours, and either its exact distribution
// (Dist) or the sampler itself (Run):
//
//	func TestRandomizedResponse(t *testing.T) {
//		m := dptest.Mechanism[int, int]{
//			Inputs: []int{0, 1, 2},
//			Run: func(x int, r *dptest.Rand) int {
//				if v := r.IntN(5); v >= 3 {
//					return (x + v - 2) % 3 // a lie: each other answer with 1/5
//				}
//				return x // the truth with 3/5
//			},
//		}
//		dptest.AssertDP(t, m, exact.LnInt(3), nil) // ε = ln(3), δ = 0
//	}
//
// Neighbours nil makes every two inputs neighbours; Within(d) relates
// integers at distance at most d, OnePosition(d, coords) vectors that
// differ in one position by at most d, and AddRemoveOne(rows) databases
// that differ by one row. Inputs and outputs are shown and matched by how
// they print (%v): two distinct inputs, or outputs, that print alike are an
// error naming both. A Dist
// function's rows are checked: non-negative, summing to exactly 1; an
// error names the input.
//
// # Samplers
//
// Run draws its randomness from a *Rand — Bit, IntN, Bernoulli with an
// exact rational — so production code written against a small interface
// (interface{ Bit() bool }, interface{ IntN(int) int }) runs unchanged in
// the test. Every input's runs are explored (Explore): the sampler is
// re-executed with each sequence of choices, each with its exact
// probability, inputs in parallel, under the test's context; when the
// context ends the check returns at once, even if a sampler is stuck in a
// loop that draws nothing (its goroutine runs on until the sampler
// returns). A sampler must be a function of its choices. One that reads
// math/rand, the clock or a global is caught when a replay asks for
// another choice (or ends sooner or later), or when one of the first 64
// completed runs of an input, run a second time, returns another output;
// one that reads them only for its output in later runs is not caught. The
// error (an *InputError wrapping a *NondeterminismError, *PanicError or
// *MisuseError) names the input and the choices.
//
// A loop that ends with probability 1 but not surely — rejection sampling
// — has infinitely many runs: the Mechanism's Budget cuts them (Runs,
// Depth, MinProb), and the exact mass of what was cut is each input's
// unexplored mass. The runs are explored by iterative deepening on their
// probability (2^−8, 2^−16, … down to MinProb), keeping the deepest pass
// that completed within Runs, so the unexplored mass never rises as Runs
// grows or MinProb falls. Reuse marks a pure sub-sampler whose
// distribution is explored once and then drawn as one choice.
//
// # Verdicts with unexplored mass
//
// Every verdict is sound for every way the unexplored mass could fall. For
// inputs x and y with explored masses L_x, L_y, unexplored masses u_x, u_y
// and c = e^ε, the hockey-stick divergence of the true distributions lies
// between H(L_x‖L_y) − c·u_y and H(L_x‖L_y) + u_x. So (ε, δ)-DP
//
//   - holds when every ordered pair's upper bound is at most δ,
//   - is violated when some pair's lower bound exceeds δ — the explored runs
//     alone prove it — and
//   - is unknown otherwise: Result gives both bounds and the budget to
//     raise.
//
// What is proved is "ε-DP with δ ≤ d" (Result.DeltaBound), d the largest
// upper bound: it counts each input's unexplored mass and the excess the
// explored runs already show — at the edge of the explored runs one
// input's mass for an output may be more complete than its neighbour's —
// so it is in general larger than the unexplored mass. It never rises as
// Runs grows or MinProb falls, nor as Depth grows while the same passes
// complete (see Budget). A counterexample proved with unexplored mass shows bounds:
// Pr[E* | x] at least x's explored runs, Pr[E* | y] at most y's explored
// runs and all its unexplored mass. The numbers are computed by package
// verify on a chain where input x moves to each explored output with its
// mass and to a state "unexplored by x" of its own; nothing on the way to
// a verdict is a float.
//
// # Assertions
//
// Each assertion takes a testing.TB, reports a failed property with
// t.Error and the message the command would print, and stops the test
// with t.Fatal on a model it cannot check:
//
//   - AssertDP: (ε, δ)-DP holds.
//   - AssertNotDP: a violation is proved — a mutation test that a buggy
//     variant is caught; unknown does not pass.
//   - AssertTightEpsilon: the least ε at δ is exactly the given one, to pin
//     a mechanism's privacy; with unexplored mass only when the bounds
//     prove it.
//   - AssertSameDist: sampler correctness — a sampler's distribution
//     equals an exact one (Sampler, Exact) or another sampler's, input by
//     input; a failure gives the output where they differ most and the
//     exact total-variation distance. A sampler with unexplored mass is
//     never proved equal: the assertion fails only on a proved
//     difference, and logs within what distance they are equal.
//
// The values of ε come from package exact; exact.LnInt(3), exact.LnFrac(3,
// 2) and exact.Must(exact.LnPlus(k, r, q)) need no error check. A nil δ
// is 0.
//
// # dpcheck's models
//
// The same calls take dpcheck's own models: Builder (a
// *model.Mechanism), Chain (a chain with its neighbouring pairs and
// output space), Source and File (a .dp specification). Two models of any
// kinds can be compared with SameDist: inputs and outputs are matched on
// how they print — a chain's inputs by their valuation on the variables
// that differ between inputs ("a1=0, a2=2"), its outputs by the final
// state's name for Builder and Chain models observed by their final
// states, or by the output variable's valuation ("best=2") for a .dp
// model that declares "outputs var best" — so a Go type with a String
// method matches a chain's names. Models no output of which prints as an
// output of the other are an error that lists both sides' outputs.
//
// # Without a test
//
// CheckDP, TightEpsilon, TightDelta and SameDist return the results the
// assertions check — Result, EpsResult, DeltaResult, DistResult, each with
// a String method — for code that is not a test.
package dptest
