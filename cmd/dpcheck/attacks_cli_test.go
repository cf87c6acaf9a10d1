package main

// The command line: flags, files and what a CI job gives dpcheck.
func init() {
	attacks = append(attacks, []attack{
		{name: "a passing file", files: map[string]string{"m.dp": "model survey()\ncheck dp(eps = ln(3))\n"}, args: []string{"m.dp"}, exit: 0, want: []string{"1 passed"}},
	}...)
}
