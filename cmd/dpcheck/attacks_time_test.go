package main

// Work that would run for minutes: at the default limits each is refused,
// or stopped, with a message that names the limit and the flag that
// raises it; with the limit raised, --timeout 5s stops it within a
// fraction of a second of the deadline (the table of -attacks-doc shows
// the time).

// composeSurveys is 9999 runs of the survey, whose privacy-loss
// distribution has 10 000 loss values of up to 20 000 bits: about
// 7.3·10^11 word operations, minutes of work.
const composeSurveys = "model compose(k = 9999, model = survey())\nquery delta(eps = 0)\n"

// walkGrid is the random walk on an 11×11 grid for every p: state
// elimination over rational functions from each of its 81 inner inputs,
// hours of work.
const walkGrid = `param p in (0, 1)
module walk
  input x : [0..10];
  input y : [0..10];
  [] x > 0 & x < 10 & y > 0 & y < 10 -> p/2 : (x' = x + 1) + p/2 : (y' = y + 1) + (1 - p)/2 : (x' = x - 1) + (1 - p)/2 : (y' = y - 1);
endmodule
inputs where x >= 1 & x <= 9 & y >= 1 & y <= 9
neighbours |x - x'| + |y - y'| <= 1
query eps(delta = 0) for p
`

// thresholdTraces is the paper's above-threshold MDP, the streams of 12
// answers of one pair: 16^12 action sequences, and the bound prunes
// little.
const thresholdTraces = `model above_threshold_mdp(alpha_t = 1/4, alpha_q = 1/2, n = 5, cmp = ">=")
neighbours role0_t3_r5 ~ role1_t3_r4
observe top, bot
query delta(eps = 0) over traces(12)
`

// coinTraces is an MDP of four biased coins whose streams of 14 flips are
// its outputs: a sequence of actions weighs tens of thousands of
// distribution entries, and a thousand take a minute.
const coinTraces = `mdp module m
  input d : [0..1];
  y : [0..1] init 0;
  [a] true -> (d = 1 ? 3/4 : 1/4) : (y' = 1) + (d = 1 ? 1/4 : 3/4) : (y' = 0);
  [b] true -> (d = 1 ? 2/3 : 1/3) : (y' = 1) + (d = 1 ? 1/3 : 2/3) : (y' = 0);
  [c] true -> (d = 1 ? 3/5 : 2/5) : (y' = 1) + (d = 1 ? 2/5 : 3/5) : (y' = 0);
  [e] true -> (d = 1 ? 4/7 : 3/7) : (y' = 1) + (d = 1 ? 3/7 : 4/7) : (y' = 0);
endmodule
label yes = y = 1
neighbours d != d'
observe yes
query delta(eps = 1) over traces(14)
`

// geometricLabels is the truncated (999/1000)-geometric mechanism over
// {0..n} as a module, observed through one label of its output: --lump
// merges its 2n + 2 states into n + 3, weighing and summing probabilities
// of thousands of bits (at n = 1000 it took 98 s, now 3 s).
func geometricLabels(n string) string {
	return "const n = " + n + `
module geometric
  input in : [0..n];
  out : [-1..n] init -1;
  [] out = -1 -> (out' ~ geometric(999/1000, in, 0, n)) & (in' = 0);
endmodule
label big = out > n/2
outputs labels big
neighbours |in - in'| <= 1
check dp(eps = ln(2))
`
}

func init() {
	stopped := []string{"stopped after 5s (--timeout)"}
	attacks = append(attacks, []attack{
		{name: "time: 9999 surveys composed", files: map[string]string{"m.dp": composeSurveys}, args: []string{"m.dp"}, exit: 3,
			want: []string{"would take about 730,000,000,000 word operations", "the limit is 100,000,000,000 (raise it with --max-composition-work)"}},
		{name: "time: 9999 surveys composed, the work limit raised, --timeout 5s", files: map[string]string{"m.dp": composeSurveys},
			args: []string{"--max-composition-work", "1e13", "--timeout", "5s", "m.dp"}, exit: 3, want: stopped},
		{name: "time: a random walk on an 11×11 grid for every p", files: map[string]string{"m.dp": walkGrid}, args: []string{"m.dp"}, exit: 3,
			want: []string{"state elimination over rational functions would take about", "for 1 of the 81 inputs it is needed for", "(raise it with --max-elimination-work)"}},
		{name: "time: the 11×11 walk, the elimination limit raised, --timeout 5s", files: map[string]string{"m.dp": walkGrid},
			args: []string{"--max-elimination-work", "1e15", "--timeout", "5s", "m.dp"}, exit: 3, want: stopped},
		{name: "time: above threshold's traces of 12 answers over query schedulers", files: map[string]string{"m.dp": thresholdTraces}, args: []string{"m.dp"}, exit: 3,
			want: []string{"would explore more than 300,000 action sequences at horizon 12; the limit is 300,000 sequences (raise it with --max-sequences)"}},
		{name: "time: above threshold's traces of 12 answers, --timeout 5s", files: map[string]string{"m.dp": thresholdTraces},
			args: []string{"--timeout", "5s", "m.dp"}, exit: 3, want: stopped},
		{name: "time: streams of 14 coin flips over query schedulers", files: map[string]string{"m.dp": coinTraces}, args: []string{"m.dp"}, exit: 3,
			want: []string{"would weigh more than 50,000,000 distribution entries", "(raise it with --max-search-work)"}},
		{name: "time: the privacy profile of the 999/1000-geometric mechanism over {0..2000}, --timeout 5s",
			files: map[string]string{"m.dp": "model truncated_geometric(alpha = 999/1000, n = 2000)\nquery profile\n"},
			args:  []string{"--timeout", "5s", "m.dp"}, exit: 3, want: stopped},
		{name: "time: the geometric mechanism over {0..500} for every alpha, five statements, --timeout 1s",
			files: map[string]string{"m.dp": "param alpha in (0, 1)\nmodel truncated_geometric(alpha = alpha, n = 500)\ncheck dp(eps = ln(3)) for alpha expect violated\n" +
				"query eps(delta = 0) for alpha\nquery delta(eps = ln(2)) for alpha\nquery delta(eps = ln(3)) for alpha\nquery delta(eps = ln(4)) for alpha\n"},
			args: []string{"--timeout", "1s", "m.dp"}, exit: 3, want: []string{"stopped after 1s (--timeout)"}},
		{name: "time: --lump on a geometric module over {0..1000} observed through a label", files: map[string]string{"m.dp": geometricLabels("1000")},
			args: []string{"--lump", "m.dp"}, exit: 0, want: []string{"lumped 2002 → 1003 states", "1 passed"}},
		{name: "time: work limits of 0 and NaN", files: map[string]string{"m.dp": composeSurveys}, args: []string{"--max-composition-work", "0", "--max-elimination-work", "NaN", "m.dp"}, exit: 2,
			want: []string{"--max-composition-work and --max-elimination-work must be finite numbers of at least 1, as 1e12"}},
	}...)
}
