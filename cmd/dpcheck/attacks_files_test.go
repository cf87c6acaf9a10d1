package main

import (
	"strconv"
	"strings"
)

// Files: what a .dp file may make dpcheck read (only regular files below
// its own directory, or --root), what an error quotes of a file (a short
// escaped excerpt), what a PRISM explicit file may make dpcheck allocate
// (nothing from its first line before the limits speak), and standard
// input.
func init() {
	const (
		// An explicit chain of two initial states that both reach s2: dp
		// with ε = 0 holds.
		tra  = "3 3\n0 2 1\n1 2 1\n2 2 1\n"
		lab  = "0=\"init\"\n0: 0\n1: 0\n"
		pass = "check dp(eps = 0)\n"
		esc  = "\x1b[2J\x1b[31m\x1b]8;;http://evil\x07\u202e"
	)
	explicit := func(args string) string { return "model explicit(" + args + ")\n" + pass }
	outside := "is outside the directory of m.dp: a model may only read files below it (give another root with --root DIR)"
	throughLink := "leads through a symbolic link outside the directory of m.dp: a model may only read files below it (give another root with --root DIR)"
	attacks = append(attacks, []attack{
		// Paths a .dp file names.
		{name: "files: an absolute path", files: map[string]string{"m.dp": "model prism(\"/etc/passwd\")\n" + pass},
			args: []string{"m.dp"}, exit: 2, want: []string{`m.dp:1:13: "/etc/passwd" ` + outside}, forbid: []string{"root:x:0"}},
		{name: "files: ../ out of the directory", files: map[string]string{"m.dp": "model prism(\"../outside/secret.txt\")\n" + pass},
			args: []string{"m.dp"}, exit: 2, want: []string{`m.dp:1:13: "../outside/secret.txt" ` + outside}},
		{name: "files: a/../../x", files: map[string]string{"m.dp": "model prism(\"a/../../outside/secret.txt\")\n" + pass, "a/x": ""},
			args: []string{"m.dp"}, exit: 2, want: []string{`m.dp:1:13: "a/../../outside/secret.txt" ` + outside}},
		{name: "files: a symbolic link to a file outside", files: map[string]string{"m.dp": explicit(`"m.tra", "m.lab"`), "m.tra": tra, "m.lab": "symlink:$OUT/secret.txt"},
			args: []string{"m.dp"}, exit: 2, want: []string{`m.dp:1:25: "m.lab" ` + throughLink}},
		{name: "files: a symbolic link to a directory outside", files: map[string]string{"m.dp": "model prism(\"d/secret.txt\")\n" + pass, "d": "symlink:$OUT"},
			args: []string{"m.dp"}, exit: 2, want: []string{`m.dp:1:13: "d/secret.txt" ` + throughLink}},
		{name: "files: a symbolic link to a missing file outside", files: map[string]string{"m.dp": "model prism(\"d/none.prism\")\n" + pass, "d": "symlink:$OUT"},
			args: []string{"m.dp"}, exit: 2, want: []string{`m.dp:1:13: "d/none.prism" ` + throughLink}, forbid: []string{"no such file"}},
		{name: "files: a chain of symbolic links out", files: map[string]string{"m.dp": explicit(`"m.tra", "l1.lab"`), "m.tra": tra, "l1.lab": "symlink:l2.lab", "l2.lab": "symlink:sub/l3.lab", "sub/l3.lab": "symlink:../../outside/secret.txt"},
			args: []string{"m.dp"}, exit: 2, want: []string{`m.dp:1:25: "l1.lab" ` + throughLink}},
		{name: "files: a symbolic link inside, to a file inside", files: map[string]string{"m.dp": explicit(`"t/m.tra", "m2.lab"`), "t/m.tra": tra, "data/m.lab": lab, "m2.lab": "symlink:data/m.lab"},
			args: []string{"m.dp"}, exit: 0, want: []string{"1 passed"}},
		{name: "files: /proc/self/environ through a symbolic link", files: map[string]string{"m.dp": explicit(`"m.tra", "env.lab"`), "m.tra": tra, "env.lab": "symlink:/proc/self/environ"},
			args: []string{"m.dp"}, exit: 2, want: []string{`m.dp:1:25: "env.lab" ` + throughLink}, forbid: []string{"CI_SECRET_TOKEN", "PATH="}},
		{name: "files: /dev/zero as a .lab file", files: map[string]string{"m.dp": explicit(`"m.tra", "z.lab"`), "m.tra": tra, "z.lab": "symlink:/dev/zero"},
			args: []string{"--root", "/", "m.dp"}, exit: 2, want: []string{`m.dp:1:25: "z.lab" is a device, pipe or socket: the PRISM explicit file must be a regular file`}},
		{name: "files: a named pipe as a .tra file", files: map[string]string{"m.dp": explicit(`"p.tra"`), "p.tra": "fifo:"},
			args: []string{"m.dp"}, exit: 2, want: []string{`m.dp:1:16: "p.tra" is a device, pipe or socket: the PRISM explicit file must be a regular file`}},
		{name: "files: a directory as a .tra file", files: map[string]string{"m.dp": explicit(`"d.tra"`), "d.tra": "dir:"},
			args: []string{"m.dp"}, exit: 2, want: []string{`m.dp:1:16: "d.tra" is a directory: the PRISM explicit file must be a regular file`}},
		{name: "files: --root lets a model read a sibling directory", files: map[string]string{"models/m.dp": explicit(`"../data/m.tra", "../data/m.lab"`), "data/m.tra": tra, "data/m.lab": lab},
			args: []string{"--root", ".", "models/m.dp"}, exit: 0, want: []string{"1 passed"}},
		{name: "files: a sibling directory without --root", files: map[string]string{"models/m.dp": explicit(`"../data/m.tra", "../data/m.lab"`), "data/m.tra": tra, "data/m.lab": lab},
			args: []string{"models/m.dp"}, exit: 2, want: []string{`models/m.dp:1:16: "../data/m.tra" is outside the directory of models/m.dp: a model may only read files below it (give another root with --root DIR)`}},
		{name: "files: --root does not reach outside itself", files: map[string]string{"models/m.dp": explicit(`"../data/m.tra", "../data/m.lab"`), "data/m.tra": tra, "data/m.lab": "symlink:$OUT/secret.txt"},
			args: []string{"--root", ".", "models/m.dp"}, exit: 2, want: []string{`models/m.dp:1:33: "../data/m.lab" leads through a symbolic link outside the working directory`}},
		// A directory walk.
		{name: "files: a walk meets a symbolic link to a .dp file outside", files: map[string]string{"models/a.dp": explicit(`"m.tra", "m.lab"`), "models/m.tra": tra, "models/m.lab": lab, "models/evil.dp": "symlink:$OUT/secret.txt"},
			args: []string{"models"}, exit: 2, want: []string{"models/evil.dp: error: models/evil.dp is a symbolic link to a file outside models: a directory walk does not follow it (name the file itself to check it)", "PASS  line 2"}},
		{name: "files: a walk meets a symbolic link to a directory outside", files: map[string]string{"models/a.dp": explicit(`"m.tra", "m.lab"`), "models/m.tra": tra, "models/m.lab": lab, "models/ext": "symlink:$OUT"},
			args: []string{"models"}, exit: 2, want: []string{"models/ext: error: models/ext is a symbolic link to a directory outside models: a directory walk does not follow it", "PASS  line 2"}},
		{name: "files: a walk checks a symbolic link to a .dp file inside", files: map[string]string{"models/a.dp": explicit(`"m.tra", "m.lab"`), "models/m.tra": tra, "models/m.lab": lab, "models/alias.dp": "symlink:a.dp"},
			args: []string{"models"}, exit: 0, want: []string{"models/alias.dp", "2 files, 2 statements: 2 passed"}},
		// What an error quotes.
		{name: "files: escape sequences in a .lab file", files: map[string]string{"m.dp": explicit(`"m.tra", "m.lab"`), "m.tra": tra, "m.lab": "0=\"init\"\n0: 0\n1: " + esc + "\n"},
			args: []string{"m.dp"}, exit: 2, want: []string{`m.lab:3:4: "\x1b[2J\x1b[31m\x1b]8;;http://evil\a\u202e" is not a label of the first line`, `1: \x1b[2J\x1b[31m\x1b]8;;http://evil\x07\u202e`}, forbid: []string{"\x1b", "\x07", "\u202e"}},
		{name: "files: workflow commands in a .lab file", files: map[string]string{"m.dp": explicit(`"m.tra", "m.lab"`), "m.tra": tra, "m.lab": "0=\"init\"\n::add-mask::x\n::stop-commands::pwned\n0: 0 ::set-output name=x::y\n"},
			args: []string{"--format", "github", "m.dp"}, exit: 2, want: []string{"::error file=m.lab,line=2,col=1,", "a line of a .lab file is STATE: LABEL LABEL …", `"::set-output" is not a label of the first line`}, forbid: []string{"pwned"}},
		{name: "files: a 1 MB line in a .lab file", files: map[string]string{"m.dp": explicit(`"m.tra", "m.lab"`), "m.tra": tra, "m.lab": "0=\"init\"\n0: 0\n1: " + strings.Repeat("A", 1<<20) + "\n"},
			args: []string{"m.dp"}, exit: 2, want: []string{`m.lab:3:4: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"… (1,048,576 bytes) is not a label of the first line`}, forbid: []string{strings.Repeat("A", 200)}},
		// What a .tra file's first line asks for.
		{name: "files: a 10-byte .tra file asks for 9 999 990 states", files: map[string]string{"m.dp": explicit(`"m.tra"`), "m.tra": "9999990 0\n"},
			args: []string{"m.dp"}, exit: 2, want: []string{"m.tra:1:1: reading this model would take about 2.4 GiB of memory (9,999,990 states, 0 transitions); the limit is 1 GiB (raise it with --max-memory)"}},
		{name: "files: a .tra file over --max-states", files: map[string]string{"m.dp": explicit(`"m.tra", "m.lab"`), "m.tra": "9999990 0\n", "m.lab": lab},
			args: []string{"--max-memory", "8GiB", "--max-states", "1000000", "m.dp"}, exit: 2, want: []string{"m.tra:1:1: the model has 9,999,990 states; the limit is 1,000,000 states (raise it with --max-states)"}},
		{name: "files: 30 000 initial states, every two neighbours", files: map[string]string{"m.dp": explicit(`"m.tra", "m.lab"`), "m.tra": "30000 0\n", "m.lab": initLab(30000)},
			args: []string{"m.dp"}, exit: 3, want: []string{"error: relating every two of the 30000 inputs (449,985,000 neighbouring pairs) would need about 6.7 GiB of memory; the limit is 1 GiB (raise it with --max-memory)"}},
		// The pairs are made only for a statement that compares them.
		{name: "files: 100 001 initial states and a probability query", files: map[string]string{"m.dp": "model explicit(\"m.tra\", \"m.lab\")\nquery P=?[F true] expect 1\n", "m.tra": "100001 0\n", "m.lab": initLab(100001)},
			args: []string{"m.dp"}, exit: 0, want: []string{"100001 inputs, 5000050000 neighbouring pairs", "PASS  line 2  query P=?[F true] expect 1"}},
		{name: "files: more transitions than states squared", files: map[string]string{"m.dp": explicit(`"m.tra"`), "m.tra": "3 999999999\n0 0 1\n"},
			args: []string{"m.dp"}, exit: 2, want: []string{"m.tra:1:3: 3 states can have at most 9 transitions (one from each state to each): the first line says 999,999,999"}},
		{name: "files: a negative transition count", files: map[string]string{"m.dp": explicit(`"m.tra"`), "m.tra": "3 -1\n"},
			args: []string{"m.dp"}, exit: 2, want: []string{"m.tra:1:3: the number of transitions is negative (-1)"}},
		{name: "files: an MDP's choices without transitions", files: map[string]string{"m.dp": explicit(`"m.tra"`), "m.tra": "3 5 2\n0 0 1 1\n0 1 2 1\n"},
			args: []string{"m.dp"}, exit: 2, want: []string{"m.tra:1:5: 5 choices need at least 5 transitions (one each): the first line says 2"}},
		{name: "files: fewer transitions than the first line says", files: map[string]string{"m.dp": explicit(`"m.tra"`), "m.tra": "3 5\n0 0 1\n"},
			args: []string{"m.dp"}, exit: 2, want: []string{"m.tra:1:1: the first line says the file has 5 transitions; it has 1"}},
		// Standard input.
		{name: "files: a passing model on standard input", args: []string{"-"}, stdin: "model survey()\ncheck dp(eps = ln(3))\n",
			exit: 0, want: []string{"<stdin>\n", "1 passed"}},
		{name: "files: an error on standard input", args: []string{"-"}, stdin: "model survey()\ncheck dp(eps = )\n",
			exit: 2, want: []string{"<stdin>: 1 error", "<stdin>:2:16: "}},
		{name: "files: standard input over --max-file-size", args: []string{"--max-file-size", "10", "-"}, stdin: "model survey()\ncheck dp(eps = ln(3))\n",
			exit: 2, want: []string{"<stdin> has more than 10 bytes; the limit is 10 bytes (raise it with --max-file-size)"}},
		{name: "files: standard input names a file outside the working directory", args: []string{"-"}, stdin: "model prism(\"../outside/secret.txt\")\n" + pass,
			exit: 2, want: []string{`<stdin>:1:13: "../outside/secret.txt" is outside the working directory: a model may only read files below it (give another root with --root DIR)`}},
		{name: "files: standard input names a file in the working directory", files: map[string]string{"m.tra": tra, "m.lab": lab}, args: []string{"-"}, stdin: explicit(`"m.tra", "m.lab"`),
			exit: 0, want: []string{"1 passed"}},
		{name: "files: a PRISM properties file on standard input", files: map[string]string{"m.prism": "dtmc\nmodule m\n  s : [0..1] init 0;\n  [] s = 0 -> 1/2 : (s' = 1) + 1/2 : (s' = 0);\nendmodule\n"},
			args: []string{"m.prism", "-"}, stdin: "P=? [ F s = 1 ]\n", exit: 0, want: []string{"<stdin>", "1 passed"}},
		{name: "files: standard input twice", args: []string{"-", "-"}, exit: 2, want: []string{"dpcheck: standard input (-) can be read once: give - at most once"}},
		{name: "files: dpcheck fmt -", args: []string{"fmt", "-"}, stdin: "model   survey( )\ncheck dp(eps=ln(3))\n", exit: 0, want: []string{"model survey()\ncheck dp(eps = ln(3))\n"}},
		{name: "files: dpcheck fmt -w -", args: []string{"fmt", "-w", "-"}, stdin: "model survey()\n", exit: 2, want: []string{"dpcheck fmt: -w rewrites files, and standard input (-) is none"}},
	}...)
}

// initLab is a .lab file in which the first n states are initial.
func initLab(n int) string {
	var b strings.Builder
	b.WriteString("0=\"init\"\n")
	for i := range n {
		b.WriteString(strconv.Itoa(i) + ": 0\n")
	}
	return b.String()
}
