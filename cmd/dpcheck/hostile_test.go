package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// formulaDoubling defines f1 = f0 + f0, f2 = f1 + f1, … up to fn and uses
// fn: written out, 2^n nodes.
func formulaDoubling(n int) string {
	var b strings.Builder
	b.WriteString("formula f0 = x\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "formula f%d = f%d + f%d\n", i, i-1, i-1)
	}
	fmt.Fprintf(&b, "module m\n  input x : [0..3];\n  y : [0..3] init 0;\n  [] y = 0 -> (y' = min(f%d, 3));\nendmodule\nneighbours true\nquery eps(delta = 0)\n", n)
	return b.String()
}

// hostile are inputs a careless or hostile user may give dpcheck. Each
// gets a result or a precise error, never a crash; TestHostileInputs
// records the exit status and the first lines of what dpcheck says in
// testdata/golden/hostile.txt, the table the README's robustness section
// refers to.
var hostile = []struct {
	name string
	src  string // the file's contents, written to a .dp file (a .pctl file when model is set)
	// model, when set, is a PRISM model written to a .prism file; the
	// arguments are then MODEL FILE unless args say otherwise.
	model string
	args  []string // flags; "FILE" stands for the file, "MODEL" for the model; absent: the file last
}{
	// Not text.
	{name: "empty file", src: ""},
	{name: "only comments", src: "// nothing\n/* at all */\n"},
	{name: "NUL bytes", src: "model survey()\x00\x01"},
	{name: "binary garbage", src: "\x7fELF\x02\x01\x01\x00\x00\x00"},
	{name: "invalid UTF-8", src: "model survey()\ncheck dp(eps = ln(2)) \xff\xfe\n"},
	{name: "byte-order mark", src: "\uFEFFmodel survey()\ncheck dp(eps = ln(3))\n"},
	{name: "byte-order mark inside", src: "model survey()\n\uFEFFcheck dp(eps = ln(3))\n"},
	{name: "control character", src: "model survey()\ncheck dp(eps = ln(3))\x07\n"},
	{name: "CRLF line ends", src: "model survey()\r\ncheck dp(eps = ln(3))\r\n"},
	// Lexical slips.
	{name: "hash comment", src: "# a comment\nmodel survey()\ncheck dp(eps = ln(3))\n"},
	{name: "unterminated block comment", src: "model survey()\n/* forgot to close\ncheck dp(eps = ln(3))\n"},
	{name: "unterminated string", src: "model survey()\nneighbours \"+ ~ \"-\"\ncheck dp(eps = ln(3))\n"},
	{name: "bad escape", src: "model survey()\nneighbours \"\\q\" ~ \"-\"\ncheck dp(eps = ln(3))\n"},
	{name: "Greek omicron in a keyword", src: "mοdel survey()\ncheck dp(eps = ln(3))\n"},
	{name: "Cyrillic a in a name", src: "const аlpha = 1/2\nmodel survey()\ncheck dp(eps = ln(3))\n"},
	{name: "epsilon as a name", src: "model survey()\ncheck dp(eps = ε)\n"},
	{name: "en dash for minus", src: "model survey()\ncheck dp(eps = ln(3) – 1)\n"},
	{name: "less-or-equal sign", src: "model survey()\nneighbours |x - x'| ≤ 1\ncheck dp(eps = ln(3))\n"},
	{name: "smart quotes", src: "model survey()\nneighbours “+” ~ “-”\ncheck dp(eps = ln(3))\n"},
	{name: "non-breaking space", src: "model survey()\ncheck\u00a0dp(eps = ln(3))\n"},
	{name: "semicolon", src: "model survey();\ncheck dp(eps = ln(3))\n"},
	{name: "dollar", src: "model survey()\ncheck dp(eps = $1)\n"},
	{name: "multiplication dot accepted", src: "model survey()\ncheck dp(eps = 1·ln(3))\n"},
	{name: "infinity sign accepted", src: "model survey()\nquery eps() expect ∞\n"},
	// Syntax.
	{name: "model without call", src: "model\n"},
	{name: "unclosed call", src: "model survey(\n"},
	{name: "unclosed parenthesis", src: "model survey()\ncheck dp(eps = ln(2)\n"},
	{name: "ln without parentheses", src: "model survey()\ncheck dp(eps = ln 3)\n"},
	{name: "D with one parameter", src: "model survey()\ncheck D{ln(3)}[X out_Y]\n"},
	{name: "malformed number", src: "model survey()\ncheck dp(eps = 1.2.3)\n"},
	{name: "statement keyword missing", src: "model survey()\ndp(eps = ln(3))\n"},
	{name: "unquoted odd state name", src: "model survey()\nneighbours + ~ -\ncheck dp(eps = ln(3))\n"},
	{name: "chain without braces", src: "chain state a\n"},
	{name: "row without arrow", src: "chain {\n  state a\n  a b : 1\n}\n"},
	{name: "dangling operator", src: "model survey()\ncheck dp(eps = ln(3) +)\n"},
	{name: "named argument without value", src: "model survey(theta1 = )\n"},
	// Nesting and size.
	{name: "100 000 nested parentheses", src: "model survey()\ncheck dp(eps = " + strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000) + ")\n"},
	{name: "100 000 X", src: "model survey()\ncheck D{ln(3),0}[" + strings.Repeat("X ", 100000) + "out_Y]\n"},
	{name: "100 000 !", src: "model survey()\ncheck " + strings.Repeat("!", 100000) + "out_Y\n"},
	{name: "10 000 nested D", src: "model survey()\ncheck " + strings.Repeat("D{ln(3),0}[X ", 10000) + "out_Y" + strings.Repeat("]", 10000) + "\n"},
	{name: "100 000 minus signs", src: "model survey()\ncheck dp(eps = " + strings.Repeat("-", 100000) + "1)\n"},
	{name: "tower of powers", src: "model survey()\ncheck dp(eps = " + strings.Repeat("2^", 5000) + "1)\n"},
	{name: "nesting at the limit", src: "model survey()\ncheck dp(eps = " + strings.Repeat("(", 990) + "ln(3)" + strings.Repeat(")", 990) + ")\n"},
	{name: "a long sum", src: "model survey()\ncheck dp(eps = ln(3) + " + strings.Repeat("0 + ", 200000) + "0)\n"},
	{name: "100 000 conjuncts", src: "model survey()\ncheck " + strings.Repeat("!out_Y & ", 100000) + "true\n"},
	{name: "long line with an error at its end", src: "model survey()\ncheck dp(eps = " + strings.Repeat("1+", 50000) + "x)\n"},
	{name: "file over the size limit", src: "model survey()\ncheck dp(eps = ln(3))\n" + strings.Repeat("// padding\n", 200), args: []string{"--max-file-size", "1000"}},
	// Numbers.
	{name: "huge literal", src: "model survey(theta1 = 0." + strings.Repeat("1", 2000) + ")\ncheck dp(eps = ln(3))\n"},
	{name: "huge decimal exponent", src: "model survey(theta1 = 1e-999999)\ncheck dp(eps = ln(3))\n"},
	{name: "huge power", src: "model survey()\ncheck dp(eps = 2^100000000)\n"},
	{name: "power too many bits", src: "model survey()\ncheck dp(eps = 3^1000000)\n"},
	{name: "products past the bits limit", src: "const a = 3^500000\nconst b = a*a*a\nmodel survey()\ncheck dp(eps = ln(3))\n"},
	{name: "constants past the bits limit", src: constants(40) + "model survey()\ncheck dp(eps = ln(3))\n", args: []string{"--max-bits", "10000000"}},
	{name: "fractional power", src: "model survey(theta1 = 2^(1/2))\ncheck dp(eps = ln(3))\n"},
	{name: "division by zero", src: "model survey(theta1 = 1/(1-1))\ncheck dp(eps = ln(3))\n"},
	{name: "huge ε", src: "model survey()\ncheck dp(eps = 2000000000)\n"},
	{name: "huge ln coefficient", src: "model survey()\ncheck dp(eps = 100000*ln(2))\n"},
	{name: "ln of zero", src: "model survey()\ncheck dp(eps = ln(0))\n"},
	{name: "negative ε", src: "model survey()\ncheck dp(eps = -1)\n"},
	{name: "δ above 1", src: "model survey()\ncheck dp(eps = 0, delta = 2)\n"},
	{name: "infinite ε in a check", src: "model survey()\ncheck dp(eps = inf)\n"},
	// Models too big for the limits.
	{name: "geometric n = 10^9", src: "model truncated_geometric(alpha = 1/2, n = 1000000000)\ncheck dp(eps = ln(2))\n"},
	{name: "geometric n = 5000", src: "model truncated_geometric(alpha = 1/2, n = 5000)\ncheck dp(eps = ln(2))\n"},
	{name: "composition k = 10^6", src: "model compose(k = 1000000, model = survey())\ncheck dp(eps = ln(3))\n"},
	{name: "Laplace decision k = 10^9", src: "model laplace_decision(alpha = 1/2, k = 1000000000, hi = 1)\ncheck dp(eps = ln(2))\n"},
	{name: "Laplace decision k = 10^6", src: "model laplace_decision(alpha = 1/2, k = 1000000, hi = 1)\nquery eps(delta = 0)\n"},
	{name: "Laplace decision over 10^6 counts", src: "model laplace_decision(alpha = 999/1000, k = 100000, hi = 1000000)\ncheck dp(eps = ln(2))\n"},
	{name: "cutoff decision m = 10^9", src: "model cutoff_decision(alpha = 1/2, m = 1000000000, hi = 1)\ncheck dp(eps = ln(2))\n"},
	{name: "above threshold n = 1000", src: "model above_threshold(n = 1000, k = 8)\ncheck dp(eps = ln(2))\n"},
	{name: "explicit chain over the state limit", src: chainOf(40), args: []string{"--max-states", "20"}},
	{name: "explicit chain over the transition limit", src: chainOf(40), args: []string{"--max-transitions", "50"}},
	{name: "negative n", src: "model truncated_geometric(alpha = 1/2, n = -3)\ncheck dp(eps = ln(2))\n"},
	{name: "alpha out of range", src: "model truncated_geometric(alpha = 3/2, n = 5)\ncheck dp(eps = ln(2))\n"},
	{name: "n beyond 32 bits", src: "model truncated_geometric(alpha = 1/2, n = 99999999999)\ncheck dp(eps = ln(2))\n"},
	// Semantics.
	{name: "nothing to check", src: "model survey()\n"},
	{name: "no model", src: "check dp(eps = ln(2))\n"},
	{name: "unknown model", src: "model foo()\ncheck dp(eps = ln(2))\n"},
	{name: "unknown label", src: "model survey()\ncheck D{ln(3),0}[X out_Z]\n"},
	{name: "unknown variable", src: "model survey()\nneighbours |z - z'| <= 1\ncheck dp(eps = ln(3))\n"},
	{name: "variable missing on an input", src: "model survey()\nneighbours |x - y'| <= 1\ncheck dp(eps = ln(3))\n"},
	{name: "row not summing to 1", src: "chain {\n  state a\n  state b\n  a -> b : 1/2\n}\ninputs a, b\nneighbours a ~ b\ncheck dp(eps = 1)\n"},
	{name: "negative probability", src: "chain {\n  state a\n  state b\n  a -> b : -1/2, a : 3/2\n}\ninputs a, b\nneighbours a ~ b\ncheck dp(eps = 1)\n"},
	{name: "cyclic constants", src: "const a = b\nconst b = a\nmodel survey()\ncheck dp(eps = ln(3))\n"},
	{name: "self neighbour", src: "chain {\n  state a\n}\ninputs a\nneighbours a ~ a\ncheck dp(eps = 1)\n"},
	{name: "empty neighbour relation", src: "model survey()\nneighbours x = x'\ncheck dp(eps = ln(3))\n"},
	{name: "a bounded operator under G F", src: "model survey()\nquery P=?[G F F<=2 out_Y]\n"},
	{name: "two unbounded in a disjunction", src: "model survey()\nquery P=?[F out_Y | F out_N]\n"},
	{name: "unbounded beside X", src: "model survey()\nquery P=?[F out_Y & X out_N]\n"},
	{name: "equivalence of different inputs", src: "check equivalent(truncated_geometric(alpha = 1/2, n = 5), truncated_geometric(alpha = 1/2, n = 4))\n"},
	{name: "traces without observe", src: "model survey()\ncheck dp(eps = ln(2)) over traces(3)\n"},
	{name: "a million steps", src: "model survey()\nobserve out_Y\ncheck dp(eps = ln(2)) over traces(1000000)\n"},
	{name: "X^1000000", src: "model survey()\ncheck D{ln(3),0}[X^1000000 out_Y]\n"},
	{name: "expected probability out of range", src: "model survey()\nquery P=?[X out_Y] expect 3/2\n"},
	{name: "expected probability of a non-input", src: "model survey()\nquery P=?[X out_Y] expect Y: 1/2\n"},
	{name: "query expectation fails", src: "model survey()\nquery P=?[X out_Y] expect \"+\": 1/2\n"},
	{name: "violated check", src: "model survey()\ncheck dp(eps = ln(2))\n"},
	// Modules.
	{name: "module without endmodule", src: "module m\n  x : [0..3] init 0;\nneighbours true\nquery eps(delta = 0)\n"},
	{name: "overlapping guards", src: "module m\n  input d : [0..1];\n  x : [0..3] init 0;\n  [] x < 2 -> (x' = x + 1);\n  [] x >= 1 -> (x' = 3);\nendmodule\nneighbours true\nquery eps(delta = 0)\n"},
	{name: "update out of range", src: "module m\n  input d : [0..2];\n  x : [0..3] init 0;\n  [] x = 0 -> (x' = d + 2);\nendmodule\nneighbours true\nquery eps(delta = 0)\n"},
	{name: "module row not summing to 1", src: "module m\n  input d : [0..1];\n  x : [0..1] init 0;\n  [] x = 0 -> 1/2 : (x' = 1) + d/3 : (x' = 1);\nendmodule\nneighbours true\nquery eps(delta = 0)\n"},
	{name: "bool used as a number", src: "module m\n  input b : bool;\n  x : [0..3] init 0;\n  [] x = 0 -> (x' = b + 1);\nendmodule\nneighbours true\nquery eps(delta = 0)\n"},
	{name: "another module's variable", src: "module m\n  input x : [0..3];\n  [] x = 0 -> (y' = 1);\nendmodule\nmodule n\n  y : [0..3] init 0;\nendmodule\nneighbours true\nquery eps(delta = 0)\n"},
	{name: "log in a probability", src: "module m\n  input x : [0..3];\n  [] x = 0 -> log(2) : (x' = 1);\nendmodule\nneighbours true\nquery eps(delta = 0)\n"},
	{name: "Laplace noise", src: "module m\n  input x : [0..3];\n  [] x = 0 -> (x' ~ laplace(1, 0));\nendmodule\nneighbours true\nquery eps(delta = 0)\n"},
	{name: "input range of 10^12", src: "module m\n  input x : [0..1000000000000];\nendmodule\nneighbours |x - x'| <= 1\nquery eps(delta = 0)\n"},
	{name: "exploration over the state limit", src: "module m\n  input d : [0..99];\n  x : [0..99] init 0;\n  [] x < 99 -> 1/2 : (x' = x + 1) + 1/2 : (x' = 99);\nendmodule\nneighbours |d - d'| <= 1\nquery eps(delta = 0)\n", args: []string{"--max-states", "1000", "FILE"}},
	{name: "draw of a million values", src: "module m\n  input x : [0..1];\n  y : [0..3000000] init 0;\n  [] y = 0 -> (y' ~ uniform(1, 3000000));\nendmodule\nneighbours true\nquery eps(delta = 0)\n"},
	{name: "formulas doubling 63 times", src: formulaDoubling(63)},
	{name: "two draws of a million values", src: "module m\n  input d : [0..1];\n  x : [0..1000000] init 0;\n  y : [0..1000000] init 0;\n  [] x = 0 -> (x' ~ uniform(1, 1000000)) & (y' ~ uniform(1, 1000000));\nendmodule\nneighbours true\nquery eps(delta = 0)\n"},
	// The command line.
	{name: "MDP search over the sequence limit", src: "mdp module m\n  input d : [0..1];\n  x : [0..100] init 0;\n  [a] x < 100 -> 1/2 : (x' = x + 1) + 1/2 : (x' = x);\n  [b] x < 100 -> 1/3 : (x' = x + d) + 2/3 : (x' = x);\n  [c] x < 100 -> (x' = x);\nendmodule\nneighbours d != d'\ncheck D{0, 0}[X^60 x = 50]\ncheck dp(eps = 0) expect unknown\n", args: []string{"--max-sequences", "500", "FILE"}},
	{name: "MDP search horizon of 1", src: "mdp module m\n  input d : [0..1];\n  x : [0..100] init 0;\n  [a] x < 100 -> 1/2 : (x' = x + 1) + 1/2 : (x' = x);\n  [b] x < 100 -> 1/3 : (x' = x + d) + 2/3 : (x' = x);\n  [c] x < 100 -> (x' = x);\nendmodule\nneighbours d != d'\ncheck dp(eps = 0) expect unknown\n", args: []string{"--max-horizon", "1", "FILE"}},
	{name: "zero sequence limit", src: "model survey()\ncheck dp(eps = ln(3))\n", args: []string{"--max-sequences", "0", "FILE"}},
	{name: "flags after the file", src: "model survey()\ncheck dp(eps = ln(3))\n", args: []string{"FILE", "--format", "json"}},
	{name: "flags between files", src: "model survey()\ncheck dp(eps = ln(3))\n", args: []string{"FILE", "--timeout", "1m", "FILE"}},
	{name: "double dash", src: "model survey()\ncheck dp(eps = ln(3))\n", args: []string{"--", "FILE"}},
	{name: "unknown flag after the file", src: "model survey()\ncheck dp(eps = ln(3))\n", args: []string{"FILE", "--frobnicate"}},
	{name: "flag without value", src: "model survey()\ncheck dp(eps = ln(3))\n", args: []string{"FILE", "--timeout"}},
	{name: "bad duration", src: "model survey()\ncheck dp(eps = ln(3))\n", args: []string{"--timeout", "soon", "FILE"}},
	{name: "zero limit", src: "model survey()\ncheck dp(eps = ln(3))\n", args: []string{"--max-states", "0", "FILE"}},
	{name: "limit beyond 64 bits", src: "model survey()\ncheck dp(eps = ln(3))\n", args: []string{"--max-bits", "99999999999999999999", "FILE"}},
	{name: "unknown format", src: "model survey()\ncheck dp(eps = ln(3))\n", args: []string{"--format", "yaml", "FILE"}},
	{name: "timeout of 1ns", src: "model survey()\ncheck dp(eps = ln(3))\n", args: []string{"--timeout", "1ns", "FILE"}},
	{name: "missing file", args: []string{"no/such/file.dp"}},
	{name: "directory without .dp files", args: []string{"DIR"}},
	{name: "/dev/zero", args: []string{"/dev/zero"}},
	{name: "/dev/urandom", args: []string{"/dev/urandom"}},
	{name: "a named pipe", args: []string{"FIFO"}},
	{name: "fmt of /dev/zero", args: []string{"fmt", "/dev/zero"}},
	{name: "fmt of a broken file", src: "model survey(\n", args: []string{"fmt", "FILE"}},
	{name: "pictures of a file with errors", src: "model survey(\n", args: []string{"--dot", "DOT", "FILE"}},
	// PRISM models and properties.
	{name: "PRISM: log", model: "dtmc\nconst double e = log(10, 2);\nmodule m\n  s : [0..1];\n  [] s=0 -> 1/e : (s'=1) + 1-1/e : true;\nendmodule\n", src: "P=? [ F s=1 ]\n"},
	{name: "PRISM: mdp with an old-style filter", model: "mdp\nmodule m\n  s : [0..1];\n  [a] s=0 -> (s'=1);\n  [b] s=0 -> true;\nendmodule\n", src: "Pmax=? [ F s=1 {s=0}{max} ]\n"},
	{name: "PRISM: no model type (an MDP) with an old-style filter", model: "module m\n  s : [0..1];\n  [] s=0 -> (s'=1);\nendmodule\n", src: "Pmin=? [ F s=1 {\"init\"&s=0}{min} ]\n"},
	{name: "PRISM: rewards property without a structure", model: prismDie, src: "P=? [ F s=3 ]\nR=? [ F s=3 ]\n"},
	{name: "PRISM: reward structure no property uses", model: prismDie + "rewards \"steps\"\n  true : 1;\nendrewards\n", src: "P=? [ F s=3 ]\n"},
	{name: "PRISM: rewards", model: prismDie + "rewards \"steps\"\n  true : 1;\nendrewards\n", src: "R=? [ F s=3 ]\nR{\"steps\"}=? [ C<=100000 ]\nR=? [ S ]\n"},
	{name: "PRISM: negative reward", model: prismDie + "rewards\n  s=1 : -1/2;\nendrewards\n", src: "R=? [ F s=3 ]\n"},
	{name: "PRISM: huge reward", model: prismDie + "rewards\n  true : 1e999;\nendrewards\n", src: "R=? [ C<=3 ]\n"},
	{name: "PRISM: reward bound beyond the steps", model: prismDie + "rewards\n  true : 1;\nendrewards\n", src: "R=? [ C<=100001 ]\n"},
	{name: "PRISM: unknown variable", model: "dtmc\nmodule m\n  s : [0..1];\n  [] t=0 -> (s'=1);\nendmodule\n", src: "P=? [ F s=1 ]\n"},
	{name: "PRISM: bool where an int is needed", model: "dtmc\nmodule m\n  s : [0..2];\n  b : bool;\n  [] s=0 -> (s'=b+1);\nendmodule\n", src: "P=? [ F s=1 ]\n"},
	{name: "PRISM: int divided into an int", model: "dtmc\nmodule m\n  s : [0..4];\n  [] s<4 -> (s'=s/2+1);\nendmodule\n", src: "P=? [ F s=4 ]\n"},
	{name: "param: statement without for", src: "param alpha in (0, 1)\nmodel truncated_geometric(alpha = alpha, n = 3)\ncheck dp(eps = ln(2))\n"},
	{name: "param: for without param", src: "model survey()\nquery eps(delta = 0) for theta\n"},
	{name: "param: parameter in a chain", src: "param p in (0, 1)\nchain {\n  state a [in_a]\n  state b [in_b]\n  a -> b : p else sink\n}\ninputs a, b\nneighbours a ~ b\ncheck dp(eps = ln(2)) for p\n"},
	{name: "param: interval where a probability is negative", src: "param alpha in [1/2, 2]\nmodel truncated_geometric(alpha = alpha, n = 3)\ncheck dp(eps = -ln(alpha)) for alpha\n"},
	{name: "param: huge exponent", src: "param alpha in (0, 1)\nmodel truncated_geometric(alpha = alpha, n = 3)\ncheck dp(eps = ln(1/alpha^100000)) for alpha\n"},
	{name: "PRISM: update out of range", model: "dtmc\nmodule m\n  s : [0..2];\n  [] true -> (s'=s+1);\nendmodule\n", src: "P=? [ F s=2 ]\n"},
	{name: "PRISM: row not summing to 1", model: "dtmc\nmodule m\n  s : [0..2];\n  [] s=0 -> 0.5 : (s'=1) + 0.4 : (s'=2);\nendmodule\n", src: "P=? [ F s=2 ]\n"},
	{name: "PRISM: another module's variable", model: "dtmc\nmodule a\n  x : [0..1];\n  [go] x=0 -> true;\nendmodule\nmodule b\n  y : [0..1];\n  [go] y=0 -> (x'=1);\nendmodule\n", src: "P=? [ F x=1 ]\n"},
	{name: "PRISM: missing constant", model: "dtmc\nconst int N;\nmodule m\n  s : [0..N];\n  [] s<N -> (s'=s+1);\nendmodule\n", src: "P=? [ F s=N ]\n"},
	{name: "PRISM: constant given", model: "dtmc\nconst int N;\nmodule m\n  s : [0..N];\n  [] s<N -> (s'=s+1);\nendmodule\n", src: "P=? [ F s=N ]\n", args: []string{"MODEL", "FILE", "--const", "N=3"}},
	{name: "PRISM: constant of the wrong type", model: "dtmc\nconst int N;\nmodule m\n  s : [0..N];\n  [] s<N -> (s'=s+1);\nendmodule\n", src: "P=? [ F s=N ]\n", args: []string{"--const", "N=2.5", "MODEL", "FILE"}},
	{name: "PRISM: constant of no file", model: prismDie, src: "P=? [ F s=3 ]\n", args: []string{"--const", "K=3", "MODEL", "FILE"}},
	{name: "PRISM: malformed --const", model: prismDie, src: "P=? [ F s=3 ]\n", args: []string{"--const", "N", "MODEL", "FILE"}},
	{name: "PRISM: --const value not a number", model: prismDie, src: "P=? [ F s=3 ]\n", args: []string{"--const", "N=three", "MODEL", "FILE"}},
	{name: "PRISM: --const given twice", model: prismDie, src: "P=? [ F s=3 ]\n", args: []string{"--const", "N=1", "--const", "N=2", "MODEL", "FILE"}},
	{name: "PRISM: --const without a PRISM model", src: "model survey()\ncheck dp(eps = ln(3))\n", args: []string{"--const", "N=1", "FILE"}},
	{name: "PRISM: binary model file", model: "\x7fELF\x02\x01\x01\x00\x00\x00", src: "P=? [ F s=1 ]\n"},
	{name: "PRISM: binary properties file", model: prismDie, src: "\x00\x01P=?"},
	{name: "PRISM: huge constant", model: "dtmc\nconst int N = 123456789012345678901234567890;\nmodule m\n  s : [0..N];\nendmodule\n", src: "P=? [ F s=1 ]\n"},
	{name: "PRISM: huge power", model: "dtmc\nconst double p = pow(1/3, 1000000);\nmodule m\n  s : [0..1];\n  [] s=0 -> p : (s'=1) + 1-p : true;\nendmodule\n", src: "P=? [ F s=1 ]\n"},
	{name: "PRISM: state space over the limit", model: "dtmc\nmodule m\n  s : [0..100000];\n  [] s<100000 -> (s'=s+1);\nendmodule\n", src: "P=? [ F s=100000 ]\n", args: []string{"--max-states", "1000", "MODEL", "FILE"}},
	{name: "PRISM: model alone", model: prismDie, args: []string{"MODEL"}},
	{name: "PRISM: properties alone", src: "P=? [ F s=1 ]\n", model: prismDie, args: []string{"FILE"}},
	{name: "PRISM: missing model file", src: "P=? [ F s=1 ]\n", model: prismDie, args: []string{"no/such/model.prism", "FILE"}},
}

// prismDie is a small PRISM model: a three-sided die from fair coins.
const prismDie = "dtmc\nmodule die\n  s : [0..3];\n  [] s=0 -> 1/2 : (s'=1) + 1/2 : (s'=2);\n  [] s=1 -> 1/2 : (s'=0) + 1/2 : (s'=3);\nendmodule\n"

// chainOf is an explicit chain of n states in a line.
func chainOf(n int) string {
	var b strings.Builder
	b.WriteString("chain {\n")
	for i := range n {
		fmt.Fprintf(&b, "  state s%d (x = %d)\n", i, i)
	}
	for i := range n - 1 {
		fmt.Fprintf(&b, "  s%d -> s%d : 1/2, s%d : 1/2\n", i, i+1, n-1)
	}
	b.WriteString("}\ninputs s0, s1\nneighbours s0 ~ s1\ncheck dp(eps = 1)\n")
	return b.String()
}

// constants defines n constants of about 300 000 bits each.
func constants(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "const c%d = 3^%d\n", i, 190000+i)
	}
	return b.String()
}

// TestHostileInputs: every hostile input gets an exit status and a message
// (never a crash); the table is testdata/golden/hostile.txt.
func TestHostileInputs(t *testing.T) {
	if len(hostile) < 100 {
		t.Fatalf("only %d hostile inputs", len(hostile))
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.dp")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	var table strings.Builder
	for i, h := range hostile {
		file := filepath.Join(dir, fmt.Sprintf("h%03d.dp", i))
		model := filepath.Join(dir, fmt.Sprintf("h%03d.prism", i))
		if h.model != "" {
			file = strings.TrimSuffix(file, ".dp") + ".pctl"
			if err := os.WriteFile(model, []byte(h.model), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(file, []byte(h.src), 0o644); err != nil {
			t.Fatal(err)
		}
		args := h.args
		if h.model != "" && args == nil {
			args = []string{"MODEL", "FILE"}
		}
		if !slicesContains(args, "FILE") && !strings.HasPrefix(strings.Join(args, " "), "no/such") && !slicesContains(args, "DIR") &&
			!slicesContains(args, "FIFO") && !slicesContains(args, "/dev/zero") && !slicesContains(args, "/dev/urandom") && !slicesContains(args, "MODEL") {
			args = append(slicesClone(args), "FILE")
		}
		var argv []string
		for _, a := range args {
			switch a {
			case "FILE":
				a = file
			case "MODEL":
				a = model
			case "DIR":
				a = empty
			case "FIFO":
				a = fifo
			case "DOT":
				a = filepath.Join(dir, "out.dot")
			}
			argv = append(argv, a)
		}
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), argv, &stdout, &stderr)
		out := strings.ReplaceAll(stdout.String()+stderr.String(), dir+string(filepath.Separator), "")
		fmt.Fprintf(&table, "## %s\nexit %d\n%s\n", h.name, code, summary(out, h.src))
		if code == exitInternal || strings.Contains(out, "panic") || strings.Contains(out, "goroutine ") {
			t.Errorf("%s: an internal error: %s", h.name, out)
		}
	}
	path := filepath.Join("testdata", "golden", "hostile.txt")
	if *update {
		if err := os.WriteFile(path, []byte(table.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./cmd/dpcheck -update creates it)", err)
	}
	if got := table.String(); got != string(want) {
		t.Errorf("the hostile-input table differs from %s (-update rewrites it); got:\n%s", path, got)
	}
}

// summary keeps what a person needs of dpcheck's output: the error lines
// (with their quoted source and caret), or the verdict lines, each cut to
// 160 characters.
func summary(out, src string) string {
	var keep []string
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "model ") && len(keep) == 0 {
			continue
		}
		if r := []rune(l); len(r) > 160 {
			l = string(r[:160]) + "…"
		}
		keep = append(keep, l)
		if len(keep) == 8 {
			keep = append(keep, "…")
			break
		}
	}
	return strings.Join(keep, "\n")
}

func slicesContains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func slicesClone(xs []string) []string { return append([]string(nil), xs...) }
