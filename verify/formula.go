package verify

import (
	"fmt"
	"math/big"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/dpcheck/dpcheck/exact"
)

// Op is the operator of a Formula.
type Op int

// The operators of dpCTL (Liu, Wang and Zhang, APLAS 2018): PCTL plus D.
const (
	OpTrue  Op = iota // true
	OpFalse           // false
	OpLabel           // a label of the state
	OpAtom            // a condition on the state's variables, such as d = 3
	OpNot             // !φ
	OpAnd             // φ & ψ & …
	OpOr              // φ | ψ | …
	OpNext            // X^K φ (K ≥ 1)
	OpUntil           // φ U ψ, or φ U<=K ψ when K ≥ 0
	OpProb            // P~p[ψ]
	OpDP              // D{ε,δ}[ψ]
	// OpSteady is PRISM's S[φ] as a path-like operand of P: its
	// "probability" at a state is the long-run fraction of time spent in
	// φ-states (P~p[S[φ]] is S~p[φ]); φ is a state formula, and S stands
	// alone under P.
	OpSteady
	// OpExists is E[ψ]: some path from the state satisfies ψ (PRISM's E,
	// over the transition graph, probabilities aside).
	OpExists
	// OpForall is A[ψ]: every path from the state satisfies ψ.
	OpForall
)

// MaxFormulaText bounds the text of a formula quoted in an explanation:
// longer formulas are cut and end in "…".
const MaxFormulaText = 1000

// Formula is a dpCTL state or path formula. Build formulas with the
// constructors (True, Label, Atom, Not, And, Or, Next, Until, Eventually,
// Globally, Prob, DP); a Formula is immutable.
//
// Path formulas may nest X and bounded operators freely, LTL style
// (X (out_Y & X out_Y)); an unbounded U, F or G needs state formulas as
// operands, may stand under X and !, and beside other operands only when
// they are decided by the step at which it is reached (see Unsupported).
type Formula struct {
	Op   Op
	Name string // label, or the text of an atom
	Args []*Formula
	K    int // X^K; the bound of U (-1: unbounded)
	// Lo is U's lower time bound: l U[Lo,K] r holds when r holds at some
	// step i with Lo ≤ i ≤ K (no upper bound when K < 0) and l at every
	// step before it (PRISM's F>=k, F[a,b], F=k, U[a,b]).
	Lo    int
	Cmp   string
	Bound *big.Rat  // P's bound
	Eps   exact.Eps // D's ε
	Delta *big.Rat  // D's δ
	eval  func(s int) (bool, error)
}

// True is the formula that always holds.
func True() *Formula { return &Formula{Op: OpTrue} }

// False is the formula that never holds.
func False() *Formula { return &Formula{Op: OpFalse} }

// Label holds at states carrying label l.
func Label(l string) *Formula { return &Formula{Op: OpLabel, Name: l} }

// Atom is a condition on a state's variables; text is how it is written
// (d >= 2) and eval decides it at a state.
func Atom(text string, eval func(s int) (bool, error)) *Formula {
	return &Formula{Op: OpAtom, Name: text, eval: eval}
}

// Not negates a formula.
func Not(f *Formula) *Formula { return &Formula{Op: OpNot, Args: []*Formula{f}} }

// And is the conjunction of fs.
func And(fs ...*Formula) *Formula { return &Formula{Op: OpAnd, Args: fs} }

// Or is the disjunction of fs.
func Or(fs ...*Formula) *Formula { return &Formula{Op: OpOr, Args: fs} }

// Next is X^k f: f holds after k steps (k ≥ 1).
func Next(k int, f *Formula) *Formula { return &Formula{Op: OpNext, K: k, Args: []*Formula{f}} }

// Until is l U r (bound < 0) or l U<=bound r.
func Until(l, r *Formula, bound int) *Formula { return UntilFrom(l, r, 0, bound) }

// UntilFrom is l U[lo,bound] r: r at a step i with lo ≤ i ≤ bound (no
// upper bound when bound < 0) and l at every step before it; lo ≥ 0, and
// lo ≤ bound unless bound < 0.
func UntilFrom(l, r *Formula, lo, bound int) *Formula {
	return &Formula{Op: OpUntil, K: bound, Lo: lo, Args: []*Formula{l, r}}
}

// Eventually is F f = true U f (F<=bound f when bound ≥ 0).
func Eventually(f *Formula, bound int) *Formula { return Until(True(), f, bound) }

// Globally is G f = !F !f (G<=bound f when bound ≥ 0).
func Globally(f *Formula, bound int) *Formula { return Not(Eventually(Not(f), bound)) }

// Exists is E[path]: some path from the state satisfies path.
func Exists(path *Formula) *Formula { return &Formula{Op: OpExists, Args: []*Formula{path}} }

// Forall is A[path]: every path from the state satisfies path.
func Forall(path *Formula) *Formula { return &Formula{Op: OpForall, Args: []*Formula{path}} }

// Steady is S[f]: the long-run fraction of time in f-states, as the path
// of P (Prob("=", …) is not needed: Checker.Prob returns its vector).
func Steady(f *Formula) *Formula { return &Formula{Op: OpSteady, Args: []*Formula{f}} }

// Prob is P~bound[path] with cmp one of < <= > >=.
func Prob(cmp string, bound *big.Rat, path *Formula) *Formula {
	return &Formula{Op: OpProb, Cmp: cmp, Bound: bound, Args: []*Formula{path}}
}

// DP is D{eps,delta}[path]: it holds at s iff for every neighbour t of s,
// Pr_s(path) ≤ e^ε·Pr_t(path) + δ and Pr_t(path) ≤ e^ε·Pr_s(path) + δ — the
// paper's single-event property, weaker than dp(ε, δ) for δ > 0. A state
// without neighbours satisfies it.
func DP(eps exact.Eps, delta *big.Rat, path *Formula) *Formula {
	return &Formula{Op: OpDP, Eps: eps, Delta: delta, Args: []*Formula{path}}
}

// IsState reports whether f is a state formula: no temporal operator
// outside P and D.
func (f *Formula) IsState() bool {
	switch f.Op {
	case OpNext, OpUntil, OpSteady:
		return false
	case OpNot, OpAnd, OpOr:
		for _, a := range f.Args {
			if !a.IsState() {
				return false
			}
		}
	}
	return true
}

// Uses reports whether the operator op occurs anywhere in f.
func (f *Formula) Uses(op Op) bool {
	return f.Op == op || slices.ContainsFunc(f.Args, func(a *Formula) bool { return a.Uses(op) })
}

// String writes the formula in the .dp syntax.
func (f *Formula) String() string { return f.Text(-1) }

// Text writes the formula in the .dp syntax, cut to about limit bytes and
// ended with "…" when it is longer (limit < 0: no limit).
func (f *Formula) Text(limit int) string {
	b := &fwriter{limit: limit}
	f.write(b)
	s := b.String()
	if limit >= 0 && len(s) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// fwriter is a strings.Builder that stops taking text past a limit.
type fwriter struct {
	strings.Builder
	limit int
}

func (b *fwriter) full() bool { return b.limit >= 0 && b.Len() > b.limit }

// paren writes f, in parentheses when it is binary; prefix operators (!,
// X, F, G, P, D) bind tighter than &, | and U and need none.
func paren(b *fwriter, f *Formula) {
	if f.Op == OpAnd || f.Op == OpOr || f.Op == OpUntil && f.Args[0].Op != OpTrue {
		b.WriteByte('(')
		f.write(b)
		b.WriteByte(')')
		return
	}
	f.write(b)
}

// write writes f in the .dp syntax; each node is written once, so the
// text takes time linear in its length.
func (f *Formula) write(b *fwriter) {
	if b.full() {
		return
	}
	switch f.Op {
	case OpTrue:
		b.WriteString("true")
	case OpFalse:
		b.WriteString("false")
	case OpLabel:
		if isIdent(f.Name) && !slices.Contains(formulaWords, f.Name) {
			b.WriteString(f.Name)
		} else {
			fmt.Fprintf(b, "%q", f.Name)
		}
	case OpAtom:
		b.WriteString(f.Name)
	case OpNot:
		// G and G<=k print as themselves.
		if g := f.Args[0]; g.Op == OpUntil && g.Args[0].Op == OpTrue && g.Args[1].Op == OpNot {
			b.WriteString("G" + bound(g.Lo, g.K) + " ")
			paren(b, g.Args[1].Args[0])
			return
		}
		b.WriteString("!")
		if g := f.Args[0]; g.Op == OpAtom && strings.ContainsAny(g.Name, " <>=") {
			b.WriteString("(" + g.Name + ")") // !(x = 3), not !x = 3
			return
		}
		paren(b, f.Args[0])
	case OpAnd, OpOr:
		sep := " & "
		if f.Op == OpOr {
			sep = " | "
		}
		for i, a := range f.Args {
			if b.full() {
				return
			}
			if i > 0 {
				b.WriteString(sep)
			}
			paren(b, a)
		}
	case OpNext:
		if f.K == 1 {
			b.WriteString("X ")
		} else {
			fmt.Fprintf(b, "X^%d ", f.K)
		}
		paren(b, f.Args[0])
	case OpUntil:
		if f.Args[0].Op == OpTrue {
			b.WriteString("F" + bound(f.Lo, f.K) + " ")
			paren(b, f.Args[1])
			return
		}
		paren(b, f.Args[0])
		b.WriteString(" U" + bound(f.Lo, f.K) + " ")
		paren(b, f.Args[1])
	case OpProb:
		if g := f.Args[0]; g.Op == OpSteady { // S~p[φ]
			b.WriteString("S" + f.Cmp + f.Bound.RatString() + "[")
			g.Args[0].write(b)
			b.WriteString("]")
			return
		}
		b.WriteString("P" + f.Cmp + f.Bound.RatString() + "[")
		f.Args[0].write(b)
		b.WriteString("]")
	case OpSteady, OpExists, OpForall:
		b.WriteString(map[Op]string{OpSteady: "S", OpExists: "E", OpForall: "A"}[f.Op] + "[")
		f.Args[0].write(b)
		b.WriteString("]")
	case OpDP:
		b.WriteString("D{" + f.Eps.String() + "," + f.Delta.RatString() + "}[")
		f.Args[0].write(b)
		b.WriteString("]")
	default:
		b.WriteString("?")
	}
}

// bound writes the time bounds of U: "", "<=k", ">=lo", "=k" or
// "[lo,k]".
func bound(lo, k int) string {
	switch {
	case lo == 0 && k < 0:
		return ""
	case lo == 0:
		return fmt.Sprintf("<=%d", k)
	case k < 0:
		return fmt.Sprintf(">=%d", lo)
	case lo == k:
		return fmt.Sprintf("=%d", k)
	}
	return fmt.Sprintf("[%d,%d]", lo, k)
}

// formulaWords are identifiers that mean something else in a formula: a
// label with such a name prints quoted, so that it is told apart from the
// constant or operator (String also keys the checker's memo).
var formulaWords = []string{"true", "false", "X", "F", "G", "U", "P", "D", "E", "A", "S"}

func isIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

// Unsupported returns the part of the path formula f that dpcheck cannot
// model check exactly, and why, or nil. The checker evaluates a path
// formula by progression: state facts are decided at each step, bounded
// operators unfold, and an unbounded U, F or G (a "leaf") is solved once
// for all states by a linear system — which works when, at the step where
// the leaf is reached, it is all that remains of the formula. So an
// unbounded operator needs state formulas as operands, no bounded operator
// may contain one, and whatever stands beside it in a conjunction or
// disjunction must be decided by the step at which it is reached (state
// formulas are; X φ is decided one step later). Formulas nested in P…[…]
// and D{…}[…] are state formulas here; their own paths are checked apart.
func Unsupported(f *Formula) (*Formula, string) {
	if f.Op == OpSteady {
		if !f.Args[0].IsState() {
			return f, "S[φ] takes a state formula (labels, comparisons, P…[…])"
		}
		return nil, ""
	}
	if bad, _ := unsupported(f); bad != nil && !ltlSupported(f) && !splittable(f) {
		return f, errSplitBounded
	}
	return nil, ""
}

func unsupported(f *Formula) (*Formula, string) {
	switch {
	case f.Op == OpSteady:
		return f, "S[φ] (steady state) stands alone: S=? [φ] or S~p [φ]"
	case f.IsState():
		return nil, ""
	case f.Op == OpNext, f.Op == OpNot:
		return unsupported(f.Args[0])
	case f.Op == OpUntil && f.K < 0:
		for _, a := range f.Args {
			if !a.IsState() {
				return f, "the operands of an unbounded U, F or G must be state formulas (labels, comparisons, P…[…], D{…}[…]); use a bounded operator (F<=k, G<=k, U<=k) for the inner one"
			}
		}
		return nil, ""
	case f.Op == OpUntil:
		if f.K == 0 {
			return unsupported(f.Args[1])
		}
		for _, a := range f.Args {
			if leafDelay(a) < infinite {
				return f, "a bounded operator cannot contain an unbounded U, F or G; bound the inner one too (F<=k, G<=k, U<=k)"
			}
		}
		return nil, ""
	}
	// A conjunction or disjunction: at most one operand reaches an
	// unbounded operator, and the others are decided by then.
	leaf := -1
	for i, a := range f.Args {
		if leafDelay(a) < infinite {
			if leaf >= 0 {
				return f, "this combines two unbounded U, F or G; dpcheck computes such combinations only with bounded operators (F<=k, G<=k, U<=k)"
			}
			leaf = i
		}
	}
	if leaf < 0 {
		return nil, ""
	}
	d := leafDelay(f.Args[leaf])
	for i, a := range f.Args {
		if i != leaf && horizon(a) > d {
			return f, "this combines an unbounded U, F or G with temporal operators that look further ahead; dpcheck computes such combinations only with bounded operators (F<=k, G<=k, U<=k)"
		}
	}
	return unsupported(f.Args[leaf])
}

// infinite is the horizon of a formula with an unbounded operator.
const infinite = 1 << 62

// horizon is the number of steps after which f is decided at every state
// (infinite when it contains an unbounded operator outside P and D).
func horizon(f *Formula) int {
	switch {
	case f.IsState():
		return 0
	case f.Op == OpNext:
		return satAdd(f.K, horizon(f.Args[0]))
	case f.Op == OpUntil && f.K < 0:
		return infinite
	}
	h := 0
	for _, a := range f.Args {
		h = max(h, horizon(a))
	}
	if f.Op == OpUntil {
		h = satAdd(h, f.K)
	}
	return h
}

// leafDelay is the first step at which an unbounded operator of f can be
// reached (infinite when f has none).
func leafDelay(f *Formula) int {
	switch {
	case f.IsState():
		return infinite
	case f.Op == OpNext:
		return satAdd(f.K, leafDelay(f.Args[0]))
	case f.Op == OpUntil && f.K < 0:
		return f.Lo // l U>=lo r unfolds into l & X (…) until its leaf, at step lo
	}
	d := infinite
	for _, a := range f.Args {
		d = min(d, leafDelay(a))
	}
	return d
}

func satAdd(a, b int) int { return min(infinite, a+b) }
