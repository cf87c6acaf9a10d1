package main

import (
	"fmt"
	"strings"
)

// manyStatements is a file of n checks of the survey.
func manyStatements(n int) string {
	return "model survey()\n" + strings.Repeat("check dp(eps = ln(3))\n", n)
}

// manyInitialStates is a PRISM model with n initial states that never move.
func manyInitialStates(n int) string {
	return fmt.Sprintf("dtmc\nmodule m\n  s : [0..%d];\n  [] true -> true;\nendmodule\ninit true endinit\n", n-1)
}

// The command line, and what a large or slow model asks of the machine.
func init() {
	attacks = append(attacks, []attack{
		{name: "a passing file", files: map[string]string{"m.dp": "model survey()\ncheck dp(eps = ln(3))\n"}, args: []string{"m.dp"}, exit: 0, want: []string{"1 passed"}},
		{name: "cli: 100 000 statements are checked and reported", files: map[string]string{"m.dp": manyStatements(100_000)}, args: []string{"m.dp"},
			exit: 0, want: []string{"1 file, 100000 statements: 100000 passed, 0 failed"}},
		{name: "cli: the profile of α = 999/1000, n = 2000 under --timeout 5s", files: map[string]string{"m.dp": "model truncated_geometric(alpha = 999/1000, n = 2000)\nquery profile\n"},
			args: []string{"--timeout", "5s", "m.dp"}, exit: 3, want: []string{"dpcheck: stopped after 5s (--timeout)"}},
		{name: "cli: the geometric mechanism at n = 5000, checked in full", files: map[string]string{"m.dp": "model truncated_geometric(alpha = 1/2, n = 5000)\ncheck dp(eps = ln(2))\nquery eps(delta = 0) expect ln(2)\ncheck dp(eps = ln(3/2)) expect violated\n"},
			args: []string{"--max-transitions", "30000000", "--max-memory", "2GiB", "m.dp"}, exit: 0, want: []string{"25015002 transitions", "3 passed"}},
		{name: "cli: above threshold, n = 100, k = 100: distributions past the memory limit", files: map[string]string{"m.dp": "model above_threshold(n = 100, k = 100)\nquery eps(delta = 0)\n"},
			args: []string{"--max-memory", "1GiB", "m.dp"}, exit: 3, want: []string{"stopped: the check held", "the limit is 1 GiB (raise it with --max-memory)"}},
		{name: "cli: 100 000 initial states, a probability query", files: map[string]string{"m.prism": manyInitialStates(100_000), "p.pctl": "P=? [ F s=3 ]\n"},
			args: []string{"m.prism", "p.pctl"}, exit: 0, want: []string{"100000 inputs, 4999950000 neighbouring pairs", "1 passed"}},
		{name: "cli: 100 000 initial states, a D check", files: map[string]string{"m.prism": manyInitialStates(100_000), "p.pctl": "D{0,0}[ X s=3 ]\n"},
			args: []string{"m.prism", "p.pctl"}, exit: 3, want: []string{"relating every two of the 100000 inputs (4,999,950,000 neighbouring pairs) would need about 74.5 GiB of memory", "(raise it with --max-memory)"}},
		{name: "cli: --max-memory of no size", files: map[string]string{"m.dp": "model survey()\ncheck dp(eps = ln(3))\n"}, args: []string{"--max-memory", "lots", "m.dp"},
			exit: 2, want: []string{`invalid size "lots": write bytes with an optional unit, as 4GiB, 512MiB or 100000`}},
		{name: "cli: --max-memory 0", files: map[string]string{"m.dp": "model survey()\ncheck dp(eps = ln(3))\n"}, args: []string{"--max-memory", "0", "m.dp"},
			exit: 2, want: []string{"--max-memory", "must be positive"}},
		{name: "cli: --max-memory of 10^30 bytes", files: map[string]string{"m.dp": "model survey()\ncheck dp(eps = ln(3))\n"}, args: []string{"--max-memory", "1000000000000000000000000000000", "m.dp"},
			exit: 2, want: []string{`size "1000000000000000000000000000000" is too large`}},
	}...)
}
