package main

import (
	"fmt"
	"strings"
)

// PRISM models and .dp modules whose formulas, constants, synchronisation,
// draws, labels or variables make a few lines stand for an expression or
// a state space of any size: each is refused by the limit it reaches,
// named in the message, before dpcheck holds much more than the limit.

// prismProps is a property over the variable s of the generated models.
const prismProps = "P=? [ F s=1 ]\n"

// prismChain defines a chain of n formulas (or constants), each the
// negation of the previous one (or, with reversed, of the next one), used
// in a guard.
func prismChain(kind string, n int, reversed bool) string {
	var b strings.Builder
	b.WriteString("dtmc\n")
	decl := func(i, j int) {
		if kind == "formula" {
			fmt.Fprintf(&b, "formula f%d = -f%d;\n", i, j)
		} else {
			fmt.Fprintf(&b, "const int f%d = -f%d;\n", i, j)
		}
	}
	use := fmt.Sprintf("f%d", n)
	if reversed {
		for i := range n {
			decl(i, i+1)
		}
		fmt.Fprintf(&b, "const int f%d = 1;\n", n)
		use = "f0"
	} else {
		if kind == "formula" {
			b.WriteString("formula f0 = s;\n")
		} else {
			b.WriteString("const int f0 = 1;\n")
		}
		for i := 1; i <= n; i++ {
			decl(i, i-1)
		}
	}
	fmt.Fprintf(&b, "module m\n  s : [0..1] init 0;\n  [] %s != 2 & s = 0 -> (s'=1);\nendmodule\n", use)
	return b.String()
}

// dpChain is prismChain for a .dp file: formulas f1 = -f0, … or constants
// each defined by the next.
func dpChain(kind string, n int) string {
	var b strings.Builder
	use := fmt.Sprintf("f%d", n)
	if kind == "formula" {
		b.WriteString("formula f0 = x\n")
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "formula f%d = -f%d\n", i, i-1)
		}
	} else {
		for i := range n {
			fmt.Fprintf(&b, "const f%d = -f%d\n", i, i+1)
		}
		fmt.Fprintf(&b, "const f%d = 1\n", n)
		use = "f0"
	}
	fmt.Fprintf(&b, "module m\n  input x : [0..1];\n  y : [0..1] init 0;\n  [] y = 0 & %s != 2 -> (y' = 1);\nendmodule\nneighbours true\nquery eps(delta = 0)\n", use)
	return b.String()
}

// prismDoubling defines f1 = f0 + f0, … fn = f(n-1) + f(n-1): 2^n nodes
// written out.
func prismDoubling(n int) string {
	var b strings.Builder
	b.WriteString("dtmc\nformula f0 = s;\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "formula f%d = f%d + f%d;\n", i, i-1, i-1)
	}
	fmt.Fprintf(&b, "module m\n  s : [0..3] init 0;\n  [] s = 0 -> (s' = min(f%d, 3));\nendmodule\n", n)
	return b.String()
}

// namedDoubling names p1 = "p0" & !"p0", …: each property refers to the
// previous one twice.
func namedDoubling(n int) string {
	var b strings.Builder
	b.WriteString("\"p0\": s=1\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "\"p%d\": \"p%d\" & !\"p%d\"\n", i, i-1, i-1)
	}
	fmt.Fprintf(&b, "P=? [ F \"p%d\" ]\n", n)
	return b.String()
}

// propertyDoubling doubles formulas of a properties file.
func propertyDoubling(n int) string {
	var b strings.Builder
	b.WriteString("formula g0 = s=1;\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "formula g%d = g%d & g%d;\n", i, i-1, i-1)
	}
	fmt.Fprintf(&b, "P=? [ F g%d ]\n", n)
	return b.String()
}

// synchronising is k modules with two commands [a] each, enabled
// everywhere: 2^k combinations at every state.
func synchronising(k int, typ string) string {
	var b strings.Builder
	b.WriteString(typ + "\n")
	for i := range k {
		fmt.Fprintf(&b, "module m%d\n  x%d : [0..1] init 0;\n  [a] true -> (x%d'=0);\n  [a] true -> (x%d'=1);\nendmodule\n", i, i, i, i)
	}
	return b.String()
}

// manyLines repeats a line n times between head and tail.
func manyLines(head, line string, n int, tail string) string {
	var b strings.Builder
	b.WriteString(head)
	for i := range n {
		fmt.Fprintf(&b, line, i)
	}
	b.WriteString(tail)
	return b.String()
}

// eightDraws draws eight variables from uniform(0, 9) in one update: 10^8
// outcomes.
func eightDraws() string { return draws(8) }

// draws draws n variables from uniform(0, 9) in one update: 10^n outcomes.
func draws(n int) string {
	var b strings.Builder
	b.WriteString("module m\n  input x : [0..1];\n")
	var draws []string
	for i := range n {
		fmt.Fprintf(&b, "  y%d : [0..9] init 0;\n", i)
		draws = append(draws, fmt.Sprintf("(y%d' ~ uniform(0, 9))", i))
	}
	b.WriteString("  d : [0..1] init 0;\n  [] d = 0 -> " + strings.Join(draws, " & ") + " & (d' = 1);\nendmodule\nneighbours true\nquery eps(delta = 0)\n")
	return b.String()
}

func init() {
	const counter = "dtmc\nmodule m\n  s : [0..1000000000] init 0;\n  [] s < 1000000000 -> (s'=s+1);\nendmodule\n"
	bigConst := "dtmc\nconst int b = pow(3, 65536);\nconst int c = b*b*b*b*b*b*b;\nformula f0 = c + 1;\n"
	for i := 1; i <= 30; i++ {
		bigConst += fmt.Sprintf("formula f%d = f%d + f%d;\n", i, i-1, i-1)
	}
	bigConst += "module m\n  s : [0..1] init 0;\n  [] s < f30 -> (s'=1);\nendmodule\n"
	pm := func(model, props string) map[string]string {
		return map[string]string{"m.prism": model, "p.pctl": props}
	}
	prismArgs := []string{"m.prism", "p.pctl"}
	withArgs := func(flags ...string) []string { return append(flags, prismArgs...) }
	const depth = "nests more than 10,000 levels deep here"
	const nodes = "the expressions expand to more than 1,000,000 nodes here"
	attacks = append(attacks, []attack{
		// Formulas and constants written out: depth (a chain of 990 000
		// formulas, 26 MB, overflowed the stack; 12 000 are past the limit).
		{name: "PRISM: a chain of 12 000 formulas", files: pm(prismChain("formula", 12_000, false), prismProps), args: prismArgs, exit: 2, want: []string{depth}},
		{name: "PRISM: a constant defined through a chain of 12 000 constants", files: pm(prismChain("const", 12_000, true), prismProps), args: prismArgs, exit: 2, want: []string{depth}},
		{name: "PRISM: a chain of 100 000 constants, each defined by the previous one", files: pm(prismChain("const", 100_000, false), prismProps), args: prismArgs, exit: 0, want: []string{"s=0", "1"}},
		{name: ".dp: a chain of 12 000 formulas", files: map[string]string{"m.dp": dpChain("formula", 12_000)}, args: []string{"m.dp"}, exit: 2, want: []string{depth}},
		{name: ".dp: a constant defined through a chain of 12 000 constants", files: map[string]string{"m.dp": dpChain("const", 12_000)}, args: []string{"m.dp"}, exit: 2, want: []string{"reached through a chain of more than 10,000 constants"}},
		// Formulas and named properties written out: size.
		{name: "PRISM: formulas doubling 63 times", files: pm(prismDoubling(63), prismProps), args: prismArgs, exit: 2, want: []string{nodes}},
		{name: "PRISM: formulas doubling 63 times, --timeout 30s", files: pm(prismDoubling(63), prismProps), args: withArgs("--timeout", "30s"), exit: 2, want: []string{nodes}},
		{name: "PRISM: named properties doubling 63 times", files: pm("dtmc\nmodule m\n  s : [0..1] init 0;\n  [] s = 0 -> (s'=1);\nendmodule\n", namedDoubling(63)), args: prismArgs, exit: 2, want: []string{nodes}},
		{name: "PRISM: named properties doubling 63 times, --timeout 60s", files: pm("dtmc\nmodule m\n  s : [0..1] init 0;\n  [] s = 0 -> (s'=1);\nendmodule\n", namedDoubling(63)), args: withArgs("--timeout", "60s"), exit: 2, want: []string{nodes}},
		{name: "PRISM: formulas of a properties file doubling 63 times", files: pm("dtmc\nmodule m\n  s : [0..1] init 0;\n  [] s = 0 -> (s'=1);\nendmodule\n", propertyDoubling(63)), args: prismArgs, exit: 2, want: []string{nodes}},
		{name: "PRISM: numbers of 900 000 bits folded from constants, doubling", files: pm(bigConst, prismProps), args: prismArgs, exit: 2, want: []string{"the numbers computed from constants come to more than 4,294,967,296 bits", "--max-bits"}},
		{name: "PRISM: a 16.8 MB line of s+s+…", files: pm("dtmc\nmodule m\n  s : [0..1] init 0;\n  [] s"+strings.Repeat("+s", 1<<23)+" = 0 -> (s'=1);\nendmodule\n", prismProps), args: prismArgs, exit: 2, want: []string{"more than 8,388,608 operators, operands, declarations, commands and updates"}},
		// Synchronisation: the combinations counted before they are enumerated.
		{name: "PRISM: 27 modules synchronising on [a], two commands each", files: pm(synchronising(27, "dtmc"), "P=? [ F x0=1 ]\n"), args: prismArgs, exit: 2, want: []string{"134,217,728 combinations of one enabled command per module", "--max-transitions"}},
		{name: "PRISM: 27 modules synchronising on [a], an MDP", files: pm(synchronising(27, "mdp"), "Pmax=? [ F x0=1 ]\n"), args: prismArgs, exit: 2, want: []string{"134,217,728 combinations of one enabled command per module", "--max-transitions"}},
		{name: "PRISM: 20 modules synchronising on [a], --timeout 60s", files: pm(synchronising(20, "dtmc"), "P=? [ F x0=1 ]\n"), args: withArgs("--timeout", "60s"), exit: 2, want: []string{"1,048,576 combinations of one enabled command per module", "which would need about 1.1 GiB of memory; the limit is 1 GiB", "--max-memory"}},
		{name: "PRISM: 20 modules synchronising on [a], --max-memory 256MiB", files: pm(synchronising(20, "dtmc"), "P=? [ F x0=1 ]\n"), args: withArgs("--max-memory", "256MiB"), exit: 2, want: []string{"1,048,576 combinations of one enabled command per module", "which would need about 1.1 GiB of memory; the limit is 256 MiB", "--max-memory"}},
		// Exploration: memory estimated as states are found.
		{name: "PRISM: a counter over [0..10^9]", files: pm(counter, prismProps), args: prismArgs, exit: 2, want: []string{"exploring the model would need more than 1 GiB of memory", "--max-memory"}},
		{name: "PRISM: a counter over [0..10^9] at the default memory limit", files: pm(counter, prismProps), args: withArgs("--max-memory", "4GiB"), exit: 2, want: []string{"the model has more than 10,000,000 reachable states", "--max-states"}},
		{name: "PRISM: 100 000 labels that hold everywhere", files: pm(manyLines("dtmc\nmodule m\n  s : [0..100000] init 0;\n  [] s < 100000 -> (s'=s+1);\nendmodule\n", "label \"l%d\" = s >= 0;\n", 100_000, ""), prismProps), args: prismArgs, exit: 2, want: []string{"exploring the model would need more than 1 GiB of memory", "--max-memory"}},
		{name: "PRISM: 100 000 variables", files: pm(manyLines("dtmc\nmodule m\n  s : [0..1000000] init 0;\n", "  b%d : bool init false;\n", 100_000, "  [] s < 1000000 -> (s'=s+1);\nendmodule\n"), prismProps), args: prismArgs, exit: 2, want: []string{"exploring the model would need more than 1 GiB of memory", "--max-memory"}},
		{name: "PRISM: 100 000 unknown names beside 100 000 constants", files: pm(manyLines("dtmc\n", "const int c%d = 1;\n", 100_000, manyLines("module m\n  s : [0..1] init 0;\n", "  [] z%d = 0 -> (s'=1);\n", 100_000, "endmodule\n")), prismProps), args: prismArgs, exit: 2, want: []string{"more than 1,000 errors: the translation stops here"}},
		{name: "PRISM: init over 10^9 valuations", files: pm("dtmc\nmodule m\n  s : [0..1000000000];\n  [] true -> true;\nendmodule\ninit true endinit\n", prismProps), args: prismArgs, exit: 2, want: []string{"more than 10,000,000 valuations"}},
		// Draws: their product counted before it is enumerated.
		{name: ".dp: eight draws from uniform(0, 9) in one update", files: map[string]string{"m.dp": eightDraws()}, args: []string{"m.dp"}, exit: 2, want: []string{"the draws of this update have 100,000,000 outcomes together", "--max-transitions"}},
		{name: ".dp: seven draws from uniform(0, 9) at the default memory limit", files: map[string]string{"m.dp": draws(7)}, args: []string{"--max-memory", "4GiB", "m.dp"}, exit: 2, want: []string{"the draws of this update have 10,000,000 outcomes together", "the limit is 4 GiB (raise it with --max-memory)"}},
		{name: ".dp: eight draws from uniform(0, 9), --max-transitions 10^12", files: map[string]string{"m.dp": eightDraws()}, args: []string{"--max-transitions", "1000000000000", "m.dp"}, exit: 2, want: []string{"the draws of this update have 100,000,000 outcomes together", "which would need about 58.1 GiB of memory; the limit is 1 GiB", "--max-memory"}},
	}...)
}
