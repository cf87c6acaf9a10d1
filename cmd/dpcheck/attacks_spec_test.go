package main

// The .dp front end: neighbour predicates that compare what is not input
// data, the envelope of many candidate functions for every parameter value,
// named draw arguments against comparisons, the size of a power, and the
// errors of a new user's slips.
func init() {
	const histogram = "module histogram\n  input h1 : [0..3];\n  input h2 : [0..3];\n  r1 : [0..3] init 0;\n  r2 : [0..3] init 0;\n  done : bool init false;\n" +
		"  [] !done -> (r1' ~ geometric(1/2, h1, 0, 3)) & (r2' ~ geometric(1/2, h2, 0, 3)) & (done' = true);\nendmodule\noutputs var r1, r2\n"
	const rr = "dtmc\nconst double p;\nmodule survey\n  truth : bool;\n  answer : [0..2];\n" +
		"  [] answer=0 & truth -> p + (1-p)/2 : (answer'=1) + (1-p)/2 : (answer'=2);\n" +
		"  [] answer=0 & !truth -> (1-p)/2 : (answer'=1) + p + (1-p)/2 : (answer'=2);\nendmodule\ninit answer=0 endinit\n"
	const draw = "module m\n  input d : [0..2];\n  i : [0..1] init 1;\n  y : [-1..2] init -1;\n  [] y = -1 -> (y' ~ geometric(1/2, i = 1 ? d : 0, 0, 2));\nendmodule\noutputs var y\nneighbours |d - d'| <= 1\n"
	// models/noisy_max_value_param.dp without its comments.
	const noisyMax = "param alpha in (0, 1)\nmodule noisy_max\n  input a1 : [0..2];\n  input a2 : [0..2];\n  input a3 : [0..2];\n" +
		"  n1 : [-3..5] init -3;\n  n2 : [-3..5] init -3;\n  n3 : [-3..5] init -3;\n  drawn : bool init false;\n  out : [0..27] init 0;\n" +
		"  [] !drawn -> (n1' ~ geometric(alpha, a1, -3, 5)) & (n2' ~ geometric(alpha, a2, -3, 5)) & (n3' ~ geometric(alpha, a3, -3, 5)) & (drawn' = true);\n" +
		"  [] drawn & out = 0 -> (out' = (n1 >= n2 & n1 >= n3 ? 0 : (n2 >= n3 ? 9 : 18)) + max(n1, n2, n3) + 4);\nendmodule\noutputs var out\n" +
		"neighbours |a1 - a1'| <= 1 & |a2 - a2'| <= 1 & |a3 - a3'| <= 1\ncheck dp(eps = -3*ln(alpha)) for alpha expect holds\n" +
		"check dp(eps = -2*ln(alpha)) for alpha expect violated\nquery eps(delta = 0) for alpha expect ln(1/alpha^3)\n"
	attacks = append(attacks, []attack{
		{name: "spec: neighbours over a module's outputs", files: map[string]string{"h.dp": histogram + "neighbours |r1 - r1'| + |r2 - r2'| <= 1\ncheck dp(eps = ln(2))\n"},
			args: []string{"h.dp"}, exit: 2, want: []string{"h.dp:10:13: r1 is not an input variable", "(input variables: h1, h2)", "h.dp:10:26: r2 is not an input variable"}},
		{name: "spec: neighbours over a module's inputs", files: map[string]string{"h.dp": histogram + "neighbours |h1 - h1'| + |h2 - h2'| = 1\ncheck dp(eps = ln(2))\n"},
			args: []string{"h.dp"}, exit: 0, want: []string{"1 passed"}},
		{name: "spec: neighbours over a PRISM model's answer", files: map[string]string{"rr.prism": rr,
			"m.dp": "model prism(\"rr.prism\", p = 1/2)\noutputs var answer\nneighbours |answer - answer'| <= 1\ncheck dp(eps = ln(3))\n"},
			args: []string{"m.dp"}, exit: 2, want: []string{"m.dp:3:13: answer is not an input variable: it is 0 at every initial state", "(truth)"}},
		{name: "spec: noisy max for every alpha, 123 candidate ratios", files: map[string]string{"nm.dp": noisyMax},
			args: []string{"nm.dp"}, exit: 0, want: []string{"ε = ln(1/alpha^3) for alpha in (0, 1)", "3 passed"}},
		{name: "spec: a comparison in a draw's arguments", files: map[string]string{"d.dp": draw + "query eps(delta = 0) expect ln(2)\n"},
			args: []string{"d.dp"}, exit: 0, want: []string{"ε = ln(2)", "1 passed"}},
		{name: "spec: a misspelt draw argument", files: map[string]string{"d.dp": "module m\n  input d : [0..2];\n  y : [-1..2] init -1;\n  [] y = -1 -> (y' ~ geometric(alpah = 1/2, centre = d, lo = 0, hi = 2));\nendmodule\noutputs var y\nneighbours |d - d'| <= 1\ncheck dp(eps = ln(2))\n"},
			args: []string{"d.dp"}, exit: 2, want: []string{"d.dp:4:32: geometric has no argument alpah (did you mean alpha?)"}},
		{name: "spec: 2^600000 under the bits limit, 2^1048576 over it", files: map[string]string{"a.dp": "const a = 2^600000\nmodel survey()\ncheck dp(eps = ln(3))\n",
			"b.dp": "const b = 2^1048576\nmodel survey()\ncheck dp(eps = ln(3))\n"},
			args: []string{"a.dp", "b.dp"}, exit: 2, want: []string{"a.dp\n", "b.dp:1:11: 2^1048576 would have 1,048,578 bits; the limit is 1,048,576", "2 files, 1 statement: 1 passed"}},
		{name: "spec: endmodul", files: map[string]string{"m.dp": "module m\n  input d : [0..1];\n  y : [0..1] init 0;\n  [] y = 0 -> (y' = 1);\nendmodul\noutputs var y\nneighbours d != d'\ncheck dp(eps = ln(2))\n"},
			args: []string{"m.dp"}, exit: 2, want: []string{`m.dp:5:1: unexpected "endmodul" (did you mean endmodule?)`}},
		{name: "spec: output for outputs", files: map[string]string{"m.dp": "model survey()\noutput var y\ncheck dp(eps = ln(3))\n"},
			args: []string{"m.dp"}, exit: 2, want: []string{`m.dp:2:1: unexpected "output" (did you mean outputs?)`}},
		{name: "spec: a missing ; in a module", files: map[string]string{"m.dp": "module m\n  input d : [0..1]\n  y : [0..1] init 0;\nendmodule\nneighbours d != d'\ncheck dp(eps = ln(2))\n"},
			args: []string{"m.dp"}, exit: 2, want: []string{"m.dp:2:19: missing ; at the end of this declaration"}},
		{name: "spec: an update without parentheses", files: map[string]string{"m.dp": "module m\n  input d : [0..1];\n  y : [0..1] init 0;\n  [] y = 0 -> y' = 1;\nendmodule\nneighbours d != d'\ncheck dp(eps = ln(2))\n"},
			args: []string{"m.dp"}, exit: 2, want: []string{"m.dp:4:15: an update is written in parentheses: (y' = …)"}},
	}...)
}
