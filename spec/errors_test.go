package spec_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/spec"
	"github.com/google/go-cmp/cmp"
)

const chainAB = "chain {\n  state a [in_a]\n  state b [in_b]\n  a -> b : 1\n}\ninputs a, b\nneighbours a ~ b\n"

// TestErrors: every malformed input gets its exact message at its exact
// position, and none panics.
func TestErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		// Not text, empty, syntax.
		{"empty file", "", []string{"1:1: the file is empty: nothing to check"}},
		{"only a comment", "// nothing here\n", []string{"1:1: the file is empty: nothing to check"}},
		{"binary garbage", "\x00\x01\x02garbage\xff", []string{"1:1: the file contains NUL bytes: it is not a .dp text file"}},
		{"invalid UTF-8", "model survey()\n\xff\xfe", []string{"2:1: invalid UTF-8 (byte 0xff): a .dp file must be UTF-8 text"}},
		{"model without call", "model", []string{"1:6: unexpected end of file (expected a call such as survey(theta1 = 1/2))"}},
		{"unclosed paren", "model survey()\ncheck dp(eps = ln(2)", []string{`2:21: unexpected end of file (expected "," or ")")`}},
		{"malformed number", "model survey()\ncheck dp(eps = 1.2.3)", []string{`2:19: unexpected ".3" (expected "," or ")")`}},
		{"stray character", "model survey()\ncheck dp(eps = 1) $", []string{`2:19: unexpected character "$"`}},
		{"unquoted odd state name", "model survey()\nneighbours + ~ -", []string{`2:12: unexpected "+" (expected pairs A ~ B (quote names such as "+") or a predicate)`}},
		// Found by FuzzLoad: a ? : whose condition is a number was dropped
		// without an error, leaving a file without a model.
		{"ite condition not a condition", "chain{state s[]state A0(A=0)state A1(A=0)state s3[]s->s:0?0:0}inputs s  neighbors|0|=0query D{?,0}[A]", []string{"1:57: the condition of ? : must be a condition, found a number"}},
		{"ite in a constant", "const a = 1 > 2 ? 1 : 1/0\nmodel survey(theta1 = a, theta2 = 1/2)\ncheck dp(eps = 1)", []string{"1:24: division by zero"}},
		// Models and their parameters.
		{"unknown model", "model foo(x = 1)", []string{"1:7: unknown model foo (models: above_threshold, above_threshold_loop, above_threshold_mdp, above_threshold_untruncated, compose, cutoff_decision, generalized_decision, interactive_survey, laplace_decision, randomized_response, streaming_sum, survey, truncated_geometric, untruncated_geometric, yarrow_geometric)"}},
		// expected(f).
		{"expected checked without a bound", "model truncated_geometric(alpha = 1/2, n = 5)\ncheck expected(out)", []string{"2:7: expected(f) is a value: write query expected(f), or check expected(f) <= b"}},
		{"expected queried with a bound", "model truncated_geometric(alpha = 1/2, n = 5)\nquery expected(out) <= 1", []string{"2:7: query expected(f) asks for the value: write check expected(out) <= 1 to compare it"}},
		{"expected of a named argument", "model truncated_geometric(alpha = 1/2, n = 5)\nquery expected(out = in ? 1 : 0)", []string{"2:16: expected(out = …) reads as a named argument: put the comparison in parentheses, such as expected((out = in) ? 1 : 0)"}},
		{"expected of two expressions", "model truncated_geometric(alpha = 1/2, n = 5)\nquery expected(out, in)", []string{"2:7: expected takes one expression: the number whose expected value is asked, such as expected(abs(out - in))"}},
		{"expected compared for equality", "model truncated_geometric(alpha = 1/2, n = 5)\ncheck expected(out) = 1", []string{"2:7: compare expected(f) with <, <=, > or >=, not ="}},
		{"expected of a condition", "model truncated_geometric(alpha = 1/2, n = 5)\nquery expected(out > 1)", []string{"2:16: expected(f) takes a number, and this is a condition: for its probability write expected((out > 1) ? 1 : 0)"}},
		{"expected of an unknown variable", "model truncated_geometric(alpha = 1/2, n = 5)\nquery expected(x)", []string{"2:16: unknown variable x (variables: in, out)"}},
		{"expected check with a value", "model truncated_geometric(alpha = 1/2, n = 5)\ncheck expected(out) <= 1 expect 2", []string{"2:33: a check expects holds or violated, not 2"}},
		{"missing parameter", "model truncated_geometric(alpha = 1/2)", []string{"1:7: truncated_geometric needs parameter n (largest count)"}},
		{"parameter out of range", "model truncated_geometric(alpha = 2, n = 5)", []string{"1:27: truncated_geometric: parameter alpha must be in (0, 1), got 2"}},
		{"unknown parameter", "model truncated_geometric(alpha = 1/2, n = 5, beta = 3)", []string{"1:47: truncated_geometric has no parameter beta (parameters: alpha, n, sensitivity)"}},
		{"parameter twice", "model survey(theta1 = 1/2, theta1 = 1/3)", []string{"1:28: parameter theta1 is given twice (also at line 1)"}},
		{"non-integer n", "model truncated_geometric(alpha = 1/2, n = 5/2)", []string{"1:44: truncated_geometric: parameter n must be an integer, found 5/2"}},
		// A declared range is checked before the size.
		{"n beyond its range", "model untruncated_geometric(alpha = 1/2, n = 5001)", []string{"1:46: untruncated_geometric: parameter n must be between 1 and 5000, found 5001"}},
		{"huge n", "model above_threshold_untruncated(n = 100000000000, k = 2)", []string{"1:39: above_threshold_untruncated: parameter n must be between 1 and 1000, found 100000000000"}},
		{"bad choice", `model above_threshold(k = 3, cmp = "<")`, []string{`1:36: above_threshold: parameter cmp must be one of ">=", ">"`}},
		{"division by zero", "model truncated_geometric(alpha = 1/0, n = 5)", []string{"1:36: division by zero"}},
		{"huge literal exponent", "model truncated_geometric(alpha = 1e999999, n = 5)", []string{"1:35: the exponent of 1e999999 is outside ±1000"}},
		{"huge power", "model survey()\ncheck dp(eps = 2^100000000)", []string{"2:16: the exponent 100000000 is too large"}},
		{"power too big", "model survey()\ncheck dp(eps = 3^1000000)", []string{"2:16: 3^1000000 would have about 1,584,964 bits; the limit is 1,048,576"}},
		// 2^600000 has 600 001 bits (and 1 for its denominator), under the
		// limit; the size of a power is not the exponent times the base's.
		{"power of two under the limit", "const a = 2^600000\nconst b = 2^1048576\nmodel survey()", []string{"2:11: 2^1048576 would have 1,048,578 bits; the limit is 1,048,576"}},
		{"power of a fraction over the limit", "const a = (1/3)^1000000\nmodel survey()", []string{"1:11: (1/3)^1000000 would have about 1,584,964 bits; the limit is 1,048,576"}},
		{"huge product", "const a = 3^500000\nconst b = a*a*a\nmodel survey()", []string{"2:12: this result would have 1,584,964 bits; the limit is 1,048,576"}},
		{"power of a huge base", "const a = 3^500000\nconst c = a^2\nmodel survey()", []string{"2:11: (a number of 238561 digits)^2 would have about 1,584,964 bits; the limit is 1,048,576"}},
		{"model too big", "model truncated_geometric(alpha = 1/2, n = 5000)", []string{"1:7: truncated_geometric(alpha = 1/2, n = 5000) would have about 25,015,002 transitions; the limit is 10,000,000 transitions"}},
		{"composition of too many runs", "model compose(k = 2000000, model = survey())", []string{"1:7: compose: parameter k must be between 1 and 1048576, got 2000000"}},
		{"composition whose product a formula needs", "model compose(k = 1000000, model = survey())\ncheck dp(eps = ln(3))\ncheck D{ln(3), 0}[X out_Y_1]", []string{"1:7: compose(k = 1000000, model = survey()) would have more than 10^308 states; the limit is 10,000,000 states; line 3 (check D{ln(3), 0}[X out_Y_1]) needs the chain of the runs (dp, eps, delta and profile over their final outputs do not)"}},
		{"composition whose product traces need", "model compose(k = 100, model = survey())\nobserve out_Y\nquery eps(delta = 0) over traces(3)", []string{"1:7: compose(k = 100, model = survey()) would have about 6.34e+30 states; the limit is 10,000,000 states; the observe statement (line 2) needs the chain of the runs (dp, eps, delta and profile over their final outputs do not)"}},
		{"fractional power", "model survey(theta1 = 2^(1/2))", []string{"1:23: the exponent 1/2 is not an integer"}},
		{"model and chain", "model survey()\n" + chainAB, []string{"2:1: a file has one model: a model statement, a chain block or modules, not two of them (the model is at line 1)"}},
		{"two models", "model survey()\nmodel survey()", []string{"2:1: duplicate model statement (the first is at line 1)"}},
		{"inputs with a model", "model survey()\ninputs a", []string{"2:1: the model survey defines its own inputs: write inputs where … to keep some of them"}},
		// Constants.
		{"cyclic constants", "const a = b\nconst b = a\nmodel survey()", []string{"1:1: constant a is defined in terms of itself (a → b → a)"}},
		{"constant twice", "const a = 1\nconst a = 2\nmodel survey()", []string{"2:7: constant a is already defined at line 1"}},
		{"unknown name", "model survey(theta1 = q)", []string{"1:23: unknown name q"}},
		{"keyword constant", "const check = 1\nmodel survey()", []string{"1:7: check is a keyword and cannot name a constant"}},
		// Chains.
		{"unknown target", "chain {\n  state a\n  a -> b : 1\n}\ninputs a\nneighbours a ~ a", []string{"3:8: unknown state b (did you mean a?)"}},
		{"row below 1", "chain {\n  state a\n  state b\n  a -> b : 1/2, a : 1/4\n}\ninputs a, b\nneighbours a ~ b", []string{`4:3: the probabilities of a sum to 3/4, not 1 (1/4 is missing; write "else sink" to send it to †)`}},
		{"row above 1", "chain {\n  state a\n  state b\n  a -> b : 1/2, a : 3/4\n}\ninputs a, b\nneighbours a ~ b", []string{"4:3: the probabilities of a sum to 5/4, not 1 (1/4 too much)"}},
		{"negative and above one", "chain {\n  state a\n  state b\n  a -> b : -1/2, a : 3/2\n}\ninputs a, b\nneighbours a ~ b", []string{
			"4:12: probability -1/2 is negative", "4:22: probability 3/2 is greater than 1"}},
		{"division by zero in a probability", "chain {\n  state a\n  a -> a : 1/(1-1)\n}\ninputs a\nneighbours a ~ a", []string{"3:13: division by zero"}},
		{"duplicate state", "chain {\n  state a\n  state a\n}\ninputs a\nneighbours a ~ a", []string{"3:9: state a is already declared at line 2"}},
		{"two rows for a state", "chain {\n  state a\n  a -> a : 1\n  a -> a : 1\n}\ninputs a\nneighbours a ~ a", []string{"4:3: state a already has transitions at line 3: list all of them in one row"}},
		{"target twice", "chain {\n  state a\n  a -> a : 1/2, a : 1/2\n}\ninputs a\nneighbours a ~ a", []string{"3:17: a appears twice in the row of a (also at column 8)"}},
		{"bad else", "chain {\n  state a\n  a -> a : 1/2 else nowhere\n}\ninputs a\nneighbours a ~ a", []string{"3:21: else must be followed by sink (or †), found nowhere"}},
		{"non-integer value", "chain {\n  state a (x = 1/2)\n}\ninputs a\nneighbours a ~ a", []string{"2:16: the value of x must be an integer, found 1/2"}},
		{"no inputs", "chain {\n  state a\n}\nneighbours a ~ a", []string{"1:1: the chain has no inputs statement: say which states are the databases (inputs a, b or inputs where …)"}},
		{"unknown input", "chain {\n  state a\n  state b\n}\ninputs a, c\nneighbours a ~ b", []string{"5:11: unknown state c (did you mean a?)"}},
		{"inputs predicate matches nothing", "chain {\n  state a (x = 1)\n}\ninputs where x > 5\nneighbours a ~ a", []string{"4:14: no state satisfies this inputs predicate"}},
		{"label twice", "chain {\n  state a [l, l]\n}\ninputs a\nneighbours a ~ a", []string{"2:15: label l is listed twice in state a"}},
		// A broken chain still has its inputs and neighbours checked by name.
		{"row sum and neighbour errors", "chain {\n  state a\n  state o\n  a -> o : 1/2\n}\ninputs a\nneighbours a ~ o, b ~ zz", []string{
			`4:3: the probabilities of a sum to 1/2, not 1 (1/2 is missing; write "else sink" to send it to †)`,
			"7:16: o is not an input (inputs: a)", "7:19: unknown state b (did you mean a?)", "7:23: unknown state zz (did you mean a?)"}},
		{"variable twice and input twice", "chain {\n  state a (x = 1, x = 2)\n  state b (x = 3)\n}\ninputs a, a, b\nneighbours a ~ b", []string{
			"2:19: variable x is assigned twice in state a", "5:11: a is listed twice"}},
		// Neighbours.
		{"no neighbours", "chain {\n  state a\n}\ninputs a", []string{"1:1: no neighbours statement: say which inputs are neighbours (neighbours a ~ b, or a predicate such as |d - d'| <= 1)"}},
		{"neighbour not an input", chainAB[:strings.Index(chainAB, "inputs")] + "inputs a\nneighbours a ~ b", []string{"7:16: b is not an input (inputs: a)"}},
		{"self neighbour", chainAB[:strings.Index(chainAB, "neighbours")] + "neighbours a ~ a", []string{"7:12: a ~ a relates a state to itself"}},
		{"unknown neighbour", chainAB[:strings.Index(chainAB, "neighbours")] + "neighbours a ~ c", []string{"7:16: unknown state c (did you mean a?)"}},
		{"empty relation", "model survey()\nneighbours x = x'", []string{"2:12: this neighbour predicate relates no two distinct inputs"}},
		{"unknown variable", "model survey()\nneighbours |z - z'| <= 1", []string{"2:13: unknown variable z (variables: x, y)"}},
		{"variable missing on an input", "model survey()\nneighbours |x - y'| <= 1", []string{`2:17: input "+" has no variable y; a neighbour predicate may only compare variables every input has`}},
		{"unknown label", "model survey()\nneighbours in_x & in_neg'", []string{"2:12: unknown label in_x (labels: in_neg, in_pos, out_N, out_Y)"}},
		{"two neighbours", "model survey()\nneighbours \"+\" ~ \"-\"\nneighbours \"+\" ~ \"-\"", []string{"3:1: duplicate neighbours statement (the first is at line 2)"}},
		// Outputs.
		{"unknown output variable", "model survey()\noutputs var zz", []string{"2:13: unknown variable zz (variables: x, y)"}},
		{"unknown output label", "model survey()\noutputs labels out_Y, out_Z", []string{"2:23: unknown label out_Z (labels: in_neg, in_pos, out_N, out_Y)"}},
		// Properties.
		{"negative ε", "model survey()\ncheck dp(eps = -1)", []string{"2:16: ε = -1 is negative"}},
		{"string for a number", `model truncated_geometric(alpha = "x", n = 5)`, []string{"1:35: parameter alpha must be a number, found a string"}},
		{"ln for δ", "model survey()\ncheck dp(eps = 1, delta = ln(2))", []string{"2:27: δ must be a number, found an ε with ln"}},
		{"string for ε", "model survey()\ncheck dp(eps = \"x\")", []string{"2:16: ε must be a number or k*ln(r), found a string"}},
		{"negative ln ε", "model survey()\ncheck dp(eps = ln(1/2))", []string{"2:16: ε = ln(1/2) is negative"}},
		{"δ above 1", "model survey()\ncheck dp(eps = ln(2), delta = 2)", []string{"2:31: δ = 2 is outside [0, 1]"}},
		{"δ negative", "model survey()\nquery eps(delta = -1/2)", []string{"2:19: δ = -1/2 is outside [0, 1]"}},
		{"ln of zero", "model survey()\ncheck dp(eps = ln(0))", []string{"2:19: ln needs a positive argument, found 0"}},
		{"infinite ε", "model survey()\ncheck dp(eps = inf)", []string{"2:16: ε must be finite"}},
		{"ln of a negative", "model survey()\ncheck dp(eps = 1 + ln(-2))", []string{"2:23: ln needs a positive argument, found -2"}},
		{"huge ln coefficient", "model survey()\ncheck dp(eps = 100000*ln(2))", []string{"2:16: the coefficient 100000 of ln is above 65536"}},
		{"huge rational ε", "model survey()\ncheck dp(eps = 2000000000)", []string{"2:16: the rational part 2000000000 is above 65536 in absolute value"}},
		{"huge ln power", "model survey()\ncheck dp(eps = 60000*ln(10^600))", []string{"2:16: 60000·ln(" + "1" + strings.Repeat("0", 600) + ") is too large to expand exactly"}},
		{"missing ε", "model survey()\ncheck dp(delta = 0)", []string{"2:7: dp needs eps (dp(eps = …))"}},
		{"bare dp", "model survey()\ncheck dp", []string{"2:7: dp needs eps (dp(eps = …))"}},
		{"unknown property argument", "model survey()\ncheck dp(eps = 0, gamma = 1)", []string{"2:19: dp has no argument gamma (arguments: eps, delta)"}},
		{"query as check", "model survey()\ncheck eps(delta = 0)", []string{"2:7: eps is a query: write query eps(delta = 0)"}},
		{"check as query", "model survey()\nquery dp(eps = 0)", []string{"2:7: dp(…) is a yes/no property: write check dp(…); the queries are eps(delta = …), delta(eps = …) and profile"}},
		{"unknown property", "model survey()\ncheck foo(1)", []string{"2:7: unknown property foo: expected dp(eps = …, delta = …) or a dpCTL formula"}},
		{"unknown query", "model survey()\nquery foo(1)", []string{"2:7: unknown query foo: expected eps(delta = …), delta(eps = …), profile, P=?[…], D{?, δ}[…] or D{ε, ?}[…]"}},
		{"value expected of a check", "model survey()\ncheck dp(eps = ln(2)) expect 1/2", []string{"2:30: a check expects holds or violated, not 1/2"}},
		{"verdict expected of a query", "model survey()\nquery eps() expect holds", []string{"2:20: a query expects a value, not holds"}},
		{"temporal operator in ε", "model survey()\ncheck dp(eps = X out_Y)", []string{"2:16: a temporal formula (X) cannot appear here"}},
		// Traces.
		{"traces without observe", "model survey()\ncheck dp(eps = ln(2)) over traces(3)", []string{"2:28: over traces(k) needs an observe statement naming the labels a trace shows"}},
		{"traces of a formula", "model survey()\nobserve out_Y\ncheck D{ln(2),0}[X out_Y] over traces(3)", []string{"3:32: over traces(k) applies to dp, eps, delta and profile; a formula's path already looks at the steps of a run"}},
		{"traces of zero steps", "model survey()\nobserve out_Y\ncheck dp(eps = ln(2)) over traces(0)", []string{"3:35: the number of steps of a trace must be between 1 and 100000, found 0"}},
		{"over something else", "model survey()\nobserve out_Y\ncheck dp(eps = ln(2)) over paths(3)", []string{"3:28: expected traces(k) after over"}},
		{"unknown observed label", "model survey()\nobserve out_Z\ncheck dp(eps = ln(2)) over traces(2)", []string{"2:9: unknown label out_Z (labels: in_neg, in_pos, out_N, out_Y)"}},
		// dpCTL formulas.
		{"path formula checked", "model survey()\ncheck X out_Y", []string{"2:7: X is a path operator: use it inside P…[…] or D{…}[…]"}},
		{"until outside brackets", "model survey()\ncheck out_Y U out_N", []string{"2:13: U is a path operator: use it inside P…[…] or D{…}[…]"}},
		{"unknown label in a formula", "model survey()\ncheck D{ln(3),0}[X out_Z]", []string{"2:20: unknown label out_Z (labels: in_neg, in_pos, out_N, out_Y)"}},
		{"variable as a condition", "model survey()\ncheck P>=1/2[X y]", []string{"2:16: y is a variable, not a condition: compare it (y = …)"}},
		{"probability bound above 1", "model survey()\ncheck P>=3/2[X out_Y]", []string{"2:10: the probability bound 3/2 is outside [0, 1]"}},
		{"P=? in a check", "model survey()\ncheck P=?[X out_Y]", []string{"2:7: P=?[…] is a query: write query P=?[…]"}},
		{"P=? nested", "model survey()\ncheck out_Y & P=?[X out_Y]", []string{"2:15: P=?[…] is a query of its own: write query P=?[…]"}},
		{"P=p", "model survey()\ncheck P=1/2[X out_Y]", []string{"2:7: P=p[…] compares probabilities exactly; use P>=p[…], P<=p[…], or query P=?[…]"}},
		{"D{?} in a check", "model survey()\ncheck D{?,0}[X out_Y]", []string{"2:7: D{?,…} and D{…,?} are queries: write query …"}},
		{"D{?,?}", "model survey()\nquery D{?,?}[X out_Y]", []string{"2:7: D{?, ?}: give ε or δ"}},
		{"formula queried", "model survey()\nquery D{ln(3),0}[X out_Y]", []string{"2:7: a formula is checked, not queried: write check …, or query P=?[…], D{?, δ}[…] or D{ε, ?}[…]"}},
		{"X with a bound", "model survey()\ncheck D{ln(3),0}[X<=2 out_Y]", []string{"2:21: X takes a power (X^k), not a bound"}},
		{"F with a power", "model survey()\ncheck D{ln(3),0}[F^2 out_Y]", []string{"2:20: F takes a bound (F<=k), not a power"}},
		{"negative bound", "model survey()\ncheck D{ln(3),0}[F<=-1 out_Y]", []string{"2:21: a step bound must be between 0 and 100000, found -1"}},
		{"X^0", "model survey()\ncheck D{ln(3),0}[X^0 out_Y]", []string{"2:20: the power of X must be between 1 and 100000, found 0"}},
		{"expected probability above 1", "model survey()\nquery P=?[X out_Y] expect 3/2", []string{"2:27: an expected probability 3/2 is outside [0, 1]"}},
		{"expected probability of a non-input", "model survey()\nquery P=?[X out_Y] expect Y: 1/2", []string{`2:27: Y is not an input (inputs: +, -)`}},
		{"expected probability of an unknown state", "model survey()\nquery P=?[X out_Y] expect \"+\": 3/4, Z: 1/4", []string{`2:37: unknown state Z (did you mean +?)`}},
		{"expected probability twice", "model survey()\nquery P=?[X out_Y] expect \"+\": 3/4, \"+\": 1/4", []string{`2:37: "+" is listed twice`}},
		{"named values for ε", "model survey()\nquery eps() expect \"+\": 1", []string{"2:20: only query P=?[…] expects values of named inputs (NAME: VALUE, …); write one value"}},
		{"negative D ε", "model survey()\ncheck D{-1,0}[X out_Y]", []string{"2:9: ε = -1 is negative"}},
		{"primed label in a formula", "model survey()\ncheck D{ln(3),0}[X out_Y']", []string{"2:20: out_Y' (a primed name) only makes sense in a neighbour predicate"}},
		// Composition and equivalence.
		{"model parameter not a model", "model compose(k = 2, model = 3)", []string{"1:30: parameter model must be a model, such as survey()"}},
		{"unknown inner model", "model compose(k = 2, model = foo())", []string{"1:30: unknown model foo (models: above_threshold, above_threshold_loop, above_threshold_mdp, above_threshold_untruncated, compose, cutoff_decision, generalized_decision, interactive_survey, laplace_decision, randomized_response, streaming_sum, survey, truncated_geometric, untruncated_geometric, yarrow_geometric)"}},
		{"bad inner parameter", "model compose(k = 2, model = survey(theta1 = 2))", []string{"1:37: survey: parameter theta1 must be in [0, 1], got 2"}},
		{"equivalent with one model", "check equivalent(survey())", []string{"1:1: equivalent takes two models: check equivalent(yarrow_geometric(…), truncated_geometric(…))"}},
		{"equivalent of numbers", "check equivalent(1, 2)", []string{"1:18: the arguments of equivalent must be models, such as survey(), or model for the file's own", "1:21: the arguments of equivalent must be models, such as survey(), or model for the file's own"}},
		{"equivalent queried", "query equivalent(survey(), survey())", []string{"1:7: equivalent(…) is a yes/no property: write check equivalent(…)"}},
		{"equivalent expects a value", "check equivalent(survey(), survey()) expect 1", []string{"1:45: a check expects holds or violated, not 1"}},
		// Several errors at once, in order.
		{"several errors", "const a = 1/0\nmodel truncated_geometric(alpha = 3, n = 5)\ncheck dp(eps = -1)\nquery delta(eps = ln(2)) expect 2\n", []string{
			"1:12: division by zero",
			"2:27: truncated_geometric: parameter alpha must be in (0, 1), got 3",
			"3:16: ε = -1 is negative",
			"4:33: δ = 2 is outside [0, 1]",
		}},
	}
	if len(tests) < 30 {
		t.Fatalf("only %d malformed inputs", len(tests))
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := errorsOf(t, tt.src)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSlips: the misspellings and slips of a new user each get an error
// at their position that says what to write (a did-you-mean for a
// misspelt word, as property.Suggest makes them for names).
func TestSlips(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"endmodule misspelt", "module m\n  input d : [0..1];\n  y : [0..1] init 0;\n  [] y = 0 -> (y' = 1);\nendmodul\noutputs var y\nneighbours d != d'\ncheck dp(eps = 1)", []string{"5:1: unexpected \"endmodul\" (did you mean endmodule?)"}},
		{"output for outputs", "module m\n  input d : [0..1];\n  y : [0..1] init 0;\n  [] y = 0 -> (y' = 1);\nendmodule\nneighbours d != d'\noutput var y\ncheck dp(eps = 1)", []string{"7:1: unexpected \"output\" (did you mean outputs?)"}},
		{"neighbour for neighbours", "module m\n  input d : [0..1];\nendmodule\nneighbour d != d'\ncheck dp(eps = 1)", []string{"4:1: unexpected \"neighbour\" (did you mean neighbours?)"}},
		{"chek for check", "module m\n  input d : [0..1];\n  y : [0..1] init 0;\n  [] y = 0 -> (y' = 1);\nendmodule\nneighbours d != d'\nchek dp(eps = 1)", []string{"7:1: unexpected \"chek\" (did you mean check?)"}},
		{"querry for query", "module m\n  input d : [0..1];\n  y : [0..1] init 0;\n  [] y = 0 -> (y' = 1);\nendmodule\nneighbours d != d'\nquerry eps(delta = 0)", []string{"7:1: unexpected \"querry\" (did you mean query?)"}},
		{"modul: model or module", "modul m\n  input d : [0..1];\nendmodule", []string{"1:1: unexpected \"modul\" (did you mean model or module?)"}},
		{"cosnt for const", "cosnt n = 3\nmodel survey()", []string{"1:1: unexpected \"cosnt\" (did you mean const?)"}},
		{"lable for label", "module m\n  input d : [0..1];\n  y : [0..1] init 0;\n  [] y = 0 -> (y' = 1);\nendmodule\nneighbours d != d'\nlable done = y = 1\ncheck dp(eps = 1)", []string{"7:1: unexpected \"lable\" (did you mean label?)"}},
		{"input for inputs", "chain {\n  state a (x = 1)\n  state b\n  a -> b : 1\n}\ninput a\nneighbours a ~ a", []string{"6:1: unexpected \"input\" (did you mean inputs? input declares an input variable inside a module: input d : [lo..hi];)"}},
		{"inputs for input in a module", "module m\n  inputs d : [0..1];\nendmodule", []string{"2:3: unexpected \"inputs\" (did you mean input? an input variable is declared input d : [lo..hi];)"}},
		{"PRISM model type", "dtmc\nmodule m\n  input d : [0..1];\nendmodule", []string{"1:1: unexpected \"dtmc\": a .dp file has no model type (its modules are a Markov chain; write mdp module for an MDP; a PRISM model is read as it is: model prism(\"m.prism\"))"}},
		{"property without check", "module m\n  input d : [0..1];\n  y : [0..1] init 0;\n  [] y = 0 -> (y' = 1);\nendmodule\nneighbours d != d'\ndp(eps = ln(2))", []string{"7:1: unexpected \"dp\": a property is written after check or query: check dp(…)"}},
		{"query without query", "module m\n  input d : [0..1];\n  y : [0..1] init 0;\n  [] y = 0 -> (y' = 1);\nendmodule\nneighbours d != d'\neps(delta = 0)", []string{"7:1: unexpected \"eps\": a property is written after check or query: query eps(…)"}},
		{"declaration without colon", "module m\n  input d : [0..1];\n  y [0..1] init 0;\nendmodule", []string{"3:5: unexpected \"[\" (expected \":\" after the variable's name: y : [lo..hi] init e; an array of variables is declared y[first..last] : [lo..hi];)"}},
		{"command without arrow", "module m\n  input d : [0..1];\n  y : [0..1] init 0;\n  [] y = 0 (y' = 1);\nendmodule", []string{"4:12: unexpected \"(\" (expected \"->\" between the guard and the updates: [] guard -> updates;)"}},
		{"command without brackets", "module m\n  input d : [0..1];\n  y : [0..1] init 0;\n  y = 0 -> (y' = 1);\nendmodule", []string{"4:3: a command starts with [] (or [action] in an mdp module): [] guard -> updates;"}},
		{"declaration without semicolon", "module m\n  input d : [0..1]\n  y : [0..1] init 0;\nendmodule", []string{"2:19: missing ; at the end of this declaration (inside a module, declarations and commands end with ;)"}},
		{"command without semicolon", "module m\n  input d : [0..1];\n  y : [0..2] init 0;\n  [] y = 0 -> (y' = 1)\n  [] y = 1 -> (y' = 2);\nendmodule", []string{"4:23: missing ; at the end of this command (inside a module, declarations and commands end with ;)"}},
		{"update with ==", "module m\n  input d : [0..1];\n  y : [0..1] init 0;\n  [] y = 0 -> (y' == 1);\nendmodule", []string{"4:19: an update assigns with one =: (y' = …)"}},
		{"update with :=", "module m\n  input d : [0..1];\n  y : [0..1] init 0;\n  [] y = 0 -> (y' := 1);\nendmodule", []string{"4:19: an update assigns with one =: (y' = …)"}},
		{"update without parentheses", "module m\n  input d : [0..1];\n  y : [0..1] init 0;\n  [] y = 0 -> y' = 1;\nendmodule", []string{"4:15: an update is written in parentheses: (y' = …)"}},
		{"probability after its update", "module m\n  input d : [0..1];\n  y : [0..2] init 0;\n  [] y = 0 -> (y' = 1) : 1/2 + (y' = 2) : 1/2;\nendmodule", []string{"4:24: the probability comes before its update: P : (x' = …) + …"}},
		{"probability without colon", "module m\n  input d : [0..1];\n  y : [0..2] init 0;\n  [] y = 0 -> 1/2 : (y' = 1) + 1/2 (y' = 2);\nendmodule", []string{"4:36: unexpected \"(\" (expected \":\" between the probability and its update: P : (x' = …))"}},
		{"named argument with ==", "module m\n  input d : [0..1];\n  y : [0..1] init 0;\n  [] y = 0 -> (y' = 1);\nendmodule\nneighbours d != d'\ncheck dp(eps == ln(2))", []string{"7:14: a named argument is written with one =: eps = …"}},
		{"distribution misspelt", "module m\n  input d : [0..1];\n  y : [0..2] init 0;\n  [] y = 0 -> (y' ~ geometrc(1/2, d, 0, 2));\nendmodule\nneighbours d != d'", []string{"4:21: unknown distribution geometrc (did you mean geometric?) (geometric(alpha, centre, lo, hi), geometric1(alpha, centre, lo, hi), uniform(lo, hi) or bernoulli(p))"}},
		{"bernoulli misspelt", "module m\n  input d : [0..1];\n  y : [0..1] init 0;\n  [] y = 0 -> (y' ~ bernouli(1/2));\nendmodule\nneighbours d != d'", []string{"4:21: unknown distribution bernouli (did you mean bernoulli?) (geometric(alpha, centre, lo, hi), geometric1(alpha, centre, lo, hi), uniform(lo, hi) or bernoulli(p))"}},
		{"draw argument misspelt", "module m\n  input d : [0..1];\n  y : [0..2] init 0;\n  [] y = 0 -> (y' ~ geometric(alpah = 1/2, centre = d, lo = 0, hi = 2));\nendmodule\nneighbours d != d'", []string{"4:31: geometric has no argument alpah (did you mean alpha?) (arguments: alpha, centre, lo, hi; NAME = … is a named argument only for these, a comparison otherwise)"}},
		{"outputs vars", "module m\n  input d : [0..1];\n  y : [0..1] init 0;\n  [] y = 0 -> (y' = 1);\nendmodule\nneighbours d != d'\noutputs vars y\ncheck dp(eps = 1)", []string{"7:9: unexpected \"vars\" (did you mean var?) (outputs state, outputs var NAME or outputs labels L, …)"}},
		{"boolean for bool", "module m\n  input d : [0..1];\n  b : boolean init false;\nendmodule", []string{"3:7: unexpected \"boolean\": a variable's type is a range [lo..hi], bool, or int (an unbounded integer; double has no counterpart)"}},
		{"double type", "module m\n  input d : [0..1];\n  x : double init 0;\nendmodule", []string{"3:7: unexpected \"double\": a variable's type is a range [lo..hi], bool, or int (an unbounded integer; double has no counterpart)"}},
		{"init misspelt", "module m\n  input d : [0..1];\n  y : [0..2] int 0;\nendmodule", []string{"3:14: unexpected \"int\" (did you mean init?) (an initial value is written init e)"}},
		{"range with three dots", "module m\n  input d : [0...1];\nendmodule", []string{"2:15: a range is written with two dots: [lo..hi]"}},
		{"range with a comma", "module m\n  input d : [0,1];\nendmodule", []string{"2:15: unexpected \",\" (expected \"..\": a range is [lo..hi])"}},
		{"row without colon", "chain {\n  state a (x = 1)\n  state b\n  a -> b 1\n}", []string{"4:10: unexpected \"1\" (expected \":\" between the target and its probability: b : PROBABILITY)"}},
		{"row with =>", "chain {\n  state a (x = 1)\n  state b\n  a => b : 1\n}", []string{"4:5: unexpected \"=>\" (expected \"->\": a row is FROM -> TO : PROBABILITY, TO : PROBABILITY …)"}},
		{"expect hold", "module m\n  input d : [0..1];\n  y : [0..1] init 0;\n  [] y = 0 -> (y' = 1);\nendmodule\nneighbours d != d'\ncheck dp(eps = 1) expect hold", []string{"7:26: a check expects holds or violated, not hold (did you mean holds?)"}},
		{"builder misspelt", "model trunacted_geometric(alpha = 1/2, n = 3)\ncheck dp(eps = 1)", []string{"1:7: unknown model trunacted_geometric (did you mean truncated_geometric?) (models: above_threshold, above_threshold_loop, above_threshold_mdp, above_threshold_untruncated, compose, cutoff_decision, generalized_decision, interactive_survey, laplace_decision, randomized_response, streaming_sum, survey, truncated_geometric, untruncated_geometric, yarrow_geometric)"}},
		{"builder parameter misspelt", "model survey(thteta1 = 1/2)\ncheck dp(eps = 1)", []string{"1:14: survey has no parameter thteta1 (did you mean theta1?) (parameters: theta1, theta2)"}},
		{"neighbours over an output", "module m\n  input h : [0..3];\n  r : [0..3] init 0;\n  done : bool init false;\n  [] !done -> (r' ~ geometric(1/2, h, 0, 3)) & (done' = true);\nendmodule\nlabel \"fin\" = done\noutputs var r\nneighbours |r - r'| <= 1 | fin & |h - h'| = 1\ncheck dp(eps = ln(2))", []string{"9:13: r is not an input variable: every input has it at its initial value, so comparing it cannot tell two inputs apart; a neighbour predicate compares input variables (input variables: h)", "9:28: label \"fin\" reads no input variable, so it holds at every input or at none; a neighbour predicate compares input variables (input variables: h)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, errorsOf(t, tt.src)); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPretty(t *testing.T) {
	src := "model survey()\ncheck dp(eps = ln(0)) // ε must be positive\n"
	_, err := dpcheck.Config{}.Load(context.Background(), "m.dp", src)
	list, ok := err.(source.ErrorList)
	if !ok {
		t.Fatalf("error %v", err)
	}
	want := "m.dp:2:19: ln needs a positive argument, found 0\n" +
		"    check dp(eps = ln(0)) // ε must be positive\n" +
		"                      ^\n"
	if got := list.Pretty(src); got != want {
		t.Errorf("Pretty:\n%s\nwant:\n%s", got, want)
	}
	// The caret counts characters, not bytes.
	src = "model survey()\ncheck dp(eps = 0) expect /* ε */ holdz\n"
	_, err = dpcheck.Config{}.Load(context.Background(), "m.dp", src)
	want = "m.dp:2:34: a check expects holds or violated, not holdz (did you mean holds?)\n" +
		"    check dp(eps = 0) expect /* ε */ holdz\n" +
		"                                     ^\n"
	if got := err.(source.ErrorList).Pretty(src); got != want {
		t.Errorf("Pretty with a multi-byte character:\n%s\nwant:\n%s", got, want)
	}
}

// TestNeighboursReadInputData: a neighbour predicate compares what varies
// between inputs. Over modules, a variable that is not declared input is
// an error (errors_test's "neighbours over an output"); over a PRISM model
// or PRISM's explicit files, a variable with the same value at every
// initial state; a chain block's and a builder's inputs carry only their
// own data, so any variable they all have may be compared, even one that
// is the same at the inputs kept.
func TestNeighboursReadInputData(t *testing.T) {
	files := map[string]string{}
	for _, ext := range []string{".prism", ".tra", ".lab", ".sta"} {
		data, err := os.ReadFile("../models/prism/randomized_response" + ext)
		if err != nil {
			t.Fatal(err)
		}
		files["rr"+ext] = string(data)
	}
	cfg := dpcheck.Config{ReadFile: func(path string) (string, error) {
		if src, ok := files[path]; ok {
			return src, nil
		}
		return "", fmt.Errorf("open %s: %w", path, fs.ErrNotExist)
	}}
	const answer = "answer is not an input variable: it is 0 at every initial state of the model (its inputs), so comparing it cannot tell two inputs apart; a neighbour predicate compares the variables whose initial values differ (truth)"
	tests := []struct {
		name, src string
		want      []string
	}{
		{"PRISM: the answer", "model prism(\"rr.prism\", p = 1/2)\noutputs var answer\nneighbours |answer - answer'| <= 1 & truth != truth'\ncheck dp(eps = ln(3))",
			[]string{"3:13: " + answer}},
		{"PRISM: the truth", "model prism(\"rr.prism\", p = 1/2)\nneighbours truth != truth'\ncheck dp(eps = ln(3))", nil},
		{"explicit files: the answer", "model explicit(\"rr.tra\", \"rr.lab\", \"rr.sta\")\nneighbours answer = answer'\ncheck dp(eps = ln(3))",
			[]string{"2:12: " + answer}},
		{"chain: a variable the same at every input", "chain {\n  state a (x = 1, k = 0)\n  state b (x = 0, k = 0)\n  state y\n  a -> y : 1\n  b -> y : 1\n}\ninputs a, b\nneighbours k = k' & x != x'\ncheck dp(eps = 1)", nil},
		{"builder: a variable the same at every input kept", "model above_threshold(n = 3, k = 2)\ninputs where t = 2\nneighbours |d - d'| <= 1 & t = t'\ncheck dp(eps = ln(16))", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			if _, err := cfg.Load(context.Background(), "t.dp", tt.src); err != nil {
				list, ok := err.(source.ErrorList)
				if !ok {
					t.Fatalf("error %v", err)
				}
				for _, e := range list {
					got = append(got, strings.TrimPrefix(e.Error(), "t.dp:"))
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

// TestNamedArgumentsOrComparisons: NAME = … in the arguments of a draw or
// a builder is a named argument where NAME is one of its parameters, and
// otherwise the comparison it looks like: geometric(1/2, i = 1 ? d : 0,
// 0, 2) draws around (i = 1) ? d : 0, and survey(x = 1 ? 1/2 : 1/3) with a
// constant x = 1 is survey(theta1 = 1/2).
func TestNamedArgumentsOrComparisons(t *testing.T) {
	f, err := spec.Parse("t.dp", "module m\n  input d : [0..1];\n  i : [0..1] init 1;\n  y : [0..2] init 0;\n  [] y = 0 -> (y' ~ geometric(1/2, i = 1 ? d : 0, lo = 0, hi = 2));\nendmodule")
	if err != nil {
		t.Fatal(err)
	}
	draw := f.Stmts[0].(*spec.ModuleStmt).Commands[0].Updates[0].Assigns[0].Draw
	var got []string
	for _, a := range draw.Args {
		s := fmt.Sprint(a.Op)
		if a.Op == spec.EArg {
			s += " " + a.Text
		}
		if a.Op == spec.EIte {
			s += fmt.Sprint(" ", a.Args[0].Op, " ", a.Args[0].Text)
		}
		got = append(got, s)
	}
	want := []string{fmt.Sprint(spec.EProd), fmt.Sprint(spec.EIte, " ", spec.ECmp, " ", "="), fmt.Sprint(spec.EArg, " lo"), fmt.Sprint(spec.EArg, " hi")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the draw's arguments (-want +got):\n%s", diff)
	}
	p, err := dpcheck.Config{}.Load(context.Background(), "t.dp", "const x = 1\nmodel survey(x = 1 ? 1/2 : 1/3)\ncheck dp(eps = ln(3))")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := p.Model.Call, "survey(theta1 = 1/2)"; got != want {
		t.Errorf("model %s, want %s", got, want)
	}
}
