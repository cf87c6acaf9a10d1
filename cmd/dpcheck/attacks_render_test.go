package main

import (
	"strconv"
	"strings"
)

// The renderings: names, labels and file names an attacker wrote, in every
// format and picture, and what a CI job does with the outputs (pictures
// of large chains, no Graphviz, a full disk, a job summary).

// hostileChain is a .dp file whose state names and labels would, written
// raw, run a workflow command in a CI log (a newline then "::error", a
// leading "::", the legacy "##["), clear a terminal, rewrite a line or
// reverse it (ESC[2J, CR, U+202E), end Graphviz's input (NUL), or render
// as Markdown and HTML.
var hostileChain = func() string {
	q := strconv.Quote
	a, b, c := "a\n::error file=x::owned", "b\x1b[2J\x00\r\u202e", "::warning::lead ##[error]old"
	md := "<img src=x onerror=alert(1)>[link](http://evil.example)"
	return strings.Join([]string{
		"chain {",
		"  state " + q(a) + " (x = 1) [" + q(md) + "]",
		"  state " + q(b) + " (x = 0)",
		"  state " + q(c) + " [out]",
		"  state no",
		"  " + q(a) + " -> " + q(c) + " : 3/4, no : 1/4",
		"  " + q(b) + " -> " + q(c) + " : 1/4, no : 3/4",
		"}",
		"inputs " + q(a) + ", " + q(b),
		"neighbours " + q(a) + " ~ " + q(b),
		"check dp(eps = ln(2))",
		"query P=?[X " + q(md) + "]",
	}, "\n") + "\n"
}()

// rawForbidden are what no output may hold raw: the escape, NUL, CR and
// U+202E (the runner checks that no line is a workflow command dpcheck did
// not write).
var rawForbidden = []string{"\x1b", "\x00", "\r", "\u202e", "##[error]"}

func init() {
	attacks = append(attacks, []attack{
		{name: "hostile names, text", files: map[string]string{"m.dp": hostileChain}, args: []string{"m.dp"}, exit: 1,
			want:   []string{`counterexample: a\n::error file=x::owned (x=1) vs b\x1b[2J\x00\r\u202e (x=0)`, `E* = {::warning::lead ##\x5berror]old}`, `worst output                       \x3a:warning::lead`},
			forbid: rawForbidden},
		{name: "hostile names, github", files: map[string]string{"m.dp": hostileChain}, args: []string{"--format", "github", "m.dp"}, exit: 1,
			want:   []string{`::error file=m.dp,line=11,col=1,title=dpcheck%3A check dp(eps = ln(2))::violated, expected holds: a\n::error file=x::owned (x=1) vs b\x1b[2J\x00\r\u202e (x=0)`},
			forbid: rawForbidden},
		{name: "hostile names, junit", files: map[string]string{"m.dp": hostileChain}, args: []string{"--format", "junit", "m.dp"}, exit: 1,
			want:   []string{`<failure message="violated, expected holds: a\n::error file=x::owned (x=1) vs b\x1b[2J\x00\r\u202e (x=0)`, `&lt;img src=x`},
			forbid: rawForbidden},
		{name: "hostile names, json", files: map[string]string{"m.dp": hostileChain}, args: []string{"--format", "json", "m.dp"}, exit: 1,
			want:   []string{`"name": "a\n::error file=x::owned"`, `"name": "b\u001b[2J\u0000\r\u202e"`, `##\u005berror]old`},
			forbid: rawForbidden},
		{name: "hostile names, markdown", files: map[string]string{"m.dp": hostileChain}, args: []string{"--format", "markdown", "m.dp"}, exit: 1,
			want:   []string{`\<img src=x onerror=alert(1)\>\[link\](http\://evil\.example)`, "```text\nviolated, expected holds"},
			forbid: []string{"\x1b", "\x00", "\r", "\u202e", "](http://"}},
		{name: "hostile names, pictures", files: map[string]string{"m.dp": hostileChain}, args: []string{"--dot", "m.dot", "--profile", "p.svg", "m.dp"}, exit: 1,
			read: []string{"m.dot"}, want: []string{`>a\n::error file=x::owned<BR/>`, `label="::warning::lead ##[error]old\n[out]"`, `&lt;img src=x`},
			forbid: []string{"\x1b", "\x00", "\u202e"}},
		{name: "hostile file name", files: map[string]string{"evil\n::error file=y::owned\x1b[2J.dp": "model survey()\ncheck dp(eps = ln(2))\n"}, args: []string{"--format", "github", "."}, exit: 1,
			want:   []string{`::error file=evil\n%3A%3Aerror file=y%3A%3Aowned\x1b[2J.dp,line=2,col=1`},
			forbid: []string{"\x1b"}},
		{name: "hostile file name, text", files: map[string]string{"::error file=y::owned.dp": "model survey()\nchek dp(eps = ln(2))\n"}, args: []string{"::error file=y::owned.dp"}, exit: 2,
			want: []string{`\x3a:error file=y::owned.dp: 1 error`}},
		{name: "--dot on a chain over 200 states", files: map[string]string{"m.dp": "model truncated_geometric(alpha = 1/2, n = 100)\ncheck dp(eps = ln(2))\n"},
			args: []string{"--dot", "m.dot", "--profile", "p.png", "m.dp"}, exit: 0, read: []string{"m.dot"},
			want: []string{"1 passed", "dpcheck: warning: the chain of m.dp has 202 states and 10302 transitions: --dot and --svg draw a summary", "a summary: the chain has 202 states"}},
		{name: "--svg without Graphviz", files: map[string]string{"m.dp": "model survey()\ncheck dp(eps = ln(2))\n", "bin": "dir:"},
			env: []string{"PATH=$DIR/bin"}, args: []string{"--svg", "m.svg", "--dot", "m.dot", "m.dp"}, exit: 1, read: []string{"m.dot"},
			want: []string{"dpcheck: warning: no SVG: Graphviz's dot command is not installed", "digraph dpcheck {"}},
		{name: "an MDP's picture", files: map[string]string{"m.dp": "mdp module m\n  input x : [0..1];\n  y : [0..1] init 0;\n  [A] y = 0 -> 1/2 : (y' = 1) + 1/2 : true;\nendmodule\noutputs var y\nneighbours x != x'\ncheck dp(eps = 0)\n"},
			args: []string{"--dot", "m.dot", "m.dp"}, exit: 0, want: []string{"dpcheck: warning: no picture of m.dp: --dot, --svg and --profile draw a Markov chain, and its model is an MDP"}},
		{name: "--junit on a full disk", files: map[string]string{"m.dp": "model survey()\ncheck dp(eps = ln(3))\n"}, args: []string{"--junit", "/dev/full", "m.dp"}, exit: 3,
			want: []string{"1 passed", "dpcheck: error: cannot write the junit report to /dev/full: write /dev/full: no space left on device"}},
		{name: "standard output on a full disk", files: map[string]string{"m.dp": "model survey()\ncheck dp(eps = ln(3))\n"}, args: []string{"--format", "json", "m.dp"}, stdout: "/dev/full", exit: 3,
			want: []string{"dpcheck: error: cannot write the json report to standard output: write /dev/stdout: no space left on device"}},
		{name: "--markdown appends", files: map[string]string{"m.dp": "model survey()\ncheck dp(eps = ln(3))\ncheck dp(eps = ln(2))\n", "summary.md": "## an earlier step\n"},
			args: []string{"--format", "github", "--junit", "j.xml", "--json", "r.json", "--markdown", "summary.md", "m.dp"}, exit: 1, read: []string{"summary.md", "j.xml", "r.json"},
			want: []string{"-- summary.md --\n## an earlier step\n### dpcheck: 1 file, 2 statements: 1 passed, 1 failed", "| **FAIL** | m\\.dp | 3 | check dp(eps = ln(2)) |",
				`<testcase classname="m.dp" name="line 3: check dp(eps = ln(2))" time="T">`, `"status": "fail"`}},
		{name: "fmt --help", args: []string{"fmt", "--help"}, exit: 0, want: []string{"Usage: dpcheck fmt [-w] [--check] FILE|DIR|- ..."}},
	}...)
}
