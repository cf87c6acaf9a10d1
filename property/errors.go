package property

import (
	"fmt"
	"sort"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/source"
)

// One function per kind of error found while preparing a program, so that
// the wording stays uniform.

func errorAt(p source.Position, format string, args ...any) *source.Error {
	return &source.Error{Pos: p, Msg: fmt.Sprintf(format, args...)}
}

// errLimit is a builder's refusal of a model over a limit, naming the call.
func errLimit(p source.Position, e *model.LimitError, call string) *source.Error {
	named := *e
	named.Builder = call
	return &source.Error{Pos: p, Msg: named.Error(), Limit: string(e.Limit)}
}

func errUnknownVar(p source.Position, name string, c *chain.Chain) *source.Error {
	return errorAt(p, "unknown variable %s%s", name, expr.KnownVars(c))
}

func errUnknownLabel(p source.Position, name string, c *chain.Chain) *source.Error {
	return errorAt(p, "unknown label %s%s", expr.DisplayName(name), expr.KnownLabels(c))
}

func errNotACondition(p source.Position, name string) *source.Error {
	return errorAt(p, "%s is a variable, not a condition: compare it (%s = …)", name, name)
}

func errSelfPair(pr Pair) *source.Error {
	return errorAt(pr.Pos, "%s ~ %s relates a state to itself", pr.A.Name, pr.B.Name)
}

func errInputLacksVar(r expr.Read, input string) *source.Error {
	return errorAt(r.Pos, "input %s has no variable %s; a neighbour predicate may only compare variables every input has", expr.DisplayName(input), r.Name)
}

func errConstantAtInputs(r expr.Read, v int64, differ []string) *source.Error {
	which := "none does"
	if len(differ) > 0 {
		which = expr.JoinLimited(differ, 8)
	}
	return errorAt(r.Pos, "%s is not an input variable: it is %d at every initial state of the model (its inputs), so comparing it cannot tell two inputs apart; a neighbour predicate compares the variables whose initial values differ (%s)", r.Name, v, which)
}

func errTooManyInputs(p source.Position, n int) *source.Error {
	return errorAt(p, "a neighbour predicate over %d inputs would try %d pairs; the limit is %d inputs (list the pairs instead)", n, n*(n-1)/2, MaxPredicateInputs)
}

func errUnknownState(r Ref, c *chain.Chain) *source.Error {
	names := make([]string, c.NumStates())
	for s := range names {
		names[s] = c.Name(s)
	}
	return errorAt(r.Pos, "unknown state %s%s", r.Name, Suggest(r.Name, names))
}

func errNotAnInput(r Ref, c *chain.Chain) *source.Error {
	return errorAt(r.Pos, "%s is not an input (inputs: %s)", expr.DisplayName(r.Name), InputNames(c))
}

// InputNames lists the chain's inputs for a message.
func InputNames(c *chain.Chain) string {
	var ns []string
	for _, s := range c.Inputs() {
		ns = append(ns, c.Name(s))
	}
	return expr.JoinLimited(ns, 8)
}

// Suggest returns " (did you mean X?)" for the name among names closest to
// name (by edit distance, at most 2), or "".
func Suggest(name string, names []string) string {
	best := Suggestions(name, names)
	if len(best) == 0 {
		return ""
	}
	return " (did you mean " + best[0] + "?)"
}

// Suggestions returns the names closest to name, at most two edits away,
// sorted (all of those at the closest distance: "modul" is as close to
// model as to module); none when no name is that close.
func Suggestions(name string, names []string) []string {
	sorted := append([]string(nil), names...)
	sort.Strings(sorted)
	var best []string
	bestD := 3
	for _, s := range sorted {
		switch d := editDistance(name, s); {
		case d < bestD:
			best, bestD = []string{s}, d
		case d == bestD && d < 3 && best[len(best)-1] != s:
			best = append(best, s)
		}
	}
	return best
}

func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if abs(len(ra)-len(rb)) > 2 {
		return 3 // farther than any suggestion
	}
	prev := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur := make([]int, len(rb)+1)
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(rb)]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
